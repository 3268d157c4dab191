// The default command writes its JSON to stdout as the files are merged
// (memory bounded by about one file's result; bench/memory.mjs measures
// it): the bytes are exactly the API's JSON, with any maxMatches cut, and a
// reader that goes away early ends it quietly.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smartFileQuery } from '../index.js';
import { gitRepo } from './helpers/agent-repos';

const require = createRequire(import.meta.url);
const native = require('../lib/native.js');
const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');

let tree: string;
beforeAll(() => {
  const files: Record<string, string> = {};
  for (let f = 0; f < 60; f++) {
    files[`d${f % 6}/f${f}.txt`] = Array.from({ length: 400 }, (_, i) => `line ${i} ${'ab'.repeat(f % 9)} x${f}`).join('\n') + '\n';
  }
  files['bin.dat'] = Buffer.from([0x61, 0, 0x62]) as unknown as string;
  files['big.txt'] = 'a'.repeat(300 * 1024); // over the 256 KB default: skipped, with a warning
  files['min.js'] = `${'var a=1;'.repeat(3000)}function f(){return 1}${'var b=2;'.repeat(3000)}\nshort function line\n`;
  tree = gitRepo(files, 'sfq-stream-');
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('the default command streams its JSON', () => {
  it('byte for byte the API JSON, for large outputs and maxMatches cuts, with the same warnings', async () => {
    for (const args of [
      ['--regex', '[a-z]', '--maxMatches', '200000', '--contextLines', '2'],
      ['--regex', 'line', '--maxMatches', '7777'],
      ['--regex', 'x5', '--contextLines', '0'],
      ['--regex', 'nothing-matches-this'],
    ]) {
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd: tree, maxBuffer: 1 << 30 });
      expect(r.status, args.join(' ')).toBe(0);
      const options: Record<string, unknown> = { cwd: tree, regex: args[1] };
      for (let i = 2; i < args.length; i += 2) options[args[i].slice(2)] = Number(args[i + 1]);
      const expected: Buffer = await native.runJson('smartFileQuery', options, 'regex');
      expect(r.stdout.length, args.join(' ')).toBe(expected.length);
      expect(r.stdout.equals(expected), args.join(' ')).toBe(true);
      expect(r.stderr.toString()).toContain('Skipped 1 file over size limit (256 KB)');
    }
  });

  it('a reader that stops early ends it quietly: exit 0, nothing on stderr', async () => {
    const child = spawn(process.execPath, [BIN, '--regex', '.', '--maxMatches', '1000000', '--contextLines', '2'], { cwd: tree });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const first = await new Promise<Buffer>((done) => child.stdout.once('data', done));
    child.stdout.destroy();
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(first.subarray(0, 10).toString()).toBe('{"query":{');
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});

describe('maxLineLength', () => {
  it('cuts long lines to a window around the match, only when asked, the same from the CLI', async () => {
    const cut = await smartFileQuery({ regex: 'function', cwd: tree, glob: ['min.js'], maxLineLength: 40, contextLines: 1 });
    expect(cut.query.maxLineLength).toBe(40);
    const [first, second] = cut.results[0].matches;
    expect(first.context.line).toMatch(/^…var a=1;.*function f\(\)\{return 1\}.*…$/);
    expect([...first.context.line].length).toBe(42);
    expect(first.context.after).toEqual(['short function line']); // short lines stay whole
    expect(first.column).toBe(24001); // positions are the file's, whatever was cut
    expect(second.context.before[0]).toMatch(/^var a=1;var a=1;.*…$/);
    const whole = await smartFileQuery({ regex: 'function', cwd: tree, glob: ['min.js'] });
    expect('maxLineLength' in whole.query).toBe(false);
    expect(whole.results[0].matches[0].context.line.length).toBe(48022);
    const r = spawnSync(process.execPath, [BIN, '--regex', 'function', '--glob', 'min.js', '--maxLineLength', '40', '--contextLines', '1'], { cwd: tree });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.toString())).toEqual(cut);
    const bad = spawnSync(process.execPath, [BIN, '--regex', 'x', '--maxLineLength', '-3'], { cwd: tree });
    expect(bad.status).toBe(1);
    expect(bad.stderr.toString()).toMatch(/--maxLineLength/);
  });
});

describe('explicit globs beat the default ignores', () => {
  let repo: string;
  beforeAll(() => {
    repo = gitRepo({
      '.gitignore': 'node_modules\n',
      'node_modules/@types/node/index.d.ts': 'declare const needle: string;\n',
      'node_modules/pkg/lib/a.js': 'needle\n',
      'src/a.ts': 'needle\n',
    }, 'sfq-explicit-');
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('a glob naming a default-ignored folder searches it; one that cannot name it gets a hint', async () => {
    const named = await smartFileQuery({ regex: 'needle', cwd: repo, glob: 'node_modules/@types/**/*.d.ts' });
    expect(named.results.map((r) => r.path)).toEqual(['node_modules/@types/node/index.d.ts']);
    expect('hint' in named).toBe(false);
    // The default ignores still hold elsewhere.
    const all = await smartFileQuery({ regex: 'needle', cwd: repo });
    expect(all.results.map((r) => r.path)).toEqual(['src/a.ts']);
    // The caller's own ignore wins over the glob.
    const ignored = await smartFileQuery({ regex: 'needle', cwd: repo, glob: 'node_modules/pkg/**', ignore: 'node_modules/pkg/**' });
    expect(ignored.results).toEqual([]);
    const anywhere = await smartFileQuery({ regex: 'needle', cwd: repo, glob: '**/node_modules/**/*.d.ts' });
    expect(anywhere.results).toEqual([]);
    expect(anywhere.hint).toMatch(/^glob '\*\*\/node_modules\/\*\*\/\*\.d\.ts' asks for paths the default ignore '\*\*\/node_modules\/\*\*' leaves out; name the folder from the root/);
    const r = spawnSync(process.execPath, [BIN, '--regex', 'needle', '--glob', '**/node_modules/**/*.d.ts'], { cwd: repo });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.toString())).toEqual(anywhere);
    expect(r.stderr.toString()).toBe(`⚠️  No match: ${anywhere.hint}\n`);
  });
});

describe('AbortSignal.timeout()', () => {
  it('rejects with ETIMEOUT (the signal timed out), an abort with EABORTED; the reason is the cause', async () => {
    const { searchCode } = await import('../index.js');
    const slow = '(a|aa)+(?=b)';
    // Signals that have timed out by the time of the call (no race with the search).
    const expired = async () => {
      const signal = AbortSignal.timeout(1);
      await new Promise((r) => setTimeout(r, 30));
      expect(signal.aborted).toBe(true);
      return signal;
    };
    const timedOut = await smartFileQuery({ regex: slow, cwd: tree }, await expired()).catch((e) => e);
    expect(timedOut.code).toBe('ETIMEOUT');
    expect(timedOut.cause?.name).toBe('TimeoutError');
    const inOptions = await searchCode('x', { cwd: tree, signal: await expired() }).catch((e) => e);
    expect(inOptions.code).toBe('ETIMEOUT');
    const controller = new AbortController();
    const p = smartFileQuery({ regex: slow, cwd: tree }, controller.signal);
    controller.abort(new Error('stop'));
    const aborted = await p.catch((e) => e);
    expect(aborted.code).toBe('EABORTED');
    expect(aborted.cause?.message).toBe('stop');
  });
});

describe('version', () => {
  it('the package exports the version --version prints', async () => {
    const api = await import('../index.js');
    const { version } = JSON.parse(require('node:fs').readFileSync(resolve(__dirname, '..', 'package.json'), 'utf8'));
    expect(api.version).toBe(version);
    const r = spawnSync(process.execPath, [BIN, '--version']);
    expect(r.stdout.toString()).toBe(`${version}\n`);
  });
});
