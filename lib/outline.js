'use strict';
// getOutline / formatOutline and the stateful window viewer (seed 003).
// The viewer's state lives here, in JS; every operation re-reads the file
// natively (so a change on disk is always seen) and computes the window in Rust.

const { codedError, isAbortSignal, runValue, runValueSync } = require('./native.js');

function withPath(api, path, options) {
  if (typeof path !== 'string') {
    throw codedError('EINVALIDOPTION', `${api}: path must be a string, got ${path === null ? 'null' : typeof path}`);
  }
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw codedError('EINVALIDOPTION', `${api}: options must be an object`);
  }
  const { signal, ...rest } = options ?? {};
  return { request: { ...rest, path }, signal };
}

function getOutline(path, options, session) {
  let prepared;
  try {
    // `getOutline(path, signal)` is honoured, as smartFileQuery(options, signal) is.
    if (isAbortSignal(options)) options = { signal: options };
    prepared = withPath('getOutline', path, options);
  } catch (e) {
    return Promise.reject(e);
  }
  return runValue('getOutline', prepared.request, undefined, prepared.signal, session);
}

function getOutlineSync(path, options, session) {
  return runValueSync('getOutline', withPath('getOutline', path, options).request, undefined, session);
}

function formatOutline(result) {
  if (typeof result !== 'object' || result === null || !Array.isArray(result.items)) {
    throw codedError('EINVALIDOPTION', 'formatOutline: expected the result of getOutline ({ path, totalLines, items })');
  }
  // The native side takes the outline object itself as its "options".
  return runValueSync('formatOutline', result);
}

const MAX_WINDOW = 1000000;

/** A stateful windowed viewer of one file at a time (SWE-agent's open/goto/scroll). */
class WindowViewer {
  #windowSize;
  #cwd;
  #file = null;
  #start = 1;
  #currentLine = 0;
  #queue = Promise.resolve();

  constructor(windowSize = 100, options = undefined) {
    if (!Number.isInteger(windowSize) || windowSize < 1 || windowSize > MAX_WINDOW) {
      throw codedError('EINVALIDOPTION', `windowSize must be an integer from 1 to ${MAX_WINDOW}, got ${String(windowSize)}`);
    }
    if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
      throw codedError('EINVALIDOPTION', 'createWindowViewer: options must be an object');
    }
    this.#windowSize = windowSize;
    this.#cwd = options?.cwd;
    // Seed 003 uses the methods destructured: `const { open, goto } = createWindowViewer()`.
    for (const name of ['open', 'goto', 'scrollDown', 'scrollUp', 'getState']) {
      Object.defineProperty(this, name, { value: WindowViewer.prototype[name].bind(this), enumerable: false });
    }
  }

  // Operations run one at a time, in call order, so state stays consistent.
  #run(makeRequest) {
    const next = this.#queue.then(async () => {
      const request = makeRequest();
      const { view, currentLine } = await runValue('viewWindow', {
        cwd: this.#cwd,
        windowSize: this.#windowSize,
        ...request,
      });
      this.#file = view.path;
      this.#start = view.viewportStart;
      this.#currentLine = currentLine;
      return view;
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  #requireOpen(op) {
    if (this.#file === null) throw codedError('ENOTOPEN', `${op}: no file is open; call open(path) first`);
    return this.#file;
  }

  /** Opens `path` at its first window, or centred on `line`. */
  open(path, line) {
    return this.#run(() => {
      if (typeof path !== 'string') throw codedError('EINVALIDOPTION', 'open: path must be a string');
      if (line !== undefined && !Number.isInteger(line)) throw codedError('EINVALIDOPTION', 'open: line must be an integer');
      return { op: 'open', path, line };
    });
  }

  /** Centres the window on `line` (clamped to the file, with a note). */
  goto(line) {
    return this.#run(() => {
      const path = this.#requireOpen('goto');
      if (!Number.isInteger(line)) throw codedError('EINVALIDOPTION', 'goto: line must be an integer');
      return { op: 'goto', path, line };
    });
  }

  /** Moves the window down by windowSize - min(20, floor(windowSize / 5)) lines. */
  scrollDown() {
    return this.#run(() => ({ op: 'scrollDown', path: this.#requireOpen('scrollDown'), from: this.#start }));
  }

  /** Moves the window up by the same step. */
  scrollUp() {
    return this.#run(() => ({ op: 'scrollUp', path: this.#requireOpen('scrollUp'), from: this.#start }));
  }

  /** The current file (root-relative), the window's centre line and its size. */
  getState() {
    return { currentFile: this.#file, currentLine: this.#currentLine, windowSize: this.#windowSize };
  }
}

function createWindowViewer(windowSize = 100, options = undefined) {
  return new WindowViewer(windowSize, options);
}

module.exports = { getOutline, getOutlineSync, formatOutline, createWindowViewer, WindowViewer };
