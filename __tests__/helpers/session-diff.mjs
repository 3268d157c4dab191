// The sessions' proof: a generated git repository, a session on it, then
// steps of one random mutation (files, folders, symlinks, ignore rules, git
// state, project config) and one random query asked of the session and cold,
// the two answers compared whole (JSON, or the error's code and message).
// Used by __tests__/session-diff.test.ts and scripts/session-diff.mjs.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync,
  statSync, symlinkSync, truncateSync, unlinkSync, writeFileSync, lstatSync, readFileSync, linkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const api = require('../../index.js');

/** mulberry32: a small seeded PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

const WORDS = ['alpha', 'beta', 'gamma', 'needle', 'TODO', 'FIXME', 'const', 'value', 'x', 'hello'];
const DIRS = ['', 'src', 'src/lib', 'docs', 'test', 'deep/a/b', 'vendor', 'build'];

function git(root, ...args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' } });
}

function tryGit(root, ...args) {
  try {
    git(root, ...args);
    return true;
  } catch {
    return false;
  }
}

function line(r) {
  return Array.from({ length: 1 + r.int(8) }, () => r.pick(WORDS)).join(' ');
}

function body(r) {
  return Array.from({ length: 1 + r.int(12) }, () => line(r)).join('\n') + (r.next() < 0.8 ? '\n' : '');
}

/** Files under `root` (not .git), relative, as the walk may list them. */
function files(root) {
  const out = [];
  const walk = (rel) => {
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === '.git') continue;
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk('');
  return out.sort();
}

function dirs(root) {
  const out = [''];
  const walk = (rel) => {
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === '.git' || !e.isDirectory()) continue;
      out.push(p);
      walk(p);
    }
  };
  walk('');
  return out;
}

function write(root, rel, content) {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

/**
 * A generated repository, committed, on branch main with a second branch
 * `other`; with `bulk`, that many more files of about 40 KB (to pass a small
 * memory budget).
 */
export function makeRepo(seed, { bulk = 0 } = {}) {
  const r = rng(seed * 7919 + 1);
  const root = mkdtempSync(join(tmpdir(), 'sfq-session-diff-'));
  for (let i = 0; i < 40; i++) write(root, `${r.pick(DIRS) || '.'}/f${i}.${r.pick(['txt', 'ts', 'md', 'js'])}`.replace(/^\.\//, ''), body(r));
  for (let i = 0; i < bulk; i++) {
    write(root, `${r.pick(DIRS) || '.'}/bulk${i}.${r.pick(['txt', 'ts'])}`.replace(/^\.\//, ''), Array.from({ length: 100 }, () => body(r)).join(''));
  }
  write(root, '.gitignore', 'build/\n*.log\n');
  mkdirSync(join(root, 'build'), { recursive: true });
  for (const f of ['f1', 'f2', 'f3']) {
    const name = readdirSync(root).find((n) => n.startsWith(`${f}.`));
    if (name) linkSync(join(root, name), join(root, 'build', `hard-${name}`));
  }
  write(root, 'src/.gitignore', 'generated.*\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 't@example.com');
  git(root, 'config', 'user.name', 't');
  git(root, 'config', 'commit.gpgsign', 'false');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'one');
  git(root, 'checkout', '-q', '-b', 'other');
  for (let i = 0; i < 6; i++) write(root, `src/other${i}.ts`, body(r));
  write(root, 'docs/f0.md', body(r));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'other');
  git(root, 'checkout', '-q', 'main');
  return root;
}

/** The mutations, by name: each changes the tree (or git's state) one way. */
export const MUTATIONS = {
  // No change: the next query is answered from what the session holds.
  quiet() {},
  quietToo() {},
  sameSizeEdit(root, r) {
    const f = r.pick(files(root).filter((p) => safeFile(root, p)));
    if (!f) return;
    const old = readFileSync(join(root, f));
    if (old.length === 0) return;
    const next = Buffer.from(old);
    const i = r.int(next.length);
    next[i] = next[i] === 0x61 ? 0x62 : 0x61; // same size, within the same second
    writeFileSync(join(root, f), next);
  },
  append(root, r) {
    const f = r.pick(files(root).filter((p) => safeFile(root, p)));
    if (f) appendFileSync(join(root, f), `${line(r)}\n`);
  },
  truncate(root, r) {
    const f = r.pick(files(root).filter((p) => safeFile(root, p)));
    if (f) truncateSync(join(root, f), r.next() < 0.5 ? 0 : Math.floor(statSync(join(root, f)).size / 2));
  },
  createInNewFolder(root, r) {
    write(root, `new${r.int(1000)}/${r.pick(['a', 'b'])}${r.int(10)}.txt`, body(r));
  },
  create(root, r) {
    write(root, `${r.pick(DIRS) || '.'}/c${r.int(1000)}.${r.pick(['txt', 'ts', 'log'])}`.replace(/^\.\//, ''), body(r));
  },
  delete(root, r) {
    const f = r.pick(files(root));
    if (f) rmSync(join(root, f), { force: true });
  },
  atomicSave(root, r) {
    const f = r.pick(files(root).filter((p) => safeFile(root, p)));
    if (!f) return;
    const tmp = join(root, dirname(f), `.tmp-${r.int(1e6)}`);
    writeFileSync(tmp, body(r));
    renameSync(tmp, join(root, f));
  },
  rename(root, r) {
    const f = r.pick(files(root).filter((p) => safeFile(root, p)));
    if (f) renameSync(join(root, f), join(root, dirname(f), `renamed${r.int(1000)}.txt`));
  },
  fileToFolder(root, r) {
    const f = r.pick(files(root).filter((p) => safeFile(root, p)));
    if (!f) return;
    unlinkSync(join(root, f));
    mkdirSync(join(root, f));
    writeFileSync(join(root, f, 'inner.txt'), body(r));
  },
  symlink(root, r) {
    const name = join(root, `link${r.int(100)}`);
    if (existsSync(name) || isLink(name)) rmSync(name, { recursive: true, force: true });
    const kind = r.int(4);
    const target = kind === 0 ? r.pick(files(root)) ?? 'x' : kind === 1 ? 'src' : kind === 2 ? 'missing/nowhere' : `link${r.int(100)}`;
    try {
      symlinkSync(target, name);
    } catch {
      // a name taken meanwhile
    }
  },
  unreadable(root, r) {
    const f = r.pick(files(root).filter((p) => safeFile(root, p)));
    if (f) chmodSync(join(root, f), r.next() < 0.5 ? 0o000 : 0o644);
  },
  gitignoreRoot(root, r) {
    const p = join(root, '.gitignore');
    if (!safeFile(root, '.gitignore')) rmSync(p, { recursive: true, force: true });
    const lines = existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean) : [];
    if (r.next() < 0.5 || lines.length === 0) lines.push(r.pick(['*.md', 'docs/', 'f1*', '!docs/f0.md', 'deep', '*.js']));
    else lines.splice(r.int(lines.length), 1);
    writeFileSync(p, `${lines.join('\n')}\n`);
  },
  gitignoreNested(root, r) {
    const d = r.pick(dirs(root).filter((p) => p !== ''));
    if (!d) return;
    const p = join(root, d, '.gitignore');
    if (existsSync(p) && r.next() < 0.4) rmSync(p, { force: true });
    else appendFileSync(p, `${r.pick(['*.ts', 'f2*', '*.txt', 'b/'])}\n`);
  },
  infoExclude(root, r) {
    const p = join(root, '.git', 'info', 'exclude');
    mkdirSync(dirname(p), { recursive: true });
    if (r.next() < 0.5) appendFileSync(p, `${r.pick(['*.txt', 'test/', 'new*'])}\n`);
    else writeFileSync(p, '');
  },
  gitAdd(root) {
    tryGit(root, 'add', '-A');
  },
  gitCommit(root) {
    tryGit(root, 'add', '-A');
    tryGit(root, 'commit', '-q', '-m', 'step');
  },
  gitRmCached(root, r) {
    const tracked = git(root, 'ls-files').split('\n').filter(Boolean);
    const f = r.pick(tracked);
    if (f) tryGit(root, 'rm', '-q', '--cached', '--', f);
  },
  branchSwitch(root) {
    const branch = git(root, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
    tryGit(root, 'checkout', '-q', '-f', branch === 'main' ? 'other' : 'main');
  },
  stash(root, r) {
    if (r.next() < 0.5) tryGit(root, 'stash', '-q', '--include-untracked');
    else tryGit(root, 'stash', 'pop', '-q');
  },
  sparseCheckout(root, r) {
    // A cone-mode sparse checkout set (with a sparse index or without),
    // widened, or turned off: files leave and come back, the index marks
    // the rest skip-worktree or holds sparse directory entries.
    const x = r.next();
    const git2 = (...args) => tryGit(root, '-c', 'advice.sparseIndexExpanded=false', ...args);
    const tops = ['src', 'docs', 'test', 'deep', 'vendor', 'build'];
    if (x < 0.45) {
      const cone = tops.filter(() => r.next() < 0.4);
      git2('sparse-checkout', 'set', '--cone', r.next() < 0.5 ? '--sparse-index' : '--no-sparse-index', ...cone);
    } else if (x < 0.75) {
      git2('sparse-checkout', 'add', r.pick(tops));
    } else {
      git2('sparse-checkout', 'disable');
    }
  },
  binaryAppears(root, r) {
    write(root, `${r.pick(DIRS) || '.'}/bin${r.int(100)}.dat`.replace(/^\.\//, ''), Buffer.from([0x61, 0, 0x62, 0x0a, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65]));
  },
  growPastCap(root, r) {
    const f = r.pick(files(root).filter((p) => safeFile(root, p)));
    if (f) appendFileSync(join(root, f), `${'needle alpha '.repeat(24000)}\n`); // past 256 KiB
  },
  renameFolder(root, r) {
    const d = r.pick(dirs(root).filter((p) => p !== '' && !p.includes('/')));
    if (d) renameSync(join(root, d), join(root, `${d}-moved${r.int(10)}`));
  },
  folderReplaced(root, r) {
    // A folder moved away and another made at its path, with a file of the
    // old one's name: a text kept for that path must not be served.
    const d = r.pick(dirs(root).filter((p) => p !== ''));
    if (!d) return;
    const old = files(root).filter((f) => f.startsWith(`${d}/`) && safeFile(root, f));
    renameSync(join(root, d), join(root, `${d}-old${r.int(1000)}`));
    for (const f of old.slice(0, 3)) write(root, f, body(r));
  },
  writeThroughLink(root, r) {
    // A file with a second link (made with the repository, in an ignored
    // folder) written through that link, same size: no event names the
    // first path, so a file with two links is never trusted without a stat.
    const d = join(root, 'build');
    let names = [];
    try {
      names = readdirSync(d).filter((n) => n.startsWith('hard'));
    } catch {
      return;
    }
    const n = r.pick(names);
    if (!n) return;
    const p = join(d, n);
    const old = readFileSync(p);
    if (old.length === 0) return;
    old[0] = old[0] === 0x61 ? 0x62 : 0x61;
    writeFileSync(p, old);
  },
  projectConfig(root, r) {
    const p = join(root, '.smart-file-query.json');
    if (!safeFile(root, '.smart-file-query.json')) rmSync(p, { recursive: true, force: true });
    if (existsSync(p) && r.next() < 0.4) rmSync(p);
    else writeFileSync(p, JSON.stringify({ version: 1, exclude_patterns: [r.pick(['docs', 'test', '*.md', 'vendor'])], max_results: 1 + r.int(50) }));
  },
};

function isLink(p) {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A regular file (not a link, not in .git). */
function safeFile(root, rel) {
  try {
    return lstatSync(join(root, rel)).isFile();
  } catch {
    return false;
  }
}

/**
 * The agent searches' hint when nothing matched gets time enough for its
 * whole look: by default it gets a twentieth of the call's time, at least
 * 5 ms, and on a loaded machine one call's look was cut short ("at least 3
 * in files ignored" against the other's 8; seed 1 step 291 without a watch,
 * 4 runs of 10 beside a CI run).
 */
const HINT_MS = 60000;

/** The queries, each made of `on` (the session, or the module with `cwd`). */
export function queries(root, r) {
  const someFile = () => r.pick(files(root)) ?? 'f0.txt';
  return [
    () => ['smartFileQuerySync', [{ regex: r.pick(['alpha|needle', '\\bbeta\\b', 'TODO', '^x', 'v\\w+e']), contextLines: r.int(3), maxMatches: 1 + r.int(300) }]],
    () => ['smartFileQuery', [{ regex: r.pick(['gamma', 'hello', 'a.b']), glob: r.pick(['**/*', 'src/**', '**/*.ts']) }]],
    () => ['searchCodeSync', [r.pick(['beta', 'Needle', 'const value']), { maxResults: 1 + r.int(80), hintMs: HINT_MS }]],
    () => ['grepContentSync', [{ pattern: r.pick(['TODO\\w*', 'alpha\\s+\\w+', 'x']), maxResults: 1 + r.int(200), hintMs: HINT_MS }]],
    () => ['grepSync', [{ pattern: r.pick(['needle', 'HELLO', 'a']), contextLines: r.int(2), hintMs: HINT_MS }]],
    () => ['globFilesSync', [{ pattern: r.pick(['**/*.txt', '**/*', 'src/**']) }]],
    () => ['findFilesSync', [{ pattern: r.pick(['*', '**/*.ts', '*.md']) }]],
    () => ['surveySync', [{ terms: ['alpha', r.pick(['beta', 'gamma', 'needle'])] }]],
    () => ['scoutSync', [{ query: r.pick(['alpha', 'hello', 'value']) }]],
    () => ['sampleSync', [{ query: r.pick(['beta', 'TODO']) }]],
    () => ['showSync', [{ query: r.pick(['alpha', 'x']), file: someFile() }]],
    () => ['getOutlineSync', [someFile()]],
    () => ['searchCode', [r.pick(['alpha', 'needle']), { path: r.pick(['src', 'deep/a', 'docs']), maxResults: 1 + r.int(40), hintMs: HINT_MS }]],
    () => ['globFiles', [{ pattern: r.pick(['**/*', '**/.*', 'src/**/*.ts']), includeHidden: true }]],
    () => ['grepContent', [{ pattern: r.pick(['alpha', 'needle|x']), fileGlob: r.pick(['*.ts', '*.txt', '*.md']), hintMs: HINT_MS }]],
    () => ['findFiles', [{ pattern: r.pick(['*', 'src/*', '**/b*']), path: r.pick(['src', 'deep', '.']) }]],
    () => ['smartFileQuery', [{ regex: r.pick(['alpha', 'TODO']), ignore: r.pick(['docs/**', 'src/**', '**/*.md']), maxFileSizeKB: r.pick([1, 64, 1024]) }]],
    // Only ignored files can match: the hint counts what the walk dropped.
    () => ['grepContent', [{ pattern: r.pick(['alpha', 'needle']), fileGlob: '*.log', hintMs: HINT_MS }]],
    () => ['searchCode', [r.pick(['beta', 'value']), { includeExtensions: ['log'], hintMs: HINT_MS }]],
  ];
}

function withCwd(name, args, cwd) {
  const base = name.replace(/Sync$/, '');
  if (base === 'searchCode') return [args[0], { ...args[1], cwd }];
  if (base === 'getOutline') return [args[0], { cwd }];
  return [{ ...args[0], cwd }, ...args.slice(1)];
}

async function answer(fn) {
  try {
    return JSON.stringify(await fn());
  } catch (e) {
    return `error ${e?.code}: ${e?.message}`;
  }
}

/**
 * Runs `steps` steps on a new repository for `seed`; returns the
 * differences found (each with the step, mutation, query and both answers).
 */
export async function runSeed(seed, steps, { log = () => {}, watch = true, memoryBudgetMB, checkBudget = false } = {}) {
  const root = makeRepo(seed, { bulk: memoryBudgetMB ? 80 : 0 });
  const r = rng(seed);
  const session = await api.openSession({ cwd: root, watch, ...(memoryBudgetMB ? { memoryBudgetMB } : {}) });
  const differences = [];
  // Files the calls took from memory, summed over the run (what the session
  // holds at the end depends on the last steps: a mutation can drop it all).
  let reused = 0;
  const names = Object.keys(MUTATIONS);
  try {
    for (let step = 0; step < steps; step++) {
      const mutation = r.pick(names);
      try {
        MUTATIONS[mutation](root, r);
      } catch (e) {
        // A mutation the tree's state no longer allows (a path that became a
        // folder, a stash with nothing to pop): the step goes on without it.
        const code = e?.info?.code ?? e?.code;
        // (EPERM: Windows refuses to write a file made read-only, its chmod 0.)
        if (!['EISDIR', 'ENOENT', 'ENOTDIR', 'EEXIST', 'EACCES', 'ENOTEMPTY', 'EPERM'].includes(code)) throw e;
      }
      const [name, args] = r.pick(queries(root, r))();
      const warm = await answer(() => session[name](...args));
      const cold = await answer(() => api[name](...withCwd(name, args, root)));
      if (warm !== cold) {
        differences.push({ seed, step, mutation, query: name, args, warm: warm.slice(0, 2000), cold: cold.slice(0, 2000) });
        log(`seed ${seed} step ${step}: ${mutation} then ${name} differs`);
      }
      const held = session.stats();
      reused += held.filesReused;
      // `checkBudget`: what the session holds stays within its budget after every call.
      if (checkBudget && held.memoryBytes > held.memoryBudgetBytes) {
        differences.push({ seed, step, mutation, query: name, args, overBudget: held.memoryBytes - held.memoryBudgetBytes });
        log(`seed ${seed} step ${step}: ${mutation} then ${name} holds ${held.memoryBytes - held.memoryBudgetBytes} bytes past the budget`);
      }
    }
    return { differences, stats: session.stats(), reused };
  } finally {
    session.close();
    try {
      execFileSync('chmod', ['-R', 'u+rwX', root]);
    } catch {
      // best effort
    }
    rmSync(root, { recursive: true, force: true });
  }
}
