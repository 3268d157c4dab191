// The bounded exploration protocol (seed 001): survey, scout, sample, show,
// through the JS API and the CLI, on generated repositories far larger than
// the output budgets: every budget and hard cap, the clustering and its
// determinism, each warning, refusal and exit code, the fixed exclusions.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sample, sampleSync, scout, scoutSync, showSync, surveySync } from '../index.js';
import { gitRepo } from './helpers/agent-repos';

const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');
const HARD = { lines: 40, bytes: 8000 };

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';
const lineCount = (s: string) => s.split('\n').length - 1;
const bytes = (s: string) => Buffer.byteLength(s);

let big: string; // far larger than any budget
let small: string; // hand-made cases

beforeAll(() => {
  const files: Record<string, string> = {};
  // 160 top-level folders, 3 files each: survey's by_path and scout's tables overflow.
  for (let d = 0; d < 160; d++) {
    for (let f = 0; f < 3; f++) {
      files[`pkg${String(d).padStart(3, '0')}/src/m${f}.ts`] = lines(30, (i) =>
        i % 3 === 0 ? `export const alpha_${d}_${f}_${i} = beta(${i}); // gamma` : `const filler_${i} = delta;`,
      );
    }
  }
  // Long lines: windows around the match, never whole.
  files['wide/long.txt'] = lines(50, (i) => `${'x'.repeat(5000)} alpha ${i} ${'y'.repeat(5000)}`);
  // 20 well-separated matches: show with --context 5 needs 220 lines.
  files['one/spread.ts'] = lines(400, (i) => (i % 20 === 10 ? `call target(${i}) ${'z'.repeat(300)}` : `// line ${i}`));
  // A scan-limit file: more than 100,000 matching lines.
  files['huge/many.txt'] = 'hit\n'.repeat(100_050);
  big = gitRepo(files, 'sfq-protocol-big-');

  small = gitRepo(
    {
      '.gitignore': 'ignored/\n',
      // Clusters: 10,11,13 | 20 | 40,42 | 60 | 80 | 100 | 120 (7 clusters) in busy.ts.
      'src/busy.ts': lines(130, (i) => ([10, 11, 13, 20, 40, 42, 60, 80, 100, 120].includes(i) ? `use probe here ${i}` : `other ${i}`)),
      'src/calm.ts': lines(30, (i) => (i === 5 || i === 25 ? `probe ${i}` : `quiet ${i}`)),
      'src/id.ts': 'const id = 1;\nconst idea = 2;\nconst valid = 3;\nconst my_id = 4;\n',
      'src/pipes.ts': 'a|b\nab\n',
      'README.md': 'probe in the readme\n',
      // The fixed exclusions, each holding the term.
      ...Object.fromEntries(
        ['target', 'node_modules', 'vendor', 'dist', 'build', 'coverage', 'generated', 'scratch', 'tmp', 'src/deep/target'].map((d) => [`${d}/x.ts`, 'probe excluded\n']),
      ),
      'logs/a.log': 'probe excluded\n',
      'data/a.jsonl': 'probe excluded\n',
      'data/a.xml': 'probe excluded\n',
      'web/app.min.js': 'probe excluded\n',
      'web/app.js.map': 'probe excluded\n',
      'ignored/x.ts': 'probe ignored\n',
      '.hidden/x.ts': 'probe hidden\n',
      // dominance: "common" 60 lines, "rare" 2.
      'dom/a.txt': lines(60, () => 'common') + 'rare\nrare\n',
    },
    'sfq-protocol-small-',
  );
});

afterAll(() => {
  for (const dir of [big, small]) rmSync(dir, { recursive: true, force: true });
});

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function withinBudget(text: string, budget: { lines: number; bytes: number }, label: string) {
  expect(lineCount(text), `${label} lines:\n${text}`).toBeLessThanOrEqual(budget.lines);
  expect(bytes(text), `${label} bytes`).toBeLessThanOrEqual(budget.bytes);
  expect(text.endsWith('\n'), label).toBe(true);
}

describe('output budgets', () => {
  it("each command's default budget holds on inputs far larger than it", () => {
    const terms = ['alpha', 'beta', 'gamma', 'delta', 'filler', 'const', 'export', 'src', 'm0', 'm1', 'm2', 'pkg'];
    const s = surveySync({ terms, cwd: big });
    withinBudget(s.text, { lines: 20, bytes: 4000 }, 'survey');
    expect(s.truncated).toBe(true);
    expect(s.byPath.length).toBeGreaterThan(1000);
    expect(s.text).toMatch(/^ {2}… \d+ more rows; compare fewer terms or paths$/m);
    const sc = scoutSync({ query: 'alpha', cwd: big });
    withinBudget(sc.text, { lines: 15, bytes: 4000 }, 'scout');
    expect(sc.directories).toBe(161);
    expect(sc.topDirectories.length + sc.topFiles.length).toBeGreaterThan(2);
    const sa = sampleSync({ query: 'alpha', cwd: big });
    withinBudget(sa.text, { lines: 20, bytes: 6000 }, 'sample');
    expect(sa.text).toMatch(/^… \d+ more clusters; narrow the path, or read one file with show QUERY FILE$/m);
    const sh = showSync({ query: 'target(', file: 'one/spread.ts', cwd: big });
    withinBudget(sh.text, { lines: 30 + 5, bytes: 8000 }, 'show');
    expect(sh.omitted).toBeGreaterThan(0);
  });

  it('--max-lines and --max-bytes lower them, and are checked', () => {
    const s = surveySync({ terms: ['alpha', 'beta', 'gamma'], cwd: big, maxLines: 6, maxBytes: 300 });
    withinBudget(s.text, { lines: 6, bytes: 300 }, 'survey lowered');
    const sa = sampleSync({ query: 'alpha', cwd: big, maxLines: 9, maxBytes: 700 });
    withinBudget(sa.text, { lines: 9, bytes: 700 }, 'sample lowered');
    expect(sa.clusters.length).toBeGreaterThan(0);
    expect(() => scoutSync({ query: 'alpha', cwd: big, maxLines: 16 })).toThrow(/maxLines' must be from 3 to 15/);
    expect(() => sampleSync({ query: 'alpha', cwd: big, maxBytes: 7000 })).toThrow(/maxBytes' must be from 200 to 6000/);
    const r = cli(big, 'scout', 'alpha', '--max-lines', '99');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("smart-file-query scout: --max-lines must be from 3 to 15 (it can only lower scout's budget), got 99 (EINVALIDOPTION)\n");
  });

  it('long lines are shown as windows around the match', () => {
    const sa = sampleSync({ query: 'alpha', paths: ['wide'], cwd: big });
    const shown = sa.clusters[0].lines.find((l) => l.match)!;
    expect(shown.text).toMatch(/^…x+ alpha \d+ y+…$/);
    expect(shown.text.length).toBeLessThanOrEqual(162);
    withinBudget(sa.text, { lines: 20, bytes: 6000 }, 'wide sample');
  });

  it('show starts a snippet only within its budget, finishes it, and never passes the hard caps', () => {
    // --max-lines 5: the header, then one whole snippet of 11 lines (its context passes the line budget).
    const one = showSync({ query: 'target(', file: 'one/spread.ts', cwd: big, context: 5, maxLines: 5 });
    expect(one.snippets).toHaveLength(1);
    expect(one.snippets[0].lines).toHaveLength(11);
    expect(one.text.split('\n')[1]).toBe('lines 5-15:');
    expect(one.text).toMatch(/^… 19 more snippets \(lines 25-35, 45-55, 65-75, 85-95, 105-115, …\); narrow the query or lower --context$/m);
    // Default budget, context 5: 220 lines wanted; the hard caps hold.
    const all = showSync({ query: 'target(', file: 'one/spread.ts', cwd: big, context: 5 });
    withinBudget(all.text, HARD, 'show context 5');
    expect(all.snippets.length).toBeGreaterThan(1);
    for (const snippet of all.snippets.slice(0, -1)) expect(snippet.lines).toHaveLength(11);
  });

  it('no command ever passes 40 lines or 8,000 bytes, stdout and stderr together', () => {
    const runs = [
      ['survey', '--term', 'alpha', '--term', 'beta', '--term', 'gamma', '--term', 'filler'],
      ['scout', 'alpha'],
      ['scout', 'hit'],
      ['sample', 'alpha'],
      ['sample', 'x', 'wide'],
      ['show', 'target(', 'one/spread.ts', '--context', '5'],
      ['show', 'hit', 'huge/many.txt'],
      ['scout', 'a'.repeat(20_000)],
      ['survey', '--term', 'x', ...Array.from({ length: 9 }, (_, i) => `p${i}`)],
    ];
    for (const args of runs) {
      const r = cli(big, ...args);
      withinBudget(r.stdout + r.stderr || '\n', HARD, args.join(' ').slice(0, 60));
    }
  });
});

describe('sample', () => {
  it("clusters matches within 2 lines, offers a busy file's first, middle and last clusters, and takes files in turns", () => {
    const r = sampleSync({ query: 'probe', paths: ['src'], cwd: small });
    expect(r.matches).toBe(12);
    expect(r.files).toBe(2);
    expect(r.totalClusters).toBe(9);
    const order = r.clusters.map((c) => `${c.path}:${c.line}#${c.cluster}/${c.of}x${c.matches}`);
    expect(order.slice(0, 4)).toEqual(['src/busy.ts:10#1/7x3', 'src/calm.ts:5#1/2x1', 'src/busy.ts:60#4/7x1', 'src/calm.ts:25#2/2x1']);
    expect(r.clusters[0].lines).toEqual([
      { line: 9, text: 'other 9', match: false },
      { line: 10, text: 'use probe here 10', match: true },
      { line: 11, text: 'use probe here 11', match: true },
    ]);
    expect(r.text.split('\n').slice(0, 5)).toEqual([
      'sample: "probe" (fixed) in src: 12 matching lines in 2 files, 9 clusters; showing 4',
      'src/busy.ts:10 (cluster 1 of 7; 3 matching lines)',
      '  9- other 9',
      '  10: use probe here 10',
      '  11: use probe here 11',
    ]);
    // The busy file's last cluster comes next, then the rest in line order.
    const more = sampleSync({ query: 'probe', paths: ['src/busy.ts'], cwd: small, maxLines: 20 });
    expect(more.clusters.map((c) => c.cluster)).toEqual([1, 4, 7, 2]);
  });

  it('is deterministic across runs and thread counts', async () => {
    const texts = new Set<string>();
    for (const threads of [1, 2, 3, 8]) {
      for (let i = 0; i < 2; i++) texts.add((await sample({ query: 'alpha', cwd: big, threads })).text);
    }
    expect(texts.size).toBe(1);
    const narrowed = new Set<string>();
    for (const threads of [1, 2, 8]) narrowed.add(sampleSync({ query: 'beta', paths: ['pkg001', 'pkg100', 'wide'], cwd: big, threads }).text);
    expect(narrowed.size).toBe(1);
    const scouts = new Set<string>();
    for (const threads of [1, 2, 5]) scouts.add((await scout({ query: 'gamma', cwd: big, threads })).text);
    expect(scouts.size).toBe(1);
    const surveys = new Set<string>();
    for (const threads of [1, 4]) surveys.add(surveySync({ terms: ['alpha', 'delta'], cwd: big, threads }).text);
    expect(surveys.size).toBe(1);
  });

  it('does not take --context', () => {
    const r = cli(small, 'sample', 'probe', '--context', '3');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^smart-file-query sample: --context is not accepted by sample; narrow to one file and use show QUERY FILE --context N/);
  });
});

describe('warnings', () => {
  it('dominance: one term with 80% of the matching lines', () => {
    const r = surveySync({ terms: ['common', 'rare'], paths: ['dom'], cwd: small });
    expect(r.overall.map((o) => [o.term, o.matches, o.files, o.dominantPath])).toEqual([
      ['common', 60, 1, 'dom'],
      ['rare', 2, 1, 'dom'],
    ]);
    expect(r.warnings).toEqual(['"common" has 96% of all matching lines and dominates the comparison; survey the other terms without it, or narrow it with --identifier or --word']);
    expect(r.text).toContain(`warning: ${r.warnings[0]}\n`);
    expect(surveySync({ terms: ['common'], paths: ['dom'], cwd: small }).warnings).toEqual([]);
  });

  it('dominance in identifier or word mode suggests what narrows there, not the mode already in use (CLI)', () => {
    const head = '"common" has 96% of all matching lines and dominates the comparison; survey the other terms without it, ';
    const fixed = cli(small, 'survey', '--term', 'common', '--term', 'rare', 'dom');
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain(`\nwarning: ${head}or narrow it with --identifier or --word\n`);
    for (const [mode, unit] of [['identifier', 'identifiers'], ['word', 'words']]) {
      const r = cli(small, 'survey', '--term', 'common', '--term', 'rare', 'dom', `--${mode}`);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`  mode: ${mode}\n`);
      const warning = r.stdout.split('\n').find((l) => l.startsWith('warning: "common"'));
      expect(warning).toBe(
        `warning: ${head}narrow it to a longer, more specific term (it already matches whole ${unit}), or give a path to compare within one folder`,
      );
      expect(warning).not.toMatch(/--identifier|--word/);
    }
  });

  it('short fixed-string terms (3 characters or fewer), not in identifier or word mode', () => {
    const r = scoutSync({ query: 'id', paths: ['src/id.ts'], cwd: small });
    expect(r.matches).toBe(4);
    expect(r.warnings).toEqual(['short term "id" matches inside longer words; use --identifier or --word']);
    const id = scoutSync({ query: 'id', mode: 'identifier', paths: ['src/id.ts'], cwd: small });
    expect([id.matches, id.warnings]).toEqual([1, []]);
    expect(scoutSync({ query: 'my_id', mode: 'word', paths: ['src/id.ts'], cwd: small }).matches).toBe(1);
    expect(surveySync({ terms: ['id', 'idea', 'val'], paths: ['src'], cwd: small }).warnings).toContain(
      'short terms "id", "val" match inside longer words; use --identifier or --word',
    );
  });

  it('broad queries (more than 1,000 matching lines or 100 files), and the scan limit reported as at least', () => {
    const r = scoutSync({ query: 'alpha', cwd: big });
    expect(r.files).toBeGreaterThan(100);
    expect(r.broad).toBe(true);
    expect(r.warnings[0]).toMatch(/^broad query: \d+ matching lines in \d+ files \(more than 1000 lines or 100 files\)/);
    const narrow = scoutSync({ query: 'alpha', paths: ['pkg000'], cwd: big });
    expect([narrow.broad, narrow.warnings]).toEqual([false, []]);
    const limit = scoutSync({ query: 'hit', cwd: big });
    expect(limit.atLeast).toBe(true);
    expect(limit.matches).toBeGreaterThanOrEqual(100_000);
    expect(limit.text).toContain(`  matches: at least ${limit.matches}\n`);
    expect(limit.warnings).toContain('scan stopped at 100000 matching lines: counts are lower bounds');
    const s = surveySync({ terms: ['hit', 'alpha'], cwd: big });
    expect(s.overall[0].atLeast).toBe(true);
    expect(s.overall[1].atLeast).toBe(false);
    expect(s.overall[1].matches).toBe(scoutSync({ query: 'alpha', cwd: big }).matches);
    expect(s.text).toMatch(/^ {2}hit,at least \d+,at least 1,huge$/m);
  });
});

describe('show', () => {
  it('prints snippets with context, merging matches whose context touches', () => {
    const r = showSync({ query: 'probe', file: 'src/busy.ts', cwd: small, context: 1 });
    expect(r.exitCode).toBe(0);
    expect(r.refused).toBeNull();
    // 30 lines: the header and six snippets fill it; the seventh is left out, with a note.
    expect(r.snippets.map((s) => [s.start, s.end])).toEqual([[9, 14], [19, 21], [39, 43], [59, 61], [79, 81], [99, 101]]);
    expect(r.omitted).toBe(1);
    expect(r.text).toMatch(/\n {2}101- other 101\n… 1 more snippets \(lines 119-121\); narrow the query or lower --context\n$/);
    expect(r.text.split('\n').slice(0, 9)).toEqual([
      'show: "probe" (fixed) in src/busy.ts: 10 matching lines, 7 snippets, context 1',
      'lines 9-14:',
      '  9- other 9',
      '  10: use probe here 10',
      '  11: use probe here 11',
      '  12- other 12',
      '  13: use probe here 13',
      '  14- other 14',
      'lines 19-21:',
    ]);
  });

  it('refuses more than 20 matching lines and the scan limit (exit 1), a folder and bad context (exit 2)', () => {
    const r = showSync({ query: 'alpha', file: 'wide/long.txt', cwd: big });
    expect(r.exitCode).toBe(1);
    expect(r.refused?.reason).toBe('tooManyMatches');
    expect(r.text).toBe('show: "alpha" (fixed) in wide/long.txt: 50 matching lines, more than 20; refusing to print snippets: narrow the query (a longer term, --identifier or --word), or use sample\n');
    const c = cli(big, 'show', 'alpha', 'wide/long.txt');
    expect([c.code, c.stdout, c.stderr]).toEqual([1, r.text, '']);
    // In a boundary mode the advice is what narrows there, not the mode already in use.
    const word = showSync({ query: 'alpha', file: 'wide/long.txt', mode: 'word', cwd: big });
    expect(word.text).toBe('show: "alpha" (word) in wide/long.txt: 50 matching lines, more than 20; refusing to print snippets: narrow the query (a longer, more specific term), or use sample\n');
    const limit = showSync({ query: 'hit', file: 'huge/many.txt', cwd: big });
    expect([limit.exitCode, limit.refused?.reason, limit.atLeast]).toEqual([1, 'scanLimit', true]);
    const dir = cli(small, 'show', 'probe', 'src');
    expect([dir.code, dir.stdout]).toEqual([2, '']);
    expect(dir.stderr).toBe('smart-file-query show: "src" is a directory; show reads one file (use sample or scout for a folder) (EISDIR)\n');
    expect(cli(small, 'show', 'probe', 'src/busy.ts', '--context', '6').code).toBe(2);
    expect(cli(small, 'show', 'probe').code).toBe(2);
  });
});

describe('input', () => {
  it('exit codes: 0 for an answer (warnings too), 2 for invalid input with one line on stderr', () => {
    const ok = cli(small, 'scout', 'id', 'src');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(scoutSync({ query: 'id', paths: ['src'], cwd: small }).text);
    expect(ok.stderr).toBe('');
    const bad: [string[], RegExp][] = [
      [['scout', ''], /QUERY is empty/],
      [['scout', 'a|b', '--regex'], /unescaped '\|'/],
      [['sample', '(x|y)', '--regex'], /unescaped '\|'/],
      [['show', 'a|b', 'src/pipes.ts', '--regex'], /unescaped '\|'/],
      [['survey', '--term', 'x', '--regex'], /--regex is not accepted: survey compares fixed terms/],
      [['survey'], /give at least one --term/],
      [['survey', ...Array.from({ length: 13 }, (_, i) => ['--term', `t${i}`]).flat()], /give at most 12/],
      [['survey', '--term', 'x', '--term', 'x'], /names "x" twice/],
      [['scout', 'x', '--word', '--identifier'], /choose one mode/],
      [['scout', 'x', '../'], /resolves outside the root/],
      [['scout', 'x', 'nope'], /ENOENT/],
      [['scout', 'x', '--bogus'], /Unknown option '--bogus'/],
      [['scout', '(', '--regex'], /EINVALIDREGEX/],
    ];
    for (const [args, message] of bad) {
      const r = cli(small, ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(lineCount(r.stderr), args.join(' ')).toBe(1);
    }
    // Escaped, or in a class, a | is not an alternation.
    expect(scoutSync({ query: 'a\\|b', mode: 'regex', cwd: small }).matches).toBe(1);
    expect(scoutSync({ query: 'a[|]b', mode: 'regex', cwd: small }).matches).toBe(1);
    expect(scoutSync({ query: 'a|b', cwd: small }).matches).toBe(1);
  });

  it('the API rejects invalid input with coded errors', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { code: string }).code;
      }
      return 'no error';
    };
    expect(code(() => surveySync({ terms: [], cwd: small }))).toBe('EINVALIDOPTION');
    expect(code(() => surveySync({ terms: ['x'], mode: 'regex' as 'fixed', cwd: small }))).toBe('EINVALIDOPTION');
    expect(code(() => scoutSync({ query: 'x', paths: ['../..'], cwd: small }))).toBe('EOUTSIDEROOT');
    expect(code(() => showSync({ query: 'x', file: 'src', cwd: small }))).toBe('EISDIR');
    expect(code(() => showSync({ query: 'x', file: 'nope.ts', cwd: small }))).toBe('ENOENT');
    expect(code(() => scoutSync({ query: '[', mode: 'regex', cwd: small }))).toBe('EINVALIDREGEX');
    expect(code(() => scoutSync({ query: 'x', bogus: 1, cwd: small } as never))).toBe('EINVALIDOPTION');
  });

  it('the fixed exclusions, .gitignore and hidden files are left out; a folder named explicitly is searched', () => {
    const r = scoutSync({ query: 'probe', cwd: small });
    expect(r.topFiles.map((f) => f.path).sort()).toEqual(['README.md', 'src/busy.ts', 'src/calm.ts']);
    expect(r.files).toBe(3);
    const named = scoutSync({ query: 'probe', paths: ['node_modules', 'vendor/x.ts', 'web/app.min.js', '.hidden'], cwd: small });
    expect(named.files).toBe(4);
    expect(surveySync({ terms: ['probe'], paths: ['src', 'target'], cwd: small }).byPath).toEqual([
      { path: 'src', term: 'probe', matches: 12, files: 2 },
      { path: 'target', term: 'probe', matches: 1, files: 1 },
    ]);
  });

  it('the four-step protocol through the CLI: each step prints what the API returns', () => {
    const steps: [string[], string][] = [
      [['survey', '--term', 'probe', '--term', 'quiet', '--term', 'other', 'src', 'README.md'], surveySync({ terms: ['probe', 'quiet', 'other'], paths: ['src', 'README.md'], cwd: small }).text],
      [['scout', 'probe', '--word'], scoutSync({ query: 'probe', mode: 'word', cwd: small }).text],
      [['sample', 'probe', 'src'], sampleSync({ query: 'probe', paths: ['src'], cwd: small }).text],
      [['show', 'probe', 'src/calm.ts', '--context', '0'], showSync({ query: 'probe', file: 'src/calm.ts', context: 0, cwd: small }).text],
    ];
    for (const [args, text] of steps) {
      const r = cli(small, ...args);
      expect([r.code, r.stdout, r.stderr], args.join(' ')).toEqual([0, text, '']);
    }
    expect(steps[0][1]).toBe(
      [
        'survey:',
        '  mode: fixed',
        '  paths[2]: src,README.md',
        '  files_searched: 5',
        'overall[term,matches,files,dominant_path]:',
        '  probe,13,3,src',
        '  quiet,28,1,src',
        '  other,120,1,src',
        'by_path[path,term,matches,files]:',
        '  src,probe,12,2',
        '  src,quiet,28,1',
        '  src,other,120,1',
        '  README.md,probe,1,1',
        '',
      ].join('\n'),
    );
  });
});
