// Type-level usage of the public API, checked by `tsc --noEmit` (npm run
// typecheck): what an agent author writes in TypeScript must compile, and
// misuse must not. Never executed.
import {
  findFiles,
  findFilesSync,
  type FoundFile,
  type FoundPath,
  smartFileQuery,
  smartFileQuerySync,
  type SmartFileQueryError,
  type SmartFileQueryOptions,
  type SmartFileQueryResult,
  type SmartFileQuerySkipped,
} from '../index.js';

async function usage(): Promise<void> {
  const options: SmartFileQueryOptions = {
    regex: 'TrackingSync',
    flags: 'iu',
    glob: ['packages/**/schemas/**/*.ts'],
    ignore: 'dist/**',
    contextLines: 3,
    includeAllContent: true,
    maxFileSizeKB: 512,
    maxMatches: 100,
    encoding: 'utf8',
    multiline: false,
    cwd: '/repo',
    timeoutMs: 5_000,
    threads: 2,
  };
  const ac = new AbortController();
  const r: SmartFileQueryResult = await smartFileQuery(options, ac.signal);
  const s: SmartFileQueryResult = smartFileQuerySync({ regex: 'x' });
  for (const file of r.results) {
    const line: number = file.matches[0].lineNumber;
    const before: string[] = file.matches[0].context.before;
    const content: string | undefined = file.content;
    void [line, before, content, file.truncated];
  }
  const skip: SmartFileQuerySkipped = s.skipped[0];
  if (skip.reason === 'maxFileSizeExceeded') {
    const size: number = skip.size;
    void size;
  } else if (skip.reason === 'readError') {
    const code: string = skip.code;
    void code;
  }
  const multiline: true | undefined = r.query.multiline;
  void multiline;
  try {
    smartFileQuerySync({ regex: '(' });
  } catch (e) {
    const err = e as SmartFileQueryError;
    if (err.code === 'EINVALIDREGEX') console.error(err.message);
  }
  const found: FoundFile[] = await findFiles({ pattern: '*.ts', path: 'src', maxResults: 10 }, ac.signal);
  const kinds: Array<'file' | 'dir'> = findFilesSync({ pattern: '**/*.md' }).map((f) => f.type);
  // sizes: false: paths and types only.
  const bare: FoundPath[] = await findFiles({ pattern: '**/*', sizes: false, maxResults: 100000 });
  const bareSync: undefined = findFilesSync({ pattern: '**/*', sizes: false })[0]?.size;
  const sized: number | undefined = findFilesSync({ pattern: '*', sizes: true })[0]?.size;
  // @ts-expect-error sizes is a boolean
  findFilesSync({ pattern: '*', sizes: 'no' });
  void [found, kinds, bare, bareSync, sized];
  // @ts-expect-error regex is required
  smartFileQuerySync({ flags: 'i' });
  // @ts-expect-error contextLines is a number
  smartFileQuerySync({ regex: 'x', contextLines: '2' });
}
void usage;
