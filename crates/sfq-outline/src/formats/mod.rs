//! The built-in line parsers for prose and configuration files: Markdown
//! headings, TOML tables and keys, YAML keys, JSON keys.
//!
//! These formats have no tree-sitter grammar in the crate (grammars are
//! large and the addon's size matters); their outline structure is simple
//! enough for small exact scanners, linear in the text, that never recurse
//! deeper than two levels. Their outlines are exact, not approximate: each
//! scanner follows the format's own rules for what can hide a false item
//! (code fences and HTML blocks in Markdown, multi-line strings and arrays
//! in TOML, block scalars and multi-line flow values in YAML, strings in
//! JSON). Malformed input never fails: the scanner keeps what it can read.
//!
//! Every item's `range` runs from its first line to its last line of
//! content: trailing blank lines (and, in TOML and YAML, trailing comment
//! lines, which usually introduce what follows) are left out.

mod json;
mod markdown;
mod toml;
mod yaml;

use crate::item::{ItemKind, OutlineItem};
use crate::language::Language;
use crate::lines::LineIndex;
use crate::options::OutlineOptions;

/// The outline items of `text` (a byte-order mark already removed) in
/// `language`, one of the built-in ones, with the item budget and depth
/// applied: the first items in source order (a parent before its
/// children), and whether the budget cut the list.
pub(crate) fn outline(
    language: Language,
    text: &str,
    lines: &LineIndex,
    options: &OutlineOptions,
) -> (Vec<OutlineItem>, bool) {
    let max_signature = options.max_signature_chars();
    let items = match language {
        Language::Markdown => markdown::outline(text, max_signature),
        Language::Toml => toml::outline(text, lines, max_signature),
        Language::Yaml => yaml::outline(text, max_signature),
        Language::Json => json::outline(text, lines, max_signature),
        _ => Vec::new(),
    };
    let mut remaining = options.max_items();
    let mut truncated = false;
    let items = limit(items, 0, options.max_depth(), &mut remaining, &mut truncated);
    (items, truncated)
}

/// Keeps the first `remaining` items in pre-order and drops items at depth
/// `max_depth` or deeper (their parents stay). Recursion follows the items'
/// own depth, at most six levels (Markdown heading levels).
fn limit(
    items: Vec<OutlineItem>,
    depth: usize,
    max_depth: usize,
    remaining: &mut usize,
    truncated: &mut bool,
) -> Vec<OutlineItem> {
    let mut out = Vec::with_capacity(items.len().min(*remaining));
    for mut item in items {
        if *remaining == 0 {
            *truncated = true;
            break;
        }
        *remaining -= 1;
        let children = std::mem::take(&mut item.children);
        if depth + 1 < max_depth {
            item.children = limit(children, depth + 1, max_depth, remaining, truncated);
        }
        out.push(item);
        if *truncated {
            break;
        }
    }
    out
}

/// The longest name kept, in characters (as tree-sitter names are).
const MAX_NAME_CHARS: usize = 200;

/// A name on one line: control characters (newlines, tabs) as spaces,
/// trimmed, at most [`MAX_NAME_CHARS`] characters (a cut one ends in `…`);
/// `empty` when nothing is left.
pub(super) fn clean_name(raw: &str, empty: &str) -> String {
    let cleaned: String =
        raw.trim().chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let cleaned = cleaned.trim();
    if cleaned.is_empty() {
        return empty.to_string();
    }
    cap(cleaned, MAX_NAME_CHARS).unwrap_or_else(|| empty.to_string())
}

/// `text` cut to at most `max` characters, a cut one ending in `…`;
/// `None` when `max` is 0 or `text` is empty.
pub(super) fn cap(text: &str, max: usize) -> Option<String> {
    if max == 0 || text.is_empty() {
        return None;
    }
    match text.char_indices().nth(max) {
        None => Some(text.to_string()),
        Some(_) => {
            let keep = text.char_indices().nth(max - 1).map_or(text.len(), |(b, _)| b);
            Some(format!("{}…", text[..keep].trim_end()))
        }
    }
}

/// An item without children.
pub(super) fn item(
    name: String,
    kind: ItemKind,
    range: [usize; 2],
    detail: Option<&str>,
    signature: Option<String>,
) -> OutlineItem {
    OutlineItem {
        name,
        kind,
        range,
        line: range[0],
        detail: detail.map(str::to_string),
        signature,
        modules: Vec::new(),
        children: Vec::new(),
    }
}

/// Whether a line is blank: only spaces, tabs (and a stray `\r`), as
/// CommonMark and YAML count them (a no-break space is not blank).
pub(super) fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

#[cfg(test)]
mod tests {
    /// Test helper of the format parsers: items and their children, one line
    /// each (`name [start, end] "signature"`, children indented).
    pub(super) fn flat(items: Vec<OutlineItem>) -> Vec<String> {
        let mut out = Vec::new();
        for i in items {
            out.push(format!("{} {:?} {:?}", i.name, i.range, i.signature.unwrap_or_default()));
            for c in i.children {
                out.push(format!(
                    "  {} {:?} {:?}",
                    c.name,
                    c.range,
                    c.signature.unwrap_or_default()
                ));
            }
        }
        out
    }

    use super::*;

    fn leaf(name: &str, children: Vec<OutlineItem>) -> OutlineItem {
        let mut i = item(name.into(), ItemKind::Module, [1, 1], None, None);
        i.children = children;
        i
    }

    fn names(items: &[OutlineItem]) -> String {
        items
            .iter()
            .map(|i| {
                if i.children.is_empty() {
                    i.name.clone()
                } else {
                    format!("{}({})", i.name, names(&i.children))
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn limit_keeps_pre_order_and_depth() {
        let tree = || {
            vec![
                leaf("a", vec![leaf("b", vec![leaf("c", vec![])]), leaf("d", vec![])]),
                leaf("e", vec![]),
            ]
        };
        let run = |max_items: usize, max_depth: usize| {
            let mut remaining = max_items;
            let mut cut = false;
            let items = limit(tree(), 0, max_depth, &mut remaining, &mut cut);
            (names(&items), cut)
        };
        assert_eq!(run(10, 6), ("a(b(c) d) e".to_string(), false));
        assert_eq!(run(5, 6), ("a(b(c) d) e".to_string(), false));
        assert_eq!(run(4, 6), ("a(b(c) d)".to_string(), true));
        assert_eq!(run(2, 6), ("a(b)".to_string(), true));
        assert_eq!(run(10, 2), ("a(b d) e".to_string(), false));
        assert_eq!(run(10, 1), ("a e".to_string(), false));
    }

    #[test]
    fn names_and_caps() {
        assert_eq!(clean_name("  a\tb\nc ", "x"), "a b c");
        assert_eq!(clean_name(" \u{0} ", "<anonymous>"), "<anonymous>");
        assert_eq!(clean_name(&"é".repeat(300), "x").chars().count(), 200);
        assert_eq!(cap("abcdef", 6).unwrap(), "abcdef");
        assert_eq!(cap("abcdefg", 6).unwrap(), "abcde…");
        assert_eq!(cap("abc", 0), None);
        assert_eq!(cap("", 5), None);
    }
}
