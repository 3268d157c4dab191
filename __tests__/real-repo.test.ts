// The differential suite on a real public repository (Django's source, fetched
// by scripts/fetch-real-repo.mjs into .corpus/, never committed): the addon and
// the pure-Node seed-000 implementation must give identical JSON.
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { fetchRealRepo } from '../scripts/fetch-real-repo.mjs';
import { smartFileQueryReference } from './oracle/seed000.mjs';

const require = createRequire(import.meta.url);
const native = require('../lib/native.js');

let repo: string;
beforeAll(async () => {
  repo = await fetchRealRepo();
}, 600_000);

const CASES: Array<Record<string, unknown>> = [
  { regex: 'class \\w+Middleware\\b' },
  { regex: 'TODO|FIXME|HACK|XXX', flags: 'i', maxMatches: 2000 },
  { regex: 'def ', maxMatches: 100000, contextLines: 0 },
  { regex: '\\b(\\w+)\\s+\\1\\b', glob: 'docs/**' },
  { regex: '(?<=import )\\w+', glob: '**/*.py', maxMatches: 3000 },
  { regex: '[^\\x00-\\x7F]+', flags: 'u', glob: 'django/conf/locale/{fr,ja,ru}/**' },
  { regex: 'msgstr "\\p{Lu}', flags: 'u', glob: '**/*.po', maxMatches: 5000 },
  { regex: 'ſ|K|ß', flags: 'iu', maxMatches: 500 },
  { regex: '^\\s*$', maxMatches: 1000, glob: 'django/db/**' },
  { regex: 'function\\s*\\(', glob: ['**/*.js', 'js_tests/**'], contextLines: 3 },
  { regex: 'Copyright', includeAllContent: true, glob: '*' },
  { regex: 'from django', glob: 'tests/**', ignore: ['tests/i18n/**'], maxMatches: 4000 },
  { regex: '"""[\\s\\S]*?"""', multiline: true, glob: 'django/utils/*.py', maxMatches: 3000 },
];

describe('Django 5.2.8 source (real repository)', () => {
  for (const q of CASES) {
    it(JSON.stringify(q), () => {
      const options = { ...q, cwd: repo };
      const expected = JSON.stringify(smartFileQueryReference(options));
      const actual = native.runJsonSync('smartFileQuery', options, 'regex').toString('utf8');
      expect(actual.length).toBe(expected.length);
      expect(actual).toBe(expected);
      expect(JSON.stringify(native.runValueSync('smartFileQuery', options, 'regex'))).toBe(expected);
      expect(JSON.parse(actual).aggregate.filesVisited).toBeGreaterThan(0);
    });
  }
});
