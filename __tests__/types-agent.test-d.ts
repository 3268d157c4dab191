// Type-level usage of the agent search APIs (searchCode, grep, grepContent,
// globFiles), checked by `tsc --noEmit`: seed 003's type names exported, the
// documented fields typed, misuse refused. Never executed.
import {
  globFiles,
  globFilesSync,
  type GlobFilePath,
  type GlobFilesResult,
  grep,
  grepContent,
  grepContentSync,
  type GrepContentResult,
  type GrepMatch,
  grepSync,
  searchCode,
  searchCodeSync,
  type SearchMatch,
  type SearchOptions,
  type SearchResult,
  type SkipCounts,
  type SmartFileQueryErrorCode,
} from '../index.js';

async function agentUsage(): Promise<void> {
  const options: SearchOptions = {
    path: 'src',
    caseSensitive: false,
    isRegex: true,
    maxResults: 20,
    offset: 20,
    includeExtensions: ['.ts', 'tsx'],
    excludePatterns: ['**/generated/**'],
    maxLineLength: 200,
    timeBudgetMs: 500,
    signal: AbortSignal.timeout(1000),
    timeoutMs: 5000,
    cwd: '/repo',
  };
  const r: SearchResult = await searchCode('Store\\.flush', options);
  const m: SearchMatch | undefined = r.matches[0];
  const line: number | undefined = m?.lineNumber;
  const cut: true | undefined = m?.contentTruncated;
  const skipped: SkipCounts = r.skipped;
  const n: number = r.matchCount + skipped.binary + skipped.tooLarge + skipped.unreadable + skipped.budget;
  const complete: boolean = searchCodeSync('x').complete;

  const hits: GrepMatch[] = await grep({ pattern: 'TODO', contextLines: 2, regex: false, caseSensitive: true });
  const start: number | undefined = hits[0]?.contextStart;
  const block: string[] | undefined = grepSync({ pattern: 'x' })[0]?.context;

  const g: GrepContentResult = await grepContent({
    pattern: '(?P<name>def \\w+)',
    fileGlob: '*.py',
    excludeMode: 'replace',
    excludePatterns: ['vendor'],
    includePatterns: ['node_modules/@company'],
    maxFileSizeKB: 512,
  });
  const col: number | undefined = g.matches[0]?.column;
  const glob: string | null = grepContentSync({ pattern: 'x' }).fileGlob;

  const files: GlobFilesResult = await globFiles({ pattern: '**/*.py', includeHidden: true, root: 'src', offset: 10 });
  const modified: string | undefined = files.files[0]?.modified;
  const total: number = globFilesSync({ pattern: '*' }).total;
  // sizes: false: path and absolutePath only; sizes unknown: either shape.
  const bare: GlobFilesResult<GlobFilePath> = await globFiles({ pattern: '**/*', sizes: false });
  const bareSync: string | undefined = globFilesSync({ pattern: '*', sizes: false }).files[0]?.absolutePath;
  const sized: number | undefined = globFilesSync({ pattern: '*', sizes: true }).files[0]?.size;
  const either: number | undefined = (await globFiles({ pattern: '*', sizes: Math.random() > 0.5 })).files[0]?.size;
  // @ts-expect-error no size without sizes
  const noSize: number = bare.files[0].size;
  void [bare, bareSync, sized, either, noSize];

  const code: SmartFileQueryErrorCode = 'EINVALIDCONFIG';
  void [line, cut, n, complete, start, block, col, glob, modified, total, code];

  // @ts-expect-error excludeMode takes 'extend' or 'replace' only
  await grepContent({ pattern: 'x', excludeMode: 'merge' });
  // @ts-expect-error grep needs a pattern
  await grep({ path: 'src' });
  // @ts-expect-error the sync twin takes no signal
  searchCodeSync('x', { signal: AbortSignal.timeout(1) });
}

void agentUsage;
