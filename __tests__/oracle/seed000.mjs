#!/usr/bin/env node
// The pure-Node implementation of seed 000 — the script smart-file-query
// replaces — written straight from the design document and the contract's
// refinements (SPEC.md), with V8's RegExp, `git ls-files` and picomatch.
// It is the oracle of the differential tests and the "pure-Node" row of the
// benchmark. It shares nothing with the addon but the CLI argument parser.
//
// Contract refinements it follows (SPEC "Shared semantics" / "Regular
// expressions"): candidate files as `git ls-files --cached --others
// --exclude-standard` lists them, symlinks not followed; `.git`,
// `node_modules` and `.turbo` excluded at any depth; UTF-16 order of paths;
// binary = NUL or C0 control other than \t \n \v \f \r ESC in the first KiB;
// lines as split(/\r?\n/) without the empty string after a final newline;
// the matchAll iteration; code-point columns; maxMatches stops the scan.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { pathToFileURL } from 'node:url';

const DEFAULT_IGNORE = ['.git/**', '**/node_modules/**', '**/.turbo/**'];
const PRUNED = new Set(['.git', 'node_modules', '.turbo']);
const ENCODINGS = new Map([
  ['utf8', 'utf8'], ['utf-8', 'utf8'],
  ['utf16le', 'utf16le'], ['utf-16le', 'utf16le'], ['ucs2', 'utf16le'], ['ucs-2', 'utf16le'],
  ['latin1', 'latin1'], ['binary', 'latin1'], ['ascii', 'ascii'],
]);

function fail(code, message) {
  const e = new Error(message);
  e.code = code;
  throw e;
}

function gitLsFiles(root) {
  const args = ['ls-files', '-z', '--cached', '--others', '--exclude-standard'];
  const opts = { cwd: root, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] };
  let out;
  try {
    execFileSync('git', ['rev-parse', '--is-inside-work-tree'], opts);
    out = execFileSync('git', args, opts);
  } catch {
    // Not a work tree: .gitignore files still apply (an empty repository
    // whose work tree is the root); there are no tracked files.
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'sfq-oracle-git-'));
    try {
      execFileSync('git', ['init', '-q', '--bare', empty], opts);
      out = execFileSync('git', [`--git-dir=${empty}`, `--work-tree=${root}`, ...args], opts);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  }
  return [...new Set(out.toString('utf8').split('\0').filter((p) => p !== ''))];
}

/** Candidate files: git's list minus symlinks, directories and pruned names, in UTF-16 order. */
export function listCandidates(root) {
  const files = [];
  for (const rel of gitLsFiles(root)) {
    if (rel.endsWith('/')) continue; // an untracked nested repository
    if (rel.split('/').some((part) => PRUNED.has(part))) continue;
    let st;
    try {
      st = fs.lstatSync(path.join(root, rel));
    } catch {
      files.push({ rel, missing: true, size: 0 });
      continue;
    }
    if (!st.isFile()) continue;
    files.push({ rel, missing: false, size: st.size });
  }
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return files;
}

function isBinaryUnit(u) {
  return u < 0x20 && u !== 0x09 && u !== 0x0a && u !== 0x0b && u !== 0x0c && u !== 0x0d && u !== 0x1b;
}

function isBinary(buf, encoding) {
  const head = buf.subarray(0, 1024);
  if (encoding === 'utf16le') {
    const s = head.toString('utf16le');
    for (let i = 0; i < s.length; i++) if (isBinaryUnit(s.charCodeAt(i))) return true;
    return false;
  }
  for (const b of head) if (isBinaryUnit(b)) return true;
  return false;
}

function splitLines(text) {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function toGlobList(v, fallback) {
  const list = (v === undefined ? [] : Array.isArray(v) ? v : [v]).map((g) => g.trim()).filter((g) => g !== '');
  return list.length ? list : fallback;
}

/** seed 000's smartFileQuery, sequential and straightforward. */
export function smartFileQueryReference(options) {
  const root = path.resolve(options.cwd ?? process.cwd());
  const flags = options.flags ?? '';
  if (flags.includes('y')) {
    fail('EINVALIDREGEX', `The 'y' (sticky) flag is not supported for search (flags '${flags}'); remove it`);
  }
  let re;
  try {
    new RegExp(options.regex, flags);
    re = new RegExp(options.regex, flags.includes('g') ? flags : `${flags}g`);
  } catch (e) {
    fail('EINVALIDREGEX', e.message);
  }
  const glob = toGlobList(options.glob, ['**/*']);
  const ignore = [...DEFAULT_IGNORE, ...toGlobList(options.ignore, [])];
  const contextLines = options.contextLines ?? 2;
  const includeAllContent = options.includeAllContent ?? false;
  const maxFileSizeKB = options.maxFileSizeKB ?? 256;
  const maxMatches = options.maxMatches ?? 500;
  const encoding = ENCODINGS.get((options.encoding ?? 'utf8').toLowerCase());
  if (!encoding) fail('EINVALIDOPTION', `Unsupported encoding '${options.encoding}'`);
  const multiline = options.multiline ?? false;

  const include = picomatch(glob, { dot: true });
  const exclude = picomatch(ignore, { dot: true });
  const candidates = listCandidates(root).filter((c) => include(c.rel) && !exclude(c.rel));

  const results = [];
  const skipped = [];
  const aggregate = { filesVisited: 0, filesMatched: 0, totalMatches: 0, truncated: false };
  for (const cand of candidates) {
    aggregate.filesVisited++;
    if (cand.size > maxFileSizeKB * 1024) {
      skipped.push({ path: cand.rel, reason: 'maxFileSizeExceeded', size: cand.size });
      continue;
    }
    let buf;
    try {
      if (cand.missing) fail('ENOENT', 'missing');
      buf = fs.readFileSync(path.join(root, cand.rel));
    } catch (e) {
      skipped.push({ path: cand.rel, reason: 'readError', code: e.code });
      continue;
    }
    if (isBinary(buf, encoding)) {
      skipped.push({ path: cand.rel, reason: 'binary' });
      continue;
    }
    const text = buf.toString(encoding);
    const lines = splitLines(text);
    const remaining = maxMatches - aggregate.totalMatches;
    const hits = []; // { line, index (in text or line), start-of-line offset, match }
    if (multiline) {
      const starts = [];
      let offset = 0;
      for (const part of text.split('\n')) {
        starts.push(offset);
        offset += part.length + 1;
      }
      for (const m of text.matchAll(re)) {
        let line = starts.length - 1;
        while (starts[line] > m.index) line--;
        hits.push({ line, column: Array.from(text.slice(starts[line], m.index)).length + 1, match: m[0] });
        if (hits.length > remaining) break;
      }
    } else {
      outer: for (let i = 0; i < lines.length; i++) {
        for (const m of lines[i].matchAll(re)) {
          hits.push({ line: i, column: Array.from(lines[i].slice(0, m.index)).length + 1, match: m[0] });
          if (hits.length > remaining) break outer;
        }
      }
    }
    if (hits.length === 0) continue;
    const truncated = hits.length > remaining;
    if (truncated) hits.length = remaining;
    const lineAt = (i) => (i < lines.length ? lines[i] : '');
    const matches = hits.map((h) => ({
      lineNumber: h.line + 1,
      column: h.column,
      match: h.match,
      context: {
        before: lines.slice(Math.max(0, h.line - contextLines), Math.min(h.line, lines.length)),
        line: lineAt(h.line),
        after: lines.slice(h.line + 1, h.line + 1 + contextLines),
      },
    }));
    const file = { path: cand.rel, size: cand.size, matchCount: matches.length, matches };
    if (includeAllContent) file.content = text;
    file.truncated = truncated;
    results.push(file);
    aggregate.filesMatched++;
    aggregate.totalMatches += matches.length;
    if (aggregate.totalMatches >= maxMatches) {
      aggregate.truncated = true;
      break;
    }
  }
  const query = { regex: options.regex, flags, glob, ignore, contextLines, includeAllContent, maxFileSizeKB, maxMatches };
  if (multiline) query.multiline = true;
  return { query, results, skipped, aggregate };
}

// As a command: the seed's CLI, for the benchmark.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { parseArgs, USAGE } = await import('../../lib/args.mjs');
  try {
    if (process.argv[2] === '--files') {
      // Listing only (the benchmark's "file listing" workload): the candidates, one per line.
      const exclude = picomatch(DEFAULT_IGNORE, { dot: true });
      process.stdout.write(listCandidates(process.cwd()).filter((c) => !exclude(c.rel)).map((c) => `${c.rel}\n`).join(''));
      process.exit(0);
    }
    const parsed = parseArgs(process.argv.slice(2));
    if (parsed.help) {
      process.stdout.write(USAGE);
    } else {
      process.stdout.write(JSON.stringify(smartFileQueryReference(parsed.options)));
    }
  } catch (e) {
    process.stderr.write(`smart-file-query (reference): ${e.message}\n`);
    process.exitCode = 1;
  }
}
