// The CLI, spawned as a user runs it: the documented contract of seed 000.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smartFileQuerySync } from '../index.js';
import { splitGlobs } from '../lib/args.mjs';
import { gitInit, makeTree } from './helpers/tree';

const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let repo: string;
beforeAll(() => {
  repo = makeTree({
    'src/a.ts': 'const alpha = 1;\nconst beta = alpha + 1;\n',
    'src/b.js': 'alpha();\n',
    'docs/c.md': 'alpha and omega\n',
    'big.txt': `alpha\n${'x'.repeat(3000)}\n`,
    'weird,name.txt': 'alpha\n',
  });
  gitInit(repo);
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('output', () => {
  it('prints the payload as minified JSON, once, and nothing else', () => {
    const r = cli(repo, '--regex', 'alpha', '--maxFileSizeKB', '256');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const payload = JSON.parse(r.stdout);
    expect(r.stdout).toBe(JSON.stringify(payload));
    expect(r.stdout).toBe(JSON.stringify(smartFileQuerySync({ cwd: repo, regex: 'alpha' })));
    expect(payload.aggregate.totalMatches).toBe(6);
  });

  it('exits 0 with an empty result when nothing matches', () => {
    const r = cli(repo, '--regex', 'zzz_not_here');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).results).toEqual([]);
  });

  it('warns on stderr about files over the size limit and truncation', () => {
    const r = cli(repo, '--regex', 'alpha', '--maxFileSizeKB', '1', '--maxMatches', '2');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('Skipped 1 file over size limit');
    expect(r.stderr).toContain('Stopped at maxMatches (2)');
    expect(JSON.parse(r.stdout).skipped).toEqual([{ path: 'big.txt', reason: 'maxFileSizeExceeded', size: 3007 }]);
  });
});

describe('flags', () => {
  it('accepts --flag value and --flag=value alike', () => {
    const a = cli(repo, '--regex', 'ALPHA', '--flags', 'i', '--contextLines', '0', '--glob', 'src/**');
    const b = cli(repo, '--regex=ALPHA', '--flags=i', '--contextLines=0', '--glob=src/**');
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout).query).toMatchObject({ regex: 'ALPHA', flags: 'i', contextLines: 0, glob: ['src/**'] });
  });

  it('adds up repeated and comma-separated globs, keeping commas inside braces', () => {
    const r = cli(repo, '--regex', 'alpha', '--glob', 'src/*.{ts,js}', '--glob', ' docs/** , nope/**');
    const payload = JSON.parse(r.stdout);
    expect(payload.query.glob).toEqual(['src/*.{ts,js}', 'docs/**', 'nope/**']);
    expect(payload.results.map((f: { path: string }) => f.path)).toEqual(['docs/c.md', 'src/a.ts', 'src/b.js']);
    const ig = JSON.parse(cli(repo, '--regex', 'alpha', '--ignore', 'src/**,docs/**', '--ignore=big.txt').stdout);
    expect(ig.query.ignore.slice(3)).toEqual(['src/**', 'docs/**', 'big.txt']);
    expect(ig.results.map((f: { path: string }) => f.path)).toEqual(['weird,name.txt']);
  });

  it('takes boolean flags with no value', () => {
    const r = JSON.parse(cli(repo, '--regex', 'omega', '--includeAllContent', '--multiline').stdout);
    expect(r.query).toMatchObject({ includeAllContent: true, multiline: true });
    expect(r.results[0].content).toBe('alpha and omega\n');
  });

  it('splits globs on top-level commas only', () => {
    expect(splitGlobs('a,{b,c},[,]x, d ,,')).toEqual(['a', '{b,c}', '[,]x', 'd']);
    expect(splitGlobs('a\\,b,c')).toEqual(['a\\,b', 'c']);
  });
});

describe('errors', () => {
  const bad: Array<[string[], RegExp]> = [
    [[], /Missing required option --regex/],
    [['--regex'], /Missing value for --regex/],
    [['--regex', 'a', '--bogus', '1'], /Unknown option '--bogus'/],
    [['--regex', 'a', 'stray'], /Unexpected argument 'stray'/],
    [['--regex', 'a', '--maxMatches', 'abc'], /--maxMatches must be a finite integer, got 'abc'/],
    [['--regex', 'a', '--maxMatches', '1.5'], /--maxMatches must be a finite integer/],
    [['--regex', 'a', '--maxMatches', 'Infinity'], /--maxMatches must be a finite integer/],
    // Range errors come from the engine, reworded in terms of the flag.
    [['--regex', 'a', '--maxMatches=0'], /: --maxMatches must be a finite integer from 1 to 1000000, got 0/],
    [['--regex', 'a', '--contextLines', '21'], /: --contextLines must be a finite integer from 0 to 20, got 21/],
    [['--regex', 'a', '--maxFileSizeKB', '-5'], /: --maxFileSizeKB must be a finite integer/],
    [['--regex', '(a'], /Invalid regular expression: \/\(a\/: Unterminated group/],
    [['--regex', 'a', '--flags', 'gig'], /Invalid flags supplied to RegExp constructor 'gig'/],
    [['--regex', 'a', '--encoding', 'hex'], /Unsupported encoding 'hex'/],
    [['--regex', 'a', '--includeAllContent=maybe'], /--includeAllContent takes no value/],
  ];
  for (const [args, message] of bad) {
    it(`exits 1 with a message and the usage: ${args.join(' ') || '(no arguments)'}`, () => {
      const r = cli(repo, ...args);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('Usage: smart-file-query --regex');
    });
  }

  it("a regex or flags that do not compile: V8's message and the usage's first line pointing to --help, not the whole usage", () => {
    const pointer = 'Usage: smart-file-query --regex "<pattern>" [options]; run smart-file-query --help for the options and how to quote a pattern\n';
    for (const [args, message] of [
      [['--regex', '(a'], 'Invalid regular expression: /(a/: Unterminated group'],
      [['--regex', 'a', '--flags', 'gig'], "Invalid flags supplied to RegExp constructor 'gig'"],
    ]) {
      expect(cli(repo, ...args)).toEqual({ status: 1, stdout: '', stderr: `smart-file-query: ${message}\n${pointer}` });
    }
    // A bad command line still gets the whole usage.
    const option = cli(repo, '--regex', 'a', '--encoding', 'hex');
    expect(option.status).toBe(1);
    expect(option.stderr).toMatch(/^smart-file-query: Unsupported encoding 'hex'[^\n]*\n\nUsage: smart-file-query --regex "<pattern>" \[options\]\n\nSearches/);
    expect(option.stderr).toContain('Shell quoting');
  });

  it('prints the usage on stdout for --help and exits 0', () => {
    const r = cli(repo, '--help');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Usage: smart-file-query --regex "<pattern>" [options]');
    expect(r.stdout).toContain('Shell quoting');
    for (const flag of ['--regex', '--flags', '--glob', '--ignore', '--contextLines', '--includeAllContent',
      '--maxFileSizeKB', '--maxMatches', '--encoding', '--multiline', '--help']) {
      expect(r.stdout).toContain(flag);
    }
  });

  // Windows keeps a process's working folder from being deleted: the failure made here cannot happen there.
  it.skipIf(process.platform === 'win32')('exits 1 with the path and the error code on a fatal I/O error', () => {
    const parent = mkdtempSync(join(tmpdir(), 'sfq-gone-'));
    const gone = join(parent, 'gone');
    mkdirSync(gone);
    // The working directory is deleted under the process: reading it fails.
    const r = spawnSync('sh', ['-c', `cd "${gone}" && rmdir "${gone}" && exec "${process.execPath}" "${BIN}" --regex a`], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/ENOENT/);
    expect(r.stderr).toContain(gone);
    expect(r.stderr).not.toContain('Usage:');
    rmSync(parent, { recursive: true, force: true });
  });
});
