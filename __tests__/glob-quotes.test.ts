// Double-quoted parts of globs, through the public JS API, against picomatch
// 4.0.3: text between a quote at the start of a token and the next quote is
// literal and the quotes are dropped (`"src"/*.js` matches `src/a.js`); a
// quote inside a run of text stays (`a"b"c` matches only `a"b"c`); an
// unterminated quote runs to the end.
import { rmSync } from 'node:fs';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFilesSync, smartFileQuerySync } from '../index.js';
import { gitInit, makeTree } from './helpers/tree';

// Windows forbids `*`, `?` and `"` in names: there the tree holds the others.
const allowed = (f: string) => process.platform !== 'win32' || !/[*?"<>|]/.test(f);
const FILES = [
  'src/a.js', 'src/b.ts', 'src/deep/c.js', 'a', 'ab', 'abc.js', 'lib/ab.js', 'lib/xa', 'x.md', '*.md',
  '[a]', '{a,b}', '?', 'a"b"c', 'a"xb', 'a*b', 'docs/readme.md',
].filter(allowed);

let repo: string;
beforeAll(() => {
  repo = makeTree(Object.fromEntries(FILES.map((f) => [f, 'x\n'])));
  gitInit(repo);
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const PATTERNS = [
  '"src"/*.js', '"src"/**', '"a"*', '*"a"', '"*".md', '"*"', '"?"', '"[a]"', '"{a,b}"', '"a', 'a"b"c', 'a"*"b',
  '"src/"*.js', '"src/deep"/*', 'src/"deep"/*.js', '**/"ab".js', '"lib/ab.js"', '"**"',
];

describe('quoted glob parts', () => {
  it('smartFileQuerySync searches the files picomatch picks (glob, dot: true)', () => {
    for (const glob of PATTERNS) {
      const isMatch = picomatch(glob, { dot: true });
      const expected = FILES.filter((f) => isMatch(f)).sort();
      const got = smartFileQuerySync({ regex: 'x', glob, cwd: repo }).results.map((r) => r.path);
      expect(got, glob).toEqual(expected);
    }
    expect(smartFileQuerySync({ regex: 'x', glob: '"src"/*.js', cwd: repo }).results.map((r) => r.path)).toEqual(['src/a.js']);
  });

  it('findFilesSync finds the files picomatch picks (basename for a slash-free pattern)', () => {
    const all = findFilesSync({ cwd: repo, pattern: '**', maxResults: 100000 });
    for (const pattern of PATTERNS) {
      const isMatch = picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
      const expected = all.filter((f) => isMatch(f.path));
      expect(findFilesSync({ cwd: repo, pattern, maxResults: 100000 }), pattern).toEqual(expected);
    }
    // `"a"*` is `a*` against each name (a quote inside a name is ordinary text).
    expect(findFilesSync({ cwd: repo, pattern: '"a"*' }).map((f) => f.path)).toEqual(
      ['a', 'a"b"c', 'a"xb', 'a*b', 'ab', 'abc.js', 'lib/ab.js', 'src/a.js'].filter(allowed),
    );
  });
});
