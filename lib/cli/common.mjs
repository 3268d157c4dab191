// Helpers shared by the subcommand modules: the program name, the package
// version, the addon (loaded on first use, so --help and --version work
// without it), usage failures and engine messages in terms of flags.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

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

/** The `version` of the package.json next to lib/. */
export function packageVersion() {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
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
