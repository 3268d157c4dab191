//! The superset prefilter: a `regex-automata` regex that matches wherever JavaScript could,
//! searched over a whole file, optionally behind a required-literal scan.
//!
//! When the regex's own prefix literals are weak but some part of a top-level
//! concatenation has strong literals (`\w+Error\b` has "Error", `^\s*#include\s*<` has
//! "#include"), the search looks for those literals at memchr/Teddy speed and runs the
//! regex only on the line around each occurrence (ripgrep's inner-literal trick). When
//! every match starts with a non-ASCII character (`[^\x00-\x7F]+`), the scan is for bytes
//! 0x80 and above, eight at a time; when every match is long (`^.{120,}$`), for lines that
//! long. Lines scope only: there, superset matches never contain `\n`.

use regex_automata::util::prefilter::Prefilter as Literals;
use regex_automata::{Input, MatchKind, Span, meta};
use regex_syntax::hir::literal::{Extractor, Seq};
use regex_syntax::hir::{Hir, HirKind};

use crate::folded::{Folded, FoldedSet};
use crate::{Scope, ascii};

/// What to look for before running the regex on a line (Lines scope).
#[derive(Debug)]
enum Scan {
    /// Literals one of which every superset match contains.
    Literals(Literals),
    /// Every superset match starts with a non-ASCII character (`[^\x00-\x7F]+`, `[α-ω]`):
    /// a byte 0x80 or above, found eight bytes at a time.
    NonAscii,
    /// Every superset match is at least this many bytes long (`^.{120,}$`): only lines
    /// that long can hold one (found with memchr), where a counting regex is slow.
    MinLength(usize),
    /// ASCII bytes, letters in either case (`/return/i`), found by the case-folded pair
    /// scan; `whole`: they are the whole superset, so an occurrence is a match.
    Folded { finder: Folded, whole: bool },
    /// A few such runs, the alternatives of the whole superset (`/TODO|FIXME|HACK/i`):
    /// an occurrence of one is a match.
    FoldedSet(FoldedSet),
}

impl Scan {
    /// Where the next occurrence starts in `from..end`.
    fn find(&self, bytes: &[u8], from: usize, end: usize) -> Option<usize> {
        match self {
            Scan::Literals(lits) => lits.find(bytes, Span { start: from, end }).map(|s| s.start),
            Scan::Folded { finder, .. } => finder.find(bytes, from, end),
            Scan::FoldedSet(set) => set.find(bytes, from, end),
            Scan::NonAscii => ascii::find_non_ascii(&bytes[..end], from, |_| true),
            Scan::MinLength(n) => {
                let mut start = from;
                while start <= end {
                    let stop = memchr::memchr(b'\n', &bytes[start..end]).map_or(end, |i| start + i);
                    if stop - start >= *n {
                        return Some(start);
                    }
                    start = stop + 1;
                }
                None
            }
        }
    }
}

/// The superset regex with its literal scan.
#[derive(Debug)]
pub(crate) struct Prefilter {
    pub regex: meta::Regex,
    /// Lines scope: what every superset match holds, found before the regex runs.
    inner: Option<Scan>,
    /// The superset matches the empty string: every position is a candidate.
    nullable: bool,
    /// Lines scope: a candidate is reported as the start of its line.
    lines: bool,
    /// Candidates are found by literals (the line scan or the regex's prefix literals).
    literals: bool,
}

impl Prefilter {
    /// Builds the prefilter for `hir`, a superset translation in `scope`; `None` if it
    /// exceeds the size limits.
    pub fn new(hir: &Hir, scope: Scope) -> Option<Prefilter> {
        // Every match starting at a line start with a character of a class (`^\d+$`,
        // `^[a-z]+$`): the regex's own prefix literals (the class's bytes) are found all
        // over the lines and each hit fails at once; its automaton alone passes over the
        // text once.
        let prefix = prefixes(hir);
        let class_at_line_start = starts_at_line_start(hir) && byte_class(&prefix);
        let regex = crate::build_with(hir, !class_at_line_start)?;
        let nullable = hir.properties().minimum_len() == Some(0);
        let inner = match (folded(hir), folded_set(hir)) {
            _ if nullable => None,
            (Some((finder, whole)), _) if whole || scope == Scope::Lines => {
                Some(Scan::Folded { finder, whole })
            }
            (_, Some(set)) => Some(Scan::FoldedSet(set)),
            _ if scope == Scope::Lines => scan(hir),
            _ => None,
        };
        let literals = inner.is_some() || (!class_at_line_start && quality(&prefix).is_some());
        Some(Prefilter { regex, inner, nullable, lines: scope == Scope::Lines, literals })
    }

    /// Whether the superset matches empty, so that every position is a candidate.
    pub fn is_nullable(&self) -> bool {
        self.nullable
    }

    /// Whether candidates are found by literals (see `FastRegex::finds_literals`).
    pub fn finds_literals(&self) -> bool {
        self.literals
    }

    /// Whether a literal, non-ASCII or line-length scan runs before the regex.
    pub fn has_line_scan(&self) -> bool {
        self.inner.is_some()
    }

    /// The start of the first superset match starting in `from..=end` and ending by `end`
    /// (Lines scope: a position in its line, no later than its start, not before
    /// `from`), where `end` is the text's length or (Lines scope) the offset of a `\n`,
    /// which no match crosses, or a position whose line the caller accounts for anyway.
    pub fn find(
        &self,
        mut cache: Option<&mut meta::Cache>,
        text: &str,
        from: usize,
        end: usize,
    ) -> Option<usize> {
        let bytes = text.as_bytes();
        let end = end.min(bytes.len());
        if from > end {
            return None;
        }
        if self.nullable {
            return Some(from);
        }
        match &self.inner {
            Some(Scan::Folded { finder, whole: true }) => return finder.find(bytes, from, end),
            Some(Scan::FoldedSet(set)) => return set.find(bytes, from, end),
            _ => {}
        }
        let Some(scan) = &self.inner else {
            let input = Input::new(text).range(from..end);
            if self.lines {
                // Only the line matters to the caller: where the match ends (a forward
                // scan, without the reverse one that finds its start) tells it, as a
                // match holds no `\n`.
                let e = crate::search_half(&self.regex, &mut cache, &input)?.offset();
                let last = e.saturating_sub(1).max(from);
                return Some(
                    memchr::memrchr(b'\n', &bytes[from..last]).map_or(from, |i| from + i + 1),
                );
            }
            return crate::search(&self.regex, &mut cache, &input).map(|m| m.start());
        };
        let mut pos = from;
        while pos <= end {
            let q = scan.find(bytes, pos, end)?;
            let start = memchr::memrchr(b'\n', &bytes[pos..q]).map_or(pos, |i| pos + i + 1);
            let stop = memchr::memchr(b'\n', &bytes[q..end]).map_or(end, |i| q + i);
            let input = Input::new(text).range(start..stop);
            if let Some(m) = crate::search(&self.regex, &mut cache, &input) {
                return Some(m.start());
            }
            pos = stop + 1;
        }
        None
    }
}

/// The longest run of a top-level concatenation (or the whole of `hir`) that is ASCII
/// bytes with at least one letter in either case (`/return/i`, the `value` of
/// `/\bvalue\b/i`), as a case-folded finder, and whether the run is the whole of `hir`;
/// `None` when there is no such run of 3 bytes or more (2 when it is the whole).
pub(crate) fn folded(hir: &Hir) -> Option<(Folded, bool)> {
    let parts: &[Hir] = match hir.kind() {
        HirKind::Concat(parts) => parts,
        _ => std::slice::from_ref(hir),
    };
    // (the run's bytes, whether a letter folds, its first part, its end part)
    let mut best: Option<(Vec<u8>, usize, usize)> = None;
    let mut run: (Vec<u8>, bool, usize) = (Vec::new(), false, 0);
    for (k, part) in parts.iter().enumerate() {
        match folded_bytes(part) {
            Some((bytes, folds)) => {
                run.0.extend_from_slice(&bytes);
                run.1 |= folds;
            }
            None => run = (Vec::new(), false, k + 1),
        }
        if run.1 && best.as_ref().is_none_or(|b| run.0.len() > b.0.len()) {
            best = Some((run.0.clone(), run.2, k + 1));
        }
    }
    let (bytes, first, end) = best?;
    let whole = first == 0 && end == parts.len();
    if bytes.len() < if whole { 2 } else { 3 } {
        return None;
    }
    Some((Folded::new(&bytes)?, whole))
}

/// The alternatives of `hir` (2 to [`FoldedSet::MAX`]) as a case-folded set, when each is
/// wholly such a run (`/TODO|FIXME|HACK/i`) and the machine has the set's vector scan.
fn folded_set(hir: &Hir) -> Option<FoldedSet> {
    let HirKind::Alternation(alts) = hir.kind() else { return None };
    if alts.len() > FoldedSet::MAX || !FoldedSet::is_fast() {
        return None;
    }
    let needles = alts
        .iter()
        .map(|alt| match folded(alt)? {
            (finder, true) => Some(finder.needle().to_vec()),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    FoldedSet::new(&needles)
}

/// The ASCII bytes `hir` matches, when it is a literal without letters or a class of one
/// ASCII byte or of both cases of one letter, and whether a letter folds.
fn folded_bytes(hir: &Hir) -> Option<(Vec<u8>, bool)> {
    use regex_syntax::hir::Class;
    let pair = |lo: u32, hi: u32| -> Option<(Vec<u8>, bool)> {
        let (lo, hi) = (u8::try_from(lo).ok()?, u8::try_from(hi).ok()?);
        (lo.is_ascii_uppercase() && hi == lo.to_ascii_lowercase()).then(|| (vec![hi], true))
    };
    let single = |b: u32| -> Option<(Vec<u8>, bool)> {
        let b = u8::try_from(b).ok().filter(|b| b.is_ascii() && !b.is_ascii_alphabetic())?;
        Some((vec![b], false))
    };
    match hir.kind() {
        HirKind::Literal(lit) => {
            let ok = lit.0.iter().all(|b| b.is_ascii() && !b.is_ascii_alphabetic());
            ok.then(|| (lit.0.to_vec(), false))
        }
        HirKind::Class(Class::Unicode(c)) => match c.ranges() {
            [r] if r.start() == r.end() => single(r.start() as u32),
            [a, b] if a.start() == a.end() && b.start() == b.end() => {
                pair(a.start() as u32, b.start() as u32)
            }
            _ => None,
        },
        HirKind::Class(Class::Bytes(c)) => match c.ranges() {
            [r] if r.start() == r.end() => single(u32::from(r.start())),
            [a, b] if a.start() == a.end() && b.start() == b.end() => {
                pair(u32::from(a.start()), u32::from(b.start()))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Literals, each of at least 3 bytes, one of which occurs in every match of
/// `hir`: the best finite prefix-literal set of the whole or of one part of a
/// top-level concatenation (every match holds a match of each part, which
/// starts with one of that part's prefix literals).
pub(crate) fn required_literals(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    let mut sets = vec![prefixes(hir)];
    if let HirKind::Concat(parts) = hir.kind() {
        sets.extend(parts.iter().map(prefixes));
    }
    let best = sets
        .into_iter()
        .filter_map(|seq| quality(&seq).filter(|q| q.min_len >= 3).map(|q| (q, seq)))
        .max_by_key(|(q, _)| *q)?;
    let lits = best.1.literals()?;
    Some(lits.iter().map(|l| l.as_bytes().to_vec()).collect())
}

/// What to scan for before running the regex on a line, when that is clearly better than
/// the prefix literals the regex uses by itself: the prefix literals of one part of a
/// top-level concatenation, or non-ASCII bytes when every match starts with one.
fn scan(hir: &Hir) -> Option<Scan> {
    let whole = quality(&prefixes(hir));
    if let Some(lits) = inner_literals(hir, whole) {
        return Some(Scan::Literals(lits));
    }
    if whole.is_some() {
        return None;
    }
    if starts_non_ascii(hir) {
        return Some(Scan::NonAscii);
    }
    hir.properties().minimum_len().filter(|&n| n >= MIN_LINE_LENGTH).map(Scan::MinLength)
}

/// The shortest match (in bytes) worth a line-length scan: below it most lines qualify.
const MIN_LINE_LENGTH: usize = 40;

/// Literals one of which occurs in every match of `hir` (the prefix literals of a part of
/// a top-level concatenation), when better than `whole`, the prefix literals' quality.
fn inner_literals(hir: &Hir, whole: Option<Quality>) -> Option<Literals> {
    let parts: &[Hir] = match hir.kind() {
        HirKind::Concat(parts) => parts,
        _ => return None,
    };
    let mut best: Option<(Quality, Seq)> = None;
    for part in parts.iter().skip(1) {
        let seq = prefixes(part);
        let Some(q) = quality(&seq) else { continue };
        if best.as_ref().is_none_or(|(b, _)| q > *b) {
            best = Some((q, seq));
        }
    }
    let (q, seq) = best?;
    if whole.is_some_and(|w| w >= q) || q.min_len < 3 {
        return None;
    }
    let lits: Vec<&[u8]> = seq.literals()?.iter().map(|l| l.as_bytes()).collect();
    Literals::new(MatchKind::LeftmostFirst, &lits).filter(Literals::is_fast)
}

/// Whether every match of `hir` starts with a non-ASCII character.
/// Whether prefix literals are four or more, some of a single byte (the bytes of a
/// class).
fn byte_class(seq: &Seq) -> bool {
    seq.literals().is_some_and(|lits| lits.len() >= 4) && seq.min_literal_len() == Some(1)
}

/// Whether every match of `hir` starts with a line-start (or text-start) assertion.
fn starts_at_line_start(hir: &Hir) -> bool {
    use regex_syntax::hir::Look;
    match hir.kind() {
        HirKind::Look(l) => matches!(l, Look::Start | Look::StartLF | Look::StartCRLF),
        HirKind::Concat(parts) => parts.first().is_some_and(starts_at_line_start),
        HirKind::Capture(c) => starts_at_line_start(&c.sub),
        HirKind::Alternation(alts) => alts.iter().all(starts_at_line_start),
        _ => false,
    }
}

fn starts_non_ascii(hir: &Hir) -> bool {
    let first = first_chars(hir);
    !first.nullable && first.ascii == Some(false)
}

/// What the first character of a match can be.
struct First {
    /// Whether a match can be empty (then nothing is known).
    nullable: bool,
    /// Whether the first character can be ASCII (`None`: no first character seen yet).
    ascii: Option<bool>,
}

fn first_chars(hir: &Hir) -> First {
    let or = |a: Option<bool>, b: Option<bool>| match (a, b) {
        (Some(x), Some(y)) => Some(x || y),
        (x, None) | (None, x) => x,
    };
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => First { nullable: true, ascii: None },
        HirKind::Literal(lit) => match lit.0.first() {
            Some(&b) => First { nullable: false, ascii: Some(b < 0x80) },
            None => First { nullable: true, ascii: None },
        },
        HirKind::Class(regex_syntax::hir::Class::Unicode(c)) => First {
            nullable: false,
            ascii: Some(c.ranges().first().is_some_and(|r| (r.start() as u32) < 0x80)),
        },
        HirKind::Class(regex_syntax::hir::Class::Bytes(c)) => First {
            nullable: false,
            ascii: Some(c.ranges().first().is_some_and(|r| r.start() < 0x80)),
        },
        HirKind::Repetition(r) => {
            let f = first_chars(&r.sub);
            First { nullable: f.nullable || r.min == 0, ascii: f.ascii }
        }
        HirKind::Capture(c) => first_chars(&c.sub),
        HirKind::Concat(parts) => {
            let mut acc = First { nullable: true, ascii: None };
            for p in parts {
                let f = first_chars(p);
                acc.ascii = or(acc.ascii, f.ascii);
                if !f.nullable {
                    acc.nullable = false;
                    break;
                }
            }
            acc
        }
        HirKind::Alternation(alts) => {
            let mut acc = First { nullable: false, ascii: None };
            for a in alts {
                let f = first_chars(a);
                acc.ascii = or(acc.ascii, f.ascii);
                acc.nullable |= f.nullable;
            }
            acc
        }
    }
}

fn prefixes(hir: &Hir) -> Seq {
    let mut seq = Extractor::new().extract(hir);
    seq.optimize_for_prefix_by_preference();
    seq
}

/// How good a literal set is for a scan: longer shortest literal first, then fewer
/// literals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Quality {
    min_len: usize,
    fewness: std::cmp::Reverse<usize>,
}

fn quality(seq: &Seq) -> Option<Quality> {
    let lits = seq.literals()?;
    let min_len = seq.min_literal_len()?;
    if lits.is_empty() || min_len == 0 || lits.len() > 64 {
        return None;
    }
    Some(Quality { min_len: min_len.min(8), fewness: std::cmp::Reverse(lits.len()) })
}
