// The addon's bench entry `engineCountSync` (bench/regex.mjs times it against
// V8's exec loop): the product's regex search alone over a text's lines must
// count what V8's global exec loop over `text.split(/\r?\n/)` counts.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { loadBinding } = require('../lib/load.js');
const binding = loadBinding();

/** V8's count: every match of each line (an empty match advances, by a code point under `u`). */
function v8Count(source: string, flags: string, text: string, cap = Infinity): number {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const re = new RegExp(source, `${flags}g`);
  let count = 0;
  for (const line of lines) {
    for (const _ of line.matchAll(re)) if (++count >= cap) return count;
  }
  return count;
}

const PROSE = [
  'the quick brown fox jumps over the the lazy dog',
  'this this is a doubled word at the start\r',
  'a line with numbers 12 12 and symbols ; ; here',
  'Ünïcödé wörds wörds and an emoji 😀😀 twice',
  '',
].join('\n');

describe('engineCountSync', () => {
  it('counts what V8 counts, line by line, up to the cap', () => {
    const cases: [string, string, string][] = [
      ['\\b(\\w+)\\s+\\1\\b', '', PROSE],
      ['(\\S+)\\s+\\1', 'u', PROSE],
      ['\\w+', '', PROSE],
      ['^|$', 'm', PROSE],
      ['', 'u', `a\u{1F600}b\uD83D\nx`],
      ['', '', `a\u{1F600}b\uD83D\nx`],
      ['\\p{Lu}\\w+', 'u', PROSE],
      ['t.e', 'i', PROSE],
    ];
    for (const [source, flags, text] of cases) {
      const r = binding.engineCountSync(source, flags, text, 1_000_000);
      expect(r.count, `/${source}/${flags}`).toBe(v8Count(source, flags, text));
      expect(r.budgetExceeded).toBe(false);
      expect(r.ms).toBeGreaterThanOrEqual(0);
    }
    expect(binding.engineCountSync('\\w+', '', PROSE, 5).count).toBe(5);
  });

  it('reports an exhausted time budget, and refuses a pattern V8 refuses', () => {
    // Quadratic backtracking over 2,000 words (regex-time.test.ts): tens of
    // milliseconds of engine time, more than 1 ms, all of it with 60 s.
    const heavy = '(\\w+)\\s(?:\\w+\\s)*\\1;';
    const words = `${Array.from({ length: 2000 }, (_, i) => `w${i}`).join(' ')} end;`;
    expect(binding.engineCountSync(heavy, '', words, 10, 1).budgetExceeded).toBe(true);
    expect(binding.engineCountSync(heavy, '', words, 10, 60_000)).toMatchObject({ count: 0, budgetExceeded: false });
    expect(() => binding.engineCountSync('(', '', 'x', 10)).toThrow(/EINVALIDREGEX|Invalid/);
  });
});
