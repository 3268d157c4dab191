// `sizes: false` for findFiles and globFiles (and the CLI's `find`, which
// asks for it): the same listing as the sized one, entry for entry, without
// `size` (and `modified`), and without an lstat per file (counted with strace
// where it runs).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, findFilesSync, globFiles, globFilesSync } from '../index.js';
import { generateRepo } from './helpers/generate';
import { type Entry, gitInit, makeTree } from './helpers/tree';

const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');
const MARK = 'sfqnostat';

const roots: string[] = [];
let big: string; // 5,000 files named MARK-… (2,250 not ignored), a git repository
let plain: string; // the same outside git

function bigTree(files: number): Record<string, Entry> {
  const tree: Record<string, Entry> = { '.gitignore': '*.log\nout/\n', 'src/.gitignore': 'gen/\n' };
  const dirs = ['src', 'src/a', 'src/a/b', 'src/gen', 'lib/x y', '.hidden', 'node_modules/p', 'dist', 'out', 'docs/ü/z'];
  const exts = ['ts', 'md', 'log', 'txt'];
  for (let i = 0; i < files; i++) tree[`${dirs[(i * 7) % dirs.length]}/${MARK}-${i}.${exts[i % exts.length]}`] = 'x'.repeat(i % 97);
  tree['empty/inner/.keep'] = '';
  tree['link.ts'] = { symlink: 'src' };
  return tree;
}

beforeAll(() => {
  big = makeTree(bigTree(5_000), 'sfq-sizes-');
  gitInit(big);
  writeFileSync(join(big, 'src', `${MARK}-untracked.ts`), 'new');
  plain = makeTree(bigTree(5_000), 'sfq-sizes-plain-');
  roots.push(big, plain);
  for (const seed of [1, 2, 3, 7]) roots.push(generateRepo(seed).root);
});
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const bare = <T extends { path: string }>(list: T[], keys: (keyof T)[]) =>
  list.map((f) => Object.fromEntries(keys.map((k) => [k, f[k]])));

describe('findFiles with sizes: false', () => {
  it('lists the same entries as the sized listing, without size, sync and async, on any thread count', async () => {
    for (const cwd of roots) {
      for (const pattern of ['**/*', '*.ts', 'src/**', '**/*-1*']) {
        for (const maxResults of [3, 2000, 2001, 100000]) {
          const sized = findFilesSync({ cwd, pattern, maxResults, threads: 1 });
          expect(sized, `${cwd} ${pattern}`).toEqual(findFilesSync({ cwd, pattern, maxResults, threads: 1, sizes: true }));
          for (const threads of [1, 2, 4]) {
            const sync = findFilesSync({ cwd, pattern, maxResults, threads, sizes: false });
            expect(sync, `${cwd} ${pattern} ${maxResults} ${threads}`).toEqual(bare(sized, ['path', 'type']));
            for (const f of sync) expect(Object.keys(f)).toEqual(['path', 'type']);
          }
          const async = await findFiles({ cwd, pattern, maxResults, sizes: false });
          expect(async).toEqual(bare(sized, ['path', 'type']));
        }
      }
    }
    // The sized listing is unchanged: files have their sizes, directories none.
    const all = findFilesSync({ cwd: big, pattern: '**/*', maxResults: 100000 });
    expect(all.length).toBeGreaterThan(2000);
    expect(all.every((f) => (f.type === 'file') === (typeof f.size === 'number'))).toBe(true);
    expect(all.find((f) => f.path === `src/${MARK}-untracked.ts`)).toEqual({ path: `src/${MARK}-untracked.ts`, type: 'file', size: 3 });
  });

  it('refuses a sizes that is not a boolean', async () => {
    expect(() => findFilesSync({ cwd: big, pattern: '*', sizes: 'no' as never })).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION' }));
    await expect(globFiles({ cwd: big, pattern: '*', sizes: 0 as never })).rejects.toMatchObject({ code: 'EINVALIDOPTION' });
  });
});

describe('globFiles with sizes: false', () => {
  it('gives the same page and totals as the sized listing, without size and modified, sync and async', async () => {
    for (const cwd of roots) {
      for (const [pattern, includeHidden] of [['**/*', false], ['**/*', true], ['src/**/*.ts', false]] as const) {
        for (const [offset, maxResults] of [[0, 5], [0, 2000], [7, 1994], [0, 100000]]) {
          const options = { cwd, pattern, includeHidden, offset, maxResults };
          const sized = globFilesSync({ ...options, threads: 1 });
          for (const f of sized.files) expect(Object.keys(f)).toEqual(['path', 'absolutePath', 'size', 'modified']);
          const { files, ...rest } = sized;
          for (const threads of [1, 3]) {
            const sync = globFilesSync({ ...options, threads, sizes: false });
            expect(sync, `${cwd} ${pattern} ${offset} ${maxResults} ${threads}`).toEqual({ ...rest, files: bare(files, ['path', 'absolutePath']) });
            for (const f of sync.files) expect(Object.keys(f)).toEqual(['path', 'absolutePath']);
          }
          const async = await globFiles({ ...options, sizes: false });
          expect(async).toEqual({ ...rest, files: bare(files, ['path', 'absolutePath']) });
        }
      }
    }
    expect(globFilesSync({ cwd: big, pattern: '**/*', sizes: false, maxResults: 1 }).total).toBeGreaterThan(1500);
  });
});

// ---------------------------------------------------------------------------
// The lstat calls, counted: every stat-family call naming a file of the tree.

const strace = spawnSync('strace', ['-V'], { encoding: 'utf8' }).status === 0
  && spawnSync('strace', ['-f', '-qq', '-e', 'trace=/stat', '-o', '/dev/null', process.execPath, '-e', '0']).status === 0;

/** How many stat-family calls name one of the tree's MARK files, while `args` runs in a fresh Node. */
function statsOf(args: string[]): { count: number; stdout: string } {
  const out = join(tmpdir(), `sfq-strace-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
  try {
    const r = spawnSync('strace', ['-f', '-qq', '-e', 'trace=/stat', '-o', out, process.execPath, ...args], { encoding: 'utf8', cwd: big });
    expect(r.status, r.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').split('\n');
    return { count: lines.filter((l) => l.includes(`"${MARK}-`) || l.includes(`/${MARK}-`)).length, stdout: r.stdout };
  } finally {
    rmSync(out, { force: true });
  }
}

const API = resolve(__dirname, '..', 'index.js');
const call = (js: string) => ['-e', `const api = require(${JSON.stringify(API)}); process.stdout.write(JSON.stringify(${js}))`];

describe.skipIf(!strace)('no lstat per file (strace)', () => {
  it('findFiles and globFiles stat every listed file with sizes, none without', () => {
    const marked = (list: { path: string; type?: string }[]) => list.filter((f) => f.type !== 'dir' && f.path.includes(MARK)).length;
    const listed = marked(findFilesSync({ cwd: big, pattern: '**/*', maxResults: 100000 }));
    const first = marked(findFilesSync({ cwd: big, pattern: '**/*', maxResults: 2000 }));
    const globbed = marked(globFilesSync({ cwd: big, pattern: '**/*', maxResults: 100000 }).files);
    expect([listed, first, globbed].every((n) => n > 1500)).toBe(true);
    for (const threads of [1, 2]) {
      // During the walk (more than 2,000 asked for) and after it (the first 2,000).
      const during = statsOf(call(`api.findFilesSync({ pattern: '**/*', maxResults: 100000, threads: ${threads} })`));
      expect(during.count).toBeGreaterThanOrEqual(listed);
      const after = statsOf(call(`api.findFilesSync({ pattern: '**/*', maxResults: 2000, threads: ${threads} })`));
      expect(after.count).toBeGreaterThanOrEqual(first);
      for (const maxResults of [2000, 100000]) {
        const none = statsOf(call(`api.findFilesSync({ pattern: '**/*', maxResults: ${maxResults}, threads: ${threads}, sizes: false })`));
        expect(none.count, `findFiles ${maxResults} ${threads}`).toBe(0);
        expect(JSON.parse(none.stdout)).toHaveLength(Math.min(maxResults, findFilesSync({ cwd: big, pattern: '**/*', maxResults: 100000 }).length));
        const glob = statsOf(call(`api.globFilesSync({ pattern: '**/*', maxResults: ${maxResults}, threads: ${threads}, sizes: false })`));
        expect(glob.count, `globFiles ${maxResults} ${threads}`).toBe(0);
      }
      const globSized = statsOf(call(`api.globFilesSync({ pattern: '**/*', maxResults: 100000, threads: ${threads} })`));
      expect(globSized.count).toBeGreaterThanOrEqual(globbed);
    }
  });

  it('the CLI find prints paths without statting them; --json keeps the sizes', () => {
    const paths = findFilesSync({ cwd: big, pattern: '**/*', maxResults: 100000 }).map((f) => `${f.path}${f.type === 'dir' ? '/' : ''}\n`).join('');
    const listed = statsOf([BIN, 'find', '**/*', '--max-results', '100000']);
    expect(listed.stdout).toBe(paths);
    expect(listed.count).toBe(0);
    const json = statsOf([BIN, 'find', '**/*', '--max-results', '100000', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(findFilesSync({ cwd: big, pattern: '**/*', maxResults: 100000 }));
    expect(json.count).toBeGreaterThan(1500);
  });
});

describe('the CLI find', () => {
  it('prints the sized listing\'s paths (it asks for sizes: false), and --json the sized entries', () => {
    for (const cwd of roots) {
      const sized = findFilesSync({ cwd, pattern: '*', maxResults: 5000 });
      const r = spawnSync(process.execPath, [BIN, 'find', '*', '--max-results', '5000'], { cwd, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(sized.map((f) => `${f.path}${f.type === 'dir' ? '/' : ''}\n`).join(''));
      const json = spawnSync(process.execPath, [BIN, 'find', '*', '--max-results', '5000', '--json'], { cwd, encoding: 'utf8' });
      expect(json.stdout).toBe(`${JSON.stringify(sized)}\n`);
    }
  });
});
