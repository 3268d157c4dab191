//! Exact expected outlines: for every `tests/fixtures/samples/sample.*`
//! (one per language, exercising classes, nested members, functions,
//! interfaces/traits/impls, enums, constants, imports, decorators and
//! attributes, overloads, exported and arrow functions, generics in
//! signatures and unicode identifiers), the outline must equal the golden
//! file next to it, `<sample>.outline`.
//!
//! A golden file holds one line per item, indented two spaces per level:
//! `kind name [start-end] @line (detail) modules=[…] | signature`, then the
//! [`format_outline`] rendering, then (when the file has imports) the
//! import items of `ImportMode::Each`, one per line. After a deliberate change, regenerate with
//! `SFQ_OUTLINE_BLESS=1 cargo test -p sfq-outline --test samples` and review
//! the diff. Samples of languages whose parser is not compiled in are
//! skipped (build with `--features all-languages` to check them all).

use std::fmt::Write;
use std::path::Path;

use sfq_outline::{
    ImportMode, ItemKind, Outline, OutlineItem, OutlineOptions, detect_language, format_outline,
    outline,
};

fn dump(o: &Outline) -> String {
    let mut out = format!(
        "language={} totalLines={} approximate={} truncated={} note={:?}\n",
        o.language.map_or("null", |l| l.id()),
        o.total_lines,
        o.approximate,
        o.truncated,
        o.note
    );
    fn rec(out: &mut String, items: &[OutlineItem], depth: usize) {
        for i in items {
            let _ = write!(
                out,
                "{}{} {} [{}-{}] @{}",
                "  ".repeat(depth),
                i.kind,
                i.name,
                i.range[0],
                i.range[1],
                i.line
            );
            if let Some(d) = &i.detail {
                let _ = write!(out, " ({d})");
            }
            if !i.modules.is_empty() {
                let _ = write!(out, " modules=[{}]", i.modules.join(", "));
            }
            if let Some(s) = &i.signature {
                let _ = write!(out, " | {s}");
            }
            out.push('\n');
            rec(out, &i.children, depth + 1);
        }
    }
    rec(&mut out, &o.items, 0);
    out.push_str("--- formatOutline ---\n");
    out.push_str(&format_outline(o));
    out.push('\n');
    out
}

/// The import items of `each` (the outline with `ImportMode::Each`), one
/// per line in source order, children's included.
fn dump_each_imports(each: &Outline) -> String {
    fn rec(out: &mut String, items: &[OutlineItem]) {
        for i in items {
            if i.kind == ItemKind::Import {
                let _ = write!(out, "{} [{}-{}] @{}", i.name, i.range[0], i.range[1], i.line);
                if let Some(d) = &i.detail {
                    let _ = write!(out, " ({d})");
                }
                if let Some(s) = &i.signature {
                    let _ = write!(out, " | {s}");
                }
                out.push('\n');
            }
            rec(out, &i.children);
        }
    }
    let mut out = String::new();
    rec(&mut out, &each.items);
    if out.is_empty() {
        return out;
    }
    format!("--- imports: each ---\n{out}")
}

#[test]
fn samples_match_golden_outlines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/samples");
    let bless = std::env::var_os("SFQ_OUTLINE_BLESS").is_some();
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".outline") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let language = detect_language(&name, &text)
            .unwrap_or_else(|| panic!("{name}: language not detected"));
        if !language.has_parser() {
            println!("skipped {name}: the {language} parser is not compiled in");
            continue;
        }
        let blocks = outline(&name, &text, &OutlineOptions::default());
        let each =
            outline(&name, &text, &OutlineOptions::default().with_import_mode(ImportMode::Each));
        check_blocks_keep_everything(&name, &blocks, &each);
        let got = format!("{}{}", dump(&blocks), dump_each_imports(&each));
        let golden = dir.join(format!("{name}.outline"));
        if bless {
            std::fs::write(&golden, &got).unwrap();
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "{name}: outline differs from {}\n--- got ---\n{got}",
                golden.display()
            ));
        }
        checked += 1;
    }
    let compiled = sfq_outline::ALL_LANGUAGES.iter().filter(|l| l.has_parser()).count();
    assert!(checked >= compiled.min(9), "only {checked} samples checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `blocks` (the default outline, imports in blocks) is `each` with every
/// run of import items replaced by one block: the other items are the
/// same, in the same order, and each block covers the imports it replaces
/// (their lines, and their modules in order).
fn check_blocks_keep_everything(name: &str, blocks: &Outline, each: &Outline) {
    fn flat(items: &[OutlineItem], depth: usize, out: &mut Vec<(usize, OutlineItem)>) {
        for i in items {
            let mut bare = i.clone();
            bare.children.clear();
            out.push((depth, bare));
            flat(&i.children, depth + 1, out);
        }
    }
    let (mut b, mut e) = (Vec::new(), Vec::new());
    flat(&blocks.items, 0, &mut b);
    flat(&each.items, 0, &mut e);
    let others = |v: &[(usize, OutlineItem)]| -> Vec<(usize, OutlineItem)> {
        v.iter().filter(|(_, i)| i.kind != ItemKind::Import).cloned().collect()
    };
    assert_eq!(others(&b), others(&e), "{name}: blocks changed the other items");
    let mut imports = e.iter().filter(|(_, i)| i.kind == ItemKind::Import).peekable();
    for (_, block) in b.iter().filter(|(_, i)| i.kind == ItemKind::Import) {
        let detail = block.detail.as_deref().unwrap_or_default();
        assert!(detail.ends_with("block"), "{name}: {block:?} is not a block");
        let mut modules: Vec<String> = Vec::new();
        let (mut count, mut re_exports) = (0, 0);
        while let Some((_, i)) =
            imports.next_if(|(_, i)| block.range[0] <= i.range[0] && i.range[1] <= block.range[1])
        {
            // Python's `import os, sys` and Go's `import (…)` name several modules
            let several = name.ends_with(".py") || name.ends_with(".go");
            let named: Vec<String> = if several {
                i.name.split(", ").map(str::to_string).collect()
            } else {
                vec![i.name.clone()]
            };
            if i.detail.as_deref() == Some("re-export") {
                re_exports += named.len();
            } else {
                count += named.len();
            }
            for m in named {
                if !modules.contains(&m) {
                    modules.push(m);
                }
            }
        }
        let want = match (count, re_exports) {
            (0, 0) => panic!("{name}: block {block:?} replaces no import"),
            (n, 0) => format!("imports ({n})"),
            (0, m) => format!("re-exports ({m})"),
            (n, m) => format!("imports ({n}), re-exports ({m})"),
        };
        assert_eq!(block.name, want, "{name}");
        assert_eq!(detail == "re-export block", count == 0, "{name}");
        if name.ends_with(".rs") {
            assert_eq!(block.modules.len(), modules.len(), "{name}");
        } else {
            assert_eq!(block.modules, modules, "{name}");
        }
    }
    assert!(imports.next().is_none(), "{name}: an import is in no block");
}
