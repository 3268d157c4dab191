// The text of search hits, grep-style (as `rg --heading -n`): each file's
// path once, then its lines, a hit as `line: text` (a line with several
// matches once), a context line as `line- text`, `--`
// between runs of lines that are not adjacent, and `@ kind name (lines
// a-b)` before the hits of each enclosing symbol when the hits carry one.
// One renderer for every search answer (searchCode, grep, grepContent,
// smartFileQuery), used by the MCP tools' text (lib/mcp/texts.mjs) and the
// CLI's `search --text`; the adapters below turn each answer into
// `{ path, rows }` per file, in the answer's order.

/**
 * @typedef {{ line: number, text: string, hit?: boolean, symbol?: string }} Row
 *   `hit`: a matching line (else context); `symbol`: the enclosing item, as
 *   the label line shows it
 * @typedef {{ path: string, rows: Row[] }} FileRows
 */

/** A line's text on one line of the answer. */
function oneLine(text) {
  return text.includes('\n') || text.includes('\r') ? text.replace(/\r?\n|\r/g, '\\n') : text;
}

/** The label of an outline symbol `{name, kind, range}`. */
export function symbolLabel(symbol) {
  if (!symbol) return undefined;
  const [a, b] = symbol.range ?? [];
  const lines = a === undefined ? '' : a === b ? ` (line ${a})` : ` (lines ${a}-${b})`;
  return `${symbol.kind} ${symbol.name}${lines}`;
}

/**
 * The lines of one file's block: rows merged by line number (a hit wins over
 * context), in line order, `--` between runs that are not
 * adjacent when context is shown.
 * @param {FileRows} file
 * @returns {string[]}
 */
export function fileLines(file) {
  const byLine = new Map();
  for (const row of file.rows) {
    const seen = byLine.get(row.line);
    if (seen === undefined) byLine.set(row.line, { ...row });
    else if (row.hit && !seen.hit) Object.assign(seen, { hit: true, text: row.text, symbol: row.symbol ?? seen.symbol });
  }
  const rows = [...byLine.values()].sort((x, y) => x.line - y.line);
  const withContext = rows.some((r) => !r.hit);
  const out = [file.path];
  let last;
  let symbol;
  for (const row of rows) {
    if (withContext && last !== undefined && row.line > last + 1) out.push('--');
    if (row.hit && row.symbol !== symbol) {
      symbol = row.symbol;
      out.push(`@ ${symbol ?? 'top level'}`);
    }
    const mark = row.hit ? ': ' : '- ';
    out.push(row.text === '' ? `${row.line}${mark.trimEnd()}` : `${row.line}${mark}${oneLine(row.text)}`);
    last = row.line;
  }
  return out;
}

/**
 * The hits of an answer: a head line, then each file's block.
 * @param {string} head one line: what was searched, the counts, what was left out
 * @param {FileRows[]} files
 */
export function renderHits(head, files) {
  const lines = [oneLine(head)];
  for (const file of files) lines.push(...fileLines(file));
  return lines.join('\n');
}

/** `items` grouped by path (consecutive runs; an answer lists each file's hits together). */
function groupBy(items, pathOf, rowsOf) {
  const files = [];
  for (const item of items) {
    const path = pathOf(item);
    let file = files[files.length - 1];
    if (file === undefined || file.path !== path) files.push((file = { path, rows: [] }));
    file.rows.push(...rowsOf(item));
  }
  return files;
}

/** Context rows before and after a hit at `line`. */
function around(line, before = [], after = []) {
  return [
    ...before.map((text, i) => ({ line: line - before.length + i, text })),
    ...after.map((text, i) => ({ line: line + 1 + i, text })),
  ];
}

/** searchCode's matches `[{path, lineNumber, content, symbol?}]`. */
export function searchCodeFiles(matches) {
  return groupBy(matches, (m) => m.path, (m) => [{ line: m.lineNumber, text: m.content, hit: true, symbol: symbolLabel(m.symbol) }]);
}

/**
 * grep's matches `[{file, line, content, context?, contextStart?}]`; the
 * context (the match line among it) shown when `context` is true.
 */
export function grepFiles(matches, context) {
  return groupBy(matches, (m) => m.file, (m) => {
    const hit = { line: m.line, text: m.content, hit: true };
    if (!context || !Array.isArray(m.context)) return [hit];
    const start = m.contextStart ?? m.line;
    return [...m.context.map((text, i) => ({ line: start + i, text })).filter((r) => r.line !== m.line), hit];
  });
}

/**
 * grepContent's matches, camelCase or snake_case (`file, line, column, text,
 * context_before, context_after, symbol?`); context shown when `context`.
 */
export function grepContentFiles(matches, context) {
  return groupBy(matches, (m) => m.file, (m) => [
    { line: m.line, text: m.text, hit: true, symbol: symbolLabel(m.symbol) },
    ...(context ? around(m.line, m.context_before ?? m.contextBefore, m.context_after ?? m.contextAfter) : []),
  ]);
}

/**
 * smartFileQuery's results `[{path, matches: [{lineNumber, context}], content?}]`:
 * each matching line once (several matches on a line are one hit line);
 * the context shown when `context`, the whole file when it has `content`.
 */
export function smartFileQueryFiles(results, context) {
  return results.map((file) => {
    const rows = [];
    for (const m of file.matches) {
      rows.push({ line: m.lineNumber, text: m.context?.line ?? m.match, hit: true });
      if (context && m.context) rows.push(...around(m.lineNumber, m.context.before, m.context.after));
    }
    if (typeof file.content === 'string') {
      const lines = file.content.split(/\r?\n/);
      if (lines[lines.length - 1] === '') lines.pop();
      lines.forEach((text, i) => rows.push({ line: i + 1, text }));
    }
    return { path: file.path, rows };
  });
}

/** `n thing(s)`, with thousands separators. */
export function count(n, one, many = `${one}s`) {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** Non-zero skip counts `{binary: 2, tooLarge: 1}` as `2 binary, 1 too large`, or ''. */
export function skippedWords(skipped) {
  if (!skipped) return '';
  const words = { tooLarge: 'too large', too_large: 'too large', notCheckedOut: 'not checked out', not_checked_out: 'not checked out', budget: 'over the regex time budget' };
  return Object.entries(skipped)
    .filter(([, n]) => typeof n === 'number' && n > 0)
    .map(([k, n]) => `${n} ${words[k] ?? k}`)
    .join(', ');
}
