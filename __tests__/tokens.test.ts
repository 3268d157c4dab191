// The MCP result budget's token estimate (lib/mcp/tokens.mjs) is never below
// o200k's real count (gpt-tokenizer, a dev dependency) on the corpora it is
// meant for: the package's own files (each file, and each 40 lines of them),
// the compact texts the tools answer with, text in other scripts, random
// identifiers, and the bench corpora's files when .corpus/ has them. And it
// is not so high that the budget is wasted: within 1.5× on the own tree.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { TEXTS } from '../lib/mcp/texts.mjs';
import { COMMON_PAIRS_TEXT, estimateTokens } from '../lib/mcp/tokens.mjs';

const require = createRequire(import.meta.url);
const api = require('../index.js');
const ROOT = resolve(__dirname, '..');

/** The text files git tracks under `root` (at most 300 KB each), every `every`-th. */
function textFiles(root: string, every = 1): Array<[string, string]> {
  const listed = execFileSync('git', ['-C', root, 'ls-files', '-z'], { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\0').filter(Boolean);
  const out: Array<[string, string]> = [];
  listed.forEach((path, i) => {
    if (i % every !== 0) return;
    let text: string;
    try {
      text = readFileSync(join(root, path), 'utf8');
    } catch {
      return; // a symlink to a folder, a file gone
    }
    if (text.length > 0 && text.length <= 300_000 && !text.includes('\0')) out.push([path, text]);
  });
  return out;
}

/** The texts (of `least` real tokens or more) where the estimate is below the real count: `[label, estimate, real]`. */
function below(texts: Array<[string, string]>, least = 0): Array<[string, number, number]> {
  return texts
    .map(([label, t]) => [label, estimateTokens(t), encode(t).length] as [string, number, number])
    .filter(([, e, a]) => a >= least && e < a);
}

describe('estimateTokens', () => {
  it("prices letter pairs by the 200 most frequent in o200k's word tokens", () => {
    const pairs = new Map<string, number>();
    for (let id = 0; id < 199_998; id++) {
      let token: string;
      try {
        token = decode([id]);
      } catch {
        continue; // an id o200k does not use
      }
      const word = token.replace(/^ /, '');
      if (!/^[A-Za-z]{3,}$/.test(word)) continue;
      const w = word.toLowerCase();
      for (let i = 0; i + 1 < w.length; i++) pairs.set(w.slice(i, i + 2), (pairs.get(w.slice(i, i + 2)) ?? 0) + 1);
    }
    const top = [...pairs].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 200);
    expect(COMMON_PAIRS_TEXT).toBe(top.map(([pair]) => pair).join(''));
  });

  it("is at least o200k's count on every file of this repository, and on every 40 lines of them", () => {
    const files = textFiles(ROOT);
    expect(files.length).toBeGreaterThan(200);
    expect(below(files)).toEqual([]);
    const chunks: Array<[string, string]> = [];
    for (const [path, text] of files) {
      // (the lockfile's integrity hashes are random base64, counted file by file above)
      if (path === 'package-lock.json') continue;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i += 40) chunks.push([`${path}:${i + 1}`, lines.slice(i, i + 40).join('\n')]);
    }
    expect(below(chunks)).toEqual([]);
    // Not wastefully high: the budget buys at least two thirds of what it says.
    const estimate = files.reduce((n, [, t]) => n + estimateTokens(t), 0);
    const real = files.reduce((n, [, t]) => n + encode(t).length, 0);
    expect(estimate / real).toBeGreaterThan(1);
    expect(estimate / real).toBeLessThan(1.5);
  });

  it("is at least o200k's count on the tools' compact texts", () => {
    const texts: Array<[string, string]> = [];
    const ctx = { root: ROOT };
    for (const query of ['import', 'return', 'function', 'const', 'TODO', 'budget', 'o200k', '=>', 'expect(']) {
      const found = api.searchCodeSync(query, { cwd: ROOT, maxResults: 200 });
      texts.push([`search_code ${query}`, TEXTS.search_code(found, {}, ctx)]);
      const grepped = api.grepSync({ pattern: query, cwd: ROOT, maxResults: 200, contextLines: 2 });
      texts.push([`grep ${query}`, TEXTS.grep({ matches: grepped, truncated: true }, { contextLines: 2 }, ctx)]);
    }
    const globbed = { ...api.globFilesSync({ pattern: '**/*', cwd: ROOT, maxResults: 2000 }), root: ROOT };
    texts.push(['glob_files **/*', TEXTS.glob_files(globbed, {}, ctx)]);
    const sfq = api.smartFileQuerySync({ regex: '\\w+\\(', glob: ['lib/**', 'crates/sfq-core/src/**'], maxMatches: 2000, cwd: ROOT });
    texts.push(['smart_file_query', TEXTS.smart_file_query(sfq, { contextLines: 2 }, ctx)]);
    expect(texts.every(([, t]) => t.split('\n').length > 10)).toBe(true);
    expect(below(texts)).toEqual([]);
  });

  it("is at least o200k's count on other scripts, emoji, random identifiers and minified code", () => {
    const texts: Array<[string, string]> = [
      ['zh', '这是一个用于测试的中文段落，包含常见的汉字和标点符号。我们希望估算器不会低估令牌的数量。'],
      ['ja', 'これはテスト用の日本語の文章です。カタカナとひらがなと漢字が混ざっています。'],
      ['ko', '이것은 테스트를 위한 한국어 문장입니다. 추정기가 토큰 수를 과소평가하지 않기를 바랍니다.'],
      ['ru', 'Это тестовый абзац на русском языке, чтобы проверить оценку количества токенов.'],
      ['el', 'Αυτή είναι μια δοκιμαστική παράγραφος στα ελληνικά για τον έλεγχο της εκτίμησης.'],
      ['ar', 'هذه فقرة اختبار باللغة العربية للتحقق من تقدير عدد الرموز.'],
      ['hi', 'यह टोकन की संख्या के अनुमान की जांच करने के लिए हिंदी में एक परीक्षण अनुच्छेद है।'],
      ['emoji', '🎉🚀✨🔥💯 launch 🤖🧪📦 ✅❌⚠️ 👍🏽👩‍💻 𝒳𝓎𝓏 🯰🯱🯲'],
      ['min.js', '!function(e,t){"object"==typeof exports&&"undefined"!=typeof module?module.exports=t():(e=e||self).Vue=t()}(this,function(){"use strict";var e=Object.freeze({});function t(e){return null==e}'],
      ['numbers', Array.from({ length: 300 }, (_, i) => (i * 7919) % 100003).join(', ')],
      ['uuids', Array.from({ length: 30 }, () => crypto.randomUUID()).join('\n')],
      // Short words and single capitals behind ',' '|' '(' (the Linux tree's perf CPU
      // model map: counted 3% low while a word behind a mark was priced 0.5 more).
      ['cpu models', ['GenuineIntel-6-(97|9A|B7|BA|BE|BF),v1.15,alderlake,core', 'GenuineIntel-6-(1C|26|27|35|36),v4,bonnell,core',
        'GenuineIntel-6-55-[56789ABCDEF],v1.16,cascadelakex,core', 'AuthenticAMD-23-([12][0-9A-F]|[0-9A-F]),v2,amdzen1,core'].join('\n').repeat(8)],
      // A listing of deep paths whose words sit behind '/' and '-' (the Linux tree's perf
      // events: counted 1.17x low before a word behind a mark was priced more).
      ['deep paths', ['intrinsic', 'branch', 'bus', 'clock', 'instruction', 'memory', 'pipeline', 'cache', 'exception']
        .flatMap((n) => [`tools/perf/pmu-events/arch/arm64/ampere/emag/${n}.json`, `tools/perf/pmu-events/arch/arm64/arm/cortex-a510/${n}.json`]).join('\n')],
    ];
    for (let i = 0; i < 20; i++) {
      texts.push([`base64 ${i}`, randomBytes(300).toString('base64')], [`hex ${i}`, randomBytes(200).toString('hex')]);
    }
    expect(below(texts)).toEqual([]);
  });

  // The bench corpora (node scripts/fetch-real-repo.mjs, bench/corpus.mjs, …), when present: every file
  // of a sample, of 100 tokens or more (a budget is 500 tokens at least; on a few words the
  // estimate can be a token or two short: `oracledb >= 2.3.0` is 11 for 12).
  const corpora: Array<[string, number]> = [
    ['.corpus/django-5.2.8', 3],
    ['.corpus/vite', 2],
    ['.corpus/test262', 25],
    ['.corpus/generated', 50],
    ['.corpus/nuttx', 20],
    ['.corpus/linux-6.1', 40],
  ];
  for (const [dir, every] of corpora) {
    it.skipIf(!existsSync(join(ROOT, dir, '.git')))(`is at least o200k's count on the files of ${dir} (1 in ${every})`, () => {
      const files = textFiles(join(ROOT, dir), every);
      expect(files.length).toBeGreaterThan(100);
      expect(below(files, 100)).toEqual([]);
    });
  }
});
