//! Markdown: headings as nested items, following CommonMark's block rules
//! for what is and is not a heading.
//!
//! - ATX headings: up to three spaces of indentation, one to six `#`, then
//!   a space, a tab or the end of the line; the closing sequence of `#`s
//!   (preceded by a space or tab) is stripped (`## Install ##` → `Install`).
//! - Setext headings: a paragraph followed by a line of `=` (level 1) or
//!   `-` (level 2), up to three spaces of indentation, nothing else but
//!   trailing spaces. The paragraph's lines, joined by a space, are the
//!   name; the item starts at the paragraph's first line.
//! - Not headings: lines inside fenced code blocks (```` ``` ```` or `~~~`,
//!   at least three; closed by a fence of the same character at least as
//!   long; an unclosed fence runs to the end), indented code, HTML blocks
//!   (CommonMark's seven kinds: `<!-- … -->`, `<pre>…</pre>`,
//!   `<div …>` up to a blank line…), YAML (`---`) or TOML (`+++`) front
//!   matter at the top of the file, and anything inside block quotes (`>`)
//!   or list items (headings there belong to the quote or item, not to the
//!   document's structure).
//!
//! Items are `module` items with detail `h1` … `h6` (the heading level) and
//! signature `#`×level + the name, nested by level: a heading is a child of
//! the nearest heading before it with a lower level (an `###` straight
//! under a `#` is its child). A heading's range runs from its line to the
//! last non-blank line before the next heading of the same or a higher
//! level (or the end of the file); trailing blank lines are not included.
//! The name is the heading's text as written (inline markup kept), or
//! `<anonymous>` for an empty heading.

use super::{cap, clean_name, is_blank, item};
use crate::item::{ItemKind, OutlineItem};
use crate::lines::lines;

/// One heading: its level, name and first line (0-based).
#[derive(Debug)]
struct Heading {
    level: usize,
    name: String,
    line: usize,
}

/// The headings of `text`, nested, with ranges and signatures.
pub(super) fn outline(text: &str, max_signature: usize) -> Vec<OutlineItem> {
    let all: Vec<&str> = lines(text).map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let headings = headings(&all);
    nest(&headings, &all, max_signature)
}

/// Builds the tree: ranges from the heading levels, parents from a stack.
fn nest(headings: &[Heading], all: &[&str], max_signature: usize) -> Vec<OutlineItem> {
    let n = headings.len();
    // ends[j]: the 0-based line before the next heading of level <= j's.
    let mut ends = vec![all.len().saturating_sub(1); n];
    let mut open: Vec<usize> = Vec::new();
    for (k, h) in headings.iter().enumerate() {
        while let Some(&j) = open.last() {
            if h.level > headings[j].level {
                break;
            }
            ends[j] = h.line.saturating_sub(1);
            open.pop();
        }
        open.push(k);
    }
    let mut slots: Vec<Option<OutlineItem>> = Vec::with_capacity(n);
    let mut parents: Vec<Option<usize>> = Vec::with_capacity(n);
    let mut stack: Vec<usize> = Vec::new();
    for (k, h) in headings.iter().enumerate() {
        let mut end = ends[k].max(h.line);
        while end > h.line && is_blank(all[end]) {
            end -= 1;
        }
        let signature = cap(&format!("{} {}", "#".repeat(h.level), h.name), max_signature);
        slots.push(Some(item(
            h.name.clone(),
            ItemKind::Module,
            [h.line + 1, end + 1],
            Some(LEVELS[h.level - 1]),
            signature,
        )));
        while stack.last().is_some_and(|&j| headings[j].level >= h.level) {
            stack.pop();
        }
        parents.push(stack.last().copied());
        stack.push(k);
    }
    // Children come after their parent: attach from the end, so each
    // item's children are complete (in reverse) when it is moved.
    for i in (0..n).rev() {
        if let Some(item) = slots[i].as_mut() {
            item.children.reverse();
        }
        if let Some(p) = parents[i]
            && let Some(item) = slots[i].take()
            && let Some(parent) = slots[p].as_mut()
        {
            parent.children.push(item);
        }
    }
    slots.into_iter().flatten().collect()
}

const LEVELS: [&str; 6] = ["h1", "h2", "h3", "h4", "h5", "h6"];

/// An open fenced code block.
#[derive(Debug, Clone, Copy)]
struct Fence {
    ch: u8,
    len: usize,
}

/// What ends an open HTML block.
#[derive(Debug, Clone, Copy)]
enum HtmlEnd {
    /// A line containing one of these (compared case-insensitively).
    Marker(&'static [&'static str]),
    /// A blank line.
    Blank,
}

/// The open top-level paragraph: its first line and its lines' text.
struct Paragraph<'a> {
    start: usize,
    text: Vec<&'a str>,
}

/// The document-level headings, in order.
fn headings(all: &[&str]) -> Vec<Heading> {
    let mut out = Vec::new();
    let mut fence: Option<Fence> = None;
    let mut html: Option<HtmlEnd> = None;
    let mut para: Option<Paragraph<'_>> = None;
    // Container state: the content column of the open list item, whether a
    // block quote is open, and whether the container's last line was
    // paragraph text (which a lazy continuation line may continue).
    let mut list: Option<usize> = None;
    let mut quote = false;
    let mut nested_para = false;
    for (i, &line) in all.iter().enumerate().skip(front_matter(all)) {
        let (ind, rest) = indent(line);
        if let Some(f) = fence {
            if fence_close(rest, ind, f) {
                fence = None;
            }
            continue;
        }
        if let Some(end) = html {
            match end {
                HtmlEnd::Blank if is_blank(line) => html = None,
                HtmlEnd::Marker(markers) if contains_any(line, markers) => html = None,
                _ => {}
            }
            continue;
        }
        if is_blank(line) {
            para = None;
            nested_para = false;
            continue;
        }
        if let Some(content) = list {
            if ind >= content {
                let inner = ind - content;
                if inner < 4 {
                    nested_para = !interrupts_paragraph(rest, inner);
                }
                continue;
            }
            if nested_para && !interrupts_paragraph(rest, ind) {
                continue; // a lazy continuation line
            }
            list = None;
            nested_para = false;
        }
        if ind <= 3 && rest.starts_with('>') {
            para = None;
            quote = true;
            let inner = &rest[1..];
            let (inner_ind, inner_rest) = indent(inner);
            nested_para =
                !is_blank(inner) && !interrupts_paragraph(inner_rest, inner_ind.saturating_sub(1));
            continue;
        }
        if quote {
            if nested_para && !interrupts_paragraph(rest, ind) {
                continue;
            }
            quote = false;
            nested_para = false;
        }
        if ind >= 4 {
            // indented code, or a paragraph's continuation line
            if let Some(p) = para.as_mut() {
                p.text.push(rest);
            }
            continue;
        }
        if let Some(f) = fence_open(rest, ind) {
            para = None;
            fence = Some(f);
            continue;
        }
        if let Some((level, text)) = atx(rest, ind) {
            para = None;
            out.push(Heading { level, name: clean_name(text, "<anonymous>"), line: i });
            continue;
        }
        if para.is_some()
            && let Some(level) = setext(rest, ind)
            && let Some(p) = para.take()
        {
            // Link reference definitions that open a paragraph are not its
            // text: they cannot be a heading's.
            let defs = p.text.iter().take_while(|t| link_definition(t)).count();
            if defs < p.text.len() {
                let text: Vec<&str> =
                    p.text[defs..].iter().map(|t| t.trim_matches([' ', '\t'])).collect();
                let name = clean_name(&text.join(" "), "<anonymous>");
                out.push(Heading { level, name, line: p.start + defs });
            } else if !thematic_break(rest, ind) {
                para = Some(Paragraph { start: i, text: vec![rest] });
            }
            continue;
        }
        if thematic_break(rest, ind) {
            para = None;
            continue;
        }
        if let Some(item) = list_item(rest, ind)
            && (para.is_none() || item.interrupts)
        {
            para = None;
            list = Some(item.content_column);
            nested_para = !is_blank(item.content) && !interrupts_paragraph(item.content, 0);
            continue;
        }
        if let Some(end) = html_start(rest, ind, para.is_some()) {
            para = None;
            html = match end {
                HtmlEnd::Marker(markers) if contains_any(rest, markers) => None,
                end => Some(end),
            };
            continue;
        }
        match para.as_mut() {
            Some(p) => p.text.push(rest),
            None => para = Some(Paragraph { start: i, text: vec![rest] }),
        }
    }
    out
}

/// The number of lines of YAML (`---` … `---` or `...`) or TOML (`+++` …
/// `+++`) front matter at the top of the file; 0 when there is none.
fn front_matter(all: &[&str]) -> usize {
    let Some(first) = all.first() else { return 0 };
    let closers: &[&str] = match first.trim_end() {
        "---" => &["---", "..."],
        "+++" => &["+++"],
        _ => return 0,
    };
    all.iter().skip(1).position(|l| closers.contains(&l.trim_end())).map_or(0, |p| p + 2)
}

/// The indentation of `line` in columns (a tab advances to the next
/// multiple of 4) and the text after it.
fn indent(line: &str) -> (usize, &str) {
    indent_at(line, 0)
}

/// [`indent`] for text that starts at column `start`: the column where
/// its first non-blank character is, and the text from there.
fn indent_at(text: &str, start: usize) -> (usize, &str) {
    let mut col = start;
    for (i, c) in text.char_indices() {
        match c {
            ' ' => col += 1,
            '\t' => col = col / 4 * 4 + 4,
            _ => return (col, &text[i..]),
        }
    }
    (col, "")
}

fn fence_open(rest: &str, ind: usize) -> Option<Fence> {
    if ind > 3 {
        return None;
    }
    let ch = *rest.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = rest.bytes().take_while(|&b| b == ch).count();
    if len < 3 || (ch == b'`' && rest[len..].contains('`')) {
        return None;
    }
    Some(Fence { ch, len })
}

fn fence_close(rest: &str, ind: usize, fence: Fence) -> bool {
    let len = rest.bytes().take_while(|&b| b == fence.ch).count();
    ind <= 3 && len >= fence.len && rest[len..].trim_matches([' ', '\t']).is_empty()
}

/// An ATX heading: its level and raw text.
fn atx(rest: &str, ind: usize) -> Option<(usize, &str)> {
    if ind > 3 {
        return None;
    }
    let level = rest.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let after = &rest[level..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let content = after.trim_matches([' ', '\t']);
    let without_closing = content.trim_end_matches('#');
    let text = if without_closing.is_empty() {
        ""
    } else if without_closing.ends_with([' ', '\t']) {
        without_closing.trim_end_matches([' ', '\t'])
    } else {
        content
    };
    Some((level, text))
}

/// A setext underline: its heading level.
fn setext(rest: &str, ind: usize) -> Option<usize> {
    if ind > 3 {
        return None;
    }
    let t = rest.trim_end_matches([' ', '\t']);
    if t.is_empty() {
        None
    } else if t.bytes().all(|b| b == b'=') {
        Some(1)
    } else if t.bytes().all(|b| b == b'-') {
        Some(2)
    } else {
        None
    }
}

/// A one-line link reference definition: `[label]: destination "title"`.
/// (Definitions spread over several lines are read as text.)
fn link_definition(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('[') else { return false };
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'[' => return false,
            b']' => break,
            _ => i += 1,
        }
    }
    if i == 0 || i >= b.len() || is_blank(&rest[..i]) || b.get(i + 1) != Some(&b':') {
        return false;
    }
    let after = rest[i + 2..].trim_start_matches([' ', '\t']);
    let dest_len = if let Some(angle) = after.strip_prefix('<') {
        match angle.find(['>', '<']) {
            Some(p) if angle.as_bytes()[p] == b'>' => p + 2,
            _ => return false,
        }
    } else {
        let mut depth = 0i32;
        let n = after
            .bytes()
            .take_while(|&c| {
                match c {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    _ => {}
                }
                c > b' ' && depth >= 0
            })
            .count();
        if n == 0 {
            return false;
        }
        n
    };
    let tail = &after[dest_len..];
    let title = tail.trim_start_matches([' ', '\t']);
    if title.is_empty() {
        return true;
    }
    if title.len() == tail.len() {
        return false; // no space between the destination and a title
    }
    let close = match title.as_bytes()[0] {
        b'"' => b'"',
        b'\'' => b'\'',
        b'(' => b')',
        _ => return false,
    };
    title[1..].bytes().position(|c| c == close).is_some_and(|p| is_blank(&title[p + 2..]))
}

/// `***`, `- - -`, `___`: three or more of one of `*-_`, spaces between.
fn thematic_break(rest: &str, ind: usize) -> bool {
    let Some(&ch) = rest.as_bytes().first() else { return false };
    if ind > 3 || !matches!(ch, b'*' | b'-' | b'_') {
        return false;
    }
    let mut count = 0;
    for b in rest.bytes() {
        match b {
            b' ' | b'\t' => {}
            b if b == ch => count += 1,
            _ => return false,
        }
    }
    count >= 3
}

/// The start of a list item.
struct ListItem<'a> {
    /// The column where the item's content starts (lines indented this far
    /// belong to the item).
    content_column: usize,
    /// Whether it may interrupt a paragraph (not empty; ordered ones must
    /// start at 1).
    interrupts: bool,
    /// The text after the marker.
    content: &'a str,
}

fn list_item(rest: &str, ind: usize) -> Option<ListItem<'_>> {
    if ind > 3 {
        return None;
    }
    let b = rest.as_bytes();
    let (marker, starts_at_one) = if matches!(b.first(), Some(b'-' | b'+' | b'*')) {
        (1, true)
    } else {
        let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || digits > 9 || !matches!(b.get(digits), Some(b'.' | b')')) {
            return None;
        }
        (digits + 1, rest[..digits].parse::<u32>() == Ok(1))
    };
    let after = &rest[marker..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let (column, content) = indent_at(after, ind + marker);
    let spaces = column - (ind + marker);
    let blank = is_blank(content);
    let width = if blank || spaces > 4 { marker + 1 } else { marker + spaces };
    Some(ListItem { content_column: ind + width, interrupts: !blank && starts_at_one, content })
}

/// Whether a line would end a paragraph rather than continue it (lazily).
fn interrupts_paragraph(rest: &str, ind: usize) -> bool {
    ind <= 3
        && (rest.starts_with('>')
            || fence_open(rest, ind).is_some()
            || atx(rest, ind).is_some()
            || thematic_break(rest, ind)
            || list_item(rest, ind).is_some_and(|l| l.interrupts)
            || html_start(rest, ind, true).is_some())
}

const HTML_BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
];

const RAW_TAGS: [&str; 4] = ["pre", "script", "style", "textarea"];
const RAW_END: &[&str] = &["</pre>", "</script>", "</style>", "</textarea>"];

/// The start of an HTML block (CommonMark's seven conditions): what ends
/// it. The seventh kind (a lone complete tag) cannot interrupt a paragraph.
fn html_start(rest: &str, ind: usize, in_paragraph: bool) -> Option<HtmlEnd> {
    if ind > 3 || !rest.starts_with('<') {
        return None;
    }
    let lower = rest.get(..rest.len().min(12)).unwrap_or(rest).to_ascii_lowercase();
    let tag_end = |name_len: usize| {
        lower.as_bytes().get(name_len).is_none_or(|b| matches!(b, b' ' | b'\t' | b'>'))
    };
    for tag in RAW_TAGS {
        if lower[1..].starts_with(tag) && tag_end(1 + tag.len()) {
            return Some(HtmlEnd::Marker(RAW_END));
        }
    }
    if lower.starts_with("<!--") {
        return Some(HtmlEnd::Marker(&["-->"]));
    }
    if lower.starts_with("<?") {
        return Some(HtmlEnd::Marker(&["?>"]));
    }
    if lower.starts_with("<![cdata[") {
        return Some(HtmlEnd::Marker(&["]]>"]));
    }
    if lower.as_bytes().get(2).is_some_and(u8::is_ascii_alphabetic) && lower.starts_with("<!") {
        return Some(HtmlEnd::Marker(&[">"]));
    }
    let name_start = if rest.starts_with("</") { 2 } else { 1 };
    let name_len =
        rest[name_start..].bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'-').count();
    let name = rest[name_start..name_start + name_len].to_ascii_lowercase();
    let after = &rest[name_start + name_len..];
    if HTML_BLOCK_TAGS.contains(&name.as_str())
        && (after.is_empty() || after.starts_with([' ', '\t', '>']) || after.starts_with("/>"))
    {
        return Some(HtmlEnd::Blank);
    }
    if !in_paragraph && complete_tag_line(rest) {
        return Some(HtmlEnd::Blank);
    }
    None
}

/// Whether `rest` is one complete open or closing tag followed only by
/// whitespace: CommonMark's seventh HTML block kind (an open raw tag,
/// `<pre>`, is the first kind, checked before; a closing one, `</pre>`, is
/// this kind, as the reference implementations read it).
fn complete_tag_line(rest: &str) -> bool {
    let b = rest.as_bytes();
    let closing = b.get(1) == Some(&b'/');
    let mut i = if closing { 2 } else { 1 };
    if !b.get(i).is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    while b.get(i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'-') {
        i += 1;
    }
    let skip_ws = |mut i: usize| {
        while b.get(i).is_some_and(|c| matches!(c, b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    if closing {
        i = skip_ws(i);
        if b.get(i) != Some(&b'>') {
            return false;
        }
        i += 1;
    } else {
        loop {
            let after_ws = skip_ws(i);
            match b.get(after_ws) {
                Some(b'>') => {
                    i = after_ws + 1;
                    break;
                }
                Some(b'/') if b.get(after_ws + 1) == Some(&b'>') => {
                    i = after_ws + 2;
                    break;
                }
                Some(c)
                    if after_ws > i && (c.is_ascii_alphabetic() || *c == b'_' || *c == b':') =>
                {
                    i = after_ws;
                    while b.get(i).is_some_and(|c| {
                        c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'-')
                    }) {
                        i += 1;
                    }
                    let eq = skip_ws(i);
                    if b.get(eq) == Some(&b'=') {
                        let v = skip_ws(eq + 1);
                        match b.get(v) {
                            Some(&q @ (b'"' | b'\'')) => {
                                match b[v + 1..].iter().position(|&c| c == q) {
                                    Some(p) => i = v + 1 + p + 1,
                                    None => return false,
                                }
                            }
                            _ => {
                                let n = b[v..]
                                    .iter()
                                    .take_while(|c| {
                                        !matches!(
                                            c,
                                            b' ' | b'\t' | b'"' | b'\'' | b'=' | b'<' | b'>' | b'`'
                                        )
                                    })
                                    .count();
                                if n == 0 {
                                    return false;
                                }
                                i = v + n;
                            }
                        }
                    }
                }
                _ => return false,
            }
        }
    }
    is_blank(&rest[i..])
}

fn contains_any(line: &str, markers: &[&str]) -> bool {
    let lower = line.to_ascii_lowercase();
    markers.iter().any(|m| lower.contains(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heads(text: &str) -> Vec<(usize, String, usize)> {
        let all: Vec<&str> = lines(text).collect();
        headings(&all).into_iter().map(|h| (h.level, h.name, h.line + 1)).collect()
    }

    fn h(level: usize, name: &str, line: usize) -> (usize, String, usize) {
        (level, name.to_string(), line)
    }

    #[test]
    fn atx_rules() {
        let text = "# One\n##Two\n  ### Three ###\n    # code\n####### seven\n#\tTab #\n## Closing#\n### \\# escaped\n#\n";
        assert_eq!(
            heads(text),
            [
                h(1, "One", 1),
                h(3, "Three", 3),
                h(1, "Tab", 6),
                h(2, "Closing#", 7),
                h(3, "\\# escaped", 8),
                h(1, "<anonymous>", 9)
            ]
        );
    }

    #[test]
    fn setext_rules() {
        let text = "Title\n=====\n\nTwo lines\nof title\n---\n\n---\nnot a heading\n\n- item\n---\n> quoted\n---\nText\n- - -\n    code\n---\n";
        assert_eq!(heads(text), [h(1, "Title", 1), h(2, "Two lines of title", 4)]);
    }

    #[test]
    fn fences_and_html_hide_headings() {
        let text = "```sh\n# comment\n```\n~~~~\n# a\n~~~\n# still code\n~~~~\n# Real\n<!--\n# hidden\n-->\n<div align=\"center\">\n# hidden too\n\n# After div\n<img src=\"x\">\n# hidden by a lone tag\n\nText\n<span>\n# interrupts\n";
        assert_eq!(heads(text), [h(1, "Real", 9), h(1, "After div", 16), h(1, "interrupts", 22)]);
        assert_eq!(heads("```\n# unclosed\n"), []);
        assert_eq!(heads("``` a`b\n# not a fence\n"), [h(1, "not a fence", 2)]);
    }

    #[test]
    fn containers_keep_their_headings() {
        let text = "> # quoted\n> text\nlazy\n# Out\n- # in item\n  # in item too\n\n  para\n# Out two\n1. x\n\n   text\n   ---\ntext\n---\n";
        assert_eq!(heads(text), [h(1, "Out", 4), h(1, "Out two", 9), h(2, "text", 14)]);
    }

    #[test]
    fn front_matter_is_skipped() {
        assert_eq!(heads("---\ntitle: x\n---\n# A\n"), [h(1, "A", 4)]);
        assert_eq!(heads("+++\ntitle = 'x'\n+++\n# A\n"), [h(1, "A", 4)]);
        // no closing line: a thematic break, then a setext heading
        assert_eq!(heads("---\ntitle: x\n# A\n"), [h(1, "A", 3)]);
        // closed: front matter, even though `---` after text is a setext underline
        assert_eq!(heads("---\ntitle: x\n---\n"), []);
    }

    #[test]
    fn link_definitions_are_not_heading_text() {
        let text = "[a]: /url\n===\n\n[b]: <x y> 'T'\nTitle\n---\n\n[c]: /u\n---\nafter\n";
        assert_eq!(heads(text), [h(2, "Title", 5)]);
        assert!(link_definition("[a]: /url \"t\""));
        assert!(link_definition("[a\\]]: (x)"));
        assert!(!link_definition("[a]:"));
        assert!(!link_definition("[]: /u"));
        assert!(!link_definition("[a]: /u \"t\" x"));
        assert!(!link_definition("[a]: <x>\"t\""));
        assert!(!link_definition("[a]: /u 'open"));
        assert!(!link_definition("[a] : /u"));
    }

    #[test]
    fn tags() {
        assert!(complete_tag_line("<img src=\"a\" alt='b' width=3 hidden />"));
        assert!(complete_tag_line("</a>  "));
        assert!(!complete_tag_line("<a href=\"x\"><img></a>"));
        assert!(complete_tag_line("</pre>"));
        assert!(!complete_tag_line("<a href=\"x>"));
        assert!(!complete_tag_line("<1a>"));
    }
}
