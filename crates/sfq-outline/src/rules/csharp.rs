//! C#.

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

/// The C# rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[
        Rule::container("namespace_declaration", K::Module, "body").with_detail("namespace"),
        Rule::leaf("file_scoped_namespace_declaration", K::Module).with_detail("namespace"),
        Rule::container("class_declaration", K::Class, "body"),
        Rule::container("struct_declaration", K::Class, "body").with_detail("struct"),
        Rule::container("record_declaration", K::Class, "body").with_detail("record"),
        Rule::container("record_struct_declaration", K::Class, "body").with_detail("record"),
        Rule::container("interface_declaration", K::Interface, "body"),
        Rule::container("enum_declaration", K::Enum, "body"),
        Rule::leaf("enum_member_declaration", K::Constant),
        Rule::leaf("delegate_declaration", K::Type).with_detail("delegate"),
        Rule::callable("method_declaration", K::Function),
        Rule::callable("constructor_declaration", K::Method).with_detail("constructor"),
        Rule::callable("local_function_statement", K::Function),
    ],
    hook,
    transparent: &["declaration_list"],
    decorators: &["attribute_list"],
    modifier_lists: &[],
    leading: &[],
    strip_suffix: &[],
    modifiers: &[("abstract", "abstract"), ("static", "static"), ("async", "async")],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    match node.kind() {
        "using_directive" => {
            let target = w.named_children(node).into_iter().last();
            let def = Def::new(w, node, K::Import, target);
            w.emit(def, ctx, None, out);
        }
        "destructor_declaration" => {
            let name = node.child_by_field_name("name");
            let mut def = Def::new(w, node, K::Method, name).body(node.child_by_field_name("body"));
            def.name = format!("~{}", def.name);
            w.emit(def.detail("destructor"), ctx, None, out);
        }
        "operator_declaration" | "conversion_operator_declaration" => {
            let body = node.child_by_field_name("body");
            let mut def = Def::new(w, node, K::Method, None).body(body);
            let op = node.child_by_field_name("operator").map(|o| w.name_of(o));
            def.name = match op {
                Some(o) => format!("operator {o}"),
                None => "operator".to_string(),
            };
            let def = w.with_modifiers(def, ctx);
            w.emit(def, ctx, None, out);
        }
        "indexer_declaration" => {
            let def = Def::new(w, node, K::Property, None).named("this[]").body(
                node.child_by_field_name("accessors").or_else(|| node.child_by_field_name("value")),
            );
            w.emit(def, ctx, None, out);
        }
        "property_declaration" | "event_declaration" => {
            let name = node.child_by_field_name("name");
            let body =
                node.child_by_field_name("accessors").or_else(|| node.child_by_field_name("value"));
            let mut def = Def::new(w, node, K::Property, name).body(body);
            if node.kind() == "event_declaration" {
                def = def.detail("event");
            }
            let def = w.with_modifiers(def, ctx);
            w.emit(def, ctx, None, out);
        }
        "field_declaration" | "event_field_declaration" => {
            let is_const = {
                let mut cursor = node.walk();
                node.children(&mut cursor).any(|c| c.kind() == "modifier" && w.text(c) == "const")
            };
            let kind = if is_const { K::Constant } else { K::Field };
            let Some(var) = w.child_of_kind(node, "variable_declaration") else { return true };
            for d in w.named_children(var).into_iter().filter(|c| c.kind() == "variable_declarator")
            {
                let name =
                    d.child_by_field_name("name").or_else(|| w.child_of_kind(d, "identifier"));
                let mut def = Def::new(w, node, kind, name);
                if node.kind() == "event_field_declaration" {
                    def = def.detail("event");
                }
                let def = w.with_modifiers(def, ctx);
                w.emit(def, ctx, None, out);
            }
        }
        _ => return false,
    }
    true
}
