// The MCP tools: one entry each, a thin adapter over the public JS API
// (index.js), kept by seed in tools/seed00N.mjs (their shared schema pieces
// and helpers in tools/common.mjs). Adding a tool is one more entry in TOOLS:
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

import { smartFileQuery } from './tools/seed000.mjs';
import { survey, scout, sample, show } from './tools/seed001.mjs';
import { findFiles, grep } from './tools/seed002.mjs';
import { scrollFile, searchCode, viewOutline } from './tools/seed003.mjs';
import { globFiles, grepContent } from './tools/seed004.mjs';

export { snakeKeys } from './tools/common.mjs';

export const TOOLS = [smartFileQuery, searchCode, viewOutline, scrollFile, grep, findFiles, globFiles, grepContent, survey, scout, sample, show];
