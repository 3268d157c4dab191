//! Go.

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

/// The Go rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[
        Rule::callable("function_declaration", K::Function),
        Rule::leaf("method_elem", K::Method),
    ],
    hook,
    transparent: &[],
    decorators: &[],
    modifier_lists: &[],
    leading: &[],
    strip_suffix: &[],
    modifiers: &[],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    match node.kind() {
        "package_clause" => {
            let name = w.child_of_kind(node, "package_identifier");
            let def = Def::new(w, node, K::Module, name).detail("package");
            w.emit(def, ctx, None, out);
        }
        "import_declaration" => {
            let mut paths = Vec::new();
            let mut stack = vec![node];
            while let Some(n) = stack.pop() {
                for c in w.named_children(n) {
                    match c.kind() {
                        "import_spec" => {
                            if let Some(p) = c.child_by_field_name("path") {
                                paths.push(w.text(p).trim_matches(['"', '`']).to_string());
                            }
                        }
                        "import_spec_list" if stack.len() < 4 => stack.push(c),
                        _ => {}
                    }
                }
            }
            let name = crate::signature::name_text(&paths.join(", "), 0..usize::MAX);
            let def = Def::new(w, node, K::Import, None).named(name).modules(paths);
            w.emit(def, ctx, None, out);
        }
        "method_declaration" => {
            let name_node = node.child_by_field_name("name");
            let receiver = node
                .child_by_field_name("receiver")
                .and_then(|r| w.child_of_kind(r, "parameter_declaration"))
                .and_then(|p| p.child_by_field_name("type"));
            let mut def =
                Def::new(w, node, K::Method, name_node).body(node.child_by_field_name("body"));
            if let Some(r) = receiver {
                def.name = format!("({}).{}", w.name_of(r), def.name);
            }
            w.emit(def, ctx, None, out);
        }
        "type_declaration" => {
            let specs: Vec<Node<'t>> = w
                .named_children(node)
                .into_iter()
                .filter(|c| matches!(c.kind(), "type_spec" | "type_alias"))
                .collect();
            let single = specs.len() == 1;
            for spec in specs {
                type_spec(w, if single { node } else { spec }, spec, ctx, out);
            }
        }
        "const_declaration" | "var_declaration" => {
            let (kind, prefix) = if node.kind() == "const_declaration" {
                (K::Constant, "const ")
            } else {
                (K::Variable, "var ")
            };
            let mut specs = Vec::new();
            for c in w.named_children(node) {
                match c.kind() {
                    "const_spec" | "var_spec" => specs.push(c),
                    "var_spec_list" => {
                        specs.extend(
                            w.named_children(c).into_iter().filter(|s| s.kind() == "var_spec"),
                        );
                    }
                    _ => {}
                }
            }
            let single = specs.len() == 1;
            for spec in specs {
                let value = spec.child_by_field_name("value").filter(|v| w.multiline(*v));
                for name in w.field_children(spec, "name") {
                    if !name.is_named() || w.text(name) == "_" {
                        continue;
                    }
                    let mut def =
                        Def::new(w, if single { node } else { spec }, kind, Some(name)).body(value);
                    if !single {
                        def.sig_prefix = Some(prefix);
                    }
                    w.emit(def, ctx, None, out);
                }
            }
        }
        "field_declaration" => {
            let names: Vec<Node<'t>> =
                w.field_children(node, "name").into_iter().filter(|n| n.is_named()).collect();
            if names.is_empty() {
                // embedded field: `io.Writer`, `*Base`
                let ty = node.child_by_field_name("type");
                let name = ty
                    .map(|t| w.name_of(t).trim_start_matches('*').to_string())
                    .unwrap_or_default();
                let def = Def::new(w, node, K::Field, ty).named(name).detail("embedded");
                w.emit(def, ctx, None, out);
            }
            for name in names {
                let def = Def::new(w, node, K::Field, Some(name));
                w.emit(def, ctx, None, out);
            }
        }
        "type_elem" => {}
        _ => return false,
    }
    true
}

/// One `type` spec: a struct (class with fields), an interface (with
/// methods) or any other type.
fn type_spec<'t>(
    w: &mut Walker<'_>,
    node: Node<'t>,
    spec: Node<'t>,
    ctx: Ctx<'t>,
    out: &mut Vec<OutlineItem>,
) {
    let name = spec.child_by_field_name("name");
    let ty = spec.child_by_field_name("type");
    let mut def = Def::new(w, node, K::Type, name);
    if node.id() == spec.id() {
        def.sig_prefix = Some("type ");
    }
    let mut members = None;
    match ty.map(|t| t.kind()) {
        Some("struct_type") => {
            def.kind = K::Class;
            def = def.detail("struct");
            members = ty.and_then(|t| w.child_of_kind(t, "field_declaration_list"));
            def.head_end = members.map(|m| m.start_byte());
        }
        Some("interface_type") => {
            def.kind = K::Interface;
            members = ty;
            def.head_end = ty.and_then(|t| {
                let mut cursor = t.walk();
                t.children(&mut cursor).find(|c| c.kind() == "{").map(|c| c.start_byte())
            });
        }
        _ => {
            if spec.kind() == "type_alias" {
                def = def.detail("alias");
            }
            def.head_end = ty.filter(|t| w.multiline(*t)).map(|t| t.start_byte());
        }
    }
    w.emit(def, ctx, members, out);
}
