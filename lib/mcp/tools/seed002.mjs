// The MCP tools of grep, find_files (seed 002): the seed's arrays, inside one object shape (see ../tools.mjs).

import { fitKeyedList } from '../budget.mjs';
import { apiOptions, argumentNames, budgetWords, firstN, inputSchema, SHRUNK, STRINGS, TRUNCATED_LIST } from './common.mjs';

export const grep = {
  name: 'grep',
  description: 'Search for text patterns across files. Returns matching lines with context.',
  inputSchema: inputSchema('grep', ['pattern']),
  outputSchema: {
    type: 'object',
    properties: {
      matches: {
        type: 'array',
        description: "The matching lines, in path order (seed 002's array)",
        items: {
          type: 'object',
          properties: {
            file: { type: 'string' },
            line: { type: 'integer' },
            content: { type: 'string' },
            context: { ...STRINGS, description: 'With contextLines: the lines around the match, the match line included, in file order' },
            contextStart: { type: 'integer', description: 'The line number of the first context line' },
          },
          required: ['file', 'line', 'content'],
        },
      },
      truncated: TRUNCATED_LIST('matching lines', 'maxResults'),
      shrunk: SHRUNK,
    },
    required: ['matches', 'truncated'],
  },
  argumentNames: argumentNames('grep'),
  pathArgument: 'path',
  patternArgument: 'pattern',
  run: async (args, { api, root, maxResultBytes }, signal) => {
    const { list, more } = await firstN('grep', args.maxResults, (maxResults) => api.grep({ ...apiOptions('grep', args), maxResults, maxResultBytes, cwd: root, signal }));
    return { matches: list, truncated: more };
  },
  fit: (value, args, budget) =>
    fitKeyedList(value, 'matches', (m) => m.file, budget, (k, n) =>
      `${budgetWords()}: it shows the first ${k} of its ${n} matching lines and the matching lines per directory and file. ` +
      'Narrow with path (a directory or file from by_directory/by_file) or a more specific pattern, or ask for fewer maxResults or contextLines.',
    ),
};

export const findFiles = {
  name: 'find_files',
  description: 'Find files by name pattern (glob). Respects .gitignore.',
  inputSchema: inputSchema('findFiles', ['pattern']),
  outputSchema: {
    type: 'object',
    properties: {
      files: {
        type: 'array',
        description: "The files and folders found, in path order (seed 002's array)",
        items: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'Relative to the root' },
            type: { type: 'string', enum: ['file', 'dir'] },
            size: { type: 'integer', description: 'Bytes (files only; left out with sizes: false)' },
          },
          required: ['path', 'type'],
        },
      },
      truncated: TRUNCATED_LIST('entries', 'maxResults'),
      shrunk: SHRUNK,
    },
    required: ['files', 'truncated'],
  },
  argumentNames: argumentNames('findFiles'),
  pathArgument: 'path',
  run: async (args, { api, root }, signal) => {
    const { list, more } = await firstN('findFiles', args.maxResults, (maxResults) => api.findFiles({ ...apiOptions('findFiles', args), maxResults, cwd: root }, signal));
    return { files: list, truncated: more };
  },
  fit: (value, args, budget) => fitFileList(value, 'files', (f) => f.path, budget, (k, n) =>
    `${budgetWords()}: it shows the first ${k} of its ${n} entries and the entries per directory. ` +
    'Narrow with path (a directory from by_directory) or a more specific pattern, or ask for fewer maxResults.',
  ),
};

/** A list of files: counts per directory only (per file they are all 1). */
export function fitFileList(value, key, pathOf, budget, hint) {
  if (budget.fits(value)) return value;
  const shrunk = fitKeyedList(value, key, pathOf, budget, hint);
  if (shrunk.shrunk) {
    delete shrunk.shrunk.by_file;
    delete shrunk.shrunk.more_files;
  }
  return shrunk;
}
