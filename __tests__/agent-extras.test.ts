// What no peer says: the hint when nothing matched, where each hit sits
// (withSymbols), and the explicit-file and force-include corners of the agent
// searches, through the public JS API on generated git repositories.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOutlineSync, globFiles, grepContent, type OutlineItem, searchCode, searchCodeSync, type SearchProgress } from '../index.js';
import { gitInit, makeTree } from './helpers/tree';

let dir: string;
beforeAll(() => {
  dir = makeTree({
    '.gitignore': 'logs/\n*.tmp\n',
    'src/store.ts': [
      'export class Store {',
      '  private items: string[] = [];',
      '  flush(): void {',
      '    const pending = this.items;',
      '    this.items = [];',
      '  }',
      '}',
      '',
      'export function helper(): number {',
      '  return 1; // pending',
      '}',
      '',
    ].join('\n'),
    'src/notes.txt': 'pending work\n',
    'src/app.py': 'class App:\n    def run(self):\n        return "go"\n',
    'node_modules/lib/index.js': 'const onlyHere = 1;\nconst onlyHere2 = onlyHere;\n',
    'node_modules/@company/ui/index.js': 'export const onlyHere = 3;\n',
    'logs/today.log': 'onlyHere in a log\n',
    'x.tmp': 'nothing\n',
  });
  gitInit(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hint when nothing matched', () => {
  it('says how many matching lines the excluded and ignored files hold, by what left them out', async () => {
    // hintMs: a generous look, so the counts do not depend on the machine's load.
    const r = await searchCode('onlyHere', { cwd: dir, hintMs: 5000 });
    expect(r.matchCount).toBe(0);
    expect(r.matches).toEqual([]);
    expect(r.hint).toBe('0 matches; 3 in files excluded by node_modules, 1 in files ignored by .gitignore');
    const g = await grepContent({ pattern: 'onlyHere', cwd: dir, hintMs: 5000 });
    expect(g.hint).toBe('0 matches; 3 in files excluded by node_modules, 1 in files ignored by .gitignore');
  });

  it('tells globFiles callers which files the exclusions, .gitignore or the hidden rule left out', async () => {
    // globFiles' look is bounded in time (a tenth of the call, at least 20 ms,
    // no hintMs): on a slow machine (arm64 under qemu) it may be cut short,
    // and its counts are then lower bounds ("at least").
    const hint = (text: string) => new RegExp(`^0 files; (at least )?${text.replace(/[()]/g, '\\$&')}$`);
    const js = await globFiles({ pattern: '**/*.js', cwd: dir });
    expect(js).toMatchObject({ total: 0, files: [] });
    expect(js.hint).toMatch(hint('2 excluded by node_modules'));
    expect(js.skipped).toEqual({ binary: 0, tooLarge: 0, unreadable: 0, budget: 0 });
    expect((await globFiles({ pattern: '**/*.log', cwd: dir })).hint).toMatch(hint('1 ignored by .gitignore'));
    expect((await globFiles({ pattern: '.git*', cwd: dir })).hint).toMatch(hint('1 hidden (includeHidden: true lists them)'));
    expect((await globFiles({ pattern: '**/*.ts', cwd: dir })).hint).toBeUndefined();
  });

  it('is absent when something matched, nothing anywhere would, or hintMs is 0', async () => {
    expect((await searchCode('pending', { cwd: dir })).hint).toBeUndefined();
    expect((await searchCode('absent-everywhere', { cwd: dir, hintMs: 5000 })).hint).toBeUndefined();
    expect((await searchCode('onlyHere', { cwd: dir, hintMs: 0 })).hint).toBeUndefined();
  });

  it('respects the file selection: files the extensions leave out are not counted', async () => {
    const r = await searchCode('onlyHere', { cwd: dir, includeExtensions: ['.log'], hintMs: 5000 });
    expect(r.hint).toBe('0 matches; 1 in files ignored by .gitignore');
  });
});

describe('errors name the option', () => {
  it('an empty query names the option that held it', async () => {
    await expect(searchCode('', { cwd: dir })).rejects.toMatchObject({
      code: 'EINVALIDOPTION',
      message: "searchCode: option 'query' is empty; give the text or pattern to search for",
    });
    await expect(grepContent({ pattern: '', cwd: dir })).rejects.toThrow("grepContent: option 'pattern' is empty");
  });
});

describe('withSymbols', () => {
  it('labels each match with its innermost outline item', async () => {
    const r = await searchCode('pending', { cwd: dir, withSymbols: true });
    expect(r.matches.map((m) => [m.path, m.lineNumber, m.symbol])).toEqual([
      ['src/notes.txt', 1, undefined],
      ['src/store.ts', 4, { name: 'flush', kind: 'method', range: [3, 6] }],
      ['src/store.ts', 10, { name: 'helper', kind: 'function', range: [9, 11] }],
    ]);
    const g = await grepContent({ pattern: 'return', cwd: dir, withSymbols: true, fileGlob: '*.py' });
    expect(g.matches.map((m) => m.symbol)).toEqual([{ name: 'run', kind: 'method', range: [2, 3] }]);
  });

  it('is off by default', async () => {
    const r = searchCodeSync('pending', { cwd: dir });
    expect(r.matches.every((m) => !('symbol' in m))).toBe(true);
  });
});

describe('explicit paths and force-includes', () => {
  it('searches a file named explicitly even when an exclusion covers it', async () => {
    const r = await searchCode('onlyHere', { cwd: dir, path: 'node_modules/lib/index.js' });
    expect(r.matches.map((m) => [m.path, m.lineNumber])).toEqual([
      ['node_modules/lib/index.js', 1],
      ['node_modules/lib/index.js', 2],
    ]);
  });

  it('searches a folder named explicitly even when an exclusion covers it', async () => {
    const r = await searchCode('onlyHere', { cwd: dir, path: 'node_modules/lib' });
    expect(r.matches.map((m) => [m.path, m.lineNumber])).toEqual([
      ['node_modules/lib/index.js', 1],
      ['node_modules/lib/index.js', 2],
    ]);
    const g = await grepContent({ pattern: 'onlyHere', cwd: dir, path: 'node_modules' });
    expect(g.matches.map((m) => [m.file, m.line])).toEqual([
      ['node_modules/@company/ui/index.js', 1],
      ['node_modules/lib/index.js', 1],
      ['node_modules/lib/index.js', 2],
    ]);
  });

  it('force-includes node_modules/@company and nothing else of node_modules', async () => {
    const g = await grepContent({ pattern: 'onlyHere', cwd: dir, includePatterns: ['node_modules/@company'] });
    expect(g.matches.map((m) => m.file)).toEqual(['node_modules/@company/ui/index.js']);
    const f = await globFiles({ pattern: '**/*.js', cwd: dir, includePatterns: ['node_modules/@company'] });
    expect(f.files.map((x) => x.path)).toEqual(['node_modules/@company/ui/index.js']);
  });

  it('force-includes through .gitignore', async () => {
    const g = await grepContent({ pattern: 'onlyHere', cwd: dir, includePatterns: ['logs'] });
    expect(g.matches.map((m) => m.file)).toEqual(['logs/today.log']);
  });
});

describe('onProgress', () => {
  let big: string;
  beforeAll(() => {
    const files: Record<string, string> = {};
    const line = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron';
    for (let i = 0; i < 3000; i++) files[`d${i % 30}/f${i}.txt`] = `${line}\n`.repeat(40) + (i % 7 === 0 ? 'xneedley\n' : '');
    big = makeTree(files);
    gitInit(big);
  });
  afterAll(() => rmSync(big, { recursive: true, force: true }));

  it('reports files searched, files found and matches while the search runs', async () => {
    const seen: SearchProgress[] = [];
    const r = await searchCode('(?<=x)\\w+y|(?<=q)\\w+z', {
      cwd: big,
      isRegex: true,
      threads: 1,
      onProgress: (p) => seen.push(p),
    });
    expect(r.matchCount).toBe(Math.ceil(3000 / 7));
    // Polled while it runs, and once more at the end: the final counts.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toMatchObject({ filesTotal: 3000, filesSearched: 3000, matches: r.matchCount });
    // The first matching lines, as the result lists them.
    expect(seen.at(-1)!.firstHits).toEqual(r.matches.slice(0, 10).map((m) => ({ path: m.path, line: m.lineNumber, text: m.content })));
    for (const p of seen) expect(p.firstHits.length).toBeLessThanOrEqual(Math.min(10, p.matches));
    for (const [i, p] of seen.entries()) {
      expect(p.filesSearched).toBeLessThanOrEqual(p.filesTotal);
      expect(p.filesTotal).toBeLessThanOrEqual(3000);
      expect(p.matches).toBeLessThanOrEqual(r.matchCount);
      if (i > 0) expect(p.filesSearched).toBeGreaterThanOrEqual(seen[i - 1].filesSearched);
    }
  });

  it('must be a function, and only the async form takes it', async () => {
    await expect(searchCode('x', { cwd: big, onProgress: 3 as never })).rejects.toMatchObject({ code: 'EINVALIDOPTION' });
    expect(() => searchCodeSync('x', { cwd: big, onProgress: () => {} } as never)).toThrow(/onProgress/);
  });
});

describe('withSymbols on each language fixture', () => {
  const SAMPLES = join(__dirname, '..', 'crates', 'sfq-outline', 'tests', 'fixtures', 'samples');
  const CORE = ['sample.ts', 'sample.tsx', 'sample.js', 'sample.py', 'sample.rs', 'sample.go', 'Sample.java', 'sample.c', 'sample.cpp', 'sample.md', 'sample.toml', 'sample.yaml', 'sample.json'];

  /** The innermost non-import item holding `line`, as getOutline gives it. */
  function innermost(items: OutlineItem[], line: number): OutlineItem | undefined {
    const item = items.find((i) => i.kind !== 'import' && i.range[0] <= line && line <= i.range[1]);
    if (item === undefined) return undefined;
    return innermost(item.children ?? [], line) ?? item;
  }

  for (const name of CORE) {
    it(`labels every line of ${name} with the outline item getOutline gives`, async () => {
      const outline = getOutlineSync(name, { cwd: SAMPLES });
      expect(outline.approximate).toBe(false);
      // Every line with a non-space character: one entry per line.
      const r = await searchCode('\\S', { cwd: SAMPLES, path: name, isRegex: true, withSymbols: true, maxResults: 100000 });
      expect(r.matches.length).toBeGreaterThan(5);
      let labelled = 0;
      for (const m of r.matches) {
        const item = innermost(outline.items, m.lineNumber);
        const want = item && { name: item.name, kind: item.kind, range: item.range };
        expect(m.symbol, `${name}:${m.lineNumber}`).toEqual(want);
        if (want) labelled++;
      }
      expect(labelled).toBeGreaterThan(0);
    });
  }
});

describe('a full page and the files still searched', () => {
  // Once the page is full, files merged later are only counted (their lines
  // not built): whatever the threads, the answer is the one of a single
  // thread, and its counts are every matching line's.
  let many: string;
  const lines = (i: number) =>
    Array.from({ length: 30 }, (_, k) => (k % (2 + (i % 3)) === 0 ? `  RETURN x${k}; return y` : `  value ${k}`)).join('\n');
  beforeAll(() => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`p${i % 12}/m${i}.c`] = lines(i);
    many = makeTree(files);
    gitInit(many);
  });
  afterAll(() => rmSync(many, { recursive: true, force: true }));

  it('gives every thread count the same answer, with every matching line counted', async () => {
    let expected = 0;
    for (let i = 0; i < 600; i++) expected += lines(i).split('\n').filter((l) => /return/i.test(l)).length;
    for (const options of [{}, { maxResults: 7, offset: 3 }, { maxResults: 40, maxResultBytes: 2000 }]) {
      const one = await searchCode('return', { cwd: many, threads: 1, ...options });
      expect(one.matchCount).toBe(expected);
      expect(one.filesWithMatches).toBe(600);
      for (const threads of [2, 4]) {
        expect(JSON.stringify(await searchCode('return', { cwd: many, threads, ...options }))).toBe(JSON.stringify(one));
      }
      const grep = { pattern: 'return', caseSensitive: false, cwd: many, contextLines: 1, ...options };
      const single = await grepContent({ ...grep, threads: 1 });
      expect(JSON.stringify(await grepContent({ ...grep, threads: 4 }))).toBe(JSON.stringify(single));
    }
  });
});
