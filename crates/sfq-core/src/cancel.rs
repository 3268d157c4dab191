//! Cooperative cancellation: an abort flag set from the JS thread and an
//! optional deadline (`timeoutMs`), polled by long-running work.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::{Error, ErrorCode, Result};

/// Counters a running call updates and its caller may read at any time
/// (for progress reports): candidate files known, files handled, matches.
#[derive(Debug, Default)]
pub struct Progress {
    /// Candidate files found so far.
    pub files_total: AtomicU64,
    /// Candidate files handled (searched or skipped).
    pub files_done: AtomicU64,
    /// Matches (matching lines for the agent searches) found so far.
    pub matches: AtomicU64,
    /// The first matches found, in result order (at most [`FIRST_HITS`]).
    first_hits: Mutex<Vec<FirstHit>>,
}

/// How many hits a progress report carries.
pub const FIRST_HITS: usize = 10;
/// The longest text (characters) of a hit in a progress report.
const HIT_CHARS: usize = 200;

/// A match reported while the search still runs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FirstHit {
    /// Root-relative path.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// The line (its first 200 characters).
    pub text: String,
}

impl Progress {
    /// Whether the report wants more hits (cheap to ask before building one).
    pub fn wants_hits(&self) -> bool {
        self.first_hits.lock().is_ok_and(|h| h.len() < FIRST_HITS)
    }

    /// Adds a hit unless the report holds `FIRST_HITS` already.
    pub fn add_hit(&self, path: &str, line: usize, text: &str) {
        if let Ok(mut hits) = self.first_hits.lock()
            && hits.len() < FIRST_HITS
        {
            let text = text.chars().take(HIT_CHARS).collect();
            hits.push(FirstHit { path: path.to_string(), line, text });
        }
    }

    /// The hits reported so far.
    pub fn first_hits(&self) -> Vec<FirstHit> {
        self.first_hits.lock().map(|h| h.clone()).unwrap_or_default()
    }

    /// The three counters, in that order.
    pub fn snapshot(&self) -> [u64; 3] {
        [
            self.files_total.load(Ordering::Relaxed),
            self.files_done.load(Ordering::Relaxed),
            self.matches.load(Ordering::Relaxed),
        ]
    }
}

/// Shared between the caller (who may abort) and the worker (who polls).
#[derive(Debug, Clone)]
pub struct Cancel {
    aborted: Arc<AtomicBool>,
    progress: Arc<Progress>,
    started: Instant,
    deadline: Option<Instant>,
    timeout_ms: u64,
}

impl Default for Cancel {
    fn default() -> Self {
        Cancel::new(Arc::new(AtomicBool::new(false)), Instant::now())
    }
}

impl Cancel {
    /// A token observing `aborted`, for a call that started at `started`.
    pub fn new(aborted: Arc<AtomicBool>, started: Instant) -> Cancel {
        Cancel { aborted, progress: Arc::default(), started, deadline: None, timeout_ms: 0 }
    }

    /// The progress this call reports into, to keep.
    pub fn progress_handle(&self) -> Arc<Progress> {
        self.progress.clone()
    }

    /// The same, reporting into `progress`.
    pub fn with_progress(mut self, progress: Arc<Progress>) -> Cancel {
        self.progress = progress;
        self
    }

    /// The call's progress counters.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// When the call began.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// The same token with a deadline `timeout_ms` after the call started.
    pub fn with_timeout(mut self, timeout_ms: Option<u64>) -> Cancel {
        if let Some(ms) = timeout_ms {
            self.timeout_ms = ms;
            self.deadline = self.started.checked_add(Duration::from_millis(ms));
        }
        self
    }

    /// This cancellation, also cancelled once `limit` has passed from now
    /// (for bounded extra work inside a call).
    pub fn bounded(&self, limit: Duration) -> Cancel {
        let mut c = self.clone();
        let at = Instant::now() + limit;
        if c.deadline.is_none_or(|d| at < d) {
            c.deadline = Some(at);
            c.timeout_ms = limit.as_millis() as u64;
        }
        c
    }

    /// The abort flag itself (for engines that poll an `AtomicBool`).
    pub fn flag(&self) -> &AtomicBool {
        &self.aborted
    }

    /// True once aborted or past the deadline.
    pub fn is_cancelled(&self) -> bool {
        self.aborted.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// `Err(EABORTED | ETIMEOUT)` once cancelled.
    pub fn check(&self) -> Result<()> {
        if self.aborted.load(Ordering::Relaxed) {
            return Err(Error::new(ErrorCode::Aborted, "The operation was aborted"));
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Error::new(
                ErrorCode::Timeout,
                format!("The operation timed out after {} ms (timeoutMs)", self.timeout_ms),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abort_and_timeout_are_reported_with_their_codes() {
        let flag = Arc::new(AtomicBool::new(false));
        let c = Cancel::new(flag.clone(), Instant::now());
        assert!(c.check().is_ok());
        flag.store(true, Ordering::Relaxed);
        assert_eq!(c.check().unwrap_err().code(), ErrorCode::Aborted);

        let past = Instant::now() - Duration::from_millis(50);
        let t = Cancel::new(Arc::new(AtomicBool::new(false)), past).with_timeout(Some(10));
        assert!(t.is_cancelled());
        assert_eq!(t.check().unwrap_err().code(), ErrorCode::Timeout);
    }
}
