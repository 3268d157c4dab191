'use strict';
// smart-file-query: the public JS API. Types and docs: index.d.ts.

const { checkRegExp, codedError, runValue, runValueSync } = require('./lib/native.js');

function smartFileQuery(options, signal) {
  try {
    checkRegExp(options?.regex, options?.flags);
  } catch (e) {
    return Promise.reject(e);
  }
  const prepared = withSignal(options, signal);
  return runValue('smartFileQuery', prepared.request, 'regex', prepared.signal);
}

function smartFileQuerySync(options) {
  checkRegExp(options?.regex, options?.flags);
  return runValueSync('smartFileQuery', options, 'regex');
}

function findFiles(options, signal) {
  const prepared = withSignal(options, signal);
  return runValue('findFiles', prepared.request, undefined, prepared.signal);
}

function findFilesSync(options) {
  return runValueSync('findFiles', options);
}

// The agent-server search APIs (seeds 002, 003, 004): one options object
// each, with `signal` and `timeoutMs` in it; the Promise runs off the JS
// thread, the …Sync twin on the calling thread.

/** Options without `signal`, and the signal (an explicit argument wins). */
function withSignal(options, signal) {
  if (typeof options !== 'object' || options === null || Array.isArray(options) || !('signal' in options)) {
    return { request: options, signal };
  }
  const { signal: inOptions, ...request } = options;
  return { request, signal: signal ?? inOptions };
}

function asyncApi(kind, patternKey, prepare = (o) => o) {
  return (...args) => {
    let prepared;
    try {
      prepared = withSignal(prepare(...args), undefined);
    } catch (e) {
      return Promise.reject(e);
    }
    return runValue(kind, prepared.request, patternKey, prepared.signal);
  };
}

function syncApi(kind, patternKey, prepare = (o) => o) {
  return (...args) => runValueSync(kind, prepare(...args), patternKey);
}

function searchCodeOptions(query, options) {
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw codedError('EINVALIDOPTION', 'searchCode: options must be an object');
  }
  return { ...options, query };
}

exports.searchCode = asyncApi('searchCode', 'query', searchCodeOptions);
exports.searchCodeSync = syncApi('searchCode', 'query', searchCodeOptions);
exports.grep = asyncApi('grep', 'pattern');
exports.grepSync = syncApi('grep', 'pattern');
exports.grepContent = asyncApi('grepContent', 'pattern');
exports.grepContentSync = syncApi('grepContent', 'pattern');
exports.globFiles = asyncApi('globFiles', undefined);
exports.globFilesSync = syncApi('globFiles', undefined);

// The bounded exploration protocol (seed 001): each resolves to
// { text, exitCode, ...the same facts typed }; `text` is what the CLI prints.
// Each export is written out (not assigned in a loop): Node's CommonJS
// named-export detection, which `import { sample } from 'smart-file-query'`
// relies on, sees only `exports.name = …` assignments.
exports.survey = asyncApi('survey', undefined);
exports.surveySync = syncApi('survey', undefined);
exports.scout = asyncApi('scout', undefined);
exports.scoutSync = syncApi('scout', undefined);
exports.sample = asyncApi('sample', undefined);
exports.sampleSync = syncApi('sample', undefined);
exports.show = asyncApi('show', undefined);
exports.showSync = syncApi('show', undefined);

/** The package's version (its package.json's). */
exports.version = require('./package.json').version;

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
