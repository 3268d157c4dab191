// The MCP tools' shared schema pieces and helpers (see ../tools.mjs).

import { posix, relative, resolve, sep } from 'node:path';

import { OPTIONS } from '../../declared.mjs';

export { exclusionWords, firstN } from '../../declared.mjs';

// ---------------------------------------------------------------------------
// The declared options (lib/generated/options.js)

/** The input schema of `api`'s tool: the arguments its options declare, these required. */
export function inputSchema(api, required) {
  return { type: 'object', additionalProperties: false, properties: OPTIONS[api].schema, required };
}

/** `{ apiOption: 'argument' }` for the options of `api` its tool takes (to speak of arguments in API errors). */
export function argumentNames(api) {
  return Object.fromEntries(OPTIONS[api].options.filter((o) => o.mcp).map((o) => [o.name, o.mcp]));
}

/** The options of `api` a call's arguments give (the undefined ones left out). */
export function apiOptions(api, args) {
  const out = {};
  for (const o of OPTIONS[api].options) if (o.mcp && args[o.mcp] !== undefined) out[o.name] = args[o.mcp];
  return out;
}

// ---------------------------------------------------------------------------
// Shared schema pieces

export const STRINGS = { type: 'array', items: { type: 'string' } };
export const SKIP_COUNTS = {
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
export const SKIP_COUNTS_CAMEL = {
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
export const RECURSE_SUBMODULES = {
  type: 'boolean',
  description:
    'Search initialised git submodules too, as git ls-files --recurse-submodules lists them: their files under their paths, ' +
    'by their own .gitignore (untracked, not ignored files too). Default: false (a submodule is not entered).',
};

/** searchCode / grepContent's `symbol` (withSymbols). */
export const SYMBOL = {
  type: 'object',
  description: 'With with_symbols: the innermost outline item holding the line',
  properties: {
    name: { type: 'string' },
    kind: { type: 'string' },
    range: { type: 'array', items: { type: 'integer' }, description: 'First and last line, 1-based, inclusive' },
  },
};
export const WITH_SYMBOLS = {
  type: 'boolean',
  description: 'Label each match with the innermost class/function/method holding it: symbol {name, kind, range} (default: false)',
};

/** The answer of a search that went on in the background. */
export const RUNNING = {
  status: { type: 'string', enum: ['running'], description: 'Only when the search went on in the background' },
  task_id: { type: 'string', description: 'The background task: follow it with task_status / task_result / task_cancel' },
  tool: { type: 'string' },
  elapsed_seconds: { type: 'number' },
  message: { type: 'string' },
};
export const RUNNING_REQUIRED = { required: ['status', 'task_id'] };

/** Set when the answer was over the character budget and shrunk. */
export const SHRUNK = {
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

export const BACKGROUND_NOTE =
  ' A search still running after timeout_seconds (30 by default) goes on in the background: the answer is then ' +
  '{status: "running", task_id}; get the result with task_result.';

// ---------------------------------------------------------------------------
// Helpers

/** `{ ...o }` without the undefined values. */
export function defined(o) {
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

export const budgetWords = () => 'The answer was over the result budget';

export function nextPage(args, k) {
  return `page on with offset=${(args.offset ?? 0) + k}`;
}

/** A root-relative POSIX path for a path argument, or undefined outside the root. */
export function rootRelative(root, p) {
  const rel = relative(root, resolve(root, p));
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`)) return undefined;
  return rel.split(sep).join(posix.sep);
}

/** The `truncated` of grep and find_files: the list was cut, by the limit or by the budget. */
export function TRUNCATED_LIST(unit, limit) {
  return {
    type: 'boolean',
    description: `True when there are more ${unit} than the list holds: it stopped at ${limit}, or it was shrunk to the character budget (then shrunk says how)`,
  };
}
