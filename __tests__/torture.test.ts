// Never crash, never freeze: one minified line matched hundreds of thousands
// of times, through the CLI (streamed in bounded memory, under a ulimit so a
// regression cannot take the machine down), the API (stopped at
// maxResultBytes and saying so) and the MCP server with the SDK's client (the
// answer bounded, a cheap call answered while a heavy one runs, a cancelled
// call freeing the server).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitInit, makeTree } from './helpers/tree';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const api = require('../index.js');
const BIN = resolve(__dirname, '..', 'bin', 'smart-file-query.mjs');

/** One line of minified JavaScript, about 180 KB. */
function minifiedLine(): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < 180_000; i++) {
    const part = `var a${i}=function(b,c){return b+c*${i}};`;
    parts.push(part);
    length += part.length;
  }
  return parts.join('');
}

/** Slow for the backtracking engine: each file takes its whole time budget. */
const SLOW_LINE = `${'a'.repeat(3000)} lorem ipsum\n`;
const SLOW = '(a+)+\\1(?=b)';

let repo: string;
let slowRepo: string;
const LINE = minifiedLine();

beforeAll(() => {
  repo = makeTree({
    'dist/app.js': LINE,
    // Long lines, many of them: for the agent searches' budget.
    'wide.txt': Array.from({ length: 80 }, (_, i) => `${'x'.repeat(5000)} needle${i} ${'y'.repeat(5000)}`).join('\n') + '\n',
    'hello.txt': 'hello world\n',
  }, 'sfq-torture-');
  gitInit(repo);
  const slow: Record<string, string> = { 'hello.txt': 'hello world\n' };
  for (let i = 0; i < 60; i++) slow[`big/b${i}.txt`] = SLOW_LINE.repeat(5);
  slowRepo = makeTree(slow, 'sfq-torture-slow-');
  gitInit(slowRepo);
});

afterAll(() => {
  for (const dir of [repo, slowRepo]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the CLI with `args` in `cwd`, under a 3 GB address-space limit where
 * the limit is the machine's own (x64 Linux; an emulated arm64 Node reserves
 * more), counting its stdout instead of keeping it. Peak RSS from the child's
 * own resource usage, written at exit by a preloaded module.
 */
function runCli(args: string[], cwd: string): Promise<{ status: number | null; bytes: number; head: string; tail: string; maxRssMB: number; stderr: string }> {
  const report = join(repo, '..', `sfq-torture-rss-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
  const preload = `${report}.cjs`;
  writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, String(process.resourceUsage().maxRSS)));\n`);
  const quoted = [process.execPath, '-r', preload, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
  const limit = process.platform === 'linux' && process.arch === 'x64' ? 'ulimit -v 3000000; ' : '';
  return new Promise((done, fail) => {
    // Under a shell where one sets the address-space limit; Windows has no `sh`, nor the limit.
    const child =
      process.platform === 'win32'
        ? spawn(process.execPath, ['-r', preload, BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn('sh', ['-c', `${limit}exec ${quoted}`], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let head = '';
    let tail = '';
    let stderr = '';
    child.stdout.setEncoding('latin1');
    child.stdout.on('data', (chunk: string) => {
      bytes += chunk.length;
      if (head.length < 400) head += chunk.slice(0, 400);
      tail = (tail + chunk).slice(-400);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', fail);
    child.on('close', (status) => {
      let maxRssMB = Number.NaN;
      try {
        maxRssMB = Number(readFileSync(report, 'utf8')) / 1024;
      } catch {
        // no report: the process died before exiting normally (checked by the caller)
      }
      rmSync(report, { force: true });
      rmSync(preload, { force: true });
      done({ status, bytes, head, tail, maxRssMB, stderr });
    });
  });
}

describe('the CLI streams what it is asked for in bounded memory', () => {
  it('--regex . --maxMatches 2000 on one 180 KB line: 360 MB of JSON written with a peak RSS far below it', async () => {
    const baseline = await runCli(['--regex', 'no such text at all'], repo);
    expect(baseline.status).toBe(0);
    const heavy = await runCli(['--regex', '.', '--maxMatches', '2000'], repo);
    expect(heavy.stderr).toMatch(/^⚠️ +Stopped at maxMatches \(2000\)/);
    expect(heavy.status).toBe(0);
    // Every match carries the whole line as its context: 2000 × 180 KB.
    expect(heavy.bytes).toBeGreaterThan(2000 * LINE.length);
    expect(heavy.head.startsWith('{"query":{"regex":".",')).toBe(true);
    expect(heavy.tail).toMatch(/"aggregate":\{"filesVisited":\d+,"filesMatched":1,"totalMatches":2000,"truncated":true\}\}$/);
    // Held in memory whole, the answer alone would take 360 MB more than a call without matches.
    expect(heavy.maxRssMB - baseline.maxRssMB).toBeLessThan(300);
  });
});

describe('the API holds at most maxResultBytes', () => {
  it('smartFileQuery stops where the next match would pass it, and says so (sync and async)', async () => {
    const options = { regex: '.', maxMatches: 200000, maxResultBytes: 1 << 20, cwd: repo };
    for (const r of [api.smartFileQuerySync(options), await api.smartFileQuery(options)]) {
      expect(r.aggregate).toMatchObject({ filesMatched: 1, truncated: true, truncatedBy: 'maxResultBytes' });
      expect(r.query.maxResultBytes).toBe(1 << 20);
      expect(r.results[0].truncated).toBe(true);
      expect(r.results[0].matchCount).toBe(r.aggregate.totalMatches);
      const json = Buffer.byteLength(JSON.stringify(r.results));
      expect(json).toBeLessThanOrEqual(1 << 20);
      // One more match would not have fitted.
      expect(json + LINE.length).toBeGreaterThan(1 << 20);
    }
  });

  it('the default budget (256 MiB) bounds the same call: about 1,490 matches of the 180 KB line, not 200,000', () => {
    const r = api.smartFileQuerySync({ regex: '.', maxMatches: 200000, cwd: repo });
    expect(r.aggregate).toMatchObject({ truncated: true, truncatedBy: 'maxResultBytes' });
    expect(r.query.maxResultBytes).toBeUndefined();
    const n = r.aggregate.totalMatches;
    expect(n * LINE.length).toBeLessThanOrEqual(256 * 1024 * 1024);
    expect((n + 1) * (LINE.length + 100)).toBeGreaterThan(256 * 1024 * 1024 - 256 * 1024);
  });

  it('searchCode, grep and grepContent keep lines up to the budget and count the rest', async () => {
    const budget = 100_000;
    const content = await api.grepContent({ pattern: 'needle\\d+', cwd: repo, maxLineLength: 0, contextLines: 2, maxResultBytes: budget });
    expect(content).toMatchObject({ totalMatches: 80, truncated: true, truncatedBy: 'maxResultBytes' });
    expect(Buffer.byteLength(JSON.stringify(content.matches))).toBeLessThanOrEqual(budget);
    expect(content.matches.length).toBeGreaterThan(0);
    const code = api.searchCodeSync('needle', { cwd: repo, maxLineLength: 0, maxResults: 1000, maxResultBytes: budget });
    expect(code).toMatchObject({ matchCount: 80, truncated: true, truncatedBy: 'maxResultBytes' });
    expect(code.matches.length).toBe(9); // 9 lines of 10 KB
    const grep = api.grepSync({ pattern: 'needle', cwd: repo, maxLineLength: 0, maxResults: 1000, maxResultBytes: budget });
    expect(grep.map((m: { line: number }) => m.line)).toEqual(code.matches.map((m: { lineNumber: number }) => m.lineNumber));
    // Within the budget nothing changes, and nothing says it did.
    const whole = api.searchCodeSync('needle', { cwd: repo, maxLineLength: 0, maxResults: 1000 });
    expect(whole.matches).toHaveLength(80);
    expect(whole.truncatedBy).toBeUndefined();
    expect(() => api.searchCodeSync('needle', { cwd: repo, maxResultBytes: 10 })).toThrow(/maxResultBytes/);
  });

  it('a cheap call is answered while a heavy one runs, and the heavy one stops when aborted', async () => {
    const controller = new AbortController();
    let heavyEnded = false;
    const heavy = api.smartFileQuery({ regex: SLOW, cwd: slowRepo }, controller.signal).finally(() => {
      heavyEnded = true;
    });
    heavy.catch(() => {});
    await new Promise((r) => setTimeout(r, 200));
    // The same API with the same thread count, another profile, the protocol.
    expect((await api.smartFileQuery({ regex: 'hello', glob: 'hello.txt', cwd: slowRepo })).aggregate.totalMatches).toBe(1);
    expect((await api.grepContent({ pattern: 'hello', cwd: slowRepo })).totalMatches).toBe(1);
    expect((await api.show({ query: 'hello', file: 'hello.txt', cwd: slowRepo })).exitCode).toBe(0);
    expect(heavyEnded).toBe(false);
    controller.abort();
    await expect(heavy).rejects.toMatchObject({ code: 'EABORTED' });
  });
});

/** CPU seconds a Linux process has used (user + system). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe('the MCP server', () => {
  let client: Client;
  let transport: StdioClientTransport;

  beforeAll(async () => {
    transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', repo], stderr: 'pipe' });
    client = new Client({ name: 'sfq-torture', version: '1.0.0' });
    await client.connect(transport);
    await client.listTools();
  });

  afterAll(async () => {
    await client?.close();
  });

  it('stops a search whose answer cannot fit: smart_file_query {regex: ".", maxMatches: 200000} answers under the budget, saying why', async () => {
    const r = (await client.callTool({ name: 'smart_file_query', arguments: { regex: '.', maxMatches: 200000 } })) as {
      content: Array<{ text: string }>;
      structuredContent: any;
      isError?: boolean;
    };
    expect(r.isError).toBeFalsy();
    const text = r.content[0].text;
    expect(text.length).toBeLessThanOrEqual(20000);
    // The text (grep-style) says why in its head line; the JSON is structuredContent.
    expect(text.split('\n')[0]).toMatch(/the search stopped at the server's result size limit.*: narrow with glob or a more specific regex/);
    const answer = r.structuredContent;
    expect(answer.truncated).toBe(true);
    expect(answer.aggregate).toMatchObject({ truncated: true, truncatedBy: 'maxResultBytes' });
    // The search itself stopped at the server's result budget, far below 200,000 matches.
    expect(answer.aggregate.totalMatches).toBeLessThan(100);
    expect(answer.shrunk.hint).toMatch(/Narrow/);
  });

  it('answers a cheap call while a heavy one runs; cancelling the heavy one frees the server', async () => {
    const slow = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', slowRepo], stderr: 'pipe' });
    const slowClient = new Client({ name: 'sfq-torture-slow', version: '1.0.0' });
    await slowClient.connect(slow);
    try {
      const controller = new AbortController();
      let heavyEnded = false;
      const heavy = slowClient
        .callTool({ name: 'smart_file_query', arguments: { regex: SLOW } }, undefined, { signal: controller.signal, timeout: 600_000 })
        .finally(() => {
          heavyEnded = true;
        });
      heavy.catch(() => {});
      await new Promise((r) => setTimeout(r, 300));
      const cheap = (await slowClient.callTool({ name: 'show', arguments: { query: 'hello', file: 'hello.txt' } })) as { content: Array<{ text: string }> };
      expect(cheap.content[0].text).toMatch(/hello world/);
      const grep = (await slowClient.callTool({ name: 'grep', arguments: { pattern: 'hello' } })) as { structuredContent: any };
      expect(grep.structuredContent.matches).toHaveLength(1);
      expect(heavyEnded).toBe(false);
      controller.abort();
      await expect(heavy).rejects.toThrow();
      // The server answers, and (where /proc tells) stops spending CPU on the cancelled search.
      const after = (await slowClient.callTool({ name: 'grep', arguments: { pattern: 'hello', format: 'json' } })) as { content: Array<{ text: string }> };
      expect(JSON.parse(after.content[0].text).matches).toHaveLength(1);
      const pid = slow.pid;
      if (process.platform === 'linux' && pid !== null) {
        await new Promise((r) => setTimeout(r, 300));
        const before = cpuSeconds(pid);
        await new Promise((r) => setTimeout(r, 1000));
        // A search still running would take about a CPU second per thread here.
        expect(cpuSeconds(pid) - before).toBeLessThan(0.3);
      } else {
        expect(pid).not.toBeNull();
      }
    } finally {
      await slowClient.close();
    }
  });
});
