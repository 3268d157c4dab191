//! A session's file contents, kept between calls and proven fresh by the
//! session's watch or by stat.
//!
//! A [`ContentCache`] is the source of contents a session's calls read
//! through ([`crate::engine::Source::Session`]): the candidates still come
//! from the walk of each call (git's index, the ignore files and the tree
//! are read again, so the candidate set is exactly a cold call's), and each
//! candidate's text comes from the cache when the file is provably the one
//! that was read:
//!
//! * its stamp is taken (`lstat`) before its bytes are read, and a later
//!   call uses the text only while the file's stamp is the same: device,
//!   inode, mode, size, mtime and ctime to the nanosecond (ctime changes on
//!   every write and cannot be set back by a caller);
//! * racy edits (git's racy-git problem): a file whose mtime lies within
//!   [`RACY_WINDOW`] of the moment its bytes were read may have been written
//!   again within the same timestamp tick, so its text is not kept: it is
//!   read again at every call until it is older than that;
//! * a file that could not be stamped or is not a regular file is read as
//!   a cold call reads it; one over the call's size cap is skipped for its
//!   size, as a cold call skips it, and its stamp kept;
//! * **trusted** texts are used without a stat: a text read while its
//!   directory was watched (the watch set before the read began), of a file
//!   with one link, with no event drained between the start of its read and
//!   its keeping. An event naming the file drops it ([`ContentCache::invalidate`]);
//!   a lost event (overflow) makes every text untrusted again (checked by
//!   stat at its next use, and trusted again when its stamp holds under a
//!   watch). A racy text may be trusted (the watch reports any later write),
//!   but is dropped, not kept untrusted, when trust is lost.
//!
//! The texts and their trigram filters are held within a memory budget
//! (the session's, less what its listings and watch hold). Past it, texts
//! are dropped before filters: a file whose text was dropped keeps its
//! filter and stamp, so it is still ruled out unread by a pattern it
//! cannot match, and read again only when it may match. Room is made from
//! files no call used in the last two calls first, then (for filters only)
//! from the texts used longest ago; a call never drops a text to keep
//! another text of the same scan, so a tree larger than the budget keeps a
//! stable part in memory instead of cycling through it (an LRU cache under
//! repeated full scans holds nothing useful). The filters' blocks count
//! whole (a block's free columns too: see [`super::slices`]). The cache
//! only saves reads: the matcher searches every text, so an answer is the
//! cold call's.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use super::grams::{Needles, Trigrams};
use super::slices::{Filter, Slices};
use super::table::Table;
use super::watch::{Drained, Watcher};
use crate::discovery::Candidate;
use crate::search::{self, FileText, SkipReason};
use crate::text::Encoding;

/// How close to the moment it was read a file's mtime makes its text
/// unsafe to keep: file systems stamp writes at a coarse clock tick (a few
/// milliseconds on Linux, a second or two on some file systems), so a write
/// within the same tick as the read leaves the same stamp.
pub const RACY_WINDOW: Duration = Duration::from_secs(2);

/// One file's text (or that it is binary), as read when its stamp was taken.
struct Entry {
    stamp: Stamp,
    encoding: Encoding,
    /// The text, or `Err(Binary)`; `None` when the text was dropped past
    /// the budget and only its trigram filter is held.
    text: Option<Result<Shared, SkipReason>>,
    /// Bytes the entry holds in memory (text, filter and bookkeeping).
    bytes: u64,
    /// Of which the text's.
    text_bytes: u64,
    /// Used without a stat (see the module's notes).
    trusted: bool,
    /// Its mtime or ctime was within [`RACY_WINDOW`] of its read.
    racy: bool,
    /// The text's trigram filter (UTF-8 texts).
    grams: Option<Filter>,
}

/// What [`ContentCache::stats`] reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Files whose text or trigram filter is held.
    pub files: u64,
    /// Bytes of text held.
    pub content_bytes: u64,
    /// Bytes held in all: texts, filters and their bookkeeping.
    pub held_bytes: u64,
    /// Files read from disk during the last call (not served from memory).
    pub files_read: u64,
    /// Files served from memory during the last call.
    pub files_reused: u64,
    /// Files whose text is used without a stat.
    pub trusted: u64,
    /// Bytes of the texts' trigram filters.
    pub index_bytes: u64,
    /// Files the last call ruled out by their trigram filter, unsearched.
    pub files_pruned: u64,
}

/// A session's file texts, checked against each file's stamp at every use.
pub struct ContentCache {
    /// The session's root (absolute, canonical).
    root: PathBuf,
    /// The session's memory budget.
    budget: u64,
    /// Bytes of the budget the session holds outside this cache (its
    /// listings and watch).
    reserved: AtomicU64,
    inner: RwLock<Inner>,
    /// Counters of the current (last) call.
    read: AtomicU64,
    reused: AtomicU64,
    pruned: AtomicU64,
    /// The session's watch, when it has one.
    watcher: Option<Arc<Watcher>>,
    /// Whether the filters of texts kept are made later (see the
    /// `deferred` module), and the texts waiting for theirs.
    deferring: AtomicBool,
    pending: Mutex<Vec<deferred::Pending>>,
    /// Whether a builder of the pending filters runs.
    indexing: AtomicBool,
    /// Texts queued or being filtered.
    unindexed: AtomicU64,
    /// Texts let go of while calls may have borrowed them.
    grave: Arc<Graveyard>,
}

#[derive(Default)]
struct Inner {
    /// By the bytes of the absolute path (`Path`'s own hash and equality
    /// walk its components: several times slower, on every file of a call),
    /// in slots (a shared candidate list's are looked up once: [`Slots`]).
    entries: Table<Entry>,
    /// Bytes held by the entries.
    bytes: u64,
    /// Of which texts'.
    text_bytes: u64,
    /// The call during which a pass of each [`Room`] kind found nothing to
    /// drop (not tried again in that call: no entry becomes droppable by
    /// that kind during the call).
    barren: [u64; 2],
    /// Calls begun so far (the clock of the entries' marks: the call that
    /// used each last, for eviction).
    calls: u64,
    /// Drains that read events so far: a read during which this changed
    /// may have missed an event, so its text is not trusted.
    epoch: u64,
    /// Bytes of the trigram filters held (counted in `bytes` too).
    index_bytes: u64,
    /// The filters, bit-sliced.
    slices: Slices,
}

impl std::fmt::Debug for ContentCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContentCache").field("root", &self.root).finish_non_exhaustive()
    }
}

impl ContentCache {
    /// An empty cache for the tree at `root`, holding at most `budget`
    /// bytes of text.
    pub fn new(root: PathBuf, budget: u64, watcher: Option<Arc<Watcher>>) -> ContentCache {
        ContentCache {
            root,
            budget,
            reserved: AtomicU64::new(0),
            inner: RwLock::new(Inner::default()),
            read: AtomicU64::new(0),
            reused: AtomicU64::new(0),
            pruned: AtomicU64::new(0),
            watcher,
            deferring: AtomicBool::new(false),
            pending: Mutex::new(Vec::new()),
            indexing: AtomicBool::new(false),
            unindexed: AtomicU64::new(0),
            grave: Arc::default(),
        }
    }

    /// The memory budget in bytes.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Sets the bytes the session holds outside the cache, and drops what
    /// no longer fits in the rest of the budget.
    pub fn reserve(&self, bytes: u64) {
        self.reserved.store(bytes, Ordering::Relaxed);
        let limit = self.limit();
        let mut inner = self.lock();
        if inner.held() > limit {
            inner.shrink_to(limit);
        }
    }

    /// The bytes the cache may hold.
    fn limit(&self) -> u64 {
        self.budget.saturating_sub(self.reserved.load(Ordering::Relaxed))
    }

    /// Applies a drain of the watch: texts of the files it names are
    /// dropped; after a lost event no text is trusted.
    pub fn invalidate(&self, drained: &Drained) {
        if !drained.any && !drained.overflow {
            return;
        }
        let mut inner = self.lock();
        inner.epoch += 1;
        for path in &drained.files {
            inner.remove(path);
        }
        if drained.overflow {
            let (mut bytes, mut text_total, mut index) = (0u64, 0u64, 0u64);
            inner.entries.retain(|e| {
                if e.racy {
                    bytes += e.bytes;
                    text_total += e.text_bytes;
                    index += e.grams.as_ref().map_or(0, |g| g.bytes());
                    return false;
                }
                e.trusted = false;
                true
            });
            inner.bytes -= bytes;
            inner.text_bytes -= text_total;
            inner.index_bytes -= index;
        }
    }

    /// Whether the directory holding `path` is watched now (asked before a
    /// stat or read whose result is to be trusted).
    fn watched(&self, path: &Path) -> bool {
        self.watcher
            .as_ref()
            .is_some_and(|w| w.healthy() && path.parent().is_some_and(|dir| w.is_watched(dir)))
    }

    /// The session's root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Marks the start of a call: its counters start from zero.
    pub fn begin_call(&self) {
        let mut inner = self.lock();
        inner.calls += 1;
        inner.compact_slices();
        drop(inner);
        self.read.store(0, Ordering::Relaxed);
        self.reused.store(0, Ordering::Relaxed);
        self.pruned.store(0, Ordering::Relaxed);
    }

    /// What is held, and what the last call read.
    pub fn stats(&self) -> CacheStats {
        let inner = self.lock();
        CacheStats {
            files: inner.entries.len() as u64,
            content_bytes: inner.text_bytes,
            held_bytes: inner.held(),
            files_read: self.read.load(Ordering::Relaxed),
            files_reused: self.reused.load(Ordering::Relaxed),
            trusted: inner.entries.values().filter(|e| e.trusted).count() as u64,
            index_bytes: inner.index_bytes + inner.slices.slack(),
            files_pruned: self.pruned.load(Ordering::Relaxed),
        }
    }

    /// Drops every text.
    pub fn clear(&self) {
        self.forget_pending();
        let mut inner = self.lock();
        inner.entries.clear();
        inner.slices = Slices::default();
        inner.bytes = 0;
        inner.text_bytes = 0;
        inner.index_bytes = 0;
    }

    fn lock(&self) -> std::sync::RwLockWriteGuard<'_, Inner> {
        self.inner.write().unwrap_or_else(|e| e.into_inner())
    }

    fn read_lock(&self) -> std::sync::RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }

    /// `cand`'s text as [`search::load`] reads it with this cap and
    /// encoding: from memory when the file's stamp is the one it was read
    /// with (and that read was not racy), else from disk (and kept).
    pub fn read(
        &self,
        cand: &Candidate,
        max_bytes: u64,
        encoding: Encoding,
    ) -> Result<(Arc<FileText>, u64), SkipReason> {
        self.read_unless(cand, max_bytes, encoding, None)
            .map(|r| r.expect("no needles, nothing pruned"))
    }

    /// [`ContentCache::read`], or `Ok(None)` for a trusted text whose
    /// trigram filter proves it holds none of `needles` (so no match of
    /// their pattern): it is not searched.
    pub fn read_unless(
        &self,
        cand: &Candidate,
        max_bytes: u64,
        encoding: Encoding,
        needles: Option<&Needles>,
    ) -> Result<Option<(Arc<FileText>, u64)>, SkipReason> {
        // A trusted entry answers without a stat (its path looked up in a
        // buffer of the thread's: most calls end here).
        let (epoch, answer) = LOOKUP.with_borrow_mut(|buf| {
            let abs = cand.abs_in(buf);
            let inner = self.read_lock();
            let slot = inner.entries.slot(key(abs));
            let Some(e) = inner.entries.at(slot).filter(|e| e.trusted) else {
                return (inner.epoch, None);
            };
            let calls = inner.calls;
            if e.stamp.size > max_bytes {
                // Over the cap: the cold reader's skip, unread.
                inner.entries.mark(slot, calls);
                let size = e.stamp.size;
                return (inner.epoch, Some(Err(SkipReason::MaxFileSizeExceeded(size))));
            }
            if e.encoding != encoding {
                return (inner.epoch, None);
            }
            inner.entries.mark(slot, calls);
            if let (Some(n), Some(g)) = (needles, &e.grams)
                && !inner.slices.may_match(g, n)
            {
                self.pruned.fetch_add(1, Ordering::Relaxed);
                return (inner.epoch, Some(Ok(None)));
            }
            let size = e.stamp.size;
            let text = e.text.as_ref().map(|text| shared(text).map(|t| Some((t, size))));
            (inner.epoch, text)
        });
        if let Some(answer) = answer {
            if !matches!(answer, Ok(None)) {
                self.reused.fetch_add(1, Ordering::Relaxed);
            }
            return answer;
        }
        let abs = cand.abs();
        let abs = &*abs;
        let cold = || {
            self.read.fetch_add(1, Ordering::Relaxed);
            search::load(abs, max_bytes, encoding, cand.regular)
                .map(|(text, size)| (Arc::new(text), size))
        };
        // Watched before the stat and the read: a change after them is an
        // event.
        let watched = self.watched(abs);
        let Some(stamp) = Stamp::of(abs) else { return cold().map(Some) };
        if stamp.size > max_bytes {
            // The cold reader's skip (it reads 64 KiB before it looks at the
            // size); its size kept, for the next call to skip it unread.
            self.read.fetch_add(1, Ordering::Relaxed);
            self.keep_size(abs, stamp, watched, epoch);
            return Err(SkipReason::MaxFileSizeExceeded(stamp.size));
        }
        // The filter of a text held without it, when the file is the one
        // it was made of (not a racy read: the same stamp proves it).
        let mut kept_grams = None;
        {
            let mut guard = self.lock();
            let inner = &mut *guard;
            let calls = inner.calls;
            let same_epoch = inner.epoch == epoch;
            let slot = inner.entries.slot(key(abs));
            if inner.entries.at(slot).is_some_and(|e| e.stamp == stamp && e.encoding == encoding) {
                inner.entries.mark(slot, calls);
            }
            if let Some(e) = inner.entries.at_mut(slot)
                && e.stamp == stamp
                && e.encoding == encoding
            {
                e.trusted |= watched && same_epoch && stamp.nlink == 1;
                // The same stamp proves the filter is the file's (as it
                // proves the text is): ruled out without a read.
                if let (Some(n), Some(g)) = (needles, &e.grams)
                    && !inner.slices.may_match(g, n)
                {
                    drop(guard);
                    self.pruned.fetch_add(1, Ordering::Relaxed);
                    return Ok(None);
                }
                match e.text.as_ref().map(shared) {
                    Some(text) => {
                        drop(guard);
                        self.reused.fetch_add(1, Ordering::Relaxed);
                        return text.map(|t| Some((t, stamp.size)));
                    }
                    None if !e.racy => kept_grams = e.grams.clone(),
                    None => {}
                }
            }
        }
        // Read after the stamp: a write after it changes the stamp (or
        // falls in the racy window), and is an event if watched.
        let started = SystemTime::now();
        self.read.fetch_add(1, Ordering::Relaxed);
        let result = search::load(abs, max_bytes, encoding, cand.regular);
        let text = match result {
            Ok((text, size)) => {
                let text = Arc::new(if size == stamp.size { text.compact() } else { text });
                if size == stamp.size {
                    let kept = Kept { text: Ok(text.clone()), grams: kept_grams };
                    self.keep(abs, stamp, encoding, kept, started, watched, epoch);
                }
                return Ok(Some((text, size)));
            }
            Err(SkipReason::Binary) => Err(SkipReason::Binary),
            Err(other) => return Err(other),
        };
        let kept = Kept { text: text.clone(), grams: None };
        self.keep(abs, stamp, encoding, kept, started, watched, epoch);
        text.map(|t| Some((t, stamp.size)))
    }

    /// Keeps a text read at `started` under `stamp` (trusted when its
    /// directory was `watched` before the read, the file has one link and
    /// no drain read events since `epoch`), unless the read was racy and is
    /// not trusted. Where the budget has no room for the text, its filter
    /// alone is kept if there is (see the module's notes).
    #[allow(clippy::too_many_arguments)]
    fn keep(
        &self,
        abs: &Path,
        stamp: Stamp,
        encoding: Encoding,
        kept: Kept,
        started: SystemTime,
        watched: bool,
        epoch: u64,
    ) {
        let started_ns =
            started.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i128);
        let racy = stamp.racy(started_ns);
        let may_trust = watched && stamp.nlink == 1;
        if racy && !may_trust {
            return;
        }
        let Kept { text, grams } = kept;
        // A new filter's trigrams are found without the lock, now or after
        // the call (see the `deferred` module).
        let defer = grams.is_none() && self.defers();
        let trigrams = match (&grams, &text) {
            _ if defer => None,
            (None, Ok(t)) => match &**t {
                FileText::Utf8(s) => Some(Trigrams::of(s)),
                FileText::Utf16 { .. } => None,
            },
            _ => None,
        };
        let index_bytes = grams
            .as_ref()
            .map(Filter::bytes)
            .or_else(|| trigrams.as_ref().map(Trigrams::filter_bytes))
            .unwrap_or(0);
        let text_bytes = match &text {
            Ok(t) => text_bytes(t),
            Err(_) => 0,
        };
        let lean = abs.as_os_str().len() as u64 + ENTRY_BYTES + index_bytes;
        let limit = self.limit();
        let mut inner = self.lock();
        let trusted = may_trust && inner.epoch == epoch;
        if racy && !trusted {
            return;
        }
        inner.remove(abs);
        // The text and its filter; else the filter alone; else nothing.
        let whole = inner.room(lean + text_bytes, limit, Room::Stale);
        let filtered = grams.is_some() || trigrams.is_some();
        let text = if whole {
            Some(text.map(|t| Shared::new(t, &self.grave)))
        } else if filtered && inner.room(lean, limit, Room::Texts) {
            None
        } else {
            return;
        };
        // (A filter kept from a store since cleared is not this store's.)
        let grams = match grams {
            Some(f) => inner.slices.adopt(f),
            None => trigrams.map(|t| inner.slices.insert(t)),
        };
        let text_bytes = if text.is_some() { text_bytes } else { 0 };
        let bytes = lean + text_bytes;
        let used = inner.calls;
        if defer && let Some(Ok(t)) = &text {
            self.queue(key(abs), t.arc());
        }
        inner.add(
            abs,
            Entry { stamp, encoding, text, bytes, text_bytes, trusted, racy, grams },
            used,
        );
    }
}

impl ContentCache {
    /// Keeps the stamp of a file over a call's size cap (no text, no
    /// filter), trusted as [`ContentCache::keep`] trusts a text; a size is
    /// never racy (a write that changes it changes the stamp).
    fn keep_size(&self, abs: &Path, stamp: Stamp, watched: bool, epoch: u64) {
        let bytes = abs.as_os_str().len() as u64 + ENTRY_BYTES;
        let limit = self.limit();
        let mut inner = self.lock();
        let trusted = watched && stamp.nlink == 1 && inner.epoch == epoch;
        inner.remove(abs);
        if !inner.room(bytes, limit, Room::Stale) {
            return;
        }
        let used = inner.calls;
        inner.add(
            abs,
            Entry {
                stamp,
                encoding: Encoding::Utf8,
                text: None,
                bytes,
                text_bytes: 0,
                trusted,
                racy: false,
                grams: None,
            },
            used,
        );
    }
}

/// An entry's text (or that it is binary), shared.
fn shared(text: &Result<Shared, SkipReason>) -> Result<Arc<FileText>, SkipReason> {
    text.as_ref().map(|t| t.arc().clone()).map_err(Clone::clone)
}

/// What [`ContentCache::keep`] is given to keep: the text read and, when a
/// text-less entry of the same file held it, its filter.
struct Kept {
    text: Result<Arc<FileText>, SkipReason>,
    grams: Option<Filter>,
}

/// The bytes an entry takes besides its key, text and filter: the entry,
/// its key's box, the table's slot and its mark, the text's and filter's `Arc`s.
const ENTRY_BYTES: u64 = (std::mem::size_of::<Entry>()
    + std::mem::size_of::<Box<[u8]>>()
    + 8
    + 8
    + 2 * 16
    + std::mem::size_of::<FileText>()) as u64;

/// The key of `path` in [`Inner::entries`].
fn key(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

thread_local! {
    /// A thread's buffer for the absolute paths it looks up.
    static LOOKUP: std::cell::RefCell<PathBuf> = std::cell::RefCell::new(PathBuf::new());
}

/// The memory a text holds.
fn text_bytes(text: &FileText) -> u64 {
    match text {
        FileText::Utf8(s) => s.capacity() as u64,
        FileText::Utf16 { units, .. } => units.capacity() as u64 * 2 + units.len() as u64 / 8,
    }
}

mod budget;
mod deferred;
mod pin;
mod resolve;
mod stamp;
pub(crate) use stamp::Stamp;
#[cfg(test)]
mod tests;

use budget::Room;
use pin::{Graveyard, Shared};
pub use resolve::{Look, Resolved, Slots};
