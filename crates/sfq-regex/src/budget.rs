//! The work budget of a search: a step counter, a limit on the backtracking stack and an
//! optional cancellation check.

use crate::error::{BudgetCause, BudgetExceeded};

/// How much work searches may do before they give up with [`BudgetExceeded`].
///
/// One *step* is one instruction of the matching program or one start position tried,
/// roughly 1–5 ns of CPU. A budget is usually shared by every search of one job (all
/// lines of a file, say): pass the same `&mut Budget` to each call and it keeps counting
/// down. A search that would burn more steps than that (`^(a+)+\1$` on 3,000 `a`s and a
/// `b`: exponential for a plain backtracker, still cubic with the memo of failed states,
/// since the back reference makes the capture part of each state) stops when the
/// budget is spent, instead of hanging.
///
/// ```
/// # use sfq_regex::{Budget, Regex};
/// let re = Regex::from_str(r"^(a+)+\1$", "").unwrap();
/// let text: Vec<u16> = format!("{}b", "a".repeat(3000)).encode_utf16().collect();
/// let mut budget = Budget::new(1_000_000);
/// assert!(re.find_at(&text, 0, &mut budget).is_err());
/// ```
pub struct Budget<'a> {
    steps: u64,
    spent: u64,
    max_stack: usize,
    check: Option<&'a (dyn Fn() -> bool + 'a)>,
    check_every: u64,
    until_check: u64,
    deadline: Option<std::time::Instant>,
}

impl std::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("steps", &self.steps)
            .field("spent", &self.spent)
            .field("max_stack", &self.max_stack)
            .field("has_check", &self.check.is_some())
            .finish()
    }
}

/// The default limit on backtracking-stack entries (16 bytes each): 64 MiB.
pub const DEFAULT_MAX_STACK: usize = 4 << 20;

impl Budget<'static> {
    /// A budget of `steps` steps, with the default stack limit and no cancellation check.
    pub fn new(steps: u64) -> Budget<'static> {
        Budget {
            steps,
            spent: 0,
            max_stack: DEFAULT_MAX_STACK,
            check: None,
            check_every: u64::MAX,
            until_check: u64::MAX,
            deadline: None,
        }
    }

    /// A budget that never runs out of steps (the stack limit still applies).
    pub fn unlimited() -> Budget<'static> {
        Budget::new(u64::MAX)
    }
}

impl<'a> Budget<'a> {
    /// Adds a cancellation check, called about every `every` steps (at least 1); when it
    /// returns `true` the search stops with [`BudgetCause::Cancelled`]. Use it for
    /// timeouts and abort signals.
    pub fn with_check<'b>(self, every: u64, check: &'b (dyn Fn() -> bool + 'b)) -> Budget<'b>
    where
        'a: 'b,
    {
        let every = every.max(1);
        Budget {
            steps: self.steps,
            spent: self.spent,
            max_stack: self.max_stack,
            check: Some(check),
            check_every: every,
            until_check: every,
            deadline: self.deadline,
        }
    }

    /// Adds a time limit: once `deadline` has passed (looked at with the
    /// cancellation check, or every 64K steps without one) the search stops
    /// with [`BudgetCause::Time`].
    pub fn with_deadline(mut self, deadline: std::time::Instant) -> Budget<'a> {
        self.deadline = Some(deadline);
        if self.check_every == u64::MAX {
            self.check_every = 1 << 16;
            self.until_check = 1 << 16;
        }
        self
    }

    /// Sets the limit on the backtracking stack, in entries of 16 bytes.
    pub fn with_max_stack(mut self, entries: usize) -> Budget<'a> {
        self.max_stack = entries.max(64);
        self
    }

    /// The steps left.
    pub fn remaining(&self) -> u64 {
        self.steps
    }

    /// The steps spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    pub(crate) fn max_stack(&self) -> usize {
        self.max_stack
    }

    /// Charges `n` steps. Called in batches by the matcher.
    #[inline]
    pub(crate) fn charge(&mut self, n: u64) -> Result<(), BudgetExceeded> {
        if n > self.steps {
            self.spent += self.steps;
            self.steps = 0;
            return Err(BudgetExceeded { cause: BudgetCause::Steps });
        }
        self.steps -= n;
        self.spent += n;
        if self.check.is_some() || self.deadline.is_some() {
            if n >= self.until_check {
                self.until_check = self.check_every;
                if let Some(check) = self.check
                    && check()
                {
                    return Err(BudgetExceeded { cause: BudgetCause::Cancelled });
                }
                if self.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                    return Err(BudgetExceeded { cause: BudgetCause::Time });
                }
            } else {
                self.until_check -= n;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_deadline_stops_the_search() {
        let past = std::time::Instant::now();
        let mut b = Budget::unlimited().with_deadline(past);
        let mut stopped = None;
        for _ in 0..100 {
            if let Err(e) = b.charge(1 << 12) {
                stopped = Some(e.cause());
                break;
            }
        }
        assert_eq!(stopped, Some(BudgetCause::Time));
        let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
        let mut b = Budget::unlimited().with_deadline(far);
        assert!((0..100).all(|_| b.charge(1 << 12).is_ok()));
    }

    #[test]
    fn counts_down_and_stops() {
        let mut b = Budget::new(10);
        assert!(b.charge(4).is_ok());
        assert_eq!(b.remaining(), 6);
        assert_eq!(b.charge(7).unwrap_err().cause(), BudgetCause::Steps);
        assert_eq!(b.remaining(), 0);
        assert_eq!(b.spent(), 10);
    }

    #[test]
    fn calls_the_check() {
        let calls = Cell::new(0);
        let check = || {
            calls.set(calls.get() + 1);
            calls.get() >= 3
        };
        let mut b = Budget::unlimited().with_check(10, &check);
        for _ in 0..9 {
            b.charge(1).unwrap();
        }
        assert_eq!(calls.get(), 0);
        b.charge(1).unwrap();
        assert_eq!(calls.get(), 1);
        b.charge(25).unwrap();
        assert_eq!(calls.get(), 2);
        assert_eq!(b.charge(10).unwrap_err().cause(), BudgetCause::Cancelled);
    }
}
