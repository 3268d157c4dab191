//! JSON (with the JSONC and JSON5 extensions a `tsconfig.json` or
//! `.json5` file uses: `//` and `/* */` comments, trailing commas,
//! single-quoted strings, unquoted keys).
//!
//! When the top-level value is an object, each of its keys is a `property`
//! item whose range covers the key and its value; when that value is an
//! object, its keys are the item's children (one level). A top-level array
//! or scalar has no items. A small tokenizer skips strings (with their
//! escapes, so braces and quotes inside them do not count), comments and
//! nested values without recursion, so any nesting depth is safe.
//!
//! Names are the keys decoded (`\"`, `\n`, `\u00e9`…). Signatures: the key
//! and its value when the value fits on one line (`"name": "x"`), else the
//! key and its colon (`"scripts":`). Malformed text never fails: a key
//! without a colon is skipped, and an unclosed object ends at the end of
//! the text.

use super::{clean_name, item};
use crate::item::{ItemKind, OutlineItem};
use crate::lines::LineIndex;
use crate::signature::one_line;

/// The keys of `text`'s top-level object, with their object values' keys.
pub(super) fn outline(text: &str, lines: &LineIndex, max_signature: usize) -> Vec<OutlineItem> {
    let mut lx = Lexer { text, b: text.as_bytes(), pos: 0 };
    lx.skip_trivia();
    if lx.peek() != Some(b'{') {
        return Vec::new();
    }
    lx.pos += 1;
    members(&mut lx, lines, max_signature, true)
}

/// The members of the object whose `{` was just read, up to its `}`.
/// `top`: read the keys of object values too (one level).
fn members(
    lx: &mut Lexer<'_>,
    lines: &LineIndex,
    max_signature: usize,
    top: bool,
) -> Vec<OutlineItem> {
    let mut out = Vec::new();
    loop {
        lx.skip_trivia();
        let Some(c) = lx.peek() else { break };
        let key_start = lx.pos;
        let name = match c {
            b'}' => {
                lx.pos += 1;
                break;
            }
            b'"' | b'\'' => lx.string(true),
            c if is_ident(c) => {
                while lx.peek().is_some_and(is_ident) {
                    lx.pos += 1;
                }
                lx.text[key_start..lx.pos].to_string()
            }
            b'{' | b'[' => {
                lx.skip_value();
                continue;
            }
            _ => {
                // `,`, `]`, `:` or a stray character
                lx.pos += 1;
                continue;
            }
        };
        lx.skip_trivia();
        if lx.peek() != Some(b':') {
            continue;
        }
        lx.pos += 1;
        let colon_end = lx.pos;
        lx.skip_trivia();
        let value_start = lx.pos;
        let children = if top && lx.peek() == Some(b'{') {
            lx.pos += 1;
            members(lx, lines, max_signature, false)
        } else {
            lx.skip_value();
            Vec::new()
        };
        let value_end = lx.pos;
        let first = lines.line_of(key_start);
        let last =
            if value_end > value_start { lines.line_of(value_end - 1).max(first) } else { first };
        let signature = if first == last {
            one_line(lx.text, key_start..value_end.max(colon_end), &[], &[], max_signature)
        } else {
            one_line(lx.text, key_start..colon_end, &[], &[], max_signature)
        };
        let mut key =
            item(clean_name(&name, "\"\""), ItemKind::Property, [first, last], None, signature);
        key.children = children;
        out.push(key);
    }
    out
}

/// An unquoted (JSON5) key's characters; bytes of non-ASCII characters too.
fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

struct Lexer<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Skips whitespace and comments.
    fn skip_trivia(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' if self.b.get(self.pos + 1) == Some(&b'/') => {
                    self.pos = self.b[self.pos..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .map_or(self.b.len(), |i| self.pos + i);
                }
                b'/' if self.b.get(self.pos + 1) == Some(&b'*') => {
                    self.pos = self.b[self.pos + 2..]
                        .windows(2)
                        .position(|w| w == b"*/")
                        .map_or(self.b.len(), |i| self.pos + 2 + i + 2);
                }
                _ => break,
            }
        }
    }

    /// Reads the string at the cursor (its quote is `"` or `'`), decoded
    /// when `decode` is set. A string left open ends at the end of its line
    /// (a JSON string cannot hold a raw newline), so one stray quote does
    /// not swallow the text.
    fn string(&mut self, decode: bool) -> String {
        let q = self.b[self.pos];
        self.pos += 1;
        let mut out: Vec<u8> = Vec::new();
        while let Some(c) = self.peek() {
            match c {
                b'\n' => break,
                b'\\' => {
                    let Some(e) = self.b.get(self.pos + 1).copied() else {
                        self.pos += 1;
                        break;
                    };
                    self.pos += 2;
                    if !decode {
                        continue;
                    }
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'u' => {
                            let ch = self.unicode_escape();
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        b'\n' => {} // JSON5 line continuation
                        e => out.push(e),
                    }
                }
                c if c == q => {
                    self.pos += 1;
                    break;
                }
                c => {
                    if decode {
                        out.push(c);
                    }
                    self.pos += 1;
                }
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The character of a `\uXXXX` escape whose `\u` was just read (a
    /// surrogate pair read whole); U+FFFD when it is not a valid one.
    fn unicode_escape(&mut self) -> char {
        let hex = |lx: &Self, at: usize| -> Option<u32> {
            let digits = lx.b.get(at..at + 4)?;
            u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
        };
        let Some(high) = hex(self, self.pos) else { return char::REPLACEMENT_CHARACTER };
        self.pos += 4;
        if (0xD800..0xDC00).contains(&high)
            && self.b.get(self.pos..self.pos + 2) == Some(b"\\u")
            && let Some(low) = hex(self, self.pos + 2)
            && (0xDC00..0xE000).contains(&low)
        {
            self.pos += 6;
            let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
            return char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
        }
        char::from_u32(high).unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    /// Skips one value: a string, a whole object or array (by counting
    /// brackets, strings and comments skipped), or a scalar. Does nothing
    /// at a `,`, `}`, `]`, `:` or the end of the text.
    fn skip_value(&mut self) {
        self.skip_trivia();
        match self.peek() {
            None | Some(b',' | b'}' | b']' | b':') => {}
            Some(b'"' | b'\'') => {
                self.string(false);
            }
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                while let Some(c) = self.peek() {
                    match c {
                        b'"' | b'\'' => {
                            self.string(false);
                            continue;
                        }
                        b'/' => {
                            let before = self.pos;
                            self.skip_trivia();
                            if self.pos == before {
                                self.pos += 1;
                            }
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                self.pos += 1;
                                return;
                            }
                        }
                        _ => {}
                    }
                    self.pos += 1;
                }
            }
            Some(_) => {
                while let Some(c) = self.peek() {
                    if matches!(c, b',' | b'}' | b']' | b':' | b' ' | b'\t' | b'\n' | b'\r')
                        || (c == b'/' && matches!(self.b.get(self.pos + 1), Some(b'/' | b'*')))
                    {
                        break;
                    }
                    self.pos += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(text: &str) -> Vec<String> {
        let idx = LineIndex::new(text);
        super::super::tests::flat(outline(text, &idx, 200))
    }

    #[test]
    fn strings_comments_and_json5() {
        let text = "// c {\n{\n  \"a{\": \"}\\\"{\",\n  /* \"x\": 1, } */\n  b: {\n    'c': [1, {\"d\": 2}],\n    \"e\\u00e9\\ud83d\\ude00\": null, // }\n  },\n  \"f\": -1.5e3,\n}\n";
        assert_eq!(
            flat(text),
            [
                "a{ [3, 3] \"\\\"a{\\\": \\\"}\\\\\\\"{\\\"\"",
                "b [5, 8] \"b:\"",
                "  c [6, 6] \"'c': [1, {\\\"d\\\": 2}]\"",
                "  eé😀 [7, 7] \"\\\"e\\\\u00e9\\\\ud83d\\\\ude00\\\": null\"",
                "f [9, 9] \"\\\"f\\\": -1.5e3\"",
            ]
        );
    }

    #[test]
    fn not_objects_and_malformed() {
        assert!(flat("[{\"a\": 1}]").is_empty());
        assert!(flat("").is_empty());
        assert!(flat("   // only a comment").is_empty());
        assert_eq!(
            flat("{\"a\" 1, \"b\": {\"c\": [}"),
            ["b [1, 1] \"\\\"b\\\": {\\\"c\\\": [}\"", "  c [1, 1] \"\\\"c\\\": [}\""]
        );
        assert_eq!(
            flat("{\"a\": \"open\n, \"b\": 2}"),
            ["a [1, 1] \"\\\"a\\\": \\\"open\"", "b [2, 2] \"\\\"b\\\": 2\""]
        );
        assert_eq!(flat("{\"\": 1}"), ["\"\" [1, 1] \"\\\"\\\": 1\""]);
    }
}
