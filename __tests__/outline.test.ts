// getOutline / getOutlineSync / formatOutline and the `outline` CLI subcommand.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatOutline, getOutline, getOutlineSync, smartFileQuery, type OutlineItem, type OutlineResult } from '../index.js';
import { SERVER_MODULES, serverModule } from './helpers/server-module';
import { makeTree } from './helpers/tree';

const SAMPLES = resolve(__dirname, '..', 'crates', 'sfq-outline', 'tests', 'fixtures', 'samples');
const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');

/** The golden-file rendering used by crates/sfq-outline/tests/samples.rs (`each`: the outline with `imports: 'each'`). */
function dump(o: OutlineResult, each: OutlineResult): string {
  let out = `language=${o.language ?? 'null'} totalLines=${o.totalLines} approximate=${o.approximate} truncated=${o.truncated} note=${o.note === undefined ? 'None' : `Some(${JSON.stringify(o.note)})`}\n`;
  const rec = (items: OutlineItem[], depth: number) => {
    for (const i of items) {
      out += `${'  '.repeat(depth)}${i.kind} ${i.name} [${i.range[0]}-${i.range[1]}] @${i.line}`;
      if (i.detail !== undefined) out += ` (${i.detail})`;
      if (i.modules !== undefined) out += ` modules=[${i.modules.join(', ')}]`;
      if (i.signature !== undefined) out += ` | ${i.signature}`;
      out += '\n';
      rec(i.children ?? [], depth + 1);
    }
  };
  rec(o.items, 0);
  let imports = '';
  const recImports = (items: OutlineItem[]) => {
    for (const i of items) {
      if (i.kind === 'import') {
        imports += `${i.name} [${i.range[0]}-${i.range[1]}] @${i.line}`;
        if (i.detail !== undefined) imports += ` (${i.detail})`;
        if (i.signature !== undefined) imports += ` | ${i.signature}`;
        imports += '\n';
      }
      recImports(i.children ?? []);
    }
  };
  recImports(each.items);
  return `${out}--- formatOutline ---\n${formatOutline(o)}\n${imports && `--- imports: each ---\n${imports}`}`;
}

// The languages compiled into the default build; the others are behind cargo features.
const CORE = ['sample.ts', 'sample.tsx', 'sample.js', 'sample.py', 'sample.rs', 'sample.go', 'Sample.java', 'sample.c', 'sample.cpp'];

describe('outline of a fixture per language, exact items', () => {
  for (const name of CORE) {
    it(name, async () => {
      const expected = readFileSync(join(SAMPLES, `${name}.outline`), 'utf8');
      const result = await getOutline(name, { cwd: SAMPLES });
      expect(result.path).toBe(name);
      expect(result.approximate).toBe(false);
      expect(dump(result, await getOutline(name, { cwd: SAMPLES, imports: 'each' }))).toBe(expected);
      expect(getOutlineSync(name, { cwd: SAMPLES })).toEqual(result);
    });
  }

  it('covers every core-language sample that exists', () => {
    const present = readdirSync(SAMPLES).filter((f) => !f.endsWith('.outline'));
    for (const name of CORE) expect(present).toContain(name);
  });

  it('falls back to an approximate outline, saying why, for a language not compiled in', async () => {
    const r = await getOutline('sample.rb', { cwd: SAMPLES });
    expect(r.language).toBe('ruby');
    expect(r.approximate).toBe(true);
    expect(r.note).toMatch(/feature/);
    expect(r.items.length).toBeGreaterThan(0);
  });
});

describe('behaviour', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTree({
      'a.ts': 'export class Foo {\n  constructor() {}\n  methodA(x: number): string {\n    return "";\n  }\n}\n\ninterface Bar {\n  x: number;\n}\n\nfunction helper() {\n  return 1;\n}\n',
      'script': '#!/usr/bin/env python3\nclass K:\n    def m(self):\n        pass\n',
      'notes.txt': 'Intro\n\nSection one\n  detail\n',
      'bin.dat': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]),
      'sub/inner.py': 'def f():\n    pass\n',
      'min.js': `var a=${'1+'.repeat(20000)}1;`,
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('honours getOutline(path, signal), as smartFileQuery(options, signal) does', async () => {
    const aborted = AbortSignal.abort();
    await expect(getOutline('a.ts', aborted)).rejects.toMatchObject({ code: 'EABORTED' });
    const process = process_cwd_guard(dir);
    try {
      expect((await getOutline('a.ts', new AbortController().signal)).items[0].name).toBe('Foo');
    } finally {
      process.restore();
    }
  });

  it('takes as the signal what every async call takes as its signal (one AbortSignal test)', async () => {
    // An AbortSignal look-alike (a boolean `aborted`, addEventListener) is a signal to both.
    const lookalike = { aborted: true, reason: new Error('stop'), addEventListener() {}, removeEventListener() {} } as unknown as AbortSignal;
    await expect(getOutline('a.ts', lookalike)).rejects.toMatchObject({ code: 'EABORTED', cause: { message: 'stop' } });
    await expect(smartFileQuery({ cwd: dir, regex: 'x' }, lookalike)).rejects.toMatchObject({ code: 'EABORTED', cause: { message: 'stop' } });
    // Without addEventListener it is none: getOutline takes it as options, the others refuse it as a signal.
    const plain = { aborted: true } as unknown as AbortSignal;
    await expect(getOutline('a.ts', plain)).rejects.toMatchObject({ code: 'EINVALIDOPTION', message: expect.stringContaining("unknown option 'aborted'") });
    await expect(smartFileQuery({ cwd: dir, regex: 'x' }, plain)).rejects.toMatchObject({ code: 'EINVALIDOPTION', message: expect.stringContaining('signal must be an AbortSignal') });
  });

  it('renders the token-efficient text with members indented', async () => {
    const r = await getOutline('a.ts', { cwd: dir });
    expect(formatOutline(r)).toBe(
      ['class Foo (lines 1-6)', '  constructor() (line 2)', '  methodA(x: number): string (lines 3-5)', 'interface Bar (lines 8-10)', '  property x (line 9)', 'function helper() (lines 12-14)'].join('\n'),
    );
    const foo = r.items[0];
    expect(foo).toMatchObject({ name: 'Foo', kind: 'class', range: [1, 6] });
    expect(foo.children?.map((c) => [c.name, c.kind, c.detail])).toEqual([
      ['constructor', 'method', 'constructor'],
      ['methodA', 'method', undefined],
    ]);
    expect(foo.children?.[1].signature).toBe('methodA(x: number): string');
  });

  it('chooses the language by shebang when there is no extension', () => {
    const r = getOutlineSync('script', { cwd: dir });
    expect(r.language).toBe('python');
    expect(r.items.map((i) => i.name)).toEqual(['K']);
  });

  it('gives unknown text a best-effort outline marked approximate, never an error', () => {
    const r = getOutlineSync('notes.txt', { cwd: dir });
    expect(r.approximate).toBe(true);
    expect(r.totalLines).toBe(4);
  });

  it('falls back and says so for a minified file', () => {
    const r = getOutlineSync('min.js', { cwd: dir });
    expect(r.approximate).toBe(true);
    expect(r.note).toMatch(/minified/i);
  });

  it('enforces the item budget', () => {
    const r = getOutlineSync('a.ts', { cwd: dir, maxItems: 2 });
    expect(r.truncated).toBe(true);
    expect(r.note).toBeDefined();
  });

  it('resolves paths against cwd and returns them root-relative', () => {
    expect(getOutlineSync('sub/../sub/inner.py', { cwd: dir }).path).toBe('sub/inner.py');
  });

  const errors: Array<[string, string]> = [
    ['bin.dat', 'EBINARY'],
    ['missing.ts', 'ENOENT'],
    ['sub', 'EISDIR'],
    ['../outside.ts', 'EOUTSIDEROOT'],
    ['/etc/hostname', 'EOUTSIDEROOT'],
  ];
  for (const [path, code] of errors) {
    it(`${path}: ${code}`, async () => {
      expect(() => getOutlineSync(path, { cwd: dir })).toThrow(expect.objectContaining({ code }));
      await expect(getOutline(path, { cwd: dir })).rejects.toMatchObject({ code });
    });
  }

  it('rejects bad options with EINVALIDOPTION', () => {
    expect(() => getOutlineSync('a.ts', { cwd: dir, maxItems: 0 })).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION' }));
    expect(() => formatOutline({} as OutlineResult)).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION' }));
  });
});

describe('CLI: smart-file-query outline FILE', () => {
  it('prints the formatted outline, or the object with --json', () => {
    const text = spawnSync(process.execPath, [BIN, 'outline', 'sample.py'], { cwd: SAMPLES, encoding: 'utf8' });
    expect(text.status).toBe(0);
    const golden = readFileSync(join(SAMPLES, 'sample.py.outline'), 'utf8');
    const formatted = golden.slice(golden.indexOf('--- formatOutline ---'), golden.indexOf('--- imports: each ---'));
    expect(`--- formatOutline ---\n${text.stdout}`).toBe(formatted);
    const json = spawnSync(process.execPath, [BIN, 'outline', 'sample.py', '--json'], { cwd: SAMPLES, encoding: 'utf8' });
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(getOutlineSync('sample.py', { cwd: SAMPLES }));
  });

  it('exits 1 with the error code for a missing file', () => {
    const r = spawnSync(process.execPath, [BIN, 'outline', 'nope.py'], { cwd: SAMPLES, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/ENOENT/);
    expect(r.stdout).toBe('');
  });
});

describe('imports in blocks, parameters in the text', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTree({ 'server/index.ts': serverModule(), 'one.py': 'import os\n\ndef f(a, b=2):\n    pass\n' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a module with 67 imports: one item for them, with its modules; one line in the text', async () => {
    const r = await getOutline('server/index.ts', { cwd: dir });
    const block = r.items[0];
    expect(block).toEqual({ name: 'imports (67)', kind: 'import', range: [2, 70], line: 2, detail: 'block', modules: SERVER_MODULES });
    expect(r.items.slice(1).map((i) => `${i.kind} ${i.name}`)).toEqual([
      'interface ViteDevServer', 'type ServerHook', 'function createServer', 'function _createServer', 'function resolveServerUrls', 'class ServerState',
    ]);
    const text = formatOutline(r);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^imports \(67\): node:path, node:fs, node:fs\/promises, .*, … \(lines 2-70\)$/);
    expect(lines[0].length).toBeLessThanOrEqual(120 + ' (lines 2-70)'.length);
    expect(lines).toContain('function createServer(inlineConfig: InlineConfig = {}): Promise<ViteDevServer> (lines 80-82)');
    expect(lines).toContain('function resolveServerUrls(server: unknown, logger: Logger): string[] (line 91)');
    expect(lines).toContain('  listen(port?: number, isRestart?: boolean): Promise<ViteDevServer> (line 74)');
    expect(lines).toContain('  restart(forceOptimize = false): Promise<void> (lines 94-96)');
    // a signature over the line's width is cut with …
    const long = lines.find((l) => l.startsWith('function _createServer('))!;
    expect(long).toMatch(/^function _createServer\(inlineConfig: InlineConfig = \{\}, options: .{20,}… \(lines 84-89\)$/);
    expect(long.length).toBeLessThanOrEqual(160 + ' (lines 84-89)'.length);

    // imports: 'each' keeps one item (and one line) per import; 'none' drops them
    const each = await getOutline('server/index.ts', { cwd: dir, imports: 'each' });
    expect(each.items.filter((i) => i.kind === 'import').map((i) => i.name)).toEqual([...SERVER_MODULES, '../config', '../logger']);
    expect(each.items.every((i) => i.modules === undefined)).toBe(true);
    const eachText = formatOutline(each);
    expect(eachText.split('\n').length).toBe(lines.length + 66);
    const none = getOutlineSync('server/index.ts', { cwd: dir, imports: 'none' });
    expect(none.items).toEqual(r.items.slice(1));
    expect(getOutlineSync('server/index.ts', { cwd: dir, includeImports: false })).toEqual(none);
    // The measure: lines and characters of the text before (one per import) and now.
    console.log(`server/index.ts outline: ${eachText.split('\n').length} lines / ${eachText.length} chars with imports: 'each', ${lines.length} lines / ${text.length} chars in blocks`);
  });

  it('a single import is a block of one; Python signatures keep their parameters', () => {
    const r = getOutlineSync('one.py', { cwd: dir });
    expect(formatOutline(r)).toBe('imports (1): os (line 1)\nfunction f(a, b=2) (lines 3-4)');
  });

  it('refuses an unknown imports mode, and one includeImports contradicts', () => {
    expect(() => getOutlineSync('one.py', { cwd: dir, imports: 'all' as never })).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION' }));
    expect(() => getOutlineSync('one.py', { cwd: dir, imports: 'each', includeImports: false })).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION' }));
    expect(getOutlineSync('one.py', { cwd: dir, imports: 'none', includeImports: false }).items.map((i) => i.name)).toEqual(['f']);
  });

  it('CLI: outline prints the block, --imports each one line per import, a bad mode is a usage error', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'outline', ...args], { cwd: dir, encoding: 'utf8' });
    const block = run('server/index.ts');
    expect(block.status).toBe(0);
    expect(block.stdout).toBe(`${formatOutline(getOutlineSync('server/index.ts', { cwd: dir }))}\n`);
    expect(block.stdout.split('\n')[0]).toMatch(/^imports \(67\): node:path, /);
    const each = run('server/index.ts', '--imports', 'each');
    expect(each.status).toBe(0);
    expect(each.stdout).toBe(`${formatOutline(getOutlineSync('server/index.ts', { cwd: dir, imports: 'each' }))}\n`);
    expect(each.stdout.split('\n').slice(0, 2)).toEqual(['import node:path (line 2)', 'import node:fs (line 3)']);
    const none = run('server/index.ts', '--imports=none', '--json');
    expect(JSON.parse(none.stdout).items[0].name).toBe('ViteDevServer');
    const bad = run('server/index.ts', '--imports', 'all');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--imports must be block, each or none; got 'all'/);
    expect(bad.stdout).toBe('');
  });
});

/** Runs with the process cwd set to `dir` (getOutline(path, signal) has no cwd option). */
function process_cwd_guard(dir: string) {
  const before = process.cwd();
  process.chdir(dir);
  return { restore: () => process.chdir(before) };
}
