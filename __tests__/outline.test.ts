// getOutline / getOutlineSync / formatOutline and the `outline` CLI subcommand.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatOutline, getOutline, getOutlineSync, type OutlineItem, type OutlineResult } from '../index.js';
import { makeTree } from './helpers/tree';

const SAMPLES = resolve(__dirname, '..', 'crates', 'sfq-outline', 'tests', 'fixtures', 'samples');
const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');

/** The golden-file rendering used by crates/sfq-outline/tests/samples.rs. */
function dump(o: OutlineResult): string {
  let out = `language=${o.language ?? 'null'} totalLines=${o.totalLines} approximate=${o.approximate} truncated=${o.truncated} note=${o.note === undefined ? 'None' : `Some(${JSON.stringify(o.note)})`}\n`;
  const rec = (items: OutlineItem[], depth: number) => {
    for (const i of items) {
      out += `${'  '.repeat(depth)}${i.kind} ${i.name} [${i.range[0]}-${i.range[1]}] @${i.line}`;
      if (i.detail !== undefined) out += ` (${i.detail})`;
      if (i.signature !== undefined) out += ` | ${i.signature}`;
      out += '\n';
      rec(i.children ?? [], depth + 1);
    }
  };
  rec(o.items, 0);
  return `${out}--- formatOutline ---\n${formatOutline(o)}\n`;
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
      expect(dump(result)).toBe(expected);
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

  it('renders the token-efficient text with members indented', async () => {
    const r = await getOutline('a.ts', { cwd: dir });
    expect(formatOutline(r)).toBe(
      ['class Foo (lines 1-6)', '  constructor() (line 2)', '  methodA() (lines 3-5)', 'interface Bar (lines 8-10)', '  property x (line 9)', 'function helper() (lines 12-14)'].join('\n'),
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
    expect(`--- formatOutline ---\n${text.stdout}`).toBe(golden.slice(golden.indexOf('--- formatOutline ---')));
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

/** Runs with the process cwd set to `dir` (getOutline(path, signal) has no cwd option). */
function process_cwd_guard(dir: string) {
  const before = process.cwd();
  process.chdir(dir);
  return { restore: () => process.chdir(before) };
}
