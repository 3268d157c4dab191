//! Kotlin (tree-sitter-kotlin-ng).

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

/// The Kotlin rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[Rule::leaf("type_alias", K::Type).name_field("type")],
    hook,
    transparent: &[],
    decorators: &["annotation"],
    modifier_lists: &["modifiers"],
    leading: &[],
    strip_suffix: &[],
    modifiers: &[
        ("abstract", "abstract"),
        ("data", "data"),
        ("sealed", "sealed"),
        ("suspend", "async"),
    ],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    match node.kind() {
        "package_header" | "import" => {
            let (kind, detail) = if node.kind() == "import" {
                (K::Import, None)
            } else {
                (K::Module, Some("package"))
            };
            let target = w
                .child_of_kind(node, "qualified_identifier")
                .or_else(|| w.child_of_kind(node, "identifier"));
            let mut def = Def::new(w, node, kind, target);
            if w.text(node).trim_end().ends_with(".*") {
                def.name.push_str(".*");
            }
            if let Some(d) = detail {
                def = def.detail(d);
            }
            w.emit(def, ctx, None, out);
        }
        "class_declaration" | "object_declaration" | "companion_object" => {
            let body = w
                .child_of_kind(node, "class_body")
                .or_else(|| w.child_of_kind(node, "enum_class_body"));
            let name =
                node.child_by_field_name("name").or_else(|| w.child_of_kind(node, "identifier"));
            let mut cursor = node.walk();
            let is_interface =
                node.children(&mut cursor).any(|c| !c.is_named() && c.kind() == "interface");
            let is_enum = w
                .child_of_kind(node, "modifiers")
                .is_some_and(|m| w.text(m).split_whitespace().any(|t| t == "enum"));
            let kind = if is_interface {
                K::Interface
            } else if is_enum {
                K::Enum
            } else {
                K::Class
            };
            let mut def = Def::new(w, node, kind, name).body(body);
            match node.kind() {
                "object_declaration" => def = def.detail("object"),
                "companion_object" => {
                    def = def.detail("companion");
                    if name.is_none() {
                        def.name = "Companion".to_string();
                    }
                }
                _ => {}
            }
            let def = w.with_modifiers(def, ctx);
            let Some(i) = w.emit(def, ctx, None, out) else { return true };
            let mut children = Vec::new();
            if let Some(child_ctx) = w.child_ctx(kind, ctx) {
                // primary-constructor `val`/`var` parameters are properties
                if let Some(params) = w
                    .child_of_kind(node, "primary_constructor")
                    .and_then(|p| w.child_of_kind(p, "class_parameters"))
                {
                    for p in w
                        .named_children(params)
                        .into_iter()
                        .filter(|p| p.kind() == "class_parameter")
                    {
                        let mut cursor = p.walk();
                        let binds =
                            p.children(&mut cursor).any(|c| matches!(c.kind(), "val" | "var"));
                        if binds {
                            let pname = w.child_of_kind(p, "identifier");
                            let def = Def::new(w, p, K::Property, pname).detail("parameter");
                            w.emit(def, child_ctx, None, &mut children);
                        }
                    }
                }
                if let Some(b) = body {
                    w.visit_children(b, child_ctx, &mut children);
                }
            }
            out[i].children = children;
        }
        "function_declaration" => {
            let name = node.child_by_field_name("name");
            let body = w.child_of_kind(node, "function_body");
            let def = w.with_modifiers(Def::new(w, node, K::Function, name).body(body), ctx);
            w.emit(def, ctx, None, out);
        }
        "secondary_constructor" => {
            let body = w.child_of_kind(node, "block");
            let def = Def::new(w, node, K::Method, None)
                .named("constructor")
                .detail("constructor")
                .body(body);
            w.emit(def, ctx, None, out);
        }
        "property_declaration" => {
            let var = w.child_of_kind(node, "variable_declaration");
            let name = var.and_then(|v| w.child_of_kind(v, "identifier"));
            let is_const = w
                .child_of_kind(node, "modifiers")
                .is_some_and(|m| w.text(m).split_whitespace().any(|t| t == "const"));
            let kind = if is_const { K::Constant } else { K::Property };
            let mut def = Def::new(w, node, kind, name);
            def.head_end = w
                .named_children(node)
                .into_iter()
                .rfind(|c| w.multiline(*c))
                .map(|c| c.start_byte());
            w.emit(def, ctx, None, out);
        }
        "enum_entry" => {
            let name = w.child_of_kind(node, "identifier");
            let def = Def::new(w, node, K::Constant, name);
            w.emit(def, ctx, None, out);
        }
        _ => return false,
    }
    true
}
