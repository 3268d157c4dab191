// The smart-file-query command line. The documented contract of seed 000 is
// kept exactly: `smart-file-query --regex <pattern> [options]` prints the
// payload as minified JSON on stdout, warnings on stderr, exit 0 on success,
// exit 1 with a message (and the usage, for bad options) on failure.

import { createRequire } from 'node:module';
import { USAGE, UsageError, parseArgs } from './args.mjs';

const require = createRequire(import.meta.url);
const native = require('./native.js');

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The query echo, `skipped` and `aggregate` of a payload without parsing its
 * (possibly huge) `results`. Exact: the byte sequences searched for can only
 * occur as top-level keys, because quotes inside JSON strings are escaped.
 */
export function summaryOf(json) {
  const head = json.indexOf(',"results":[');
  const tail = json.lastIndexOf('"skipped":[');
  const { query } = JSON.parse(`${json.subarray(0, head).toString('utf8')}}`);
  const { skipped, aggregate } = JSON.parse(`{${json.subarray(tail).toString('utf8')}`);
  return { query, skipped, aggregate };
}

/** Diagnostics for stderr, from the payload summary. */
export function warnings(payload) {
  const out = [];
  const count = (reason) => payload.skipped.filter((s) => s.reason === reason).length;
  const big = count('maxFileSizeExceeded');
  if (big) out.push(`⚠️  Skipped ${plural(big, 'file')} over size limit (${payload.query.maxFileSizeKB} KB)`);
  const unreadable = count('readError');
  if (unreadable) out.push(`⚠️  Could not read ${plural(unreadable, 'file')} (see "skipped")`);
  const budget = count('regexBudgetExceeded');
  if (budget) {
    out.push(`⚠️  The regex exceeded its work budget in ${plural(budget, 'file')} (catastrophic backtracking?); those files were skipped`);
  }
  if (payload.aggregate.truncated) {
    out.push(`⚠️  Stopped at maxMatches (${payload.query.maxMatches}): results are truncated`);
  }
  return out;
}

/**
 * Runs the CLI. Returns the exit code; writes through `io`.
 * @param {string[]} argv
 * @param {{ stdout: (s: string | Uint8Array) => void, stderr: (s: string) => void }} io
 */
export async function main(argv, io) {
  if (argv[0] === 'outline') return outlineCommand(argv.slice(1), io);
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`smart-file-query: ${e.message}\n\n${USAGE}`);
    return 1;
  }
  if (parsed.help) {
    io.stdout(USAGE);
    return 0;
  }
  let json;
  try {
    native.checkRegExp(parsed.options.regex, parsed.options.flags);
    json = await native.runJson('smartFileQuery', parsed.options, 'regex');
  } catch (e) {
    const usage = e.code === 'EINVALIDOPTION' || e.code === 'EINVALIDREGEX';
    io.stderr(`smart-file-query: ${e.message}${usage ? '' : ` (${e.code})`}\n${usage ? `\n${USAGE}` : ''}`);
    return 1;
  }
  io.stdout(json);
  for (const line of warnings(summaryOf(json))) io.stderr(`${line}\n`);
  return 0;
}

export const OUTLINE_USAGE = `Usage: smart-file-query outline FILE [--json]

Prints the outline (skeleton) of FILE: classes, functions, methods,
interfaces, types... with their line ranges, members indented. Parsed with
tree-sitter for TypeScript, TSX, JavaScript, Python, Rust, Go, Java, C and
C++; other text files get a best-effort outline marked approximate.

  --json    print the outline object (getOutline's result) as JSON
  --help    print this help
`;

async function outlineCommand(argv, io) {
  let json = false;
  const files = [];
  for (const arg of argv) {
    if (arg === '--json') json = true;
    else if (arg === '--help') {
      io.stdout(OUTLINE_USAGE);
      return 0;
    } else if (arg.startsWith('--')) {
      io.stderr(`smart-file-query outline: Unknown option '${arg}'\n\n${OUTLINE_USAGE}`);
      return 1;
    } else files.push(arg);
  }
  if (files.length !== 1) {
    io.stderr(`smart-file-query outline: expected exactly one FILE, got ${files.length}\n\n${OUTLINE_USAGE}`);
    return 1;
  }
  const { getOutline, formatOutline } = require('./outline.js');
  try {
    const result = await getOutline(files[0]);
    io.stdout(json ? JSON.stringify(result) : `${formatOutline(result)}\n`);
    return 0;
  } catch (e) {
    io.stderr(`smart-file-query outline: ${e.message} (${e.code})\n`);
    return 1;
  }
}
