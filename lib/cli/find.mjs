// `smart-file-query find PATTERN [PATH] [...]`: findFiles (seed 002) from a
// shell; one path per line, or the result as JSON.

import { UsageError, readFlags } from '../args.mjs';
import { listingLines } from '../render/listing.mjs';
import { firstN } from '../declared.mjs';
import { applyFlag, CWD_FLAG, CWD_HELP, CwdError, exclusionWords, flagMessage, flagNames, flagRows, flagSpec, lib, resolveCwd, usageFailure, usageRow, wrap } from './common.mjs';

export const FIND_USAGE = `Usage: smart-file-query find PATTERN [PATH] [options]

${wrap(
  'Lists the files and folders whose path matches the glob PATTERN (findFiles): under PATH (a folder under the ' +
    `current directory; default: all of it), .gitignore respected, ${exclusionWords('findFiles', ' and ')} left out, ` +
    "in path order. A PATTERN without / matches names at any depth ('*.ts'); one with / is matched against paths " +
    "relative to PATH ('src/**/*.test.ts'). Quote it, or the shell expands it first. Prints one path per line, " +
    "relative to the current directory, folders with a trailing /. The files are not stat'ed for their sizes " +
    "(findFiles' sizes: false) unless --json asks for them.",
)}

${flagRows('findFiles', {
  maxResults: [usageRow('--json', 'print findFiles\' answer as JSON instead, sizes included: [{"path","type":"file"|"dir","size"?}]')],
})}
${CWD_HELP}
  -h, --help              print this help

Exit status: 0 with an answer (also when nothing matched), 1 for invalid
input or an I/O error.
`;

const FLAGS = flagNames('findFiles', { pattern: 'PATTERN', path: 'PATH' });

async function run(argv, io) {
  let help = false;
  let json = false;
  const flagged = {};
  const cwd = [];
  let words;
  try {
    words = readFlags(
      argv,
      {
        strings: [...flagSpec('findFiles').strings, ...CWD_FLAG.strings],
        booleans: [...flagSpec('findFiles').booleans, 'json', 'help'],
        shorts: { h: 'help', ...CWD_FLAG.shorts },
        positionals: true,
      },
      (name, value) => {
        switch (name) {
          case 'help': help = help || value; break;
          case 'json': json = value; break;
          case 'cwd': cwd.push(value); break;
          default: applyFlag('findFiles', name, value, flagged);
        }
      },
    );
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageFailure(io, 'find', e.message, FIND_USAGE);
  }
  if (help) {
    await io.stdout(FIND_USAGE);
    return 0;
  }
  if (words.length < 1 || words.length > 2) {
    return usageFailure(io, 'find', `expected PATTERN and at most one PATH, got ${words.length} words`, FIND_USAGE);
  }
  const [pattern, path] = words;
  const { maxResults, ...options } = { ...flagged, pattern };
  if (path !== undefined) options.path = path;
  try {
    if (cwd.length > 0) options.cwd = resolveCwd(cwd);
  } catch (e) {
    if (!(e instanceof CwdError)) throw e;
    io.stderr(`smart-file-query find: ${e.message}\n`);
    return 1;
  }
  // The path list needs no sizes: no lstat per file (--json keeps them).
  if (!json) options.sizes = false;
  const { findFiles } = lib('../index.js');
  let found;
  let more;
  try {
    ({ list: found, more } = await firstN('findFiles', maxResults, (n) => findFiles({ ...options, maxResults: n })));
  } catch (e) {
    const message = flagMessage(e.message, FLAGS);
    if (e.code === 'EINVALIDOPTION') return usageFailure(io, 'find', message, FIND_USAGE);
    io.stderr(`smart-file-query find: ${message} (${e.code})\n`);
    return 1;
  }
  await io.stdout(json ? `${JSON.stringify(found)}\n` : listingLines(found).map((line) => `${line}\n`).join(''));
  if (more) io.stderr(`⚠️  Stopped at --max-results (${found.length}): there are more; raise --max-results or narrow PATTERN or PATH\n`);
  return 0;
}

export default {
  name: 'find',
  summary: 'List files and folders matching a glob (findFiles), one path per line',
  usage: FIND_USAGE,
  run,
};
