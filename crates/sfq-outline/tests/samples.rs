//! Exact expected outlines: for every `tests/fixtures/samples/sample.*`
//! (one per language, exercising classes, nested members, functions,
//! interfaces/traits/impls, enums, constants, imports, decorators and
//! attributes, overloads, exported and arrow functions, generics in
//! signatures and unicode identifiers), the outline must equal the golden
//! file next to it, `<sample>.outline`.
//!
//! A golden file holds one line per item, indented two spaces per level:
//! `kind name [start-end] @line (detail) | signature`, then the
//! [`format_outline`] rendering. After a deliberate change, regenerate with
//! `SFQ_OUTLINE_BLESS=1 cargo test -p sfq-outline --test samples` and review
//! the diff. Samples of languages whose parser is not compiled in are
//! skipped (build with `--features all-languages` to check them all).

use std::fmt::Write;
use std::path::Path;

use sfq_outline::{Outline, OutlineItem, OutlineOptions, detect_language, format_outline, outline};

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
        let got = dump(&outline(&name, &text, &OutlineOptions::default()));
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
