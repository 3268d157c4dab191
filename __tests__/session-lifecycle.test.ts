// Sessions beyond the differential suite: a root deleted or replaced, many
// sessions at once, calls overlapping while files are written, a process
// exiting with sessions open, a folder outside git.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitInit } from './helpers/tree';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const api = require('../index.js');
const INDEX = resolve(__dirname, '..', 'index.js');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'sfq-session-life-'));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return root;
}

const same = (a: unknown, b: unknown) => expect(JSON.stringify(a)).toBe(JSON.stringify(b));

describe('a session', () => {
  it('whose root is deleted answers with the cold call\'s error, and after it is made again, the cold answer', async () => {
    const root = tree({ 'a.txt': 'needle one\n', 'src/b.ts': 'const needle = 2;\n' });
    const session = await api.openSession({ cwd: root });
    same(session.smartFileQuerySync({ regex: 'needle' }), api.smartFileQuerySync({ regex: 'needle', cwd: root }));
    rmSync(root, { recursive: true, force: true });
    let cold: any;
    try {
      api.smartFileQuerySync({ regex: 'needle', cwd: root });
    } catch (e) {
      cold = e;
    }
    expect(cold?.code).toBe('ENOENT');
    expect(() => session.smartFileQuerySync({ regex: 'needle' })).toThrow(expect.objectContaining({ code: 'ENOENT', message: cold.message }));
    await expect(session.searchCode('needle')).rejects.toMatchObject({ code: 'ENOENT' });
    // Replaced: another tree at the same path (new inodes, same sizes and names).
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'a.txt'), 'needle uno\n');
    writeFileSync(join(root, 'src/b.ts'), 'const other = 2;\n');
    same(session.smartFileQuerySync({ regex: 'needle|other' }), api.smartFileQuerySync({ regex: 'needle|other', cwd: root }));
    session.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('many at once, each on its own tree, interleaved', async () => {
    const roots = Array.from({ length: 12 }, (_, i) => tree({ [`f${i}.txt`]: `tree ${i} needle\n`, 'common.md': `common ${i}\n` }));
    const sessions = await Promise.all(roots.map((cwd) => api.openSession({ cwd })));
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(sessions.map((s: any) => s.smartFileQuery({ regex: 'needle|common' })));
      answers.forEach((a: any, i: number) => same(a, api.smartFileQuerySync({ regex: 'needle|common', cwd: roots[i] })));
      writeFileSync(join(roots[round], 'common.md'), `changed ${round}\n`);
    }
    for (const s of sessions) s.close();
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  it('past its memory budget: holds no more, keeps the index of every file, rules files out unread and keeps a stable part of the texts', async () => {
    const files: Record<string, string> = {};
    const words = ['alpha', 'beta', 'gamma', 'delta', 'common'];
    for (let i = 0; i < 300; i++) {
      const lines = Array.from({ length: 300 }, (_, j) => `${words[(i + j) % 5]} line ${j} of file ${i}`);
      if (i === 123) lines[50] = 'the rareNeedleIdentifier is here';
      files[`d${i % 7}/f${i}.txt`] = `${lines.join('\n')}\n`;
    }
    const root = tree(files);
    const total = Object.values(files).reduce((n, t) => n + t.length, 0);
    expect(total).toBeGreaterThan(2 * 2 ** 20);
    // Without a watch (all but Linux) files just written are racy, read
    // again at each call and not kept, until their stamps are older than
    // the racy window.
    if (process.platform !== 'linux') await new Promise((r) => setTimeout(r, 2200));
    const session = await api.openSession({ cwd: root, memoryBudgetMB: 1 });
    const ask = (o: object) => {
      const warm = session.smartFileQuerySync(o);
      same(warm, api.smartFileQuerySync({ ...o, cwd: root }));
      const st = session.stats();
      expect(st.memoryBytes).toBeLessThanOrEqual(st.memoryBudgetBytes);
      return { warm, st };
    };
    const first = ask({ regex: 'rareNeedleIdentifier' });
    expect(first.warm.results.length).toBe(1);
    // Every file known by its index entry; only part of the texts held.
    expect(first.st.filesKnown).toBe(300);
    expect(first.st.contentBytes).toBeGreaterThan(0);
    expect(first.st.contentBytes).toBeLessThan(total / 2);
    // Again: every file but the one holding it ruled out unread.
    const again = ask({ regex: 'rareNeedleIdentifier' });
    expect(again.st.filesPruned).toBeGreaterThanOrEqual(299);
    expect(again.st.filesReread).toBeLessThanOrEqual(1);
    // A word in every file: each read or taken from memory; the same part
    // is held from one scan to the next.
    ask({ regex: 'common', maxMatches: 100000 });
    const scan1 = ask({ regex: 'common', maxMatches: 100000 }).st;
    const scan2 = ask({ regex: 'common', maxMatches: 100000 }).st;
    expect(scan1.filesReused).toBeGreaterThan(0);
    expect(scan2.filesReused).toBe(scan1.filesReused);
    expect(scan2.contentBytes).toBe(scan1.contentBytes);
    session.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('without a watch keeps its listing while the stamps of what the walk read hold, and follows every change a cold call sees', async () => {
    const root = tree({
      '.gitignore': '*.log\n',
      'src/a.ts': 'const needle = 1;\n',
      'src/deep/b.ts': 'export const needle = 2;\n',
      'docs/c.md': 'a needle in prose\n',
      'x.log': 'needle in a log\n',
    });
    gitInit(root);
    // Out of the racy window: a folder changed within 2 s of a walk is
    // not trusted by the next call.
    await new Promise((r) => setTimeout(r, 2200));
    const session = await api.openSession({ cwd: root, watch: false });
    const ask = (q = 'needle') => {
      same(session.smartFileQuerySync({ regex: q }), api.smartFileQuerySync({ regex: q, cwd: root }));
      same(session.globFilesSync({ pattern: '**/*' }), api.globFilesSync({ pattern: '**/*', cwd: root }));
    };
    ask();
    const first = session.stats();
    expect(first.watching).toBe(false);
    expect(first.listedEntries).toBeGreaterThan(0);
    ask();
    expect(session.stats().freshness).toBe('statRevalidation');
    expect(session.stats().listedEntries).toBe(first.listedEntries);
    // A new file in a folder, an ignore line written in place, a folder
    // removed, a same-size edit, each made while a listing walked out of
    // the racy window is kept: each answer is the cold one.
    const settled = async () => {
      await new Promise((r) => setTimeout(r, 2200));
      ask();
      expect(session.stats().listedEntries).toBeGreaterThan(0);
    };
    writeFileSync(join(root, 'src/deep/new.ts'), 'const needle = 3;\n');
    ask();
    await settled();
    writeFileSync(join(root, '.gitignore'), '*.log\ndocs/\n');
    ask();
    await settled();
    rmSync(join(root, 'src/deep'), { recursive: true, force: true });
    ask();
    await settled();
    writeFileSync(join(root, 'src/a.ts'), 'const nEEdle = 1;\n');
    ask('needle|nEEdle');
    session.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps the folders the 0-matches hint looks into while the watch proves them current, and follows every change a cold call sees', async () => {
    const root = tree({
      '.gitignore': 'artifacts/\nvendored/\n',
      'src/a.ts': 'const other = 1;\n',
      'artifacts/one.js': 'const needle = 1;\n',
      'artifacts/deep/two.js': 'needle(); needle();\n',
      'vendored/three.js': 'no match here\n',
    });
    gitInit(root);
    const session = await api.openSession({ cwd: root });
    const watching = session.stats().watching;
    // The hint gets its whole look (hintMs): its count is the cold one's.
    const ask = () => {
      const warm = session.grepContentSync({ pattern: 'needle', hintMs: 60000 });
      same(warm, api.grepContentSync({ pattern: 'needle', hintMs: 60000, cwd: root }));
      same(session.searchCodeSync('needle', { hintMs: 60000 }), api.searchCodeSync('needle', { hintMs: 60000, cwd: root }));
      return warm.hint;
    };
    expect(ask()).toMatch(/^0 matches; 2 in files ignored/);
    // Asked again with nothing changed: the looks come from memory.
    ask();
    if (watching) expect(session.stats().freshness).toBe('watcherDrain');
    // A matching file in an ignored folder, one deeper, one removed, a
    // folder renamed, an ignore rule changed, a file of it added to git's
    // index: each answer is the cold one.
    writeFileSync(join(root, 'vendored/four.js'), 'needle\n');
    expect(ask()).toMatch(/^0 matches; 3 in files ignored/);
    mkdirSync(join(root, 'artifacts/deep/deeper'));
    writeFileSync(join(root, 'artifacts/deep/deeper/five.js'), 'needle\n');
    expect(ask()).toMatch(/^0 matches; 4 in files ignored/);
    rmSync(join(root, 'artifacts/one.js'));
    expect(ask()).toMatch(/^0 matches; 3 in files ignored/);
    renameSync(join(root, 'artifacts/deep'), join(root, 'artifacts/moved'));
    ask();
    writeFileSync(join(root, '.gitignore'), 'artifacts/\n');
    ask();
    git(root, 'add', '-f', 'artifacts/moved/two.js');
    ask();
    writeFileSync(join(root, 'artifacts/moved/two.js'), 'nothing now\n');
    ask();
    session.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('finishes, off the call, the look at an ignored folder that the hint\'s deadline cut short, and keeps it', async () => {
    // 4,000 files in an ignored folder: far more than a 1 ms look can walk.
    const files: Record<string, string> = { '.gitignore': 'generated/\n', 'src/a.ts': 'const other = 1;\n' };
    for (let i = 0; i < 4000; i++) files[`generated/d${i % 40}/f${i}.js`] = i === 17 ? 'needle\n' : 'other\n';
    const root = tree(files);
    gitInit(root);
    const session = await api.openSession({ cwd: root });
    const cut = session.grepContentSync({ pattern: 'needle', hintMs: 1 });
    expect(cut.totalMatches).toBe(0);
    const whole = { pattern: 'needle', hintMs: 60000 };
    if (session.stats().watching) {
      // The look's walk went on after the call and its listing was kept: a
      // later call, with as little time, lists the folder from memory
      // (before, each such call walked it again, was cut short again, and
      // nothing was ever kept: these calls stayed 'rebuild').
      let freshness = 'rebuild';
      for (let i = 0; i < 200 && freshness !== 'watcherDrain'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        session.grepContentSync({ pattern: 'needle', hintMs: 1 });
        freshness = session.stats().freshness;
      }
      expect(freshness).toBe('watcherDrain');
    }
    const warm = session.grepContentSync(whole);
    same(warm, api.grepContentSync({ ...whole, cwd: root }));
    expect(warm.hint).toMatch(/^0 matches; 1 in files ignored/);
    session.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('outside git: ignore files still apply and answers follow the tree', async () => {
    const root = tree({ '.gitignore': 'skip/\n', 'skip/x.txt': 'needle\n', 'keep/y.txt': 'needle\n', 'z.txt': 'none\n' });
    const session = await api.openSession({ cwd: root });
    const ask = () => same(session.grepContentSync({ pattern: 'needle' }), api.grepContentSync({ pattern: 'needle', cwd: root }));
    ask();
    writeFileSync(join(root, '.gitignore'), 'keep/\n');
    ask();
    writeFileSync(join(root, 'z.txt'), 'needle\n');
    ask();
    expect(session.grepContentSync({ pattern: 'needle' }).totalMatches).toBe(2);
    session.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('calls overlapping while another process writes: every file is read once, whole (atomic saves), as a cold call could', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`d${i % 4}/f${i}.txt`] = 'version 0\n';
    const root = tree(files);
    const writer = spawn(process.execPath, ['-e', `
      const fs = require('fs'); const path = require('path');
      let n = 1; const end = Date.now() + 4000;
      while (Date.now() < end) {
        const f = path.join(${JSON.stringify(root)}, 'd' + (n % 4), 'f' + (n % 40) + '.txt');
        fs.writeFileSync(f + '.tmp', 'version ' + n + '\\n');
        fs.renameSync(f + '.tmp', f);
        n++;
      }
    `], { stdio: 'ignore' });
    const done = new Promise((r) => writer.on('exit', r));
    const session = await api.openSession({ cwd: root });
    let calls = 0;
    let running = true;
    void done.then(() => {
      running = false;
    });
    while (running) {
      const answers = await Promise.all([
        session.smartFileQuery({ regex: '^version \\d+$', glob: '**/f*.txt', contextLines: 0 }),
        session.smartFileQuery({ regex: '^version \\d+$', glob: '**/f*.txt', contextLines: 0 }),
        session.grepContent({ pattern: 'version', fileGlob: 'f*.txt', contextLines: 0 }),
      ]);
      for (const a of answers.slice(0, 2)) {
        // Each of the 40 files was taken whole: one match, its whole line.
        expect(a.aggregate.filesMatched).toBe(40);
        for (const r of a.results) {
          expect(r.matchCount).toBe(1);
          expect(r.matches[0].context.line).toMatch(/^version \d+$/);
        }
      }
      expect(answers[2].totalMatches).toBe(40);
      calls += 3;
    }
    expect(calls).toBeGreaterThan(3);
    // Once the writes stop, the session's answer is the cold one.
    same(session.smartFileQuerySync({ regex: 'version' }), api.smartFileQuerySync({ regex: 'version', cwd: root }));
    session.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('open when the process exits: it exits cleanly', () => {
    const root = tree({ 'a.txt': 'needle\n' });
    const r = spawnSync(process.execPath, ['-e', `
      const api = require(${JSON.stringify(INDEX)});
      (async () => {
        const sessions = await Promise.all([1, 2, 3].map(() => api.openSession({ cwd: ${JSON.stringify(root)} })));
        const pending = sessions.map((s) => s.smartFileQuery({ regex: 'needle' }));
        console.log(sessions[0].smartFileQuerySync({ regex: 'needle' }).aggregate.totalMatches);
        await pending[0];
        process.exit(0);
      })();
    `], { encoding: 'utf8' });
    expect([r.status, r.signal, r.stdout.trim(), r.stderr]).toEqual([0, null, '1', '']);
    rmSync(root, { recursive: true, force: true });
  });

  for (const sparseIndex of [true, false]) {
    it(`on a sparse checkout (${sparseIndex ? 'with' : 'without'} a sparse index) answers as cold calls, and keeps its listing (with, per profile, what was left out) for every search`, async () => {
      const files: Record<string, string> = { 'top.md': 'needle at the top\n' };
      for (const pkg of ['a', 'b', 'c', 'd']) {
        for (let i = 0; i < 3; i++) files[`pkgs/${pkg}/src/f${i}.ts`] = `export const needle${i} = '${pkg}';\n`;
        files[`pkgs/${pkg}/README.md`] = `the ${pkg} package: needle\n`;
      }
      const root = tree(files);
      gitInit(root);
      git(root, '-c', 'advice.sparseIndexExpanded=false', 'sparse-checkout', 'init', '--cone', sparseIndex ? '--sparse-index' : '--no-sparse-index');
      git(root, '-c', 'advice.sparseIndexExpanded=false', 'sparse-checkout', 'set', 'pkgs/a', 'pkgs/b');
      const session = await api.openSession({ cwd: root });
      const check = async () => {
        same(await session.smartFileQuery({ regex: 'needle\\w*' }), api.smartFileQuerySync({ regex: 'needle\\w*', cwd: root }));
        same(await session.searchCode('needle'), await api.searchCode('needle', { cwd: root }));
        same(await session.grepContent({ pattern: 'needle', contextLines: 0 }), await api.grepContent({ pattern: 'needle', contextLines: 0, cwd: root }));
        same(await session.globFiles({ pattern: '**/*.ts', sizes: false }), await api.globFiles({ pattern: '**/*.ts', sizes: false, cwd: root }));
        same(await session.findFiles({ pattern: '**/*', sizes: false }), await api.findFiles({ pattern: '**/*', sizes: false, cwd: root }));
        same(await session.scout({ query: 'needle' }), await api.scout({ query: 'needle', cwd: root }));
      };
      await check();
      expect((await api.searchCode('needle', { cwd: root })).skipped.notCheckedOut).toBeGreaterThan(0);
      // The listing is kept: a second search is answered from it, and so are
      // the calls that report what was left out, once each profile's first
      // call walked for it.
      session.smartFileQuerySync({ regex: 'needle' });
      expect(session.stats().freshness).toBe('watcherDrain');
      const reporting = [
        () => session.searchCodeSync('needle'),
        () => session.grepContentSync({ pattern: 'needle', contextLines: 0 }),
        () => session.globFilesSync({ pattern: '**/*.ts', sizes: false }),
        () => session.findFilesSync({ pattern: '**/*', sizes: false }),
      ];
      for (const call of reporting) {
        call();
        expect(session.stats().freshness).toBe('watcherDrain');
      }
      same(session.searchCodeSync('needle'), api.searchCodeSync('needle', { cwd: root }));
      same(session.findFilesSync({ pattern: '**/*', sizes: false }), api.findFilesSync({ pattern: '**/*', sizes: false, cwd: root }));
      // A new profile walks once for its report.
      same(session.searchCodeSync('needle', { includeExtensions: ['.md'] }), api.searchCodeSync('needle', { includeExtensions: ['.md'], cwd: root }));
      expect(session.stats().freshness).toBe('rebuild');
      session.searchCodeSync('needle', { includeExtensions: ['.md'] });
      expect(session.stats().freshness).toBe('watcherDrain');
      // An edit and a new file in the cone, a file where a left-out one
      // would be, more of the tree checked out, then less.
      writeFileSync(join(root, 'pkgs/a/src/f0.ts'), 'export const needleEdited = 1;\n');
      writeFileSync(join(root, 'pkgs/b/new.ts'), 'const needle = "new";\n');
      await check();
      mkdirSync(join(root, 'pkgs/c/src'), { recursive: true });
      writeFileSync(join(root, 'pkgs/c/src/f1.ts'), 'const needle = "present outside the cone";\n');
      await check();
      rmSync(join(root, 'pkgs/c/src/f1.ts'));
      git(root, '-c', 'advice.sparseIndexExpanded=false', 'sparse-checkout', 'add', 'pkgs/c');
      await check();
      git(root, '-c', 'advice.sparseIndexExpanded=false', 'sparse-checkout', 'set', 'pkgs/d');
      await check();
      session.smartFileQuerySync({ regex: 'needle' });
      expect(session.stats().freshness).toBe('watcherDrain');
      // The report kept with the new listing is the new checkout's.
      same(session.searchCodeSync('needle'), api.searchCodeSync('needle', { cwd: root }));
      expect(session.stats().freshness).toBe('watcherDrain');
      session.close();
      rmSync(root, { recursive: true, force: true });
    });
  }
});
