//! `formatOutline`: the token-efficient text form of an [`Outline`]
//! (seed 003's example, made precise).
//!
//! ```text
//! output  := (line "\n")* last          lines joined by "\n", no trailing newline
//! line    := indent head " (" span ")"
//! indent  := "  " × depth               depth 0 for top-level items
//! span    := "line " N                  when the range is one line
//!          | "lines " START "-" END
//! head    := "function " name "()"      kind function
//!          | "macro " name "()"         kind function, detail macro
//!          | accessor name "()"         kind method; accessor is "get " for a
//!                                       getter, "set " for a setter, else ""
//!          | name ": " modules          kind import, detail block or re-export
//!                                       block (an import block, named
//!                                       "imports (N)" / "re-exports (N)")
//!          | "#"×N " " name             kind module, detail hN (a Markdown heading)
//!          | "[" name "]"               kind module, detail table (a TOML table)
//!          | "[[" name "]]"             kind module, detail table array
//!          | label " " name             every other kind
//! label   := the detail's first word when it is one of
//!              struct union record impl object extension actor companion (class)
//!              trait protocol annotation (interface)
//!              namespace package (module)
//!              macro (constant)
//!            else the kind: class interface type enum module variable
//!              constant field property import
//! last    := "note: " note              when the outline has a note
//! modules := the block's modules joined by ", ", as many as fit, then "…"
//! ```
//!
//! An import block's head longer than [`MAX_IMPORTS_CHARS`] characters is
//! cut there and ends in `…`.
//!
//! With [`FormatOptions::signatures`], `head` is the item's signature
//! instead (falling back to the form above when it has none). An outline
//! with no items and no note renders as `(no outline items)`.
//!
//! Seed 003's example renders exactly as the seed shows it:
//!
//! ```text
//! class Foo (lines 10-50)
//!   constructor() (lines 11-15)
//!   methodA() (lines 17-30)
//! interface Bar (lines 52-60)
//! function helper() (lines 62-70)
//! ```
//!
//! A TypeScript file with imports:
//!
//! ```text
//! imports (3): node:path, ./config, ./plugins (lines 1-4)
//! function createServer() (lines 6-20)
//! ```

use std::fmt::Write;

use crate::item::{ItemKind, Outline, OutlineItem};

/// The most characters an import block's head takes (the indentation and
/// the span not counted): as many whole modules as fit, then `…`.
pub const MAX_IMPORTS_CHARS: usize = 120;

/// Options of [`format_outline_with`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FormatOptions {
    /// Print each item's signature instead of `kind name` / `name()`.
    pub signatures: bool,
}

/// Renders `outline` as seed 003's text (see the module documentation for
/// the exact grammar).
pub fn format_outline(outline: &Outline) -> String {
    format_outline_with(outline, FormatOptions::default())
}

/// Renders `outline` with `options` (see the module documentation).
pub fn format_outline_with(outline: &Outline, options: FormatOptions) -> String {
    let mut out = String::new();
    for item in &outline.items {
        write_item(&mut out, item, 0, options);
    }
    if let Some(note) = &outline.note {
        let _ = writeln!(out, "note: {note}");
    }
    if out.is_empty() {
        return "(no outline items)".to_string();
    }
    out.pop();
    out
}

/// The head of one item (without indentation or span).
pub fn format_item_head(item: &OutlineItem) -> String {
    let first = item.detail.as_deref().and_then(|d| d.split(' ').next()).unwrap_or("");
    let has = |word: &str| item.detail.as_deref().is_some_and(|d| d.split(' ').any(|w| w == word));
    if item.kind == ItemKind::Module
        && let Some(level) = heading_level(first)
    {
        return format!("{} {}", "#".repeat(level), item.name);
    }
    match item.kind {
        ItemKind::Function if has("macro") => format!("macro {}()", item.name),
        ItemKind::Function => format!("function {}()", item.name),
        ItemKind::Method => {
            let accessor = if has("getter") {
                "get "
            } else if has("setter") {
                "set "
            } else {
                ""
            };
            format!("{accessor}{}()", item.name)
        }
        ItemKind::Import if first == "block" || (has("re-export") && has("block")) => {
            import_block(item)
        }
        ItemKind::Module if first == "table" && has("array") => format!("[[{}]]", item.name),
        ItemKind::Module if first == "table" => format!("[{}]", item.name),
        kind => {
            let labels: &[&str] = match kind {
                ItemKind::Class => &[
                    "struct",
                    "union",
                    "record",
                    "impl",
                    "object",
                    "extension",
                    "actor",
                    "companion",
                ],
                ItemKind::Interface => &["trait", "protocol", "annotation"],
                ItemKind::Module => &["namespace", "package"],
                ItemKind::Constant => &["macro"],
                _ => &[],
            };
            let label = if labels.contains(&first) { first } else { kind.as_str() };
            format!("{label} {}", item.name)
        }
    }
}

/// `s` cut to `max` characters, a cut one ending in `…`.
fn cap_at(mut s: String, max: usize) -> String {
    if s.chars().count() > max {
        let keep = s.char_indices().nth(max - 1).map_or(s.len(), |(b, _)| b);
        s.truncate(keep);
        let len = s.trim_end().len();
        s.truncate(len);
        s.push('…');
    }
    s
}

/// `imports (67): ./config, ./plugins, node:path, …`: the block's name and
/// as many of its modules as fit in [`MAX_IMPORTS_CHARS`] characters.
fn import_block(item: &OutlineItem) -> String {
    let mut s = item.name.clone();
    if item.modules.is_empty() {
        return s;
    }
    s.push_str(": ");
    let mut chars = s.chars().count();
    for (i, module) in item.modules.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        let reserve = if i + 1 == item.modules.len() { 0 } else { 3 }; // ", …"
        let width = module.chars().count();
        if chars + sep.len() + width + reserve <= MAX_IMPORTS_CHARS {
            s.push_str(sep);
            s.push_str(module);
            chars += sep.len() + width;
        } else if i == 0 {
            s.push_str(module);
            return cap_at(s, MAX_IMPORTS_CHARS);
        } else {
            s.push_str(", …");
            break;
        }
    }
    s
}

/// `h1` … `h6` → 1 … 6.
fn heading_level(word: &str) -> Option<usize> {
    let level = word.strip_prefix('h')?.parse::<usize>().ok()?;
    (1..=6).contains(&level).then_some(level)
}

fn write_item(out: &mut String, item: &OutlineItem, depth: usize, options: FormatOptions) {
    for _ in 0..depth {
        out.push_str("  ");
    }
    match (&item.signature, options.signatures) {
        (Some(sig), true) => out.push_str(sig),
        _ => out.push_str(&format_item_head(item)),
    }
    let [start, end] = item.range;
    let _ = if start == end {
        writeln!(out, " (line {start})")
    } else {
        writeln!(out, " (lines {start}-{end})")
    };
    for child in &item.children {
        write_item(out, child, depth + 1, options);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, kind: ItemKind, range: [usize; 2], detail: Option<&str>) -> OutlineItem {
        OutlineItem {
            name: name.into(),
            kind,
            range,
            line: range[0],
            detail: detail.map(str::to_string),
            signature: Some(format!("sig of {name}")),
            modules: vec![],
            children: vec![],
        }
    }

    fn outline(items: Vec<OutlineItem>, note: Option<&str>) -> Outline {
        Outline {
            path: "x".into(),
            total_lines: 100,
            language: None,
            approximate: false,
            truncated: false,
            note: note.map(str::to_string),
            items,
        }
    }

    #[test]
    fn seed_example() {
        let mut foo = item("Foo", ItemKind::Class, [10, 50], None);
        foo.children = vec![
            item("constructor", ItemKind::Method, [11, 15], Some("constructor")),
            item("methodA", ItemKind::Method, [17, 30], None),
            item("methodB", ItemKind::Method, [32, 48], None),
        ];
        let o = outline(
            vec![
                foo,
                item("Bar", ItemKind::Interface, [52, 60], None),
                item("helper", ItemKind::Function, [62, 70], None),
            ],
            None,
        );
        assert_eq!(
            format_outline(&o),
            "class Foo (lines 10-50)\n  constructor() (lines 11-15)\n  methodA() (lines 17-30)\n  methodB() (lines 32-48)\ninterface Bar (lines 52-60)\nfunction helper() (lines 62-70)"
        );
    }

    #[test]
    fn every_kind_and_label() {
        let cases = [
            (item("S", ItemKind::Class, [1, 2], Some("struct")), "struct S (lines 1-2)"),
            (
                item("Display for P", ItemKind::Class, [1, 2], Some("impl")),
                "impl Display for P (lines 1-2)",
            ),
            (item("A", ItemKind::Class, [1, 2], Some("abstract")), "class A (lines 1-2)"),
            (item("T", ItemKind::Interface, [3, 3], Some("trait")), "trait T (line 3)"),
            (item("I", ItemKind::Interface, [3, 3], None), "interface I (line 3)"),
            (item("X", ItemKind::Type, [3, 3], Some("alias")), "type X (line 3)"),
            (item("E", ItemKind::Enum, [3, 3], None), "enum E (line 3)"),
            (item("ns", ItemKind::Module, [3, 3], Some("namespace")), "namespace ns (line 3)"),
            (item("m", ItemKind::Module, [3, 3], None), "module m (line 3)"),
            (item("v", ItemKind::Variable, [3, 3], Some("static")), "variable v (line 3)"),
            (item("C", ItemKind::Constant, [3, 3], None), "constant C (line 3)"),
            (item("MAX", ItemKind::Constant, [3, 3], Some("macro")), "macro MAX (line 3)"),
            (item("f", ItemKind::Field, [3, 3], None), "field f (line 3)"),
            (item("p", ItemKind::Property, [3, 3], None), "property p (line 3)"),
            (item("fs", ItemKind::Import, [3, 3], None), "import fs (line 3)"),
            (item("g", ItemKind::Function, [3, 4], Some("async")), "function g() (lines 3-4)"),
            (item("SQ", ItemKind::Function, [3, 3], Some("macro")), "macro SQ() (line 3)"),
            (item("x", ItemKind::Method, [3, 3], Some("getter")), "get x() (line 3)"),
            (item("x", ItemKind::Method, [3, 3], Some("static setter")), "set x() (line 3)"),
            (item("Intro", ItemKind::Module, [1, 9], Some("h1")), "# Intro (lines 1-9)"),
            (item("Use", ItemKind::Module, [3, 3], Some("h3")), "### Use (line 3)"),
            (item("x", ItemKind::Module, [3, 3], Some("h7")), "module x (line 3)"),
            (item("package", ItemKind::Module, [1, 4], Some("table")), "[package] (lines 1-4)"),
            (item("bin", ItemKind::Module, [5, 6], Some("table array")), "[[bin]] (lines 5-6)"),
            (item("name", ItemKind::Property, [2, 2], None), "property name (line 2)"),
        ];
        for (it, want) in cases {
            assert_eq!(format_outline(&outline(vec![it], None)), want);
        }
    }

    #[test]
    fn notes_empty_and_signatures() {
        assert_eq!(format_outline(&outline(vec![], None)), "(no outline items)");
        assert_eq!(format_outline(&outline(vec![], Some("file is empty"))), "note: file is empty");
        let o = outline(vec![item("f", ItemKind::Function, [1, 1], None)], Some("cut"));
        assert_eq!(format_outline(&o), "function f() (line 1)\nnote: cut");
        assert_eq!(
            format_outline_with(&o, FormatOptions { signatures: true }),
            "sig of f (line 1)\nnote: cut"
        );
    }

    #[test]
    fn import_blocks_fit_one_line() {
        let mut block = item("imports (5)", ItemKind::Import, [1, 7], Some("block"));
        block.signature = None;
        block.modules = vec!["./config".into(), "node:path".into()];
        assert_eq!(
            format_outline(&outline(vec![block.clone()], None)),
            "imports (5): ./config, node:path (lines 1-7)"
        );
        block.modules = (0..40).map(|i| format!("./m{i:02}")).collect();
        let h = format_item_head(&block);
        assert!(h.chars().count() <= MAX_IMPORTS_CHARS, "{h}");
        assert!(h.starts_with("imports (5): ./m00, ./m01, ") && h.ends_with(", …"), "{h}");
        let mut re = item("re-exports (2)", ItemKind::Import, [1, 2], Some("re-export block"));
        re.modules = vec!["./a".into(), "./b".into()];
        assert_eq!(format_item_head(&re), "re-exports (2): ./a, ./b");
        // an import that is not a block keeps the old form
        assert_eq!(
            format_item_head(&item("fs", ItemKind::Import, [1, 1], Some("re-export"))),
            "import fs"
        );
    }
}
