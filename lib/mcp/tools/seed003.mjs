// The MCP tools of search_code, view_outline, scroll_file (seed 003, section 6) (see ../tools.mjs).

import { renderOutline } from '../../render/outline.mjs';
import { clampStrings, fitKeyedList, fitText } from '../budget.mjs';
import { apiOptions, argumentNames, budgetWords, inputSchema, nextPage, rootRelative, RUNNING, RUNNING_REQUIRED, SHRUNK, SKIP_COUNTS_CAMEL, SYMBOL } from './common.mjs';

export const searchCode = {
  name: 'search_code',
  description: 'Search for text or patterns across the codebase using ripgrep.',
  inputSchema: inputSchema('searchCode', ['query']),
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
  argumentNames: argumentNames('searchCode'),
  pathArgument: 'path',
  patternArgument: 'query',
  run: (args, { api, root, maxResultBytes }, signal, onProgress) =>
    api.searchCode(args.query, { ...apiOptions('searchCode', args), maxResultBytes, cwd: root, signal, onProgress }),
  fit: (value, args, budget) =>
    fitKeyedList(value, 'matches', (m) => m.path, budget, (k, n) =>
      `${budgetWords()}: it shows the first ${k} of its ${n} matching lines and the matching lines per directory and file. ` +
      `Narrow with path (a directory or file from by_directory/by_file), include_extensions or a more specific query, or ${nextPage(args, k)}.`,
    ),
};

export const viewOutline = {
  name: 'view_outline',
  description: 'Get the structure/skeleton of a source file (classes, functions, etc.) without implementation details.',
  inputSchema: inputSchema('getOutline', ['path']),
  pathArgument: 'path',
  run: (args, { api, root }, signal) =>
    api.getOutline(args.path, { ...apiOptions('getOutline', args), cwd: root, signal }),
  text: (value, args, budget) =>
    fitText(renderOutline(value), budget, (k, total) =>
      `[truncated: true. ${budgetWords()}: ${k} of its ${total} lines are shown. View a part of the file with ` +
      'scroll_file (action "open" with path and line), or search in it with search_code (path).]',
    ),
};

const SCROLL_ACTIONS = { open: 'open', scroll_up: 'scrollUp', scroll_down: 'scrollDown', goto: 'goto' };

export const scrollFile = {
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
