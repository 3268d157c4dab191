// smart-file-query — public TypeScript API.
// Hand-written: the generated native layer (binding.d.ts) only moves JSON;
// these are the shapes users get. __tests__/types.test-d.ts checks them.

/** Error codes carried by every error the API throws or rejects with. */
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
  /** Root directory; output paths are relative to it. Default `process.cwd()`. */
  cwd?: string;
  /** Reject with `ETIMEOUT` after this many milliseconds. */
  timeoutMs?: number;
  /** Worker threads (1–256). Default: the number of CPUs. Output is identical for any value. */
  threads?: number;
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
    /** True when the scan stopped at `maxMatches`. */
    truncated: boolean;
  };
}

/**
 * Regex search with context over the git-visible files under `cwd`, computed
 * off the JS thread. Rejects with a {@link SmartFileQueryError}.
 */
export declare function smartFileQuery(options: SmartFileQueryOptions, signal?: AbortSignal): Promise<SmartFileQueryResult>;

/** {@link smartFileQuery} on the calling thread. Throws a {@link SmartFileQueryError}. */
export declare function smartFileQuerySync(options: SmartFileQueryOptions): SmartFileQueryResult;

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
  /** Finer, language-specific words: `struct`, `trait`, `constructor`, `getter`, `async`, `abstract`… */
  detail?: string;
  /** The declaration head on one line, body elided (≤ 200 characters). */
  signature?: string;
  /** Nested definitions (methods of a class, members of an impl, namespace members…). */
  children?: OutlineItem[];
}

/** The outline of one file. */
export interface OutlineResult {
  /** Root-relative path. */
  path: string;
  /** Line count (`split(/\r?\n/)`, a final newline adds none). */
  totalLines: number;
  /** Detected language id (`typescript`, `python`, `rust`…) or null. */
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
  /** List imports / includes. Default true. */
  includeImports?: boolean;
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
/** Seed 003's token-efficient text: `class Foo (lines 10-50)` with members indented beneath. */
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
  /** Glob (picomatch meaning, dotfiles matched); without `/` it matches names at any depth (`*.ts`). Required. */
  pattern: string;
  /** Directory to search, inside `cwd`. Default: `cwd` itself. Paths returned stay relative to `cwd`. */
  path?: string;
  /** At most this many entries, the first in path order (1–10000000). Default 100. */
  maxResults?: number;
  /** Root directory. Default `process.cwd()`. */
  cwd?: string;
  /** Reject with `ETIMEOUT` after this many milliseconds. */
  timeoutMs?: number;
  /** Worker threads (1–256). */
  threads?: number;
}

/** An entry {@link findFiles} found. */
export interface FoundFile {
  /** Root-relative POSIX path. */
  path: string;
  type: 'file' | 'dir';
  /** Size in bytes (files only). */
  size?: number;
}

/**
 * Files and directories whose path matches a glob, `.gitignore` respected and
 * `node_modules`, `.git`, `dist`, `build`, `.next` always skipped; in path order.
 */
export declare function findFiles(options: FindFilesOptions, signal?: AbortSignal): Promise<FoundFile[]>;
/** {@link findFiles} on the calling thread. */
export declare function findFilesSync(options: FindFilesOptions): FoundFile[];
