// The agent search APIs through the public JS API, on generated git
// repositories: searchCode (seed 003), grep (seed 002), grepContent and
// globFiles (seed 004), and the candidate file set against `git ls-files`.
import { rmSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  globFiles,
  globFilesSync,
  grep,
  grepContent,
  grepContentSync,
  grepSync,
  searchCode,
  searchCodeSync,
  type GlobFilesOptions,
  type GrepContentOptions,
  type SearchOptions,
} from '../index.js';
import { corpusRepo, gitListing, gitRepo, numberedLines, setDiff } from './helpers/agent-repos';

const made: string[] = [];
function repo(files: Parameters<typeof gitRepo>[0]): string {
  const root = gitRepo(files);
  made.push(root);
  return root;
}
afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

const KB = 1024;
/** A 900 KB single line (under the 1024 KB cap) with `minimark` in the middle. */
const MINIFIED = `${'var a=1;'.repeat(56_000)}minimark${'b=2;'.repeat(112_000)}`;
const MINIFIED_START = `minimark${'x'.repeat(5000)}`;

// ───────────────────────────── searchCode ─────────────────────────────

describe('searchCode', () => {
  let root: string;
  beforeAll(() => {
    root = repo({
      '.gitignore': 'ignored/\n*.log\n',
      'src/app.ts': 'const x = a.b(1);\nconst y = axb(2);\nneedle needle needle\nno match here\n',
      'src/case.ts': 'Foo one\nfoo two\nFOO three\nfOo four\n',
      'src/gen/x.ts': 'genmark\n',
      'lib/deep/gen/y.ts': 'genmark\n',
      'lib/general.ts': 'genmark\n',
      'src/x/z.ts': 'genmark\n',
      'src/xx/z.ts': 'genmark\n',
      'ext/a.ts': 'extmark\n',
      'ext/b.tsx': 'extmark\n',
      'ext/c.js': 'extmark\n',
      'ext/d.md': 'extmark\n',
      'ignored/i.ts': 'needle\n',
      'debug.log': 'needle\n',
      'node_modules/pkg/index.js': 'needle\n',
      'src/node_modules/deep.js': 'needle\n',
      'dist/out.js': 'needle\n',
      '.config/settings.txt': 'needle\n',
      'big/large.txt': `needle\n${'a'.repeat(1200 * KB)}\n`,
      'bin/data.bin': Buffer.from('needle\0needle\n'),
      'bin/ctrl.txt': 'needle\u0001\n',
      'many/f0.txt': numberedLines('manymark', 26),
      'many/f1.txt': numberedLines('manymark', 26),
      'many/f2.txt': numberedLines('manymark', 26),
      'many/f3.txt': numberedLines('manymark', 26),
      'many/f4.txt': numberedLines('manymark', 26),
      'min/bundle.min.js': `${MINIFIED}\n`,
      'min/start.js': `${MINIFIED_START}\n`,
      'src/crlf.txt': 'one\r\ncrlfmark two\r\nthree\r\n',
    });
    // Never searched, whatever it holds.
    writeFileSync(join(root, '.git', 'needle.txt'), 'needle\n');
  });

  const s = (query: string, o: SearchOptions = {}) => searchCodeSync(query, { cwd: root, ...o });
  const where = (query: string, o: SearchOptions = {}) => s(query, o).matches.map((m) => `${m.path}:${m.lineNumber}`);

  it('returns the seed fields plus counts, in path order; .gitignore, .git and node_modules excluded; dotfiles and dist searched', () => {
    expect(s('needle')).toEqual({
      query: 'needle',
      matchCount: 3,
      matches: [
        { path: '.config/settings.txt', lineNumber: 1, content: 'needle' },
        { path: 'dist/out.js', lineNumber: 1, content: 'needle' },
        { path: 'src/app.ts', lineNumber: 3, content: 'needle needle needle' },
      ],
      truncated: false,
      filesWithMatches: 3,
      filesSearched: expect.any(Number),
      skipped: { binary: 2, tooLarge: 1, unreadable: 0, budget: 0 },
      complete: true,
    });
    expect('reason' in s('needle')).toBe(false);
  });

  it('counts the files searched: every candidate file but the binary and oversized ones', () => {
    // 29 files written (.gitignore included) minus ignored/i.ts, debug.log, 2 in node_modules, big (tooLarge), 2 binary.
    expect(s('needle').filesSearched).toBe(29 - 1 - 1 - 2 - 1 - 2);
  });

  it('splits lines as /\\r?\\n/: CRLF line numbers, no \\r in content', () => {
    expect(s('crlfmark').matches).toEqual([{ path: 'src/crlf.txt', lineNumber: 2, content: 'crlfmark two' }]);
    expect(s('three', { path: 'src/crlf.txt' }).matches).toEqual([{ path: 'src/crlf.txt', lineNumber: 3, content: 'three' }]);
  });

  it('is literal by default: a.b( is text, not a regex', () => {
    expect(s('a.b(')).toMatchObject({
      matchCount: 1,
      matches: [{ path: 'src/app.ts', lineNumber: 1, content: 'const x = a.b(1);' }],
      truncated: false,
    });
    expect(where('a.b\\(', { isRegex: true })).toEqual(['src/app.ts:1', 'src/app.ts:2']);
    expect(where('(')).toEqual(['src/app.ts:1', 'src/app.ts:2']);
  });

  it('is smart case: lower-case queries ignore case, an upper-case letter makes it exact; caseSensitive overrides', () => {
    expect(where('foo')).toEqual(['src/case.ts:1', 'src/case.ts:2', 'src/case.ts:3', 'src/case.ts:4']);
    expect(where('Foo')).toEqual(['src/case.ts:1']);
    expect(where('FOO')).toEqual(['src/case.ts:3']);
    expect(where('foo', { caseSensitive: true })).toEqual(['src/case.ts:2']);
    expect(where('Foo', { caseSensitive: false })).toEqual(['src/case.ts:1', 'src/case.ts:2', 'src/case.ts:3', 'src/case.ts:4']);
  });

  it('reads the query as a regex with isRegex', () => {
    expect(where('fo+ (one|two)', { isRegex: true })).toEqual(['src/case.ts:1', 'src/case.ts:2']);
    expect(where('fo+ (one|two)', { isRegex: true, caseSensitive: true })).toEqual(['src/case.ts:2']);
    expect(where('^[a-z]+ (three|four)$', { isRegex: true, caseSensitive: false })).toEqual(['src/case.ts:3', 'src/case.ts:4']);
    // Not a regex without the option.
    expect(where('fo+ (one|two)')).toEqual([]);
  });

  it('limits to a file or a folder given as path; paths stay relative to cwd', () => {
    expect(where('foo', { path: 'src/case.ts' })).toEqual(['src/case.ts:1', 'src/case.ts:2', 'src/case.ts:3', 'src/case.ts:4']);
    expect(where('genmark', { path: 'src/gen' })).toEqual(['src/gen/x.ts:1']);
    expect(where('genmark', { path: 'lib' })).toEqual(['lib/deep/gen/y.ts:1', 'lib/general.ts:1']);
    expect(where('genmark', { path: 'lib/' })).toEqual(['lib/deep/gen/y.ts:1', 'lib/general.ts:1']);
    expect(where('genmark', { path: join(root, 'src') })).toEqual(['src/gen/x.ts:1', 'src/x/z.ts:1', 'src/xx/z.ts:1']);
  });

  it('filters by extension, with or without the dot', () => {
    expect(where('extmark')).toEqual(['ext/a.ts:1', 'ext/b.tsx:1', 'ext/c.js:1', 'ext/d.md:1']);
    expect(where('extmark', { includeExtensions: ['.ts'] })).toEqual(['ext/a.ts:1']);
    expect(where('extmark', { includeExtensions: ['ts'] })).toEqual(['ext/a.ts:1']);
    expect(where('extmark', { includeExtensions: ['.tsx', 'js'] })).toEqual(['ext/b.tsx:1', 'ext/c.js:1']);
  });

  it('excludes a bare name at any depth, and **/x/** style globs', () => {
    expect(where('genmark')).toEqual(['lib/deep/gen/y.ts:1', 'lib/general.ts:1', 'src/gen/x.ts:1', 'src/x/z.ts:1', 'src/xx/z.ts:1']);
    expect(where('genmark', { excludePatterns: ['gen'] })).toEqual(['lib/general.ts:1', 'src/x/z.ts:1', 'src/xx/z.ts:1']);
    expect(where('genmark', { excludePatterns: ['**/x/**'] })).toEqual([
      'lib/deep/gen/y.ts:1', 'lib/general.ts:1', 'src/gen/x.ts:1', 'src/xx/z.ts:1',
    ]);
    expect(where('genmark', { excludePatterns: ['gen', '**/x/**'] })).toEqual(['lib/general.ts:1', 'src/xx/z.ts:1']);
    // With a slash: matched from the root.
    expect(where('genmark', { excludePatterns: ['src/gen'] })).toEqual(['lib/deep/gen/y.ts:1', 'lib/general.ts:1', 'src/x/z.ts:1', 'src/xx/z.ts:1']);
    expect(where('genmark', { excludePatterns: ['deep/gen'] })).toEqual(['lib/deep/gen/y.ts:1', 'lib/general.ts:1', 'src/gen/x.ts:1', 'src/x/z.ts:1', 'src/xx/z.ts:1']);
    expect(where('genmark', { excludePatterns: ['*.ts'] })).toEqual([]);
  });

  it('gives one entry per matching line (three matches on a line are one entry)', () => {
    const r = s('needle', { path: 'src' });
    expect(r.matchCount).toBe(1);
    expect(r.matches).toEqual([{ path: 'src/app.ts', lineNumber: 3, content: 'needle needle needle' }]);
  });

  const allMany = Array.from({ length: 5 }, (_, f) =>
    Array.from({ length: 26 }, (_, i) => ({ path: `many/f${f}.txt`, lineNumber: i + 1, content: `manymark ${i + 1}` })),
  ).flat();

  it('caps at 50 by default, with matchCount exact past the cap and truncated set', () => {
    const r = s('manymark');
    expect(r.matches).toEqual(allMany.slice(0, 50));
    expect(r.matchCount).toBe(130);
    expect(r.truncated).toBe(true);
    expect(r.filesWithMatches).toBe(5);
    const all = s('manymark', { maxResults: 1000 });
    expect(all.matches).toEqual(allMany);
    expect(all.truncated).toBe(false);
    const exact = s('manymark', { maxResults: 130 });
    expect(exact.matches).toHaveLength(130);
    expect(exact.truncated).toBe(false);
    expect(s('manymark', { maxResults: 7 })).toMatchObject({ matchCount: 130, truncated: true, matches: allMany.slice(0, 7) });
  });

  it('pages with offset: consecutive pages concatenate to the unpaged list, no overlap, no gap', () => {
    const pages: unknown[] = [];
    for (let offset = 0; offset < 130; offset += 17) {
      const page = s('manymark', { maxResults: 17, offset });
      expect(page.matchCount).toBe(130);
      expect(page.truncated).toBe(offset + 17 < 130);
      expect(page.matches.length).toBe(Math.min(17, 130 - offset));
      pages.push(...page.matches);
    }
    expect(pages).toEqual(allMany);
    expect(s('manymark', { offset: 130 })).toMatchObject({ matches: [], matchCount: 130, truncated: false });
  });

  it('cuts a 900 KB minified line to a window around the match with … at the cut ends', () => {
    const r = s('minimark', { path: 'min/bundle.min.js' });
    expect(r.matchCount).toBe(1);
    const m = r.matches[0];
    expect(m.path).toBe('min/bundle.min.js');
    expect(m.lineNumber).toBe(1);
    expect(m.contentTruncated).toBe(true);
    expect(m.content.length).toBeLessThan(520);
    expect(m.content.length).toBeGreaterThan(100);
    expect(m.content).toContain('minimark');
    expect(m.content.startsWith('…')).toBe(true);
    expect(m.content.endsWith('…')).toBe(true);
    // The window is a piece of the line.
    expect(MINIFIED.includes(m.content.slice(1, -1))).toBe(true);
  });

  it('cuts only the end when the match is at the start of a long line', () => {
    const m = s('minimark', { path: 'min/start.js' }).matches[0];
    expect(m.contentTruncated).toBe(true);
    expect(m.content.length).toBeLessThan(520);
    expect(m.content.startsWith('minimark')).toBe(true);
    expect(m.content.endsWith('…')).toBe(true);
    expect(MINIFIED_START.startsWith(m.content.slice(0, -1))).toBe(true);
  });

  it('maxLineLength 0 gives the whole line; short lines carry no contentTruncated', () => {
    const m = s('minimark', { path: 'min/bundle.min.js', maxLineLength: 0 }).matches[0];
    expect(m.content).toBe(MINIFIED);
    expect('contentTruncated' in m).toBe(false);
    expect('contentTruncated' in s('needle').matches[0]).toBe(false);
    const small = s('minimark', { path: 'min/start.js', maxLineLength: 100 }).matches[0];
    expect(small.content.length).toBeLessThan(110);
    expect(small.content.startsWith('minimark')).toBe(true);
  });

  it('refuses invalid options with EINVALIDOPTION naming the option', () => {
    const bad: Array<[SearchOptions, string]> = [
      [{ maxResults: -1 }, 'maxResults'],
      [{ maxResults: 'ten' as never }, 'maxResults'],
      [{ caseSensitive: 'yes' as never }, 'caseSensitive'],
      [{ isRegex: 1 as never }, 'isRegex'],
      [{ includeExtensions: 5 as never }, 'includeExtensions'],
      [{ includeExtensions: [1] as never }, 'includeExtensions'],
      [{ excludePatterns: [1] as never }, 'excludePatterns'],
      [{ offset: -1 }, 'offset'],
      [{ maxLineLength: -5 }, 'maxLineLength'],
      [{ timeBudgetMs: 'soon' as never }, 'timeBudgetMs'],
      [{ path: 3 as never }, 'path'],
      [{ bogus: true } as never, 'bogus'],
    ];
    for (const [options, name] of bad) {
      let error: unknown;
      try {
        s('needle', options);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(options)).toBeInstanceOf(Error);
      expect(error, JSON.stringify(options)).toMatchObject({ code: 'EINVALIDOPTION', message: expect.stringContaining(name) });
    }
  });

  it('refuses an empty query, a bad regex, a path outside cwd and an aborted signal with coded errors', async () => {
    expect(() => s('')).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION', message: expect.stringMatching(/query/) }));
    await expect(searchCode('', { cwd: root })).rejects.toMatchObject({ code: 'EINVALIDOPTION' });
    expect(() => s('(', { isRegex: true })).toThrow(expect.objectContaining({ code: 'EINVALIDREGEX' }));
    await expect(searchCode('a[', { cwd: root, isRegex: true })).rejects.toMatchObject({ code: 'EINVALIDREGEX' });
    expect(() => s('needle', { path: '..' })).toThrow(expect.objectContaining({ code: 'EOUTSIDEROOT' }));
    expect(() => s('needle', { path: '../..' })).toThrow(expect.objectContaining({ code: 'EOUTSIDEROOT' }));
    expect(() => s('needle', { path: tmpdir() })).toThrow(expect.objectContaining({ code: 'EOUTSIDEROOT' }));
    await expect(searchCode('needle', { cwd: root, path: 'src/../..' })).rejects.toMatchObject({ code: 'EOUTSIDEROOT' });
    const aborted = searchCode('needle', { cwd: root, signal: AbortSignal.abort() });
    await expect(aborted).rejects.toBeInstanceOf(Error);
    await expect(aborted).rejects.toMatchObject({ code: 'EABORTED' });
  });

  it('the async form and the sync twin give deep-equal results', async () => {
    const cases: Array<[string, SearchOptions]> = [
      ['needle', {}],
      ['foo', {}],
      ['Foo', { caseSensitive: false }],
      ['fo+ (one|two)', { isRegex: true }],
      ['manymark', { maxResults: 9, offset: 40 }],
      ['genmark', { excludePatterns: ['gen'], path: 'src' }],
      ['extmark', { includeExtensions: ['tsx', '.js'] }],
      ['minimark', { maxLineLength: 80 }],
      ['nothing-matches-this', {}],
    ];
    for (const [query, o] of cases) {
      expect(await searchCode(query, { cwd: root, ...o }), query).toEqual(s(query, o));
    }
  });
});

describe('searchCode timeBudgetMs', () => {
  const FILES = 3000;
  let big: string;
  beforeAll(() => {
    const files: Record<string, string> = {};
    const filler = `${'lorem ipsum dolor sit amet '.repeat(8)}\n`.repeat(10);
    for (let i = 0; i < FILES; i++) files[`d${i % 30}/e${i % 7}/f${i}.txt`] = `${filler}budgetmark ${i}\n${filler}`;
    big = repo(files);
  });

  it('without a budget the search is complete', () => {
    const r = searchCodeSync('budgetmark', { cwd: big, maxResults: 5 });
    expect(r.complete).toBe(true);
    expect('reason' in r).toBe(false);
    expect(r.filesSearched).toBe(FILES);
    expect(r.matchCount).toBe(FILES);
    expect(r.filesWithMatches).toBe(FILES);
  });

  it('a 1 ms budget on thousands of files ends early with complete:false and reason timeBudget (or had searched everything)', async () => {
    for (const r of [
      searchCodeSync('budgetmark', { cwd: big, timeBudgetMs: 1, maxResults: 5 }),
      await searchCode('budgetmark', { cwd: big, timeBudgetMs: 1, maxResults: 5 }),
    ]) {
      if (r.complete) {
        expect(r.filesSearched).toBe(FILES);
        expect(r.matchCount).toBe(FILES);
      } else {
        expect(r.complete).toBe(false);
        expect(r.reason).toBe('timeBudget');
        expect(r.filesSearched).toBeLessThan(FILES);
        expect(r.matchCount).toBeLessThan(FILES);
        expect(r.matches.length).toBeLessThanOrEqual(5);
      }
    }
  });

  it('a generous budget changes nothing', () => {
    const r = searchCodeSync('budgetmark', { cwd: big, timeBudgetMs: 600_000, maxResults: 5 });
    expect(r).toEqual(searchCodeSync('budgetmark', { cwd: big, maxResults: 5 }));
  });
});

// ──────────────────────────────── grep ────────────────────────────────

describe('grep', () => {
  let root: string;
  const A = ['Needle at the start', 'two', 'three', 'four', 'five', 'the needle in the middle', 'seven', 'eight', 'nine', 'NEEDLE at the end'];
  beforeAll(() => {
    root = repo({
      '.gitignore': 'ignored.txt\n',
      'ignored.txt': 'needle\n',
      'src/a.ts': `${A.join('\n')}\n`,
      'src/lit.ts': 'call a.b(x)\ncall axb(x)\n',
      'src/re.ts': 'zap1\nzaap22\nzaaap333\n',
      'many/m.txt': numberedLines('manyline', 60),
      'dist/x.js': 'needle\n',
      'build/x.js': 'needle\n',
      '.next/x.js': 'needle\n',
      'node_modules/x/i.js': 'needle\n',
      'pkg/dist/d.js': 'needle\n',
      'pkg/build/b.js': 'needle\n',
      'pkg/node_modules/n.js': 'needle\n',
      'pkg/.next/n.js': 'needle\n',
    });
    writeFileSync(join(root, '.git', 'needle.txt'), 'needle\n');
  });
  const g = (o: Omit<Parameters<typeof grepSync>[0], 'cwd'>) => grepSync({ cwd: root, ...o });

  it('is literal and case-insensitive by default; node_modules, dist, build, .next, .git and .gitignore are skipped', () => {
    expect(g({ pattern: 'needle' })).toEqual([
      { file: 'src/a.ts', line: 1, content: 'Needle at the start' },
      { file: 'src/a.ts', line: 6, content: 'the needle in the middle' },
      { file: 'src/a.ts', line: 10, content: 'NEEDLE at the end' },
    ]);
    expect(g({ pattern: 'NEEDLE' })).toEqual(g({ pattern: 'needle' }));
    expect(g({ pattern: 'a.b(' })).toEqual([{ file: 'src/lit.ts', line: 1, content: 'call a.b(x)' }]);
  });

  it('caseSensitive makes it exact', () => {
    expect(g({ pattern: 'needle', caseSensitive: true })).toEqual([{ file: 'src/a.ts', line: 6, content: 'the needle in the middle' }]);
    expect(g({ pattern: 'NEEDLE', caseSensitive: true })).toEqual([{ file: 'src/a.ts', line: 10, content: 'NEEDLE at the end' }]);
  });

  it('reads a regex with regex:true', () => {
    expect(g({ pattern: 'za+p\\d{2,}', regex: true })).toEqual([
      { file: 'src/re.ts', line: 2, content: 'zaap22' },
      { file: 'src/re.ts', line: 3, content: 'zaaap333' },
    ]);
    expect(g({ pattern: 'a.b\\(', regex: true }).map((m) => m.line)).toEqual([1, 2]);
    expect(g({ pattern: 'za+p\\d{2,}' })).toEqual([]);
  });

  it('returns 50 entries by default: the first 50 in path order', () => {
    const r = g({ pattern: 'manyline' });
    expect(r).toHaveLength(50);
    expect(r).toEqual(Array.from({ length: 50 }, (_, i) => ({ file: 'many/m.txt', line: i + 1, content: `manyline ${i + 1}` })));
    expect(g({ pattern: 'manyline', maxResults: 1000 })).toHaveLength(60);
    expect(g({ pattern: 'manyline', maxResults: 3 }).map((m) => m.line)).toEqual([1, 2, 3]);
  });

  it('contextLines gives the block around the match in file order, the match line included, and its first line number', () => {
    expect(g({ pattern: 'needle', contextLines: 2 })).toEqual([
      { file: 'src/a.ts', line: 1, content: A[0], context: A.slice(0, 3), contextStart: 1 },
      { file: 'src/a.ts', line: 6, content: A[5], context: A.slice(3, 8), contextStart: 4 },
      { file: 'src/a.ts', line: 10, content: A[9], context: A.slice(7, 10), contextStart: 8 },
    ]);
    expect(g({ pattern: 'two', contextLines: 1, caseSensitive: true })).toEqual([
      { file: 'src/a.ts', line: 2, content: 'two', context: A.slice(0, 3), contextStart: 1 },
    ]);
  });

  it('has no context keys without contextLines (or with 0)', () => {
    for (const m of [...g({ pattern: 'needle' }), ...g({ pattern: 'needle', contextLines: 0 })]) {
      expect('context' in m).toBe(false);
      expect('contextStart' in m).toBe(false);
    }
  });

  it('the async form equals the sync twin, and bad input is a coded error', async () => {
    expect(await grep({ cwd: root, pattern: 'needle', contextLines: 2 })).toEqual(g({ pattern: 'needle', contextLines: 2 }));
    expect(() => g({} as never)).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION' }));
    expect(() => g({ pattern: '(', regex: true })).toThrow(expect.objectContaining({ code: 'EINVALIDREGEX' }));
    expect(() => g({ pattern: 'x', path: '..' })).toThrow(expect.objectContaining({ code: 'EOUTSIDEROOT' }));
    await expect(grep({ cwd: root, pattern: 'x', signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'EABORTED' });
  });
});

// ───────────────────────────── grepContent ─────────────────────────────

const APP_PY = ['import os', '', 'class DataProcessor:', '', 'def process_items(xs):', "    '''Process.'''", '    return xs', '', 'hello hello world', 'one two'];

function grepContentFiles(gitignoreNodeModules: boolean): Record<string, string> {
  return {
    '.gitignore': `secret/\n${gitignoreNodeModules ? 'node_modules\n' : ''}`,
    'app.py': 'def process_data(input):\n',
    'src/app.py': `${APP_PY.join('\n')}\n`,
    'src/util.py': 'def process_util():\n    pass\n',
    'src/deep/mod.py': 'def process_deep():\n',
    'lib/src/other.py': 'def process_other():\n',
    'src/notes.txt': 'def process_text\n',
    'unicode.txt': 'é😀xmark and xmark\n',
    'tot/a.txt': numberedLines('totmark', 10),
    'tot/b.txt': numberedLines('totmark', 15),
    'tot/c.txt': numberedLines('totmark', 5),
    'tot/d.txt': 'nothing\n',
    'venv/a.py': 'exclmark\n',
    '__pycache__/b.py': 'exclmark\n',
    'src/__pycache__/b.py': 'exclmark\n',
    'target/c.py': 'exclmark\n',
    'static/x.min.js': 'exclmark\n',
    'static/y.min.css': 'exclmark\n',
    'dist/d.py': 'exclmark\n',
    'build/e.py': 'exclmark\n',
    'out/f.py': 'exclmark\n',
    'bower_components/g.js': 'exclmark\n',
    'vendor/v.py': 'exclmark\n',
    'node_modules/other/index.js': 'exclmark\n',
    'node_modules/@company/lib/index.js': 'exclmark\n',
    'node_modules/@company/util/u.js': 'exclmark\n',
    'secret/s.py': 'exclmark\n',
    'src/keep.py': 'exclmark\n',
  };
}

describe('grepContent', () => {
  let root: string;
  let rootIgnoringNodeModules: string;
  beforeAll(() => {
    root = repo(grepContentFiles(false));
    rootIgnoringNodeModules = repo(grepContentFiles(true));
  });
  const gc = (o: Omit<GrepContentOptions, 'cwd'>, cwd = root) => grepContentSync({ cwd, ...o });
  const files = (o: Omit<GrepContentOptions, 'cwd'>, cwd = root) => [...new Set(gc({ maxResults: 10000, ...o }, cwd).matches.map((m) => m.file))];

  it('has exactly the seed fields; column is 1-based in code points; one entry per line', () => {
    const r = gc({ pattern: 'xmark' });
    expect(r.matches).toEqual([
      {
        file: 'unicode.txt',
        absolutePath: join(root, 'unicode.txt'),
        line: 1,
        column: 3,
        text: 'é😀xmark and xmark',
        match: 'xmark',
        contextBefore: [],
        contextAfter: [],
      },
    ]);
    expect(Object.keys(r.matches[0]).sort()).toEqual(
      ['absolutePath', 'column', 'contextAfter', 'contextBefore', 'file', 'line', 'match', 'text'].sort(),
    );
    expect(r.totalMatches).toBe(1);
    expect(gc({ pattern: 'and (x)mark' }).matches[0]).toMatchObject({ column: 9, match: 'and xmark' });
  });

  it('is a regex, case-sensitive by default, with 2 lines of context', () => {
    const r = gc({ pattern: 'def process_\\w+', path: 'src/app.py' });
    expect(r.matches).toEqual([
      {
        file: 'src/app.py',
        absolutePath: join(root, 'src/app.py'),
        line: 5,
        column: 1,
        text: 'def process_items(xs):',
        match: 'def process_items',
        contextBefore: ['class DataProcessor:', ''],
        contextAfter: ["    '''Process.'''", '    return xs'],
      },
    ]);
    expect(gc({ pattern: 'DEF PROCESS_\\w+' }).totalMatches).toBe(0);
    expect(gc({ pattern: 'DEF PROCESS_\\w+', caseSensitive: false }).totalMatches).toBe(6);
    expect(gc({ pattern: 'def process_\\w+', path: 'src/app.py', contextLines: 0 }).matches[0]).toMatchObject({ contextBefore: [], contextAfter: [] });
    expect(gc({ pattern: 'import os', contextLines: 3 }).matches[0]).toMatchObject({ line: 1, contextBefore: [], contextAfter: APP_PY.slice(1, 4) });
  });

  it('fileGlob without / matches names at any depth; with / it is matched from the root', () => {
    expect(files({ pattern: 'def process_\\w+' })).toEqual(['app.py', 'lib/src/other.py', 'src/app.py', 'src/deep/mod.py', 'src/notes.txt', 'src/util.py']);
    expect(files({ pattern: 'def process_\\w+', fileGlob: '*.py' })).toEqual(['app.py', 'lib/src/other.py', 'src/app.py', 'src/deep/mod.py', 'src/util.py']);
    expect(files({ pattern: 'def process_\\w+', fileGlob: 'src/*.py' })).toEqual(['src/app.py', 'src/util.py']);
    expect(files({ pattern: 'def process_\\w+', fileGlob: 'src/**/*.py' })).toEqual(['src/app.py', 'src/deep/mod.py', 'src/util.py']);
  });

  it('keeps totals exact past maxResults', () => {
    const r = gc({ pattern: 'totmark', maxResults: 5, path: 'tot' });
    expect(r.matches.map((m) => `${m.file}:${m.line}`)).toEqual(['tot/a.txt:1', 'tot/a.txt:2', 'tot/a.txt:3', 'tot/a.txt:4', 'tot/a.txt:5']);
    expect(r).toMatchObject({ totalMatches: 30, filesWithMatches: 3, filesSearched: 4, truncated: true });
    expect(gc({ pattern: 'totmark', path: 'tot' })).toMatchObject({ totalMatches: 30, filesWithMatches: 3, filesSearched: 4, truncated: false });
    expect(gc({ pattern: 'totmark', path: 'tot' }).matches).toHaveLength(30);
    expect(gc({ pattern: 'totmark', path: 'tot', maxResults: 30 }).truncated).toBe(false);
  });

  it("reads Python's (?P<name>…) and (?P=name)", () => {
    const r = gc({ pattern: '(?P<word>\\w+)\\s(?P=word)', fileGlob: '*.py' });
    expect(r.matches.map((m) => [m.file, m.line, m.column, m.match])).toEqual([['src/app.py', 9, 1, 'hello hello']]);
    expect(r.totalMatches).toBe(1);
  });

  it("excludes seed 004's default list and .gitignore", () => {
    expect(files({ pattern: 'exclmark' })).toEqual(['src/keep.py', 'vendor/v.py']);
    expect(files({ pattern: 'exclmark', excludePatterns: ['vendor'] })).toEqual(['src/keep.py']);
    expect(files({ pattern: 'exclmark', excludePatterns: ['vendor'], excludeMode: 'extend' })).toEqual(['src/keep.py']);
  });

  it("excludeMode 'replace' drops the default list but keeps .gitignore", () => {
    expect(files({ pattern: 'exclmark', excludeMode: 'replace', excludePatterns: ['vendor'] })).toEqual([
      '__pycache__/b.py',
      'bower_components/g.js',
      'build/e.py',
      'dist/d.py',
      'node_modules/@company/lib/index.js',
      'node_modules/@company/util/u.js',
      'node_modules/other/index.js',
      'out/f.py',
      'src/__pycache__/b.py',
      'src/keep.py',
      'static/x.min.js',
      'static/y.min.css',
      'target/c.py',
      'venv/a.py',
    ]);
    const ignoring = files({ pattern: 'exclmark', excludeMode: 'replace', excludePatterns: ['vendor'] }, rootIgnoringNodeModules);
    expect(ignoring).toContain('dist/d.py');
    expect(ignoring).not.toContain('vendor/v.py');
    expect(ignoring).not.toContain('secret/s.py');
    expect(ignoring.filter((f) => f.startsWith('node_modules/'))).toEqual([]);
  });

  it('includePatterns force-includes node_modules/@company and nothing else of node_modules, also when .gitignore lists node_modules', () => {
    const expected = ['node_modules/@company/lib/index.js', 'node_modules/@company/util/u.js', 'src/keep.py', 'vendor/v.py'];
    expect(files({ pattern: 'exclmark', includePatterns: ['node_modules/@company'] })).toEqual(expected);
    expect(files({ pattern: 'exclmark', includePatterns: ['node_modules/@company'] }, rootIgnoringNodeModules)).toEqual(expected);
  });

  it('echoes pattern, the absolute path and fileGlob (null when absent)', () => {
    expect(gc({ pattern: 'xmark' })).toMatchObject({ pattern: 'xmark', path: root, fileGlob: null });
    expect(gc({ pattern: 'x\\w+', path: 'src', fileGlob: '*.py' })).toMatchObject({ pattern: 'x\\w+', path: join(root, 'src'), fileGlob: '*.py' });
    expect(gc({ pattern: 'xmark', path: 'unicode.txt' })).toMatchObject({ path: join(root, 'unicode.txt'), fileGlob: null, totalMatches: 1 });
  });

  it('cuts a 2 MB minified line (maxFileSizeKB raised) to a window around the match; maxLineLength 0 gives it whole', () => {
    const head = 'var a=1;'.repeat(131_072);
    const line = `${head}minimark${'b=2;'.repeat(262_144)}`;
    const big = repo({ 'bundle.js': `first\n${line}\nlast\n`, 'bundle.min.js': `${line}\n` });
    const r = grepContentSync({ cwd: big, pattern: 'minimark', maxFileSizeKB: 4096 });
    expect(r.matches).toHaveLength(1);
    const m = r.matches[0];
    expect(m).toMatchObject({ file: 'bundle.js', line: 2, column: head.length + 1, match: 'minimark', textTruncated: true, contextBefore: ['first'], contextAfter: ['last'] });
    expect(m.text.length).toBeLessThan(520);
    expect(m.text).toContain('minimark');
    expect(m.text.startsWith('…')).toBe(true);
    expect(m.text.endsWith('…')).toBe(true);
    expect(line.includes(m.text.slice(1, -1))).toBe(true);
    const whole = grepContentSync({ cwd: big, pattern: 'minimark', maxFileSizeKB: 4096, maxLineLength: 0 }).matches[0];
    expect(whole.text).toBe(line);
    expect('textTruncated' in whole).toBe(false);
    // Over the default 1024 KB cap: skipped and counted.
    expect(grepContentSync({ cwd: big, pattern: 'minimark' })).toMatchObject({ totalMatches: 0, skipped: { tooLarge: 1 } });
    // Both files through searchCode (no default list there, so bundle.min.js too): over its 1024 KB cap.
    expect(searchCodeSync('minimark', { cwd: big })).toMatchObject({ matchCount: 0, skipped: { binary: 0, tooLarge: 2, unreadable: 0, budget: 0 } });
  });

  it('the async form equals the sync twin', async () => {
    for (const o of [
      { pattern: 'exclmark', includePatterns: ['node_modules/@company'] },
      { pattern: 'totmark', maxResults: 4, contextLines: 1 },
      { pattern: 'def process_\\w+', fileGlob: '*.py' },
    ]) {
      expect(await grepContent({ cwd: root, ...o })).toEqual(gc(o));
    }
    await expect(grepContent({ cwd: root, pattern: '(' })).rejects.toMatchObject({ code: 'EINVALIDREGEX' });
    await expect(grepContent({ cwd: root, pattern: 'x', path: '..' })).rejects.toMatchObject({ code: 'EOUTSIDEROOT' });
  });
});

describe('grepContent / globFiles project configuration', () => {
  const A_TXT = Array.from({ length: 5 }, (_, i) => `filler ${i}\ncfgmark ${i + 1}\n`).join('');

  it('applies .smart-file-query.json at cwd; call options override it', () => {
    const root = repo({
      '.smart-file-query.json': JSON.stringify({ max_results: 3, context_lines: 0, exclude_patterns: ['docs'] }),
      'a.txt': A_TXT,
      'b.txt': 'x\n',
      'c.txt': 'x\n',
      'd.txt': 'x\n',
      'e.txt': 'x\n',
      'docs/d.txt': 'cfgmark docs\n',
    });
    const r = grepContentSync({ cwd: root, pattern: 'cfgmark' });
    expect(r.matches.map((m) => [m.file, m.line, m.contextBefore, m.contextAfter])).toEqual([
      ['a.txt', 2, [], []],
      ['a.txt', 4, [], []],
      ['a.txt', 6, [], []],
    ]);
    expect(r).toMatchObject({ totalMatches: 5, truncated: true });
    const over = grepContentSync({ cwd: root, pattern: 'cfgmark', maxResults: 10, contextLines: 1 });
    expect(over.matches.map((m) => [m.file, m.line, m.contextBefore, m.contextAfter])).toEqual([
      ['a.txt', 2, ['filler 0'], ['filler 1']],
      ['a.txt', 4, ['filler 1'], ['filler 2']],
      ['a.txt', 6, ['filler 2'], ['filler 3']],
      ['a.txt', 8, ['filler 3'], ['filler 4']],
      ['a.txt', 10, ['filler 4'], []],
    ]);
    expect(over.truncated).toBe(false);
    const unexcluded = grepContentSync({ cwd: root, pattern: 'cfgmark', excludePatterns: [], maxResults: 10 });
    expect(unexcluded.matches.map((m) => m.file)).toEqual(['a.txt', 'a.txt', 'a.txt', 'a.txt', 'a.txt', 'docs/d.txt']);
    // globFiles reads max_results and exclude_patterns too.
    const g = globFilesSync({ cwd: root, pattern: '**/*.txt' });
    expect(g).toMatchObject({ total: 5, returned: 3, truncated: true });
    expect(g.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(globFilesSync({ cwd: root, pattern: '**/*.txt', maxResults: 10 }).files.map((f) => f.path)).toEqual([
      'a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt',
    ]);
  });

  it('uses .jaato/filesystem_query.json when .smart-file-query.json is absent, and only then', () => {
    const jaato = repo({ '.jaato/filesystem_query.json': JSON.stringify({ max_results: 2 }), 'a.txt': A_TXT });
    expect(grepContentSync({ cwd: jaato, pattern: 'cfgmark' }).matches.map((m) => m.line)).toEqual([2, 4]);
    const both = repo({
      '.jaato/filesystem_query.json': JSON.stringify({ max_results: 2 }),
      '.smart-file-query.json': JSON.stringify({ max_results: 4 }),
      'a.txt': A_TXT,
    });
    expect(grepContentSync({ cwd: both, pattern: 'cfgmark' }).matches.map((m) => m.line)).toEqual([2, 4, 6, 8]);
  });

  it('rejects a malformed config with EINVALIDCONFIG naming the file and the key', async () => {
    const cases: Array<[Record<string, string>, RegExp[]]> = [
      [{ '.smart-file-query.json': '{"max_results": 3,' }, [/\.smart-file-query\.json/]],
      [{ '.smart-file-query.json': '{"max_result": 3}' }, [/\.smart-file-query\.json/, /max_result/]],
      [{ '.smart-file-query.json': '{"max_results": "3"}' }, [/\.smart-file-query\.json/, /max_results/]],
      [{ '.smart-file-query.json': '{"exclude_mode": "merge"}' }, [/\.smart-file-query\.json/, /exclude_mode/]],
      [{ '.smart-file-query.json': '{"exclude_patterns": "docs"}' }, [/\.smart-file-query\.json/, /exclude_patterns/]],
      [{ '.jaato/filesystem_query.json': '{"context_lines": "two"}' }, [/filesystem_query\.json/, /context_lines/]],
    ];
    for (const [config, messages] of cases) {
      const root = repo({ ...config, 'a.txt': A_TXT });
      const label = JSON.stringify(config);
      let error: unknown;
      try {
        grepContentSync({ cwd: root, pattern: 'cfgmark' });
      } catch (e) {
        error = e;
      }
      expect(error, label).toBeInstanceOf(Error);
      expect(error, label).toMatchObject({ code: 'EINVALIDCONFIG' });
      for (const m of messages) expect((error as Error).message, label).toMatch(m);
      await expect(grepContent({ cwd: root, pattern: 'cfgmark' }), label).rejects.toMatchObject({ code: 'EINVALIDCONFIG' });
      expect(() => globFilesSync({ cwd: root, pattern: '*' }), label).toThrow(expect.objectContaining({ code: 'EINVALIDCONFIG' }));
    }
  });
});

// ────────────────────────────── globFiles ──────────────────────────────

describe('globFiles', () => {
  let root: string;
  const FIXED = new Date('2021-03-04T05:06:07.891Z');
  beforeAll(() => {
    root = repo({
      '.gitignore': '*.log\n',
      'src/main.py': 'print(1)\n',
      'src/util/helpers.py': 'def helper():\n    pass\n',
      'tests/test_main.py': '',
      'README.md': '# readme\n',
      'setup.cfg': '[x]\n',
      '.github/x.yml': 'on: push\n',
      '.env': 'A=1\n',
      'src/.secret.py': 'secret = 1\n',
      'node_modules/m/index.js': '',
      'node_modules/@company/pkg/index.js': '',
      'dist/d.js': '',
      'venv/v.py': '',
      'vendor/x.py': 'x = 1\n',
      'build/b.py': '',
      'debug.log': 'log\n',
    });
    utimesSync(join(root, 'src/main.py'), FIXED, FIXED);
    // Whole milliseconds set through fs.utimesSync: the kernel may store 05.599999000 for .600
    // (seconds travel as a double), and fs.statSync(f).mtime reads it back as .600.
    for (const [i, p] of ['src/util/helpers.py', 'tests/test_main.py', 'vendor/x.py'].entries()) {
      const t = new Date(Date.UTC(2022, 0, 2 + i, 3, 4, 5, 600 + i));
      utimesSync(join(root, p), t, t);
    }
  });
  const gf = (o: Omit<GlobFilesOptions, 'cwd'>) => globFilesSync({ cwd: root, ...o });
  const paths = (o: Omit<GlobFilesOptions, 'cwd'>) => gf({ maxResults: 10000, ...o }).files.map((f) => f.path);

  it('returns the seed fields: files with path, absolutePath, size and modified (ISO-8601, as fs.stat gives it)', () => {
    const r = gf({ pattern: '**/*.py' });
    const file = (p: string) => ({
      path: p,
      absolutePath: join(root, p),
      size: statSync(join(root, p)).size,
      modified: statSync(join(root, p)).mtime.toISOString(),
    });
    expect(r).toEqual({
      files: ['src/main.py', 'src/util/helpers.py', 'tests/test_main.py', 'vendor/x.py'].map(file),
      total: 4,
      returned: 4,
      truncated: false,
      root,
      pattern: '**/*.py',
      // Beyond the seed's fields: what was not listed, by reason.
      skipped: { binary: 0, tooLarge: 0, unreadable: 0, budget: 0 },
    });
    expect(Object.keys(r).sort()).toEqual(['files', 'pattern', 'returned', 'root', 'skipped', 'total', 'truncated']);
    expect(Object.keys(r.files[0]).sort()).toEqual(['absolutePath', 'modified', 'path', 'size']);
    expect(r.files.map((f) => f.modified)).toEqual([
      '2021-03-04T05:06:07.891Z', '2022-01-02T03:04:05.600Z', '2022-01-03T03:04:05.601Z', '2022-01-04T03:04:05.602Z',
    ]);
    expect(r.files[1].size).toBe(23);
    expect(r.files[2].size).toBe(0);
  });

  it('gives modified exactly as fs.statSync(f).mtime.toISOString(), also for a sub-millisecond mtime', () => {
    // 0.7 ms past the second: fs.Stats#mtime is new Date(Math.round(mtimeMs)), so .001Z.
    const f = join(root, 'src/sub-ms.txt');
    writeFileSync(f, 'x\n');
    try {
      utimesSync(f, 1_700_000_000.0007, 1_700_000_000.0007);
      const expected = statSync(f).mtime.toISOString();
      expect(expected).toBe('2023-11-14T22:13:20.001Z');
      expect(gf({ pattern: 'src/sub-ms.txt' }).files.map((x) => x.modified)).toEqual([expected]);
    } finally {
      rmSync(f);
    }
  });

  it('gives modified exactly as fs.statSync(f).mtime.toISOString() for every file', () => {
    for (let i = 0; i < 20; i++) writeFileSync(join(root, `src/t${i}.txt`), `${i}\n`);
    try {
      const r = gf({ pattern: '**/*', includeHidden: true, maxResults: 10000 });
      expect(r.files.length).toBeGreaterThan(20);
      for (const f of r.files) expect(f.modified, f.path).toBe(statSync(f.absolutePath).mtime.toISOString());
    } finally {
      for (let i = 0; i < 20; i++) rmSync(join(root, `src/t${i}.txt`));
    }
  });

  it('leaves hidden paths out by default and lists them with includeHidden', () => {
    expect(paths({ pattern: '**/*' })).toEqual(['README.md', 'setup.cfg', 'src/main.py', 'src/util/helpers.py', 'tests/test_main.py', 'vendor/x.py']);
    expect(paths({ pattern: '**/*', includeHidden: true })).toEqual([
      '.env', '.github/x.yml', '.gitignore', 'README.md', 'setup.cfg', 'src/.secret.py', 'src/main.py', 'src/util/helpers.py', 'tests/test_main.py', 'vendor/x.py',
    ]);
    expect(paths({ pattern: '**/*.yml' })).toEqual([]);
    expect(paths({ pattern: '**/*.yml', includeHidden: true })).toEqual(['.github/x.yml']);
    expect(paths({ pattern: '**/*.{md,cfg}' })).toEqual(['README.md', 'setup.cfg']);
    expect(paths({ pattern: '*.py' })).toEqual([]);
    expect(paths({ pattern: 'src/**/*.py' })).toEqual(['src/main.py', 'src/util/helpers.py']);
  });

  it('applies the exclusions as grepContent does', () => {
    expect(paths({ pattern: '**/*.py', excludePatterns: ['vendor'] })).toEqual(['src/main.py', 'src/util/helpers.py', 'tests/test_main.py']);
    expect(paths({ pattern: '**/*.py', excludeMode: 'replace', excludePatterns: ['vendor'] })).toEqual([
      'build/b.py', 'src/main.py', 'src/util/helpers.py', 'tests/test_main.py', 'venv/v.py',
    ]);
    expect(paths({ pattern: '**/*.js', excludeMode: 'replace', excludePatterns: [] })).toEqual([
      'dist/d.js', 'node_modules/@company/pkg/index.js', 'node_modules/m/index.js',
    ]);
    expect(paths({ pattern: '**/*.js' })).toEqual([]);
    expect(paths({ pattern: '**/*.js', includePatterns: ['node_modules/@company'] })).toEqual(['node_modules/@company/pkg/index.js']);
    expect(paths({ pattern: '**/*.py', excludePatterns: ['src/util'] })).toEqual(['src/main.py', 'tests/test_main.py', 'vendor/x.py']);
    expect(paths({ pattern: '**/*.py', excludePatterns: ['util/*.py'] })).toEqual(['src/main.py', 'src/util/helpers.py', 'tests/test_main.py', 'vendor/x.py']);
    expect(paths({ pattern: '**/*.py', excludePatterns: ['helpers.py', 'test_*'] })).toEqual(['src/main.py', 'vendor/x.py']);
    expect(paths({ pattern: '**/*.log' })).toEqual([]);
    expect(paths({ pattern: '**/*.log', excludeMode: 'replace', excludePatterns: [] })).toEqual([]);
  });

  it('pages with maxResults and offset; total is exact past the cap', () => {
    const all = paths({ pattern: '**/*', includeHidden: true });
    expect(all).toHaveLength(10);
    const seen: string[] = [];
    for (let offset = 0; offset < all.length; offset += 3) {
      const r = gf({ pattern: '**/*', includeHidden: true, maxResults: 3, offset });
      expect(r.total).toBe(10);
      expect(r.returned).toBe(Math.min(3, 10 - offset));
      expect(r.returned).toBe(r.files.length);
      expect(r.truncated).toBe(offset + 3 < 10);
      seen.push(...r.files.map((f) => f.path));
    }
    expect(seen).toEqual(all);
    expect(gf({ pattern: '**/*', includeHidden: true, maxResults: 10 }).truncated).toBe(false);
  });

  it('searches under root, with paths relative to it', () => {
    const r = gf({ pattern: '**/*.py', root: 'src' });
    expect(r.root).toBe(join(root, 'src'));
    expect(r.files.map((f) => [f.path, f.absolutePath])).toEqual([
      ['main.py', join(root, 'src/main.py')],
      ['util/helpers.py', join(root, 'src/util/helpers.py')],
    ]);
    expect(gf({ pattern: '*.py', root: 'src' }).files.map((f) => f.path)).toEqual(['main.py']);
    expect(gf({ pattern: 'util/*.py', root: 'src' }).files.map((f) => f.path)).toEqual(['util/helpers.py']);
    expect(() => gf({ pattern: '*', root: '..' })).toThrow(expect.objectContaining({ code: 'EOUTSIDEROOT' }));
  });

  it('the async form equals the sync twin; bad input is a coded error', async () => {
    expect(await globFiles({ cwd: root, pattern: '**/*', includeHidden: true })).toEqual(gf({ pattern: '**/*', includeHidden: true }));
    expect(() => gf({} as never)).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION' }));
    expect(() => gf({ pattern: '*', excludeMode: 'merge' as never })).toThrow(
      expect.objectContaining({ code: 'EINVALIDOPTION', message: expect.stringContaining('excludeMode') }),
    );
    await expect(globFiles({ cwd: root, pattern: '*', signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'EABORTED' });
  });
});

// ─────────────────────── the candidate file set vs git ───────────────────────

describe('file set: globFiles against git ls-files', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: **/* with includeHidden and no exclusions lists what git ls-files --cached --others --exclude-standard lists`, () => {
      const root = corpusRepo(seed, { files: 250, trackIgnored: true });
      made.push(root);
      // A file written after the last commit and an emptied directory.
      mkdirSync(join(root, 'later/empty'), { recursive: true });
      writeFileSync(join(root, 'later/new.ts'), 'x\n');
      const expected = gitListing(root);
      const r = globFilesSync({ cwd: root, pattern: '**/*', includeHidden: true, excludeMode: 'replace', excludePatterns: [], maxResults: 1_000_000 });
      const got = r.files.map((f) => f.path);
      expect(setDiff(got, expected)).toEqual({ onlyLeft: [], onlyRight: [] });
      expect(got).toEqual([...expected].sort());
      expect(r.total).toBe(expected.length);
      // Hidden paths off: the same set minus every path with a segment starting with a dot.
      const visible = globFilesSync({ cwd: root, pattern: '**/*', excludeMode: 'replace', excludePatterns: [], maxResults: 1_000_000 });
      expect(visible.files.map((f) => f.path)).toEqual(expected.filter((p) => !p.split('/').some((seg) => seg.startsWith('.'))));
    });
  }
});
