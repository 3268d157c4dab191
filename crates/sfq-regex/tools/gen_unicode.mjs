// Generates crates/sfq-regex/src/unicode/tables.rs from the V8 that runs this script.
//
// Every fact comes from V8 itself (Node 20.20.2: V8 11.3, ICU 78.2, Unicode 17.0), so the
// engine agrees with `new RegExp` by construction:
//
// * property names: every identifier-like token found in the node binary (ICU's name
//   tables are embedded there) is tried as `\p{X}`, `\p{gc=X}`, `\p{sc=X}`, `\p{scx=X}` and
//   `\p{X=Latin}`; the ones V8 accepts are the names;
// * property sets: `\p{X}+` is run over a string holding every code point (surrogates are
//   probed one at a time, because adjacent surrogates would pair up);
// * case folding: the equivalence classes of `/x/iu` (simple case folding, as V8/ICU do it)
//   and of `/x/i` (the spec's toUpperCase-based Canonicalize over UTF-16 code units);
// * properties of strings (`\p{RGI_Emoji}` …, v flag): the string sets are read from ICU's
//   `uemoji.icu` inside the node binary and each string is checked with V8.
//
// Usage: node crates/sfq-regex/tools/gen_unicode.mjs > crates/sfq-regex/src/unicode/tables.rs
// Takes about a minute. The output is deterministic for a given node binary.

import fs from 'node:fs';

const log = (...a) => process.stderr.write(a.join(' ') + '\n');
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;

function compiles(p, f) {
  try {
    new RegExp(p, f);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------
// 1. Names.

const binary = fs.readFileSync(process.execPath);
const tokens = [...new Set(binary.toString('latin1').match(/[A-Za-z0-9_]{1,60}/g))].sort();
log(`${tokens.length} candidate tokens (${elapsed()})`);

const loneU = []; // \p{X} with u
const loneV = []; // \p{X} only with v (properties of strings)
const gcNames = []; // \p{gc=X}
const scNames = []; // \p{sc=X}
const scxNames = []; // \p{scx=X}
const propNames = []; // \p{X=...}
for (const t of tokens) {
  if (compiles(`\\p{${t}}`, 'u')) loneU.push(t);
  else if (compiles(`\\p{${t}}`, 'v')) loneV.push(t);
  if (compiles(`\\p{gc=${t}}`, 'u')) gcNames.push(t);
  if (compiles(`\\p{sc=${t}}`, 'u')) scNames.push(t);
  if (compiles(`\\p{scx=${t}}`, 'u')) scxNames.push(t);
  if (compiles(`\\p{${t}=Latin}`, 'u') || compiles(`\\p{${t}=Lu}`, 'u')) propNames.push(t);
}
log(`names: ${loneU.length} lone, ${loneV.length} lone (v only), ${gcNames.length} gc, ` +
  `${scNames.length} sc, ${scxNames.length} scx, property names ${propNames.join(' ')} (${elapsed()})`);
const expectedProps = ['General_Category', 'Script', 'Script_Extensions', 'gc', 'sc', 'scx'];
if (JSON.stringify([...propNames].sort()) !== JSON.stringify(expectedProps)) {
  throw new Error(`unexpected property names: ${propNames}`);
}
if (JSON.stringify(scNames) !== JSON.stringify(scxNames)) throw new Error('sc and scx names differ');

// ---------------------------------------------------------------------------------------
// 2. Sets.

let parts = [];
for (let c = 0; c <= 0x10ffff; c++) {
  if (c < 0xd800 || c > 0xdfff) parts.push(String.fromCodePoint(c));
}
const ALL = parts.join('');
parts = null;
const idxToCp = (i) => (i < 0xd800 ? i : i < 0xf800 ? i + 0x800 : 0x10000 + ((i - 0xf800) >> 1));

function mergeRanges(list) {
  list.sort((x, y) => x[0] - y[0]);
  const out = [];
  for (const r of list) {
    const last = out[out.length - 1];
    if (last && last[1] + 1 >= r[0]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** The code points matched by the one-character pattern `atom` under `flags`. */
function setOf(atom, flags = 'u') {
  const re = new RegExp(`(?:${atom})+`, `g${flags}`);
  const ranges = [];
  let m;
  while ((m = re.exec(ALL))) {
    const a = idxToCp(m.index);
    const b = idxToCp(m.index + m[0].length - 1);
    // ALL has no surrogates: a run across the gap is two ranges.
    if (a < 0xd800 && b > 0xdfff) ranges.push([a, 0xd7ff], [0xe000, b]);
    else ranges.push([a, b]);
  }
  const one = new RegExp(`^(?:${atom})$`, flags);
  for (let s = 0xd800; s <= 0xdfff; s++) {
    if (one.test(String.fromCharCode(s))) ranges.push([s, s]);
  }
  return mergeRanges(ranges);
}

const setIndex = new Map(); // JSON of ranges -> index
const sets = []; // list of ranges
function intern(ranges) {
  const key = JSON.stringify(ranges);
  let i = setIndex.get(key);
  if (i === undefined) {
    i = sets.length;
    sets.push(ranges);
    setIndex.set(key, i);
  }
  return i;
}

const gcSet = new Map();
for (const n of gcNames) gcSet.set(n, intern(setOf(`\\p{gc=${n}}`)));
log(`general categories done (${elapsed()})`);
const lone = []; // [name, kind, set]
for (const n of loneU) {
  let kind;
  if (gcSet.has(n)) kind = 'GeneralCategory';
  else if (n === 'Any' || n === 'ASCII' || n === 'Assigned') kind = 'Special';
  else kind = 'Binary';
  const s = kind === 'GeneralCategory' ? gcSet.get(n) : intern(setOf(`\\p{${n}}`));
  lone.push([n, kind, s]);
}
log(`binary properties done (${elapsed()})`);
const scripts = []; // [name, sc set, scx set]
for (const n of scNames) {
  scripts.push([n, intern(setOf(`\\p{sc=${n}}`)), intern(setOf(`\\p{scx=${n}}`))]);
}
log(`scripts done (${elapsed()})`);

// Sanity checks of how the engine combines sets.
const complementOf = (r) => {
  const out = [];
  let next = 0;
  for (const [a, b] of r) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
for (const [n, , s] of lone) {
  const neg = setOf(`\\P{${n}}`);
  if (!same(neg, complementOf(sets[s]))) throw new Error(`\\P{${n}} is not the complement`);
}

// ---------------------------------------------------------------------------------------
// 3. Case folding.

function escapeCp(c) {
  return `\\u{${c.toString(16)}}`;
}
// Candidates: every code point with a case mapping, and the targets of those mappings.
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
log(`${candidates.size} case-mapping candidates (${elapsed()})`);

function orbitsFrom(classOf) {
  // classOf(c) -> sorted array of code points equivalent to c (including c)
  const orbitOf = new Map();
  for (const c of [...candidates].sort((a, b) => a - b)) {
    const cls = classOf(c);
    if (cls.length < 2) continue;
    for (const d of cls) {
      const prev = orbitOf.get(d);
      if (prev && JSON.stringify(prev) !== JSON.stringify(cls)) {
        throw new Error(`case relation is not an equivalence at ${c.toString(16)}/${d.toString(16)}`);
      }
      orbitOf.set(d, cls);
    }
  }
  // next-links: each member points to the next larger member, the largest to the smallest.
  const links = [];
  for (const [d, cls] of orbitOf) {
    const i = cls.indexOf(d);
    links.push([d, cls[(i + 1) % cls.length]]);
  }
  links.sort((a, b) => a[0] - b[0]);
  return links;
}

function scanAll(atom, flags) {
  const re = new RegExp(atom, `g${flags}`);
  const out = [];
  let m;
  while ((m = re.exec(ALL))) out.push(idxToCp(m.index));
  return out;
}

const foldU = orbitsFrom((c) => scanAll(escapeCp(c), 'iu'));
log(`u-mode orbits: ${foldU.length} members (${elapsed()})`);
const foldUClass = orbitsFrom((c) => scanAll(`[${escapeCp(c)}]`, 'iu'));
if (!same(foldU, foldUClass)) throw new Error('u-mode: literal and class case folding differ');

// Simple case folding (scf, ICU's u_foldCase) of each orbit member, as V8 applies it to the
// characters of `\q{…}` under `vi`: `[\q{X}--Y]` is empty exactly when Y is scf(X)
// (V8 11.3 folds X, does not close Y over case, then closes the result over case).
const scf = [];
{
  const orbit = new Map();
  for (const [a] of foldU) {
    const members = [a];
    let d = foldU.find(([x]) => x === a)[1];
    while (d !== a) {
      members.push(d);
      d = foldU.find(([x]) => x === d)[1];
    }
    orbit.set(a, members.sort((x, y) => x - y));
  }
  for (const [a, members] of orbit) {
    const x = String.fromCodePoint(a);
    const targets = members.filter((y) => !new RegExp(`[\\q{${escapeCp(a)}}--${escapeCp(y)}]`, 'iv').test(x));
    if (targets.length !== 1) throw new Error(`no unique simple case folding for ${a.toString(16)}`);
    if (targets[0] !== a) scf.push([a, targets[0]]);
  }
}
log(`simple case folding: ${scf.length} entries (${elapsed()})`);

// Non-u: every BMP code unit, compared with the spec's Canonicalize.
let units = '';
for (let u = 0; u <= 0xffff; u++) units += String.fromCharCode(u);
function canonicalize(u) {
  const s = String.fromCharCode(u).toUpperCase();
  if (s.length !== 1) return u;
  const cu = s.charCodeAt(0);
  if (u >= 128 && cu < 128) return u;
  return cu;
}
const foldNonU = (() => {
  const orbitOf = new Map();
  for (let u = 0; u <= 0xffff; u++) {
    const s = String.fromCharCode(u);
    if (s.toUpperCase() === s && s.toLowerCase() === s && canonicalize(u) === u && !candidates.has(u)) continue;
    const re = new RegExp(`[\\u${u.toString(16).padStart(4, '0')}]`, 'gi');
    const cls = [];
    let m;
    while ((m = re.exec(units))) cls.push(m.index);
    const spec = [];
    // Spec: same Canonicalize value (computed over the class members found, and over u).
    if (cls.length < 2) continue;
    for (const d of cls) if (canonicalize(d) === canonicalize(u)) spec.push(d);
    if (!same(spec, cls)) throw new Error(`non-u case folding differs from the spec at ${u.toString(16)}`);
    for (const d of cls) orbitOf.set(d, cls);
  }
  const links = [];
  for (const [d, cls] of orbitOf) links.push([d, cls[(cls.indexOf(d) + 1) % cls.length]]);
  links.sort((a, b) => a[0] - b[0]);
  return links;
})();
// Exhaustive check of the non-u relation: any unit u maps to canonicalize(u); the classes
// built above must cover every pair with the same canonical value.
{
  const byCanon = new Map();
  for (let u = 0; u <= 0xffff; u++) {
    const k = canonicalize(u);
    if (!byCanon.has(k)) byCanon.set(k, []);
    byCanon.get(k).push(u);
  }
  let pairs = 0;
  for (const members of byCanon.values()) if (members.length > 1) pairs += members.length;
  if (pairs !== foldNonU.length) throw new Error(`non-u orbits: ${pairs} members by spec, ${foldNonU.length} found`);
}
log(`non-u orbits: ${foldNonU.length} members (${elapsed()})`);

// ---------------------------------------------------------------------------------------
// 4. Properties of strings, from ICU's uemoji.icu inside the node binary.

function findIcuItem(name) {
  // The ICU common data file: a header, then a TOC of (name offset, data offset) pairs.
  const needle = Buffer.from('icudt78l/' + name + '\0', 'latin1');
  const at = binary.indexOf(needle);
  if (at < 0) throw new Error(`ICU item ${name} not found`);
  // Find the start of the data package: scan backwards for the TOC whose entry names it.
  for (let base = at & ~15; base >= at - 0x100000 && base >= 0; base -= 16) {
    // A common data file starts with headerSize (u16), 0xda, 0x27.
    if (binary[base + 2] !== 0xda || binary[base + 3] !== 0x27) continue;
    const headerSize = binary.readUInt16LE(base);
    const toc = base + headerSize;
    const count = binary.readUInt32LE(toc);
    if (count < 10 || count > 10000) continue;
    for (let i = 0; i < count; i++) {
      const nameOff = binary.readUInt32LE(toc + 4 + i * 8);
      const dataOff = binary.readUInt32LE(toc + 8 + i * 8);
      if (toc + nameOff === at) {
        const end = i + 1 < count ? toc + binary.readUInt32LE(toc + 8 + (i + 1) * 8) : binary.length;
        return binary.subarray(toc + dataOff, end);
      }
    }
  }
  throw new Error(`ICU TOC for ${name} not found`);
}

/** Enumerates all strings in an ICU UCharsTrie (see unicode/ucharstrie.h). */
function ucharsTrieStrings(u16) {
  // Constants from ucharstrie.h.
  const kMaxBranchLinearSubNodeLength = 5;
  const kMinLinearMatch = 0x30;
  const kMaxLinearMatchLength = 0x10;
  const kMinValueLead = kMinLinearMatch + kMaxLinearMatchLength; // 0x40
  const kNodeTypeMask = kMinValueLead - 1; // 0x3f
  const kValueIsFinal = 0x8000;
  const kMaxOneUnitValue = 0x3fff;
  const kMinTwoUnitValueLead = kMaxOneUnitValue + 1;
  const kThreeUnitValueLead = 0x7fff;
  const kMaxOneUnitNodeValue = 0xff;
  const kMinTwoUnitNodeValueLead = 0x4040;
  const kThreeUnitNodeValueLead = 0x7fc0;
  const kMaxOneUnitDelta = 0xfbff;
  const kMinTwoUnitDeltaLead = kMaxOneUnitDelta + 1;
  const kThreeUnitDeltaLead = 0xffff;

  const out = [];
  const skipValue = (pos, leadUnit) => {
    if (leadUnit >= kMinTwoUnitValueLead) {
      if (leadUnit < kThreeUnitValueLead) pos++;
      else pos += 2;
    }
    return pos;
  };
  const skipNodeValue = (pos, leadUnit) => {
    if (leadUnit >= kMinTwoUnitNodeValueLead) {
      if (leadUnit < kThreeUnitNodeValueLead) pos++;
      else pos += 2;
    }
    return pos;
  };
  const jumpByDelta = (pos) => {
    let delta = u16[pos++];
    if (delta >= kMinTwoUnitDeltaLead) {
      if (delta === kThreeUnitDeltaLead) {
        delta = (u16[pos] << 16) | u16[pos + 1];
        pos += 2;
      } else {
        delta = ((delta - kMinTwoUnitDeltaLead) << 16) | u16[pos++];
      }
    }
    return pos + delta;
  };
  const skipDelta = (pos) => {
    const delta = u16[pos++];
    if (delta >= kMinTwoUnitDeltaLead) {
      if (delta === kThreeUnitDeltaLead) pos += 2;
      else pos++;
    }
    return pos;
  };
  // Depth-first walk; `prefix` is an array of code units.
  const walk = (pos, prefix) => {
    let node = u16[pos++];
    for (;;) {
      if (node >= kMinValueLead) {
        // A node with a value: either a final value or an intermediate value plus a node.
        if (node & kValueIsFinal) {
          out.push(String.fromCharCode(...prefix));
          return;
        }
        out.push(String.fromCharCode(...prefix));
        pos = skipNodeValue(pos, node);
        node &= kNodeTypeMask;
      }
      if (node < kMinLinearMatch) {
        // Branch node.
        let length = node;
        if (length === 0) length = u16[pos++];
        length++;
        walkBranch(pos, length, prefix);
        return;
      }
      // Linear match node.
      const len = node - kMinLinearMatch + 1;
      for (let i = 0; i < len; i++) prefix = [...prefix, u16[pos + i]];
      pos += len;
      node = u16[pos++];
    }
  };
  const walkBranch = (pos, length, prefix) => {
    while (length > kMaxBranchLinearSubNodeLength) {
      // Binary search node: unit, then delta to the "less than" half.
      pos++; // comparison unit
      walkBranch(jumpByDelta(pos), length >> 1, prefix);
      length = length - (length >> 1);
      pos = skipDelta(pos);
    }
    // Linear list of (unit, value-or-delta) pairs; the last unit has no value.
    for (; length > 1; length--) {
      const unit = u16[pos++];
      const node = u16[pos++];
      const isFinal = (node & kValueIsFinal) !== 0;
      let value = node & 0x7fff;
      let next = pos;
      if (value >= kMinTwoUnitValueLead) {
        if (value < kThreeUnitValueLead) {
          value = ((value - kMinTwoUnitValueLead) << 16) | u16[next++];
        } else {
          value = (u16[next] << 16) | u16[next + 1];
          next += 2;
        }
      }
      if (isFinal) {
        out.push(String.fromCharCode(...prefix, unit));
      } else {
        walk(next + value, [...prefix, unit]);
      }
      pos = skipValue(pos, node & 0x7fff);
    }
    const unit = u16[pos++];
    walk(pos, [...prefix, unit]);
  };
  walk(0, []);
  return out;
}

const stringProps = []; // [name, [strings...]]
{
  const item = findIcuItem('uemoji.icu');
  const headerSize = item.readUInt16LE(0);
  const data = item.subarray(headerSize);
  // indexes (int32): IX_CPTRIE_OFFSET=0, …, IX_BASIC_EMOJI_TRIE_OFFSET=4,
  // IX_EMOJI_KEYCAP_SEQUENCE_TRIE_OFFSET=5, IX_RGI_EMOJI_MODIFIER_SEQUENCE_TRIE_OFFSET=6,
  // IX_RGI_EMOJI_FLAG_SEQUENCE_TRIE_OFFSET=7, IX_RGI_EMOJI_TAG_SEQUENCE_TRIE_OFFSET=8,
  // IX_RGI_EMOJI_ZWJ_SEQUENCE_TRIE_OFFSET=9, …, IX_TOTAL_SIZE at 11 or later.
  const ix = (i) => data.readInt32LE(i * 4);
  const trieNames = [
    'Basic_Emoji',
    'Emoji_Keycap_Sequence',
    'RGI_Emoji_Modifier_Sequence',
    'RGI_Emoji_Flag_Sequence',
    'RGI_Emoji_Tag_Sequence',
    'RGI_Emoji_ZWJ_Sequence',
  ];
  const perName = new Map();
  for (let k = 0; k < trieNames.length; k++) {
    const start = ix(4 + k);
    const end = ix(5 + k);
    const bytes = data.subarray(start, end);
    const u16 = new Uint16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~1)));
    const strs = ucharsTrieStrings(u16).filter((s) => [...s].length > 1);
    perName.set(trieNames[k], strs);
  }
  const rgi = [...new Set([...perName.values()].flat())];
  perName.set('RGI_Emoji', rgi);
  for (const n of loneV) {
    if (!perName.has(n)) throw new Error(`no string data for ${n}`);
    const strs = [...perName.get(n)].sort();
    const re = new RegExp(`^\\p{${n}}$`, 'v');
    for (const s of strs) if (!re.test(s)) throw new Error(`V8 rejects string ${JSON.stringify(s)} of ${n}`);
    // Every string's proper prefixes that V8 also matches are either in the set or code points.
    stringProps.push([n, intern(setOf(`[\\p{${n}}&&\\p{Any}]`, 'v')), strs]);
  }
  // Completeness checks against V8, for the families that can be enumerated:
  // every proper prefix of a string (the trie walk must not skip intermediate values),
  // every code point followed by U+FE0F (Basic_Emoji strings), every keycap, every pair of
  // regional indicators (flags), every modifier base with every modifier.
  const rgiSet = new Set(perName.get('RGI_Emoji'));
  const rgiRe = /^\p{RGI_Emoji}$/v;
  const probe = (str) => {
    if (rgiRe.test(str) !== (rgiSet.has(str) || [...str].length === 1 && rgiRe.test(str))) {
      throw new Error(`string set incomplete or wrong at ${JSON.stringify(str)}`);
    }
  };
  for (const str of rgiSet) {
    const cps = [...str];
    for (let k = 2; k < cps.length; k++) probe(cps.slice(0, k).join(''));
  }
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    probe(String.fromCodePoint(c) + '\ufe0f');
  }
  for (const k of '0123456789#*') probe(k + '\ufe0f\u20e3');
  for (let a = 0x1f1e6; a <= 0x1f1ff; a++) {
    for (let b = 0x1f1e6; b <= 0x1f1ff; b++) probe(String.fromCodePoint(a, b));
  }
  const bases = setOf('\\p{Emoji_Modifier_Base}');
  for (const [a, b] of bases) {
    for (let c = a; c <= b; c++) {
      for (let m = 0x1f3fb; m <= 0x1f3ff; m++) probe(String.fromCodePoint(c, m));
    }
  }
  log(`string properties: ${stringProps.map(([n, , s]) => `${n}=${s.length}`).join(' ')} (${elapsed()})`);
}

// ---------------------------------------------------------------------------------------
// 5. Output.

function varint(n, out) {
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
}
const bytes = [];
const setDescs = [];
for (const r of sets) {
  const offset = bytes.length;
  let next = 0;
  for (const [a, b] of r) {
    varint(a - next, bytes);
    varint(b - a, bytes);
    next = b + 1;
  }
  setDescs.push([offset, r.length]);
}
function byteString(arr) {
  let s = '';
  let line = '';
  for (const b of arr) {
    let piece;
    // No space: a line continuation would eat a leading one.
    if (b > 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c) piece = String.fromCharCode(b);
    else piece = `\\x${b.toString(16).padStart(2, '0')}`;
    line += piece;
    if (line.length >= 96) {
      s += `${line}\\\n`;
      line = '';
    }
  }
  return s + line;
}
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
let o = '';
o += '// @generated by crates/sfq-regex/tools/gen_unicode.mjs from Node ' + process.version;
o += ` (V8 ${process.versions.v8}, ICU ${process.versions.icu}, Unicode ${process.versions.unicode}).\n`;
o += '// Do not edit: re-run the generator (see its header) and commit the result.\n\n';
o += 'use super::{LoneKind, SetId};\n\n';
o += `/// The Unicode version of the data.\npub(crate) const UNICODE_VERSION: &str = "${process.versions.unicode}";\n\n`;
o += '/// All code point sets, each a list of ranges encoded as LEB128 varints: for every range,\n';
o += '/// the gap since the end of the previous range plus one, then the range length minus one.\n';
o += `pub(crate) static RANGE_DATA: &[u8] = b"\\\n${byteString(bytes)}";\n\n`;
o += '/// (byte offset into `RANGE_DATA`, number of ranges) of each set; a `SetId` indexes this.\n';
o += `pub(crate) static SETS: &[(u32, u32)] = &[\n`;
for (let i = 0; i < setDescs.length; i += 6) {
  o += '    ' + setDescs.slice(i, i + 6).map(([a, b]) => `(${a}, ${b})`).join(', ') + ',\n';
}
o += '];\n\n';
o += '/// Names accepted alone in `\\p{…}` (general category values, `Any`/`ASCII`/`Assigned`,\n';
o += '/// binary properties, properties of strings), sorted for binary search.\n';
o += 'pub(crate) static LONE_NAMES: &[(&str, LoneKind, SetId)] = &[\n';
const loneAll = [...lone.map(([n, k, s]) => [n, k, s])];
for (const [n, s] of stringProps.map(([n, s]) => [n, s])) loneAll.push([n, 'Strings', s]);
loneAll.sort((a, b) => cmp(a[0], b[0]));
for (const [n, k, s] of loneAll) o += `    ("${n}", LoneKind::${k}, SetId(${s})),\n`;
o += '];\n\n';
o += '/// Values accepted in `\\p{General_Category=…}` / `\\p{gc=…}`, sorted.\n';
o += 'pub(crate) static GC_NAMES: &[(&str, SetId)] = &[\n';
for (const n of [...gcNames].sort(cmp)) o += `    ("${n}", SetId(${gcSet.get(n)})),\n`;
o += '];\n\n';
o += '/// Values accepted in `\\p{Script=…}` and `\\p{Script_Extensions=…}`: (name, sc set, scx set).\n';
o += 'pub(crate) static SCRIPT_NAMES: &[(&str, SetId, SetId)] = &[\n';
for (const [n, a, b] of [...scripts].sort((x, y) => cmp(x[0], y[0]))) o += `    ("${n}", SetId(${a}), SetId(${b})),\n`;
o += '];\n\n';
o += '/// Case-insensitive equivalence under u/v (simple case folding as V8 applies it): each\n';
o += '/// member of a class of two or more code points, linked to the next member (cyclic).\n';
o += 'pub(crate) static FOLD_U: &[(u32, u32)] = &[\n';
for (let i = 0; i < foldU.length; i += 6) {
  o += '    ' + foldU.slice(i, i + 6).map(([a, b]) => `(0x${a.toString(16)}, 0x${b.toString(16)})`).join(', ') + ',\n';
}
o += '];\n\n';
o += '/// Simple case folding (ICU u_foldCase, measured through V8): (c, scf(c)) where they differ.\n';
o += 'pub(crate) static SIMPLE_FOLD: &[(u32, u32)] = &[\n';
for (let i = 0; i < scf.length; i += 6) {
  o += '    ' + scf.slice(i, i + 6).map(([a, b]) => `(0x${a.toString(16)}, 0x${b.toString(16)})`).join(', ') + ',\n';
}
o += '];\n\n';
o += '/// Case-insensitive equivalence without u/v (Canonicalize by toUpperCase over code units),\n';
o += '/// in the same cyclic form.\n';
o += 'pub(crate) static FOLD_NON_U: &[(u16, u16)] = &[\n';
for (let i = 0; i < foldNonU.length; i += 6) {
  o += '    ' + foldNonU.slice(i, i + 6).map(([a, b]) => `(0x${a.toString(16)}, 0x${b.toString(16)})`).join(', ') + ',\n';
}
o += '];\n\n';
o += '/// The strings (two or more code points) of each property of strings, by property name.\n';
o += '/// The strings are separated by a space (which no string contains).\n';
o += 'pub(crate) static STRING_PROPERTIES: &[(&str, &str)] = &[\n';
for (const [n, , strs] of [...stringProps].sort((x, y) => cmp(x[0], y[0]))) {
  if (n === 'RGI_Emoji') {
    o += `    ("${n}", ""), // the union of the others\n`;
    continue;
  }
  o += `    (\n        "${n}",\n        "`;
  let line = '';
  for (const [i, s] of strs.entries()) {
    const esc = [...s].map((ch) => `\\u{${ch.codePointAt(0).toString(16)}}`).join('');
    // The separator ends a piece: a line continuation would eat a leading space.
    line += esc + (i + 1 < strs.length ? ' ' : '');
    if (line.length > 90) {
      o += line + '\\\n         ';
      line = '';
    }
  }
  o += line + '",\n    ),\n';
}
o += '];\n';
process.stdout.write(o);
log(`${sets.length} sets, ${sets.reduce((a, s) => a + s.length, 0)} ranges, ${bytes.length} bytes of range data (${elapsed()})`);
