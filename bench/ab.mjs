#!/usr/bin/env node
// `node bench/ab.mjs A.node B.node DIR REGEX [ROUNDS]`: two builds of the
// addon loaded in one warm process, the same smartFileQuery call on each in
// turn (the order alternating round by round), medians printed. On a noisy
// machine (±10–15 % between runs here) this judges a small change where two
// separate benchmark runs cannot: both builds see the same page cache, the
// same neighbours and the same moment. `--find GLOB` in place of REGEX times
// `findFiles({pattern: GLOB, maxResults: 10000000})` instead (the listing).
//
// Build the two with `cargo build --profile profiling -p smart-file-query`
// (or `--release`) before and after the change, copying
// target/<profile>/libsmart_file_query.so aside each time.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const find = args.indexOf('--find');
const glob = find >= 0 ? args.splice(find, 2)[1] : undefined;
const [a, b, dir, regex, rounds = '15'] = glob === undefined ? args : [...args.slice(0, 3), undefined, args[3] ?? '15'];
if (!a || !b || !dir || (regex === undefined && glob === undefined)) {
  console.error('usage: node bench/ab.mjs A.node B.node DIR (REGEX | --find GLOB) [ROUNDS]');
  process.exit(2);
}
const builds = [a, b].map((p) => ({ name: p, binding: require(resolve(p)), times: [] }));
const [kind, options] =
  glob === undefined
    ? ['smartFileQuery', JSON.stringify({ cwd: resolve(dir), maxMatches: 100000 })]
    : ['findFiles', JSON.stringify({ cwd: resolve(dir), pattern: glob, maxResults: 10000000 })];
for (let r = 0; r < Number(rounds); r++) {
  for (let k = 0; k < builds.length; k++) {
    const build = builds[(k + r) % builds.length];
    const t = performance.now();
    const out = build.binding.querySync(kind, options, regex, true);
    build.times.push(performance.now() - t);
    if (!out.compact) throw new Error(`${build.name}: ${out.code} ${out.message}`);
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (const build of builds) console.log(`${build.name}: ${median(build.times).toFixed(1)} ms (median of ${build.times.length})`);
