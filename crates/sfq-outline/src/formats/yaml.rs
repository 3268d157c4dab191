//! YAML: top-level keys, and the keys one indentation level beneath them.
//!
//! - A top-level key is a key of a document's root mapping, at the column
//!   of the document's first line (column 0 in practice: `name: x`,
//!   `jobs:`, `"quoted key": x`, `'single': x`, `<<: *base`), a `property`
//!   item. A document whose root is a sequence or a scalar has none. Its
//!   range runs to its last line of content before the next top-level key
//!   or document marker (`---`, `...`); trailing blank and comment lines are
//!   left out. Every document of a multi-document file contributes its
//!   keys, in order.
//! - When its value is a block mapping (nothing after the `:` but an
//!   anchor, a tag or a comment), the keys of the next indentation level
//!   are its children, each ranging to its last line of content before the
//!   next sibling. Keys of mappings inside sequences (`- name: x`) and
//!   deeper levels are not listed.
//! - Never read as keys: comments, directives (`%YAML`), the content of
//!   block scalars (`key: |`, `key: >-`: the lines indented deeper than the
//!   key, blank lines included), and the continuation lines of quoted
//!   scalars and flow collections (`[`, `{`) that span lines (one left
//!   open ends before the next key, sequence entry or document marker
//!   indented no deeper than its own line).
//!
//! Names are the keys as written, quotes removed (and `''` → `'` in
//! single-quoted keys, simple escapes decoded in double-quoted ones).
//! Signatures: the key's line without its comment when the value fits on
//! it (`name: CI`, `on: [push]`), else the key and its `:` (`jobs:`,
//! `script:` for a block scalar).

use super::{clean_name, is_blank, item};
use crate::item::{ItemKind, OutlineItem};
use crate::lines::lines;
use crate::signature::one_line;

/// A mapping key found on a line.
#[derive(Debug)]
struct Key {
    /// 0-based line.
    line: usize,
    /// Its column (spaces before it; for `- key:` the column of `-`).
    indent: usize,
    /// Whether it is inside a sequence entry (`- key: x`).
    in_sequence: bool,
    /// Whether it is a key of its document's root mapping.
    top: bool,
    name: String,
    /// Nothing after the `:` (but properties or a comment): a nested
    /// block may follow.
    opens_block: bool,
    signature: Option<String>,
}

/// The keys of `text`, nested one level.
pub(super) fn outline(text: &str, max_signature: usize) -> Vec<OutlineItem> {
    let all: Vec<&str> = lines(text).map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let n = all.len();
    // content[i]: line i is part of some node (not blank, not a comment, not
    // a document marker); ranges end on such lines.
    let mut content = vec![false; n];
    let mut keys: Vec<Key> = Vec::new();
    let mut markers: Vec<usize> = Vec::new();
    let mut root: Option<usize> = None;
    let mut seen_content = false;
    let mut i = 0;
    while i < n {
        let line = all[i];
        let (ind, rest) = indent(line);
        if rest.is_empty() || rest.starts_with('#') {
            i += 1;
            continue;
        }
        if ind == 0 && (marker(rest, "---") || marker(rest, "...")) {
            markers.push(i);
            root = None;
            seen_content = false;
            let after = rest[3..].trim_start();
            i += 1;
            if rest.starts_with("---") {
                let value = properties(after);
                if value.starts_with(['|', '>']) {
                    // a top-level block scalar: runs to the next marker
                    while i < n && !(marker(all[i], "---") || marker(all[i], "...")) {
                        i += 1;
                    }
                } else if value.starts_with(['"', '\'', '[', '{']) {
                    i = scan_flow(&all, i - 1, offset(line, value), 0) + 1;
                }
            }
            continue;
        }
        if ind == 0 && rest.starts_with('%') {
            i += 1;
            continue;
        }
        content[i] = true;
        let (column, body, in_sequence) = strip_sequence(ind, rest);
        if !seen_content {
            // The document's first line sets its root mapping's column.
            seen_content = true;
            root = (!in_sequence && mapping_key(body).is_some()).then_some(ind);
        }
        let mut last = i;
        let start = offset(line, body);
        if let Some((name, value_at)) = mapping_key(body) {
            let value_offset = start + value_at;
            let value = properties(strip_comment(&line[value_offset..]));
            let opens_block = value.is_empty();
            if value.starts_with(['|', '>']) && block_scalar_header(value) {
                let mut j = i + 1;
                while j < n {
                    let (k, r) = indent(all[j]);
                    if !r.is_empty() && k <= column {
                        break;
                    }
                    if !r.is_empty() {
                        last = j;
                    }
                    j += 1;
                }
            } else if value.starts_with(['"', '\'', '[', '{']) {
                last = scan_flow(&all, i, offset(line, value), ind);
            }
            let sig_end = if last == i { strip_comment(line).len() } else { value_offset };
            let signature = one_line(line, start..sig_end, &[], &[], max_signature);
            keys.push(Key {
                line: i,
                indent: ind,
                in_sequence,
                top: root == Some(ind) && !in_sequence,
                name: clean_name(&name, "\"\""),
                opens_block,
                signature,
            });
        } else if body.starts_with(['"', '\'', '[', '{']) {
            last = scan_flow(&all, i, start, ind);
        }
        for (j, c) in content.iter_mut().enumerate().take(last + 1).skip(i + 1) {
            *c = !is_blank(all[j]);
        }
        i = last + 1;
    }
    build(&keys, &content, &markers, n)
}

/// The byte offset of `part`, a subslice of `whole`, within it.
fn offset(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize).min(whole.len())
}

/// Turns the keys into items: top-level keys with their children.
fn build(keys: &[Key], content: &[bool], markers: &[usize], n: usize) -> Vec<OutlineItem> {
    let last_content =
        |from: usize, to: usize| (from..to).rev().find(|&j| content[j]).unwrap_or(from).max(from);
    let top: Vec<usize> = (0..keys.len()).filter(|&k| keys[k].top).collect();
    let mut out = Vec::with_capacity(top.len());
    for (t, &k) in top.iter().enumerate() {
        let key = &keys[k];
        let next_key = top.get(t + 1).map_or(n, |&nk| keys[nk].line);
        let next_marker =
            markers.get(markers.partition_point(|&m| m <= key.line)).copied().unwrap_or(n);
        let bound = next_key.min(next_marker);
        let end = last_content(key.line, bound);
        let mut parent = item(
            key.name.clone(),
            ItemKind::Property,
            [key.line + 1, end + 1],
            None,
            key.signature.clone(),
        );
        if key.opens_block {
            // The first content line after the key sets the children's column.
            let first = (key.line + 1..bound).find(|&j| content[j]);
            let inner = first.and_then(|j| {
                keys[k + 1..].iter().take_while(|c| c.line <= j).find(|c| c.line == j)
            });
            if let Some(first) = inner.filter(|c| !c.in_sequence && c.indent > key.indent) {
                let siblings: Vec<&Key> = keys[k + 1..]
                    .iter()
                    .take_while(|c| c.line < bound)
                    .filter(|c| c.indent == first.indent && !c.in_sequence)
                    .collect();
                for (s, child) in siblings.iter().enumerate() {
                    let next = siblings.get(s + 1).map_or(bound, |c| c.line);
                    let end = last_content(child.line, next);
                    parent.children.push(item(
                        child.name.clone(),
                        ItemKind::Property,
                        [child.line + 1, end + 1],
                        None,
                        child.signature.clone(),
                    ));
                }
            }
        }
        out.push(parent);
    }
    out
}

/// The indentation (spaces and tabs) of a line and the text after it,
/// trailing whitespace removed.
fn indent(line: &str) -> (usize, &str) {
    let rest = line.trim_start_matches([' ', '\t']);
    (line.len() - rest.len(), rest.trim_end_matches([' ', '\t']))
}

/// Whether `rest` is the document marker `m` (alone or followed by a space).
fn marker(rest: &str, m: &str) -> bool {
    rest.strip_prefix(m).is_some_and(|after| after.is_empty() || after.starts_with([' ', '\t']))
}

/// Strips sequence indicators (`- `, `- - `): the column after them, the
/// rest, and whether there were any.
fn strip_sequence(ind: usize, rest: &str) -> (usize, &str, bool) {
    let mut column = ind;
    let mut body = rest;
    let mut any = false;
    while let Some(after) = body.strip_prefix('-') {
        if !(after.is_empty() || after.starts_with([' ', '\t'])) {
            break;
        }
        let trimmed = after.trim_start_matches([' ', '\t']);
        column += body.len() - trimmed.len();
        body = trimmed;
        any = true;
    }
    (column, body, any)
}

/// Skips node properties (`&anchor`, `!tag`) at the start of a value.
fn properties(value: &str) -> &str {
    let mut v = value.trim_start();
    while v.starts_with(['&', '!']) {
        let end = v.find([' ', '\t']).unwrap_or(v.len());
        v = v[end..].trim_start();
    }
    v
}

/// `|`, `>`, `|-`, `>+2`…: a block scalar header (a comment may follow).
fn block_scalar_header(value: &str) -> bool {
    !value.is_empty() && value[1..].chars().all(|c| c == '+' || c == '-' || c.is_ascii_digit())
}

/// `value` without a trailing comment (a `#` at the start or after a space
/// or tab, outside quotes), trailing whitespace removed.
fn strip_comment(value: &str) -> &str {
    let b = value.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(b'"') if c == b'\\' => i += 1,
            Some(b'\'') if c == b'\'' && b.get(i + 1) == Some(&b'\'') => i += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if (c == b'"' || c == b'\'')
                && (i == 0 || matches!(b[i - 1], b' ' | b'\t' | b'[' | b'{' | b',' | b':')) =>
            {
                quote = Some(c)
            }
            None if c == b'#' && (i == 0 || matches!(b[i - 1], b' ' | b'\t')) => {
                return value[..i].trim_end();
            }
            None => {}
        }
        i += 1;
    }
    value.trim_end()
}

/// A mapping key at the start of `body`: its name and the offset in
/// `body` just after its `:`.
fn mapping_key(body: &str) -> Option<(String, usize)> {
    let b = body.as_bytes();
    let (name, after) = match b.first()? {
        q @ (b'"' | b'\'') => {
            let mut i = 1;
            let mut name = String::new();
            loop {
                let c = *b.get(i)?;
                if *q == b'\'' && c == b'\'' {
                    if b.get(i + 1) == Some(&b'\'') {
                        name.push('\'');
                        i += 2;
                        continue;
                    }
                    break;
                }
                if *q == b'"' && c == b'"' {
                    break;
                }
                if *q == b'"' && c == b'\\' {
                    let decoded = match *b.get(i + 1)? {
                        b'n' => Some('\n'),
                        b't' => Some('\t'),
                        b'"' => Some('"'),
                        b'\\' => Some('\\'),
                        b'/' => Some('/'),
                        _ => None,
                    };
                    match decoded {
                        Some(d) => {
                            name.push(d);
                            i += 2;
                        }
                        None => {
                            name.push('\\');
                            i += 1;
                        }
                    }
                    continue;
                }
                let ch = body[i..].chars().next()?;
                name.push(ch);
                i += ch.len_utf8();
            }
            let colon = i + 1 + (body[i + 1..].len() - body[i + 1..].trim_start().len());
            (name, colon)
        }
        c if b"[]{}#&*!|>%@`,?".contains(c) => return None,
        _ => {
            let mut i = 0;
            loop {
                let c = *b.get(i)?;
                if c == b'#' && i > 0 && matches!(b[i - 1], b' ' | b'\t') {
                    return None;
                }
                if c == b':' && b.get(i + 1).is_none_or(|n| matches!(n, b' ' | b'\t')) {
                    break;
                }
                i += 1;
            }
            let name = body[..i].trim_end().to_string();
            if name.is_empty() {
                return None;
            }
            (name, i)
        }
    };
    if b.get(after) != Some(&b':') || !b.get(after + 1).is_none_or(|n| matches!(n, b' ' | b'\t')) {
        return None;
    }
    Some((name, after + 1))
}

/// The last line of a flow collection or quoted scalar that starts at byte
/// `at` of line `start`. One left open ends before the next line indented
/// no deeper than `ind` that reads as a key, a sequence entry or a document
/// marker (or at the end of the text), so an unclosed quote hides nothing
/// at its own level, and no line is scanned twice.
fn scan_flow(all: &[&str], start: usize, at: usize, ind: usize) -> usize {
    let mut last = start;
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut started = false;
    for (j, line) in all.iter().enumerate().skip(start) {
        let b = line.as_bytes();
        let from = if j == start { at } else { 0 };
        if j > start {
            let (k, rest) = indent(line);
            if rest.is_empty() {
                continue;
            }
            let (_, body, entry) = strip_sequence(k, rest);
            if k <= ind
                && (entry
                    || marker(rest, "---")
                    || marker(rest, "...")
                    || mapping_key(body).is_some())
            {
                return last;
            }
            last = j;
        }
        let mut i = from;
        let mut prev = if from > 0 { b[from - 1] } else { b' ' };
        while i < b.len() {
            let c = b[i];
            match quote {
                Some(b'"') if c == b'\\' => i += 1,
                Some(b'\'') if c == b'\'' && b.get(i + 1) == Some(&b'\'') => i += 1,
                Some(q) if c == q => {
                    quote = None;
                    if depth == 0 {
                        return j;
                    }
                }
                Some(_) => {}
                None => match c {
                    b'"' | b'\''
                        if i == from
                            || matches!(prev, b' ' | b'\t' | b'[' | b'{' | b',' | b':') =>
                    {
                        quote = Some(c);
                        started = true;
                    }
                    b'[' | b'{' => {
                        depth += 1;
                        started = true;
                    }
                    b']' | b'}' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 && started {
                            return j;
                        }
                    }
                    b'#' if matches!(prev, b' ' | b'\t') => break,
                    _ => {}
                },
            }
            prev = c;
            i += 1;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(text: &str) -> Vec<String> {
        super::super::tests::flat(outline(text, 200))
    }

    #[test]
    fn keys() {
        assert_eq!(mapping_key("\"a: b\": 1"), Some(("a: b".to_string(), 7)));
        assert_eq!(mapping_key("'it''s':"), Some(("it's".to_string(), 8)));
        assert_eq!(mapping_key("http://x"), None);
        assert_eq!(mapping_key("a b: c: d"), Some(("a b".to_string(), 4)));
        assert_eq!(mapping_key("x # y: z"), None);
        assert_eq!(mapping_key("*alias : x"), None);
        assert_eq!(mapping_key("\"open"), None);
        assert_eq!(strip_comment("a: \"#x\" # c"), "a: \"#x\"");
        assert_eq!(strip_comment("a: b#c"), "a: b#c");
    }

    #[test]
    fn block_scalars_and_flows_hide_keys() {
        let text = "script: |\n  key: not a key\n\n  other: no\nnext: >-\n  x: 1\nflow: [a,\n  b: c]\nq: \"x\n  y: z\"\nmap:\n  child: |\n    k: v\n  c2: 'a\n  b'\n  c3: 1 # c\n";
        assert_eq!(
            flat(text),
            [
                "script [1, 4] \"script:\"",
                "next [5, 6] \"next:\"",
                "flow [7, 8] \"flow:\"",
                "q [9, 10] \"q:\"",
                "map [11, 16] \"map:\"",
                "  child [12, 13] \"child:\"",
                "  c2 [14, 15] \"c2:\"",
                "  c3 [16, 16] \"c3: 1\"",
            ]
        );
    }
}
