// The default command writes its JSON to stdout as the files are merged
// (memory bounded by about one file's result; bench/memory.mjs measures
// it): the bytes are exactly the API's JSON, with any maxMatches cut, and a
// reader that goes away early ends it quietly.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
