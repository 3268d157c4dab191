'use strict';
// smart-file-query: the public JS API. Types and docs: index.d.ts.

const { checkRegExp, parse, runJson, runJsonSync } = require('./lib/native.js');

function smartFileQuery(options, signal) {
  try {
    checkRegExp(options?.regex, options?.flags);
  } catch (e) {
    return Promise.reject(e);
  }
  return runJson('smartFileQuery', options, 'regex', signal).then(parse);
}

function smartFileQuerySync(options) {
  checkRegExp(options?.regex, options?.flags);
  return parse(runJsonSync('smartFileQuery', options, 'regex'));
}

exports.smartFileQuery = smartFileQuery;
exports.smartFileQuerySync = smartFileQuerySync;

const outline = require('./lib/outline.js');

exports.getOutline = outline.getOutline;
exports.getOutlineSync = outline.getOutlineSync;
exports.formatOutline = outline.formatOutline;
exports.createWindowViewer = outline.createWindowViewer;
exports.WindowViewer = outline.WindowViewer;
