// The V8 side of tests/tables.rs: V8's case-insensitive equivalence classes and
// property sets, printed for the Rust test to compare with the engine's.
//
// Output lines:
//   N <hex>…   a class of two or more code units equivalent under /i (no u)
//   U <hex>…   a class of two or more code points equivalent under /iu
//   P <name> <lo>-<hi>,…   the code points of \p{name} (u flag)
// Every BMP code unit and every code point not listed is alone in its class: the script
// checks that with V8 itself (one regex over all the others) before printing.
//
// argv[2]: "all" to print every property name given on stdin, else the names given.

import fs from 'node:fs';

const hex = (n) => n.toString(16);

// ---- without u: every BMP code unit ---------------------------------------------------
let units = '';
for (let u = 0; u <= 0xffff; u++) units += String.fromCharCode(u);
const canon = (u) => {
  const s = String.fromCharCode(u).toUpperCase();
  if (s.length !== 1) return u;
  const c = s.charCodeAt(0);
  return u >= 128 && c < 128 ? u : c;
};
const byCanon = new Map();
for (let u = 0; u <= 0xffff; u++) {
  const k = canon(u);
  if (!byCanon.has(k)) byCanon.set(k, []);
  byCanon.get(k).push(u);
}
const out = [];
const singles = [];
for (const members of byCanon.values()) {
  if (members.length === 1) {
    singles.push(members[0]);
    continue;
  }
  // V8 must agree with the spec's Canonicalize on every member's class.
  for (const u of members) {
    const re = new RegExp(`[\\u${hex(u).padStart(4, '0')}]`, 'gi');
    const found = [];
    let m;
    while ((m = re.exec(units))) found.push(m.index);
    if (found.join() !== members.join()) throw new Error(`V8 /i class of ${hex(u)}: ${found} vs ${members}`);
  }
  out.push('N ' + members.map(hex).join(' '));
}
{
  // The singletons: one class of all of them must match exactly them.
  const cls = singles.map((u) => `\\u${hex(u).padStart(4, '0')}`).join('');
  const re = new RegExp(`[${cls}]`, 'gi');
  let count = 0;
  let m;
  const isSingle = new Set(singles);
  while ((m = re.exec(units))) {
    if (!isSingle.has(m.index)) throw new Error(`V8 /i: ${hex(m.index)} is equivalent to a singleton`);
    count++;
  }
  if (count !== singles.length) throw new Error('V8 /i singletons differ');
}

// ---- with u: every code point -----------------------------------------------------------
let parts = [];
for (let c = 0; c <= 0x10ffff; c++) if (c < 0xd800 || c > 0xdfff) parts.push(String.fromCodePoint(c));
const ALL = parts.join('');
parts = null;
const idxToCp = (i) => (i < 0xd800 ? i : i < 0xf800 ? i + 0x800 : 0x10000 + ((i - 0xf800) >> 1));
const candidates = new Set();
for (let c = 0; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  const s = String.fromCodePoint(c);
  for (const t of [s.toLowerCase(), s.toUpperCase(), s.toLocaleLowerCase('tr'), s.toLocaleUpperCase('tr')]) {
    if (t !== s) {
      candidates.add(c);
      const cps = [...t];
      if (cps.length === 1) candidates.add(cps[0].codePointAt(0));
    }
  }
}
const classOf = new Map();
for (const c of [...candidates].sort((a, b) => a - b)) {
  if (classOf.has(c)) continue;
  const re = new RegExp(`\\u{${hex(c)}}`, 'giu');
  const found = [];
  let m;
  while ((m = re.exec(ALL))) found.push(idxToCp(m.index));
  for (const d of found) classOf.set(d, found);
}
const seen = new Set();
const uSingles = [];
for (let c = 0; c <= 0x10ffff; c++) {
  const cls = classOf.get(c);
  if (!cls || cls.length === 1) {
    if (c < 0xd800 || c > 0xdfff) uSingles.push(c);
    continue;
  }
  const key = cls.join();
  if (seen.has(key)) continue;
  seen.add(key);
  out.push('U ' + cls.map(hex).join(' '));
}
{
  // Every code point outside the classes above: one class of all of them (as ranges)
  // must match nothing else.
  const ranges = [];
  for (const c of uSingles) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === c - 1) last[1] = c;
    else ranges.push([c, c]);
  }
  const cls = ranges.map(([a, b]) => (a === b ? `\\u{${hex(a)}}` : `\\u{${hex(a)}}-\\u{${hex(b)}}`)).join('');
  const re = new RegExp(`[^${cls}]`, 'gu');
  const reI = new RegExp(`[^${cls}]`, 'giu');
  let plain = 0;
  let folded = 0;
  while (re.exec(ALL)) plain++;
  while (reI.exec(ALL)) folded++;
  if (plain !== folded) throw new Error(`V8 /iu: ${plain - folded} code points join a singleton's class`);
}

// ---- properties -------------------------------------------------------------------------
const names = fs.readFileSync(0, 'utf8').split('\n').filter(Boolean);
for (const name of names) {
  const re = new RegExp(`\\p{${name}}+`, 'gu');
  const ranges = [];
  let m;
  while ((m = re.exec(ALL))) {
    const a = idxToCp(m.index);
    const b = idxToCp(m.index + m[0].length - 1);
    if (a < 0xd800 && b > 0xdfff) ranges.push([a, 0xd7ff], [0xe000, b]);
    else ranges.push([a, b]);
  }
  const one = new RegExp(`^\\p{${name}}$`, 'u');
  for (let s = 0xd800; s <= 0xdfff; s++) if (one.test(String.fromCharCode(s))) ranges.push([s, s]);
  ranges.sort((x, y) => x[0] - y[0]);
  const merged = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && last[1] + 1 >= r[0]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  out.push(`P ${name} ` + merged.map(([a, b]) => `${hex(a)}-${hex(b)}`).join(','));
}
fs.writeFileSync(1, out.join('\n') + '\n');
