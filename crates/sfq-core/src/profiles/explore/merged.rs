//! The merge of the single-query commands, and what they could not search.

use super::*;

/// The merge of the single-query commands (scout, sample): each matched
/// file's result in path order, counts, until the scan limit.
pub(super) struct Merged<T> {
    /// Matched files with their results, in path order.
    pub files: Vec<(String, T)>,
    /// Matching lines.
    pub matches: u64,
    /// Files searched.
    pub files_searched: u64,
    /// Whether the scan limit stopped the scan.
    pub at_least: bool,
    /// Files not searched.
    pub skipped: Skipped,
    /// A file result's matching lines.
    count: fn(&T) -> u64,
}

impl<T> Merged<T> {
    /// An empty merge; `unreadable` directories were met by the walk.
    pub fn new(unreadable: u64, count: fn(&T) -> u64) -> Merged<T> {
        Merged {
            files: Vec::new(),
            matches: 0,
            files_searched: 0,
            at_least: false,
            skipped: Skipped { unreadable, ..Skipped::default() },
            count,
        }
    }
}

impl<T> crate::engine::Collector<T> for Merged<T> {
    fn collect(
        &mut self,
        cand: &Candidate,
        outcome: crate::engine::Outcome<T>,
    ) -> Result<crate::engine::Flow> {
        use crate::engine::{Flow, Outcome};
        match outcome {
            Outcome::Skipped(reason) => self.skipped.add(&reason),
            Outcome::NoMatch => self.files_searched += 1,
            Outcome::Matched(result) => {
                self.files_searched += 1;
                self.matches += (self.count)(&result);
                self.files.push((cand.rel().to_string(), result));
                if self.matches >= SCAN_LIMIT {
                    self.at_least = true;
                    return Ok(Flow::Stop);
                }
            }
        }
        Ok(Flow::Continue)
    }

    fn unreadable(&mut self, _dir: discovery::Unreadable) {
        self.skipped.unreadable += 1;
    }

    fn matches(&self) -> u64 {
        self.matches
    }
}

/// Files the commands could not search, by reason.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Skipped {
    /// Binary files.
    pub binary: u64,
    /// Files over 256 MB.
    pub too_large: u64,
    /// Files or directories that could not be read.
    pub unreadable: u64,
    /// Files where the regex engine's work budget ran out.
    pub budget: u64,
}

impl Skipped {
    /// Counts one skipped file.
    pub fn add(&mut self, reason: &SkipReason) {
        match reason {
            SkipReason::Binary => self.binary += 1,
            SkipReason::MaxFileSizeExceeded(_) => self.too_large += 1,
            SkipReason::ReadError(_) => self.unreadable += 1,
            SkipReason::RegexBudgetExceeded => self.budget += 1,
        }
    }

    /// A warning when files that might hold matches were not searched
    /// (binary files are not: `rg` leaves them out too).
    pub fn warning(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.too_large > 0 {
            parts.push(format!("{} over 256 MB", self.too_large));
        }
        if self.unreadable > 0 {
            parts.push(format!("{} unreadable", self.unreadable));
        }
        if self.budget > 0 {
            parts.push(format!("{} where the regex ran too long", self.budget));
        }
        if parts.is_empty() { None } else { Some(format!("not searched: {}", parts.join(", "))) }
    }
}
