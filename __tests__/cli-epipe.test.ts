// A closed stdout (`smart-file-query ... | head -c 50`) ends the CLI quietly:
// exit 0 and nothing on stderr, as rg does, for every subcommand.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTree } from './helpers/tree';

const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');

type Closed = { status: number | null; signal: NodeJS.Signals | null; stderr: string; read: number };

/**
 * Runs the CLI with stdout piped to us and closes our end: after the first
 * chunk (`when: 'first-chunk'`), or at once, before the child has written
 * anything (`when: 'at-once'`).
 */
function runClosingStdout(cwd: string, args: string[], when: 'first-chunk' | 'at-once'): Promise<Closed> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let read = 0;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      stderr += d;
    });
    if (when === 'at-once') {
      child.stdout.destroy();
    } else {
      child.stdout.once('data', (chunk: Buffer) => {
        read = chunk.length;
        child.stdout.destroy();
      });
    }
    child.on('error', fail);
    child.on('close', (status, signal) => done({ status, signal, stderr, read }));
  });
}

let dir: string;
beforeAll(() => {
  // The output must be far larger than what the channel buffers, so that the
  // writer is still writing when the reader goes away: child_process's stdio
  // "pipes" are socket pairs holding a few hundred KiB. A few MB of JSON for
  // `--regex . --maxMatches 20000`; an outline of 2000 (its default cap)
  // functions with long names, about 1 MB as --json.
  const lines = Array.from({ length: 4000 }, (_, i) => `line ${i} alpha beta gamma`).join('\n');
  const long = 'x'.repeat(400);
  const functions = Array.from({ length: 2000 }, (_, i) => `export function fn_${i}_${long}(a: number): number {\n  return a + ${i};\n}\n`);
  dir = makeTree({ 'lines.txt': `${lines}\n`, 'wide.ts': functions.join(''), 'small.ts': 'export const x = 1;\n' }, 'sfq-epipe-');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a closed stdout ends the CLI with exit 0 and nothing on stderr', () => {
  it('the default command, reader gone after the first chunk (also no truncation warning)', async () => {
    const r = await runClosingStdout(dir, ['--regex', '.', '--maxMatches', '20000', '--glob', '*.txt'], 'first-chunk');
    expect(r.read).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
    expect(r.signal).toBe(null);
    expect(r.status).toBe(0);
  });

  it('the default command, reader gone before the first write', async () => {
    const r = await runClosingStdout(dir, ['--regex', 'alpha', '--glob', '*.txt'], 'at-once');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('outline --json, reader gone after the first chunk', async () => {
    const r = await runClosingStdout(dir, ['outline', 'wide.ts', '--json'], 'first-chunk');
    expect(r.read).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
    expect(r.signal).toBe(null);
    expect(r.status).toBe(0);
  });

  it('outline, reader gone before the first write', async () => {
    const r = await runClosingStdout(dir, ['outline', 'small.ts'], 'at-once');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('--help and --version, reader gone before the first write', async () => {
    for (const args of [['--help'], ['--version'], ['outline', '--help']]) {
      const r = await runClosingStdout(dir, args, 'at-once');
      expect({ args, stderr: r.stderr, status: r.status }).toEqual({ args, stderr: '', status: 0 });
    }
  });
});
