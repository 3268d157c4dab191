//! Lines, counted exactly as the search engine counts them: the text split
//! as JavaScript's `text.split(/\r?\n/)` splits it, without the empty string
//! after a final newline. So an empty text has 0 lines, a final newline adds
//! none, `"\r\n"` ends a line as `"\n"` does, and a lone `"\r"` (or U+2028)
//! stays inside its line.

/// The number of lines of `text` (see the module documentation).
///
/// ```
/// use sfq_outline::line_count;
/// assert_eq!(line_count(""), 0);
/// assert_eq!(line_count("a"), 1);
/// assert_eq!(line_count("a\n"), 1);
/// assert_eq!(line_count("a\r\nb"), 2);
/// assert_eq!(line_count("a\rb\r"), 1);
/// assert_eq!(line_count("\n\n"), 2);
/// ```
pub fn line_count(text: &str) -> usize {
    let newlines = text.bytes().filter(|&b| b == b'\n').count();
    newlines + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// The lines of `text` without their terminators (`"\n"`, or `"\r\n"` whose
/// `"\r"` is dropped as `split(/\r?\n/)` drops it), and without the empty
/// string after a final newline. Yields exactly [`line_count`] items.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let terminated = text.ends_with('\n');
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut parts = (!text.is_empty()).then(|| body.split('\n').peekable());
    std::iter::from_fn(move || {
        let parts = parts.as_mut()?;
        let line = parts.next()?;
        // a "\r" is dropped only where a "\n" follows it
        let ends_with_newline = parts.peek().is_some() || terminated;
        Some(if ends_with_newline { line.strip_suffix('\r').unwrap_or(line) } else { line })
    })
}

/// Maps byte offsets of one text to 1-based line numbers.
#[derive(Debug, Clone)]
pub(crate) struct LineIndex {
    /// Byte offset of every `'\n'`.
    newlines: Vec<usize>,
    total: usize,
}

impl LineIndex {
    /// Indexes `text`.
    pub(crate) fn new(text: &str) -> Self {
        let newlines: Vec<usize> =
            text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i).collect();
        let total = newlines.len() + usize::from(!text.is_empty() && !text.ends_with('\n'));
        LineIndex { newlines, total }
    }

    /// The text's line count.
    pub(crate) fn total(&self) -> usize {
        self.total
    }

    /// The 1-based line holding byte `offset` (a `'\n'` belongs to the line
    /// it ends). Offsets past the end map to the last line (at least 1).
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        let line = self.newlines.partition_point(|&nl| nl < offset) + 1;
        line.min(self.total.max(1))
    }

    /// The inclusive 1-based line range of the bytes `start..end`: the end
    /// line is the line of the last byte, so a node that ends right after a
    /// newline (C preprocessor blocks) does not spill onto the next line.
    pub(crate) fn range_of(&self, start: usize, end: usize) -> [usize; 2] {
        let first = self.line_of(start);
        let last = if end > start { self.line_of(end - 1) } else { first };
        [first, last.max(first)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transcription of `text.split(/\r?\n/)` minus the final empty string.
    fn js_split(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\r' && chars.peek() == Some(&'\n') {
                continue;
            }
            if c == '\n' {
                out.push(std::mem::take(&mut cur));
            } else {
                cur.push(c);
            }
        }
        out.push(cur);
        if out.last().is_some_and(String::is_empty) {
            out.pop();
        }
        out
    }

    #[test]
    fn counts_match_js_split() {
        let cases = [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\r",
            "\r",
            "\r\n",
            "a\rb",
            "a\n\r\n",
            "x\u{2028}y",
            "é\nü",
            "\r\r\n\n",
        ];
        for text in cases {
            let want = js_split(text);
            assert_eq!(line_count(text), want.len(), "{text:?}");
            assert_eq!(lines(text).collect::<Vec<_>>(), want, "{text:?}");
            assert_eq!(LineIndex::new(text).total(), want.len(), "{text:?}");
        }
    }

    #[test]
    fn line_of_offsets() {
        let idx = LineIndex::new("ab\ncd\r\nef");
        assert_eq!(idx.line_of(0), 1);
        assert_eq!(idx.line_of(2), 1); // the '\n' ends line 1
        assert_eq!(idx.line_of(3), 2);
        assert_eq!(idx.line_of(5), 2); // '\r'
        assert_eq!(idx.line_of(7), 3);
        assert_eq!(idx.line_of(999), 3);
        assert_eq!(idx.range_of(3, 7), [2, 2]); // "cd\r\n" ends with its newline
        assert_eq!(idx.range_of(0, 9), [1, 3]);
        assert_eq!(idx.range_of(4, 4), [2, 2]);
        assert_eq!(LineIndex::new("").line_of(0), 1);
    }
}
