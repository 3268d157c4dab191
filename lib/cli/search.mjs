// `smart-file-query search QUERY [PATH] [...]`: searchCode (seed 003) from a
// shell; the result object as JSON on stdout, or with --text the hits as
// the MCP tool search_code shows them (lib/mcp/texts.mjs).

import { UsageError, readFlags, splitGlobs } from '../args.mjs';
import { searchCodeText } from '../mcp/texts.mjs';
import { CWD_FLAG, CWD_HELP, CwdError, SUBMODULES_HELP, briefFailure, flagMessage, lib, resolveCwd, integer, usageFailure } from './common.mjs';

export const SEARCH_USAGE = `Usage: smart-file-query search QUERY [PATH] [options]

Code search (searchCode): finds QUERY in the files under PATH (a file or a
folder under the current directory; default: all of it), .gitignore, .git and
node_modules excluded, files over 1024 KB skipped. Literal and smart case by
default (case-insensitive unless QUERY has an upper-case letter). Prints
{"query","matchCount","matches":[{"path","lineNumber","content"}],"truncated",...}
as JSON: one entry per matching line; matchCount counts every matching line.
With --text: a head line with the counts (and what was left out), then each
file's path and its matching lines as \`line: text\`, the MCP tool
search_code's text.

  --regex                 read QUERY as a JavaScript regex
  --case-sensitive        exact case
  -i, --ignore-case       ignore case
  --max-results <n>       matching lines returned (default 50)
  --offset <n>            skip this many matching lines first (paging)
  --ext <.ts,.tsx>        only these extensions; comma-separated, repeatable
  --exclude <glob>        exclude paths (a name without / at any depth);
                          comma-separated, repeatable
  --max-line-length <n>   cut longer lines to a window around the match
                          (default 500; 0: off)
  --text                  print the hits grep-style, grouped by file,
                          instead of JSON
${SUBMODULES_HELP}
${CWD_HELP}
  -h, --help              print this help

Exit status: 0 with a result (also when nothing matched), 1 for invalid
input or an I/O error.
`;

const FLAGS = {
  isRegex: '--regex',
  caseSensitive: '--case-sensitive',
  maxResults: '--max-results',
  offset: '--offset',
  includeExtensions: '--ext',
  excludePatterns: '--exclude',
  maxLineLength: '--max-line-length',
  recurseSubmodules: '--recurse-submodules',
  path: 'PATH',
  query: 'QUERY',
};

async function run(argv, io) {
  const options = {};
  let help = false;
  let text = false;
  const cwd = [];
  let words;
  try {
    words = readFlags(
      argv,
      {
        strings: ['max-results', 'offset', 'ext', 'exclude', 'max-line-length', ...CWD_FLAG.strings],
        booleans: ['regex', 'case-sensitive', 'ignore-case', 'recurse-submodules', 'text', 'help'],
        shorts: { h: 'help', i: 'ignore-case', ...CWD_FLAG.shorts },
        positionals: true,
      },
      (name, value) => {
        switch (name) {
          case 'help': help = help || value; break;
          case 'cwd': cwd.push(value); break;
          case 'text': text = value; break;
          case 'regex': options.isRegex = value; break;
          case 'recurse-submodules': options.recurseSubmodules = value; break;
          case 'case-sensitive': if (value) options.caseSensitive = true; break;
          case 'ignore-case': if (value) options.caseSensitive = false; break;
          case 'max-results': options.maxResults = integer('--max-results', value); break;
          case 'offset': options.offset = integer('--offset', value); break;
          case 'max-line-length': options.maxLineLength = integer('--max-line-length', value); break;
          case 'ext': (options.includeExtensions ??= []).push(...value.split(',').map((s) => s.trim()).filter(Boolean)); break;
          case 'exclude': (options.excludePatterns ??= []).push(...splitGlobs(value)); break;
        }
      },
    );
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageFailure(io, 'search', e.message, SEARCH_USAGE);
  }
  if (help) {
    await io.stdout(SEARCH_USAGE);
    return 0;
  }
  if (words.length < 1 || words.length > 2) {
    return usageFailure(io, 'search', `expected QUERY and at most one PATH, got ${words.length} words`, SEARCH_USAGE);
  }
  const [query, path] = words;
  if (path !== undefined) options.path = path;
  try {
    if (cwd.length > 0) options.cwd = resolveCwd(cwd);
  } catch (e) {
    if (!(e instanceof CwdError)) throw e;
    io.stderr(`smart-file-query search: ${e.message}\n`);
    return 1;
  }
  const { searchCode } = lib('../index.js');
  let result;
  try {
    result = await searchCode(query, options);
  } catch (e) {
    const message = flagMessage(e.message, FLAGS);
    if (e.code === 'EINVALIDREGEX') return briefFailure(io, 'search', message, SEARCH_USAGE);
    if (e.code === 'EINVALIDOPTION') return usageFailure(io, 'search', message, SEARCH_USAGE);
    io.stderr(`smart-file-query search: ${message} (${e.code})\n`);
    return 1;
  }
  const spell = { offset: '--offset ', path: 'PATH', extensions: '--ext' };
  await io.stdout(text ? `${searchCodeText(result, options, spell)}\n` : `${JSON.stringify(result)}\n`);
  return 0;
}

export default {
  name: 'search',
  summary: 'Code search (searchCode): literal, smart case, one JSON result (--text: grep-style)',
  usage: SEARCH_USAGE,
  run,
};
