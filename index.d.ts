// smart-file-query — public TypeScript API.
// Hand-written: the generated native layer (binding.d.ts) only moves JSON;
// these are the shapes users get. __tests__/types.test-d.ts checks them.

/** Error codes carried by every error the API throws or rejects with. */
/** The package's version (`package.json`'s `version`), as `smart-file-query --version` prints it. */
export declare const version: string;

export type SmartFileQueryErrorCode =
  | 'EINVALIDOPTION'
  | 'EINVALIDREGEX'
  | 'EOUTSIDEROOT'
  | 'EABORTED'
  | 'ETIMEOUT'
  | 'EINTERNAL'
  | 'ENOENT'
  | 'ENOTDIR'
  | 'EACCES'
  | 'EBUSY'
  | 'EISDIR'
  | 'EPIPE'
  | 'EBINARY'
  | 'ENOTOPEN'
  | 'EFILETOOLARGE'
  | 'EREPOSITORY'
  | 'EINVALIDCONFIG'
  | 'ESESSIONCLOSED'
  | (string & {});

/** An `Error` with a stable `code`. */
export interface SmartFileQueryError extends Error {
  code: SmartFileQueryErrorCode;
}

/** Options of {@link smartFileQuery} (seed 000). */
export interface SmartFileQueryOptions {
  /** JavaScript regex source without slashes: exactly `new RegExp(regex, flags)`. Required. */
  regex: string;
  /** Regex flags: `i m s u v` change matching, `g d` are accepted; `y` is refused. Default `''`. */
  flags?: string;
  /** Repo-relative globs (picomatch meaning, dotfiles matched) selecting files. Default `['**\/*']`. */
  glob?: string | string[];
  /** Globs to exclude; they extend `['.git/**', '**\/node_modules/**', '**\/.turbo/**']`. */
  ignore?: string | string[];
  /** Lines of context before and after each match, 0–20. Default 2. */
  contextLines?: number;
  /** Embed the full decoded text of every matched file as `content`. Default false. */
  includeAllContent?: boolean;
  /** Skip files larger than this many KiB (1–1048576). Default 256. */
  maxFileSizeKB?: number;
  /** Stop after this many matches in total (1–1000000). Default 500. */
  maxMatches?: number;
  /** `utf8` (default), `utf16le`/`ucs2`, `latin1`/`binary` or `ascii`, decoded as Node's Buffer#toString. */
  encoding?: 'utf8' | 'utf-8' | 'utf16le' | 'utf-16le' | 'ucs2' | 'ucs-2' | 'latin1' | 'binary' | 'ascii' | (string & {});
  /** Match against each file's whole text, so a match can span lines. Default false (line by line). */
  multiline?: boolean;
  /**
   * Cut lines (the match's and its context) longer than this many characters
   * to a window of that many around the match, with `…` at each cut end
   * (default 0: never, seed 000's behaviour). For minified or generated files,
   * where one line can be megabytes. Echoed in `query` when set.
   */
  maxLineLength?: number;
  /**
   * The most the returned results may take as JSON, in bytes (1024–1073741824;
   * default 268435456, 256 MiB): every string's UTF-8 bytes with its quotes,
   * plus 100 bytes for the keys and numbers of each file and of each match.
   * The scan stops where the next match would pass it, as it stops at
   * `maxMatches`: the file cut there has `truncated: true` and the aggregate
   * `truncated: true, truncatedBy: 'maxResultBytes'`. So no input (one
   * minified line matched 200,000 times) makes a call hold more than about
   * this much. Echoed in `query` when set. The CLI streams instead and has
   * no such budget.
   */
  maxResultBytes?: number;
  /** Root directory; output paths are relative to it. Default `process.cwd()`. */
  cwd?: string;
  /** Reject with `ETIMEOUT` after this many milliseconds. */
  timeoutMs?: number;
  /**
   * Time the backtracking engine may spend on one file (default 1000 ms):
   * past it the file is skipped (`regexBudgetExceeded`) instead of hanging
   * the search. Only patterns the fast path cannot run use it.
   */
  regexTimeoutMs?: number;
  /** Worker threads (1–256). Default: the number of CPUs. Output is identical for any value. */
  threads?: number;
  /**
   * Search initialised git submodules too, as `git ls-files --recurse-submodules`
   * lists them (default `false`, as in git): each submodule's files under its
   * path, by its own index and ignore rules; untracked files inside it as at
   * the top (tracked plus untracked-but-not-ignored by the submodule's own
   * rules). Uninitialised submodules are skipped. Without it a submodule is
   * never entered.
   */
  recurseSubmodules?: boolean;
  /** Aborts the call (async form only; the second argument does too). */
  signal?: AbortSignal;
  /** Called with the search's progress while it runs (async form only). */
  onProgress?: (progress: SearchProgress) => void;
}

/** The effective options, echoed in the payload. */
export interface SmartFileQueryEcho {
  regex: string;
  flags: string;
  glob: string[];
  ignore: string[];
  contextLines: number;
  includeAllContent: boolean;
  maxFileSizeKB: number;
  maxMatches: number;
  /** Present only when `multiline: true` was asked for. */
  multiline?: true;
  /** Present only when `maxLineLength` cuts lines. */
  maxLineLength?: number;
  /** Present only when `maxResultBytes` was given. */
  maxResultBytes?: number;
  /** Present only when `recurseSubmodules: true` was asked for. */
  recurseSubmodules?: true;
}

/** One match and its surrounding lines. */
export interface SmartFileQueryMatch {
  /** 1-based line of the match (of its start, in multiline mode). */
  lineNumber: number;
  /** 1-based column in Unicode code points from the line start. */
  column: number;
  /** The exact matched text. */
  match: string;
  context: {
    /** Up to `contextLines` lines before. */
    before: string[];
    /** The whole line holding the match (start). */
    line: string;
    /** Up to `contextLines` lines after. */
    after: string[];
  };
}

/** A file with at least one match. */
export interface SmartFileQueryFileResult {
  /** Root-relative POSIX path. */
  path: string;
  /** Size in bytes. */
  size: number;
  /** Number of matches returned for this file. */
  matchCount: number;
  /**
   * The matches, in order. With 16 or more they are built when first read
   * (an accessor until then, a plain array after: the same array on every read).
   */
  matches: SmartFileQueryMatch[];
  /** Full decoded text, only with `includeAllContent`. */
  content?: string;
  /** True when the file had more matches than were returned (`maxMatches`). */
  truncated: boolean;
}

/** A candidate file that was not searched. */
export type SmartFileQuerySkipped =
  | { path: string; reason: 'binary' }
  | { path: string; reason: 'maxFileSizeExceeded'; size: number }
  | { path: string; reason: 'readError'; code: string }
  | { path: string; reason: 'regexBudgetExceeded' };

/** The payload of {@link smartFileQuery}: seed 000's, key for key. */
export interface SmartFileQueryResult {
  query: SmartFileQueryEcho;
  results: SmartFileQueryFileResult[];
  skipped: SmartFileQuerySkipped[];
  aggregate: {
    /** Candidate files examined (up to where `maxMatches` stopped the scan). */
    filesVisited: number;
    filesMatched: number;
    totalMatches: number;
    /** True when the scan stopped at `maxMatches` or `maxResultBytes`. */
    truncated: boolean;
    /** Present when `maxResultBytes`, not `maxMatches`, stopped the scan. */
    truncatedBy?: 'maxResultBytes';
  };
  /**
   * Only when nothing matched and a glob asks for paths a default ignore
   * leaves out without naming a folder (such as any `node_modules` at any
   * depth): how to search them. A glob whose leading folder is
   * default-ignored (`node_modules/@types/...`) searches that folder
   * (explicit beats default), unless `ignore` names it too.
   */
  hint?: string;
}

/**
 * Regex search with context over the git-visible files under `cwd`, computed
 * off the JS thread. Rejects with a {@link SmartFileQueryError}.
 */
export declare function smartFileQuery(options: SmartFileQueryOptions, signal?: AbortSignal): Promise<SmartFileQueryResult>;

/** {@link smartFileQuery} on the calling thread. Throws a {@link SmartFileQueryError}. */
export declare function smartFileQuerySync(options: Omit<SmartFileQueryOptions, 'signal' | 'onProgress'>): SmartFileQueryResult;

/** What an outline item is. */
export type OutlineKind =
  | 'class' | 'function' | 'method' | 'interface' | 'type' | 'variable' | 'import'
  | 'enum' | 'module' | 'constant' | 'field' | 'property';

/** One definition in a file's outline. */
export interface OutlineItem {
  /** The defined name as written (`Foo`, `__init__`, `Display for Point`, `(*T).Name`). */
  name: string;
  kind: OutlineKind;
  /** First and last line, 1-based, inclusive (decorators/attributes included). */
  range: [number, number];
  /** The line of the name itself. */
  line: number;
  /** Finer, language-specific words: `struct`, `trait`, `constructor`, `getter`, `async`, `abstract`, `block` (an import block)… */
  detail?: string;
  /** The declaration head on one line, body elided (≤ 200 characters). */
  signature?: string;
  /**
   * An import block's modules (kind `import`, detail `block`, named `imports (N)` with N the
   * modules its imports name; JS/TS re-exports counted apart: `imports (5), re-exports (2)`, or
   * `re-exports (N)` with detail `re-export block`): the module each import names, in source
   * order, each once (`./config`, `node:path`, `os.path`, `std::collections`, `stdio.h`).
   */
  modules?: string[];
  /** Nested definitions (methods of a class, members of an impl, namespace members…). */
  children?: OutlineItem[];
}

/** The outline of one file. */
export interface OutlineResult {
  /** Root-relative path. */
  path: string;
  /** Line count (`split(/\r?\n/)`, a final newline adds none). */
  totalLines: number;
  /** Detected language id (`typescript`, `python`, `rust`, `markdown`, `toml`, `yaml`, `json`…) or null. */
  language: string | null;
  /** True when the items come from the line-based heuristic, not a parser. */
  approximate: boolean;
  /** True when the item budget cut the list. */
  truncated: boolean;
  /** Why the outline is approximate, empty or truncated. */
  note?: string;
  items: OutlineItem[];
}

/** Options of {@link getOutline}. */
export interface OutlineOptions {
  /** Root directory; `path` must resolve inside it. Default `process.cwd()`. */
  cwd?: string;
  /** Reject with `ETIMEOUT` after this many milliseconds. */
  timeoutMs?: number;
  /** Item budget (1–1000000); the rest is cut and `truncated` set. Default 2000. */
  maxItems?: number;
  /** Nesting depth kept (1–100). Default 6. */
  maxDepth?: number;
  /** List imports / includes. Default true; `false` is `imports: 'none'`. */
  includeImports?: boolean;
  /**
   * How imports are listed: `'block'` (default) one item per run of consecutive imports (blank
   * lines, comments and attributes between them allowed; any other statement ends a run), named
   * `imports (N)` with its `modules`, spending one of `maxItems`; `'each'` one item per import
   * statement, named by its module; `'none'` no import items.
   */
  imports?: 'block' | 'each' | 'none';
  /** Aborts the call (async form only). */
  signal?: AbortSignal;
}

/**
 * The skeleton of a file: its classes, functions, methods… with line ranges.
 * Errors: `ENOENT`, `EISDIR`, `EBINARY`, `EOUTSIDEROOT`, `EINVALIDOPTION`.
 */
export declare function getOutline(path: string, options?: OutlineOptions): Promise<OutlineResult>;
/** {@link getOutline} on the calling thread. */
export declare function getOutlineSync(path: string, options?: Omit<OutlineOptions, 'signal'>): OutlineResult;
/**
 * Seed 003's token-efficient text: `class Foo (lines 10-50)` with members indented beneath;
 * functions and methods with their parameters and return type
 * (`function createServer(config: Config = {}): Promise<Server> (lines 420-470)`, cut at 160
 * characters with `…`), an import block on one line
 * (`imports (67): ./config, ./plugins, node:path, … (lines 1-80)`, at most 120 characters).
 */
export declare function formatOutline(result: OutlineResult): string;

/** What a viewer operation shows. */
export interface WindowView {
  /** Root-relative path of the file shown. */
  path: string;
  totalLines: number;
  /** First line shown, 1-based (1 for an empty file). */
  viewportStart: number;
  /** Last line shown, inclusive (0 for an empty file). */
  viewportEnd: number;
  /** The window's lines, each as `N: text`, joined with `\n`. */
  content: string;
  linesAbove: number;
  linesBelow: number;
  /** Set when a line was clamped, the window could not move, or the file is empty. */
  note?: string;
}

/** The viewer's state. */
export interface WindowViewerState {
  /** Root-relative path of the open file, or null before `open`. */
  currentFile: string | null;
  /** The window's centre line (0 before `open` or for an empty file). */
  currentLine: number;
  windowSize: number;
}

/**
 * A stateful windowed file viewer (SWE-agent's open / goto / scroll_up /
 * scroll_down). Each operation re-reads the file, so changes on disk are seen.
 * Errors: `ENOTOPEN` (scroll/goto before open), `ENOENT`, `EISDIR`, `EBINARY`, `EOUTSIDEROOT`.
 */
export declare class WindowViewer {
  constructor(windowSize?: number, options?: { cwd?: string });
  /** Shows lines 1..windowSize, or a window centred on `line`. */
  open(path: string, line?: number): Promise<WindowView>;
  /** Moves down by `windowSize - min(20, floor(windowSize / 5))` lines. */
  scrollDown(): Promise<WindowView>;
  /** Moves up by the same step. */
  scrollUp(): Promise<WindowView>;
  /** Centres the window on `line`: start = clamp(line - floor(w/2), 1, max(1, T - w + 1)). */
  goto(line: number): Promise<WindowView>;
  getState(): WindowViewerState;
}

/** A new, independent {@link WindowViewer} (default window: 100 lines). */
export declare function createWindowViewer(windowSize?: number, options?: { cwd?: string }): WindowViewer;

/** Options of {@link findFiles} (seed 002). */
export interface FindFilesOptions {
  /** Glob (picomatch meaning, dotfiles matched); without `/` it matches names at any depth (`*.ts`); with `/` it is matched against paths relative to `path` when `path` is given (`deep/*.ts` with `path: 'src'` finds `src/deep/x.ts`), else to `cwd`. Required. */
  pattern: string;
  /** Directory to search, inside `cwd`. Default: `cwd` itself. Paths returned stay relative to `cwd`. */
  path?: string;
  /** At most this many entries, the first in path order (1–10000000). Default 100. */
  maxResults?: number;
  /**
   * Give each file its `size` (default `true`). `false` lists the same entries, in the same order,
   * without `size` and without an `lstat` per file: the kinds come from the directory reads (an
   * `lstat` only where the file system does not record an entry's type), which makes a large
   * listing (`pattern: '**\/*'`, a high `maxResults`) markedly cheaper.
   */
  sizes?: boolean;
  /** Root directory. Default `process.cwd()`. */
  cwd?: string;
  /** Reject with `ETIMEOUT` after this many milliseconds. */
  timeoutMs?: number;
  /** Worker threads (1–256). */
  threads?: number;
  /**
   * List the files and folders of initialised git submodules too, as `git ls-files --recurse-submodules`
   * lists them (default `false`, as in git): each submodule's files under its
   * path, by its own index and ignore rules; untracked files inside it as at
   * the top (tracked plus untracked-but-not-ignored by the submodule's own
   * rules). Uninitialised submodules are skipped. Without it a submodule is
   * never entered.
   */
  recurseSubmodules?: boolean;
}

/** An entry {@link findFiles} found. */
export interface FoundFile {
  /** Root-relative POSIX path. */
  path: string;
  type: 'file' | 'dir';
  /** Size in bytes (files only; never with `sizes: false`). */
  size?: number;
}

/** An entry {@link findFiles} found with `sizes: false`: its path and type only. */
export interface FoundPath {
  /** Root-relative POSIX path. */
  path: string;
  type: 'file' | 'dir';
  size?: undefined;
}

/**
 * Files and directories whose path matches a glob, `.gitignore` respected and
 * `node_modules`, `.git`, `dist`, `build`, `.next` always skipped; in path order.
 */
export declare function findFiles(options: FindFilesOptions & { sizes: false }, signal?: AbortSignal): Promise<FoundPath[]>;
export declare function findFiles(options: FindFilesOptions, signal?: AbortSignal): Promise<FoundFile[]>;
/** {@link findFiles} on the calling thread. */
export declare function findFilesSync(options: FindFilesOptions & { sizes: false }): FoundPath[];
export declare function findFilesSync(options: FindFilesOptions): FoundFile[];

/** Files a search skipped, by reason. */
export interface SkipCounts {
  /** Binary files (a NUL or control byte in the first KiB). */
  binary: number;
  /** Files over the size cap (1024 KB unless configured). */
  tooLarge: number;
  /** Files or directories that could not be read. */
  unreadable: number;
  /** Files where the regex engine's work budget ran out. */
  budget: number;
  /**
   * Tracked files a sparse checkout left out of the work tree (`git
   * sparse-checkout`): not searched or listed, as `git grep` does not search
   * them; with a sparse index a directory left out whole counts once. Only
   * those the call's filters would have taken; present only when not 0.
   */
  notCheckedOut?: number;
}

/** What a running search reports to `onProgress` (about every 100 ms, when something changed). */
export interface SearchProgress {
  /** Candidate files found so far. */
  filesTotal: number;
  /** Candidate files searched (or skipped) so far. */
  filesSearched: number;
  /** Matches so far (matching lines for the agent searches). */
  matches: number;
  /** Milliseconds since the call began. */
  elapsedMs: number;
  /** The first matching lines found so far (at most 10, in result order; text cut to 200 characters). */
  firstHits: ProgressHit[];
}

/** A matching line reported while the search still runs. */
export interface ProgressHit {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

/** Options every agent search takes. */
export interface AgentSearchCommonOptions {
  /** Called with the search's progress while it runs (async form only). */
  onProgress?: (progress: SearchProgress) => void;
  /** Workspace root: paths are relative to it, `path` must stay inside it, and the project config file is read there. Default `process.cwd()`. */
  cwd?: string;
  /** Reject with `ETIMEOUT` after this many milliseconds (a hard error; see `timeBudgetMs` for a partial answer). */
  timeoutMs?: number;
  /** Aborts the call (async form only). */
  signal?: AbortSignal;
  /** Worker threads (1–256). Output is the same for any value. */
  threads?: number;
  /**
   * Time the backtracking engine may spend on one file (default 1000 ms):
   * past it the file is skipped (`regexBudgetExceeded`) instead of hanging
   * the search. Only patterns the fast path cannot run use it.
   */
  regexTimeoutMs?: number;
  /** A matching line longer than this many characters comes back as a window around the match with `…` at each cut end (context lines likewise). 0 turns it off. Default 500. */
  maxLineLength?: number;
  /**
   * The most the returned lines may take as JSON, in bytes (1024–1073741824;
   * default 268435456, 256 MiB; each line's strings' UTF-8 bytes plus 100):
   * lines past it are counted, not returned, as past `maxResults`, and the
   * result says `truncated: true, truncatedBy: 'maxResultBytes'` (grep's
   * array just ends).
   */
  maxResultBytes?: number;
  /**
   * Search initialised git submodules too, as `git ls-files --recurse-submodules`
   * lists them (default `false`, as in git): each submodule's files under its
   * path, by its own index and ignore rules; untracked files inside it as at
   * the top (tracked plus untracked-but-not-ignored by the submodule's own
   * rules). Uninitialised submodules are skipped. Without it a submodule is
   * never entered.
   */
  recurseSubmodules?: boolean;
}

/** Options of {@link searchCode} (seed 003's `SearchOptions`, plus paging and budgets). */
export interface SearchOptions extends AgentSearchCommonOptions {
  /** Search in a specific file or directory under the root. If omitted, search from the root. */
  path?: string;
  /** Case-sensitive search. Default: smart case (insensitive unless the query has an upper-case letter). */
  caseSensitive?: boolean;
  /** Treat the query as a JavaScript regex. Default: false (literal). */
  isRegex?: boolean;
  /** Max matching lines to return. Default: 50. */
  maxResults?: number;
  /** Skip this many matching lines first (paging; the order is deterministic). Default 0. */
  offset?: number;
  /** File extensions to include (e.g. `['.ts', 'tsx']`, with or without the dot). */
  includeExtensions?: string[];
  /** Glob patterns to exclude, on top of `.gitignore`, `.git` and `node_modules` (a name without `/` matches at any depth). */
  excludePatterns?: string[];
  /** Return what was found within this many milliseconds, with `complete: false` and `reason: 'timeBudget'`. */
  timeBudgetMs?: number;
  /** Label each match with its innermost outline item (`symbol`); only files with matches are parsed, and files no grammar covers get none. */
  withSymbols?: boolean;
  /** Milliseconds for the `hint`'s look at excluded and git-ignored files when nothing matched (0: no hint). Default: a twentieth of the search's own time, 5 ms to 1 s. */
  hintMs?: number;
}

/** The innermost outline item (as {@link getOutline} gives it) holding a matching line. */
export interface MatchSymbol {
  name: string;
  kind: OutlineKind;
  /** First and last line, 1-based, inclusive. */
  range: [number, number];
}

/** One matching line (seed 003's `SearchMatch`). */
export interface SearchMatch {
  /** Root-relative POSIX path. */
  path: string;
  /** 1-based line number. */
  lineNumber: number;
  /** The line (a window around the match when longer than `maxLineLength`). */
  content: string;
  /** Present (true) when `content` was cut to a window. */
  contentTruncated?: true;
  /** With `withSymbols`: where the line sits (`Store.flush (lines 120-188)` as `{name: 'flush', kind: 'method', range: [120, 188]}`). */
  symbol?: MatchSymbol;
}

/** The result of {@link searchCode} (seed 003's `SearchResult`, plus counts). */
export interface SearchResult {
  query: string;
  /** Matching lines in the searched files: exact, also past `maxResults`. One entry per matching line. */
  matchCount: number;
  matches: SearchMatch[];
  /** True when matching lines were left out (past `offset + maxResults`). */
  truncated: boolean;
  /** Files with at least one matching line. */
  filesWithMatches: number;
  /** Files searched. */
  filesSearched: number;
  /** Files not searched, by reason. */
  skipped: SkipCounts;
  /** False when `timeBudgetMs` ended the search before every file was searched. */
  complete: boolean;
  /** Why `complete` is false. */
  reason?: 'timeBudget';
  /** Present when `maxResultBytes`, not `maxResults`, left matching lines out. */
  truncatedBy?: 'maxResultBytes';
  /**
   * When nothing matched: how many matching lines the excluded or git-ignored files hold (`0 matches; 12 in files
   * excluded by node_modules`), from a bounded extra look, and how many files a sparse checkout left out
   * (`0 matches; 40 files of the sparse checkout are not checked out`).
   */
  hint?: string;
}

/**
 * ripgrep-style code search (seed 003): literal and smart case by default,
 * `.gitignore`, `.git` and `node_modules` excluded, files over 1024 KB skipped.
 * One entry per matching line; `matchCount` counts matching lines exactly.
 */
export declare function searchCode(query: string, options?: SearchOptions): Promise<SearchResult>;
/** {@link searchCode} on the calling thread. */
export declare function searchCodeSync(query: string, options?: Omit<SearchOptions, 'signal' | 'onProgress'>): SearchResult;

/** Options of {@link grep} (seed 002). */
export interface GrepOptions extends AgentSearchCommonOptions {
  /** Text or regex pattern to search for. Required. */
  pattern: string;
  /** Directory or file to search (default: the root). */
  path?: string;
  /** Treat pattern as a JavaScript regex (default: false). */
  regex?: boolean;
  /** Case-sensitive search (default: false). */
  caseSensitive?: boolean;
  /** Maximum matching lines to return (default: 50). */
  maxResults?: number;
  /** Lines of context around each match, 0–20 (default: 0: no `context`). */
  contextLines?: number;
}

/** One matching line of {@link grep}. */
export interface GrepMatch {
  /** Root-relative POSIX path. */
  file: string;
  /** 1-based line number. */
  line: number;
  /** The line (windowed when longer than `maxLineLength`). */
  content: string;
  /** Present (true) when a line was cut to a window. */
  contentTruncated?: true;
  /** With `contextLines` > 0: the lines around the match in file order, the match line included. */
  context?: string[];
  /** The line number of `context[0]`. */
  contextStart?: number;
}

/**
 * Search file contents (seed 002): literal and case-insensitive by default;
 * `.gitignore` plus `node_modules`, `.git`, `dist`, `build`, `.next` ignored.
 * One entry per matching line, the first `maxResults` in path order.
 */
export declare function grep(options: GrepOptions): Promise<GrepMatch[]>;
/** {@link grep} on the calling thread. */
export declare function grepSync(options: Omit<GrepOptions, 'signal' | 'onProgress'>): GrepMatch[];

/** Exclusion options of the seed-004 APIs (also settable in the project config file). */
export interface Seed004ExcludeOptions {
  /** More exclusions: a name without `/` (`vendor`, `*.min.js`) drops that name at any depth; a pattern with `/` is matched from the root. */
  excludePatterns?: string[];
  /** `'extend'` (default) adds them to seed 004's default list; `'replace'` replaces the list (`.gitignore` and `.git` still apply). */
  excludeMode?: 'extend' | 'replace';
  /** Paths kept even when an exclusion or `.gitignore` drops them (`node_modules/@company`). */
  includePatterns?: string[];
}

/** Options of {@link grepContent} (seed 004's `grep_content`, camelCase). */
export interface GrepContentOptions extends AgentSearchCommonOptions, Seed004ExcludeOptions {
  /** JavaScript regex (Python's `(?P<name>…)`/`(?P=name)` accepted). Required. */
  pattern: string;
  /** File or directory to search (default: the root). */
  path?: string;
  /** Only search matching files; without `/` it matches names at any depth (`*.py`). */
  fileGlob?: string;
  /** Lines of context (default: config `context_lines`, else 2). */
  contextLines?: number;
  /** Case-sensitive (default: true). */
  caseSensitive?: boolean;
  /** Max matching lines to return (default: config `max_results`, else 500). */
  maxResults?: number;
  /** Skip this many matching lines first (paging). */
  offset?: number;
  /** Skip files larger than this (default: config `max_file_size_kb`, else 1024). */
  maxFileSizeKB?: number;
  /** Return what was found within this many milliseconds, with `complete: false`. */
  timeBudgetMs?: number;
  /** Label each match with its innermost outline item (`symbol`). */
  withSymbols?: boolean;
  /** Milliseconds for the `hint`'s look when nothing matched (0: no hint). Default: a twentieth of the search's time, 5 ms to 1 s. */
  hintMs?: number;
}

/** One matching line of {@link grepContent}. */
export interface GrepContentMatch {
  /** Root-relative POSIX path. */
  file: string;
  absolutePath: string;
  /** 1-based line number. */
  line: number;
  /** 1-based column (code points) of the line's first match. */
  column: number;
  /** The line (windowed when longer than `maxLineLength`). */
  text: string;
  /** The first match's text. */
  match: string;
  contextBefore: string[];
  contextAfter: string[];
  /** Present (true) when a line was cut to a window. */
  textTruncated?: true;
  /** With `withSymbols`: the innermost outline item holding the line. */
  symbol?: MatchSymbol;
}

/** The result of {@link grepContent}. */
export interface GrepContentResult {
  matches: GrepContentMatch[];
  /** Matching lines in the searched files: exact past the cap. One entry per matching line. */
  totalMatches: number;
  filesWithMatches: number;
  filesSearched: number;
  truncated: boolean;
  pattern: string;
  /** Absolute path searched. */
  path: string;
  fileGlob: string | null;
  skipped: SkipCounts;
  complete: boolean;
  reason?: 'timeBudget';
  /** Present when `maxResultBytes`, not `maxResults`, left matching lines out. */
  truncatedBy?: 'maxResultBytes';
  /** When nothing matched: what the excluded or git-ignored files hold, and what a sparse checkout left out (see {@link SearchResult.hint}). */
  hint?: string;
}

/** Regex search (seed 004): case-sensitive, context 2, 500 results, seed 004's exclusions and the project config. */
export declare function grepContent(options: GrepContentOptions): Promise<GrepContentResult>;
/** {@link grepContent} on the calling thread. */
export declare function grepContentSync(options: Omit<GrepContentOptions, 'signal' | 'onProgress'>): GrepContentResult;

/** Options of {@link globFiles} (seed 004's `glob_files`, camelCase). */
export interface GlobFilesOptions extends Seed004ExcludeOptions {
  /** Glob (picomatch meaning) matched against paths relative to `root` (`**\/*.py`, `src/**\/*.ts`). Required. */
  pattern: string;
  /** Directory to search, inside `cwd` (default: `cwd`). */
  root?: string;
  /** Max files to return (default: config `max_results`, else 500). */
  maxResults?: number;
  /** Skip this many files first (paging). */
  offset?: number;
  /** Include paths with a segment starting with `.` (default: false). */
  includeHidden?: boolean;
  /**
   * Give each file its `size` and `modified` (default `true`). `false` gives the same files,
   * totals and page with `path` and `absolutePath` only ({@link GlobFilePath}), without an `lstat`
   * per file: a large listing is markedly cheaper.
   */
  sizes?: boolean;
  cwd?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  threads?: number;
  /**
   * List the files of initialised git submodules too, as `git ls-files --recurse-submodules`
   * lists them (default `false`, as in git): each submodule's files under its
   * path, by its own index and ignore rules; untracked files inside it as at
   * the top (tracked plus untracked-but-not-ignored by the submodule's own
   * rules). Uninitialised submodules are skipped. Without it a submodule is
   * never entered.
   */
  recurseSubmodules?: boolean;
  /** Called with the listing's progress while it runs (async form only). */
  onProgress?: (progress: SearchProgress) => void;
}

/** One file of {@link globFiles}. */
export interface GlobFile {
  /** Path relative to `root`. */
  path: string;
  absolutePath: string;
  /** Size in bytes. */
  size: number;
  /** Last modification, ISO-8601 UTC (`Date#toISOString`). */
  modified: string;
}

/** One file of {@link globFiles} with `sizes: false`: no `size`, no `modified`. */
export interface GlobFilePath {
  /** Path relative to `root`. */
  path: string;
  absolutePath: string;
  size?: undefined;
  modified?: undefined;
}

/** The result of {@link globFiles} (`F` is {@link GlobFilePath} with `sizes: false`). */
export interface GlobFilesResult<F extends GlobFile | GlobFilePath = GlobFile> {
  files: F[];
  /** Files matched in all. */
  total: number;
  returned: number;
  truncated: boolean;
  /** Absolute directory searched. */
  root: string;
  pattern: string;
  /** What was not listed, by reason (a listing only meets unreadable directories, and files a sparse checkout left out). */
  skipped: SkipCounts;
  /** When nothing matched: how many matching files the exclusions, `.gitignore` or the hidden rule left out (`0 files; 2 excluded by node_modules`), and a sparse checkout (`0 files; 3 files of the sparse checkout are not checked out`). */
  hint?: string;
}

/** Files by glob (seed 004), in path order, seed 004's exclusions, `.gitignore`, hidden paths off. */
export declare function globFiles(options: GlobFilesOptions & { sizes: false }): Promise<GlobFilesResult<GlobFilePath>>;
export declare function globFiles(options: GlobFilesOptions & { sizes?: true }): Promise<GlobFilesResult>;
export declare function globFiles(options: GlobFilesOptions): Promise<GlobFilesResult<GlobFile | GlobFilePath>>;
/** {@link globFiles} on the calling thread. */
export declare function globFilesSync(options: Omit<GlobFilesOptions, 'signal' | 'onProgress'> & { sizes: false }): GlobFilesResult<GlobFilePath>;
export declare function globFilesSync(options: Omit<GlobFilesOptions, 'signal' | 'onProgress'> & { sizes?: true }): GlobFilesResult;
export declare function globFilesSync(options: Omit<GlobFilesOptions, 'signal' | 'onProgress'>): GlobFilesResult<GlobFile | GlobFilePath>;

// ---------------------------------------------------------------------------
// The bounded exploration protocol (seed 001): survey → scout → sample → show.
// Each resolves to `{ text, exitCode, ...the same facts typed }`; `text` is
// exactly what `smart-file-query <command>` prints (within 40 lines and 8,000
// bytes). Case-sensitive; .gitignore, hidden files and seed 001's fixed
// exclusions (.git, target, node_modules, vendor, dist, build, coverage,
// generated, scratch, tmp, *.log, *.jsonl, *.xml, *.min.js, *.map) are always
// left out. "Matches" count matching lines. Invalid input rejects with a coded
// error (EINVALIDOPTION, EINVALIDREGEX, EOUTSIDEROOT, ENOENT, EISDIR, ...).

/**
 * How a query is read: `fixed` (default) anywhere; `identifier`: no ASCII
 * identifier character (`[A-Za-z0-9_]`) on either side; `word`: no word
 * character on either side (as `rg -w`); `regex`: a JavaScript regex.
 */
export type ExploreMode = 'fixed' | 'identifier' | 'word' | 'regex';

/** Options every protocol command takes. */
export interface ExploreOptions {
  /** Lower the output's line budget (never above the command's default: survey 20, scout 15, sample 20, show 30 lines; 3 at least). */
  maxLines?: number;
  /** Lower the output's byte budget (never above the command's default: survey 4000, scout 4000, sample 6000, show 8000 bytes; 200 at least). */
  maxBytes?: number;
  /** The root; paths are relative to it and must stay inside (default: `process.cwd()`). */
  cwd?: string;
  /** Reject with `ETIMEOUT` after this many milliseconds. */
  timeoutMs?: number;
  /** Worker threads (the result is the same for any value). */
  threads?: number;
  /** Abort the call (`EABORTED`; `ETIMEOUT` when it is an `AbortSignal.timeout()` that fired). */
  signal?: AbortSignal;
}

/** What every protocol result carries. */
export interface ExploreResultBase {
  /** Exactly what the CLI prints. */
  text: string;
  /** The CLI's exit status: 0 for an answer, 1 for a refusal asking to narrow (show only). */
  exitCode: 0 | 1;
  /** Warnings, as printed (`warning: ...` lines). */
  warnings: string[];
  /** Whether a count is a lower bound (the scan stopped at 100,000 matching lines). */
  atLeast: boolean;
}

/** Files the protocol commands did not search, by reason. */
export interface ExploreSkipped {
  binary: number;
  /** Over 256 MB. */
  tooLarge: number;
  unreadable: number;
  /** The regex ran too long in the file. */
  budget: number;
}

/** {@link survey}'s options. */
export interface SurveyOptions extends ExploreOptions {
  /** 1 to 12 fixed terms to compare. */
  terms: string[];
  /** Up to 8 files or folders to compare (default: the root's top-level entries). */
  paths?: string[];
  /** Search initialised git submodules too, as `git ls-files --recurse-submodules` (default `false`; see {@link SmartFileQueryOptions.recurseSubmodules}). */
  recurseSubmodules?: boolean;
  /** Not `regex`: survey compares fixed terms. */
  mode?: Exclude<ExploreMode, 'regex'>;
}

/** One term's totals. */
export interface SurveyTerm {
  term: string;
  matches: number;
  files: number;
  /** The path with the most matching lines (null when none matched). */
  dominantPath: string | null;
  /** More than 1,000 matching lines or 100 files. */
  broad: boolean;
  atLeast: boolean;
}

/** One term's counts under one path (zero rows are left out). */
export interface SurveyPathRow {
  path: string;
  term: string;
  matches: number;
  files: number;
}

/** The result of {@link survey}. */
export interface SurveyResult extends ExploreResultBase {
  exitCode: 0;
  mode: Exclude<ExploreMode, 'regex'>;
  /** The paths as given (empty: the root, compared by top-level entry). */
  paths: string[];
  filesSearched: number;
  overall: SurveyTerm[];
  /** Every non-zero row, also those the text had no room for. */
  byPath: SurveyPathRow[];
  /** Whether any term is broad. */
  broad: boolean;
  /** Whether the text left rows out for its budget. */
  truncated: boolean;
  skipped: ExploreSkipped;
}

/** {@link scout}'s and {@link sample}'s options. */
export interface ScoutOptions extends ExploreOptions {
  /** The text (or regex, with mode `regex`; an unescaped `|` is refused). */
  query: string;
  /** Files or folders to search (default: the root). */
  paths?: string[];
  /** Search initialised git submodules too, as `git ls-files --recurse-submodules` (default `false`; see {@link SmartFileQueryOptions.recurseSubmodules}). */
  recurseSubmodules?: boolean;
  mode?: ExploreMode;
}

/** A folder or file with its matching lines. */
export interface PathCount {
  path: string;
  matches: number;
}

/** The result of {@link scout}. */
export interface ScoutResult extends ExploreResultBase {
  exitCode: 0;
  query: string;
  mode: ExploreMode;
  paths: string[];
  matches: number;
  files: number;
  /** Folders directly holding a matching file. */
  directories: number;
  filesSearched: number;
  /** The busiest folders, as printed. */
  topDirectories: PathCount[];
  /** The busiest files, as printed. */
  topFiles: PathCount[];
  /** More than 1,000 matching lines or 100 files. */
  broad: boolean;
  skipped: ExploreSkipped;
}

/** A line of a snippet. */
export interface ShownLine {
  /** 1-based. */
  line: number;
  /** The text (a window with `…` when long). */
  text: string;
  match: boolean;
}

/** A cluster {@link sample} shows. */
export interface SampleCluster {
  path: string;
  /** The representative's line. */
  line: number;
  /** Which of the file's clusters (1-based, in line order). */
  cluster: number;
  /** The file's clusters. */
  of: number;
  /** Matching lines in the cluster. */
  matches: number;
  /** The representative with one line of context. */
  lines: ShownLine[];
}

/** The result of {@link sample}. */
export interface SampleResult extends ExploreResultBase {
  exitCode: 0;
  query: string;
  mode: ExploreMode;
  paths: string[];
  matches: number;
  files: number;
  totalClusters: number;
  filesSearched: number;
  /** The clusters shown, in the printed order. */
  clusters: SampleCluster[];
  broad: boolean;
  skipped: ExploreSkipped;
}

/** {@link show}'s options. */
export interface ShowOptions extends ExploreOptions {
  query: string;
  /** One file (a folder is refused with `EISDIR`). */
  file: string;
  /** Lines of context, 0 to 5 (default 2). */
  context?: number;
  mode?: ExploreMode;
}

/** A snippet {@link show} prints. */
export interface Snippet {
  start: number;
  end: number;
  lines: ShownLine[];
}

/** The result of {@link show}. */
export interface ShowResult extends ExploreResultBase {
  query: string;
  mode: ExploreMode;
  file: string;
  context: number;
  matches: number;
  snippets: Snippet[];
  /** Snippets left out for the budget. */
  omitted: number;
  /** Set (and `exitCode` 1) when there were more than 20 matching lines or the scan limit was hit. */
  refused: { reason: 'tooManyMatches' | 'scanLimit'; message: string } | null;
}

/** Protocol step 1: compare terms (counts only). */
export declare function survey(options: SurveyOptions): Promise<SurveyResult>;
/** {@link survey} on the calling thread. */
export declare function surveySync(options: Omit<SurveyOptions, 'signal'>): SurveyResult;
/** Protocol step 2: one query's matches by folder and file. */
export declare function scout(options: ScoutOptions): Promise<ScoutResult>;
/** {@link scout} on the calling thread. */
export declare function scoutSync(options: Omit<ScoutOptions, 'signal'>): ScoutResult;
/** Protocol step 3: representative match clusters. */
export declare function sample(options: ScoutOptions): Promise<SampleResult>;
/** {@link sample} on the calling thread. */
export declare function sampleSync(options: Omit<ScoutOptions, 'signal'>): SampleResult;
/** Protocol step 4: snippets in one file. */
export declare function show(options: ShowOptions): Promise<ShowResult>;
/** {@link show} on the calling thread. */
export declare function showSync(options: Omit<ShowOptions, 'signal'>): ShowResult;

/** Options of {@link openSession}. */
export interface SessionOptions {
  /** The tree the session answers for; its calls' paths resolve against it. Default `process.cwd()`. */
  cwd?: string;
  /**
   * The most memory the session holds, in MiB (1–1048576): file contents,
   * their index, folder listings (at most half), sizes and times, watched
   * folders (see {@link SessionStats.memoryBytes}). Past it, contents are
   * dropped first (their index entries stay, so files are still ruled out
   * unread), then index entries of files no call used in the last two calls.
   * Default 1024.
   */
  memoryBudgetMB?: number;
  /** Worker threads of its calls that do not say (1–256). Output is the same for any value. */
  threads?: number;
  /**
   * Whether the session watches the folders its calls walk (Linux: inotify),
   * so that an unchanged tree is answered from memory without a walk or a
   * stat. Default `true`. Without a watch (`false`, another OS, a network
   * file system, the inotify watch limit reached) every call walks the tree
   * and checks each text against its file's stat. Answers are the same
   * either way.
   */
  watch?: boolean;
}

/** What {@link Session.stats} reports. */
export interface SessionStats {
  /** The session's root (absolute). */
  root: string;
  /**
   * Files the session knows the contents of: their text, or past the memory
   * budget their index entry alone (such a file is still ruled out unread by
   * a pattern it cannot match, and read again when it may match).
   */
  filesKnown: number;
  /** Bytes of file contents (texts) held. */
  contentBytes: number;
  /**
   * Bytes of the content index held: each text's byte trigrams (a filter of
   * 7 to 14 bits per distinct trigram), which rule out files that cannot hold a match of a
   * pattern with a required literal of three bytes or more; the exact
   * engine searches every other file. Counted in the memory budget.
   */
  indexBytes: number;
  /** Files the last call ruled out by the index, unsearched (their outcome is "no match", as a search finds). */
  filesPruned: number;
  /**
   * Bytes the session holds in all, kept within `memoryBudgetBytes`: texts,
   * the index, the folder listings, sizes and times, the watched folders.
   * Past the budget, texts are dropped before index entries, and a listing
   * too large for half the budget is not kept (calls walk).
   */
  memoryBytes: number;
  /** `memoryBudgetMB` in bytes. */
  memoryBudgetBytes: number;
  /** Entries of the folder listings held. */
  listedEntries: number;
  /** Whether the session watches its tree (see {@link SessionOptions.watch}). */
  watching: boolean;
  /** Files whose contents are used without a stat (under the watch). */
  trustedFiles: number;
  /**
   * Files held whose index entries are still being made: after the first
   * call, the entries of the files a call reads are made on a thread of the
   * session's once it has answered (a branch switch costs the next call the
   * reads, not the indexing). Until then those files are searched in full.
   */
  filesUnindexed: number;
  /**
   * How the last call established that what it used was fresh:
   * `watcherDrain` (the watch's queue, drained when the call began, named no
   * change the kept listings depend on, and git's index, configuration and
   * exclude files and the ignore files above the root were unchanged: the
   * listings and trusted contents were used as they were), `rebuild` (the
   * folders were walked again: the first call, a change of names, ignore
   * rules or git state, or a call whose walk cannot come from a kept
   * listing), `statRevalidation` (no watch: the kept listing used while the
   * stamps of the folders and ignore files its walk read hold, else the
   * tree walked again, and every candidate's stamp — device, inode, mode,
   * size, mtime and ctime in ns — compared with the one its contents were
   * read under), `none` before the first call.
   */
  freshness: 'watcherDrain' | 'rebuild' | 'statRevalidation' | 'none';
  /** Files the last call read from disk (new, changed, racy or evicted). */
  filesReread: number;
  /** Files the last call took from memory. */
  filesReused: number;
  /** Calls made on the session so far. */
  calls: number;
  /** When the last call began (ISO 8601, UTC), or null before the first. */
  lastRefresh: string | null;
  /** Whether {@link Session.close} was called. */
  closed: boolean;
}

/**
 * A tree opened once and queried many times ({@link openSession}). It has
 * every query of the module with the same names and options minus `cwd`
 * (`root` and `path` options resolve against the session's root). Each
 * answer is byte for byte the answer of the same cold call started when the
 * session call started. Under its watch (Linux), each call first drains the
 * watch's queue (inotify queues an event before the writing call returns):
 * a folder's listing is used again only while no event named a change of
 * its names or ignore files and git's index, configuration and exclude
 * files are unchanged, and a file's contents only while no event named the
 * file (files with several hard links are checked by stat; writes through a
 * shared `mmap` are not seen). Without a watch, every call walks the tree
 * again and a file's contents are taken from memory only while its stamp is
 * the one they were read under and that read was not racy (a file whose
 * mtime or ctime lies within 2 s of its read is read again at each call).
 * Nothing is written to the tree. Calls may overlap. The methods also work
 * destructured.
 */
export declare class Session {
  private constructor();
  smartFileQuery(options: Omit<SmartFileQueryOptions, 'cwd'>, signal?: AbortSignal): Promise<SmartFileQueryResult>;
  smartFileQuerySync(options: Omit<SmartFileQueryOptions, 'cwd' | 'signal' | 'onProgress'>): SmartFileQueryResult;
  findFiles(options: Omit<FindFilesOptions, 'cwd'>, signal?: AbortSignal): Promise<FoundFile[]>;
  findFilesSync(options: Omit<FindFilesOptions, 'cwd'>): FoundFile[];
  searchCode(query: string, options?: Omit<SearchOptions, 'cwd'>): Promise<SearchResult>;
  searchCodeSync(query: string, options?: Omit<SearchOptions, 'cwd' | 'signal' | 'onProgress'>): SearchResult;
  grep(options: Omit<GrepOptions, 'cwd'>): Promise<GrepMatch[]>;
  grepSync(options: Omit<GrepOptions, 'cwd' | 'signal' | 'onProgress'>): GrepMatch[];
  grepContent(options: Omit<GrepContentOptions, 'cwd'>): Promise<GrepContentResult>;
  grepContentSync(options: Omit<GrepContentOptions, 'cwd' | 'signal' | 'onProgress'>): GrepContentResult;
  globFiles(options: Omit<GlobFilesOptions, 'cwd'>): Promise<GlobFilesResult>;
  globFilesSync(options: Omit<GlobFilesOptions, 'cwd' | 'signal' | 'onProgress'>): GlobFilesResult;
  survey(options: Omit<SurveyOptions, 'cwd'>): Promise<SurveyResult>;
  surveySync(options: Omit<SurveyOptions, 'cwd' | 'signal'>): SurveyResult;
  scout(options: Omit<ScoutOptions, 'cwd'>): Promise<ScoutResult>;
  scoutSync(options: Omit<ScoutOptions, 'cwd' | 'signal'>): ScoutResult;
  sample(options: Omit<ScoutOptions, 'cwd'>): Promise<SampleResult>;
  sampleSync(options: Omit<ScoutOptions, 'cwd' | 'signal'>): SampleResult;
  show(options: Omit<ShowOptions, 'cwd'>): Promise<ShowResult>;
  showSync(options: Omit<ShowOptions, 'cwd' | 'signal'>): ShowResult;
  getOutline(path: string, options?: Omit<OutlineOptions, 'cwd'>): Promise<OutlineResult>;
  getOutlineSync(path: string, options?: Omit<OutlineOptions, 'cwd' | 'signal'>): OutlineResult;
  /** What the session holds and how its last call went. */
  stats(): SessionStats;
  /** Frees everything the session holds; later calls reject (or throw) with code `ESESSIONCLOSED`. */
  close(): void;
}

/**
 * Opens a session on `options.cwd`: repeated queries of one tree without
 * reading unchanged files again, every answer exactly the cold call's.
 * Rejects with `EINVALIDOPTION` or the root's error (`ENOENT`, `ENOTDIR`).
 */
export declare function openSession(options?: SessionOptions): Promise<Session>;
