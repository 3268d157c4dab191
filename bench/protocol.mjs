#!/usr/bin/env node
// `node bench/protocol.mjs [--runs N] [--corpus linux|generated] [--only key,key]`:
// survey, scout, sample and show (seed 001) against `rg -c` with seed 001's
// exclusions, same corpus, interleaved in one warm process. The target:
// each within 1.2x of rg -c; survey's 12 terms x 8 paths against one rg -c
// with the 12 terms (one pass over the files either way).
// Prints median wall times and ratios as a Markdown table.
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { generatedCorpus, linuxCorpus } from './corpus.mjs';

const require = createRequire(import.meta.url);
const api = require('../index.js');
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const RUNS = Number(opt('runs', '7'));
const corpusName = opt('corpus', 'linux');
const corpus = corpusName === 'linux' ? linuxCorpus() : generatedCorpus();

const EXCLUDES = ['.git', 'target', 'node_modules', 'vendor', 'dist', 'build', 'coverage', 'generated', 'scratch', 'tmp', '*.log', '*.jsonl', '*.xml', '*.min.js', '*.map'];
const RG = ['-c', '-s', '--no-messages', ...EXCLUDES.flatMap((g) => ['-g', `!${g}`])];
const rg = (args) => () => {
  try {
    execFileSync('rg', [...RG, ...args], { cwd: corpus, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    if (e.status !== 1) throw e; // 1: nothing matched
  }
};

const linux = corpusName === 'linux';
const TERMS = linux
  ? ['mutex_lock', 'spin_lock', 'kmalloc', 'kfree', 'rcu_read_lock', 'EXPORT_SYMBOL', 'printk', 'struct device', 'list_for_each_entry', 'copy_from_user', 'sched_clock', 'irq_work']
  : ['handler_4242', 'value', 'export', 'return', 'const', 'function', 'import', 'class', 'let', 'async', 'await', 'new'];
const PATHS = linux ? ['kernel', 'mm', 'fs', 'net', 'include', 'arch/x86', 'lib', 'block'] : undefined;
const QUERY = linux ? 'kmalloc' : 'handler_4242';
const NARROW = linux ? ['net'] : undefined;
const FILE = linux ? 'net/core/sock.c' : undefined;

const cases = [
  { row: `survey: ${TERMS.length} terms x ${PATHS?.length ?? 0} paths`, key: 'survey', base: 'rg-survey', run: () => api.survey({ terms: TERMS, paths: PATHS, cwd: corpus }) },
  { row: `\`rg -c -F\` with the ${TERMS.length} terms over the same paths`, key: 'rg-survey', run: rg(['-F', ...TERMS.flatMap((t) => ['-e', t]), ...(PATHS ?? [])]) },
  { row: `survey: ${TERMS.length} terms, whole tree`, key: 'survey-all', base: 'rg-survey-all', run: () => api.survey({ terms: TERMS, cwd: corpus }) },
  { row: `\`rg -c -F\` with the ${TERMS.length} terms, whole tree`, key: 'rg-survey-all', run: rg(['-F', ...TERMS.flatMap((t) => ['-e', t])]) },
  { row: `scout '${QUERY}'`, key: 'scout', base: 'rg-scout', run: () => api.scout({ query: QUERY, cwd: corpus }) },
  { row: `scout '${QUERY}' --identifier`, key: 'scout-id', base: 'rg-scout-id', run: () => api.scout({ query: QUERY, mode: 'identifier', cwd: corpus }) },
  { row: `\`rg -c -F '${QUERY}'\``, key: 'rg-scout', run: rg(['-F', '-e', QUERY]) },
  { row: `\`rg -c -F -w --no-unicode '${QUERY}'\``, key: 'rg-scout-id', run: rg(['-F', '-w', '--no-unicode', '-e', QUERY]) },
  { row: `sample '${QUERY}' ${NARROW?.join(' ') ?? ''}`, key: 'sample', base: 'rg-sample', run: () => api.sample({ query: QUERY, paths: NARROW, cwd: corpus }) },
  { row: `\`rg -c -F '${QUERY}' ${NARROW?.join(' ') ?? ''}\``, key: 'rg-sample', run: rg(['-F', '-e', QUERY, ...(NARROW ?? [])]) },
];
if (FILE) {
  cases.push({ row: `show '${QUERY}(' ${FILE}`, key: 'show', base: 'rg-show', run: () => api.show({ query: `${QUERY}(`, file: FILE, cwd: corpus }) });
  cases.push({ row: `\`rg -c -F '${QUERY}(' ${FILE}\``, key: 'rg-show', run: rg(['-F', '-e', `${QUERY}(`, FILE]) });
}

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
const rgVersion = execFileSync('rg', ['--version'], { encoding: 'utf8' }).split('\n')[0];
console.log(`corpus: ${corpusName} (${corpus}), ${RUNS} interleaved runs, Node ${process.version}, ${rgVersion}\n`);
console.log('| workload | median ms | ratio to rg |\n| --- | ---: | ---: |');
for (const c of cases) {
  const m = median(times[c.key]);
  const ratio = c.base && times[c.base] ? `${(m / median(times[c.base])).toFixed(2)}x` : '';
  console.log(`| ${c.row} | ${m.toFixed(1)} | ${ratio} |`);
}
