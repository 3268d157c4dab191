// The engine's declarations, as JS reads them: every API's options (name,
// type, bounds, default, doc, MCP argument, CLI flag) and default exclusion
// lists, from lib/generated/options.js (generated from crates/sfq-core's
// option tables and excludes.rs). The MCP tools (lib/mcp/tools/common.mjs)
// and the CLI subcommands (lib/cli/common.mjs) build their schemas, flags
// and texts from here.

import { createRequire } from 'node:module';

const generated = createRequire(import.meta.url)('./generated/options.js');

/** Per API: `{ tool, options: [...], schema: {...} }`. */
export const OPTIONS = generated.OPTIONS;
/** Per API: its default exclusions. */
export const EXCLUDES = generated.EXCLUDES;

/** An API's declared option named `name`. */
export function declared(api, name) {
  const option = OPTIONS[api].options.find((o) => o.name === name);
  if (!option) throw new Error(`${api} declares no option '${name}'`);
  return option;
}

/** An API's default exclusions as a text states them: `a, b, c` (`last` joins the last two). */
export function exclusionWords(api, last = ', ') {
  const list = EXCLUDES[api];
  return `${list.slice(0, -1).join(', ')}${last}${list.at(-1)}`;
}

/**
 * The first `maxResults` (default: the declared one of `api`) entries of a
 * capped list, and whether there were more: `call` is asked for one entry
 * more than that. A maxResults out of the API's range goes to it as given,
 * to be refused.
 * @param {string} api
 * @param {number | undefined} maxResults
 * @param {(maxResults: number) => Promise<unknown[]>} call
 */
export async function firstN(api, maxResults, call) {
  const { default: fallback, max } = declared(api, 'maxResults');
  const limit = maxResults ?? fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit >= max) return { list: await call(limit), more: false };
  const list = await call(limit + 1);
  return list.length > limit ? { list: list.slice(0, limit), more: true } : { list, more: false };
}
