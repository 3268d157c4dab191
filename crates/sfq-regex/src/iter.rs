//! The global exec loop (`String.prototype.matchAll`).

use crate::budget::Budget;
use crate::error::BudgetExceeded;
use crate::parser::{is_lead, is_trail};
use crate::{Captures, Match, Regex};

/// The matches of [`Regex::find_iter`]. After an error (budget exceeded) the iterator
/// ends.
pub struct Matches<'r, 't, 'b, 'c> {
    regex: &'r Regex,
    text: &'t [u16],
    budget: &'b mut Budget<'c>,
    last: usize,
    done: bool,
}

impl<'r, 't, 'b, 'c> Matches<'r, 't, 'b, 'c> {
    pub(crate) fn new(regex: &'r Regex, text: &'t [u16], budget: &'b mut Budget<'c>) -> Self {
        Matches { regex, text, budget, last: 0, done: false }
    }
}

/// `AdvanceStringIndex`: one code unit, or one code point under `u`/`v`.
pub(crate) fn advance(text: &[u16], index: usize, unicode: bool) -> usize {
    if unicode
        && index + 1 < text.len()
        && is_lead(u32::from(text[index]))
        && is_trail(u32::from(text[index + 1]))
    {
        index + 2
    } else {
        index + 1
    }
}

impl Iterator for Matches<'_, '_, '_, '_> {
    type Item = Result<Match, BudgetExceeded>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.regex.find_at(self.text, self.last, self.budget) {
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Ok(Some(m)) => {
                self.last = if m.is_empty() {
                    advance(self.text, m.end(), self.regex.flags().unicode_mode())
                } else {
                    m.end()
                };
                Some(Ok(m))
            }
        }
    }
}

/// The matches with their groups, of [`Regex::captures_iter`]: the same loop as
/// [`Matches`].
pub struct CaptureMatches<'r, 't, 'b, 'c> {
    regex: &'r Regex,
    text: &'t [u16],
    budget: &'b mut Budget<'c>,
    last: usize,
    done: bool,
}

impl<'r, 't, 'b, 'c> CaptureMatches<'r, 't, 'b, 'c> {
    pub(crate) fn new(regex: &'r Regex, text: &'t [u16], budget: &'b mut Budget<'c>) -> Self {
        CaptureMatches { regex, text, budget, last: 0, done: false }
    }
}

impl Iterator for CaptureMatches<'_, '_, '_, '_> {
    type Item = Result<Captures, BudgetExceeded>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.regex.captures_at(self.text, self.last, self.budget) {
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Ok(Some(caps)) => {
                let (start, end) =
                    caps.get(0).map_or((self.last, self.last), |m| (m.start(), m.end()));
                self.last = if start == end {
                    advance(self.text, end, self.regex.flags().unicode_mode())
                } else {
                    end
                };
                Some(Ok(caps))
            }
        }
    }
}
