// The dispatcher: --version / -v, -h, the subcommand list in --help, and
// `SUBCOMMAND --help`, through the real CLI.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USAGE } from '../lib/args.mjs';
import { OUTLINE_USAGE } from '../lib/cli/outline.mjs';
import { SUBCOMMAND_NAMES } from '../lib/cli/names.mjs';
import { SUBCOMMANDS } from '../lib/cli/registry.mjs';
import { makeTree } from './helpers/tree';

const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');
const VERSION: string = JSON.parse(readFileSync(resolve(__dirname, '..', 'package.json'), 'utf8')).version;

let dir: string;
beforeAll(() => {
  dir = makeTree({ 'a.ts': 'export function alpha() {}\n' }, 'sfq-sub-');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('--version', () => {
  for (const flag of ['--version', '-v']) {
    it(`${flag} prints the package version and exits 0`, () => {
      expect(cli(flag)).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
    });
  }

  it('wins over the other options, as --help does', () => {
    expect(cli('--regex', 'a', '--version')).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('needs no native binary (the version is the package\'s, not the addon\'s)', () => {
    // NAPI_RS_NATIVE_LIBRARY_PATH naming no file: the loader finds no binary.
    const env = { ...process.env, NAPI_RS_NATIVE_LIBRARY_PATH: resolve(dir, 'no-such.node') };
    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', env });
    expect(run('--regex', 'a').status).toBe(1);
    const r = run('--version');
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
  });
});

describe('--help', () => {
  it('-h is --help', () => {
    const h = cli('-h');
    expect(h.status).toBe(0);
    expect(h.stderr).toBe('');
    expect(h).toEqual(cli('--help'));
  });

  it("is seed 000's usage followed by every subcommand with its one-line summary", () => {
    const { stdout } = cli('--help');
    expect(stdout.startsWith(USAGE)).toBe(true);
    const section = stdout.slice(USAGE.length);
    expect(section).toContain('Subcommands');
    expect(section).toMatch(/^ {2}outline {2}\S/m);
    expect(SUBCOMMANDS.length).toBeGreaterThan(0);
    for (const command of SUBCOMMANDS) {
      expect(section).toMatch(new RegExp(`^  ${command.name} +${command.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    }
    expect(section).toContain('--version');
  });

  it("after an error, the usage is seed 000's alone (no subcommand list)", () => {
    const r = cli('--regex', 'a', '--bogus');
    expect(r).toEqual({ status: 1, stdout: '', stderr: `smart-file-query: Unknown option '--bogus'\n\n${USAGE}` });
  });
});

describe('subcommands', () => {
  it('outline --help and outline -h print the usage of outline on stdout and exit 0', () => {
    for (const args of [['outline', '--help'], ['outline', '-h'], ['outline', 'a.ts', '--help'], ['outline', '--json', '-h']]) {
      expect({ args, ...cli(...args) }).toEqual({ args, status: 0, stdout: OUTLINE_USAGE, stderr: '' });
    }
  });

  it('every registered subcommand has a descriptor and answers --help and -h', () => {
    for (const command of SUBCOMMANDS) {
      expect(command.name).toMatch(/^[a-z][a-z-]*$/);
      expect(command.summary).toMatch(/^[^\n]+$/);
      expect(command.usage).toMatch(/^Usage: smart-file-query [^\n]+\n[^]*\n$/);
      expect(command.usage.startsWith(`Usage: smart-file-query ${command.name}`)).toBe(true);
      expect(typeof command.run).toBe('function');
      for (const flag of ['--help', '-h']) {
        expect(cli(command.name, flag)).toEqual({ status: 0, stdout: command.usage, stderr: '' });
      }
    }
    expect(new Set(SUBCOMMANDS.map((c) => c.name)).size).toBe(SUBCOMMANDS.length);
    // The dispatcher's list of words (it loads the registry only for one of them).
    expect(SUBCOMMAND_NAMES).toEqual(SUBCOMMANDS.map((c) => c.name));
  });

  it('outline still reports bad command lines with its usage', () => {
    expect(cli('outline', 'a.ts', '--bogus')).toEqual({
      status: 1,
      stdout: '',
      stderr: `smart-file-query outline: Unknown option '--bogus'\n\n${OUTLINE_USAGE}`,
    });
    expect(cli('outline').stderr).toBe(`smart-file-query outline: expected exactly one FILE, got 0\n\n${OUTLINE_USAGE}`);
  });

  it('outline takes a file named like an option after --', () => {
    const r = cli('outline', '--', '-x.ts');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/ENOENT/);
  });

  it('a word that is not a subcommand is still an unexpected argument of the default command', () => {
    const r = cli('nosuchcommand', '--regex', 'a');
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`smart-file-query: Unexpected argument 'nosuchcommand'\n\n${USAGE}`);
  });
});

describe('engine messages speak of flags', () => {
  const cases: Array<[string[], string]> = [
    [['--contextLines', '21'], '--contextLines must be a finite integer from 0 to 20, got 21'],
    [['--maxMatches=0'], '--maxMatches must be a finite integer from 1 to 1000000, got 0'],
  ];
  for (const [args, message] of cases) {
    it(args.join(' '), () => {
      const r = cli('--regex', 'a', ...args);
      expect(r).toEqual({ status: 1, stdout: '', stderr: `smart-file-query: ${message}\n\n${USAGE}` });
    });
  }

  it('--maxFileSizeKB -5 (no API name, no option quoting)', () => {
    const r = cli('--regex', 'a', '--maxFileSizeKB', '-5');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^smart-file-query: --maxFileSizeKB must be a finite integer from \d+ to \d+, got -5\n\nUsage: /);
    expect(r.stderr).not.toContain('smartFileQuery');
  });
});
