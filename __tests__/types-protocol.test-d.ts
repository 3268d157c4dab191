// Type-level usage of the protocol APIs (survey, scout, sample, show),
// checked by `tsc --noEmit`. Never executed.
import {
  type ExploreMode,
  sample,
  type SampleResult,
  scout,
  scoutSync,
  type ScoutResult,
  show,
  showSync,
  type ShowResult,
  survey,
  surveySync,
  type SurveyResult,
} from '../index.js';

async function protocolUsage(): Promise<void> {
  const s: SurveyResult = await survey({ terms: ['parse', 'load'], paths: ['src'], mode: 'identifier', maxLines: 10 });
  const first: string | null = s.overall[0].dominantPath;
  const rows: number = s.byPath.length + s.filesSearched;
  const sc: ScoutResult = await scout({ query: 'parse(', paths: ['src'], signal: AbortSignal.timeout(1000) });
  const top: string = sc.topDirectories[0].path + sc.topFiles[0].matches;
  const sa: SampleResult = await sample({ query: 'parse', mode: 'word' });
  const line: boolean = sa.clusters[0].lines[0].match;
  const sh: ShowResult = await show({ query: 'parse', file: 'src/a.ts', context: 5 });
  const code: 0 | 1 = sh.exitCode;
  const reason: 'tooManyMatches' | 'scanLimit' | undefined = sh.refused?.reason;
  const mode: ExploreMode = sh.mode;
  const sync: string = surveySync({ terms: ['x'] }).text + scoutSync({ query: 'x' }).text + showSync({ query: 'x', file: 'a' }).text;
  void [first, rows, top, line, code, reason, mode, sync];
  // @ts-expect-error survey takes no regex
  await survey({ terms: ['x'], mode: 'regex' });
  // @ts-expect-error show needs a file
  await show({ query: 'x' });
  // @ts-expect-error terms is an array
  await survey({ terms: 'x' });
}
void protocolUsage;
