#!/usr/bin/env node
// What an agent pays for an answer: the MCP server's search tools, called
// through the official SDK client over stdio (the real server process), on
// each tree given (default: this repository), with the text the model reads
// (`content[0].text`) counted in o200k tokens (gpt-tokenizer, a dev
// dependency) against the cheapest honest rendering of the same hits:
// `path:line:text`, one line per hit, for searches; one path per line for
// listings (both made from the answer's structuredContent). Also shown: the
// JSON text the tools answered before the compact text (`format: "json"`:
// its hits, fewer where the 20,000-character budget shrank it, and its
// tokens) and the budget's estimate of our text (lib/mcp/tokens.mjs), which
// must not be below the real count.
//
//   node bench/tokens.mjs [ROOT ...]
//
// The calls are issue 27's, measured on vitejs/vite (on a tree without
// packages/vite/src the second search looks in the first of lib, src,
// django, drivers that exists), then a few that find hits in any tree of
// code. Exit status 1 when a target is missed: our text over 1.1× the
// baseline (answers of 10 hits or more: below that the head line weighs
// more than the hits), a hit of structuredContent missing from the text,
// or an estimate below the real count.

import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokens } from '../lib/mcp/tokens.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const BIN = join(HERE, '..', 'bin', 'smart-file-query.mjs');
const TARGET = 1.1;

/** Issue 27's calls; `sub` stands for packages/vite/src. */
const CALLS = [
  ['search_code', { query: 'createServer' }],
  ['search_code', { query: 'hmr', path: 'sub' }],
  ['grep', { pattern: 'import.meta.hot' }],
  ['grep_content', { pattern: 'export function \\w+', file_glob: '*.ts' }],
  ['glob_files', { pattern: '**/*.spec.ts' }],
  ['find_files', { pattern: '*.json' }],
  // Hits in any tree.
  ['search_code', { query: 'import' }],
  ['grep', { pattern: 'return', maxResults: 100 }],
  ['grep_content', { pattern: '^\\s*(export\\s+)?(async\\s+)?(function|def|fn|class)\\s+\\w+', max_results: 200 }],
  ['smart_file_query', { regex: 'TODO|FIXME', maxMatches: 100 }],
  ['glob_files', { pattern: '**/*test*' }],
  ['find_files', { pattern: '*.md' }],
];
/** The fewest hits for the ratio target to apply. */
const MIN_HITS = 10;

/** The hits of a structured answer: `{path, line, text}` for searches, `{path}` for listings. */
export function hitsOf(tool, value, root) {
  switch (tool) {
    case 'search_code':
      return value.matches.map((m) => ({ path: m.path, line: m.lineNumber, text: m.content }));
    case 'grep':
      return value.matches.map((m) => ({ path: m.file, line: m.line, text: m.content }));
    case 'grep_content':
      return value.matches.map((m) => ({ path: m.file, line: m.line, text: m.text }));
    case 'smart_file_query':
      return value.results.flatMap((r) => r.matches.map((m) => ({ path: r.path, line: m.lineNumber, text: m.context.line })));
    case 'glob_files': {
      const prefix = relative(root, value.root).split('\\').join('/');
      return value.files.map((f) => ({ path: prefix ? `${prefix}/${f.path}` : f.path }));
    }
    case 'find_files':
      return value.files.map((f) => ({ path: `${f.path}${f.type === 'dir' ? '/' : ''}` }));
    default:
      throw new Error(`no hits for ${tool}`);
  }
}

/** The cheapest honest rendering of the hits: `path:line:text` a line, or one path a line. */
export function baseline(hits) {
  return hits.map((h) => (h.line === undefined ? h.path : `${h.path}:${h.line}:${h.text}`)).join('\n');
}

/**
 * The hits (`path` or `path:line`) the text does not show: a listing's
 * paths a line each; a search's lines under the path of their file.
 */
export function missingHits(hits, text) {
  const lines = text.split('\n').slice(1);
  if (hits.every((h) => h.line === undefined)) {
    const listed = new Set(lines);
    return hits.filter((h) => !listed.has(h.path)).map((h) => h.path);
  }
  const shown = new Map(); // path → the line numbers shown as hits under it
  let path;
  for (const line of lines) {
    const m = /^(\d+):(?: |$)/.exec(line);
    if (m && path !== undefined) shown.get(path).add(Number(m[1]));
    else if (!/^\d+-/.test(line) && line !== '--' && !line.startsWith('@ ')) shown.set((path = line), shown.get(line) ?? new Set());
  }
  return hits.filter((h) => !shown.get(h.path)?.has(h.line)).map((h) => `${h.path}:${h.line}`);
}

function tokens(text) {
  return encode(text).length;
}

async function measure(root) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', root], stderr: 'ignore' });
  const client = new Client({ name: 'sfq-bench-tokens', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  const sub = ['packages/vite/src', 'lib', 'src', 'django', 'drivers'].find((d) => existsSync(join(root, d)));
  const rows = [];
  try {
    for (const [tool, template] of CALLS) {
      const args = Object.fromEntries(Object.entries(template).map(([k, v]) => [k, v === 'sub' ? sub : v]));
      const r = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 600_000 });
      if (r.isError) throw new Error(`${tool} ${JSON.stringify(args)}: ${r.content[0].text}`);
      const json = await client.callTool({ name: tool, arguments: { ...args, format: 'json' } }, undefined, { timeout: 600_000 });
      const text = r.content[0].text;
      const hits = hitsOf(tool, r.structuredContent, root);
      const row = {
        call: `${tool} ${JSON.stringify(args)}`,
        hits: hits.length,
        jsonHits: hitsOf(tool, json.structuredContent, root).length,
        json: tokens(json.content[0].text),
        ours: tokens(text),
        estimate: estimateTokens(text),
        base: tokens(baseline(hits)),
        missing: missingHits(hits, text),
      };
      row.ratio = row.ours / Math.max(1, row.base);
      rows.push(row);
    }
  } finally {
    await client.close();
  }
  return rows;
}

function table(name, rows) {
  const n = (x) => x.toLocaleString('en-US');
  const out = [
    `${name}:`,
    '',
    '| call | hits | JSON text (before): hits, tokens | our text | `path:line:text` | ratio | estimate |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const ratio = r.hits >= MIN_HITS ? `${r.ratio.toFixed(2)}×` : '—';
    out.push(`| \`${r.call.replace(/\|/g, '\\|')}\` | ${r.hits} | ${r.jsonHits}, ${n(r.json)} | ${n(r.ours)} | ${n(r.base)} | ${ratio} | ${n(r.estimate)} |`);
  }
  return out.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const roots = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  let failed = false;
  for (const root of roots.length ? roots.map((r) => resolve(r)) : [resolve(HERE, '..')]) {
    const rows = await measure(root);
    console.log(`${table(relative(process.cwd(), root) || '.', rows)}\n`);
    for (const r of rows) {
      const problems = [];
      if (r.hits >= MIN_HITS && r.ratio > TARGET) problems.push(`our text is ${r.ratio.toFixed(2)}× the baseline (target ≤ ${TARGET}×)`);
      if (r.missing.length) problems.push(`${r.missing.length} hits missing from the text: ${r.missing.slice(0, 3).join(', ')}`);
      if (r.estimate < r.ours) problems.push(`the estimate ${r.estimate} is below the real ${r.ours}`);
      for (const p of problems) console.error(`${r.call}: ${p}`);
      failed ||= problems.length > 0;
    }
  }
  process.exitCode = failed ? 1 : 0;
}
