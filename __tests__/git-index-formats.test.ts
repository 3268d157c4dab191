// Monorepo indexes through the public JS API: a split index (the entries in
// `.git/sharedindex.<hash>`, the changes in `.git/index`), a sparse checkout
// with a sparse index (directory entries) and one without (skip-worktree
// entries). The files found and searched are git's: `git ls-files --cached
// --others --exclude-standard` without the skip-worktree entries (`S` in
// `ls-files -t`), which are not on disk and must not come back as ENOENT
// read errors.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFilesSync, smartFileQuerySync } from '../index.js';
import { git, gitInit, makeTree, writeTree } from './helpers/tree';

const files: Record<string, string> = {
  '.gitignore': '# x\n*.log\n',
  'top.txt': 'x top\n',
  'a/x.txt': 'x a\n',
  'a/b/y.txt': 'x ab\n',
  'a/b/deep/z.txt': 'x deep\n',
  'a/c/w.txt': 'x ac\n',
  'a/c/v.log': 'x tracked though ignored\n',
  'd/q.txt': 'x d\n',
  'd/sub/r.txt': 'x dsub\n',
};

/** git's candidates under `root`, and the number of skip-worktree entries. */
function gitFiles(root: string): { files: string[]; skipWorktree: number } {
  const out = git(root, '-c', 'advice.sparseIndexExpanded=false', 'ls-files', '-z', '-t', '--cached', '--others', '--exclude-standard');
  const records = out.split('\0').filter((r) => r.length > 2);
  return {
    files: records.filter((r) => !r.startsWith('S ')).map((r) => r.slice(2)).sort(),
    skipWorktree: records.filter((r) => r.startsWith('S ')).length,
  };
}

function found(root: string): string[] {
  return findFilesSync({ cwd: root, pattern: '**/*', maxResults: 100_000 })
    .filter((f) => f.type === 'file')
    .map((f) => f.path)
    .sort();
}

function searched(root: string) {
  const result = smartFileQuerySync({ cwd: root, regex: 'x' });
  return {
    paths: result.results.map((r) => r.path).sort(),
    skipped: result.skipped,
    visited: result.aggregate.filesVisited,
  };
}

function expectLikeGit(root: string): { skipWorktree: number } {
  const want = gitFiles(root);
  expect(found(root)).toEqual(want.files);
  const s = searched(root);
  expect(s.skipped).toEqual([]);
  expect(s.paths).toEqual(want.files);
  expect(s.visited).toBe(want.files.length);
  return want;
}

let repos: string[] = [];
function repo(): string {
  const root = makeTree(files, 'sfq-index-formats-');
  gitInit(root);
  git(root, 'add', '-f', 'a/c/v.log');
  git(root, 'commit', '-q', '-m', 'ignored file');
  writeFileSync(join(root, 'untracked.txt'), 'x new\n');
  repos.push(root);
  return root;
}

beforeAll(() => {
  repos = [];
});
afterAll(() => {
  for (const r of repos) rmSync(r, { recursive: true, force: true });
});

describe('git index formats through the public API', () => {
  it('reads a split index: the shared index plus the changes recorded since', () => {
    const root = repo();
    git(root, 'update-index', '--split-index');
    git(root, 'config', 'splitIndex.maxPercentChange', '100');
    writeFileSync(join(root, 'a/added.txt'), 'x added\n');
    git(root, 'add', 'a/added.txt');
    git(root, 'rm', '-q', '--cached', 'd/q.txt');
    git(root, 'rm', '-q', 'd/sub/r.txt');
    writeFileSync(join(root, 'top.txt'), 'x changed\n');
    git(root, 'add', 'top.txt');
    expect(readdirSync(join(root, '.git')).filter((n) => n.startsWith('sharedindex.'))).toHaveLength(1);
    const want = expectLikeGit(root);
    expect(want.files).toContain('a/added.txt');
    expect(want.files).toContain('a/c/v.log');
    expect(want.files).not.toContain('d/sub/r.txt');
  });

  it('leaves out what a sparse checkout with a sparse index did not check out', () => {
    const root = repo();
    git(root, 'sparse-checkout', 'init', '--cone', '--sparse-index');
    git(root, 'sparse-checkout', 'set', 'a/b');
    expect(git(root, 'ls-files', '--sparse')).toContain('a/c/\n');
    const want = expectLikeGit(root);
    expect(want.files).toEqual(['.gitignore', 'a/b/deep/z.txt', 'a/b/y.txt', 'a/x.txt', 'top.txt', 'untracked.txt']);
  });

  it('leaves out the skip-worktree entries of a sparse checkout without a sparse index', () => {
    const root = repo();
    git(root, 'sparse-checkout', 'init', '--cone', '--no-sparse-index');
    git(root, 'sparse-checkout', 'set', 'a/b');
    const want = expectLikeGit(root);
    expect(want.skipWorktree).toBe(4);
    // A file written back outside the cone: git clears its bit, it is found again.
    writeTree(root, { 'd/q.txt': 'x back\n' });
    const again = expectLikeGit(root);
    expect(again.files).toContain('d/q.txt');
    expect(again.skipWorktree).toBe(3);
  });
});
