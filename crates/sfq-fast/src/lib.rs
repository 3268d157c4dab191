//! The fast path of smart-file-query's JavaScript regex search: a parsed pattern
//! ([`sfq_regex::ast::Pattern`]) translated to `regex-automata`'s meta engine wherever its
//! meaning is provably the one of `new RegExp(pattern, flags)`, plus a superset prefilter
//! so that the exact engine ([`sfq_regex::Regex`]) only runs on candidate lines.
//!
//! # The search this serves
//!
//! Texts are UTF-8 `&str` (valid, so they never hold a lone surrogate). Two [`Scope`]s:
//!
//! * [`Scope::Lines`]: the text is split as `text.split(/\r?\n/)` splits it and each line is
//!   searched on its own with JavaScript's global exec loop (`matchAll`): `^`/`$` without
//!   `m` are the line's start and end, `\n` never matches, the `\r` of a CRLF ending is not
//!   part of the line, a lone `\r`, U+2028 and U+2029 stay inside their line.
//! * [`Scope::Whole`]: the whole text is one JavaScript string; matches may span lines.
//!
//! # How a caller uses it (Lines scope)
//!
//! ```
//! use sfq_fast::{FastRegex, Scope};
//! let units: Vec<u16> = r"\w+Error\b".encode_utf16().collect();
//! let pattern = sfq_regex::parse(&units, "").unwrap();
//! let fast = FastRegex::new(&pattern, Scope::Lines);
//! assert!(fast.is_exact() && fast.has_prefilter());
//!
//! let text = "ok\nlet e = TypeError;\r\nfine\n";
//! let mut found = Vec::new();
//! let mut pos = 0;
//! while let Some(candidate) = fast.next_candidate(text, pos) {
//!     // The line around the candidate (`split(/\r?\n/)`: a `\r` before `\n` is dropped).
//!     let start = text[..candidate].rfind('\n').map_or(0, |i| i + 1);
//!     let newline = text[candidate..].find('\n').map_or(text.len(), |i| candidate + i);
//!     let line = text[start..newline].strip_suffix('\r').unwrap_or(&text[start..newline]);
//!     if fast.needs_exact(line) {
//!         // … run sfq_regex::Regex on this line instead …
//!     } else {
//!         fast.for_each_match(line, |s, e| {
//!             found.push(&line[s..e]);
//!             true
//!         });
//!     }
//!     if newline == text.len() {
//!         break;
//!     }
//!     pos = newline + 1;
//! }
//! assert_eq!(found, ["TypeError"]);
//! ```
//!
//! # Translation (exact target)
//!
//! The AST already has case-insensitivity applied to every literal and set, `.` and
//! `\d \s \w` resolved to sets, and `v`-mode strings as alternations, so:
//!
//! | JavaScript | `regex-automata` | exact? |
//! |---|---|---|
//! | `Char`, `Class` | UTF-8 literal, Unicode class without surrogates | yes; without `u`/`v` see the astral guard |
//! | two `Char`s forming a surrogate pair (no `u`/`v`) | the astral character | yes |
//! | `^`, `$` (no `m`) | `\A`, `\z` of the searched text (a line, or the whole text) | yes |
//! | `^`, `$` with `m` | CRLF-aware looks (`(?Rm:^)`, `(?Rm:$)`) | guard: U+2028/U+2029; whole text: also `"\r\n"` |
//! | `\b`, `\B` | ASCII word looks | `iu`/`iv`: guard ſ and K |
//! | alternation, greedy and lazy quantifiers | the same (leftmost-first gives the backtracking span) | yes, except a quantifier with `min < max` over a body that can match empty ([`Inexact::EmptyIteration`]) |
//! | lookaround, backreference, `y` | — | no ([`Inexact`]) |
//! | a V8 11.3 bug: a [`V8Quirk`](sfq_regex::ast::V8Quirk), or `[^]` with `v` in a pattern with `$` | — | no ([`Inexact::V8Quirk`]) |
//! | nesting deeper than 64 levels, or beyond `regex-automata`'s size limits | — | no ([`Inexact::TooLarge`]) |
//!
//! Without `u`/`v` JavaScript works on UTF-16 code units: when the pattern has a set or
//! character that can match a surrogate, or can match empty, a text holding an astral
//! character needs the exact engine ([`Guards::astral`]). With `u`/`v` too when the
//! pattern can match empty through `\B`: V8 then finds empty matches between the halves
//! of a pair (`/\B/gu` on `"a😀"` finds index 2, against the spec's code-point steps).
//!
//! # Superset (prefilter)
//!
//! The same translation with: lookarounds dropped (empty); a backreference replaced by an
//! optional copy of its group's body (assertions dropped there), or by "any text"; in Lines
//! scope `\n` removed from every set and anchors as line looks treating `\r` as a
//! terminator too; in Whole scope `^`/`$` with `m`, and `\b`/`\B` under `iu`/`iv`, dropped.
//! A quirky pattern's sets become "any character, optional". The guarded characters of a
//! superset are forced candidates in Lines scope (a line holding one is always a
//! candidate), and in Whole scope an astral character after `from` makes every position a
//! candidate. Counted repetitions too large for the size limits are widened (`{100}` →
//! `{8,}`) before giving up.
//!
//! In Lines scope the superset regex runs over the whole file (in windows of whole lines,
//! 256 bytes then doubling, when guarded characters are forced candidates), behind the
//! best of: a case-insensitive ASCII run (`/return/i`, the `value` of `/\bvalue\b/i`),
//! found by a case-folded packed-pair scan (`folded`); its own prefix literals (memchr,
//! Teddy); the literals of a later part of a top-level concatenation (`\w+Error\b`:
//! "Error"), after which only the line around each occurrence is searched; non-ASCII bytes
//! when every match starts with a non-ASCII character (`[^\x00-\x7F]+`); lines at least as
//! long as the shortest match when that is 40 bytes or more (`^.{120,}$`). A pattern whose
//! exact translation is a literal (case-folded or not) is matched by that scan alone, and
//! [`FastRegex::count_lines`] counts its lines without a line search.
//!
//! # Speed
//!
//! `cargo run --release -p sfq-fast --example speed` (see there): on 72 MB of sources the
//! pipeline runs at 1.4–9 GB/s of CPU time on the usual searches, 3–250× the exact
//! engine line by line.
#![deny(missing_docs)]

mod ascii;
mod cache;
mod folded;
mod guard;
mod prefilter;
mod reason;
mod translator;

use std::sync::atomic::{AtomicU64, Ordering};

use regex_automata::nfa::thompson::WhichCaptures;
use regex_automata::{Input, meta};
use regex_syntax::hir::Hir;
use sfq_regex::ast::Pattern;

pub use cache::Cache;
pub use guard::Guards;
pub use reason::Inexact;

use prefilter::Prefilter;
use translator::{Size, Target, translate};

/// How the text is searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Each line of `text.split(/\r?\n/)` on its own (the product's default meaning).
    #[default]
    Lines,
    /// The whole text as one JavaScript string (matches may span lines).
    Whole,
}

/// A JavaScript pattern on the fast path: an exact `regex-automata` translation when one
/// exists, guards saying which texts still need the exact engine, and a superset
/// prefilter. Immutable, `Send + Sync`; searches take an internal cache from a pool, or
/// an explicit [`Cache`] (the `*_with` methods).
#[derive(Debug)]
pub struct FastRegex {
    id: u64,
    scope: Scope,
    /// The exact translation, or why there is none.
    exact: Result<meta::Regex, Inexact>,
    /// The guards of the exact translation.
    guards: Guards,
    prefilter: Option<Prefilter>,
    /// The guards of the superset: forced candidates (Lines) or "anything goes" (Whole).
    forced: Guards,
    /// Literals one of which every superset match contains (see
    /// [`FastRegex::required_literals`]).
    required: Option<Vec<Vec<u8>>>,
    /// The exact translation is a literal (`/irqstate_t/`, or `/return/i`
    /// case-folded): its matches are the occurrences a literal scan finds.
    exact_literal: Option<Literal>,
}

/// The first window of a Lines-scope candidate search, in bytes (then doubled).
const FIRST_WINDOW: usize = 1 << 8;

/// Each `FastRegex` has its own id, so that a [`Cache`] made for another is noticed.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Builds a meta regex from `hir` (no captures but the implicit whole match); `None` when
/// the size limits are exceeded.
fn build(hir: &Hir) -> Option<meta::Regex> {
    build_with(hir, true)
}

/// [`build`], with or without the regex's own prefix-literal prefilter.
fn build_with(hir: &Hir, literals: bool) -> Option<meta::Regex> {
    let mut config = meta::Regex::config().which_captures(WhichCaptures::Implicit);
    if !literals {
        config = config.prefilter(None).auto_prefilter(false);
    }
    meta::Regex::builder().configure(config).build_from_hir(hir).ok()
}

impl FastRegex {
    /// Translates `pattern` for `scope`. Never fails: a part that cannot be built (a
    /// construct without exact translation, a size limit) is absent and reported by
    /// [`FastRegex::is_exact`] / [`FastRegex::inexact_reason`] and
    /// [`FastRegex::has_prefilter`].
    pub fn new(pattern: &Pattern, scope: Scope) -> FastRegex {
        if translator::too_deep(&pattern.root, translator::MAX_DEPTH) {
            return FastRegex {
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                scope,
                exact: Err(Inexact::TooLarge),
                guards: Guards::default(),
                prefilter: None,
                forced: Guards::default(),
                required: None,
                exact_literal: None,
            };
        }
        let extended_word = pattern.flags.ignore_case && pattern.unicode_mode();
        let astral = translator::touches_surrogates(pattern);

        let exact = translate(pattern, Target::Exact, scope, Size::Faithful);
        let guards = Guards {
            astral,
            line_separators: exact.uses.line_anchors,
            long_s_kelvin: extended_word && exact.uses.word_looks,
            crlf: scope == Scope::Whole && exact.uses.line_anchors,
        };
        let exact_literal = if exact.inexact.is_none() { Literal::of(&exact.hir) } else { None };
        let exact = match exact.inexact {
            Some(why) => Err(why),
            None => build(&exact.hir).ok_or(Inexact::TooLarge),
        };

        let mut superset = translate(pattern, Target::Superset, scope, Size::Faithful);
        let mut prefilter = Prefilter::new(&superset.hir, scope);
        if prefilter.is_none() {
            superset = translate(pattern, Target::Superset, scope, Size::Clamped);
            prefilter = Prefilter::new(&superset.hir, scope);
        }
        let forced = match scope {
            Scope::Lines => Guards {
                astral,
                line_separators: superset.uses.line_anchors,
                long_s_kelvin: extended_word && superset.uses.word_looks,
                crlf: false,
            },
            Scope::Whole => Guards { astral, ..Guards::default() },
        };
        let required = if prefilter.as_ref().is_some_and(|p| !p.is_nullable()) {
            prefilter::required_literals(&superset.hir)
        } else {
            None
        };
        FastRegex {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            scope,
            exact,
            guards,
            prefilter,
            forced,
            required,
            exact_literal,
        }
    }

    /// Literals (each of 3 bytes or more) one of which every superset match
    /// contains, so that a text holding none of them, and tripping none of
    /// [`FastRegex::forced_guards`], has no JavaScript match: what an index
    /// of a text's byte trigrams can rule out without reading the text.
    /// `None` when no such set is known.
    pub fn required_literals(&self) -> Option<&[Vec<u8>]> {
        self.required.as_deref()
    }

    /// The superset's guards: a text tripping them may match where the
    /// superset does not (its lines, Lines scope; anywhere, Whole scope).
    pub fn forced_guards(&self) -> Guards {
        self.forced
    }

    /// The scope this was built for.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// Whether an exact translation exists: then [`FastRegex::for_each_match`] gives
    /// JavaScript's matches on every text for which [`FastRegex::needs_exact`] is `false`.
    pub fn is_exact(&self) -> bool {
        self.exact.is_ok()
    }

    /// Why there is no exact translation (`None` when [`FastRegex::is_exact`]).
    pub fn inexact_reason(&self) -> Option<Inexact> {
        self.exact.as_ref().err().copied()
    }

    /// The guards of the exact translation: which characters make
    /// [`FastRegex::needs_exact`] true.
    pub fn guards(&self) -> Guards {
        self.guards
    }

    /// Whether the prefilter narrows anything: a superset regex could be built and does
    /// not match the empty string. When `false`, [`FastRegex::next_candidate`] still
    /// works but returns `from` itself (every line is a candidate), so a caller may as
    /// well check every line.
    pub fn has_prefilter(&self) -> bool {
        self.prefilter.as_ref().is_some_and(|p| !p.is_nullable())
    }

    /// Whether the prefilter scans for required literals (or non-ASCII bytes) first and
    /// runs its regex only on the lines holding one (diagnostics).
    pub fn has_line_scan(&self) -> bool {
        self.prefilter.as_ref().is_some_and(Prefilter::has_line_scan)
    }

    /// Whether the prefilter finds its candidates by literals (its own scan or its
    /// regex's prefix literals, at memchr/Teddy speed) rather than by running an
    /// automaton over every byte. Where most lines hold a candidate, skipping an
    /// automaton's scan saves work; skipping a literal scan costs the lines it skipped.
    pub fn finds_literals(&self) -> bool {
        self.prefilter.as_ref().is_some_and(Prefilter::finds_literals)
    }

    /// A cache for the `*_with` methods (one per thread; it may be reused across texts).
    pub fn create_cache(&self) -> Cache {
        Cache::new(self)
    }

    /// [`Scope::Lines`], over a whole file's text: the byte offset, at or after `from`, of
    /// a position in the next line where a match may start (where it may start, or the
    /// start of that line: a superset match is located by its end, without the reverse
    /// scan that finds its start), or `None` when no line from `from` on can hold a
    /// match.
    ///
    /// Superset guarantee: every line (of `text.split(/\r?\n/)`) holding a JavaScript
    /// match holds a candidate, and a caller that decides the candidate's line and
    /// resumes at the next line start finds it. The candidate lies inside its line: in
    /// its content, at its end, or on the `\r` or `\n` that ends it (a candidate at
    /// `text.len()` after a final `\n` is on the empty string that is not a line).
    ///
    /// [`Scope::Whole`]: no JavaScript match (of the whole-text exec loop) starts in
    /// `from..candidate`; `None` when none starts at or after `from`.
    ///
    /// `from` should be a character boundary (the caller resumes at line starts). Each
    /// call costs about the bytes it scans: in Lines scope, up to the candidate (plus at
    /// most one small window), so a file is scanned about once in all; in Whole scope
    /// with [`Guards::astral`], the rest of the text. In a loop, prefer
    /// [`FastRegex::next_candidate_with`], which does not take a cache from the pool on
    /// each call.
    pub fn next_candidate(&self, text: &str, from: usize) -> Option<usize> {
        self.candidate(None, text, from)
    }

    /// [`FastRegex::next_candidate`] with an explicit cache.
    pub fn next_candidate_with(&self, cache: &mut Cache, text: &str, from: usize) -> Option<usize> {
        cache.fit(self);
        self.candidate(cache.prefilter.as_mut(), text, from)
    }

    fn candidate(&self, cache: Option<&mut meta::Cache>, text: &str, from: usize) -> Option<usize> {
        let bytes = text.as_bytes();
        if from > bytes.len() {
            return None;
        }
        let Some(p) = &self.prefilter else { return Some(from) };
        match self.scope {
            Scope::Lines if !self.forced.has_chars() => p.find(cache, text, from, bytes.len()),
            Scope::Lines => {
                // Windows of whole lines, growing. In each, the forced candidates first (a
                // fast byte scan), then the superset up to the first of them: a call costs
                // about the distance to its result (plus one small window), so a file is
                // scanned about once in all.
                let mut cache = cache;
                let (mut start, mut window) = (from, FIRST_WINDOW);
                loop {
                    let end = match start.checked_add(window) {
                        Some(w) if w < bytes.len() => {
                            memchr::memchr(b'\n', &bytes[w..]).map_or(bytes.len(), |i| w + i)
                        }
                        _ => bytes.len(),
                    };
                    // The superset first, then the forced candidates only before what
                    // it found: a call costs the distance to its result, whichever
                    // kind that is (plus at most one window).
                    let found = p.find(cache.as_deref_mut(), text, start, end);
                    let limit = found.unwrap_or(end);
                    let forced = self.forced.find_char(&bytes[start..limit]).map(|g| start + g);
                    if found.is_some() || forced.is_some() || end >= bytes.len() {
                        return forced.or(found);
                    }
                    start = end + 1;
                    window = window.saturating_mul(2);
                }
            }
            Scope::Whole => {
                if self.forced.find_char(&bytes[from..]).is_some() {
                    return Some(from);
                }
                p.find(cache, text, from, bytes.len())
            }
        }
    }

    /// Whether `text` (a line in Lines scope, the whole text in Whole scope) must go to
    /// the exact engine: always when there is no exact translation, otherwise when it
    /// holds a guarded character ([`FastRegex::guards`]): an astral character without
    /// `u`/`v` if the pattern can touch a surrogate half, U+2028/U+2029 if it uses `^`/`$`
    /// with `m` (and in Whole scope a `"\r\n"` pair), ſ/K if it uses `\b`/`\B` with `i`
    /// and `u`/`v`. A byte scan; ASCII goes eight bytes at a time.
    pub fn needs_exact(&self, text: &str) -> bool {
        !self.is_exact() || self.guards.trips(text.as_bytes())
    }

    /// JavaScript's `matchAll` loop over `text` (a line in Lines scope, without its
    /// terminator; the whole text in Whole scope): calls `f(start, end)` with the byte
    /// offsets of every match, in order, until `f` returns `false`. After an empty match
    /// the search resumes one character further. Returns `false`, without calling `f`,
    /// when there is no exact translation. The matches are JavaScript's only when
    /// [`FastRegex::needs_exact`] is `false` for `text`.
    pub fn for_each_match(&self, text: &str, f: impl FnMut(usize, usize) -> bool) -> bool {
        let Ok(re) = &self.exact else { return false };
        match &self.exact_literal {
            Some(lit) => literal_loop(lit, text, f),
            None => exec_loop(|input| re.search(input), text, f),
        }
        true
    }

    /// Lines scope: how many lines of `text` (a whole file) hold a JavaScript match,
    /// when the exact translation is a literal without `\r` or `\n` and `text` trips no
    /// guard, so that every occurrence is a match and each line is counted at its first
    /// (a scan for the literal and the next `\n`, nothing else); `None` otherwise.
    pub fn count_lines(&self, text: &str) -> Option<u64> {
        let lit = self.exact_literal.as_ref().filter(|l| !l.crosses_lines())?;
        if self.scope != Scope::Lines || self.exact.is_err() || self.guards.trips(text.as_bytes()) {
            return None;
        }
        let bytes = text.as_bytes();
        let (mut count, mut pos) = (0u64, 0usize);
        while let Some(start) = lit.find(bytes, pos) {
            count += 1;
            match memchr::memchr(b'\n', &bytes[start + lit.len()..]) {
                Some(i) => pos = start + lit.len() + i + 1,
                None => break,
            }
        }
        Some(count)
    }

    /// [`FastRegex::for_each_match`] with an explicit cache.
    pub fn for_each_match_with(
        &self,
        cache: &mut Cache,
        text: &str,
        f: impl FnMut(usize, usize) -> bool,
    ) -> bool {
        let Ok(re) = &self.exact else { return false };
        if let Some(lit) = &self.exact_literal {
            literal_loop(lit, text, f);
            return true;
        }
        cache.fit(self);
        match &mut cache.exact {
            Some(c) => exec_loop(|input| re.search_with(c, input), text, f),
            None => exec_loop(|input| re.search(input), text, f),
        }
        true
    }
}

/// Searches with a cache when one is given, else with the regex's internal pool.
pub(crate) fn search(
    re: &meta::Regex,
    cache: &mut Option<&mut meta::Cache>,
    input: &Input<'_>,
) -> Option<regex_automata::Match> {
    match cache {
        Some(c) => re.search_with(c, input),
        None => re.search(input),
    }
}

/// [`search`] for where the first match ends only (a forward scan).
pub(crate) fn search_half(
    re: &meta::Regex,
    cache: &mut Option<&mut meta::Cache>,
    input: &Input<'_>,
) -> Option<regex_automata::HalfMatch> {
    match cache {
        Some(c) => re.search_half_with(c, input),
        None => re.search_half(input),
    }
}

/// The global exec loop: each search starts where the previous match ended, one
/// character further after an empty match (AdvanceStringIndex; on unguarded texts a code
/// unit is a character whenever an empty match is possible).
fn exec_loop(
    mut search: impl FnMut(&Input<'_>) -> Option<regex_automata::Match>,
    text: &str,
    mut f: impl FnMut(usize, usize) -> bool,
) {
    let bytes = text.as_bytes();
    let mut pos = 0;
    while pos <= bytes.len() {
        let input = Input::new(text).range(pos..);
        let Some(m) = search(&input) else { break };
        if !f(m.start(), m.end()) {
            break;
        }
        pos = if m.is_empty() { m.end() + char_len(bytes.get(m.end()).copied()) } else { m.end() };
    }
}

/// An exact translation that is a literal, found by a scan rather than an automaton.
#[derive(Debug)]
enum Literal {
    /// ASCII, letters in either case (`/return/i`).
    Folded(folded::Folded),
    /// Bytes as they are (`/irqstate_t/`).
    Exact(Box<memchr::memmem::Finder<'static>>),
}

impl Literal {
    /// The literal `hir` is, when it is one (of at least two bytes).
    fn of(hir: &Hir) -> Option<Literal> {
        if let regex_syntax::hir::HirKind::Literal(lit) = hir.kind() {
            return (lit.0.len() >= 2).then(|| {
                Literal::Exact(Box::new(memchr::memmem::Finder::new(&lit.0).into_owned()))
            });
        }
        match prefilter::folded(hir) {
            Some((finder, true)) => Some(Literal::Folded(finder)),
            _ => None,
        }
    }

    /// The start of the first occurrence at or after `from`.
    fn find(&self, bytes: &[u8], from: usize) -> Option<usize> {
        match self {
            Literal::Folded(f) => f.find(bytes, from, bytes.len()),
            Literal::Exact(f) => f.find(bytes.get(from..)?).map(|i| from + i),
        }
    }

    fn len(&self) -> usize {
        match self {
            Literal::Folded(f) => f.len(),
            Literal::Exact(f) => f.needle().len(),
        }
    }

    /// Whether it holds a line terminator byte (`\r` or `\n`).
    fn crosses_lines(&self) -> bool {
        match self {
            Literal::Folded(f) => f.needle().iter().any(|&b| b == b'\r' || b == b'\n'),
            Literal::Exact(f) => f.needle().iter().any(|&b| b == b'\r' || b == b'\n'),
        }
    }
}

/// The exec loop of a literal: its occurrences, each search starting where the previous
/// one ended (a match is never empty).
fn literal_loop(lit: &Literal, text: &str, mut f: impl FnMut(usize, usize) -> bool) {
    let bytes = text.as_bytes();
    let mut pos = 0;
    while let Some(start) = lit.find(bytes, pos) {
        let end = start + lit.len();
        if !f(start, end) {
            break;
        }
        pos = end;
    }
}

/// The length of the UTF-8 sequence a lead byte starts (1 past the end of the text).
fn char_len(lead: Option<u8>) -> usize {
    match lead {
        Some(0xF0..=0xFF) => 4,
        Some(0xE0..=0xEF) => 3,
        Some(0xC0..=0xDF) => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests;
