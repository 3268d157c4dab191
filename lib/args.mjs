// Command-line parsing for smart-file-query's documented contract (seed 000):
// `--flag value` and `--flag=value`, repeatable comma-separated globs, integer
// validation. Pure: no addon, no I/O, so the reference implementation and the
// tests can use it too. `readFlags` is the shared reader the subcommands under
// lib/cli/ use as well: node:util.parseArgs splits the command line into
// tokens, and the rules and messages of seed 000 are applied to them here
// (parseArgs's own strict-mode messages differ from the documented ones).

import { parseArgs as tokenize } from 'node:util';

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
  --maxLineLength <n>      Cut lines longer than n characters to a window of n
                           around the match, with … at each cut end (default:
                           0, never); use it on minified or generated files,
                           where one line can be megabytes
  --cwd <dir>, -C <dir>    Search under <dir> (relative to the current
                           directory) instead; paths are relative to it
  --recurse-submodules     Search initialised git submodules too, as git
                           ls-files --recurse-submodules lists them (their
                           untracked, not ignored files too)
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

/** `raw` as an integer; the message names the flag. */
export function parseInteger(flag, raw) {
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
 * Reads a command line with seed 000's rules, calling `onFlag(name, value)`
 * for each flag in order (so the first problem is the one reported):
 * `--name value` and `--name=value` for `strings` (the next word is the value
 * even when it starts with a dash), bare `--name`, `--name=true` or
 * `--name=false` for `booleans`, and the one-letter aliases in `shorts`
 * (`{ h: 'help' }`: a boolean's, groupable as in `-hv`; or a string's, as in
 * `-C dir` and `-Cdir`).
 * @param {string[]} argv
 * @param {{ strings?: string[], booleans?: string[], shorts?: Record<string, string>,
 *   positionals?: boolean }} spec with `positionals`, words that are not flags
 *   (and every word after `--`) are returned; without, they are an error.
 * @param {(name: string, value: string | boolean) => void} onFlag
 * @returns {string[]} the positional words
 */
export function readFlags(argv, spec, onFlag) {
  const strings = new Set(spec.strings ?? []);
  const booleans = new Set(spec.booleans ?? []);
  const options = Object.create(null);
  for (const name of strings) options[name] = { type: 'string' };
  for (const name of booleans) options[name] = { type: 'boolean' };
  for (const [letter, name] of Object.entries(spec.shorts ?? {})) {
    if (!booleans.has(name) && !strings.has(name)) throw new TypeError(`readFlags: -${letter} must alias a declared flag`);
    options[name].short = letter;
  }
  const { tokens } = tokenize({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const positionals = [];
  for (const token of tokens) {
    const raw = argv[token.index];
    if (token.kind === 'positional' || token.kind === 'option-terminator') {
      if (!spec.positionals) throw new UsageError(`Unexpected argument '${raw}'`);
      if (token.kind === 'positional') positionals.push(token.value);
      continue;
    }
    if (!token.rawName.startsWith('--')) {
      // A one-letter option: only the declared aliases.
      if (!Object.hasOwn(options, token.name) || options[token.name].short === undefined) {
        throw new UsageError(`Unexpected argument '${raw}'`);
      }
      if (strings.has(token.name)) {
        if (token.value === undefined) throw new UsageError(`Missing value for ${token.rawName}`);
        onFlag(token.name, token.value);
      } else {
        onFlag(token.name, true);
      }
      continue;
    }
    // The name as written (up to the first '='), so that odd words such as
    // `--=x` are named as the user typed them.
    const eq = raw.indexOf('=');
    const name = eq === -1 ? raw.slice(2) : raw.slice(2, eq);
    if (booleans.has(name)) {
      onFlag(name, parseBoolean(name, eq === -1 ? undefined : raw.slice(eq + 1)));
    } else if (strings.has(name)) {
      if (token.value === undefined) throw new UsageError(`Missing value for --${name}`);
      onFlag(name, token.value);
    } else {
      throw new UsageError(`Unknown option '--${name}'`);
    }
  }
  return positionals;
}

const SEED_FLAGS = {
  strings: ['regex', 'flags', 'glob', 'ignore', 'contextLines', 'maxFileSizeKB', 'maxMatches', 'encoding', 'maxLineLength'],
  booleans: ['includeAllContent', 'multiline', 'help'],
};
// The command line's additions to the seed: -h, -v / --version,
// -C / --cwd (the directory searched; `options.cwd` holds every value given,
// each relative to the one before, for the command to resolve) and
// --recurse-submodules (`options.recurseSubmodules: true`).
const CLI_FLAGS = {
  strings: [...SEED_FLAGS.strings, 'cwd'],
  booleans: [...SEED_FLAGS.booleans, 'version', 'recurse-submodules'],
  shorts: { h: 'help', v: 'version', C: 'cwd' },
};
/** The smartFileQuery options the command line sets, each by the flag of its name. */
export const QUERY_OPTIONS = [...SEED_FLAGS.strings, 'includeAllContent', 'multiline'];
const LIST_FLAGS = new Set(['glob', 'ignore']);
const NUMBER_FLAGS = new Set(['contextLines', 'maxFileSizeKB', 'maxMatches', 'maxLineLength']);

function parseWith(spec, argv) {
  const options = {};
  let help = false;
  let version = false;
  readFlags(argv, spec, (name, value) => {
    if (name === 'help') help = help || value;
    else if (name === 'version') version = version || value;
    else if (LIST_FLAGS.has(name)) (options[name] ??= []).push(...splitGlobs(value));
    else if (name === 'cwd') (options.cwd ??= []).push(value);
    else if (name === 'recurse-submodules') {
      if (value) options.recurseSubmodules = true;
      else delete options.recurseSubmodules;
    }
    else if (NUMBER_FLAGS.has(name)) options[name] = parseInteger(name, value);
    else options[name] = value;
  });
  if (help) return { help: true };
  if (version) return { help: false, version: true };
  if (options.regex === undefined) throw new UsageError('Missing required option --regex');
  return { help: false, options };
}

/**
 * Parses the documented flags (seed 000's, exactly) into smartFileQuery
 * options.
 * @param {string[]} argv arguments after the program name
 * @returns {{ help: true } | { help: false, options: object }}
 */
export function parseArgs(argv) {
  return parseWith(SEED_FLAGS, argv);
}

/**
 * {@link parseArgs} plus the command line's additions: `-h` for `--help`,
 * `-v` / `--version` (`{ help: false, version: true }`; `--help` wins), and
 * `-C` / `--cwd` (`options.cwd`: the values given, in order, unresolved).
 * @param {string[]} argv
 * @returns {{ help: true } | { help: false, version: true } | { help: false, options: object }}
 */
export function parseQueryArgs(argv) {
  return parseWith(CLI_FLAGS, argv);
}
