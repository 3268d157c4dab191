//! TypeScript, TSX and JavaScript (with JSX): one table for the three
//! grammars, which share their node kinds.

use tree_sitter::Node;

use crate::item::{ItemKind as K, OutlineItem};
use crate::walker::{Ctx, Def, LangSpec, Rule, Walker};

/// The TypeScript/TSX/JavaScript rules.
pub(crate) static SPEC: LangSpec = LangSpec {
    rules: &[
        Rule::container("class_declaration", K::Class, "body"),
        Rule::container("abstract_class_declaration", K::Class, "body").with_detail("abstract"),
        Rule::container("interface_declaration", K::Interface, "body"),
        Rule::leaf("type_alias_declaration", K::Type),
        Rule::container("enum_declaration", K::Enum, "body"),
        Rule::callable("function_declaration", K::Function),
        Rule::callable("generator_function_declaration", K::Function).with_detail("generator"),
        Rule::leaf("function_signature", K::Function).with_detail("declaration"),
        Rule::leaf("abstract_method_signature", K::Method).with_detail("abstract"),
        Rule::leaf("property_signature", K::Property),
        Rule::container("internal_module", K::Module, "body").with_detail("namespace"),
    ],
    hook,
    transparent: &["statement_block", "else_clause"],
    decorators: &["decorator"],
    modifier_lists: &[],
    leading: &["decorator"],
    strip_suffix: &[],
    modifiers: &[
        ("async", "async"),
        ("static", "static"),
        ("get", "getter"),
        ("set", "setter"),
        ("*", "generator"),
        ("abstract", "abstract"),
    ],
};

fn hook<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) -> bool {
    if ctx.parent == Some(K::Enum) {
        enum_member(w, node, ctx, out);
        return true;
    }
    match node.kind() {
        "import_statement" => {
            let source = node.child_by_field_name("source").or_else(|| {
                w.child_of_kind(node, "import_require_clause")
                    .and_then(|c| w.child_of_kind(c, "string"))
            });
            let name = source.map(|s| unquote(w.text(s)).to_string()).unwrap_or_default();
            let def = Def::new(w, node, K::Import, source).named(name);
            w.emit(def, ctx, None, out);
        }
        "export_statement" => export(w, node, ctx, out),
        "ambient_declaration" => {
            for child in w.named_children(node) {
                if child.kind() == "statement_block" {
                    // declare global { … }
                    let def = Def::new(w, node, K::Module, None).named("global").body(Some(child));
                    w.emit(def, ctx, Some(child), out);
                } else {
                    w.visit(child, ctx.wrapped(node), out);
                }
            }
        }
        "module" => {
            let name_node = node.child_by_field_name("name");
            let name = name_node.map(|n| unquote(w.text(n)).to_string()).unwrap_or_default();
            let body = node.child_by_field_name("body");
            let def = Def::new(w, node, K::Module, name_node).named(name).body(body);
            w.emit(def, ctx, body, out);
        }
        "expression_statement" => {
            for child in w.named_children(node) {
                match child.kind() {
                    "internal_module" | "module" => w.visit(child, ctx, out),
                    "assignment_expression" => assignment(w, node, child, ctx, out),
                    "call_expression" | "unary_expression" => iife(w, child, ctx, out),
                    _ => {}
                }
            }
        }
        "lexical_declaration" | "variable_declaration" => declarators(w, node, ctx, out),
        "if_statement" => {
            for field in ["consequence", "alternative"] {
                if let Some(branch) = node.child_by_field_name(field) {
                    w.visit(branch, Ctx { outer: None, ..ctx }, out);
                }
            }
        }
        "method_definition" => method(w, node, ctx, out),
        "method_signature" => {
            let name = node.child_by_field_name("name");
            let mut def = w.with_modifiers(Def::new(w, node, K::Method, name), ctx);
            if ctx.parent == Some(K::Class) {
                def = def.detail("declaration");
            }
            w.emit(def, ctx, None, out);
        }
        "public_field_definition" | "field_definition" => field(w, node, ctx, out),
        "construct_signature" => {
            let def = Def::new(w, node, K::Method, None).named("new").detail("constructor");
            w.emit(def, ctx, None, out);
        }
        "call_signature" | "index_signature" | "class_static_block" | "decorator" => {}
        _ => return false,
    }
    true
}

/// `"x"` → `x`, for module specifiers and quoted names.
fn unquote(s: &str) -> &str {
    let t = s.trim();
    for q in ['"', '\'', '`'] {
        if let Some(inner) = t.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    t
}

fn enum_member<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) {
    let name_node = match node.kind() {
        "enum_assignment" => node.child_by_field_name("name"),
        "property_identifier" | "string" | "identifier" => Some(node),
        _ => None,
    };
    if let Some(n) = name_node {
        let name = unquote(w.text(n)).to_string();
        let def = Def::new(w, node, K::Constant, Some(n)).named(name);
        w.emit(def, ctx, None, out);
    }
}

fn export<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) {
    if let Some(decl) = node.child_by_field_name("declaration") {
        w.visit(decl, ctx.wrapped(node), out);
        return;
    }
    if let Some(source) = node.child_by_field_name("source") {
        let name = unquote(w.text(source)).to_string();
        let def = Def::new(w, node, K::Import, Some(source)).named(name).detail("re-export");
        w.emit(def, ctx, None, out);
        return;
    }
    let Some(value) = node.child_by_field_name("value") else { return };
    let ctx = ctx.wrapped(node);
    match value.kind() {
        "class" => {
            let body = value.child_by_field_name("body");
            let name_node = value.child_by_field_name("name");
            let def = Def::new(w, value, K::Class, name_node).body(body);
            let def = if name_node.is_none() { def.named("default") } else { def };
            w.emit(def, ctx, body, out);
        }
        "function_expression" | "function" | "arrow_function" | "generator_function" => {
            let name_node = value.child_by_field_name("name");
            let def = function_value(w, value, name_node);
            let def = if name_node.is_none() { def.named("default") } else { def };
            w.emit(def, ctx, None, out);
        }
        "object" => {
            let def = Def::new(w, value, K::Constant, None).named("default").body(Some(value));
            if let Some(i) = w.emit(def, ctx, None, out) {
                let children = object_members(w, value, K::Constant, ctx);
                out[i].children = children;
            }
        }
        _ => {}
    }
}

/// A function-valued expression as a definition (arrow, async, generator).
fn function_value<'t>(w: &Walker<'_>, value: Node<'t>, name_node: Option<Node<'t>>) -> Def<'t> {
    let mut def =
        Def::new(w, value, K::Function, name_node).body(value.child_by_field_name("body"));
    if value.kind() == "arrow_function" {
        def = def.detail("arrow");
    }
    let mut cursor = value.walk();
    for tok in value.children(&mut cursor).take_while(|c| !c.is_named()) {
        match w.text(tok) {
            "async" => def = def.detail("async"),
            "*" => def = def.detail("generator"),
            _ => {}
        }
    }
    def
}

fn is_function_value(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

fn declarators<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) {
    let keyword = node.child(0).map(|c| w.text(c)).unwrap_or("var");
    let plain = if keyword == "const" { K::Constant } else { K::Variable };
    let decls: Vec<Node<'t>> =
        w.named_children(node).into_iter().filter(|c| c.kind() == "variable_declarator").collect();
    let single = decls.len() == 1;
    for decl in decls {
        if w.exhausted() {
            return;
        }
        let Some(name_node) = decl.child_by_field_name("name") else { continue };
        let value = decl.child_by_field_name("value");
        if let Some(module) = value.and_then(|v| required_module(w, v)) {
            // CommonJS import: const x = require("m"), const { a } = require("m").b
            let def =
                Def::new(w, node_of(single, node, decl), K::Import, Some(name_node)).named(module);
            w.emit(def, ctx, None, out);
            continue;
        }
        let (node_for, prefix) =
            if single { (node, None) } else { (decl, Some(prefix_of(keyword))) };
        if matches!(name_node.kind(), "object_pattern" | "array_pattern") {
            for id in pattern_names(name_node) {
                let mut def = Def::new(w, node_for, plain, Some(id));
                def.sig_prefix = prefix;
                def.head_end = value.filter(|v| w.multiline(*v)).map(|v| v.start_byte());
                w.emit(def, ctx, None, out);
            }
            continue;
        }
        match value {
            Some(v) if is_function_value(v) => {
                let mut def = function_value(w, v, Some(name_node));
                def.node = node_for;
                def.sig_prefix = prefix;
                w.emit(def, ctx, None, out);
            }
            Some(v) if v.kind() == "class" => {
                let body = v.child_by_field_name("body");
                let mut def = Def::new(w, node_for, K::Class, Some(name_node)).body(body);
                def.sig_prefix = prefix;
                w.emit(def, ctx, body, out);
            }
            _ => {
                let mut def = Def::new(w, node_for, plain, Some(name_node));
                def.sig_prefix = prefix;
                def.head_end = value.filter(|v| w.multiline(*v)).map(|v| v.start_byte());
                let object = value.filter(|v| v.kind() == "object");
                if let Some(i) = w.emit(def, ctx, None, out)
                    && let Some(obj) = object
                {
                    let children = object_members(w, obj, plain, ctx);
                    out[i].children = children;
                }
            }
        }
    }
}

fn node_of<'t>(single: bool, statement: Node<'t>, declarator: Node<'t>) -> Node<'t> {
    if single { statement } else { declarator }
}

/// The module of `require("m")`, `require("m").x` or `await import("m")`.
fn required_module(w: &Walker<'_>, value: Node<'_>) -> Option<String> {
    let mut v = value;
    for _ in 0..4 {
        match v.kind() {
            "member_expression" => v = v.child_by_field_name("object")?,
            "await_expression" => v = v.named_child(0)?,
            "call_expression" => {
                let callee = v.child_by_field_name("function")?;
                if !matches!(w.text(callee), "require" | "import") {
                    return None;
                }
                let arg =
                    w.named_children(v.child_by_field_name("arguments")?).into_iter().next()?;
                return (arg.kind() == "string").then(|| unquote(w.text(arg)).to_string());
            }
            _ => return None,
        }
    }
    None
}

fn prefix_of(keyword: &str) -> &'static str {
    match keyword {
        "const" => "const ",
        "let" => "let ",
        "using" => "using ",
        _ => "var ",
    }
}

/// The identifiers bound by a destructuring pattern (at most 64).
fn pattern_names(pattern: Node<'_>) -> Vec<Node<'_>> {
    let mut names = Vec::new();
    let mut stack = vec![pattern];
    while let Some(n) = stack.pop() {
        if names.len() >= 64 {
            break;
        }
        match n.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => names.push(n),
            _ => {
                let mut cursor = n.walk();
                let kids: Vec<Node<'_>> = n.named_children(&mut cursor).collect();
                for (i, k) in kids.iter().enumerate().rev() {
                    // `{ key: value }` binds the value; `x = default` binds x
                    let field = u32::try_from(i).ok().and_then(|i| n.field_name_for_named_child(i));
                    if matches!(field, Some("key" | "right")) {
                        continue;
                    }
                    stack.push(*k);
                }
            }
        }
    }
    names.sort_by_key(|n| n.start_byte());
    names
}

/// Function-valued members of an object literal, as methods.
fn object_members<'t>(
    w: &mut Walker<'_>,
    object: Node<'t>,
    kind: K,
    ctx: Ctx<'t>,
) -> Vec<OutlineItem> {
    let mut children = Vec::new();
    let Some(child_ctx) = w.child_ctx(kind, ctx) else { return children };
    for member in w.named_children(object) {
        match member.kind() {
            "method_definition" => method(w, member, child_ctx, &mut children),
            "pair" => {
                let (Some(key), Some(value)) =
                    (member.child_by_field_name("key"), member.child_by_field_name("value"))
                else {
                    continue;
                };
                if is_function_value(value) {
                    let name = unquote(w.text(key)).to_string();
                    let mut def = function_value(w, value, Some(key)).named(name);
                    def.node = member;
                    def.kind = K::Method;
                    w.emit(def, child_ctx, None, &mut children);
                }
            }
            _ => {}
        }
    }
    children
}

fn method<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) {
    let name_node = node.child_by_field_name("name");
    let body = node.child_by_field_name("body");
    let mut def = Def::new(w, node, K::Method, name_node).body(body);
    let is_ctor = def.name == "constructor";
    if is_ctor {
        def = def.detail("constructor");
    }
    def = w.with_modifiers(def, ctx);
    w.emit(def, ctx, None, out);
    if is_ctor && let Some(b) = body {
        constructor_fields(w, b, ctx, out);
    }
    if is_ctor && let Some(params) = node.child_by_field_name("parameters") {
        // TypeScript parameter properties: constructor(private x: T)
        for p in w.named_children(params) {
            let has_modifier =
                w.named_children(p).iter().any(|c| c.kind() == "accessibility_modifier") || {
                    let mut cursor = p.walk();
                    p.children(&mut cursor)
                        .any(|c| !c.is_named() && matches!(w.text(c), "readonly" | "override"))
                };
            if has_modifier && let Some(pat) = p.child_by_field_name("pattern") {
                let def = Def::new(w, p, K::Field, Some(pat)).detail("parameter");
                w.emit(def, ctx, None, out);
            }
        }
    }
}

/// `this.x = …` statements at the top of a constructor body: fields the
/// class does not declare (first assignment of each name).
fn constructor_fields<'t>(
    w: &mut Walker<'_>,
    body: Node<'t>,
    ctx: Ctx<'t>,
    out: &mut Vec<OutlineItem>,
) {
    for stmt in w.named_children(body) {
        if stmt.kind() != "expression_statement" {
            continue;
        }
        let Some(assign) = stmt.named_child(0).filter(|a| a.kind() == "assignment_expression")
        else {
            continue;
        };
        let Some(left) =
            assign.child_by_field_name("left").filter(|l| l.kind() == "member_expression")
        else {
            continue;
        };
        if left.child_by_field_name("object").is_none_or(|o| o.kind() != "this") {
            continue;
        }
        let Some(prop) = left.child_by_field_name("property") else { continue };
        let name = w.name_of(prop);
        if out
            .iter()
            .any(|i| i.name == name && matches!(i.kind, K::Field | K::Method | K::Property))
        {
            continue;
        }
        let value = assign.child_by_field_name("right").filter(|v| w.multiline(*v));
        let def = Def::new(w, stmt, K::Field, Some(prop)).body(value);
        w.emit(def, ctx, None, out);
    }
}

fn field<'t>(w: &mut Walker<'_>, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) {
    let name_node =
        node.child_by_field_name("name").or_else(|| node.child_by_field_name("property"));
    let value = node.child_by_field_name("value");
    let def = match value {
        Some(v) if is_function_value(v) => {
            let mut def = function_value(w, v, name_node);
            def.node = node;
            def.kind = K::Method;
            def
        }
        _ => {
            let mut def = Def::new(w, node, K::Field, name_node);
            def.head_end = value.filter(|v| w.multiline(*v)).map(|v| v.start_byte());
            def
        }
    };
    let def = w.with_modifiers(def, ctx);
    w.emit(def, ctx, None, out);
}

fn assignment<'t>(
    w: &mut Walker<'_>,
    stmt: Node<'t>,
    assign: Node<'t>,
    ctx: Ctx<'t>,
    out: &mut Vec<OutlineItem>,
) {
    let (Some(left), Some(right)) =
        (assign.child_by_field_name("left"), assign.child_by_field_name("right"))
    else {
        return;
    };
    let left_text = w.name_of(left);
    let exported = left_text.starts_with("exports.") || left_text.starts_with("module.exports");
    if !is_function_value(right) && right.kind() != "class" && !exported {
        return;
    }
    let (name, name_node) = match left.kind() {
        "member_expression" if left_text == "module.exports" => (left_text.clone(), Some(left)),
        "member_expression" => match left.child_by_field_name("property") {
            Some(p) => (w.name_of(p), Some(p)),
            None => (left_text.clone(), Some(left)),
        },
        "identifier" => (left_text.clone(), Some(left)),
        _ => return,
    };
    let mut members = None;
    let mut object = None;
    let mut def = if right.kind() == "class" {
        members = right.child_by_field_name("body");
        Def::new(w, stmt, K::Class, name_node).body(members)
    } else if is_function_value(right) {
        let mut d = function_value(w, right, name_node);
        d.node = stmt;
        if left_text.contains(".prototype.") {
            d.kind = K::Method;
        }
        d
    } else {
        // exports.x = value; module.exports = { … }
        object = Some(right).filter(|r| r.kind() == "object");
        let mut d = Def::new(w, stmt, K::Variable, name_node);
        d.head_end = Some(right).filter(|r| w.multiline(*r)).map(|r| r.start_byte());
        d
    };
    def = def.named(name);
    if let Some(i) = w.emit(def, ctx, members, out)
        && let Some(obj) = object
    {
        let children = object_members(w, obj, K::Variable, ctx);
        out[i].children = children;
    }
}

/// Module-pattern wrappers: `(function(){ … })()`, `!function(){…}()`,
/// `(function(){…}).call(this)`, UMD factories and AMD `define(…, function(){…})`:
/// their bodies are visited as if at top level.
fn iife<'t>(w: &mut Walker<'_>, expr: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) {
    let call = match expr.kind() {
        "unary_expression" => match expr.child_by_field_name("argument") {
            Some(a) if a.kind() == "call_expression" => a,
            _ => return,
        },
        _ => expr,
    };
    let Some(callee) = call.child_by_field_name("function") else { return };
    let callee_fn = unwrap_function(callee).or_else(|| {
        // (function(){…}).call(this)
        (callee.kind() == "member_expression")
            .then(|| callee.child_by_field_name("object"))
            .flatten()
            .and_then(unwrap_function)
    });
    let is_define = callee.kind() == "identifier" && matches!(w.text(callee), "define" | "require");
    if callee_fn.is_none() && !is_define {
        return;
    }
    let ctx = Ctx { outer: None, ..ctx };
    if let Some(f) = callee_fn
        && let Some(body) = f.child_by_field_name("body")
        && body.kind() == "statement_block"
    {
        w.visit_children(body, ctx, out);
    }
    if let Some(args) = call.child_by_field_name("arguments") {
        for arg in w.named_children(args) {
            if let Some(f) = unwrap_function(arg)
                && let Some(body) = f.child_by_field_name("body")
                && body.kind() == "statement_block"
            {
                w.visit_children(body, ctx, out);
            }
        }
    }
}

fn unwrap_function(node: Node<'_>) -> Option<Node<'_>> {
    let mut n = node;
    for _ in 0..4 {
        if is_function_value(n) {
            return Some(n);
        }
        if n.kind() != "parenthesized_expression" {
            return None;
        }
        n = n.named_child(0)?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::unquote;

    #[test]
    fn unquotes() {
        assert_eq!(unquote("\"./x\""), "./x");
        assert_eq!(unquote("'fs'"), "fs");
        assert_eq!(unquote("Foo"), "Foo");
        assert_eq!(unquote("\""), "\"");
    }
}
