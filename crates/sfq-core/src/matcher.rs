//! The JavaScript regex as search uses it: `new RegExp(pattern, flags)` run
//! as a global `exec` loop (the `String.prototype.matchAll` iteration), with
//! a work budget so that a catastrophic pattern ends a file instead of
//! hanging the process.

use sfq_regex::{Budget, Regex};

use crate::error::{Error, ErrorCode, Result};

/// A compiled search pattern.
#[derive(Debug)]
pub struct Matcher {
    regex: Regex,
    /// `u` or `v`: a zero-length match advances by a code point, not a code unit.
    full_unicode: bool,
}

/// The work budget ran out while searching (the file is reported as
/// `regexBudgetExceeded`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded;

/// Steps of the backtracking engine a file may use: a fixed allowance plus
/// an amount proportional to its length, so large ordinary files pass and a
/// catastrophic pattern stops in a fraction of a second.
pub fn budget_for(text_len: usize) -> u64 {
    const BASE: u64 = 20_000_000;
    const PER_UNIT: u64 = 400;
    BASE.saturating_add(PER_UNIT.saturating_mul(text_len as u64))
}

impl Matcher {
    /// Compiles `pattern` with `flags` as `new RegExp(pattern, flags)`; the
    /// sticky flag is refused because a search cannot honour it.
    pub fn new(pattern: &[u16], flags: &str) -> Result<Matcher> {
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
        Ok(Matcher { regex, full_unicode: f.unicode || f.unicode_sets })
    }

    /// Every match in `text`, in order, as `(start, end)` code-unit offsets,
    /// passed to `found`; returning `false` from `found` stops the loop.
    pub fn for_each_match(
        &self,
        text: &[u16],
        budget: &mut Budget,
        mut found: impl FnMut(usize, usize) -> bool,
    ) -> std::result::Result<(), BudgetExceeded> {
        let mut last = 0;
        while last <= text.len() {
            let m = self.regex.find_at(text, last, budget).map_err(|_| BudgetExceeded)?;
            let Some(m) = m else { break };
            let (start, end) = (m.start(), m.end());
            if !found(start, end) {
                break;
            }
            last = if end == start { advance(text, end, self.full_unicode) } else { end };
        }
        Ok(())
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
