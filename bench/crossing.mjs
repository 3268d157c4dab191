#!/usr/bin/env node
// Issue 3's "cost of crossing into JS": the same query result delivered to JS
//   (a) as one JSON buffer built in Rust and parsed with JSON.parse (the CLI's path),
//   (b) as JS objects built through napi's serde serializer, one napi call per value, or
//   (c) in the compact transport (distinct strings once + an op stream) rebuilt by
//       lib/decode.js (what the JS API ships).
// Builds a variant of the addon with `--features crossing-bench` into a
// scratch directory (the shipped build has no such export), then times both
// in one warm process, interleaved; then the shipped paths end to end.
// Usage: node bench/crossing.mjs [--runs 7]
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedCorpus, linuxCorpus } from './corpus.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'target', 'crossing-bench');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 7);
mkdirSync(OUT, { recursive: true });
execFileSync(join(ROOT, 'node_modules/.bin/napi'), ['build', '--platform', '--release', '--features', 'crossing-bench',
  '-o', OUT, '--js', 'binding.js', '--dts', 'binding.d.ts'], { cwd: ROOT, stdio: 'inherit' });
const require = createRequire(import.meta.url);
const binding = require(join(OUT, 'binding.js'));
const { decodeCompact } = require('../lib/decode.js');

const cases = [
  ['linux', linuxCorpus(), { regex: 'return', maxMatches: 100000 }],
  ['linux', linuxCorpus(), { regex: 'sched_clock_register' }],
  ['generated', generatedCorpus(), { regex: 'value', maxMatches: 100000 }],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, cwd, q] of cases) {
  const options = JSON.stringify({ ...q, cwd });
  const t = { search: [], serialise: [], parse: [], build: [], compact: [], decode: [] };
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const r = binding.crossingBenchSync('smartFileQuery', options);
    const t0 = performance.now();
    const viaJson = JSON.parse(r.json.toString('utf8'));
    t.parse.push(performance.now() - t0);
    t.search.push(r.searchMs);
    t.serialise.push(r.serialiseMs);
    t.build.push(r.buildMs);
    t.compact.push(r.compactMs);
    const t1 = performance.now();
    const viaCompact = decodeCompact(r.compact);
    t.decode.push(performance.now() - t1);
    if (JSON.stringify(viaCompact) !== r.json.toString('utf8')) throw new Error('the compact form differs');
    bytes = r.json.length;
    if (JSON.stringify(viaJson) !== JSON.stringify(r.objects)) throw new Error('the two forms differ');
  }
  const m = (k) => median(t[k]).toFixed(1);
  console.log(`${name} ${JSON.stringify(q)}: ${(bytes / 1e6).toFixed(1)} MB JSON; medians of ${runs} (ms): ` +
    `search ${m('search')} | JSON: serialise ${m('serialise')} + JSON.parse ${m('parse')} = ` +
    `${(median(t.serialise) + median(t.parse)).toFixed(1)} | napi objects: ${m('build')} | ` +
    `compact: encode ${m('compact')} + decode ${m('decode')} = ${(median(t.compact) + median(t.decode)).toFixed(1)}`);
  // The shipped paths end to end (each file encoded by the worker that searched
  // it): querySync + JSON.parse (what a JSON API would do) against querySync in
  // the compact form + decode (what the JS API does).
  const e = { json: [], compact: [] };
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    JSON.parse(binding.querySync('smartFileQuery', options, undefined, false).json.toString('utf8'));
    e.json.push(performance.now() - t0);
    t0 = performance.now();
    decodeCompact(binding.querySync('smartFileQuery', options, undefined, true).compact);
    e.compact.push(performance.now() - t0);
  }
  console.log(`  shipped, end to end (search included): JSON + JSON.parse ${median(e.json).toFixed(1)} ms | compact + decode ${median(e.compact).toFixed(1)} ms`);
}
