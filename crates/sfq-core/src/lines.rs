//! Matching lines as the agent profiles report them (`searchCode`, `grep`,
//! `grepContent`): one entry per matching line with its first match, its
//! context, and long lines cut to a window around the match; plus the exact
//! count of matching lines in the file, whatever was kept.

use crate::matcher::{BudgetExceeded, Matcher};
use crate::search::{self, FileText, Hit, HitText, Mode, Span};

/// What to keep of a file's matching lines.
#[derive(Debug, Clone, Copy)]
pub struct LineQuery<'a> {
    /// The compiled pattern.
    pub matcher: &'a Matcher,
    /// Lines of context before and after each kept line.
    pub context_lines: usize,
    /// How many matching lines to keep (the rest are only counted).
    pub keep: usize,
    /// Whether the rest must be counted (`false`: stop once `keep` lines are found).
    pub count_all: bool,
    /// Lines longer than this many characters are cut to a window (0: never).
    pub max_line_length: usize,
    /// The most the kept lines may take as JSON ([`LineEntry::json_bytes`]):
    /// lines past it are only counted.
    pub keep_bytes: u64,
}

/// The innermost outline item holding a line (`withSymbols`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Symbol {
    /// The item's name (`Store.flush` is `flush` inside class `Store`: the
    /// innermost item is given, its parents are not).
    pub name: String,
    /// What it is (`class`, `method`, `function`…).
    pub kind: sfq_outline::ItemKind,
    /// First and last line, 1-based, inclusive.
    pub range: [usize; 2],
}

/// One matching line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineEntry {
    /// 1-based line number.
    pub line_number: usize,
    /// 1-based column (code points) of the line's first match.
    pub column: usize,
    /// The text of the line's first match.
    pub matched: String,
    /// The line (a window of it when it was too long).
    pub content: String,
    /// Whether `content` (or a context line) was cut.
    pub truncated: bool,
    /// Up to `context_lines` lines before.
    pub before: Vec<String>,
    /// Up to `context_lines` lines after.
    pub after: Vec<String>,
    /// The innermost outline item holding the line (see [`label`]).
    pub symbol: Option<Symbol>,
}

/// JSON around one kept line (keys, numbers, brackets), counted by
/// [`LineEntry::json_bytes`].
const ENTRY_JSON_BYTES: u64 = 100;

impl LineEntry {
    /// The bytes this line takes in a result's JSON, as `maxResultBytes`
    /// counts them: its strings' UTF-8 bytes with quotes and commas, and a
    /// fixed allowance for keys and numbers (the path is the caller's).
    pub fn json_bytes(&self) -> u64 {
        let strings =
            [&self.matched, &self.content].into_iter().chain(&self.before).chain(&self.after);
        ENTRY_JSON_BYTES + strings.map(|s| s.len() as u64 + 3).sum::<u64>()
    }
}

/// A file's matching lines.
#[derive(Debug, Clone, Default)]
pub struct FileLines {
    /// How many lines matched (all of them when counting, else at least the kept ones).
    pub count: u64,
    /// The first `keep` matching lines (fewer when they passed `keep_bytes`).
    pub entries: Vec<LineEntry>,
}

/// Searches `text` line by line; `Ok(None)` when nothing matched.
pub fn search_lines(
    text: &FileText,
    q: &LineQuery<'_>,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Result<Option<FileLines>, BudgetExceeded> {
    if q.keep == 0 && q.count_all {
        let count = search::count_lines(text, q.matcher, u64::MAX, cancelled)?;
        return Ok((count > 0).then(|| FileLines { count, entries: Vec::new() }));
    }
    let mut hits: Vec<Hit> = Vec::new();
    let mut count = 0u64;
    let mut last_line = usize::MAX;
    search::find(text, q.matcher, Mode::Lines, cancelled, &mut |hit| {
        if hit.line == last_line {
            return true;
        }
        last_line = hit.line;
        count += 1;
        if hits.len() < q.keep {
            hits.push(hit);
        }
        q.count_all || hits.len() < q.keep
    })?;
    if count == 0 {
        return Ok(None);
    }
    let mut spans: Vec<Span> = Vec::new();
    let mut bytes = 0u64;
    let entries = hits
        .iter()
        .map(|hit| {
            spans.clear();
            let (before, line) = text.context_spans(hit, q.context_lines, &mut spans);
            let content = line_string(text, line);
            let matched = match &hit.text {
                HitText::Range(a, b) => match text {
                    FileText::Utf8(s) => s[*a..*b].to_string(),
                    FileText::Utf16 { .. } => String::new(),
                },
                HitText::Js(js) => js.to_string_lossy(),
            };
            let from = hit.column - 1;
            let to = from + matched.chars().count();
            let (content, mut truncated, start) = window(&content, from, to, q.max_line_length);
            let mut cut = |span: &Span| {
                let (s, t) = window_at(&line_string(text, *span), start, q.max_line_length);
                truncated |= t;
                s
            };
            let before_lines: Vec<String> = spans[..before].iter().map(&mut cut).collect();
            let after_lines: Vec<String> = spans[before..].iter().map(&mut cut).collect();
            LineEntry {
                line_number: hit.line + 1,
                column: hit.column,
                matched,
                content,
                truncated,
                before: before_lines,
                after: after_lines,
                symbol: None,
            }
        })
        .take_while(|e| {
            bytes += e.json_bytes();
            bytes <= q.keep_bytes
        })
        .collect();
    Ok(Some(FileLines { count, entries }))
}

/// Labels `entries` (lines of the file at `path` whose text is `text`) with
/// their innermost outline items. Files no grammar covers get no labels (a
/// guess is worse than none).
pub fn label<'e>(path: &str, text: &FileText, entries: impl Iterator<Item = &'e mut LineEntry>) {
    let FileText::Utf8(s) = text else { return };
    let outline = sfq_outline::outline(path, s, &sfq_outline::OutlineOptions::default());
    if outline.approximate {
        return;
    }
    for e in entries {
        e.symbol = innermost(&outline.items, e.line_number);
    }
}

/// The innermost item of `items` (or of their children) whose range holds `line`.
fn innermost(items: &[sfq_outline::OutlineItem], line: usize) -> Option<Symbol> {
    let item = items
        .iter()
        .filter(|i| i.kind != sfq_outline::ItemKind::Import)
        .find(|i| i.range[0] <= line && line <= i.range[1])?;
    innermost(&item.children, line)
        .or_else(|| Some(Symbol { name: item.name.clone(), kind: item.kind, range: item.range }))
}

fn line_string(text: &FileText, span: Span) -> String {
    match text.line_str(span) {
        Some(s) => s.to_string(),
        None => text.line_text(span).to_string_lossy(),
    }
}

/// `line` cut to at most `max` characters around the characters
/// `from..to`, with `…` at each cut end: the cut text, whether it was cut,
/// and the character where the window starts (0 when not cut).
pub fn window(line: &str, from: usize, to: usize, max: usize) -> (String, bool, usize) {
    CharIndex::new(line).window(from, to, max)
}

/// `line`'s characters `start..start + max` (the window moved back to fit
/// when the line is shorter), with `…` at each cut end.
pub fn window_at(line: &str, start: usize, max: usize) -> (String, bool) {
    CharIndex::new(line).window_at(start, max)
}

/// Characters between two checkpoints of a [`CharIndex`].
const CHARS_PER_MARK: usize = 64;

/// A line indexed by character: made once in one pass over the line, it
/// finds a character's byte offset in O(1) in an ASCII line and in at most
/// [`CHARS_PER_MARK`] steps otherwise, so windows around many matches of
/// one long line cost the line once plus each window (not the line per
/// match).
pub struct CharIndex<'a> {
    line: &'a str,
    /// Characters in the line.
    total: usize,
    /// For a line that is not ASCII: the byte offset of every
    /// [`CHARS_PER_MARK`]th character.
    marks: Option<Vec<usize>>,
}

impl<'a> CharIndex<'a> {
    /// Indexes `line`.
    pub fn new(line: &'a str) -> CharIndex<'a> {
        if line.is_ascii() {
            return CharIndex { line, total: line.len(), marks: None };
        }
        let mut marks = Vec::with_capacity(line.len() / CHARS_PER_MARK + 1);
        let mut total = 0;
        for (i, (at, _)) in line.char_indices().enumerate() {
            if i % CHARS_PER_MARK == 0 {
                marks.push(at);
            }
            total = i + 1;
        }
        CharIndex { line, total, marks: Some(marks) }
    }

    /// Characters in the line.
    #[cfg(test)]
    pub fn chars(&self) -> usize {
        self.total
    }

    /// The byte offset of character `c` (the line's length from `total` on).
    pub fn byte_at(&self, c: usize) -> usize {
        if c >= self.total {
            return self.line.len();
        }
        match &self.marks {
            None => c,
            Some(marks) => {
                let from = marks[c / CHARS_PER_MARK];
                let skip = c % CHARS_PER_MARK;
                match self.line[from..].char_indices().nth(skip) {
                    Some((at, _)) => from + at,
                    None => self.line.len(),
                }
            }
        }
    }

    /// [`window`] of this line.
    pub fn window(&self, from: usize, to: usize, max: usize) -> (String, bool, usize) {
        let total = self.total;
        if max == 0 || total <= max {
            return (self.line.to_string(), false, 0);
        }
        let len = to.saturating_sub(from);
        let start = if len >= max { from } else { from.saturating_sub((max - len) / 2) };
        let start = start.min(total - max);
        let (s, cut) = self.window_at(start, max);
        (s, cut, start)
    }

    /// [`window_at`] of this line.
    pub fn window_at(&self, start: usize, max: usize) -> (String, bool) {
        let total = self.total;
        if max == 0 || total <= max {
            return (self.line.to_string(), false);
        }
        let start = start.min(total - max);
        let end = start + max;
        let text = &self.line[self.byte_at(start)..self.byte_at(end)];
        let mut out = String::with_capacity(text.len() + 6);
        if start > 0 {
            out.push('…');
        }
        out.push_str(text);
        if end < total {
            out.push('…');
        }
        (out, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_windowed_around_the_match() {
        let line = format!("{}needle{}", "a".repeat(1000), "b".repeat(1000));
        let (w, cut, start) = window(&line, 1000, 1006, 20);
        assert!(cut);
        assert_eq!(w, format!("…{}needle{}…", "a".repeat(7), "b".repeat(7)));
        assert_eq!(start, 993);
        assert_eq!(window("short", 0, 1, 20), ("short".to_string(), false, 0));
        assert!(!window(&line, 0, 1, 0).1);
        // At the start and end of the line, one ellipsis.
        assert_eq!(window(&line, 0, 1, 5).0, "aaaaa…");
        assert_eq!(window(&line, 2005, 2006, 5).0, "…bbbbb");
        // A match longer than the window starts it.
        assert_eq!(window(&line, 998, 1008, 4).0, "…aane…");
    }

    /// The index gives the windows that counting characters from the line's
    /// start gives, in ASCII lines and in lines with characters of 2, 3 and
    /// 4 bytes, at every start and size.
    #[test]
    fn indexed_windows_equal_counted_ones() {
        fn counted(line: &str, start: usize, max: usize) -> (String, bool) {
            let total = line.chars().count();
            if max == 0 || total <= max {
                return (line.to_string(), false);
            }
            let start = start.min(total - max);
            let mut out = String::new();
            if start > 0 {
                out.push('…');
            }
            out.extend(line.chars().skip(start).take(max));
            if start + max < total {
                out.push('…');
            }
            (out, true)
        }
        let mixed: String = (0..300).map(|i| ['a', 'é', '€', '😀', 'z'][i % 5]).collect();
        for line in ["x".repeat(200), mixed] {
            let index = CharIndex::new(&line);
            assert_eq!(index.chars(), line.chars().count());
            for max in [0, 1, 5, 63, 64, 65, 130, 1000] {
                for start in (0..=line.chars().count() + 2).step_by(7) {
                    assert_eq!(
                        index.window_at(start, max),
                        counted(&line, start, max),
                        "{start} {max}"
                    );
                }
            }
        }
    }
}
