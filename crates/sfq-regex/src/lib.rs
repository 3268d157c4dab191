//! An ECMAScript regular-expression engine whose results are exactly those of
//! `new RegExp(pattern, flags)` in Node 20 (V8 11.3, ICU 78, Unicode 17), in pure Rust.
//!
//! * Texts and patterns are UTF-16 (`&[u16]`, what a JavaScript string is); positions are
//!   code-unit indices.
//! * Syntax: ES2024 with Annex B (web-compat) without `u`/`v`, `u` mode, `v` mode (set
//!   operations, `\q{…}`, properties of strings such as `\p{RGI_Emoji}`), named groups,
//!   lookahead, variable-length lookbehind, backreferences. Errors are V8's messages.
//! * Every search takes a [`Budget`] and gives up with [`BudgetExceeded`] instead of
//!   running forever; the matcher never recurses and its backtracking stack is bounded.
//! * [`Regex`] is immutable, `Send + Sync` and cheap to clone (an `Arc`).
//!
//! ```
//! use sfq_regex::{Budget, Regex};
//! let re = Regex::from_str(r"(?<word>\w+)\s+\k<word>", "i").unwrap();
//! let text: Vec<u16> = "it is IS it".encode_utf16().collect();
//! let mut budget = Budget::new(1_000_000);
//! let caps = re.captures_at(&text, 0, &mut budget).unwrap().unwrap();
//! assert_eq!(caps.get(0).unwrap().range(), 3..8);
//! assert_eq!(caps.name("word").unwrap().range(), 3..5);
//! ```
//!
//! # How it works
//!
//! 1. `parser`: a port of V8's single-pass parser (same order of checks, so the same
//!    error for an invalid pattern), producing the public [`ast`]: every class, `.`,
//!    escape, property and case-insensitive literal resolved to a set of characters.
//! 2. `compiler`: the tree becomes a flat program (QuickJS libregexp style): literals,
//!    sets, splits, capture saves, counted loops with the spec's empty check, and
//!    lookarounds; a lookbehind's body is compiled to read backwards, so it is matched
//!    right to left as the spec says. A lookaround without captures whose body is one
//!    character, a literal or (lookahead) a few fixed sequences of characters and
//!    `^ $ \b \B` (`(?!(?:^|\/)\.)`) is one check of the position, without frames; a
//!    loop over such a check then one character (`(?:(?!…).)*?`) is a one-character
//!    loop.
//! 3. `vm`: a backtracking machine with an explicit stack of frames (alternatives and
//!    undo records) — no recursion, one step counter, a bounded stack. One-character
//!    loops run in tight loops and give back (greedy) or take (lazy) characters,
//!    skipping positions the continuation cannot start at.
//! 4. `memo`: once a search has done far more work than its text's length, the VM
//!    records the states it has explored (instruction, position, the registers still
//!    to be read there) and fails a state reached again at once: a state explored
//!    before can only have failed. Exponential patterns (`(a|aa)+(?=b)`,
//!    `^(?=(a+)+$)`) become polynomial, with the same results, captures included.
//! 5. `search`: which start positions to try: a required literal (SIMD `memmem`), a
//!    literal prefix, the possible first code units (`memchr`), starts of words for
//!    `\b\w…`, the character a leading lookbehind needs.
//!
//! Unicode data (property sets and names, case folding) is generated from V8 itself by
//! `tools/gen_unicode.mjs` into `src/unicode/tables.rs`.
//!
//! # Budgets
//!
//! A step costs about 3 ns (release build, x86-64): a search that cannot finish
//! (`^(a+)+\1$` on 3,000 `a`s and a `b`) exhausts 1 M steps in about 3 ms, 10 M in 30
//! ms. Searching ordinary text costs well under
//! one step per character; a budget of 10 M steps per file or per line is generous for
//! real searches and bounds a catastrophic one to tens of milliseconds. The default
//! stack limit ([`DEFAULT_MAX_STACK`] frames, 64 MiB) is only reached by patterns that
//! backtrack over millions of characters.
//!
//! # Where it differs from Node 20
//!
//! * Nesting deeper than [`MAX_NESTING`] (500) is rejected ("Maximum call stack size
//!   exceeded"); V8 accepts about 10,000 levels. Conversely V8 fails to compile (at the
//!   first `exec`, "Stack overflow") some very large patterns, such as more than about
//!   10,000 capture groups, that the engine accepts.
//! * [`ast::V8Quirk::RecompiledNegatedClass`]: a `v`-mode `[^…]` inside a quantifier that
//!   V8 unrolls matches, in V8 11.3, the class or its complement depending on V8's
//!   compilation; the engine matches the class as written and reports the quirk
//!   ([`Regex::v8_quirks`]) so that a caller can defer to V8.
//! * [`ast::V8Quirk::LoopStartingWithLookbehind`]: V8 11.3 sometimes fails to enter a
//!   quantified group that begins with a lookbehind (`/(?:(?<=B)abc)*S/` finds `"S"` at
//!   4 in `"BabcS"`); the engine follows the spec and reports the quirk.
//! * V8 crashes (segfaults) on `[\P{Any}]` and `[^\P{Any}]` with `v`; the engine matches
//!   nothing and everything.
//! * [`Regex::find_at`] with a start between the halves of a surrogate pair under `u`/`v`:
//!   V8 first tries from the start of the pair, except for patterns it runs as a plain
//!   string search; the engine does the same (measured, not read in V8's source). A
//!   global search from 0 never starts there.
//!
//! The parsed tree is public ([`ast`]) so that patterns whose meaning a linear-time engine
//! can express may be translated to one.
#![deny(missing_docs)]

pub mod ast;
mod budget;
mod charset;
mod compiler;
mod error;
mod flags;
mod iter;
mod memo;
mod parser;
mod prefilter;
mod program;
mod search;
mod unicode;
mod vm;

use std::sync::Arc;

pub use budget::{Budget, DEFAULT_MAX_STACK};
pub use charset::{MAX_CODE_POINT, MAX_CODE_UNIT};
pub use error::{BudgetCause, BudgetExceeded, Error, ErrorKind, Reason};
pub use flags::Flags;
pub use iter::{CaptureMatches, Matches};
pub use parser::MAX_NESTING;
#[doc(hidden)]
pub use search::memoise_eagerly;
/// The Unicode version of the property and case-folding data (V8's in Node 20).
pub const UNICODE_VERSION: &str = unicode::DATA_VERSION;

/// A compiled regular expression. Immutable; clones share the compiled program.
#[derive(Clone)]
pub struct Regex {
    inner: Arc<Inner>,
}

struct Inner {
    source: Vec<u16>,
    pattern: ast::Pattern,
    /// V8 starts a search of a pattern anchored at the end (and not at the start) at
    /// `length - end_skip` (see `parser::Meta`).
    end_skip: Option<u32>,
    /// With `u`/`v`, V8 moves a start between the halves of a surrogate pair back to the
    /// pair, except for a few patterns (see `is_v8_atom`).
    step_back: bool,
    program: program::Program,
    prefilter: prefilter::Prefilter,
}

impl std::fmt::Debug for Regex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "/{}/{}", String::from_utf16_lossy(&self.inner.source), self.inner.pattern.flags)
    }
}

/// Every `\p{…}` body V8 accepts with the `u` flag (`L`, `Letter`, `gc=Lu`,
/// `Script=Greek`, `scx=Grek`, `Alphabetic` …), from the same tables the engine uses.
pub fn property_names() -> Vec<String> {
    unicode::property_names()
}

/// The properties of strings (`RGI_Emoji` …), valid in `\p{…}` with the `v` flag only.
pub fn string_property_names() -> Vec<String> {
    unicode::string_property_names()
}

/// Parses a pattern without compiling it: the tree of [`ast`], for translators.
pub fn parse(pattern: &[u16], flags: &str) -> Result<ast::Pattern, Error> {
    parser::parse(pattern, Flags::parse(flags)?)
}

impl Regex {
    /// `new RegExp(pattern, flags)`: parses and compiles. The error is V8's `SyntaxError`
    /// message. Cost: linear in the pattern, plus the Unicode sets it uses (a `\p{…}` or
    /// a large case-insensitive class takes some microseconds).
    pub fn new(pattern: &[u16], flags: &str) -> Result<Regex, Error> {
        Regex::with_flags(pattern, Flags::parse(flags)?)
    }

    /// Like [`Regex::new`] with already parsed flags.
    pub fn with_flags(pattern: &[u16], flags: Flags) -> Result<Regex, Error> {
        let (pattern_ast, meta) = parser::parse_with_meta(pattern, flags)?;
        let program = compiler::compile(&pattern_ast);
        let prefilter = prefilter::Prefilter::new(&pattern_ast);
        let end_skip = (meta.end && !meta.start && !flags.sticky && meta.max < i32::MAX as u32)
            .then_some(meta.max);
        let step_back = flags.unicode_mode() && !is_v8_atom(&pattern_ast, meta.single_char);
        Ok(Regex {
            inner: Arc::new(Inner {
                source: pattern.to_vec(),
                pattern: pattern_ast,
                end_skip,
                step_back,
                program,
                prefilter,
            }),
        })
    }

    /// [`Regex::new`] for a pattern given as a Rust string.
    #[allow(clippy::should_implement_trait)] // takes flags too, unlike `FromStr`
    pub fn from_str(pattern: &str, flags: &str) -> Result<Regex, Error> {
        let units: Vec<u16> = pattern.encode_utf16().collect();
        Regex::new(&units, flags)
    }

    /// The flags.
    pub fn flags(&self) -> Flags {
        self.inner.pattern.flags
    }

    /// The pattern source, as given.
    pub fn source(&self) -> &[u16] {
        &self.inner.source
    }

    /// The parsed tree.
    pub fn ast(&self) -> &ast::Pattern {
        &self.inner.pattern
    }

    /// The number of capture groups (not counting group 0).
    pub fn capture_count(&self) -> usize {
        self.inner.pattern.capture_count as usize
    }

    /// V8 behaviours this pattern triggers that the engine does not reproduce (see
    /// [`ast::V8Quirk`]); empty for almost every pattern.
    pub fn v8_quirks(&self) -> &[ast::V8Quirk] {
        &self.inner.pattern.quirks
    }

    /// The names of the groups: `group_names()[i]` names group `i + 1`.
    pub fn group_names(&self) -> &[Option<String>] {
        &self.inner.pattern.group_names
    }

    /// `RegExpBuiltinExec` with `lastIndex = start`: the first match starting at or after
    /// `start` (exactly at `start` with the `y` flag). With `u`/`v`, a `start` between the
    /// halves of a surrogate pair moves back to the pair, as V8 does. `None` if there is
    /// no match or `start > text.len()`.
    pub fn find_at(
        &self,
        text: &[u16],
        start: usize,
        budget: &mut Budget<'_>,
    ) -> Result<Option<Match>, BudgetExceeded> {
        search::search(self, text, start, budget, |regs| Match {
            start: regs[0] as usize,
            end: regs[1] as usize,
        })
    }

    /// Like [`Regex::find_at`], with the capture groups.
    pub fn captures_at(
        &self,
        text: &[u16],
        start: usize,
        budget: &mut Budget<'_>,
    ) -> Result<Option<Captures>, BudgetExceeded> {
        let groups = self.capture_count() + 1;
        search::search(self, text, start, budget, |regs| {
            let slots = (0..groups)
                .map(|g| {
                    let (s, e) = (regs[2 * g], regs[2 * g + 1]);
                    (s != program::NONE && e != program::NONE)
                        .then_some(Match { start: s as usize, end: e as usize })
                })
                .collect();
            Captures { slots, regex: self.clone() }
        })
    }

    /// Whether the text has a match at or after `start`.
    pub fn is_match_at(
        &self,
        text: &[u16],
        start: usize,
        budget: &mut Budget<'_>,
    ) -> Result<bool, BudgetExceeded> {
        Ok(self.find_at(text, start, budget)?.is_some())
    }

    /// Every match, as the global exec loop of `String.prototype.matchAll` finds them:
    /// each search starts where the previous match ended, and after an empty match one
    /// code unit further (one code point under `u`/`v` when a surrogate pair follows).
    /// With `y`, the matches must follow each other contiguously from position 0.
    pub fn find_iter<'r, 't, 'b, 'c>(
        &'r self,
        text: &'t [u16],
        budget: &'b mut Budget<'c>,
    ) -> Matches<'r, 't, 'b, 'c> {
        Matches::new(self, text, budget)
    }

    /// [`Regex::find_iter`] with the groups of each match.
    pub fn captures_iter<'r, 't, 'b, 'c>(
        &'r self,
        text: &'t [u16],
        budget: &'b mut Budget<'c>,
    ) -> CaptureMatches<'r, 't, 'b, 'c> {
        CaptureMatches::new(self, text, budget)
    }
}

/// Whether V8 skips its step back to the start of a surrogate pair for this pattern:
/// V8 runs a pattern whose tree is a single text atom, without groups, `i` or `y`, as a
/// plain string search (its "atom" regexps). In Unicode mode the only such atom that can
/// be affected is a single astral character (written literally or escaped).
fn is_v8_atom(pattern: &ast::Pattern, single_char: bool) -> bool {
    single_char
        && !pattern.flags.ignore_case
        && !pattern.flags.sticky
        && pattern.capture_count == 0
        && matches!(pattern.root, ast::Node::Char(c) if c > 0xFFFF)
}

/// A match: a range of code-unit indices into the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Match {
    start: usize,
    end: usize,
}

impl Match {
    /// The start index (inclusive).
    pub fn start(&self) -> usize {
        self.start
    }

    /// The end index (exclusive).
    pub fn end(&self) -> usize {
        self.end
    }

    /// `start..end`.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    /// Whether the match is empty.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The matched code units.
    pub fn as_slice<'t>(&self, text: &'t [u16]) -> &'t [u16] {
        &text[self.start..self.end]
    }
}

/// The groups of a match: group 0 is the whole match; a group that did not participate
/// is `None` (JavaScript's `undefined`).
#[derive(Clone, Debug)]
pub struct Captures {
    slots: Vec<Option<Match>>,
    regex: Regex,
}

impl Captures {
    /// Group `i` (0 is the whole match).
    pub fn get(&self, i: usize) -> Option<Match> {
        self.slots.get(i).copied().flatten()
    }

    /// The group named `name`.
    pub fn name(&self, name: &str) -> Option<Match> {
        let i = self.regex.group_names().iter().position(|n| n.as_deref() == Some(name))?;
        self.get(i + 1)
    }

    /// The number of groups, including group 0.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always `false`: there is at least group 0.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Iterates over the groups in order.
    pub fn iter(&self) -> impl Iterator<Item = Option<Match>> + '_ {
        self.slots.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn regex_is_send_sync() {
        fn check<T: Send + Sync + Clone>() {}
        check::<Regex>();
    }

    #[test]
    fn star_loops_over_a_run_and_a_separator_are_fused() {
        let fused = |p: &str| {
            let re = Regex::from_str(p, "").unwrap();
            re.inner.program.insts.iter().any(|i| matches!(i, program::Inst::StarRun { .. }))
        };
        assert!(fused(r"(\w+)\s(?:\w+\s)*\1;"));
        assert!(fused(r"^(?:\d+\.)*\d+$"));
        assert!(fused(r"(?:\w{2,}\s)*end"));
        assert!(fused(r"(?:\w*\s)*;"));
        assert!(fused(r#"^(?:[^"]*")*[^"]*$"#));
        // Lazy, overlapping sets, a capture in the body, a body that can be empty.
        for p in [r"(?:\w+\s)*?end", r"(?:\w+\w)*;", r"(?:(\w+)\s)*\1", r"(?:\w*\s?)*;"] {
            assert!(!fused(p), "{p}");
        }
    }

    /// `re` with its lookaheads compiled the general way (`LookStart`…`LookEnd`).
    fn general(re: &Regex) -> Regex {
        let i = &re.inner;
        Regex {
            inner: Arc::new(Inner {
                source: i.source.clone(),
                pattern: i.pattern.clone(),
                end_skip: i.end_skip,
                step_back: i.step_back,
                program: compiler::compile_general(&i.pattern),
                prefilter: prefilter::Prefilter::new(&i.pattern),
            }),
        }
    }

    /// Every match of the global exec loop, as `matchAll` with the `d` flag gives them:
    /// `start,end` of each group (`-1,-1` when unset), matches separated by `|`.
    fn all_matches(re: &Regex, text: &[u16]) -> String {
        let mut budget = Budget::unlimited();
        let matches: Vec<String> = re
            .captures_iter(text, &mut budget)
            .map(|caps| {
                let caps = caps.unwrap();
                let groups: Vec<String> = caps
                    .iter()
                    .map(|g| g.map_or("-1,-1".to_string(), |m| format!("{},{}", m.start, m.end)))
                    .collect();
                groups.join(",")
            })
            .collect();
        matches.join("|")
    }

    #[test]
    fn small_lookaheads_are_one_check() {
        // (pattern, flags, text, the fast forms used: `T` a `LookTest`, `G` a loop over a
        // `Matcher::Guarded`; V8's matches, from Node 20:
        // `[...text.matchAll(new RegExp(pattern, flags + "gd"))]` as `all_matches` writes
        // them).
        let cases: &[(&str, &str, &str, &str, &str)] = &[
            // picomatch's globstar and dot guards.
            (r"(?!(?:^|\/)\.).", "", ".a/.b/c.", "T", "1,2|3,4|4,5|5,6|6,7|7,8"),
            (r"^(?:(?:(?!(?:^|\/)\.).)*?)$", "", "a/b/c", "TG", "0,5"),
            (r"^(?:(?:(?!(?:^|\/)\.).)*?)$", "", "a/.b/c", "TG", ""),
            (r"^(?:(?:(?!(?:^|\/)\.).)*?)$", "", ".a", "TG", ""),
            (r"^(?:(?:(?!(?:^|\/)\.).)*?)$", "", "", "TG", "0,0"),
            (r"(?:(?!(?:^|\/)\.).)*", "", "a/b/.c/.d", "TG", "0,3|3,3|4,6|6,6|7,9|9,9"),
            (r"^(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*$", "", "a/./b", "TG", ""),
            (r"^(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*$", "", "a/.../b/.x", "TG", "0,10"),
            (r"^(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*?\/x$", "", "a/./b/x", "TG", ""),
            (r"^(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*?\/x$", "", "a/.b/x", "TG", "0,6"),
            (
                r"(?!(?:^|\/)\.{1,2}(?:\/|$))",
                "",
                "../a/..//..",
                "T",
                "1,1|2,2|3,3|5,5|6,6|7,7|9,9|10,10|11,11",
            ),
            (r"(?=(?:^|\/)\.{1,2}(?:\/|$))", "", "../a/..//.../.", "T", "0,0|4,4|12,12"),
            // One character: a `LookOne` already, guarding loops too.
            (r"(?!\.)", "", ".a.", "", "1,1|3,3"),
            (r"(?:(?!\.).){2,3}", "", "ab.cde.f.g", "G", "0,2|3,6"),
            (r"<(?:(?!<).)*?>", "", "<a<b>c>", "G", "2,5"),
            (r"(?:(?<=a).)+", "", "aabab", "G", "1,3|4,5"),
            (r"(?:\b\w)+", "", "a bc d", "G", "0,1|2,3|5,6"),
            // `^`/`$` with and without `m`, at the start and end of the text.
            (r"(?=^a|b$)\w", "m", "xa\nab\rb\u{2028}a", "T", "3,4|4,5|6,7|8,9"),
            (r"(?!^|$).", "m", "ab\ncd\r\ne\u{2029}f", "T", "1,2|4,5"),
            (r"(?!^|$).", "", "ab\ncd", "T", "1,2|3,4|4,5"),
            (r"(?:(?!^|$).)+", "m", "ab\ncde\r\nf", "TG", "1,2|4,6"),
            // Case folding without and with `u` (K, the Kelvin sign, under `iu` only).
            (r"(?=[a-c]x|k)\w+", "i", "AX bX k K \u{212a} s", "T", "0,2|3,5|6,7|8,9"),
            (r"(?=[a-c]x|k)\w+", "iu", "AX bX k K \u{212a} s", "T", "0,2|3,5|6,7|8,9|10,11"),
            (r"(?:(?=[a-c]x|k).)+", "i", "AXbXkKk", "TG", "0,1|2,3|4,7"),
            // Surrogate pairs: code points with `u`, code units without.
            (r"(?=\u{1F600}|.a).", "u", "\u{1F600}a\u{1F600}ba\u{1F600}", "T", "0,2|3,5|5,6|7,9"),
            (r"(?!.x)..", "", "\u{1F600}x\u{1F600}y", "T", "0,2|2,4|4,6"),
            (r"(?!.x)..", "u", "\u{1F600}x\u{1F600}y", "T", "2,5"),
            (r"(?:(?!\u{1F600}).)+", "u", "a\u{1F600}b\u{1F600}\u{1F600}c", "G", "0,1|3,4|8,9"),
            (r"(?:(?!\uDE00).)+", "", "a\u{1F600}b", "G", "0,2|3,4"),
            // `\b`, `s`, empty bodies, repetitions.
            (r"(?=\b\w|\B-)", "", "ab -c--", "T", "0,0|3,3|4,4|6,6"),
            (r"(?=.\n|.$).", "s", "a\n\nb", "T", "0,1|1,2|3,4"),
            (r"a(?!)|b(?=)", "", "ab", "T", "1,2"),
            (r"(?!$)", "", "ab", "T", "0,0|1,1"),
            (r"(?=x{0,2}y)\w", "", "yxyxxyxxxy", "T", "0,1|1,2|2,3|3,4|4,5|5,6|7,8|8,9|9,10"),
            // A capture inside: the general path, whose captures V8 reports.
            (r"(?=(a)|b)\w", "", "xaby", "", "1,2,1,2|2,3,-1,-1"),
            (r"(?!(a)|b)\w", "", "xaby", "", "0,1,-1,-1|3,4,-1,-1"),
            (r"(?:(?!(a)).)+", "", "bbabb", "", "0,2,-1,-1|3,5,-1,-1"),
            // A back reference, a nested lookaround, an unbounded loop: general too.
            (r"(a)(?=\1|b)", "", "aab", "", "0,1,0,1|1,2,1,2"),
            (r"(?=a(?!b))\w", "", "abac", "", "2,3"),
            (r"(?=x+y)\w", "", "xxyx", "", "0,1|1,2"),
        ];
        for &(p, flags, text, fast, want) in cases {
            let re = Regex::from_str(p, flags).unwrap();
            let prog = &re.inner.program;
            let test = prog.insts.iter().any(|i| matches!(i, program::Inst::LookTest { .. }))
                || prog.guarded.iter().any(|g| matches!(g.check, program::Inst::LookTest { .. }));
            let guarded = prog.insts.iter().any(|i| {
                matches!(i, program::Inst::RepeatOne { m: program::Matcher::Guarded(_), .. })
            });
            assert_eq!((test, guarded), (fast.contains('T'), fast.contains('G')), "/{p}/{flags}");
            let text = u(text);
            assert_eq!(all_matches(&re, &text), want, "/{p}/{flags} on {text:?}");
            assert_eq!(all_matches(&general(&re), &text), want, "/{p}/{flags} (general)");
        }
    }

    #[test]
    fn basic_find() {
        let re = Regex::from_str("b+", "").unwrap();
        let t = u("abbbc");
        let m = re.find_at(&t, 0, &mut Budget::unlimited()).unwrap().unwrap();
        assert_eq!(m.range(), 1..4);
        assert!(re.find_at(&t, 4, &mut Budget::unlimited()).unwrap().is_none());
        assert!(re.find_at(&t, 99, &mut Budget::unlimited()).unwrap().is_none());
    }
}
