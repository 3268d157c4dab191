//! Ruby.

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Walker};

/// The Ruby rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[],
    hook,
    transparent: &["body_statement", "singleton_class", "begin"],
    decorators: &[],
    modifier_lists: &[],
    leading: &[],
    strip_suffix: &[],
    modifiers: &[],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    match node.kind() {
        "class" | "module" => {
            let kind = if node.kind() == "class" { K::Class } else { K::Module };
            let name = node.child_by_field_name("name");
            let body = node.child_by_field_name("body");
            let head_end = body.map(|b| b.start_byte());
            let mut def = Def::new(w, node, kind, name);
            def.head_end = head_end;
            w.emit(def, ctx, body, out);
        }
        "method" | "singleton_method" => {
            let kind = if matches!(ctx.parent, Some(K::Class | K::Module)) {
                K::Method
            } else {
                K::Function
            };
            let name = node.child_by_field_name("name");
            let params = node.child_by_field_name("parameters");
            let mut def = Def::new(w, node, kind, name);
            def.head_end = match params {
                Some(p) => Some(p.end_byte()),
                None => name.map(|n| n.end_byte()),
            };
            if node.kind() == "singleton_method" {
                def = def.detail("static");
            } else if def.name == "initialize" && kind == K::Method {
                def = def.detail("constructor");
            }
            w.emit(def, ctx, None, out);
        }
        "assignment" => {
            if let Some(left) = node.child_by_field_name("left").filter(|l| l.kind() == "constant")
            {
                let value = node.child_by_field_name("right").filter(|v| w.multiline(*v));
                let def = Def::new(w, node, K::Constant, Some(left)).body(value);
                w.emit(def, ctx, None, out);
            }
        }
        "call" => {
            let Some(method) = node.child_by_field_name("method") else { return true };
            if node.child_by_field_name("receiver").is_some() {
                return true;
            }
            let args = node
                .child_by_field_name("arguments")
                .map(|a| w.named_children(a))
                .unwrap_or_default();
            match w.text(method) {
                "require" | "require_relative" | "load" | "autoload" => {
                    let target = args.iter().find(|a| a.kind() == "string").copied();
                    let name = target
                        .map(|t| w.text(t).trim_matches(['"', '\'']).to_string())
                        .unwrap_or_default();
                    let def = Def::new(w, node, K::Import, target).named(name);
                    w.emit(def, ctx, None, out);
                }
                "attr_accessor" | "attr_reader" | "attr_writer" => {
                    for a in args.into_iter().filter(|a| a.kind() == "simple_symbol") {
                        let name = w.text(a).trim_start_matches(':').to_string();
                        let def = Def::new(w, node, K::Property, Some(a)).named(name);
                        w.emit(def, ctx, None, out);
                    }
                }
                _ => {}
            }
        }
        _ => return false,
    }
    true
}
