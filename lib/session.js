'use strict';
// Sessions (`openSession`): a tree opened once and queried many times. Every
// query of the module, same names and options minus `cwd`, answered on the
// session's native handle, from the listings and file contents it holds while
// its watch (or, without one, each file's stamp) proves them fresh, so every
// answer is the cold call's. Types and docs: index.d.ts.

const { codedError, openNativeSession } = require('./native.js');
const { queries } = require('./queries.js');

/** An open session. Its methods also work destructured. */
class Session {
  #native;

  /** @internal Use openSession(). */
  constructor(native) {
    if (native === undefined || native === null || typeof native.querySync !== 'function') {
      throw codedError('EINVALIDOPTION', 'Session: open one with openSession({ cwd })');
    }
    this.#native = native;
    Object.assign(this, queries(native));
    this.stats = this.stats.bind(this);
    this.close = this.close.bind(this);
  }

  /** What the session holds and how its last call went. */
  stats() {
    return JSON.parse(this.#native.stats());
  }

  /** Frees what the session holds; later calls reject with ESESSIONCLOSED. */
  close() {
    this.#native.close();
  }
}

/** Opens a session on `options.cwd` (default: the process's). */
function openSession(options) {
  try {
    return Promise.resolve(new Session(openNativeSession(options)));
  } catch (e) {
    return Promise.reject(e);
  }
}

module.exports = { openSession, Session };
