// The MCP tools of smart_file_query (seed 000) (see ../tools.mjs).

import { clampStrings, fitList } from '../budget.mjs';
import { budgetWords, RECURSE_SUBMODULES, SHRUNK, STRINGS } from './common.mjs';

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

export const smartFileQuery = {
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
