// getOutline / formatOutline on prose and configuration files: Markdown headings, TOML tables
// and keys, YAML and JSON keys (crates/sfq-outline/src/formats), with exact items.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatOutline, getOutline, getOutlineSync, type OutlineItem } from '../index.js';
import { makeTree } from './helpers/tree';

/** A Markdown heading item: kind module, detail hN, signature in the ATX form. */
function heading(name: string, level: number, range: [number, number], children?: OutlineItem[]): OutlineItem {
  return {
    name,
    kind: 'module',
    range,
    line: range[0],
    detail: `h${level}`,
    signature: `${'#'.repeat(level)} ${name}`,
    ...(children ? { children } : {}),
  };
}

/** A TOML table item: kind module, detail table (or table array for [[x]]). */
function table(name: string, range: [number, number], array: boolean, children: OutlineItem[]): OutlineItem {
  return {
    name,
    kind: 'module',
    range,
    line: range[0],
    detail: array ? 'table array' : 'table',
    signature: array ? `[[${name}]]` : `[${name}]`,
    children,
  };
}

/** A key (TOML, YAML, JSON): kind property. */
function key(name: string, range: [number, number], signature: string, children?: OutlineItem[]): OutlineItem {
  return { name, kind: 'property', range, line: range[0], signature, ...(children ? { children } : {}) };
}

const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('outlines of prose and configuration files', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTree({
      'README.md': lines(
        '# demo-tool',
        '',
        'A small demo.',
        '',
        '## Install',
        '',
        '```sh',
        '# not a heading: a shell comment in a fence',
        'npm install demo-tool',
        '```',
        '',
        'Usage',
        '-----',
        '',
        '### `--verbose`',
        '',
        'Prints more. ## not a heading either',
        '',
        '# Licence ##',
        '',
        'MIT',
      ),
      'Cargo.toml': lines(
        '[package]',
        'name = "demo"',
        'version = "0.1.0"',
        'description = """',
        '[not-a-table]',
        '"""',
        '',
        '[dependencies]',
        'serde = { version = "1", features = ["derive"] }',
        '',
        '# examples',
        '[[bin]]',
        'name = "demo"',
        'path = "src/main.rs"',
      ),
      '.github/workflows/ci.yml': lines(
        'name: CI',
        'on:',
        '  push:',
        '    branches: [main]',
        '  pull_request:',
        '',
        'jobs:',
        '  test:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: actions/checkout@v4',
        '      - run: |',
        '          npm ci',
        '          key: not a key',
        '  lint:',
        '    runs-on: ubuntu-latest',
      ),
      'package.json': lines(
        '{',
        '  "name": "demo-tool",',
        '  "description": "Braces } and { and \\"quotes\\" in a string",',
        '  "scripts": {',
        '    "build": "tsc",',
        '    "test": "vitest run"',
        '  },',
        '  "files": ["dist", "{not-a-key}"]',
        '}',
      ),
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a README its headings, nested by level (fences, setext headings, closing #s)', async () => {
    const r = await getOutline('README.md', { cwd: dir });
    expect(r).toMatchObject({ path: 'README.md', totalLines: 21, language: 'markdown', approximate: false, truncated: false });
    expect(r.note).toBeUndefined();
    expect(r.items).toEqual([
      heading('demo-tool', 1, [1, 17], [
        heading('Install', 2, [5, 10]),
        heading('Usage', 2, [12, 17], [heading('`--verbose`', 3, [15, 17])]),
      ]),
      heading('Licence', 1, [19, 21]),
    ]);
    expect(formatOutline(r)).toBe(
      ['# demo-tool (lines 1-17)', '  ## Install (lines 5-10)', '  ## Usage (lines 12-17)', '    ### `--verbose` (lines 15-17)', '# Licence (lines 19-21)'].join('\n'),
    );
    expect(getOutlineSync('README.md', { cwd: dir })).toEqual(r);
  });

  it('gives a Cargo.toml its tables and keys (a multi-line string holding [x] is no table)', async () => {
    const r = await getOutline('Cargo.toml', { cwd: dir });
    expect(r).toMatchObject({ path: 'Cargo.toml', totalLines: 14, language: 'toml', approximate: false, truncated: false });
    expect(r.note).toBeUndefined();
    expect(r.items).toEqual([
      table('package', [1, 6], false, [
        key('name', [2, 2], 'name = "demo"'),
        key('version', [3, 3], 'version = "0.1.0"'),
        key('description', [4, 6], 'description ='),
      ]),
      table('dependencies', [8, 9], false, [key('serde', [9, 9], 'serde = { version = "1", features = ["derive"] }')]),
      table('bin', [12, 14], true, [key('name', [13, 13], 'name = "demo"'), key('path', [14, 14], 'path = "src/main.rs"')]),
    ]);
    expect(formatOutline(r)).toBe(
      [
        '[package] (lines 1-6)',
        '  property name (line 2)',
        '  property version (line 3)',
        '  property description (lines 4-6)',
        '[dependencies] (lines 8-9)',
        '  property serde (line 9)',
        '[[bin]] (lines 12-14)',
        '  property name (line 13)',
        '  property path (line 14)',
      ].join('\n'),
    );
  });

  it('gives a YAML file its top-level keys and the keys beneath them (a block scalar holding key: is no key)', async () => {
    const r = await getOutline('.github/workflows/ci.yml', { cwd: dir });
    expect(r).toMatchObject({ path: '.github/workflows/ci.yml', totalLines: 16, language: 'yaml', approximate: false, truncated: false });
    expect(r.note).toBeUndefined();
    expect(r.items).toEqual([
      key('name', [1, 1], 'name: CI'),
      key('on', [2, 5], 'on:', [key('push', [3, 4], 'push:'), key('pull_request', [5, 5], 'pull_request:')]),
      key('jobs', [7, 16], 'jobs:', [key('test', [8, 14], 'test:'), key('lint', [15, 16], 'lint:')]),
    ]);
    expect(formatOutline(r)).toBe(
      [
        'property name (line 1)',
        'property on (lines 2-5)',
        '  property push (lines 3-4)',
        '  property pull_request (line 5)',
        'property jobs (lines 7-16)',
        '  property test (lines 8-14)',
        '  property lint (lines 15-16)',
      ].join('\n'),
    );
  });

  it('gives a package.json its keys and those of object values (braces in strings do not count)', async () => {
    const r = await getOutline('package.json', { cwd: dir });
    expect(r).toMatchObject({ path: 'package.json', totalLines: 9, language: 'json', approximate: false, truncated: false });
    expect(r.note).toBeUndefined();
    expect(r.items).toEqual([
      key('name', [2, 2], '"name": "demo-tool"'),
      key('description', [3, 3], '"description": "Braces } and { and \\"quotes\\" in a string"'),
      key('scripts', [4, 7], '"scripts":', [key('build', [5, 5], '"build": "tsc"'), key('test', [6, 6], '"test": "vitest run"')]),
      key('files', [8, 8], '"files": ["dist", "{not-a-key}"]'),
    ]);
    expect(formatOutline(r)).toBe(
      ['property name (line 2)', 'property description (line 3)', 'property scripts (lines 4-7)', '  property build (line 5)', '  property test (line 6)', 'property files (line 8)'].join(
        '\n',
      ),
    );
  });

  it('applies maxItems and maxDepth to these outlines too', () => {
    const cut = getOutlineSync('README.md', { cwd: dir, maxItems: 2 });
    expect(cut.truncated).toBe(true);
    expect(cut.items).toEqual([heading('demo-tool', 1, [1, 17], [heading('Install', 2, [5, 10])])]);
    expect(cut.note).toBe('Only the first 2 items are listed (maxItems).');
    const flat = getOutlineSync('Cargo.toml', { cwd: dir, maxDepth: 1 });
    expect(flat.items.map((i) => [i.name, i.children])).toEqual([
      ['package', undefined],
      ['dependencies', undefined],
      ['bin', undefined],
    ]);
  });
});
