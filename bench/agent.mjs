#!/usr/bin/env node
// `node bench/agent.mjs [--runs N] [--corpus generated|linux]`: the agent
// search APIs against the engine they are profiles of, and globFiles against
// `rg --files`, interleaved in one warm process on the same corpus.
//   searchCode / grepContent vs smartFileQuery, same pattern and file set
//     (the target: within 1.1x; withSymbols reported on its own row);
//   globFiles('**/*') vs `rg --files` with the same excludes, on the corpus
//     plus a node_modules of many packages (it must be pruned, never walked).
// Prints median wall times and ratios as a Markdown table. --only glob,value
// keeps the rows whose key holds one of the words.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { generatedCorpus, linuxCorpus } from './corpus.mjs';

const require = createRequire(import.meta.url);
const api = require('../index.js');
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const RUNS = Number(opt('runs', '7'));
const corpusName = opt('corpus', 'generated');
const corpus = corpusName === 'linux' ? linuxCorpus() : generatedCorpus();

// A node_modules of 2,000 packages x 10 files beside the corpus's files
// (ignored by nothing but the profiles' own excludes: not in .gitignore).
const nm = join(corpus, 'node_modules');
if (!existsSync(join(nm, '.sfq-bench-ready'))) {
  for (let p = 0; p < 2000; p++) {
    const dir = join(nm, `pkg-${p}`, 'lib');
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 10; f++) writeFileSync(join(dir, `m${f}.js`), `module.exports = ${p * 10 + f};\n`.repeat(20));
  }
  writeFileSync(join(nm, '.sfq-bench-ready'), '');
}

const words = corpusName === 'linux' ? ['sched_clock_register', 'return'] : ['handler_4242', 'value'];
const cases = [];
for (const word of words) {
  cases.push({
    row: `'${word}': smartFileQuery (contextLines 0, maxMatches 1e6)`,
    key: `${word}/sfq`,
    run: () => api.smartFileQuery({ regex: word, contextLines: 0, maxMatches: 1000000, maxFileSizeKB: 1024, cwd: corpus }),
  });
  cases.push({
    row: `'${word}': searchCode (exact count)`,
    key: `${word}/searchCode`,
    base: `${word}/sfq`,
    run: () => api.searchCode(word, { cwd: corpus, caseSensitive: true }),
  });
  cases.push({
    row: `'${word}': grepContent (context 2, exact totals)`,
    key: `${word}/grepContent`,
    base: `${word}/sfq`,
    run: () => api.grepContent({ pattern: word, cwd: corpus, excludeMode: 'replace', excludePatterns: ['node_modules'] }),
  });
  cases.push({
    row: `'${word}': searchCode withSymbols`,
    key: `${word}/symbols`,
    base: `${word}/sfq`,
    run: () => api.searchCode(word, { cwd: corpus, caseSensitive: true, withSymbols: true }),
  });
}
const rgFiles = ['--files', '--hidden', '-g', '!node_modules', '-g', '!.git'];
cases.push({ row: "globFiles('**/*'), node_modules pruned", key: 'glob', base: 'rg-files', run: () => api.globFiles({ pattern: '**/*', cwd: corpus, includeHidden: true, maxResults: 10000000 }) });
cases.push({ row: "globFiles('**/*'), default maxResults 500 (total exact)", key: 'glob500', base: 'rg-files', run: () => api.globFiles({ pattern: '**/*', cwd: corpus, includeHidden: true }) });
cases.push({ row: '`rg --files --hidden -g !node_modules` (spawned)', key: 'rg-files', run: async () => execFileSync('rg', rgFiles, { cwd: corpus, maxBuffer: 1 << 30 }) });

const ONLY = opt('only', '');
if (ONLY) {
  const keep = (c) => ONLY.split(',').some((k) => c.key.includes(k));
  cases.splice(0, cases.length, ...cases.filter(keep));
}
const times = Object.fromEntries(cases.map((c) => [c.key, []]));
for (const c of cases) await c.run(); // warm-up (page cache, pools)
for (let r = 0; r < RUNS; r++) {
  const order = r % 2 ? [...cases].reverse() : cases;
  for (const c of order) {
    const t = performance.now();
    await c.run();
    times[c.key].push(performance.now() - t);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`corpus: ${corpusName} (${corpus}), ${RUNS} interleaved runs, Node ${process.version}\n`);
console.log('| workload | median ms | ratio to base |\n| --- | ---: | ---: |');
for (const c of cases) {
  const m = median(times[c.key]);
  const ratio = c.base ? `${(m / median(times[c.base])).toFixed(2)}x` : '';
  console.log(`| ${c.row} | ${m.toFixed(1)} | ${ratio} |`);
}
