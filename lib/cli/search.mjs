// `smart-file-query search QUERY [PATH] [...]`: searchCode (seed 003) from a
// shell; the result object as JSON on stdout, or with --text the hits as
// the MCP tool search_code shows them (lib/mcp/texts.mjs).

import { UsageError, readFlags } from '../args.mjs';
import { searchCodeText } from '../mcp/texts.mjs';
import { applyFlag, briefFailure, CWD_FLAG, CWD_HELP, CwdError, exclusionWords, flagMessage, flagNames, flagRows, flagSpec, lib, resolveCwd, usageFailure, usageRow, wrap } from './common.mjs';

export const SEARCH_USAGE = `Usage: smart-file-query search QUERY [PATH] [options]

${wrap(
  'Code search (searchCode): finds QUERY in the files under PATH (a file or a folder under the current directory; ' +
    `default: all of it), .gitignore, ${exclusionWords('searchCode', ' and ')} excluded, files over 1024 KB skipped. ` +
    'Literal and smart case by default (case-insensitive unless QUERY has an upper-case letter). Prints',
)}
{"query","matchCount","matches":[{"path","lineNumber","content"}],"truncated",...}
as JSON: one entry per matching line; matchCount counts every matching line.
With --text: a head line with the counts (and what was left out), then each
file's path and its matching lines as \`line: text\`, the MCP tool
search_code's text.

${flagRows('searchCode', { caseSensitive: [usageRow('-i, --ignore-case', 'ignore case')] })}
${usageRow('--text', "print the hits grep-style, grouped by file, instead of JSON")}
${CWD_HELP}
  -h, --help              print this help

Exit status: 0 with a result (also when nothing matched), 1 for invalid
input or an I/O error.
`;

const FLAGS = flagNames('searchCode', { path: 'PATH', query: 'QUERY' });

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
        strings: [...flagSpec('searchCode').strings, ...CWD_FLAG.strings],
        booleans: [...flagSpec('searchCode').booleans, 'ignore-case', 'text', 'help'],
        shorts: { h: 'help', i: 'ignore-case', ...CWD_FLAG.shorts },
        positionals: true,
      },
      (name, value) => {
        switch (name) {
          case 'help': help = help || value; break;
          case 'cwd': cwd.push(value); break;
          case 'text': text = value; break;
          case 'case-sensitive': if (value) options.caseSensitive = true; break;
          case 'ignore-case': if (value) options.caseSensitive = false; break;
          default: applyFlag('searchCode', name, value, options);
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
