//! How the cache stays within its budget: what is dropped, oldest first,
//! to make room.

use std::path::Path;

use super::{Entry, Inner, key};

/// What room may be made by dropping.
#[derive(Clone, Copy)]
pub(super) enum Room {
    /// Whole entries no call used in the last two calls.
    Stale = 0,
    /// Besides those, texts (their filters stay), least recently used first.
    Texts = 1,
}

impl Inner {
    /// Forgets the entry of `path`.
    pub(super) fn remove(&mut self, path: &Path) {
        self.remove_key(key(path));
    }

    pub(super) fn remove_key(&mut self, key: &[u8]) {
        if let Some(old) = self.entries.remove(key) {
            self.forget(&old);
            // Its filter's column, when no one else holds it, is free for
            // the next filter at once (a file read again takes it back).
            drop(old);
            self.slices.sweep();
        }
    }

    /// Holds `entry` for `path` (whose entry was removed), its bytes counted.
    /// `used`: the call that used it last.
    pub(super) fn add(&mut self, path: &Path, entry: Entry, used: u64) {
        self.bytes += entry.bytes;
        self.text_bytes += entry.text_bytes;
        self.index_bytes += entry.grams.as_ref().map_or(0, |g| g.bytes());
        self.entries.insert_marked(key(path), entry, used);
    }

    /// Takes a removed entry's bytes off the counts.
    pub(super) fn forget(&mut self, old: &Entry) {
        self.bytes -= old.bytes;
        self.text_bytes -= old.text_bytes;
        self.index_bytes -= old.grams.as_ref().map_or(0, |g| g.bytes());
    }

    /// Whether `need` more bytes fit within `limit`, after dropping what
    /// `kind` allows (to a little below, so that a scan does not make room
    /// one file at a time).
    pub(super) fn room(&mut self, need: u64, limit: u64, kind: Room) -> bool {
        if self.held() + need <= limit {
            return true;
        }
        if need > limit {
            return false;
        }
        let target = (limit - need).saturating_sub(limit / 16);
        for k in [Room::Stale, Room::Texts] {
            if self.held() + need <= limit || k as u8 > kind as u8 {
                break;
            }
            if self.barren[k as usize] == self.calls {
                continue;
            }
            let before = self.bytes;
            // (The blocks' free columns stay until compacted.)
            let target = target.saturating_sub(self.slices.slack());
            match k {
                Room::Stale => {
                    let calls = self.calls;
                    self.drop_oldest(target, |_, used| used + 1 < calls, false);
                }
                Room::Texts => self.drop_oldest(target, |e, _| e.text_bytes > 0, true),
            }
            if self.bytes == before {
                self.barren[k as usize] = self.calls;
            } else {
                self.compact_slices();
            }
        }
        self.held() + need <= limit
    }

    /// Bytes held: the entries', and the filter blocks' free columns.
    pub(super) fn held(&self) -> u64 {
        self.bytes + self.slices.slack()
    }

    /// Frees the filters no entry holds any more; when that leaves a class's
    /// blocks sparse, moves its last filters down (their holders then take
    /// their new places) and frees the emptied blocks.
    pub(super) fn compact_slices(&mut self) {
        if self.slices.compact() {
            for e in self.entries.values_mut() {
                if let Some(f) = &mut e.grams {
                    f.refresh();
                }
            }
        }
    }

    /// Drops everything past `limit`: texts first, then whole entries,
    /// least recently used first.
    pub(super) fn shrink_to(&mut self, limit: u64) {
        self.drop_oldest(limit.saturating_sub(self.slices.slack()), |e, _| e.text_bytes > 0, true);
        self.compact_slices();
        self.drop_oldest(limit.saturating_sub(self.slices.slack()), |_, _| true, false);
        self.compact_slices();
    }

    /// Until at most `target` bytes are held: of the entries `which`
    /// selects, least recently used first, drops the texts (`texts_only`:
    /// an entry without a filter goes whole) or the whole entries. Two
    /// passes over the table, no copy of its keys.
    pub(super) fn drop_oldest(
        &mut self,
        target: u64,
        which: impl Fn(&Entry, u64) -> bool,
        texts_only: bool,
    ) {
        if self.bytes <= target {
            return;
        }
        let freed =
            |e: &Entry| if texts_only && e.grams.is_some() { e.text_bytes } else { e.bytes };
        // Bytes each age would free, oldest first: the age below which
        // everything goes, and how much more goes at that age.
        let mut by_age = std::collections::BTreeMap::<u64, u64>::new();
        for (e, used) in self.entries.values_marked().filter(|&(e, used)| which(e, used)) {
            *by_age.entry(used).or_default() += freed(e);
        }
        let mut excess = self.bytes - target;
        // Everything older than the cutoff goes; at the cutoff age, only
        // `at_cutoff` more bytes.
        let (mut cutoff, mut at_cutoff) = (u64::MAX, 0);
        for (&age, &bytes) in &by_age {
            if bytes >= excess {
                (cutoff, at_cutoff) = (age, excess);
                break;
            }
            excess -= bytes;
        }
        let (mut bytes, mut text_total, mut index) = (0u64, 0u64, 0u64);
        self.entries.retain_marked(|e, age| {
            let goes = which(e, age)
                && (age < cutoff
                    || (age == cutoff && at_cutoff > 0 && {
                        at_cutoff = at_cutoff.saturating_sub(freed(e));
                        true
                    }));
            if !goes {
                return true;
            }
            if texts_only && e.grams.is_some() {
                bytes += e.text_bytes;
                text_total += e.text_bytes;
                e.bytes -= e.text_bytes;
                e.text_bytes = 0;
                e.text = None;
                true
            } else {
                bytes += e.bytes;
                text_total += e.text_bytes;
                index += e.grams.as_ref().map_or(0, |g| g.bytes());
                false
            }
        });
        self.bytes -= bytes;
        self.text_bytes -= text_total;
        self.index_bytes -= index;
    }
}
