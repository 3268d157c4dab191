// searchCode against ripgrep: on seeded random repositories (nested
// .gitignore rules, dot-directories, node_modules, untracked files, CRLF),
// the set of `path:lineNumber` searchCode reports equals the set of match
// events of `rg --json`. rg is required (CI installs it); without it these
// tests fail with a message saying so.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchCode, searchCodeSync, type SearchOptions } from '../index.js';
import { corpusRepo, requireRipgrep, rgFiles, rgMatchSet, setDiff } from './helpers/agent-repos';

const SEEDS = [11, 12, 13];
const repos = new Map<number, string>();

beforeAll(() => {
  requireRipgrep();
  for (const seed of SEEDS) repos.set(seed, corpusRepo(seed, { files: 400 }));
});
afterAll(() => {
  for (const root of repos.values()) rmSync(root, { recursive: true, force: true });
});

function ours(root: string, query: string, options: SearchOptions): Set<string> {
  const r = searchCodeSync(query, { cwd: root, maxResults: 1_000_000, ...options });
  expect(r.complete).toBe(true);
  expect(r.truncated).toBe(false);
  expect(r.matches.length).toBe(r.matchCount);
  expect(r.skipped).toEqual({ binary: 0, tooLarge: 0, unreadable: 0, budget: 0 });
  return new Set(r.matches.map((m) => `${m.path}:${m.lineNumber}`));
}

function expectSame(label: string, got: Set<string>, expected: Set<string>) {
  expect(setDiff(got, expected), `${label}: searchCode (onlyLeft) vs rg (onlyRight)`).toEqual({ onlyLeft: [], onlyRight: [] });
}

const LITERALS = ['needle', 'Needle', 'NEEDLE', 'foo1bar', 'x.y(', '[brackets]', 'a+b', 'pipe|pipe', 'café', 'CAFÉ', 'alpha beta', 'corpus-header', '$dollar', '-'];
const INSENSITIVE = ['needle', 'Todo', 'café', 'foo3bar', 'x.Y(', 'corpus-header'];
const REGEXES = ['foo\\d+bar', '^(alpha|beta)[ ,]', 'x\\.y\\(', '[A-Z]{4,}', 'f[o]+[0-9]{2}bar', '(needle|haystack), (needle|haystack)'];

describe('searchCode vs ripgrep', () => {
  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      it('both see the same files: every rg file is searched, and the per-file header is found in exactly rg\'s files', () => {
        const root = repos.get(seed)!;
        const files = rgFiles(root);
        expect(files.length).toBeGreaterThan(100);
        expect(files.some((f) => f.startsWith('.'))).toBe(true);
        const r = searchCodeSync('corpus-header', { cwd: root, caseSensitive: true, maxResults: 1_000_000 });
        expect(r.filesSearched).toBe(files.length);
        const withHeader = files.filter((f) => !f.endsWith('.gitignore'));
        expect(setDiff(new Set(r.matches.map((m) => m.path)), withHeader)).toEqual({ onlyLeft: [], onlyRight: [] });
        expect(r.matches.every((m) => m.lineNumber === 1)).toBe(true);
      });

      it('literal, case-sensitive (rg -F -s)', () => {
        const root = repos.get(seed)!;
        for (const query of LITERALS) {
          const expected = rgMatchSet(root, ['-F', '-s'], query);
          expectSame(query, ours(root, query, { caseSensitive: true }), expected);
        }
        // Something was compared.
        expect(rgMatchSet(root, ['-F', '-s'], 'needle').size).toBeGreaterThan(20);
      });

      it('literal, case-insensitive (rg -F -i), also as smart case for lower-case queries', () => {
        const root = repos.get(seed)!;
        for (const query of INSENSITIVE) {
          const expected = rgMatchSet(root, ['-F', '-i'], query);
          expectSame(`${query} -i`, ours(root, query, { caseSensitive: false }), expected);
          if (query === query.toLowerCase()) expectSame(`${query} smart`, ours(root, query, {}), expected);
        }
      });

      it('smart case agrees with rg -S', () => {
        const root = repos.get(seed)!;
        for (const query of ['needle', 'Needle', 'todo', 'TODO', 'café', 'Café']) {
          expectSame(`${query} -S`, ours(root, query, {}), rgMatchSet(root, ['-F', '-S'], query));
        }
      });

      it('regexes both engines read the same (rg -s)', () => {
        const root = repos.get(seed)!;
        for (const query of REGEXES) {
          const expected = rgMatchSet(root, ['-s'], query);
          expect(expected.size, query).toBeGreaterThan(0);
          expectSame(query, ours(root, query, { isRegex: true, caseSensitive: true }), expected);
        }
        expectSame('foo\\d+bar -i', ours(root, 'foo\\d+bar', { isRegex: true, caseSensitive: false }), rgMatchSet(root, ['-i'], 'foo\\d+bar'));
      });

      it('a path scope gives the part of the whole-tree answer under that path', () => {
        // Compared with rg's whole-tree answer filtered by prefix, not with `rg … DIR`:
        // ripgrep 13 does not apply a root .gitignore rule like `gen/out*` when it is
        // given the subdirectory `gen` (git, and searchCode, do).
        const root = repos.get(seed)!;
        const all = rgMatchSet(root, ['-F', '-s'], 'needle');
        const dirs = [...new Set(rgFiles(root).filter((f) => f.includes('/')).map((f) => f.split('/')[0]))].sort();
        expect(dirs.length).toBeGreaterThan(1);
        for (const dir of [...dirs, 'src/sub', 'gen/']) {
          const prefix = dir.endsWith('/') ? dir : `${dir}/`;
          const expected = new Set([...all].filter((k) => k.startsWith(prefix)));
          expectSame(`needle in ${dir}`, ours(root, 'needle', { caseSensitive: true, path: dir }), expected);
        }
      });

      it('the async form gives the same set', async () => {
        const root = repos.get(seed)!;
        const r = await searchCode('foo\\d+bar', { cwd: root, isRegex: true, caseSensitive: true, maxResults: 1_000_000 });
        expectSame('async', new Set(r.matches.map((m) => `${m.path}:${m.lineNumber}`)), rgMatchSet(root, ['-s'], 'foo\\d+bar'));
      });
    });
  }
});
