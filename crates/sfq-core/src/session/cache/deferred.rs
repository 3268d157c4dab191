//! Filters made after a call, off its path.
//!
//! A text read by a call is searched by that call whatever its filter says
//! (it is read because it is needed), so its trigram filter only serves the
//! calls after. The session's first call makes the filters of everything it
//! reads as it keeps it (the next call, often at once, prunes with them);
//! after it, a text kept is queued and its filter made on a thread of the
//! session's own once the call has answered: a branch switch that rewrites
//! thousands of files costs the next call their reads, not their filters.
//! Until its filter is there a text is searched (a text without a filter is
//! never ruled out), so answers do not depend on when it comes. A filter is
//! attached only to the entry it was made for (the same text, not replaced
//! since), and only when the budget has room without dropping anything. A
//! cache holding half its budget or more makes filters as it keeps texts, as
//! the first call does: near the budget, what a call keeps and drops must
//! not depend on when a filter comes.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::{ContentCache, Trigrams};
use crate::search::FileText;

/// A kept text whose filter is to be made: its entry's key and the text.
pub(super) type Pending = (Box<[u8]>, Arc<FileText>);

/// The texts a builder takes at once (the lock is taken once per text).
const BATCH: usize = 256;

impl ContentCache {
    /// From now on, filters of the texts kept are made later
    /// ([`ContentCache::index_pending`]) instead of as they are kept.
    pub fn defer_filters(&self) {
        self.deferring.store(true, Ordering::Relaxed);
    }

    /// Whether filters are made later (see [`ContentCache::defer_filters`]):
    /// not while the cache holds half its budget or more, where what a call
    /// keeps and drops must not depend on when filters come.
    pub(super) fn defers(&self) -> bool {
        self.deferring.load(Ordering::Relaxed) && self.read_lock().held() < self.limit() / 2
    }

    /// Queues `text`, just kept under `key` without a filter.
    pub(super) fn queue(&self, key: &[u8], text: &Arc<FileText>) {
        if matches!(**text, FileText::Utf8(_)) {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            pending.push((key.into(), text.clone()));
            self.unindexed.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Makes the filters of the queued texts on a thread of their own
    /// (one at a time per cache) that holds `owner` only while it works;
    /// nothing when the queue is empty.
    pub fn index_pending<T: Send + Sync + 'static>(owner: &Arc<T>, cache: fn(&T) -> &ContentCache) {
        let this = cache(owner);
        if this.queued() == 0 || this.indexing.swap(true, Ordering::AcqRel) {
            return;
        }
        let weak = Arc::downgrade(owner);
        let spawned = std::thread::Builder::new().name("sfq-index".into()).spawn(move || {
            loop {
                let Some(owner) = weak.upgrade() else { return };
                let this = cache(&owner);
                let batch = this.take_pending(BATCH);
                if batch.is_empty() {
                    this.indexing.store(false, Ordering::Release);
                    // A text queued between the take and the flag: go on
                    // unless another builder has started since.
                    if this.queued() == 0 || this.indexing.swap(true, Ordering::AcqRel) {
                        return;
                    }
                    continue;
                }
                for (key, text) in batch {
                    this.attach(&key, &text);
                    this.unindexed.fetch_sub(1, Ordering::Relaxed);
                }
            }
        });
        if spawned.is_err() {
            // No thread: the texts stay unfiltered (searched) until a later
            // call's builder starts.
            this.indexing.store(false, Ordering::Release);
        }
    }

    /// Texts kept whose filters are still to be made.
    pub fn unindexed(&self) -> u64 {
        self.unindexed.load(Ordering::Relaxed)
    }

    /// Texts queued and not taken yet.
    fn queued(&self) -> usize {
        self.pending.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn take_pending(&self, n: usize) -> Vec<Pending> {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let at = pending.len().saturating_sub(n);
        pending.split_off(at)
    }

    /// Drops the queue (the texts it holds with it).
    pub(super) fn forget_pending(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        self.unindexed.fetch_sub(pending.len() as u64, Ordering::Relaxed);
        pending.clear();
    }

    /// Makes `text`'s filter and gives it to the entry of `key` if that
    /// entry still holds this very text without a filter, and the budget
    /// has room for it.
    fn attach(&self, key: &[u8], text: &Arc<FileText>) {
        let FileText::Utf8(s) = &**text else { return };
        let is_it = |inner: &super::Inner| {
            inner.entries.get(key).is_some_and(|e| {
                e.grams.is_none() && matches!(&e.text, Some(Ok(t)) if Arc::ptr_eq(t.arc(), text))
            })
        };
        if !is_it(&self.read_lock()) {
            return;
        }
        let trigrams = Trigrams::of(s);
        let need = trigrams.filter_bytes();
        let limit = self.limit();
        let mut guard = self.lock();
        let inner = &mut *guard;
        // Nothing is dropped to make room (that is the calls' to decide).
        if !is_it(inner) || inner.held() + need > limit {
            return;
        }
        let filter = inner.slices.insert(trigrams);
        let bytes = filter.bytes();
        if let Some(e) = inner.entries.get_mut(key) {
            e.bytes += bytes;
            e.grams = Some(filter);
            inner.bytes += bytes;
            inner.index_bytes += bytes;
        }
    }
}
