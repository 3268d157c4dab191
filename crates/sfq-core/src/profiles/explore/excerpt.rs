//! Matching lines and the snippets around them.

use super::*;

/// The first hit of each matching line of `text` (at most `limit` lines;
/// the flag says whether more were left).
pub fn line_hits(
    text: &FileText,
    matcher: &Matcher,
    limit: u64,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> std::result::Result<(Vec<Hit>, bool), BudgetExceeded> {
    let mut hits: Vec<Hit> = Vec::new();
    let mut more = false;
    search::find(text, matcher, Mode::Lines, cancelled, &mut |hit| {
        if hits.last().is_some_and(|h| h.line == hit.line) {
            return true;
        }
        if hits.len() as u64 >= limit {
            more = true;
            return false;
        }
        hits.push(hit);
        true
    })?;
    Ok((hits, more))
}

/// A line of a snippet.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ShownLine {
    /// 1-based line number.
    pub line: usize,
    /// The text (a window of it when it is long, with `…` at the cuts).
    pub text: String,
    /// Whether the line matches.
    #[serde(rename = "match")]
    pub is_match: bool,
}

impl ShownLine {
    /// The line as printed: `  40: text` for a match, `  39- text` for context.
    pub fn printed(&self) -> String {
        format!("  {}{} {}", self.line, if self.is_match { ':' } else { '-' }, self.text)
    }
}

/// The lines of a file, by number, for snippets.
pub struct LineTable<'a> {
    text: &'a FileText,
    spans: Vec<(usize, usize)>,
}

impl<'a> LineTable<'a> {
    /// The line spans of `text` (lines end at `\n`; a `\r` before it is not
    /// part of the line), as the search numbers them.
    pub fn new(text: &'a FileText) -> LineTable<'a> {
        let spans = match text {
            FileText::Utf8(s) => {
                let b = s.as_bytes();
                let mut spans = Vec::new();
                let mut start = 0;
                for i in memchr::memchr_iter(b'\n', b) {
                    let end = if i > start && b[i - 1] == b'\r' { i - 1 } else { i };
                    spans.push((start, end));
                    start = i + 1;
                }
                if start < b.len() {
                    spans.push((start, b.len()));
                }
                spans
            }
            FileText::Utf16 { lines, .. } => lines.spans().to_vec(),
        };
        LineTable { text, spans }
    }

    /// How many lines the file has.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Line `i` (0-based).
    pub fn get(&self, i: usize) -> String {
        let Some(&(a, b)) = self.spans.get(i) else { return String::new() };
        match self.text {
            FileText::Utf8(s) => s[a..b].to_string(),
            FileText::Utf16 { units, .. } => String::from_utf16_lossy(&units[a..b]),
        }
    }

    /// Lines `from..=to` (0-based, clamped to the file) around `anchor`:
    /// matching lines (those of `hits`) are windowed around their own match,
    /// the others around where the anchor's window starts.
    pub fn excerpt(
        &self,
        from: usize,
        to: usize,
        hits: &[Hit],
        anchor: &Hit,
        max_chars: usize,
    ) -> Vec<ShownLine> {
        let last = to.min(self.len().saturating_sub(1).max(anchor.line));
        shown_lines(
            self.text,
            (from..=last).map(|i| (i, self.get(i))).collect(),
            hits,
            anchor,
            max_chars,
        )
    }
}

/// `anchor`'s line with `context` lines on each side, found from the hit
/// itself (no line table of the whole file); marked and windowed as
/// [`LineTable::excerpt`].
pub fn excerpt_around(
    text: &FileText,
    hits: &[Hit],
    anchor: &Hit,
    context: usize,
    max_chars: usize,
) -> Vec<ShownLine> {
    let mut spans = Vec::new();
    let (before, own) = text.context_spans(anchor, context, &mut spans);
    spans.insert(before, own);
    let first = anchor.line - before;
    let line = |span| match text.line_str(span) {
        Some(s) => s.to_string(),
        None => text.line_text(span).to_string_lossy(),
    };
    let lines = spans.into_iter().enumerate().map(|(k, span)| (first + k, line(span))).collect();
    shown_lines(text, lines, hits, anchor, max_chars)
}

/// Lines `(index, text)` as shown: matching ones (in `hits`) windowed around
/// their own match, the others around where `anchor`'s window starts.
fn shown_lines(
    text: &FileText,
    lines: Vec<(usize, String)>,
    hits: &[Hit],
    anchor: &Hit,
    max_chars: usize,
) -> Vec<ShownLine> {
    let matched_chars = |hit: &Hit| match &hit.text {
        search::HitText::Range(a, b) => match text {
            FileText::Utf8(s) => s[*a..*b].chars().count(),
            FileText::Utf16 { .. } => 0,
        },
        search::HitText::Js(js) => js.to_string_lossy().chars().count(),
    };
    let window = |hit: &Hit, line: &str| {
        let from = hit.column - 1;
        crate::lines::window(line, from, from + matched_chars(hit), max_chars)
    };
    let start =
        lines.iter().find(|(i, _)| *i == anchor.line).map_or(0, |(_, l)| window(anchor, l).2);
    lines
        .into_iter()
        .map(|(i, l)| match hits.binary_search_by_key(&i, |h| h.line) {
            Ok(k) => ShownLine { line: i + 1, text: window(&hits[k], &l).0, is_match: true },
            Err(_) => ShownLine {
                line: i + 1,
                text: crate::lines::window_at(&l, start, max_chars).0,
                is_match: false,
            },
        })
        .collect()
}
