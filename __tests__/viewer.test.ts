// createWindowViewer / WindowViewer: SPEC's formulas, every edge, errors.
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWindowViewer, WindowViewer } from '../index.js';
import { makeTree } from './helpers/tree';

const lines = (n: number, eol = '\n') => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join(eol) + (n ? eol : '');

let dir: string;
beforeAll(() => {
  dir = makeTree({
    'long.txt': lines(1000),
    'short.txt': lines(30),
    'exact.txt': lines(100),
    'empty.txt': '',
    'crlf.txt': lines(5, '\r\n'),
    'one.txt': 'only line',
    'bin.dat': Buffer.from([0, 1, 2, 3]),
    'sub/x.txt': 'x\n',
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** SPEC: start = clamp(n - floor(w/2), 1, max(1, T - w + 1)); end = min(T, start + w - 1). */
function expectedWindow(n: number, w: number, t: number) {
  const start = Math.min(Math.max(n - Math.floor(w / 2), 1), Math.max(1, t - w + 1));
  return [start, Math.min(t, start + w - 1)];
}

describe('formulas', () => {
  it('open shows 1-100, scrollDown 81-180, goto(500) 450-549, with numbered content', async () => {
    const v = createWindowViewer(undefined, { cwd: dir });
    const a = await v.open('long.txt');
    expect([a.viewportStart, a.viewportEnd, a.totalLines, a.linesAbove, a.linesBelow]).toEqual([1, 100, 1000, 0, 900]);
    expect(a.content.split('\n')[0]).toBe('1: line 1');
    expect(a.content.split('\n')).toHaveLength(100);
    expect(a.path).toBe('long.txt');
    const b = await v.scrollDown();
    expect([b.viewportStart, b.viewportEnd]).toEqual([81, 180]);
    expect(b.content.split('\n')[0]).toBe('81: line 81');
    const c = await v.goto(500);
    expect([c.viewportStart, c.viewportEnd, c.linesAbove, c.linesBelow]).toEqual([450, 549, 449, 451]);
    expect(v.getState()).toEqual({ currentFile: 'long.txt', currentLine: 500, windowSize: 100 });
    const d = await v.scrollUp();
    expect([d.viewportStart, d.viewportEnd]).toEqual([370, 469]);
  });

  it('matches the goto formula for many windows and lines, clamping at both ends', async () => {
    for (const w of [1, 2, 3, 7, 10, 99, 100, 101, 1000, 1500]) {
      const v = createWindowViewer(w, { cwd: dir });
      await v.open('long.txt');
      for (const n of [1, 2, 50, 499, 500, 501, 990, 999, 1000]) {
        const r = await v.goto(n);
        expect([r.viewportStart, r.viewportEnd], `w=${w} n=${n}`).toEqual(expectedWindow(n, w, 1000));
        expect(r.note).toBeUndefined();
      }
    }
  });

  it('scrolls by w - min(20, floor(w/5)) and clamps at the ends', async () => {
    for (const w of [1, 5, 10, 50, 100, 150]) {
      const step = w - Math.min(20, Math.floor(w / 5));
      const v = createWindowViewer(w, { cwd: dir });
      let r = await v.open('long.txt');
      let start = 1;
      for (let i = 0; i < 3; i++) {
        r = await v.scrollDown();
        start = Math.min(start + step, Math.max(1, 1000 - w + 1));
        expect(r.viewportStart, `w=${w}`).toBe(start);
      }
      r = await v.scrollUp();
      expect(r.viewportStart).toBe(Math.max(1, start - step));
    }
    const one = createWindowViewer(1, { cwd: dir });
    await one.open('short.txt');
    expect((await one.scrollDown()).viewportStart).toBe(2);
    expect((await one.scrollDown()).content).toBe('3: line 3');
  });

  it('reports hitting the end and the top', async () => {
    const v = createWindowViewer(100, { cwd: dir });
    await v.open('long.txt', 1000);
    const end = await v.scrollDown();
    expect([end.viewportStart, end.viewportEnd]).toEqual([901, 1000]);
    expect(end.note).toMatch(/end of the file/);
    await v.open('long.txt');
    const top = await v.scrollUp();
    expect([top.viewportStart, top.viewportEnd]).toEqual([1, 100]);
    expect(top.note).toMatch(/top of the file/);
  });

  it('clamps a line outside 1..T and says so', async () => {
    const v = createWindowViewer(10, { cwd: dir });
    await v.open('short.txt');
    const past = await v.goto(5000);
    expect([past.viewportStart, past.viewportEnd]).toEqual([21, 30]);
    expect(past.note).toMatch(/past the end/);
    for (const n of [0, -5]) {
      const before = await v.goto(n);
      expect([before.viewportStart, before.viewportEnd]).toEqual([1, 10]);
      expect(before.note).toMatch(/before the first line/);
    }
    const opened = await v.open('short.txt', 4000);
    expect([opened.viewportStart, opened.viewportEnd]).toEqual([21, 30]);
    expect(opened.note).toBeDefined();
  });
});

describe('edges', () => {
  it('empty file: 0 lines, an empty window and a note', async () => {
    const v = createWindowViewer(100, { cwd: dir });
    const r = await v.open('empty.txt');
    expect(r).toMatchObject({ totalLines: 0, viewportStart: 1, viewportEnd: 0, content: '', linesAbove: 0, linesBelow: 0 });
    expect(r.note).toMatch(/empty/);
    expect(v.getState()).toEqual({ currentFile: 'empty.txt', currentLine: 0, windowSize: 100 });
  });

  it('a file shorter than the window, and exactly the window', async () => {
    const v = createWindowViewer(100, { cwd: dir });
    const s = await v.open('short.txt');
    expect([s.viewportStart, s.viewportEnd, s.linesBelow]).toEqual([1, 30, 0]);
    expect((await v.scrollDown()).viewportStart).toBe(1);
    expect((await v.goto(29)).viewportStart).toBe(1);
    const e = await v.open('exact.txt');
    expect([e.viewportStart, e.viewportEnd, e.linesBelow]).toEqual([1, 100, 0]);
  });

  it('CRLF lines are counted once and shown without the \\r; no final newline adds no line', async () => {
    const v = createWindowViewer(3, { cwd: dir });
    const r = await v.open('crlf.txt');
    expect(r.totalLines).toBe(5);
    expect(r.content).toBe('1: line 1\n2: line 2\n3: line 3');
    expect((await v.open('one.txt')).totalLines).toBe(1);
  });

  it('a window of 1 moves one line at a time and centres on the line', async () => {
    const v = createWindowViewer(1, { cwd: dir });
    const r = await v.open('short.txt', 7);
    expect([r.viewportStart, r.viewportEnd, r.content]).toEqual([7, 7, '7: line 7']);
    expect(v.getState().currentLine).toBe(7);
    expect((await v.scrollUp()).viewportStart).toBe(6);
  });

  it('re-reads the file when it changes on disk', async () => {
    const path = join(dir, 'grow.txt');
    writeFileSync(path, lines(5));
    const v = createWindowViewer(10, { cwd: dir });
    expect((await v.open('grow.txt')).totalLines).toBe(5);
    appendFileSync(path, 'line 6\nline 7\n');
    const r = await v.goto(7);
    expect(r.totalLines).toBe(7);
    expect(r.content.endsWith('7: line 7')).toBe(true);
  });

  it('viewers are independent of each other', async () => {
    const a = createWindowViewer(10, { cwd: dir });
    const b = new WindowViewer(20, { cwd: dir });
    await a.open('long.txt', 500);
    await b.open('short.txt');
    await b.scrollDown();
    expect(a.getState()).toEqual({ currentFile: 'long.txt', currentLine: 500, windowSize: 10 });
    expect(b.getState()).toEqual({ currentFile: 'short.txt', currentLine: 21, windowSize: 20 });
  });

  it('operations run in call order even when not awaited one by one', async () => {
    const v = createWindowViewer(100, { cwd: dir });
    const [, , c] = await Promise.all([v.open('long.txt'), v.scrollDown(), v.scrollDown()]);
    expect(c.viewportStart).toBe(161);
  });
});

describe('errors', () => {
  it('before open: ENOTOPEN', async () => {
    const v = createWindowViewer(10, { cwd: dir });
    await expect(v.scrollDown()).rejects.toMatchObject({ code: 'ENOTOPEN' });
    await expect(v.goto(3)).rejects.toMatchObject({ code: 'ENOTOPEN' });
    expect(v.getState()).toEqual({ currentFile: null, currentLine: 0, windowSize: 10 });
  });

  const cases: Array<[string, string]> = [
    ['missing.txt', 'ENOENT'],
    ['sub', 'EISDIR'],
    ['bin.dat', 'EBINARY'],
    ['../elsewhere.txt', 'EOUTSIDEROOT'],
  ];
  for (const [path, code] of cases) {
    it(`${path}: ${code}, and the viewer keeps its state`, async () => {
      const v = createWindowViewer(10, { cwd: dir });
      await v.open('short.txt');
      await expect(v.open(path)).rejects.toMatchObject({ code });
      expect(v.getState().currentFile).toBe('short.txt');
    });
  }

  it('refuses a bad window size', () => {
    for (const w of [0, -1, 1.5, Number.NaN]) {
      expect(() => createWindowViewer(w)).toThrow(expect.objectContaining({ code: 'EINVALIDOPTION' }));
    }
  });
});

describe('seed 003 usage', () => {
  it('works with its methods destructured, as seed 003 uses them', async () => {
    const { open, scrollDown, goto, getState, scrollUp } = createWindowViewer(100, { cwd: dir });
    // Before open: a rejected promise with a code, never a synchronous TypeError.
    await expect(scrollUp()).rejects.toMatchObject({ code: 'ENOTOPEN' });
    expect((await open('long.txt')).viewportEnd).toBe(100);
    expect((await scrollDown()).viewportStart).toBe(81);
    expect((await goto(500)).viewportStart).toBe(450);
    expect(getState()).toMatchObject({ currentFile: 'long.txt', windowSize: 100 });
    expect(getState().currentLine).toBe(500);
  });
});
