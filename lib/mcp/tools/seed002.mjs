// The MCP tools of grep, find_files (seed 002): the seed's arrays, inside one object shape (see ../tools.mjs).

import { fitKeyedList } from '../budget.mjs';
import { budgetWords, defined, firstN, RECURSE_SUBMODULES, SHRUNK, STRINGS, TRUNCATED_LIST } from './common.mjs';

export const grep = {
  name: 'grep',
  description: 'Search for text patterns across files. Returns matching lines with context.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pattern: { type: 'string', description: 'Text or regex pattern to search for' },
      path: { type: 'string', description: 'Directory or file to search (default: project root)' },
      regex: { type: 'boolean', description: 'Treat pattern as regex (default: false)' },
      caseSensitive: { type: 'boolean', description: 'Case sensitive search (default: false)' },
      maxResults: { type: 'number', description: 'Maximum matches to return (default: 50)' },
      contextLines: {
        type: 'number',
        description: 'Lines of context around each match, 0-20 (default: 0); context then holds them with the match line, from line contextStart',
      },
      recurseSubmodules: RECURSE_SUBMODULES,
    },
    required: ['pattern'],
  },
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
  argumentNames: {
    pattern: 'pattern', path: 'path', regex: 'regex', caseSensitive: 'caseSensitive', maxResults: 'maxResults', contextLines: 'contextLines',
    recurseSubmodules: 'recurseSubmodules',
  },
  pathArgument: 'path',
  patternArgument: 'pattern',
  run: async (args, { api, root, maxResultBytes }, signal) => {
    const { list, more } = await firstN(args.maxResults, 50, (maxResults) => api.grep(defined({ ...args, maxResults, maxResultBytes, cwd: root, signal })));
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
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pattern: { type: 'string', description: 'Glob pattern (e.g., "*.ts", "**/*.test.js")' },
      path: { type: 'string', description: 'Directory to search (default: project root)' },
      maxResults: { type: 'number', description: 'Maximum files to return (default: 100)' },
      sizes: {
        type: 'boolean',
        description: "Give each file's size (default: true); false lists paths and types only, without a stat per file (faster on large trees)",
      },
      recurseSubmodules: RECURSE_SUBMODULES,
    },
    required: ['pattern'],
  },
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
  argumentNames: { pattern: 'pattern', path: 'path', maxResults: 'maxResults', sizes: 'sizes', recurseSubmodules: 'recurseSubmodules' },
  pathArgument: 'path',
  run: async (args, { api, root }, signal) => {
    const { list, more } = await firstN(args.maxResults, 100, (maxResults) => api.findFiles(defined({ ...args, maxResults, cwd: root }), signal));
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
