//! A port of picomatch 4.0.3's `parse.js` (and `makeRe`'s fast paths): glob
//! → JavaScript regular-expression source, UTF-16 code unit for code unit.
//!
//! Only the options this crate exposes are ported (`dot`); every other
//! picomatch option keeps its default.

use super::js;
use super::shape::Shape;

type U = Vec<u16>;

fn u(s: &str) -> U {
    s.encode_utf16().collect()
}

const MAX_LENGTH: usize = 1024 * 64;

/// The result of parsing one glob.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The inner regex source (`state.output`).
    pub output: U,
    /// Leading `!` negation.
    pub negated: bool,
    /// The pattern ends with a `/**` globstar segment (`x/**`), so that
    /// whenever a path matches, every path below it matches too (subject to
    /// the `dot` rule).
    pub tail_globstar: bool,
    /// A fast-path pattern with a direct matcher.
    pub shape: Option<Shape>,
    /// A `.` of the glob reached the output unescaped, so it matches any
    /// character but a line terminator (`/` too). picomatch's `push` merges a
    /// text token into the previous one by its value (`.`), not its output
    /// (`\.`); that only shows when the output is rebuilt from the tokens
    /// (`backtrack`: a run of three or more stars, a POSIX class, a brace
    /// range), as in `****.js.` → `(?!\.)[^/]*?\.js.`.
    pub wild_dot: bool,
}

/// Parse errors (picomatch throws these).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Empty pattern.
    Empty,
    /// Longer than 65536 UTF-16 code units.
    TooLong(usize),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Bos,
    Text,
    Paren,
    Bracket,
    Brace,
    Comma,
    Slash,
    Dot,
    Dots,
    Qmark,
    Plus,
    At,
    Star,
    Globstar,
    Negate,
    MaybeSlash,
}

#[derive(Clone, Debug)]
struct Tok {
    ty: Ty,
    value: U,
    output: Option<U>,
    prev: Option<usize>,
    extglob: bool,
    star: bool,
    posix: bool,
    // braces
    output_index: usize,
    tokens_index: usize,
    comma: bool,
    dots: bool,
}

impl Tok {
    fn new(ty: Ty, value: U, output: Option<U>) -> Tok {
        Tok {
            ty,
            value,
            output,
            prev: None,
            extglob: false,
            star: false,
            posix: false,
            output_index: 0,
            tokens_index: 0,
            comma: false,
            dots: false,
        }
    }
    /// `token.output != null ? token.output : token.value`
    fn out_nullish(&self) -> &U {
        self.output.as_ref().unwrap_or(&self.value)
    }
    /// `token.output || token.value`
    fn out_falsy(&self) -> &U {
        match &self.output {
            Some(o) if !o.is_empty() => o,
            _ => &self.value,
        }
    }
}

#[derive(Clone, Debug)]
struct Extglob {
    ty: Ty,
    close: U,
    inner: U,
    parens: i64,
}

struct Chars {
    dot_literal: U,
    slash_literal: U,
    one_char: U,
    no_dot: U,
    no_dots: U,
    no_dot_slash: U,
    no_dots_slash: U,
    qmark: U,
    qmark_no_dot: U,
    star: U,
    plus_literal: U,
}

fn chars() -> Chars {
    Chars {
        dot_literal: u("\\."),
        slash_literal: u("\\/"),
        one_char: u("(?=.)"),
        no_dot: u("(?!\\.)"),
        no_dots: u("(?!(?:^|\\/)\\.{1,2}(?:\\/|$))"),
        no_dot_slash: u("(?!\\.{0,1}(?:\\/|$))"),
        no_dots_slash: u("(?!\\.{1,2}(?:\\/|$))"),
        qmark: u("[^/]"),
        qmark_no_dot: u("[^.\\/]"),
        star: u("[^/]*?"),
        plus_literal: u("\\+"),
    }
}

fn globstar(dot: bool) -> U {
    let mut g = u("(?:(?:(?!(?:^|\\/)");
    g.extend(if dot { u("\\.{1,2}(?:\\/|$)") } else { u("\\.") });
    g.extend(u(").)*?)"));
    g
}

fn cat(parts: &[&[u16]]) -> U {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

/// `str.slice(0, -n)` (note: `-0` slices to the empty string).
fn slice_neg(s: &mut U, n: usize) {
    if n == 0 {
        s.clear();
    } else {
        let keep = s.len().saturating_sub(n);
        s.truncate(keep);
    }
}

fn contains(s: &[u16], c: char) -> bool {
    s.contains(&(c as u16))
}

fn is_regex_special(c: u16) -> bool {
    // REGEX_SPECIAL_CHARS = /[-*+?.^${}(|)[\]]/
    matches!(
        char::from_u32(c as u32),
        Some('-' | '*' | '+' | '?' | '.' | '^' | '$' | '{' | '}' | '(' | '|' | ')' | '[' | ']')
    )
}

fn escape_regex(s: &[u16]) -> U {
    let mut out = Vec::with_capacity(s.len() * 2);
    for &c in s {
        if is_regex_special(c) {
            out.push(b'\\' as u16);
        }
        out.push(c);
    }
    out
}

/// `utils.escapeLast` (its recursion unrolled into a loop).
fn escape_last(input: &U, ch: u16, last_idx: Option<usize>) -> U {
    if input.is_empty() {
        return input.clone();
    }
    let mut from = last_idx.unwrap_or(input.len() - 1).min(input.len() - 1);
    loop {
        let Some(idx) = (0..=from).rev().find(|&i| input[i] == ch) else { return input.clone() };
        if idx > 0 && input[idx - 1] == b'\\' as u16 {
            // lastIndexOf(char, idx - 1); idx - 1 is the backslash itself.
            from = idx - 1;
            continue;
        }
        let mut out = input[..idx].to_vec();
        out.push(b'\\' as u16);
        out.extend_from_slice(&input[idx..]);
        return out;
    }
}

fn posix_class(name: &[u16]) -> Option<&'static str> {
    let name = String::from_utf16(name).ok()?;
    Some(match name.as_str() {
        "alnum" => "a-zA-Z0-9",
        "alpha" => "a-zA-Z",
        "ascii" => "\\x00-\\x7F",
        "blank" => " \\t",
        "cntrl" => "\\x00-\\x1F\\x7F",
        "digit" => "0-9",
        "graph" => "\\x21-\\x7E",
        "lower" => "a-z",
        "print" => "\\x20-\\x7E ",
        "punct" => "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
        "space" => " \\t\\r\\n\\v\\f",
        "upper" => "A-Z",
        "word" => "A-Za-z0-9_",
        "xdigit" => "A-Fa-f0-9",
        _ => return None,
    })
}

/// picomatch's `expandRange` for `{a..b}`.
fn expand_range(mut args: Vec<U>) -> U {
    args.sort();
    let mut value = u("[");
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            value.push(b'-' as u16);
        }
        value.extend_from_slice(a);
    }
    value.push(b']' as u16);
    if js::is_valid(&value) {
        return value;
    }
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.extend(u(".."));
        }
        out.extend(escape_regex(a));
    }
    out
}

fn is_line_terminator(c: u16) -> bool {
    matches!(c, 0x0A | 0x0D | 0x2028 | 0x2029)
}

fn is_word(c: u16) -> bool {
    c < 128 && ((c as u8).is_ascii_alphanumeric() || c == b'_' as u16)
}

/// `REPLACEMENTS[input] || input` then `removePrefix`.
fn replacements(input: &[u16]) -> U {
    let s = String::from_utf16_lossy(input);
    match s.as_str() {
        "***" => u("*"),
        "**/**" | "**/**/**" => u("**"),
        _ => input.to_vec(),
    }
}

/// `parse.fastpaths`: `None` when no fast path applies.
fn fastpaths(input: &[u16], dot: bool) -> Option<U> {
    let c = chars();
    let input = replacements(input);
    let output: &[u16] = input.strip_prefix(&u("./")[..]).unwrap_or(&input);
    let nodot = if dot { c.no_dots.clone() } else { c.no_dot.clone() };
    let slash_dot = if dot { c.no_dots_slash.clone() } else { c.no_dot.clone() };
    let star = c.star.clone();
    let gs = globstar(dot);
    fn create(s: &[u16], c: &Chars, nodot: &U, slash_dot: &U, star: &U, gs: &U) -> Option<U> {
        let text = String::from_utf16_lossy(s);
        let has_lossy = String::from_utf16(s).is_err();
        Some(match (has_lossy, text.as_str()) {
            (false, "*") => cat(&[nodot, &c.one_char, star]),
            (false, ".*") => cat(&[&c.dot_literal, &c.one_char, star]),
            (false, "*.*") => cat(&[nodot, star, &c.dot_literal, &c.one_char, star]),
            (false, "*/*") => cat(&[nodot, star, &c.slash_literal, &c.one_char, slash_dot, star]),
            (false, "**") => cat(&[nodot, gs]),
            (false, "**/*") => cat(&[
                &u("(?:"),
                nodot,
                gs,
                &c.slash_literal,
                &u(")?"),
                slash_dot,
                &c.one_char,
                star,
            ]),
            (false, "**/*.*") => cat(&[
                &u("(?:"),
                nodot,
                gs,
                &c.slash_literal,
                &u(")?"),
                slash_dot,
                star,
                &c.dot_literal,
                &c.one_char,
                star,
            ]),
            (false, "**/.*") => cat(&[
                &u("(?:"),
                nodot,
                gs,
                &c.slash_literal,
                &u(")?"),
                &c.dot_literal,
                &c.one_char,
                star,
            ]),
            _ => {
                // /^(.*?)\.(\w+)$/
                let last_dot = s.iter().rposition(|&x| x == b'.' as u16)?;
                let (head, ext) = (&s[..last_dot], &s[last_dot + 1..]);
                if ext.is_empty()
                    || !ext.iter().all(|&x| is_word(x))
                    || head.iter().any(|&x| is_line_terminator(x))
                {
                    return None;
                }
                let source = create(head, c, nodot, slash_dot, star, gs)?;
                cat(&[&source, &c.dot_literal, ext])
            }
        })
    }
    let mut source = create(output, &c, &nodot, &slash_dot, &star, &gs)?;
    source.extend(c.slash_literal.iter().copied());
    source.push(b'?' as u16);
    Some(source)
}

/// `picomatch.makeRe`'s parsing step: fast paths first, then `parse`.
pub fn make(input: &[u16], dot: bool) -> Result<Parsed, ParseError> {
    if input.is_empty() {
        return Err(ParseError::Empty);
    }
    if input.len() > MAX_LENGTH {
        return Err(ParseError::TooLong(input.len()));
    }
    if (input[0] == b'.' as u16 || input[0] == b'*' as u16)
        && let Some(output) = fastpaths(input, dot)
        && !output.is_empty()
    {
        let r = replacements(input);
        let r: &[u16] = r.strip_prefix(&u("./")[..]).unwrap_or(&r);
        let shape = String::from_utf16(r).ok().and_then(|s| Shape::recognise(&s));
        return Ok(Parsed {
            output,
            negated: false,
            tail_globstar: r == u("**"),
            shape,
            wild_dot: false,
        });
    }
    parse(input, dot, true)
}

/// picomatch's `parse(input, options)`.
pub fn parse(input: &[u16], dot: bool, fastpaths_on: bool) -> Result<Parsed, ParseError> {
    let input0 = replacements(input);
    if input0.len() > MAX_LENGTH {
        return Err(ParseError::TooLong(input0.len()));
    }
    let c = chars();
    let nodot: U = if dot { Vec::new() } else { c.no_dot.clone() };
    let star = c.star.clone();
    let gs = globstar(dot);

    let mut arena: Vec<Tok> = vec![Tok::new(Ty::Bos, Vec::new(), Some(Vec::new()))];
    let bos = 0usize;
    let mut tokens: Vec<usize> = vec![bos];
    let mut output: U = Vec::new();
    let mut negated = false;
    let mut backtrack = false;
    let mut brackets: i64 = 0;
    let mut braces: i64 = 0;
    let mut parens: i64 = 0;
    let mut quotes = 0;
    let mut start: usize = 0;
    let mut tail_globstar = false;

    // removePrefix
    let input: U = match input0.strip_prefix(&u("./")[..]) {
        Some(rest) => rest.to_vec(),
        None => input0.clone(),
    };
    let len = input.len();

    let mut extglobs: Vec<Extglob> = Vec::new();
    let mut brace_stack: Vec<usize> = Vec::new();
    let mut stack: Vec<&'static str> = Vec::new();
    let mut prev = bos;
    let mut index: isize = -1;
    let last_close = input.iter().rposition(|&x| x == b']' as u16);

    // Fast path for plain text-ish globs.
    let starts_special = input.first().is_some_and(|&x| x == b'*' as u16 || x == b'!' as u16);
    let has_special = input.iter().any(|&x| {
        matches!(char::from_u32(x as u32), Some('/' | '(' | ')' | '[' | ']' | '{' | '}' | '"'))
    });
    if fastpaths_on && !starts_special && !has_special {
        let mut out: U = Vec::new();
        let mut backslashes = false;
        let mut i = 0;
        while i < len {
            // /(\\?)((\W)(\3*))/g
            let mut j = i;
            let esc = input[j] == b'\\' as u16 && j + 1 < len && !is_word(input[j + 1]);
            if esc {
                j += 1;
            }
            if is_word(input[j]) {
                out.push(input[i]);
                i += 1;
                continue;
            }
            let first = input[j];
            let mut k = j + 1;
            while k < len && input[k] == first {
                k += 1;
            }
            let rest_len = k - j - 1;
            let m = &input[i..k];
            let chars_len = k - j;
            if first == b'\\' as u16 {
                backslashes = true;
                out.extend_from_slice(m);
            } else if first == b'?' as u16 {
                if esc {
                    out.push(b'\\' as u16);
                    out.push(first);
                    for _ in 0..rest_len {
                        out.extend_from_slice(&c.qmark);
                    }
                } else if i == 0 {
                    out.extend_from_slice(if dot { &c.qmark } else { &c.qmark_no_dot });
                    for _ in 0..rest_len {
                        out.extend_from_slice(&c.qmark);
                    }
                } else {
                    for _ in 0..chars_len {
                        out.extend_from_slice(&c.qmark);
                    }
                }
            } else if first == b'.' as u16 {
                // note: an escaped dot keeps only DOT_LITERAL repeats
                for _ in 0..chars_len {
                    out.extend_from_slice(&c.dot_literal);
                }
            } else if first == b'*' as u16 {
                if esc {
                    out.push(b'\\' as u16);
                    out.push(first);
                    if rest_len > 0 {
                        out.extend_from_slice(&star);
                    }
                } else {
                    out.extend_from_slice(&star);
                }
            } else if esc {
                out.extend_from_slice(m);
            } else {
                out.push(b'\\' as u16);
                out.extend_from_slice(m);
            }
            i = k;
        }
        if backslashes {
            let mut o2 = Vec::with_capacity(out.len());
            let mut i = 0;
            while i < out.len() {
                if out[i] == b'\\' as u16 {
                    let mut k = i;
                    while k < out.len() && out[k] == b'\\' as u16 {
                        k += 1;
                    }
                    let n = k - i;
                    if n % 2 == 0 {
                        o2.push(b'\\' as u16);
                        o2.push(b'\\' as u16);
                    } else {
                        o2.push(b'\\' as u16);
                    }
                    i = k;
                } else {
                    o2.push(out[i]);
                    i += 1;
                }
            }
            out = o2;
        }
        // utils.wrapOutput (state.negated is false here)
        let wrapped = cat(&[&u("^(?:"), &out, &u(")$")]);
        return Ok(Parsed {
            output: wrapped,
            negated: false,
            tail_globstar: false,
            shape: None,
            wild_dot: false,
        });
    }

    macro_rules! peek {
        ($n:expr) => {{
            let i = index + $n as isize;
            if i >= 0 && (i as usize) < len { Some(input[i as usize]) } else { None }
        }};
    }
    macro_rules! remaining {
        () => {{
            let i = (index + 1).max(0) as usize;
            if i < len { &input[i..] } else { &input[len..] }
        }};
    }
    let is = |x: Option<u16>, ch: char| x == Some(ch as u16);

    macro_rules! st {
        () => {
            St {
                arena: &mut arena,
                tokens: &mut tokens,
                output: &mut output,
                prev: &mut prev,
                extglobs: &mut extglobs,
                braces,
                star: &star,
            }
        };
    }
    macro_rules! advance {
        () => {{
            index += 1;
            if (index as usize) < len { vec![input[index as usize]] } else { Vec::new() }
        }};
    }
    let eos = |index: isize| index == len as isize - 1;

    while !eos(index) {
        let mut value: U = advance!();
        let v0 = value.first().copied().unwrap_or(0);
        let vc = char::from_u32(v0 as u32).unwrap_or('\u{FFFD}');
        if v0 == 0 {
            continue;
        }
        // Escaped characters
        if vc == '\\' {
            let next = peek!(1);
            if is(next, '/') {
                continue;
            }
            if is(next, '.') || is(next, ';') {
                continue;
            }
            if next.is_none() {
                value.push(b'\\' as u16);
                push(&mut st!(), Tok::new(Ty::Text, value, None));
                continue;
            }
            let rem = remaining!();
            let run = rem.iter().take_while(|&&x| x == b'\\' as u16).count();
            if run > 2 {
                index += run as isize;
                if run % 2 != 0 {
                    value.push(b'\\' as u16);
                }
            }
            let adv = advance!();
            value.extend(adv);
            if brackets == 0 {
                push(&mut st!(), Tok::new(Ty::Text, value, None));
                continue;
            }
        }
        // Inside a character class
        let pv_open = {
            let v = &arena[prev].value;
            v[..] == [b'[' as u16] || v[..] == [b'[' as u16, b'^' as u16]
        };
        if brackets > 0 && (value != u("]") || pv_open) {
            if value == u(":") {
                let pv = &arena[prev].value;
                let inner = &pv[pv.len().min(1)..];
                if contains(inner, '[') {
                    let has_colon = contains(inner, ':');
                    let idx = pv.iter().rposition(|&x| x == b'[' as u16).unwrap_or(0);
                    let rest = pv[(idx + 2).min(pv.len())..].to_vec();
                    arena[prev].posix = true;
                    if has_colon && let Some(px) = posix_class(&rest) {
                        arena[prev].value.truncate(idx);
                        arena[prev].value.extend(u(px));
                        backtrack = true;
                        let _ = advance!();
                        let bos_out_empty = arena[bos].output.as_ref().is_none_or(|o| o.is_empty());
                        if bos_out_empty && tokens.iter().position(|&t| t == prev) == Some(1) {
                            arena[bos].output = Some(c.one_char.clone());
                        }
                        continue;
                    }
                }
            }
            if (value == u("[") && !is(peek!(1), ':')) || (value == u("-") && is(peek!(1), ']')) {
                value.insert(0, b'\\' as u16);
            }
            if value == u("]") && pv_open {
                value.insert(0, b'\\' as u16);
            }
            arena[prev].value.extend_from_slice(&value);
            output.extend_from_slice(&value);
            continue;
        }
        // Inside double quotes
        if quotes == 1 && value != u("\"") {
            let v = escape_regex(&value);
            arena[prev].value.extend_from_slice(&v);
            output.extend_from_slice(&v);
            continue;
        }
        if value == u("\"") {
            quotes = if quotes == 1 { 0 } else { 1 };
            continue;
        }
        if value == u("(") {
            parens += 1;
            stack.push("parens");
            push(&mut st!(), Tok::new(Ty::Paren, value, None));
            continue;
        }
        if value == u(")") {
            let top = extglobs.last().cloned();
            if let Some(eg) = top
                && parens == eg.parens + 1
            {
                extglobs.pop();
                // extglobClose
                let mut close = eg.close.clone();
                if eg.ty == Ty::Negate {
                    let mut extglob_star = star.clone();
                    if eg.inner.len() > 1 && contains(&eg.inner, '/') {
                        extglob_star = gs.clone();
                    }
                    let rem = remaining!().to_vec();
                    let only_parens = !rem.is_empty() && rem.iter().all(|&x| x == b')' as u16);
                    if extglob_star != star || eos(index) || only_parens {
                        close = cat(&[&u(")$))"), &extglob_star]);
                    }
                    // /^\.[^\\/.]+$/
                    let dot_ext = rem.len() >= 2
                        && rem[0] == b'.' as u16
                        && rem[1..].iter().all(|&x| {
                            x != b'\\' as u16
                                && x != b'/' as u16
                                && x != b'.' as u16
                                && !is_line_terminator(x)
                        });
                    if contains(&eg.inner, '*') && !rem.is_empty() && dot_ext {
                        let expression = parse(&rem, dot, false)?.output;
                        close = cat(&[&u(")"), &expression, &u(")"), &extglob_star, &u(")")]);
                    }
                }
                push(&mut st!(), {
                    let mut t = Tok::new(Ty::Paren, value, Some(close));
                    t.extglob = true;
                    t
                });
                parens -= 1;
                stack.pop();
                continue;
            }
            let out = if parens != 0 { u(")") } else { u("\\)") };
            push(&mut st!(), Tok::new(Ty::Paren, value, Some(out)));
            parens -= 1;
            stack.pop();
            continue;
        }
        if value == u("[") {
            if last_close.is_none_or(|lc| (lc as isize) <= index) {
                value.insert(0, b'\\' as u16);
            } else {
                brackets += 1;
                stack.push("brackets");
            }
            push(&mut st!(), Tok::new(Ty::Bracket, value, None));
            continue;
        }
        if value == u("]") {
            if arena[prev].ty == Ty::Bracket && arena[prev].value.len() == 1 {
                push(&mut st!(), Tok::new(Ty::Text, value, Some(u("\\]"))));
                continue;
            }
            if brackets == 0 {
                push(&mut st!(), Tok::new(Ty::Text, value, Some(u("\\]"))));
                continue;
            }
            brackets -= 1;
            stack.pop();
            let prev_value = arena[prev].value[arena[prev].value.len().min(1)..].to_vec();
            if !arena[prev].posix
                && prev_value.first() == Some(&(b'^' as u16))
                && !contains(&prev_value, '/')
            {
                value.insert(0, b'/' as u16);
            }
            arena[prev].value.extend_from_slice(&value);
            output.extend_from_slice(&value);
            if prev_value.iter().any(|&x| is_regex_special(x)) {
                continue;
            }
            let escaped = escape_regex(&arena[prev].value);
            let n = arena[prev].value.len();
            slice_neg(&mut output, n);
            let nv = cat(&[&u("(?:"), &escaped, &u("|"), &arena[prev].value.clone(), &u(")")]);
            arena[prev].value = nv.clone();
            output.extend_from_slice(&nv);
            continue;
        }
        if value == u("{") {
            braces += 1;
            stack.push("braces");
            let mut open = Tok::new(Ty::Brace, value, Some(u("(")));
            open.output_index = output.len();
            open.tokens_index = tokens.len();
            push(&mut st!(), open);
            let id = *tokens.last().unwrap_or(&0);
            brace_stack.push(id);
            continue;
        }
        if value == u("}") {
            let Some(&brace) = brace_stack.last() else {
                push(&mut st!(), Tok::new(Ty::Text, value.clone(), Some(value)));
                continue;
            };
            let mut out = u(")");
            if arena[brace].dots {
                let arr = tokens.clone();
                let mut range: Vec<U> = Vec::new();
                for i in (0..arr.len()).rev() {
                    tokens.pop();
                    if arena[arr[i]].ty == Ty::Brace {
                        break;
                    }
                    if arena[arr[i]].ty != Ty::Dots {
                        range.insert(0, arena[arr[i]].value.clone());
                    }
                }
                out = expand_range(range);
                backtrack = true;
            }
            if !arena[brace].comma && !arena[brace].dots {
                let mut o = output[..arena[brace].output_index.min(output.len())].to_vec();
                arena[brace].value = u("\\{");
                arena[brace].output = Some(u("\\{"));
                value = u("\\}");
                out = u("\\}");
                let ti = arena[brace].tokens_index;
                for &t in tokens.iter().skip(ti) {
                    o.extend_from_slice(arena[t].out_falsy());
                }
                output = o;
            }
            push(&mut st!(), Tok::new(Ty::Brace, value, Some(out)));
            braces -= 1;
            stack.pop();
            brace_stack.pop();
            continue;
        }
        if value == u("|") {
            push(&mut st!(), Tok::new(Ty::Text, value, None));
            continue;
        }
        if value == u(",") {
            let mut out = value.clone();
            if let Some(&brace) = brace_stack.last()
                && stack.last() == Some(&"braces")
            {
                arena[brace].comma = true;
                out = u("|");
            }
            push(&mut st!(), Tok::new(Ty::Comma, value, Some(out)));
            continue;
        }
        if value == u("/") {
            if arena[prev].ty == Ty::Dot && index == start as isize + 1 {
                start = index as usize + 1;
                output.clear();
                tokens.pop();
                prev = bos;
                continue;
            }
            push(&mut st!(), Tok::new(Ty::Slash, value, Some(c.slash_literal.clone())));
            continue;
        }
        if value == u(".") {
            if braces > 0 && arena[prev].ty == Ty::Dot {
                if arena[prev].value == u(".") {
                    arena[prev].output = Some(c.dot_literal.clone());
                }
                if let Some(&brace) = brace_stack.last() {
                    arena[brace].dots = true;
                }
                arena[prev].ty = Ty::Dots;
                let mut o = arena[prev].output.clone().unwrap_or_default();
                o.extend_from_slice(&value);
                arena[prev].output = Some(o);
                arena[prev].value.extend_from_slice(&value);
                continue;
            }
            if braces + parens == 0 && arena[prev].ty != Ty::Bos && arena[prev].ty != Ty::Slash {
                push(&mut st!(), Tok::new(Ty::Text, value, Some(c.dot_literal.clone())));
                continue;
            }
            push(&mut st!(), Tok::new(Ty::Dot, value, Some(c.dot_literal.clone())));
            continue;
        }
        if value == u("?") {
            let is_group = arena[prev].value == u("(");
            if !is_group && is(peek!(1), '(') && !is(peek!(2), '?') {
                extglob_open(
                    &mut st!(),
                    &mut parens,
                    &mut stack,
                    Ty::Qmark,
                    value,
                    &mut index,
                    &input,
                    &c,
                );
                continue;
            }
            if arena[prev].ty == Ty::Paren {
                let next = peek!(1);
                let mut out = value.clone();
                let next_special = next.is_some_and(|x| {
                    matches!(char::from_u32(x as u32), Some('!' | '=' | '<' | ':'))
                });
                let lookbehind_ok = {
                    // /<([!=]|\w+>)/.test(remaining())
                    let r = remaining!();
                    (0..r.len()).any(|i| {
                        r[i] == b'<' as u16
                            && (r.get(i + 1).is_some_and(|&x| x == b'!' as u16 || x == b'=' as u16)
                                || {
                                    let w = r[i + 1..].iter().take_while(|&&x| is_word(x)).count();
                                    w > 0 && r.get(i + 1 + w) == Some(&(b'>' as u16))
                                })
                    })
                };
                if (arena[prev].value == u("(") && !next_special)
                    || (is(next, '<') && !lookbehind_ok)
                {
                    out = u("\\?");
                }
                push(&mut st!(), Tok::new(Ty::Text, value, Some(out)));
                continue;
            }
            if !dot && (arena[prev].ty == Ty::Slash || arena[prev].ty == Ty::Bos) {
                push(&mut st!(), Tok::new(Ty::Qmark, value, Some(c.qmark_no_dot.clone())));
                continue;
            }
            push(&mut st!(), Tok::new(Ty::Qmark, value, Some(c.qmark.clone())));
            continue;
        }
        if value == u("!") {
            if is(peek!(1), '(') {
                let p3 = peek!(3);
                let p3_special = p3.is_some_and(|x| {
                    matches!(char::from_u32(x as u32), Some('!' | '=' | '<' | ':'))
                });
                if !is(peek!(2), '?') || !p3_special {
                    extglob_open(
                        &mut st!(),
                        &mut parens,
                        &mut stack,
                        Ty::Negate,
                        value,
                        &mut index,
                        &input,
                        &c,
                    );
                    continue;
                }
            }
            if index == 0 {
                // negate()
                let mut count = 1;
                while is(peek!(1), '!') && (!is(peek!(2), '(') || is(peek!(3), '?')) {
                    let _ = advance!();
                    start += 1;
                    count += 1;
                }
                if count % 2 != 0 {
                    negated = true;
                    start += 1;
                }
                continue;
            }
        }
        if value == u("+") {
            if is(peek!(1), '(') && !is(peek!(2), '?') {
                extglob_open(
                    &mut st!(),
                    &mut parens,
                    &mut stack,
                    Ty::Plus,
                    value,
                    &mut index,
                    &input,
                    &c,
                );
                continue;
            }
            if arena[prev].value == u("(") {
                push(&mut st!(), Tok::new(Ty::Plus, value, Some(c.plus_literal.clone())));
                continue;
            }
            if matches!(arena[prev].ty, Ty::Bracket | Ty::Paren | Ty::Brace) || parens > 0 {
                push(&mut st!(), Tok::new(Ty::Plus, value, None));
                continue;
            }
            push(&mut st!(), Tok::new(Ty::Plus, c.plus_literal.clone(), None));
            continue;
        }
        if value == u("@") {
            if is(peek!(1), '(') && !is(peek!(2), '?') {
                let mut t = Tok::new(Ty::At, value, Some(Vec::new()));
                t.extglob = true;
                push(&mut st!(), t);
                continue;
            }
            push(&mut st!(), Tok::new(Ty::Text, value, None));
            continue;
        }
        if value != u("*") {
            if value == u("$") || value == u("^") {
                value.insert(0, b'\\' as u16);
            }
            // /^[^@![\].,$*+?^{}()|\\/]+/
            let rem = remaining!();
            let n = rem
                .iter()
                .take_while(|&&x| {
                    !matches!(
                        char::from_u32(x as u32),
                        Some(
                            '@' | '!'
                                | '['
                                | ']'
                                | '.'
                                | ','
                                | '$'
                                | '*'
                                | '+'
                                | '?'
                                | '^'
                                | '{'
                                | '}'
                                | '('
                                | ')'
                                | '|'
                                | '\\'
                                | '/'
                        )
                    )
                })
                .count();
            if n > 0 {
                value.extend_from_slice(&rem[..n]);
                index += n as isize;
            }
            push(&mut st!(), Tok::new(Ty::Text, value, None));
            continue;
        }
        // Stars
        if arena[prev].ty == Ty::Globstar || arena[prev].star {
            arena[prev].ty = Ty::Star;
            arena[prev].star = true;
            arena[prev].value.extend_from_slice(&value);
            arena[prev].output = Some(star.clone());
            backtrack = true;
            continue;
        }
        let rem = remaining!();
        if rem.len() >= 2 && rem[0] == b'(' as u16 && rem[1] != b'?' as u16 {
            extglob_open(
                &mut st!(),
                &mut parens,
                &mut stack,
                Ty::Star,
                value,
                &mut index,
                &input,
                &c,
            );
            continue;
        }
        if arena[prev].ty == Ty::Star {
            let prior = arena[prev].prev.unwrap_or(bos);
            let before = arena[prior].prev;
            let is_start = arena[prior].ty == Ty::Slash || arena[prior].ty == Ty::Bos;
            let after_star =
                before.is_some_and(|b| arena[b].ty == Ty::Star || arena[b].ty == Ty::Globstar);
            let is_brace =
                braces > 0 && (arena[prior].ty == Ty::Comma || arena[prior].ty == Ty::Brace);
            let is_extglob = !extglobs.is_empty() && arena[prior].ty == Ty::Paren;
            if !is_start && arena[prior].ty != Ty::Paren && !is_brace && !is_extglob {
                push(&mut st!(), Tok::new(Ty::Star, value, Some(Vec::new())));
                continue;
            }
            // `rest` is the remaining input, as a start offset into `input`.
            let mut rest_at = (index + 1) as usize;
            while input.len() >= rest_at + 3 && input[rest_at..rest_at + 3] == u("/**")[..] {
                let after = input.get((index + 4) as usize).copied();
                if after.is_some_and(|a| a != b'/' as u16) {
                    break;
                }
                rest_at += 3;
                index += 3;
            }
            let rest = &input[rest_at.min(input.len())..];
            let prior_prev_is_bos = arena[prior].prev.is_some_and(|pp| arena[pp].ty == Ty::Bos);
            if arena[prior].ty == Ty::Bos && eos(index) {
                arena[prev].ty = Ty::Globstar;
                arena[prev].value.extend_from_slice(&value);
                arena[prev].output = Some(gs.clone());
                output = gs.clone();
                tail_globstar = true;
                continue;
            }
            if arena[prior].ty == Ty::Slash && !prior_prev_is_bos && !after_star && eos(index) {
                let n = arena[prior].out_nullish().len() + arena[prev].out_nullish().len();
                slice_neg(&mut output, n);
                let po = cat(&[&u("(?:"), arena[prior].out_nullish()]);
                arena[prior].output = Some(po.clone());
                let pv = cat(&[&gs, &u("|$)")]);
                arena[prev].ty = Ty::Globstar;
                arena[prev].output = Some(pv.clone());
                arena[prev].value.extend_from_slice(&value);
                output.extend_from_slice(&po);
                output.extend_from_slice(&pv);
                tail_globstar = true;
                continue;
            }
            if arena[prior].ty == Ty::Slash
                && !prior_prev_is_bos
                && rest.first() == Some(&(b'/' as u16))
            {
                let end = if rest.len() > 1 { u("|$") } else { Vec::new() };
                let n = arena[prior].out_nullish().len() + arena[prev].out_nullish().len();
                slice_neg(&mut output, n);
                let po = cat(&[&u("(?:"), arena[prior].out_nullish()]);
                arena[prior].output = Some(po.clone());
                let pv = cat(&[&gs, &c.slash_literal, &u("|"), &c.slash_literal, &end, &u(")")]);
                arena[prev].ty = Ty::Globstar;
                arena[prev].output = Some(pv.clone());
                arena[prev].value.extend_from_slice(&value);
                output.extend_from_slice(&po);
                output.extend_from_slice(&pv);
                let _ = advance!();
                push(&mut st!(), Tok::new(Ty::Slash, u("/"), Some(Vec::new())));
                continue;
            }
            if arena[prior].ty == Ty::Bos && rest.first() == Some(&(b'/' as u16)) {
                arena[prev].ty = Ty::Globstar;
                arena[prev].value.extend_from_slice(&value);
                let pv =
                    cat(&[&u("(?:^|"), &c.slash_literal, &u("|"), &gs, &c.slash_literal, &u(")")]);
                arena[prev].output = Some(pv.clone());
                output = pv;
                let _ = advance!();
                push(&mut st!(), Tok::new(Ty::Slash, u("/"), Some(Vec::new())));
                continue;
            }
            let n = arena[prev].out_nullish().len();
            slice_neg(&mut output, n);
            arena[prev].ty = Ty::Globstar;
            arena[prev].output = Some(gs.clone());
            arena[prev].value.extend_from_slice(&value);
            output.extend_from_slice(&gs);
            continue;
        }
        let token = Tok::new(Ty::Star, value, Some(star.clone()));
        if index == start as isize || arena[prev].ty == Ty::Slash || arena[prev].ty == Ty::Dot {
            let add = if arena[prev].ty == Ty::Dot {
                c.no_dot_slash.clone()
            } else if dot {
                c.no_dots_slash.clone()
            } else {
                nodot.clone()
            };
            output.extend_from_slice(&add);
            let mut po = arena[prev].output.clone().unwrap_or_default();
            po.extend_from_slice(&add);
            if !is(peek!(1), '*') {
                output.extend_from_slice(&c.one_char);
                po.extend_from_slice(&c.one_char);
            }
            arena[prev].output = Some(po);
        }
        push(&mut st!(), token);
    }

    while brackets > 0 {
        output = escape_last(&output, b'[' as u16, None);
        brackets -= 1;
    }
    while parens > 0 {
        output = escape_last(&output, b'(' as u16, None);
        parens -= 1;
    }
    while braces > 0 {
        output = escape_last(&output, b'{' as u16, None);
        braces -= 1;
    }
    if matches!(arena[prev].ty, Ty::Star | Ty::Bracket) {
        push(&mut st!(), Tok::new(Ty::MaybeSlash, Vec::new(), Some(u("\\/?"))));
        tail_globstar = false;
    }
    let mut wild_dot = false;
    if backtrack {
        output.clear();
        for &t in &tokens {
            output.extend_from_slice(arena[t].out_nullish());
            wild_dot |= arena[t].ty == Ty::Text && has_bare_dot(arena[t].out_nullish());
        }
    }
    // A tail globstar is only trusted when it is the very last token.
    if tail_globstar && arena[prev].ty != Ty::Globstar {
        tail_globstar = false;
    }
    Ok(Parsed { output, negated, tail_globstar, shape: None, wild_dot })
}

/// Whether regex source `s` has a `.` that is not escaped.
fn has_bare_dot(s: &[u16]) -> bool {
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            0x5C => i += 1, // `\`
            0x2E => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// The parser state `push` touches (picomatch's closure over `state`).
struct St<'a> {
    arena: &'a mut Vec<Tok>,
    tokens: &'a mut Vec<usize>,
    output: &'a mut U,
    prev: &'a mut usize,
    extglobs: &'a mut Vec<Extglob>,
    braces: i64,
    star: &'a U,
}
fn push(st: &mut St<'_>, mut tok: Tok) {
    let p = *st.prev;
    if st.arena[p].ty == Ty::Globstar {
        let is_brace = st.braces > 0 && (tok.ty == Ty::Comma || tok.ty == Ty::Brace);
        let is_extglob = tok.extglob || (!st.extglobs.is_empty() && tok.ty == Ty::Paren);
        if tok.ty != Ty::Slash && tok.ty != Ty::Paren && !is_brace && !is_extglob {
            let n = st.arena[p].out_nullish().len();
            slice_neg(st.output, n);
            st.arena[p].ty = Ty::Star;
            st.arena[p].value = u("*");
            st.arena[p].output = Some(st.star.clone());
            st.output.extend_from_slice(st.star);
        }
    }
    if let Some(last) = st.extglobs.last_mut()
        && tok.ty != Ty::Paren
    {
        last.inner.extend_from_slice(&tok.value);
    }
    let has_out = tok.output.as_ref().is_some_and(|o| !o.is_empty());
    if !tok.value.is_empty() || has_out {
        st.output.extend_from_slice(tok.out_nullish());
    }
    if st.arena[p].ty == Ty::Text && tok.ty == Ty::Text {
        let mut o = st.arena[p].out_falsy().clone();
        o.extend_from_slice(&tok.value);
        st.arena[p].output = Some(o);
        let v = tok.value.clone();
        st.arena[p].value.extend_from_slice(&v);
        return;
    }
    tok.prev = Some(p);
    st.arena.push(tok);
    let id = st.arena.len() - 1;
    st.tokens.push(id);
    *st.prev = id;
}

#[allow(clippy::too_many_arguments)]
fn extglob_open(
    st: &mut St<'_>,
    parens: &mut i64,
    stack: &mut Vec<&'static str>,
    ty: Ty,
    value: U,
    index: &mut isize,
    input: &[u16],
    c: &Chars,
) {
    let (open, close) = match ty {
        Ty::Negate => (u("(?:(?!(?:"), cat(&[&u("))"), &c.star, &u(")")])),
        Ty::Qmark => (u("(?:"), u(")?")),
        Ty::Plus => (u("(?:"), u(")+")),
        Ty::Star => (u("(?:"), u(")*")),
        _ => (u("(?:"), u(")")),
    };
    let eg = Extglob { ty, close, inner: Vec::new(), parens: *parens };
    *parens += 1;
    stack.push("parens");
    let out = if st.output.is_empty() { c.one_char.clone() } else { Vec::new() };
    push(st, Tok::new(ty, value, Some(out)));
    *index += 1;
    let adv = input.get(*index as usize).map(|&x| vec![x]).unwrap_or_default();
    let mut t = Tok::new(Ty::Paren, adv, Some(open));
    t.extglob = true;
    push(st, t);
    st.extglobs.push(eg);
}
