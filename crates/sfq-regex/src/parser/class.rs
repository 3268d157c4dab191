//! Character classes (`[…]`, with and without `v`), class escapes and `\p{…}`.
//!
//! Case-insensitivity in `v` mode follows V8 11.3, measured against Node 20 (it differs
//! from the current spec and from later V8): characters and ranges accumulated in a union
//! are closed over case when they become an operand; an operand of `--` or `&&` that is a
//! single character or `\q{…}` is not; the characters of `\q{…}` are simple-case-folded;
//! `\p{…}` is closed over case before its negation; the finished class is negated if it
//! is `[^…]`, and then closed over case once more.

use std::collections::BTreeSet;

use super::{END, PResult, Parser, builder::concat};
use crate::ast::{CharSet, Node, word_chars};
use crate::charset::MAX_CODE_POINT;
use crate::error::Reason;
use crate::unicode::{self, LoneKind};

/// A `v`-mode class value: single characters, and strings of other lengths (folded under
/// `i`).
#[derive(Clone, Default)]
pub(super) struct SetValue {
    set: CharSet,
    strings: BTreeSet<Vec<u32>>,
}

impl SetValue {
    fn union(&mut self, other: SetValue) {
        self.set.add_set(&other.set);
        self.strings.extend(other.strings);
    }

    fn intersect(&mut self, other: &SetValue) {
        self.set = self.set.intersect(&other.set);
        self.strings.retain(|s| other.strings.contains(s));
    }

    fn subtract(&mut self, other: &SetValue) {
        self.set = self.set.subtract(&other.set);
        self.strings.retain(|s| !other.strings.contains(s));
    }
}

/// A parsed `v`-mode class operand.
enum Operand {
    /// A nested class, already evaluated, with V8's "may contain strings" and
    /// `max_match() == 0`.
    Nested(SetValue, bool, bool),
    /// A single character (not yet added anywhere).
    Char(u32),
    /// A class escape or `\q{…}`, added to the accumulating value.
    Added,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum OperandType {
    Character,
    StringDisjunction,
    NestedClass,
    ClassEscape,
    Range,
}

/// A class escape or property escape inside a non-`v` class.
enum ClassAtom {
    Char(u32),
    Class,
}

impl Parser<'_> {
    /// The set of `\d \D \s \S \w \W`; `add_case` is the `iu`/`iv` rule adding ſ and K to
    /// `\w` (and removing them from `\W`).
    pub(super) fn class_escape_set(&self, c: u32, add_case: bool) -> CharSet {
        let max = self.max_char();
        match c {
            0x64 => CharSet::range(0x30, 0x39),
            0x44 => CharSet::range(0x30, 0x39).complement(max),
            0x73 => space_chars(),
            0x53 => space_chars().complement(max),
            0x77 => word_chars(add_case),
            _ => word_chars(add_case).complement(max),
        }
    }

    /// The effective set of a class: closed over case under `i` (with the mode's case
    /// folding), then negated.
    pub(super) fn finish_class(&self, set: CharSet, negated: bool) -> CharSet {
        let set = if self.ignore_case() {
            unicode::close_over_case(&set, self.flags.unicode_mode())
        } else {
            set
        };
        if negated { set.complement(self.max_char()) } else { set }
    }

    /// `[…]` (`current` is `[`), V8's `max_match() == 0` for it (see the builder), and
    /// whether it is negated.
    pub(super) fn parse_character_class(&mut self) -> PResult<(Node, bool, bool)> {
        self.advance();
        let mut negated = false;
        if self.current() == 0x5E {
            negated = true;
            self.advance();
        }
        if self.current() == 0x5D {
            self.advance();
            let set = if negated { CharSet::range(0, self.max_char()) } else { CharSet::new() };
            return Ok((Node::Class(set), self.unicode_sets(), negated));
        }
        if !self.unicode_sets() {
            let add_case = self.unicode_mode() && self.ignore_case();
            let set = self.parse_class_ranges(add_case)?;
            if !self.has_more() {
                return self.error(Reason::UnterminatedCharacterClass);
            }
            self.advance();
            return Ok((Node::Class(self.finish_class(set, negated)), false, negated));
        }
        self.class_depth = 1;
        let (value, _, zero) = self.parse_class_set_expression(negated)?;
        self.class_depth = 0;
        Ok((self.class_value_node(value, negated), zero, negated))
    }

    /// ClassRanges (no `v`): atoms and ranges up to `]`.
    fn parse_class_ranges(&mut self, add_case: bool) -> PResult<CharSet> {
        let mut ranges = CharSet::new();
        while self.has_more() && self.current() != 0x5D {
            let atom1 = self.parse_class_escape(&mut ranges, add_case)?;
            if self.current() == 0x2D {
                self.advance();
                if !self.has_more() {
                    break;
                }
                if self.current() == 0x5D {
                    if let ClassAtom::Char(c) = atom1 {
                        ranges.add(c);
                    }
                    ranges.add(0x2D);
                    break;
                }
                let atom2 = self.parse_class_escape(&mut ranges, add_case)?;
                match (atom1, atom2) {
                    (ClassAtom::Char(a), ClassAtom::Char(b)) => {
                        if a > b {
                            return self.error(Reason::OutOfOrderCharacterClass);
                        }
                        ranges.add_range(a, b);
                    }
                    (a1, a2) => {
                        // A class escape at either end: the '-' is literal (Annex B).
                        if self.unicode_mode() {
                            return self.error(Reason::InvalidCharacterClass);
                        }
                        if let ClassAtom::Char(a) = a1 {
                            ranges.add(a);
                        }
                        ranges.add(0x2D);
                        if let ClassAtom::Char(b) = a2 {
                            ranges.add(b);
                        }
                    }
                }
            } else if let ClassAtom::Char(c) = atom1 {
                ranges.add(c);
            }
        }
        Ok(ranges)
    }

    /// ClassAtom (no `v`): a character, or a class escape added to `ranges`.
    fn parse_class_escape(&mut self, ranges: &mut CharSet, add_case: bool) -> PResult<ClassAtom> {
        if self.current() != 0x5C {
            let c = self.current();
            self.advance();
            return Ok(ClassAtom::Char(c));
        }
        let next = self.next();
        match next {
            0x62 => {
                self.advance_by(2);
                return Ok(ClassAtom::Char(0x08));
            }
            0x2D if self.unicode_mode() => {
                self.advance_by(2);
                return Ok(ClassAtom::Char(0x2D));
            }
            END => return self.error(Reason::EscapeAtEndOfPattern),
            _ => {}
        }
        if let Some(value) = self.try_parse_class_escape(next, true, add_case)? {
            ranges.add_set(&value.set);
            return Ok(ClassAtom::Class);
        }
        let (c, _) = self.parse_character_escape(true)?;
        Ok(ClassAtom::Char(c))
    }

    /// `\d \D \s \S \w \W`, and `\p{…} \P{…}` in Unicode mode (`current` is the
    /// backslash). `None` (cursor unmoved) if `next` starts no class escape.
    #[inline(never)] // keeps the frames of the recursive class parse small
    fn try_parse_class_escape(
        &mut self,
        next: u32,
        in_class: bool,
        add_case: bool,
    ) -> PResult<Option<SetValue>> {
        match next {
            0x64 | 0x44 | 0x73 | 0x53 | 0x77 | 0x57 => {
                let set = self.class_escape_set(next, add_case);
                self.advance_by(2);
                Ok(Some(SetValue { set, strings: BTreeSet::new() }))
            }
            0x70 | 0x50 if self.unicode_mode() => {
                let negate = next == 0x50;
                self.advance_by(2);
                let reason = if in_class {
                    Reason::InvalidClassPropertyName
                } else {
                    Reason::InvalidPropertyName
                };
                let Some((name, value)) = self.parse_property_class_name() else {
                    return self.error(reason);
                };
                match self.property_value(negate, &name, value.as_deref()) {
                    Some(v) => Ok(Some(v)),
                    None => self.error(reason),
                }
            }
            _ => Ok(None),
        }
    }

    /// `\p{…}` outside a class (`current` is the backslash, Unicode mode), and V8's
    /// `max_match() == 0` for it.
    pub(super) fn parse_property_escape(&mut self, in_class: bool) -> PResult<(Node, bool)> {
        let next = self.next();
        let value =
            self.try_parse_class_escape(next, in_class, self.ignore_case())?.unwrap_or_default();
        if self.unicode_sets() {
            let zero = operand_zero(&value);
            Ok((self.class_value_node(value, false), zero))
        } else {
            Ok((Node::Class(self.finish_class(value.set, false)), false))
        }
    }

    /// `{name}` or `{name=value}` after `\p`. V8 checks and keeps only the low byte of each
    /// character (so `\p{Ō}` is `\p{L}`).
    fn parse_property_class_name(&mut self) -> Option<(String, Option<String>)> {
        if self.current() != 0x7B {
            return None;
        }
        let mut name = String::new();
        self.advance();
        while self.current() != 0x7D && self.current() != 0x3D {
            let byte = (self.current() & 0xFF) as u8;
            if !(byte.is_ascii_alphanumeric() || byte == b'_') || !self.has_next() {
                return None;
            }
            name.push(char::from(byte));
            self.advance();
        }
        let mut value = None;
        if self.current() == 0x3D {
            let mut v = String::new();
            self.advance();
            while self.current() != 0x7D {
                let byte = (self.current() & 0xFF) as u8;
                if !(byte.is_ascii_alphanumeric() || byte == b'_') || !self.has_next() {
                    return None;
                }
                v.push(char::from(byte));
                self.advance();
            }
            value = Some(v);
        }
        self.advance();
        Some((name, value))
    }

    /// The value of `\p{name}` / `\p{name=value}` (negated for `\P`), or `None` if V8
    /// rejects the name.
    #[inline(never)] // keeps the frames of the recursive class parse small
    fn property_value(&self, negate: bool, name: &str, value: Option<&str>) -> Option<SetValue> {
        let fold = self.unicode_sets() && self.ignore_case();
        let max = MAX_CODE_POINT;
        let finish = |set: CharSet| {
            let set = if fold { unicode::close_over_case(&set, true) } else { set };
            if negate { set.complement(max) } else { set }
        };
        let Some(value) = value else {
            let (kind, id) = unicode::lone(name)?;
            return match kind {
                LoneKind::GeneralCategory => {
                    Some(SetValue { set: finish(unicode::set(id)), strings: BTreeSet::new() })
                }
                LoneKind::Binary => {
                    // V8 11.3 looks up the value "N" for `\P`: the complement is taken
                    // before the closure over case.
                    let set = unicode::set(id);
                    let set = if negate { set.complement(max) } else { set };
                    let set = if fold { unicode::close_over_case(&set, true) } else { set };
                    Some(SetValue { set, strings: BTreeSet::new() })
                }
                LoneKind::Special => {
                    let set = unicode::set(id);
                    Some(SetValue {
                        set: if negate { set.complement(max) } else { set },
                        strings: BTreeSet::new(),
                    })
                }
                LoneKind::Strings => {
                    if !self.unicode_sets() || negate {
                        return None;
                    }
                    let strings = unicode::property_strings(name)
                        .into_iter()
                        .map(|s| {
                            if self.ignore_case() {
                                s.into_iter().map(unicode::simple_fold).collect()
                            } else {
                                s
                            }
                        })
                        .collect();
                    Some(SetValue { set: finish(unicode::set(id)), strings })
                }
            };
        };
        let id = match name {
            "General_Category" | "gc" => unicode::general_category(value)?,
            "Script" | "sc" => unicode::script(value)?.0,
            "Script_Extensions" | "scx" => unicode::script(value)?.1,
            _ => return None,
        };
        Some(SetValue { set: finish(unicode::set(id)), strings: BTreeSet::new() })
    }

    // ---- v mode ----------------------------------------------------------------------------

    /// The rest of a `v`-mode class after `[` and `^` (and not `[]`/`[^]`): its value,
    /// whether it may contain strings, and whether V8 counts all its operands as empty
    /// (`max_match() == 0`). Ends after the `]`.
    #[inline(never)] // keeps the frames of the recursive class parse small
    fn parse_class_set_expression(&mut self, negated: bool) -> PResult<(SetValue, bool, bool)> {
        let mut acc = SetValue::default();
        let (operand, ty) = self.parse_class_set_operand(&mut acc)?;
        let is_double = |p: &Self, c: u32| p.current() == c && p.next() == c;
        if is_double(self, 0x2D) || is_double(self, 0x26) {
            let first = match operand {
                Operand::Nested(v, may, zero) => (v, may, zero),
                Operand::Char(c) => {
                    acc.set.add(c);
                    let may = !acc.strings.is_empty();
                    (acc, may, false)
                }
                Operand::Added => {
                    let may = !acc.strings.is_empty();
                    let zero = operand_zero(&acc);
                    (acc, may, zero)
                }
            };
            return if self.current() == 0x2D {
                self.parse_class_subtraction(negated, first)
            } else {
                self.parse_class_intersection(negated, first)
            };
        }
        self.parse_class_union(negated, operand, ty, acc)
    }

    /// ClassSetOperand: a nested class, `\q{…}`, a class escape, or a character.
    #[inline(never)] // keeps the frames of the recursive class parse small
    fn parse_class_set_operand(&mut self, acc: &mut SetValue) -> PResult<(Operand, OperandType)> {
        let c = self.current();
        if c == 0x5C {
            let next = self.next();
            if next == 0x71 {
                self.parse_class_string_disjunction(acc)?;
                return Ok((Operand::Added, OperandType::StringDisjunction));
            }
            if let Some(value) = self.try_parse_class_escape(next, true, self.ignore_case())? {
                acc.union(value);
                return Ok((Operand::Added, OperandType::ClassEscape));
            }
        }
        if c == 0x5B {
            if self.class_depth >= super::MAX_NESTING {
                return self.error(Reason::StackOverflow);
            }
            self.advance();
            let mut negated = false;
            if self.current() == 0x5E {
                negated = true;
                self.advance();
            }
            if self.current() == 0x5D {
                self.advance();
                let set = if negated { CharSet::range(0, MAX_CODE_POINT) } else { CharSet::new() };
                let value = SetValue { set, strings: BTreeSet::new() };
                return Ok((Operand::Nested(value, false, true), OperandType::NestedClass));
            }
            self.class_depth += 1;
            let (mut value, may, zero) = self.parse_class_set_expression(negated)?;
            self.class_depth -= 1;
            if negated {
                value.set = value.set.complement(MAX_CODE_POINT);
            }
            return Ok((Operand::Nested(value, may, zero), OperandType::NestedClass));
        }
        let c = self.parse_class_set_character()?;
        Ok((Operand::Char(c), OperandType::Character))
    }

    /// An operand of `--` or `&&`, evaluated without closing it over case: its value,
    /// "may contain strings" and `max_match() == 0`.
    #[inline(never)] // keeps the frames of the recursive class parse small
    fn parse_class_set_operand_value(&mut self) -> PResult<(SetValue, bool, bool)> {
        let mut acc = SetValue::default();
        let (operand, _) = self.parse_class_set_operand(&mut acc)?;
        Ok(match operand {
            Operand::Nested(v, may, zero) => (v, may, zero),
            Operand::Char(c) => {
                acc.set.add(c);
                (acc, false, false)
            }
            Operand::Added => {
                let may = !acc.strings.is_empty();
                let zero = operand_zero(&acc);
                (acc, may, zero)
            }
        })
    }

    /// ClassSetCharacter.
    #[inline(never)] // keeps the frames of the recursive class parse small
    fn parse_class_set_character(&mut self) -> PResult<u32> {
        let c = self.current();
        if c == 0x5C {
            match self.next() {
                0x62 => {
                    self.advance_by(2);
                    return Ok(0x08);
                }
                END => return self.error(Reason::EscapeAtEndOfPattern),
                _ => {}
            }
            let (c, _) = self.parse_character_escape(true)?;
            return Ok(c);
        }
        if is_class_set_syntax_character(c) {
            return self.error(Reason::InvalidCharacterInClass);
        }
        if is_class_set_reserved_double_punctuator(c) && self.next() == c {
            return self.error(Reason::InvalidClassSetOperation);
        }
        self.advance();
        Ok(c)
    }

    /// `\q{…|…}` (`current` is the backslash).
    #[inline(never)] // keeps the frames of the recursive class parse small
    fn parse_class_string_disjunction(&mut self, acc: &mut SetValue) -> PResult<()> {
        self.advance_by(2);
        if self.current() != 0x7B {
            return self.error(Reason::InvalidEscape);
        }
        self.advance();
        let mut string: Vec<u32> = Vec::new();
        while self.has_more() && self.current() != 0x7D {
            if self.current() == 0x7C {
                add_class_string(acc, std::mem::take(&mut string));
                self.advance();
            } else {
                let mut c = self.parse_class_set_character()?;
                if self.ignore_case() {
                    c = unicode::simple_fold(c);
                }
                string.push(c);
            }
        }
        add_class_string(acc, string);
        // A missing '}' is reported by ParseClassSetCharacter on the ']' (or at the end).
        self.advance();
        Ok(())
    }

    /// ClassUnion: operands and ranges up to `]`.
    #[inline(never)] // keeps the frames of the recursive class parse small
    fn parse_class_union(
        &mut self,
        negated: bool,
        first: Operand,
        first_type: OperandType,
        mut acc: SetValue,
    ) -> PResult<(SetValue, bool, bool)> {
        let fold = self.ignore_case();
        let mut result = SetValue::default();
        let mut may_contain_strings = false;
        // V8's max_match() == 0: every operand counts as empty (also when there is none).
        let mut zero = true;
        let mut last_type = first_type;
        let mut character = 0;
        match first {
            Operand::Nested(v, may, z) => {
                may_contain_strings = may;
                zero &= z;
                result.union(v);
            }
            Operand::Char(c) => character = c,
            Operand::Added => {}
        }
        // Closes the accumulated characters over case and moves them into the result.
        let flush = |acc: &mut SetValue, result: &mut SetValue, may: &mut bool, zero: &mut bool| {
            if !acc.set.is_empty() || !acc.strings.is_empty() {
                *may |= !acc.strings.is_empty();
                *zero &= operand_zero(acc);
                let mut v = std::mem::take(acc);
                if fold {
                    v.set = unicode::close_over_case(&v.set, true);
                }
                result.union(v);
            }
        };
        while self.has_more() && self.current() != 0x5D {
            if self.current() == 0x2D {
                if self.next() == 0x2D {
                    return self.error(Reason::InvalidClassSetOperation);
                }
                self.advance();
                if !self.has_more() {
                    break;
                }
                if last_type != OperandType::Character {
                    return self.error(Reason::InvalidCharacterClass);
                }
                let from = character;
                let (operand, _) = self.parse_class_set_operand(&mut acc)?;
                let Operand::Char(to) = operand else {
                    return self.error(Reason::InvalidCharacterClass);
                };
                character = to;
                if from > to {
                    return self.error(Reason::OutOfOrderCharacterClass);
                }
                acc.set.add_range(from, to);
                last_type = OperandType::Range;
            } else {
                if last_type == OperandType::Character {
                    acc.set.add(character);
                }
                let (operand, ty) = self.parse_class_set_operand(&mut acc)?;
                last_type = ty;
                match operand {
                    Operand::Nested(v, may, z) => {
                        may_contain_strings |= may;
                        flush(&mut acc, &mut result, &mut may_contain_strings, &mut zero);
                        zero &= z;
                        result.union(v);
                    }
                    Operand::Char(c) => character = c,
                    Operand::Added => {}
                }
            }
        }
        if !self.has_more() {
            return self.error(Reason::UnterminatedCharacterClass);
        }
        if last_type == OperandType::Character {
            acc.set.add(character);
        }
        flush(&mut acc, &mut result, &mut may_contain_strings, &mut zero);
        self.advance();
        if negated && may_contain_strings {
            return self.error(Reason::NegatedCharacterClassWithStrings);
        }
        Ok((result, may_contain_strings, zero))
    }

    /// ClassIntersection: `A&&B&&…` up to `]`.
    #[inline(never)] // keeps the frames of the recursive class parse small
    fn parse_class_intersection(
        &mut self,
        negated: bool,
        first: (SetValue, bool, bool),
    ) -> PResult<(SetValue, bool, bool)> {
        let (mut result, mut may_contain_strings, mut zero) = first;
        while self.has_more() && self.current() != 0x5D {
            if self.current() != 0x26 || self.next() != 0x26 {
                return self.error(Reason::InvalidClassSetOperation);
            }
            self.advance_by(2);
            if self.current() == 0x26 {
                return self.error(Reason::InvalidCharacterInClass);
            }
            let (operand, may, z) = self.parse_class_set_operand_value()?;
            may_contain_strings &= may;
            zero &= z;
            result.intersect(&operand);
        }
        if !self.has_more() {
            return self.error(Reason::UnterminatedCharacterClass);
        }
        if negated && may_contain_strings {
            return self.error(Reason::NegatedCharacterClassWithStrings);
        }
        self.advance();
        Ok((result, may_contain_strings, zero))
    }

    /// ClassSubtraction: `A--B--…` up to `]`.
    #[inline(never)] // keeps the frames of the recursive class parse small
    fn parse_class_subtraction(
        &mut self,
        negated: bool,
        first: (SetValue, bool, bool),
    ) -> PResult<(SetValue, bool, bool)> {
        let (mut result, may_contain_strings, mut zero) = first;
        if negated && may_contain_strings {
            return self.error(Reason::NegatedCharacterClassWithStrings);
        }
        while self.has_more() && self.current() != 0x5D {
            if self.current() != 0x2D || self.next() != 0x2D {
                return self.error(Reason::InvalidClassSetOperation);
            }
            self.advance_by(2);
            let (operand, _, z) = self.parse_class_set_operand_value()?;
            zero &= z;
            result.subtract(&operand);
        }
        if !self.has_more() {
            return self.error(Reason::UnterminatedCharacterClass);
        }
        self.advance();
        Ok((result, may_contain_strings, zero))
    }

    /// The node of a finished `v`-mode class: its strings longest first, then its single
    /// characters (closed over case under `i`, then negated for `[^…]`), then the empty
    /// string if present.
    fn class_value_node(&self, value: SetValue, negated: bool) -> Node {
        let mut set = value.set;
        // V8 11.3 negates the computed set, then closes it over case when it compiles
        // the class.
        if negated {
            set = set.complement(MAX_CODE_POINT);
        }
        if self.ignore_case() {
            set = unicode::close_over_case(&set, true);
        }
        if value.strings.is_empty() {
            return Node::Class(set);
        }
        let mut strings: Vec<Vec<u32>> = value.strings.into_iter().collect();
        // Longest first; equal lengths in code point order (the order cannot matter).
        strings.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        let mut alts = Vec::new();
        let mut has_empty = false;
        for s in strings {
            if s.is_empty() {
                has_empty = true;
                continue;
            }
            let terms: Vec<Node> = s.into_iter().map(|c| self.literal(c)).collect();
            alts.push(concat(terms));
        }
        if !set.is_empty() {
            alts.push(Node::Class(set));
        }
        if has_empty {
            alts.push(Node::Empty);
        }
        if alts.len() == 1 { alts.pop().unwrap_or(Node::Empty) } else { Node::Alternation(alts) }
    }

    /// A literal character node (the class of its case variants under `i`).
    fn literal(&self, c: u32) -> Node {
        if self.ignore_case() {
            let class = unicode::case_class(c, self.flags.unicode_mode());
            if class.as_single().is_none() {
                return Node::Class(class);
            }
        }
        Node::Char(c)
    }
}

/// V8's `max_match() == 0` for a `ClassSetOperand`: no characters, and only empty
/// strings.
fn operand_zero(v: &SetValue) -> bool {
    v.set.is_empty() && v.strings.iter().all(Vec::is_empty)
}

/// Adds a `\q{…}` alternative: one character goes to the set, anything else is a string.
fn add_class_string(acc: &mut SetValue, s: Vec<u32>) {
    if s.len() == 1 {
        acc.set.add(s[0]);
    } else {
        acc.strings.insert(s);
    }
}

/// JavaScript's `\s`: WhiteSpace and LineTerminator.
pub(crate) fn space_chars() -> CharSet {
    CharSet::from_ranges([
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ])
}

fn is_class_set_syntax_character(c: u32) -> bool {
    // ( ) [ ] { } / - \ |
    matches!(c, 0x28 | 0x29 | 0x5B | 0x5D | 0x7B | 0x7D | 0x2F | 0x2D | 0x5C | 0x7C)
}

fn is_class_set_reserved_double_punctuator(c: u32) -> bool {
    // & ! # $ % * + , . : ; < = > ? @ ^ ` ~
    matches!(
        c,
        0x26 | 0x21
            | 0x23
            | 0x24
            | 0x25
            | 0x2A
            | 0x2B
            | 0x2C
            | 0x2E
            | 0x3A
            | 0x3B
            | 0x3C
            | 0x3D
            | 0x3E
            | 0x3F
            | 0x40
            | 0x5E
            | 0x60
            | 0x7E
    )
}
