// `smart-file-query search QUERY [PATH] [options]` through the real CLI, run
// in a generated repository: stdout is searchCode's result as JSON, equal to
// what the API gives for the same options.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchCodeSync, type SearchOptions } from '../index.js';
import { gitRepo, numberedLines } from './helpers/agent-repos';

const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');

let repo: string;
beforeAll(() => {
  repo = gitRepo(
    {
      '.gitignore': '*.log\n',
      'src/app.ts': 'const x = a.b(1);\nconst needle = 1;\nNeedle again\n',
      'src/view.tsx': 'export const Needle = () => null; // needle\n',
      'src/gen/out.ts': 'needle generated\n',
      'lib/x/deep.js': 'needle deep\n',
      'lib/util.js': 'needle(1);\nneedle(22);\n',
      'docs/readme.md': 'The NEEDLE in docs\n',
      'debug.log': 'needle ignored\n',
      'node_modules/dep/index.js': 'needle dep\n',
      'many.txt': numberedLines('needle many', 80),
    },
    'sfq-cli-search-',
  );
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'search', ...args], { cwd: repo, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('smart-file-query search', () => {
  const cases: Array<[string[], string, SearchOptions]> = [
    [['needle'], 'needle', {}],
    [['Needle'], 'Needle', {}],
    [['needle', 'src'], 'needle', { path: 'src' }],
    [['needle', 'src/app.ts'], 'needle', { path: 'src/app.ts' }],
    [['a.b('], 'a.b(', {}],
    [['needle\\(\\d{2}\\)', '--regex'], 'needle\\(\\d{2}\\)', { isRegex: true }],
    [['needle', '--case-sensitive'], 'needle', { caseSensitive: true }],
    [['Needle', '-i'], 'Needle', { caseSensitive: false }],
    [['Needle', '--ignore-case'], 'Needle', { caseSensitive: false }],
    [['needle', '--max-results', '3'], 'needle', { maxResults: 3 }],
    [['needle', '--max-results=200'], 'needle', { maxResults: 200 }],
    [['needle', '--ext', '.ts,.tsx'], 'needle', { includeExtensions: ['.ts', '.tsx'] }],
    [['needle', '--ext', 'js'], 'needle', { includeExtensions: ['js'] }],
    [['needle', '--exclude', 'gen'], 'needle', { excludePatterns: ['gen'] }],
    [['needle', '--exclude', '**/x/**', '--exclude', 'many.txt'], 'needle', { excludePatterns: ['**/x/**', 'many.txt'] }],
    [['needle', 'src', '--regex', '--case-sensitive', '--max-results', '2', '--ext', '.ts', '--exclude', 'gen'], 'needle', {
      path: 'src', isRegex: true, caseSensitive: true, maxResults: 2, includeExtensions: ['.ts'], excludePatterns: ['gen'],
    }],
    [['no-such-text-anywhere'], 'no-such-text-anywhere', {}],
  ];
  for (const [args, query, options] of cases) {
    it(`search ${args.join(' ')} prints searchCode's result as JSON`, () => {
      const r = cli(...args);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(searchCodeSync(query, { cwd: repo, ...options }));
    });
  }

  it('the JSON holds what a user checks: matches, exact matchCount past the cap, truncated', () => {
    const out = JSON.parse(cli('needle', '--max-results', '3').stdout);
    expect(out.query).toBe('needle');
    expect(out.matches).toEqual([
      { path: 'docs/readme.md', lineNumber: 1, content: 'The NEEDLE in docs' },
      { path: 'lib/util.js', lineNumber: 1, content: 'needle(1);' },
      { path: 'lib/util.js', lineNumber: 2, content: 'needle(22);' },
    ]);
    expect(out.matchCount).toBe(1 + 2 + 1 + 80 + 2 + 1 + 1);
    expect(out.truncated).toBe(true);
    const cs = JSON.parse(cli('needle', '--case-sensitive', '--ext', '.ts,.tsx', '--exclude', 'gen').stdout);
    expect(cs.matches.map((m: { path: string; lineNumber: number }) => `${m.path}:${m.lineNumber}`)).toEqual(['src/app.ts:2', 'src/view.tsx:1']);
  });

  it('--text prints the hits as the MCP tool search_code shows them: grouped by file, the cut said in flags', async () => {
    const { TEXTS, searchCodeText } = await import('../lib/mcp/texts.mjs');
    const r = cli('needle', 'lib', '--text');
    expect(r).toMatchObject({ status: 0, stderr: '' });
    const result = searchCodeSync('needle', { cwd: repo, path: 'lib' });
    // The same renderer as the MCP tool's text, for an answer it shows whole.
    expect(r.stdout).toBe(`${TEXTS.search_code(result, {}, { root: repo })}\n`);
    expect(r.stdout).toBe(
      `3 matching lines in 2 files (${result.filesSearched} searched)\nlib/util.js\n1: needle(1);\n2: needle(22);\nlib/x/deep.js\n1: needle deep\n`,
    );
    // A page: the next one and the ways to narrow, as this command spells them.
    const page = cli('needle', '--max-results', '2', '--offset', '2', '--text');
    const all = searchCodeSync('needle', { cwd: repo, maxResults: 2, offset: 2 });
    expect(page.stdout).toBe(`${searchCodeText(all, { offset: 2 }, { offset: '--offset ', path: 'PATH', extensions: '--ext' })}\n`);
    expect(page.stdout.split('\n')[0]).toBe(
      `88 matching lines in 7 files (${all.filesSearched} searched); shown 3-4: page on with --offset 4, or narrow with PATH, --ext or a more specific query`,
    );
  });

  it('search --help prints the usage and exits 0', () => {
    for (const flag of ['--help', '-h']) {
      const r = cli(flag);
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^Usage: smart-file-query search QUERY/);
      expect(r.stdout).toContain('--regex');
      expect(r.stdout).toContain('--max-results');
    }
  });

  it('a missing QUERY exits 1 with the usage on stderr and nothing on stdout', () => {
    const r = cli();
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^smart-file-query search: /);
    expect(r.stderr).toContain('Usage: smart-file-query search QUERY');
  });

  it('a bad regex with --regex exits 1 with the V8 message; the same text without --regex is literal', () => {
    const r = cli('(', '--regex');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    // The message and the usage's first line, not the whole usage.
    expect(r.stderr).toBe(
      'smart-file-query search: Invalid regular expression: /(/i: Unterminated group\n' +
        'Usage: smart-file-query search QUERY [PATH] [options]; run smart-file-query search --help for the options\n',
    );
    const literal = cli('(');
    expect(literal.status).toBe(0);
    expect(JSON.parse(literal.stdout).matchCount).toBe(4);
  });

  it('refuses bad flags and paths with exit 1', () => {
    for (const args of [['needle', '--max-results', 'x'], ['needle', '--bogus'], ['needle', '..'], ['needle', 'a', 'b']]) {
      const r = cli(...args);
      expect({ args, status: r.status, stdout: r.stdout }).toEqual({ args, status: 1, stdout: '' });
      expect(r.stderr, args.join(' ')).toMatch(/^smart-file-query search: /);
    }
  });
});
