// The smart-file-query command line: a small dispatcher. A first word naming
// a subcommand (lib/cli/registry.mjs) runs that subcommand's module with the
// remaining words; anything else is seed 000's documented command
// (lib/cli/query.mjs), unchanged. `-C DIR` / `--cwd DIR` may also come before
// the subcommand word (as in git -C DIR): it is then handed to the
// subcommand, which takes the flag too.

import { SUBCOMMAND_NAMES } from './cli/names.mjs';
import query from './cli/query.mjs';

export { processIo } from './cli/io.mjs';
export { summaryOf, warnings } from './cli/query.mjs';

/**
 * The `-C DIR` / `--cwd DIR` flags (`-CDIR`, `--cwd=DIR`) at the start of
 * `argv`, as `--cwd=DIR` words, and the index of the first other word.
 * @param {string[]} argv
 */
function leadingCwd(argv) {
  const flags = [];
  let i = 0;
  for (;;) {
    const word = argv[i];
    if ((word === '-C' || word === '--cwd') && i + 1 < argv.length) {
      flags.push(`--cwd=${argv[i + 1]}`);
      i += 2;
    } else if (word !== undefined && word.startsWith('--cwd=')) {
      flags.push(word);
      i += 1;
    } else if (word !== undefined && /^-C./.test(word)) {
      flags.push(`--cwd=${word.slice(2)}`);
      i += 1;
    } else {
      return { flags, next: i };
    }
  }
}

/**
 * Runs the CLI. Returns the exit code; writes through `io` (awaiting
 * `io.stdout` when it returns a promise).
 * @param {string[]} argv
 * @param {{ stdout: (s: string | Uint8Array) => void | Promise<void>, stderr: (s: string) => void }} io
 */
export async function main(argv, io) {
  const { flags, next } = leadingCwd(argv);
  if (next >= argv.length || !SUBCOMMAND_NAMES.includes(argv[next])) return query.run(argv, io);
  // The subcommands' modules load only when one is asked for.
  const { findSubcommand } = await import('./cli/registry.mjs');
  const command = findSubcommand(argv[next]);
  const rest = argv.slice(next + 1);
  // Every subcommand answers `--help` / `-h` as its first word.
  if (rest[0] === '--help' || rest[0] === '-h') {
    await io.stdout(command.usage);
    return 0;
  }
  return command.run([...flags, ...rest], io);
}
