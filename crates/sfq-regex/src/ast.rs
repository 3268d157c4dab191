//! The parsed pattern: a tree whose character sets are fully resolved, so that a
//! translator (to `regex-syntax`'s `Hir`, say) can be written against it without knowing
//! JavaScript's syntax.
//!
//! Resolution done by the parser:
//!
//! * escapes, `\cX`, octal, `\u{…}` and surrogate-pair escapes are decoded;
//! * `.`, `\d \s \w` (and their negations), `[…]` classes with ranges, negation, `v`-mode
//!   set operations and `\p{…}` are [`Node::Class`] sets;
//! * case-insensitivity (`i`) is applied to every set and literal: a literal with case
//!   variants becomes the [`Node::Class`] of its variants, so a [`Node::Char`] always
//!   matches exactly itself; class sets are closed over case (and negated after that, as
//!   the spec says). The only node whose meaning still depends on `i` is
//!   [`Node::BackReference`];
//! * `v`-mode classes that contain strings (`\q{…}`, `\p{RGI_Emoji}`) become an
//!   [`Node::Alternation`] of the strings (longest first), then the set of single
//!   characters, then the empty string if present — exactly how they match;
//! * named groups and `\k<name>` are resolved to group indices;
//! * non-capturing groups `(?:…)` leave no node of their own.
//!
//! What a "character" is depends on the mode ([`Pattern::unicode_mode`]): without `u`/`v`
//! it is one UTF-16 code unit, so [`Node::Char`] values and [`CharSet`] members are at
//! most `0xFFFF` and an astral character in the pattern is two `Char` nodes; with `u`/`v`
//! it is a code point, a surrogate pair in the text is one character, and a surrogate
//! code point in a set or `Char` matches only an unpaired surrogate in the text.

pub use crate::charset::CharSet;
use crate::flags::Flags;

/// A parsed pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The flags the pattern was parsed with.
    pub flags: Flags,
    /// The tree.
    pub root: Node,
    /// The number of capture groups (group 0, the whole match, not counted).
    pub capture_count: u32,
    /// The name of each capture group: `group_names[i]` is the name of group `i + 1`.
    pub group_names: Vec<Option<String>>,
    /// V8 behaviours this pattern triggers that the engine does not reproduce: when not
    /// empty, results may differ from Node's (a caller that must be exact can hand such
    /// a pattern to V8 itself).
    pub quirks: Vec<V8Quirk>,
}

/// A V8 11.3 behaviour that the engine does not reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum V8Quirk {
    /// With `v`, a negated class `[^…]` inside a quantifier that V8 compiles more than
    /// once (it unrolls `{2}`, `+`, `{1,3}` … over bodies without captures that cannot
    /// match empty). V8 11.3 negates the class's set in place at each compilation, so the
    /// copies match the class or its complement depending on how many compilations
    /// happened and on whether the subject string is stored as one-byte or two-byte:
    /// `/(?:a[^S])+/v` does not match `"a?"` in Node 20. The engine matches the class as
    /// written.
    RecompiledNegatedClass,
    /// A quantified group that starts with a lookbehind, such as `(?:(?<=B)abc)*`: V8
    /// 11.3's loop code sometimes fails to enter such a group, so `/(?:(?<=B)abc)*S/`
    /// finds `"S"` at 4 in `"BabcS"` instead of `"abcS"` at 1 (it depends on the
    /// lookbehind, the body and what follows). The engine follows the spec.
    LoopStartingWithLookbehind,
}

impl Pattern {
    /// Whether characters are code points (`u` or `v`) rather than code units.
    pub fn unicode_mode(&self) -> bool {
        self.flags.unicode_mode()
    }

    /// The characters `\b`/`\B` treat as word characters: `[0-9A-Za-z_]`, plus U+017F
    /// (ſ) and U+212A (Kelvin sign) when `i` is combined with `u` or `v`.
    pub fn word_chars(&self) -> CharSet {
        word_chars(self.flags.ignore_case && self.unicode_mode())
    }
}

/// `[0-9A-Za-z_]`, with ſ and K when `extended` (the `iu`/`iv` rule).
pub(crate) fn word_chars(extended: bool) -> CharSet {
    let mut s = CharSet::from_ranges([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]);
    if extended {
        s.add(0x17F);
        s.add(0x212A);
    }
    s
}

/// A node of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// Matches the empty string.
    Empty,
    /// Matches exactly this character (a code unit, or a code point under `u`/`v`).
    Char(u32),
    /// Matches one character of the set.
    Class(CharSet),
    /// A zero-width assertion.
    Assertion(Assertion),
    /// The nodes one after the other.
    Concat(Vec<Node>),
    /// The alternatives, tried in order (the first that leads to an overall match wins).
    Alternation(Vec<Node>),
    /// A capture group.
    Capture(Box<Capture>),
    /// A quantified node.
    Repeat(Box<Repeat>),
    /// A lookahead or lookbehind.
    Lookaround(Box<Lookaround>),
    /// `\N` or `\k<name>`: the text last captured by group `index` (1-based). A group that
    /// has not participated (or was reset) matches the empty string. Under `i` the
    /// comparison is case-insensitive with the mode's case folding. Inside a lookbehind it
    /// is matched backwards.
    BackReference(u32),
}

/// A zero-width assertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Assertion {
    /// `^` without `m`: the start of the text.
    StartOfInput,
    /// `$` without `m`: the end of the text.
    EndOfInput,
    /// `^` with `m`: the start of the text or after `\n`, `\r`, U+2028, U+2029.
    StartOfLine,
    /// `$` with `m`: the end of the text or before `\n`, `\r`, U+2028, U+2029.
    EndOfLine,
    /// `\b`: exactly one of the characters around the position is a word character (see
    /// [`Pattern::word_chars`]; a position outside the text is not one).
    WordBoundary,
    /// `\B`: the negation of `\b`.
    NotWordBoundary,
}

/// A capture group, `(…)` or `(?<name>…)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    /// The group number, from 1, in order of the opening parentheses.
    pub index: u32,
    /// The group name, if any.
    pub name: Option<String>,
    /// The body.
    pub node: Node,
}

/// A quantified node: `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, greedy or lazy (`?` suffix).
///
/// Each iteration first resets the captures inside the body; an iteration beyond `min`
/// that matches the empty string is rejected (the spec's empty check).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// The minimum number of iterations. V8 caps numbers at 2^31 − 1.
    pub min: u32,
    /// The maximum, `None` for no limit (also for numbers of 2^31 − 1 and more).
    pub max: Option<u32>,
    /// Greedy (`true`) or lazy.
    pub greedy: bool,
    /// The body.
    pub node: Node,
}

/// A lookaround assertion: `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`. It is atomic: once the
/// body matched, its alternatives are not revisited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lookaround {
    /// Lookbehind (`true`): the body is matched right to left, ending at the position.
    pub behind: bool,
    /// Negative (`true`): succeeds when the body cannot match; its captures stay unset.
    pub negative: bool,
    /// The body.
    pub node: Node,
}

impl Node {
    /// Whether the node can match only the empty string (V8's `max_match() == 0`).
    pub fn matches_only_empty(&self) -> bool {
        match self {
            Node::Empty | Node::Assertion(_) | Node::Lookaround(_) => true,
            Node::Char(_) | Node::Class(_) | Node::BackReference(_) => false,
            Node::Concat(v) | Node::Alternation(v) => v.iter().all(Node::matches_only_empty),
            Node::Capture(c) => c.node.matches_only_empty(),
            Node::Repeat(r) => r.max == Some(0) || r.node.matches_only_empty(),
        }
    }

    /// Whether the node can match the empty string.
    pub fn can_be_empty(&self) -> bool {
        match self {
            Node::Empty | Node::Assertion(_) | Node::Lookaround(_) | Node::BackReference(_) => true,
            Node::Char(_) | Node::Class(_) => false,
            Node::Concat(v) => v.iter().all(Node::can_be_empty),
            Node::Alternation(v) => v.iter().any(Node::can_be_empty),
            Node::Capture(c) => c.node.can_be_empty(),
            Node::Repeat(r) => r.min == 0 || r.node.can_be_empty(),
        }
    }

    /// The capture groups inside the node, as a range of group indices `lo..hi` (empty if
    /// none). Groups are numbered in order, so the groups of a subtree are contiguous.
    pub fn capture_range(&self) -> std::ops::Range<u32> {
        let mut lo = u32::MAX;
        let mut hi = 0;
        self.visit_captures(&mut |i| {
            lo = lo.min(i);
            hi = hi.max(i + 1);
        });
        if lo > hi { 0..0 } else { lo..hi }
    }

    fn visit_captures(&self, f: &mut dyn FnMut(u32)) {
        match self {
            Node::Concat(v) | Node::Alternation(v) => v.iter().for_each(|n| n.visit_captures(f)),
            Node::Capture(c) => {
                f(c.index);
                c.node.visit_captures(f);
            }
            Node::Repeat(r) => r.node.visit_captures(f),
            Node::Lookaround(l) => l.node.visit_captures(f),
            _ => {}
        }
    }
}
