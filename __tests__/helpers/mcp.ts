// Driving `smart-file-query mcp` as a client does: the real server process,
// spawned from the CLI, and the SDK's own Client over StdioClientTransport;
// the checks every answer of a compact-text tool gets.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect } from 'vitest';
import { missingHits } from './hits';

export const BIN = resolve(__dirname, '..', '..', 'bin', 'smart-file-query.mjs');

export type Result = {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, any>;
  isError?: boolean;
};

export type Server = { client: Client; transport: StdioClientTransport; stderr: () => string; root: string };

/** Every server started, for closeServers. */
const servers: Server[] = [];

/** A server started with `args` in `cwd` (its root: `--root`'s value, else `cwd`), connected. */
export async function startServer(args: string[], cwd: string): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'sfq-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools(); // the client validates structuredContent against these output schemas
  const rootAt = args.indexOf('--root');
  // The root the answers lie under: the engine's, links resolved.
  const root = realpathSync.native(rootAt >= 0 ? resolve(cwd, args[rootAt + 1]) : cwd);
  const server = { client, transport, stderr: () => stderr, root };
  servers.push(server);
  return server;
}

/** Closes every server started. */
export async function closeServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => s.client.close().catch(() => {})));
}

export async function call(server: Server, name: string, args: Record<string, unknown> = {}): Promise<Result> {
  return (await server.client.callTool({ name, arguments: args })) as Result;
}

/** The answer's one text. */
export function text(r: Result): string {
  expect(r.content).toHaveLength(1);
  expect(r.content[0].type).toBe('text');
  return r.content[0].text;
}

/** The tools whose text is compact (lib/mcp/texts.mjs): their JSON is structuredContent. */
export const COMPACT = new Set(['smart_file_query', 'search_code', 'scroll_file', 'grep', 'find_files', 'glob_files', 'grep_content']);

/**
 * Checks a compact text against the structured answer it renders: every hit
 * shown, no JSON, no absolute path.
 */
export function checkCompact(server: Server, tool: string, value: any, body: string) {
  expect(body.startsWith('{'), body.slice(0, 200)).toBe(false);
  expect(missingHits(tool, value, body, server.root), `${tool}: hits missing from\n${body.slice(0, 2000)}`).toEqual([]);
  expect(body).not.toContain(server.root);
}

/**
 * A successful answer: structuredContent when the tool gives it (its text
 * checked to show every hit, or to be its JSON with format "json"), else
 * the text's JSON.
 */
export async function ok(server: Server, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = await call(server, name, args);
  if (r.isError) throw new Error(`${name} failed: ${text(r)}`);
  const body = text(r);
  const value = r.structuredContent;
  if (value === undefined) return JSON.parse(body);
  const completed = name === 'task_result' && value.status === 'completed' && COMPACT.has(value.tool as string);
  if (args.format === 'json' || !(COMPACT.has(name) || completed) || value.status === 'running') {
    expect(JSON.parse(body)).toEqual(value);
  } else if (completed) {
    const [head, ...rest] = body.split('\n');
    expect(head).toMatch(new RegExp(`^${value.task_id} \\(${value.tool}\\): completed in [\\d.]+ s$`));
    checkCompact(server, value.tool as string, value.result, rest.join('\n'));
  } else {
    checkCompact(server, name, value, body);
  }
  return value;
}

/** An error result: its JSON body. */
export async function fails(server: Server, name: string, args: Record<string, unknown>): Promise<{ error: string; code: string; argument?: string }> {
  const r = await call(server, name, args);
  expect(r.isError, text(r)).toBe(true);
  return JSON.parse(text(r));
}

/** task_result until the task is no longer running. */
export async function result(server: Server, taskId: string): Promise<any> {
  for (;;) {
    const r = await ok(server, 'task_result', { task_id: taskId, wait_seconds: 30 });
    if (r.status !== 'running') return r;
  }
}
