// V8's per-line search speed, the baseline of examples/bench.rs: the same corpus, the
// same lines (split on "\n"), the global exec loop of each line (an empty match advances
// lastIndex by one code unit, one code point with u/v). CPU time (process.cpuUsage),
// best of three runs.
//
// node crates/sfq-regex/examples/bench_v8.mjs CORPUS [PATTERN FLAGS]...

import fs from 'node:fs';

const DEFAULT_PATTERNS = [
  ['\\bdef\\s+\\w+(?=\\(self)', ''],
  ['\\b(\\w+)\\s+\\1\\b', ''],
  ['([\'"])use strict\\1', ''],
  ['(?<![\\w.])print\\(', ''],
  ['HashMap', ''],
  ['\\w+Error\\b', ''],
  ['TODO|FIXME', ''],
  ['function\\s+\\w+', ''],
  ['\\bmutex\\b', 'i'],
  ['^\\s*#include\\s*<', ''],
  ['\\d{4}-\\d{2}-\\d{2}', ''],
  ['[^\\x00-\\x7F]+', 'u'],
  ['^.{120,}$', ''],
  ['(?<=\\.)\\w+(?=\\()', ''],
  ['\\b(?:let|const|var)\\s+(\\w+)\\s*=', ''],
];

const [path, ...rest] = process.argv.slice(2);
if (!path) {
  console.error('usage: bench_v8.mjs CORPUS [PATTERN FLAGS]...');
  process.exit(2);
}
const corpus = fs.readFileSync(path, 'utf8');
const bytes = Buffer.byteLength(corpus, 'utf8');
const lines = corpus.split('\n');
const patterns = [];
if (rest.length) for (let i = 0; i < rest.length; i += 2) patterns.push([rest[i], rest[i + 1] ?? '']);
else patterns.push(...DEFAULT_PATTERNS);
const mb = bytes / 1e6;
console.log(`corpus: ${mb.toFixed(1)} MB, ${lines.length} lines`);
for (const [pattern, flags] of patterns) {
  const re = new RegExp(pattern, flags.includes('g') ? flags : flags + 'g');
  const unicode = re.unicode || re.unicodeSets;
  let best = Infinity;
  let count = 0;
  for (let run = 0; run < 3; run++) {
    count = 0;
    const t0 = process.cpuUsage();
    for (const line of lines) {
      re.lastIndex = 0;
      let m;
      while ((m = re.exec(line)) !== null) {
        count++;
        if (m[0].length === 0) {
          const i = re.lastIndex;
          const c = line.charCodeAt(i);
          const wide = unicode && c >= 0xd800 && c <= 0xdbff && i + 1 < line.length &&
            line.charCodeAt(i + 1) >= 0xdc00 && line.charCodeAt(i + 1) <= 0xdfff;
          re.lastIndex = i + (wide ? 2 : 1);
        }
      }
    }
    const dt = process.cpuUsage(t0);
    best = Math.min(best, (dt.user + dt.system) / 1e6);
  }
  console.log(`${('/' + pattern + '/').padEnd(40)} ${flags.padEnd(3)} ${String(count).padStart(8)} matches ${(mb / best).toFixed(1).padStart(9)} MB/s  (${best.toFixed(3)} s)`);
}
