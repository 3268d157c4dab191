//! Unicode data as V8 sees it: property sets and names, case folding, identifier
//! characters. The data is generated from V8 itself by `tools/gen_unicode.mjs`.

#[rustfmt::skip] // generated: kept byte for byte as tools/gen_unicode.mjs writes it
mod tables;

use std::sync::OnceLock;

use crate::charset::{CharSet, MAX_CODE_UNIT};

/// The Unicode version of the tables (V8's, measured).
pub const DATA_VERSION: &str = tables::UNICODE_VERSION;

/// Index of a set in the generated tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SetId(pub(crate) u16);

/// What a name accepted alone in `\p{…}` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LoneKind {
    /// A General_Category value (`L`, `Letter`, `Lu` …).
    GeneralCategory,
    /// `Any`, `ASCII` or `Assigned`.
    Special,
    /// A binary property (`Alphabetic`, `Emoji` …).
    Binary,
    /// A property of strings (`RGI_Emoji` …), valid only with `v`.
    Strings,
}

/// Decodes a set of the generated tables.
pub(crate) fn set(id: SetId) -> CharSet {
    let Some(&(offset, count)) = tables::SETS.get(usize::from(id.0)) else {
        return CharSet::new();
    };
    let data = tables::RANGE_DATA;
    let mut pos = offset as usize;
    let mut read = || {
        let mut value = 0u32;
        let mut shift = 0;
        while let Some(&b) = data.get(pos) {
            pos += 1;
            value |= u32::from(b & 0x7F) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        value
    };
    let mut ranges = Vec::with_capacity(count as usize);
    let mut next = 0u32;
    for _ in 0..count {
        let lo = next + read();
        let hi = lo + read();
        ranges.push((lo, hi));
        next = hi + 1;
    }
    CharSet::from_ranges(ranges)
}

fn find<'t, T>(table: &'t [(&'static str, T)], name: &str) -> Option<&'t T> {
    table.binary_search_by(|(n, _)| (*n).cmp(name)).ok().map(|i| &table[i].1)
}

/// Looks up a name used alone, `\p{name}`.
pub(crate) fn lone(name: &str) -> Option<(LoneKind, SetId)> {
    let i = tables::LONE_NAMES.binary_search_by(|(n, _, _)| (*n).cmp(name)).ok()?;
    let (_, kind, id) = tables::LONE_NAMES[i];
    Some((kind, id))
}

/// Looks up a General_Category value, `\p{gc=name}`.
pub(crate) fn general_category(name: &str) -> Option<SetId> {
    find(tables::GC_NAMES, name).copied()
}

/// Looks up a Script value: (Script set, Script_Extensions set).
pub(crate) fn script(name: &str) -> Option<(SetId, SetId)> {
    let i = tables::SCRIPT_NAMES.binary_search_by(|(n, _, _)| (*n).cmp(name)).ok()?;
    let (_, sc, scx) = tables::SCRIPT_NAMES[i];
    Some((sc, scx))
}

/// The strings of two or more code points of a property of strings.
pub(crate) fn property_strings(name: &str) -> Vec<Vec<u32>> {
    let split = |s: &str| -> Vec<Vec<u32>> {
        s.split(' ').filter(|t| !t.is_empty()).map(|t| t.chars().map(u32::from).collect()).collect()
    };
    if name == "RGI_Emoji" {
        return tables::STRING_PROPERTIES
            .iter()
            .filter(|(n, _)| *n != "RGI_Emoji")
            .flat_map(|(_, s)| split(s))
            .collect();
    }
    find(tables::STRING_PROPERTIES, name).map(|s| split(s)).unwrap_or_default()
}

/// Every `\p{…}` body accepted with `u` (properties of strings, which need `v`, are not
/// included): lone names, then `gc=`/`General_Category=`, `sc=`/`Script=` and
/// `scx=`/`Script_Extensions=` with each value.
pub(crate) fn property_names() -> Vec<String> {
    let mut out: Vec<String> = tables::LONE_NAMES
        .iter()
        .filter(|(_, kind, _)| *kind != LoneKind::Strings)
        .map(|(n, _, _)| n.to_string())
        .collect();
    for (n, _) in tables::GC_NAMES {
        out.push(format!("gc={n}"));
        out.push(format!("General_Category={n}"));
    }
    for (n, _, _) in tables::SCRIPT_NAMES {
        for p in ["sc", "Script", "scx", "Script_Extensions"] {
            out.push(format!("{p}={n}"));
        }
    }
    out
}

/// The names of the properties of strings (valid in `\p{…}` with `v` only).
pub(crate) fn string_property_names() -> Vec<String> {
    tables::LONE_NAMES
        .iter()
        .filter(|(_, kind, _)| *kind == LoneKind::Strings)
        .map(|(n, _, _)| n.to_string())
        .collect()
}

fn lone_set(name: &str) -> CharSet {
    lone(name).map(|(_, id)| set(id)).unwrap_or_default()
}

/// Characters that may start a group name: ID_Start, `$` and `_` (measured against V8).
pub(crate) fn is_id_start(c: u32) -> bool {
    static SET: OnceLock<CharSet> = OnceLock::new();
    if c < 0x80 {
        return (c as u8).is_ascii_alphabetic() || c == u32::from(b'$') || c == u32::from(b'_');
    }
    SET.get_or_init(|| lone_set("ID_Start")).contains(c)
}

/// Characters that may continue a group name: ID_Continue, `$`, ZWNJ and ZWJ.
pub(crate) fn is_id_continue(c: u32) -> bool {
    static SET: OnceLock<CharSet> = OnceLock::new();
    if c < 0x80 {
        return (c as u8).is_ascii_alphanumeric() || c == u32::from(b'$') || c == u32::from(b'_');
    }
    c == 0x200C || c == 0x200D || SET.get_or_init(|| lone_set("ID_Continue")).contains(c)
}

/// The case-insensitive equivalents of `c` (including `c`): simple case folding as V8
/// applies it under `u`/`v` (`unicode`), or the toUpperCase-based Canonicalize over code
/// units without.
pub(crate) fn case_class(c: u32, unicode: bool) -> CharSet {
    let mut out = CharSet::single(c);
    for_orbit(c, unicode, |d| out.add(d));
    out
}

/// Calls `f` on every other member of the case orbit of `c`.
fn for_orbit(c: u32, unicode: bool, mut f: impl FnMut(u32)) {
    if unicode {
        let t = tables::FOLD_U;
        if let Ok(i) = t.binary_search_by_key(&c, |&(a, _)| a) {
            let mut d = t[i].1;
            let mut guard = 0;
            while d != c && guard < 8 {
                f(d);
                d = t.binary_search_by_key(&d, |&(a, _)| a).map(|j| t[j].1).unwrap_or(c);
                guard += 1;
            }
        }
    } else {
        let t = tables::FOLD_NON_U;
        let Ok(c16) = u16::try_from(c) else { return };
        if let Ok(i) = t.binary_search_by_key(&c16, |&(a, _)| a) {
            let mut d = t[i].1;
            let mut guard = 0;
            while d != c16 && guard < 8 {
                f(u32::from(d));
                d = t.binary_search_by_key(&d, |&(a, _)| a).map(|j| t[j].1).unwrap_or(c16);
                guard += 1;
            }
        }
    }
}

/// Simple case folding of one code point (ICU's `u_foldCase`), as V8 applies it to the
/// characters of `\q{…}` under `vi`.
pub(crate) fn simple_fold(c: u32) -> u32 {
    let t = tables::SIMPLE_FOLD;
    match t.binary_search_by_key(&c, |&(a, _)| a) {
        Ok(i) => t[i].1,
        Err(_) => c,
    }
}

/// Adds to `set` every character case-insensitively equivalent to one of its members.
pub(crate) fn close_over_case(set: &CharSet, unicode: bool) -> CharSet {
    let mut extra = Vec::new();
    if unicode {
        let t = tables::FOLD_U;
        for &(lo, hi) in set.ranges() {
            let start = t.partition_point(|&(a, _)| a < lo);
            for &(a, _) in t[start..].iter().take_while(|&&(a, _)| a <= hi) {
                for_orbit(a, true, |d| extra.push((d, d)));
            }
        }
    } else {
        let t = tables::FOLD_NON_U;
        for &(lo, hi) in set.ranges() {
            if lo > MAX_CODE_UNIT {
                break;
            }
            let start = t.partition_point(|&(a, _)| u32::from(a) < lo);
            for &(a, _) in t[start..].iter().take_while(|&&(a, _)| u32::from(a) <= hi) {
                for_orbit(u32::from(a), false, |d| extra.push((d, d)));
            }
        }
    }
    if extra.is_empty() {
        return set.clone();
    }
    set.union(&CharSet::from_ranges(extra))
}

/// A canonical representative of the case class of `c` (the smallest member), for
/// case-insensitive comparison of two characters.
#[inline]
pub(crate) fn canonical(c: u32, unicode: bool) -> u32 {
    if c < 0x80 {
        return if (c as u8).is_ascii_lowercase() { c - 32 } else { c };
    }
    canonical_slow(c, unicode)
}

fn canonical_slow(c: u32, unicode: bool) -> u32 {
    if unicode {
        static TABLE: OnceLock<Vec<(u32, u32)>> = OnceLock::new();
        let t = TABLE.get_or_init(|| canonical_table(true));
        match t.binary_search_by_key(&c, |&(a, _)| a) {
            Ok(i) => t[i].1,
            Err(_) => c,
        }
    } else {
        static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
        let t = TABLE.get_or_init(|| {
            let mut v: Vec<u16> = (0..=0xFFFFu32).map(|u| u as u16).collect();
            for (a, m) in canonical_table(false) {
                v[a as usize] = m as u16;
            }
            v
        });
        match t.get(c as usize) {
            Some(&m) => u32::from(m),
            None => c,
        }
    }
}

/// (member, representative) for every member of a case orbit. The representative of an
/// orbit containing ASCII letters is the upper-case ASCII letter, as the fast path uses.
fn canonical_table(unicode: bool) -> Vec<(u32, u32)> {
    let members: Vec<u32> = if unicode {
        tables::FOLD_U.iter().map(|&(a, _)| a).collect()
    } else {
        tables::FOLD_NON_U.iter().map(|&(a, _)| u32::from(a)).collect()
    };
    let mut out = Vec::with_capacity(members.len());
    for a in members {
        let class = case_class(a, unicode);
        let rep = class
            .iter()
            .find(|&d| (u32::from(b'A')..=u32::from(b'Z')).contains(&d))
            .or_else(|| class.iter().next())
            .unwrap_or(a);
        out.push((a, rep));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn property_lookup() {
        let (kind, id) = lone("Lu").unwrap();
        assert_eq!(kind, LoneKind::GeneralCategory);
        let lu = set(id);
        assert!(lu.contains('A' as u32) && !lu.contains('a' as u32));
        assert_eq!(general_category("Lu"), Some(id));
        assert!(lone("Greek").is_none());
        assert!(lone("letter").is_none());
        let (sc, scx) = script("Greek").unwrap();
        assert!(set(sc).contains(0x3A9));
        assert!(set(scx).contains(0x342), "U+0342 has scx Greek");
        assert!(!set(sc).contains(0x342));
        assert_eq!(lone("RGI_Emoji").unwrap().0, LoneKind::Strings);
        assert!(property_strings("RGI_Emoji_Flag_Sequence").len() > 250);
        assert_eq!(property_strings("Emoji_Keycap_Sequence").len(), 12);
        assert_eq!(lone("Any").map(|(_, id)| set(id).len()), Some(0x110000));
    }

    #[test]
    fn case_classes() {
        let k = |c: char, u: bool| case_class(c as u32, u).iter().collect::<Vec<_>>();
        assert_eq!(k('k', true), vec![0x4B, 0x6B, 0x212A]);
        assert_eq!(k('k', false), vec![0x4B, 0x6B]);
        assert_eq!(k('s', true), vec![0x53, 0x73, 0x17F]);
        assert_eq!(k('ß', false), vec![0xDF]);
        assert_eq!(k('ß', true), vec![0xDF, 0x1E9E]);
        assert_eq!(canonical('s' as u32, true), canonical(0x17F, true));
        assert_ne!(canonical('s' as u32, false), canonical(0x17F, false));
        assert_eq!(simple_fold(0x17F), 's' as u32);
        assert_eq!(simple_fold('K' as u32), 'k' as u32);
        assert_eq!(simple_fold(0x13A0), 0x13A0);
        assert_eq!(simple_fold(0xAB70), 0x13A0);
        assert_eq!(canonical('σ' as u32, false), canonical('ς' as u32, false));
        let closed = close_over_case(&CharSet::range('a' as u32, 'z' as u32), true);
        assert!(closed.contains('Q' as u32) && closed.contains(0x212A) && closed.contains(0x17F));
        let closed = close_over_case(&CharSet::range('a' as u32, 'z' as u32), false);
        assert!(closed.contains('Q' as u32) && !closed.contains(0x212A));
    }

    #[test]
    fn identifiers() {
        assert!(is_id_start('$' as u32) && is_id_start('_' as u32) && is_id_start('é' as u32));
        assert!(!is_id_start('1' as u32) && is_id_continue('1' as u32));
        assert!(is_id_continue(0x200D) && !is_id_start(0x200D));
        assert!(!is_id_continue('>' as u32) && !is_id_continue('\\' as u32));
    }
}
