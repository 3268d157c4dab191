// The MCP tools of glob_files, grep_content (seed 004) (see ../tools.mjs).

import { fitKeyedList } from '../budget.mjs';
import { apiOptions, argumentNames, BACKGROUND_NOTE, budgetWords, exclusionWords, inputSchema, nextPage, RUNNING, RUNNING_REQUIRED, SHRUNK, SKIP_COUNTS, snakeKeys, STRINGS, SYMBOL } from './common.mjs';
import { fitFileList } from './seed002.mjs';

export const globFiles = {
  name: 'glob_files',
  title: 'Find files by glob',
  description:
    'Find files matching a glob pattern. Returns {files: [{path, absolute_path, size, modified}], total, returned, ' +
    `truncated, root, pattern}, in path order; skips ${exclusionWords('globFiles')} and .gitignore'd paths ` +
    '(the project file .smart-file-query.json can change the list); hidden paths only with include_hidden.' +
    BACKGROUND_NOTE,
  inputSchema: inputSchema('globFiles', ['pattern']),
  outputSchema: {
    type: 'object',
    properties: {
      files: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'Relative path from root' },
            absolute_path: { type: 'string' },
            size: { type: 'integer', description: 'Bytes (left out with sizes: false)' },
            modified: { type: 'string', description: 'ISO-8601 timestamp (UTC) (left out with sizes: false)' },
          },
          required: ['path', 'absolute_path'],
        },
      },
      total: { type: 'integer', description: 'Total matches found' },
      returned: { type: 'integer' },
      truncated: { type: 'boolean' },
      root: { type: 'string' },
      pattern: { type: 'string' },
      shrunk: SHRUNK,
      ...RUNNING,
    },
    anyOf: [{ required: ['files', 'total', 'returned', 'truncated', 'root', 'pattern'] }, RUNNING_REQUIRED],
  },
  background: true,
  argumentNames: argumentNames('globFiles'),
  pathArgument: 'root',
  patternArgument: 'pattern',
  run: async (args, { api, root }, signal, onProgress) =>
    snakeKeys(
      await api.globFiles({ ...apiOptions('globFiles', args), cwd: root, signal, onProgress }),
    ),
  fit: (value, args, budget) =>
    fitFileList(value, 'files', (f) => f.path, budget, (k, n) =>
      `${budgetWords()}: it shows the first ${k} of its ${n} files and the files per directory. ` +
      `Narrow with root (a directory from by_directory) or a more specific pattern, or ${nextPage(args, k)}.`,
    ),
};

export const grepContent = {
  name: 'grep_content',
  title: 'Regex search in file contents',
  description:
    'Search file contents using regular expressions (JavaScript syntax; Python\'s (?P<name>...) accepted). Returns ' +
    '{matches: [{file, absolute_path, line, column, text, match, context_before, context_after}], total_matches, ' +
    'files_with_matches, files_searched, truncated, pattern, path, file_glob}; case-sensitive, 2 lines of context ' +
    'and 500 matches by default; skips the same paths as glob_files, binary files and files over 1024 KB.' +
    BACKGROUND_NOTE,
  inputSchema: inputSchema('grepContent', ['pattern']),
  outputSchema: {
    type: 'object',
    properties: {
      matches: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            file: { type: 'string', description: 'Relative file path' },
            absolute_path: { type: 'string' },
            line: { type: 'integer', description: 'Line number (1-indexed)' },
            column: { type: 'integer', description: 'Column of match start' },
            text: { type: 'string', description: 'Full line content' },
            match: { type: 'string', description: 'Matched text' },
            context_before: STRINGS,
            context_after: STRINGS,
            text_truncated: { type: 'boolean' },
            symbol: SYMBOL,
          },
          required: ['file', 'absolute_path', 'line', 'column', 'text', 'match', 'context_before', 'context_after'],
        },
      },
      total_matches: { type: 'integer' },
      files_with_matches: { type: 'integer' },
      files_searched: { type: 'integer' },
      truncated: { type: 'boolean' },
      pattern: { type: 'string' },
      path: { type: 'string' },
      file_glob: { type: ['string', 'null'] },
      skipped: SKIP_COUNTS,
      complete: { type: 'boolean' },
      reason: { type: 'string' },
      hint: { type: 'string' },
      shrunk: SHRUNK,
      ...RUNNING,
    },
    anyOf: [{ required: ['matches', 'total_matches', 'files_with_matches', 'files_searched', 'truncated'] }, RUNNING_REQUIRED],
  },
  background: true,
  argumentNames: argumentNames('grepContent'),
  pathArgument: 'path',
  patternArgument: 'pattern',
  run: async (args, { api, root, maxResultBytes }, signal, onProgress) =>
    snakeKeys(
      await api.grepContent({ ...apiOptions('grepContent', args), maxResultBytes, cwd: root, signal, onProgress }),
    ),
  fit: (value, args, budget) =>
    fitKeyedList(value, 'matches', (m) => m.file, budget, (k, n) =>
      `${budgetWords()}: it shows the first ${k} of its ${n} matching lines and the matching lines per directory and file. ` +
      `Narrow with path (a directory or file from by_directory/by_file), file_glob or a more specific pattern, ask for fewer context_lines, or ${nextPage(args, k)}.`,
    ),
};
