//! Outlines of prose and configuration files (Markdown, TOML, YAML, JSON),
//! made by the built-in line parsers: the tricky cases of each format with
//! their exact items, exactness (never approximate), the cost bounds, line
//! endings, and inputs that must neither panic nor take quadratic time.
//! The golden samples (`tests/fixtures/samples/sample.{md,toml,yaml,json,
//! jsonc}`) are checked by `tests/samples.rs`.

use std::fmt::Write;
use std::sync::atomic::AtomicBool;

use sfq_outline::{
    ItemKind, Language, Outline, OutlineItem, OutlineOptions, format_outline, line_count, outline,
    outline_with_cancel, supported_languages,
};

fn default_outline(path: &str, text: &str) -> Outline {
    outline(path, text, &OutlineOptions::default())
}

/// One line per item: `kind name [start-end]`, two spaces per level.
fn tree(o: &Outline) -> String {
    fn rec(out: &mut String, items: &[OutlineItem], depth: usize) {
        for i in items {
            let _ = writeln!(
                out,
                "{}{} {} [{}-{}]",
                "  ".repeat(depth),
                i.kind,
                i.name,
                i.range[0],
                i.range[1]
            );
            rec(out, &i.children, depth + 1);
        }
    }
    let mut out = String::new();
    rec(&mut out, &o.items, 0);
    out
}

fn exact(path: &str, text: &str) -> Outline {
    let o = default_outline(path, text);
    assert!(!o.approximate, "{path}: approximate ({:?})", o.note);
    assert_eq!(o.note, None, "{path}");
    assert!(!o.truncated, "{path}");
    o
}

#[test]
fn markdown_fences_setext_and_nesting() {
    let text = "\
# Title

````md
# not a heading (in a fence)
```
still in the fence: a shorter fence does not close it
````

Setext
======

Sub
---
### Deep
## Next

";
    let o = exact("README.md", text);
    assert_eq!(o.language, Some(Language::Markdown));
    assert_eq!(
        tree(&o),
        "\
module Title [1-7]
module Setext [9-15]
  module Sub [12-14]
    module Deep [14-14]
  module Next [15-15]
"
    );
    let details: Vec<_> = o.items[1].children.iter().map(|i| i.detail.clone()).collect();
    assert_eq!(details, [Some("h2".to_string()), Some("h2".to_string())]);
    assert_eq!(o.items[1].line, 9);
    assert_eq!(o.items[1].signature.as_deref(), Some("# Setext"));
    assert_eq!(
        format_outline(&o),
        "# Title (lines 1-7)\n# Setext (lines 9-15)\n  ## Sub (lines 12-14)\n    ### Deep (line 14)\n  ## Next (line 15)"
    );
}

#[test]
fn toml_multi_line_strings_and_arrays_hide_headers() {
    let text = "\
top = 1
doc = \"\"\"
[x]
y = 2
\"\"\"

[a]
list = [
  [1, 2],
  \"[z]\",
]
lit = '''[[w]]'''
# about b

[[b]]
k = 'v'
";
    let o = exact("Cargo.toml", text);
    assert_eq!(o.language, Some(Language::Toml));
    assert_eq!(
        tree(&o),
        "\
property top [1-1]
property doc [2-5]
module a [7-12]
  property list [8-11]
  property lit [12-12]
module b [15-16]
  property k [16-16]
"
    );
    assert_eq!(o.items[2].detail.as_deref(), Some("table"));
    assert_eq!(o.items[3].detail.as_deref(), Some("table array"));
    assert_eq!(o.items[1].signature.as_deref(), Some("doc ="));
    assert_eq!(o.items[3].children[0].signature.as_deref(), Some("k = 'v'"));
    assert_eq!(
        format_outline(&o),
        "property top (line 1)\nproperty doc (lines 2-5)\n[a] (lines 7-12)\n  property list (lines 8-11)\n  property lit (line 12)\n[[b]] (lines 15-16)\n  property k (line 16)"
    );
}

#[test]
fn yaml_block_scalars_hide_keys() {
    let text = "\
# comment: not a key
script: |
  key: inside the scalar

  other: still inside
deploy:
  stage: prod
  notes: >
    when: later
  # trailing comment
tags: [a, b]
";
    let o = exact("ci.yml", text);
    assert_eq!(o.language, Some(Language::Yaml));
    assert_eq!(
        tree(&o),
        "\
property script [2-5]
property deploy [6-9]
  property stage [7-7]
  property notes [8-9]
property tags [11-11]
"
    );
    assert_eq!(o.items[2].signature.as_deref(), Some("tags: [a, b]"));
    assert_eq!(o.items[0].signature.as_deref(), Some("script:"));
}

#[test]
fn json_strings_with_braces() {
    let text = "{\n  \"a\": \"{ not: an object }\",\n  \"b\": {\n    \"c\": \"}\",\n    \"d\": [\"{\", {\"e\": 1}]\n  },\n  \"f\\\"g\": 2\n}\n";
    let o = exact("package.json", text);
    assert_eq!(o.language, Some(Language::Json));
    assert_eq!(
        tree(&o),
        "\
property a [2-2]
property b [3-6]
  property c [4-4]
  property d [5-5]
property f\"g [7-7]
"
    );
    assert_eq!(o.items[1].signature.as_deref(), Some("\"b\":"));
    assert_eq!(o.items[0].signature.as_deref(), Some("\"a\": \"{ not: an object }\""));
}

#[test]
fn built_in_languages_are_listed_as_parsed() {
    for (id, path) in [
        ("markdown", "a.md"),
        ("markdown", "a.mdx"),
        ("markdown", "a.markdown"),
        ("toml", "a.toml"),
        ("toml", "Cargo.lock"),
        ("yaml", "a.yml"),
        ("yaml", "a.yaml"),
        ("json", "a.json"),
        ("json", "a.jsonc"),
        ("json", "a.json5"),
    ] {
        let lang = Language::from_id(id).unwrap();
        assert!(lang.has_parser() && lang.is_built_in() && lang.cargo_feature().is_none());
        assert_eq!(default_outline(path, "").language, Some(lang), "{path}");
        let info = supported_languages().into_iter().find(|l| l.id == lang).unwrap();
        assert!(info.parser);
    }
}

#[test]
fn json_shape_of_a_heading() {
    let o = exact("a.md", "# Intro\n\ntext\n");
    assert_eq!(
        serde_json::to_string(&o).unwrap(),
        r##"{"path":"a.md","totalLines":3,"language":"markdown","approximate":false,"truncated":false,"items":[{"name":"Intro","kind":"module","range":[1,3],"line":1,"detail":"h1","signature":"# Intro"}]}"##
    );
    // formatOutline reads the JSON back (the JS layer's path)
    let back: Outline = serde_json::from_str(&serde_json::to_string(&o).unwrap()).unwrap();
    assert_eq!(format_outline(&back), "# Intro (lines 1-3)");
}

#[test]
fn budget_depth_and_size_cap() {
    let text = "# A\n## B\n### C\n# D\n## E\n";
    let o = outline("a.md", text, &OutlineOptions::default().with_max_items(3).unwrap());
    assert!(o.truncated);
    assert_eq!(tree(&o), "module A [1-3]\n  module B [2-3]\n    module C [3-3]\n");
    assert_eq!(o.note.as_deref(), Some("Only the first 3 items are listed (maxItems)."));
    let o = outline("a.md", text, &OutlineOptions::default().with_max_depth(1).unwrap());
    assert!(!o.truncated);
    assert_eq!(tree(&o), "module A [1-3]\nmodule D [4-5]\n");
    let o =
        outline("a.toml", "[a]\nx = 1\n", &OutlineOptions::default().with_max_depth(1).unwrap());
    assert_eq!(tree(&o), "module a [1-2]\n");
    let o = outline("a.md", text, &OutlineOptions::default().with_max_signature_chars(0).unwrap());
    assert!(o.items.iter().all(|i| i.signature.is_none()));
    // over the size cap: the approximate outline, as for any language
    let big = "# Heading\n".repeat(200);
    let o = outline("a.md", &big, &OutlineOptions::default().with_max_bytes(1024).unwrap());
    assert!(o.approximate);
    assert!(o.note.unwrap().contains("maxBytes"));
}

#[test]
fn one_line_json_is_outlined_not_treated_as_minified() {
    let keys: Vec<String> =
        (0..500).map(|i| format!("\"key{i}\": {{\"v\": [{i}, \"x\"]}}")).collect();
    let text = format!("{{{}}}", keys.join(", "));
    assert!(text.len() > 4096);
    let o = exact("big.json", &text);
    assert_eq!(o.items.len(), 500);
    assert_eq!(o.items[499].name, "key499");
    assert_eq!(o.items[499].range, [1, 1]);
    assert_eq!(o.items[0].children[0].name, "v");
}

#[test]
fn crlf_and_bom_give_the_same_items() {
    let samples = [
        ("a.md", "# A\n\nSetext\n---\n```\n# x\n```\n"),
        ("a.toml", "k = 1\n[t]\nm = \"\"\"\n[x]\n\"\"\"\n"),
        ("a.yaml", "a:\n  b: |\n    c: 1\nd: 2\n"),
        ("a.json", "{\n  \"a\": {\n    \"b\": 1\n  }\n}\n"),
    ];
    for (path, lf) in samples {
        let want = exact(path, lf);
        let crlf = format!("\u{feff}{}", lf.replace('\n', "\r\n"));
        let got = exact(path, &crlf);
        assert_eq!(got.items, want.items, "{path}");
        assert!(!want.items.is_empty(), "{path}");
    }
}

#[test]
fn empty_and_itemless_files() {
    for path in ["a.md", "a.toml", "a.yaml", "a.json"] {
        for text in ["", "\n\n", "   \n", "# only\n"] {
            let o = default_outline(path, text);
            assert!(!o.approximate, "{path} {text:?}");
            if path != "a.md" || !text.starts_with('#') {
                assert!(o.items.is_empty(), "{path} {text:?}");
                assert_eq!(format_outline(&o), "(no outline items)");
            }
        }
    }
    assert!(exact("a.json", "[{\"a\": 1}]").items.is_empty());
    assert!(exact("a.yaml", "- a: 1\n- b: 2\n").items.is_empty());
}

#[test]
fn cancellation_is_honoured() {
    let flag = AtomicBool::new(true);
    assert!(outline_with_cancel("a.md", "# A\n", &OutlineOptions::default(), &flag).is_err());
    let flag = AtomicBool::new(false);
    let o = outline_with_cancel("a.md", "# A\n", &OutlineOptions::default(), &flag).unwrap();
    assert_eq!(o.items[0].kind, ItemKind::Module);
}

/// Inputs built to be slow for a careless scanner (deep nesting, many
/// unclosed quotes and brackets) finish, within the invariants.
#[test]
fn pathological_inputs() {
    let n = 20_000;
    let cases: Vec<(&str, String)> = vec![
        ("a.json", "{".repeat(n * 5)),
        ("a.json", format!("{{\"a\": {}", "[".repeat(n * 5))),
        ("a.json", "{\"a\": \"\n".repeat(n)),
        ("a.toml", format!("a = {}", "[".repeat(n * 5))),
        ("a.toml", "a = \"\"\"\n".repeat(n)),
        ("a.toml", "[".repeat(n)),
        ("a.yaml", "  - \"x\n".repeat(n)),
        ("a.yaml", format!("a: [\n{}b: 1\n", "  [\n".repeat(n))),
        ("a.yaml", "a: \"x\n".repeat(n)),
        ("a.yaml", "\"x\n".repeat(n)),
        ("a.yaml", (0..2000).map(|i| format!("{}k{i}:\n", " ".repeat(i))).collect()),
        ("a.md", "> ".repeat(n)),
        ("a.md", "- ".repeat(n)),
        ("a.md", "#### h\n# h\n".repeat(n)),
        ("a.md", "```\n".repeat(n)),
        ("a.md", "<div>\n".repeat(n)),
        ("a.md", "text\n===\n".repeat(n)),
    ];
    for (path, text) in &cases {
        let started = std::time::Instant::now();
        let o = default_outline(path, text);
        check_items(&o.items, o.total_lines, None, path);
        assert!(o.item_count() <= 2000);
        assert!(started.elapsed().as_secs() < 10, "{path}: too slow");
        let _ = format_outline(&o);
    }
}

fn check_items(items: &[OutlineItem], total: usize, parent: Option<[usize; 2]>, ctx: &str) {
    for i in items {
        assert!(!i.name.is_empty() && !i.name.contains('\n'), "{ctx}: bad name {:?}", i.name);
        let [s, e] = i.range;
        assert!(
            s >= 1 && s <= e && e <= total.max(1),
            "{ctx}: range {:?} (total {total})",
            i.range
        );
        assert!(s <= i.line && i.line <= e, "{ctx}: line {} outside {:?}", i.line, i.range);
        if let Some(sig) = &i.signature {
            assert!(
                !sig.is_empty() && !sig.contains('\n') && sig.chars().count() <= 200,
                "{ctx}: {sig:?}"
            );
        }
        if let Some([ps, pe]) = parent {
            assert!(ps <= s && e <= pe, "{ctx}: child {:?} outside {:?}", i.range, [ps, pe]);
        }
        check_items(&i.children, total, Some(i.range), ctx);
    }
}

/// Token soups in each format's own syntax: no panic, invariants hold.
#[test]
fn format_token_soups() {
    const TOKENS: &[&str] = &[
        "# ",
        "## ",
        "###### ",
        "#",
        "```",
        "~~~",
        "````",
        "---",
        "===",
        "***",
        "+++",
        "...",
        "> ",
        "- ",
        "* ",
        "1. ",
        "<div>",
        "<!--",
        "-->",
        "<pre>",
        "</pre>",
        "<a href=\"x\">",
        "[",
        "]",
        "[[",
        "]]",
        "{",
        "}",
        "\"",
        "'",
        "\"\"\"",
        "'''",
        "=",
        ": ",
        ":",
        "|",
        ">-",
        "&a ",
        "*a",
        "!tag ",
        "%YAML 1.2",
        "? ",
        ",",
        "//",
        "/*",
        "*/",
        "\\",
        "\\u",
        "\\ud83d",
        "key",
        "a.b",
        "é",
        "😀",
        "\n",
        "\r\n",
        "\r",
        "\t",
        "  ",
        "    ",
        " ",
        "\u{feff}",
        "\0",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
    };
    let small = OutlineOptions::default().with_max_items(5).unwrap().with_max_depth(2).unwrap();
    for path in ["f.md", "f.toml", "f.yaml", "f.json"] {
        for _ in 0..300 {
            let len = next(300);
            let text: String = (0..len).map(|_| TOKENS[next(TOKENS.len())]).collect();
            for options in [OutlineOptions::default(), small.clone()] {
                let o = outline(path, &text, &options);
                assert_eq!(o.total_lines, line_count(&text));
                assert!(!o.approximate);
                assert!(o.item_count() <= options.max_items());
                check_items(&o.items, o.total_lines, None, &format!("{path} {text:?}"));
                let _ = format_outline(&o);
            }
        }
    }
}
