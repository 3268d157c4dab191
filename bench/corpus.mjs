#!/usr/bin/env node
// Benchmark corpora, kept under .corpus/ (git-ignored, never committed):
//  - linux: the Linux 6.1 kernel source from Debian's `linux-source-6.1`
//    package (apt is a registry this machine reaches), without drivers/:
//    ~47,000 files, ~490 MB, with the kernel's own .gitignore files; made a
//    git repository whose index holds every file (as the kernel's does).
//  - generated: a seeded synthetic repository (~20,000 files, ~120 MB) of
//    code-like text, with nested .gitignore files and ignored build output.
//  - nuttx, test262, vite: public repositories brought onto this machine by
//    the tool library's `fetch` (github:apache/nuttx, github:tc39/test262,
//    github:vitejs/vite; a bare mirror under $SFQ_MIRROR, default
//    /work/.mirror/<owner>+<name>/repo), cloned and checked out here. Blobs
//    the snapshot lacks (nuttx: a few images of several MB) are dropped from
//    the index and committed, so the tree, the index and HEAD agree. vite gets
//    its node_modules (`pnpm install --ignore-scripts`, pnpm from npm at the
//    version its packageManager field names).
// Usage: node bench/corpus.mjs [linux|generated|nuttx|test262|vite]  → prints the path(s).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(ROOT, '.corpus');
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'corpus', GIT_AUTHOR_EMAIL: 'corpus@example.invalid',
  GIT_COMMITTER_NAME: 'corpus', GIT_COMMITTER_EMAIL: 'corpus@example.invalid',
};
const run = (cmd, args, cwd = CORPUS) =>
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], env: GIT_ENV, maxBuffer: 1 << 28 });

export function linuxCorpus() {
  const dir = join(CORPUS, 'linux-6.1');
  if (existsSync(join(dir, '.sfq-ready'))) return dir;
  mkdirSync(CORPUS, { recursive: true });
  let deb = readdirSync(CORPUS).find((f) => /^linux-source-6\.1_.*\.deb$/.test(f));
  if (!deb) {
    run('apt-get', ['download', 'linux-source-6.1']);
    deb = readdirSync(CORPUS).find((f) => /^linux-source-6\.1_.*\.deb$/.test(f));
  }
  const unpacked = join(CORPUS, 'linux-deb');
  rmSync(unpacked, { recursive: true, force: true });
  run('dpkg-deb', ['-x', deb, unpacked]);
  rmSync(dir, { recursive: true, force: true });
  rmSync(join(CORPUS, 'linux-source-6.1'), { recursive: true, force: true });
  run('tar', ['--no-same-owner', '--exclude=linux-source-6.1/drivers', '-xJf', join(unpacked, 'usr/src/linux-source-6.1.tar.xz')]);
  rmSync(unpacked, { recursive: true, force: true });
  run('mv', ['linux-source-6.1', dir]);
  // Debian's package adds a rule ignoring everything at the top level (its
  // packaging repository's concern); the kernel's own repository has none.
  const gitignore = join(dir, '.gitignore');
  const text = readFileSync(gitignore, 'utf8');
  const cut = text.indexOf('#\n# Debian packaging');
  if (cut >= 0) writeFileSync(gitignore, text.slice(0, cut));
  run('git', ['init', '-q', '-b', 'main'], dir);
  run('git', ['add', '-A', '--force'], dir); // the kernel tracks files its .gitignore matches (.gitignore itself…)
  run('git', ['commit', '-q', '-m', `Linux 6.1 (${deb})`], dir);
  writeFileSync(join(dir, '.git', 'sfq-source'), `${deb}\n`);
  writeFileSync(join(dir, '.sfq-ready'), '');
  return dir;
}

/** mulberry32: a small seeded PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generatedCorpus() {
  const dir = join(CORPUS, 'generated');
  if (existsSync(join(dir, '.sfq-ready'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  const r = rng(20261122);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const words = ['const', 'let', 'function', 'return', 'if', 'else', 'for', 'while', 'class', 'import', 'export',
    'from', 'async', 'await', 'value', 'index', 'result', 'error', 'data', 'config', 'options', 'request', 'response',
    'handler', 'state', 'props', 'TODO', 'FIXME', 'HACK', 'user', 'item', 'list', 'map', 'filter', 'reduce', 'string',
    'number', 'boolean', 'null', 'undefined', 'true', 'false', 'this', 'new', 'throw', 'catch', 'try', 'café', 'naïve'];
  const exts = ['.ts', '.js', '.py', '.rs', '.go', '.md', '.json', '.css'];
  let files = 0;
  for (let d = 0; d < 400; d++) {
    const sub = join(dir, `pkg${d % 40}`, `mod${d}`);
    mkdirSync(sub, { recursive: true });
    for (let f = 0; f < 50; f++) {
      const lines = [];
      const n = 20 + Math.floor(r() * 250);
      for (let l = 0; l < n; l++) {
        const indent = '  '.repeat(Math.floor(r() * 4));
        const len = 2 + Math.floor(r() * 10);
        const parts = [];
        for (let w = 0; w < len; w++) parts.push(r() < 0.1 ? `${pick(words)}_${Math.floor(r() * 1000)}` : pick(words));
        lines.push(indent + parts.join(r() < 0.5 ? ' ' : '.'));
      }
      writeFileSync(join(sub, `file${f}${pick(exts)}`), `${lines.join('\n')}\n`);
      files++;
    }
    if (d % 10 === 0) {
      mkdirSync(join(sub, 'dist'), { recursive: true });
      writeFileSync(join(sub, 'dist', 'bundle.js'), 'const value = 1;\n'.repeat(5000));
      writeFileSync(join(sub, '.gitignore'), 'dist/\n*.log\n');
      writeFileSync(join(sub, 'debug.log'), 'error value\n'.repeat(100));
    }
  }
  mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'const value = 1;\n'.repeat(20000));
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  run('git', ['init', '-q', '-b', 'main'], dir);
  run('git', ['add', '-A'], dir);
  run('git', ['commit', '-q', '-m', `generated corpus, ${files} files`], dir);
  writeFileSync(join(dir, '.sfq-ready'), '');
  return dir;
}

/** Public repositories `fetch` brings, by corpus name. */
export const FETCHED = {
  nuttx: 'apache/nuttx',
  test262: 'tc39/test262',
  vite: 'vitejs/vite',
};

/** Lays out a fetched repository (see the header) as .corpus/<name>. */
export function fetchedCorpus(name) {
  const slug = FETCHED[name];
  if (!slug) throw new Error(`unknown fetched corpus ${name}: one of ${Object.keys(FETCHED).join(', ')}`);
  const dir = join(CORPUS, name);
  if (existsSync(join(dir, '.sfq-ready'))) return dir;
  const mirror = join(process.env.SFQ_MIRROR ?? '/work/.mirror', slug.replace('/', '+'), 'repo');
  if (!existsSync(mirror)) {
    throw new Error(`${mirror} is missing: bring the repository with the tool library's fetch (github:${slug}), or set SFQ_MIRROR`);
  }
  mkdirSync(CORPUS, { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  run('git', ['clone', '-q', '--no-checkout', mirror, dir]);
  run('git', ['read-tree', 'HEAD'], dir);
  // Which index entries have no blob in the snapshot?
  const entries = run('git', ['ls-files', '-s', '-z'], dir).toString('utf8').split('\0').filter(Boolean)
    .map((line) => { const [meta, path] = line.split('\t'); return { oid: meta.split(' ')[1], mode: meta.split(' ')[0], path }; })
    .filter((e) => e.mode !== '160000');
  const check = execFileSync('git', ['cat-file', '--batch-check'], {
    cwd: dir, input: entries.map((e) => e.oid).join('\n') + '\n', maxBuffer: 1 << 28, env: GIT_ENV,
  }).toString('utf8').split('\n');
  const missing = entries.filter((e, i) => / missing$/.test(check[i]));
  if (missing.length) {
    execFileSync('git', ['rm', '-q', '--cached', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      cwd: dir, input: missing.map((e) => e.path).join('\0'), env: GIT_ENV,
    });
    run('git', ['commit', '-q', '-m', `corpus: drop ${missing.length} blobs the snapshot lacks`], dir);
  }
  run('git', ['checkout-index', '-a', '-f'], dir);
  if (name === 'vite') {
    const pm = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).packageManager ?? 'pnpm@10';
    run('npx', ['--yes', pm.split('+')[0], 'install', '--ignore-scripts', '--frozen-lockfile', '--reporter=silent'], dir);
  }
  writeFileSync(join(dir, '.git', 'sfq-source'), `${slug} ${run('git', ['rev-parse', 'HEAD'], dir).toString().trim()} (dropped ${missing.length} missing blobs)\n`);
  writeFileSync(join(dir, '.sfq-ready'), '');
  return dir;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const which = process.argv[2];
  if (!which || which === 'linux') console.log(linuxCorpus());
  if (!which || which === 'generated') console.log(generatedCorpus());
  if (which && FETCHED[which]) console.log(fetchedCorpus(which));
}
