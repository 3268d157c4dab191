// Type-level usage of sessions, checked by `tsc --noEmit` (npm run
// typecheck): what an agent author writes in TypeScript must compile, and
// misuse must not. Never executed.
import { openSession, type Session, type SessionOptions, type SessionStats } from '../index.js';

async function usage(): Promise<void> {
  const options: SessionOptions = { cwd: '/repo', memoryBudgetMB: 512, threads: 2, watch: true };
  const session: Session = await openSession(options);
  const unwatched = await openSession({ cwd: '/repo', watch: false });
  const found = await session.searchCode('createServer', { path: 'src', maxResults: 20 });
  const n: number = found.matchCount;
  const hits = session.smartFileQuerySync({ regex: 'TODO|FIXME', flags: 'i' });
  const files: number = hits.aggregate.filesVisited;
  const stats: SessionStats = session.stats();
  const how: 'watcherDrain' | 'rebuild' | 'statRevalidation' | 'none' = stats.freshness;
  const watching: boolean = stats.watching;
  const counts: number = stats.listedEntries + stats.trustedFiles + stats.filesUnindexed + stats.filesReread + stats.filesPruned + stats.indexBytes;
  // @ts-expect-error: a session's calls take no cwd
  session.grepSync({ pattern: 'x', cwd: '/elsewhere' });
  // @ts-expect-error: watch is a boolean
  await openSession({ watch: 'yes' });
  session.close();
  unwatched.close();
  void [n, files, how, watching, counts];
}
void usage;
