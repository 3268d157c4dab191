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
