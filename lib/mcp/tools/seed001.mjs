// The MCP tools of survey, scout, sample, show (seed 001): the protocol's texts (see ../tools.mjs).

import { fitText } from '../budget.mjs';
import { budgetWords, defined, RECURSE_SUBMODULES, STRINGS } from './common.mjs';

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

export const survey = protocolTool(
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

export const scout = protocolTool(
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

export const sample = protocolTool(
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

export const show = protocolTool(
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
