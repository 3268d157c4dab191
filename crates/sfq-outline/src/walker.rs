//! The table-driven tree walker shared by every language.
//!
//! A language is a [`LangSpec`]: a table of simple [`Rule`]s (node kind →
//! item kind, name field, body), a list of transparent node kinds (error
//! nodes, preprocessor blocks…) whose children are visited as if they stood
//! in their parent's place, and a [`Hook`] for the node kinds that need
//! code (declarators, wrappers such as `export`, multi-name statements).
//!
//! The walker visits the named children of a container (the root, a class
//! body, a namespace body…); it never enters function bodies, so locals never
//! become items. Items are produced in source order, a parent before its
//! children, and every item spends one unit of the item budget, so a cut
//! list keeps the first items of the file.

use std::ops::Range;

use tree_sitter::Node;

use crate::item::{ItemKind, OutlineItem};
use crate::lines::LineIndex;
use crate::options::ImportMode;
use crate::signature;

/// Recursion limit through containers and transparent nodes, whatever
/// `maxDepth` says: deeply nested error or preprocessor nodes cannot
/// exhaust the stack.
const MAX_NESTING: usize = 100;

/// Code for the node kinds a table cannot describe. Returns `true` when it
/// handled `node` (emitted items or decided to skip it).
pub(crate) type Hook =
    for<'t> fn(&mut Walker<'_>, Node<'t>, Ctx<'t>, &mut Vec<OutlineItem>) -> bool;

/// Where a definition's body is, relative to its node.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Body {
    /// No body: the signature is the whole node.
    None,
    /// The child in this field.
    Field(&'static str),
    /// The value in this field, elided only when it spans several lines
    /// (constants and variables; never entered).
    Value(&'static str),
}

/// One row of a language table: a node kind that always makes one item.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    /// The tree-sitter node kind.
    pub node: &'static str,
    /// The item kind (a `Function` inside a class-like item becomes a `Method`).
    pub kind: ItemKind,
    /// The field holding the name (`<anonymous>` when absent).
    pub name: &'static str,
    /// Where the body is (the signature stops there; members live there).
    pub body: Body,
    /// Whether the body's named children are visited for child items.
    pub members: bool,
    /// The first word of the item's detail.
    pub detail: Option<&'static str>,
}

impl Rule {
    /// A rule with a `name` field, no body, no members, no detail.
    pub(crate) const fn leaf(node: &'static str, kind: ItemKind) -> Rule {
        Rule { node, kind, name: "name", body: Body::None, members: false, detail: None }
    }

    /// A rule whose `body` field holds members.
    pub(crate) const fn container(node: &'static str, kind: ItemKind, body: &'static str) -> Rule {
        Rule { node, kind, name: "name", body: Body::Field(body), members: true, detail: None }
    }

    /// A rule whose `body` field ends the signature but is not entered.
    pub(crate) const fn callable(node: &'static str, kind: ItemKind) -> Rule {
        Rule { node, kind, name: "name", body: Body::Field("body"), members: false, detail: None }
    }

    /// The same rule with `detail` as its first detail word.
    pub(crate) const fn with_detail(mut self, detail: &'static str) -> Rule {
        self.detail = Some(detail);
        self
    }

    /// The same rule with its value elided when multi-line.
    pub(crate) const fn value(mut self, field: &'static str) -> Rule {
        self.body = Body::Value(field);
        self
    }

    /// The same rule with its name in field `field`.
    pub(crate) const fn name_field(mut self, field: &'static str) -> Rule {
        self.name = field;
        self
    }
}

/// Everything the walker needs to know about one language.
pub(crate) struct LangSpec {
    /// Simple node kinds.
    pub rules: &'static [Rule],
    /// Code for the rest; runs before the table.
    pub hook: Hook,
    /// Node kinds whose named children are visited in their place.
    pub transparent: &'static [&'static str],
    /// Child kinds skipped at the start of a signature (decorators,
    /// annotations, attributes).
    pub decorators: &'static [&'static str],
    /// Child kinds holding modifiers and annotations together (Java
    /// `modifiers`): the signature starts at their first non-decorator child.
    pub modifier_lists: &'static [&'static str],
    /// Preceding sibling kinds that belong to the next item's range (Rust
    /// `#[…]` attributes, TS member decorators).
    pub leading: &'static [&'static str],
    /// Characters stripped from the end of a signature besides `{`.
    pub strip_suffix: &'static [char],
    /// Modifier tokens and the detail word each adds (`async` → `async`,
    /// `get` → `getter`).
    pub modifiers: &'static [(&'static str, &'static str)],
}

/// Where a node is being visited.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx<'t> {
    /// The depth items emitted here get (0 = top level).
    pub depth: usize,
    /// The kind of the enclosing item, if any.
    pub parent: Option<ItemKind>,
    /// A wrapper (`export`, `template<…>`, decorators) whose range and
    /// signature start replace the definition's own.
    pub outer: Option<Node<'t>>,
}

impl<'t> Ctx<'t> {
    /// The top-level context.
    pub(crate) fn root() -> Self {
        Ctx { depth: 0, parent: None, outer: None }
    }

    /// The same context with `wrapper` as the outer node (an existing outer
    /// node, being further out, wins).
    pub(crate) fn wrapped(self, wrapper: Node<'t>) -> Self {
        Ctx { outer: self.outer.or(Some(wrapper)), ..self }
    }

    /// Whether the enclosing item is class-like (functions become methods).
    pub(crate) fn in_type(&self) -> bool {
        matches!(self.parent, Some(ItemKind::Class | ItemKind::Interface | ItemKind::Enum))
    }
}

/// A definition about to become an item.
pub(crate) struct Def<'t> {
    /// The node whose extent is the item's range (unless `Ctx::outer`).
    pub node: Node<'t>,
    /// The item kind.
    pub kind: ItemKind,
    /// The name.
    pub name: String,
    /// The node of the name, for [`OutlineItem::line`].
    pub name_node: Option<Node<'t>>,
    /// Detail words.
    pub detail: Vec<&'static str>,
    /// Where the signature stops (a body's first byte); `None`: node end.
    pub head_end: Option<usize>,
    /// Text put before the signature (Go grouped specs: `const `).
    pub sig_prefix: Option<&'static str>,
    /// An import's modules, for its block ([`ImportMode::Block`]); empty:
    /// the name is the one module.
    pub modules: Vec<String>,
}

impl<'t> Def<'t> {
    /// A definition of `node` named by `name_node`'s text.
    pub(crate) fn new(
        w: &Walker<'_>,
        node: Node<'t>,
        kind: ItemKind,
        name_node: Option<Node<'t>>,
    ) -> Self {
        let name = name_node.map(|n| w.name_of(n)).unwrap_or_default();
        Def {
            node,
            kind,
            name,
            name_node,
            detail: Vec::new(),
            head_end: None,
            sig_prefix: None,
            modules: Vec::new(),
        }
    }

    /// The same definition with its signature ending where `body` starts.
    pub(crate) fn body(mut self, body: Option<Node<'t>>) -> Self {
        self.head_end = body.map(|b| b.start_byte());
        self
    }

    /// The same definition with one more detail word.
    pub(crate) fn detail(mut self, word: &'static str) -> Self {
        if !self.detail.contains(&word) {
            self.detail.push(word);
        }
        self
    }

    /// The same definition with a replaced name.
    pub(crate) fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The same import with these modules (when it names several, or its
    /// name is not the module: Rust's `a::{b, c}` is module `a`).
    pub(crate) fn modules(mut self, modules: Vec<String>) -> Self {
        self.modules = modules;
        self
    }
}

/// The walk over one tree.
pub(crate) struct Walker<'s> {
    /// The parsed text.
    pub src: &'s str,
    lines: &'s LineIndex,
    /// The language.
    pub spec: &'static LangSpec,
    max_signature: usize,
    max_depth: usize,
    imports: ImportMode,
    remaining: usize,
    /// Set when the item budget ran out.
    pub truncated: bool,
    nesting: usize,
}

impl<'s> Walker<'s> {
    /// A walker over `src` with the given limits.
    pub(crate) fn new(
        src: &'s str,
        lines: &'s LineIndex,
        spec: &'static LangSpec,
        limits: &crate::OutlineOptions,
    ) -> Self {
        Walker {
            src,
            lines,
            spec,
            max_signature: limits.max_signature_chars(),
            max_depth: limits.max_depth(),
            imports: limits.import_mode(),
            remaining: limits.max_items(),
            truncated: false,
            nesting: 0,
        }
    }

    /// The items of the whole tree under `root`.
    pub(crate) fn outline(&mut self, root: Node<'_>) -> Vec<OutlineItem> {
        let mut out = Vec::new();
        self.visit_children(root, Ctx::root(), &mut out);
        mark_overloads(&mut out);
        if self.imports == ImportMode::Block {
            finish_blocks(&mut out);
        }
        out
    }

    /// Visits one node: hook, then table, then transparency.
    pub(crate) fn visit<'t>(&mut self, node: Node<'t>, ctx: Ctx<'t>, out: &mut Vec<OutlineItem>) {
        if self.truncated || self.nesting >= MAX_NESTING || (node.is_extra() && !node.is_error()) {
            return;
        }
        self.nesting += 1;
        let handled = (self.spec.hook)(self, node, ctx, out);
        if !handled {
            let kind = node.kind();
            if let Some(rule) = self.spec.rules.iter().find(|r| r.node == kind) {
                self.emit_rule(node, rule, ctx, out);
            } else if node.is_error() || self.spec.transparent.contains(&kind) {
                self.visit_children(node, Ctx { outer: None, ..ctx }, out);
            }
        }
        self.nesting -= 1;
    }

    /// Visits every named child of `node` in order.
    pub(crate) fn visit_children<'t>(
        &mut self,
        node: Node<'t>,
        ctx: Ctx<'t>,
        out: &mut Vec<OutlineItem>,
    ) {
        let mut cursor = node.walk();
        if !cursor.goto_first_child() {
            return;
        }
        let blocks = self.imports == ImportMode::Block;
        // The import block being built: its index in `out`.
        let mut open: Option<usize> = None;
        loop {
            let child = cursor.node();
            if child.is_named() && (!child.is_extra() || child.is_error()) {
                if self.truncated {
                    return;
                }
                let before = out.len();
                self.visit(child, ctx, out);
                if blocks {
                    open = self.join_imports(child, out, before, open);
                }
            }
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }

    /// After `child` added `out[before..]`: when those are all imports,
    /// they join the `open` block (its index in `out`), or start one, and
    /// the budget they spent beyond one item is given back; any other
    /// statement (even one that makes no item) closes the block.
    /// Attributes and decorators (`#[cfg(…)]` before a `use`) leave it open.
    /// Until [`finish_blocks`], a block holds its imports as children.
    fn join_imports(
        &mut self,
        child: Node<'_>,
        out: &mut Vec<OutlineItem>,
        before: usize,
        open: Option<usize>,
    ) -> Option<usize> {
        let added = &out[before..];
        if added.is_empty() {
            return open.filter(|_| self.spec.leading.contains(&child.kind()));
        }
        if !added.iter().all(|i| i.kind == ItemKind::Import) {
            return None;
        }
        let new: Vec<OutlineItem> = out.drain(before..).collect();
        let spent = new.len();
        let (at, refund) = match open {
            Some(at) if at < before => (at, spent),
            _ => {
                out.push(OutlineItem {
                    name: String::new(),
                    kind: ItemKind::Import,
                    range: new[0].range,
                    line: new[0].line,
                    detail: Some("block".to_string()),
                    signature: None,
                    modules: Vec::new(),
                    children: Vec::new(),
                });
                (before, spent - 1)
            }
        };
        let block = &mut out[at];
        for item in new {
            block.range[1] = block.range[1].max(item.range[1]);
            if is_block(&item) {
                block.children.extend(item.children);
            } else {
                block.children.push(item);
            }
        }
        self.remaining += refund;
        Some(at)
    }

    /// Emits the item a table rule describes, with its members.
    pub(crate) fn emit_rule<'t>(
        &mut self,
        node: Node<'t>,
        rule: &Rule,
        ctx: Ctx<'t>,
        out: &mut Vec<OutlineItem>,
    ) {
        let body = match rule.body {
            Body::None => None,
            Body::Field(f) => node.child_by_field_name(f),
            Body::Value(f) => node.child_by_field_name(f).filter(|v| self.multiline(*v)),
        };
        let name_node = node.child_by_field_name(rule.name);
        let mut def = Def::new(self, node, rule.kind, name_node).body(body);
        if let Some(d) = rule.detail {
            def = def.detail(d);
        }
        def = self.with_modifiers(def, ctx);
        let members = if rule.members { body } else { None };
        self.emit(def, ctx, members, out);
    }

    /// Emits `def` with the named children of `members` as its children.
    pub(crate) fn emit<'t>(
        &mut self,
        def: Def<'t>,
        ctx: Ctx<'t>,
        members: Option<Node<'t>>,
        out: &mut Vec<OutlineItem>,
    ) -> Option<usize> {
        let kind = def.kind;
        let mut item = self.begin(def, ctx)?;
        if let Some(body) = members {
            item.children = self.members(body, kind, ctx);
        }
        out.push(item);
        Some(out.len() - 1)
    }

    /// The child items of a container item of kind `kind` whose members are
    /// the named children of `body` (empty past the depth limit).
    pub(crate) fn members<'t>(
        &mut self,
        body: Node<'t>,
        kind: ItemKind,
        ctx: Ctx<'t>,
    ) -> Vec<OutlineItem> {
        let mut children = Vec::new();
        if let Some(child_ctx) = self.child_ctx(kind, ctx) {
            self.visit_children(body, child_ctx, &mut children);
            mark_overloads(&mut children);
        }
        children
    }

    /// The context for children of an item of kind `kind`, or `None` past
    /// the depth limit.
    pub(crate) fn child_ctx<'t>(&self, kind: ItemKind, ctx: Ctx<'t>) -> Option<Ctx<'t>> {
        (ctx.depth + 1 < self.max_depth).then_some(Ctx {
            depth: ctx.depth + 1,
            parent: Some(kind),
            outer: None,
        })
    }

    /// Turns `def` into an item (without children), spending one unit of
    /// budget; `None` when the budget is spent or imports are off. With
    /// import blocks, an import item carries its modules until
    /// [`Walker::join_imports`] puts it in a block.
    pub(crate) fn begin<'t>(&mut self, def: Def<'t>, ctx: Ctx<'t>) -> Option<OutlineItem> {
        if def.kind == ItemKind::Import && self.imports == ImportMode::None {
            return None;
        }
        if self.remaining == 0 {
            self.truncated = true;
            return None;
        }
        self.remaining -= 1;
        let kind = if def.kind == ItemKind::Function && ctx.in_type() {
            ItemKind::Method
        } else {
            def.kind
        };
        let whole = ctx.outer.unwrap_or(def.node);
        let start = self.range_start(whole);
        let end = whole.end_byte().max(def.node.end_byte());
        let range = self.lines.range_of(start, end);
        let line = def.name_node.map_or_else(
            || self.lines.line_of(def.node.start_byte()),
            |n| self.lines.line_of(n.start_byte()),
        );
        let signature = self.signature(whole, def.head_end, def.sig_prefix);
        let modules = if def.kind == ItemKind::Import && self.imports == ImportMode::Block {
            let mut modules = def.modules;
            modules.retain(|m| !m.is_empty());
            if modules.is_empty() {
                modules.push(if def.name.is_empty() {
                    "<anonymous>".into()
                } else {
                    def.name.clone()
                });
            }
            modules
        } else {
            Vec::new()
        };
        let name = if def.name.is_empty() { "<anonymous>".to_string() } else { def.name };
        Some(OutlineItem {
            name,
            kind,
            range,
            line: line.max(range[0]).min(range[1]),
            detail: (!def.detail.is_empty()).then(|| def.detail.join(" ")),
            signature,
            modules,
            children: Vec::new(),
        })
    }

    /// The first byte of `node`'s range: its own start, or that of the
    /// attributes or decorators right before it.
    fn range_start(&self, node: Node<'_>) -> usize {
        let mut start = node.start_byte();
        if self.spec.leading.is_empty() {
            return start;
        }
        let mut prev = node.prev_named_sibling();
        let mut steps = 0;
        while let Some(p) = prev {
            steps += 1;
            if steps > 64 {
                break;
            }
            if self.spec.leading.contains(&p.kind()) {
                start = p.start_byte();
            } else if !p.is_extra() {
                break;
            }
            prev = p.prev_named_sibling();
        }
        start
    }

    /// The signature of `node` up to `head_end` (see [`crate::signature`]).
    fn signature(
        &self,
        node: Node<'_>,
        head_end: Option<usize>,
        prefix: Option<&'static str>,
    ) -> Option<String> {
        if self.max_signature == 0 {
            return None;
        }
        let start = self.signature_start(node);
        let end = head_end.filter(|&e| e > start).unwrap_or(node.end_byte());
        let comments = self.comments_in(node, start..end);
        let text = signature::one_line(
            self.src,
            start..end,
            &comments,
            self.spec.strip_suffix,
            self.max_signature,
        )?;
        match prefix {
            Some(p) if !text.starts_with(p) => {
                let mut s = format!("{p}{text}");
                if s.chars().count() > self.max_signature {
                    s = signature::one_line(&s, 0..s.len(), &[], &[], self.max_signature)?;
                }
                Some(s)
            }
            _ => Some(text),
        }
    }

    /// The first byte of `node` that is not a decorator, annotation or
    /// comment.
    fn signature_start(&self, node: Node<'_>) -> usize {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            let kind = child.kind();
            if child.is_extra() || self.spec.decorators.contains(&kind) {
                continue;
            }
            if self.spec.modifier_lists.contains(&kind) {
                let mut inner = child.walk();
                let first = child
                    .children(&mut inner)
                    .find(|g| !g.is_extra() && !self.spec.decorators.contains(&g.kind()));
                match first {
                    Some(g) => return g.start_byte(),
                    None => continue,
                }
            }
            return child.start_byte();
        }
        node.start_byte()
    }

    /// Byte ranges of the comments of `node` inside `within` (at most a few
    /// hundred nodes are looked at).
    fn comments_in(&self, node: Node<'_>, within: Range<usize>) -> Vec<Range<usize>> {
        let mut found = Vec::new();
        let mut stack = vec![node];
        let mut budget = 400usize;
        while let Some(n) = stack.pop() {
            let mut cursor = n.walk();
            let children: Vec<Node<'_>> = n.children(&mut cursor).collect();
            for c in children.into_iter().rev() {
                if budget == 0 {
                    break;
                }
                budget -= 1;
                if c.end_byte() <= within.start || c.start_byte() >= within.end {
                    continue;
                }
                if c.is_extra() && c.kind().contains("comment") {
                    found.push(c.start_byte()..c.end_byte());
                } else if c.child_count() > 0 {
                    stack.push(c);
                }
            }
        }
        found.sort_by_key(|r| r.start);
        found
    }

    /// `def` plus the detail words of the modifier tokens of its node that
    /// come before its name (and of the outer wrapper).
    pub(crate) fn with_modifiers<'t>(&self, mut def: Def<'t>, ctx: Ctx<'t>) -> Def<'t> {
        if self.spec.modifiers.is_empty() {
            return def;
        }
        let until =
            def.name_node.map_or(def.head_end.unwrap_or(def.node.end_byte()), |n| n.start_byte());
        let mut words = Vec::new();
        for scope in [ctx.outer, Some(def.node)].into_iter().flatten() {
            self.modifier_words(scope, until, 0, &mut words);
        }
        for w in words {
            def = def.detail(w);
        }
        def
    }

    fn modifier_words(
        &self,
        node: Node<'_>,
        until: usize,
        depth: usize,
        words: &mut Vec<&'static str>,
    ) {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.start_byte() >= until {
                break;
            }
            if child.child_count() == 0 || !child.is_named() {
                let text = self.text(child);
                if let Some((_, w)) = self.spec.modifiers.iter().find(|(t, _)| *t == text) {
                    words.push(w);
                }
            } else if depth < 2 && child.kind().contains("modifier") {
                self.modifier_words(child, until, depth + 1, words);
            }
        }
    }

    /// The source text of `node`.
    pub(crate) fn text(&self, node: Node<'_>) -> &'s str {
        self.src.get(node.byte_range()).unwrap_or("")
    }

    /// A name from `node`'s text, on one line.
    pub(crate) fn name_of(&self, node: Node<'_>) -> String {
        signature::name_text(self.src, node.byte_range())
    }

    /// The first named child of `node` of kind `kind`.
    pub(crate) fn child_of_kind<'t>(&self, node: Node<'t>, kind: &str) -> Option<Node<'t>> {
        let mut cursor = node.walk();
        node.named_children(&mut cursor).find(|c| c.kind() == kind)
    }

    /// The named children of `node`, comments left out.
    pub(crate) fn named_children<'t>(&self, node: Node<'t>) -> Vec<Node<'t>> {
        let mut cursor = node.walk();
        node.named_children(&mut cursor).filter(|c| !c.is_extra() || c.is_error()).collect()
    }

    /// The children (named or not) of `node` in field `field`.
    pub(crate) fn field_children<'t>(&self, node: Node<'t>, field: &str) -> Vec<Node<'t>> {
        let mut cursor = node.walk();
        node.children_by_field_name(field, &mut cursor).collect()
    }

    /// Whether `node` spans more than one line.
    pub(crate) fn multiline(&self, node: Node<'_>) -> bool {
        self.text(node).contains('\n')
    }

    /// Whether the item budget ran out (an item was refused).
    pub(crate) fn exhausted(&self) -> bool {
        self.truncated
    }
}

/// Whether an import item is a JS/TS re-export (`export … from`).
fn is_re_export(item: &OutlineItem) -> bool {
    item.detail.as_deref().is_some_and(|d| d.split(' ').any(|w| w == "re-export"))
}

/// Whether an item is an import block being built ([`Walker::join_imports`]).
fn is_block(item: &OutlineItem) -> bool {
    item.kind == ItemKind::Import && item.detail.as_deref() == Some("block")
}

/// Turns each import block's imports (its children while the walk runs)
/// into its name and modules: `imports (67)`, `re-exports (3)` (detail
/// `re-export block`) or `imports (5), re-exports (2)`, counting one per
/// module an import names (Python's `import os, sys` and a Go
/// `import (…)` name several); each module once, in order.
fn finish_blocks(items: &mut [OutlineItem]) {
    for item in items {
        if !is_block(item) {
            finish_blocks(&mut item.children);
            continue;
        }
        let (mut imports, mut re_exports) = (0, 0);
        let mut seen = std::collections::HashSet::new();
        for part in std::mem::take(&mut item.children) {
            if is_re_export(&part) {
                re_exports += part.modules.len();
            } else {
                imports += part.modules.len();
            }
            for module in part.modules {
                if seen.insert(module.clone()) {
                    item.modules.push(module);
                }
            }
        }
        item.name = match (imports, re_exports) {
            (n, 0) => format!("imports ({n})"),
            (0, m) => {
                item.detail = Some("re-export block".to_string());
                format!("re-exports ({m})")
            }
            (n, m) => format!("imports ({n}), re-exports ({m})"),
        };
    }
}

/// Marks bodiless callables (detail `declaration`) followed by a sibling of
/// the same name and kind as `overload`.
pub(crate) fn mark_overloads(items: &mut [OutlineItem]) {
    for i in 0..items.len() {
        let Some(detail) = items[i].detail.as_deref() else { continue };
        if !items[i].kind.is_callable() || !detail.split(' ').any(|w| w == "declaration") {
            continue;
        }
        let (name, kind) = (&items[i].name, items[i].kind);
        if items[i + 1..].iter().any(|o| &o.name == name && o.kind == kind) {
            let new = detail
                .split(' ')
                .map(|w| if w == "declaration" { "overload" } else { w })
                .collect::<Vec<_>>();
            items[i].detail = Some(new.join(" "));
        }
    }
}
