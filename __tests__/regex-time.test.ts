// The backtracking engine's budget is time (regexTimeoutMs, default 1 s per
// file), not steps: a pattern V8 finishes on a line is not skipped, while a
// catastrophic one still ends its file with regexBudgetExceeded. Exponential
// patterns V8 gives up on are polynomial here (the memo of failed states).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchCodeSync, smartFileQuerySync } from '../index.js';
import { makeTree } from './helpers/tree';

let dir: string;
beforeAll(() => {
  dir = makeTree({});
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A line of a's (then `tail`) long enough that V8 takes at least `ms` on `re`, and V8's time. */
function lineV8Takes(re: RegExp, tail: string, ms: number): { line: string; v8: number } {
  for (let n = 8; n < 64; n++) {
    const line = 'a'.repeat(n) + tail;
    const t = performance.now();
    re.test(line);
    const v8 = performance.now() - t;
    if (v8 >= ms) return { line, v8 };
  }
  throw new Error('V8 never took that long');
}

describe('regexTimeoutMs', () => {
  it('patterns V8 finishes in tens of milliseconds are searched, not skipped', () => {
    for (const [source, tail] of [['(a|aa)+(?=b)', 'cab'], ['(a*)+b\\1', 'cb']] as const) {
      const re = new RegExp(source);
      const { line, v8 } = lineV8Takes(re, tail, 15);
      writeFileSync(join(dir, 'heavy.txt'), `${line}\n`);
      const r = smartFileQuerySync({ cwd: dir, regex: source, contextLines: 0 });
      expect(r.skipped, `${source}: V8 took ${v8.toFixed(0)} ms`).toEqual([]);
      const expected = re.exec(line)!;
      expect(r.results[0].matches.map((m) => [m.column, m.match])).toEqual([[expected.index + 1, expected[0]]]);
    }
  });

  it('a small regexTimeoutMs skips what a large one searches; catastrophic patterns still end', () => {
    // Quadratic backtracking (a back reference after a loop over 2,000 words): tens of
    // milliseconds of engine time, which the memo of failed states cannot shorten.
    const heavy = '(\\w+)\\s(?:\\w+\\s)*\\1;';
    const words = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(' ');
    writeFileSync(join(dir, 'heavy.txt'), `${words} end;\n`);
    const quick = smartFileQuerySync({ cwd: dir, regex: heavy, regexTimeoutMs: 1 });
    expect(quick.skipped).toEqual([{ path: 'heavy.txt', reason: 'regexBudgetExceeded' }]);
    const agent = searchCodeSync(heavy, { cwd: dir, isRegex: true, regexTimeoutMs: 1 });
    expect(agent.skipped.budget).toBe(1);
    const full = smartFileQuerySync({ cwd: dir, regex: heavy, regexTimeoutMs: 60_000 });
    expect(full.skipped).toEqual([]);
    expect(full.results).toEqual([]);
    expect(() => smartFileQuerySync({ cwd: dir, regex: 'x', regexTimeoutMs: 0 })).toThrow(/regexTimeoutMs/);
    // Never finishes (the capture a back reference reads is part of every memoised state:
    // far too many on 3,000 a's): the file ends at the time budget, reported.
    writeFileSync(join(dir, 'heavy.txt'), `${'a'.repeat(3000)}c\n`);
    const t = Date.now();
    const evil = smartFileQuerySync({ cwd: dir, regex: '^(?=(a+)+\\1$)', regexTimeoutMs: 300 });
    expect(evil.skipped).toEqual([{ path: 'heavy.txt', reason: 'regexBudgetExceeded' }]);
    expect(Date.now() - t).toBeLessThan(5_000);
  });
});
