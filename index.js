'use strict';
// smart-file-query: the public JS API. Types and docs: index.d.ts.

const { checkRegExp, runValue, runValueSync } = require('./lib/native.js');

function smartFileQuery(options, signal) {
  try {
    checkRegExp(options?.regex, options?.flags);
  } catch (e) {
    return Promise.reject(e);
  }
  return runValue('smartFileQuery', options, 'regex', signal);
}

function smartFileQuerySync(options) {
  checkRegExp(options?.regex, options?.flags);
  return runValueSync('smartFileQuery', options, 'regex');
}

function findFiles(options, signal) {
  return runValue('findFiles', options, undefined, signal);
}

function findFilesSync(options) {
  return runValueSync('findFiles', options);
}

exports.smartFileQuery = smartFileQuery;
exports.smartFileQuerySync = smartFileQuerySync;
exports.findFiles = findFiles;
exports.findFilesSync = findFilesSync;

const outline = require('./lib/outline.js');

exports.getOutline = outline.getOutline;
exports.getOutlineSync = outline.getOutlineSync;
exports.formatOutline = outline.formatOutline;
exports.createWindowViewer = outline.createWindowViewer;
exports.WindowViewer = outline.WindowViewer;
