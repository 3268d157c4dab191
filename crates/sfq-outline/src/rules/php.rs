//! PHP (with HTML around `<?php … ?>`).

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

/// The PHP rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[
        Rule::container("class_declaration", K::Class, "body"),
        Rule::container("interface_declaration", K::Interface, "body"),
        Rule::container("trait_declaration", K::Interface, "body").with_detail("trait"),
        Rule::container("enum_declaration", K::Enum, "body"),
        Rule::leaf("enum_case", K::Constant),
        Rule::callable("function_definition", K::Function),
    ],
    hook,
    transparent: &["compound_statement"],
    decorators: &["attribute_list"],
    modifier_lists: &[],
    leading: &[],
    strip_suffix: &[],
    modifiers: &[("abstract", "abstract"), ("static", "static")],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    match node.kind() {
        "namespace_definition" => {
            let name = node.child_by_field_name("name");
            let body = node.child_by_field_name("body");
            let def = Def::new(w, node, K::Module, name).detail("namespace").body(body);
            w.emit(def, ctx, body, out);
        }
        "namespace_use_declaration" => {
            // `use A\B as C, D;`, `use A\{B, C};`: the imported names as written
            let text = w.name_of(node);
            let name =
                text.trim_start_matches("use").trim().trim_end_matches(';').trim().to_string();
            let def = Def::new(w, node, K::Import, None).named(name);
            w.emit(def, ctx, None, out);
        }
        "method_declaration" => {
            let name = node.child_by_field_name("name");
            let body = node.child_by_field_name("body");
            let mut def = Def::new(w, node, K::Method, name).body(body);
            let ctor = def.name == "__construct";
            if ctor {
                def = def.detail("constructor");
            }
            let def = w.with_modifiers(def, ctx);
            w.emit(def, ctx, None, out);
            if ctor && let Some(params) = node.child_by_field_name("parameters") {
                for p in w
                    .named_children(params)
                    .into_iter()
                    .filter(|p| p.kind() == "property_promotion_parameter")
                {
                    let def = Def::new(w, p, K::Property, p.child_by_field_name("name"))
                        .detail("parameter");
                    w.emit(def, ctx, None, out);
                }
            }
        }
        "property_declaration" => {
            for el in w.named_children(node).into_iter().filter(|c| c.kind() == "property_element")
            {
                let def = Def::new(w, node, K::Property, el.child_by_field_name("name"));
                let def = w.with_modifiers(def, ctx);
                w.emit(def, ctx, None, out);
            }
        }
        "const_declaration" => {
            for el in w.named_children(node).into_iter().filter(|c| c.kind() == "const_element") {
                let name = w.child_of_kind(el, "name");
                let def = Def::new(w, node, K::Constant, name);
                w.emit(def, ctx, None, out);
            }
        }
        "use_declaration" | "text_interpolation" | "php_tag" | "expression_statement" => {}
        _ => return false,
    }
    true
}
