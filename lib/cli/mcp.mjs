// `smart-file-query mcp [--root DIR] [--timeout-seconds N] [--max-result-tokens N] [--max-result-chars N]`:
// the MCP server over stdio (lib/mcp/server.mjs). Stdout carries the protocol
// and nothing else; diagnostics go to stderr; closing stdin ends the server
// and its background searches.

import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, readFlags } from '../args.mjs';
import { DEFAULT_MAX_RESULT_CHARS, DEFAULT_MAX_RESULT_TOKENS, MIN_MAX_RESULT_CHARS, MIN_MAX_RESULT_TOKENS } from '../mcp/budget.mjs';
import { TOOLS } from '../mcp/tools.mjs';
import { CWD_FLAG, CwdError, lib, resolveCwd, usageFailure, wrap } from './common.mjs';

/**
 * The background tasks' tools, which lib/mcp/server.mjs defines (it loads the
 * MCP SDK, too much for a help text); __tests__/mcp.test.ts checks that this
 * help names every tool the server lists.
 */
const TASK_TOOL_NAMES = ['task_status', 'task_result', 'task_cancel'];

const SERVES = wrap(
  "Serves the package's tools to an MCP client (Claude Code, Claude Desktop, Cursor...) over stdio: " +
    `${TOOLS.map((t) => t.name).join(', ')}, and ${TASK_TOOL_NAMES.join(', ')} for searches that went on in the background. ` +
    'All are read-only; every path stays inside the root. Register it in a client as the command "npx smart-file-query mcp".',
);

export const MCP_USAGE = `Usage: smart-file-query mcp [--root DIR] [--timeout-seconds N]
                          [--max-result-tokens N] [--max-result-chars N]

${SERVES}

  --root <dir>              the directory served (default: the current one)
  -C, --cwd <dir>           run in <dir> (relative to the current directory):
                            it is served, or --root is relative to it
  --timeout-seconds <n>     how long glob_files, grep_content and search_code
                            wait before a search goes on in the background
                            (default: timeout_seconds of the project file
                            .smart-file-query.json, else 30; 0: at once)
  --max-result-tokens <n>   the most tokens a tool answer's text has (an
                            estimate of o200k's count that errs high); a
                            larger answer is shrunk to its first hits with
                            counts (default ${DEFAULT_MAX_RESULT_TOKENS}, at least ${MIN_MAX_RESULT_TOKENS})
  --max-result-chars <n>    the most characters a tool answer's text has, JSON
                            answers (format "json") included (default ${DEFAULT_MAX_RESULT_CHARS},
                            at least ${MIN_MAX_RESULT_CHARS})
  -h, --help                print this help

Stdout carries only the protocol; diagnostics go to stderr. The server ends
when its stdin closes.
`;

function number(flag, value, { min, max, integer }) {
  const ok = integer ? /^\d+$/.test(value) : /^\d+(\.\d+)?$/.test(value);
  const n = Number(value);
  if (!ok || n < min || n > max) {
    throw new UsageError(`${flag} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got '${value}'`);
  }
  return n;
}

async function run(argv, io) {
  let help = false;
  let rootArgument;
  const cwd = [];
  let timeoutSeconds;
  let maxResultChars = DEFAULT_MAX_RESULT_CHARS;
  let maxResultTokens = DEFAULT_MAX_RESULT_TOKENS;
  try {
    readFlags(
      argv,
      {
        strings: ['root', 'timeout-seconds', 'max-result-chars', 'max-result-tokens', ...CWD_FLAG.strings],
        booleans: ['help'],
        shorts: { h: 'help', ...CWD_FLAG.shorts },
      },
      (name, value) => {
        switch (name) {
          case 'help': help = help || value; break;
          case 'root': rootArgument = value; break;
          case 'cwd': cwd.push(value); break;
          case 'timeout-seconds': timeoutSeconds = number('--timeout-seconds', value, { min: 0, max: 86400 }); break;
          case 'max-result-chars':
            maxResultChars = number('--max-result-chars', value, { min: MIN_MAX_RESULT_CHARS, max: 100000000, integer: true });
            break;
          case 'max-result-tokens':
            maxResultTokens = number('--max-result-tokens', value, { min: MIN_MAX_RESULT_TOKENS, max: 25000000, integer: true });
            break;
        }
      },
    );
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageFailure(io, 'mcp', e.message, MCP_USAGE);
  }
  if (help) {
    await io.stdout(MCP_USAGE);
    return 0;
  }
  let root;
  try {
    root = resolve(resolveCwd(cwd), rootArgument ?? '.');
  } catch (e) {
    if (!(e instanceof CwdError)) throw e;
    return usageFailure(io, 'mcp', e.message, MCP_USAGE);
  }
  let stat;
  try {
    stat = statSync(root);
  } catch (e) {
    return usageFailure(io, 'mcp', `--root: cannot use '${root}': ${e.code ?? e.message}`, MCP_USAGE);
  }
  if (!stat.isDirectory()) return usageFailure(io, 'mcp', `--root: '${root}' is not a directory`, MCP_USAGE);
  // The root as the engine resolves it (links followed; on Windows the long
  // names, never the verbatim form), so the paths of its answers lie under it.
  try {
    root = realpathSync.native(root);
  } catch (e) {
    return usageFailure(io, 'mcp', `--root: cannot resolve '${root}': ${e.code ?? e.message}`, MCP_USAGE);
  }

  // Stdout is the protocol's: anything logged goes to stderr instead.
  for (const method of ['log', 'info', 'debug']) console[method] = (...args) => console.error(...args);

  lib('../index.js'); // the addon now: without one, a one-line message and exit 1 before any protocol
  const { serveStdio } = await import('../mcp/server.mjs');
  const code = await serveStdio({ root, timeoutSeconds, maxResultChars, maxResultTokens, stderr: io.stderr });
  // Searches cancelled at shutdown stop at their next check; do not wait longer.
  setTimeout(() => process.exit(code), 1000).unref();
  return code;
}

export default {
  name: 'mcp',
  summary: 'Serve every tool to an MCP client over stdio (read-only, rooted at the cwd)',
  usage: MCP_USAGE,
  run,
};
