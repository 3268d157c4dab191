//! C and C++ (tree-sitter-cpp extends tree-sitter-c, so one hook serves
//! both; C++-only node kinds never occur in a C tree).

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

const RULES: &[Rule] = &[
    Rule::leaf("enumerator", K::Constant),
    Rule::leaf("preproc_def", K::Constant).with_detail("macro").value("value"),
    Rule::leaf("preproc_function_def", K::Function).with_detail("macro").value("value"),
    Rule::container("namespace_definition", K::Module, "body").with_detail("namespace"),
    Rule::leaf("alias_declaration", K::Type).with_detail("alias"),
];

const TRANSPARENT: &[&str] = &[
    "preproc_if",
    "preproc_ifdef",
    "preproc_else",
    "preproc_elif",
    "preproc_elifdef",
    "linkage_specification",
    "declaration_list",
];

/// The C rules.
pub(crate) static C_SPEC: LangSpec = LangSpec {
    rules: RULES,
    hook,
    transparent: TRANSPARENT,
    decorators: &["attribute_declaration", "attribute_specifier", "ms_declspec_modifier"],
    modifier_lists: &[],
    leading: &[],
    strip_suffix: &[],
    modifiers: &[],
};

/// The C++ rules.
pub(crate) static CPP_SPEC: LangSpec = LangSpec {
    rules: RULES,
    hook,
    transparent: TRANSPARENT,
    decorators: &["attribute_declaration", "attribute_specifier", "ms_declspec_modifier"],
    modifier_lists: &[],
    leading: &[],
    strip_suffix: &[],
    modifiers: &[("virtual", "virtual"), ("static", "static")],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    match node.kind() {
        "function_definition" => {
            let body = node.child_by_field_name("body");
            let decl = node.child_by_field_name("declarator");
            let name = decl.and_then(|d| declarator_name(d, 0)).map(|(n, _)| n);
            let mut def = Def::new(w, node, K::Function, name.map(last_segment)).body(body);
            if let Some(n) = name {
                def.name = callable_name(w, n);
            }
            let def = w.with_modifiers(def, ctx);
            w.emit(def, ctx, None, out);
        }
        "declaration" | "field_declaration" => declaration(w, node, ctx, out),
        "type_definition" => typedef(w, node, ctx, out),
        "struct_specifier" | "union_specifier" | "class_specifier" | "enum_specifier" => {
            type_specifier(w, node, None, ctx, out);
        }
        "template_declaration" => {
            for child in w.named_children(node) {
                if child.kind() != "template_parameter_list" {
                    w.visit(child, ctx.wrapped(node), out);
                }
            }
        }
        "preproc_include" => {
            let path = node.child_by_field_name("path");
            let name = path
                .map(|p| w.text(p).trim_matches(['"', '<', '>']).to_string())
                .unwrap_or_default();
            let def = Def::new(w, node, K::Import, path).named(name);
            w.emit(def, ctx, None, out);
        }
        "using_declaration" => {
            let target = w.named_children(node).into_iter().last();
            let def = Def::new(w, node, K::Import, target);
            w.emit(def, ctx, None, out);
        }
        "function_declarator" => {
            // a prototype the parser could only recover inside an error node
            if let Some((n, true)) = declarator_name(node, 0) {
                let mut def = Def::new(w, node, K::Function, Some(n)).detail("prototype");
                def.name = callable_name(w, n);
                w.emit(def, ctx, None, out);
            }
        }
        "expression_statement"
        | "access_specifier"
        | "friend_declaration"
        | "static_assert_declaration" => {}
        _ => return false,
    }
    true
}

/// `declaration` (top level: prototypes and variables) and
/// `field_declaration` (members): a type with a body first, then one item
/// per declarator.
fn declaration<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) {
    if let Some(ty) = node.child_by_field_name("type")
        && ty.child_by_field_name("body").is_some()
    {
        type_specifier(w, ty, None, ctx, out);
    }
    let member = node.kind() == "field_declaration" || ctx.in_type();
    for d in w.field_children(node, "declarator") {
        let Some((name, is_function)) = declarator_name(d, 0) else { continue };
        let (kind, detail) = match (is_function, member) {
            (true, true) => (K::Method, "declaration"),
            (true, false) => (K::Function, "prototype"),
            (false, true) => (K::Field, ""),
            (false, false) => (K::Variable, ""),
        };
        let value = d.child_by_field_name("value").filter(|v| w.multiline(*v));
        let mut def = Def::new(w, node, kind, Some(last_segment(name))).body(value);
        def.name = callable_name(w, name);
        if !detail.is_empty() {
            def = def.detail(detail);
        }
        let def = w.with_modifiers(def, ctx);
        w.emit(def, ctx, None, out);
    }
}

/// `typedef T name;`: the type first when it has a body (named after the
/// typedef when anonymous), then the typedef names.
fn typedef<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) {
    let declarators = w.field_children(node, "declarator");
    let first = declarators.first().and_then(|d| declarator_name(*d, 0)).map(|(n, _)| n);
    let mut skip_first = false;
    if let Some(ty) = node.child_by_field_name("type")
        && ty.child_by_field_name("body").is_some()
    {
        if ty.child_by_field_name("name").is_none() {
            // typedef struct { … } name;  → one item, the struct named `name`
            skip_first = first.is_some();
            type_specifier(w, ty, first.map(|f| (node, f)), ctx, out);
        } else {
            type_specifier(w, ty, None, ctx, out);
        }
    }
    for (i, d) in declarators.into_iter().enumerate() {
        if i == 0 && skip_first {
            continue;
        }
        if let Some((name, _)) = declarator_name(d, 0) {
            let def = Def::new(w, node, K::Type, Some(name)).detail("typedef");
            w.emit(def, ctx, None, out);
        }
    }
}

/// A struct, union, class or enum with a body. `typedef_name` names an
/// anonymous one after its typedef (whose node then gives the range).
fn type_specifier<'t>(
    w: &mut Walker<'_>,
    node: Node<'t>,
    typedef_name: Option<(Node<'t>, Node<'t>)>,
    ctx: Ctx<'t>,
    out: &mut Vec<OutlineItem>,
) {
    let Some(body) = node.child_by_field_name("body") else { return };
    let (kind, detail) = match node.kind() {
        "struct_specifier" => (K::Class, Some("struct")),
        "union_specifier" => (K::Class, Some("union")),
        "enum_specifier" => (K::Enum, None),
        _ => (K::Class, None),
    };
    let (range_node, name_node) = match typedef_name {
        Some((outer, name)) => (outer, Some(name)),
        None => (node, node.child_by_field_name("name")),
    };
    let mut def = Def::new(w, range_node, kind, name_node).body(Some(body));
    if typedef_name.is_some() {
        def.head_end = Some(body.start_byte());
    }
    if let Some(d) = detail {
        def = def.detail(d);
    }
    w.emit(def, ctx, Some(body), out);
}

/// The name a declarator declares and whether it declares a function
/// (`int *f(void)` does; `int (*fp)(int)`, a function pointer, does not).
fn declarator_name(node: Node<'_>, depth: usize) -> Option<(Node<'_>, bool)> {
    if depth > 24 {
        return None;
    }
    match node.kind() {
        "identifier"
        | "field_identifier"
        | "type_identifier"
        | "qualified_identifier"
        | "destructor_name"
        | "operator_name"
        | "template_function"
        | "primitive_type" => Some((node, false)),
        "operator_cast" => Some((node, true)),
        "function_declarator" => {
            let inner = node.child_by_field_name("declarator")?;
            let (name, _) = declarator_name(inner, depth + 1)?;
            let pointer = inner.kind() == "parenthesized_declarator";
            Some((name, !pointer || nested_function(inner, depth + 1)))
        }
        _ => {
            let inner = node.child_by_field_name("declarator").or_else(|| {
                let mut cursor = node.walk();
                node.named_children(&mut cursor)
                    .find(|c| c.kind().ends_with("declarator") || c.kind().ends_with("identifier"))
            })?;
            declarator_name(inner, depth + 1)
        }
    }
}

/// Whether a function declarator sits inside `node` (a function returning a
/// function pointer: `int (*f(void))(int)`).
fn nested_function(node: Node<'_>, depth: usize) -> bool {
    if depth > 24 {
        return false;
    }
    if node.kind() == "function_declarator" {
        return true;
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    children.into_iter().any(|c| c.kind().ends_with("declarator") && nested_function(c, depth + 1))
}

/// The name of a function from its declarator's name node (`operator bool`
/// without its parameter list).
fn callable_name(w: &Walker<'_>, name: Node<'_>) -> String {
    let text = w.name_of(name);
    if name.kind() == "operator_cast" {
        return text.split('(').next().unwrap_or("").trim().to_string();
    }
    text
}

/// The node of the last segment of a qualified name (`A<T>::B::f` → `f`),
/// whose line is where the name is.
fn last_segment(name: Node<'_>) -> Node<'_> {
    let mut n = name;
    for _ in 0..16 {
        match n.child_by_field_name("name") {
            Some(inner) if n.kind() == "qualified_identifier" => n = inner,
            _ => break,
        }
    }
    n
}

/// Annotation macros tree-sitter cannot parse, each replaced (with any
/// parenthesised arguments) by spaces before parsing.
const ANNOTATIONS: &[&str] = &[
    "__THROW",
    "__THROWNL",
    "__wur",
    "__nonnull",
    "__LEAF",
    "__COLD",
    "__NTH",
    "__glibc_unlikely",
];

/// Whether `word` is an annotation macro to blank (with its arguments):
/// glibc's, and Clang thread-safety ones (`GUARDED_BY(mu_)`,
/// `EXCLUSIVE_LOCKS_REQUIRED(…)`, `ABSL_GUARDED_BY(…)`…).
fn is_annotation(word: &str) -> bool {
    ANNOTATIONS.contains(&word)
        || (word.starts_with("__attr") && word != "__attribute__")
        || word.starts_with("__attribute_")
        || (word.bytes().all(|c| c.is_ascii_uppercase() || c == b'_')
            && [
                "GUARDED_BY",
                "LOCKS_REQUIRED",
                "LOCKS_EXCLUDED",
                "LOCK_RETURNED",
                "LOCKABLE",
                "LOCK_FUNCTION",
                "THREAD_SAFETY_ANALYSIS",
                "ACQUIRE",
                "RELEASE",
            ]
            .iter()
            .any(|m| word.ends_with(m)))
}

/// Whole-line macros (`__BEGIN_DECLS`…) that tree-sitter would read as a type.
fn is_line_macro(word: &str) -> bool {
    matches!(
        word,
        "__BEGIN_DECLS" | "__END_DECLS" | "G_BEGIN_DECLS" | "G_END_DECLS" | "Q_OBJECT" | "Q_GADGET"
    ) || word.starts_with("_GLIBCXX_BEGIN_")
        || word.starts_with("_GLIBCXX_END_")
}

/// A copy of C/C++ `text` with the export and annotation macros that
/// derail tree-sitter blanked out (same length, same line breaks, so every
/// offset and line number stays valid), or `None` when there are none:
///
/// - `class EXPORT_MACRO Name` / `struct MACRO Name` (an all-caps word between
///   the keyword and the name);
/// - glibc's `__THROW`, `__wur`, `__nonnull ((1))`, `__attr_*(…)`,
///   `__attribute_*__` annotations;
/// - lines holding only `__BEGIN_DECLS`, `_GLIBCXX_BEGIN_NAMESPACE_VERSION`…
pub(crate) fn mask_macros(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut blank: Vec<std::ops::Range<usize>> = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    let mut prev_word: &str = "";
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = memchr_from(bytes, b'\n', i).unwrap_or(bytes.len());
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(bytes.len(), |p| i + 2 + p + 2);
                continue;
            }
            b'"' | b'\'' => {
                i = skip_literal(bytes, i);
                line_start = false;
                continue;
            }
            _ if b.is_ascii_alphabetic() || b == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let word = &text[start..i];
                let rest_of_line = &text[i..memchr_from(bytes, b'\n', i).unwrap_or(bytes.len())];
                if line_start && is_line_macro(word) && rest_of_line.trim().is_empty() {
                    blank.push(start..i);
                } else if is_annotation(word)
                    && !matches!(prev_word, "define" | "ifdef" | "ifndef" | "undef" | "defined")
                {
                    let end = skip_parens(bytes, i);
                    blank.push(start..end);
                    i = end;
                } else if matches!(prev_word, "class" | "struct" | "union")
                    && word.len() > 2
                    && word
                        .bytes()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
                    && next_is_identifier(bytes, i)
                {
                    blank.push(start..i);
                }
                prev_word = word;
                line_start = false;
                continue;
            }
            _ => {
                if !b.is_ascii_whitespace() {
                    line_start = false;
                    prev_word = "";
                }
            }
        }
        i += 1;
    }
    if blank.is_empty() {
        return None;
    }
    let mut out = bytes.to_vec();
    for r in blank {
        for b in &mut out[r] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Only ASCII bytes outside literals and comments were replaced by
    // spaces, so the result is still UTF-8.
    String::from_utf8(out).ok()
}

fn memchr_from(bytes: &[u8], needle: u8, from: usize) -> Option<usize> {
    bytes.get(from..)?.iter().position(|&b| b == needle).map(|p| from + p)
}

/// The index after a string or character literal starting at `start`.
fn skip_literal(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The index after an optional balanced `( … )` following `from` (spaces
/// allowed before it); `from` itself when there is none.
fn skip_parens(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'(') {
        return from;
    }
    let mut depth = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b'"' | b'\'' => {
                i = skip_literal(bytes, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    from
}

fn next_is_identifier(bytes: &[u8], from: usize) -> bool {
    let mut i = from;
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    bytes.get(i).is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
}

#[cfg(test)]
mod tests {
    use super::mask_macros;

    #[test]
    fn masks_export_and_glibc_macros() {
        let annotated = "int x_ GUARDED_BY(mu_);\nvoid f() EXCLUSIVE_LOCKS_REQUIRED(a, b);\n#define GUARDED_BY(x)\n";
        let masked = mask_macros(annotated).unwrap();
        assert_eq!(masked.len(), annotated.len());
        assert_eq!(
            masked.split_whitespace().collect::<Vec<_>>(),
            ["int", "x_", ";", "void", "f()", ";", "#define", "GUARDED_BY(x)"]
        );
        let src = "class LEVELDB_EXPORT Slice {\n};\n__BEGIN_DECLS\nextern int f (int) __THROW __nonnull ((1)) __wur;\n__END_DECLS\n";
        let masked = mask_macros(src).unwrap();
        assert_eq!(masked.len(), src.len());
        assert_eq!(
            masked.split_whitespace().collect::<Vec<_>>(),
            ["class", "Slice", "{", "};", "extern", "int", "f", "(int)", ";"]
        );
        assert_eq!(masked.lines().count(), src.lines().count());
        assert_eq!(mask_macros("int main(void) { return 0; }\n"), None);
        // literals, comments and enumerators are left alone
        assert_eq!(
            mask_macros("const char *s = \"__THROW\"; // __wur\nenum { A,\n  LAST\n};\n"),
            None
        );
        assert_eq!(mask_macros("struct NAME;\nstruct A B;\n"), None);
        // unbalanced input never panics
        assert!(mask_macros("__nonnull ((1)").is_some());
        assert!(mask_macros("\"unterminated\\").is_none());
    }
}
