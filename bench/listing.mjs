#!/usr/bin/env node
// `node bench/listing.mjs [DIR …] [--rounds N] [--rg PATH] [--threads N]`:
// the whole-tree listing in one warm Node process, interleaved round by round
// (the order rotating): `await findFiles({pattern: '**/*', maxResults:
// 10000000, sizes: false})` (no lstat per file), the same with `sizes: true`
// (today's default: every file's size), and `rg --files` spawned from this
// process with its output to /dev/null (the first rg on PATH, or --rg PATH;
// the spawn is in its time, about a millisecond), and `rg --files --hidden`. Prints wall and CPU
// medians (CPU: this process's threads for findFiles, the waited-for child's
// for rg; on a loaded machine the CPU time is the steadier figure), the
// ratios to rg and the entry counts. Default DIR: the test262 corpus
// (`node bench/corpus.mjs test262`). findFiles lists directories too and
// dotfiles, `rg --files` files only and no dotfiles: the counts say how far
// the two sets are apart.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
const { findFiles } = require('../index.js');

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return dflt;
  const [, value] = argv.splice(i, 2);
  return value;
};
const ROUNDS = Number(opt('rounds', '15'));
const RG = opt('rg', 'rg');
const THREADS = opt('threads', undefined);
let dirs = argv;
if (dirs.length === 0) {
  const { fetchedCorpus } = await import('./corpus.mjs');
  dirs = [fetchedCorpus('test262')];
}

const devNull = openSync('/dev/null', 'w');
function rgFiles(cwd, extra = []) {
  return new Promise((done, fail) => {
    const child = spawn(RG, ['--files', ...extra], { cwd, stdio: ['ignore', devNull, 'ignore'] });
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${RG} --files exited with ${code} in ${cwd}`))));
  });
}
function rgCount(cwd) {
  return new Promise((done, fail) => {
    const child = spawn(RG, ['--files'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let n = 0;
    child.stdout.on('data', (chunk) => {
      for (const b of chunk) if (b === 10) n++;
    });
    child.on('error', fail);
    child.on('close', () => done(n));
  });
}

/** User + system seconds of this process's waited-for children (clock ticks). */
function childCpu() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}
function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000 + childCpu();
}

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (const dir of dirs) {
  const cwd = resolve(dir);
  const base = { cwd, pattern: '**/*', maxResults: 10_000_000, ...(THREADS ? { threads: Number(THREADS) } : {}) };
  const tools = [
    { name: "findFiles({pattern: '**/*', sizes: false})", run: () => findFiles({ ...base, sizes: false }) },
    { name: "findFiles({pattern: '**/*', sizes: true})", run: () => findFiles({ ...base, sizes: true }) },
    { name: `${RG} --files (spawned, output to /dev/null)`, run: () => rgFiles(cwd) },
    { name: `${RG} --files --hidden (dotfiles too, as findFiles)`, run: () => rgFiles(cwd, ['--hidden']) },
  ];
  // Warm-up: the page cache, the git index, the threads.
  for (const t of tools) await t.run();
  const bare = await tools[0].run();
  const sized = await tools[1].run();
  const same = bare.length === sized.length && bare.every((f, i) => f.path === sized[i].path && f.type === sized[i].type);
  if (!same) throw new Error('sizes: false listed other entries than sizes: true');
  const times = tools.map(() => []);
  const cpus = tools.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < tools.length; k++) {
      const i = (k + r) % tools.length;
      const c0 = cpuMs();
      const t0 = performance.now();
      await tools[i].run();
      times[i].push(performance.now() - t0);
      cpus[i].push(cpuMs() - c0);
    }
  }
  const rg = median(times[2]);
  const rgCpu = median(cpus[2]);
  console.log(`\n${cwd}: ${bare.length} entries (${bare.filter((f) => f.type === 'file').length} files) listed by findFiles, ${await rgCount(cwd)} files by rg --files; ${ROUNDS} rounds, medians`);
  console.log('| call | wall ms | ÷ rg --files | CPU ms | ÷ rg --files |\n|---|---:|---:|---:|---:|');
  tools.forEach((t, i) => {
    const [wall, cpu] = [median(times[i]), median(cpus[i])];
    console.log(`| ${t.name} | ${wall.toFixed(1)} | ${(wall / rg).toFixed(2)} | ${cpu.toFixed(0)} | ${(cpu / rgCpu).toFixed(2)} |`);
  });
}
closeSync(devNull);
