//! Texts lent to a call without a reference count each.
//!
//! A warm call hands tens of thousands of held texts to its search. Taking
//! an `Arc` of each writes its count (and the drop writes it again): one
//! cache line per file, scattered over the heap. After the agent's process
//! forks (a tool runs a command), every page so written faults once more
//! for its copy-on-write: 19,000 faults, 10 ms of a 22 ms call on test262.
//!
//! Instead a call takes a [`Pin`] when it looks at the entries (under the
//! cache's read lock, where it lends all it lends), and borrows their texts
//! for as long as it holds the pin: a text an entry lets go of (it is
//! replaced, dropped past the budget, or the cache is cleared) goes through
//! [`Shared`]'s drop to the [`Graveyard`], which keeps it until every pin
//! taken before it was let go of is released. Pins and retirements are
//! ordered by one lock: a pin taken after a text was let go of cannot see
//! it (the entry no longer holds it), and one taken before keeps it alive.
//!
//! Unless every pin held was taken before the text was made: those pins
//! lent what they lend under a read lock released before the text could
//! enter the table (the write lock that puts it there waits for them), so
//! none of them can hold it, and it is freed at once. A session's first
//! call reads every file of the tree, and the texts it reads and the budget
//! then lets go of are its own, not lent: kept until it ended, they were
//! 1.3 GB past the budget on a million-file tree.

use std::collections::BTreeMap;
use std::mem::ManuallyDrop;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

use crate::search::FileText;

/// Texts let go of while calls that may have borrowed them run.
#[derive(Debug, Default)]
pub struct Graveyard(Mutex<State>);

#[derive(Debug, Default)]
struct State {
    /// The next pin's number.
    next: u64,
    /// Pins held, by number (how many of each: one).
    active: BTreeMap<u64, u32>,
    /// Texts let go of, each with the number of the first pin that cannot
    /// have borrowed it.
    dead: Vec<(u64, Arc<FileText>)>,
}

impl Graveyard {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A pin: the texts of the entries looked at while it is held stay
    /// alive until it is released.
    pub fn pin(self: &Arc<Self>) -> Pin {
        let mut st = self.state();
        let number = st.next;
        st.next += 1;
        *st.active.entry(number).or_default() += 1;
        Pin { grave: self.clone(), number }
    }

    /// The number the next pin will get (a text made now cannot be lent to
    /// a pin numbered below it).
    fn next(&self) -> u64 {
        self.state().next
    }

    /// A text an entry let go of (made when the next pin's number was
    /// `born`): freed now when no pin held can have borrowed it, else once
    /// the pins held now are released.
    fn retire(&self, text: Arc<FileText>, born: u64) {
        let mut st = self.state();
        if st.active.keys().next_back().is_none_or(|&newest| newest < born) {
            drop(st);
            drop(text);
            return;
        }
        let first_blind = st.next;
        st.dead.push((first_blind, text));
    }

    /// Texts waiting for pins to be released (for tests).
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        self.state().dead.len()
    }
}

/// Held by a call while it uses texts it borrowed from the cache's entries
/// (see the module's notes).
#[derive(Debug)]
pub struct Pin {
    grave: Arc<Graveyard>,
    number: u64,
}

impl Drop for Pin {
    fn drop(&mut self) {
        let mut st = self.grave.state();
        if let Some(n) = st.active.get_mut(&self.number) {
            *n -= 1;
            if *n == 0 {
                st.active.remove(&self.number);
            }
        }
        if st.dead.is_empty() {
            return;
        }
        // A text may go when every pin still held came after it.
        let oldest = st.active.keys().next().copied().unwrap_or(u64::MAX);
        let (gone, kept): (Vec<_>, Vec<_>) =
            std::mem::take(&mut st.dead).into_iter().partition(|(blind, _)| *blind <= oldest);
        st.dead = kept;
        drop(st);
        drop(gone);
    }
}

/// An entry's text: its last reference goes through the [`Graveyard`].
pub(super) struct Shared {
    text: ManuallyDrop<Arc<FileText>>,
    grave: Arc<Graveyard>,
    /// The next pin's number when it was made: pins numbered below it were
    /// taken before, and cannot have borrowed it.
    born: u64,
}

impl Shared {
    /// Made before the entry holding it enters the table (under the write
    /// lock), so `born` is never past what it was then.
    pub(super) fn new(text: Arc<FileText>, grave: &Arc<Graveyard>) -> Shared {
        Shared { text: ManuallyDrop::new(text), grave: grave.clone(), born: grave.next() }
    }

    /// The text, shared.
    pub(super) fn arc(&self) -> &Arc<FileText> {
        &self.text
    }

    /// The text, lent to the holder of a pin taken before it was looked at.
    pub(super) fn lend(&self) -> Lent {
        Lent(NonNull::from(&**self.text))
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: taken once, here, and never used again.
        let text = unsafe { ManuallyDrop::take(&mut self.text) };
        self.grave.retire(text, self.born);
    }
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared").finish_non_exhaustive()
    }
}

/// A text borrowed under a [`Pin`]: valid while the pin taken before it
/// was lent is held (see [`Lent::get`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Lent(NonNull<FileText>);

// SAFETY: a `FileText` is Send and Sync; `Lent` is a shared reference to
// one, made usable only through `get` under a pin.
unsafe impl Send for Lent {}
unsafe impl Sync for Lent {}

impl Lent {
    /// The text, for as long as `_pin` (taken before it was lent) is held.
    pub(super) fn get<'p>(&self, _pin: &'p Pin) -> &'p FileText {
        // SAFETY: the entry held the text when it was lent, after `_pin` was
        // taken; a text let go of since is kept by the graveyard until that
        // pin is released, which the borrow of `_pin` rules out for 'p.
        unsafe { self.0.as_ref() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry's text `s` in `grave`, and a weak reference that says
    /// whether the text is still alive.
    fn made(s: &str, grave: &Arc<Graveyard>) -> (Shared, std::sync::Weak<FileText>) {
        let t = Arc::new(FileText::Utf8(s.to_string()));
        let weak = Arc::downgrade(&t);
        (Shared::new(t, grave), weak)
    }

    #[test]
    fn a_text_let_go_of_lives_until_the_pins_before_it_are_released() {
        let grave = Arc::new(Graveyard::default());
        let (shared, weak) = made("alpha", &grave);
        // No pin: let go of, it is freed at once.
        drop(shared);
        assert!(weak.upgrade().is_none());

        let (shared, weak) = made("beta", &grave);
        let early = grave.pin();
        let lent = shared.lend();
        drop(shared);
        let late = grave.pin();
        // Kept for `early`, whatever `late` does.
        assert!(matches!(lent.get(&early), FileText::Utf8(s) if s == "beta"));
        drop(late);
        assert_eq!(grave.waiting(), 1);
        assert!(weak.upgrade().is_some());
        drop(early);
        assert_eq!(grave.waiting(), 0);
        assert!(weak.upgrade().is_none());
    }

    /// A text made after every pin held was taken cannot have been lent to
    /// them: let go of, it is freed at once, not kept until they end; one
    /// made before a pin held is kept.
    #[test]
    fn a_text_made_after_the_pins_held_is_freed_at_once() {
        let grave = Arc::new(Graveyard::default());
        let (before, old_weak) = made("before", &grave);
        let running = grave.pin();
        for i in 0..100 {
            let (text, weak) = made(&format!("read by the running call {i}"), &grave);
            drop(text);
            assert!(weak.upgrade().is_none(), "text {i} kept");
        }
        assert_eq!(grave.waiting(), 0);
        drop(before);
        assert_eq!(grave.waiting(), 1);
        assert!(old_weak.upgrade().is_some());
        drop(running);
        assert!(old_weak.upgrade().is_none());
    }

    #[test]
    fn a_pin_taken_after_a_text_was_let_go_of_does_not_keep_it() {
        let grave = Arc::new(Graveyard::default());
        let held = grave.pin();
        let (text, weak) = made("gamma", &grave);
        drop(text);
        let after = grave.pin();
        drop(held);
        // Only `after` is held, and it came after the text was let go of.
        assert!(weak.upgrade().is_none());
        drop(after);
    }
}
