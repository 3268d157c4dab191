// Never too big for the agent: every tool answer is kept under a budget. An
// answer over it is shrunk, never cut mid-line or mid-JSON: it keeps its
// shape with the first hits that fit (long strings shortened),
// `truncated: true`, and a `shrunk` block with the counts per directory and
// per file of the whole answer and one sentence on how to narrow the query.
//
// What is measured is the text the client's model reads. A tool's compact
// text (lib/mcp/texts.mjs) must fit both the token budget, counted with
// estimateTokens (lib/mcp/tokens.mjs: an o200k estimate that errs high), and
// the character budget; an answer asked for as JSON (`format: "json"`)
// is measured as before the compact texts: the length of its JSON text.

import { estimateTokens } from './tokens.mjs';

export const DEFAULT_MAX_RESULT_CHARS = 20000;
/** The smallest budget accepted: room for the counts and the sentence. */
export const MIN_MAX_RESULT_CHARS = 2000;
/** The default token budget of a compact text: the default characters at 4 a token. */
export const DEFAULT_MAX_RESULT_TOKENS = 5000;
/** The smallest token budget accepted. */
export const MIN_MAX_RESULT_TOKENS = 500;

/**
 * The `maxResultBytes` the server's searches run with, for answers of
 * `budget` characters: 64 times the answer (at least 256 KiB), room for
 * the counts per directory and file of the hits a shrunk answer reports,
 * while a search whose answer cannot fit stops there instead of building a
 * huge answer (one minified line matched 200,000 times) and shrinking it.
 */
export function searchResultBytes(budget) {
  return Math.max(64 * budget, 256 * 1024);
}

/**
 * @typedef {{
 *   chars: number,
 *   tokens?: number,
 *   fits: (value: unknown) => boolean,
 *   fitsText: (text: string) => boolean,
 *   less: (text: string) => Budget,
 *   stamp: () => { max_result_chars: number, max_result_tokens?: number },
 * }} Budget
 *   `fits`: whether an answer, as the client gets it, is within the budget;
 *   `fitsText`: whether a text is; `less`: the budget left beside a text
 *   (a head line above the answer); `stamp`: the budget, as `shrunk` gives it
 */

/**
 * The budget of a compact text: within `chars` characters and `tokens`
 * estimated tokens; `render` gives an answer's text.
 * @param {{ chars: number, tokens: number }} limits
 * @param {(value: any) => string} render
 * @returns {Budget}
 */
export function textBudget(limits, render, stamp = { max_result_chars: limits.chars, max_result_tokens: limits.tokens }) {
  const { chars, tokens } = limits;
  const fitsText = (text) => text.length <= chars && estimateTokens(text) <= tokens;
  return {
    chars,
    tokens,
    fits: (value) => fitsText(render(value)),
    fitsText,
    // (the line and its line break)
    less: (text) => textBudget({ chars: chars - text.length - 1, tokens: tokens - estimateTokens(text) - 1 }, render, stamp),
    stamp: () => ({ ...stamp }),
  };
}

/**
 * The budget of a JSON answer: its JSON text within `chars` characters.
 * @param {number} chars
 * @returns {Budget}
 */
export function jsonBudget(chars, stamp = { max_result_chars: chars }) {
  return {
    chars,
    fits: (value) => jsonSize(value) <= chars,
    fitsText: (text) => text.length <= chars,
    less: (text) => jsonBudget(chars - text.length, stamp),
    stamp: () => ({ ...stamp }),
  };
}

/** The length of `value` as the JSON text the client receives. */
export function jsonSize(value) {
  return JSON.stringify(value).length;
}

/** `s` cut to about `limit` characters (never inside a surrogate pair), marked. */
export function clampString(s, limit) {
  if (s.length <= limit) return s;
  let end = limit;
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${s.slice(0, end)}… [${s.length - end} more characters]`;
}

/** `value` with every string longer than `limit` cut (a deep copy where needed). */
export function clampStrings(value, limit) {
  if (typeof value === 'string') return clampString(value, limit);
  if (Array.isArray(value)) return value.map((v) => clampStrings(v, limit));
  if (typeof value === 'object' && value !== null) {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = clampStrings(v, limit);
    return out;
  }
  return value;
}

/** The parent directory of a root-relative POSIX path ('.' at the top). */
export function parentDir(path) {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '.' : path.slice(0, i);
}

/**
 * Counts per path, in first-seen order.
 * @template T
 * @param {T[]} items
 * @param {(item: T) => string} pathOf
 * @param {(item: T) => number} [weight]
 * @returns {Array<[string, number]>}
 */
export function countPaths(items, pathOf, weight = () => 1) {
  const counts = new Map();
  for (const item of items) {
    const p = pathOf(item);
    counts.set(p, (counts.get(p) ?? 0) + weight(item));
  }
  return [...counts];
}

function top(entries, cap) {
  const sorted = [...entries].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const shown = sorted.slice(0, cap);
  const table = {};
  for (const [path, count] of shown) table[clampString(path, 200)] = count;
  return { table, more: sorted.length - shown.length };
}

/** The per-directory and per-file tables, each cut to its `cap` largest entries. */
function countTables(fileCounts, cap) {
  const dirs = new Map();
  for (const [path, count] of fileCounts) {
    const d = parentDir(path);
    dirs.set(d, (dirs.get(d) ?? 0) + count);
  }
  const byDir = top([...dirs], cap);
  const byFile = top(fileCounts, cap);
  const out = { by_directory: byDir.table, by_file: byFile.table };
  if (byDir.more > 0) out.more_directories = byDir.more;
  if (byFile.more > 0) out.more_files = byFile.more;
  return out;
}

/**
 * Shrinks a list answer to the first k hits that fit `budget`, k as large
 * as possible, with the counts of all hits and a hint.
 * @param {{
 *   n: number,
 *   build: (k: number, clamp: number) => object,
 *   fileCounts: Array<[string, number]>,
 *   hint: (k: number, n: number) => string,
 *   budget: Budget,
 *   unit?: string,
 * }} o `build(k, clamp)`: the answer with its first k hits and strings cut to
 *   `clamp` characters, `truncated: true` set; `fileCounts`: hits per file
 */
export function fitList(o) {
  const make = (k, cap, clamp) => {
    const summary = {
      ...o.budget.stamp(),
      shown: k,
      of: o.n,
      ...(o.unit ? { unit: o.unit } : {}),
      ...countTables(o.fileCounts, cap),
      hint: o.hint(k, o.n),
    };
    return { ...o.build(k, clamp), shrunk: summary };
  };
  let best;
  for (const cap of [50, 20, 5, 0]) {
    for (const clamp of [500, 120]) {
      if (!o.budget.fits(make(0, cap, clamp))) continue;
      let lo = 0;
      // Every hit takes a few characters at least: no need to try more than fit.
      let hi = Math.min(o.n, Math.floor(o.budget.chars / 4));
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (o.budget.fits(make(mid, cap, clamp))) lo = mid;
        else hi = mid - 1;
      }
      const candidate = { k: lo, cap, clamp };
      if (best === undefined || lo > best.k) best = candidate;
      if (lo >= Math.min(o.n, 5)) return make(lo, cap, clamp);
    }
  }
  if (best !== undefined) return make(best.k, best.cap, best.clamp);
  return minimal(o.budget, o.n, o.hint(0, o.n));
}

/** The last resort: counts only. Always far under MIN_MAX_RESULT_CHARS. */
export function minimal(budget, n, hint) {
  return { truncated: true, shrunk: { ...budget.stamp(), shown: 0, of: n, hint: clampString(hint, 600) } };
}

/**
 * An answer whose hits are the array `value[key]` (or `value` itself when
 * `key` is the array's name in the shrunk object and `value` is an array).
 * @param {object | unknown[]} value
 * @param {string} key
 * @param {(item: any) => string} pathOf
 * @param {Budget} budget
 * @param {(k: number, n: number) => string} hint
 */
export function fitKeyedList(value, key, pathOf, budget, hint) {
  if (budget.fits(value)) return value;
  const rootArray = Array.isArray(value);
  const items = rootArray ? value : value[key];
  const build = (k, clamp) => {
    const shown = items.slice(0, k).map((item) => clampStrings(item, clamp));
    if (rootArray) return { [key]: shown, truncated: true };
    const out = {};
    for (const [name, v] of Object.entries(value)) out[name] = name === key ? shown : clampStrings(v, 500);
    out.truncated = true;
    return out;
  };
  return fitList({ n: items.length, build, fileCounts: countPaths(items, pathOf), hint, budget });
}

/**
 * Any other JSON answer: strings cut, then long arrays cut, until it fits.
 * @param {unknown} value
 * @param {Budget} budget
 */
export function fitAny(value, budget) {
  if (budget.fits(value)) return value;
  for (const clamp of [2000, 500, 120]) {
    const v = clampStrings(value, clamp);
    if (budget.fits(v)) return withTruncated(v);
  }
  return minimal(budget, 0, 'The answer was too large to show; ask for less (a narrower path or pattern).');
}

function withTruncated(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v, truncated: true } : v;
}

/**
 * Text kept under the budget at line boundaries (lines longer than 500
 * characters shortened), with a last line saying what was left out and how
 * to see it.
 * @param {string} text
 * @param {Budget} budget
 * @param {(shown: number, total: number) => string} note
 */
export function fitText(text, budget, note) {
  if (budget.fitsText(text)) return text;
  const lines = text.split('\n').map((l) => clampString(l, 500));
  // Room for the note (650 characters at most) and its line break.
  const room = { chars: budget.chars - 700, tokens: (budget.tokens ?? Infinity) - 300 };
  let chars = 0;
  let tokens = 0;
  let k = 0;
  while (k < lines.length) {
    const c = chars + lines[k].length + 1;
    const t = budget.tokens === undefined ? 0 : tokens + estimateTokens(lines[k]) + 1;
    if (c > room.chars || t > room.tokens) break;
    chars = c;
    tokens = t;
    k++;
  }
  return `${lines.slice(0, k).join('\n')}\n${clampString(note(k, lines.length), 650)}`;
}
