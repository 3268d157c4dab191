//! Searching one file: load it (size cap, read, binary test, decode), then
//! run the matcher over its lines (or its whole text) and push each match to
//! a consumer. What the consumer builds from a match is not this module's
//! business; a consumer returning `false` is how limits stop a search.

use std::io::Read;
use std::path::Path;

use sfq_regex::Budget;

use crate::error::io_code;
use crate::matcher::{BudgetExceeded, Matcher, budget_for};
use crate::text::{Encoding, Lines, decode, is_binary};

/// Why a candidate file was not searched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// The binary test flagged it.
    Binary,
    /// Larger than the size cap; carries the size in bytes.
    MaxFileSizeExceeded(u64),
    /// Opening or reading failed; carries the OS code (`EACCES`, `ENOENT`, …).
    ReadError(&'static str),
    /// The regex engine's work budget ran out in this file.
    RegexBudgetExceeded,
}

/// A decoded file: its UTF-16 text and line boundaries.
#[derive(Debug, Clone)]
pub struct FileText {
    /// The JS string `buffer.toString(encoding)` gives.
    pub units: Vec<u16>,
    /// Lines as `split(/\r?\n/)` gives them.
    pub lines: Lines,
}

impl FileText {
    /// Decodes `bytes`.
    pub fn decode(bytes: &[u8], encoding: Encoding) -> FileText {
        let units = decode(bytes, encoding);
        let lines = Lines::split(&units);
        FileText { units, lines }
    }

    /// Code units of line `index` (0-based); the unlisted line after a final
    /// newline is empty.
    pub fn line(&self, index: usize) -> &[u16] {
        if index < self.lines.len() {
            let (a, b) = self.lines.span(index);
            &self.units[a..b]
        } else {
            &[]
        }
    }
}

/// Reads and decodes the file at `path` whose lstat size was `size`.
/// `Err` is the reason it is skipped.
pub fn load(
    path: &Path,
    size: u64,
    max_bytes: u64,
    encoding: Encoding,
) -> Result<FileText, SkipReason> {
    if size > max_bytes {
        return Err(SkipReason::MaxFileSizeExceeded(size));
    }
    let file = std::fs::File::open(path).map_err(|e| SkipReason::ReadError(io_code(&e)))?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // Read at most one byte past the cap: a file that grew since it was listed
    // is skipped for its size rather than read whole.
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| SkipReason::ReadError(io_code(&e)))?;
    if bytes.len() as u64 > max_bytes {
        let now = std::fs::metadata(path).map(|m| m.len()).unwrap_or(bytes.len() as u64);
        return Err(SkipReason::MaxFileSizeExceeded(now));
    }
    if is_binary(&bytes, encoding) {
        return Err(SkipReason::Binary);
    }
    Ok(FileText::decode(&bytes, encoding))
}

/// Whether the pattern runs on each line or on the whole text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Each line of `split(/\r?\n/)` on its own (seed 000's meaning).
    Lines,
    /// The whole text at once, so matches may span lines.
    Whole,
}

/// One match: the 0-based line holding its start, and its code-unit span in
/// the file's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// 0-based line index of the match start (`lines.len()` for the
    /// unlisted line after a final newline).
    pub line: usize,
    /// Start offset in the file's code units.
    pub start: usize,
    /// End offset (exclusive).
    pub end: usize,
}

impl Hit {
    /// 1-based column in code points from the start of its line.
    pub fn column(&self, text: &FileText) -> usize {
        let line_start = text.lines.start_of(self.line);
        crate::text::column(&text.units[line_start..], self.start - line_start)
    }
}

/// Runs `matcher` over `text` in `mode`, calling `sink` for each match in
/// order until it returns `false`. The whole file shares one work budget.
pub fn find(
    text: &FileText,
    matcher: &Matcher,
    mode: Mode,
    cancelled: &(dyn Fn() -> bool + Sync),
    sink: &mut dyn FnMut(Hit) -> bool,
) -> Result<(), BudgetExceeded> {
    // The engine polls `cancelled` every 64K steps, so an abort or timeout
    // also stops a long search inside one file.
    let mut budget = Budget::new(budget_for(text.units.len())).with_check(1 << 16, cancelled);
    match mode {
        Mode::Lines => {
            for (index, &(a, b)) in text.lines.spans().iter().enumerate() {
                let mut go_on = true;
                matcher.for_each_match(&text.units[a..b], &mut budget, |s, e| {
                    go_on = sink(Hit { line: index, start: a + s, end: a + e });
                    go_on
                })?;
                if !go_on {
                    break;
                }
            }
        }
        Mode::Whole => {
            matcher.for_each_match(&text.units, &mut budget, |s, e| {
                sink(Hit { line: text.lines.index_of(s), start: s, end: e })
            })?;
        }
    }
    Ok(())
}
