//! The JavaScript regex as search uses it: `new RegExp(pattern, flags)` run
//! as a global `exec` loop (the `String.prototype.matchAll` iteration), with
//! a work budget so that a catastrophic pattern ends a file instead of
//! hanging the process.
//!
//! Two engines: the ECMAScript-exact backtracking engine (`sfq-regex`, over
//! UTF-16) decides everything it is asked; the fast path (a translation to
//! the `regex` crate, when one is provably identical) finds candidates in a
//! whole buffer and decides the lines it is sure about.

use sfq_fast::{Cache, FastRegex, Scope};
use std::time::{Duration, Instant};

use sfq_regex::{Budget, Regex};

use crate::error::{Error, ErrorCode, Result};
use crate::jsstr::JsStr;

/// Whether the pattern runs on each line or on the whole text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Each line of `split(/\r?\n/)` on its own (seed 000's meaning).
    Lines,
    /// The whole text at once, so matches may span lines.
    Whole,
}

/// A match in a line, as the matcher reports it.
pub enum LineMatch {
    /// Byte offsets into the line (both on character boundaries).
    Utf8 {
        /// Start byte.
        start: usize,
        /// End byte.
        end: usize,
    },
    /// A match the exact engine found that splits a surrogate pair.
    Utf16 {
        /// 1-based code-point column.
        column: usize,
        /// The matched text.
        text: JsStr,
    },
}

/// A compiled search pattern.
#[derive(Debug)]
pub struct Matcher {
    regex: Regex,
    /// The fast path for the search mode.
    fast: FastRegex,
    /// `u` or `v`: a zero-length match advances by a code point, not a code unit.
    full_unicode: bool,
    /// Scratch space of finished searches, reused by the next ones (a file
    /// search would otherwise build the fast path's caches anew). Boxed:
    /// a cache is large, and it moves in and out of the pool for every file.
    #[allow(clippy::vec_box)] // the box is what moves, not the cache
    caches: std::sync::Mutex<Vec<Box<Cache>>>,
    /// The backtracking engine's time per file (`regexTimeoutMs`).
    timeout: Duration,
    /// What a session's trigram index looks for (made at its first use).
    needles: std::sync::OnceLock<Option<crate::session::grams::Needles>>,
}

/// The work budget ran out while searching (the file is reported as
/// `regexBudgetExceeded`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded;

/// How long the backtracking engine may work on one file by default: a
/// pattern V8 finishes in a second is never skipped, and a catastrophic one
/// ends the file (`regexBudgetExceeded`) instead of hanging the search.
pub const DEFAULT_REGEX_TIMEOUT: Duration = Duration::from_millis(1000);

impl Matcher {
    /// Compiles `pattern` with `flags` as `new RegExp(pattern, flags)` for a
    /// search in `mode`; the sticky flag is refused because a search cannot
    /// honour it.
    pub fn new(pattern: &[u16], flags: &str, mode: Mode) -> Result<Matcher> {
        let regex = Regex::new(pattern, flags)
            .map_err(|e| Error::new(ErrorCode::InvalidRegex, e.to_string()))?;
        let f = regex.flags();
        if f.sticky {
            return Err(Error::new(
                ErrorCode::InvalidRegex,
                format!(
                    "The 'y' (sticky) flag is not supported for search (flags '{flags}'); remove it"
                ),
            ));
        }
        let scope = match mode {
            Mode::Lines => Scope::Lines,
            Mode::Whole => Scope::Whole,
        };
        let fast = FastRegex::new(regex.ast(), scope);
        Ok(Matcher {
            regex,
            fast,
            full_unicode: f.unicode || f.unicode_sets,
            caches: std::sync::Mutex::new(Vec::new()),
            timeout: DEFAULT_REGEX_TIMEOUT,
            needles: std::sync::OnceLock::new(),
        })
    }

    /// The same matcher with `timeout` of backtracking per file (`regexTimeoutMs`).
    pub fn with_timeout(mut self, timeout: Option<u64>) -> Matcher {
        if let Some(ms) = timeout {
            self.timeout = Duration::from_millis(ms);
        }
        self
    }

    /// A search over one file, with that file's time budget.
    pub fn search<'a>(&'a self, cancelled: &'a (dyn Fn() -> bool + Sync)) -> LineSearch<'a> {
        // The engine polls `cancelled` every 64K steps, so an abort or
        // timeout also stops a long search inside one file.
        LineSearch {
            matcher: self,
            budget: Budget::unlimited()
                .with_check(1 << 16, cancelled)
                .with_deadline(Instant::now() + self.timeout),
            cache: Some(
                self.caches
                    .lock()
                    .ok()
                    .and_then(|mut c| c.pop())
                    .unwrap_or_else(|| Box::new(self.fast.create_cache())),
            ),
            units: Vec::new(),
        }
    }

    /// Literals one of which every match contains (as the fast path's
    /// superset knows them), and the guards of texts where that may not
    /// hold (see [`sfq_fast::FastRegex::required_literals`]).
    pub fn required_literals(&self) -> Option<(&[Vec<u8>], sfq_fast::Guards)> {
        Some((self.fast.required_literals()?, self.fast.forced_guards()))
    }

    /// [`Matcher::required_literals`] as a session's trigram index asks.
    pub fn needles(&self) -> Option<&crate::session::grams::Needles> {
        self.needles.get_or_init(|| crate::session::grams::Needles::of(self)).as_ref()
    }

    /// How many lines of `text` (a whole file, Lines mode) hold a match,
    /// when a literal scan can tell without searching each line (see
    /// [`sfq_fast::FastRegex::count_lines`]); `None` otherwise.
    pub fn count_lines(&self, text: &str) -> Option<u64> {
        self.fast.count_lines(text)
    }

    /// Whether a whole text must be searched by the exact engine (in UTF-16).
    pub fn whole_needs_exact(&self, text: &str) -> bool {
        self.fast.needs_exact(text)
    }
}

/// One file's search: the matcher, the file's work budget and the fast
/// path's scratch space.
pub struct LineSearch<'a> {
    matcher: &'a Matcher,
    budget: Budget<'a>,
    /// Always `Some` until the search is dropped (then it goes back to the
    /// matcher's pool).
    cache: Option<Box<Cache>>,
    /// The current line in UTF-16 for the exact engine (reused).
    units: Vec<u16>,
}

/// A line buffer longer than this (in code units) is not kept for the next line.
const KEEP_UNITS: usize = 1 << 16;

impl Drop for LineSearch<'_> {
    fn drop(&mut self) {
        if let (Some(cache), Ok(mut pool)) = (self.cache.take(), self.matcher.caches.lock()) {
            pool.push(cache);
        }
    }
}

impl LineSearch<'_> {
    fn cache(&mut self) -> &mut Cache {
        let fast = &self.matcher.fast;
        self.cache.get_or_insert_with(|| Box::new(fast.create_cache()))
    }

    /// The byte offset of the next place at or after `from` (a line start)
    /// where a match may start; lines before it hold no match.
    pub fn next_candidate(&mut self, text: &str, from: usize) -> Option<usize> {
        if from >= text.len() {
            return None;
        }
        self.matcher.fast.next_candidate_with(self.cache(), text, from)
    }

    /// Whether the candidate scan is work to skip where most lines hold a
    /// candidate: every line goes to the exact engine (the fast path has no
    /// exact translation of the pattern, only a prefilter), or the scan runs
    /// an automaton over every byte (no literals to look for).
    pub fn dense_skips_scan(&self) -> bool {
        let fast = &self.matcher.fast;
        !fast.is_exact() || !fast.finds_literals()
    }

    /// Every match in one line (a JS string of its own), in order: on the
    /// fast path when it is exact for this line, else on the exact engine.
    pub fn line_matches(
        &mut self,
        line: &str,
        f: &mut dyn FnMut(LineMatch) -> bool,
    ) -> std::result::Result<(), BudgetExceeded> {
        let fast = &self.matcher.fast;
        if !fast.needs_exact(line) {
            let cache = self.cache.get_or_insert_with(|| Box::new(fast.create_cache()));
            fast.for_each_match_with(cache, line, |start, end| f(LineMatch::Utf8 { start, end }));
            return Ok(());
        }
        // The line in UTF-16, in a buffer kept from line to line.
        let mut units = std::mem::take(&mut self.units);
        units.clear();
        crate::text::push_utf16(&mut units, line);
        // An ASCII line's code units are its bytes: its matches are byte
        // ranges of the line (no string of their own).
        let ascii = units.len() == line.len();
        let found = self.exact_utf16(&units, &mut |start, end, column| {
            f(if ascii {
                LineMatch::Utf8 { start, end }
            } else {
                LineMatch::Utf16 { column, text: JsStr::from_utf16(&units[start..end]) }
            })
        });
        if units.capacity() <= KEEP_UNITS {
            self.units = units;
        }
        found
    }

    /// Every match in a whole UTF-8 text, as byte offsets, on the fast path
    /// (the caller checked [`Matcher::whole_needs_exact`]).
    pub fn whole_matches(
        &mut self,
        text: &str,
        f: &mut dyn FnMut(usize, usize) -> bool,
    ) -> std::result::Result<(), BudgetExceeded> {
        let fast = &self.matcher.fast;
        let cache = self.cache.get_or_insert_with(|| Box::new(fast.create_cache()));
        fast.for_each_match_with(cache, text, f);
        Ok(())
    }

    /// The exact engine's global-exec loop over `units`: `f(start, end,
    /// column)` for each match, in code units, with the 1-based code-point
    /// column of `start` counted from the beginning of `units`.
    pub fn exact_utf16(
        &mut self,
        units: &[u16],
        f: &mut dyn FnMut(usize, usize, usize) -> bool,
    ) -> std::result::Result<(), BudgetExceeded> {
        let mut columns = ColumnCounter::default();
        let mut last = 0;
        while last <= units.len() {
            let m = self
                .matcher
                .regex
                .find_at(units, last, &mut self.budget)
                .map_err(|_| BudgetExceeded)?;
            let Some(m) = m else { break };
            let (start, end) = (m.start(), m.end());
            if !f(start, end, columns.column(units, start)) {
                break;
            }
            last = if end == start { advance(units, end, self.matcher.full_unicode) } else { end };
        }
        Ok(())
    }
}

/// Code-point columns of increasing offsets in one UTF-16 string, counted
/// incrementally (restarting for every match would be quadratic on long
/// lines): `Array.from(s.slice(0, index)).length + 1`.
#[derive(Default)]
struct ColumnCounter {
    at: usize,
    column: usize,
    /// Whether the string holds no surrogate (then a column is the index
    /// plus one), once known.
    plain: Option<bool>,
}

impl ColumnCounter {
    fn column(&mut self, units: &[u16], index: usize) -> usize {
        let plain =
            *self.plain.get_or_insert_with(|| !units.iter().any(|&u| (u & 0xF800) == 0xD800));
        if plain {
            return index + 1;
        }
        if index < self.at || self.column == 0 {
            *self = ColumnCounter { at: 0, column: 1, plain: Some(false) };
        }
        let mut i = self.at;
        // Resuming between the halves of a pair whose high half was counted
        // alone: the completed pair still counts once.
        if i > 0 && i < index && crate::text::is_low(units[i]) && crate::text::is_high(units[i - 1])
        {
            i += 1;
        }
        while i < index {
            if i + 1 < index && crate::text::is_high(units[i]) && crate::text::is_low(units[i + 1])
            {
                i += 2;
            } else {
                i += 1;
            }
            self.column += 1;
        }
        self.at = i;
        self.column
    }
}

/// ECMAScript's AdvanceStringIndex.
fn advance(text: &[u16], index: usize, full_unicode: bool) -> usize {
    if full_unicode
        && index + 1 < text.len()
        && crate::text::is_high(text[index])
        && crate::text::is_low(text[index + 1])
    {
        index + 2
    } else {
        index + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_counted_incrementally_like_array_from() {
        // With pairs, a lone low surrogate, and none at all (column = index + 1).
        let mut lone: Vec<u16> = "ab".encode_utf16().collect();
        lone.insert(1, 0xDC00);
        for s in
            ["a😀b😀😀c".encode_utf16().collect(), lone, "plain ascii é".encode_utf16().collect()]
        {
            let want: Vec<usize> = (0..=s.len()).map(|i| crate::text::column(&s, i)).collect();
            // Every increasing sequence of stops, including ones that split pairs.
            for step in 1..4 {
                let mut c = ColumnCounter::default();
                for i in (0..=s.len()).step_by(step) {
                    assert_eq!(c.column(&s, i), want[i], "{s:?} step {step} index {i}");
                }
            }
        }
    }
}
