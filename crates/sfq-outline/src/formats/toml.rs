//! TOML: tables and keys.
//!
//! - Keys before the first table header are top-level `property` items
//!   (`name = "x"`, dotted `a.b = 1`).
//! - Each table header is a `module` item: `[a.b]` with detail `table`,
//!   `[[bin]]` (an array of tables; one item per header) with detail
//!   `table array`. Its name is the header's key with the whitespace around
//!   dots removed and quoted parts kept as written
//!   (`target.'cfg(unix)'.dependencies`). Tables are listed flat, in file
//!   order, as the file writes them.
//! - The keys of a table are its children (`property`); the keys of inline
//!   tables and arrays are not listed.
//!
//! A key's range covers its value, so a multi-line array or string spans
//! several lines; lines inside multi-line strings (`"""`, `'''`) and arrays
//! are never read as keys or headers. A table's range runs from its header
//! to its last key (or other non-comment line) before the next header;
//! trailing blank and comment lines are left out. Signatures: the header
//! (`[package]`), or the key with its value when the value fits on one line
//! (`version = "0.1.0"`), else the key up to `=` (`members =`).

use super::{cap, item};
use crate::item::{ItemKind, OutlineItem};
use crate::lines::LineIndex;
use crate::signature::one_line;

/// The tables and keys of `text`.
pub(super) fn outline(text: &str, lines: &LineIndex, max_signature: usize) -> Vec<OutlineItem> {
    let b = text.as_bytes();
    let mut out: Vec<OutlineItem> = Vec::new();
    // The open table and the last line of its content.
    let mut table: Option<(OutlineItem, usize)> = None;
    let mut pos = 0;
    while pos < b.len() {
        pos = skip_ws(b, pos);
        let line = lines.line_of(pos);
        match b.get(pos) {
            None => break,
            Some(b'\n') => {
                pos += 1;
                continue;
            }
            Some(b'\r') if b.get(pos + 1) == Some(&b'\n') => {
                pos += 2;
                continue;
            }
            Some(b'#') => {
                pos = next_line(b, pos);
                continue;
            }
            _ => {}
        }
        if b[pos] == b'['
            && let Some((name, end, array)) = header(b, text, pos)
        {
            if let Some((t, _)) = table.take() {
                out.push(t);
            }
            let (detail, shown) = if array {
                ("table array", format!("[[{name}]]"))
            } else {
                ("table", format!("[{name}]"))
            };
            let signature = one_line(text, pos..end, &[], &[], max_signature)
                .or_else(|| cap(&shown, max_signature));
            table =
                Some((item(name, ItemKind::Module, [line, line], Some(detail), signature), line));
            pos = next_line(b, end);
            continue;
        }
        let mut last = line;
        let mut next = next_line(b, pos);
        if let Some((name, after_key)) = key(b, text, pos) {
            let eq = skip_ws(b, after_key);
            if b.get(eq) == Some(&b'=') {
                let value_start = skip_ws(b, eq + 1);
                let value_end = scan_value(b, value_start);
                last = lines.line_of(value_end.saturating_sub(1)).max(line);
                if value_end == value_start {
                    last = line;
                }
                let signature = if last == line {
                    one_line(text, pos..value_end, &[], &[], max_signature)
                } else {
                    one_line(text, pos..eq + 1, &[], &[], max_signature)
                };
                let key_item = item(name, ItemKind::Property, [line, last], None, signature);
                match table.as_mut() {
                    Some((t, _)) => t.children.push(key_item),
                    None => out.push(key_item),
                }
                next = next_line(b, value_end);
            }
        }
        // anything else (a malformed line) is still the table's content
        if let Some((t, end)) = table.as_mut() {
            *end = last;
            t.range[1] = last;
        }
        pos = next;
    }
    if let Some((t, _)) = table {
        out.push(t);
    }
    out
}

fn skip_ws(b: &[u8], mut p: usize) -> usize {
    while b.get(p).is_some_and(|c| matches!(c, b' ' | b'\t')) {
        p += 1;
    }
    p
}

/// The offset after the end of the line holding `p` (its `\n`).
fn next_line(b: &[u8], p: usize) -> usize {
    b[p.min(b.len())..].iter().position(|&c| c == b'\n').map_or(b.len(), |i| p + i + 1)
}

fn is_bare(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// A (dotted) key at `p`: its normalised text and the offset after it.
fn key(b: &[u8], text: &str, mut p: usize) -> Option<(String, usize)> {
    let mut parts: Vec<&str> = Vec::new();
    loop {
        p = skip_ws(b, p);
        let start = p;
        match b.get(p) {
            Some(&q @ (b'"' | b'\'')) => {
                p += 1;
                loop {
                    match b.get(p) {
                        None | Some(b'\n') => return None,
                        Some(b'\\') if q == b'"' => p += 2,
                        Some(&c) if c == q => {
                            p += 1;
                            break;
                        }
                        Some(_) => p += 1,
                    }
                }
            }
            Some(&c) if is_bare(c) => {
                while b.get(p).copied().is_some_and(is_bare) {
                    p += 1;
                }
            }
            _ => return None,
        }
        parts.push(text.get(start..p)?);
        let dot = skip_ws(b, p);
        if b.get(dot) == Some(&b'.') {
            p = dot + 1;
        } else {
            return Some((parts.join("."), p));
        }
    }
}

/// A table header at `p` (`[a.b]` or `[[a.b]]`): its name, the offset
/// after its closing bracket, and whether it is an array of tables.
fn header(b: &[u8], text: &str, p: usize) -> Option<(String, usize, bool)> {
    let array = b.get(p + 1) == Some(&b'[');
    let (name, after) = key(b, text, p + if array { 2 } else { 1 })?;
    let close = skip_ws(b, after);
    if array {
        b[close..].starts_with(b"]]").then_some((name, close + 2, true))
    } else {
        (b.get(close) == Some(&b']')).then_some((name, close + 1, false))
    }
}

/// The offset after the value starting at `p`: a string (multi-line ones
/// included), an array or inline table (balanced, across lines, strings
/// and comments inside skipped), or a scalar up to a comment or the end of
/// the line. An unclosed array runs to the end of the text.
fn scan_value(b: &[u8], mut p: usize) -> usize {
    match b.get(p) {
        None => return p,
        Some(&q @ (b'"' | b'\'')) => return skip_string(b, p, q),
        Some(b'[' | b'{') => {}
        Some(_) => {
            let mut end = p;
            while end < b.len() && b[end] != b'\n' && b[end] != b'#' {
                end += 1;
            }
            while end > p && matches!(b[end - 1], b' ' | b'\t' | b'\r') {
                end -= 1;
            }
            return end;
        }
    }
    let mut depth = 0usize;
    while p < b.len() {
        match b[p] {
            q @ (b'"' | b'\'') => {
                p = skip_string(b, p, q);
                continue;
            }
            b'#' => {
                p = next_line(b, p);
                continue;
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return p + 1;
                }
            }
            _ => {}
        }
        p += 1;
    }
    b.len()
}

/// The offset after the string starting at `p` with quote `q`. A
/// single-line string left open ends at the end of its line.
fn skip_string(b: &[u8], mut p: usize, q: u8) -> usize {
    let escapes = q == b'"';
    if b[p..].starts_with(&[q, q, q]) {
        p += 3;
        while p < b.len() {
            if escapes && b[p] == b'\\' {
                p += 2;
                continue;
            }
            if b[p] == q {
                // up to two quotes may end the content: `""""` closes after one
                let run = b[p..].iter().take_while(|&&c| c == q).count();
                if run >= 3 {
                    return p + run;
                }
                p += run;
                continue;
            }
            p += 1;
        }
        return b.len();
    }
    p += 1;
    while p < b.len() {
        match b[p] {
            b'\n' => return p,
            b'\\' if escapes && b.get(p + 1) != Some(&b'\n') => p += 2,
            c if c == q => return p + 1,
            _ => p += 1,
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(text: &str) -> Vec<String> {
        let idx = LineIndex::new(text);
        super::super::tests::flat(outline(text, &idx, 200))
    }

    #[test]
    fn strings_and_arrays_hide_headers() {
        let text = "title = \"\"\"\n[x]\nkey = 1\n\"\"\"\nlit = '''\n[y]'''\nq = \"a # b\" # c\narr = [\n  [1, 2], # [z]\n  \"]\",\n]\n[t]\ns = \"\"\"a\"\"\"\"\n[u]\n";
        assert_eq!(
            flat(text),
            [
                "title [1, 4] \"title =\"",
                "lit [5, 6] \"lit =\"",
                "q [7, 7] \"q = \\\"a # b\\\"\"",
                "arr [8, 11] \"arr =\"",
                "t [12, 13] \"[t]\"",
                "  s [13, 13] \"s = \\\"\\\"\\\"a\\\"\\\"\\\"\\\"\"",
                "u [14, 14] \"[u]\"",
            ]
        );
    }

    #[test]
    fn keys_and_headers() {
        let text = "[ a . \"b.c\" ]\n'x y'.z = 1\nbad line\n# trailing comment\n\n[[bin]] # c\nname=\"x\"\n[[ bin ]]\n[broken\n";
        assert_eq!(
            flat(text),
            [
                "a.\"b.c\" [1, 3] \"[a . \\\"b.c\\\"]\"",
                "  'x y'.z [2, 2] \"'x y'.z = 1\"",
                "bin [6, 7] \"[[bin]]\"",
                "  name [7, 7] \"name=\\\"x\\\"\"",
                "bin [8, 9] \"[[bin]]\"",
            ]
        );
        assert!(flat("").is_empty());
        assert_eq!(flat("a ="), ["a [1, 1] \"a =\""]);
        // an unclosed array runs to the end
        assert_eq!(flat("a = [1,\n2"), ["a [1, 2] \"a =\""]);
        assert_eq!(flat("a = [1,\n"), ["a [1, 1] \"a = [1\""]);
    }
}
