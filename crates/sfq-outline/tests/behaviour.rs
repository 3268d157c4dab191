//! The outline's behaviour at its edges: line counting, detection, the
//! cost bounds and their notes, options, cancellation and the JSON shape.

use sfq_outline::{
    ItemKind, Language, Outline, OutlineItem, OutlineOptions, format_outline, outline, outline_as,
};

fn default_outline(path: &str, text: &str) -> Outline {
    outline(path, text, &OutlineOptions::default())
}

fn names(items: &[OutlineItem]) -> Vec<String> {
    items.iter().map(|i| i.name.clone()).collect()
}

#[test]
fn empty_and_tiny_texts() {
    for path in ["a.ts", "a.py", "a.unknown", "Makefile"] {
        let o = default_outline(path, "");
        assert_eq!(o.total_lines, 0, "{path}");
        assert!(o.items.is_empty());
        assert!(!o.truncated);
        let want = match &o.note {
            Some(note) => format!("note: {note}"),
            None => "(no outline items)".to_string(),
        };
        assert_eq!(format_outline(&o), want);
    }
    assert_eq!(default_outline("a.py", "\n").total_lines, 1);
    assert_eq!(default_outline("a.py", "x = 1").total_lines, 1);
}

#[cfg(feature = "lang-python")]
#[test]
fn crlf_bom_and_lone_cr() {
    let text =
        "\u{feff}class A:\r\n    def m(self):\r\n        pass\r\n\r\ndef f():\r\n    pass\r\n";
    let o = default_outline("a.py", text);
    assert_eq!(o.total_lines, 6);
    assert_eq!(o.items[0].range, [1, 3]);
    assert_eq!(o.items[0].children[0].range, [2, 3]);
    assert_eq!(o.items[1].range, [5, 6]);
    assert_eq!(o.items[1].signature.as_deref(), Some("def f()"));
    // a lone \r does not end a line
    let o = default_outline("a.py", "x = 1\ry = 2\ndef g():\n    pass");
    assert_eq!(o.total_lines, 3);
    assert_eq!(names(&o.items), ["x", "y", "g"]);
    assert_eq!(o.items[2].range, [2, 3]);
}

#[test]
fn detection_by_extension_shebang_and_header_sniffing() {
    let o = default_outline("bin/tool", "#!/usr/bin/env python3\ndef main():\n    pass\n");
    assert_eq!(o.language, Some(Language::Python));
    let o = default_outline("SRC/App.TSX", "export const A = () => <div/>;\n");
    assert_eq!(o.language, Some(Language::Tsx));
    let o = default_outline("x.h", "namespace n {\nclass A {\n public:\n  void f();\n};\n}\n");
    assert_eq!(o.language, Some(Language::Cpp));
    let o = default_outline("x.h", "struct A { int x; };\nint f(void);\n");
    assert_eq!(o.language, Some(Language::C));
    #[cfg(all(feature = "lang-cpp", feature = "lang-c"))]
    {
        let o = default_outline("x.h", "namespace n {\nclass A {\n public:\n  void f();\n};\n}\n");
        assert_eq!(o.items[0].kind, ItemKind::Module);
        assert_eq!(o.items[0].children[0].children[0].name, "f");
    }
}

#[test]
fn unknown_language_is_approximate_never_an_error() {
    let text = "class Widget {\n  def render() {\n  }\n}\nfn helper() {\n}\nJust prose about a class of things.\n";
    let o = default_outline("notes.weird", text);
    assert_eq!(o.language, None);
    assert!(o.approximate);
    assert!(o.note.as_deref().unwrap().contains("approximate"));
    assert_eq!(names(&o.items), ["Widget", "helper"]);
    assert_eq!(o.items[0].children[0].kind, ItemKind::Method);
    let forced = outline_as("a.rs", "fn main() {}\n", None, &OutlineOptions::default());
    assert!(forced.approximate);
    assert_eq!(forced.language, None);
}

#[cfg(feature = "lang-typescript")]
#[test]
fn size_cap_falls_back_with_a_note() {
    let mut text = String::new();
    for i in 0..200 {
        text.push_str(&format!(
            "export function f{i}(a: number): number {{\n  return a + {i};\n}}\n"
        ));
    }
    let opts = OutlineOptions::default().with_max_bytes(2048).unwrap();
    let o = outline("big.ts", &text, &opts);
    assert!(o.approximate);
    assert_eq!(o.language, Some(Language::TypeScript));
    let note = o.note.as_deref().unwrap();
    assert!(note.contains("maxBytes") && note.contains("approximate"), "{note}");
    assert_eq!(o.items.len(), 200);
    assert_eq!(o.items[3].name, "f3");
    assert_eq!(o.items[3].range, [10, 12]);
}

#[cfg(feature = "lang-javascript")]
#[test]
fn minified_text_falls_back_with_a_note() {
    let body: String = (0..2000).map(|i| format!("function f{i}(a){{return a+{i}}};")).collect();
    let text = format!("{body}\n{body}\n");
    let o = default_outline("bundle.min.js", &text);
    assert!(o.approximate);
    assert!(o.note.as_deref().unwrap().contains("minified"), "{:?}", o.note);
    assert_eq!(o.total_lines, 2);
    // a normal file with long lines but a modest mean is still parsed
    let normal = format!("// {}\nfunction ok() {{}}\n", "x".repeat(3000));
    let o = default_outline("a.js", &normal);
    assert!(!o.approximate);
}

#[cfg(feature = "lang-javascript")]
#[test]
fn parse_deadline_falls_back_with_a_note() {
    let text: String = (0..40_000)
        .map(|i| format!("function f{i}(a, b) {{ return [a, b, {{ k: a + b }}]; }}\n"))
        .collect();
    let opts = OutlineOptions::default()
        .with_timeout_ms(1)
        .unwrap()
        .with_max_bytes(16 * 1024 * 1024)
        .unwrap();
    let o = outline("slow.js", &text, &opts);
    assert!(o.approximate, "a {} byte parse finished within 1 ms?", text.len());
    assert!(o.note.as_deref().unwrap().contains("timeoutMs"));
    assert!(o.truncated);
    assert_eq!(o.items.len(), 2000);
    assert!(o.note.as_deref().unwrap().contains("maxItems"));
}

#[cfg(feature = "lang-python")]
#[test]
fn cancellation_stops_early() {
    use sfq_outline::outline_with_cancel;
    use std::sync::atomic::AtomicBool;
    let cancel = AtomicBool::new(true);
    let r =
        outline_with_cancel("a.py", "def f():\n    pass\n", &OutlineOptions::default(), &cancel);
    assert!(r.is_err());
    assert_eq!(r.unwrap_err().to_string(), "the outline was cancelled");
    let go = AtomicBool::new(false);
    assert!(
        outline_with_cancel("a.py", "def f():\n    pass\n", &OutlineOptions::default(), &go)
            .is_ok()
    );
}

#[cfg(feature = "lang-python")]
#[test]
fn item_budget_keeps_the_first_items_in_source_order() {
    let text =
        "class A:\n    def a(self): pass\n    def b(self): pass\ndef c(): pass\ndef d(): pass\n";
    let opts = OutlineOptions::default().with_max_items(3).unwrap();
    let o = outline("a.py", text, &opts);
    assert!(o.truncated);
    assert_eq!(o.item_count(), 3);
    assert_eq!(names(&o.items), ["A"]);
    assert_eq!(names(&o.items[0].children), ["a", "b"]);
    assert_eq!(o.note.as_deref(), Some("Only the first 3 items are listed (maxItems)."));
    // exactly at the budget is not a cut
    let opts = OutlineOptions::default().with_max_items(5).unwrap();
    let o = outline("a.py", text, &opts);
    assert!(!o.truncated);
    assert_eq!(o.note, None);
}

#[cfg(feature = "lang-rust")]
#[test]
fn depth_imports_and_signature_options() {
    let text = "use std::fmt;\nmod a {\n    mod b {\n        fn deep_function_with_a_long_name(x: u32) -> u32 { x }\n    }\n}\n";
    let o = outline("a.rs", text, &OutlineOptions::default().with_max_depth(2).unwrap());
    assert_eq!(names(&o.items), ["imports (1)", "a"]);
    assert_eq!(names(&o.items[1].children), ["b"]);
    assert!(o.items[1].children[0].children.is_empty());
    let o = outline("a.rs", text, &OutlineOptions::default().with_imports(false));
    assert_eq!(names(&o.items), ["a"]);
    let o = outline("a.rs", text, &OutlineOptions::default().with_max_signature_chars(0).unwrap());
    assert!(o.items.iter().all(|i| i.signature.is_none()));
    let o = outline("a.rs", text, &OutlineOptions::default().with_max_signature_chars(20).unwrap());
    let deep = &o.items[1].children[0].children[0];
    assert_eq!(deep.signature.as_deref(), Some("fn deep_function_wi…"));
}

#[cfg(feature = "lang-typescript")]
#[test]
fn json_shape() {
    let o = default_outline("src/a.ts", "export class A {\n  m(): void {}\n}\n");
    let json = serde_json::to_string(&o).unwrap();
    assert_eq!(
        json,
        r#"{"path":"src/a.ts","totalLines":3,"language":"typescript","approximate":false,"truncated":false,"items":[{"name":"A","kind":"class","range":[1,3],"line":1,"signature":"export class A","children":[{"name":"m","kind":"method","range":[2,2],"line":2,"signature":"m(): void"}]}]}"#
    );
}

#[test]
fn parser_not_compiled_in_is_reported() {
    let missing = sfq_outline::ALL_LANGUAGES.into_iter().find(|l| !l.has_parser());
    let Some(lang) = missing else {
        println!("every parser is compiled in; nothing to check");
        return;
    };
    let path = format!("x.{}", lang.extensions()[0]);
    let o = default_outline(&path, "class A {\n}\n");
    assert!(o.approximate);
    assert_eq!(o.language, Some(lang));
    let note = o.note.unwrap();
    assert!(note.contains(lang.cargo_feature().unwrap()), "{note}");
}

#[test]
fn pathological_nesting_does_not_overflow() {
    let deep_braces = "{".repeat(50_000);
    let deep_parens = format!("x = {}1{}", "(".repeat(20_000), ")".repeat(20_000));
    let deep_ns: String = (0..3000).map(|i| format!("namespace n{i} {{\n")).collect();
    let deep_py: String = (0..500).map(|i| format!("{}class C{i}:\n", "    ".repeat(i))).collect();
    let deep_pp: String = (0..3000).map(|i| format!("#ifdef X{i}\n")).collect();
    for (path, text) in [
        ("a.js", deep_braces.as_str()),
        ("a.py", deep_parens.as_str()),
        ("a.cpp", deep_ns.as_str()),
        ("a.ts", deep_ns.as_str()),
        ("a.py", deep_py.as_str()),
        ("a.c", deep_pp.as_str()),
        ("a.txt", deep_py.as_str()),
    ] {
        let o = default_outline(path, text);
        assert!(o.item_count() <= 2000);
        let _ = format_outline(&o);
    }
}
