'use strict';
// Rebuilds a result sent in the compact transport (see crates/sfq-core/src/
// transport/): an operation stream over a table of distinct strings. Every
// distinct string is created once and shared by every place that shows it,
// and each object shape gets a small compiled constructor, so rebuilding is
// much cheaper than JSON.parse of the same value and uses less memory.
//
// A value marked lazy (op 8: a file's matches) is built when first read: the
// object holding it gets an accessor in its place, which decodes the value's
// ops, then becomes a plain data property holding it. Enumeration order,
// JSON.stringify, spreading, structuredClone and deep equality see the same
// object as an eager decode gives; util.inspect builds the lazy values first.

const { inspect } = require('node:util');

const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const U32 = 3;
const NUMBER = 4;
const STRING = 5;
const ARRAY = 6;
const OBJECT = 7;
const LAZY = 8;

// Compiled per key list, reused across calls: `(v) => ({ "a": v(), "b": v() })`
// evaluates the values in key order, which is the stream's order.
const constructors = new Map();
function constructorFor(keys) {
  const id = keys.join('\u0000');
  let make = constructors.get(id);
  if (make === undefined) {
    const body = keys.map((k) => `${JSON.stringify(k)}: v()`).join(', ');
    make = new Function('v', `return { ${body} };`);
    constructors.set(id, make);
  }
  return make;
}

/** A value not built yet: where its ops start, in the stream of `state`. */
class Lazy {
  constructor(state, at) {
    this.state = state;
    this.at = at;
  }

  build() {
    return decodeAt(this.state, this.at).value;
  }
}

/** Replaces `o[key]` (a Lazy) with an accessor that builds it when first read. */
function defineLazy(o, key, lazy) {
  let built = false;
  let value;
  const settle = (v) => {
    built = true;
    value = v;
    lazy = undefined;
    // Fails only on a frozen or sealed object: the value is then kept here.
    Reflect.defineProperty(o, key, { value: v, writable: true, enumerable: true, configurable: true });
  };
  if (!Object.hasOwn(o, inspect.custom)) {
    Object.defineProperty(o, inspect.custom, { value: inspectBuilt, configurable: true });
  }
  Object.defineProperty(o, key, {
    get() {
      if (!built) settle(lazy.build());
      return value;
    },
    set(v) {
      settle(v);
    },
    enumerable: true,
    configurable: true,
  });
}

/** util.inspect shows an object with lazy values as if they were built. */
function inspectBuilt() {
  for (const key of Object.keys(this)) void this[key];
  return this;
}

/** Decodes the value whose ops start at `at`; returns it and where it ends. */
function decodeAt(state, at) {
  const { ops, numbers, strings, ends, table, shapes, keyLists } = state;
  let i = at;
  const value = () => {
    switch (ops[i++]) {
      case NULL:
        return null;
      case FALSE:
        return false;
      case TRUE:
        return true;
      case U32:
        return ops[i++];
      case NUMBER:
        return numbers[ops[i++]];
      case STRING: {
        const k = ops[i++];
        let s = table[k];
        if (s === undefined) {
          s = strings.slice(k === 0 ? 0 : ends[k - 1], ends[k]);
          table[k] = s;
        }
        return s;
      }
      case ARRAY: {
        const n = ops[i++];
        const a = new Array(n);
        for (let j = 0; j < n; j++) a[j] = eager(value());
        return a;
      }
      case OBJECT: {
        const shape = ops[i++];
        const before = state.lazies;
        const o = shapes[shape](value);
        // A lazy value among this object's (or a nested object's) values:
        // each of this object's becomes an accessor.
        if (state.lazies !== before) {
          for (const key of keyLists[shape]) {
            const v = o[key];
            if (v instanceof Lazy) defineLazy(o, key, v);
          }
        }
        return o;
      }
      case LAZY: {
        const n = ops[i++];
        const lazy = new Lazy(state, i);
        i += n;
        state.lazies++;
        return lazy;
      }
      default:
        throw new Error(`smart-file-query: corrupt compact result at op ${i - 1}`);
    }
  };
  const v = eager(value());
  return { value: v, end: i };
}

/** A lazy value anywhere but as an object's value (an array element, the whole) is built now. */
function eager(v) {
  return v instanceof Lazy ? v.build() : v;
}

/** Decodes `{ ops, numbers, strings, ends, shapes }` into the value it describes. */
function decodeCompact(c) {
  const keyLists = JSON.parse(c.shapes);
  const state = {
    ops: c.ops,
    numbers: c.numbers,
    strings: c.strings,
    ends: c.ends,
    table: new Array(c.ends.length),
    shapes: keyLists.map(constructorFor),
    keyLists,
    lazies: 0,
  };
  const { value, end } = decodeAt(state, 0);
  if (end !== c.ops.length) {
    throw new Error(`smart-file-query: corrupt compact result: ${c.ops.length - end} ops left over`);
  }
  return value;
}

module.exports = { decodeCompact };
