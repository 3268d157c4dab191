//! `formatOutline`: the token-efficient text form of an [`Outline`]
//! (seed 003's example, made precise).
//!
//! ```text
//! output  := (line "\n")* last          lines joined by "\n", no trailing newline
//! line    := indent head " (" span ")"
//! indent  := "  " × depth               depth 0 for top-level items
//! span    := "line " N                  when the range is one line
//!          | "lines " START "-" END
//! head    := "function " callable       kind function
//!          | "macro " name params       kind function, detail macro
//!          | accessor callable          kind method; accessor is "get " for a
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
//! callable := name params               the parameters (and what follows them:
//!                                       return type, `const`, `throws`…) taken
//!                                       from the signature, or "()" without one;
//!           | type name params          C, C++, Java, C#: the signature without
//!                                       its leading modifiers (`public`,
//!                                       `static`, `virtual`, `template <…>`…),
//!                                       so the return type stays
//! modules := the block's modules joined by ", ", as many as fit, then "…"
//! ```
//!
//! A callable's head longer than [`MAX_HEAD_CHARS`] characters, or an
//! import block's longer than [`MAX_IMPORTS_CHARS`], is cut there and ends
//! in `…`.
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
//! A TypeScript file with parameters and imports:
//!
//! ```text
//! imports (3): node:path, ./config, ./plugins (lines 1-4)
//! function createServer(inlineConfig: InlineConfig = {}): Promise<ViteDevServer> (lines 6-20)
//! ```

use std::fmt::Write;

use crate::item::{ItemKind, Outline, OutlineItem};
use crate::language::Language;

/// The most characters a callable's head takes (the indentation and the
/// span not counted); a longer one is cut and ends in `…`. (Of 2,916
/// TypeScript functions and methods in `node_modules` sources, 6.5 % have
/// a longer head; 15 % would at 120.)
pub const MAX_HEAD_CHARS: usize = 160;

/// The most characters an import block's head takes: as many whole modules
/// as fit, then `…`.
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
        write_item(&mut out, item, 0, options, outline.language);
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

/// The head of one item (without indentation or span), for an item of an
/// unknown language (callables: the parameters after the name).
pub fn format_item_head(item: &OutlineItem) -> String {
    head(item, None)
}

/// The head of one item of a file in `language` (see the module
/// documentation).
fn head(item: &OutlineItem, language: Option<Language>) -> String {
    let first = item.detail.as_deref().and_then(|d| d.split(' ').next()).unwrap_or("");
    let has = |word: &str| item.detail.as_deref().is_some_and(|d| d.split(' ').any(|w| w == word));
    if item.kind == ItemKind::Module
        && let Some(level) = heading_level(first)
    {
        return format!("{} {}", "#".repeat(level), item.name);
    }
    match item.kind {
        ItemKind::Function if has("macro") => {
            let params = item
                .signature
                .as_deref()
                .and_then(|sig| after_name(sig, &item.name))
                .map(|tail| balanced_prefix(&tail).to_string())
                .unwrap_or_else(|| "()".to_string());
            cap(format!("macro {}{params}", item.name))
        }
        ItemKind::Function => cap(format!("function {}", callable(item, language))),
        ItemKind::Method => {
            let accessor = if has("getter") {
                "get "
            } else if has("setter") {
                "set "
            } else {
                ""
            };
            cap(format!("{accessor}{}", callable(item, language)))
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

/// A callable's name and parameters (see the module documentation).
fn callable(item: &OutlineItem, language: Option<Language>) -> String {
    let Some(sig) = item.signature.as_deref() else {
        return format!("{}()", item.name);
    };
    if matches!(language, Some(Language::C | Language::Cpp | Language::Java | Language::CSharp))
        && let Some(head) = typed_head(sig, &item.name)
    {
        return head;
    }
    match after_name(sig, &item.name) {
        Some(tail) => format!("{}{tail}", item.name),
        None => format!("{}()", item.name),
    }
}

/// Leading words of C, C++, Java and C# declarations that are not part of
/// the type.
const MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "internal",
    "static",
    "final",
    "abstract",
    "virtual",
    "override",
    "sealed",
    "synchronized",
    "native",
    "inline",
    "__inline",
    "__forceinline",
    "extern",
    "explicit",
    "constexpr",
    "consteval",
    "friend",
    "default",
    "async",
    "unsafe",
    "partial",
    "new",
    "strictfp",
    "_Noreturn",
];

/// `public static <R> List<R> map(…)` → `<R> List<R> map(…)`: the signature
/// without its leading modifiers and `template <…>`, when the name and a
/// parameter list follow.
fn typed_head(sig: &str, name: &str) -> Option<String> {
    let mut rest = sig.trim_start();
    loop {
        let before = rest;
        if let Some(r) = rest.strip_prefix("template") {
            let r = r.trim_start();
            if r.starts_with('<') {
                rest = r[balanced_prefix(r).len()..].trim_start();
            }
        }
        if let Some(r) = rest.strip_prefix("extern") {
            let r = r.trim_start();
            if let Some(q) = r.strip_prefix('"') {
                rest = q.split_once('"').map_or(r, |(_, after)| after).trim_start();
            }
        }
        let word_end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        if word_end > 0 && MODIFIERS.contains(&&rest[..word_end]) {
            rest = rest[word_end..].trim_start();
        }
        if rest.len() == before.len() {
            break;
        }
    }
    let simple = simple_name(name);
    (!simple.is_empty() && name_then_params(rest, simple)).then(|| rest.to_string())
}

/// Whether `simple` occurs in `text` as a whole name followed by `(`.
fn name_then_params(text: &str, simple: &str) -> bool {
    occurrences(text, simple).any(|end| text[end..].trim_start().starts_with('('))
}

/// The ends of the occurrences of `name` in `text` as a whole name (not
/// inside a longer identifier).
fn occurrences<'a>(text: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(name).filter_map(move |(at, _)| {
        let end = at + name.len();
        let before = text[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        let after = text[end..].chars().next().is_none_or(|c| !is_ident(c));
        (before && after).then_some(end)
    })
}

/// The last part of a qualified name: `(*Point[T]).Area` → `Area`,
/// `shapes::Shape::Count` → `Count`.
fn simple_name(name: &str) -> &str {
    let n = name.rsplit("::").next().unwrap_or(name);
    if n.starts_with('[') {
        return n; // a computed name: `[Symbol.iterator]`
    }
    n.rsplit('.').next().unwrap_or(n)
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// What follows the callable's name in its signature: `(a: T): R`,
/// `<T>(x: T) -> T`, `[K comparable](m map[K]V) []K`; for a function
/// value (`const f = async (a) =>`, `handle = (e: Event): void =>`,
/// `onClose: () =>`, `exports.f = function f(a)`), the value's parameters
/// and return type without `=>`. `None` when no parameter list follows.
fn after_name(sig: &str, name: &str) -> Option<String> {
    let simple = simple_name(name);
    if simple.is_empty() {
        return None;
    }
    for end in occurrences(sig, simple) {
        let rest = sig[end..].trim_start();
        match rest.chars().next() {
            Some('(' | '<' | '[') => return Some(strip_arrow(rest).to_string()),
            Some('=' | ':') if !rest.starts_with("==") && !rest.starts_with("::") => {
                return value_params(rest);
            }
            _ => {}
        }
    }
    None
}

/// The parameters of the function value in `rest` (`= async <R>(url) =>`,
/// `: Handler = (e) =>`, `: () =>`, `= function name(a)`, `= x =>`).
fn value_params(rest: &str) -> Option<String> {
    let value = match top_level_assign(rest) {
        Some(i) => &rest[i + 1..],
        None => rest.strip_prefix(':')?,
    };
    let mut v = value.trim_start();
    loop {
        let before = v.len();
        for word in ["async", "function"] {
            if let Some(r) = v.strip_prefix(word)
                && !r.starts_with(is_ident)
            {
                v = r.trim_start();
            }
        }
        if let Some(r) = v.strip_prefix('*') {
            v = r.trim_start();
        }
        if v.len() == before {
            break;
        }
    }
    let ident = v.find(|c: char| !is_ident(c)).unwrap_or(v.len());
    if ident > 0 {
        let after = v[ident..].trim_start();
        if after.starts_with("=>") {
            return Some(format!("({})", &v[..ident])); // `x => …`
        }
        v = after; // a function expression's own name
    }
    (v.starts_with('(') || v.starts_with('<')).then(|| strip_arrow(v).to_string())
}

/// The byte index of the first `=` at bracket depth 0 that assigns (not
/// `=>`, `==`, `<=`, `>=`, `!=`).
fn top_level_assign(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut depth = 0i32;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => depth -= 1,
            b'=' => {
                let next = bytes.get(i + 1).copied();
                let prev = i.checked_sub(1).map(|p| bytes[p]);
                if matches!(next, Some(b'>' | b'=')) {
                    i += 2;
                    continue;
                }
                if depth <= 0 && !matches!(prev, Some(b'!' | b'<' | b'>' | b'=')) {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// `s` without a trailing `=>`.
fn strip_arrow(s: &str) -> &str {
    let t = s.trim_end();
    t.strip_suffix("=>").map_or(t, str::trim_end)
}

/// The leading bracketed group of `s` (`(x) ((x) * (x))` → `(x)`,
/// `<T, U<V>> rest` → `<T, U<V>>`); all of `s` when it does not close.
fn balanced_prefix(s: &str) -> &str {
    let Some(open) = s.chars().next() else { return s };
    let close = match open {
        '(' => ')',
        '<' => '>',
        '[' => ']',
        _ => return s,
    };
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return &s[..i + c.len_utf8()];
            }
        }
    }
    s
}

/// `s` cut to [`MAX_HEAD_CHARS`] characters, a cut one ending in `…`.
fn cap(s: String) -> String {
    cap_at(s, MAX_HEAD_CHARS)
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

fn write_item(
    out: &mut String,
    item: &OutlineItem,
    depth: usize,
    options: FormatOptions,
    language: Option<Language>,
) {
    for _ in 0..depth {
        out.push_str("  ");
    }
    match (&item.signature, options.signatures) {
        (Some(sig), true) => out.push_str(sig),
        _ => out.push_str(&head(item, language)),
    }
    let [start, end] = item.range;
    let _ = if start == end {
        writeln!(out, " (line {start})")
    } else {
        writeln!(out, " (lines {start}-{end})")
    };
    for child in &item.children {
        write_item(out, child, depth + 1, options, language);
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

    fn callable_head(name: &str, kind: ItemKind, sig: &str, lang: Option<Language>) -> String {
        let mut it = item(name, kind, [1, 1], None);
        it.signature = Some(sig.to_string());
        head(&it, lang)
    }

    #[test]
    fn callables_keep_their_parameters() {
        use ItemKind::{Function as F, Method as M};
        let ts = Some(Language::TypeScript);
        let cases: &[(&str, ItemKind, &str, Option<Language>, &str)] = &[
            (
                "createServer",
                F,
                "export async function createServer(inlineConfig: InlineConfig = {}): Promise<ViteDevServer>",
                ts,
                "function createServer(inlineConfig: InlineConfig = {}): Promise<ViteDevServer>",
            ),
            (
                "add",
                F,
                "export const add = (a: number, b: number): number =>",
                ts,
                "function add(a: number, b: number): number",
            ),
            (
                "f",
                F,
                "export const f = async <R>(url: string): Promise<R> =>",
                ts,
                "function f<R>(url: string): Promise<R>",
            ),
            (
                "h",
                F,
                "export const h: Handler<(x: A) => B> = async (event) =>",
                ts,
                "function h(event)",
            ),
            ("d", F, "const d = x =>", ts, "function d(x)"),
            ("g", F, "const g = function* named(a, b)", ts, "function g(a, b)"),
            ("helper", F, "exports.helper = function helper()", ts, "function helper()"),
            ("reset", M, "Counter.prototype.reset = function (n)", ts, "reset(n)"),
            ("handle", M, "handle = (event: Event): void =>", ts, "handle(event: Event): void"),
            ("onClose", M, "onClose: () =>", ts, "onClose()"),
            ("new", M, "new (name: string): Store<T>", ts, "new(name: string): Store<T>"),
            ("#secret", M, "#secret(x)", ts, "#secret(x)"),
            ("entries", M, "*[Symbol.iterator]()", ts, "entries()"),
            ("f", F, "def f(f: int) -> int", Some(Language::Python), "function f(f: int) -> int"),
            (
                "(*Point[T]).Area",
                M,
                "func (p *Point[T]) Area() float64",
                Some(Language::Go),
                "(*Point[T]).Area() float64",
            ),
            ("Area", M, "func (a Area) Area() float64", Some(Language::Go), "Area() float64"),
            (
                "Map",
                F,
                "func Map[T, U any](xs []T) []U",
                Some(Language::Go),
                "function Map[T, U any](xs []T) []U",
            ),
            (
                "f",
                F,
                "pub(crate) async fn f<'a>(x: &'a str) -> &'a str where T: Clone",
                Some(Language::Rust),
                "function f<'a>(x: &'a str) -> &'a str where T: Clone",
            ),
            ("area", M, "def area", Some(Language::Ruby), "area()"),
            ("main", F, "function main", Some(Language::Bash), "function main()"),
            (
                "area",
                F,
                "static inline int area(const struct point *p)",
                Some(Language::C),
                "function int area(const struct point *p)",
            ),
            (
                "Max",
                F,
                "template <typename T, typename U = std::vector<T>> T Max(T a, T b)",
                Some(Language::Cpp),
                "function T Max(T a, T b)",
            ),
            (
                "c_entry",
                F,
                "extern \"C\" int c_entry(void)",
                Some(Language::Cpp),
                "function int c_entry(void)",
            ),
            (
                "shapes::Shape::Count",
                F,
                "int shapes::Shape::Count()",
                Some(Language::Cpp),
                "function int shapes::Shape::Count()",
            ),
            (
                "Area",
                M,
                "virtual double Area() const = 0",
                Some(Language::Cpp),
                "double Area() const = 0",
            ),
            (
                "map",
                M,
                "public static <R> List<R> map(Function<? super T, ? extends R> fn)",
                Some(Language::Java),
                "<R> List<R> map(Function<? super T, ? extends R> fn)",
            ),
            ("Pair", M, "public Pair", Some(Language::Java), "Pair()"),
            (
                "LoadAsync",
                M,
                "public async Task LoadAsync()",
                Some(Language::CSharp),
                "Task LoadAsync()",
            ),
            // no language: the parameters after the name
            ("area", F, "int area(int x)", None, "function area(int x)"),
        ];
        for (name, kind, sig, lang, want) in cases {
            assert_eq!(callable_head(name, *kind, sig, *lang), *want, "{sig}");
        }
        let mut getter = item("size", M, [1, 1], Some("getter"));
        getter.signature = Some("get size(): number".into());
        assert_eq!(head(&getter, ts), "get size(): number");
        let mut mac = item("SQUARE", F, [1, 1], Some("macro"));
        mac.signature = Some("#define SQUARE(x) ((x) * (x))".into());
        assert_eq!(head(&mac, Some(Language::C)), "macro SQUARE(x)");
        let mut rust_macro = item("square", F, [1, 1], Some("macro"));
        rust_macro.signature = Some("macro_rules! square".into());
        assert_eq!(head(&rust_macro, Some(Language::Rust)), "macro square()");
        let mut bare = item("f", F, [1, 1], None);
        bare.signature = None;
        assert_eq!(head(&bare, ts), "function f()");
        let long = format!("function f({})", "a, ".repeat(80));
        let cut = callable_head("f", F, &long, ts);
        assert!(cut.chars().count() <= MAX_HEAD_CHARS);
        assert!(cut.starts_with("function f(a, a,") && cut.ends_with('…'));
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
        let h = head(&block, None);
        assert!(h.chars().count() <= MAX_IMPORTS_CHARS, "{h}");
        assert!(h.starts_with("imports (5): ./m00, ./m01, ") && h.ends_with(", …"), "{h}");
        let mut re = item("re-exports (2)", ItemKind::Import, [1, 2], Some("re-export block"));
        re.modules = vec!["./a".into(), "./b".into()];
        assert_eq!(head(&re, None), "re-exports (2): ./a, ./b");
        // an import that is not a block keeps the old form
        assert_eq!(
            head(&item("fs", ItemKind::Import, [1, 1], Some("re-export")), None),
            "import fs"
        );
    }
}
