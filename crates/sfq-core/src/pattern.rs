//! What a profile searches for: a [`PatternSpec`] (literal or regex; case
//! sensitive, insensitive or smart; lines or whole text; optional word or
//! identifier boundaries) compiled in one place into the one [`Matcher`].
//! Every API's query goes through here, so literal escaping, smart case and
//! Python's named-group spelling are decided once.

use crate::error::{Error, Result};
use crate::matcher::Matcher;
use crate::search::Mode;

/// How the query text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// A fixed string: every character means itself.
    Literal,
    /// A JavaScript regex source (`new RegExp(source, flags)`).
    Regex,
    /// A regex that may use Python's `(?P<name>…)` and `(?P=name)`, read as
    /// JavaScript's `(?<name>…)` and `\k<name>` (seed 004's patterns).
    PythonRegex,
}

/// Case sensitivity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// Exact case.
    Sensitive,
    /// Case-insensitive (the `i` flag).
    Insensitive,
    /// Insensitive unless the query holds an upper-case letter (as
    /// ripgrep's `--smart-case`; escapes such as `\W` do not count).
    Smart,
}

/// Boundaries required around each match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    /// None.
    None,
    /// No word character on either side, as `rg -w` (its half boundaries):
    /// Unicode word characters (letters, marks, decimal digits, connector
    /// punctuation, joiners), so the query's own ends may be anything.
    Word,
    /// No ASCII identifier character (`[A-Za-z0-9_]`) on either side.
    Identifier,
}

/// A Unicode word character (UTS #18's `\w`, as ripgrep's).
macro_rules! word_class {
    () => {
        r"[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]"
    };
}

/// A query as a profile states it.
#[derive(Debug, Clone)]
pub struct PatternSpec {
    /// The query as the JS string it was (UTF-16 code units).
    pub source: Vec<u16>,
    /// Literal or regex.
    pub syntax: Syntax,
    /// Case sensitivity.
    pub case: Case,
    /// Extra regex flags (only for [`Syntax::Regex`] profiles that take them).
    pub flags: String,
    /// Line by line or whole text.
    pub mode: Mode,
    /// Boundaries around matches.
    pub boundary: Boundary,
}

impl PatternSpec {
    /// A spec with no flags, line mode and no boundaries.
    pub fn new(source: Vec<u16>, syntax: Syntax, case: Case) -> PatternSpec {
        PatternSpec {
            source,
            syntax,
            case,
            flags: String::new(),
            mode: Mode::Lines,
            boundary: Boundary::None,
        }
    }

    /// Whether matching ignores case, smart case decided here.
    pub fn ignores_case(&self) -> bool {
        match self.case {
            Case::Sensitive => false,
            Case::Insensitive => true,
            Case::Smart => !has_upper(&self.source, self.syntax == Syntax::Literal),
        }
    }

    /// The JavaScript regex source and flags this spec means.
    pub fn to_regex(&self) -> (Vec<u16>, String) {
        let body: Vec<u16> = match self.syntax {
            Syntax::Literal => escape_literal(&self.source),
            Syntax::Regex => self.source.clone(),
            Syntax::PythonRegex => python_to_js(&self.source),
        };
        let body = match self.boundary {
            Boundary::None => body,
            Boundary::Word => wrap(
                concat!("(?<!", word_class!(), ")(?:"),
                &body,
                concat!(")(?!", word_class!(), ")"),
            ),
            Boundary::Identifier => wrap("(?<![A-Za-z0-9_])(?:", &body, ")(?![A-Za-z0-9_])"),
        };
        let mut flags = self.flags.clone();
        if self.boundary == Boundary::Word && !flags.contains('u') && !flags.contains('v') {
            // The Unicode classes need the `u` flag.
            flags.push('u');
        }
        if self.ignores_case() && !flags.contains('i') {
            flags.push('i');
        }
        (body, flags)
    }

    /// A JavaScript regex with its flags, as given (`new RegExp(source,
    /// flags)`: seed 000's `regex` and `flags`), in `mode`.
    pub fn js(source: Vec<u16>, flags: String, mode: Mode) -> PatternSpec {
        PatternSpec { flags, mode, ..PatternSpec::new(source, Syntax::Regex, Case::Sensitive) }
    }

    /// Compiles the spec; an empty query is refused, naming the option
    /// `key` that held it.
    pub fn compile(&self, api: &str, key: &str) -> Result<Matcher> {
        if self.source.is_empty() {
            return Err(Error::invalid_option(format!(
                "{api}: option '{key}' is empty; give the text or pattern to search for"
            )));
        }
        self.matcher()
    }

    /// Compiles the spec, an empty one too (it matches everywhere, as
    /// `new RegExp('')` does).
    pub fn matcher(&self) -> Result<Matcher> {
        let (source, flags) = self.to_regex();
        Matcher::new(&source, &flags, self.mode)
    }
}

fn wrap(before: &str, body: &[u16], after: &str) -> Vec<u16> {
    let mut out: Vec<u16> = before.encode_utf16().collect();
    out.extend_from_slice(body);
    out.extend(after.encode_utf16());
    out
}

/// `source` with every regex syntax character escaped, so that it matches
/// itself (without the `u` flag, where `\` before any of these is an
/// identity escape).
pub fn escape_literal(source: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(source.len() + 8);
    for &u in source {
        if u < 0x80 && b"\\^$.*+?()[]{}|/".contains(&(u as u8)) {
            out.push(u16::from(b'\\'));
        }
        out.push(u);
    }
    out
}

/// Whether the query holds an upper-case letter; in a regex, the letter
/// after a backslash (`\W`, `\S`, `\B`, `\p{Lu}`…) does not count.
fn has_upper(source: &[u16], literal: bool) -> bool {
    let text = String::from_utf16_lossy(source);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if !literal && c == '\\' {
            if let Some(next) = chars.next()
                && (next == 'p' || next == 'P')
            {
                // Skip a property escape's `{…}`.
                let rest: String = chars.clone().collect();
                if rest.starts_with('{')
                    && let Some(end) = rest.find('}')
                {
                    for _ in 0..=rest[..end].chars().count() {
                        chars.next();
                    }
                }
            }
            continue;
        }
        if c.is_uppercase() {
            return true;
        }
    }
    false
}

/// Python's `(?P<name>` and `(?P=name)` as JavaScript's `(?<name>` and
/// `\k<name>`; everything else unchanged (escapes are copied as they are).
fn python_to_js(source: &[u16]) -> Vec<u16> {
    let text = String::from_utf16_lossy(source);
    if !text.contains("(?P") {
        return source.to_vec();
    }
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            let len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + 1 + len]);
            i += 1 + len;
            continue;
        }
        if text[i..].starts_with("(?P<") {
            out.push_str("(?<");
            i += 4;
            continue;
        }
        if text[i..].starts_with("(?P=")
            && let Some(end) = text[i..].find(')')
        {
            out.push_str("\\k<");
            out.push_str(&text[i + 4..i + end]);
            out.push('>');
            i += end + 1;
            continue;
        }
        let len = text[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&text[i..i + len]);
        i += len;
    }
    out.encode_utf16().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn smart_case_is_decided_once() {
        let spec = |s: &str, syntax| PatternSpec::new(u(s), syntax, Case::Smart);
        assert!(spec("foo", Syntax::Literal).ignores_case());
        assert!(!spec("Foo", Syntax::Literal).ignores_case());
        assert!(spec(r"\W+foo", Syntax::Regex).ignores_case());
        assert!(spec(r"\p{Lu}x", Syntax::Regex).ignores_case());
        assert!(!spec(r"\W+Foo", Syntax::Regex).ignores_case());
        assert!(!spec(r"\W", Syntax::Literal).ignores_case());
        assert!(!PatternSpec::new(u("foo"), Syntax::Literal, Case::Sensitive).ignores_case());
    }

    #[test]
    fn literals_are_escaped() {
        let (src, flags) =
            PatternSpec::new(u("a.b(c)|[d]"), Syntax::Literal, Case::Smart).to_regex();
        assert_eq!(String::from_utf16(&src).unwrap(), r"a\.b\(c\)\|\[d\]");
        assert_eq!(flags, "i");
    }

    #[test]
    fn python_groups_become_javascript_groups() {
        let js = python_to_js(&u(r"(?P<word>\w+)\s(?P=word)\(?P<x>"));
        assert_eq!(String::from_utf16(&js).unwrap(), r"(?<word>\w+)\s\k<word>\(?P<x>");
    }

    #[test]
    fn empty_queries_are_refused() {
        let e =
            PatternSpec::new(vec![], Syntax::Literal, Case::Smart).compile("searchCode", "query");
        assert_eq!(
            e.unwrap_err().message(),
            "searchCode: option 'query' is empty; give the text or pattern to search for"
        );
    }
}
