//! Java.

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

/// The Java rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[
        Rule::container("class_declaration", K::Class, "body"),
        Rule::container("interface_declaration", K::Interface, "body"),
        Rule::container("enum_declaration", K::Enum, "body"),
        Rule::container("record_declaration", K::Class, "body").with_detail("record"),
        Rule::container("annotation_type_declaration", K::Interface, "body")
            .with_detail("annotation"),
        Rule::callable("method_declaration", K::Function),
        Rule::callable("constructor_declaration", K::Method).with_detail("constructor"),
        Rule::callable("compact_constructor_declaration", K::Method).with_detail("constructor"),
        Rule::leaf("annotation_type_element_declaration", K::Method),
        Rule::callable("enum_constant", K::Constant),
    ],
    hook,
    transparent: &["enum_body_declarations"],
    decorators: &["marker_annotation", "annotation"],
    modifier_lists: &["modifiers"],
    leading: &[],
    strip_suffix: &[],
    modifiers: &[("abstract", "abstract"), ("static", "static"), ("default", "default")],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    match node.kind() {
        "package_declaration" => {
            let name = w
                .named_children(node)
                .into_iter()
                .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"));
            let def = Def::new(w, node, K::Module, name).detail("package");
            w.emit(def, ctx, None, out);
        }
        "import_declaration" => {
            let mut name = String::new();
            for c in w.named_children(node) {
                match c.kind() {
                    "scoped_identifier" | "identifier" => name = w.name_of(c),
                    "asterisk" => name.push_str(".*"),
                    _ => {}
                }
            }
            let def = Def::new(w, node, K::Import, None).named(name);
            w.emit(def, ctx, None, out);
        }
        "field_declaration" | "constant_declaration" => {
            let mut kind =
                if node.kind() == "constant_declaration" { K::Constant } else { K::Field };
            let declarators = w.field_children(node, "declarator");
            if kind == K::Field && ctx.parent == Some(K::Interface) {
                kind = K::Constant;
            }
            for d in declarators {
                let name = d.child_by_field_name("name");
                let value = d.child_by_field_name("value").filter(|v| w.multiline(*v));
                let def = Def::new(w, node, kind, name).body(value);
                let def = w.with_modifiers(def, ctx);
                w.emit(def, ctx, None, out);
            }
        }
        _ => return false,
    }
    true
}
