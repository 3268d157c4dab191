// The MCP tools of survey, scout, sample, show (seed 001): the protocol's texts (see ../tools.mjs).

import { fitText } from '../budget.mjs';
import { apiOptions, argumentNames, budgetWords, exclusionWords, inputSchema } from './common.mjs';

const PROTOCOL_NOTE =
  ` Case-sensitive; .gitignore, hidden files, ${exclusionWords('survey', ' and ')} are always left out. "matches" counts matching lines. ` +
  'The protocol: survey (compare terms) → scout (one term by folder and file) → sample (representative clusters) → show (snippets in one file).';

function protocolTool(name, description, required) {
  return {
    name,
    description: description + PROTOCOL_NOTE,
    inputSchema: inputSchema(name, required),
    argumentNames: argumentNames(name),
    pathArgument: name === 'show' ? 'file' : 'paths',
    patternArgument: 'query',
    run: (args, { api, root }, signal) => api[name]({ ...apiOptions(name, args), cwd: root, signal }),
    text: (value, args, budget) =>
      fitText(value.text, budget, (k, total) => `[${budgetWords()}: ${k} of ${total} lines are shown.]`),
  };
}

export const survey = protocolTool(
  'survey',
  'Compare up to 12 fixed candidate terms over up to 8 paths in one pass, without match bodies: ' +
    'overall[term,matches,files,dominant_path] and by_path[path,term,matches,files] (zero rows left out; without paths, ' +
    'the top-level folders are compared), with warnings when one term has 80% of the matching lines, when a term is broad ' +
    '(over 1,000 matching lines or 100 files) and for fixed terms of 3 characters or fewer. Use it first, instead of an OR regex.',
  ['terms'],
);

export const scout = protocolTool(
  'scout',
  "One query's distribution: matching lines, files and folders, then top_directories[path,matches] and top_files[path,matches]. " +
    'Use it after survey to see where one term lives before reading anything.',
  ['query'],
);

export const sample = protocolTool(
  'sample',
  'Representative clusters of one query, chosen deterministically: matching lines within 2 lines form a cluster shown by ' +
    'its first match with one line of context; busy files offer their first, middle and last clusters; files take turns. ' +
    'Narrow paths first (from scout); for more context use show on one file.',
  ['query'],
);

export const show = protocolTool(
  'show',
  'Snippets of one query in one file with context (default 2, at most 5 lines). More than 20 matching lines is refused ' +
    'with advice to narrow the query; a folder is refused.',
  ['query', 'file'],
);

/** Every tool the server lists, in this order (the task tools follow). */
