// The subcommands: a first word on the command line selects one (see
// lib/cli.mjs). To add one, write lib/cli/<name>.mjs whose default export is
//   { name, summary, usage, run(argv, io) → exit code (or a promise of it) }
// (name: the word; summary: one line for the top-level --help; usage: the
// text for `smart-file-query <name> --help`, ending in a newline; run: gets
// the words after the name and writes through io.stdout / io.stderr, awaiting
// io.stdout so that a closed stdout stops it), then import it below, add it
// to SUBCOMMANDS and its word to lib/cli/names.mjs (the dispatcher loads this
// module only for those words). Without a subcommand word, lib/cli/query.mjs
// (seed 000) runs.

import find from './find.mjs';
import mcp from './mcp.mjs';
import outline from './outline.mjs';
import { sample, scout, show, survey } from './protocol.mjs';
import search from './search.mjs';

/** Every subcommand, in the order the top-level --help lists them. */
export const SUBCOMMANDS = [search, find, outline, survey, scout, sample, show, mcp];

/** The subcommand named `word`, or undefined. */
export function findSubcommand(word) {
  return SUBCOMMANDS.find((command) => command.name === word);
}

/** What the top-level --help prints after seed 000's usage. */
export function helpSection() {
  const width = Math.max(...SUBCOMMANDS.map((c) => c.name.length));
  const lines = SUBCOMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}\n`);
  return `
Subcommands (a first word before the options; without one, the search above):
${lines.join('')}
"smart-file-query SUBCOMMAND --help" prints the usage of a subcommand.
-h is --help; -v or --version prints the version. -C DIR (--cwd DIR) may also
come before a subcommand: "smart-file-query -C ../app find '*.ts'".
`;
}
