#!/usr/bin/env node
// Sessions against cold calls, over many seeds: `node scripts/session-diff.mjs
// [--seeds 1-20] [--steps 1000] [--mode watch|nowatch|overflow] [--budget MB] [--check-budget]`. Each seed: a
// generated git repository, a session on it, then steps of one random mutation
// and one random query asked of the session and cold, compared whole
// (__tests__/helpers/session-diff.mjs). Modes: `watch` (the default: the
// session's watch keeps its listings and texts), `nowatch` (`watch: false`:
// stat revalidation), `overflow` (the watch's queue reported lost at every
// call, by the `watch-overflow` failpoint). `--budget` sets the session's
// memoryBudgetMB (1: smaller than the repository's texts, indexes and
// listings, so that texts and entries are dropped and read again); `--check-budget` also
// reports each call after which the session holds more than its budget. Prints each difference and exits 1
// when there is any.
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const [from, to = from] = opt('seeds', '1-20').split('-').map(Number);
const steps = Number(opt('steps', '1000'));
const mode = opt('mode', 'watch');
const memoryBudgetMB = opt('budget') && Number(opt('budget'));
const checkBudget = argv.includes('--check-budget');
if (!['watch', 'nowatch', 'overflow'].includes(mode)) {
  console.error(`--mode takes watch, nowatch or overflow, not ${mode}`);
  process.exit(2);
}
// Read by the addon once, when it first asks: set before it is loaded.
if (mode === 'overflow') process.env.SMART_FILE_QUERY_FAILPOINT = 'watch-overflow';
const { runSeed } = await import('../__tests__/helpers/session-diff.mjs');
let total = 0;
for (let seed = from; seed <= to; seed++) {
  const t = Date.now();
  const { differences, stats, reused } = await runSeed(seed, steps, { watch: mode !== 'nowatch', memoryBudgetMB, checkBudget });
  total += differences.length;
  for (const d of differences) console.log(JSON.stringify(d));
  console.log(`seed ${seed} (${mode}): ${steps} steps, ${differences.length} differences, ${((Date.now() - t) / 1000).toFixed(1)} s (${reused} files taken from memory over the run; last call: ${stats.freshness}, ${stats.filesReused} from memory, ${stats.filesReread} read, ${(stats.memoryBytes / 1024).toFixed(0)} KiB held)`);
}
console.log(total === 0 ? `no difference in ${to - from + 1} seeds × ${steps} steps (${mode})` : `${total} differences`);
process.exit(total === 0 ? 0 : 1);
