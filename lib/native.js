'use strict';
// The one bridge between the public JS API and the native addon.
// Options travel as JSON (validated in Rust, one place for every API); the
// main pattern travels beside it as a JS string so lone surrogates survive;
// results come back as JSON bytes (JSON.stringify's exact bytes), errors as
// {code, message} data turned here into Error objects with a `code`.

const binding = require('./load.js').loadBinding();
const { decodeCompact } = require('./decode.js');
// Every API declares timeoutMs alike (the engine's options::TIMEOUT_MS).
const { max: MAX_TIMEOUT_MS } = require('./generated/options.js').OPTIONS.searchCode.options.find((o) => o.name === 'timeoutMs');

/** An Error with a `code` property. */
function codedError(code, message, cause) {
  const err = cause === undefined ? new Error(message) : new Error(message, { cause });
  err.code = code;
  return err;
}

// JSON cannot carry NaN, Infinity, BigInt, functions or symbols: send a
// description instead, so Rust can say what was wrong instead of seeing null.
function replacer(_key, value) {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? value : { $invalid: String(value) };
    case 'bigint':
      return { $invalid: `${value}n` };
    case 'function':
      return { $invalid: 'a function' };
    case 'symbol':
      return { $invalid: 'a symbol' };
    default:
      return value;
  }
}

function isPlainOptions(options) {
  return typeof options === 'object' && options !== null && !Array.isArray(options);
}

/**
 * Splits `options` into the JSON sent to Rust and the pattern sent beside it.
 * @param {string} api name used in messages
 * @param {unknown} options
 * @param {string | undefined} patternKey the option holding the main pattern
 */
function encode(api, options, patternKey) {
  if (options === undefined || options === null) options = {};
  if (!isPlainOptions(options)) {
    throw codedError('EINVALIDOPTION', `${api}: options must be an object`);
  }
  let rest = options;
  let pattern;
  if (patternKey !== undefined && typeof options[patternKey] === 'string') {
    ({ [patternKey]: pattern, ...rest } = options);
  }
  return { json: JSON.stringify(rest, replacer), pattern };
}

/** Throws V8's own SyntaxError text for an invalid regex or flags. */
function checkRegExp(source, flags) {
  if (typeof source !== 'string' || (flags !== undefined && flags !== null && typeof flags !== 'string')) {
    return; // Rust reports the type problem with the option's name.
  }
  try {
    new RegExp(source, flags ?? '');
  } catch (e) {
    throw codedError('EINVALIDREGEX', e.message);
  }
}

function unwrap(outcome) {
  if (outcome.json !== undefined && outcome.json !== null) return outcome.json;
  if (outcome.compact !== undefined && outcome.compact !== null) return decodeCompact(outcome.compact);
  throw codedError(outcome.code, outcome.message);
}

/** Runs `kind` synchronously; returns the JSON bytes. */
function runJsonSync(kind, options, patternKey) {
  const { json, pattern } = encode(kind, options, patternKey);
  return unwrap(binding.querySync(kind, json, pattern, false));
}

/**
 * Runs `kind` synchronously; returns the result value (compact transport).
 * `session`: the NativeSession the call is made on (else a cold call).
 */
function runValueSync(kind, options, patternKey, session) {
  const { json, pattern } = encode(kind, options, patternKey);
  if (session !== undefined) return unwrap(session.querySync(kind, json, pattern, true));
  return unwrap(binding.querySync(kind, json, pattern, true));
}

/**
 * Whether `signal` is an AbortSignal (or quacks like one: a boolean `aborted`
 * and `addEventListener`), as every async call's `signal` must be.
 */
function isAbortSignal(signal) {
  return typeof signal === 'object' && signal !== null && typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function';
}

/**
 * The rejection for an aborted signal: ETIMEOUT when the signal timed out
 * (`AbortSignal.timeout()`: its reason is a TimeoutError), else EABORTED;
 * the signal's reason is the `cause` either way.
 */
function abortError(signal) {
  const reason = signal.reason;
  if (reason !== null && typeof reason === 'object' && reason.name === 'TimeoutError') {
    return codedError('ETIMEOUT', `The operation timed out (its AbortSignal: ${reason.message})`, reason);
  }
  return codedError('EABORTED', 'The operation was aborted', reason);
}

/**
 * Runs `kind` on the libuv thread pool; resolves with the JSON bytes.
 * The promise rejects with EABORTED (ETIMEOUT for a timed-out signal) as soon as `signal` aborts and with
 * ETIMEOUT once `options.timeoutMs` passes; the native work is cancelled too.
 */
function runJson(kind, options, patternKey, signal) {
  return run(kind, options, patternKey, signal, false);
}

/** {@link runJson}, resolving with the result value (compact transport), on `session` when given. */
function runValue(kind, options, patternKey, signal, session) {
  return run(kind, options, patternKey, signal, true, session);
}

/** How often `onProgress` is polled, in milliseconds. */
const PROGRESS_INTERVAL_MS = 100;

function run(kind, options, patternKey, signal, compact, session) {
  return new Promise((resolve, reject) => {
    let request;
    let onProgress;
    try {
      if (isPlainOptions(options) && 'onProgress' in options) {
        ({ onProgress, ...options } = options);
        if (onProgress !== undefined && typeof onProgress !== 'function') {
          throw codedError('EINVALIDOPTION', `${kind}: option 'onProgress' must be a function`);
        }
      }
      request = encode(kind, options, patternKey);
    } catch (e) {
      reject(e);
      return;
    }
    if (signal !== undefined && signal !== null && !isAbortSignal(signal)) {
      reject(codedError('EINVALIDOPTION', `${kind}: signal must be an AbortSignal`));
      return;
    }
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const token = new binding.CancelToken();
    let settled = false;
    let timer;
    let poller;
    const onAbort = () => {
      token.cancel();
      finish(reject, abortError(signal));
    };
    function finish(settle, value) {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (timer !== undefined) clearTimeout(timer);
      if (poller !== undefined) clearInterval(poller);
      settle(value);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    const ms = options?.timeoutMs;
    if (Number.isInteger(ms) && ms >= 1 && ms <= MAX_TIMEOUT_MS) {
      timer = setTimeout(() => {
        token.cancel();
        finish(reject, codedError('ETIMEOUT', `The operation timed out after ${ms} ms (timeoutMs)`));
      }, ms);
    }
    // Progress: polled while the call runs, and reported once more when it
    // ends (so a caller always sees the final counts).
    let report = () => true;
    if (onProgress !== undefined) {
      const started = Date.now();
      let last = '';
      report = () => {
        const [filesTotal, filesSearched, matches] = token.progress;
        const key = `${filesTotal}/${filesSearched}/${matches}`;
        if (key === last) return true;
        last = key;
        try {
          const firstHits = JSON.parse(token.firstHits);
          onProgress({ filesTotal, filesSearched, matches, elapsedMs: Date.now() - started, firstHits });
          return true;
        } catch (e) {
          // A throwing callback is the caller's bug: stop and say so.
          token.cancel();
          finish(reject, e);
          return false;
        }
      };
      poller = setInterval(report, PROGRESS_INTERVAL_MS);
    }
    let task;
    try {
      task = session !== undefined
        ? session.query(kind, request.json, request.pattern, token, compact)
        : binding.query(kind, request.json, request.pattern, token, compact);
    } catch (e) {
      finish(reject, e);
      return;
    }
    task.then(
      (outcome) => {
        try {
          const value = unwrap(outcome);
          if (!settled && report()) finish(resolve, value);
        } catch (e) {
          finish(reject, e);
        }
      },
      (e) => finish(reject, e),
    );
  });
}

/**
 * Runs smartFileQuery writing its JSON straight to the process's stdout (fd
 * 1) as the files are merged: the CLI's output with memory bounded by one
 * file's result. Nothing may have been written to process.stdout before.
 * Resolves to the payload without `results` (JSON bytes); a reader that went
 * away rejects with code EPIPE.
 */
function runToStdout(options, patternKey) {
  return new Promise((resolve, reject) => {
    const { json, pattern } = encode('smartFileQuery', options, patternKey);
    binding.queryToStdout(json, pattern, new binding.CancelToken()).then((outcome) => {
      try {
        resolve(unwrap(outcome));
      } catch (e) {
        reject(e);
      }
    }, reject);
  });
}

/**
 * The project configuration of the directory `root` (`.smart-file-query.json`,
 * else `.jaato/filesystem_query.json`) as the engine reads it for globFiles and
 * grepContent: `{ file, timeoutSeconds, maxResults, … }` with the keys the file
 * sets (none when no file exists). Throws an Error with code EINVALIDCONFIG
 * when the engine rejects the file.
 * @param {string} root
 */
function projectConfig(root) {
  return binding.projectConfigSync(root);
}

/** Opens a native session (`NativeSession`) with `options`; throws a coded Error. */
function openNativeSession(options) {
  const { json } = encode('openSession', options, undefined);
  try {
    return binding.NativeSession.open(json);
  } catch (e) {
    const m = /^([A-Z]+): ([^]*)$/.exec(String(e?.message ?? e));
    throw m ? codedError(m[1], m[2]) : e;
  }
}

module.exports = { codedError, checkRegExp, isAbortSignal, openNativeSession, projectConfig, runJson, runJsonSync, runToStdout, runValue, runValueSync };
