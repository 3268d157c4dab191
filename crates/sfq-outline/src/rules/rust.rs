//! Rust.

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

/// The Rust rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[
        Rule::callable("function_item", K::Function),
        Rule::leaf("function_signature_item", K::Function),
        Rule::container("union_item", K::Class, "body").with_detail("union"),
        Rule::leaf("field_declaration", K::Field),
        Rule::container("enum_item", K::Enum, "body"),
        Rule::leaf("enum_variant", K::Constant).with_detail("variant"),
        Rule::container("trait_item", K::Interface, "body").with_detail("trait"),
        Rule::container("mod_item", K::Module, "body"),
        Rule::leaf("static_item", K::Variable).with_detail("static").value("value"),
        Rule::leaf("type_item", K::Type),
        Rule::leaf("associated_type", K::Type),
    ],
    hook,
    transparent: &["foreign_mod_item", "declaration_list"],
    decorators: &[],
    modifier_lists: &[],
    leading: &["attribute_item"],
    strip_suffix: &[],
    modifiers: &[("async", "async"), ("unsafe", "unsafe"), ("const", "const")],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    match node.kind() {
        "impl_item" => {
            let ty = node.child_by_field_name("type");
            let base = ty.map(|t| type_base(w, t)).unwrap_or_default();
            let name = match node.child_by_field_name("trait") {
                Some(tr) => format!("{} for {base}", w.name_of(tr)),
                None => base,
            };
            let body = node.child_by_field_name("body");
            // the impl's line is its `impl` keyword (the type may be lines below)
            let def = Def::new(w, node, K::Class, None).named(name).detail("impl").body(body);
            let def = w.with_modifiers(def, ctx);
            w.emit(def, ctx, body, out);
        }
        "const_item" => {
            let name = node.child_by_field_name("name");
            if name.is_some_and(|n| w.text(n) == "_") {
                // `const _: () = { … };` (macro expansions): its items count
                if let Some(block) =
                    node.child_by_field_name("value").filter(|v| v.kind() == "block")
                {
                    w.visit_children(block, ctx, out);
                }
                return true;
            }
            let value = node.child_by_field_name("value").filter(|v| w.multiline(*v));
            let def = Def::new(w, node, K::Constant, name).body(value);
            w.emit(def, ctx, None, out);
        }
        "use_declaration" => {
            let arg = node.child_by_field_name("argument");
            let name = arg.map(|a| w.name_of(a)).unwrap_or_default();
            let module = arg.map(|a| use_module(w, a)).unwrap_or_default();
            let def = Def::new(w, node, K::Import, arg).named(name).modules(vec![module]);
            w.emit(def, ctx, None, out);
        }
        "extern_crate_declaration" => {
            let name = node.child_by_field_name("name");
            let def = Def::new(w, node, K::Import, name);
            w.emit(def, ctx, None, out);
        }
        "struct_item" => {
            // a tuple struct's `(…)` belongs to its signature; `{ fields }` is its body
            let body =
                node.child_by_field_name("body").filter(|b| b.kind() == "field_declaration_list");
            let def = Def::new(w, node, K::Class, node.child_by_field_name("name"))
                .detail("struct")
                .body(body);
            let def = w.with_modifiers(def, ctx);
            w.emit(def, ctx, body, out);
        }
        "macro_definition" => {
            // macro_rules! name { … }: the signature stops before the rules
            let mut cursor = node.walk();
            let open = node.children(&mut cursor).find(|c| matches!(c.kind(), "{" | "(" | "["));
            let mut def =
                Def::new(w, node, K::Function, node.child_by_field_name("name")).detail("macro");
            def.head_end = open.map(|o| o.start_byte());
            w.emit(def, ctx, None, out);
        }
        "attribute_item" | "inner_attribute_item" | "macro_invocation" => {}
        _ => return false,
    }
    true
}

/// The base name of an impl's self type: `Point<T>` → `Point`,
/// `crate::a::B<T>` → `crate::a::B`, `&'a mut Vec<T>` → `&mut Vec`; other
/// types (`[T]`, tuples) as written.
fn type_base(w: &Walker<'_>, ty: Node<'_>) -> String {
    type_base_at(w, ty, 0)
}

fn type_base_at(w: &Walker<'_>, ty: Node<'_>, depth: usize) -> String {
    if depth > 8 {
        return w.name_of(ty);
    }
    match ty.kind() {
        "generic_type" => {
            ty.child_by_field_name("type").map_or_else(|| w.name_of(ty), |t| w.name_of(t))
        }
        "reference_type" => {
            let mut cursor = ty.walk();
            let mutable = ty.children(&mut cursor).any(|c| c.kind() == "mutable_specifier");
            let inner = ty
                .child_by_field_name("type")
                .map(|t| type_base_at(w, t, depth + 1))
                .unwrap_or_default();
            format!("&{}{inner}", if mutable { "mut " } else { "" })
        }
        _ => w.name_of(ty),
    }
}

/// The module a `use` names, for its import block: the path without a
/// trailing `{…}` list or `as` alias (`std::fmt::{self, Display}` →
/// `std::fmt`, `a::b as c` → `a::b`); a list right after the first
/// segment stays (`crate::{a, b}`), and so does `super::*`.
fn use_module(w: &Walker<'_>, arg: Node<'_>) -> String {
    let path = match arg.kind() {
        "use_as_clause" => arg.child_by_field_name("path"),
        "scoped_use_list" => arg.child_by_field_name("path").filter(|p| p.named_child_count() > 0),
        _ => Some(arg),
    };
    path.map_or_else(|| w.name_of(arg), |p| w.name_of(p))
}
