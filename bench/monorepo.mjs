#!/usr/bin/env node
// `node bench/monorepo.mjs [--files 1000000] [--runs 3] [--variants plain,split,sparse] [--rg PATH] [--keep]
//   [--budget MB] [--session-only] [--fanout 3]`:
// a generated monorepo and the cold calls on it, against ripgrep and git.
//
// The tree (under the system temp dir, made once per size and kept with
// --keep): `--files` files in packages/<p>/<src|test|lib>/<dir>/… at depths 3
// to 7 (below src/test/lib, `--fanout` folders per level: 3 gives about 5
// files a folder, as in real trees: linux ~15, chromium ~9; 6, the layout
// measured before 2026-11-29, gives about one), sizes from a few hundred bytes
// to ~40 KB (a long tail), TypeScript,
// JavaScript, Python, Go, Rust, Markdown and JSON with their usual words, a
// `.gitignore` in one package of five (a few hundred in all) and a
// `node_modules` of ignored files per tenth package; committed with git.
// Variants: `plain`; `split` (git update-index --split-index, after a change
// to one file in a thousand so the split index has entries of its own);
// `sparse` (a cone-mode sparse checkout of a tenth of the packages,
// `--sparse-index`).
//
// Measured per variant, each a fresh Node process (cold: nothing cached in
// the process; the page cache warm after a first untimed run), medians of
// --runs: smartFileQuery (a rare identifier), searchCode (a common word),
// globFiles('**/*.ts') (with sizes and without) and findFiles('**/*', sizes: false), each with its
// peak RSS (process.resourceUsage().maxRSS) and the RSS per listed file;
// `rg` for the same searches and `rg --files`, and `git ls-files` for the
// listing. Also a session on the tree (memoryBudgetMB --budget, default
// 1024): its open + first call, then --runs rounds of a rare-identifier call
// and a common-word call, each with the session's memoryBytes and the
// process's RSS (now and peak). --session-only skips the cold calls.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from './corpus.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const FILES = Number(opt('files', '1000000'));
const RUNS = Number(opt('runs', '3'));
const VARIANTS = opt('variants', 'plain,split,sparse').split(',');
const RG = opt('rg', 'rg');
const KEEP = argv.includes('--keep');
const BUDGET = Number(opt('budget', '1024'));
const SESSION_ONLY = argv.includes('--session-only');
const FANOUT = Number(opt('fanout', '3'));

const WORDS = {
  ts: ['export', 'const', 'function', 'return', 'interface', 'type', 'import', 'from', 'async', 'await', 'props', 'state', 'handler', 'config'],
  js: ['module', 'exports', 'require', 'function', 'return', 'var', 'let', 'this', 'callback', 'options'],
  py: ['def', 'class', 'self', 'return', 'import', 'from', 'None', 'True', 'yield', 'lambda', 'kwargs'],
  go: ['func', 'package', 'return', 'struct', 'err', 'nil', 'interface', 'defer', 'chan', 'ctx'],
  rs: ['fn', 'let', 'mut', 'impl', 'pub', 'struct', 'match', 'Some', 'None', 'Ok', 'Err', 'self'],
  md: ['the', 'a', 'of', 'to', 'and', 'in', 'is', 'for', 'this', 'with', 'TODO'],
  json: ['"name"', '"version"', '"dependencies"', '"scripts"', '"main"', 'true', 'false'],
};
const EXTS = ['ts', 'ts', 'ts', 'js', 'py', 'go', 'rs', 'md', 'json'];

function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
}

/** The generated repository for --files (made once). */
function makeTree() {
  const dir = join(tmpdir(), `sfq-monorepo-${FILES}${FANOUT === 6 ? '' : `-f${FANOUT}`}`);
  if (existsSync(join(dir, '.sfq-ready'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  const r = rng(26_000_000 + FILES);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const packages = Math.max(10, Math.round(FILES / 2000));
  const started = Date.now();
  for (let i = 0; i < FILES; i++) {
    const p = i % packages;
    const depth = 3 + Math.floor(r() * 5);
    const parts = [`packages/pkg${p}`, pick(['src', 'src', 'test', 'lib'])];
    for (let d = 2; d < depth; d++) parts.push(`d${Math.floor(r() * FANOUT)}`);
    const ext = pick(EXTS);
    const rel = `${parts.join('/')}/f${i}.${ext}`;
    // Sizes: mostly small, a long tail (Pareto-like).
    const lines = Math.min(1200, Math.floor(8 / (0.02 + r()) + r() * 30));
    const words = WORDS[ext];
    const out = [];
    for (let l = 0; l < lines; l++) {
      const n = 2 + Math.floor(r() * 9);
      const ws = [];
      for (let w = 0; w < n; w++) ws.push(r() < 0.05 ? `${pick(words)}_${Math.floor(r() * 100000)}` : pick(words));
      out.push(`${'  '.repeat(Math.floor(r() * 4))}${ws.join(' ')}`);
    }
    if (i === Math.floor(FILES * 0.7)) out.push('  const monorepoNeedleIdentifier = 1;');
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, `${out.join('\n')}\n`);
    if (i % 100000 === 0 && i > 0) console.error(`  ${i} files written (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  for (let p = 0; p < packages; p++) {
    if (p % 5 === 0) writeFileSync(join(dir, `packages/pkg${p}`, '.gitignore'), 'dist/\n*.log\ncoverage/\n');
    if (p % 10 === 0) {
      const nm = join(dir, `packages/pkg${p}`, 'node_modules', 'dep');
      mkdirSync(nm, { recursive: true });
      for (let k = 0; k < 20; k++) writeFileSync(join(nm, `m${k}.js`), 'module.exports = function () { return 1; };\n');
    }
  }
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  console.error(`  written in ${((Date.now() - started) / 1000).toFixed(0)} s; git add/commit…`);
  git(dir, 'init', '-q', '-b', 'main');
  // No `git gc --auto` in the background after the commit: it would make the
  // timings that follow disk-bound.
  git(dir, 'config', 'gc.auto', '0');
  git(dir, 'config', 'maintenance.auto', 'false');
  git(dir, '-c', 'user.email=b@example.com', '-c', 'user.name=bench', 'add', '-A');
  git(dir, '-c', 'user.email=b@example.com', '-c', 'user.name=bench', 'commit', '-q', '-m', `monorepo, ${FILES} files`);
  writeFileSync(join(dir, '.git', 'info', 'exclude'), '.sfq-ready\n');
  writeFileSync(join(dir, '.sfq-ready'), '');
  console.error(`  ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return dir;
}

/** Sets the tree to a variant. */
function setVariant(dir, variant) {
  tryGit(dir, 'sparse-checkout', 'disable');
  tryGit(dir, 'update-index', '--no-split-index');
  if (variant === 'split') {
    git(dir, 'update-index', '--split-index');
    // Entries of its own: a file in a thousand touched and re-added.
    const files = git(dir, 'ls-files').split('\n').filter(Boolean).filter((_, i) => i % 1000 === 0);
    for (const f of files) execFileSync('touch', [join(dir, f)]);
    git(dir, 'add', '--', ...files.slice(0, 2000));
  }
  if (variant === 'sparse') {
    const packages = git(dir, 'ls-tree', '--name-only', 'HEAD', 'packages/').split('\n').filter(Boolean);
    git(dir, 'sparse-checkout', 'set', '--cone', '--sparse-index', ...packages.filter((_, i) => i % 10 === 0));
  }
}

function tryGit(dir, ...args) {
  try {
    git(dir, ...args);
  } catch {
    // not in that state
  }
}

/** One cold call in a fresh Node process: its wall time (ms, in process), result size and peak RSS. */
function coldCall(dir, expr) {
  const code = `
    const api = require(${JSON.stringify(join(ROOT, 'index.js'))});
    (async () => {
      const t = process.hrtime.bigint();
      const r = await (${expr});
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      const n = Array.isArray(r) ? r.length : r.files ? r.files.length : r.matches ? r.matches.length : r.results ? r.aggregate.totalMatches : 0;
      console.log(JSON.stringify({ ms, n, rss: process.resourceUsage().maxRSS * 1024 }));
    })();`;
  const out = spawnSync(process.execPath, ['-e', code], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout.trim().split('\n').pop());
}

function timed(cmd, args, cwd) {
  const t = process.hrtime.bigint();
  const out = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'ignore'] });
  if (out.error) throw out.error;
  if (out.status !== 0 && out.status !== 1) throw new Error(`${cmd} ${args.join(' ')} exited with ${out.status ?? out.signal}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const dir = makeTree();
const rows = [];
for (const variant of VARIANTS) {
  setVariant(dir, variant);
  const workloads = [
    ['smartFileQuery rare identifier', "api.smartFileQuery({ regex: 'monorepoNeedle\\\\w+' })", [RG, ['--json', '-e', 'monorepoNeedle\\w+']]],
    ['searchCode common word', "api.searchCode('return', { maxResults: 50 })", [RG, ['--json', '-F', '-i', 'return']]],
    ["globFiles('**/*.ts')", "api.globFiles({ pattern: '**/*.ts', maxResults: 10000000 })", [RG, ['--files', '-g', '*.ts']]],
    // The same listing without a per-file lstat (no sizes or times), as rg --files lists.
    ["globFiles('**/*.ts', sizes: false)", "api.globFiles({ pattern: '**/*.ts', maxResults: 10000000, sizes: false })", [RG, ['--files', '-g', '*.ts']]],
    ["findFiles('**/*', sizes: false)", "api.findFiles({ pattern: '**/*', maxResults: 10000000, sizes: false })", ['git', ['ls-files', '--cached', '--others', '--exclude-standard']]],
  ];
  for (const [name, expr, [cmd, args]] of SESSION_ONLY ? [] : workloads) {
    coldCall(dir, expr); // the page cache
    const ours = [];
    const theirs = [];
    let last;
    for (let i = 0; i < RUNS; i++) {
      last = coldCall(dir, expr);
      ours.push(last.ms);
      theirs.push(timed(cmd, args, dir));
    }
    const row = {
      variant, workload: name, ms: median(ours), other: `${cmd === 'git' ? 'git ls-files' : `rg ${args.join(' ')}`}`,
      otherMs: median(theirs), ratio: median(ours) / median(theirs), results: last.n,
      rssMB: last.rss / 2 ** 20, bytesPerListed: name.includes('Files') && last.n > 0 ? last.rss / last.n : undefined,
    };
    rows.push(row);
    console.log(`${variant}\t${name}\t${row.ms.toFixed(0)} ms\t${row.other} ${row.otherMs.toFixed(0)} ms\t${row.ratio.toFixed(2)}x\t${row.results} results\tRSS ${row.rssMB.toFixed(0)} MB${row.bytesPerListed ? ` (${row.bytesPerListed.toFixed(0)} B per listed file)` : ''}`);
  }
  // A session: open + first call (reads everything), then rounds of warm
  // calls, its memory and the process's.
  const s = spawnSync(process.execPath, ['-e', `
    const api = require(${JSON.stringify(join(ROOT, 'index.js'))});
    const mb = (n) => (n / 2 ** 20).toFixed(0);
    const rss = () => mb(process.memoryUsage().rss) + ' MB RSS (peak ' + mb(process.resourceUsage().maxRSS * 1024) + ')';
    const ms = (t) => (Number(process.hrtime.bigint() - t) / 1e6).toFixed(0);
    const report = (what, t, s) => {
      const st = s.stats();
      console.log(${JSON.stringify(variant)} + '\tsession\t' + what + ' ' + ms(t) + ' ms, ' + st.filesKnown + ' files known, ' + mb(st.contentBytes) + ' MB texts, ' + mb(st.indexBytes) + ' MB index, ' + mb(st.memoryBytes) + ' MB held of ' + mb(st.memoryBudgetBytes) + ', ' + st.filesReread + ' read, ' + st.filesPruned + ' pruned, ' + rss());
    };
    (async () => {
      let t = process.hrtime.bigint();
      const s = await api.openSession({ memoryBudgetMB: ${BUDGET} });
      await s.smartFileQuery({ regex: 'monorepoNeedle\\\\w+' });
      report('open + first call (rare identifier)', t, s);
      for (let i = 0; i < ${RUNS}; i++) {
        t = process.hrtime.bigint();
        await s.smartFileQuery({ regex: 'monorepoNeedle\\\\w+' });
        report('rare identifier', t, s);
        t = process.hrtime.bigint();
        await s.searchCode('return', { maxResults: 50 });
        report('searchCode common word', t, s);
      }
    })();`], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
  process.stdout.write(s.stdout);
  if (s.status !== 0) console.log(`${variant}\tsession\tfailed: ${s.stderr.slice(0, 300)}`);
}
setVariant(dir, 'plain');
const out = join(ROOT, 'bench', 'results', `monorepo-${FILES}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ files: FILES, runs: RUNS, rows }, null, 2));
console.log(`raw: ${out}`);
if (!KEEP) rmSync(dir, { recursive: true, force: true });
