// Command-line parsing for smart-file-query's documented contract (seed 000):
// `--flag value` and `--flag=value`, repeatable comma-separated globs, integer
// validation. Pure: no addon, no I/O, so the reference implementation and the
// tests can use it too.

export const USAGE = `Usage: smart-file-query --regex "<pattern>" [options]

Searches the files under the current directory (the files git would list:
tracked plus untracked-but-not-ignored) with a JavaScript regular expression
and prints the matches, with context, as minified JSON on stdout.

Options:
  --regex <pattern>        JavaScript regex source without slashes, passed to
                           new RegExp(pattern, flags) (required)
  --flags <value>          Regex flags, each at most once: i m s u v (g d are
                           accepted, y is refused) (default: "")
  --glob <a,b>             Repo-relative globs selecting files: * ? ** [..]
                           {a,b} (default: **/*); comma-separated, repeatable
  --ignore <a,b>           Globs to exclude, added to .git/**,
                           **/node_modules/**, **/.turbo/**; comma-separated,
                           repeatable
  --contextLines <n>       Lines of context before/after each match, 0-20
                           (default: 2)
  --includeAllContent      Embed the full text of every matched file
  --maxFileSizeKB <n>      Skip files larger than n KiB (default: 256)
  --maxMatches <n>         Stop after n matches in total (default: 500)
  --encoding <e>           utf8 (default), utf16le (ucs2), latin1 (binary),
                           ascii
  --multiline              Match each file's whole text, so a match can span
                           lines (^ and $ then mean file start/end unless the
                           m flag is given)
  --help                   Print this help and exit

Both "--flag value" and "--flag=value" work. A comma inside {a,b} does not
separate globs.

Shell quoting: the pattern is raw regex text, not JSON and not a /literal/.
Quote it for your shell and let the shell do the escaping: in bash and zsh
use single quotes, e.g. --regex 'foo\\(\\s*bar' ; inside double quotes the
shell may expand $ and \` and eat backslashes.

Output: {"query":{...},"results":[...],"skipped":[...],"aggregate":{...}}
Exit status: 0 on success (also when nothing matched); 1 for invalid options,
an invalid regex, flags or encoding, or a fatal I/O error.
`;

const VALUE_FLAGS = new Set(['regex', 'flags', 'glob', 'ignore', 'contextLines', 'maxFileSizeKB', 'maxMatches', 'encoding']);
const BOOLEAN_FLAGS = new Set(['includeAllContent', 'multiline', 'help']);
const LIST_FLAGS = new Set(['glob', 'ignore']);
const NUMBER_FLAGS = new Set(['contextLines', 'maxFileSizeKB', 'maxMatches']);

/** An invalid command line: reported with the usage. */
export class UsageError extends Error {}

/**
 * Splits a comma-separated glob list. Commas inside `{...}` or `[...]`, or
 * escaped with a backslash, do not separate; entries are trimmed and empty
 * ones dropped.
 */
export function splitGlobs(value) {
  const out = [];
  let depth = 0;
  let inClass = false;
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && i + 1 < value.length) {
      current += c + value[i + 1];
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
    } else if (c === '{') {
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
    } else if (c === ',' && depth === 0) {
      out.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  out.push(current);
  return out.map((g) => g.trim()).filter((g) => g !== '');
}

function parseInteger(flag, raw) {
  const text = raw.trim();
  if (!/^[+-]?\d+$/.test(text)) {
    throw new UsageError(`--${flag} must be a finite integer, got '${raw}'`);
  }
  return Number(text);
}

function parseBoolean(flag, raw) {
  if (raw === undefined || raw === 'true') return true;
  if (raw === 'false') return false;
  throw new UsageError(`--${flag} takes no value (or =true / =false), got '${raw}'`);
}

/**
 * Parses the documented flags into smartFileQuery options.
 * @param {string[]} argv arguments after the program name
 * @returns {{ help: true } | { help: false, options: object }}
 */
export function parseArgs(argv) {
  const options = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--') || arg === '--') {
      throw new UsageError(`Unexpected argument '${arg}'`);
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    let value = eq === -1 ? undefined : arg.slice(eq + 1);
    if (BOOLEAN_FLAGS.has(name)) {
      const on = parseBoolean(name, value);
      if (name === 'help') help = help || on;
      else options[name] = on;
      continue;
    }
    if (!VALUE_FLAGS.has(name)) {
      throw new UsageError(`Unknown option '--${name}'`);
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`Missing value for --${name}`);
      value = argv[++i];
    }
    if (LIST_FLAGS.has(name)) {
      (options[name] ??= []).push(...splitGlobs(value));
    } else if (NUMBER_FLAGS.has(name)) {
      options[name] = parseInteger(name, value);
    } else {
      options[name] = value;
    }
  }
  if (help) return { help: true };
  if (options.regex === undefined) throw new UsageError('Missing required option --regex');
  return { help: false, options };
}
