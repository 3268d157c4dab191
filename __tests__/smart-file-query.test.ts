// smartFileQuery / smartFileQuerySync through the public JS API.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smartFileQuery, smartFileQuerySync, type SmartFileQueryResult } from '../index.js';
import { git, gitInit, makeTree } from './helpers/tree';

const SRC = [
  "import { TrackingSync } from './sync';",
  '',
  'export class Store {',
  '  private sync = new TrackingSync();',
  '  flush() { return this.sync.flush(); }',
  '}',
  '',
].join('\n');

let repo: string;
beforeAll(() => {
  repo = makeTree({
    'src/store.ts': SRC,
    'src/sync.ts': 'export class TrackingSync {\n  flush() {}\n}\n',
    'README.md': '# demo\nTrackingSync keeps things in sync.\n',
    '.gitignore': 'dist/\n*.log\n',
    'dist/bundle.js': 'TrackingSync',
    'debug.log': 'TrackingSync',
    'node_modules/pkg/index.js': 'TrackingSync',
    'packages/a/node_modules/x.js': 'TrackingSync',
    '.turbo/cache.txt': 'TrackingSync',
    'img.bin': Buffer.from([0x89, 0x50, 0x00, 0x01, 0x54, 0x72]),
  });
  gitInit(repo);
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const q = (o: Record<string, unknown>) => smartFileQuerySync({ cwd: repo, regex: 'x', ...o } as never);

describe('payload', () => {
  it('has the seed keys, in order, with matches and context', () => {
    const r = q({ regex: 'TrackingSync', contextLines: 1 });
    expect(Object.keys(r)).toEqual(['query', 'results', 'skipped', 'aggregate']);
    expect(r.query).toEqual({
      regex: 'TrackingSync',
      flags: '',
      glob: ['**/*'],
      ignore: ['.git/**', '**/node_modules/**', '**/.turbo/**'],
      contextLines: 1,
      includeAllContent: false,
      maxFileSizeKB: 256,
      maxMatches: 500,
    });
    expect(Object.keys(r.query)).toEqual([
      'regex', 'flags', 'glob', 'ignore', 'contextLines', 'includeAllContent', 'maxFileSizeKB', 'maxMatches',
    ]);
    expect(r.results.map((f) => f.path)).toEqual(['README.md', 'src/store.ts', 'src/sync.ts']);
    const store = r.results[1];
    expect(Object.keys(store)).toEqual(['path', 'size', 'matchCount', 'matches', 'truncated']);
    expect(store).toEqual({
      path: 'src/store.ts',
      size: Buffer.byteLength(SRC),
      matchCount: 2,
      matches: [
        {
          lineNumber: 1,
          column: 10,
          match: 'TrackingSync',
          context: { before: [], line: "import { TrackingSync } from './sync';", after: [''] },
        },
        {
          lineNumber: 4,
          column: 22,
          match: 'TrackingSync',
          context: {
            before: ['export class Store {'],
            line: '  private sync = new TrackingSync();',
            after: ['  flush() { return this.sync.flush(); }'],
          },
        },
      ],
      truncated: false,
    });
    expect(r.skipped).toEqual([{ path: 'img.bin', reason: 'binary' }]);
    expect(r.aggregate).toEqual({ filesVisited: 5, filesMatched: 3, totalMatches: 4, truncated: false });
  });

  it('finds nothing without failing', () => {
    const r = q({ regex: 'NoSuchIdentifier' });
    expect(r.results).toEqual([]);
    expect(r.aggregate.totalMatches).toBe(0);
  });

  it('echoes multiline only when asked for', () => {
    expect('multiline' in q({}).query).toBe(false);
    expect(q({ multiline: true }).query.multiline).toBe(true);
  });

  it('embeds content only for matched files with includeAllContent', () => {
    const r = q({ regex: 'class Store', includeAllContent: true });
    expect(r.results).toHaveLength(1);
    expect(r.results[0].content).toBe(SRC);
    expect(Object.keys(r.results[0])).toEqual(['path', 'size', 'matchCount', 'matches', 'content', 'truncated']);
  });

  it('reports columns in code points and the exact matched text', () => {
    const dir = makeTree({ 'u.txt': '😀😀 naïve ſ K\n' });
    const r = smartFileQuerySync({ cwd: dir, regex: 'na.ve|ſ|K', flags: 'u' });
    expect(r.results[0].matches.map((m) => [m.column, m.match])).toEqual([[4, 'naïve'], [10, 'ſ'], [12, 'K']]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('documented differences from Node 20 (README)', () => {
  const where = (regex: string, flags: string, text: string) => {
    const d = makeTree({ 'a.txt': `${text}\n` });
    const r = smartFileQuerySync({ cwd: d, regex, flags });
    rmSync(d, { recursive: true, force: true });
    return r.results.flatMap((f) => f.matches.map((m) => `${m.match}@${m.column}`));
  };
  const inNode = (regex: string, flags: string, text: string) =>
    [...text.matchAll(new RegExp(regex, `${flags}g`))].map((m) => `${m[0]}@${m.index + 1}`);

  it('follows the spec where V8 11.3 has a bug', () => {
    expect(where('(?:(?<=B)abc)*S', '', 'BabcS')).toEqual(['abcS@2']);
    expect(where('(?:a[^S])+', 'v', 'aSa?')).toEqual(['a?@3']);
    // What Node 20 itself gives (this test runs on the Node the README names).
    if (process.versions.v8.startsWith('11.3.')) {
      expect(inNode('(?:(?<=B)abc)*S', '', 'BabcS')).toEqual(['S@5']);
      expect(inNode('(?:a[^S])+', 'v', 'aSa?')).toEqual(['aS@1']);
    }
  });

  it("reproduces V8 11.3's /[^]$/v, which never matches", () => {
    expect(where('[^]$', 'v', 'ab')).toEqual([]);
    expect(where('[^]$', '', 'ab')).toEqual(['b@2']);
    if (process.versions.v8.startsWith('11.3.')) expect(inNode('[^]$', 'v', 'ab')).toEqual([]);
  });
});

describe('candidate files', () => {
  it('honours .gitignore and the default excludes at any depth', () => {
    const paths = q({ regex: 'TrackingSync' }).results.map((f) => f.path);
    expect(paths).not.toContain('dist/bundle.js');
    expect(paths).not.toContain('debug.log');
    expect(paths.some((p) => p.includes('node_modules') || p.includes('.turbo'))).toBe(false);
  });

  it('lists tracked files even when .gitignore matches them', () => {
    const dir = makeTree({ '.gitignore': 'secret*.txt\n', 'secret.txt': 'needle\n', 'other.txt': 'needle\n' });
    git(dir, 'init', '-q');
    git(dir, 'add', '-f', 'secret.txt');
    writeFileSync(join(dir, 'untracked.txt'), 'needle\n');
    writeFileSync(join(dir, 'secret2.txt'), 'needle\n');
    const paths = smartFileQuerySync({ cwd: dir, regex: 'needle' }).results.map((f) => f.path);
    expect(paths).toEqual(['other.txt', 'secret.txt', 'untracked.txt']);
    rmSync(dir, { recursive: true, force: true });
  });

  it('scopes by repo-relative globs and extends the ignore list', () => {
    expect(q({ regex: 'TrackingSync', glob: 'src/**' }).results.map((f) => f.path)).toEqual([
      'src/store.ts',
      'src/sync.ts',
    ]);
    expect(q({ regex: 'TrackingSync', glob: '*.md' }).results.map((f) => f.path)).toEqual(['README.md']);
    expect(q({ regex: 'TrackingSync', glob: ['*.md', 'src/{sync,nope}.ts'] }).results.map((f) => f.path)).toEqual([
      'README.md',
      'src/sync.ts',
    ]);
    const r = q({ regex: 'TrackingSync', ignore: ['**/*.md', 'src/sync.ts'] });
    expect(r.results.map((f) => f.path)).toEqual(['src/store.ts']);
    expect(r.query.ignore).toEqual(['.git/**', '**/node_modules/**', '**/.turbo/**', '**/*.md', 'src/sync.ts']);
  });

  it('reports a tracked file missing on disk as a read error', () => {
    const dir = makeTree({ 'a.txt': 'needle\n', 'gone.txt': 'needle\n' });
    gitInit(dir);
    rmSync(join(dir, 'gone.txt'));
    const r = smartFileQuerySync({ cwd: dir, regex: 'needle' });
    expect(r.skipped).toEqual([{ path: 'gone.txt', reason: 'readError', code: 'ENOENT' }]);
    expect(r.results.map((f) => f.path)).toEqual(['a.txt']);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('limits', () => {
  const dir = makeTree({
    'a.txt': 'x x x\n',
    'b.txt': 'x\nx\n',
    'c.txt': 'x\n',
  });

  it('stops at maxMatches, marking the cut file and the aggregate', () => {
    const r = smartFileQuerySync({ cwd: dir, regex: 'x', maxMatches: 4 });
    expect(r.results.map((f) => [f.path, f.matchCount, f.truncated])).toEqual([
      ['a.txt', 3, false],
      ['b.txt', 1, true],
    ]);
    expect(r.aggregate).toEqual({ filesVisited: 2, filesMatched: 2, totalMatches: 4, truncated: true });
  });

  it('marks the aggregate, not the file, when the cap falls on a file boundary', () => {
    const r = smartFileQuerySync({ cwd: dir, regex: 'x', maxMatches: 3 });
    expect(r.results.map((f) => [f.path, f.matchCount, f.truncated])).toEqual([['a.txt', 3, false]]);
    expect(r.aggregate).toEqual({ filesVisited: 1, filesMatched: 1, totalMatches: 3, truncated: true });
  });

  it('skips files over the size cap before reading them, at the exact byte', () => {
    const d = makeTree({ 'at.txt': 'n'.repeat(1024), 'over.txt': 'n'.repeat(1025) });
    const r = smartFileQuerySync({ cwd: d, regex: 'n$', maxFileSizeKB: 1 });
    expect(r.results.map((f) => f.path)).toEqual(['at.txt']);
    expect(r.skipped).toEqual([{ path: 'over.txt', reason: 'maxFileSizeExceeded', size: 1025 }]);
    rmSync(d, { recursive: true, force: true });
  });

  it('runs the classic catastrophic pattern in linear time on the fast path', () => {
    const d = makeTree({ 'evil.txt': `${'a'.repeat(40)}b\n`, 'fine.txt': 'aaaa\n' });
    const t0 = Date.now();
    const r = smartFileQuerySync({ cwd: d, regex: '^(a+)+$' });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.skipped).toEqual([]);
    expect(r.results.map((f) => f.path)).toEqual(['fine.txt']);
    rmSync(d, { recursive: true, force: true });
  });

  it('runs an exponential pattern on the exact engine in polynomial time (memo of failed states)', () => {
    // The lookahead keeps it off the fast path; 2^40 paths for V8, which would not finish.
    const d = makeTree({ 'evil.txt': `${'a'.repeat(40)}b\n`, 'fine.txt': 'aaaa\n' });
    const t0 = Date.now();
    const r = smartFileQuerySync({ cwd: d, regex: '^(?=(a+)+$)' });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.skipped).toEqual([]);
    expect(r.results.map((f) => f.path)).toEqual(['fine.txt']);
    rmSync(d, { recursive: true, force: true });
  });

  it('ends a catastrophic pattern on the exact engine with regexBudgetExceeded and keeps going', () => {
    // The back reference makes the capture part of every memoised state: cubic in the
    // line's length, far beyond the time budget on 3,000 characters.
    const d = makeTree({ 'evil.txt': `${'a'.repeat(3000)}b\n`, 'fine.txt': 'aa\n' });
    const t0 = Date.now();
    const r = smartFileQuerySync({ cwd: d, regex: '^(?=(a+)+\\1$)', regexTimeoutMs: 300 });
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(r.skipped).toEqual([{ path: 'evil.txt', reason: 'regexBudgetExceeded' }]);
    expect(r.results.map((f) => f.path)).toEqual(['fine.txt']);
    rmSync(d, { recursive: true, force: true });
  });

  it('gives byte-identical output whatever the number of threads', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 7}/f${i}.txt`] = `${'word '.repeat(i % 13)}\nline ${i}\n`;
    const d = makeTree(files);
    for (const maxMatches of [1, 37, 500, 100000]) {
      const outs = [1, 2, 3, 8].map((threads) =>
        JSON.stringify(smartFileQuerySync({ cwd: d, regex: 'word|\\d+', maxMatches, threads })),
      );
      expect(new Set(outs).size).toBe(1);
    }
    rmSync(d, { recursive: true, force: true });
  });
});

describe('encodings', () => {
  const text = 'héllo wörld\n';
  const d = makeTree({
    'le.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    'l1.txt': Buffer.from(text, 'latin1'),
  });

  it('decodes utf16le (binary under utf8), latin1 and ascii as Buffer#toString', () => {
    const u8 = smartFileQuerySync({ cwd: d, regex: 'w.rld' });
    expect(u8.skipped).toEqual([{ path: 'le.txt', reason: 'binary' }]);
    expect(u8.results.map((f) => [f.path, f.matches[0].match])).toEqual([['l1.txt', 'w\ufffdrld']]);
    const le = smartFileQuerySync({ cwd: d, regex: 'w.rld', encoding: 'utf16le' });
    expect(le.results.map((f) => [f.path, f.matches[0].match, f.matches[0].context.line])).toEqual([
      ['le.txt', 'wörld', '\ufeffhéllo wörld'],
    ]);
    const l1 = smartFileQuerySync({ cwd: d, regex: 'w.rld', encoding: 'latin1', glob: 'l1.txt' });
    expect(l1.results[0].matches[0].match).toBe('wörld');
    const ascii = smartFileQuerySync({ cwd: d, regex: 'w.rld', encoding: 'ascii', glob: 'l1.txt' });
    expect(ascii.results[0].matches[0].match).toBe('wvrld');
  });

  it('refuses unknown encodings', () => {
    expect(() => smartFileQuerySync({ cwd: d, regex: 'x', encoding: 'hex' })).toThrow(
      expect.objectContaining({ code: 'EINVALIDOPTION' }),
    );
  });
});

describe('errors', () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp | string]> = [
    ['missing regex', { regex: undefined }, 'EINVALIDOPTION', /'regex' is required/],
    ['bad regex', { regex: '(' }, 'EINVALIDREGEX', 'Invalid regular expression: /(/: Unterminated group'],
    ['bad flags', { flags: 'gg' }, 'EINVALIDREGEX', "Invalid flags supplied to RegExp constructor 'gg'"],
    ['u and v', { flags: 'uv' }, 'EINVALIDREGEX', "Invalid flags supplied to RegExp constructor 'uv'"],
    ['sticky', { flags: 'y' }, 'EINVALIDREGEX', /sticky/],
    ['unknown option', { maxMatch: 3 }, 'EINVALIDOPTION', /did you mean 'maxMatches'/],
    ['context out of range', { contextLines: 21 }, 'EINVALIDOPTION', /contextLines' must be a finite integer from 0 to 20, got 21/],
    ['zero matches', { maxMatches: 0 }, 'EINVALIDOPTION', /maxMatches/],
    ['fraction', { maxMatches: 1.5 }, 'EINVALIDOPTION', /got 1.5/],
    ['NaN', { maxFileSizeKB: Number.NaN }, 'EINVALIDOPTION', /got NaN/],
    ['wrong type', { glob: 5 }, 'EINVALIDOPTION', /'glob' must be a string or an array of strings/],
    ['missing cwd', { cwd: '/no/such/dir' }, 'ENOENT', /no\/such\/dir/],
  ];
  for (const [name, opts, code, message] of cases) {
    it(`${name}: throws ${code} (sync) and rejects the same (async)`, async () => {
      const options = { cwd: repo, regex: 'x', ...opts } as never;
      let syncErr: unknown;
      try {
        smartFileQuerySync(options);
      } catch (e) {
        syncErr = e;
      }
      expect(syncErr).toBeInstanceOf(Error);
      expect((syncErr as { code: string }).code).toBe(code);
      if (typeof message === 'string') expect((syncErr as Error).message).toBe(message);
      else expect((syncErr as Error).message).toMatch(message);
      await expect(smartFileQuery(options)).rejects.toMatchObject({ code, message: (syncErr as Error).message });
    });
  }

  it('refuses a cwd that is a file', () => {
    expect(() => smartFileQuerySync({ cwd: join(repo, 'README.md'), regex: 'x' })).toThrow(
      expect.objectContaining({ code: 'ENOTDIR' }),
    );
  });
});

describe('async', () => {
  let big: string;
  beforeAll(() => {
    const files: Record<string, string> = {};
    const line = `${'ab'.repeat(20)}c\n`;
    for (let i = 0; i < 400; i++) files[`f${i}.txt`] = line.repeat(500);
    big = makeTree(files);
  });
  afterAll(() => rmSync(big, { recursive: true, force: true }));
  // Exponential backtracking inside a lookahead (so no fast path or literal
  // prefilter can shortcut it): every file runs to its work budget, so the
  // scan takes many seconds and abort and timeout land mid-scan.
  const slow = { regex: '^(?=(?:a|b|ab)*$)', maxMatches: 10 };

  it('resolves with the same payload as the sync form', async () => {
    const a: SmartFileQueryResult = await smartFileQuery({ cwd: repo, regex: 'TrackingSync' });
    expect(a).toEqual(smartFileQuerySync({ cwd: repo, regex: 'TrackingSync' }));
  });

  it('rejects at once with EABORTED for an already-aborted signal', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(smartFileQuery({ cwd: repo, regex: 'x' }, ac.signal)).rejects.toMatchObject({ code: 'EABORTED' });
  });

  it('rejects with EABORTED when aborted mid-scan, keeping the event loop responsive', async () => {
    const ac = new AbortController();
    let ticks = 0;
    const interval = setInterval(() => ticks++, 5);
    const started = Date.now();
    const p = smartFileQuery({ cwd: big, ...slow }, ac.signal);
    setTimeout(() => ac.abort(), 100);
    await expect(p).rejects.toMatchObject({ code: 'EABORTED' });
    clearInterval(interval);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(ticks).toBeGreaterThan(3);
  });

  it('rejects with ETIMEOUT after timeoutMs (async and sync)', async () => {
    await expect(smartFileQuery({ cwd: big, ...slow, timeoutMs: 50 })).rejects.toMatchObject({ code: 'ETIMEOUT' });
    expect(() => smartFileQuerySync({ cwd: big, ...slow, timeoutMs: 50 })).toThrow(
      expect.objectContaining({ code: 'ETIMEOUT' }),
    );
  });

  it('refuses a signal that is not an AbortSignal', async () => {
    await expect(smartFileQuery({ cwd: repo, regex: 'x' }, {} as AbortSignal)).rejects.toMatchObject({
      code: 'EINVALIDOPTION',
    });
  });
});

describe('never crashes the host', () => {
  it('turns a panic inside the engine into an EINTERNAL error, sync and async', () => {
    const script = `
      const { smartFileQuery, smartFileQuerySync } = require(${JSON.stringify(join(__dirname, '..', 'index.js'))});
      const out = [];
      try { smartFileQuerySync({ cwd: ${JSON.stringify(repo)}, regex: 'x' }); out.push('no error'); }
      catch (e) { out.push(e.code); }
      smartFileQuery({ cwd: ${JSON.stringify(repo)}, regex: 'x', threads: 2 })
        .then(() => out.push('no error'), (e) => out.push(e.code, e instanceof Error))
        .then(() => console.log(JSON.stringify(out)));
    `;
    const r = spawnSync(process.execPath, ['-e', script], {
      env: { ...process.env, SMART_FILE_QUERY_FAILPOINT: 'scan-file' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['EINTERNAL', 'EINTERNAL', true]);
    expect(r.stderr).toContain('failpoint');
  });
});
