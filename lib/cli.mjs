// The smart-file-query command line: a small dispatcher. A first word naming
// a subcommand (lib/cli/registry.mjs) runs that subcommand's module with the
// remaining words; anything else is seed 000's documented command
// (lib/cli/query.mjs), unchanged.

import query from './cli/query.mjs';
import { findSubcommand } from './cli/registry.mjs';

export { processIo } from './cli/io.mjs';
export { summaryOf, warnings } from './cli/query.mjs';
export { OUTLINE_USAGE } from './cli/outline.mjs';

/**
 * Runs the CLI. Returns the exit code; writes through `io` (awaiting
 * `io.stdout` when it returns a promise).
 * @param {string[]} argv
 * @param {{ stdout: (s: string | Uint8Array) => void | Promise<void>, stderr: (s: string) => void }} io
 */
export async function main(argv, io) {
  const command = argv.length > 0 ? findSubcommand(argv[0]) : undefined;
  if (command === undefined) return query.run(argv, io);
  const rest = argv.slice(1);
  // Every subcommand answers `--help` / `-h` as its first word.
  if (rest[0] === '--help' || rest[0] === '-h') {
    await io.stdout(command.usage);
    return 0;
  }
  return command.run(rest, io);
}
