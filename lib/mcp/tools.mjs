// The MCP tools: one entry each, a thin adapter over the public JS API
// (index.js). Adding a tool is one more entry in TOOLS:
//
//   {
//     name, description, inputSchema,   // the MCP tool definition
//     outputSchema?,                    // then the answer is also structuredContent
//     background?: true,                // waits up to timeout_seconds, then a task
//     argumentNames?: { apiOption: 'argument' },  // to speak of arguments in API errors
//     pathArgument?, patternArgument?,  // which argument a path / pattern error is about
//     run(args, ctx, signal, onProgress?) → value,   // ctx: { api, root, viewer, maxResultBytes }; onProgress for background tools
//     fit(value, args, budget) → value, // under the budget (a Budget of lib/mcp/budget.mjs)
//     text?(value, args, budget) → string,  // a text answer instead of JSON (else lib/mcp/texts.mjs)
//   }
//
// The schemas of view_outline, search_code, scroll_file (seed 003), grep and
// find_files (seed 002) are the seeds' definitions word for word; properties
// after the seed's own are extensions the API offers (paging, filters).

import { posix, relative, resolve, sep } from 'node:path';
import { renderOutline } from '../render/outline.mjs';
import { clampStrings, fitKeyedList, fitList, fitText } from './budget.mjs';

// ---------------------------------------------------------------------------
// Shared schema pieces

const STRINGS = { type: 'array', items: { type: 'string' } };
const SKIP_COUNTS = {
  type: 'object',
  description: 'Files not searched, by reason',
  properties: {
    binary: { type: 'integer' },
    too_large: { type: 'integer' },
    unreadable: { type: 'integer' },
    budget: { type: 'integer' },
    not_checked_out: { type: 'integer', description: 'Tracked files a sparse checkout left out of the work tree (only when not 0)' },
  },
};
const SKIP_COUNTS_CAMEL = {
  ...SKIP_COUNTS,
  properties: {
    binary: { type: 'integer' },
    tooLarge: { type: 'integer' },
    unreadable: { type: 'integer' },
    budget: { type: 'integer' },
    notCheckedOut: { type: 'integer', description: 'Tracked files a sparse checkout left out of the work tree (only when not 0)' },
  },
};

/** The recurse-submodules argument (the name is each tool's style). */
const RECURSE_SUBMODULES = {
  type: 'boolean',
  description:
    'Search initialised git submodules too, as git ls-files --recurse-submodules lists them: their files under their paths, ' +
    'by their own .gitignore (untracked, not ignored files too). Default: false (a submodule is not entered).',
};

/** searchCode / grepContent's `symbol` (withSymbols). */
const SYMBOL = {
  type: 'object',
  description: 'With with_symbols: the innermost outline item holding the line',
  properties: {
    name: { type: 'string' },
    kind: { type: 'string' },
    range: { type: 'array', items: { type: 'integer' }, description: 'First and last line, 1-based, inclusive' },
  },
};
const WITH_SYMBOLS = {
  type: 'boolean',
  description: 'Label each match with the innermost class/function/method holding it: symbol {name, kind, range} (default: false)',
};

/** The answer of a search that went on in the background. */
const RUNNING = {
  status: { type: 'string', enum: ['running'], description: 'Only when the search went on in the background' },
  task_id: { type: 'string', description: 'The background task: follow it with task_status / task_result / task_cancel' },
  tool: { type: 'string' },
  elapsed_seconds: { type: 'number' },
  message: { type: 'string' },
};
const RUNNING_REQUIRED = { required: ['status', 'task_id'] };

/** Set when the answer was over the character budget and shrunk. */
const SHRUNK = {
  type: 'object',
  description: 'Present when the answer was over the character budget: what was kept, counts and how to narrow',
  properties: {
    max_result_chars: { type: 'integer' },
    shown: { type: 'integer', description: 'Hits kept' },
    of: { type: 'integer', description: 'Hits the full answer had' },
    by_directory: { type: 'object', additionalProperties: { type: 'integer' } },
    by_file: { type: 'object', additionalProperties: { type: 'integer' } },
    more_directories: { type: 'integer' },
    more_files: { type: 'integer' },
    hint: { type: 'string', description: 'How to narrow the query' },
  },
};

const BACKGROUND_NOTE =
  ' A search still running after timeout_seconds (30 by default) goes on in the background: the answer is then ' +
  '{status: "running", task_id}; get the result with task_result.';

// ---------------------------------------------------------------------------
// Helpers

/** `{ ...o }` without the undefined values. */
function defined(o) {
  const out = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

/** camelCase keys → snake_case, deeply (seed 004's response field names). */
export function snakeKeys(value) {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (typeof value === 'object' && value !== null) {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = snakeKeys(v);
    return out;
  }
  return value;
}

const budgetWords = () => 'The answer was over the result budget';

function nextPage(args, k) {
  return `page on with offset=${(args.offset ?? 0) + k}`;
}

/** A root-relative POSIX path for a path argument, or undefined outside the root. */
function rootRelative(root, p) {
  const rel = relative(root, resolve(root, p));
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`)) return undefined;
  return rel.split(sep).join(posix.sep);
}

/** The `truncated` of grep and find_files: the list was cut, by the limit or by the budget. */
function TRUNCATED_LIST(unit, limit) {
  return {
    type: 'boolean',
    description: `True when there are more ${unit} than the list holds: it stopped at ${limit}, or it was shrunk to the character budget (then shrunk says how)`,
  };
}

/** The API's largest maxResults (grep, findFiles). */
const MAX_RESULTS = 10_000_000;

/**
 * The first `maxResults` (default `fallback`) entries of a capped list, and
 * whether there were more: `call` is asked for one entry more than that. A
 * maxResults out of the API's range goes to it as given, to be refused.
 * @param {number | undefined} maxResults
 * @param {number} fallback
 * @param {(maxResults: number) => Promise<unknown[]>} call
 */
async function firstN(maxResults, fallback, call) {
  const limit = maxResults ?? fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit >= MAX_RESULTS) return { list: await call(limit), more: false };
  const list = await call(limit + 1);
  return list.length > limit ? { list: list.slice(0, limit), more: true } : { list, more: false };
}

// ---------------------------------------------------------------------------
// smart_file_query (seed 000)

const SFQ_OPTIONS = {
  regex: {
    type: 'string',
    description: 'JavaScript regex pattern (no surrounding slashes). Passed directly to new RegExp(pattern, flags) and run line by line.',
  },
  flags: { type: 'string', description: "Optional regex flags (i, m, s, u, v; g and d accepted; y refused). Default ''." },
  glob: {
    anyOf: [{ type: 'string' }, STRINGS],
    description: 'Repo-relative glob(s) limiting candidate files. Accepts *, ?, **, {a,b}. A string or a list. Default **/*.',
  },
  ignore: {
    anyOf: [{ type: 'string' }, STRINGS],
    description: 'Globs to exclude, added to the defaults (.git/**, **/node_modules/**, **/.turbo/**). A string or a list.',
  },
  contextLines: { type: 'integer', description: 'Number of surrounding lines to include before/after each match (0-20). Default 2.' },
  includeAllContent: {
    type: 'boolean',
    description: 'Embed the full file contents for every file with at least one match (subject to size limits). Default false.',
  },
  maxFileSizeKB: { type: 'integer', description: 'Skip files larger than this size (in kilobytes). Default 256.' },
  maxMatches: { type: 'integer', description: 'Hard cap on total matches returned; when exceeded, output is truncated and truncated flags set. Default 500.' },
  encoding: { type: 'string', description: 'File encoding for reads: utf8 (default), utf16le, latin1 or ascii.' },
  multiline: { type: 'boolean', description: "Match against each file's whole text, so a match can span lines. Default false (line by line)." },
  recurseSubmodules: RECURSE_SUBMODULES,
  maxLineLength: {
    type: 'integer',
    description:
      'Cut lines (the match\'s and its context) longer than this many characters to a window of that many around the match, ' +
      'with … at each cut end; use it on minified or generated files, where one line can be megabytes. Default 0 (never).',
  },
};

const smartFileQuery = {
  name: 'smart_file_query',
  title: 'Regex search with context (JSON payload)',
  description:
    'Search the repository with a JavaScript regular expression and get every match with its line, column and ' +
    'surrounding lines as one JSON payload: {query, results: [{path, size, matchCount, matches: [{lineNumber, column, ' +
    'match, context: {before, line, after}}], content?, truncated}], skipped, aggregate: {filesVisited, filesMatched, ' +
    'totalMatches, truncated}}. Candidate files: the git-visible files (tracked and untracked, not ignored) matching glob.',
  inputSchema: { type: 'object', additionalProperties: false, properties: SFQ_OPTIONS, required: ['regex'] },
  outputSchema: {
    type: 'object',
    properties: {
      query: { type: 'object', description: 'The effective options' },
      results: { type: 'array', items: { type: 'object' }, description: 'Files with matches, in path order' },
      skipped: { type: 'array', items: { type: 'object' } },
      aggregate: { type: 'object' },
      truncated: { type: 'boolean', description: 'Only when the answer was shrunk to the budget' },
      shrunk: SHRUNK,
    },
    required: ['query', 'results', 'skipped', 'aggregate'],
  },
  argumentNames: Object.fromEntries(Object.keys(SFQ_OPTIONS).map((k) => [k, k])),
  patternArgument: 'regex',
  messageArguments: [
    [/flag/i, 'flags'],
    [/encoding/i, 'encoding'],
  ],
  run: (args, { api, root, maxResultBytes }, signal) => api.smartFileQuery({ maxResultBytes, ...args, cwd: root }, signal),
  fit(value, args, budget) {
    if (budget.fits(value)) return value;
    const flat = [];
    value.results.forEach((file, f) => file.matches.forEach((_, m) => flat.push([f, m])));
    const skippedShown = Math.min(value.skipped.length, 20);
    const build = (k, clamp) => {
      const perFile = new Map();
      for (const [f, m] of flat.slice(0, k)) {
        if (!perFile.has(f)) perFile.set(f, []);
        perFile.get(f).push(clampStrings(value.results[f].matches[m], clamp));
      }
      const results = [...perFile].map(([f, matches]) => {
        const { content, matches: _all, ...file } = value.results[f];
        return { ...clampStrings(file, 500), matches };
      });
      return {
        query: clampStrings(value.query, 500),
        results,
        skipped: clampStrings(value.skipped.slice(0, skippedShown), 500),
        aggregate: value.aggregate,
        truncated: true,
      };
    };
    const contentNote = args.includeAllContent ? ' File contents were left out (read them with scroll_file).' : '';
    const skippedNote =
      skippedShown < value.skipped.length ? ` skipped lists the first ${skippedShown} of ${value.skipped.length} skipped files.` : '';
    return fitList({
      n: flat.length,
      build,
      fileCounts: value.results.map((r) => [r.path, r.matches.length]),
      budget,
      hint: (k, n) =>
        `${budgetWords()}: it shows the first ${k} of its ${n} matches and the matches per directory and file.${contentNote}${skippedNote} ` +
        'Narrow with glob (a directory from by_directory, e.g. "src/**"), a more specific regex, fewer contextLines or a lower maxMatches.',
    });
  },
};

// ---------------------------------------------------------------------------
// search_code, view_outline, scroll_file (seed 003, section 6)

const searchCode = {
  name: 'search_code',
  description: 'Search for text or patterns across the codebase using ripgrep.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      query: { type: 'string', description: 'Search term or regex pattern' },
      path: { type: 'string', description: 'Limit search to this file or directory' },
      is_regex: { type: 'boolean', description: 'Treat query as regex (default: false)' },
      case_sensitive: { type: 'boolean', description: 'Case-sensitive search (default: false)' },
      max_results: { type: 'integer', description: 'Max matching lines to return (default: 50)' },
      offset: { type: 'integer', description: 'Skip this many matching lines first, to page through a long answer (default: 0)' },
      include_extensions: { ...STRINGS, description: 'Only files with these extensions (e.g. [".ts", ".tsx"])' },
      exclude_patterns: { ...STRINGS, description: 'Glob patterns to exclude (a name without / matches at any depth)' },
      with_symbols: WITH_SYMBOLS,
      recurse_submodules: RECURSE_SUBMODULES,
    },
    required: ['query'],
  },
  outputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      matchCount: { type: 'integer', description: 'Matching lines in the searched files, also past max_results' },
      matches: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            path: { type: 'string' },
            lineNumber: { type: 'integer' },
            content: { type: 'string' },
            contentTruncated: { type: 'boolean' },
            symbol: SYMBOL,
          },
          required: ['path', 'lineNumber', 'content'],
        },
      },
      truncated: { type: 'boolean' },
      filesWithMatches: { type: 'integer' },
      filesSearched: { type: 'integer' },
      skipped: SKIP_COUNTS_CAMEL,
      complete: { type: 'boolean' },
      reason: { type: 'string' },
      hint: { type: 'string' },
      shrunk: SHRUNK,
      ...RUNNING,
    },
    anyOf: [{ required: ['query', 'matchCount', 'matches', 'truncated'] }, RUNNING_REQUIRED],
  },
  background: true,
  argumentNames: {
    query: 'query',
    path: 'path',
    isRegex: 'is_regex',
    caseSensitive: 'case_sensitive',
    maxResults: 'max_results',
    offset: 'offset',
    includeExtensions: 'include_extensions',
    excludePatterns: 'exclude_patterns',
    withSymbols: 'with_symbols',
    recurseSubmodules: 'recurse_submodules',
  },
  pathArgument: 'path',
  patternArgument: 'query',
  run: (args, { api, root, maxResultBytes }, signal, onProgress) =>
    api.searchCode(
      args.query,
      defined({
        path: args.path,
        isRegex: args.is_regex,
        caseSensitive: args.case_sensitive,
        maxResults: args.max_results,
        offset: args.offset,
        includeExtensions: args.include_extensions,
        excludePatterns: args.exclude_patterns,
        withSymbols: args.with_symbols,
        recurseSubmodules: args.recurse_submodules,
        maxResultBytes,
        cwd: root,
        signal,
        onProgress,
      }),
    ),
  fit: (value, args, budget) =>
    fitKeyedList(value, 'matches', (m) => m.path, budget, (k, n) =>
      `${budgetWords()}: it shows the first ${k} of its ${n} matching lines and the matching lines per directory and file. ` +
      `Narrow with path (a directory or file from by_directory/by_file), include_extensions or a more specific query, or ${nextPage(args, k)}.`,
    ),
};

const viewOutline = {
  name: 'view_outline',
  description: 'Get the structure/skeleton of a source file (classes, functions, etc.) without implementation details.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      path: { type: 'string', description: 'Path to the source file' },
      imports: {
        type: 'string',
        enum: ['block', 'each', 'none'],
        description:
          "How imports are shown: 'block' (default) one line per run of consecutive imports, " +
          "'imports (N): module, module, …'; 'each' one line per import; 'none' leaves them out",
      },
    },
    required: ['path'],
  },
  pathArgument: 'path',
  run: (args, { api, root }, signal) =>
    api.getOutline(args.path, { cwd: root, signal, ...(args.imports === undefined ? {} : { imports: args.imports }) }),
  text: (value, args, budget) =>
    fitText(renderOutline(value), budget, (k, total) =>
      `[truncated: true. ${budgetWords()}: ${k} of its ${total} lines are shown. View a part of the file with ` +
      'scroll_file (action "open" with path and line), or search in it with search_code (path).]',
    ),
};

const SCROLL_ACTIONS = { open: 'open', scroll_up: 'scrollUp', scroll_down: 'scrollDown', goto: 'goto' };

const scrollFile = {
  name: 'scroll_file',
  description: 'Navigate through the currently open file (scroll up, down, or go to a specific line).',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      action: {
        type: 'string',
        enum: ['open', 'scroll_up', 'scroll_down', 'goto'],
        description: 'Navigation action',
      },
      path: { type: 'string', description: "File to open (required for 'open' action)" },
      line: { type: 'number', description: "Line number (required for 'goto', optional for 'open')" },
    },
    required: ['action'],
  },
  outputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      totalLines: { type: 'integer' },
      viewportStart: { type: 'integer' },
      viewportEnd: { type: 'integer' },
      content: { type: 'string', description: 'The lines of the window, each as "N: text"' },
      linesAbove: { type: 'integer' },
      linesBelow: { type: 'integer' },
      note: { type: 'string' },
      truncated: { type: 'boolean' },
      shrunk: SHRUNK,
    },
    required: ['path', 'totalLines', 'viewportStart', 'viewportEnd', 'content', 'linesAbove', 'linesBelow'],
  },
  pathArgument: 'path',
  argumentNames: { line: 'line', path: 'path' },
  check(args, { root, viewer }) {
    const { action, path, line } = args;
    if (action === 'open' && path === undefined) return ['path', "scroll_file: action 'open' needs the argument 'path'"];
    if (action === 'goto' && line === undefined) return ['line', "scroll_file: action 'goto' needs the argument 'line'"];
    if (line !== undefined && !Number.isInteger(line)) return ['line', `scroll_file: argument 'line' must be a whole number, got ${line}`];
    if (line !== undefined && (action === 'scroll_up' || action === 'scroll_down')) {
      return ['line', `scroll_file: argument 'line' is for the actions 'open' and 'goto', not '${action}'`];
    }
    if (path !== undefined && action !== 'open') {
      const open = viewer.getState().currentFile;
      if (open === null || rootRelative(root, path) !== open) {
        return [
          'path',
          `scroll_file: argument 'path' is for the action 'open' (the open file is ${open === null ? 'none' : `'${open}'`}); ` +
            "to view another file, call scroll_file with action 'open' and its path",
        ];
      }
    }
    return undefined;
  },
  run(args, { viewer }) {
    switch (args.action) {
      case 'open':
        return viewer.open(args.path, args.line);
      case 'goto':
        return viewer.goto(args.line);
      default:
        return viewer[SCROLL_ACTIONS[args.action]]();
    }
  },
  fit(value, args, budget, { viewer }) {
    if (budget.fits(value)) return value;
    const lines = value.content.split('\n');
    const base = { ...clampStrings(value, 500), content: '', truncated: true };
    const hintLong = 'Lines longer than 500 characters were shortened to stay under the budget.';
    const make = (k, clamp) => {
      const shown = lines.slice(0, k).map((l) => (l.length > clamp ? clampStrings(l, clamp) : l));
      const last = value.viewportStart + k - 1;
      const rest = k < lines.length;
      const half = Math.floor(viewer.getState().windowSize / 2);
      return {
        ...base,
        content: shown.join('\n'),
        shrunk: {
          ...budget.stamp(),
          shown: k,
          of: lines.length,
          hint: rest
            ? `${budgetWords()}: lines ${value.viewportStart}-${last} of this window are shown (long lines shortened); ` +
              `to see from line ${last + 1}, call scroll_file with action "goto" and line ${last + 1 + half}.`
            : hintLong,
        },
      };
    };
    for (const clamp of [500, 200]) {
      let lo = 0;
      let hi = lines.length;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (budget.fits(make(mid, clamp))) lo = mid;
        else hi = mid - 1;
      }
      if (lo === lines.length || clamp === 200) return make(lo, clamp);
    }
    return make(0, 200);
  },
};

// ---------------------------------------------------------------------------
// grep, find_files (seed 002): the seed's arrays, inside one object shape,
// {matches | files, truncated}, whether or not the list was cut (at
// maxResults, or shrunk to the budget: the shrunk answer has the same keys).

const grep = {
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

const findFiles = {
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
function fitFileList(value, key, pathOf, budget, hint) {
  if (budget.fits(value)) return value;
  const shrunk = fitKeyedList(value, key, pathOf, budget, hint);
  if (shrunk.shrunk) {
    delete shrunk.shrunk.by_file;
    delete shrunk.shrunk.more_files;
  }
  return shrunk;
}

// ---------------------------------------------------------------------------
// glob_files, grep_content (seed 004)

const globFiles = {
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

const grepContent = {
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

// ---------------------------------------------------------------------------
// survey, scout, sample, show (seed 001): the protocol's texts, as the CLI
// prints them (each within 40 lines and 8,000 bytes).

const MODE_FIXED = {
  type: 'string',
  enum: ['fixed', 'identifier', 'word'],
  description:
    "'fixed' (default): the term anywhere; 'identifier': no [A-Za-z0-9_] on either side; 'word': no word character on either side (as rg -w). Prefer identifier or word for short or common terms.",
};
const MODE_ANY = {
  ...MODE_FIXED,
  enum: ['fixed', 'identifier', 'word', 'regex'],
  description: `${MODE_FIXED.description} 'regex': a JavaScript regex (an unescaped | is refused: compare alternatives with survey).`,
};
const PATHS = {
  ...STRINGS,
  description: 'Files or folders under the root to search (default: the whole root)',
};
const BUDGET_ARGS = (lines, bytes) => ({
  max_lines: { type: 'integer', description: `Lower the output budget (default ${lines} lines)` },
  max_bytes: { type: 'integer', description: `Lower the output budget (default ${bytes} bytes)` },
});
const PROTOCOL_NOTE =
  ' Case-sensitive; .gitignore, hidden files, .git, target, node_modules, vendor, dist, build, coverage, generated, scratch, tmp, ' +
  '*.log, *.jsonl, *.xml, *.min.js and *.map are always left out. "matches" counts matching lines. ' +
  'The protocol: survey (compare terms) → scout (one term by folder and file) → sample (representative clusters) → show (snippets in one file).';

function protocolTool(name, description, properties, required, options) {
  return {
    name,
    description: description + PROTOCOL_NOTE,
    inputSchema: { type: 'object', additionalProperties: false, properties, required },
    argumentNames: {
      terms: 'terms', paths: 'paths', query: 'query', file: 'file', context: 'context', mode: 'mode',
      maxLines: 'max_lines', maxBytes: 'max_bytes', recurseSubmodules: 'recurse_submodules',
    },
    pathArgument: name === 'show' ? 'file' : 'paths',
    patternArgument: 'query',
    run: (args, { api, root }, signal) =>
      api[name](
        defined({
          ...options(args),
          mode: args.mode,
          maxLines: args.max_lines,
          maxBytes: args.max_bytes,
          recurseSubmodules: args.recurse_submodules,
          cwd: root,
          signal,
        }),
      ),
    text: (value, args, budget) =>
      fitText(value.text, budget, (k, total) => `[${budgetWords()}: ${k} of ${total} lines are shown.]`),
  };
}

const survey = protocolTool(
  'survey',
  'Compare up to 12 fixed candidate terms over up to 8 paths in one pass, without match bodies: ' +
    'overall[term,matches,files,dominant_path] and by_path[path,term,matches,files] (zero rows left out; without paths, ' +
    'the top-level folders are compared), with warnings when one term has 80% of the matching lines, when a term is broad ' +
    '(over 1,000 matching lines or 100 files) and for fixed terms of 3 characters or fewer. Use it first, instead of an OR regex.',
  {
    terms: { ...STRINGS, description: 'The terms to compare (1 to 12)' },
    paths: { ...PATHS, description: 'Up to 8 files or folders to compare (default: the top-level folders)' },
    mode: MODE_FIXED,
    recurse_submodules: RECURSE_SUBMODULES,
    ...BUDGET_ARGS(20, 4000),
  },
  ['terms'],
  (args) => ({ terms: args.terms, paths: args.paths }),
);

const scout = protocolTool(
  'scout',
  "One query's distribution: matching lines, files and folders, then top_directories[path,matches] and top_files[path,matches]. " +
    'Use it after survey to see where one term lives before reading anything.',
  {
    query: { type: 'string', description: 'The text (or regex, with mode "regex") to search for' },
    paths: PATHS,
    mode: MODE_ANY,
    recurse_submodules: RECURSE_SUBMODULES,
    ...BUDGET_ARGS(15, 4000),
  },
  ['query'],
  (args) => ({ query: args.query, paths: args.paths }),
);

const sample = protocolTool(
  'sample',
  'Representative clusters of one query, chosen deterministically: matching lines within 2 lines form a cluster shown by ' +
    'its first match with one line of context; busy files offer their first, middle and last clusters; files take turns. ' +
    'Narrow paths first (from scout); for more context use show on one file.',
  {
    query: { type: 'string', description: 'The text (or regex, with mode "regex") to search for' },
    paths: PATHS,
    mode: MODE_ANY,
    recurse_submodules: RECURSE_SUBMODULES,
    ...BUDGET_ARGS(20, 6000),
  },
  ['query'],
  (args) => ({ query: args.query, paths: args.paths }),
);

const show = protocolTool(
  'show',
  'Snippets of one query in one file with context (default 2, at most 5 lines). More than 20 matching lines is refused ' +
    'with advice to narrow the query; a folder is refused.',
  {
    query: { type: 'string', description: 'The text (or regex, with mode "regex") to search for' },
    file: { type: 'string', description: 'The file (under the root)' },
    context: { type: 'integer', description: 'Lines of context around each match, 0 to 5 (default 2)' },
    mode: MODE_ANY,
    ...BUDGET_ARGS(30, 8000),
  },
  ['query', 'file'],
  (args) => ({ query: args.query, file: args.file, context: args.context }),
);

/** Every tool the server lists, in this order (the task tools follow). */
export const TOOLS = [smartFileQuery, searchCode, viewOutline, scrollFile, grep, findFiles, globFiles, grepContent, survey, scout, sample, show];
