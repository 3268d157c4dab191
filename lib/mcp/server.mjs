// `smart-file-query mcp`: the MCP server. One server per process, over stdio:
// its client session has its own window viewer and its own background tasks.
// Every tool is a thin adapter over the public JS API (lib/mcp/tools.mjs);
// this module checks arguments, runs the adapters (in the background when a
// search outlasts timeout_seconds), keeps answers under the character budget
// and turns errors into MCP error results that name the argument.

import { createRequire } from 'node:module';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ArgumentError, checkArguments } from './arguments.mjs';
import {
  DEFAULT_MAX_RESULT_CHARS,
  DEFAULT_MAX_RESULT_TOKENS,
  clampString,
  clampStrings,
  fitAny,
  jsonBudget,
  jsonSize,
  searchResultBytes,
  textBudget,
} from './budget.mjs';
import { timeoutSeconds as waitSeconds } from './config.mjs';
import { KEEP_MS, MAX_RUNNING, TaskError, TaskRegistry } from './tasks.mjs';
import { FORMAT, TEXTS, isRunning, withFormat } from './texts.mjs';
import { TOOLS } from './tools.mjs';
import { version } from '../version.js';

const require = createRequire(import.meta.url);

/** The longest task_result wait a call may ask for, in seconds. */
export const MAX_WAIT_SECONDS = 60;

const READ_ONLY = { readOnlyHint: true, openWorldHint: false };
const PATH_CODES = new Set(['EOUTSIDEROOT', 'ENOENT', 'ENOTDIR', 'EISDIR', 'EBINARY', 'EACCES']);

const TASK_ID = { type: 'string', description: 'The task_id a search answered with ({status: "running", task_id})' };

/** The tools that follow background tasks (seed 004). */
const TASK_TOOLS = [
  {
    name: 'task_status',
    description:
      'Status of a background search (glob_files, grep_content or search_code that outlasted timeout_seconds): ' +
      'running, completed, failed or cancelled, with the elapsed time; while it runs, progress: files searched out of the ' +
      'candidates found so far, matches so far and the first hits already found (path, line, text). Without task_id: every task of this session, and ' +
      'what the server\'s warm session on the root holds (every tool answers through it, each answer the cold one).',
    inputSchema: { type: 'object', additionalProperties: false, properties: { task_id: TASK_ID } },
  },
  {
    name: 'task_result',
    description:
      'The result of a background search: {status: "completed", result} with the answer the tool would have given, ' +
      `or {status: "running"} while it runs. wait_seconds (up to ${MAX_WAIT_SECONDS}) waits for it to finish. ` +
      `Results are kept ${KEEP_MS / 60000} minutes after the search ends.`,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        task_id: TASK_ID,
        format: { ...FORMAT, description: `${FORMAT.description} (default: the format the search was asked for)` },
        wait_seconds: {
          type: 'number',
          minimum: 0,
          maximum: MAX_WAIT_SECONDS,
          description: `Wait up to this many seconds for a running task to finish (default: 0, answer at once; at most ${MAX_WAIT_SECONDS})`,
        },
      },
      required: ['task_id'],
    },
  },
  {
    name: 'task_cancel',
    description: 'Stop a running background search. Its task then reports status "cancelled".',
    inputSchema: { type: 'object', additionalProperties: false, properties: { task_id: TASK_ID }, required: ['task_id'] },
  },
];

function textResult(text, isError = false) {
  const result = { content: [{ type: 'text', text }] };
  if (isError) result.isError = true;
  return result;
}

function jsonResult(value, structured) {
  return withStructure(textResult(JSON.stringify(value)), structured ? value : undefined);
}

function withStructure(result, value) {
  if (value !== undefined) result.structuredContent = value;
  return result;
}

/** A call's arguments without `format` (which only the server reads), and the format. */
function splitFormat(args) {
  const { format, ...rest } = args ?? {};
  return [rest, format];
}

/** An MCP error result: `{error, code, argument?}` as JSON text. */
function errorResult({ message, code, argument }) {
  const body = { error: clampString(String(message), 4000), code };
  if (argument !== undefined) body.argument = argument;
  return textResult(JSON.stringify(body), true);
}

/** An API error in terms of the tool's arguments. */
export function toolError(spec, args, e) {
  const code = typeof e?.code === 'string' ? e.code : 'EINTERNAL';
  // 'grepContent: ...' speaks of the API; the tool name goes in front instead.
  let message = String(e?.message ?? e).replace(/^[a-z][A-Za-z]*: (?!option ')/, '');
  let argument;
  const names = spec.argumentNames ?? {};
  let m;
  if ((m = /^[A-Za-z]+: option '([^']+)' ([^]*)$/.exec(message)) && Object.hasOwn(names, m[1])) {
    argument = names[m[1]];
    message = `argument '${argument}' ${m[2]}`;
  } else if ((m = /^invalid ([A-Za-z]+) glob: ([^]*)$/.exec(message)) && Object.hasOwn(names, m[1])) {
    argument = names[m[1]];
    message = `argument '${argument}' is an invalid glob: ${m[2]}`;
  } else if (code === 'ENOTOPEN') {
    argument = 'action';
    message = "no file is open; call scroll_file with action 'open' and a path first";
  } else {
    for (const [re, name] of spec.messageArguments ?? []) {
      if (re.test(message)) {
        argument = name;
        break;
      }
    }
    if (argument === undefined && code === 'EINVALIDREGEX') argument = spec.patternArgument;
    if (argument === undefined && PATH_CODES.has(code) && spec.pathArgument && args?.[spec.pathArgument] !== undefined) {
      argument = spec.pathArgument;
    }
    if (argument !== undefined) message = `argument '${argument}': ${message}`;
  }
  return { code, message: `${spec.name}: ${message}`, argument };
}

/**
 * The API the tools call: each query the session has goes to the session
 * (the `cwd: root` the tools pass is its root, so it is dropped), the rest
 * (createWindowViewer, formatOutline) to the module.
 * @param {object} module the package's API
 * @param {() => Promise<object>} opened the session, opened on first use
 * @param {string} root
 */
function sessionApi(module, opened, root) {
  const SESSION_QUERIES = new Set([
    'smartFileQuery', 'searchCode', 'grep', 'grepContent', 'globFiles', 'findFiles',
    'survey', 'scout', 'sample', 'show', 'getOutline',
  ]);
  const atRoot = (o) => {
    if (o === null || typeof o !== 'object' || Array.isArray(o) || o.cwd !== root) return o;
    const { cwd: _root, ...rest } = o;
    return rest;
  };
  return new Proxy(module, {
    get(target, name, receiver) {
      if (typeof name !== 'string' || !SESSION_QUERIES.has(name)) return Reflect.get(target, name, receiver);
      return async (...args) => (await opened())[name](...args.map(atRoot));
    },
  });
}

/** task_status's view of the session: what it holds and how its last call went. */
function sessionSummary(stats) {
  return {
    files_known: stats.filesKnown,
    content_bytes: stats.contentBytes,
    calls: stats.calls,
    freshness: stats.freshness,
    last_call_files_reread: stats.filesReread,
    last_call_files_reused: stats.filesReused,
  };
}

/**
 * The MCP server of one client session.
 * @param {{
 *   root: string,
 *   timeoutSeconds?: number,
 *   maxResultChars?: number,
 *   maxResultTokens?: number,
 *   warn?: (message: string) => void,
 *   api?: object,
 * }} options `root`: absolute directory every path stays inside;
 *   `timeoutSeconds`: `--timeout-seconds` (else the project file's, else 30)
 */
export function createMcpServer(options) {
  const root = options.root;
  const budget = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  const limits = { chars: budget, tokens: options.maxResultTokens ?? DEFAULT_MAX_RESULT_TOKENS };
  const warn = options.warn ?? (() => {});
  const module = options.api ?? require('../../index.js');
  // Every query goes through one session on the root: warm answers, each the
  // cold call's (lib/session.js). Opened at the first call.
  let session;
  const opened = () => {
    session ??= module.openSession({ cwd: root });
    return session;
  };
  const api = sessionApi(module, opened, root);
  const ctx = { api, root, viewer: module.createWindowViewer(100, { cwd: root }), maxResultBytes: searchResultBytes(budget) };
  const tasks = new TaskRegistry();
  const specs = new Map(TOOLS.map((t) => [t.name, t]));
  const warned = new Set();
  const warnOnce = (message) => {
    if (warned.has(message)) return;
    warned.add(message);
    warn(message);
  };

  const server = new Server(
    { name: 'smart-file-query', version },
    {
      capabilities: { tools: {} },
      instructions:
        `Read-only search and navigation of the repository at ${root}. Paths are relative to it (absolute paths ` +
        'inside it work too); paths outside it are refused. The searches answer in text, grep-style: a head line with ' +
        'the counts, then each file\'s path and its matching lines as `line: text` (the JSON answer is in ' +
        'structuredContent; format: "json" gives it as the text). Answers are kept under ' +
        `${limits.tokens} tokens and ${budget} characters: a larger answer is shrunk to its first hits with counts per ` +
        'directory, and the head line says what was left out and how to narrow or page. glob_files, grep_content and search_code ' +
        'answer {status: "running", task_id} when a search outlasts timeout_seconds: get the result with task_result.',
    },
  );

  const listed = [...TOOLS, ...TASK_TOOLS].map((t) => {
    const tool = { name: t.name };
    if (t.title) tool.title = t.title;
    tool.description = t.description;
    tool.inputSchema = t.inputSchema;
    if (Object.hasOwn(TEXTS, t.name)) tool.inputSchema = withFormat(t.inputSchema);
    if (t.outputSchema) tool.outputSchema = t.outputSchema;
    tool.annotations = READ_ONLY;
    return tool;
  });

  const schemas = new Map(listed.map((t) => [t.name, t.inputSchema]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));

  /** The compact text of a tool's answer, or undefined for JSON. */
  function renderer(spec, value, args, format) {
    const render = TEXTS[spec.name];
    if (render === undefined || format === 'json' || isRunning(value)) return undefined;
    return (v) => render(v, args, ctx);
  }

  /**
   * A tool's answer `value`, shrunk to the budget (less a line above it,
   * `above`): `{ text, value }`, the value with the hits the text shows.
   */
  function fitted(spec, value, args, format, above) {
    const render = renderer(spec, value, args, format);
    if (spec.text) {
      const room = above === undefined ? textBudget(limits, String) : textBudget(limits, String).less(above);
      return { text: spec.text(value, args, room, ctx) };
    }
    if (render === undefined) {
      const room = above === undefined ? jsonBudget(budget) : jsonBudget(budget).less(above);
      const shrunk = spec.fit(value, args, room, ctx);
      return { text: JSON.stringify(shrunk), value: shrunk };
    }
    const room = above === undefined ? textBudget(limits, render) : textBudget(limits, render).less(above);
    const shrunk = spec.fit(value, args, room, ctx);
    return { text: render(shrunk), value: shrunk };
  }

  /** A tool's answer to the client, under the budget. */
  function answer(spec, value, rawArgs) {
    const [args, format] = splitFormat(rawArgs);
    const out = fitted(spec, value, args, format);
    return withStructure(textResult(out.text), spec.outputSchema !== undefined ? out.value : undefined);
  }

  function follow(task) {
    return (
      `Get its result with task_result (task_id "${task.id}"; wait_seconds waits up to ${MAX_WAIT_SECONDS} s), ` +
      'follow it with task_status, or stop it with task_cancel.'
    );
  }

  function running(task, seconds) {
    return {
      status: 'running',
      task_id: task.id,
      tool: task.tool,
      elapsed_seconds: tasks.elapsedSeconds(task),
      message: `The search is still running after ${seconds} s and goes on in the background. ${follow(task)}`,
    };
  }

  async function callSearch(spec, args, signal) {
    const [runArgs] = splitFormat(args);
    if (!spec.background) return answer(spec, await spec.run(runArgs, ctx, signal), args);
    // The engine's progress counters, kept on the task for task_status.
    let task;
    task = tasks.start(spec.name, args, (taskSignal) =>
      spec.run(runArgs, ctx, taskSignal, (progress) => {
        if (task !== undefined) task.progress = progress;
      }),
    );
    // A client that cancels its request while it still waits stops the search.
    const onAbort = () => tasks.cancel(task);
    signal.addEventListener('abort', onAbort, { once: true });
    const seconds = waitSeconds({ root, timeoutSeconds: options.timeoutSeconds, warn: warnOnce });
    try {
      await tasks.wait(task, seconds * 1000, signal);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (task.status === 'running') {
      tasks.announce(task);
      return jsonResult(running(task, seconds), spec.outputSchema !== undefined);
    }
    tasks.forget(task);
    if (task.status === 'failed') throw task.error;
    if (task.status === 'cancelled') throw Object.assign(new Error('the request was cancelled'), { code: 'EABORTED' });
    return answer(spec, task.value, args);
  }

  function taskSummary(task) {
    const out = {
      task_id: task.id,
      tool: task.tool,
      status: task.status,
      arguments: clampStrings(task.args, 200),
      started_at: new Date(task.startedAt).toISOString(),
      elapsed_seconds: tasks.elapsedSeconds(task),
    };
    if (task.finishedAt !== undefined) out.finished_at = new Date(task.finishedAt).toISOString();
    if (task.status === 'running') {
      const p = task.progress;
      out.progress = p === undefined
        ? { elapsed_seconds: out.elapsed_seconds }
        : {
          files_searched: p.filesSearched,
          files_total: p.filesTotal,
          matches: p.matches,
          elapsed_seconds: out.elapsed_seconds,
          first_hits: p.firstHits ?? [],
        };
      out.message = 'Still running (files_total grows while files are still being found). task_result with wait_seconds waits for the result.';
    }
    if (task.status === 'failed') out.error = toolError(specs.get(task.tool), task.args, task.error).message;
    return out;
  }

  async function callTaskTool(name, args, signal) {
    if (name === 'task_status') {
      if (args.task_id === undefined) {
        const all = { tasks: tasks.list().map(taskSummary) };
        if (session !== undefined) all.session = sessionSummary((await session).stats());
        return jsonResult(fitAny(all, jsonBudget(budget)), false);
      }
      return jsonResult(fitAny(taskSummary(tasks.get(args.task_id)), jsonBudget(budget)), false);
    }
    const task = tasks.get(args.task_id);
    if (name === 'task_cancel') {
      const stopped = tasks.cancel(task);
      const out = { task_id: task.id, tool: task.tool, status: task.status, elapsed_seconds: tasks.elapsedSeconds(task) };
      if (!stopped) out.message = `The task had already ended (${task.status}); nothing to cancel.`;
      return jsonResult(out, false);
    }
    // task_result
    await tasks.wait(task, (args.wait_seconds ?? 0) * 1000, signal);
    const head = { task_id: task.id, tool: task.tool, status: task.status, elapsed_seconds: tasks.elapsedSeconds(task) };
    const spec = specs.get(task.tool);
    switch (task.status) {
      case 'running':
        return jsonResult({ ...head, message: `Still running. ${follow(task)}` }, false);
      case 'cancelled':
        return jsonResult({ ...head, message: 'The task was cancelled; it has no result.' }, false);
      case 'failed': {
        const error = toolError(spec, task.args, task.error);
        return textResult(JSON.stringify({ ...head, error: clampString(error.message, 4000), code: error.code, ...(error.argument ? { argument: error.argument } : {}) }), true);
      }
      default: {
        const [taskArgs, taskFormat] = splitFormat(task.args);
        const format = args.format ?? taskFormat;
        if (renderer(spec, task.value, taskArgs, format) !== undefined) {
          // The head line, then the tool's text; the JSON in structuredContent.
          const line = `${task.id} (${task.tool}): completed in ${head.elapsed_seconds} s`;
          const out = fitted(spec, task.value, taskArgs, format, line);
          return withStructure(textResult(`${line}\n${out.text}`), { ...head, result: out.value });
        }
        // (8: the budget's own digits replace the part's in shrunk.max_result_chars)
        const room = budget - jsonSize({ ...head, result: null }) - 8;
        // A text answer grows a little as a JSON string (escapes): leave it room.
        const result = spec.text
          ? spec.text(task.value, taskArgs, textBudget({ ...limits, chars: Math.floor(room * 0.9) }, String), ctx)
          : spec.fit(task.value, taskArgs, jsonBudget(room), ctx);
        if (result?.shrunk) result.shrunk.max_result_chars = budget; // the server's, not this part's
        return jsonResult({ ...head, result }, false);
      }
    }
  }

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: raw } = request.params;
    const spec = specs.get(name);
    const taskTool = TASK_TOOLS.find((t) => t.name === name);
    if (spec === undefined && taskTool === undefined) {
      return errorResult({
        code: 'EUNKNOWNTOOL',
        message: `unknown tool '${name}'; the tools are ${listed.map((t) => t.name).join(', ')}`,
      });
    }
    let args;
    try {
      args = checkArguments(name, schemas.get(name), raw);
      const problem = spec?.check?.(splitFormat(args)[0], ctx);
      if (problem) throw new ArgumentError(problem[0], problem[1]);
    } catch (e) {
      if (e instanceof ArgumentError) return errorResult(e);
      throw e;
    }
    try {
      if (taskTool) return await callTaskTool(name, args, extra.signal);
      return await callSearch(spec, args, extra.signal);
    } catch (e) {
      if (e instanceof TaskError) return errorResult({ code: e.code, message: `${name}: ${e.message}`, argument: e.argument });
      if (spec === undefined) throw e;
      return errorResult(toolError(spec, args, e));
    }
  });

  return {
    server,
    tasks,
    /** Ends every task and the session (the client is gone). */
    shutdown() {
      tasks.cancelAll();
      session?.then((open) => open.close(), () => {});
    },
  };
}

/**
 * Serves one client over this process's stdin/stdout until stdin ends.
 * Resolves with the exit code.
 * @param {{ root: string, timeoutSeconds?: number, maxResultChars?: number, maxResultTokens?: number, stderr: (s: string) => void }} options
 */
export async function serveStdio(options) {
  const log = (message) => options.stderr(`smart-file-query mcp: ${message}\n`);
  const { server, shutdown } = createMcpServer({ ...options, warn: log });
  const transport = new StdioServerTransport();
  server.onerror = (e) => log(e?.message ?? String(e));
  let finish;
  const done = new Promise((resolve) => {
    finish = resolve;
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    shutdown();
    server.close().catch(() => {}).finally(() => finish(0));
  };
  server.onclose = end;
  process.stdin.once('end', end);
  process.stdin.once('close', end);
  await server.connect(transport);
  log(`serving ${options.root} over stdio (${MAX_RUNNING} searches at most at once)`);
  return done;
}
