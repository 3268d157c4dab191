// The differential suite: the addon against the pure-Node implementation of
// seed 000 (V8's RegExp, `git ls-files`, picomatch) on generated
// repositories. The JSON must be identical, byte for byte, on every case.
//
// SFQ_DIFF_SEEDS=1..40 npx vitest run __tests__/differential.test.ts runs more seeds.
import { createRequire } from 'node:module';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { smartFileQueryReference } from './oracle/seed000.mjs';
import { generateRepo, type GeneratedRepo } from './helpers/generate';

const require = createRequire(import.meta.url);
const native = require('../lib/native.js');

function seeds(): number[] {
  const spec = process.env.SFQ_DIFF_SEEDS ?? '1..4';
  const [a, b] = spec.split('..').map(Number);
  return Array.from({ length: (b ?? a) - a + 1 }, (_, i) => a + i);
}

type Q = Record<string, unknown>;

/** Regex cases: every construct the contract names, line by line and multiline. */
export const REGEX_CASES: Q[] = [
  // literals, alternation, case folding
  { regex: 'alpha' }, { regex: 'alpha', flags: 'i' }, { regex: 'TODO|fixme|Hack', flags: 'i' },
  { regex: 'strict', flags: 'i' }, { regex: 'strict', flags: 'iu' }, { regex: 'STRICT', flags: 'iv' },
  { regex: 'k', flags: 'i' }, { regex: 'k', flags: 'iu' }, { regex: 'ß', flags: 'i' }, { regex: 'ẞ', flags: 'iu' },
  { regex: 'σ', flags: 'i' }, { regex: 'Σ+', flags: 'iu' }, { regex: 'θ', flags: 'iu' }, { regex: 'ω', flags: 'i' },
  { regex: 'å', flags: 'iu' }, { regex: 'ǅ', flags: 'i' }, { regex: '[a-z]+', flags: 'i' }, { regex: '[a-z]+', flags: 'iu' },
  // classes and escapes, with and without u / i
  { regex: '\\w+' }, { regex: '\\w+', flags: 'iu' }, { regex: '\\W+', flags: 'iu' }, { regex: '\\d+' }, { regex: '\\d+', flags: 'u' },
  { regex: '\\s+' }, { regex: '\\S+$' }, { regex: '\\bk\\w*', flags: 'i' }, { regex: '\\bk\\w*', flags: 'iu' },
  { regex: '\\B.\\b', flags: 'u' }, { regex: '[^\\w\\s]+' }, { regex: '[\\s\\S]{3}' },
  // dot, anchors, line terminators inside lines
  { regex: '.' , maxMatches: 400 }, { regex: '.', flags: 'u', maxMatches: 400 }, { regex: '.+', flags: 's' }, { regex: '.$' },
  { regex: '.$', flags: 'm' }, { regex: '^.', flags: 'm' }, { regex: '^\\w*', flags: '' }, { regex: '$' }, { regex: '\\r' },
  { regex: '\\u2028|\\u2029' }, { regex: 'a$', flags: 'm' }, { regex: '^$' },
  // zero-length matches and iteration
  { regex: 'x*' }, { regex: '(?:)', flags: 'u', maxMatches: 300 }, { regex: '\\b' }, { regex: '(?:|a)*' }, { regex: 'a*?' },
  // surrogates
  { regex: '😀' }, { regex: '\\ud83d' }, { regex: '[😀]', flags: 'u' }, { regex: '.{2}' }, { regex: '\\u{1F600}', flags: 'u' },
  { regex: '[\\u{1F000}-\\u{1FFFF}]', flags: 'u' }, { regex: '\\p{Emoji_Presentation}', flags: 'u' },
  // lookaround, backreferences
  { regex: '(?=a)' }, { regex: '(?<=a)b' }, { regex: '(?<!\\w)\\d+' }, { regex: 'a(?!b)' }, { regex: '(?<=(\\w)\\1)x' },
  { regex: '(\\w)\\1' }, { regex: '(?<c>\\w)\\k<c>', flags: 'u' }, { regex: '(a)|\\1b' }, { regex: '(\\w)\\1', flags: 'i' },
  // Unicode properties and v-flag sets
  { regex: '\\p{Lu}+', flags: 'u' }, { regex: '\\p{Script=Greek}+', flags: 'u' }, { regex: '\\P{L}+', flags: 'u' },
  { regex: '\\p{Lu}', flags: 'iu' }, { regex: '[\\p{L}--[a-z]]+', flags: 'v' }, { regex: '[[a-z]&&[^aeiou]]+', flags: 'v' },
  { regex: '[\\q{ab|x}c]', flags: 'v' },
  // Annex B syntax
  { regex: 'a{,2}' }, { regex: '\\cI' }, { regex: '[\\w-a]' }, { regex: '\\101' }, { regex: '\\<div\\>' }, { regex: '[^]' },
  { regex: '[]' }, { regex: '[a&&b]' }, { regex: 'x\\u{2}' }, { regex: '\\p{L}' },
  // multiline: the whole text at once
  { regex: 'a\\r?\\nb', multiline: true }, { regex: '^\\w+$', flags: 'm', multiline: true }, { regex: '[\\s\\S]{5}', multiline: true },
  { regex: '$', multiline: true }, { regex: '^', flags: 'm', multiline: true }, { regex: '\\n', multiline: true },
  { regex: 'alpha[^]*?beta', multiline: true }, { regex: '.$', flags: 'm', multiline: true },
];

/** Option cases: context, content, limits, globs, encodings. */
export const OPTION_CASES: Q[] = [
  { regex: 'alpha', contextLines: 0 }, { regex: 'alpha', contextLines: 5 }, { regex: 'a', includeAllContent: true, maxMatches: 50 },
  { regex: 'a', maxMatches: 1 }, { regex: 'a', maxMatches: 7 }, { regex: 'a', maxMatches: 100000 },
  { regex: 'alpha', maxFileSizeKB: 1 }, { regex: 'alpha', glob: '*.txt' }, { regex: 'alpha', glob: ['**/*.{ts,md}', 'enc/*'] },
  { regex: 'alpha', glob: '**/.*' }, { regex: 'alpha', ignore: ['enc/**', '**/*.md'] }, { regex: 'alpha', glob: 'src/**', ignore: '**/x y/**' },
  { regex: 'alpha', encoding: 'utf16le' }, { regex: 'alpha|caf.', encoding: 'latin1' }, { regex: 'alpha|caf.', encoding: 'ascii' },
  { regex: 'alpha', encoding: 'UCS-2' }, { regex: 'nomatchhere' },
  // double-quoted glob parts are literal text (picomatch drops the quotes)
  { regex: 'alpha', glob: ['"src"/**', '"enc"/*.txt'] }, { regex: 'alpha', glob: '"a"*' }, { regex: 'alpha', glob: '**/"*".md' },
  { regex: 'alpha', glob: '*"txt"', ignore: '"enc"/**' },
];

const repos: GeneratedRepo[] = [];
afterAll(() => {
  for (const r of repos) rmSync(r.root, { recursive: true, force: true });
});

function outcome(run: () => string): string {
  try {
    return run();
  } catch (e) {
    const err = e as { code?: string; message: string };
    return `error ${err.code}: ${err.message}`;
  }
}

for (const seed of seeds()) {
  describe(`generated repository, seed ${seed}`, () => {
    const repo = generateRepo(seed);
    repos.push(repo);
    for (const q of [...REGEX_CASES, ...OPTION_CASES]) {
      it(`${JSON.stringify(q)} (${repo.git ? 'git' : 'no git'})`, () => {
        const options = { ...q, cwd: repo.root };
        const expected = outcome(() => JSON.stringify(smartFileQueryReference(options)));
        const actual = outcome(() => native.runJsonSync('smartFileQuery', options, 'regex').toString('utf8'));
        expect(actual).toBe(expected);
        // The API's compact transport rebuilds exactly the same value, key order included.
        const value = outcome(() => JSON.stringify(native.runValueSync('smartFileQuery', options, 'regex')));
        expect(value).toBe(expected);
      });
    }
  });
}
