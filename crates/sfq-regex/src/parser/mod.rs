//! The pattern parser: a port of V8 11.3's single-pass `RegExpParser`, so that an invalid
//! pattern gets the error V8 reports first, and a valid one the same meaning.
//!
//! Groups are parsed iteratively (a stack of states, as V8 does); only `v`-mode nested
//! classes recurse, and both are limited by [`MAX_NESTING`].

mod builder;
mod class;
#[cfg(test)]
mod tests;

pub(crate) use builder::Meta;
use builder::{Builder, max_units};

use crate::ast::{Assertion, Capture, CharSet, Lookaround, Node, Pattern, V8Quirk};
use crate::charset::{MAX_CODE_POINT, MAX_CODE_UNIT};
use crate::error::{Error, Reason};
use crate::flags::Flags;
use crate::unicode;

/// The deepest nesting of groups and classes this engine accepts. Deeper patterns get
/// V8's "Maximum call stack size exceeded" (V8 itself accepts about 10,000 levels of
/// groups and 6,000 of `v`-mode classes). The limit bounds the recursion of the parser
/// (nested `v`-mode classes) and of the passes over the tree: the deepest patterns need
/// about 512 KiB of stack in a release build (1.5 MiB in a debug build).
pub const MAX_NESTING: usize = 500;

/// V8's limit on capture groups: starting group 32,768 is "Too many captures"
/// (measured), and `\N` with a larger N is not a back reference.
const MAX_CAPTURES: u32 = (1 << 15) - 1;
/// V8's `RegExpTree::kInfinity`: quantifier bounds saturate here, and a maximum of this
/// value means "no limit".
const INFINITY: u32 = i32::MAX as u32;
/// V8's longest text node (`RegExpMacroAssembler::kMaxCPOffset`).
const MAX_TEXT_LENGTH: usize = 32767;

/// The end-of-input marker of `current`.
const END: u32 = 1 << 21;

type PResult<T> = Result<T, (Reason, usize)>;

/// Parses `pattern` under `flags` (which must be valid) into a [`Pattern`].
pub(crate) fn parse(pattern: &[u16], flags: Flags) -> Result<Pattern, Error> {
    parse_with_meta(pattern, flags).map(|(p, _)| p)
}

/// [`parse`], with what V8 computes about the whole pattern (see [`Meta`]).
pub(crate) fn parse_with_meta(pattern: &[u16], flags: Flags) -> Result<(Pattern, Meta), Error> {
    let mut p = Parser::new(pattern, flags);
    match p.parse_pattern() {
        Ok((root, meta)) => {
            let capture_count = p.captures_started;
            let mut group_names = vec![None; capture_count as usize];
            for (name, index) in &p.named_captures {
                if let Some(slot) = group_names.get_mut(*index as usize - 1) {
                    *slot = Some(String::from_utf16_lossy(name));
                }
            }
            if text_too_long(&root, flags.unicode_mode(), flags.ignore_case) {
                return Err(Error::pattern(pattern, flags, Reason::TooLarge, pattern.len()));
            }
            let mut quirks = Vec::new();
            if meta.recompiled_negated_class {
                quirks.push(V8Quirk::RecompiledNegatedClass);
            }
            if meta.loop_lookbehind {
                quirks.push(V8Quirk::LoopStartingWithLookbehind);
            }
            Ok((Pattern { flags, root, capture_count, group_names, quirks }, meta))
        }
        Err((reason, pos)) => Err(Error::pattern(pattern, flags, reason, pos)),
    }
}

/// What the disjunction being parsed is.
enum GroupKind {
    Initial,
    Capture { index: u32, name: Option<Vec<u16>> },
    Lookaround { behind: bool, negative: bool },
    Grouping,
}

/// One open group.
struct State {
    kind: GroupKind,
    builder: Builder,
}

pub(crate) struct Parser<'a> {
    input: &'a [u16],
    flags: Flags,
    current: u32,
    next_pos: usize,
    has_more: bool,
    /// Inside a group name, which is read as in Unicode mode whatever the flags.
    force_unicode: bool,
    captures_started: u32,
    /// The total number of captures, valid once `is_scanned_for_captures`.
    capture_count: u32,
    is_scanned_for_captures: bool,
    has_named_captures: bool,
    named_captures: Vec<(Vec<u16>, u32)>,
    /// Names of `\k<name>` references, patched after the parse; a reference is
    /// `Node::BackReference(NAMED_REF_BASE + i)` until then.
    named_refs: Vec<Vec<u16>>,
    /// Current depth of nested classes (`v` mode).
    class_depth: usize,
}

const NAMED_REF_BASE: u32 = 0x8000_0000;

impl<'a> Parser<'a> {
    fn new(input: &'a [u16], flags: Flags) -> Parser<'a> {
        let mut p = Parser {
            input,
            flags,
            current: END,
            next_pos: 0,
            has_more: true,
            force_unicode: false,
            captures_started: 0,
            capture_count: 0,
            is_scanned_for_captures: false,
            has_named_captures: false,
            named_captures: Vec::new(),
            named_refs: Vec::new(),
            class_depth: 0,
        };
        p.advance();
        p
    }

    // ---- cursor (V8's Advance / Next / Reset) ------------------------------------------

    fn unicode_mode(&self) -> bool {
        self.flags.unicode_mode() || self.force_unicode
    }

    fn unicode_sets(&self) -> bool {
        self.flags.unicode_sets
    }

    fn ignore_case(&self) -> bool {
        self.flags.ignore_case
    }

    fn current(&self) -> u32 {
        self.current
    }

    fn has_more(&self) -> bool {
        self.has_more
    }

    fn has_next(&self) -> bool {
        self.next_pos < self.input.len()
    }

    /// Reads the character at `next_pos` (a whole surrogate pair in Unicode mode).
    fn read_next(&self) -> (u32, usize) {
        let mut pos = self.next_pos;
        let c0 = self.input[pos];
        pos += 1;
        let mut result = u32::from(c0);
        if self.unicode_mode() && pos < self.input.len() && is_lead(u32::from(c0)) {
            let c1 = self.input[pos];
            if is_trail(u32::from(c1)) {
                result = combine(c0, c1);
                pos += 1;
            }
        }
        (result, pos)
    }

    /// The character after `current`, or `END`.
    fn next(&self) -> u32 {
        if self.has_next() { self.read_next().0 } else { END }
    }

    fn advance(&mut self) {
        if self.has_next() {
            let (c, pos) = self.read_next();
            self.current = c;
            self.next_pos = pos;
        } else {
            self.current = END;
            self.next_pos = self.input.len() + 1;
            self.has_more = false;
        }
    }

    fn advance_by(&mut self, dist: isize) {
        self.next_pos = (self.next_pos as isize + dist - 1).max(0) as usize;
        self.advance();
    }

    fn rewind_by_one_codepoint(&mut self) {
        if !self.has_more() {
            return;
        }
        let by = if self.current() > 0xFFFF { -2 } else { -1 };
        self.advance_by(by);
    }

    fn reset(&mut self, pos: usize) {
        self.next_pos = pos;
        self.has_more = pos < self.input.len();
        self.advance();
    }

    /// V8 11.3's `position()`: `next_pos - 1`, which is the index of `current` except
    /// when `current` is a surrogate pair read as one code point (then it is the index of
    /// the trail surrogate). It matters where V8 resets the cursor to a saved position:
    /// after the look-ahead scan for capture groups that a back reference such as `\2`
    /// can trigger, a pair right after the reference is re-read from its trail surrogate,
    /// so `(?<=\1😀)()` with `u` needs an unpaired trail surrogate, as in Node 20.
    fn position(&self) -> usize {
        self.next_pos.saturating_sub(1)
    }

    fn error<T>(&self, reason: Reason) -> PResult<T> {
        Err((reason, self.position()))
    }

    // ---- the pattern ---------------------------------------------------------------------

    fn parse_pattern(&mut self) -> PResult<(Node, Meta)> {
        let (mut root, meta) = self.parse_disjunction()?;
        if !self.named_refs.is_empty() {
            self.patch_named_references(&mut root)?;
        }
        Ok((root, meta))
    }

    fn new_builder(&self) -> Builder {
        Builder::new(self.ignore_case(), self.flags.unicode_mode())
    }

    /// Disjunction :: Alternative ( | Alternative )*, with groups parsed iteratively.
    fn parse_disjunction(&mut self) -> PResult<(Node, Meta)> {
        let mut stack: Vec<State> =
            vec![State { kind: GroupKind::Initial, builder: self.new_builder() }];
        loop {
            let check_quantifier = match self.current() {
                END => {
                    if stack.len() > 1 {
                        return self.error(Reason::UnterminatedGroup);
                    }
                    let Some(state) = stack.pop() else { return Ok((Node::Empty, Meta::atom(0))) };
                    return Ok(state.builder.finish());
                }
                0x29 /* ) */ => {
                    if stack.len() == 1 {
                        return self.error(Reason::UnmatchedParen);
                    }
                    self.advance();
                    let Some(state) = stack.pop() else { return Ok((Node::Empty, Meta::atom(0))) };
                    let (body, mut meta) = state.builder.finish();
                    let is_group = matches!(state.kind, GroupKind::Grouping);
                    // A group is a term of its own in V8's tree, never an atom.
                    meta.single_char = false;
                    if let GroupKind::Lookaround { behind, negative } = state.kind {
                        let ahead = !behind && !negative;
                        // V8 has IsAnchoredAtStart for a lookahead, not IsAnchoredAtEnd.
                        meta = Meta { max: 0, start: ahead && meta.start, end: false, ..meta };
                    }
                    let node = match state.kind {
                        GroupKind::Capture { index, name } => {
                            let name_string = name.as_ref().map(|n| String::from_utf16_lossy(n));
                            if let Some(name) = name {
                                if self.named_captures.iter().any(|(n, _)| *n == name) {
                                    return self.error(Reason::DuplicateCaptureGroupName);
                                }
                                self.named_captures.push((name, index));
                            }
                            Node::Capture(Box::new(Capture { index, name: name_string, node: body }))
                        }
                        GroupKind::Grouping => body,
                        GroupKind::Lookaround { behind, negative } => {
                            Node::Lookaround(Box::new(Lookaround { behind, negative, node: body }))
                        }
                        GroupKind::Initial => body,
                    };
                    if let Some(top) = stack.last_mut() {
                        if is_group {
                            top.builder.add_group(node, meta);
                        } else {
                            top.builder.add_atom(node, meta);
                        }
                    }
                    true
                }
                0x7C /* | */ => {
                    self.advance();
                    if let Some(top) = stack.last_mut() {
                        top.builder.new_alternative();
                    }
                    false
                }
                0x2A | 0x2B | 0x3F /* * + ? */ => return self.error(Reason::NothingToRepeat),
                0x5E /* ^ */ => {
                    self.advance();
                    let a = if self.flags.multiline { Assertion::StartOfLine } else { Assertion::StartOfInput };
                    top(&mut stack).add_assertion(Node::Assertion(a));
                    false
                }
                0x24 /* $ */ => {
                    self.advance();
                    let a = if self.flags.multiline { Assertion::EndOfLine } else { Assertion::EndOfInput };
                    top(&mut stack).add_assertion(Node::Assertion(a));
                    false
                }
                0x2E /* . */ => {
                    self.advance();
                    let max = self.max_char();
                    let set = if self.flags.dot_all {
                        CharSet::range(0, max)
                    } else {
                        line_terminators().complement(max)
                    };
                    top(&mut stack).add_class(set);
                    true
                }
                0x28 /* ( */ => {
                    if stack.len() > MAX_NESTING {
                        return self.error(Reason::StackOverflow);
                    }
                    let state = self.parse_open_parenthesis()?;
                    stack.push(state);
                    false
                }
                0x5B /* [ */ => {
                    let (node, zero, negated) = self.parse_character_class()?;
                    let max = if zero { 0 } else { max_units(&node, self.flags.unicode_mode()) };
                    let meta = Meta { negated_class: negated && self.unicode_sets(), ..Meta::atom(max) };
                    top(&mut stack).add_atom(node, meta);
                    true
                }
                0x5C /* \ */ => self.parse_atom_escape(&mut stack)?,
                0x7B /* { */ => {
                    if self.parse_interval_quantifier().is_some() {
                        return self.error(Reason::NothingToRepeat);
                    }
                    if self.unicode_mode() {
                        return self.error(Reason::LoneQuantifierBrackets);
                    }
                    let c = self.current();
                    top(&mut stack).add_char(c);
                    self.advance();
                    true
                }
                0x7D | 0x5D /* } ] */ => {
                    if self.unicode_mode() {
                        return self.error(Reason::LoneQuantifierBrackets);
                    }
                    let c = self.current();
                    top(&mut stack).add_char(c);
                    self.advance();
                    true
                }
                c => {
                    top(&mut stack).add_char(c);
                    self.advance();
                    true
                }
            };
            if check_quantifier {
                self.parse_quantifier(top(&mut stack))?;
            }
        }
    }

    /// The quantifier (if any) after an atom.
    fn parse_quantifier(&mut self, builder: &mut Builder) -> PResult<()> {
        let (min, max) = match self.current() {
            0x2A => {
                self.advance();
                (0, INFINITY)
            }
            0x2B => {
                self.advance();
                (1, INFINITY)
            }
            0x3F => {
                self.advance();
                (0, 1)
            }
            0x7B => match self.parse_interval_quantifier() {
                Some((min, max)) => {
                    if max < min {
                        return self.error(Reason::RangeOutOfOrder);
                    }
                    (min, max)
                }
                None => {
                    if self.unicode_mode() {
                        return self.error(Reason::IncompleteQuantifier);
                    }
                    return Ok(());
                }
            },
            _ => return Ok(()),
        };
        let mut greedy = true;
        if self.current() == 0x3F {
            greedy = false;
            self.advance();
        }
        let max = if max == INFINITY { None } else { Some(max) };
        if !builder.add_quantifier(min, max, greedy, self.unicode_mode()) {
            return self.error(Reason::InvalidQuantifier);
        }
        Ok(())
    }

    /// `\` outside a class. Returns whether a quantifier may follow.
    fn parse_atom_escape(&mut self, stack: &mut [State]) -> PResult<bool> {
        let escaped = self.next();
        match escaped {
            END => self.error(Reason::EscapeAtEndOfPattern),
            0x31..=0x39 /* 1-9 */ => {
                if let Some(index) = self.parse_back_reference_index() {
                    if is_inside_capture_group(stack, index) {
                        // Nothing can have been captured yet: matches empty.
                        top(stack).add_empty();
                    } else {
                        top(stack).add_atom(Node::BackReference(index), Meta::atom(INFINITY));
                    }
                    return Ok(true);
                }
                if self.unicode_mode() {
                    return self.error(Reason::InvalidEscape);
                }
                let first = self.next();
                if first == 0x38 || first == 0x39 {
                    top(stack).add_char(first);
                    self.advance_by(2);
                    return Ok(true);
                }
                self.octal_escape(stack)
            }
            0x30 /* 0 */ => self.octal_escape(stack),
            0x62 /* b */ => {
                self.advance_by(2);
                top(stack).add_assertion(Node::Assertion(Assertion::WordBoundary));
                Ok(false)
            }
            0x42 /* B */ => {
                self.advance_by(2);
                top(stack).add_assertion(Node::Assertion(Assertion::NotWordBoundary));
                Ok(false)
            }
            0x64 | 0x44 | 0x73 | 0x53 | 0x77 | 0x57 /* d D s S w W */ => {
                let set = self.class_escape_set(escaped, self.unicode_mode() && self.ignore_case());
                self.advance_by(2);
                let set = self.finish_class(set, false);
                top(stack).add_class(set);
                Ok(true)
            }
            0x70 | 0x50 /* p P */ => {
                if !self.unicode_mode() {
                    self.advance_by(2);
                    top(stack).add_char(escaped);
                    return Ok(true);
                }
                let (node, zero) = self.parse_property_escape(false)?;
                let max = if zero { 0 } else { max_units(&node, self.flags.unicode_mode()) };
                top(stack).add_atom(node, Meta::atom(max));
                Ok(true)
            }
            0x6B /* k */ => {
                let has_named = self.has_named_captures(false);
                if self.unicode_mode() || has_named {
                    self.advance_by(2);
                    self.parse_named_back_reference(stack)?;
                    return Ok(true);
                }
                self.character_escape_atom(stack)
            }
            _ => self.character_escape_atom(stack),
        }
    }

    /// `\0` and, without `u`, legacy octal escapes (`current` is the backslash).
    fn octal_escape(&mut self, stack: &mut [State]) -> PResult<bool> {
        self.advance();
        if self.unicode_mode() && (0x30..=0x39).contains(&self.next()) {
            return self.error(Reason::InvalidDecimalEscape);
        }
        let value = self.parse_octal_literal();
        top(stack).add_char(value);
        Ok(true)
    }

    fn character_escape_atom(&mut self, stack: &mut [State]) -> PResult<bool> {
        let (c, _escaped_unicode) = self.parse_character_escape(false)?;
        top(stack).add_char(c);
        Ok(true)
    }

    /// `(` … : a group, a lookaround or a (named) capture.
    fn parse_open_parenthesis(&mut self) -> PResult<State> {
        self.advance();
        let mut kind = GroupKind::Capture { index: 0, name: None };
        let mut is_named = false;
        if self.current() == 0x3F {
            match self.next() {
                0x3A /* : */ => {
                    self.advance_by(2);
                    kind = GroupKind::Grouping;
                }
                0x3D /* = */ => {
                    self.advance_by(2);
                    kind = GroupKind::Lookaround { behind: false, negative: false };
                }
                0x21 /* ! */ => {
                    self.advance_by(2);
                    kind = GroupKind::Lookaround { behind: false, negative: true };
                }
                0x3C /* < */ => {
                    self.advance();
                    if self.next() == 0x3D {
                        self.advance_by(2);
                        kind = GroupKind::Lookaround { behind: true, negative: false };
                    } else if self.next() == 0x21 {
                        self.advance_by(2);
                        kind = GroupKind::Lookaround { behind: true, negative: true };
                    } else {
                        is_named = true;
                        self.has_named_captures = true;
                        self.advance();
                    }
                }
                _ => {
                    // Includes the modifiers `(?i:…)`, which V8 11.3 does not support.
                    self.advance();
                    return self.error(Reason::InvalidGroup);
                }
            }
        }
        if let GroupKind::Capture { .. } = kind {
            if self.captures_started >= MAX_CAPTURES {
                return self.error(Reason::TooManyCaptures);
            }
            self.captures_started += 1;
            let name = if is_named { Some(self.parse_capture_group_name()?) } else { None };
            kind = GroupKind::Capture { index: self.captures_started, name };
        }
        Ok(State { kind, builder: self.new_builder() })
    }

    /// `(?<name>` or `\k<name>`: the name, read as in Unicode mode (`current` is on the
    /// first character of the name; it ends after the `>`).
    fn parse_capture_group_name(&mut self) -> PResult<Vec<u16>> {
        self.rewind_by_one_codepoint();
        let mut name = Vec::new();
        self.force_unicode = true;
        let result = self.parse_capture_group_name_inner(&mut name);
        self.force_unicode = false;
        result?;
        self.advance();
        Ok(name)
    }

    fn parse_capture_group_name_inner(&mut self, name: &mut Vec<u16>) -> PResult<()> {
        let mut at_start = true;
        loop {
            self.advance();
            let mut c = self.current();
            if c == 0x5C && self.next() == 0x75 {
                self.advance_by(2);
                match self.parse_unicode_escape() {
                    Some(v) => c = v,
                    None => return self.error(Reason::InvalidUnicodeEscape),
                }
                self.rewind_by_one_codepoint();
            }
            if c == 0x5C {
                return self.error(Reason::InvalidCaptureGroupName);
            }
            if at_start {
                if !unicode::is_id_start(c) {
                    return self.error(Reason::InvalidCaptureGroupName);
                }
                push_code_unit(name, c);
                at_start = false;
            } else if c == 0x3E {
                return Ok(());
            } else if unicode::is_id_continue(c) {
                push_code_unit(name, c);
            } else {
                return self.error(Reason::InvalidCaptureGroupName);
            }
        }
    }

    /// `\k<name>` (after `\k`).
    fn parse_named_back_reference(&mut self, stack: &mut [State]) -> PResult<()> {
        if self.current() != 0x3C {
            return self.error(Reason::InvalidNamedReference);
        }
        self.advance();
        let name = self.parse_capture_group_name()?;
        let inside = stack
            .iter()
            .rev()
            .any(|s| matches!(&s.kind, GroupKind::Capture { name: Some(n), .. } if *n == name));
        if inside {
            top(stack).add_empty();
        } else {
            let id = NAMED_REF_BASE + self.named_refs.len() as u32;
            self.named_refs.push(name);
            top(stack).add_atom(Node::BackReference(id), Meta::atom(INFINITY));
        }
        Ok(())
    }

    fn patch_named_references(&mut self, node: &mut Node) -> PResult<()> {
        if self.named_captures.is_empty() {
            return self.error(Reason::InvalidNamedCaptureReference);
        }
        // Every reference must name a group, checked in order of appearance.
        let mut indices = Vec::with_capacity(self.named_refs.len());
        for name in &self.named_refs {
            match self.named_captures.iter().find(|(n, _)| n == name) {
                Some((_, index)) => indices.push(*index),
                None => return self.error(Reason::InvalidNamedCaptureReference),
            }
        }
        patch(node, &indices);
        Ok(())
    }

    /// `\1`…: a back reference if the number is at most the number of groups in the whole
    /// pattern (scanning ahead when needed); else `None` with the cursor unmoved.
    fn parse_back_reference_index(&mut self) -> Option<u32> {
        let start = self.position();
        let mut value = self.next() - 0x30;
        self.advance_by(2);
        loop {
            let c = self.current();
            if (0x30..=0x39).contains(&c) {
                value = 10 * value + (c - 0x30);
                if value > MAX_CAPTURES {
                    self.reset(start);
                    return None;
                }
                self.advance();
            } else {
                break;
            }
        }
        if value > self.captures_started {
            if !self.is_scanned_for_captures {
                self.scan_for_captures(false);
            }
            if value > self.capture_count {
                self.reset(start);
                return None;
            }
        }
        Some(value)
    }

    /// Counts the capture groups of the whole pattern (and notes named ones), without
    /// parsing; `in_class` when called from inside a class, which is skipped first.
    fn scan_for_captures(&mut self, in_class: bool) {
        let saved = self.position();
        let mut count = self.captures_started;
        if in_class {
            while self.current() != END {
                let c = self.current();
                self.advance();
                if c == 0x5C {
                    self.advance();
                } else if c == 0x5D {
                    break;
                }
            }
        }
        while self.current() != END {
            let n = self.current();
            self.advance();
            match n {
                0x5C => self.advance(),
                0x5B => {
                    let mut level = 0;
                    while self.current() != END {
                        let c = self.current();
                        self.advance();
                        if c == 0x5C {
                            self.advance();
                        } else if c == 0x5B {
                            if self.unicode_sets() {
                                level += 1;
                            }
                        } else if c == 0x5D {
                            if level == 0 {
                                break;
                            }
                            level -= 1;
                        }
                    }
                }
                0x28 => {
                    if self.current() == 0x3F {
                        self.advance();
                        if self.current() != 0x3C {
                            continue;
                        }
                        self.advance();
                        if self.current() == 0x3D || self.current() == 0x21 {
                            continue;
                        }
                        self.has_named_captures = true;
                    }
                    count += 1;
                }
                _ => {}
            }
        }
        self.capture_count = count;
        self.is_scanned_for_captures = true;
        self.reset(saved);
    }

    fn has_named_captures(&mut self, in_class: bool) -> bool {
        if self.has_named_captures || self.is_scanned_for_captures {
            return self.has_named_captures;
        }
        self.scan_for_captures(in_class);
        self.has_named_captures
    }

    /// `{n}`, `{n,}`, `{n,m}`; `None` (cursor unmoved) if it is not one. Numbers saturate at
    /// 2^31 − 1.
    fn parse_interval_quantifier(&mut self) -> Option<(u32, u32)> {
        let start = self.position();
        self.advance();
        if !is_digit(self.current()) {
            self.reset(start);
            return None;
        }
        let min = self.parse_decimal();
        let max;
        if self.current() == 0x7D {
            max = min;
            self.advance();
        } else if self.current() == 0x2C {
            self.advance();
            if self.current() == 0x7D {
                max = INFINITY;
                self.advance();
            } else {
                let m = self.parse_decimal();
                if self.current() != 0x7D {
                    self.reset(start);
                    return None;
                }
                max = m;
                self.advance();
            }
        } else {
            self.reset(start);
            return None;
        }
        Some((min, max))
    }

    fn parse_decimal(&mut self) -> u32 {
        let mut value: u32 = 0;
        while is_digit(self.current()) {
            let d = self.current() - 0x30;
            if value > (INFINITY - d) / 10 {
                while is_digit(self.current()) {
                    self.advance();
                }
                return INFINITY;
            }
            value = 10 * value + d;
            self.advance();
        }
        value
    }

    /// Up to three octal digits with a value below 256 (`current` is the first digit).
    fn parse_octal_literal(&mut self) -> u32 {
        let mut value = self.current().wrapping_sub(0x30);
        self.advance();
        if (0x30..=0x37).contains(&self.current()) {
            value = value * 8 + self.current() - 0x30;
            self.advance();
            if value < 32 && (0x30..=0x37).contains(&self.current()) {
                value = value * 8 + self.current() - 0x30;
                self.advance();
            }
        }
        value
    }

    fn parse_hex_escape(&mut self, length: usize) -> Option<u32> {
        let start = self.position();
        let mut value = 0;
        for _ in 0..length {
            let Some(d) = hex_value(self.current()) else {
                self.reset(start);
                return None;
            };
            value = value * 16 + d;
            self.advance();
        }
        Some(value)
    }

    /// After `\u`: `XXXX` (and a following `\uXXXX` trail surrogate in Unicode mode) or,
    /// in Unicode mode, `{X…}`.
    fn parse_unicode_escape(&mut self) -> Option<u32> {
        if self.current() == 0x7B && self.unicode_mode() {
            let start = self.position();
            self.advance();
            if let Some(v) = self.parse_unlimited_hex(MAX_CODE_POINT)
                && self.current() == 0x7D
            {
                self.advance();
                return Some(v);
            }
            self.reset(start);
            return None;
        }
        let value = self.parse_hex_escape(4)?;
        if self.unicode_mode() && is_lead(value) && self.current() == 0x5C {
            let start = self.position();
            if self.next() == 0x75 {
                self.advance_by(2);
                if let Some(trail) = self.parse_hex_escape(4)
                    && is_trail(trail)
                {
                    return Some(combine(value as u16, trail as u16));
                }
            }
            self.reset(start);
        }
        Some(value)
    }

    fn parse_unlimited_hex(&mut self, max: u32) -> Option<u32> {
        let mut x: u32 = hex_value(self.current())?;
        loop {
            if x > max {
                return None;
            }
            self.advance();
            match hex_value(self.current()) {
                Some(d) => x = x * 16 + d,
                None => return Some(x),
            }
        }
    }

    /// CharacterEscape (`current` is the backslash). Returns the character and whether it
    /// came from `\u`.
    fn parse_character_escape(&mut self, in_class: bool) -> PResult<(u32, bool)> {
        self.advance();
        let c = self.current();
        match c {
            0x66 => {
                self.advance();
                return Ok((0x0C, false));
            }
            0x6E => {
                self.advance();
                return Ok((0x0A, false));
            }
            0x72 => {
                self.advance();
                return Ok((0x0D, false));
            }
            0x74 => {
                self.advance();
                return Ok((0x09, false));
            }
            0x76 => {
                self.advance();
                return Ok((0x0B, false));
            }
            0x63 /* c */ => {
                let control = self.next();
                let letter = control & !0x20;
                if (0x41..=0x5A).contains(&letter) {
                    self.advance_by(2);
                    return Ok((control & 0x1F, false));
                }
                if self.unicode_mode() {
                    return self.error(Reason::InvalidUnicodeEscape);
                }
                if in_class && (is_digit(control) || control == 0x5F) {
                    self.advance_by(2);
                    return Ok((control & 0x1F, false));
                }
                // The backslash is a literal; `c` is read next.
                return Ok((0x5C, false));
            }
            0x30 if !is_digit(self.next()) => {
                self.advance();
                return Ok((0, false));
            }
            0x30..=0x37 => {
                if self.unicode_mode() {
                    let reason = if in_class { Reason::InvalidClassEscape } else { Reason::InvalidDecimalEscape };
                    return self.error(reason);
                }
                return Ok((self.parse_octal_literal(), false));
            }
            0x78 /* x */ => {
                self.advance();
                if let Some(v) = self.parse_hex_escape(2) {
                    return Ok((v, false));
                }
                if self.unicode_mode() {
                    return self.error(Reason::InvalidEscape);
                }
                return Ok((0x78, false));
            }
            0x75 /* u */ => {
                self.advance();
                if let Some(v) = self.parse_unicode_escape() {
                    return Ok((v, true));
                }
                if self.unicode_mode() {
                    return self.error(Reason::InvalidUnicodeEscape);
                }
                return Ok((0x75, false));
            }
            _ => {}
        }
        if self.unicode_sets() && in_class && is_class_set_reserved_punctuator(c) {
            self.advance();
            return Ok((c, false));
        }
        if self.unicode_mode() {
            if !is_syntax_character_or_slash(c) {
                return self.error(Reason::InvalidEscape);
            }
            self.advance();
            return Ok((c, false));
        }
        self.advance();
        if c == 0x6B && self.has_named_captures(in_class) {
            return self.error(Reason::InvalidEscape);
        }
        Ok((c, false))
    }

    /// The largest character of the mode.
    fn max_char(&self) -> u32 {
        if self.flags.unicode_mode() { MAX_CODE_POINT } else { MAX_CODE_UNIT }
    }
}

fn top(stack: &mut [State]) -> &mut Builder {
    // The stack always holds the initial state.
    let i = stack.len().saturating_sub(1);
    &mut stack[i].builder
}

/// Whether group `index` is open (a reference to it inside it can only match empty).
fn is_inside_capture_group(stack: &[State], index: u32) -> bool {
    for s in stack.iter().rev() {
        if let GroupKind::Capture { index: i, .. } = s.kind {
            if index == i {
                return true;
            }
            if index > i {
                return false;
            }
        }
    }
    false
}

fn patch(node: &mut Node, indices: &[u32]) {
    match node {
        Node::BackReference(i) if *i >= NAMED_REF_BASE => {
            *i = indices.get((*i - NAMED_REF_BASE) as usize).copied().unwrap_or(0);
        }
        Node::Concat(v) | Node::Alternation(v) => v.iter_mut().for_each(|n| patch(n, indices)),
        Node::Capture(c) => patch(&mut c.node, indices),
        Node::Repeat(r) => patch(&mut r.node, indices),
        Node::Lookaround(l) => patch(&mut l.node, indices),
        _ => {}
    }
}

/// Whether a run of consecutive literal characters is longer than V8 allows. In Unicode
/// mode V8 takes a class out of the text when it has astral or surrogate members, and
/// every class (case-insensitive characters included) under `i`.
fn text_too_long(node: &Node, unicode: bool, ignore_case: bool) -> bool {
    let in_text = |set: &CharSet| {
        !unicode
            || (!ignore_case
                && set
                    .ranges()
                    .iter()
                    .all(|&(lo, hi)| hi <= 0xFFFF && (hi < 0xD800 || lo > 0xDFFF)))
    };
    let nested = |n: &Node| text_too_long(n, unicode, ignore_case);
    match node {
        Node::Concat(v) => {
            let mut run = 0usize;
            for n in v {
                match n {
                    Node::Char(c) => run += if *c > 0xFFFF { 2 } else { 1 },
                    Node::Class(set) if in_text(set) => run += 1,
                    other => {
                        if nested(other) {
                            return true;
                        }
                        run = 0;
                    }
                }
                if run > MAX_TEXT_LENGTH {
                    return true;
                }
            }
            false
        }
        Node::Alternation(v) => v.iter().any(nested),
        Node::Capture(c) => nested(&c.node),
        Node::Repeat(r) => nested(&r.node),
        Node::Lookaround(l) => nested(&l.node),
        _ => false,
    }
}

/// `\n \r \u2028 \u2029`.
pub(crate) fn line_terminators() -> CharSet {
    CharSet::from_ranges([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)])
}

fn push_code_unit(v: &mut Vec<u16>, c: u32) {
    if c <= 0xFFFF {
        v.push(c as u16);
    } else {
        let c = c - 0x10000;
        v.push(0xD800 + (c >> 10) as u16);
        v.push(0xDC00 + (c & 0x3FF) as u16);
    }
}

fn is_digit(c: u32) -> bool {
    (0x30..=0x39).contains(&c)
}

fn hex_value(c: u32) -> Option<u32> {
    match c {
        0x30..=0x39 => Some(c - 0x30),
        0x41..=0x46 => Some(c - 0x41 + 10),
        0x61..=0x66 => Some(c - 0x61 + 10),
        _ => None,
    }
}

pub(crate) fn is_lead(c: u32) -> bool {
    (0xD800..=0xDBFF).contains(&c)
}

pub(crate) fn is_trail(c: u32) -> bool {
    (0xDC00..=0xDFFF).contains(&c)
}

fn combine(lead: u16, trail: u16) -> u32 {
    0x10000 + ((u32::from(lead) - 0xD800) << 10) + (u32::from(trail) - 0xDC00)
}

fn is_syntax_character_or_slash(c: u32) -> bool {
    matches!(
        c,
        0x5E | 0x24
            | 0x5C
            | 0x2E
            | 0x2A
            | 0x2B
            | 0x3F
            | 0x28
            | 0x29
            | 0x5B
            | 0x5D
            | 0x7B
            | 0x7D
            | 0x7C
            | 0x2F
    )
}

fn is_class_set_reserved_punctuator(c: u32) -> bool {
    // & - ! # % , : ; < = > @ ` ~
    matches!(
        c,
        0x26 | 0x2D
            | 0x21
            | 0x23
            | 0x25
            | 0x2C
            | 0x3A
            | 0x3B
            | 0x3C
            | 0x3D
            | 0x3E
            | 0x40
            | 0x60
            | 0x7E
    )
}
