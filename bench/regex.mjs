#!/usr/bin/env node
// `npm run bench:regex` / `node bench/regex.mjs [--runs N] [--json]`
//
// The product's JavaScript-exact regex search (`smartFileQuerySync`) against
// V8's own `RegExp`, in the same warm Node process, on the same text.
//
// What is measured, on each side:
//   V8       `new RegExp(source, flags + 'g')`, then for every line of the
//            subject `re.lastIndex = 0` and `exec` until null, counting the
//            matches (an empty match advances lastIndex by one code unit, one
//            code point under `u`/`v`: AdvanceStringIndex). This is the
//            product's documented meaning (README, "What it guarantees", and
//            SPEC "Regular expressions"): lines as `text.split(/\r?\n/)`
//            gives them minus the empty string after a final newline, every
//            match of each line. The subject is already split into lines in
//            memory: reading and splitting the text are not timed on this side.
//   product  one `smartFileQuerySync({ regex, flags, cwd: tmp, … })` call over
//            a temp directory holding the subject as one file: option
//            checks, regex compile, file discovery and read, the search, and
//            the result objects built in JS (contextLines 0) are all timed.
//            `baseline` is the same call with a pattern that never matches
//            (`zzzzqqqq`, fast path + literal prefilter) on the same
//            directory: the product's fixed cost per call for that subject.
//   engine   (part 1) the product's regex search alone, as V8's side is
//            timed: the addon's bench entry `engineCountSync` compiles the
//            pattern and counts every match of each line of the same text,
//            timed in Rust (the text's conversion is not timed; no file, no
//            result objects): the engine against the engine.
// Both sides are timed with performance.now(), interleaved run by run (the
// order alternates), medians reported. Match counts are compared on every
// row: a difference prints **DIFF**.
//
// Part 1, curated: catastrophic / backtracking-heavy patterns plus a few
// ordinary ones. Each subject is grown (line length by +1 steps for the
// exponential ones, line length or line count by doubling for the others,
// bisecting back on overshoot) until V8 takes 20–400 ms over it; every
// growth probe runs V8 under a vm timeout (2 s), so a pattern V8 cannot
// finish is recorded as "V8 > budget" instead of hanging. Each row also
// checks, untimed, that the matches themselves (line, column, text) agree.
//
// Part 2, test262: the regex literals of test262's test/built-ins/RegExp and
// test/language/literals/regexp files (tokenised by TypeScript's parser:
// acorn is not installed, typescript is a devDependency), deduplicated by
// source and flags, kept when Node's V8 accepts them; those the product
// refuses are listed, not timed. The subject is test262's harness/*.js and
// those test files concatenated (one file, ~3.9 MB). The literals are timed
// in a seeded random order until a time budget is spent (--literal-budget
// seconds, default 150; 0 = all of them), one V8 and one product run each;
// the 10 worst ratios are then re-timed with --literal-runs more runs each.
//
// Options: --runs N (part 1, default 5), --literal-runs N (part 2's re-timing, default 3),
//          --literal-budget S (default 150, 0 = no budget), --part curated|test262
//          (default both), --threads N (product worker threads, default 1: one
//          engine against one engine), --json (print the JSON instead of the
//          tables). Always writes bench/results/regex-<stamp>.json.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { rng } from './corpus.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const require = createRequire(join(ROOT, 'package.json'));
// Loaded by loadProduct(), from a private copy of the addon.
let smartFileQuerySync;
let engineCountSync;

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const RUNS = Number(opt('runs', '5'));
const LITERAL_RUNS = Number(opt('literal-runs', '3'));
const LITERAL_BUDGET_S = Number(opt('literal-budget', '150'));
const PARTS = opt('part', 'curated,test262').split(',');
const THREADS = Number(opt('threads', '1'));
const JSON_OUT = argv.includes('--json');
const TEST262 = join(ROOT, '.corpus', 'test262');

// Timing window for the grown subjects, and the cap of one V8 growth probe.
const WINDOW = [20, 400];
const V8_PROBE_TIMEOUT_MS = 2000;
// The product's maxMatches is capped at 1,000,000 (index.d.ts); V8's count
// stops at the same cap, in the same order, so the two stay comparable.
const MAX_MATCHES = 1_000_000;
const REGEX_TIMEOUT_MS = 60_000;
// A product row is cut to fewer runs when its runs would take longer than this.
const PRODUCT_ROW_CAP_MS = 30_000;
const BASELINE = 'zzzzqqqq';

const log = (...a) => console.error(...a);
/**
 * Back to the event loop, between timed calls (never inside one). The product
 * hands its results over in buffers that napi-rs frees from finalizers run on
 * the event loop: a synchronous loop of smartFileQuerySync calls never frees
 * them (RSS grows by ~70 bytes per match returned, without bound: 24 GB and the
 * OOM killer after ~4,000 test262 literals), so the loops yield after each call.
 */
const tick = () => new Promise((resolve) => setImmediate(resolve));
// Part 2 stops early past this resident size (a guard for the machine).
const MAX_RSS = 8 * 2 ** 30;
const now = () => performance.now();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
};

// ---------------------------------------------------------------------------
// The V8 side.

/** The product's lines (SPEC, "Regular expressions"): `text.split(/\r?\n/)`,
 * without the empty string after a final newline. */
function splitLines(text) {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Flags for the V8 exec loop: `g` added; `d` dropped (it only adds indices to
 * the result, which the product does not compute; matching is the same). */
const v8Flags = (flags) => (flags.includes('g') ? flags : `${flags}g`).replace('d', '');

/** Every match of every line, as the product counts them; stops at `cap`. */
function v8Count(source, flags, lines, cap) {
  const re = new RegExp(source, v8Flags(flags));
  const unicode = re.unicode || re.unicodeSets;
  let count = 0;
  for (const line of lines) {
    re.lastIndex = 0;
    let m;
    while ((m = re.exec(line)) !== null) {
      if (++count >= cap) return count;
      if (m[0] === '') re.lastIndex = advance(line, re.lastIndex, unicode);
    }
  }
  return count;
}

/** ECMAScript AdvanceStringIndex. */
function advance(s, i, unicode) {
  if (!unicode || i + 1 >= s.length) return i + 1;
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return i + 1;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? i + 2 : i + 1;
}

// The same loop compiled in a vm context, run with a timeout (vm's watchdog
// interrupts irregexp's backtracking): used for the growth probes only.
const probeContext = vm.createContext({});
vm.runInContext(`${advance.toString()}\nconst v8Flags = ${v8Flags.toString()};\n${v8Count.toString()}`, probeContext);

/** V8's time over `lines` in ms (the better of two runs when the first is
 * short enough: the first can carry a GC of the previous subject), or
 * Infinity past the probe timeout. */
function v8Probe(source, flags, lines) {
  const first = v8ProbeOnce(source, flags, lines, V8_PROBE_TIMEOUT_MS);
  return first <= WINDOW[1] ? Math.min(first, v8ProbeOnce(source, flags, lines, V8_PROBE_TIMEOUT_MS)) : first;
}

function v8ProbeOnce(source, flags, lines, timeoutMs) {
  probeContext.args = { source, flags, lines, cap: MAX_MATCHES };
  const t = now();
  try {
    vm.runInContext('v8Count(args.source, args.flags, args.lines, args.cap)', probeContext, { timeout: timeoutMs });
  } catch (e) {
    if (e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return Infinity;
    throw e;
  } finally {
    probeContext.args = undefined;
  }
  return now() - t;
}

/** Every match as `line:column:text` (column in code points, 1-based), untimed. */
function v8Matches(source, flags, lines, cap) {
  const re = new RegExp(source, v8Flags(flags));
  const unicode = re.unicode || re.unicodeSets;
  const out = [];
  for (let i = 0; i < lines.length && out.length < cap; i++) {
    const line = lines[i];
    re.lastIndex = 0;
    let m;
    while ((m = re.exec(line)) !== null && out.length < cap) {
      out.push(`${i + 1}:${[...line.slice(0, m.index)].length + 1}:${m[0]}`);
      if (m[0] === '') re.lastIndex = advance(line, re.lastIndex, unicode);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// The product side.

/** One timed smartFileQuerySync call over `dir`. */
function productRun(regex, flags, dir) {
  const t = now();
  const r = smartFileQuerySync({
    regex,
    flags,
    cwd: dir,
    contextLines: 0,
    maxMatches: MAX_MATCHES,
    maxFileSizeKB: 1048576,
    regexTimeoutMs: REGEX_TIMEOUT_MS,
    threads: THREADS,
  });
  const ms = now() - t;
  return {
    ms,
    count: r.aggregate.totalMatches,
    truncated: r.aggregate.truncated,
    budgetSkipped: r.skipped.filter((s) => s.reason === 'regexBudgetExceeded').length,
    otherSkipped: r.skipped.filter((s) => s.reason !== 'regexBudgetExceeded'),
    result: r,
  };
}

/** The product's matches as `line:column:text`, in file order. */
const productMatches = (result) => result.results.flatMap((f) => f.matches.map((m) => `${m.lineNumber}:${m.column}:${m.match}`));

/** Does the product accept the pattern? (An empty directory: compile only.) */
function productAccepts(regex, flags, emptyDir) {
  try {
    smartFileQuerySync({ regex, flags, cwd: emptyDir, threads: 1 });
    return null;
  } catch (e) {
    return `${e.code}: ${e.message}`;
  }
}

// ---------------------------------------------------------------------------
// Part 1: the curated set.

const rep = (s, n) => s.repeat(Math.max(0, n));
const words = (n, w) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(' ');
/** `n` lines cycling through `pool` (a realistic file: most lines do not match). */
const cycle = (pool, n) => Array.from({ length: n }, (_, i) => pool[i % pool.length]);
/** Exponential patterns: 4 hostile lines of length ~n, a matching line and a filler line after each. */
const hostile = (evil, good) => (n) => [0, 1, 2, 3].flatMap((i) => [evil(n), good, `ordinary text line ${i}`]);

// Ordinary code: 60 filler lines, then 4 lines holding the ordinary patterns'
// matches (a match on ~1 line in 16 for each pattern, non-ASCII included).
const CODE_LINES = [
  ...Array.from({ length: 60 }, (_, i) =>
    [
      `  const value${i} = compute(input${i}, { retries: ${i % 7}, label: 'item ${i}' });`,
      `static void helper_${i}(struct device *dev, int flags)`,
      `  if (count > ${i}) return items.slice(0, count).map((x) => x.id);`,
      `  // The caller owns the buffer; ${i} bytes are reserved for the header.`,
    ][i % 4],
  ),
  '  // TODO: handle the error path',
  "  if (!ok) throw new TypeError(`bad value ${value}`);",
  'static int foo_init(struct device *dev)',
  '  const e = new ÉtatError("été");  // FIXME later, hack around it',
];
const PROSE_LINES = [
  'the quick brown fox jumps over the the lazy dog',
  'nothing doubled on this line at all, only words',
  'this this is a doubled word at the start',
  'and here the end is is doubled',
  'a line with numbers 12 12 and symbols ; ; here',
];

// The hostile lines hold the pattern's required literal (the `b` of `(a*)+b\1`,
// the `;` of `…\1;`) wherever it has one, so that no literal prefilter can
// skip them: the engine must run and fail on each.
const CURATED = [
  { source: '(a*)+b\\1', flags: '', grow: 'step', n0: 8, subject: hostile((n) => `${rep('a', n)}bc`, 'xaabaay') },
  { source: '^(?=(a+)+$)', flags: '', grow: 'step', n0: 8, subject: hostile((n) => `${rep('a', n)}b`, 'aaaa') },
  { source: '(a|aa)+(?=b)', flags: '', grow: 'step', n0: 8, subject: hostile((n) => `${rep('a', n)}-b`, 'aaab') },
  { source: '(\\w+)\\s(?:\\w+\\s)*\\1;', flags: '', grow: 'double', n0: 8, subject: hostile((n) => `${words(n, 'w')} end;`, 'foo bar baz foo;') },
  { source: '(a+)+$', flags: '', grow: 'step', n0: 8, subject: hostile((n) => `${rep('a', n)}b`, 'aaa') },
  { source: '(x+x+)+y', flags: '', grow: 'step', n0: 8, subject: hostile((n) => `${rep('x', n)}-y`, 'xxxy') },
  { source: '^(\\d+)*$', flags: '', grow: 'step', n0: 8, subject: hostile((n) => `${rep('1', n)}a`, '12345') },
  { source: '(.*a){12}', flags: '', grow: 'double', n0: 4, subject: hostile((n) => rep(`${rep('x', n)}a`, 11), rep('a', 12)) },
  { source: '(?:a|a)*c', flags: '', grow: 'step', n0: 8, subject: hostile((n) => `${rep('a', n)}-c`, 'aac') },
  { source: '\\b(\\w+)\\s+\\1\\b', flags: '', grow: 'double', n0: 256, subject: (n) => cycle(PROSE_LINES, n) },
  { source: '^(([a-z])+.)+[A-Z]([a-z])+$', flags: '', grow: 'step', n0: 8, subject: hostile((n) => `${rep('a', n)}!A`, 'ab.Cde') },
  { source: '\\p{Lu}\\w+Error', flags: 'u', grow: 'double', n0: 1024, subject: (n) => cycle(CODE_LINES, n), ordinary: true },
  { source: 'static\\s+int\\s+\\w+_init\\(', flags: '', grow: 'double', n0: 1024, subject: (n) => cycle(CODE_LINES, n), ordinary: true },
  { source: 'TODO|FIXME|HACK', flags: 'i', grow: 'double', n0: 1024, subject: (n) => cycle(CODE_LINES, n), ordinary: true },
];
const MAX_N = { step: 4096, double: 1 << 22 };

/**
 * Grows `p.subject(n)` until V8 takes WINDOW[0]–WINDOW[1] ms over it; bisects
 * back after an overshoot. Returns { n, lines, probeMs } — probeMs is Infinity
 * when even the smallest size past the window does not finish within the probe
 * timeout (V8 > budget).
 */
function growSubject(p) {
  let lo = null; // largest n known to be under the window
  let hi = null; // smallest n known to be over it
  let hiMs = Infinity;
  let n = p.n0;
  for (let step = 0; step < 80; step++) {
    const lines = p.subject(n);
    const ms = v8Probe(p.source, p.flags, lines);
    if (ms >= WINDOW[0] && ms <= WINDOW[1]) return { n, lines, probeMs: ms };
    if (ms < WINDOW[0]) lo = n;
    else {
      hi = n;
      hiMs = ms;
    }
    if (hi === null) {
      if (n >= MAX_N[p.grow]) return { n, lines, probeMs: ms, note: 'size cap reached' };
      n = p.grow === 'step' ? n + 1 : n * 2;
    } else {
      if (lo === null) lo = 0;
      if (hi - lo <= 1) break;
      n = Math.floor((lo + hi) / 2);
    }
  }
  if (hi === null) return { n: lo, lines: p.subject(lo), probeMs: v8Probe(p.source, p.flags, p.subject(lo)), note: 'step limit reached' };
  // No size lands in the window: time the smallest one past it (V8 may have
  // finished it within the probe timeout) or record V8 > budget.
  return { n: hi, lines: p.subject(hi), probeMs: hiMs, note: 'no size in the window' };
}

async function runCurated(tmp) {
  const rows = [];
  for (const p of CURATED) {
    log(`curated: /${p.source}/${p.flags} …`);
    const grown = growSubject(p);
    const text = grown.lines.join('\n');
    writeFileSync(join(tmp, 'subject.txt'), text);
    grown.lines = splitLines(text);
    const row = {
      source: p.source,
      flags: p.flags,
      ordinary: !!p.ordinary,
      n: grown.n,
      grow: p.grow,
      lines: grown.lines.length,
      bytes: Buffer.byteLength(text),
      maxLineLength: grown.lines.reduce((m, l) => Math.max(m, l.length), 0),
      probeMs: grown.probeMs,
      note: grown.note,
    };
    const v8Finishes = Number.isFinite(grown.probeMs);
    // Warm-up (untimed): the first product call also tells how many runs fit.
    const warm = productRun(p.source, p.flags, tmp);
    await tick();
    productRun(BASELINE, '', tmp);
    const runs = Math.max(1, Math.min(RUNS, Math.floor(PRODUCT_ROW_CAP_MS / Math.max(1, warm.ms))));
    const v8 = [];
    const product = [];
    const baseline = [];
    const engine = [];
    let v8count = null;
    let engineCount = null;
    let last = warm;
    for (let r = 0; r < runs; r++) {
      const sides = [
        () => {
          if (!v8Finishes) return;
          const t = now();
          v8count = v8Count(p.source, p.flags, grown.lines, MAX_MATCHES);
          v8.push(now() - t);
        },
        () => {
          last = productRun(p.source, p.flags, tmp);
          product.push(last.ms);
        },
        () => baseline.push(productRun(BASELINE, '', tmp).ms),
        () => {
          const e = engineCountSync(p.source, p.flags, text, MAX_MATCHES, REGEX_TIMEOUT_MS);
          engine.push(e.ms);
          engineCount = e.budgetExceeded ? null : e.count;
        },
      ];
      for (const side of r % 2 ? sides.reverse() : sides) {
        side();
        await tick();
      }
    }
    Object.assign(row, {
      runs,
      v8Ms: v8Finishes ? median(v8) : null,
      productMs: median(product),
      baselineMs: median(baseline),
      engineMs: median(engine),
      engineCount,
      v8Count: v8count,
      productCount: last.count,
      productTruncated: last.truncated,
      budgetSkipped: last.budgetSkipped > 0,
      otherSkipped: last.otherSkipped,
      productHang: Math.max(...product, warm.ms) > REGEX_TIMEOUT_MS + 5000,
      samples: { v8, product, baseline, engine, productWarmUp: warm.ms },
    });
    row.ratio = row.v8Ms ? row.productMs / row.v8Ms : null;
    row.engineRatio = row.v8Ms ? row.engineMs / row.v8Ms : null;
    row.countsAgree = v8count === null || row.budgetSkipped ? null : v8count === last.count && engineCount === last.count;
    // The matches themselves (untimed), when the counts agree and are small enough.
    if (row.countsAgree && v8count <= 200_000) {
      const a = v8Matches(p.source, p.flags, grown.lines, MAX_MATCHES);
      const b = productMatches(last.result);
      const i = a.findIndex((x, k) => x !== b[k]);
      row.matchesAgree = i < 0 && a.length === b.length;
      if (!row.matchesAgree) row.firstMatchDiff = { v8: a[i] ?? null, product: b[i] ?? null, index: i };
    }
    rows.push(row);
    log(
      `  ${row.lines} lines × ≤${row.maxLineLength} chars: V8 ${fmt(row.v8Ms)} ms, product ${fmt(row.productMs)} ms, ` +
        `baseline ${fmt(row.baselineMs)} ms, engine ${fmt(row.engineMs)} ms, counts ${v8count}/${last.count}/${engineCount}${row.budgetSkipped ? ', budget skip' : ''}`,
    );
  }
  return rows;
}

// ---------------------------------------------------------------------------
// Part 2: test262's regex literals.

function walkJs(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walkJs(p, out);
    else if (e.name.endsWith('.js')) out.push(p);
  }
  return out;
}

/** Regex literals of a JS file, by TypeScript's parser (a real tokenizer:
 * a `/` is a regex start only where the grammar allows one). */
function regexLiterals(ts, file, text) {
  const out = [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const raw = node.text;
      const end = raw.lastIndexOf('/');
      if (end > 0) out.push({ source: raw.slice(1, end), flags: raw.slice(end + 1) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

async function runTest262(tmp) {
  let ts;
  try {
    ts = require('typescript');
  } catch {
    throw new Error('part 2 needs the typescript devDependency (npm install) to tokenise the literals');
  }
  const testFiles = [...walkJs(join(TEST262, 'test', 'built-ins', 'RegExp')), ...walkJs(join(TEST262, 'test', 'language', 'literals', 'regexp'))];
  const harness = readdirSync(join(TEST262, 'harness'))
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => join(TEST262, 'harness', f));

  // Literals, deduplicated by source and flags, with one file that holds each.
  const unique = new Map();
  let total = 0;
  const texts = new Map();
  for (const file of [...harness, ...testFiles]) texts.set(file, readFileSync(file, 'utf8'));
  for (const file of testFiles) {
    for (const lit of regexLiterals(ts, file, texts.get(file))) {
      total++;
      const key = `/${lit.source}/${lit.flags}`;
      if (!unique.has(key)) unique.set(key, { ...lit, key, file: relative(TEST262, file) });
    }
  }

  // Kept: V8 (this Node) accepts it; then: the product accepts it.
  const emptyDir = join(tmp, 'empty');
  mkdirSync(emptyDir);
  const v8Rejected = [];
  const productRejected = [];
  const kept = [];
  for (const lit of unique.values()) {
    try {
      new RegExp(lit.source, lit.flags);
    } catch (e) {
      v8Rejected.push({ ...lit, error: e.message });
      continue;
    }
    const err = productAccepts(lit.source, lit.flags, emptyDir);
    if (err) productRejected.push({ ...lit, error: err });
    else kept.push(lit);
    await tick();
  }
  log(`test262: ${total} literals, ${unique.size} unique, ${v8Rejected.length} rejected by V8, ${productRejected.length} by the product, ${kept.length} kept`);

  // The subject: harness, then the test files, one file.
  const text = [...harness, ...testFiles].map((f) => texts.get(f)).join('\n');
  const subjectDir = join(tmp, 'test262');
  mkdirSync(subjectDir);
  writeFileSync(join(subjectDir, 'subject.js'), text);
  const lines = splitLines(text);
  const check = productRun(BASELINE, '', subjectDir);
  if (check.result.skipped.length) throw new Error(`the product skipped the subject: ${JSON.stringify(check.result.skipped)}`);
  const baseline = [];
  for (let r = 0; r < 5; r++) {
    baseline.push(productRun(BASELINE, '', subjectDir).ms);
    await tick();
  }

  // Stage A: every literal, in a seeded random order, until the budget is
  // spent: one V8 run, one product run and one engine run each (the order alternates),
  // counts compared. Stage B: the WORST literals by that single-run ratio are
  // re-timed with LITERAL_RUNS more interleaved runs each, so the worst list
  // rests on medians, not on one noisy sample.
  const random = rng(262);
  const order = kept.map((lit) => ({ lit, k: random() })).sort((a, b) => a.k - b.k).map((x) => x.lit);
  const budgetMs = LITERAL_BUDGET_S > 0 ? LITERAL_BUDGET_S * 1000 : Infinity;
  const started = now();
  const rows = [];
  const productErrors = [];
  let stoppedForMemory = null;
  for (const lit of order) {
    if (now() - started > budgetMs) break;
    const rss = process.memoryUsage.rss();
    if (rss > MAX_RSS) {
      stoppedForMemory = `stopped at ${(rss / 2 ** 30).toFixed(1)} GiB resident`;
      log(`  ${stoppedForMemory}`);
      break;
    }
    const row = { source: lit.source, flags: lit.flags, file: lit.file, samples: { v8: [], product: [], engine: [] } };
    try {
      await timeLiteral(row, lines, text, subjectDir, rows.length % 2);
      rows.push(row);
    } catch (e) {
      // A product error on a pattern it accepted (ETIMEOUT, EINTERNAL…): listed, not timed.
      productErrors.push({ source: lit.source, flags: lit.flags, file: lit.file, error: `${e.code}: ${e.message}` });
      log(`  product error on /${lit.source}/${lit.flags}: ${e.code}: ${e.message}`);
    }
    if (rows.length % 100 === 0) log(`  ${rows.length}/${order.length} literals timed, ${((now() - started) / 1000).toFixed(0)} s, RSS ${(process.memoryUsage.rss() / 2 ** 20).toFixed(0)} MiB`);
  }
  const stageASeconds = (now() - started) / 1000;
  // The worst by the call's ratio and the worst by the engine's, re-timed once each.
  const worst = [...rows].sort((x, y) => y.ratio - x.ratio).slice(0, WORST);
  const worstEngine = [...rows].sort((x, y) => y.engineRatio - x.engineRatio).slice(0, WORST);
  for (const row of new Set([...worst, ...worstEngine])) {
    for (let r = 0; r < LITERAL_RUNS; r++) await timeLiteral(row, lines, text, subjectDir, r % 2);
  }
  return {
    totalLiterals: total,
    uniqueLiterals: unique.size,
    v8Rejected,
    productRejected,
    productErrors,
    stoppedForMemory,
    kept: kept.length,
    timed: rows.length,
    sampled: rows.length < kept.length,
    budgetS: LITERAL_BUDGET_S,
    stageASeconds,
    seconds: (now() - started) / 1000,
    subject: { files: harness.length + testFiles.length, bytes: Buffer.byteLength(text), lines: lines.length },
    baselineMs: median(baseline),
    worst: worst.map((r) => `/${r.source}/${r.flags}`),
    worstEngine: worstEngine.map((r) => `/${r.source}/${r.flags}`),
    rows,
  };
}

const WORST = 10;

/** One more interleaved V8 + product + engine sample for a literal; updates its medians and counts. */
async function timeLiteral(row, lines, text, dir, productFirst) {
  let last;
  let engine;
  const sides = [
    () => {
      engine = engineCountSync(row.source, row.flags, text, MAX_MATCHES, REGEX_TIMEOUT_MS);
      row.samples.engine.push(engine.ms);
    },
    () => {
      const t = now();
      row.v8Count = v8Count(row.source, row.flags, lines, MAX_MATCHES);
      row.samples.v8.push(now() - t);
    },
    () => {
      last = productRun(row.source, row.flags, dir);
      row.samples.product.push(last.ms);
    },
  ];
  for (const side of productFirst ? sides.reverse() : sides) {
    side();
    await tick();
  }
  row.v8Ms = median(row.samples.v8);
  row.productMs = median(row.samples.product);
  row.engineMs = median(row.samples.engine);
  row.ratio = row.productMs / row.v8Ms;
  row.engineRatio = row.engineMs / row.v8Ms;
  row.productCount = last.count;
  row.engineCount = engine.budgetExceeded ? null : engine.count;
  row.productTruncated = last.truncated;
  row.budgetSkipped = last.budgetSkipped > 0 || engine.budgetExceeded;
  row.countsAgree = row.budgetSkipped ? null : row.v8Count === last.count && row.v8Count === engine.count;
}

// ---------------------------------------------------------------------------
// The report.

function fmt(x, d = 1) {
  if (x === null || x === undefined) return '—';
  if (!Number.isFinite(x)) return '∞';
  return x.toFixed(d);
}
const code = (s) => `\`${s.replace(/\|/g, '\\|').replace(/`/g, 'ˋ')}\``;
const lit = (r) => code(`/${r.source}/${r.flags}`);
const ratioText = (x) => (x === null ? '—' : `${x.toFixed(2)}×`);

function curatedReport(rows) {
  let out = `### Part 1: curated patterns\n\n`;
  out += `Subjects grown until V8 takes ${WINDOW[0]}–${WINDOW[1]} ms (probe timeout ${V8_PROBE_TIMEOUT_MS} ms). `;
  out += `Product: smartFileQuerySync, threads ${THREADS}, contextLines 0, maxMatches ${MAX_MATCHES}, regexTimeoutMs ${REGEX_TIMEOUT_MS}; `;
  out += `baseline: the same call with /${BASELINE}/ on the same file; engine: the product's search of the same text alone `;
  out += `(engineCountSync: compile, then every line's matches counted, timed in Rust; no file, no result objects). Medians of the interleaved runs.\n\n`;
  out += '| pattern | subject | V8 ms | product ms | product ÷ V8 | baseline ms | engine ms | engine ÷ V8 | matches V8 / product / engine | check | budget skip | runs |\n';
  out += '|---|---|---:|---:|---:|---:|---:|---:|---|---|---|---:|\n';
  for (const r of rows) {
    const subject = `${r.lines} lines, ≤${r.maxLineLength} ch (${(r.bytes / 1024).toFixed(0)} KiB)`;
    const v8 = r.v8Ms === null ? `V8 > budget (${V8_PROBE_TIMEOUT_MS})` : fmt(r.v8Ms);
    let check = r.countsAgree === null ? (r.budgetSkipped ? 'not comparable (skipped)' : 'no V8 count (V8 > budget)') : r.countsAgree ? 'ok' : '**DIFF**';
    if (r.countsAgree && r.matchesAgree === false) check = `**DIFF** (matches: V8 ${r.firstMatchDiff.v8}, product ${r.firstMatchDiff.product})`;
    if (r.productTruncated) check += ' (capped)';
    if (r.otherSkipped.length) check += ` (skipped: ${r.otherSkipped.map((x) => x.reason).join(', ')})`;
    if (r.productHang) check += ' **HANG past regexTimeoutMs**';
    out += `| ${lit(r)} | ${subject} | ${v8} | ${fmt(r.productMs)} | ${ratioText(r.ratio)} | ${fmt(r.baselineMs)} | ${fmt(r.engineMs)} | ${ratioText(r.engineRatio)} | ${r.v8Count ?? '—'} / ${r.productCount} / ${r.engineCount ?? '—'} | ${check} | ${r.budgetSkipped ? '**yes**' : 'no'} | ${r.runs} |\n`;
  }
  return out;
}

function test262Report(t) {
  const rows = t.rows;
  const diffs = rows.filter((r) => r.countsAgree === false);
  const skips = rows.filter((r) => r.budgetSkipped);
  const sticky = t.productRejected.filter((r) => r.flags.includes('y'));
  const otherRejected = t.productRejected.filter((r) => !r.flags.includes('y'));
  let out = `### Part 2: test262 regex literals\n\n`;
  out += `Literals: ${t.totalLiterals} in ${relative(ROOT, TEST262)}/test/{built-ins/RegExp,language/literals/regexp} (TypeScript's parser), `;
  out += `${t.uniqueLiterals} unique by source and flags; ${t.v8Rejected.length} rejected by this Node's V8 (${process.versions.v8}: negative tests, newer syntax), `;
  out += `${t.productRejected.length} accepted by V8 but refused by the product (${sticky.length} of them have the \`y\` flag, refused by design), ${t.kept} kept.\n`;
  out += `Subject: test262 harness/*.js + those test files, concatenated into one file: ${t.subject.lines} lines, ${(t.subject.bytes / 1e6).toFixed(2)} MB. `;
  out += `Product baseline (/${BASELINE}/ on it): ${fmt(t.baselineMs)} ms per call.\n`;
  out += t.sampled
    ? `Timed: ${t.timed} of ${t.kept} kept literals, a seeded random sample (seed 262) cut by a ${t.budgetS} s budget (\`--literal-budget 0\` times them all), `
    : `Timed: all ${t.timed} kept literals, `;
  if (t.stoppedForMemory) out += `**stage A ${t.stoppedForMemory}**, `;
  out += `one V8 run, one product run and one engine run each (${t.stageASeconds.toFixed(0)} s); the ${WORST} worst ratios of the call and of the engine were then re-timed with ${LITERAL_RUNS} more interleaved runs each and are medians. `;
  out += `Part 2 took ${t.seconds.toFixed(0)} s. The product builds one result object per match (contextLines 0): for literals that match on most lines, that dominates its time, hence the split by match count; the engine alone (engineCountSync: compile and count every line's matches, timed in Rust, no file, no result objects) is timed as V8's side is.\n\n`;
  if (!rows.length) return out;
  // The distribution, over all timed literals and by how many matches they have.
  const buckets = [
    ['all', () => true],
    ['0 matches', (r) => r.v8Count === 0],
    ['1–1,000', (r) => r.v8Count > 0 && r.v8Count <= 1000],
    ['1,001–100,000', (r) => r.v8Count > 1000 && r.v8Count <= 100_000],
    ['> 100,000', (r) => r.v8Count > 100_000],
  ].map(([name, f]) => [name, rows.filter(f)]);
  out += `| product ÷ V8 | ${buckets.map(([name, rs]) => `${name} (${rs.length})`).join(' | ')} |\n`;
  out += `|---|${buckets.map(() => '---:').join('|')}|\n`;
  const stat = (name, f) => `| ${name} | ${buckets.map(([, rs]) => (rs.length ? f(rs) : '—')).join(' | ')} |\n`;
  const rat = (rs) => rs.map((r) => r.ratio);
  out += stat('min', (rs) => ratioText(Math.min(...rat(rs))));
  out += stat('p10', (rs) => ratioText(quantile(rat(rs), 0.1)));
  out += stat('median', (rs) => ratioText(median(rat(rs))));
  out += stat('p90', (rs) => ratioText(quantile(rat(rs), 0.9)));
  out += stat('max', (rs) => ratioText(Math.max(...rat(rs))));
  out += stat('product faster', (rs) => `${rs.filter((r) => r.ratio < 1).length}`);
  out += stat('V8 total s', (rs) => (rs.reduce((s, r) => s + r.v8Ms, 0) / 1000).toFixed(2));
  out += stat('product total s', (rs) => (rs.reduce((s, r) => s + r.productMs, 0) / 1000).toFixed(2));
  out += stat('total ratio', (rs) => ratioText(rs.reduce((s, r) => s + r.productMs, 0) / rs.reduce((s, r) => s + r.v8Ms, 0)));
  out += '\n';
  // The engine alone (engineCountSync: no file, no result objects), same literals.
  const erat = (rs) => rs.map((r) => r.engineRatio);
  out += `| engine ÷ V8 | ${buckets.map(([name, rs]) => `${name} (${rs.length})`).join(' | ')} |\n`;
  out += `|---|${buckets.map(() => '---:').join('|')}|\n`;
  out += stat('median', (rs) => ratioText(median(erat(rs))));
  out += stat('p90', (rs) => ratioText(quantile(erat(rs), 0.9)));
  out += stat('max', (rs) => ratioText(Math.max(...erat(rs))));
  out += stat('engine faster', (rs) => `${rs.filter((r) => r.engineRatio < 1).length}`);
  out += stat('engine total s', (rs) => (rs.reduce((s, r) => s + r.engineMs, 0) / 1000).toFixed(2));
  out += stat('total ratio', (rs) => ratioText(rs.reduce((s, r) => s + r.engineMs, 0) / rs.reduce((s, r) => s + r.v8Ms, 0)));
  out += '\n';
  const retimed = rows.filter((r) => r.samples.v8.length > 1);
  const worstTable = (title, key) => {
    let t = `${title} (medians of ${LITERAL_RUNS + 1} runs):\n\n| literal | V8 ms | product ms | product ÷ V8 | engine ms | engine ÷ V8 | matches | from |\n|---|---:|---:|---:|---:|---:|---:|---|\n`;
    for (const r of [...retimed].sort((a, b) => b[key] - a[key]).slice(0, WORST)) {
      t += `| ${lit(r)} | ${fmt(r.v8Ms)} | ${fmt(r.productMs)} | ${ratioText(r.ratio)} | ${fmt(r.engineMs)} | ${ratioText(r.engineRatio)} | ${r.v8Count}${r.productTruncated ? ' (capped)' : ''} | ${r.file} |\n`;
    }
    return `${t}\n`;
  };
  out += worstTable(`The ${WORST} worst ratios of the call`, 'ratio');
  out += worstTable(`The ${WORST} worst ratios of the engine alone`, 'engineRatio');
  out += `\nMatch-count differences: ${diffs.length ? `**${diffs.length} DIFF**` : 'none'}.\n`;
  for (const r of diffs) out += `- **DIFF** ${lit(r)}: V8 ${r.v8Count}, product ${r.productCount}, engine ${r.engineCount} (${r.file})\n`;
  out += `Files skipped for the regex budget: ${skips.length ? skips.map(lit).join(', ') : 'none'}.\n`;
  out += `Product errors on accepted patterns: ${t.productErrors.length ? '' : 'none.'}\n`;
  for (const r of t.productErrors) out += `- **ERROR** ${lit(r)} (${r.file}): ${r.error}\n`;
  out += `Refused by the product (not timed): ${otherRejected.length} without \`y\`${otherRejected.length ? ':' : '.'}\n`;
  for (const r of otherRejected) out += `- ${lit(r)} (${r.file}): ${r.error}\n`;
  if (sticky.length) out += `- and ${sticky.length} with \`y\`, e.g. ${sticky.slice(0, 5).map(lit).join(', ')}\n`;
  return out;
}

// ---------------------------------------------------------------------------

/**
 * Loads the API from the repository with the addon binary copied first into
 * `dir` (napi-rs's loader takes NAPI_RS_NATIVE_LIBRARY_PATH): a rebuild that
 * rewrites the repository's `.node` in place during the run would otherwise
 * change the code under the loaded library (SIGBUS). Returns which binary is
 * measured: path, size, mtime and sha256.
 */
function loadProduct(dir) {
  const { platformName } = require('./lib/load.js');
  const built = join(ROOT, `smart-file-query.${platformName()}.node`);
  let identity = 'as the package loader finds it';
  if (process.env.NAPI_RS_NATIVE_LIBRARY_PATH) identity = `NAPI_RS_NATIVE_LIBRARY_PATH=${process.env.NAPI_RS_NATIVE_LIBRARY_PATH}`;
  else if (existsSync(built)) {
    const mtime = statSync(built).mtime.toISOString();
    const copy = join(dir, 'addon.node');
    copyFileSync(built, copy);
    const bytes = readFileSync(copy);
    const sha256 = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    identity = `${relative(ROOT, built)} (${bytes.length} bytes, mtime ${mtime}, sha256 ${sha256}…), loaded from a private copy`;
    process.env.NAPI_RS_NATIVE_LIBRARY_PATH = copy;
  }
  ({ smartFileQuerySync } = require('./index.js'));
  ({ engineCountSync } = require('./lib/load.js').loadBinding());
  return identity;
}

async function main() {
  const started = now();
  const machine = `${cpus().length} × ${cpus()[0].model}, ${process.platform} ${process.arch}, Node ${process.version} (V8 ${process.versions.v8}), load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}, ${new Date().toISOString()}`;
  // A plain temp directory (not a git repository): the product lists its files
  // with .gitignore rules only, and there are none.
  const tmp = mkdtempSync(join(tmpdir(), 'sfq-bench-regex-'));
  const addon = loadProduct(tmp);
  const cleanup = () => rmSync(tmp, { recursive: true, force: true });
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  const results = { machine, addon, runs: RUNS, literalRuns: LITERAL_RUNS, threads: THREADS };
  try {
    if (PARTS.includes('curated')) {
      const dir = join(tmp, 'curated');
      mkdirSync(dir);
      results.curated = await runCurated(dir);
    }
    if (PARTS.includes('test262')) results.test262 = await runTest262(tmp);
  } finally {
    cleanup();
  }
  results.seconds = (now() - started) / 1000;

  mkdirSync(join(HERE, 'results'), { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = join(HERE, 'results', `regex-${stamp}.json`);
  // The match lists are not kept: only counts, times and samples.
  writeFileSync(file, JSON.stringify(results, null, 2));
  if (JSON_OUT) {
    console.log(JSON.stringify(results, null, 2));
    return;
  }
  let out = `## Regex engine: smartFileQuerySync against V8's RegExp\n\nMachine: ${machine}.\nAddon: ${addon}.\n\n`;
  if (results.curated) out += `${curatedReport(results.curated)}\n`;
  if (results.test262) out += `${test262Report(results.test262)}\n`;
  out += `Whole run: ${results.seconds.toFixed(0)} s. Raw samples: ${relative(ROOT, file)}.\n`;
  console.log(out);
}

await main();
