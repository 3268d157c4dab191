// The MCP layer and the engine read one project config: the wait before a
// search goes to the background (timeout_seconds) is taken from the file the
// engine reads for glob_files/grep_content (max_results), with the engine's
// precedence and the engine's validation (lib/mcp/config.mjs asks the engine).
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeServers, fails, ok, startServer } from './helpers/mcp';
import { gitInit, makeTree } from './helpers/tree';

const require = createRequire(import.meta.url);
const api = require('../index.js');

const SLOW_LINE = `${'a'.repeat(3000)} lorem ipsum\n`;
/** A pattern the backtracking engine gives up on in every slow file, after its whole work budget. */
const SLOW = '(a+)+\\1(?=b)';

let repo: string;

beforeAll(() => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 400; i++) files[`slow/b${i}.txt`] = SLOW_LINE.repeat(5);
  for (let i = 0; i < 6; i++) files[`list/f${i}.txt`] = 'x\n';
  // Only the fallback file at first: both readers must look past the absent first one.
  files['.jaato/filesystem_query.json'] = JSON.stringify({ timeout_seconds: 1, max_results: 2 });
  repo = makeTree(files, 'sfq-mcp-config-');
  gitInit(repo);
});

afterAll(async () => {
  await closeServers();
  rmSync(repo, { recursive: true, force: true });
});

/** The seconds the server waited before answering "running" to a slow grep_content (the search then cancelled). */
async function waited(server: Awaited<ReturnType<typeof startServer>>): Promise<number> {
  const started = await ok(server, 'grep_content', { pattern: SLOW, path: 'slow' });
  expect(started.status).toBe('running');
  await ok(server, 'task_cancel', { task_id: started.task_id });
  return Number(/after (\d+) s/.exec(started.message)![1]);
}

describe('the MCP layer and the engine read the same project config', () => {
  it('one file, with the engine\'s precedence, read at every call', async () => {
    const server = await startServer([], repo);
    // .jaato/filesystem_query.json: the engine's max_results and the server's wait.
    expect((await ok(server, 'glob_files', { pattern: 'list/*.txt' })).returned).toBe(2);
    expect(api.globFilesSync({ cwd: repo, pattern: 'list/*.txt' }).returned).toBe(2);
    expect(await waited(server)).toBe(1);
    // .smart-file-query.json comes first, for both; the edit is seen without a restart.
    writeFileSync(join(repo, '.smart-file-query.json'), JSON.stringify({ timeout_seconds: 2, max_results: 3 }));
    try {
      expect((await ok(server, 'glob_files', { pattern: 'list/*.txt' })).returned).toBe(3);
      expect(await waited(server)).toBe(2);
    } finally {
      rmSync(join(repo, '.smart-file-query.json'));
    }
    expect(server.stderr()).not.toMatch(/config file/);
  });

  it('a file the engine rejects is not used for the wait either: the server warns with the engine\'s message', async () => {
    // Each sets a valid timeout_seconds, yet the engine refuses the file as a whole.
    const rejected = ['{"timeout_seconds": 1, "exclude_mode": "merge"}', '{"timeout_seconds": 1, "max_result": 3}', '{"timeout_seconds": 1.0}'];
    const file = join(repo, '.smart-file-query.json');
    const server = await startServer([], repo);
    try {
      for (const text of rejected) {
        writeFileSync(file, text);
        let engine: any;
        try {
          api.globFilesSync({ cwd: repo, pattern: '*' });
        } catch (e) {
          engine = e;
        }
        expect(engine, text).toMatchObject({ code: 'EINVALIDCONFIG' });
        expect(engine.message, text).toContain(file);
        // The tool fails with the engine's error, and the wait reported the same problem.
        const failed = await fails(server, 'grep_content', { pattern: 'x', path: 'list' });
        expect(failed.code, text).toBe('EINVALIDCONFIG');
        // (The warning may reach the server's stderr after the answer.)
        await vi.waitFor(() => expect(server.stderr(), text).toContain(`smart-file-query mcp: ${engine.message}; waiting the default 30 s\n`), { timeout: 10_000 });
      }
    } finally {
      rmSync(file);
    }
  });
});
