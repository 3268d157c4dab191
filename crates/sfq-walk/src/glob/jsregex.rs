//! A small engine for the JavaScript regular expressions picomatch builds:
//! a parser for ECMAScript's non-Unicode syntax (with Annex B's web
//! compatibility rules) and a memoizing backtracking matcher over UTF-16
//! code units, with lookahead.
//!
//! Matching is a yes/no question on a whole string, so priorities of
//! alternatives and greediness do not matter; memoization of failed
//! `(instruction, position)` states keeps every match polynomial.
//! Backreferences and lookbehind are not supported (compile error).

use std::cell::RefCell;

/// Why a source could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegexError {
    /// Not a valid JavaScript regular expression (`new RegExp` throws).
    Invalid(&'static str),
    /// Valid, but uses a feature this engine does not implement.
    Unsupported(&'static str),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Class {
    ranges: Vec<(u16, u16)>,
    negated: bool,
}

impl Class {
    fn one(c: u16) -> Class {
        Class { ranges: vec![(c, c)], negated: false }
    }
    fn contains(&self, c: u16) -> bool {
        self.ranges.iter().any(|&(a, b)| a <= c && c <= b) != self.negated
    }
}

#[derive(Debug, Clone)]
enum Node {
    Empty,
    Set(Class),
    Seq(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
    Look {
        negated: bool,
        node: Box<Node>,
    },
    Start,
    End,
    WordBoundary(bool),
    /// One of picomatch's fixed lookaheads, evaluated natively.
    Pred(Pred),
}

/// picomatch's constant lookaheads (exactly these source texts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pred {
    /// `(?!\.)`
    NotDot,
    /// `(?=.)`
    OneChar,
    /// `(?!(?:^|\/)\.)`
    NotSegDot,
    /// `(?!(?:^|\/)\.{1,2}(?:\/|$))`
    NotSegDots,
    /// `(?!\.{1,2}(?:\/|$))`
    NotDots,
    /// `(?!\.{0,1}(?:\/|$))`
    NotDotSlash,
}

impl Pred {
    fn from_source(src: &[u16]) -> Option<Pred> {
        let s = String::from_utf16(src).ok()?;
        Some(match s.as_str() {
            "(?!\\.)" => Pred::NotDot,
            "(?=.)" => Pred::OneChar,
            "(?!(?:^|\\/)\\.)" => Pred::NotSegDot,
            "(?!(?:^|\\/)\\.{1,2}(?:\\/|$))" => Pred::NotSegDots,
            "(?!\\.{1,2}(?:\\/|$))" => Pred::NotDots,
            "(?!\\.{0,1}(?:\\/|$))" => Pred::NotDotSlash,
            _ => return None,
        })
    }

    fn holds(self, s: &[u16], p: usize) -> bool {
        const DOT: u16 = b'.' as u16;
        const SLASH: u16 = b'/' as u16;
        let at = |i: usize| s.get(i).copied();
        // \.{1,2}(?:\/|$) at i
        let dots = |i: usize| {
            let end = |j: usize| j == s.len() || at(j) == Some(SLASH);
            at(i) == Some(DOT) && (end(i + 1) || (at(i + 1) == Some(DOT) && end(i + 2)))
        };
        match self {
            Pred::NotDot => at(p) != Some(DOT),
            Pred::OneChar => at(p).is_some_and(|c| !matches!(c, 0x0A | 0x0D | 0x2028 | 0x2029)),
            Pred::NotSegDot => {
                !((p == 0 && at(0) == Some(DOT))
                    || (at(p) == Some(SLASH) && at(p + 1) == Some(DOT)))
            }
            Pred::NotSegDots => !((p == 0 && dots(0)) || (at(p) == Some(SLASH) && dots(p + 1))),
            Pred::NotDots => !dots(p),
            Pred::NotDotSlash => {
                // \.{0,1}(?:\/|$): an optional dot, then '/' or the end.
                let end = |j: usize| j == s.len() || at(j) == Some(SLASH);
                !(end(p) || (at(p) == Some(DOT) && end(p + 1)))
            }
        }
    }
}

const MAX_INSTS: usize = 100_000;

fn digit_ranges() -> Vec<(u16, u16)> {
    vec![(0x30, 0x39)]
}
fn word_ranges() -> Vec<(u16, u16)> {
    vec![(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
}
fn space_ranges() -> Vec<(u16, u16)> {
    vec![
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
    ]
}

fn complement(r: &[(u16, u16)]) -> Vec<(u16, u16)> {
    let mut sorted = r.to_vec();
    sorted.sort_unstable();
    let mut out = Vec::new();
    let mut next: u32 = 0;
    for (a, b) in sorted {
        if (a as u32) > next {
            out.push((next as u16, a - 1));
        }
        next = next.max(b as u32 + 1);
    }
    if next <= 0xFFFF {
        out.push((next as u16, 0xFFFF));
    }
    out
}

fn is_word(c: u16) -> bool {
    c < 128 && ((c as u8).is_ascii_alphanumeric() || c == b'_' as u16)
}

struct Parser<'a> {
    s: &'a [u16],
    i: usize,
    groups: usize,
    named: bool,
    depth: u32,
    /// For each capturing group opened so far (in order), whether it closed.
    closed: Vec<bool>,
}

/// Deepest group nesting accepted (the parser and compiler recurse).
const MAX_NESTING: u32 = 200;

fn ch(c: char) -> u16 {
    c as u16
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u16> {
        self.s.get(self.i).copied()
    }
    fn peek_at(&self, k: usize) -> Option<u16> {
        self.s.get(self.i + k).copied()
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(ch(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn disjunction(&mut self) -> Result<Node, RegexError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(RegexError::Unsupported("groups nested too deeply"));
        }
        let mut alts = vec![self.alternative()?];
        while self.eat('|') {
            alts.push(self.alternative()?);
        }
        self.depth -= 1;
        Ok(if alts.len() == 1 { alts.pop().unwrap_or(Node::Empty) } else { Node::Alt(alts) })
    }

    fn alternative(&mut self) -> Result<Node, RegexError> {
        let mut seq = Vec::new();
        while let Some(c) = self.peek() {
            if c == ch('|') || c == ch(')') {
                break;
            }
            let (atom, quantifiable) = self.term()?;
            let atom = self.quantifier(atom, quantifiable)?;
            seq.push(atom);
        }
        Ok(Node::Seq(seq))
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` at the cursor without consuming.
    fn braced(&self) -> Option<(u32, Option<u32>, usize)> {
        let s = self.s;
        let mut j = self.i;
        if s.get(j) != Some(&ch('{')) {
            return None;
        }
        j += 1;
        let num = |j: &mut usize| -> Option<u32> {
            let st = *j;
            let mut v: u64 = 0;
            while let Some(&d) = s.get(*j) {
                if !(0x30..=0x39).contains(&d) {
                    break;
                }
                v = (v * 10 + (d - 0x30) as u64).min(u32::MAX as u64);
                *j += 1;
            }
            if *j == st { None } else { Some(v as u32) }
        };
        let min = num(&mut j)?;
        let max = if s.get(j) == Some(&ch(',')) {
            j += 1;
            num(&mut j)
        } else {
            Some(min)
        };
        let unbounded = s.get(j - 1) == Some(&ch(','));
        if s.get(j) != Some(&ch('}')) {
            return None;
        }
        Some((min, if unbounded { None } else { max }, j + 1 - self.i))
    }

    fn quantifier(&mut self, atom: Node, quantifiable: bool) -> Result<Node, RegexError> {
        let (min, max) = match self.peek() {
            Some(c) if c == ch('*') => {
                self.i += 1;
                (0, None)
            }
            Some(c) if c == ch('+') => {
                self.i += 1;
                (1, None)
            }
            Some(c) if c == ch('?') => {
                self.i += 1;
                (0, Some(1))
            }
            Some(c) if c == ch('{') => match self.braced() {
                Some((min, max, n)) => {
                    self.i += n;
                    if let Some(m) = max
                        && m < min
                    {
                        return Err(RegexError::Invalid("numbers out of order in {} quantifier"));
                    }
                    (min, max)
                }
                None => return Ok(atom),
            },
            _ => return Ok(atom),
        };
        if !quantifiable {
            return Err(RegexError::Invalid("Nothing to repeat"));
        }
        self.eat('?');
        Ok(Node::Repeat { node: Box::new(atom), min, max })
    }

    /// One term: `(node, quantifiable)`.
    fn term(&mut self) -> Result<(Node, bool), RegexError> {
        let Some(c) = self.peek() else { return Err(RegexError::Invalid("unexpected end")) };
        self.i += 1;
        let cc = char::from_u32(c as u32).unwrap_or('\u{FFFD}');
        Ok(match cc {
            '^' => (Node::Start, false),
            '$' => (Node::End, false),
            '*' | '+' | '?' => return Err(RegexError::Invalid("Nothing to repeat")),
            '{' => {
                self.i -= 1;
                if self.braced().is_some() {
                    return Err(RegexError::Invalid("Nothing to repeat"));
                }
                self.i += 1;
                (Node::Set(Class::one(c)), true)
            }
            '.' => (
                Node::Set(Class {
                    ranges: vec![(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)],
                    negated: true,
                }),
                true,
            ),
            '(' => {
                let open = self.i - 1;
                if self.eat('?') {
                    if self.eat(':') {
                        let n = self.disjunction()?;
                        self.close()?;
                        (n, true)
                    } else if self.eat('=') || self.peek() == Some(ch('!')) {
                        let negated = self.eat('!');
                        let n = self.disjunction()?;
                        self.close()?;
                        match Pred::from_source(&self.s[open..self.i]) {
                            Some(p) => (Node::Pred(p), true),
                            None => (Node::Look { negated, node: Box::new(n) }, true),
                        }
                    } else if self.eat('<') {
                        if self.peek() == Some(ch('=')) || self.peek() == Some(ch('!')) {
                            return Err(RegexError::Unsupported("lookbehind"));
                        }
                        // Named group: (?<name>...)
                        let st = self.i;
                        while self.peek().is_some_and(|x| is_word(x) || x == ch('$')) {
                            self.i += 1;
                        }
                        if self.i == st || !self.eat('>') {
                            return Err(RegexError::Invalid("Invalid capture group name"));
                        }
                        let g = self.closed.len();
                        self.closed.push(false);
                        let n = self.disjunction()?;
                        self.close()?;
                        self.closed[g] = true;
                        (n, true)
                    } else {
                        return Err(RegexError::Invalid("Invalid group"));
                    }
                } else {
                    let g = self.closed.len();
                    self.closed.push(false);
                    let n = self.disjunction()?;
                    self.close()?;
                    self.closed[g] = true;
                    (n, true)
                }
            }
            ')' => return Err(RegexError::Invalid("Unmatched ')'")),
            '[' => (Node::Set(self.class()?), true),
            '\\' => self.atom_escape()?,
            _ => (Node::Set(Class::one(c)), true),
        })
    }

    fn close(&mut self) -> Result<(), RegexError> {
        if self.eat(')') { Ok(()) } else { Err(RegexError::Invalid("Unterminated group")) }
    }

    fn hex(&self, at: usize, n: usize) -> Option<u16> {
        let mut v: u32 = 0;
        for k in 0..n {
            let d = self.s.get(at + k).copied()?;
            let x = char::from_u32(d as u32)?.to_digit(16)?;
            v = v * 16 + x;
        }
        Some(v as u16)
    }

    /// Escapes shared by atoms and classes; `None` when `\` + c is handled by
    /// the caller. Cursor is after the backslash.
    fn char_escape(&mut self, in_class: bool) -> Result<Option<u16>, RegexError> {
        let Some(c) = self.peek() else { return Err(RegexError::Invalid("\\ at end of pattern")) };
        let cc = char::from_u32(c as u32).unwrap_or('\u{FFFD}');
        let v = match cc {
            'f' => 0x0C,
            'n' => 0x0A,
            'r' => 0x0D,
            't' => 0x09,
            'v' => 0x0B,
            'c' => {
                let next = self.peek_at(1);
                let ok = next.is_some_and(|x| {
                    (x as u8 as u16 == x)
                        && ((x as u8).is_ascii_alphabetic()
                            || (in_class && ((x as u8).is_ascii_digit() || x == ch('_'))))
                });
                if ok {
                    let x = next.unwrap_or(0);
                    self.i += 2;
                    return Ok(Some(x % 32));
                }
                // "\c" is a literal backslash; 'c' is read next.
                return Ok(Some(ch('\\')));
            }
            'x' => match self.hex(self.i + 1, 2) {
                Some(v) => {
                    self.i += 3;
                    return Ok(Some(v));
                }
                None => ch('x'),
            },
            'u' => match self.hex(self.i + 1, 4) {
                Some(v) => {
                    self.i += 5;
                    return Ok(Some(v));
                }
                None => ch('u'),
            },
            '0'..='7' => {
                // \0 (NUL) or a legacy octal escape (classes, and atoms whose
                // number is not a group reference — checked by the caller).
                let mut v: u32 = 0;
                let mut n = 0;
                while n < 3 {
                    let Some(d) = self.peek_at(n) else { break };
                    if !(0x30..=0x37).contains(&d) {
                        break;
                    }
                    let nv = v * 8 + (d - 0x30) as u32;
                    if nv > 0o377 {
                        break;
                    }
                    v = nv;
                    n += 1;
                }
                self.i += n;
                return Ok(Some(v as u16));
            }
            'k' if self.named => return Err(RegexError::Unsupported("named backreference")),
            _ => c,
        };
        self.i += 1;
        Ok(Some(v))
    }

    fn atom_escape(&mut self) -> Result<(Node, bool), RegexError> {
        let Some(c) = self.peek() else { return Err(RegexError::Invalid("\\ at end of pattern")) };
        let cc = char::from_u32(c as u32).unwrap_or('\u{FFFD}');
        match cc {
            'b' | 'B' => {
                self.i += 1;
                return Ok((Node::WordBoundary(cc == 'b'), false));
            }
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => {
                self.i += 1;
                return Ok((Node::Set(class_escape(cc)), true));
            }
            '1'..='9' => {
                // A backreference when the number names a group.
                let mut j = self.i;
                let mut n: usize = 0;
                while let Some(d) = self.s.get(j).copied().filter(|d| (0x30..=0x39).contains(d)) {
                    n = n.saturating_mul(10).saturating_add((d - 0x30) as usize);
                    j += 1;
                }
                if n <= self.groups {
                    // A group that has not closed yet (a forward or enclosing
                    // reference) has captured nothing: the reference matches
                    // the empty string, as in JavaScript.
                    if self.closed.get(n - 1) != Some(&true) {
                        self.i = j;
                        return Ok((Node::Empty, true));
                    }
                    return Err(RegexError::Unsupported("backreference"));
                }
                if cc == '8' || cc == '9' {
                    self.i += 1;
                    return Ok((Node::Set(Class::one(c)), true));
                }
            }
            _ => {}
        }
        let v = self.char_escape(false)?.unwrap_or(c);
        Ok((Node::Set(Class::one(v)), true))
    }

    fn class(&mut self) -> Result<Class, RegexError> {
        let negated = self.eat('^');
        let mut ranges: Vec<(u16, u16)> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(RegexError::Invalid("Unterminated character class"));
            };
            if c == ch(']') {
                self.i += 1;
                break;
            }
            let a = self.class_atom()?;
            if self.peek() == Some(ch('-'))
                && self.peek_at(1).is_some_and(|x| x != ch(']'))
                && self.peek_at(1).is_some()
            {
                self.i += 1;
                let b = self.class_atom()?;
                match (a, b) {
                    (ClassAtom::Char(x), ClassAtom::Char(y)) => {
                        if x > y {
                            return Err(RegexError::Invalid(
                                "Range out of order in character class",
                            ));
                        }
                        ranges.push((x, y));
                    }
                    (a, b) => {
                        // Annex B: a class escape on either side makes '-' literal.
                        for atom in [a, ClassAtom::Char(ch('-')), b] {
                            match atom {
                                ClassAtom::Char(x) => ranges.push((x, x)),
                                ClassAtom::Set(s) => ranges.extend(s),
                            }
                        }
                    }
                }
            } else {
                match a {
                    ClassAtom::Char(x) => ranges.push((x, x)),
                    ClassAtom::Set(s) => ranges.extend(s),
                }
            }
        }
        Ok(Class { ranges, negated })
    }

    fn class_atom(&mut self) -> Result<ClassAtom, RegexError> {
        let Some(c) = self.peek() else {
            return Err(RegexError::Invalid("Unterminated character class"));
        };
        self.i += 1;
        if c != ch('\\') {
            return Ok(ClassAtom::Char(c));
        }
        let Some(e) = self.peek() else { return Err(RegexError::Invalid("\\ at end of pattern")) };
        let ec = char::from_u32(e as u32).unwrap_or('\u{FFFD}');
        match ec {
            'b' => {
                self.i += 1;
                Ok(ClassAtom::Char(0x08))
            }
            '-' => {
                self.i += 1;
                Ok(ClassAtom::Char(ch('-')))
            }
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => {
                self.i += 1;
                let cl = class_escape(ec);
                Ok(ClassAtom::Set(if cl.negated { complement(&cl.ranges) } else { cl.ranges }))
            }
            '8' | '9' => {
                self.i += 1;
                Ok(ClassAtom::Char(e))
            }
            _ => Ok(ClassAtom::Char(self.char_escape(true)?.unwrap_or(e))),
        }
    }
}

enum ClassAtom {
    Char(u16),
    Set(Vec<(u16, u16)>),
}

fn class_escape(c: char) -> Class {
    match c {
        'd' => Class { ranges: digit_ranges(), negated: false },
        'D' => Class { ranges: digit_ranges(), negated: true },
        'w' => Class { ranges: word_ranges(), negated: false },
        'W' => Class { ranges: word_ranges(), negated: true },
        's' => Class { ranges: space_ranges(), negated: false },
        _ => Class { ranges: space_ranges(), negated: true },
    }
}

/// Counts capturing groups (for telling `\1` from an octal escape) and
/// notes named groups.
fn count_groups(s: &[u16]) -> (usize, bool) {
    let mut i = 0;
    let mut n = 0;
    let mut named = false;
    let mut in_class = false;
    while i < s.len() {
        let c = s[i];
        if c == ch('\\') {
            i += 2;
            continue;
        }
        if in_class {
            if c == ch(']') {
                in_class = false;
            }
        } else if c == ch('[') {
            in_class = true;
        } else if c == ch('(') {
            if s.get(i + 1) != Some(&ch('?')) {
                n += 1;
            } else if s.get(i + 2) == Some(&ch('<'))
                && !matches!(s.get(i + 3), Some(&x) if x == ch('=') || x == ch('!'))
            {
                n += 1;
                named = true;
            }
        }
        i += 1;
    }
    (n, named)
}

fn parse(src: &[u16]) -> Result<Node, RegexError> {
    let (groups, named) = count_groups(src);
    let mut p = Parser { s: src, i: 0, groups, named, depth: 0, closed: Vec::new() };
    let n = p.disjunction()?;
    if p.i != src.len() {
        return Err(RegexError::Invalid("Unmatched ')'"));
    }
    Ok(n)
}

/// Whether `src` parses to a top-level alternation (`a|b`), or does not
/// parse at all.
pub fn has_top_level_alternation(src: &[u16]) -> bool {
    !matches!(parse(src), Ok(Node::Seq(_)) | Ok(Node::Empty))
}

/// Whether `new RegExp(src)` would succeed (for picomatch's `expandRange`).
pub fn is_valid(src: &[u16]) -> bool {
    !matches!(parse(src), Err(RegexError::Invalid(_)))
}

#[derive(Debug, Clone, Copy)]
enum Inst {
    Set(usize),
    Split(usize, usize),
    Jmp(usize),
    Start,
    End,
    WordBoundary(bool),
    Look { negated: bool, prog: usize },
    Pred(Pred),
    Match,
}

#[derive(Debug, Clone)]
struct Prog {
    insts: Vec<Inst>,
    /// Short and without backward jumps: can run without visited marks.
    loop_free: bool,
    /// Sum of the lengths of the programs before this one.
    offset: usize,
}

/// A compiled regular expression.
#[derive(Debug, Clone)]
pub struct Regex {
    progs: Vec<Prog>,
    classes: Vec<Class>,
    total: usize,
    /// The same expression with every lookahead removed, for the `regex`
    /// crate over code-unit "proxy" strings (see [`proxy_str`]): it accepts a
    /// superset, and exactly the same set when `exact`.
    fast: Option<regex::Regex>,
    exact: bool,
}

/// The character standing for a UTF-16 code unit in the `regex` crate's
/// subject: itself, or for a surrogate a private-use plane-15 character.
fn unit_char(u: u16) -> char {
    let v = if (0xD800..=0xDFFF).contains(&u) { 0xF0000 + (u as u32 - 0xD800) } else { u as u32 };
    char::from_u32(v).unwrap_or('\u{FFFD}')
}

/// The proxy string of `s`: BMP characters stay, astral ones become their
/// two surrogate proxies, so one regex "character" is one UTF-16 code unit.
pub fn proxy_str(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.bytes().any(|b| b >= 0xF0) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut o = String::with_capacity(s.len() * 2);
    let mut buf = [0u16; 2];
    for c in s.chars() {
        for &u in c.encode_utf16(&mut buf).iter() {
            o.push(unit_char(u));
        }
    }
    std::borrow::Cow::Owned(o)
}

fn push_range(out: &mut String, a: u16, b: u16) {
    // Split around the surrogate block, which maps elsewhere.
    let parts = [(a, b.min(0xD7FF)), (a.max(0xD800), b.min(0xDFFF)), (a.max(0xE000), b)];
    for (x, y) in parts {
        if x <= y {
            out.push_str(&format!(
                "\\x{{{:X}}}-\\x{{{:X}}}",
                unit_char(x) as u32,
                unit_char(y) as u32
            ));
        }
    }
}

/// Rust `regex` syntax for `node` with lookaheads (and `\b`) dropped;
/// clears `exact` when something was dropped.
fn rust_syntax(node: &Node, out: &mut String, exact: &mut bool) {
    match node {
        Node::Empty => {}
        Node::Set(c) => {
            let ranges = if c.negated { complement(&c.ranges) } else { c.ranges.clone() };
            if ranges.is_empty() {
                out.push_str("[^\\x{0}-\\x{10FFFF}]");
                return;
            }
            out.push('[');
            for (a, b) in ranges {
                push_range(out, a, b);
            }
            out.push(']');
        }
        Node::Seq(v) => {
            for n in v {
                rust_syntax(n, out, exact);
            }
        }
        Node::Alt(v) => {
            out.push_str("(?:");
            for (i, n) in v.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                rust_syntax(n, out, exact);
            }
            out.push(')');
        }
        Node::Repeat { node, min, max } => {
            out.push_str("(?:");
            rust_syntax(node, out, exact);
            out.push(')');
            match max {
                None => out.push_str(&format!("{{{min},}}")),
                Some(m) => out.push_str(&format!("{{{min},{m}}}")),
            }
        }
        Node::Look { .. } | Node::WordBoundary(_) | Node::Pred(_) => *exact = false,
        Node::Start => out.push_str("\\A"),
        Node::End => out.push_str("\\z"),
    }
}

struct Compiler {
    progs: Vec<Prog>,
    classes: Vec<Class>,
    total: usize,
}

impl Compiler {
    fn emit(&mut self, out: &mut Vec<Inst>, node: &Node) -> Result<(), RegexError> {
        if out.len() > MAX_INSTS || self.total > MAX_INSTS {
            return Err(RegexError::Unsupported("pattern too large"));
        }
        match node {
            Node::Empty => {}
            Node::Set(c) => {
                let id = match self.classes.iter().position(|x| x == c) {
                    Some(i) => i,
                    None => {
                        self.classes.push(c.clone());
                        self.classes.len() - 1
                    }
                };
                out.push(Inst::Set(id));
            }
            Node::Seq(v) => {
                for n in v {
                    self.emit(out, n)?;
                }
            }
            Node::Alt(v) => {
                let mut jumps = Vec::new();
                for (k, n) in v.iter().enumerate() {
                    if k + 1 < v.len() {
                        let split = out.len();
                        out.push(Inst::Split(split + 1, 0));
                        self.emit(out, n)?;
                        jumps.push(out.len());
                        out.push(Inst::Jmp(0));
                        let next = out.len();
                        out[split] = Inst::Split(split + 1, next);
                    } else {
                        self.emit(out, n)?;
                    }
                }
                let end = out.len();
                for j in jumps {
                    out[j] = Inst::Jmp(end);
                }
            }
            Node::Repeat { node, min, max } => {
                for _ in 0..*min {
                    self.emit(out, node)?;
                }
                match max {
                    None => {
                        let l = out.len();
                        out.push(Inst::Split(l + 1, 0));
                        self.emit(out, node)?;
                        out.push(Inst::Jmp(l));
                        let end = out.len();
                        out[l] = Inst::Split(l + 1, end);
                    }
                    Some(m) => {
                        let mut splits = Vec::new();
                        for _ in *min..*m {
                            splits.push(out.len());
                            out.push(Inst::Split(0, 0));
                            self.emit(out, node)?;
                        }
                        let end = out.len();
                        for s in splits {
                            out[s] = Inst::Split(s + 1, end);
                        }
                    }
                }
            }
            Node::Look { negated, node } => {
                let mut sub = Vec::new();
                self.emit(&mut sub, node)?;
                sub.push(Inst::Match);
                self.total += sub.len();
                self.progs.push(Prog { insts: sub, loop_free: false, offset: 0 });
                out.push(Inst::Look { negated: *negated, prog: self.progs.len() - 1 });
            }
            Node::Start => out.push(Inst::Start),
            Node::End => out.push(Inst::End),
            Node::WordBoundary(b) => out.push(Inst::WordBoundary(*b)),
            Node::Pred(p) => out.push(Inst::Pred(*p)),
        }
        Ok(())
    }
}

impl Regex {
    /// Compiles a JavaScript regular-expression source (no flags).
    pub fn new(src: &[u16]) -> Result<Regex, RegexError> {
        let node = parse(src)?;
        let mut c = Compiler {
            progs: vec![Prog { insts: Vec::new(), loop_free: false, offset: 0 }],
            classes: Vec::new(),
            total: 0,
        };
        let mut main = Vec::new();
        c.emit(&mut main, &node)?;
        main.push(Inst::Match);
        c.total += main.len();
        c.progs[0] = Prog { insts: main, loop_free: false, offset: 0 };
        let mut off = 0;
        for p in c.progs.iter_mut() {
            p.offset = off;
            off += p.insts.len();
            // Small loop-free programs run by plain recursion (depth <= length).
            p.loop_free = p.insts.len() <= 64
                && p.insts.iter().enumerate().all(|(i, inst)| match *inst {
                    Inst::Jmp(t) => t > i,
                    Inst::Split(a, b) => a > i && b > i,
                    _ => true,
                });
        }
        let mut exact = true;
        let mut src = String::new();
        rust_syntax(&node, &mut src, &mut exact);
        let fast =
            regex::RegexBuilder::new(&src).size_limit(4 << 20).dfa_size_limit(4 << 20).build().ok();
        let exact = exact && fast.is_some();
        Ok(Regex { progs: c.progs, classes: c.classes, total: c.total, fast, exact })
    }

    /// `regex.test(s)` for a regex whose source starts with `^` (tried at
    /// position 0 only).
    pub fn is_match_str(&self, s: &str) -> bool {
        if let Some(fast) = &self.fast {
            if !fast.is_match(&proxy_str(s)) {
                return false;
            }
            if self.exact {
                return true;
            }
        }
        let units: Vec<u16> = s.encode_utf16().collect();
        self.is_match_anchored(&units)
    }

    /// `regex.test(input)` for a regex whose source starts with `^` (tried at
    /// position 0 only).
    pub fn is_match_anchored(&self, input: &[u16]) -> bool {
        SCRATCH.with(|cell| {
            let Ok(mut guard) = cell.try_borrow_mut() else {
                // Not reachable (no re-entrance); stay correct anyway.
                let mut s = Scratch { stamps: Vec::new(), stamp: 0, stack: Vec::new() };
                return self.run_with(&mut s, input);
            };
            self.run_with(&mut guard, input)
        })
    }

    fn run_with(&self, s: &mut Scratch, input: &[u16]) -> bool {
        let n1 = input.len() + 1;
        let look_base = self.total * n1;
        let need = look_base + self.progs.len() * n1;
        if s.stamps.len() < need {
            s.stamps.resize(need, 0);
        }
        let Scratch { stamps, stamp, stack } = s;
        stack.clear();
        let mut m = Machine { re: self, input, stamps, stamp, look_base, stack, top: 0 };
        let top = m.fresh();
        m.top = top;
        let run = m.fresh();
        m.run(0, 0, run)
    }
}

struct Scratch {
    stamps: Vec<u32>,
    stamp: u32,
    stack: Vec<(usize, usize)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const { RefCell::new(Scratch { stamps: Vec::new(), stamp: 0, stack: Vec::new() }) };
}

struct Machine<'a> {
    re: &'a Regex,
    input: &'a [u16],
    stamps: &'a mut Vec<u32>,
    stamp: &'a mut u32,
    look_base: usize,
    stack: &'a mut Vec<(usize, usize)>,
    /// Stamp of this match, for the lookahead memo (`top` = false,
    /// `top + 1` = true).
    top: u32,
}

impl Machine<'_> {
    /// Runs a loop-free program by plain recursion (no visited marks needed:
    /// every path moves forward through the program).
    fn run_simple(&mut self, prog: usize, mut pc: usize, mut pos: usize) -> bool {
        let re = self.re;
        let insts = &re.progs[prog].insts;
        let n = self.input.len();
        loop {
            match insts[pc] {
                Inst::Set(c) => {
                    if pos < n && re.classes[c].contains(self.input[pos]) {
                        pc += 1;
                        pos += 1;
                    } else {
                        return false;
                    }
                }
                Inst::Split(a, b) => {
                    if self.run_simple(prog, a, pos) {
                        return true;
                    }
                    pc = b;
                }
                Inst::Jmp(a) => pc = a,
                Inst::Start => {
                    if pos != 0 {
                        return false;
                    }
                    pc += 1;
                }
                Inst::End => {
                    if pos != n {
                        return false;
                    }
                    pc += 1;
                }
                Inst::WordBoundary(want) => {
                    let a = pos > 0 && is_word(self.input[pos - 1]);
                    let b = pos < n && is_word(self.input[pos]);
                    if (a != b) != want {
                        return false;
                    }
                    pc += 1;
                }
                Inst::Look { negated, prog: sub } => {
                    let r = if re.progs[sub].loop_free {
                        self.run_simple(sub, 0, pos)
                    } else {
                        let mark = self.fresh();
                        self.run(sub, pos, mark)
                    };
                    if r == negated {
                        return false;
                    }
                    pc += 1;
                }
                Inst::Pred(p) => {
                    if !p.holds(self.input, pos) {
                        return false;
                    }
                    pc += 1;
                }
                Inst::Match => return true,
            }
        }
    }

    /// A fresh even stamp; on wrap-around every mark is cleared.
    fn fresh(&mut self) -> u32 {
        *self.stamp = self.stamp.wrapping_add(2);
        if *self.stamp < 2 {
            self.stamps.iter_mut().for_each(|x| *x = 0);
            *self.stamp = 2;
        }
        *self.stamp
    }

    /// Runs program `prog` from `start`; `mark` is this run's visited stamp.
    fn run(&mut self, prog: usize, start: usize, mark: u32) -> bool {
        let n = self.input.len();
        let n1 = n + 1;
        let base_len = self.stack.len();
        self.stack.push((0, start));
        let re = self.re;
        let insts = &re.progs[prog].insts;
        let off = re.progs[prog].offset * n1;
        while self.stack.len() > base_len {
            let Some((mut pc, mut pos)) = self.stack.pop() else { break };
            loop {
                let slot = off + pc * n1 + pos;
                if self.stamps[slot] == mark {
                    break;
                }
                self.stamps[slot] = mark;
                match insts[pc] {
                    Inst::Set(c) => {
                        if pos < n && re.classes[c].contains(self.input[pos]) {
                            pc += 1;
                            pos += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Split(a, b) => {
                        self.stack.push((b, pos));
                        pc = a;
                    }
                    Inst::Jmp(a) => pc = a,
                    Inst::Start => {
                        if pos == 0 {
                            pc += 1
                        } else {
                            break;
                        }
                    }
                    Inst::End => {
                        if pos == n {
                            pc += 1
                        } else {
                            break;
                        }
                    }
                    Inst::WordBoundary(want) => {
                        let a = pos > 0 && is_word(self.input[pos - 1]);
                        let b = pos < n && is_word(self.input[pos]);
                        if (a != b) == want {
                            pc += 1
                        } else {
                            break;
                        }
                    }
                    Inst::Look { negated, prog: sub } => {
                        let memo = self.look_base + sub * n1 + pos;
                        let st = self.stamps[memo];
                        let hit = if st == self.top.wrapping_add(1) {
                            true
                        } else if st == self.top {
                            false
                        } else {
                            let r = if re.progs[sub].loop_free {
                                self.run_simple(sub, 0, pos)
                            } else {
                                let sub_mark = self.fresh();
                                self.run(sub, pos, sub_mark)
                            };
                            self.stamps[memo] = if r { self.top.wrapping_add(1) } else { self.top };
                            r
                        };
                        if hit != negated {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Pred(p) => {
                        if p.holds(self.input, pos) {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Match => {
                        self.stack.truncate(base_len);
                        return true;
                    }
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{Regex, RegexError, is_valid};

    fn m(src: &str, s: &str) -> bool {
        let src: Vec<u16> = src.encode_utf16().collect();
        let s: Vec<u16> = s.encode_utf16().collect();
        Regex::new(&src).expect("compile").is_match_anchored(&s)
    }

    #[test]
    fn basics() {
        assert!(m("^(?:a[^/]c)$", "abc"));
        assert!(!m("^(?:a[^/]c)$", "a/c"));
        assert!(m("^(?:(?!\\.)(?=.)[^/]*?\\.ts\\/?)$", "x.ts"));
        assert!(!m("^(?:(?!\\.)(?=.)[^/]*?\\.ts\\/?)$", ".x.ts"));
        assert!(m("^(?:(?:(?!(?:^|\\/)\\.).)*?)$", "a/b/c"));
        assert!(!m("^(?:(?:(?!(?:^|\\/)\\.).)*?)$", "a/.b/c"));
        assert!(m("^(?!^(?:a)$).*$", "b"));
        assert!(!m("^(?!^(?:a)$).*$", "a"));
        assert!(m("^a{2,3}$", "aaa"));
        assert!(!m("^a{2,3}$", "aaaa"));
        assert!(m("^a{$", "a{"));
        assert!(m("^\\x41\\u0042\\cC$", "AB\u{3}"));
        assert!(m("^[\\d-x]+$", "1-x"));
        assert!(m("^(a|)*b$", "aab"));
        assert!(m("^\\bab\\b$", "ab"));
        // Forward and enclosing references match the empty string.
        assert!(m("^\\1(a)$", "a"));
        assert!(m("^(a\\1)$", "a"));
    }

    #[test]
    fn errors() {
        let e = |s: &str| Regex::new(&s.encode_utf16().collect::<Vec<_>>()).err();
        assert!(matches!(e("a**"), Some(RegexError::Invalid(_))));
        assert!(matches!(e("(a"), Some(RegexError::Invalid(_))));
        assert!(matches!(e("a)"), Some(RegexError::Invalid(_))));
        assert!(matches!(e("[b-a]"), Some(RegexError::Invalid(_))));
        assert!(matches!(e("(a)\\1"), Some(RegexError::Unsupported(_))));
        assert!(matches!(e("(?<=a)b"), Some(RegexError::Unsupported(_))));
        assert!(matches!(e("{1}"), Some(RegexError::Invalid(_))));
        assert!(is_valid(&"[1-3]".encode_utf16().collect::<Vec<_>>()));
    }
}
