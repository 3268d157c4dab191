'use strict';
// Rebuilds a result sent in the compact transport (see crates/sfq-core/src/
// transport.rs): an operation stream over a table of distinct strings. Every
// distinct string is created once and shared by every place that shows it,
// and each object shape gets a small compiled constructor, so rebuilding is
// much cheaper than JSON.parse of the same value and uses less memory.

const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const U32 = 3;
const NUMBER = 4;
const STRING = 5;
const ARRAY = 6;
const OBJECT = 7;

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

/** Decodes `{ ops, numbers, strings, ends, shapes }` into the value it describes. */
function decodeCompact(c) {
  const { ops, numbers, strings, ends } = c;
  const shapes = JSON.parse(c.shapes).map(constructorFor);
  const table = new Array(ends.length);
  let i = 0;
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
        for (let j = 0; j < n; j++) a[j] = value();
        return a;
      }
      case OBJECT:
        return shapes[ops[i++]](value);
      default:
        throw new Error(`smart-file-query: corrupt compact result at op ${i - 1}`);
    }
  };
  return value();
}

module.exports = { decodeCompact };
