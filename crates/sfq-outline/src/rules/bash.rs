//! Bash and POSIX shell.

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

/// The Bash rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[Rule::callable("function_definition", K::Function)],
    hook,
    transparent: &["if_statement", "elif_clause", "else_clause"],
    decorators: &[],
    modifier_lists: &[],
    leading: &[],
    strip_suffix: &[],
    modifiers: &[],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    if node.kind() != "command" {
        return false;
    }
    let Some(name) = node.child_by_field_name("name") else { return true };
    if matches!(w.text(name), "source" | ".")
        && let Some(arg) = w.field_children(node, "argument").into_iter().next()
    {
        let target = w.text(arg).trim_matches(['"', '\'']).to_string();
        let def = Def::new(w, node, K::Import, Some(arg)).named(target);
        w.emit(def, ctx, None, out);
    }
    true
}
