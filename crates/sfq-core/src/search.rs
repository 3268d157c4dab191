//! Searching one file: load it (size cap, read, binary test, decode), then
//! run the matcher over its lines (or its whole text) and push each match to
//! a consumer. What the consumer builds from a match is not this module's
//! business; a consumer returning `false` is how limits stop a search.
//!
//! Text is kept as UTF-8 (what every encoding but a malformed utf16le file
//! decodes to) and lines are found on demand with `memchr` around the
//! candidates the matcher's prefilter proposes, so a file without a match
//! costs one buffer scan. A utf16le file holding a lone surrogate keeps its
//! UTF-16 code units and is searched by the exact engine alone.

use std::io::Read;
use std::path::Path;

use memchr::{memchr, memchr_iter, memrchr};

use crate::error::io_code;
use crate::jsstr::JsStr;
use crate::matcher::{BudgetExceeded, LineSearch, Matcher};
pub use crate::matcher::{LineMatch, Mode};
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

/// A decoded file: the JS string `buffer.toString(encoding)` gives.
#[derive(Debug, Clone)]
pub enum FileText {
    /// Well-formed text (every file but a utf16le one with a lone surrogate).
    Utf8(String),
    /// UTF-16 code units holding a lone surrogate, with their lines.
    Utf16 {
        /// The code units.
        units: Vec<u16>,
        /// Line boundaries.
        lines: Lines,
    },
}

impl FileText {
    /// The text in buffers of its own size, for a text that is kept: one
    /// read into a buffer sized for a first read of 64 KiB holds that much,
    /// and shrinking it in place would leave the rest of that block a hole
    /// too small for the next read's buffer (a copy frees the whole block
    /// for it).
    pub fn compact(self) -> FileText {
        match self {
            FileText::Utf8(s) if s.capacity() > s.len() => FileText::Utf8(s.as_str().to_owned()),
            FileText::Utf16 { units, lines } if units.capacity() > units.len() => {
                FileText::Utf16 { units: units.as_slice().to_vec(), lines }
            }
            other => other,
        }
    }

    /// Decodes `bytes` as Node's `Buffer#toString(encoding)` does.
    pub fn decode(bytes: Vec<u8>, encoding: Encoding) -> FileText {
        match encoding {
            Encoding::Utf8 => FileText::Utf8(if simdutf8::basic::from_utf8(&bytes).is_ok() {
                // SAFETY: `bytes` was just validated as UTF-8 (SIMD validation is
                // several times faster than `String::from_utf8`'s).
                unsafe { String::from_utf8_unchecked(bytes) }
            } else {
                String::from_utf8_lossy(&bytes).into_owned()
            }),
            Encoding::Latin1 => FileText::Utf8(bytes.iter().map(|&b| char::from(b)).collect()),
            Encoding::Ascii => {
                FileText::Utf8(bytes.iter().map(|&b| char::from(b & 0x7F)).collect())
            }
            Encoding::Utf16Le => {
                let units = decode(&bytes, encoding);
                match String::from_utf16(&units) {
                    Ok(s) => FileText::Utf8(s),
                    Err(_) => {
                        let lines = Lines::split(&units);
                        FileText::Utf16 { units, lines }
                    }
                }
            }
        }
    }

    /// A JS string's code units as a file's text: UTF-8 when they are well
    /// formed, else kept as code units with their lines.
    pub fn from_utf16(units: Vec<u16>) -> FileText {
        match String::from_utf16(&units) {
            Ok(s) => FileText::Utf8(s),
            Err(_) => {
                let lines = Lines::split(&units);
                FileText::Utf16 { units, lines }
            }
        }
    }

    /// The same text as UTF-16 code units with their lines (for the exact
    /// engine over a whole text).
    pub fn into_utf16(self) -> FileText {
        match self {
            FileText::Utf8(s) => {
                let mut units = Vec::new();
                crate::text::push_utf16(&mut units, &s);
                let lines = Lines::split(&units);
                FileText::Utf16 { units, lines }
            }
            utf16 => utf16,
        }
    }

    /// The whole text as a JS string value.
    pub fn to_js(&self) -> JsStr {
        match self {
            FileText::Utf8(s) => JsStr::Utf8(s.as_str().into()),
            FileText::Utf16 { units, .. } => JsStr::from_utf16(units),
        }
    }

    /// The lines around `hit`: up to `n` lines before it are appended to
    /// `spans` (in order), then up to `n` after it; returns how many come
    /// before and the span of the hit's own line.
    pub fn context_spans(&self, hit: &Hit, n: usize, spans: &mut Vec<Span>) -> (usize, Span) {
        let from = spans.len();
        match self {
            FileText::Utf8(text) => {
                let b = text.as_bytes();
                let mut start = hit.span.start;
                while spans.len() - from < n && start > 0 {
                    let end = start - 1; // the '\n' ending the previous line
                    let s = memrchr(b'\n', &b[..end]).map_or(0, |i| i + 1);
                    spans.push(Span { start: s, end: content_end(b, s, end), next: end + 1 });
                    start = s;
                }
                spans[from..].reverse();
                let before = spans.len() - from;
                let mut next = hit.span.next;
                while spans.len() - from - before < n && next < b.len() {
                    let end = memchr(b'\n', &b[next..]).map_or(b.len(), |i| next + i);
                    spans.push(Span { start: next, end: content_end(b, next, end), next: end + 1 });
                    next = end + 1;
                }
                (before, hit.span)
            }
            FileText::Utf16 { units, lines } => {
                let total = lines.len();
                let span_of = |i: usize| {
                    let (s, e) = lines.span(i);
                    Span { start: s, end: e, next: e }
                };
                spans.extend((hit.line.saturating_sub(n)..hit.line.min(total)).map(span_of));
                let before = spans.len() - from;
                spans.extend(((hit.line + 1)..total.min(hit.line + 1 + n)).map(span_of));
                let line = if hit.line < total {
                    span_of(hit.line)
                } else {
                    // The empty line after a final line terminator.
                    Span { start: units.len(), end: units.len(), next: units.len() }
                };
                (before, line)
            }
        }
    }

    /// The line at `span` as a borrowed string when the text is UTF-8.
    pub fn line_str(&self, span: Span) -> Option<&str> {
        match self {
            FileText::Utf8(text) => Some(&text[span.start..span.end]),
            FileText::Utf16 { .. } => None,
        }
    }

    /// The text of the line at `span` as a JS string.
    pub fn line_text(&self, span: Span) -> JsStr {
        match self {
            FileText::Utf8(text) => JsStr::Utf8(text[span.start..span.end].into()),
            FileText::Utf16 { units, .. } => JsStr::from_utf16(&units[span.start..span.end]),
        }
    }
}

/// Where a line's content ends: before the `\r` of a `\r\n` ending (a `\r`
/// not followed by `\n` stays in the line, as `split(/\r?\n/)` keeps it).
fn content_end(b: &[u8], start: usize, newline: usize) -> usize {
    if newline < b.len() && newline > start && b[newline - 1] == b'\r' {
        newline - 1
    } else {
        newline
    }
}

/// A line's content (`start..end`, its terminator excluded) and where the
/// next line starts (`next`), in the text's units (bytes or code units).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First unit of the line.
    pub start: usize,
    /// End of the line's content (before `\r\n` or `\n`).
    pub end: usize,
    /// Start of the following line (past the terminator).
    pub next: usize,
}

/// One match.
#[derive(Debug, Clone)]
pub struct Hit {
    /// 0-based index of the line holding the match start (the unlisted
    /// empty line after a final newline has index `lines`).
    pub line: usize,
    /// That line's span.
    pub span: Span,
    /// 1-based column in code points.
    pub column: usize,
    /// The matched text.
    pub text: HitText,
}

/// The matched text of a [`Hit`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HitText {
    /// A byte range of the UTF-8 text searched (nothing is copied).
    Range(usize, usize),
    /// A string of its own (UTF-16 texts, and matches that split a
    /// surrogate pair).
    Js(JsStr),
}

/// Reads and decodes the file at `path` (opened as `File::open` does, see
/// [`crate::dirfd`]). `Err` is the reason it is skipped.
///
/// A `regular` file (one the walk listed as such) is read without a `stat`:
/// one `read` of up to [`FIRST_READ`] bytes, and a read that returns fewer
/// bytes than asked is the end of the file, as it is for a regular file
/// (files are mostly small: one `stat` fewer per file is a tenth of a
/// scan's system calls); only a file that fills that first read is
/// `stat`ed, for its size. Any other path is `stat`ed first, then read to
/// its end.
pub fn load(
    path: &Path,
    max_bytes: u64,
    encoding: Encoding,
    regular: bool,
) -> Result<(FileText, u64), SkipReason> {
    let mut file = crate::dirfd::open(path).map_err(|e| SkipReason::ReadError(io_code(&e)))?;
    let read_error = |e: std::io::Error| SkipReason::ReadError(io_code(&e));
    let mut bytes = Vec::new();
    // Whether the first read of a regular file was all of it.
    let whole = if regular {
        let first = FIRST_READ.min(max_bytes.saturating_add(1));
        bytes.reserve_exact(first as usize);
        let n = read_spare_retrying(&mut file, &mut bytes).map_err(read_error)?;
        (n as u64) < first
    } else {
        false
    };
    if !whole {
        // A file that filled the first read, or not known to be regular.
        let size = file.metadata().map_err(read_error)?.len();
        if size > max_bytes {
            return Err(SkipReason::MaxFileSizeExceeded(size));
        }
        read_capped(&mut file, &mut bytes, size, max_bytes).map_err(read_error)?;
    }
    if bytes.len() as u64 > max_bytes {
        let now = std::fs::metadata(path).map(|m| m.len()).unwrap_or(bytes.len() as u64);
        return Err(SkipReason::MaxFileSizeExceeded(now));
    }
    if is_binary(&bytes, encoding) {
        return Err(SkipReason::Binary);
    }
    let size = bytes.len() as u64;
    Ok((FileText::decode(bytes, encoding), size))
}

/// How much a regular file's first read asks for.
const FIRST_READ: u64 = 64 * 1024;

/// Reads the rest of `file` into `bytes` (which holds what was read so far),
/// its size `size` when it was opened: at most one byte past `max_bytes` (a
/// file that grew since is then skipped for its size rather than read
/// whole). One `read` of what is left plus one byte usually does it: when
/// it returns exactly the bytes the file had, that short read is its end
/// (as for any regular file), with no second `read` to see the end;
/// otherwise reading goes on until the end or the cap.
fn read_capped(
    file: &mut std::fs::File,
    bytes: &mut Vec<u8>,
    size: u64,
    max_bytes: u64,
) -> std::io::Result<()> {
    let limit = max_bytes.saturating_add(1);
    let want = size.saturating_add(1).min(limit).saturating_sub(bytes.len() as u64);
    bytes.reserve_exact(usize::try_from(want).unwrap_or(usize::MAX));
    let n = read_spare_retrying(file, bytes)?;
    if n == 0 || (bytes.len() as u64 == size && (n as u64) < want) {
        return Ok(());
    }
    let rest = limit.saturating_sub(bytes.len() as u64);
    file.take(rest).read_to_end(bytes)?;
    Ok(())
}

/// [`read_spare`], again when a signal interrupted it.
fn read_spare_retrying(file: &mut std::fs::File, bytes: &mut Vec<u8>) -> std::io::Result<usize> {
    loop {
        match read_spare(file, bytes) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

/// One `read` into the spare capacity of `bytes` (no zeroing on Unix).
#[cfg(unix)]
fn read_spare(file: &mut std::fs::File, bytes: &mut Vec<u8>) -> std::io::Result<usize> {
    use std::os::fd::AsRawFd;
    let spare = bytes.spare_capacity_mut();
    if spare.is_empty() {
        return Ok(0);
    }
    // SAFETY: `read` writes at most `spare.len()` bytes into memory `bytes`
    // owns and does not alias; the length grows only by what was written.
    let n = unsafe { libc::read(file.as_raw_fd(), spare.as_mut_ptr().cast(), spare.len()) };
    if n < 0 {
        return Err(std::io::Error::last_os_error());
    }
    let n = n as usize;
    // SAFETY: the first `n` spare bytes were just initialised by `read`.
    unsafe { bytes.set_len(bytes.len() + n) };
    Ok(n)
}

/// One `read` into the spare capacity of `bytes`.
#[cfg(not(unix))]
fn read_spare(file: &mut std::fs::File, bytes: &mut Vec<u8>) -> std::io::Result<usize> {
    let len = bytes.len();
    bytes.resize(bytes.capacity(), 0);
    let n = file.read(&mut bytes[len..]);
    bytes.truncate(len + *n.as_ref().unwrap_or(&0));
    n
}

/// Runs `matcher` over `text` in `mode`, calling `sink` for each match in
/// order until it returns `false`. The whole file shares one work budget,
/// which also polls `cancelled`.
pub fn find(
    text: &FileText,
    matcher: &Matcher,
    mode: Mode,
    cancelled: &(dyn Fn() -> bool + Sync),
    sink: &mut dyn FnMut(Hit) -> bool,
) -> Result<(), BudgetExceeded> {
    let mut search = matcher.search(cancelled);
    match (text, mode) {
        (FileText::Utf8(s), Mode::Lines) => lines_utf8(s, &mut search, true, sink),
        (FileText::Utf8(s), Mode::Whole) => whole_utf8(s, &mut search, sink),
        (FileText::Utf16 { units, lines }, Mode::Lines) => {
            for (index, &(a, b)) in lines.spans().iter().enumerate() {
                let span = Span { start: a, end: b, next: b };
                let mut go_on = true;
                search.exact_utf16(&units[a..b], &mut |start, end, column| {
                    go_on = sink(Hit {
                        line: index,
                        span,
                        column,
                        text: HitText::Js(JsStr::from_utf16(&units[a + start..a + end])),
                    });
                    go_on
                })?;
                if !go_on {
                    break;
                }
            }
            Ok(())
        }
        (FileText::Utf16 { units, lines }, Mode::Whole) => {
            search.exact_utf16(units, &mut |start, end, _| {
                let line = lines.index_of(start);
                let line_start = lines.start_of(line);
                let span = if line < lines.len() {
                    let (a, b) = lines.span(line);
                    Span { start: a, end: b, next: b }
                } else {
                    Span { start: line_start, end: line_start, next: line_start }
                };
                let column = crate::text::column(&units[line_start..], start - line_start);
                let text = HitText::Js(JsStr::from_utf16(&units[start..end]));
                sink(Hit { line, span, column, text })
            })
        }
    }
}

/// The number of lines of `text` where `matcher` matches (line by line),
/// stopping past `limit` (`limit + 1` then): [`find`]'s lines without their
/// numbers, which are not counted; a literal's by a scan for it alone.
pub fn count_lines(
    text: &FileText,
    matcher: &Matcher,
    limit: u64,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> Result<u64, BudgetExceeded> {
    if let FileText::Utf8(s) = text
        && let Some(count) = matcher.count_lines(s)
    {
        return Ok(count.min(limit.saturating_add(1)));
    }
    let (mut count, mut last) = (0u64, usize::MAX);
    let mut sink = |hit: Hit| {
        if hit.span.start != last {
            last = hit.span.start;
            count += 1;
        }
        count <= limit
    };
    match text {
        FileText::Utf8(s) => lines_utf8(s, &mut matcher.search(cancelled), false, &mut sink)?,
        FileText::Utf16 { .. } => find(text, matcher, Mode::Lines, cancelled, &mut sink)?,
    }
    Ok(count)
}

/// The number of matches of `matcher` in `text` line by line (seed 000's
/// meaning: every match of each line of `split(/\r?\n/)`), counting up to
/// `cap`: the search alone, with no file read and no result built. What
/// `bench/regex.mjs` times against V8's own exec loop over the same lines.
pub fn count_matches(
    text: &FileText,
    matcher: &Matcher,
    cap: usize,
) -> Result<usize, BudgetExceeded> {
    let mut count = 0usize;
    find(text, matcher, Mode::Lines, &|| false, &mut |_| {
        count += 1;
        count < cap
    })?;
    Ok(count)
}

/// Counts code points in a UTF-8 slice.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// Line by line over UTF-8: candidates from the prefilter, lines around them.
/// When the prefilter's scan is an automaton's or the exact engine searches
/// every line (`LineSearch::dense_skips_scan`), after this many candidates
/// in a row each in the line the search was at (the prefilter skipped
/// nothing), the next [`DENSE_SPAN`] lines are searched without asking it:
/// on text where most lines may match, its scan is work on top of each
/// line's search (13 % of a back-reference search over prose, 15 % of `.+`).
/// Then it is asked again.
const DENSE_RUN: usize = 32;
/// See [`DENSE_RUN`].
const DENSE_SPAN: usize = 256;

/// `numbered`: whether hits carry their line's index (else the lines before
/// a hit are not counted and its `line` means nothing).
fn lines_utf8(
    text: &str,
    search: &mut LineSearch<'_>,
    numbered: bool,
    sink: &mut dyn FnMut(Hit) -> bool,
) -> Result<(), BudgetExceeded> {
    let b = text.as_bytes();
    // `pos` is always a line start; `line` is its 0-based index.
    let (mut pos, mut line) = (0usize, 0usize);
    // Candidates found in the very line the search was at, in a row; and
    // the lines left to take as candidates without asking (see DENSE_RUN).
    let (mut dense, mut unasked) = (0usize, 0usize);
    // Not when the candidates come from a literal scan and the fast path
    // decides lines: a line's search costs more than that scan's skip.
    let skip_scan = search.dense_skips_scan();
    while pos < b.len() {
        let candidate = if unasked > 0 {
            unasked -= 1;
            pos
        } else {
            let Some(candidate) = search.next_candidate(text, pos) else { break };
            if candidate >= b.len() && b.last() == Some(&b'\n') {
                break; // on the unlisted empty line after the final newline
            }
            let here = skip_scan && memchr(b'\n', &b[pos..candidate.min(b.len())]).is_none();
            dense = if here { dense + 1 } else { 0 };
            if dense == DENSE_RUN {
                dense = 0;
                unasked = DENSE_SPAN;
            }
            candidate
        };
        let start = memrchr(b'\n', &b[pos..candidate.min(b.len())]).map_or(pos, |i| pos + i + 1);
        if numbered {
            line += memchr_iter(b'\n', &b[pos..start]).count();
        }
        let newline = memchr(b'\n', &b[start..]).map_or(b.len(), |i| start + i);
        let span = Span { start, end: content_end(b, start, newline), next: newline + 1 };
        let content = &text[span.start..span.end];
        let mut go_on = true;
        let (mut col_at, mut col) = (0usize, 1usize);
        search.line_matches(content, &mut |m| {
            let (column, matched) = match m {
                LineMatch::Utf8 { start, end } => {
                    col += chars_in(&content.as_bytes()[col_at..start]);
                    col_at = start;
                    (col, HitText::Range(span.start + start, span.start + end))
                }
                LineMatch::Utf16 { column, text } => (column, HitText::Js(text)),
            };
            go_on = sink(Hit { line, span, column, text: matched });
            go_on
        })?;
        if !go_on {
            break;
        }
        line += 1;
        pos = span.next;
    }
    Ok(())
}

/// The whole UTF-8 text as one string, on the fast path (the caller has
/// converted texts the fast path cannot decide to UTF-16).
fn whole_utf8(
    text: &str,
    search: &mut LineSearch<'_>,
    sink: &mut dyn FnMut(Hit) -> bool,
) -> Result<(), BudgetExceeded> {
    let b = text.as_bytes();
    // Line bookkeeping, advanced monotonically as matches come in order.
    let (mut line, mut line_start, mut counted_to) = (0usize, 0usize, 0usize);
    search.whole_matches(text, &mut |start, end| {
        for i in memchr_iter(b'\n', &b[counted_to..start]) {
            line += 1;
            line_start = counted_to + i + 1;
        }
        counted_to = start;
        let newline = memchr(b'\n', &b[line_start..]).map_or(b.len(), |i| line_start + i);
        let span =
            Span { start: line_start, end: content_end(b, line_start, newline), next: newline + 1 };
        let column = chars_in(&b[line_start..start]) + 1;
        sink(Hit { line, span, column, text: HitText::Range(start, end) })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(r: Result<(FileText, u64), SkipReason>) -> (String, u64) {
        match r {
            Ok((FileText::Utf8(s), size)) => (s, size),
            other => panic!("expected UTF-8 text, got {other:?}"),
        }
    }

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    /// Every match of each line (as V8's global exec loop over
    /// `split(/\r?\n/)` counts them), up to the cap, in well-formed text and
    /// in text with a lone surrogate.
    #[test]
    fn count_matches_counts_every_match_of_each_line_up_to_the_cap() {
        let m = |p: &str, f: &str| Matcher::new(&units(p), f, Mode::Lines).unwrap();
        let prose = FileText::from_utf16(units("the the cat\r\nis is here\nno\n"));
        assert!(matches!(prose, FileText::Utf8(_)));
        assert_eq!(count_matches(&prose, &m(r"\b(\w+)\s+\1\b", ""), 100), Ok(2));
        assert_eq!(count_matches(&prose, &m(r"\w+", ""), 100), Ok(7));
        assert_eq!(count_matches(&prose, &m(r"\w+", ""), 3), Ok(3));
        // `$` with `m` matches at the end of each line, never across one.
        assert_eq!(count_matches(&prose, &m(r"e$", "m"), 100), Ok(1));
        // An empty match advances by one code unit, by a code point with `u`.
        let mut lone = units("a\u{1F600}b");
        lone.push(0xD83D);
        let lone = FileText::from_utf16(lone);
        assert!(matches!(lone, FileText::Utf16 { .. }));
        assert_eq!(count_matches(&lone, &m("", ""), 100), Ok(6));
        assert_eq!(count_matches(&lone, &m("", "u"), 100), Ok(5));
    }

    /// Matching lines counted, by the literal scan and by the line search
    /// alike: each line once, stopping past the limit.
    #[test]
    fn count_lines_counts_each_matching_line_once_up_to_past_the_limit() {
        let text = FileText::from_utf16(units("ab ab\nx\nAB\r\nab\n"));
        for (p, f, all) in [("ab", "", 2), ("ab", "i", 3), ("a[b]", "i", 3), ("a(?=b)", "", 2)] {
            let m = Matcher::new(&units(p), f, Mode::Lines).unwrap();
            assert_eq!(count_lines(&text, &m, u64::MAX, &|| false), Ok(all), "/{p}/{f}");
            assert_eq!(count_lines(&text, &m, 1, &|| false), Ok(2), "/{p}/{f} past 1");
            assert_eq!(count_lines(&text, &m, 0, &|| false), Ok(1), "/{p}/{f} past 0");
        }
    }

    /// Lines searched without the prefilter after a dense run (DENSE_RUN,
    /// DENSE_SPAN) give the hits the exact engine gives on every line: text
    /// with dense stretches, sparse ones, and matches in and around both.
    #[test]
    fn dense_stretches_find_every_hit_the_exact_engine_finds() {
        let mut lines = Vec::new();
        for i in 0..2000 {
            lines.push(match (i / 300) % 2 {
                0 if i % 7 == 0 => format!("w{i} w{i} end"),
                0 => "a b a c".to_string(),
                _ if i % 97 == 0 => format!("dup{i} dup{i}"),
                _ => "x-y-z".to_string(),
            });
        }
        let text = format!("{}\n", lines.join("\n"));
        let hits = |t: &FileText, m: &Matcher| {
            let mut out = Vec::new();
            find(t, m, Mode::Lines, &|| false, &mut |h| {
                out.push((h.line, h.column));
                true
            })
            .unwrap();
            out
        };
        // Exact-engine patterns, and fast-path ones whose candidates come from an
        // automaton (no literals).
        for p in [r"\b(\w+)\s+\1\b", r"(?<=\s)\w+\b", r"\w+\b", r".{3,}"] {
            let m = Matcher::new(&units(p), "", Mode::Lines).unwrap();
            let utf8 = FileText::Utf8(text.clone());
            let got = hits(&utf8, &m);
            let want = hits(&utf8.clone().into_utf16(), &m);
            assert!(got.len() > 100, "{p}: {}", got.len());
            assert_eq!(got, want, "{p}");
        }
    }

    #[test]
    fn load_reads_whole_files_up_to_the_cap_and_skips_past_it() {
        let dir = std::env::temp_dir().join(format!("sfq-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let _scope = crate::dirfd::Scope::enter();
        // Around the first read of a regular file (64 KiB) and the cap.
        let lens = [0usize, 1, 4096, 65_535, 65_536, 65_537, 100_000, 200_000];
        for (len, regular) in lens.iter().flat_map(|&l| [(l, true), (l, false)]) {
            let path = dir.join(format!("f{len}"));
            let body: String = (0..len).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            std::fs::write(&path, &body).unwrap();
            for cap in [len as u64, len as u64 + 1, 1 << 20] {
                let got = text(load(&path, cap, Encoding::Utf8, regular));
                assert_eq!(got, (body.clone(), len as u64), "{len} {regular} {cap}");
            }
            for cap in [0, len as u64 / 2, (len as u64).saturating_sub(1)] {
                if len as u64 > cap {
                    assert!(
                        matches!(
                            load(&path, cap, Encoding::Utf8, regular),
                            Err(SkipReason::MaxFileSizeExceeded(n)) if n == len as u64
                        ),
                        "{len} {regular} {cap}"
                    );
                }
            }
        }
        // Not a regular file: a FIFO's size is 0 yet it has bytes, and
        // reading goes on to its end (over several writes: short reads).
        #[cfg(unix)]
        {
            let fifo = dir.join("fifo");
            let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
            // SAFETY: a NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            let writer = {
                let fifo = fifo.clone();
                std::thread::spawn(move || {
                    use std::io::Write;
                    let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
                    for part in ["abc\n", "def\n", "ghi"] {
                        f.write_all(part.as_bytes()).unwrap();
                        f.flush().unwrap();
                        std::thread::sleep(std::time::Duration::from_millis(20));
                    }
                })
            };
            assert_eq!(text(load(&fifo, 100, Encoding::Utf8, false)).0, "abc\ndef\nghi");
            writer.join().unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
