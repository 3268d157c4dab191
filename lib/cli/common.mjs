// Helpers shared by the subcommand modules: the program name, the addon
// (loaded on first use, so --help and --version work without it), usage
// failures and engine messages in terms of flags.

import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { UsageError, splitGlobs } from '../args.mjs';
import { OPTIONS } from '../declared.mjs';

export { exclusionWords } from '../declared.mjs';

export const PROGRAM = 'smart-file-query';

const require = createRequire(import.meta.url);

/**
 * lib/native.js (the addon bridge), loaded on first use. When no native binary
 * loads, the CLI prints the loader's message (which package is missing, how to
 * build from source) as one line and exits 1: nothing has been written yet.
 */
export function native() {
  return lib('native.js');
}

/** The package's own modules, e.g. `lib('outline.js')`, loaded on first use (see `native`). */
export function lib(name) {
  try {
    return require(`../${name}`);
  } catch (e) {
    if (!e?.bindingLoadFailure) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
}

/**
 * Reports an invalid command line: `smart-file-query[ COMMAND]: MESSAGE`, a
 * blank line and the usage, on stderr. Returns the exit code, 1.
 * @param {{ stderr: (s: string) => void }} io
 * @param {string | undefined} command the subcommand word, none for the default command
 */
export function usageFailure(io, command, message, usage) {
  io.stderr(`${PROGRAM}${command ? ` ${command}` : ''}: ${message}\n\n${usage}`);
  return 1;
}

/**
 * Reports a bad value that the whole usage would not help with (a regex that
 * does not compile, a --cwd that is no directory): `smart-file-query[
 * COMMAND]: MESSAGE` and one line, the usage's synopsis pointing to --help,
 * on stderr. Returns the exit code, 1.
 * @param {{ stderr: (s: string) => void }} io
 * @param {string | undefined} command the subcommand word, none for the default command
 * @param {string} usage the command's usage text (its first line is shown)
 * @param {string} [what] what --help shows, after "for"
 */
export function briefFailure(io, command, message, usage, what = 'the options') {
  const name = `${PROGRAM}${command ? ` ${command}` : ''}`;
  io.stderr(`${name}: ${message}\n${usage.slice(0, usage.indexOf('\n'))}; run ${name} --help for ${what}\n`);
  return 1;
}

/** A `--cwd` / `-C` that names no usable directory. */
export class CwdError extends Error {}

/**
 * `-C, --cwd <dir>`, as every command spells it (see readFlags's `shorts`),
 * and the line its usage text shows.
 */
export const CWD_FLAG = { strings: ['cwd'], shorts: { C: 'cwd' } };
export const CWD_HELP = `  -C, --cwd <dir>         run in <dir> (relative to the current directory):
                          it is the root, and paths are relative to it`;

/**
 * The directory the `--cwd` values name, as an absolute path: each one is
 * relative to the one before it (as git -C), the first to the process's
 * working directory; none gives the process's working directory. Throws a
 * CwdError saying which value does not name a directory.
 * @param {string[]} values
 */
export function resolveCwd(values) {
  let dir = process.cwd();
  for (const value of values) {
    dir = resolve(dir, value);
    let stat;
    try {
      stat = statSync(dir);
    } catch (e) {
      if (e.code === 'ENOENT') throw new CwdError(`--cwd: no such directory '${value}'`);
      throw new CwdError(`--cwd: cannot use '${value}': ${e.code ?? e.message}`);
    }
    if (!stat.isDirectory()) throw new CwdError(`--cwd: '${value}' is not a directory`);
  }
  return dir;
}

const OPTION = /^[A-Za-z]+: option '([^']+)' /;
const GLOB = /^invalid ([A-Za-z]+) glob: /;

/**
 * An engine message in terms of the command's flags. The engine names API
 * options (`smartFileQuery: option 'contextLines' must be ...`); `flags` maps
 * an option to the flag that sets it (`{ contextLines: '--contextLines' }`),
 * and the message becomes `--contextLines must be ...`. Messages about
 * options the command has no flag for are returned unchanged.
 * @param {string} message
 * @param {Record<string, string>} flags
 */
export function flagMessage(message, flags) {
  let m = OPTION.exec(message);
  if (m && Object.hasOwn(flags, m[1])) return `${flags[m[1]]} ${message.slice(m[0].length)}`;
  m = GLOB.exec(message);
  if (m && Object.hasOwn(flags, m[1])) return `${flags[m[1]]}: invalid glob: ${message.slice(m[0].length)}`;
  return message;
}

/** A subcommand flag's value as a non-negative integer, else a usage error naming the flag. */
export function integer(flag, value) {
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a non-negative integer, got '${value}'`);
  return Number(value);
}

// ---------------------------------------------------------------------------
// The declared flags (lib/declared.mjs): a subcommand's flags for its API's
// options, their usage rows, their parsing and their names in messages.

/** Usage rows are this wide at most; a row's text starts at column 26. */
const WIDTH = 78;
const TEXT_AT = 26;

/** `text` wrapped to lines of at most `width` characters (greedy; a longer word stands alone). */
export function wrap(text, width = WIDTH) {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return [...lines, line].join('\n');
}

/** A usage row: `  left`, then `text` wrapped from column 26 (on the next line when `left` is too long). */
export function usageRow(left, text) {
  const head = `  ${left}`;
  const indent = ' '.repeat(TEXT_AT);
  const [first, ...rest] = wrap(text, WIDTH - TEXT_AT).split('\n');
  const top = head.length + 2 <= TEXT_AT ? `${head.padEnd(TEXT_AT)}${first}` : `${head}\n${indent}${first}`;
  return [top, ...rest.map((l) => `${indent}${l}`)].join('\n');
}

const flagged = (api) => OPTIONS[api].options.filter((o) => o.cli);

/**
 * The usage rows of `api`'s flags, in its table's order; `extra` rows (already
 * formatted) follow the option they are keyed by.
 * @param {string} api
 * @param {Record<string, string[]>} [extra]
 */
export function flagRows(api, extra = {}) {
  const rows = [];
  for (const o of flagged(api)) {
    rows.push(usageRow(o.cli.value ? `${o.cli.flag} ${o.cli.value}` : o.cli.flag, o.cli.doc));
    rows.push(...(extra[o.name] ?? []));
  }
  return rows.join('\n');
}

/** readFlags' `strings` and `booleans` for `api`'s flags (names without `--`). */
export function flagSpec(api) {
  const strings = [];
  const booleans = [];
  for (const o of flagged(api)) (o.type === 'boolean' ? booleans : strings).push(o.cli.flag.slice(2));
  return { strings, booleans };
}

/**
 * Sets the option flag `name` (without `--`, as readFlags reports it) stands
 * for in `options`: integers checked, lists split as declared and gathered
 * over repeats. Returns false when `name` is none of `api`'s flags.
 */
export function applyFlag(api, name, value, options) {
  const o = flagged(api).find((f) => f.cli.flag === `--${name}`);
  if (!o) return false;
  if (o.type === 'integer') options[o.name] = integer(o.cli.flag, value);
  else if (o.type === 'list') {
    const items = o.cli.split === 'globs' ? splitGlobs(value) : o.cli.split === 'comma' ? value.split(',').map((s) => s.trim()).filter(Boolean) : [value];
    (options[o.name] ??= []).push(...items);
  } else options[o.name] = value;
  return true;
}

/** `{ option: '--flag' }` for `api`'s flags, plus `words` (positionals: `{ path: 'PATH' }`), for flagMessage. */
export function flagNames(api, words = {}) {
  return { ...Object.fromEntries(flagged(api).map((o) => [o.name, o.cli.flag])), ...words };
}
