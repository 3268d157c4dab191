// The default command (no subcommand word): seed 000's documented contract,
// kept exactly. `smart-file-query --regex <pattern> [options]` prints the
// payload as minified JSON on stdout, warnings on stderr, exit 0 on success,
// exit 1 with a message on failure: with the usage for a bad command line,
// with the usage's first line and a pointer to --help for a regex or flags
// that do not compile or a --cwd that is no directory (the options are not
// what is wrong there), with the error code for an I/O error.

import { QUERY_OPTIONS, USAGE, UsageError, parseQueryArgs } from '../args.mjs';
import { CwdError, briefFailure, flagMessage, native, resolveCwd, usageFailure } from './common.mjs';
import { version } from '../version.js';

// Every option the command line can send has a flag of the same name.
const FLAGS = { ...Object.fromEntries(QUERY_OPTIONS.map((name) => [name, `--${name}`])), recurseSubmodules: '--recurse-submodules' };

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
  const { skipped, aggregate, hint } = JSON.parse(`{${json.subarray(tail).toString('utf8')}`);
  return { query, skipped, aggregate, hint };
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
  if (payload.hint) out.push(`⚠️  No match: ${payload.hint}`);
  return out;
}

async function run(argv, io) {
  let parsed;
  try {
    parsed = parseQueryArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageFailure(io, undefined, e.message, USAGE);
  }
  if (parsed.help) {
    // The usage printed after an error stays seed 000's; --help adds the subcommands.
    const { helpSection } = await import('./registry.mjs');
    await io.stdout(`${USAGE}${helpSection()}`);
    return 0;
  }
  if (parsed.version) {
    await io.stdout(`${version}\n`);
    return 0;
  }
  if (parsed.options.cwd !== undefined) {
    try {
      parsed.options.cwd = resolveCwd(parsed.options.cwd);
    } catch (e) {
      if (!(e instanceof CwdError)) throw e;
      return briefFailure(io, undefined, e.message, USAGE);
    }
  }
  // The real stdout gets the JSON from the engine as the files are merged
  // (the same bytes, memory bounded by one file's result); other io (tests,
  // embedders) gets it whole.
  let summary;
  try {
    const addon = native();
    addon.checkRegExp(parsed.options.regex, parsed.options.flags);
    if (io.direct) {
      summary = JSON.parse(await addon.runToStdout(parsed.options, 'regex'));
    } else {
      const json = await addon.runJson('smartFileQuery', parsed.options, 'regex');
      await io.stdout(json);
      summary = summaryOf(json);
    }
  } catch (e) {
    if (e.code === 'EPIPE' && io.direct) {
      io.quit(); // the reader went away: quietly, as rg
      return 0;
    }
    const message = flagMessage(e.message, FLAGS);
    // V8's message says what is wrong with the pattern or flags; the usage
    // would bury it.
    if (e.code === 'EINVALIDREGEX') return briefFailure(io, undefined, message, USAGE, 'the options and how to quote a pattern');
    if (e.code === 'EINVALIDOPTION') return usageFailure(io, undefined, message, USAGE);
    io.stderr(`smart-file-query: ${message} (${e.code})\n`);
    return 1;
  }
  for (const line of warnings(summary)) io.stderr(`${line}\n`);
  return 0;
}

/** The default command's descriptor (not in the registry: it has no word). */
export default {
  name: 'query',
  summary: 'Search files with a JavaScript regex; matches with context as minified JSON (the default: no subcommand word)',
  usage: USAGE,
  run,
};
