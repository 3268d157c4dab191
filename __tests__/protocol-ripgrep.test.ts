// survey, scout, sample and show count what ripgrep counts: on seeded random
// repositories (nested .gitignore rules, dot-directories, node_modules, tmp/,
// *.log, CRLF), every count equals the one derived from `rg -c` with seed
// 001's exclusions, in each mode (fixed: rg -F; identifier: rg -F -w
// --no-unicode; word: rg -F -w; regex: rg). rg is required (CI installs it).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSync, scoutSync, showSync, surveySync, type ExploreMode } from '../index.js';
import { corpusRepo, requireRipgrep, rg } from './helpers/agent-repos';

const SEEDS = [21, 22];
const repos = new Map<number, string>();

beforeAll(() => {
  requireRipgrep();
  for (const seed of SEEDS) repos.set(seed, corpusRepo(seed, { files: 400 }));
});
afterAll(() => {
  for (const root of repos.values()) rmSync(root, { recursive: true, force: true });
});

const EXCLUDES = ['.git', 'target', 'node_modules', 'vendor', 'dist', 'build', 'coverage', 'generated', 'scratch', 'tmp', '*.log', '*.jsonl', '*.xml', '*.min.js', '*.map'];
const RG_EXCLUDES = ['--no-messages', '-s', ...EXCLUDES.flatMap((g) => ['-g', `!${g}`])];
const MODE_FLAGS: Record<ExploreMode, string[]> = {
  fixed: ['-F'],
  identifier: ['-F', '-w', '--no-unicode'],
  word: ['-F', '-w'],
  regex: [],
};

/** Matching lines per file, as `rg -c` counts them. */
function rgCounts(root: string, mode: ExploreMode, query: string, paths: string[] = []): Map<string, number> {
  const out = rg(root, ['-c', ...RG_EXCLUDES, ...MODE_FLAGS[mode], '-e', query, ...paths]);
  const counts = new Map<string, number>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const i = line.lastIndexOf(':');
    counts.set(line.slice(0, i).replace(/^\.\//, ''), Number(line.slice(i + 1)));
  }
  return counts;
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const parent = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '.');
const top = (p: string) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '.');
/** Most matches first, then path order (UTF-16), as the reports rank. */
const ranked = (m: Map<string, number>) =>
  [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([path, matches]) => ({ path, matches }));

function byParent(counts: Map<string, number>, key: (p: string) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const [p, n] of counts) out.set(key(p), (out.get(key(p)) ?? 0) + n);
  return out;
}

const CASES: [ExploreMode, string][] = [
  ['fixed', 'needle'],
  ['fixed', 'foo'],
  ['fixed', 'x.y('],
  ['fixed', 'pipe|pipe'],
  ['fixed', 'café'],
  ['identifier', 'needle'],
  ['identifier', 'foo1bar'],
  ['identifier', 'bar'],
  ['word', 'café'],
  ['word', 'needle'],
  ['word', 'foo-bar'],
  ['regex', 'foo\\d+bar'],
  ['regex', '[A-Z]{4,}'],
  ['regex', 'x\\.y\\(z?'],
];

describe('the protocol against ripgrep', () => {
  for (const seed of SEEDS) {
    describe(`seed ${seed}`, () => {
      it('scout: matching lines, files, folders and the busiest of each equal rg -c in every mode', () => {
        const root = repos.get(seed)!;
        let compared = 0;
        for (const [mode, query] of CASES) {
          const counts = rgCounts(root, mode, query);
          const r = scoutSync({ query, mode, cwd: root, maxLines: 15 });
          const label = `${mode} ${query}`;
          expect(r.matches, label).toBe(sum(counts));
          expect(r.files, label).toBe(counts.size);
          expect(r.directories, label).toBe(new Set([...counts.keys()].map(parent)).size);
          expect(r.atLeast).toBe(false);
          expect(r.topFiles, label).toEqual(ranked(counts).slice(0, r.topFiles.length));
          expect(r.topDirectories, label).toEqual(ranked(byParent(counts, parent)).slice(0, r.topDirectories.length));
          if (counts.size > 0) expect(r.topFiles.length + r.topDirectories.length, label).toBeGreaterThan(1);
          compared += counts.size;
        }
        expect(compared).toBeGreaterThan(200);
      });

      it('scout and sample over given paths (a folder, a file, an excluded folder named explicitly)', () => {
        const root = repos.get(seed)!;
        const paths = ['src', 'node_modules', '.env'];
        const counts = rgCounts(root, 'fixed', 'NEEDLE', paths);
        expect(counts.size).toBeGreaterThan(1);
        const r = scoutSync({ query: 'NEEDLE', paths, cwd: root });
        expect([r.matches, r.files]).toEqual([sum(counts), counts.size]);
        const s = sampleSync({ query: 'NEEDLE', paths, cwd: root });
        expect([s.matches, s.files]).toEqual([sum(counts), counts.size]);
      });

      it('survey: per term and per top-level entry, the counts of rg -c for each term', () => {
        const root = repos.get(seed)!;
        for (const mode of ['fixed', 'identifier', 'word'] as const) {
          // rg --no-unicode refuses non-ASCII patterns: café only in the other modes.
          // Terms that hold or overlap each other (needle/needles/le/eed, foo/foo1bar/bar): one
          // multi-term pass must not hide any of them.
          const terms = ['needle', 'foo1bar', ...(mode === 'identifier' ? [] : ['café']), 'x.y(', 'TODO', 'absent-term', 'needles', 'le', 'eed', 'foo', 'bar', 'y('];
          const r = surveySync({ terms, mode, cwd: root });
          const expectedRows: { path: string; term: string; matches: number; files: number }[] = [];
          for (const [i, term] of terms.entries()) {
            const counts = rgCounts(root, mode, term);
            expect(r.overall[i].term).toBe(term);
            expect([r.overall[i].matches, r.overall[i].files], `${mode} ${term}`).toEqual([sum(counts), counts.size]);
            const perTop = byParent(counts, top);
            const files = new Map<string, number>();
            for (const p of counts.keys()) files.set(top(p), (files.get(top(p)) ?? 0) + 1);
            for (const [path, matches] of perTop) expectedRows.push({ path, term, matches, files: files.get(path)! });
            if (counts.size === 0) expect(r.overall[i].dominantPath).toBeNull();
            else expect(perTop.get(r.overall[i].dominantPath!)).toBe(Math.max(...perTop.values()));
          }
          const key = (x: { path: string; term: string }) => `${x.path}\0${x.term}`;
          expect(r.byPath.map(key).sort()).toEqual(expectedRows.map(key).sort());
          const got = new Map(r.byPath.map((x) => [key(x), [x.matches, x.files]]));
          for (const e of expectedRows) expect(got.get(key(e)), key(e)).toEqual([e.matches, e.files]);
        }
      });

      it('survey over given paths: each term/path pair counted on its own (overlapping paths too)', () => {
        const root = repos.get(seed)!;
        const paths = ['src', 'src/sub', 'a', '.env'];
        const terms = ['needle', 'alpha', 'NEEDLE'];
        const r = surveySync({ terms, paths, cwd: root });
        for (const term of terms) {
          const all = rgCounts(root, 'fixed', term, paths);
          const overall = r.overall.find((o) => o.term === term)!;
          expect([overall.matches, overall.files]).toEqual([sum(all), all.size]);
          for (const path of paths) {
            const counts = rgCounts(root, 'fixed', term, [path]);
            const row = r.byPath.find((x) => x.path === path && x.term === term);
            if (counts.size === 0) expect(row, `${path} ${term}`).toBeUndefined();
            else expect([row?.matches, row?.files], `${path} ${term}`).toEqual([sum(counts), counts.size]);
          }
        }
      });

      it('sample and show agree with rg on the matching lines they report', () => {
        const root = repos.get(seed)!;
        const counts = rgCounts(root, 'identifier', 'needle');
        const s = sampleSync({ query: 'needle', mode: 'identifier', cwd: root });
        expect([s.matches, s.files]).toEqual([sum(counts), counts.size]);
        expect(s.clusters.length).toBeGreaterThan(0);
        // Every file with at most 20 matching lines: show prints exactly rg's lines.
        const files = [...counts.entries()].filter(([, n]) => n <= 20).slice(0, 25);
        expect(files.length).toBeGreaterThan(5);
        for (const [file, n] of files) {
          const r = showSync({ query: 'needle', mode: 'identifier', file, cwd: root, context: 0 });
          expect(r.exitCode).toBe(0);
          expect(r.matches, file).toBe(n);
          const lines = rg(root, ['-n', '--no-filename', '-s', ...MODE_FLAGS.identifier, '-e', 'needle', file])
            .split('\n')
            .filter(Boolean)
            .map((l) => Number(l.slice(0, l.indexOf(':'))));
          const shown = r.snippets.flatMap((x) => x.lines.filter((l) => l.match).map((l) => l.line));
          if (r.omitted === 0) expect(shown, file).toEqual(lines);
          else expect(lines.slice(0, shown.length)).toEqual(shown);
        }
      });
    });
  }
});
