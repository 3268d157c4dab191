// `smart-file-query find` (findFiles from a shell) and `-C DIR` / `--cwd DIR`
// for the default command and every subcommand, through the real CLI.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFilesSync, searchCodeSync, smartFileQuerySync, surveySync } from '../index.js';
import { FIND_USAGE } from '../lib/cli/find.mjs';
import { MCP_USAGE } from '../lib/cli/mcp.mjs';
import { gitInit, writeTree } from './helpers/tree';

const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');

let parent: string; // holds the repository: the process's cwd for the --cwd tests
let repo: string;

beforeAll(() => {
  parent = mkdtempSync(join(tmpdir(), 'sfq-find-'));
  repo = join(parent, 'repo');
  mkdirSync(repo);
  writeTree(
    repo,
    {
      '.gitignore': 'ignored/\n',
      'README.md': 'needle in the readme\n',
      'src/app.ts': 'export class Greeter {\n  greet() { return "needle"; }\n}\n',
      'src/util/helpers.ts': 'export const needle = 1;\n',
      'src/util/notes.txt': 'no match\n',
      'lib/index.js': 'module.exports = "needle";\n',
      'node_modules/pkg/index.ts': 'needle\n',
      'ignored/x.ts': 'needle\n',
    },
  );
  gitInit(repo);
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', input: '' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('find', () => {
  it('prints the matching paths one per line, relative, folders with a trailing /', () => {
    expect(cli(repo, 'find', '*.ts')).toEqual({ status: 0, stdout: 'src/app.ts\nsrc/util/helpers.ts\n', stderr: '' });
    expect(cli(repo, 'find', 'util')).toEqual({ status: 0, stdout: 'src/util/\n', stderr: '' });
    // PATH narrows; the paths stay relative to the root.
    expect(cli(repo, 'find', '*', 'src/util')).toEqual({ status: 0, stdout: 'src/util/helpers.ts\nsrc/util/notes.txt\n', stderr: '' });
    // Nothing found is an answer.
    expect(cli(repo, 'find', '*.rs')).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it("--json prints findFiles' answer", () => {
    const r = cli(repo, 'find', '*.ts', '--json');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(findFilesSync({ pattern: '*.ts', cwd: repo }))}\n`);
    expect(JSON.parse(r.stdout)).toEqual([
      { path: 'src/app.ts', type: 'file', size: expect.any(Number) },
      { path: 'src/util/helpers.ts', type: 'file', size: expect.any(Number) },
    ]);
  });

  it('--max-results keeps the first N in path order and says on stderr when there were more', () => {
    const all = findFilesSync({ pattern: '*', cwd: repo }).map((f) => f.path);
    expect(all.length).toBeGreaterThan(3);
    const cut = cli(repo, 'find', '*', '--max-results', '2');
    expect(cut.status).toBe(0);
    expect(cut.stdout.split('\n').filter(Boolean).map((p) => p.replace(/\/$/, ''))).toEqual(all.slice(0, 2));
    expect(cut.stderr).toBe('⚠️  Stopped at --max-results (2): there are more; raise --max-results or narrow PATTERN or PATH\n');
    const json = cli(repo, 'find', '*', '--max-results=2', '--json');
    expect(JSON.parse(json.stdout)).toEqual(findFilesSync({ pattern: '*', cwd: repo, maxResults: 2 }));
    // Exactly as many as there are: no warning.
    expect(cli(repo, 'find', '*', '--max-results', String(all.length)).stderr).toBe('');
  });

  it('refuses bad command lines with its usage, and bad paths or options with one line', () => {
    expect(cli(repo, 'find')).toEqual({ status: 1, stdout: '', stderr: `smart-file-query find: expected PATTERN and at most one PATH, got 0 words\n\n${FIND_USAGE}` });
    expect(cli(repo, 'find', '*', '--bogus')).toEqual({ status: 1, stdout: '', stderr: `smart-file-query find: Unknown option '--bogus'\n\n${FIND_USAGE}` });
    const zero = cli(repo, 'find', '*', '--max-results', '0');
    expect(zero.status).toBe(1);
    expect(zero.stderr).toMatch(/^smart-file-query find: --max-results must be [^\n]*0\n\nUsage: smart-file-query find /);
    const outside = cli(repo, 'find', '*', '..');
    expect(outside).toMatchObject({ status: 1, stdout: '' });
    expect(outside.stderr).toMatch(/^smart-file-query find: [^\n]*outside the root[^\n]*\(EOUTSIDEROOT\)\n$/);
  });
});

describe('-C DIR / --cwd DIR', () => {
  it('the default command searches DIR (relative to the process cwd), paths relative to it', () => {
    const expected = JSON.stringify(smartFileQuerySync({ regex: 'needle', cwd: repo }));
    expect(JSON.parse(expected).results.length).toBeGreaterThan(2);
    for (const args of [['-C', 'repo'], ['--cwd', 'repo'], ['--cwd=repo'], ['-Crepo'], ['-C', '.', '-C', 'repo']]) {
      expect({ args, ...cli(parent, ...args, '--regex', 'needle') }).toEqual({ args, status: 0, stdout: expected, stderr: '' });
    }
    // After the other flags too, and relative values chain as git -C's do.
    expect(cli(parent, '--regex', 'needle', '-C', 'repo').stdout).toBe(expected);
    expect(cli(parent, '-C', 'repo', '-C', 'src', '--regex', 'needle').stdout).toBe(JSON.stringify(smartFileQuerySync({ regex: 'needle', cwd: join(repo, 'src') })));
  });

  it('every subcommand takes it, after the subcommand word or before it', () => {
    const cases: Array<[string[], string]> = [
      [['find', '*.ts'], 'src/app.ts\nsrc/util/helpers.ts\n'],
      [['search', 'needle'], `${JSON.stringify(searchCodeSync('needle', { cwd: repo }))}\n`],
      [['survey', '--term', 'needle', 'src'], surveySync({ terms: ['needle'], paths: ['src'], cwd: repo }).text],
    ];
    for (const [[word, ...rest], stdout] of cases) {
      for (const args of [[word, '-C', 'repo', ...rest], [word, ...rest, '--cwd=repo'], ['-C', 'repo', word, ...rest], ['--cwd', 'repo', word, ...rest]]) {
        expect({ args, ...cli(parent, ...args) }).toEqual({ args, status: 0, stdout, stderr: '' });
      }
    }
    const outline = cli(parent, 'outline', 'src/app.ts', '-C', 'repo');
    expect(outline).toMatchObject({ status: 0, stderr: '' });
    expect(outline.stdout).toMatch(/^class Greeter \(lines 1-3\)/);
    for (const word of ['scout', 'sample']) {
      const r = cli(parent, '-C', 'repo', word, 'needle', 'src');
      expect({ word, status: r.status, stderr: r.stderr }).toEqual({ word, status: 0, stderr: '' });
      expect(r.stdout).toContain('src/util/helpers.ts');
    }
    const show = cli(parent, 'show', 'needle', 'src/app.ts', '--cwd', 'repo');
    expect(show).toMatchObject({ status: 0, stderr: '' });
    expect(show.stdout).toContain('return "needle"');
    // Without it, the same command runs in the process's cwd.
    expect(cli(parent, 'find', '*.ts').stdout).toBe('repo/src/app.ts\nrepo/src/util/helpers.ts\n');
  });

  it('a missing DIR or a file is a clear error, as each command reports bad input', () => {
    const brief = (message: string) => `smart-file-query: ${message}\nUsage: smart-file-query --regex "<pattern>" [options]; run smart-file-query --help for the options\n`;
    expect(cli(parent, '-C', 'nope', '--regex', 'x')).toEqual({ status: 1, stdout: '', stderr: brief("--cwd: no such directory 'nope'") });
    expect(cli(parent, '--regex', 'x', '--cwd', 'repo/README.md')).toEqual({ status: 1, stdout: '', stderr: brief("--cwd: 'repo/README.md' is not a directory") });
    for (const word of ['find', 'search']) {
      expect(cli(parent, word, 'x', '-C', 'nope')).toEqual({ status: 1, stdout: '', stderr: `smart-file-query ${word}: --cwd: no such directory 'nope'\n` });
    }
    expect(cli(parent, '-C', 'repo/README.md', 'outline', 'a.ts')).toEqual({ status: 1, stdout: '', stderr: "smart-file-query outline: --cwd: 'repo/README.md' is not a directory\n" });
    // The protocol commands: invalid input, exit 2, one line.
    expect(cli(parent, 'scout', 'x', '-C', 'nope')).toEqual({ status: 2, stdout: '', stderr: "smart-file-query scout: --cwd: no such directory 'nope'\n" });
    // mcp reports it as it reports a bad --root: with its usage.
    expect(cli(parent, 'mcp', '-C', 'nope')).toEqual({ status: 1, stdout: '', stderr: `smart-file-query mcp: --cwd: no such directory 'nope'\n\n${MCP_USAGE}` });
    expect(cli(parent, '-C')).toMatchObject({ status: 1, stdout: '', stderr: expect.stringMatching(/^smart-file-query: Missing value for -C\n\nUsage: /) });
  });

  it('mcp serves DIR (an MCP client over stdio), and --root is relative to it', async () => {
    for (const args of [['-C', 'repo'], ['-C', '.', '--root', 'repo']]) {
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd: parent, stderr: 'pipe' });
      const client = new Client({ name: 'sfq-cwd-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const r = (await client.callTool({ name: 'glob_files', arguments: { pattern: '**/*.ts' } })) as {
          content: Array<{ text: string }>;
          structuredContent: any;
          isError?: boolean;
        };
        expect(r.isError, r.content[0].text).toBeFalsy();
        expect(r.content[0].text).toBe('2 files\nsrc/app.ts\nsrc/util/helpers.ts');
        const answer = r.structuredContent;
        expect(answer.root).toBe(repo);
        expect(answer.files.map((f: { path: string }) => f.path)).toEqual(['src/app.ts', 'src/util/helpers.ts']);
      } finally {
        await client.close();
      }
    }
  });
});
