// Every error code the product raises is listed in SmartFileQueryErrorCode
// (index.d.ts) and in the README: the codes are collected from the sources
// (Rust `ErrorCode`s and `Io("E…")` codes, the JS wrappers' codedError calls).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'tests' || name === 'target' ? [] : files(p, ext);
    return ext.test(name) ? [p] : [];
  });
}

function raisedCodes(): Set<string> {
  const codes = new Set<string>();
  const rust = [...files(join(ROOT, 'crates'), /\.rs$/), ...files(join(ROOT, 'src'), /\.rs$/)];
  for (const f of rust) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/Io\("(E[A-Z]+)"\)/g)) codes.add(m[1]);
  }
  // ErrorCode::as_str's own codes.
  const error = readFileSync(join(ROOT, 'crates/sfq-core/src/error.rs'), 'utf8');
  const asStr = error.slice(error.indexOf('pub fn as_str'), error.indexOf('ErrorCode::Io(code) => code'));
  for (const m of asStr.matchAll(/"(E[A-Z]+)"/g)) codes.add(m[1]);
  const js = [join(ROOT, 'index.js'), ...files(join(ROOT, 'lib'), /\.(js|mjs)$/)];
  for (const f of js) {
    for (const m of readFileSync(f, 'utf8').matchAll(/codedError\('(E[A-Z]+)'/g)) codes.add(m[1]);
  }
  return codes;
}

describe('error codes', () => {
  const codes = raisedCodes();

  it('finds the codes it should (the collection itself works)', () => {
    for (const c of ['EINVALIDOPTION', 'EINVALIDREGEX', 'EOUTSIDEROOT', 'EABORTED', 'ETIMEOUT', 'EINTERNAL', 'EBINARY', 'EINVALIDCONFIG', 'ENOTOPEN']) {
      expect(codes).toContain(c);
    }
  });

  it('lists every raised code in SmartFileQueryErrorCode', () => {
    const dts = readFileSync(join(ROOT, 'index.d.ts'), 'utf8');
    const union = dts.slice(dts.indexOf('export type SmartFileQueryErrorCode'), dts.indexOf('(string & {});'));
    const listed = new Set([...union.matchAll(/'(E[A-Z]+)'/g)].map((m) => m[1]));
    expect([...codes].filter((c) => !listed.has(c))).toEqual([]);
  });

  it('names every raised code in the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect([...codes].filter((c) => !readme.includes(`\`${c}\``))).toEqual([]);
  });
});
