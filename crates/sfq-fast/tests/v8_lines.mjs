// The V8 oracle of sfq-fast's property test: for each case, what JavaScript finds in each
// text, line by line (`text.split(/\r?\n/)`, each line searched with matchAll) and over the
// whole text (matchAll). Same approach as crates/sfq-regex/tests/v8_oracle.mjs.
//
// Input (argv[2]): one JSON object per line: {"p": pattern, "f": flags, "t": [texts]}.
// Output (stdout): one line per case:
//   E                   the constructor (or the first exec) threw
//   T                   V8 ran longer than the time limit
//   R<TAB>text1<TAB>…   for each text: the lines' match lists separated by "/", then "#",
//                       then the whole text's match list; a match list is "start,end"
//                       pairs (UTF-16 offsets) separated by spaces.

import fs from 'node:fs';
import vm from 'node:vm';

const TIME_LIMIT_MS = Number(process.env.SFQ_ORACLE_TIMEOUT_MS || 1000);

const context = vm.createContext({});
vm.runInContext(
  `
  function list(re, s) {
    const out = [];
    for (const m of s.matchAll(re)) out.push(m.index + ',' + (m.index + m[0].length));
    return out.join(' ');
  }
  function runCase(p, f, texts) {
    let re;
    try {
      re = new RegExp(p, f + 'g');
      re.exec('');
    } catch (e) {
      return null;
    }
    return texts.map((t) => t.split(/\\r?\\n/).map((line) => list(re, line)).join('/') + '#' + list(re, t));
  }
  `,
  context,
);
const script = new vm.Script('runCase(P, F, T)');

const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l.length > 0);
const output = [];
for (const line of lines) {
  const c = JSON.parse(line);
  context.P = c.p;
  context.F = c.f;
  context.T = c.t;
  let r;
  try {
    r = script.runInContext(context, { timeout: TIME_LIMIT_MS });
  } catch (e) {
    if (/timed out/.test(String(e && e.message))) {
      output.push('T');
      continue;
    }
    throw e;
  }
  output.push(r === null ? 'E' : 'R\t' + r.join('\t'));
}
fs.writeFileSync(1, output.join('\n') + '\n');
