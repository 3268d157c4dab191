// `smart-file-query mcp` end to end: the real server process, spawned from
// the CLI, driven by the SDK's own Client over StdioClientTransport.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_USAGE } from '../lib/cli/mcp.mjs';
import { searchResultBytes } from '../lib/mcp/budget.mjs';
import { estimateTokens } from '../lib/mcp/tokens.mjs';
import { BIN, type Result, type Server, call, checkCompact, closeServers, fails, ok, result, startServer as startMcp, text } from './helpers/mcp';
import { serverModule } from './helpers/server-module';
import { gitInit, makeTree } from './helpers/tree';

const require = createRequire(import.meta.url);
const api = require('../index.js');

// ---------------------------------------------------------------------------
// The repository served

const SLOW_LINE = `${'a'.repeat(3000)} lorem ipsum\n`;
/**
 * A pattern the backtracking engine gives up on in every slow file, after its whole work
 * budget: the back reference keeps the capture in every memoised state, far too many on
 * 3,000 a's.
 */
const SLOW = '(a+)+\\1(?=b)';

function fixture(): Record<string, string> {
  const files: Record<string, string> = {
    '.gitignore': 'node_modules\n',
    'node_modules/pkg/index.js': 'needle in node_modules\n',
    '.hidden/secret.txt': 'needle hidden\n',
    'src/app.ts': [
      'import { helper } from "./util";',
      '',
      'export class Greeter {',
      '  constructor(private name: string) {}',
      '',
      '  greet(): string {',
      '    return `hello ${this.name}`;',
      '  }',
      '}',
      '',
      'export function twice(x: number): number {',
      '  return helper(x) * 2;',
      '}',
      '',
    ].join('\n'),
    'src/util/helpers.py': 'class DataProcessor:\n    def process_data(self, input):\n        return input  # Needle\n',
    'src/long.ts': Array.from({ length: 300 }, (_, i) => `export const v${i + 1} = ${i + 1};`).join('\n') + '\n',
    'wide.txt': Array.from({ length: 150 }, (_, i) => `${i + 1} ${'w'.repeat(600)}`).join('\n') + '\n',
  };
  for (let d = 0; d < 10; d++) {
    for (let f = 0; f < 40; f++) {
      files[`gen/d${d}/f${f}.txt`] = Array.from({ length: 5 }, (_, i) => `needle ${d}-${f}-${i} some padding text`).join('\n') + '\n';
    }
  }
  files['big/many.ts'] = Array.from({ length: 400 }, (_, i) => `export function fn${i}(a: number, b: string): void {}\n`).join('');
  for (let i = 0; i < 8; i++) files[`slow/small/s${i}.txt`] = SLOW_LINE.repeat(5);
  Object.assign(files, slowFiles());
  return files;
}

/** Files each of which takes the whole work budget of SLOW: a search of them all runs for seconds. */
function slowFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 400; i++) files[`slow/big/b${i}.txt`] = SLOW_LINE.repeat(5);
  return files;
}

let repo: string;
let slowRepo: string; // with a project file: timeout_seconds 1
let elsewhere: string;

// ---------------------------------------------------------------------------
// Servers (helpers/mcp.ts)

const startServer = (args: string[] = [], cwd = repo) => startMcp(args, cwd);

let main: Server; // --timeout-seconds 0: a background-capable search always goes on in the background
let other: Server; // --root from elsewhere, a smaller budget (5000), the default wait (30 s)

beforeAll(async () => {
  repo = makeTree(fixture(), 'sfq-mcp-');
  gitInit(repo);
  slowRepo = makeTree(
    {
      ...slowFiles(),
      // A first chunk of fast files before the slow ones (the scan hands files over 16 at a time).
      ...Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`a/hits-${String(i).padStart(2, '0')}.txt`, i === 0 ? 'one aab\nnone\ntwo aaab\n' : 'none\n'])),
      '.smart-file-query.json': JSON.stringify({ timeout_seconds: 1 }),
    },
    'sfq-mcp-slow-',
  );
  gitInit(slowRepo);
  elsewhere = mkdtempSync(join(tmpdir(), 'sfq-mcp-cwd-'));
  main = await startServer(['--timeout-seconds', '0']);
  other = await startServer(['--root', repo, '--max-result-chars', '5000'], elsewhere);
});

afterAll(async () => {
  await closeServers();
  for (const dir of [repo, slowRepo, elsewhere]) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------

describe('tools/list', () => {
  const SEARCH_TOOLS = ['smart_file_query', 'search_code', 'view_outline', 'scroll_file', 'grep', 'find_files', 'glob_files', 'grep_content', 'survey', 'scout', 'sample', 'show'];
  const TASK_TOOLS = ['task_status', 'task_result', 'task_cancel'];

  it('lists every tool with a described input schema and the read-only annotation', async () => {
    const { tools } = await main.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...SEARCH_TOOLS, ...TASK_TOOLS]);
    const ajv = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      expect(tool.description, tool.name).toMatch(/\S/);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: string }).description, `${tool.name}.${name}`).toMatch(/\S/);
      }
      ajv.getValidator(tool.inputSchema); // compiles
      if (tool.outputSchema) ajv.getValidator(tool.outputSchema);
    }
    const withOutput = tools.filter((t) => t.outputSchema).map((t) => t.name);
    expect(withOutput).toEqual(expect.arrayContaining(['glob_files', 'grep_content', 'search_code', 'grep', 'find_files']));
  });

  it('every input schema refuses properties it does not list, as the server does', async () => {
    const { tools } = await main.client.listTools();
    const ajv = new AjvJsonSchemaValidator();
    const valid: Record<string, Record<string, unknown>> = {
      smart_file_query: { regex: 'a' }, search_code: { query: 'a' }, view_outline: { path: 'a' }, scroll_file: { action: 'open' },
      grep: { pattern: 'a' }, find_files: { pattern: 'a' }, glob_files: { pattern: 'a' }, grep_content: { pattern: 'a' },
      survey: { terms: ['a'] }, scout: { query: 'a' }, sample: { query: 'a' }, show: { query: 'a', file: 'a' },
      task_status: {}, task_result: { task_id: 'a' }, task_cancel: { task_id: 'a' },
    };
    expect(Object.keys(valid)).toEqual(tools.map((t) => t.name));
    for (const tool of tools) {
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      const validate = ajv.getValidator(tool.inputSchema);
      expect(validate(valid[tool.name]).valid, tool.name).toBe(true);
      expect(validate({ ...valid[tool.name], bogus: 1 }).valid, tool.name).toBe(false);
      // The server refuses it too, naming the argument.
      expect(await fails(main, tool.name, { ...valid[tool.name], bogus: 1 }), tool.name).toMatchObject({ argument: 'bogus' });
    }
  });

  it("uses seeds 002 and 003's definitions word for word", async () => {
    const { tools } = await main.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const seed: Record<string, { description: string; properties: Record<string, unknown>; required: string[] }> = {
      grep: {
        description: 'Search for text patterns across files. Returns matching lines with context.',
        properties: {
          pattern: { type: 'string', description: 'Text or regex pattern to search for' },
          path: { type: 'string', description: 'Directory or file to search (default: project root)' },
          regex: { type: 'boolean', description: 'Treat pattern as regex (default: false)' },
          caseSensitive: { type: 'boolean', description: 'Case sensitive search (default: false)' },
          maxResults: { type: 'number', description: 'Maximum matches to return (default: 50)' },
        },
        required: ['pattern'],
      },
      find_files: {
        description: 'Find files by name pattern (glob). Respects .gitignore.',
        properties: {
          pattern: { type: 'string', description: 'Glob pattern (e.g., "*.ts", "**/*.test.js")' },
          path: { type: 'string', description: 'Directory to search (default: project root)' },
          maxResults: { type: 'number', description: 'Maximum files to return (default: 100)' },
        },
        required: ['pattern'],
      },
      view_outline: {
        description: 'Get the structure/skeleton of a source file (classes, functions, etc.) without implementation details.',
        properties: { path: { type: 'string', description: 'Path to the source file' } },
        required: ['path'],
      },
      search_code: {
        description: 'Search for text or patterns across the codebase using ripgrep.',
        properties: {
          query: { type: 'string', description: 'Search term or regex pattern' },
          path: { type: 'string', description: 'Limit search to this file or directory' },
          is_regex: { type: 'boolean', description: 'Treat query as regex (default: false)' },
          case_sensitive: { type: 'boolean', description: 'Case-sensitive search (default: false)' },
        },
        required: ['query'],
      },
      scroll_file: {
        description: 'Navigate through the currently open file (scroll up, down, or go to a specific line).',
        properties: {
          action: { type: 'string', enum: ['open', 'scroll_up', 'scroll_down', 'goto'], description: 'Navigation action' },
          path: { type: 'string', description: "File to open (required for 'open' action)" },
          line: { type: 'number', description: "Line number (required for 'goto', optional for 'open')" },
        },
        required: ['action'],
      },
    };
    for (const [name, def] of Object.entries(seed)) {
      const tool = byName[name];
      expect(tool.description, name).toBe(def.description);
      expect(tool.inputSchema.required, name).toEqual(def.required);
      // The seed's properties first, unchanged; extensions may follow.
      const props = tool.inputSchema.properties as Record<string, unknown>;
      expect(Object.keys(props).slice(0, Object.keys(def.properties).length), name).toEqual(Object.keys(def.properties));
      for (const [key, schema] of Object.entries(def.properties)) expect(props[key], `${name}.${key}`).toEqual(schema);
    }
  });

  it("gives glob_files and grep_content seed 004's snake_case parameters", async () => {
    const { tools } = await main.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName.glob_files.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['pattern', 'root', 'max_results', 'include_hidden']),
    );
    expect(Object.keys(byName.grep_content.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['pattern', 'path', 'file_glob', 'context_lines', 'case_sensitive', 'max_results']),
    );
  });
});

describe('glob_files', () => {
  it("answers seed 004's response, field for field", async () => {
    const r = await result(main, (await ok(main, 'glob_files', { pattern: 'src/**/*.ts' })).task_id);
    expect(r.status).toBe('completed');
    const answer = r.result;
    // The seed's fields in its order, then the extra `skipped` counts.
    expect(Object.keys(answer)).toEqual(['files', 'total', 'returned', 'truncated', 'root', 'pattern', 'skipped']);
    expect(answer).toMatchObject({ total: 2, returned: 2, truncated: false, root: repo, pattern: 'src/**/*.ts' });
    expect(answer.files.map((f: any) => f.path)).toEqual(['src/app.ts', 'src/long.ts']);
    for (const f of answer.files) {
      expect(Object.keys(f)).toEqual(['path', 'absolute_path', 'size', 'modified']);
      expect(f.absolute_path).toBe(join(repo, f.path));
      expect(new Date(f.modified).toISOString()).toBe(f.modified);
    }
  });

  it('root, include_hidden and max_results', async () => {
    const quick = (await ok(other, 'glob_files', { pattern: '*.txt', root: '.hidden', include_hidden: true }));
    expect(quick.files.map((f: any) => f.path)).toEqual(['secret.txt']);
    const hidden = await ok(other, 'glob_files', { pattern: '**/secret.txt' });
    expect(hidden.total).toBe(0);
    const capped = await ok(other, 'glob_files', { pattern: 'gen/d0/*.txt', max_results: 3 });
    expect(capped).toMatchObject({ total: 40, returned: 3, truncated: true });
  });

  it('refuses bad arguments with an error naming the argument', async () => {
    expect(await fails(other, 'glob_files', { pattern: '*', max_results: 0 })).toMatchObject({ argument: 'max_results', code: 'EINVALIDOPTION' });
    expect((await fails(other, 'glob_files', { pattern: '*', max_results: 0 })).error).toContain("'max_results'");
    expect(await fails(other, 'glob_files', { pattern: '*', root: 'src/app.ts' })).toMatchObject({ argument: 'root', code: 'ENOTDIR' });
    // checked before anything runs, so also with --timeout-seconds 0
    expect(await fails(main, 'glob_files', {})).toMatchObject({ argument: 'pattern' });
    expect(await fails(main, 'glob_files', { pattern: '*', include_hidden: 'yes' })).toMatchObject({ argument: 'include_hidden' });
    expect(await fails(main, 'glob_files', { pattern: '*', maxResults: 3 })).toMatchObject({ argument: 'maxResults' });
    expect(await fails(other, 'glob_files', { pattern: '*', sizes: 'no' })).toMatchObject({ argument: 'sizes' });
  });

  it('sizes: false leaves size and modified out of the same page (the output schema still holds)', async () => {
    const sized = await ok(other, 'glob_files', { pattern: 'gen/d0/*.txt', max_results: 3, sizes: true });
    const bare = await ok(other, 'glob_files', { pattern: 'gen/d0/*.txt', max_results: 3, sizes: false });
    expect(sized).toEqual(await ok(other, 'glob_files', { pattern: 'gen/d0/*.txt', max_results: 3 }));
    expect(sized.files[0]).toMatchObject({ size: expect.any(Number), modified: expect.any(String) });
    const { files, ...rest } = sized;
    expect(bare).toEqual({ ...rest, files: files.map((f: any) => ({ path: f.path, absolute_path: f.absolute_path })) });
    for (const f of bare.files) expect(Object.keys(f)).toEqual(['path', 'absolute_path']);
  });
});

describe('grep_content', () => {
  it("answers seed 004's response in snake_case, context_before / context_after included", async () => {
    const answer = await ok(other, 'grep_content', { pattern: 'def process_\\w+', file_glob: '*.py', context_lines: 2 });
    expect(answer).toMatchObject({
      total_matches: 1,
      files_with_matches: 1,
      truncated: false,
      pattern: 'def process_\\w+',
      path: repo,
      file_glob: '*.py',
    });
    expect(answer.files_searched).toBe(1);
    expect(answer.matches).toEqual([
      {
        file: 'src/util/helpers.py',
        absolute_path: join(repo, 'src/util/helpers.py'),
        line: 2,
        column: 5,
        text: '    def process_data(self, input):',
        match: 'def process_data',
        context_before: ['class DataProcessor:'],
        context_after: ['        return input  # Needle'],
      },
    ]);
  });

  it('case_sensitive, path and max_results', async () => {
    expect((await ok(other, 'grep_content', { pattern: 'needle', path: 'src' })).total_matches).toBe(0);
    const insensitive = await ok(other, 'grep_content', { pattern: 'needle', path: 'src', case_sensitive: false });
    expect(insensitive.matches.map((m: any) => m.file)).toEqual(['src/util/helpers.py']);
    const capped = await ok(other, 'grep_content', { pattern: 'needle', path: 'gen/d1', max_results: 2, context_lines: 0 });
    expect(capped).toMatchObject({ total_matches: 200, files_with_matches: 40, truncated: true });
    expect(capped.matches).toHaveLength(2);
  });

  it('refuses bad arguments with an error naming the argument', async () => {
    expect(await fails(other, 'grep_content', { pattern: '(' })).toMatchObject({ argument: 'pattern', code: 'EINVALIDREGEX' });
    expect(await fails(other, 'grep_content', { pattern: 'a', context_lines: 99 })).toMatchObject({ argument: 'context_lines' });
    expect(await fails(other, 'grep_content', { pattern: 'a', glob: '*.py' })).toMatchObject({ argument: 'glob' });
    expect((await fails(other, 'grep_content', { pattern: 'a', glob: '*.py' })).error).toContain('file_glob');
    expect(await fails(other, 'grep_content', { pattern: 'a', path: 'no/such/dir' })).toMatchObject({ argument: 'path', code: 'ENOENT' });
  });
});

describe('search_code', () => {
  it("answers seed 003's SearchResult", async () => {
    const answer = await ok(other, 'search_code', { query: 'Greeter' });
    expect(answer).toMatchObject({ query: 'Greeter', matchCount: 1, truncated: false });
    expect(answer.matches).toEqual([{ path: 'src/app.ts', lineNumber: 3, content: 'export class Greeter {' }]);
  });

  it('is_regex, case_sensitive, path, max_results and offset', async () => {
    const regex = await ok(other, 'search_code', { query: 'v1[0-9]\\b', is_regex: true, path: 'src/long.ts' });
    expect(regex.matchCount).toBe(10);
    expect((await ok(other, 'search_code', { query: 'greeter', case_sensitive: true })).matchCount).toBe(0);
    const page = await ok(other, 'search_code', { query: 'needle', path: 'gen/d2', max_results: 5, offset: 5 });
    expect(page.matches).toHaveLength(5);
    expect(page).toMatchObject({ matchCount: 200, truncated: true });
  });

  it('with_symbols labels each match with the outline item holding it', async () => {
    const answer = await ok(other, 'search_code', { query: 'helper(x)', path: 'src', with_symbols: true });
    expect(answer.matches).toEqual([
      { path: 'src/app.ts', lineNumber: 12, content: '  return helper(x) * 2;', symbol: { name: 'twice', kind: 'function', range: [11, 13] } },
    ]);
    const grepped = await ok(other, 'grep_content', { pattern: 'return input', with_symbols: true, context_lines: 0 });
    expect(grepped.matches[0].symbol).toEqual({ name: 'process_data', kind: 'method', range: [2, 3] });
  });

  it('refuses bad arguments with an error naming the argument', async () => {
    expect(await fails(other, 'search_code', { query: 'x', max_results: -1 })).toMatchObject({ argument: 'max_results' });
    expect(await fails(other, 'search_code', { query: '(', is_regex: true })).toMatchObject({ argument: 'query' });
    expect(await fails(other, 'search_code', { query: '' })).toMatchObject({ argument: 'query' });
    expect(await fails(other, 'search_code', { query: 'x', is_regex: 3 })).toMatchObject({ argument: 'is_regex' });
  });
});

describe('view_outline', () => {
  it("answers formatOutline's text", async () => {
    const r = await call(main, 'view_outline', { path: 'src/app.ts' });
    expect(r.isError).toBeFalsy();
    const expected = api.formatOutline(await api.getOutline('src/app.ts', { cwd: repo }));
    expect(text(r)).toBe(expected);
    expect(text(r)).toMatch(/class Greeter \(lines 3-9\)/);
  });

  it('imports: a block by default, one line each with imports "each", none with "none"', async () => {
    const block = text(await call(main, 'view_outline', { path: 'src/app.ts' }));
    expect(block.split('\n').slice(0, 2)).toEqual(['imports (1): ./util (line 1)', 'class Greeter (lines 3-9)']);
    expect(block).toContain('\nfunction twice(x: number): number (lines 11-13)');
    const each = text(await call(main, 'view_outline', { path: 'src/app.ts', imports: 'each' }));
    expect(each).toBe(api.formatOutline(await api.getOutline('src/app.ts', { cwd: repo, imports: 'each' })));
    expect(each.split('\n')[0]).toBe('import ./util (line 1)');
    const none = text(await call(main, 'view_outline', { path: 'src/app.ts', imports: 'none' }));
    expect(none.split('\n')[0]).toBe('class Greeter (lines 3-9)');
    expect(await fails(main, 'view_outline', { path: 'src/app.ts', imports: 'all' })).toMatchObject({ argument: 'imports' });
  });

  it('a module with 67 imports spends one line on them', async () => {
    const dir = makeTree({ 'server/index.ts': serverModule() }, 'sfq-mcp-outline-');
    try {
      const server = await startServer(['--root', dir], elsewhere);
      const blocks = text(await call(server, 'view_outline', { path: 'server/index.ts' }));
      const each = text(await call(server, 'view_outline', { path: 'server/index.ts', imports: 'each' }));
      expect(blocks).toBe(api.formatOutline(await api.getOutline('server/index.ts', { cwd: dir })));
      expect(blocks.split('\n')[0]).toMatch(/^imports \(67\): node:path, node:fs, .*, … \(lines 2-70\)$/);
      expect(blocks).toContain('\nfunction createServer(inlineConfig: InlineConfig = {}): Promise<ViteDevServer> (lines 80-82)\n');
      expect(each.split('\n').filter((l) => l.startsWith('import ')).length).toBe(67);
      expect(blocks.split('\n').length).toBe(each.split('\n').length - 66);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a missing file or a directory naming the path', async () => {
    expect(await fails(main, 'view_outline', { path: 'src/nope.ts' })).toMatchObject({ argument: 'path', code: 'ENOENT' });
    expect(await fails(main, 'view_outline', { path: 'src' })).toMatchObject({ argument: 'path', code: 'EISDIR' });
    expect(await fails(main, 'view_outline', {})).toMatchObject({ argument: 'path' });
  });
});

describe('survey, scout, sample, show', () => {
  it("answer the protocol's texts, exactly what the API (and the CLI) print", async () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['survey', { terms: ['needle', 'Needle', 'zzz'] }, { terms: ['needle', 'Needle', 'zzz'] }],
      ['survey', { terms: ['needle'], paths: ['gen/d1', 'src'], mode: 'word', max_lines: 8 }, { terms: ['needle'], paths: ['gen/d1', 'src'], mode: 'word', maxLines: 8 }],
      ['scout', { query: 'needle' }, { query: 'needle' }],
      ['scout', { query: 'needle [0-9]-1', mode: 'regex', paths: ['gen'] }, { query: 'needle [0-9]-1', mode: 'regex', paths: ['gen'] }],
      ['sample', { query: 'needle', paths: ['gen/d2'], max_bytes: 900 }, { query: 'needle', paths: ['gen/d2'], maxBytes: 900 }],
      ['show', { query: 'helper', file: 'src/app.ts', context: 1 }, { query: 'helper', file: 'src/app.ts', context: 1 }],
    ];
    for (const [tool, args, options] of cases) {
      const r = await call(main, tool, args);
      expect(r.isError, `${tool} ${text(r)}`).toBeFalsy();
      expect(text(r), tool).toBe(api[`${tool}Sync`]({ ...options, cwd: repo }).text);
    }
    const survey = text(await call(main, 'survey', { terms: ['needle', 'Needle'] }));
    expect(survey).toMatch(/^overall\[term,matches,files,dominant_path\]:\n {2}needle,2000,400,gen$/m);
    expect(survey).toMatch(/^warning: "needle" has 99% of all matching lines and dominates the comparison/m);
  });

  it('a refusal is an answer with advice, not an error', async () => {
    const r = await call(main, 'show', { query: 'needle', file: 'gen/d0/f0.txt', mode: 'identifier' });
    expect(r.isError).toBeFalsy();
    const many = await call(main, 'show', { query: 'export', file: 'src/long.ts' });
    expect(many.isError).toBeFalsy();
    expect(text(many)).toMatch(/^show: "export" \(fixed\) in src\/long\.ts: 300 matching lines, more than 20; refusing to print snippets/);
  });

  it('refuses bad arguments with an error naming the argument', async () => {
    expect(await fails(main, 'survey', { terms: [] })).toMatchObject({ argument: 'terms', code: 'EINVALIDOPTION' });
    expect(await fails(main, 'survey', { terms: ['a'], mode: 'regex' })).toMatchObject({ argument: 'mode' });
    expect(await fails(main, 'scout', { query: 'a|b', mode: 'regex' })).toMatchObject({ argument: 'query' });
    expect(await fails(main, 'scout', { query: 'x', max_lines: 99 })).toMatchObject({ argument: 'max_lines' });
    expect(await fails(main, 'sample', { query: 'x', paths: ['../elsewhere'] })).toMatchObject({ argument: 'paths', code: 'EOUTSIDEROOT' });
    expect(await fails(main, 'show', { query: 'x', file: 'src' })).toMatchObject({ argument: 'file', code: 'EISDIR' });
    expect(await fails(main, 'show', { query: 'x', file: 'src/app.ts', context: 6 })).toMatchObject({ argument: 'context' });
  });
});

describe('scroll_file', () => {
  it('scrolls a file across calls: open, scroll_down, goto, scroll_up', async () => {
    const s = await startServer(['--timeout-seconds', '0']);
    const opened = await ok(s, 'scroll_file', { action: 'open', path: 'src/long.ts' });
    expect(opened).toMatchObject({ path: 'src/long.ts', totalLines: 300, viewportStart: 1, viewportEnd: 100, linesAbove: 0, linesBelow: 200 });
    expect(opened.content.split('\n')[0]).toBe('1: export const v1 = 1;');
    expect(await ok(s, 'scroll_file', { action: 'scroll_down' })).toMatchObject({ viewportStart: 81, viewportEnd: 180 });
    expect(await ok(s, 'scroll_file', { action: 'scroll_down' })).toMatchObject({ viewportStart: 161, viewportEnd: 260 });
    const there = await ok(s, 'scroll_file', { action: 'goto', line: 150 });
    expect(there).toMatchObject({ viewportStart: 100, viewportEnd: 199 });
    expect(there.content.split('\n')[50]).toBe('150: export const v150 = 150;');
    expect(await ok(s, 'scroll_file', { action: 'scroll_up' })).toMatchObject({ viewportStart: 20, viewportEnd: 119 });
    expect(await ok(s, 'scroll_file', { action: 'open', path: 'src/app.ts', line: 5 })).toMatchObject({ path: 'src/app.ts', viewportStart: 1 });
    expect(await ok(s, 'scroll_file', { action: 'goto', line: 999 })).toMatchObject({ note: expect.stringMatching(/999/) });
  });

  it('refuses bad arguments with an error naming the argument', async () => {
    const s = await startServer(['--timeout-seconds', '0']);
    expect(await fails(s, 'scroll_file', { action: 'scroll_down' })).toMatchObject({ code: 'ENOTOPEN', argument: 'action' });
    expect(await fails(s, 'scroll_file', { action: 'open' })).toMatchObject({ argument: 'path' });
    expect(await fails(s, 'scroll_file', { action: 'jump' })).toMatchObject({ argument: 'action' });
    expect(await fails(s, 'scroll_file', { action: 'open', path: 'src' })).toMatchObject({ argument: 'path', code: 'EISDIR' });
    await ok(s, 'scroll_file', { action: 'open', path: 'src/app.ts' });
    expect(await fails(s, 'scroll_file', { action: 'goto' })).toMatchObject({ argument: 'line' });
    expect(await fails(s, 'scroll_file', { action: 'goto', line: 2.5 })).toMatchObject({ argument: 'line' });
    expect(await fails(s, 'scroll_file', { action: 'scroll_down', line: 3 })).toMatchObject({ argument: 'line' });
    expect(await fails(s, 'scroll_file', { action: 'goto', line: 3, path: 'src/long.ts' })).toMatchObject({ argument: 'path' });
    // the open file named again is fine
    expect(await ok(s, 'scroll_file', { action: 'goto', line: 3, path: 'src/app.ts' })).toMatchObject({ path: 'src/app.ts' });
  });

  it('two servers never share viewer state', async () => {
    const a = await startServer();
    const b = await startServer();
    await ok(a, 'scroll_file', { action: 'open', path: 'src/long.ts' });
    expect(await fails(b, 'scroll_file', { action: 'scroll_down' })).toMatchObject({ code: 'ENOTOPEN' });
    await ok(b, 'scroll_file', { action: 'open', path: 'src/app.ts' });
    expect(await ok(a, 'scroll_file', { action: 'scroll_down' })).toMatchObject({ path: 'src/long.ts', viewportStart: 81 });
    expect(await ok(b, 'scroll_file', { action: 'scroll_down' })).toMatchObject({ path: 'src/app.ts', viewportStart: 1 });
    expect(await ok(a, 'scroll_file', { action: 'goto', line: 290 })).toMatchObject({ path: 'src/long.ts', viewportEnd: 300 });
  });
});

describe('grep and find_files', () => {
  it("grep answers {matches: seed 002's array, truncated}, whether or not the list was cut", async () => {
    expect(await ok(main, 'grep', { pattern: 'GREETER' })).toEqual({ matches: [{ file: 'src/app.ts', line: 3, content: 'export class Greeter {' }], truncated: false });
    expect(await ok(main, 'grep', { pattern: 'GREETER', caseSensitive: true })).toEqual({ matches: [], truncated: false });
    const withContext = await ok(main, 'grep', { pattern: 'greet\\(', regex: true, contextLines: 1, path: 'src' });
    expect(withContext).toEqual({
      matches: [
        { file: 'src/app.ts', line: 6, content: '  greet(): string {', context: ['', '  greet(): string {', '    return `hello ${this.name}`;'], contextStart: 5 },
      ],
      truncated: false,
    });
    // Cut at maxResults: the first N of the API's answer, and truncated says there were more.
    const cut = await ok(main, 'grep', { pattern: 'needle', maxResults: 3 });
    expect(cut).toEqual({ matches: api.grepSync({ pattern: 'needle', maxResults: 3, cwd: repo }), truncated: true });
    const all = api.grepSync({ pattern: 'Needle', path: 'src', caseSensitive: true, cwd: repo });
    expect(all).toHaveLength(1);
    expect(await ok(main, 'grep', { pattern: 'Needle', path: 'src', caseSensitive: true, maxResults: 1 })).toEqual({ matches: all, truncated: false });
  });

  it("find_files answers {files: seed 002's array, truncated}, whether or not the list was cut", async () => {
    expect(await ok(main, 'find_files', { pattern: '*.ts', path: 'src' })).toEqual({
      files: [
        { path: 'src/app.ts', type: 'file', size: expect.any(Number) },
        { path: 'src/long.ts', type: 'file', size: expect.any(Number) },
      ],
      truncated: false,
    });
    expect(await ok(main, 'find_files', { pattern: 'util', path: 'src' })).toEqual({ files: [{ path: 'src/util', type: 'dir' }], truncated: false });
    expect(await ok(main, 'find_files', { pattern: '*.txt', maxResults: 2 })).toEqual({
      files: api.findFilesSync({ pattern: '*.txt', maxResults: 2, cwd: repo }),
      truncated: true,
    });
    expect(await ok(main, 'find_files', { pattern: '*.ts', path: 'src', maxResults: 2 })).toMatchObject({ truncated: false });
  });

  it('find_files with sizes: false lists the same entries without size; sizes stay by default', async () => {
    expect(await ok(main, 'find_files', { pattern: '*.ts', path: 'src', sizes: false })).toEqual({
      files: [
        { path: 'src/app.ts', type: 'file' },
        { path: 'src/long.ts', type: 'file' },
      ],
      truncated: false,
    });
    for (const [pattern, maxResults] of [['*.ts', 1000], ['**/*', 5], ['src/**', 100], ['gen/d1/*', 100]] as const) {
      const sized = await ok(main, 'find_files', { pattern, maxResults });
      expect(await ok(main, 'find_files', { pattern, maxResults, sizes: true })).toEqual(sized);
      expect(sized.files.some((f: any) => typeof f.size === 'number')).toBe(true);
      expect(sized.shrunk).toBeUndefined();
      const bare = await ok(main, 'find_files', { pattern, maxResults, sizes: false });
      expect(bare).toEqual({ ...sized, files: sized.files.map((f: any) => ({ path: f.path, type: f.type })) });
    }
    expect(await fails(main, 'find_files', { pattern: '*', sizes: 3 })).toMatchObject({ argument: 'sizes' });
  });

  it('refuses bad arguments with an error naming the argument', async () => {
    expect(await fails(main, 'grep', { pattern: 'x', maxResults: 'many' })).toMatchObject({ argument: 'maxResults' });
    expect(await fails(main, 'grep', { pattern: '(', regex: true })).toMatchObject({ argument: 'pattern', code: 'EINVALIDREGEX' });
    expect(await fails(main, 'grep', { pattern: 'x', contextLines: 50 })).toMatchObject({ argument: 'contextLines' });
    expect(await fails(main, 'find_files', { pattern: '*', maxResults: 0 })).toMatchObject({ argument: 'maxResults' });
    expect(await fails(main, 'find_files', { pattern: '*', path: 'src/app.ts/x' })).toMatchObject({ argument: 'path' });
  });
});

describe('smart_file_query', () => {
  it("answers seed 000's payload", async () => {
    const answer = await ok(main, 'smart_file_query', { regex: 'class (\\w+)', glob: 'src/**', contextLines: 1 });
    expect(Object.keys(answer)).toEqual(['query', 'results', 'skipped', 'aggregate']);
    expect(answer.query).toMatchObject({ regex: 'class (\\w+)', glob: ['src/**'], contextLines: 1 });
    expect(answer.results.map((r: any) => [r.path, r.matchCount])).toEqual([
      ['src/app.ts', 1],
      ['src/util/helpers.py', 1],
    ]);
    expect(answer.results[0].matches[0]).toEqual({
      lineNumber: 3,
      column: 8,
      match: 'class Greeter',
      context: { before: [''], line: 'export class Greeter {', after: ['  constructor(private name: string) {}'] },
    });
  });

  it('maxLineLength reaches smartFileQuery: long lines come back as a window around the match', async () => {
    const args = { regex: 'needle', glob: 'wide.txt' };
    expect(await ok(main, 'smart_file_query', args)).toMatchObject({ aggregate: { totalMatches: 0 } });
    const wide = { regex: '^7 w', glob: 'wide.txt', contextLines: 1, maxLineLength: 40 };
    const answer = await ok(main, 'smart_file_query', wide);
    // The server's searches run with a result budget of their own (searchResultBytes), echoed.
    expect(answer).toEqual(api.smartFileQuerySync({ ...wide, cwd: repo, maxResultBytes: searchResultBytes(20000) }));
    expect(answer.query.maxLineLength).toBe(40);
    const { context } = answer.results[0].matches[0];
    for (const line of [context.line, ...context.before, ...context.after]) expect(line.length).toBeLessThan(45);
    expect(context.line).toMatch(/^7 w+…$/);
    // 0 is off: whole lines, as without it.
    const off = await ok(main, 'smart_file_query', { ...wide, maxLineLength: 0 });
    expect(off.results[0].matches[0].context.line).toBe(`7 ${'w'.repeat(600)}`);
    expect(await fails(main, 'smart_file_query', { ...wide, maxLineLength: -1 })).toMatchObject({ argument: 'maxLineLength' });
  });

  it('refuses bad arguments with an error naming the argument', async () => {
    expect(await fails(main, 'smart_file_query', { regex: 'a', flags: 'y' })).toMatchObject({ argument: 'flags' });
    expect(await fails(main, 'smart_file_query', { regex: 'a', flags: 'gg' })).toMatchObject({ argument: 'flags' });
    expect(await fails(main, 'smart_file_query', { regex: '[' })).toMatchObject({ argument: 'regex' });
    expect(await fails(main, 'smart_file_query', { regex: 'a', contextLines: 21 })).toMatchObject({ argument: 'contextLines' });
    expect(await fails(main, 'smart_file_query', { regex: 'a', encoding: 'ebcdic' })).toMatchObject({ argument: 'encoding' });
    expect(await fails(main, 'smart_file_query', { flags: 'i' })).toMatchObject({ argument: 'regex' });
  });
});

describe('the root', () => {
  it('refuses every path argument that leaves the root', async () => {
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['grep_content', { pattern: 'a', path: '..' }, 'path'],
      ['grep_content', { pattern: 'a', path: '/etc' }, 'path'],
      ['glob_files', { pattern: '*', root: '../' }, 'root'],
      ['search_code', { query: 'a', path: '/etc/passwd' }, 'path'],
      ['view_outline', { path: '../outside.ts' }, 'path'],
      ['scroll_file', { action: 'open', path: '/etc/hostname' }, 'path'],
      ['grep', { pattern: 'a', path: '..' }, 'path'],
      ['find_files', { pattern: '*', path: '/' }, 'path'],
    ];
    for (const [tool, args, argument] of calls) {
      expect(await fails(other, tool, args), `${tool} ${JSON.stringify(args)}`).toMatchObject({ code: 'EOUTSIDEROOT', argument });
    }
  });

  it('--root serves that directory whatever the cwd', async () => {
    expect((await ok(other, 'grep', { pattern: 'Greeter' })).matches[0].file).toBe('src/app.ts');
    expect(await ok(other, 'scroll_file', { action: 'open', path: join(repo, 'src/app.ts') })).toMatchObject({ path: 'src/app.ts' });
  });
});

describe('background execution', () => {
  it('a search still running at timeout_seconds goes on as a task: task_status, then task_result', async () => {
    const started = await ok(main, 'grep_content', { pattern: SLOW, path: 'slow/small' });
    expect(started).toMatchObject({ status: 'running', task_id: expect.stringMatching(/^task-\d+$/), tool: 'grep_content' });
    expect(started.message).toContain('task_result');
    const status = await ok(main, 'task_status', { task_id: started.task_id });
    expect(status).toMatchObject({ task_id: started.task_id, tool: 'grep_content', arguments: { pattern: SLOW, path: 'slow/small' } });
    expect(typeof status.elapsed_seconds).toBe('number');
    const listed = await ok(main, 'task_status');
    expect(listed.tasks.map((t: any) => t.task_id)).toContain(started.task_id);
    const done = await result(main, started.task_id);
    expect(done).toMatchObject({ task_id: started.task_id, status: 'completed', tool: 'grep_content' });
    expect(done.result).toMatchObject({ total_matches: 0, skipped: { budget: 8 }, truncated: false, complete: true });
    // kept: the result can be fetched again, and the status says completed
    expect((await ok(main, 'task_result', { task_id: started.task_id })).result).toEqual(done.result);
    expect(await ok(main, 'task_status', { task_id: started.task_id })).toMatchObject({ status: 'completed', finished_at: expect.any(String) });
  });

  it('glob_files and search_code go to the background too', async () => {
    const glob = await ok(main, 'glob_files', { pattern: 'src/*.ts' });
    expect(glob.status).toBe('running');
    expect((await result(main, glob.task_id)).result.total).toBe(2);
    const search = await ok(main, 'search_code', { query: 'Greeter' });
    expect(search.status).toBe('running');
    expect((await result(main, search.task_id)).result.matchCount).toBe(1);
  });

  it('waits timeout_seconds from the project file, then answers "running"; task_cancel stops the search', async () => {
    const slow = await startServer([], slowRepo);
    const t0 = Date.now();
    const started = await ok(slow, 'grep_content', { pattern: SLOW });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(started).toMatchObject({ status: 'running', task_id: expect.any(String) });
    expect(started.message).toMatch(/after 1 s/);
    // The engine's counters, polled while the search runs (the fast chunk may
    // not be through yet on a loaded or emulated machine: poll until its hits
    // show; the 400 slow files keep the search running for far longer).
    let status = await ok(slow, 'task_status', { task_id: started.task_id });
    for (const until = Date.now() + 30_000; status.progress?.matches !== 2 && status.status === 'running' && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 50));
      status = await ok(slow, 'task_status', { task_id: started.task_id });
    }
    expect(status).toMatchObject({ status: 'running' });
    expect(status.progress).toMatchObject({ files_total: expect.any(Number), files_searched: expect.any(Number), matches: 2 });
    // The first hits already found (a/ comes before the slow files).
    expect(status.progress.first_hits).toEqual([
      { path: 'a/hits-00.txt', line: 1, text: 'one aab' },
      { path: 'a/hits-00.txt', line: 3, text: 'two aaab' },
    ]);
    expect(status.progress.files_total).toBeGreaterThan(0);
    expect(status.progress.files_searched).toBeLessThanOrEqual(status.progress.files_total);
    expect(await ok(slow, 'task_cancel', { task_id: started.task_id })).toMatchObject({ status: 'cancelled' });
    expect(await ok(slow, 'task_status', { task_id: started.task_id })).toMatchObject({ status: 'cancelled' });
    expect(await ok(slow, 'task_result', { task_id: started.task_id })).toMatchObject({ status: 'cancelled' });
    expect((await ok(slow, 'task_cancel', { task_id: started.task_id })).message).toMatch(/already ended/);
    // --timeout-seconds wins over the project file (seed 004: runtime config first)
    const flagged = await startServer(['--timeout-seconds', '0'], slowRepo);
    const t1 = Date.now();
    const quick = await ok(flagged, 'glob_files', { pattern: '*.json' });
    expect(quick.status).toBe('running');
    expect(Date.now() - t1).toBeLessThan(900);
  });

  it('a failed background search reports its error through task_result', async () => {
    const started = await ok(main, 'grep_content', { pattern: 'x', path: 'no/such' });
    const r = await call(main, 'task_result', { task_id: started.task_id, wait_seconds: 30 });
    expect(r.isError).toBe(true);
    expect(JSON.parse(text(r))).toMatchObject({ status: 'failed', code: 'ENOENT', argument: 'path' });
  });

  it('unknown task ids and bad task arguments are errors naming the argument', async () => {
    expect(await fails(main, 'task_result', { task_id: 'task-99999' })).toMatchObject({ code: 'ENOTASK', argument: 'task_id' });
    expect(await fails(main, 'task_cancel', {})).toMatchObject({ argument: 'task_id' });
    expect(await fails(main, 'task_result', { task_id: 'task-1', wait_seconds: 600 })).toMatchObject({ argument: 'wait_seconds' });
  });

  it('runs at most 32 searches at once and refuses more with a clear message', async () => {
    const s = await startServer(['--timeout-seconds', '0']);
    const ids: string[] = [];
    for (let i = 0; i < 32; i++) ids.push((await ok(s, 'grep_content', { pattern: SLOW, path: 'slow/big' })).task_id);
    const refused = await fails(s, 'grep_content', { pattern: SLOW, path: 'slow/big' });
    expect(refused.code).toBe('ETOOMANYTASKS');
    expect(refused.error).toMatch(/32 searches are already running.*task_cancel/);
    for (const id of ids) expect(await ok(s, 'task_cancel', { task_id: id })).toMatchObject({ status: 'cancelled' });
    const again = await ok(s, 'grep_content', { pattern: 'Greeter', path: 'src' });
    expect((await result(s, again.task_id)).result.total_matches).toBe(1);
  });
});

describe('the result budget', () => {
  const BUDGET = 20000;

  /**
   * A shrunk answer (of `other`: --max-result-chars 5000, 5000 tokens): its
   * compact text within both budgets, every hit it keeps shown, and its head
   * line saying what was left out and how to narrow.
   */
  function checkShrunk(r: Result, budget: number, tool: string) {
    const body = text(r);
    expect(body.length).toBeLessThanOrEqual(budget);
    expect(estimateTokens(body)).toBeLessThanOrEqual(5000);
    const value: any = r.structuredContent;
    expect(value.truncated).toBe(true);
    expect(value.shrunk.max_result_chars).toBe(budget);
    expect(value.shrunk.max_result_tokens).toBe(5000);
    expect(value.shrunk.shown).toBeGreaterThan(0);
    expect(value.shrunk.shown).toBeLessThan(value.shrunk.of);
    expect(value.shrunk.hint).toMatch(/Narrow with/);
    checkCompact(other, tool, value, body);
    const head = body.split('\n')[0];
    expect(head).toContain(`it shows the first ${value.shrunk.shown} of its ${value.shrunk.of} `);
    expect(head).toMatch(/Narrow with/);
    expect(head).toMatch(/ by directory: [^ ]+ \d+/);
    return value;
  }

  /** The same call with format "json": the answer as before the compact texts, JSON under the character budget. */
  async function checkJson(tool: string, args: Record<string, unknown>, budget: number, compact: any) {
    const r = await call(other, tool, { ...args, format: 'json' });
    const body = text(r);
    expect(body.length).toBeLessThanOrEqual(budget);
    const value = JSON.parse(body);
    expect(r.structuredContent).toEqual(value);
    expect(value.shrunk).toMatchObject({ max_result_chars: budget });
    expect(value.shrunk.max_result_tokens).toBeUndefined();
    // The compact text fits more hits in the same budget.
    expect(compact.shrunk.shown).toBeGreaterThan(value.shrunk.shown);
    return value;
  }

  it('a huge grep_content answer is shrunk to valid JSON under the budget: counts per directory and file, first hits, a hint', async () => {
    const started = await ok(main, 'grep_content', { pattern: 'needle', path: 'gen', max_results: 5000 });
    const done = await result(main, started.task_id);
    const r = await call(main, 'task_result', { task_id: started.task_id });
    expect(text(r).length).toBeLessThanOrEqual(BUDGET);
    const value = done.result;
    expect(value.truncated).toBe(true);
    expect(value.total_matches).toBe(2000);
    expect(value.shrunk.of).toBe(2000);
    expect(value.shrunk.max_result_chars).toBe(BUDGET);
    expect(value.matches.length).toBe(value.shrunk.shown);
    expect(value.matches[0]).toMatchObject({ file: 'gen/d0/f0.txt', line: 1 });
    expect(value.shrunk.by_directory['gen/d0']).toBe(200);
    expect(Object.keys(value.shrunk.by_file)).toHaveLength(50);
    expect(value.shrunk.more_files).toBe(350);
    expect(value.shrunk.hint).toMatch(new RegExp(`offset=${value.shrunk.shown}\\b`));
  });

  it('in the foreground too, for every kind of answer', async () => {
    // --max-result-chars 5000
    const grepContent = await call(other, 'grep_content', { pattern: 'needle', path: 'gen', max_results: 5000 });
    // Its search stopped keeping lines at the server's result budget (64 × 5000 characters):
    // the counts are exact, the lines per directory those kept.
    const shrunkContent = checkShrunk(grepContent, 5000, 'grep_content');
    expect(shrunkContent).toMatchObject({ total_matches: 2000, truncated_by: 'maxResultBytes' });
    expect(shrunkContent.shrunk.by_directory).toMatchObject({ 'gen/d0': 200 });
    expect(shrunkContent.shrunk.of).toBeLessThan(2000);
    expect(shrunkContent.shrunk.hint).toMatch(new RegExp(`page on with offset=${shrunkContent.shrunk.shown}\\.$`));
    await checkJson('grep_content', { pattern: 'needle', path: 'gen', max_results: 5000 }, 5000, shrunkContent);
    const searchArgs = { query: 'needle', path: 'gen', max_results: 1000 };
    const search = checkShrunk(await call(other, 'search_code', searchArgs), 5000, 'search_code');
    expect(search.matchCount).toBe(2000);
    await checkJson('search_code', searchArgs, 5000, search);
    const globbed = checkShrunk(await call(other, 'glob_files', { pattern: '**/*' }), 5000, 'glob_files');
    expect(globbed.shrunk.by_directory['gen/d0']).toBe(40);
    expect(globbed.shrunk.by_file).toBeUndefined();
    await checkJson('glob_files', { pattern: '**/*' }, 5000, globbed);
    // grep and find_files keep the shape they always have: {matches | files, truncated}.
    const grepCall = await call(other, 'grep', { pattern: 'needle', maxResults: 1000 });
    const grep = checkShrunk(grepCall, 5000, 'grep');
    expect(grep.matches.length).toBe(grep.shrunk.shown);
    expect(Object.keys(grep)).toEqual(['matches', 'truncated', 'shrunk']);
    await checkJson('grep', { pattern: 'needle', maxResults: 1000 }, 5000, grep);
    const found = checkShrunk(await call(other, 'find_files', { pattern: '*.txt', maxResults: 1000 }), 5000, 'find_files');
    expect(found.files.length).toBe(found.shrunk.shown);
    await checkJson('find_files', { pattern: '*.txt', maxResults: 1000 }, 5000, found);
    const sfqArgs = { regex: 'needle', glob: 'gen/**', includeAllContent: true };
    const sfq = checkShrunk(await call(other, 'smart_file_query', sfqArgs), 5000, 'smart_file_query');
    expect(sfq.aggregate.totalMatches).toBe(500);
    expect(sfq.query.maxResultBytes).toBe(searchResultBytes(5000));
    expect(sfq.results[0].content).toBeUndefined();
    expect(sfq.shrunk.hint).toMatch(/File contents were left out/);
    await checkJson('smart_file_query', sfqArgs, 5000, sfq);
  });

  it('a window of very long lines is shrunk with a way to see the rest', async () => {
    const r = await call(other, 'scroll_file', { action: 'open', path: 'wide.txt' });
    const body = text(r);
    expect(body.length).toBeLessThanOrEqual(5000);
    expect(estimateTokens(body)).toBeLessThanOrEqual(5000);
    const view: any = r.structuredContent;
    expect(view).toMatchObject({ path: 'wide.txt', viewportStart: 1, viewportEnd: 100, truncated: true });
    const shown = view.content.split('\n');
    expect(shown.length).toBe(view.shrunk.shown);
    expect(shown[0]).toMatch(/^1: 1 w+… \[\d+ more characters\]$/);
    expect(view.shrunk.hint).toMatch(new RegExp(`line ${shown.length + 1 + 50}`));
    // The text: a head line (the window, what is below, the hint), then the lines kept.
    expect(body).toBe(`wide.txt: lines 1-100 of 150; 50 below (scroll_down); ${view.shrunk.hint}\n${view.content}`);
    const json = await call(other, 'scroll_file', { action: 'open', path: 'wide.txt', format: 'json' });
    expect(text(json).length).toBeLessThanOrEqual(5000);
    expect(JSON.parse(text(json))).toEqual(json.structuredContent);
  });

  it('a long outline is cut at a line with a note', async () => {
    const r = await call(other, 'view_outline', { path: 'big/many.ts' });
    expect(r.isError).toBeFalsy();
    expect(text(r).length).toBeLessThanOrEqual(5000);
    expect(text(r)).toMatch(/^function fn0\(a: number, b: string\): void \(line 1\)/);
    expect(text(r)).toMatch(/\[truncated: true\. .*scroll_file.*\]$/);
  });
});

describe('the protocol', () => {
  it('survives a malformed line and an unknown method', async () => {
    const s = await startServer();
    // The transport has no public way to write raw bytes; its child process does.
    const child = (s.transport as unknown as { _process: { stdin: NodeJS.WritableStream } })._process;
    child.stdin.write('this is not JSON\n');
    child.stdin.write('{"jsonrpc":"2.0","id":"x","method":"tools/call"\n');
    await expect(s.client.request({ method: 'no/such/method', params: {} } as any, (await import('@modelcontextprotocol/sdk/types.js')).ResultSchema)).rejects.toThrow(/not found/i);
    expect((await ok(s, 'grep', { pattern: 'Greeter' })).matches).toHaveLength(1);
    expect(s.stderr()).toMatch(/JSON/);
  });

  it('an unknown tool is an error result', async () => {
    const r = await call(main, 'no_such_tool', {});
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/unknown tool 'no_such_tool'/);
  });

  it('writes only protocol to stdout and ends, with its running tasks, when stdin closes', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--timeout-seconds', '0'], { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const reply = (id: number) =>
      new Promise<any>((resolveReply) => {
        const check = () => {
          const line = stdout.split('\n').find((l) => l.includes(`"id":${id}`));
          if (line) resolveReply(JSON.parse(line));
          else setTimeout(check, 20);
        };
        check();
      });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    expect((await reply(1)).result.serverInfo.name).toBe('smart-file-query');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'grep_content', arguments: { pattern: SLOW, path: 'slow/big' } } });
    const running = JSON.parse((await reply(2)).result.content[0].text);
    expect(running.status).toBe('running');
    const t0 = Date.now();
    const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000); // the 400-file search alone takes far longer
    for (const line of stdout.split('\n').filter(Boolean)) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    expect(stderr).toMatch(/smart-file-query mcp: serving/);
  });
});

describe('the command line', () => {
  const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, 'mcp', ...args], { cwd: repo, encoding: 'utf8', input: '' });

  it('--help prints the usage', () => {
    expect(cli('--help')).toMatchObject({ status: 0, stdout: MCP_USAGE, stderr: '' });
  });

  it('--help names every tool the server lists', async () => {
    const { tools } = await main.client.listTools();
    expect(tools).toHaveLength(15);
    const help = cli('--help').stdout.replace(/\s+/g, ' ');
    for (const { name } of tools) expect(help, name).toMatch(new RegExp(`[ :]${name}[,. ]`));
  });

  it('refuses bad flags with the usage', () => {
    for (const [args, message] of [
      [['--timeout-seconds', 'soon'], "--timeout-seconds must be a number from 0 to 86400, got 'soon'"],
      [['--max-result-chars', '10'], "--max-result-chars must be an integer from 2000 to 100000000, got '10'"],
      [['--max-result-tokens', '100'], "--max-result-tokens must be an integer from 500 to 25000000, got '100'"],
      [['--root', join(repo, 'nope')], `--root: cannot use '${join(repo, 'nope')}': ENOENT`],
      [['--root', join(repo, 'wide.txt')], `--root: '${join(repo, 'wide.txt')}' is not a directory`],
      [['--bogus'], "Unknown option '--bogus'"],
    ] as Array<[string[], string]>) {
      expect(cli(...args)).toMatchObject({ status: 1, stdout: '', stderr: `smart-file-query mcp: ${message}\n\n${MCP_USAGE}` });
    }
  });

  it('ends at once when stdin is empty', () => {
    const r = cli();
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('one warm session per root', () => {
  it('answers every tool through a session: the cold answers, unchanged files taken from memory, a changed one read again', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`src/m${i}.ts`] = `export function warm${i}() { return 'needle ${i}'; }\n`;
    const root = makeTree(files, 'sfq-mcp-warm-');
    let server: Server | undefined;
    try {
      // Older than the racy window (2 s): their contents may be kept.
      await new Promise((r) => setTimeout(r, 2200));
      server = await startServer(['--timeout-seconds', '30'], root);
      const ask = { regex: 'needle \\d+', contextLines: 0 };
      const first = await ok(server, 'smart_file_query', ask);
      const cold = () => api.smartFileQuerySync({ ...ask, cwd: root, maxResultBytes: searchResultBytes(20000) });
      expect(first).toEqual(cold());
      const again = await ok(server, 'smart_file_query', ask);
      expect(again).toEqual(first);
      let status = await ok(server, 'task_status', {});
      // (A watch on Linux; elsewhere the stat revalidation of every call.)
      const freshness = process.platform === 'linux' ? 'watcherDrain' : 'statRevalidation';
      expect(status.session).toMatchObject({ calls: 2, files_known: 20, freshness, last_call_files_reused: 20, last_call_files_reread: 0 });
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(root, 'src/m3.ts'), "export function warm3() { return 'changed'; }\n");
      const after = await ok(server, 'smart_file_query', ask);
      expect(after).toEqual(cold());
      expect(after.aggregate.totalMatches).toBe(19);
      status = await ok(server, 'task_status', {});
      expect(status.session).toMatchObject({ calls: 3, last_call_files_reused: 19, last_call_files_reread: 1 });
      // The other tools go through it too.
      const search = await ok(server, 'search_code', { query: 'warm1' });
      expect(search.matchCount).toBe(api.searchCodeSync('warm1', { cwd: root }).matchCount);
      expect((await ok(server, 'task_status', {})).session.calls).toBe(4);
    } finally {
      // The server's session holds folders open: Windows deletes them once it is gone.
      await server?.client.close();
      rmSync(root, { recursive: true, force: true, maxRetries: 20 });
    }
  });
});
