// The MCP tools of glob_files, grep_content (seed 004) (see ../tools.mjs).

import { fitKeyedList } from '../budget.mjs';
import { BACKGROUND_NOTE, budgetWords, defined, nextPage, RECURSE_SUBMODULES, RUNNING, RUNNING_REQUIRED, SHRUNK, SKIP_COUNTS, snakeKeys, STRINGS, SYMBOL, WITH_SYMBOLS } from './common.mjs';
import { fitFileList } from './seed002.mjs';

export const globFiles = {
  name: 'glob_files',
  title: 'Find files by glob',
  description:
    'Find files matching a glob pattern. Returns {files: [{path, absolute_path, size, modified}], total, returned, ' +
    'truncated, root, pattern}, in path order; skips .git, node_modules, __pycache__, .venv, dist, build, out, target, ' +
    '.idea, .vscode, *.min.js, *.min.css and .gitignore\'d paths (the project file .smart-file-query.json can change ' +
    'the list); hidden paths only with include_hidden.' +
    BACKGROUND_NOTE,
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pattern: { type: 'string', description: 'Glob pattern (e.g., **/*.py), relative to root' },
      root: { type: 'string', description: 'Root directory (default: cwd, the server root); must be inside the server root' },
      max_results: { type: 'integer', description: 'Max files to return (default: config max_results, else 500)' },
      include_hidden: { type: 'boolean', description: 'Include hidden files (default: false)' },
      offset: { type: 'integer', description: 'Skip this many files first, to page through a long answer (default: 0)' },
      sizes: {
        type: 'boolean',
        description: 'Give each file its size and modified (default: true); false gives path and absolute_path only, without a stat per file (faster on large trees)',
      },
      recurse_submodules: RECURSE_SUBMODULES,
    },
    required: ['pattern'],
  },
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
  argumentNames: {
    pattern: 'pattern', root: 'root', maxResults: 'max_results', includeHidden: 'include_hidden', offset: 'offset', sizes: 'sizes',
    recurseSubmodules: 'recurse_submodules',
  },
  pathArgument: 'root',
  patternArgument: 'pattern',
  run: async (args, { api, root }, signal, onProgress) =>
    snakeKeys(
      await api.globFiles(
        defined({
          pattern: args.pattern,
          root: args.root,
          maxResults: args.max_results,
          includeHidden: args.include_hidden,
          offset: args.offset,
          sizes: args.sizes,
          recurseSubmodules: args.recurse_submodules,
          cwd: root,
          signal,
          onProgress,
        }),
      ),
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
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      pattern: { type: 'string', description: 'Regex pattern to search' },
      path: { type: 'string', description: 'File or directory to search (default: cwd, the server root)' },
      file_glob: { type: 'string', description: 'Only search matching files (e.g. *.py; without / it matches names at any depth)' },
      context_lines: { type: 'integer', description: 'Lines of context (default: 2)' },
      case_sensitive: { type: 'boolean', description: 'Case-sensitive (default: true)' },
      max_results: { type: 'integer', description: 'Max matches to return (default: config max_results, else 500)' },
      offset: { type: 'integer', description: 'Skip this many matching lines first, to page through a long answer (default: 0)' },
      with_symbols: WITH_SYMBOLS,
      recurse_submodules: RECURSE_SUBMODULES,
    },
    required: ['pattern'],
  },
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
  argumentNames: {
    pattern: 'pattern',
    path: 'path',
    fileGlob: 'file_glob',
    contextLines: 'context_lines',
    caseSensitive: 'case_sensitive',
    maxResults: 'max_results',
    offset: 'offset',
    withSymbols: 'with_symbols',
    recurseSubmodules: 'recurse_submodules',
  },
  pathArgument: 'path',
  patternArgument: 'pattern',
  run: async (args, { api, root, maxResultBytes }, signal, onProgress) =>
    snakeKeys(
      await api.grepContent(
        defined({
          pattern: args.pattern,
          path: args.path,
          fileGlob: args.file_glob,
          contextLines: args.context_lines,
          caseSensitive: args.case_sensitive,
          maxResults: args.max_results,
          offset: args.offset,
          withSymbols: args.with_symbols,
          recurseSubmodules: args.recurse_submodules,
          maxResultBytes,
          cwd: root,
          signal,
          onProgress,
        }),
      ),
    ),
  fit: (value, args, budget) =>
    fitKeyedList(value, 'matches', (m) => m.file, budget, (k, n) =>
      `${budgetWords()}: it shows the first ${k} of its ${n} matching lines and the matching lines per directory and file. ` +
      `Narrow with path (a directory or file from by_directory/by_file), file_glob or a more specific pattern, ask for fewer context_lines, or ${nextPage(args, k)}.`,
    ),
};
