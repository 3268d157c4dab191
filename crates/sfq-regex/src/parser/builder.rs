//! Accumulates the terms and alternatives of one disjunction, as V8's `RegExpBuilder`.

use crate::ast::{Assertion, Node, Repeat};
use crate::charset::CharSet;
use crate::unicode;

/// V8's `RegExpTree::kInfinity`.
const INFINITY: u32 = i32::MAX as u32;

/// What V8 computes about a subtree and acts on: `max_match()` (the longest match, in
/// code units, saturating at 2^31 − 1) and `IsAnchoredAtStart/End()`.
///
/// `max == 0` decides what a quantifier does (V8 drops a quantifier over such an atom,
/// with the atom when the quantifier allows zero iterations), and the pattern's `max` and
/// anchors let V8 start an end-anchored search at `length - max`. Both are faithful to the
/// spec except where V8's `max_match` is wrong: the `v`-mode classes whose operands V8
/// counts as empty (`[^]`, `[[^]]` …) match a character but have `max_match() == 0`, so
/// `[^]*` matches the empty string, `[^]{2}` one character, and `[[^]]$` nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Meta {
    pub(crate) max: u32,
    pub(crate) start: bool,
    pub(crate) end: bool,
    /// The subtree contains a negated `v`-mode class `[^…]`.
    pub(crate) negated_class: bool,
    /// The subtree quantifies a negated `v`-mode class in a way V8 compiles more than once
    /// (see [`crate::ast::V8Quirk::RecompiledNegatedClass`]).
    pub(crate) recompiled_negated_class: bool,
    /// The subtree quantifies a group that starts with a lookbehind (see
    /// [`crate::ast::V8Quirk::LoopStartingWithLookbehind`]).
    pub(crate) loop_lookbehind: bool,
    /// V8's tree for the subtree is one literal character (its `IsAtom()` for one
    /// character; an empty group next to it still counts as a term).
    pub(crate) single_char: bool,
}

impl Meta {
    pub(super) fn atom(max: u32) -> Meta {
        Meta {
            max,
            start: false,
            end: false,
            negated_class: false,
            recompiled_negated_class: false,
            loop_lookbehind: false,
            single_char: false,
        }
    }

    fn or_flags(self, other: Meta) -> Meta {
        Meta {
            negated_class: self.negated_class || other.negated_class,
            recompiled_negated_class: self.recompiled_negated_class
                || other.recompiled_negated_class,
            loop_lookbehind: self.loop_lookbehind || other.loop_lookbehind,
            single_char: false,
            ..self
        }
    }
}

/// How many times V8 11.3 compiles (`ToNode`) the body of a quantifier: it unrolls small
/// counts when the body has no captures and cannot match empty.
fn v8_body_compilations(min: u32, max: Option<u32>, body: &Node) -> u32 {
    if body.can_be_empty() || !body.capture_range().is_empty() {
        return 1;
    }
    let max = max.unwrap_or(INFINITY);
    if (1..=3).contains(&min) {
        let rest_max = if max == INFINITY { INFINITY } else { max - min };
        let rest = match rest_max {
            0 => 0,
            1..=3 => rest_max,
            _ => 1,
        };
        return min + rest;
    }
    if min == 0 && max <= 3 {
        return max;
    }
    1
}

fn sat_add(a: u32, b: u32) -> u32 {
    if a >= INFINITY - b.min(INFINITY) { INFINITY } else { a + b }
}

fn sat_mul(a: u32, b: u32) -> u32 {
    if a == 0 || b == 0 {
        0
    } else if a >= INFINITY / b {
        INFINITY
    } else {
        a * b
    }
}

/// V8's `max_match()` of a node built without quirks: an upper bound of the match length
/// in code units.
pub(super) fn max_units(node: &Node, unicode: bool) -> u32 {
    match node {
        Node::Empty | Node::Assertion(_) | Node::Lookaround(_) => 0,
        Node::Char(c) => {
            if *c > 0xFFFF || (unicode && (0xD800..=0xDFFF).contains(c)) {
                2
            } else {
                1
            }
        }
        Node::Class(_) => {
            if unicode {
                2
            } else {
                1
            }
        }
        Node::BackReference(_) => INFINITY,
        Node::Concat(v) => v.iter().fold(0, |acc, n| sat_add(acc, max_units(n, unicode))),
        Node::Alternation(v) => v.iter().map(|n| max_units(n, unicode)).max().unwrap_or(0),
        Node::Capture(c) => max_units(&c.node, unicode),
        Node::Repeat(r) => sat_mul(r.max.unwrap_or(INFINITY), max_units(&r.node, unicode)),
    }
}

/// The terms and alternatives of the disjunction being parsed (the whole pattern or one
/// group's body), each with its [`Meta`].
pub(super) struct Builder {
    terms: Vec<(Node, Meta)>,
    alternatives: Vec<(Node, Meta)>,
    /// A term that matches only the empty string was "added" (a back reference inside its
    /// own group): a following quantifier is dropped with it.
    pending_empty: bool,
    /// The last term is a non-capturing group's body (so a lookaround there is inside a
    /// group, which V8 lets a quantifier apply to).
    last_is_group: bool,
    ignore_case: bool,
    unicode: bool,
}

impl Builder {
    pub(super) fn new(ignore_case: bool, unicode: bool) -> Builder {
        Builder {
            terms: Vec::new(),
            alternatives: Vec::new(),
            pending_empty: false,
            last_is_group: false,
            ignore_case,
            unicode,
        }
    }

    /// Adds a literal character (a code unit, or a code point in Unicode mode). Under `i`
    /// a character with case variants becomes the class of its variants.
    pub(super) fn add_char(&mut self, c: u32) {
        let mut node = Node::Char(c);
        if self.ignore_case {
            let class = unicode::case_class(c, self.unicode);
            if class.as_single().is_none() {
                // In Unicode mode V8 also turns such a character into a class, whose
                // max_match() is 2.
                node = Node::Class(class);
            }
        }
        let max = max_units(&node, self.unicode);
        self.add_atom(node, Meta { single_char: true, ..Meta::atom(max) });
    }

    /// Adds a resolved character class.
    pub(super) fn add_class(&mut self, set: CharSet) {
        let node = Node::Class(set);
        let max = max_units(&node, self.unicode);
        self.add_atom(node, Meta { single_char: true, ..Meta::atom(max) });
    }

    /// Adds an atom with its [`Meta`].
    pub(super) fn add_atom(&mut self, node: Node, meta: Meta) {
        self.pending_empty = false;
        self.last_is_group = false;
        self.terms.push((node, meta));
    }

    /// Adds the body of a non-capturing group `(?:…)` as an atom.
    pub(super) fn add_group(&mut self, node: Node, meta: Meta) {
        self.add_atom(node, meta);
        self.last_is_group = true;
    }

    /// Adds an assertion (never quantifiable: the parser does not look for a quantifier
    /// after one).
    pub(super) fn add_assertion(&mut self, node: Node) {
        let meta = Meta {
            start: node == Node::Assertion(Assertion::StartOfInput),
            end: node == Node::Assertion(Assertion::EndOfInput),
            ..Meta::atom(0)
        };
        self.add_atom(node, meta);
    }

    /// Adds nothing, but swallows a following quantifier (V8's `AddEmpty`).
    pub(super) fn add_empty(&mut self) {
        self.pending_empty = true;
    }

    /// `|`: closes the current alternative.
    pub(super) fn new_alternative(&mut self) {
        let terms = std::mem::take(&mut self.terms);
        let max = terms.iter().fold(0, |acc, (_, m)| sat_add(acc, m.max));
        let flags = terms.iter().fold(Meta::atom(0), |acc, (_, m)| acc.or_flags(*m));
        let mut start = false;
        for (_, m) in &terms {
            if m.start {
                start = true;
                break;
            }
            if m.max > 0 {
                break;
            }
        }
        let mut end = false;
        for (_, m) in terms.iter().rev() {
            if m.end {
                end = true;
                break;
            }
            if m.max > 0 {
                break;
            }
        }
        let single_char = terms.len() == 1 && terms[0].1.single_char;
        let node = concat(terms.into_iter().map(|(n, _)| n).collect());
        self.alternatives.push((node, Meta { max, start, end, single_char, ..flags }));
    }

    /// Applies a quantifier to the last atom. `false` when V8 reports "Invalid quantifier"
    /// (a quantified lookbehind, or any quantified lookaround in Unicode mode).
    pub(super) fn add_quantifier(
        &mut self,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        unicode_mode: bool,
    ) -> bool {
        if self.pending_empty {
            self.pending_empty = false;
            return true;
        }
        let Some((atom, meta)) = self.terms.pop() else {
            // Unreachable: the parser only looks for a quantifier after an atom.
            return true;
        };
        if let Node::Lookaround(l) = &atom
            && !self.last_is_group
            && (unicode_mode || l.behind)
        {
            return false;
        }
        self.last_is_group = false;
        if meta.max == 0 {
            if min != 0 {
                self.terms.push((atom, meta));
            }
            return true;
        }
        let max_match = sat_mul(max.unwrap_or(INFINITY), meta.max);
        let recompiled = meta.negated_class && v8_body_compilations(min, max, &atom) >= 2;
        let mut repeat_meta = Meta::atom(max_match).or_flags(meta);
        repeat_meta.recompiled_negated_class |= recompiled;
        repeat_meta.loop_lookbehind |= max.is_none_or(|m| m > 1) && starts_with_lookbehind(&atom);
        self.terms
            .push((Node::Repeat(Box::new(Repeat { min, max, greedy, node: atom })), repeat_meta));
        true
    }

    /// The finished disjunction and its [`Meta`].
    pub(super) fn finish(mut self) -> (Node, Meta) {
        self.new_alternative();
        let max = self.alternatives.iter().map(|(_, m)| m.max).max().unwrap_or(0);
        let start = self.alternatives.iter().all(|(_, m)| m.start);
        let end = self.alternatives.iter().all(|(_, m)| m.end);
        let flags = self.alternatives.iter().fold(Meta::atom(0), |acc, (_, m)| acc.or_flags(*m));
        let alts_single = self.alternatives.len() == 1 && self.alternatives[0].1.single_char;
        let mut alts: Vec<Node> = self.alternatives.into_iter().map(|(n, _)| n).collect();
        let node = if alts.len() == 1 {
            alts.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alternation(alts)
        };
        let single_char = alts_single;
        (node, Meta { max, start, end, single_char, ..flags })
    }
}

/// Whether the node begins (before anything that consumes) with a lookbehind.
fn starts_with_lookbehind(node: &Node) -> bool {
    match node {
        Node::Lookaround(l) => l.behind,
        Node::Concat(v) => v.first().is_some_and(starts_with_lookbehind),
        Node::Alternation(v) => v.iter().any(starts_with_lookbehind),
        Node::Capture(c) => starts_with_lookbehind(&c.node),
        _ => false,
    }
}

/// The concatenation of `terms`, flattened, without empty terms.
pub(super) fn concat(terms: Vec<Node>) -> Node {
    let mut out = Vec::with_capacity(terms.len());
    for t in terms {
        match t {
            Node::Empty => {}
            Node::Concat(inner) => out.extend(inner),
            other => out.push(other),
        }
    }
    match out.len() {
        0 => Node::Empty,
        1 => out.pop().unwrap_or(Node::Empty),
        _ => Node::Concat(out),
    }
}
