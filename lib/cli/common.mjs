// Helpers shared by the subcommand modules: the program name, the addon
// (loaded on first use, so --help and --version work without it), usage
// failures and engine messages in terms of flags.

import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { UsageError } from '../args.mjs';

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
/** `--recurse-submodules` (the commands that search or list the tree). */
export const SUBMODULES_HELP = `  --recurse-submodules    search initialised git submodules too, as
                          git ls-files --recurse-submodules lists them`;
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
