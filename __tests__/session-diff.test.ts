// Sessions answer exactly what cold calls answer: seeded random mutations of
// files, folders, symlinks, ignore rules, git state and the project config,
// each followed by one random query asked of a session and cold, compared
// whole (helpers/session-diff.mjs; more seeds: `node scripts/session-diff.mjs`).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types
import { runSeed } from './helpers/session-diff.mjs';

const SCRIPT = resolve(__dirname, '..', 'scripts', 'session-diff.mjs');
/** Sessions watch on Linux (inotify); elsewhere they revalidate by stat (README, "Sessions"). */
const WATCHES = process.platform === 'linux';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const api = require('../index.js');

describe('a session against cold calls', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}, watched: 250 steps of one mutation and one query, no difference`, async () => {
      const { differences, stats, reused } = await runSeed(seed, 250);
      expect(differences).toEqual([]);
      // The session took unchanged files from memory (the proof covers its cache, not only reads).
      expect(stats.calls).toBe(250);
      expect(reused).toBeGreaterThan(100);
      expect(stats.watching).toBe(WATCHES);
    }, 900_000); // about 5-10 s here; emulated arm64 (npm run test:arm64) is many times slower
  }

  it('seed 4, watch: false (stat revalidation): no difference', async () => {
    const { differences, stats } = await runSeed(4, 250, { watch: false });
    expect(differences).toEqual([]);
    expect(stats).toMatchObject({ watching: false, freshness: 'statRevalidation', trustedFiles: 0 });
  }, 900_000);

  it('seed 9, a 1 MiB budget under 2 MB of texts (dropped and read again, entries made room for; held within the budget at the end, the slots of the listings and the watched folders counted): no difference', async () => {
    const { differences, stats } = await runSeed(9, 250, { memoryBudgetMB: 1 });
    expect(differences).toEqual([]);
    expect(stats.memoryBytes).toBeLessThanOrEqual(stats.memoryBudgetBytes);
    expect(stats.filesKnown).toBeGreaterThan(40);
  }, 900_000);

  it('seed 5, the watch reporting lost events at every call (failpoint): no difference', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--seeds', '5-5', '--steps', '250', '--mode', 'overflow'], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/no difference in 1 seeds × 250 steps \(overflow\)/);
    expect(run.status).toBe(0);
  }, 900_000);
});

describe('openSession', () => {
  it('refuses cwd in its calls, bad options, and every call after close()', async () => {
    const session = await api.openSession({ cwd: __dirname, memoryBudgetMB: 64, threads: 2 });
    expect(() => session.grepSync({ pattern: 'x', cwd: '/' })).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION', message: expect.stringMatching(/'cwd' is not taken by a session's calls/) }));
    const stats = session.stats();
    expect(stats).toMatchObject({ root: expect.any(String), calls: 0, freshness: 'none', lastRefresh: null, closed: false, memoryBudgetBytes: 64 << 20 });
    const { searchCodeSync, close } = session; // methods work destructured
    expect(searchCodeSync('openSession', { path: 'helpers' }).matchCount).toBeGreaterThan(0);
    expect(session.stats()).toMatchObject({ calls: 1, freshness: WATCHES ? 'rebuild' : 'statRevalidation', watching: WATCHES });
    searchCodeSync('openSession', { path: 'helpers' });
    expect(session.stats()).toMatchObject({ calls: 2, freshness: WATCHES ? 'watcherDrain' : 'statRevalidation' });
    close();
    expect(session.stats()).toMatchObject({ closed: true, filesKnown: 0, contentBytes: 0 });
    await expect(session.smartFileQuery({ regex: 'x' })).rejects.toMatchObject({ code: 'ESESSIONCLOSED' });
    expect(() => session.surveySync({ terms: ['x'] })).toThrow(expect.objectContaining({ code: 'ESESSIONCLOSED' }));
    await expect(api.openSession({ cwd: '/nonexistent/sfq' })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(api.openSession({ memoryBudgetMB: 0 })).rejects.toMatchObject({ code: 'EINVALIDOPTION' });
    await expect(api.openSession({ watch: 'yes' })).rejects.toMatchObject({ code: 'EINVALIDOPTION' });
  });

  it('without a watch, takes unchanged files from memory and reads changed ones again (stat revalidation)', async () => {
    const { mkdtempSync, writeFileSync, utimesSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(join(tmpdir(), 'sfq-session-'));
    try {
      for (let i = 0; i < 5; i++) writeFileSync(join(root, `f${i}.txt`), `needle ${i}\n`);
      // Files whose stamps are older than the racy window are kept.
      await new Promise((r) => setTimeout(r, 2200));
      const session = await api.openSession({ cwd: root, watch: false });
      session.smartFileQuerySync({ regex: 'needle' });
      expect(session.stats()).toMatchObject({ filesReread: 5, filesReused: 0, filesKnown: 5 });
      const again = session.smartFileQuerySync({ regex: 'needle' });
      expect(session.stats()).toMatchObject({ filesReread: 0, filesReused: 5 });
      expect(again.aggregate.totalMatches).toBe(5);
      // A same-size edit, its mtime set back: the ctime tells, the answer is the new text.
      writeFileSync(join(root, 'f2.txt'), 'nEedle 2\n');
      utimesSync(join(root, 'f2.txt'), new Date(2020, 0, 1), new Date(2020, 0, 1));
      const after = session.smartFileQuerySync({ regex: 'needle' });
      expect(after.aggregate.totalMatches).toBe(4);
      expect(JSON.stringify(after)).toBe(JSON.stringify(api.smartFileQuerySync({ regex: 'needle', cwd: root })));
      expect(session.stats()).toMatchObject({ filesReread: 1, filesReused: 4 });
      session.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // What a watch adds (files trusted, an edit named by the watch): where there is one.
  it.runIf(WATCHES)('under its watch, trusts files just written, sees an edit at once, and walks again only after a change of names', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(join(tmpdir(), 'sfq-session-watch-'));
    try {
      for (let i = 0; i < 5; i++) writeFileSync(join(root, `f${i}.txt`), `needle ${i}\n`);
      const session = await api.openSession({ cwd: root });
      const ask = () => {
        const warm = session.smartFileQuerySync({ regex: 'needle' });
        expect(JSON.stringify(warm)).toBe(JSON.stringify(api.smartFileQuerySync({ regex: 'needle', cwd: root })));
        return warm;
      };
      ask();
      expect(session.stats()).toMatchObject({ freshness: 'rebuild', filesReread: 5, trustedFiles: 5, watching: true });
      ask();
      expect(session.stats()).toMatchObject({ freshness: 'watcherDrain', filesReread: 0, filesReused: 5 });
      // Same size, same second: the watch names the file.
      writeFileSync(join(root, 'f2.txt'), 'nEedle 2\n');
      expect(ask().aggregate.totalMatches).toBe(4);
      expect(session.stats()).toMatchObject({ freshness: 'watcherDrain', filesReread: 1, filesReused: 4 });
      writeFileSync(join(root, 'f5.txt'), 'needle 5\n');
      expect(ask().aggregate.totalMatches).toBe(5);
      expect(session.stats()).toMatchObject({ freshness: 'rebuild', filesReread: 1, filesReused: 5 });
      // Index entries of files read after the first call come after the call
      // (searched in full until then): the answers never depend on when.
      const rare = { regex: 'zebra_[0-9]', contextLines: 0 };
      const cold = () => JSON.stringify(api.smartFileQuerySync({ ...rare, cwd: root }));
      for (let i = 0; i < 40; i++) writeFileSync(join(root, `g${i}.txt`), i === 7 ? 'zebra_7\n' : `plain ${i}\n`);
      expect(JSON.stringify(session.smartFileQuerySync(rare))).toBe(cold());
      const deadline = Date.now() + 10_000;
      while (session.stats().filesUnindexed > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(session.stats().filesUnindexed).toBe(0);
      expect(JSON.stringify(session.smartFileQuerySync(rare))).toBe(cold());
      // Indexed now: the files without the word are ruled out unread.
      expect(session.stats().filesPruned).toBeGreaterThanOrEqual(40);
      session.close();
      expect(session.stats().filesUnindexed).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
