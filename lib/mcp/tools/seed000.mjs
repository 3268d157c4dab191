// The MCP tools of smart_file_query (seed 000) (see ../tools.mjs).

import { clampStrings, fitList } from '../budget.mjs';
import { apiOptions, argumentNames, budgetWords, inputSchema, SHRUNK } from './common.mjs';

export const smartFileQuery = {
  name: 'smart_file_query',
  title: 'Regex search with context (JSON payload)',
  description:
    'Search the repository with a JavaScript regular expression and get every match with its line, column and ' +
    'surrounding lines as one JSON payload: {query, results: [{path, size, matchCount, matches: [{lineNumber, column, ' +
    'match, context: {before, line, after}}], content?, truncated}], skipped, aggregate: {filesVisited, filesMatched, ' +
    'totalMatches, truncated}}. Candidate files: the git-visible files (tracked and untracked, not ignored) matching glob.',
  inputSchema: inputSchema('smartFileQuery', ['regex']),
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
  argumentNames: argumentNames('smartFileQuery'),
  patternArgument: 'regex',
  messageArguments: [
    [/flag/i, 'flags'],
    [/encoding/i, 'encoding'],
  ],
  run: (args, { api, root, maxResultBytes }, signal) => api.smartFileQuery({ maxResultBytes, ...apiOptions('smartFileQuery', args), cwd: root }, signal),
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
