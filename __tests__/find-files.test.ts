// findFiles / findFilesSync (seed 002) through the public JS API.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, findFilesSync } from '../index.js';
import { git, gitInit, makeTree } from './helpers/tree';

let repo: string;
beforeAll(() => {
  repo = makeTree({
    '.gitignore': '*.log\n',
    'src/a.ts': 'x',
    'src/b.test.ts': 'xx',
    'src/deep/c.ts': 'xxx',
    'src/deep/d.js': '',
    'README.md': '#',
    '.github/ci.ts': '',
    'debug.log': 'ignored',
    'dist/out.ts': 'always ignored',
    'build/x.ts': '',
    'pkg/node_modules/m.ts': '',
    '.next/n.ts': '',
  });
  gitInit(repo);
  git(repo, 'add', '-f', 'debug.log'); // tracked though ignored: listed, as git would
  writeFileSync(join(repo, 'new.ts'), 'untracked');
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('findFiles', () => {
  it('matches a slash-free pattern against names at any depth, in path order, with sizes', () => {
    expect(findFilesSync({ cwd: repo, pattern: '*.ts' })).toEqual([
      { path: '.github/ci.ts', type: 'file', size: 0 },
      { path: 'new.ts', type: 'file', size: 9 },
      { path: 'src/a.ts', type: 'file', size: 1 },
      { path: 'src/b.test.ts', type: 'file', size: 2 },
      { path: 'src/deep/c.ts', type: 'file', size: 3 },
    ]);
  });

  it('gives the same sizes whether the files are stated during the walk (large maxResults) or after it (small)', () => {
    const few = findFilesSync({ cwd: repo, pattern: '**/*', maxResults: 2000 });
    const many = findFilesSync({ cwd: repo, pattern: '**/*', maxResults: 100000 });
    expect(few.length).toBeGreaterThan(8);
    expect(many).toEqual(few);
    expect(few.find((f) => f.path === 'src/deep/c.ts')).toEqual({ path: 'src/deep/c.ts', type: 'file', size: 3 });
    expect(few.filter((f) => f.type === 'file').every((f) => typeof f.size === 'number')).toBe(true);
    expect(few.filter((f) => f.type === 'dir').every((f) => !('size' in f))).toBe(true);
  });

  it('matches a pattern with a slash against the whole path, directories included', () => {
    // picomatch: `src/**` also matches `src` itself.
    expect(findFilesSync({ cwd: repo, pattern: 'src/**' }).map((f) => [f.path, f.type])).toEqual([
      ['src', 'dir'],
      ['src/a.ts', 'file'],
      ['src/b.test.ts', 'file'],
      ['src/deep', 'dir'],
      ['src/deep/c.ts', 'file'],
      ['src/deep/d.js', 'file'],
    ]);
    expect(findFilesSync({ cwd: repo, pattern: 'deep' })).toEqual([{ path: 'src/deep', type: 'dir' }]);
  });

  it('respects .gitignore (tracked files stay) and always skips dist, build, .next, node_modules, .git', () => {
    const all = findFilesSync({ cwd: repo, pattern: '**/*', maxResults: 1000 }).map((f) => f.path);
    expect(all).toContain('debug.log');
    expect(all.filter((p) => /(^|\/)(dist|build|\.next|node_modules|\.git)(\/|$)/.test(p))).toEqual([]);
  });

  it('scopes to a directory, keeps root-relative paths, and caps at maxResults', async () => {
    expect((await findFiles({ cwd: repo, pattern: '*.ts', path: 'src/deep' })).map((f) => f.path)).toEqual(['src/deep/c.ts']);
    // A pattern with a slash is relative to `path`, as `find path -path` users expect.
    expect((await findFiles({ cwd: repo, pattern: 'deep/*.ts', path: 'src' })).map((f) => f.path)).toEqual(['src/deep/c.ts']);
    expect(await findFiles({ cwd: repo, pattern: 'src/deep/*.ts', path: 'src' })).toEqual([]);
    expect(findFilesSync({ cwd: repo, pattern: '*', maxResults: 2 })).toHaveLength(2);
    expect(findFilesSync({ cwd: repo, pattern: '*' }).length).toBeLessThanOrEqual(100);
  });

  it('refuses bad input with coded errors', async () => {
    expect(() => findFilesSync({ cwd: repo } as never)).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION' }));
    expect(() => findFilesSync({ cwd: repo, pattern: '*', path: '..' })).toThrow(expect.objectContaining({ code: 'EOUTSIDEROOT' }));
    await expect(findFiles({ cwd: repo, pattern: '*', maxResults: 0 })).rejects.toMatchObject({ code: 'EINVALIDOPTION' });
    expect(() => findFilesSync({ cwd: repo, pattern: '*', path: 'README.md' })).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it('prunes the walk without changing the answer: every pattern gives what picomatch picks from the whole listing', () => {
    const all = findFilesSync({ cwd: repo, pattern: '**', maxResults: 100000 });
    const patterns = [
      'src/deep', 'src/deep/*', 'src/*', 'src/**', 'src/**/*.ts', '{src,pkg}/**/*.ts', '.github/**', '**/deep/**',
      'src/deep/c.ts', 'sr?/*.ts', '[s]rc/**', 'src/!(a).ts', 'nope/**', '*.md', 'deep', '**/*.test.ts', '*/deep',
      // Double quotes: literal text, the quotes dropped (picomatch's parse).
      '"src"/*.ts', '"src"/**', '"src/deep"/*', 'src/"deep"/*.ts', '"a"*', '*"ts"', '"*".md', '"*"', '"?"', '"src',
      '"[s]rc"/**', '"{src,pkg}"/**', 'src"/"*',
    ];
    for (const pattern of patterns) {
      const isMatch = picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
      const expected = all.filter((f) => isMatch(f.path));
      expect(findFilesSync({ cwd: repo, pattern, maxResults: 100000 }), pattern).toEqual(expected);
      // With `path`, the pattern is relative to it (paths returned stay root-relative).
      const scoped = findFilesSync({ cwd: repo, pattern, path: 'src', maxResults: 100000 });
      const under = all.filter((f) => f.path.startsWith('src/') && isMatch(f.path.slice('src/'.length)));
      expect(scoped, `${pattern} in src`).toEqual(under);
    }
  });
});
