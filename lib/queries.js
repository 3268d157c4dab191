'use strict';
// Every query of the module, made for one place to run: the disk (the
// module's cold calls, `queries(undefined)`) or a session (`queries(native)`,
// a NativeSession). Types and docs: index.d.ts.

const { checkRegExp, codedError, runValue, runValueSync } = require('./native.js');
const outline = require('./outline.js');

/** Options without `signal`, and the signal (an explicit argument wins). */
function withSignal(options, signal) {
  if (typeof options !== 'object' || options === null || Array.isArray(options) || !('signal' in options)) {
    return { request: options, signal };
  }
  const { signal: inOptions, ...request } = options;
  return { request, signal: signal ?? inOptions };
}

function searchCodeOptions(query, options) {
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw codedError('EINVALIDOPTION', 'searchCode: options must be an object');
  }
  return { ...options, query };
}

/**
 * The queries, each running on `native` (a NativeSession) or, when it is
 * undefined, as a cold call.
 */
function queries(native) {
  // The agent-server search APIs (seeds 002, 003, 004) and the protocol
  // (seed 001): one options object each, with `signal` and `timeoutMs` in
  // it; the Promise runs off the JS thread, the …Sync twin on the calling thread.
  const asyncApi = (kind, patternKey, prepare = (o) => o) => (...args) => {
    let prepared;
    try {
      prepared = withSignal(prepare(...args), undefined);
    } catch (e) {
      return Promise.reject(e);
    }
    return runValue(kind, prepared.request, patternKey, prepared.signal, native);
  };
  const syncApi = (kind, patternKey, prepare = (o) => o) => (...args) =>
    runValueSync(kind, prepare(...args), patternKey, native);
  return {
    smartFileQuery(options, signal) {
      try {
        checkRegExp(options?.regex, options?.flags);
      } catch (e) {
        return Promise.reject(e);
      }
      const prepared = withSignal(options, signal);
      return runValue('smartFileQuery', prepared.request, 'regex', prepared.signal, native);
    },
    smartFileQuerySync(options) {
      checkRegExp(options?.regex, options?.flags);
      return runValueSync('smartFileQuery', options, 'regex', native);
    },
    findFiles(options, signal) {
      const prepared = withSignal(options, signal);
      return runValue('findFiles', prepared.request, undefined, prepared.signal, native);
    },
    findFilesSync(options) {
      return runValueSync('findFiles', options, undefined, native);
    },
    searchCode: asyncApi('searchCode', 'query', searchCodeOptions),
    searchCodeSync: syncApi('searchCode', 'query', searchCodeOptions),
    grep: asyncApi('grep', 'pattern'),
    grepSync: syncApi('grep', 'pattern'),
    grepContent: asyncApi('grepContent', 'pattern'),
    grepContentSync: syncApi('grepContent', 'pattern'),
    globFiles: asyncApi('globFiles', undefined),
    globFilesSync: syncApi('globFiles', undefined),
    survey: asyncApi('survey', undefined),
    surveySync: syncApi('survey', undefined),
    scout: asyncApi('scout', undefined),
    scoutSync: syncApi('scout', undefined),
    sample: asyncApi('sample', undefined),
    sampleSync: syncApi('sample', undefined),
    show: asyncApi('show', undefined),
    showSync: syncApi('show', undefined),
    getOutline: (path, options) => outline.getOutline(path, options, native),
    getOutlineSync: (path, options) => outline.getOutlineSync(path, options, native),
  };
}

module.exports = { queries };
