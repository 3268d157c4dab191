//! The translation of a parsed JavaScript pattern ([`sfq_regex::ast`]) to a `regex-syntax`
//! [`Hir`], for one of two targets:
//!
//! * [`Target::Exact`]: the same matches as V8 on every text the [guards](crate::Guards)
//!   let through, or a reason ([`Inexact`]) why that cannot be promised;
//! * [`Target::Superset`]: every string V8 matches (in context) is matched too. In
//!   [`Scope::Lines`] the superset is searched over a whole file, so it never matches `\n`
//!   and anchors become line looks that also treat `\r` as a terminator.
//!
//! No capture groups are emitted: only the span of the whole match is ever needed.

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look, Repetition};
use sfq_regex::ast::{Assertion, CharSet, Node, Pattern};

use crate::Scope;
use crate::reason::Inexact;

/// What the translation is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// Exactly V8's matches (on unguarded texts).
    Exact,
    /// A superset of V8's matches.
    Superset,
}

/// Constructs the emitted `Hir` uses whose translation is exact only on some texts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Uses {
    /// `^`/`$` with `m`, emitted as CRLF-aware looks (no U+2028/U+2029, and in a whole
    /// text not between `\r` and `\n`).
    pub line_anchors: bool,
    /// `\b`/`\B`, emitted as ASCII word looks (no ſ/K under `iu`/`iv`).
    pub word_looks: bool,
}

/// The result of a translation.
pub(crate) struct Translation {
    /// The expression (for [`Target::Exact`], meaningful only when `inexact` is `None`).
    pub hir: Hir,
    /// Why the expression is not exact (always `None` for a superset).
    pub inexact: Option<Inexact>,
    /// The constructs whose exactness depends on the text.
    pub uses: Uses,
}

/// Repetition counts above this are widened when a superset must be made smaller.
const CLAMP: u32 = 8;
/// How many backreference copies a superset may contain before a backreference becomes
/// "any text".
const COPY_BUDGET: usize = 32;

/// How far the translation may go to stay small (used for a second attempt at a
/// superset after the first exceeded the size limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Size {
    /// Counted repetitions as written, backreferences as copies of their group.
    Faithful,
    /// Counts above [`CLAMP`] widened (`{100}` → `{8,}`), backreferences as any text.
    Clamped,
}

/// Trees nested deeper than this are not translated: `regex-automata`'s compilers and
/// literal extractors recurse, and a search thread's stack may be small (real patterns
/// nest a few levels).
pub(crate) const MAX_DEPTH: usize = 64;

/// Whether the tree under `node` is nested deeper than `limit` levels (recursing at most
/// `limit` levels).
pub(crate) fn too_deep(node: &Node, limit: usize) -> bool {
    let children: &[Node] = match node {
        Node::Concat(v) | Node::Alternation(v) => v,
        Node::Capture(c) => std::slice::from_ref(&c.node),
        Node::Repeat(r) => std::slice::from_ref(&r.node),
        Node::Lookaround(l) => std::slice::from_ref(&l.node),
        Node::Empty
        | Node::Char(_)
        | Node::Class(_)
        | Node::Assertion(_)
        | Node::BackReference(_) => {
            return false;
        }
    };
    limit == 0 || children.iter().any(|c| too_deep(c, limit - 1))
}

/// Translates `pattern` for `target` in `scope` (the caller checks [`too_deep`] first).
pub(crate) fn translate(
    pattern: &Pattern,
    target: Target,
    scope: Scope,
    size: Size,
) -> Translation {
    let mut groups = vec![None; pattern.capture_count as usize + 1];
    collect_groups(&pattern.root, &mut groups);
    let mut t = Translator {
        target,
        scope,
        size,
        unicode: pattern.unicode_mode(),
        widen_classes: target == Target::Superset && quirky(pattern),
        extended_word: pattern.flags.ignore_case && pattern.unicode_mode(),
        groups,
        uses: Uses::default(),
        inexact: None,
        copying: Vec::new(),
        copy_budget: if size == Size::Faithful { COPY_BUDGET } else { 0 },
    };
    if target == Target::Exact {
        if pattern.flags.sticky {
            t.inexact = Some(Inexact::Sticky);
        } else if quirky(pattern) {
            t.inexact = Some(Inexact::V8Quirk);
        }
    }
    let hir = t.node(&pattern.root, false);
    Translation { hir, inexact: t.inexact, uses: t.uses }
}

/// Whether V8 11.3 may not match the pattern as written: a quirk `sfq-regex` reports, or
/// one it does not (measured): with `v`, V8 negates a class like `[^]` in place each time
/// it compiles it, and it compiles a pattern ending in `$` twice: `/[^]$/v`, `/a[^]b$/v`
/// never match (`/[^]$/vm` does). Such a class resolves to every code point, as `[\s\S]`
/// does, which is suspected too. (The quantifier cases, `/[^]{2}/v` matching one
/// character, are already in the tree `sfq-regex` builds.)
fn quirky(pattern: &Pattern) -> bool {
    !pattern.quirks.is_empty()
        || (pattern.flags.unicode_sets
            && has_end_of_input(&pattern.root)
            && has_everything_class(&pattern.root))
}

fn has_everything_class(node: &Node) -> bool {
    match node {
        Node::Class(set) => set.ranges() == [(0, 0x10FFFF)],
        Node::Concat(v) | Node::Alternation(v) => v.iter().any(has_everything_class),
        Node::Capture(c) => has_everything_class(&c.node),
        Node::Repeat(r) => has_everything_class(&r.node),
        Node::Lookaround(l) => has_everything_class(&l.node),
        Node::Empty | Node::Char(_) | Node::Assertion(_) | Node::BackReference(_) => false,
    }
}

fn has_end_of_input(node: &Node) -> bool {
    match node {
        Node::Assertion(a) => *a == Assertion::EndOfInput,
        Node::Concat(v) | Node::Alternation(v) => v.iter().any(has_end_of_input),
        Node::Capture(c) => has_end_of_input(&c.node),
        Node::Repeat(r) => has_end_of_input(&r.node),
        Node::Lookaround(l) => has_end_of_input(&l.node),
        Node::Empty | Node::Char(_) | Node::Class(_) | Node::BackReference(_) => false,
    }
}

/// Whether a match can involve half of a surrogate pair, so that texts holding astral
/// characters need the exact engine:
///
/// * without `u`/`v` (characters are code units): some character or set can match a
///   surrogate (a pair written literally, `\uD83D\uDE00`, is one astral character and
///   does not count), or the pattern can match the empty string (JavaScript also tries
///   the position between the halves);
/// * with `u`/`v`: the pattern can match empty and uses `\B`. V8's scan for the next
///   match start goes code unit by code unit once the search at `lastIndex` failed, and
///   `\B` holds between the halves of a pair (both non-word): `/\B/gu` finds index 2 in
///   `"a😀"`. (`\b`, `^` and `$` never hold there; a character never matches a half.)
pub(crate) fn touches_surrogates(pattern: &Pattern) -> bool {
    let root = &pattern.root;
    if pattern.unicode_mode() {
        root.can_be_empty() && has_not_word_boundary(root)
    } else {
        root.can_be_empty() || has_surrogate_atom(root)
    }
}

fn has_not_word_boundary(node: &Node) -> bool {
    match node {
        Node::Assertion(a) => *a == Assertion::NotWordBoundary,
        Node::Concat(v) | Node::Alternation(v) => v.iter().any(has_not_word_boundary),
        Node::Capture(c) => has_not_word_boundary(&c.node),
        Node::Repeat(r) => has_not_word_boundary(&r.node),
        Node::Lookaround(l) => has_not_word_boundary(&l.node),
        Node::Empty | Node::Char(_) | Node::Class(_) | Node::BackReference(_) => false,
    }
}

fn has_surrogate_atom(node: &Node) -> bool {
    match node {
        Node::Char(c) => is_surrogate(*c),
        Node::Class(set) => set.ranges().iter().any(|&(a, b)| a <= 0xDFFF && b >= 0xD800),
        Node::Concat(v) => {
            let mut i = 0;
            while i < v.len() {
                if pair_at(v, i).is_some() {
                    i += 2;
                    continue;
                }
                if has_surrogate_atom(&v[i]) {
                    return true;
                }
                i += 1;
            }
            false
        }
        Node::Alternation(v) => v.iter().any(has_surrogate_atom),
        Node::Capture(c) => has_surrogate_atom(&c.node),
        Node::Repeat(r) => has_surrogate_atom(&r.node),
        Node::Lookaround(l) => has_surrogate_atom(&l.node),
        Node::Empty | Node::Assertion(_) | Node::BackReference(_) => false,
    }
}

/// A high surrogate `Char` followed by a low surrogate `Char` at `v[i]`: the astral
/// character they encode (only meaningful without `u`/`v`, where characters are units).
fn pair_at(v: &[Node], i: usize) -> Option<char> {
    match (v.get(i), v.get(i + 1)) {
        (Some(Node::Char(h)), Some(Node::Char(l)))
            if (0xD800..=0xDBFF).contains(h) && (0xDC00..=0xDFFF).contains(l) =>
        {
            char::from_u32(0x10000 + ((h - 0xD800) << 10) + (l - 0xDC00))
        }
        _ => None,
    }
}

fn is_surrogate(c: u32) -> bool {
    (0xD800..=0xDFFF).contains(&c)
}

fn collect_groups<'p>(node: &'p Node, groups: &mut Vec<Option<&'p Node>>) {
    match node {
        Node::Capture(c) => {
            if let Some(slot) = groups.get_mut(c.index as usize) {
                *slot = Some(&c.node);
            }
            collect_groups(&c.node, groups);
        }
        Node::Concat(v) | Node::Alternation(v) => v.iter().for_each(|n| collect_groups(n, groups)),
        Node::Repeat(r) => collect_groups(&r.node, groups),
        Node::Lookaround(l) => collect_groups(&l.node, groups),
        Node::Empty
        | Node::Char(_)
        | Node::Class(_)
        | Node::Assertion(_)
        | Node::BackReference(_) => {}
    }
}

struct Translator<'p> {
    target: Target,
    scope: Scope,
    size: Size,
    /// `u` or `v`: characters are code points.
    unicode: bool,
    /// A V8 quirk makes some classes match their complement or nothing: every set becomes
    /// "any character, optional".
    widen_classes: bool,
    /// `i` with `u`/`v`: `\b` also counts ſ and K as word characters.
    extended_word: bool,
    /// The body of each group, by index.
    groups: Vec<Option<&'p Node>>,
    uses: Uses,
    inexact: Option<Inexact>,
    /// Groups whose bodies are being copied for a backreference.
    copying: Vec<u32>,
    /// Backreference copies still allowed.
    copy_budget: usize,
}

impl<'p> Translator<'p> {
    fn give_up(&mut self, why: Inexact) {
        if self.target == Target::Exact && self.inexact.is_none() {
            self.inexact = Some(why);
        }
    }

    fn superset(&self) -> bool {
        self.target == Target::Superset
    }

    /// Whether `\n` must be left out: a superset searched over a whole file for matches
    /// inside single lines.
    fn no_newline(&self) -> bool {
        self.superset() && self.scope == Scope::Lines
    }

    /// `copy`: inside a backreference's copy of a group body (superset only), where the
    /// context differs from the group's, so assertions are dropped.
    fn node(&mut self, node: &'p Node, copy: bool) -> Hir {
        match node {
            Node::Empty => Hir::empty(),
            Node::Char(c) => self.char(*c),
            Node::Class(set) => self.class(set),
            Node::Assertion(a) => {
                if copy {
                    Hir::empty()
                } else {
                    self.assertion(*a)
                }
            }
            Node::Concat(v) => {
                let mut out = Vec::with_capacity(v.len());
                let mut i = 0;
                while i < v.len() {
                    if !self.unicode
                        && let Some(c) = pair_at(v, i)
                    {
                        out.push(literal(c));
                        i += 2;
                        continue;
                    }
                    out.push(self.node(&v[i], copy));
                    i += 1;
                }
                Hir::concat(out)
            }
            Node::Alternation(v) => {
                let alts = v.iter().map(|n| self.node(n, copy)).collect();
                Hir::alternation(alts)
            }
            Node::Capture(c) => self.node(&c.node, copy),
            Node::Repeat(r) => self.repeat(r, copy),
            Node::Lookaround(_) => {
                // A superset may ignore the assertion (more positions pass).
                self.give_up(Inexact::Lookaround);
                Hir::empty()
            }
            Node::BackReference(k) => {
                self.give_up(Inexact::BackReference);
                if self.superset() { self.backreference(*k) } else { Hir::empty() }
            }
        }
    }

    fn char(&mut self, c: u32) -> Hir {
        // A surrogate: without u/v half of a pair (texts with astral characters are
        // guarded); with u/v an unpaired surrogate, which valid UTF-8 never holds.
        if is_surrogate(c) || (c == 0x0A && self.no_newline()) {
            return Hir::fail();
        }
        char::from_u32(c).map_or_else(Hir::fail, literal)
    }

    fn class(&mut self, set: &CharSet) -> Hir {
        if self.widen_classes {
            // A quirky class may match its complement, or (as a quantifier's copy) not
            // be required at all: any character, optional.
            let any = self.any_char();
            return Hir::repetition(Repetition {
                min: 0,
                max: Some(1),
                greedy: true,
                sub: Box::new(any),
            });
        }
        let mut ranges = Vec::with_capacity(set.ranges().len() + 1);
        for &(a, b) in set.ranges() {
            push_range(&mut ranges, a, b, self.no_newline());
        }
        Hir::class(Class::Unicode(ClassUnicode::new(ranges)))
    }

    /// Any character (but `\n` where lines are searched over a whole file).
    fn any_char(&self) -> Hir {
        let mut ranges = Vec::with_capacity(3);
        push_range(&mut ranges, 0, 0x10FFFF, self.no_newline());
        Hir::class(Class::Unicode(ClassUnicode::new(ranges)))
    }

    fn assertion(&mut self, a: Assertion) -> Hir {
        let lines_superset = self.no_newline();
        let look = match a {
            // Without m: the start/end of the searched text (a line, or the whole text). A
            // superset over a whole file uses line looks instead, `\r` counting as a
            // terminator too, so that CRLF files keep the superset property.
            Assertion::StartOfInput if lines_superset => Look::StartCRLF,
            Assertion::StartOfInput => Look::Start,
            Assertion::EndOfInput if lines_superset => Look::EndCRLF,
            Assertion::EndOfInput => Look::End,
            // With m: CRLF looks. Exact except next to U+2028/U+2029 and, in a whole text,
            // between `\r` and `\n`: guarded texts. A whole-text superset drops them.
            Assertion::StartOfLine | Assertion::EndOfLine => {
                if self.superset() && self.scope == Scope::Whole {
                    return Hir::empty();
                }
                self.uses.line_anchors = true;
                if a == Assertion::StartOfLine { Look::StartCRLF } else { Look::EndCRLF }
            }
            // ASCII word boundaries: exact except next to ſ/K under iu/iv (guarded).
            Assertion::WordBoundary | Assertion::NotWordBoundary => {
                if self.extended_word && self.superset() && self.scope == Scope::Whole {
                    return Hir::empty();
                }
                self.uses.word_looks = true;
                if a == Assertion::WordBoundary { Look::WordAscii } else { Look::WordAsciiNegate }
            }
        };
        Hir::look(look)
    }

    fn repeat(&mut self, r: &'p sfq_regex::ast::Repeat, copy: bool) -> Hir {
        if r.max.is_some_and(|max| max < r.min) {
            return Hir::fail();
        }
        // A body that can only match empty: iterations beyond the minimum are rejected
        // (empty), the mandatory ones hold at the same position, as one does.
        if r.node.matches_only_empty() {
            return if r.min == 0 { Hir::empty() } else { self.node(&r.node, copy) };
        }
        if self.target == Target::Exact && r.max != Some(r.min) && r.node.can_be_empty() {
            self.give_up(Inexact::EmptyIteration);
        }
        let sub = self.node(&r.node, copy);
        if is_fail(&sub) {
            return if r.min == 0 { Hir::empty() } else { Hir::fail() };
        }
        let (mut min, mut max) = (r.min, r.max);
        if self.size == Size::Clamped && self.superset() {
            min = min.min(CLAMP);
            if max.is_some_and(|m| m > CLAMP) {
                max = None;
            }
        }
        Hir::repetition(Repetition { min, max, greedy: r.greedy, sub: Box::new(sub) })
    }

    /// A superset of what `\k` matches: the group's body (which matched the captured
    /// text, up to case under `i`, which the body's sets are closed over), optional
    /// because an unset group matches empty; "any text" for a recursive reference or
    /// past the copy budget.
    fn backreference(&mut self, k: u32) -> Hir {
        let body = self.groups.get(k as usize).copied().flatten();
        let Some(body) = body else { return Hir::empty() };
        if self.copying.contains(&k) || self.copy_budget == 0 {
            let any = self.any_char();
            return Hir::repetition(Repetition {
                min: 0,
                max: None,
                greedy: true,
                sub: Box::new(any),
            });
        }
        self.copy_budget -= 1;
        self.copying.push(k);
        let copy = self.node(body, true);
        self.copying.pop();
        Hir::repetition(Repetition { min: 0, max: Some(1), greedy: true, sub: Box::new(copy) })
    }
}

fn literal(c: char) -> Hir {
    let mut buf = [0u8; 4];
    Hir::literal(c.encode_utf8(&mut buf).as_bytes())
}

/// Whether `hir` can never match (an empty class, which is what `Hir::fail` is).
fn is_fail(hir: &Hir) -> bool {
    matches!(hir.kind(), HirKind::Class(Class::Unicode(c)) if c.ranges().is_empty())
        || matches!(hir.kind(), HirKind::Class(Class::Bytes(c)) if c.ranges().is_empty())
}

/// Adds `a..=b` to a Unicode class, without surrogates (never in valid UTF-8) and, if
/// asked, without `\n`.
fn push_range(out: &mut Vec<ClassUnicodeRange>, a: u32, b: u32, no_newline: bool) {
    let mut pieces = [(a, b.min(0xD7FF)), (a.max(0xE000), b.min(0x10FFFF))];
    for (lo, hi) in pieces.iter_mut() {
        if *lo > *hi {
            continue;
        }
        if no_newline && *lo <= 0x0A && *hi >= 0x0A {
            if *lo < 0x0A {
                push_chars(out, *lo, 0x09);
            }
            if *hi > 0x0A {
                push_chars(out, 0x0B, *hi);
            }
        } else {
            push_chars(out, *lo, *hi);
        }
    }
}

fn push_chars(out: &mut Vec<ClassUnicodeRange>, lo: u32, hi: u32) {
    if let (Some(lo), Some(hi)) = (char::from_u32(lo), char::from_u32(hi)) {
        out.push(ClassUnicodeRange::new(lo, hi));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ast(p: &str, f: &str) -> Pattern {
        let units: Vec<u16> = p.encode_utf16().collect();
        sfq_regex::parse(&units, f).unwrap()
    }

    fn exact(p: &str, f: &str) -> Translation {
        translate(&ast(p, f), Target::Exact, Scope::Lines, Size::Faithful)
    }

    #[test]
    fn classes_drop_surrogates_and_newline_in_line_supersets() {
        let t = translate(&ast("[^a]", "u"), Target::Superset, Scope::Lines, Size::Faithful);
        let HirKind::Class(Class::Unicode(c)) = t.hir.kind() else { panic!("{:?}", t.hir) };
        let r: Vec<(u32, u32)> =
            c.ranges().iter().map(|r| (r.start() as u32, r.end() as u32)).collect();
        assert_eq!(r, vec![(0, 9), (0x0B, 0x60), (0x62, 0xD7FF), (0xE000, 0x10FFFF)]);
        // The exact translation keeps \n (a whole text holds it).
        let t = translate(&ast("[^a]", "u"), Target::Exact, Scope::Whole, Size::Faithful);
        let HirKind::Class(Class::Unicode(c)) = t.hir.kind() else { panic!() };
        assert_eq!(c.ranges()[0].end(), '\u{60}');
    }

    #[test]
    fn inexact_constructs_are_reported() {
        assert_eq!(exact("a(?=b)", "").inexact, Some(Inexact::Lookaround));
        assert_eq!(exact("(a)\\1", "").inexact, Some(Inexact::BackReference));
        assert_eq!(exact("(?:|a)*", "").inexact, Some(Inexact::EmptyIteration));
        assert_eq!(exact("(?:a?)+", "").inexact, Some(Inexact::EmptyIteration));
        assert_eq!(exact("a", "y").inexact, Some(Inexact::Sticky));
        // {n} has no iteration beyond the minimum; bodies that cannot be empty are fine.
        assert_eq!(exact("(?:a?){3}", "").inexact, None);
        assert_eq!(exact("(?:ab|c)*?d+", "").inexact, None);
        // A body that only matches empty: `\b*` is empty, `\b+` is `\b`.
        assert_eq!(exact("(?:\\b)*a", "").inexact, None);
        assert_eq!(exact("(?:\\b)+a", "").uses, Uses { line_anchors: false, word_looks: true });
    }

    #[test]
    fn surrogate_pairs_written_literally_are_one_character() {
        let p = ast("\u{1F600}x", "");
        assert!(!touches_surrogates(&p));
        let t = translate(&p, Target::Exact, Scope::Lines, Size::Faithful);
        assert_eq!(t.hir, Hir::literal("\u{1F600}x".as_bytes()));
        // Quantifying the low half alone, or a class, touches halves.
        assert!(touches_surrogates(&ast("\u{1F600}+", "")));
        assert!(touches_surrogates(&ast("[^a]", "")));
        assert!(touches_surrogates(&ast("a*", "")));
        assert!(!touches_surrogates(&ast("[^a]", "u")));
        // With u: only empty matches through \B reach the middle of a pair.
        assert!(touches_surrogates(&ast("\\B|a", "u")));
        assert!(!touches_surrogates(&ast("\\Ba", "u")));
        assert!(!touches_surrogates(&ast("\\b|x*", "v")));
    }

    #[test]
    fn anchors_per_target_and_scope() {
        let lines_super =
            translate(&ast("^a$", ""), Target::Superset, Scope::Lines, Size::Faithful).hir;
        assert_eq!(
            lines_super,
            Hir::concat(vec![
                Hir::look(Look::StartCRLF),
                Hir::literal("a".as_bytes()),
                Hir::look(Look::EndCRLF)
            ])
        );
        let lines_exact = exact("^a$", "").hir;
        assert_eq!(
            lines_exact,
            Hir::concat(vec![
                Hir::look(Look::Start),
                Hir::literal("a".as_bytes()),
                Hir::look(Look::End)
            ])
        );
        let m = exact("^a$", "m");
        assert!(m.uses.line_anchors);
        let whole_super =
            translate(&ast("^a$", "m"), Target::Superset, Scope::Whole, Size::Faithful);
        assert_eq!(whole_super.hir, Hir::literal("a".as_bytes()));
        assert!(!whole_super.uses.line_anchors);
    }

    #[test]
    fn backreferences_become_optional_copies() {
        let t = translate(&ast("(['\"])x\\1", ""), Target::Superset, Scope::Lines, Size::Faithful);
        assert_eq!(t.inexact, None);
        let q = Hir::class(Class::Unicode(ClassUnicode::new([
            ClassUnicodeRange::new('"', '"'),
            ClassUnicodeRange::new('\'', '\''),
        ])));
        let want = Hir::concat(vec![
            q.clone(),
            Hir::literal("x".as_bytes()),
            Hir::repetition(Repetition { min: 0, max: Some(1), greedy: true, sub: Box::new(q) }),
        ]);
        assert_eq!(t.hir, want);
        // Copies nest; clamped, a reference is any text (but \n).
        let p = ast("(a)(b\\1)\\2", "");
        let t = translate(&p, Target::Superset, Scope::Lines, Size::Faithful);
        let a = || Hir::literal("a".as_bytes());
        let b = || Hir::literal("b".as_bytes());
        let opt = |h: Hir| {
            Hir::repetition(Repetition { min: 0, max: Some(1), greedy: true, sub: Box::new(h) })
        };
        let group2 = || Hir::concat(vec![b(), opt(a())]);
        assert_eq!(t.hir, Hir::concat(vec![a(), group2(), opt(group2())]));
        let t = translate(&p, Target::Superset, Scope::Lines, Size::Clamped);
        let HirKind::Concat(parts) = t.hir.kind() else { panic!("{:?}", t.hir) };
        let HirKind::Repetition(r) = parts[parts.len() - 1].kind() else { panic!("{:?}", t.hir) };
        assert_eq!((r.min, r.max), (0, None));
    }

    #[test]
    fn clamped_counts_are_wider() {
        let t = translate(&ast("a{100,200}", ""), Target::Superset, Scope::Lines, Size::Clamped);
        let HirKind::Repetition(r) = t.hir.kind() else { panic!() };
        assert_eq!((r.min, r.max), (CLAMP, None));
    }
}
