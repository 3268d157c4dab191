//! The outline model: [`Outline`], [`OutlineItem`] and [`ItemKind`], which
//! serialise (serde) to the JSON shape SPEC gives `getOutline`.

use serde::{Deserialize, Serialize};

use crate::language::Language;

/// What an outline item is. Serialises lowercase (`"class"`, `"function"`…).
///
/// The first seven are SPEC's base kinds and every language uses them; the
/// last five are used only where the language has the concept (see the
/// per-language table in the crate README). Finer distinctions (struct,
/// trait, constructor, getter…) go in [`OutlineItem::detail`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    /// A class or class-like container: class, struct, union, record,
    /// Rust `impl` block, Kotlin/Scala `object`.
    Class,
    /// A free function (also a function-valued variable, a macro).
    Function,
    /// A function inside a class-like container or an object literal.
    Method,
    /// An interface, Rust trait, Swift protocol, Java annotation type.
    Interface,
    /// A type alias or typedef.
    Type,
    /// A variable (module level or `static`).
    Variable,
    /// An import, `use`, `#include`, `require` or re-export.
    Import,
    /// An enumeration.
    Enum,
    /// A module, namespace or package; also a Markdown heading (its
    /// section) and a TOML table.
    Module,
    /// A constant: `const` items, enum members, `#define` values.
    Constant,
    /// A field of a class or struct (data member).
    Field,
    /// A property: interface/object-type members, C#/Kotlin/Swift/PHP
    /// properties, Python `@property` is a method with detail `property`;
    /// the keys of TOML, YAML and JSON files.
    Property,
}

impl ItemKind {
    /// The lowercase name used in JSON and in [`crate::format_outline`].
    pub fn as_str(self) -> &'static str {
        match self {
            ItemKind::Class => "class",
            ItemKind::Function => "function",
            ItemKind::Method => "method",
            ItemKind::Interface => "interface",
            ItemKind::Type => "type",
            ItemKind::Variable => "variable",
            ItemKind::Import => "import",
            ItemKind::Enum => "enum",
            ItemKind::Module => "module",
            ItemKind::Constant => "constant",
            ItemKind::Field => "field",
            ItemKind::Property => "property",
        }
    }

    /// Whether items of this kind are called (rendered `name()`).
    pub fn is_callable(self) -> bool {
        matches!(self, ItemKind::Function | ItemKind::Method)
    }
}

impl std::fmt::Display for ItemKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One definition in an outline.
///
/// JSON (camelCase; optional keys are omitted when empty):
/// `{"name": "Foo", "kind": "class", "range": [10, 50], "line": 11,
///   "detail": "abstract", "signature": "export abstract class Foo<T> extends Bar",
///   "children": [ … ]}`; an import block:
/// `{"name": "imports (3)", "kind": "import", "range": [1, 4], "line": 1,
///   "detail": "block", "modules": ["node:fs", "./config"]}` (two imports
/// of `node:fs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OutlineItem {
    /// The defined name, as written (`Foo`, `__init__`, `Foo::bar`,
    /// `Display for Point` for a Rust trait impl, the module path for an
    /// import). Never empty: anonymous definitions are named `default`
    /// (JS `export default`) or `<anonymous>`.
    pub name: String,
    /// What it is.
    pub kind: ItemKind,
    /// First and last line, 1-based and inclusive. The range covers the
    /// whole definition including its decorators, annotations and attributes
    /// (Rust `#[…]` lines before an item), but not its doc comment.
    pub range: [usize; 2],
    /// The line of the name itself (where ctags and editors point); equals
    /// `range[0]` unless decorators or attributes come first.
    #[serde(default)]
    pub line: usize,
    /// A finer, language-specific description: space-separated words from a
    /// closed vocabulary (see the crate README for which language uses
    /// which). What the item is: `struct`, `union`, `record`, `impl`,
    /// `trait`, `protocol`, `annotation`, `object`, `companion`, `extension`,
    /// `actor`, `namespace`, `package`, `macro`, `typedef`, `alias`,
    /// `delegate`, `event`, `variant`, `embedded`, `parameter` (a field
    /// declared by a constructor parameter), `re-export`, `block` (an
    /// import block; `re-export block` when it has only re-exports), `h1`
    /// … `h6` (a Markdown heading and its level), `table` (a TOML table;
    /// `table array` for an array of tables, `[[x]]`). How it is
    /// declared: `constructor`, `destructor`, `getter`, `setter`, `deleter`,
    /// `property`, `staticmethod`, `classmethod`, `abstract`, `static`,
    /// `virtual`, `default`, `async`, `unsafe`, `const`, `generator`,
    /// `arrow`, `data`, `sealed`. Bodiless callables: `overload` (an
    /// overload signature followed by its implementation), `declaration`
    /// (a signature without body), `prototype` (a C/C++ function
    /// prototype). Omitted when there is nothing to add.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The declaration's head on one line: from its first keyword or
    /// modifier (decorators and comments left out) up to its body, with
    /// whitespace collapsed and a trailing `{` (or Python's `:`) dropped,
    /// at most [`crate::OutlineOptions::max_signature_chars`] characters
    /// (longer heads end in `…`). Bodiless definitions (fields, prototypes,
    /// type aliases, one-line variables) give their whole text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The modules of an import block (kind `import`, detail `block` or
    /// `re-export block`, named `imports (N)`, `re-exports (N)` or
    /// `imports (N), re-exports (M)`; see [`crate::ImportMode::Block`]): the module
    /// each of its imports names, in source order, each once: `./config`,
    /// `node:path`, Python's `os.path`, Rust's `std::collections` (a
    /// `use` path without its `{…}` list, `*` or `as` alias), Go's
    /// `net/http`, Java's `java.util.List`, C's `stdio.h`. Omitted when
    /// empty (every other item).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<String>,
    /// Nested definitions: methods and fields of a class, members of a
    /// Rust `impl`/trait, of a namespace or module, enum members, methods
    /// of an object literal. Omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<OutlineItem>,
}

impl OutlineItem {
    /// The number of items in this subtree (this one included).
    pub fn count(&self) -> usize {
        1 + self.children.iter().map(OutlineItem::count).sum::<usize>()
    }
}

/// The outline of one file.
///
/// JSON (camelCase): `{"path": "src/a.ts", "totalLines": 120, "language":
/// "typescript", "approximate": false, "truncated": false, "note": "…"
/// (omitted when there is none), "items": [ … ]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Outline {
    /// The path as the caller gave it (not normalised here).
    #[serde(default)]
    pub path: String,
    /// The file's line count, as search counts lines (see [`crate::line_count`]).
    #[serde(default)]
    pub total_lines: usize,
    /// The detected language, or `null` when none was recognised.
    #[serde(default)]
    pub language: Option<Language>,
    /// `true` when the items come from the line-based heuristic rather than
    /// a parser (unknown language, parser not compiled in, file over the
    /// size cap, minified, or parse deadline passed). Approximate items have
    /// no children beyond what indentation suggests and no `detail`.
    #[serde(default)]
    pub approximate: bool,
    /// `true` when the item budget cut the list (the items kept are the
    /// first ones in source order).
    #[serde(default)]
    pub truncated: bool,
    /// Why the outline is approximate, empty or truncated, in words a
    /// person can act on; omitted when there is nothing to say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Top-level items in source order.
    pub items: Vec<OutlineItem>,
}

impl Outline {
    /// The number of items in the whole tree.
    pub fn item_count(&self) -> usize {
        self.items.iter().map(OutlineItem::count).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_camel_case_and_omits_empty() {
        let item = OutlineItem {
            name: "f".into(),
            kind: ItemKind::Function,
            range: [3, 5],
            line: 3,
            detail: None,
            signature: Some("function f()".into()),
            modules: vec![],
            children: vec![],
        };
        let outline = Outline {
            path: "a.ts".into(),
            total_lines: 9,
            language: Some(Language::TypeScript),
            approximate: false,
            truncated: false,
            note: None,
            items: vec![item],
        };
        let json = serde_json::to_string(&outline).unwrap();
        assert_eq!(
            json,
            r#"{"path":"a.ts","totalLines":9,"language":"typescript","approximate":false,"truncated":false,"items":[{"name":"f","kind":"function","range":[3,5],"line":3,"signature":"function f()"}]}"#
        );
        assert_eq!(outline.item_count(), 1);
    }

    #[test]
    fn kinds_serialise_lowercase() {
        for (k, s) in
            [(ItemKind::Class, "class"), (ItemKind::Property, "property"), (ItemKind::Enum, "enum")]
        {
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{s}\""));
            assert_eq!(k.as_str(), s);
        }
    }
}
