// The text of a listing: one path per line, folders with a trailing `/`.
// One renderer for every list of paths (findFiles, globFiles), used by the
// MCP tools' text (lib/mcp/texts.mjs, under a head line) and the CLI's
// `find` (its whole output).

/**
 * @param {Array<{ path: string, type?: string }>} entries
 * @param {string} [prefix] put before each path (a folder, with its `/`)
 * @returns {string[]}
 */
export function listingLines(entries, prefix = '') {
  return entries.map((e) => `${prefix}${e.path}${e.type === 'dir' ? '/' : ''}`);
}

/**
 * A head line, then the paths.
 * @param {string} head
 * @param {Array<{ path: string, type?: string }>} entries
 * @param {string} [prefix]
 */
export function renderListing(head, entries, prefix) {
  return [head, ...listingLines(entries, prefix)].join('\n');
}
