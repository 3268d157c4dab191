// The smart-file-query command line: a small dispatcher. A first word naming
// a subcommand (lib/cli/registry.mjs) runs that subcommand's module with the
// remaining words; anything else is seed 000's documented command
// (lib/cli/query.mjs), unchanged.

import { SUBCOMMAND_NAMES } from './cli/names.mjs';
import query from './cli/query.mjs';

export { processIo } from './cli/io.mjs';
export { summaryOf, warnings } from './cli/query.mjs';

/**
 * Runs the CLI. Returns the exit code; writes through `io` (awaiting
 * `io.stdout` when it returns a promise).
 * @param {string[]} argv
 * @param {{ stdout: (s: string | Uint8Array) => void | Promise<void>, stderr: (s: string) => void }} io
 */
export async function main(argv, io) {
  if (argv.length === 0 || !SUBCOMMAND_NAMES.includes(argv[0])) return query.run(argv, io);
  // The subcommands' modules load only when one is asked for.
  const { findSubcommand } = await import('./cli/registry.mjs');
  const command = findSubcommand(argv[0]);
  const rest = argv.slice(1);
  // Every subcommand answers `--help` / `-h` as its first word.
  if (rest[0] === '--help' || rest[0] === '-h') {
    await io.stdout(command.usage);
    return 0;
  }
  return command.run(rest, io);
}
