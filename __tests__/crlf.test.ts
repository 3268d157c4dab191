// A checkout with CRLF line ends (core.autocrlf=true, common on Windows): a
// file is searched as its bytes are, and a pattern sees `\r\n` as
// JavaScript's RegExp does on the same text, line by line, in whole-text mode
// and with includeAllContent.
import { readFileSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grepContentSync, smartFileQuerySync } from '../index.js';
import { git, gitInit, makeTree } from './helpers/tree';

let repo: string;
beforeAll(() => {
  repo = makeTree({ 'a.txt': 'alpha one\nbeta two\n\nalpha three\n' });
  gitInit(repo);
  git(repo, 'config', 'core.autocrlf', 'true');
  unlinkSync(join(repo, 'a.txt'));
  git(repo, 'checkout', '--', 'a.txt');
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

/** Every match of `regex` in `text`, as [index, match]. */
function v8(regex: string, flags: string, text: string): [number, string][] {
  return [...text.matchAll(new RegExp(regex, `${flags}g`))].map((m) => [m.index ?? 0, m[0]]);
}

describe('a CRLF checkout', () => {
  it('is checked out with CRLF', () => {
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha one\r\nbeta two\r\n\r\nalpha three\r\n');
  });

  it('whole-text matches are RegExp matches on the text, \\r included', () => {
    const text = readFileSync(join(repo, 'a.txt'), 'utf8');
    for (const [regex, flags] of [['one\\r?\\nbeta', ''], ['.$', 'm'], ['^$', 'm'], ['\\r\\n\\r\\n', ''], ['two.', 's']]) {
      const r = smartFileQuerySync({ regex, flags, cwd: repo, multiline: true, maxMatches: 100 });
      const want = v8(regex, flags, text);
      expect(r.aggregate.totalMatches, `${regex} /${flags}`).toBe(want.length);
      expect(r.results.flatMap((f) => f.matches.map((m) => m.match)), `${regex} /${flags}`).toEqual(want.map(([, s]) => s));
    }
  });

  it('line mode takes lines as split(/\\r?\\n/): no \\r in a line, $ at its end', () => {
    const r = smartFileQuerySync({ regex: 'e$', cwd: repo, contextLines: 0 });
    expect(r.results[0].matches.map((m) => [m.lineNumber, m.context.line])).toEqual([[1, 'alpha one'], [4, 'alpha three']]);
    expect(grepContentSync({ pattern: 'three$', cwd: repo }).matches.map((m) => m.text)).toEqual(['alpha three']);
  });

  it('includeAllContent gives the file as it is, CRLF and all', () => {
    const r = smartFileQuerySync({ regex: 'beta', cwd: repo, includeAllContent: true });
    expect(r.results[0].content).toBe(readFileSync(join(repo, 'a.txt'), 'utf8'));
  });
});
