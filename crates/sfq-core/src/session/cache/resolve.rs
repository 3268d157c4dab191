//! A call's candidates resolved against the cache at its start: what it
//! holds of each (a text, "ruled out by the index", "over the size cap"),
//! looked up once for the whole list, by the slots kept with a session's
//! shared candidate lists.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::pin::{Lent, Pin, Shared};
use super::{ContentCache, key};
use crate::discovery::Candidate;
use crate::search::{FileText, SkipReason};
use crate::session::grams::Needles;
use crate::text::Encoding;

/// Where a session's cache keeps the files of a shared candidate list (see
/// [`crate::discovery::Candidates`]): each one's slot in its table, taken
/// at a version of the table (see [`Table::version`]).
#[derive(Debug, Default)]
pub struct Slots(std::sync::Mutex<Option<SlotIds>>);

/// A table version and the slot of each candidate at it.
pub(super) type SlotIds = ((u64, u64), Arc<[u32]>);

/// How many candidates ahead of the one looked at the pass asks for the
/// entry of (see [`super::super::table::Table::prefetch`]).
const PREFETCH_AHEAD: usize = 8;

/// A part of the index pass's slots, looked up at a table version.
type Looked = ((u64, u64), Vec<u32>);

impl Slots {
    pub(super) fn get(&self) -> Option<SlotIds> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub(super) fn set(&self, version: (u64, u64), ids: Vec<u32>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some((version, ids.into()));
    }
}

/// What a session holds of a candidate at the start of a call (see
/// [`ContentCache::resolve`]), its text lent under the call's pin.
#[derive(Debug, Clone)]
enum Held {
    Unknown,
    Pruned,
    TooLarge(u64),
    Text(Result<Lent, SkipReason>, u64),
}

/// What a session holds of a candidate at the start of a call, as
/// [`Resolved::get`] tells it.
#[derive(Debug, Clone)]
pub enum Look<'a> {
    /// Nothing it can answer without a stat: read the usual way.
    Unknown,
    /// Its trigram filter proves it holds no match: not searched.
    Pruned,
    /// Over the size cap: skipped unread (its size).
    TooLarge(u64),
    /// Its text (or that it is binary) and size.
    Text(Result<&'a FileText, SkipReason>, u64),
}

/// A call's candidates resolved against the cache at its start (see
/// [`ContentCache::resolve`]): the texts it holds are lent for as long as
/// this lives, without a reference count each (see [`super::pin`]).
#[derive(Debug)]
pub struct Resolved {
    held: Vec<Held>,
    pin: Pin,
}

impl Resolved {
    /// What was found of the `i`-th candidate.
    pub fn get(&self, i: usize) -> Option<Look<'_>> {
        Some(match self.held.get(i)? {
            Held::Unknown => Look::Unknown,
            Held::Pruned => Look::Pruned,
            Held::TooLarge(size) => Look::TooLarge(*size),
            Held::Text(text, size) => {
                Look::Text(text.as_ref().map(|t| t.get(&self.pin)).map_err(|e| e.clone()), *size)
            }
        })
    }

    /// Candidates resolved.
    pub fn len(&self) -> usize {
        self.held.len()
    }

    /// Whether no candidate was resolved.
    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// Whether the index ruled the `i`-th candidate out.
    pub fn is_pruned(&self, i: usize) -> bool {
        matches!(self.held.get(i), Some(Held::Pruned))
    }

    /// Asks the processor for what the search of the `i`-th candidate
    /// (any number) will touch first, a hint: its text's header, and with
    /// `bytes` its first bytes too, which reads that header (ask for it a
    /// few candidates earlier). A warm search over many small texts
    /// otherwise waits on two cache misses a file, one after the other.
    #[inline]
    pub fn prefetch(&self, i: usize, bytes: bool) {
        let Some(Held::Text(Ok(lent), _)) = self.held.get(i) else { return };
        let text = lent.get(&self.pin);
        if !bytes {
            crate::session::table::prefetch(std::ptr::from_ref(text).cast());
            return;
        }
        let first = match text {
            FileText::Utf8(s) => s.as_ptr(),
            FileText::Utf16 { units, .. } => units.as_ptr().cast(),
        };
        crate::session::table::prefetch(first);
        crate::session::table::prefetch(first.wrapping_add(64));
    }
}

impl ContentCache {
    /// For each candidate, whether it is a trusted text of this encoding,
    /// within `max_bytes`, whose trigram filter proves it holds none of
    /// `needles` (see [`ContentCache::resolve`]).
    pub fn pruned(
        &self,
        candidates: &[Candidate],
        slots: Option<&Slots>,
        max_bytes: u64,
        encoding: Encoding,
        needles: &Needles,
        threads: usize,
    ) -> Option<Vec<bool>> {
        let held = self.resolve(candidates, slots, max_bytes, encoding, Some(needles), threads);
        Some((0..held.len()).map(|i| held.is_pruned(i)).collect())
    }

    /// What [`ContentCache::read_unless`] would answer for each candidate
    /// without a stat, at one moment (one read lock): for a trusted entry
    /// (the watch vouches for it), `Pruned` when its trigram filter proves
    /// it holds none of `needles` (counted as pruned), its size when past
    /// `max_bytes`, its text of this encoding; `Unknown` for the rest,
    /// which are read the usual way. On up to `threads` threads. With
    /// `slots` (the candidates are a session's shared list), each file's
    /// slot is looked up by path once and then read from there while the
    /// table's slots name the same paths: a warm call looks no path up.
    pub fn resolve(
        &self,
        candidates: &[Candidate],
        slots: Option<&Slots>,
        max_bytes: u64,
        encoding: Encoding,
        needles: Option<&Needles>,
        threads: usize,
    ) -> Resolved {
        let memo = slots.and_then(Slots::get).filter(|(_, ids)| ids.len() == candidates.len());
        // One read lock for the whole pass: the filters' places and the
        // blocks read are those of one moment.
        let inner = self.read_lock();
        // Taken under that lock, before the entries are looked at: the texts
        // lent stay alive while it is held, and a text made after it cannot
        // be lent to it (see `pin`).
        let pin = self.grave.pin();
        let calls = inner.calls;
        let version = inner.entries.version();
        // Which files of each block may match: one word per 64 files.
        let matching = needles.map(|n| inner.slices.matching(n));
        let part = |start: usize, cands: &[Candidate]| {
            let ids = memo
                .as_ref()
                .filter(|(v, _)| *v == version)
                .map(|(_, ids)| &ids[start..start + cands.len()]);
            let mut fresh = (ids.is_none() && slots.is_some()).then(Vec::new);
            let mut abs = std::path::PathBuf::new();
            let mut count = 0;
            let held: Vec<Held> = cands
                .iter()
                .enumerate()
                .map(|(j, c)| {
                    let slot = match ids {
                        Some(ids) => {
                            // The entries a few candidates on, on their way.
                            if let Some(&ahead) = ids.get(j + PREFETCH_AHEAD) {
                                inner.entries.prefetch(ahead);
                            }
                            ids[j]
                        }
                        None => {
                            let slot = inner.entries.slot(key(c.abs_in(&mut abs)));
                            if let Some(f) = &mut fresh {
                                f.push(slot);
                            }
                            slot
                        }
                    };
                    let Some(e) = inner.entries.at(slot) else { return Held::Unknown };
                    if c.missing.is_some() || !e.trusted {
                        return Held::Unknown;
                    }
                    if e.stamp.size > max_bytes {
                        inner.entries.mark(slot, calls);
                        return Held::TooLarge(e.stamp.size);
                    }
                    if e.encoding != encoding {
                        return Held::Unknown;
                    }
                    if let (Some(m), Some(g)) = (&matching, &e.grams)
                        && !m.may(g)
                    {
                        inner.entries.mark(slot, calls);
                        count += 1;
                        return Held::Pruned;
                    }
                    match &e.text {
                        Some(text) => {
                            inner.entries.mark(slot, calls);
                            Held::Text(
                                text.as_ref().map(Shared::lend).map_err(Clone::clone),
                                e.stamp.size,
                            )
                        }
                        None => Held::Unknown,
                    }
                })
                .collect();
            self.pruned.fetch_add(count, Ordering::Relaxed);
            (held, fresh.map(|f| (version, f)))
        };
        // Each file is a cache miss or two (its entry; its key too without
        // slots): worth threads from a few thousand on.
        let results: Vec<(Vec<Held>, Option<Looked>)> =
            crate::session::in_parts(candidates.len(), threads, 4096, |r| {
                part(r.start, &candidates[r])
            })
            .into_iter()
            // (A part that panicked rules nothing out.)
            .map(|(r, done)| done.unwrap_or_else(|_| (r.map(|_| Held::Unknown).collect(), None)))
            .collect();
        drop(inner);
        let mut held = Vec::with_capacity(candidates.len());
        let mut ids = Vec::new();
        let mut versions = Vec::new();
        for (h, fresh) in results {
            held.extend(h);
            if let Some((v, f)) = fresh {
                versions.push(v);
                ids.extend(f);
            }
        }
        // Every part looked its slots up at the same version: the memo.
        if let Some(slots) = slots
            && ids.len() == candidates.len()
            && versions.windows(2).all(|w| w[0] == w[1])
            && let Some(&v) = versions.first()
        {
            slots.set(v, ids);
        }
        Resolved { held, pin }
    }

    /// Counts a text handed out from a [`Held::Text`] as reused.
    pub fn note_reused(&self) {
        self.reused.fetch_add(1, Ordering::Relaxed);
    }
}
