// The V8 oracle of the differential tests: computes what `new RegExp(p, f)` does for each
// case of a file, so that the Rust test can compare the engine with it.
//
// Input (argv[2]): one JSON object per line: {"p": pattern, "f": flags, "t": [texts],
// "s": [start per text]} (start -1: every match of the global exec loop, as matchAll;
// start >= 0: one exec with lastIndex = start).
// Output (stdout): one line per case:
//   E <message as UTF-16 hex>     the constructor threw
//   T                             V8 ran longer than the time limit
//   R;<text 1>;<text 2>…          the results; for each text, matches separated by "|",
//                                 each "start,end,g1start,g1end,…" with -1 for undefined,
//                                 and "-" for no match of a single exec
// At most MAX_MATCHES matches are listed per text (then "+").

import fs from 'node:fs';
import vm from 'node:vm';

const MAX_MATCHES = 200;
const TIME_LIMIT_MS = Number(process.env.SFQ_ORACLE_TIMEOUT_MS || 2000);

const hex = (s) => {
  let out = '';
  for (let i = 0; i < s.length; i++) out += s.charCodeAt(i).toString(16).padStart(4, '0');
  return out;
};

const context = vm.createContext({ MAX_MATCHES });
vm.runInContext(
  `
  function encodeMatch(m) {
    const parts = [m.index, m.index + m[0].length];
    // Group positions are not reported by exec without the d flag: use indices.
    for (let g = 1; g < m.length; g++) {
      const r = m.indices[g];
      if (r === undefined) parts.push(-1, -1);
      else parts.push(r[0], r[1]);
    }
    return parts.join(',');
  }
  function runCase(p, f, texts, starts) {
    let flagsD = f.includes('d') ? f : f + 'd';
    try {
      // The first exec compiles (V8 compiles lazily), and reports limits such as
      // "Regular expression too large" with the pattern's own flags.
      new RegExp(p, f).exec('');
    } catch (e) {
      return { error: e.message };
    }
    const out = [];
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i];
      const start = starts[i];
      if (start < 0) {
        const re = new RegExp(p, flagsD.includes('g') ? flagsD : flagsD + 'g');
        const list = [];
        let n = 0;
        for (const m of text.matchAll(re)) {
          if (n++ === MAX_MATCHES) { list.push('+'); break; }
          list.push(encodeMatch(m));
        }
        out.push(list.join('|'));
      } else {
        const re = new RegExp(p, flagsD.includes('g') || flagsD.includes('y') ? flagsD : flagsD + 'g');
        re.lastIndex = start;
        const m = re.exec(text);
        out.push(m ? encodeMatch(m) : '-');
      }
    }
    return { results: out };
  }
  `,
  context,
);
// V8 compiles lazily: some errors ("Regular expression too large") are thrown by the
// first exec, not by the constructor. They count as errors of the pattern.
vm.runInContext(
  `
  function runCaseSafely(p, f, texts, starts) {
    try {
      return runCase(p, f, texts, starts);
    } catch (e) {
      if (e instanceof SyntaxError) return { error: e.message };
      throw e;
    }
  }
  `,
  context,
);
const script = new vm.Script('runCaseSafely(P, F, T, S)');

const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l.length > 0);
const output = [];
for (const line of lines) {
  const c = JSON.parse(line);
  context.P = c.p;
  context.F = c.f;
  context.T = c.t;
  context.S = c.s;
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
  if (r.error !== undefined) output.push('E ' + hex(r.error));
  else output.push('R;' + r.results.join(';'));
}
fs.writeFileSync(1, output.join('\n') + '\n');
