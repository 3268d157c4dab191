// Ignore files of 100 MiB or more, as git 2.47 treats them (dir.c,
// PATTERN_MAX_FILE_SIZE): a .gitignore that large is skipped with a warning
// (it hides nothing), an info/exclude or core.excludesFile that large is
// fatal ("cannot use … as an exclude file"). The files are sparse: the line
// `*`, then a hole.
import { rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smartFileQuery, smartFileQuerySync } from '../index.js';
import { git, gitInit, makeTree } from './helpers/tree';

const LIMIT = 100 * 1024 * 1024;

function starFile(path: string, len: number): void {
  writeFileSync(path, '*\n');
  truncateSync(path, len);
}

let repo: string;
beforeAll(() => {
  repo = makeTree({ 'a.txt': 'x\n', 'sub/b.txt': 'x\n' });
  gitInit(repo);
  writeFileSync(join(repo, 'new.txt'), 'x\n'); // untracked
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const searched = () => smartFileQuerySync({ regex: 'x', cwd: repo }).results.map((r) => r.path);
const gitList = () => git(repo, 'ls-files', '--cached', '--others', '--exclude-standard').split('\n').filter(Boolean).sort();

describe('ignore files of 100 MiB or more', () => {
  it('a .gitignore of 100 MiB is skipped as git skips it, and reported; one byte less is used', () => {
    const gitignore = join(repo, '.gitignore');
    try {
      starFile(gitignore, LIMIT);
      expect(gitList()).toEqual(['.gitignore', 'a.txt', 'new.txt', 'sub/b.txt']);
      const r = smartFileQuerySync({ regex: 'x', cwd: repo });
      expect(r.results.map((f) => f.path)).toEqual(['a.txt', 'new.txt', 'sub/b.txt']);
      expect(r.skipped).toContainEqual({ path: '.gitignore', reason: 'readError', code: 'EFBIG' });
      starFile(gitignore, LIMIT - 1);
      expect(gitList()).toEqual(['a.txt', 'sub/b.txt']);
      expect(searched()).toEqual(['a.txt', 'sub/b.txt']);
    } finally {
      rmSync(gitignore, { force: true });
    }
  });

  it('an info/exclude of 100 MiB is an EREPOSITORY error naming it, as git dies on it', async () => {
    const exclude = join(repo, '.git', 'info', 'exclude');
    try {
      starFile(exclude, LIMIT);
      expect(() => git(repo, 'ls-files', '--others', '--exclude-standard')).toThrow(/cannot use .* as an exclude file/);
      const error = expect.objectContaining({
        code: 'EREPOSITORY',
        message: expect.stringMatching(/\.git[\\/]info[\\/]exclude.*100 MiB/),
      });
      expect(() => smartFileQuerySync({ regex: 'x', cwd: repo })).toThrow(error);
      await expect(smartFileQuery({ regex: 'x', cwd: repo })).rejects.toThrow(error);
      starFile(exclude, LIMIT - 1);
      expect(searched()).toEqual(gitList());
    } finally {
      rmSync(exclude, { force: true });
    }
    expect(searched()).toEqual(['a.txt', 'new.txt', 'sub/b.txt']);
  });
});
