// The text of an outline: formatOutline's (the native one, sfq-outline's
// rendering: `class Foo (lines 10-50)`, members indented, imports a line per
// block). One renderer for `outline` on the command line and the MCP tool
// view_outline. The addon is loaded on the first call, so that a module
// importing this one still answers --help without it.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * @param {{ path: string, totalLines: number, items: object[] }} outline getOutline's result
 * @returns {string}
 */
export function renderOutline(outline) {
  return require('../outline.js').formatOutline(outline);
}
