// The text a model reads of each search tool's answer (`content[].text`):
// one head line (the counts; what was left out and how to narrow), then the
// hits grep-style, grouped by file (lib/render/hits.mjs), or the paths, one
// a line (lib/render/listing.mjs). Paths are relative to the server's root.
// `structuredContent` keeps the tool's JSON answer, field for field, with
// the same hits; `format: "json"` makes the text that JSON again.
//
// Each entry of TEXTS is `(value, args, ctx) → string` for the answer
// `value` the tool's run (and fit) gave, its arguments without `format`,
// and the server's ctx ({ root }).

import { relative, sep } from 'node:path';
import {
  count,
  grepContentFiles,
  grepFiles,
  renderHits,
  searchCodeFiles,
  skippedWords,
  smartFileQueryFiles,
} from '../render/hits.mjs';
import { renderListing } from '../render/listing.mjs';

/** The `format` argument every tool of TEXTS takes (and task_result). */
export const FORMAT = {
  type: 'string',
  enum: ['text', 'json'],
  description:
    "'text' (default): one head line with the counts and what was left out, then the hits grep-style, grouped by file " +
    '(the path once, then `line: text`; context lines, when asked for with context_lines/contextLines, as `line- text`), ' +
    "paths relative to the root; the JSON answer is in structuredContent. 'json': that JSON as the text",
};

/** `schema` with the `format` argument. */
export function withFormat(schema) {
  return { ...schema, properties: { ...schema.properties, format: FORMAT } };
}

/** The clauses of a head line, the empty ones left out. */
function head(...clauses) {
  return clauses.filter(Boolean).join('; ');
}

/** The shrunk block's sentence and the largest counts by directory. */
function shrunkClause(shrunk, unit) {
  if (!shrunk) return '';
  const dirs = Object.entries(shrunk.by_directory ?? {});
  const shown = dirs.slice(0, 5).map(([d, n]) => `${d} ${n}`);
  const more = dirs.length - shown.length + (shrunk.more_directories ?? 0);
  const table = shown.length ? ` ${unit} by directory: ${shown.join(', ')}${more > 0 ? `, … (+${more} more)` : ''}.` : '';
  return `${shrunk.hint ?? ''}${table}`;
}

/** A root-relative POSIX folder for an absolute path, '' at the root. */
function under(root, absolute) {
  if (typeof absolute !== 'string' || root === undefined) return '';
  const rel = relative(root, absolute);
  return rel === '' ? '' : rel.split(sep).join('/');
}

function matchingLines(n) {
  return count(n, 'matching line');
}

const STOPPED = "the search stopped at the server's result size limit (the counts are exact, the hits those found before)";

/** What a cut list left out: why the search stopped, or the page (when the budget did not cut it: then shrunkClause says it). */
function cutAt(value, shown, total, pagingWords) {
  if ((value.truncatedBy ?? value.truncated_by) === 'maxResultBytes') return STOPPED;
  if (value.shrunk || shown >= total) return '';
  return pagingWords;
}

/** How an argument is spelt where the text is read: the MCP tool's arguments, or the CLI's flags. */
const MCP_SEARCH_CODE = { offset: 'offset=', path: 'path', extensions: 'include_extensions' };

/** `shown a-b: …` of a page of `k` hits from `offset`. */
function shown(offset, k) {
  return `shown ${k ? `${offset + 1}-${offset + k}` : 'none'}`;
}

/**
 * search_code's text, and the CLI's `search --text` (with its flags' spelling).
 * @param {object} value searchCode's answer (shrunk or not)
 * @param {{ offset?: number }} args
 * @param {{ offset: string, path: string, extensions: string }} [spell]
 */
export function searchCodeText(value, args, spell = MCP_SEARCH_CODE) {
  const matches = value.matches ?? [];
  const offset = args.offset ?? 0;
  const k = matches.length;
  const total = value.matchCount ?? k;
  const files = value.filesWithMatches === undefined ? '' : ` in ${count(value.filesWithMatches, 'file')}`;
  const searched = value.filesSearched === undefined ? '' : ` (${value.filesSearched.toLocaleString('en-US')} searched)`;
  return renderHits(
    head(
      `${matchingLines(total)}${files}${searched}`,
      cutAt(value, offset + k, total,
        `${shown(offset, k)}: page on with ${spell.offset}${offset + k}, or narrow with ${spell.path}, ${spell.extensions} or a more specific query`),
      skippedWords(value.skipped) && `skipped: ${skippedWords(value.skipped)}`,
      value.complete === false && `incomplete: ${value.reason ?? 'stopped early'}`,
      value.hint,
      shrunkClause(value.shrunk, 'Matching lines'),
    ),
    searchCodeFiles(matches),
  );
}

function grep(value, args) {
  const matches = value.matches ?? [];
  const files = new Set(matches.map((m) => m.file)).size;
  return renderHits(
    head(
      `${matchingLines(matches.length)} in ${count(files, 'file')}`,
      value.truncated && !value.shrunk &&
        `there are more than maxResults (${args.maxResults ?? 50}): raise maxResults, or narrow with path or a more specific pattern`,
      shrunkClause(value.shrunk, 'Matching lines'),
    ),
    grepFiles(matches, (args.contextLines ?? 0) > 0),
  );
}

function grepContent(value, args, { root }) {
  const matches = value.matches ?? [];
  const offset = args.offset ?? 0;
  const k = matches.length;
  const total = value.total_matches ?? k;
  const where = under(root, value.path);
  return renderHits(
    head(
      `${matchingLines(total)} in ${count(value.files_with_matches ?? 0, 'file')}` +
        `${value.files_searched === undefined ? '' : ` (${value.files_searched.toLocaleString('en-US')} searched${where ? ` under ${where}` : ''})`}`,
      cutAt(value, offset + k, total,
        `${shown(offset, k)}: page on with offset=${offset + k}, or narrow with path, file_glob or a more specific pattern`),
      skippedWords(value.skipped) && `skipped: ${skippedWords(value.skipped)}`,
      value.complete === false && `incomplete: ${value.reason ?? 'stopped early'}`,
      value.hint,
      shrunkClause(value.shrunk, 'Matching lines'),
    ),
    grepContentFiles(matches, (args.context_lines ?? 0) > 0),
  );
}

/** `['a', 'b', 'a']` as `2 a, 1 b`. */
function countBy(words) {
  const counts = new Map();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts].map(([w, n]) => `${n} ${w}`).join(', ');
}

function smartFileQuery(value, args) {
  const results = value.results ?? [];
  const aggregate = value.aggregate ?? {};
  const skipped = value.skipped ?? [];
  // Counts by reason; the paths of files skipped for another reason than being binary (3 at most).
  const reasons = countBy(skipped.map((s) => s.reason));
  const named = skipped.filter((s) => s.reason !== 'binary');
  const listed = named.slice(0, 3).map((s) => s.path).join(', ') + (named.length > 3 ? ', …' : '');
  let stopped = '';
  if (aggregate.truncatedBy === 'maxResultBytes') stopped = `${STOPPED}: narrow with glob or a more specific regex`;
  else if (aggregate.truncated && !value.shrunk) {
    stopped = `stopped at maxMatches (${value.query?.maxMatches ?? 500}): raise maxMatches, or narrow with glob or a more specific regex`;
  }
  return renderHits(
    head(
      `${count(aggregate.totalMatches ?? 0, 'match', 'matches')} in ${count(aggregate.filesMatched ?? results.length, 'file')}` +
        `${aggregate.filesVisited === undefined ? '' : ` (${aggregate.filesVisited.toLocaleString('en-US')} visited)`}`,
      stopped,
      skipped.length > 0 && `skipped: ${reasons}${listed ? ` (${listed})` : ''}`,
      value.hint,
      shrunkClause(value.shrunk, 'Matches'),
    ),
    smartFileQueryFiles(results, args.contextLines !== undefined && args.contextLines > 0),
  );
}

function globFiles(value, args, { root }) {
  const files = value.files ?? [];
  const offset = args.offset ?? 0;
  const total = value.total ?? files.length;
  const where = under(root, value.root);
  return renderListing(
    head(
      `${count(total, 'file')}${where ? ` under ${where}` : ''}`,
      cutAt(value, offset + files.length, total,
        `${shown(offset, files.length)}: page on with offset=${offset + files.length}, or narrow with root or a more specific pattern`),
      skippedWords(value.skipped) && `skipped: ${skippedWords(value.skipped)}`,
      shrunkClause(value.shrunk, 'Files'),
    ),
    files,
    where ? `${where}/` : '',
  );
}

function findFiles(value, args) {
  const files = value.files ?? [];
  return renderListing(
    head(
      count(files.length, 'entry', 'entries'),
      value.truncated && !value.shrunk &&
        `there are more than maxResults (${args.maxResults ?? 100}): raise maxResults, or narrow with path or a more specific pattern`,
      shrunkClause(value.shrunk, 'Entries'),
    ),
    files,
  );
}

function scrollFile(value) {
  const lines = [
    head(
      `${value.path}: lines ${value.viewportStart}-${value.viewportEnd} of ${value.totalLines}`,
      value.linesAbove > 0 && `${value.linesAbove} above (scroll_up)`,
      value.linesBelow > 0 && `${value.linesBelow} below (scroll_down)`,
      value.note,
      value.shrunk?.hint,
    ),
  ];
  if (value.content) lines.push(value.content);
  return lines.join('\n');
}

/** The running answer of a background search stays JSON (it has no hits). */
export function isRunning(value) {
  return value !== null && typeof value === 'object' && value.status === 'running';
}

/** The compact text of each tool that has one, by tool name. */
export const TEXTS = {
  smart_file_query: smartFileQuery,
  search_code: (value, args) => searchCodeText(value, args),
  scroll_file: scrollFile,
  grep,
  find_files: findFiles,
  glob_files: globFiles,
  grep_content: grepContent,
};
