//! The approximate outline: a keyword and indentation heuristic for text
//! without a parser (unknown language, parser not compiled in, file over
//! the size cap, minified, or parse deadline passed).
//!
//! A line is an item when, after optional modifiers (`export`, `pub`,
//! `public`, `static`, `async`, …), it starts with a definition keyword
//! followed by a name and something code-like (`(`, `{`, `:`, `<`, `=`,
//! `[`, `;`, end of line, or `extends`/`implements`/`for`/`where`/…):
//!
//! | keywords | kind |
//! |---|---|
//! | `class` `struct` `record` `object` `impl` | class |
//! | `interface` `trait` `protocol` | interface |
//! | `enum` | enum |
//! | `type` `typedef` | type |
//! | `def` `fn` `func` `function` `fun` `sub` `proc` | function (method when nested in a class) |
//! | `module` `namespace` `package` `mod` | module |
//! | `const`/`let`/`var`/`val` NAME `=` a function or arrow | function |
//!
//! Its range runs to the last following line indented deeper (blank lines
//! inside included), plus a closing line at the same indentation that
//! starts with `}`, `)`, `]` or `end`. Items nest by indentation.

use crate::item::{ItemKind, OutlineItem};
use crate::lines::lines;
use crate::signature;

const MODIFIERS: &[&str] = &[
    "export",
    "default",
    "pub",
    "public",
    "private",
    "protected",
    "internal",
    "static",
    "async",
    "abstract",
    "final",
    "sealed",
    "open",
    "override",
    "declare",
    "unsafe",
    "extern",
    "inline",
    "virtual",
    "partial",
    "data",
    "inner",
    "suspend",
    "local",
    "readonly",
    "const",
];

const FOLLOW_WORDS: &[&str] = &[
    "extends",
    "implements",
    "inherits",
    "of",
    "for",
    "where",
    "is",
    "as",
    "with",
    "derives",
    "from",
];

/// One candidate line.
struct Candidate {
    line: usize,
    indent: usize,
    kind: ItemKind,
    name: String,
    text_index: usize,
}

/// The approximate items of `text`, at most `max_items` (the flag says the
/// list was cut), nested at most `max_depth` levels.
pub(crate) fn approximate(
    text: &str,
    max_items: usize,
    max_depth: usize,
    max_signature: usize,
) -> (Vec<OutlineItem>, bool) {
    let all: Vec<&str> = lines(text).collect();
    let indents: Vec<Option<usize>> = all.iter().map(|l| indent_of(l)).collect();
    let mut candidates = Vec::new();
    let mut truncated = false;
    for (i, l) in all.iter().enumerate() {
        let Some(indent) = indents[i] else { continue };
        if let Some((kind, name)) = classify(l.trim_start()) {
            if candidates.len() == max_items {
                truncated = true;
                break;
            }
            candidates.push(Candidate { line: i + 1, indent, kind, name, text_index: i });
        }
    }
    // Ranges and parents.
    let mut items: Vec<Option<OutlineItem>> = Vec::with_capacity(candidates.len());
    let mut parents: Vec<Option<usize>> = Vec::with_capacity(candidates.len());
    let mut stack: Vec<(usize, usize, usize, usize)> = Vec::new(); // (indent, end, index, depth)
    for (idx, c) in candidates.iter().enumerate() {
        let end = range_end(&all, &indents, c.text_index, c.indent);
        while stack.last().is_some_and(|&(ind, e, _, _)| e < c.line || ind >= c.indent) {
            stack.pop();
        }
        let parent = stack.last().copied();
        let depth = parent.map_or(0, |p| p.3 + 1);
        let mut kind = c.kind;
        if kind == ItemKind::Function
            && parent.and_then(|p| items[p.2].as_ref()).is_some_and(|p| {
                matches!(p.kind, ItemKind::Class | ItemKind::Interface | ItemKind::Enum)
            })
        {
            kind = ItemKind::Method;
        }
        let sig = signature::one_line(
            all[c.text_index],
            0..all[c.text_index].len(),
            &[],
            &[':'],
            max_signature,
        );
        if depth >= max_depth {
            items.push(None);
            parents.push(None);
            continue;
        }
        items.push(Some(OutlineItem {
            name: c.name.clone(),
            kind,
            range: [c.line, end],
            line: c.line,
            detail: None,
            signature: sig,
            modules: Vec::new(),
            children: Vec::new(),
        }));
        parents.push(parent.map(|p| p.2));
        stack.push((c.indent, end, idx, depth));
    }
    // Attach children to parents (parents come first, so walk backwards).
    for i in (0..items.len()).rev() {
        if let Some(item) = items[i].as_mut() {
            item.children.reverse();
        }
        if let Some(p) = parents[i]
            && let Some(item) = items[i].take()
            && let Some(parent) = items[p].as_mut()
        {
            parent.children.push(item);
        }
    }
    (items.into_iter().flatten().collect(), truncated)
}

/// The indentation of a line (a tab counts 4), or `None` for a blank line.
fn indent_of(line: &str) -> Option<usize> {
    let mut width = 0;
    for c in line.chars() {
        match c {
            ' ' => width += 1,
            '\t' => width += 4,
            c if c.is_whitespace() => width += 1,
            _ => return Some(width),
        }
    }
    None
}

/// The last line of an item starting at 0-based `start` with `indent`.
fn range_end(all: &[&str], indents: &[Option<usize>], start: usize, indent: usize) -> usize {
    let mut last = start;
    let mut j = start + 1;
    while j < all.len() {
        match indents[j] {
            None => {}
            Some(d) if d > indent => last = j,
            Some(d) => {
                let t = all[j].trim_start();
                if d == indent
                    && (t.starts_with(['}', ')', ']']) || t == "end" || t.starts_with("end "))
                {
                    last = j;
                }
                break;
            }
        }
        j += 1;
    }
    last + 1
}

/// The kind and name a line defines, if any.
fn classify(line: &str) -> Option<(ItemKind, String)> {
    if line.starts_with("//")
        || line.starts_with('#')
        || line.starts_with("/*")
        || line.starts_with('*')
    {
        return None;
    }
    let mut rest = line;
    let mut keyword = "";
    for _ in 0..8 {
        let trimmed = rest.trim_start();
        if let Some(after) = trimmed.strip_prefix("pub(") {
            // pub(crate), pub(super), pub(in path)
            rest = after.split_once(')').map_or("", |(_, r)| r);
            continue;
        }
        let (word, after) = split_ident(trimmed);
        if word.is_empty() {
            return None;
        }
        if MODIFIERS.contains(&word) && !after.trim_start().starts_with(['=', ':', '(']) {
            // `const x = () =>` keeps `const` as its keyword
            if word == "const" && looks_like_binding(after) {
                keyword = word;
                rest = after;
                break;
            }
            rest = after;
            continue;
        }
        keyword = word;
        rest = after;
        break;
    }
    let kind = match keyword {
        "class" | "struct" | "record" | "object" | "impl" => ItemKind::Class,
        "interface" | "trait" | "protocol" => ItemKind::Interface,
        "enum" => ItemKind::Enum,
        "type" | "typedef" => ItemKind::Type,
        "def" | "fn" | "func" | "function" | "fun" | "sub" | "proc" => ItemKind::Function,
        "module" | "namespace" | "package" | "mod" => ItemKind::Module,
        "const" | "let" | "var" | "val" => {
            return binding_function(rest).map(|n| (ItemKind::Function, n));
        }
        _ => return None,
    };
    let mut rest = rest.trim_start();
    if kind == ItemKind::Function {
        rest = rest.trim_start_matches('*').trim_start();
        if keyword == "func" && rest.starts_with('(') {
            // Go receiver: func (r *T) Name(
            rest = skip_parens(rest)?.trim_start();
        }
    }
    if kind == ItemKind::Class && keyword == "impl" {
        rest = rest
            .strip_prefix('<')
            .map_or(Some(rest), |r| r.split_once('>').map(|(_, a)| a))?
            .trim_start();
    }
    let (name, after) = split_name(rest);
    if name.is_empty() || !code_like(after) {
        return None;
    }
    Some((kind, name.to_string()))
}

fn looks_like_binding(after: &str) -> bool {
    binding_function(after).is_some()
}

/// `NAME = (…) =>`, `NAME = async …`, `NAME = function…`: the name.
fn binding_function(rest: &str) -> Option<String> {
    let (name, after) = split_name(rest.trim_start());
    if name.is_empty() {
        return None;
    }
    let after = after.trim_start();
    let after = after.strip_prefix(':').map_or(after, |a| a.split_once('=').map_or("", |(_, v)| v));
    let value = after.strip_prefix('=').unwrap_or(after).trim_start();
    let value = value.strip_prefix("async").map_or(value, str::trim_start);
    if value.starts_with("function")
        || (value.starts_with('(') && value.contains("=>"))
        || value.contains(" => ")
    {
        Some(name.to_string())
    } else {
        None
    }
}

/// The leading identifier of `s` and the rest.
fn split_ident(s: &str) -> (&str, &str) {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(s.len());
    (&s[..end], &s[end..])
}

fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    let end = s.find(|c: char| c.is_whitespace()).unwrap_or(s.len());
    (&s[..end], &s[end..])
}

fn split_name(s: &str) -> (&str, &str) {
    let end = s
        .char_indices()
        .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.'))
        .map_or(s.len(), |(i, _)| i);
    let mut end = end;
    if s[end..].starts_with(['?', '!']) {
        end += 1;
    }
    let name = s[..end].trim_end_matches('.');
    (name, &s[name.len()..])
}

fn skip_parens(s: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(&s[i + 1..]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether what follows a name looks like code rather than prose.
fn code_like(after: &str) -> bool {
    let t = after.trim_start();
    if t.is_empty() || t.starts_with(['(', '{', ':', '<', '=', '[', ';']) {
        return true;
    }
    let (word, _) = split_word(t);
    FOLLOW_WORDS.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(String, ItemKind, [usize; 2], usize)> {
        let (items, _) = approximate(text, 100, 6, 200);
        let mut out = Vec::new();
        fn rec(
            items: &[OutlineItem],
            depth: usize,
            out: &mut Vec<(String, ItemKind, [usize; 2], usize)>,
        ) {
            for i in items {
                out.push((i.name.clone(), i.kind, i.range, depth));
                rec(&i.children, depth + 1, out);
            }
        }
        rec(&items, 0, &mut out);
        out
    }

    #[test]
    fn braces_and_indentation() {
        let text = "export class Foo extends Bar {\n  constructor() {}\n  method(a) {\n    return a\n  }\n}\n\nfunction helper() {\n}\nconst arrow = (x) => x\n";
        let got = names(text);
        assert_eq!(got[0], ("Foo".into(), ItemKind::Class, [1, 6], 0));
        assert_eq!(got[1], ("helper".into(), ItemKind::Function, [8, 9], 0));
        assert_eq!(got[2], ("arrow".into(), ItemKind::Function, [10, 10], 0));
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn python_like_nesting() {
        let text = "class A:\n    def m(self):\n        pass\n\n    def n(self): pass\ndef top():\n    pass\n";
        let got = names(text);
        assert_eq!(got[0], ("A".into(), ItemKind::Class, [1, 5], 0));
        assert_eq!(got[1], ("m".into(), ItemKind::Method, [2, 3], 1));
        assert_eq!(got[2], ("n".into(), ItemKind::Method, [5, 5], 1));
        assert_eq!(got[3], ("top".into(), ItemKind::Function, [6, 7], 0));
    }

    #[test]
    fn other_keywords() {
        let text = "func (r *Reader) Read(p []byte) {\n}\npub(crate) struct S<T> {\n}\nimpl<T> S<T> {\n}\nmodule Foo\n  def bar?\n  end\nend\n";
        let got = names(text);
        let flat: Vec<(&str, ItemKind)> = got.iter().map(|g| (g.0.as_str(), g.1)).collect();
        assert_eq!(
            flat,
            vec![
                ("Read", ItemKind::Function),
                ("S", ItemKind::Class),
                ("S", ItemKind::Class),
                ("Foo", ItemKind::Module),
                ("bar?", ItemKind::Function),
            ]
        );
        assert_eq!(got[3].2, [7, 10]);
    }

    #[test]
    fn prose_is_not_code() {
        assert!(
            names("The class names are listed below.\nWe define the type of each field here.\n")
                .is_empty()
        );
        assert!(names("# class Foo:\n// function x() {\n").is_empty());
        assert!(names("").is_empty());
    }

    #[test]
    fn budget_and_depth() {
        let text = "fn a() {}\nfn b() {}\nfn c() {}\n";
        let (items, cut) = approximate(text, 2, 6, 200);
        assert_eq!(items.len(), 2);
        assert!(cut);
        let nested = "class A {\n  class B {\n    fn c() {}\n  }\n}\n";
        let (items, _) = approximate(nested, 10, 2, 200);
        assert_eq!(items[0].children.len(), 1);
        assert!(items[0].children[0].children.is_empty());
    }
}
