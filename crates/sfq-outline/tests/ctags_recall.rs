//! Accuracy measured against universal-ctags (`/usr/bin/ctags`; CI installs
//! it with `apt-get install universal-ctags`): for the real files in
//! `tests/fixtures/real/<language>/`, the share of ctags' definitions,
//! matched on (name, line), that the outline also has.
//!
//! Method (the same for every language; see also the allowlist below):
//!
//! 1. ctags runs as `ctags --output-format=json --fields=+nKZ --sort=no
//!    --language-force=<Lang> -f - FILE` (default kinds).
//! 2. ctags tags that are not outline items by design are left out:
//!    - kinds `local`, `parameter`, `label`, `macroparam`, `tparam`,
//!      `header`, `packageName`, `receiver`, `anonMember`, `unknown`, and
//!      Python's `module`/`namespace` (imported names);
//!    - tags whose scope chain contains a function or method (we never
//!      descend into function bodies), and ctags' synthetic names
//!      (`__anon…`, `Anonymous…`);
//!    - TypeScript/JavaScript only: tags inside a function-like body (ctags
//!      5.9 emits such locals without a scope), tags inside an import
//!      statement, and object-literal keys (`property` tags, and
//!      `property`/`field` tags scoped by a variable or `module.exports`),
//!      unless we have the same (name, line).
//! 3. Names are compared after normalisation: Go `(*T).M` → `M`; a Rust
//!    `impl Trait for &'a mut T<U>` → `T`; C/C++ `A::b` → `b`, template
//!    arguments and spaces in operator names dropped; a JS/TS leading `#`
//!    dropped. Our line is the line of the name ([`OutlineItem::line`]).
//! 4. [`ALLOWLIST`] removes tags where ctags is wrong (each entry says why);
//!    an entry that stops being a miss fails the test, so the list stays
//!    honest.
//!
//! The outline is measured with its imports in blocks (the default) and
//! one by one (`ImportMode::Each`); both must give the same result.
//!
//! Recall must be at least 0.97 for Python, Go, Java, Rust and TypeScript,
//! and the other languages have regression floors. Run with
//! `-- --nocapture` to see every disagreement.

// Built without any parser, there is nothing to compare.
#![cfg_attr(not(feature = "core-languages"), allow(dead_code, unused_imports))]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use sfq_outline::{ImportMode, ItemKind, OutlineItem, OutlineOptions, outline};

/// ctags tags where ctags is wrong: (directory, file, name, line, why).
const ALLOWLIST: &[(&str, &str, &str, usize, &str)] = &[
    // Go: ctags 5.9 tags the identifiers *referenced* in a multi-line constant
    // expression (`TOKEN_ALL_ACCESS = STANDARD_RIGHTS_REQUIRED |\n TOKEN_QUERY | …`)
    // as constant definitions; they are defined (and found) earlier in the file.
    ("go", "security_windows.go", "TOKEN_ASSIGN_PRIMARY", 227, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_DUPLICATE", 228, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_IMPERSONATE", 229, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_QUERY", 230, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_QUERY_SOURCE", 231, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_ADJUST_PRIVILEGES", 232, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_ADJUST_GROUPS", 233, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_ADJUST_DEFAULT", 234, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_ADJUST_SESSIONID", 235, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_ADJUST_PRIVILEGES", 238, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_ADJUST_GROUPS", 239, GO_REFERENCE),
    ("go", "security_windows.go", "TOKEN_ADJUST_DEFAULT", 240, GO_REFERENCE),
    // Java: ctags 5.9 tags an enum constant that has a class body (`IDENTITY() {
    // @Override … }`) twice, the second time as a method; the enumConstant tag is
    // matched, the duplicate cannot be.
    ("java", "FieldNamingPolicy.java", "IDENTITY", 34, JAVA_ENUM_BODY),
    ("java", "FieldNamingPolicy.java", "UPPER_CAMEL_CASE", 52, JAVA_ENUM_BODY),
    ("java", "FieldNamingPolicy.java", "UPPER_CAMEL_CASE_WITH_SPACES", 72, JAVA_ENUM_BODY),
    ("java", "FieldNamingPolicy.java", "UPPER_CASE_WITH_UNDERSCORES", 94, JAVA_ENUM_BODY),
    ("java", "FieldNamingPolicy.java", "LOWER_CASE_WITH_UNDERSCORES", 114, JAVA_ENUM_BODY),
    ("java", "FieldNamingPolicy.java", "LOWER_CASE_WITH_DASHES", 141, JAVA_ENUM_BODY),
    ("java", "FieldNamingPolicy.java", "LOWER_CASE_WITH_DOTS", 168, JAVA_ENUM_BODY),
    // TypeScript: after `const X: Record<string, string> = {…}` ctags 5.9 loses
    // sync and tags the keywords `export`, `const` and `interface` as constants
    // (the real definitions on those lines are matched).
    ("typescript", "napi_cli_target.ts", "export", 91, TS_KEYWORD),
    ("typescript", "napi_cli_target.ts", "const", 91, TS_KEYWORD),
    ("typescript", "napi_cli_target.ts", "const", 101, TS_KEYWORD),
    ("typescript", "napi_cli_target.ts", "export", 109, TS_KEYWORD),
    ("typescript", "napi_cli_target.ts", "const", 109, TS_KEYWORD),
    ("typescript", "napi_cli_target.ts", "export", 113, TS_KEYWORD),
    ("typescript", "napi_cli_target.ts", "interface", 113, TS_KEYWORD),
    // Python: ctags tags the keyword `else` of `else: path = …` as a variable.
    ("python", "imaplib.py", "else", 1624, "ctags tags the keyword `else` as a variable"),
];

const GO_REFERENCE: &str = "ctags tags a constant referenced in a multi-line constant expression";
const JAVA_ENUM_BODY: &str =
    "ctags tags an enum constant with a class body a second time, as a method";
const TS_KEYWORD: &str =
    "ctags loses sync after a typed object literal and tags keywords as constants";

struct Tag {
    name: String,
    line: usize,
    kind: String,
    scope: Option<String>,
    scope_kind: Option<String>,
}

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real").join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", root.display());
    files
}

fn run_ctags(path: &Path, lang: &str) -> Vec<Tag> {
    let output = Command::new("ctags")
        .args([
            "--output-format=json",
            "--fields=+nKZ",
            "--sort=no",
            &format!("--language-force={lang}"),
            "-f",
            "-",
        ])
        .arg(path)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "universal-ctags is required for this test but `ctags` could not be run ({e}); \
                 install it with `apt-get install universal-ctags`"
            )
        });
    assert!(
        output.status.success(),
        "ctags failed on {}: {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.is_empty() || stdout.contains("\"_type\""),
        "`ctags` is not universal-ctags with JSON output (Exuberant ctags?); install universal-ctags"
    );
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["_type"] == "tag")
        .map(|v| Tag {
            name: v["name"].as_str().unwrap_or_default().to_string(),
            line: v["line"].as_u64().unwrap_or(0) as usize,
            kind: v["kind"].as_str().unwrap_or_default().to_string(),
            scope: v["scope"].as_str().map(str::to_string),
            scope_kind: v["scopeKind"].as_str().map(str::to_string),
        })
        .collect()
}

fn normalise(dir: &str, name: &str) -> String {
    let mut n = name.to_string();
    match dir {
        "go" => {
            if n.starts_with('(')
                && let Some((_, m)) = n.split_once(").")
            {
                n = m.to_string();
            }
        }
        "rust" => {
            if let Some((_, ty)) = n.rsplit_once(" for ") {
                n = ty.to_string();
            }
            n = n.trim_start_matches('&').to_string();
            if let Some(rest) = n.strip_prefix('\'') {
                n = rest.split_once(' ').map_or(rest, |(_, r)| r).to_string();
            }
            for p in ["mut ", "dyn "] {
                if let Some(rest) = n.strip_prefix(p) {
                    n = rest.to_string();
                }
            }
            n = n.trim_matches(['[', ']']).rsplit("::").next().unwrap_or("").to_string();
        }
        "c" | "cpp" => {
            if n.ends_with('>')
                && let Some(open) = n.find('<')
                && !n.starts_with("operator")
            {
                n.truncate(open);
            }
            n = n.rsplit("::").next().unwrap_or("").to_string();
            if n.starts_with("operator") {
                n.retain(|c| c != ' ');
            }
        }
        "typescript" | "javascript" => n = n.trim_start_matches('#').to_string(),
        _ => {}
    }
    n
}

/// (name, line, kind, range) of every item, flattened.
fn flatten(items: &[OutlineItem], out: &mut Vec<(String, usize, ItemKind, [usize; 2])>) {
    for i in items {
        out.push((i.name.clone(), i.line, i.kind, i.range));
        flatten(&i.children, out);
    }
}

/// Line ranges of the bodies of function-like nodes (TS/JS).
fn function_bodies(path: &Path, text: &str) -> Vec<(usize, usize)> {
    let lang: Option<tree_sitter::Language> = match path.extension().and_then(|e| e.to_str()) {
        #[cfg(feature = "lang-typescript")]
        Some("ts") => Some(tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()),
        #[cfg(feature = "lang-javascript")]
        Some("js") => Some(tree_sitter_javascript::LANGUAGE.into()),
        _ => None,
    };
    let Some(lang) = lang else { return Vec::new() };
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&lang).unwrap();
    let tree = parser.parse(text, None).unwrap();
    let mut bodies = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if matches!(
            n.kind(),
            "arrow_function"
                | "function_expression"
                | "function_declaration"
                | "generator_function_declaration"
                | "generator_function"
                | "method_definition"
                | "class_static_block"
        ) && let Some(b) = n.child_by_field_name("body").or_else(|| n.named_child(0))
        {
            bodies.push((b.start_position().row + 1, b.end_position().row + 1));
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    bodies
}

const FUNCTION_SCOPES: &[&str] =
    &["function", "method", "func", "getter", "setter", "generator", "methodSpec"];
const DROPPED_KINDS: &[&str] = &[
    "local",
    "parameter",
    "label",
    "macroparam",
    "tparam",
    "header",
    "packageName",
    "receiver",
    "anonMember",
    "unknown",
];

/// The tags the outline is expected to have (method steps 2 and 3).
fn expected(
    dir: &str,
    path: &Path,
    text: &str,
    tags: Vec<Tag>,
    ours: &[(String, usize, ItemKind, [usize; 2])],
) -> Vec<Tag> {
    let mut kinds: HashMap<String, String> = HashMap::new();
    for t in &tags {
        let q = match &t.scope {
            Some(s) => format!("{s}.{}", t.name),
            None => t.name.clone(),
        };
        kinds.entry(q.replace("::", ".")).or_insert_with(|| t.kind.clone());
    }
    let function_scope = |kind: Option<&str>| {
        kind.is_some_and(|k| FUNCTION_SCOPES.contains(&k) || (dir == "python" && k == "member"))
    };
    let in_function = |t: &Tag| {
        if function_scope(t.scope_kind.as_deref()) {
            return true;
        }
        let Some(scope) = &t.scope else { return false };
        let parts: Vec<&str> = scope.split("::").flat_map(|p| p.split('.')).collect();
        (1..=parts.len())
            .any(|i| function_scope(kinds.get(&parts[..i].join(".")).map(String::as_str)))
    };
    let js = matches!(dir, "typescript" | "javascript");
    let bodies = if js { function_bodies(path, text) } else { Vec::new() };
    let imports: Vec<[usize; 2]> =
        ours.iter().filter(|o| o.2 == ItemKind::Import).map(|o| o.3).collect();
    let ours_keys: std::collections::HashSet<(String, usize)> = ours
        .iter()
        .filter(|o| o.2 != ItemKind::Import)
        .map(|o| (normalise(dir, &o.0), o.1))
        .collect();
    tags.into_iter()
        .filter(|t| !DROPPED_KINDS.contains(&t.kind.as_str()))
        .filter(|t| !(dir == "python" && matches!(t.kind.as_str(), "module" | "namespace")))
        .filter(|t| !t.name.starts_with("__anon") && !t.name.starts_with("Anonymous"))
        .filter(|t| !in_function(t))
        .map(|t| Tag { name: normalise(dir, &t.name), ..t })
        .filter(|t| {
            if !js || ours_keys.contains(&(t.name.clone(), t.line)) {
                return true;
            }
            let in_body = bodies.iter().any(|&(a, b)| a <= t.line && t.line <= b);
            let in_import = imports.iter().any(|r| r[0] <= t.line && t.line <= r[1]);
            let object_key = (dir == "javascript" && t.kind == "property")
                || (matches!(t.kind.as_str(), "property" | "field")
                    && (matches!(t.scope_kind.as_deref(), Some("variable" | "constant"))
                        || t.scope
                            .as_deref()
                            .is_some_and(|s| s == "exports" || s.starts_with("module.exports"))));
            !(in_body || in_import || object_key)
        })
        .collect()
}

struct Score {
    expected: usize,
    found: usize,
    misses: Vec<String>,
}

fn score(dir: &str, ctags_lang: &str, imports: ImportMode) -> Score {
    let options =
        OutlineOptions::default().with_max_items(1_000_000).unwrap().with_import_mode(imports);
    let mut total = Score { expected: 0, found: 0, misses: Vec::new() };
    let mut allow_used = vec![false; ALLOWLIST.len()];
    for path in fixtures(dir) {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let result = outline(&path.to_string_lossy(), &text, &options);
        assert!(!result.approximate, "{file}: {:?}", result.note);
        let mut ours = Vec::new();
        flatten(&result.items, &mut ours);
        let tags = expected(dir, &path, &text, run_ctags(&path, ctags_lang), &ours);
        let mut available: HashMap<(String, usize), usize> = HashMap::new();
        for o in ours.iter().filter(|o| o.2 != ItemKind::Import) {
            *available.entry((normalise(dir, &o.0), o.1)).or_default() += 1;
        }
        for t in tags {
            let key = (t.name.clone(), t.line);
            if let Some(n) = available.get_mut(&key).filter(|n| **n > 0) {
                *n -= 1;
                total.expected += 1;
                total.found += 1;
                continue;
            }
            if let Some(i) = ALLOWLIST
                .iter()
                .position(|a| a.0 == dir && a.1 == file && a.2 == t.name && a.3 == t.line)
            {
                allow_used[i] = true;
                continue;
            }
            total.expected += 1;
            total.misses.push(format!(
                "{dir}/{file}:{} {} (ctags kind {}, scope {:?})",
                t.line, t.name, t.kind, t.scope
            ));
        }
    }
    for (i, used) in allow_used.iter().enumerate() {
        if ALLOWLIST[i].0 == dir {
            let a = ALLOWLIST[i];
            assert!(
                used,
                "stale allowlist entry (no unmatched ctags tag): {}/{} {} line {}",
                a.0, a.1, a.2, a.3
            );
        }
    }
    total
}

fn check(dir: &str, ctags_lang: &str, floor: f64) {
    let s = score(dir, ctags_lang, ImportMode::Block);
    // Import blocks (the default) lose nothing ctags reports: the score is
    // that of the outline with one item per import.
    let each = score(dir, ctags_lang, ImportMode::Each);
    assert_eq!(
        (s.expected, s.found, &s.misses),
        (each.expected, each.found, &each.misses),
        "{dir}: import blocks change what is found"
    );
    let recall = s.found as f64 / s.expected.max(1) as f64;
    println!(
        "{dir}: ctags definitions {}, found {}, recall {recall:.4} (floor {floor})",
        s.expected, s.found
    );
    for m in &s.misses {
        println!("  miss {m}");
    }
    assert!(s.expected >= 40, "{dir}: too few ctags definitions ({}) to measure", s.expected);
    assert!(
        recall >= floor,
        "{dir}: recall {recall:.4} below {floor}; misses:\n{}",
        s.misses.join("\n")
    );
}

#[cfg(feature = "lang-python")]
#[test]
fn python_recall() {
    check("python", "Python", 0.97);
}

#[cfg(feature = "lang-go")]
#[test]
fn go_recall() {
    check("go", "Go", 0.97);
}

#[cfg(feature = "lang-java")]
#[test]
fn java_recall() {
    check("java", "Java", 0.97);
}

#[cfg(feature = "lang-rust")]
#[test]
fn rust_recall() {
    check("rust", "Rust", 0.97);
}

#[cfg(feature = "lang-typescript")]
#[test]
fn typescript_recall() {
    check("typescript", "TypeScript", 0.97);
}

#[cfg(feature = "lang-javascript")]
#[test]
fn javascript_recall() {
    check("javascript", "JavaScript", 0.95);
}

#[cfg(feature = "lang-c")]
#[test]
fn c_recall() {
    check("c", "C", 0.9);
}

#[cfg(feature = "lang-cpp")]
#[test]
fn cpp_recall() {
    check("cpp", "C++", 0.9);
}
