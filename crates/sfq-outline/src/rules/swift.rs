//! Swift.

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

/// The Swift rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[
        Rule::container("protocol_declaration", K::Interface, "body").with_detail("protocol"),
        Rule::callable("function_declaration", K::Function),
        Rule::leaf("protocol_function_declaration", K::Method),
        Rule::leaf("typealias_declaration", K::Type),
    ],
    hook,
    transparent: &[],
    decorators: &["attribute"],
    modifier_lists: &["modifiers"],
    leading: &[],
    strip_suffix: &[],
    modifiers: &[("static", "static"), ("async", "async")],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    match node.kind() {
        "import_declaration" => {
            let target = w.child_of_kind(node, "identifier");
            let def = Def::new(w, node, K::Import, target);
            w.emit(def, ctx, None, out);
        }
        "class_declaration" => {
            let keyword =
                node.child_by_field_name("declaration_kind").map(|k| w.text(k)).unwrap_or("class");
            let (kind, detail) = match keyword {
                "struct" => (K::Class, Some("struct")),
                "enum" => (K::Enum, None),
                "extension" => (K::Class, Some("extension")),
                "actor" => (K::Class, Some("actor")),
                _ => (K::Class, None),
            };
            let body = node.child_by_field_name("body");
            let mut def = Def::new(w, node, kind, node.child_by_field_name("name")).body(body);
            if let Some(d) = detail {
                def = def.detail(d);
            }
            w.emit(def, ctx, body, out);
        }
        "init_declaration" | "deinit_declaration" | "subscript_declaration" => {
            let (name, detail) = match node.kind() {
                "init_declaration" => ("init", Some("constructor")),
                "deinit_declaration" => ("deinit", Some("destructor")),
                _ => ("subscript", None),
            };
            let body = node
                .child_by_field_name("body")
                .or_else(|| w.child_of_kind(node, "computed_property"));
            let mut def = Def::new(w, node, K::Method, None).named(name).body(body);
            if let Some(d) = detail {
                def = def.detail(d);
            }
            w.emit(def, ctx, None, out);
        }
        "property_declaration" | "protocol_property_declaration" => {
            let kind = if ctx.parent.is_some() { K::Property } else { K::Variable };
            for pattern in w.field_children(node, "name") {
                let id = pattern.child_by_field_name("bound_identifier").or(Some(pattern));
                let mut def = Def::new(w, node, kind, id);
                def.head_end = node
                    .child_by_field_name("value")
                    .or_else(|| w.child_of_kind(node, "computed_property"))
                    .filter(|v| w.multiline(*v))
                    .map(|v| v.start_byte());
                let def = w.with_modifiers(def, ctx);
                w.emit(def, ctx, None, out);
            }
        }
        "enum_entry" => {
            for name in w.field_children(node, "name") {
                let def = Def::new(w, node, K::Constant, Some(name));
                w.emit(def, ctx, None, out);
            }
        }
        _ => return false,
    }
    true
}
