//! What the tree says about where a match can start and what it must contain, used to
//! skip start positions (and whole texts) without running the VM.

use memchr::memmem::Finder;

use crate::ast::{Assertion, CharSet, Node, Pattern};
use crate::parser::{is_lead, is_trail};
use crate::program::ClassSet;

/// Facts about every match of a pattern.
#[derive(Clone, Debug)]
pub(crate) struct Prefilter {
    /// Every match starts at position 0 (`^` without `m` first in every alternative).
    pub(crate) anchored: bool,
    /// The code units a match can start with; `None` when any position may match
    /// (the pattern can match empty, or starts with anything).
    pub(crate) first: Option<ClassSet>,
    /// The same, when it is at most three units (searched with `memchr`).
    pub(crate) first_units: Option<Vec<u16>>,
    /// Code units every match starts with (possibly empty), and their finder.
    pub(crate) prefix: Vec<u16>,
    prefix_finder: Option<Finder<'static>>,
    /// Code units every match contains somewhere (possibly empty), and their finder.
    required: Vec<u16>,
    required_finder: Option<Finder<'static>>,
    /// Every match starts with `\b` and a word character: only starts of words can match.
    pub(crate) word_start: bool,
    /// A literal every match holds a bounded distance after its start (`(.)a\1`:
    /// `a`, 1 or 2 units in).
    pub(crate) inner: Option<InnerLiteral>,
    /// The pattern starts with a positive lookbehind whose body ends with one of these
    /// (at most three) code units: only positions right after one can match.
    pub(crate) behind_units: Option<Vec<u16>>,
}

/// A literal found `lo..=hi` code units after the start of every match (`lo` ≥ 1), or
/// before it (negative: read by a lookbehind).
#[derive(Clone, Debug)]
pub(crate) struct InnerLiteral {
    finder: Finder<'static>,
    pub(crate) lo: isize,
    pub(crate) hi: isize,
}

impl InnerLiteral {
    /// The next position at or after `from` where the literal occurs.
    pub(crate) fn next(&self, text: &[u16], from: usize) -> Option<usize> {
        find_with(&self.finder, text, from)
    }
}

impl Prefilter {
    pub(crate) fn new(pattern: &Pattern) -> Prefilter {
        let unicode = pattern.unicode_mode();
        let root = &pattern.root;
        let anchored = starts_anchored(root);
        let (mut set, mut empty) = first_units(root);
        let leading = match root {
            Node::Concat(v) => v.first(),
            other => Some(other),
        };
        if let Some(Node::Lookaround(l)) = leading
            && !l.behind
            && !l.negative
        {
            // A leading lookahead that needs a character (`(?=(abc))`, `(?=\w)`): the unit
            // at a match's start is one its body can start with, even for an empty match.
            let (ahead, ahead_empty) = first_units(&l.node);
            if !ahead_empty {
                set = if empty { ahead } else { set.intersect(&ahead) };
                empty = false;
            }
        }
        let first = if empty || set.ranges() == [(0, 0xFFFF)] { None } else { Some(set) };
        let first_units =
            first.as_ref().filter(|s| s.len() <= 3).map(|s| s.iter().map(|u| u as u16).collect());
        let mut prefix = Vec::new();
        literal_prefix(root, unicode, &mut prefix);
        let mut runs = Vec::new();
        let mut run = Vec::new();
        required_runs(root, unicode, &mut run, &mut runs);
        runs.push(run);
        let required = runs.into_iter().max_by_key(Vec::len).unwrap_or_default();
        let finder = |units: &[u16]| {
            (!units.is_empty()).then(|| Finder::new(&unit_bytes(units)).into_owned())
        };
        let words = crate::ast::word_chars(pattern.flags.ignore_case && unicode);
        let word_start = starts_with_boundary(root)
            && first.as_ref().is_some_and(|f| f.subtract(&words).is_empty());
        let inner = match inner_literal(root, unicode, 0, 0) {
            // A literal prefix is searched for directly.
            _ if !prefix.is_empty() => None,
            Walk::Found(units, lo, hi) if hi - lo <= 8 => Some(InnerLiteral {
                finder: Finder::new(&unit_bytes(&units)).into_owned(),
                lo: lo as isize,
                hi: hi as isize,
            }),
            Walk::Behind(units, lo, hi) if hi - lo <= 8 => {
                Some(InnerLiteral { finder: Finder::new(&unit_bytes(&units)).into_owned(), lo, hi })
            }
            _ => None,
        };
        let behind_units = match leading {
            Some(Node::Lookaround(l)) if l.behind && !l.negative => last_units(&l.node)
                .filter(|s| {
                    s.len() <= 3 && s.iter().all(|c| c <= 0xFFFF && !is_lead(c) && !is_trail(c))
                })
                .map(|s| s.iter().map(|c| c as u16).collect()),
            _ => None,
        };
        Prefilter {
            inner,
            behind_units,
            anchored,
            first: first.as_ref().map(ClassSet::new),
            first_units,
            prefix_finder: finder(&prefix),
            prefix,
            required_finder: finder(&required),
            required,
            word_start,
        }
    }

    /// Whether the text from `from` on contains the required literal (always true when
    /// there is none).
    pub(crate) fn has_required(&self, text: &[u16], from: usize) -> bool {
        match &self.required_finder {
            Some(f) if !self.required.is_empty() => find_with(f, text, from).is_some(),
            _ => true,
        }
    }

    /// The next position at or after `from` where the literal prefix occurs.
    pub(crate) fn next_prefix(&self, text: &[u16], from: usize) -> Option<usize> {
        find_with(self.prefix_finder.as_ref()?, text, from)
    }
}

/// The bytes of code units in memory order.
fn unit_bytes(units: &[u16]) -> Vec<u8> {
    units.iter().flat_map(|u| u.to_ne_bytes()).collect()
}

/// The text as bytes, in memory order.
pub(crate) fn as_bytes(units: &[u16]) -> &[u8] {
    // SAFETY: the byte slice covers exactly the memory of `units` (2 bytes per unit) for
    // the same lifetime; u8 has alignment 1 and every byte of a u16 is an initialized u8.
    unsafe { std::slice::from_raw_parts(units.as_ptr().cast::<u8>(), units.len() * 2) }
}

/// The first unit position at or after `from` where the finder's units occur.
fn find_with(f: &Finder<'_>, text: &[u16], from: usize) -> Option<usize> {
    let bytes = as_bytes(text);
    let mut at = from * 2;
    while at <= bytes.len() {
        let hit = at + f.find(&bytes[at..])?;
        if hit.is_multiple_of(2) {
            return Some(hit / 2);
        }
        // A match across two units: look again one byte further.
        at = hit + 1;
    }
    None
}

/// The first position at or after `from` whose unit is one of `units` (1 to 3).
#[inline]
pub(crate) fn find_first(units: &[u16], text: &[u16], from: usize) -> Option<usize> {
    let bytes = as_bytes(text);
    let low = |u: u16| u.to_ne_bytes()[0];
    let mut at = from * 2;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let hit = at
            + match *units {
                [a] => memchr::memchr(low(a), rest),
                [a, b] => memchr::memchr2(low(a), low(b), rest),
                [a, b, c] => memchr::memchr3(low(a), low(b), low(c), rest),
                _ => return None,
            }?;
        if hit.is_multiple_of(2) && units.contains(&text[hit / 2]) {
            return Some(hit / 2);
        }
        at = hit + 1;
    }
    None
}

/// Whether every match starts with `\b` (before anything that consumes).
fn starts_with_boundary(node: &Node) -> bool {
    match node {
        Node::Assertion(Assertion::WordBoundary) => true,
        Node::Concat(v) => v.first().is_some_and(starts_with_boundary),
        Node::Capture(c) => starts_with_boundary(&c.node),
        _ => false,
    }
}

fn starts_anchored(node: &Node) -> bool {
    match node {
        Node::Assertion(Assertion::StartOfInput) => true,
        Node::Concat(v) => v.first().is_some_and(starts_anchored),
        Node::Alternation(v) => v.iter().all(starts_anchored),
        Node::Capture(c) => starts_anchored(&c.node),
        _ => false,
    }
}

/// The code units of a character (`None` for a surrogate code point in Unicode mode,
/// which must match an unpaired surrogate).
fn units(c: u32, unicode: bool) -> Option<Vec<u16>> {
    if c > 0xFFFF {
        let c = c - 0x10000;
        return Some(vec![0xD800 + (c >> 10) as u16, 0xDC00 + (c & 0x3FF) as u16]);
    }
    if unicode && (is_lead(c) || is_trail(c)) {
        return None;
    }
    Some(vec![c as u16])
}

/// The first code units of the members of `set`.
fn first_units_of_set(set: &CharSet) -> CharSet {
    let lead = |c: u32| 0xD800 + ((c - 0x10000) >> 10);
    CharSet::from_ranges(set.ranges().iter().flat_map(|&(a, b)| {
        let bmp = (a <= 0xFFFF).then(|| (a, b.min(0xFFFF)));
        let astral = (b > 0xFFFF).then(|| (lead(a.max(0x10000)), lead(b)));
        bmp.into_iter().chain(astral)
    }))
}

/// The characters every match of `node` ends with (`None` when unknown, or when it can
/// match empty): the character a lookbehind whose body is `node` reads first.
pub(crate) fn last_units(node: &Node) -> Option<CharSet> {
    match node {
        Node::Char(c) => Some(CharSet::single(*c)),
        Node::Class(set) => Some(set.clone()),
        Node::Concat(v) => {
            // The last node that consumes (zero-width ones after it read nothing).
            let last = v
                .iter()
                .rev()
                .find(|n| !matches!(n, Node::Empty | Node::Assertion(_) | Node::Lookaround(_)))?;
            last_units(last)
        }
        Node::Alternation(v) => {
            let mut out = CharSet::default();
            for n in v {
                out = out.union(&last_units(n)?);
            }
            Some(out)
        }
        Node::Capture(c) => last_units(&c.node),
        Node::Repeat(r) if r.min >= 1 => last_units(&r.node),
        _ => None,
    }
}

/// (units a non-empty match of `node` can start with, whether `node` can match empty).
fn first_units(node: &Node) -> (CharSet, bool) {
    let mut ranges = Vec::new();
    let empty = collect_first_units(node, &mut ranges);
    (CharSet::from_ranges(ranges), empty)
}

/// Appends the ranges of units a non-empty match of `node` can start with; whether `node`
/// can match empty.
fn collect_first_units(node: &Node, out: &mut Vec<(u32, u32)>) -> bool {
    match node {
        Node::Empty | Node::Assertion(_) | Node::Lookaround(_) => true,
        Node::Char(c) => {
            out.extend_from_slice(first_units_of_set(&CharSet::single(*c)).ranges());
            false
        }
        Node::Class(set) => {
            out.extend_from_slice(first_units_of_set(set).ranges());
            false
        }
        Node::BackReference(_) => {
            out.push((0, 0xFFFF));
            true
        }
        Node::Concat(v) => v.iter().all(|n| collect_first_units(n, out)),
        Node::Alternation(v) => {
            {
                // Every alternative's units, so no short-circuit.
                let mut empty = false;
                for n in v {
                    empty |= collect_first_units(n, out);
                }
                empty
            }
        }
        Node::Capture(c) => collect_first_units(&c.node, out),
        Node::Repeat(r) => collect_first_units(&r.node, out) || r.min == 0,
    }
}

/// Appends the literal units every match starts with; `false` once something else
/// follows.
fn literal_prefix(node: &Node, unicode: bool, out: &mut Vec<u16>) -> bool {
    match node {
        Node::Empty | Node::Assertion(_) | Node::Lookaround(_) => true,
        Node::Char(c) => match units(*c, unicode) {
            Some(u) => {
                out.extend(u);
                true
            }
            None => false,
        },
        Node::Concat(v) => v.iter().all(|n| literal_prefix(n, unicode, out)),
        Node::Capture(c) => literal_prefix(&c.node, unicode, out),
        _ => false,
    }
}

/// Where a walk from the start of every match stands.
enum Walk {
    /// The literal units, `lo..=hi` units after the start.
    Found(Vec<u16>, u32, u32),
    /// Everything so far is `lo..=hi` units long: go on.
    Next(u32, u32),
    /// Literal units a lookbehind reads, starting `lo..=hi` units after the start
    /// (negative: before it).
    Behind(Vec<u16>, isize, isize),
    /// Something of unbounded or unknown length.
    Stop,
}

/// The first literal (not at the very start) that every match holds at a bounded
/// distance from its start, walking `node` from `lo..=hi` units in.
fn inner_literal(node: &Node, unicode: bool, lo: u32, hi: u32) -> Walk {
    match node {
        Node::Concat(v) => {
            let (mut lo, mut hi) = (lo, hi);
            for (i, n) in v.iter().enumerate() {
                if let Node::Char(c) = n
                    && lo >= 1
                    && let Some(mut run) = units(*c, unicode)
                {
                    // The run of literal characters from here.
                    for next in &v[i + 1..] {
                        match next {
                            Node::Char(c) => match units(*c, unicode) {
                                Some(u) => run.extend(u),
                                None => break,
                            },
                            _ => break,
                        }
                    }
                    return Walk::Found(run, lo, hi);
                }
                if let Node::Lookaround(l) = n
                    && l.behind
                    && !l.negative
                    && let Some((run, dlo, dhi)) = behind_literal(&l.node, unicode, 0, 0)
                {
                    // The run ends `dlo..=dhi` units before the lookbehind's position,
                    // which is `lo..=hi` units after the start.
                    let len = run.len() as isize;
                    let (lo, hi, dlo, dhi) = (lo as isize, hi as isize, dlo as isize, dhi as isize);
                    return Walk::Behind(run, lo - dhi - len, hi - dlo - len);
                }
                match inner_literal(n, unicode, lo, hi) {
                    Walk::Next(l, h) => (lo, hi) = (l, h),
                    other => return other,
                }
            }
            Walk::Next(lo, hi)
        }
        Node::Char(c) if lo >= 1 => match units(*c, unicode) {
            Some(u) => Walk::Found(u, lo, hi),
            None => Walk::Next(lo + 1, hi + 1),
        },
        Node::Capture(c) => inner_literal(&c.node, unicode, lo, hi),
        _ => match width(node, unicode) {
            Some((a, b)) if hi.saturating_add(b) <= 1 << 16 => Walk::Next(lo + a, hi + b),
            _ => Walk::Stop,
        },
    }
}

/// The last literal run of a lookbehind's body (matched right to left): its units,
/// and how far before the lookbehind's position it ends (`lo..=hi` units), walking
/// back from `lo..=hi`.
fn behind_literal(node: &Node, unicode: bool, lo: u32, hi: u32) -> Option<(Vec<u16>, u32, u32)> {
    match node {
        Node::Concat(v) => {
            let (mut lo, mut hi) = (lo, hi);
            let mut i = v.len();
            while i > 0 {
                i -= 1;
                if let Node::Char(c) = &v[i]
                    && let Some(mut run) = units(*c, unicode)
                {
                    // The run of literal characters ending here, in text order.
                    let mut j = i;
                    while j > 0 {
                        match &v[j - 1] {
                            Node::Char(c) => match units(*c, unicode) {
                                Some(mut u) => {
                                    u.extend(run);
                                    run = u;
                                    j -= 1;
                                }
                                None => break,
                            },
                            _ => break,
                        }
                    }
                    return Some((run, lo, hi));
                }
                if let Node::Capture(c) = &v[i]
                    && let Some(found) = behind_literal(&c.node, unicode, lo, hi)
                {
                    return Some(found);
                }
                let (a, b) = width(&v[i], unicode)?;
                (lo, hi) = (lo + a, hi.checked_add(b).filter(|&h| h <= 1 << 16)?);
            }
            None
        }
        Node::Char(c) => units(*c, unicode).map(|u| (u, lo, hi)),
        Node::Capture(c) => behind_literal(&c.node, unicode, lo, hi),
        _ => None,
    }
}

/// How many code units a match of `node` takes: (fewest, most), `None` when unbounded
/// or unknown (a back reference).
fn width(node: &Node, unicode: bool) -> Option<(u32, u32)> {
    const MAX: u32 = 1 << 16;
    match node {
        Node::Empty | Node::Assertion(_) | Node::Lookaround(_) => Some((0, 0)),
        Node::Char(c) => Some(if unicode && *c > 0xFFFF { (2, 2) } else { (1, 1) }),
        Node::Class(set) => {
            let ranges = set.ranges();
            let (first, last) = (ranges.first()?.0, ranges.last()?.1);
            if !unicode {
                Some((1, 1))
            } else {
                Some((if first <= 0xFFFF { 1 } else { 2 }, if last > 0xFFFF { 2 } else { 1 }))
            }
        }
        Node::Capture(c) => width(&c.node, unicode),
        Node::Concat(v) => v.iter().try_fold((0u32, 0u32), |(lo, hi), n| {
            let (a, b) = width(n, unicode)?;
            let hi = hi.checked_add(b).filter(|&h| h <= MAX)?;
            Some((lo + a, hi))
        }),
        Node::Alternation(v) => v.iter().try_fold((u32::MAX, 0u32), |(lo, hi), n| {
            let (a, b) = width(n, unicode)?;
            Some((lo.min(a), hi.max(b)))
        }),
        Node::Repeat(r) => {
            let (a, b) = width(&r.node, unicode)?;
            let hi = b.checked_mul(r.max?).filter(|&h| h <= MAX)?;
            Some((a.saturating_mul(r.min).min(hi), hi))
        }
        Node::BackReference(_) => None,
    }
}

/// Collects runs of literal units that every match contains.
fn required_runs(node: &Node, unicode: bool, run: &mut Vec<u16>, runs: &mut Vec<Vec<u16>>) {
    let cut = |run: &mut Vec<u16>, runs: &mut Vec<Vec<u16>>| {
        if !run.is_empty() {
            runs.push(std::mem::take(run));
        }
    };
    match node {
        Node::Empty => {}
        Node::Char(c) => match units(*c, unicode) {
            Some(u) => run.extend(u),
            None => cut(run, runs),
        },
        Node::Concat(v) => v.iter().for_each(|n| required_runs(n, unicode, run, runs)),
        Node::Capture(c) => required_runs(&c.node, unicode, run, runs),
        Node::Repeat(r) if r.min >= 1 => {
            cut(run, runs);
            required_runs(&r.node, unicode, run, runs);
            cut(run, runs);
        }
        _ => cut(run, runs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::Flags;
    use crate::parser::parse;

    fn pf(p: &str, f: &str) -> Prefilter {
        let pat: Vec<u16> = p.encode_utf16().collect();
        Prefilter::new(&parse(&pat, Flags::parse(f).unwrap()).unwrap())
    }

    fn u(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn inner_literals_at_bounded_distances() {
        let at = |p: &str, f: &str| pf(p, f).inner.map(|i| (i.lo, i.hi));
        assert_eq!(at(r"(.)(?<a>a)\1\2", "u"), Some((1, 2)));
        assert_eq!(at(r"(.)(?<a>a)\1\2", ""), Some((1, 1)));
        assert_eq!(at(r"\d{3}-\d{4}", ""), Some((3, 3)));
        assert_eq!(at(r".{2,4}xy", ""), Some((2, 4)));
        assert_eq!(at(r"(?<!x)\b..z", ""), Some((2, 2)));
        assert_eq!(at(r"(?:ab|c)d", ""), Some((1, 2)));
        assert_eq!(at(r"[😀a]b", "u"), Some((1, 2)));
        // Read by a leading lookbehind: before the start.
        assert_eq!(at(r"(?<=a(?=([bc]{2}(?<!a{2}))d)\w{3})\w\w", ""), Some((-4, -4)));
        assert_eq!(at(r"(?<=a.)\w", "u"), Some((-3, -2)));
        assert_eq!(at(r"\w(?<=ab)", ""), Some((-1, -1)));
        assert_eq!(at(r"(?<!a)\w", ""), None);
        // Unbounded, unknown (a back reference) or too wide a range: none.
        assert_eq!(at(r"\w+Error", ""), None);
        assert_eq!(at(r"(a)\1b", ""), None);
        assert_eq!(at(r".{1,20}b", ""), None);
        // A literal prefix is searched for directly.
        assert_eq!(at("abc", ""), None);
        assert_eq!(at("(?:a)bc", ""), None);
        let p = pf(r"(.)(?<a>ab)", "");
        assert_eq!(p.inner.map(|i| i.next(&u("xxab"), 0)), Some(Some(2)));
    }

    #[test]
    fn prefixes_and_required_literals() {
        let p = pf(r"\bdef\s+\w+(?=\(self)", "");
        assert_eq!(p.prefix, u("def"));
        assert_eq!(p.required, u("def"));
        assert!(p.word_start);
        let p = pf(r"\w+Error\b", "");
        assert!(!p.word_start);
        assert!(p.prefix.is_empty());
        assert_eq!(p.required, u("Error"));
        let p = pf(r"(['\x22])use strict\1", "");
        assert_eq!(p.required, u("use strict"));
        assert_eq!(p.first_units, Some(u("\"'")));
        let p = pf(r"(?<![\w.])print\(", "");
        assert_eq!(p.prefix, u("print("));
        let p = pf("a*", "");
        assert!(p.first.is_none() && p.required.is_empty());
        let p = pf("^abc|^d", "");
        assert!(p.anchored);
        let p = pf("x|y", "");
        assert!(p.required.is_empty() && p.prefix.is_empty());
        let f = p.first.unwrap();
        assert!(f.contains('x' as u32) && f.contains('y' as u32) && !f.contains('z' as u32));
        let p = pf("😀", "u");
        assert_eq!(p.prefix, u("😀"));
        let p = pf("\\uD83D", "u");
        assert!(p.prefix.is_empty());
    }

    #[test]
    fn finds_units() {
        let h = u("abcabcd");
        let p = pf("abcd", "");
        assert_eq!(p.next_prefix(&h, 0), Some(3));
        assert!(p.has_required(&h, 3) && !p.has_required(&h, 4));
        let p = pf("x", "");
        assert_eq!(p.next_prefix(&h, 0), None);
        // A byte pattern that occurs across two units must not be found.
        let h: Vec<u16> = vec![0x6100, 0x0062, 0x0061, 0x0062];
        let p = pf("ab", "");
        assert_eq!(p.next_prefix(&h, 0), Some(2));
        assert_eq!(find_first(&u("b"), &h, 0), Some(1));
        assert_eq!(find_first(&u("a"), &h, 0), Some(2));
        assert_eq!(find_first(&u("ca"), &h, 3), None);
        assert_eq!(find_first(&[0x61], &[0x6100, 0x61], 0), Some(1));
    }
}
