//! Python.

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

/// The Python rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[Rule::container("class_definition", K::Class, "body")],
    hook,
    // module- and class-level `if TYPE_CHECKING:`, `try: import …`, `with …:`
    transparent: &[
        "block",
        "else_clause",
        "elif_clause",
        "except_clause",
        "except_group_clause",
        "finally_clause",
        "with_statement",
    ],
    decorators: &["decorator"],
    modifier_lists: &[],
    leading: &[],
    strip_suffix: &[':'],
    modifiers: &[],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    match node.kind() {
        "function_definition" => function(w, node, ctx, &[], out),
        "decorated_definition" => {
            let Some(def) = node.child_by_field_name("definition") else { return true };
            let decorators: Vec<String> = w
                .named_children(node)
                .into_iter()
                .filter(|c| c.kind() == "decorator")
                .map(|d| w.text(d).trim_start_matches('@').trim().to_string())
                .collect();
            let ctx = ctx.wrapped(node);
            if def.kind() == "function_definition" {
                function(w, def, ctx, &decorators, out);
            } else {
                w.visit(def, ctx, out);
            }
        }
        "if_statement" | "try_statement" => {
            for child in w.named_children(node) {
                match child.kind() {
                    "block"
                    | "else_clause"
                    | "elif_clause"
                    | "except_clause"
                    | "except_group_clause"
                    | "finally_clause" => w.visit(child, Ctx { outer: None, ..ctx }, out),
                    _ => {}
                }
            }
        }
        "expression_statement" => {
            for child in w.named_children(node) {
                if child.kind() == "assignment" {
                    assignment(w, node, child, ctx, out);
                }
            }
        }
        "type_alias_statement" => {
            let name = node.child_by_field_name("left");
            let def = Def::new(w, node, K::Type, name);
            w.emit(def, ctx, None, out);
        }
        "import_statement" | "import_from_statement" | "future_import_statement" => {
            let modules: Vec<String> = match node.child_by_field_name("module_name") {
                Some(m) => vec![w.name_of(m)],
                None if node.kind() == "future_import_statement" => vec!["__future__".to_string()],
                None => w
                    .field_children(node, "name")
                    .into_iter()
                    .map(|n| match n.child_by_field_name("name") {
                        Some(inner) => w.name_of(inner),
                        None => w.name_of(n),
                    })
                    .collect(),
            };
            let def = Def::new(w, node, K::Import, None).named(modules.join(", ")).modules(modules);
            w.emit(def, ctx, None, out);
        }
        _ => return false,
    }
    true
}

fn function<'t>(
    w: &mut Walker<'_>,
    node: Node<'t>,
    ctx: Ctx<'t>,
    decorators: &[String],
    out: &mut Vec<OutlineItem>,
) {
    let name = node.child_by_field_name("name");
    let body = node.child_by_field_name("body");
    let mut def = Def::new(w, node, K::Function, name).body(body);
    if ctx.in_type() && def.name == "__init__" {
        def = def.detail("constructor");
    }
    for d in decorators {
        let base = d.split('(').next().unwrap_or("");
        let last = base.rsplit('.').next().unwrap_or("");
        def = match (base, last) {
            ("property" | "functools.cached_property" | "cached_property", _) => {
                def.detail("property")
            }
            (_, "setter") => def.detail("setter"),
            (_, "getter") => def.detail("getter"),
            (_, "deleter") => def.detail("deleter"),
            ("staticmethod", _) => def.detail("staticmethod"),
            ("classmethod", _) => def.detail("classmethod"),
            (_, "abstractmethod") => def.detail("abstract"),
            (_, "overload") => def.detail("overload"),
            _ => def,
        };
    }
    let mut cursor = node.walk();
    if node.children(&mut cursor).any(|c| !c.is_named() && c.kind() == "async") {
        def = def.detail("async");
    }
    w.emit(def, ctx, None, out);
}

/// `x = …`, `x: T = …`, `x: T`, `a, b = …`, `a = b = …`: each target name.
fn assignment<'t>(
    w: &mut Walker<'_>,
    stmt: Node<'t>,
    assign: Node<'t>,
    ctx: Ctx<'t>,
    out: &mut Vec<OutlineItem>,
) {
    let kind = if ctx.in_type() { K::Field } else { K::Variable };
    let mut targets = Vec::new();
    let mut cur = Some(assign);
    let mut value = None;
    let mut hops = 0;
    while let Some(a) = cur.filter(|a| a.kind() == "assignment") {
        hops += 1;
        if hops > 32 {
            break;
        }
        if let Some(left) = a.child_by_field_name("left") {
            collect_targets(left, &mut targets, 0);
        }
        value = a.child_by_field_name("right");
        cur = value;
    }
    let head_end = value.filter(|v| w.multiline(*v)).map(|v| v.start_byte());
    for t in targets {
        let mut def = Def::new(w, stmt, kind, Some(t));
        def.head_end = head_end;
        w.emit(def, ctx, None, out);
    }
}

fn collect_targets<'t>(left: Node<'t>, targets: &mut Vec<Node<'t>>, depth: usize) {
    if depth > 8 {
        return;
    }
    match left.kind() {
        "identifier" => targets.push(left),
        "pattern_list" | "tuple_pattern" | "list_pattern" => {
            let mut cursor = left.walk();
            for c in left.named_children(&mut cursor) {
                if targets.len() < 64 {
                    collect_targets(c, targets, depth + 1);
                }
            }
        }
        _ => {}
    }
}
