//! A map from paths to entries whose entries sit in numbered slots, so that
//! a list of paths asked about at every call (a session's shared
//! candidates) is looked up once and then read by slot number.
//!
//! A path keeps its slot while it is in the table, even while it has no
//! entry (a file whose text was dropped, then read again, goes back to its
//! slot): slot numbers taken at one [`Table::version`] name the same paths
//! while the version's first part is the same. Paths without an entry are
//! forgotten (their slots freed, the first part bumped) only when they
//! outnumber the entries.
//!
//! Each slot has a mark (a number its owner sets through a shared
//! reference: the session's "last used" call) kept apart from the entries,
//! eight bytes a slot side by side: a call that marks every entry it uses
//! writes a few pages, not one line in each entry (after the process forks,
//! each page written is a copy-on-write fault).

use std::sync::atomic::{AtomicU64, Ordering};

use rustc_hash::FxHashMap;

/// No slot (a path not in the table).
pub const NO_SLOT: u32 = u32::MAX;

/// Entries by path, in numbered slots.
#[derive(Debug)]
pub struct Table<E> {
    index: FxHashMap<Box<[u8]>, u32>,
    slots: Vec<Option<E>>,
    /// Each slot's mark.
    marks: Vec<AtomicU64>,
    free: Vec<u32>,
    /// Slots holding an entry.
    live: usize,
    /// Bumped when a freed slot may name another path.
    generation: u64,
    /// Bumped when a path gets a slot.
    added: u64,
}

impl<E> Default for Table<E> {
    fn default() -> Table<E> {
        Table {
            index: FxHashMap::default(),
            slots: Vec::new(),
            marks: Vec::new(),
            free: Vec::new(),
            live: 0,
            generation: 0,
            added: 0,
        }
    }
}

impl<E> Table<E> {
    /// Entries held.
    pub fn len(&self) -> usize {
        self.live
    }

    /// `(generation, added)`: slot numbers taken at a version name the same
    /// paths while the generation is the same; a path may have got a slot
    /// since when `added` moved.
    pub fn version(&self) -> (u64, u64) {
        (self.generation, self.added)
    }

    /// The slot of `key`, or [`NO_SLOT`].
    pub fn slot(&self, key: &[u8]) -> u32 {
        self.index.get(key).copied().unwrap_or(NO_SLOT)
    }

    /// The entry in `slot`.
    pub fn at(&self, slot: u32) -> Option<&E> {
        self.slots.get(slot as usize).and_then(Option::as_ref)
    }

    /// The entry of `key`.
    pub fn get(&self, key: &[u8]) -> Option<&E> {
        self.at(self.slot(key))
    }

    /// The entry of `key`, to change.
    pub fn get_mut(&mut self, key: &[u8]) -> Option<&mut E> {
        let slot = self.slot(key);
        self.slots.get_mut(slot as usize).and_then(Option::as_mut)
    }

    /// Takes the entry of `key` out (the path keeps its slot).
    pub fn remove(&mut self, key: &[u8]) -> Option<E> {
        let slot = self.slot(key);
        let old = self.slots.get_mut(slot as usize).and_then(Option::take);
        if old.is_some() {
            self.live -= 1;
            self.compact_if_sparse();
        }
        old
    }

    /// Puts `entry` in the slot of `key` (given one if it has none),
    /// returning the entry it replaces; the slot's mark is 0.
    #[cfg(test)]
    pub fn insert(&mut self, key: &[u8], entry: E) -> Option<E> {
        self.insert_marked(key, entry, 0)
    }

    /// [`Table::insert`], the slot marked `mark`.
    pub fn insert_marked(&mut self, key: &[u8], entry: E, mark: u64) -> Option<E> {
        let slot = match self.index.get(key) {
            Some(&slot) => slot,
            None => {
                let slot = self.free.pop().unwrap_or_else(|| {
                    self.slots.push(None);
                    self.marks.push(AtomicU64::new(0));
                    (self.slots.len() - 1) as u32
                });
                self.index.insert(key.into(), slot);
                self.added += 1;
                slot
            }
        };
        let old = self.slots[slot as usize].replace(entry);
        self.marks[slot as usize].store(mark, Ordering::Relaxed);
        if old.is_none() {
            self.live += 1;
        }
        old
    }

    /// Asks the processor to bring the entry in `slot` into its cache (a
    /// hint: any slot number is fine): a pass over many slots whose order is
    /// not the table's waits on each entry's cache miss otherwise.
    #[inline]
    pub fn prefetch(&self, slot: u32) {
        let at = self.slots.as_ptr().wrapping_add(slot as usize).cast::<u8>();
        for line in 0..3 {
            prefetch(at.wrapping_add(64 * line));
        }
    }

    /// Marks `slot` (when it is one) with `mark`.
    pub fn mark(&self, slot: u32, mark: u64) {
        if let Some(m) = self.marks.get(slot as usize) {
            m.store(mark, Ordering::Relaxed);
        }
    }

    /// The entries with their slots' marks.
    pub fn values_marked(&self) -> impl Iterator<Item = (&E, u64)> {
        self.slots
            .iter()
            .zip(&self.marks)
            .filter_map(|(e, m)| e.as_ref().map(|e| (e, m.load(Ordering::Relaxed))))
    }

    /// The entry in `slot`, to change.
    pub fn at_mut(&mut self, slot: u32) -> Option<&mut E> {
        self.slots.get_mut(slot as usize).and_then(Option::as_mut)
    }

    /// Forgets every path (slot numbers taken before name none).
    pub fn clear(&mut self) {
        self.index = FxHashMap::default();
        self.slots = Vec::new();
        self.marks = Vec::new();
        self.free = Vec::new();
        self.live = 0;
        self.generation += 1;
    }

    /// The entries.
    pub fn values(&self) -> impl Iterator<Item = &E> {
        self.slots.iter().flatten()
    }

    /// The entries, to change.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut E> {
        self.slots.iter_mut().flatten()
    }

    /// Keeps the entries `keep` says to keep (it may change them).
    pub fn retain(&mut self, mut keep: impl FnMut(&mut E) -> bool) {
        self.retain_marked(|e, _| keep(e));
    }

    /// [`Table::retain`], `keep` given each slot's mark too.
    pub fn retain_marked(&mut self, mut keep: impl FnMut(&mut E, u64) -> bool) {
        for (slot, mark) in self.slots.iter_mut().zip(&self.marks) {
            if let Some(e) = slot
                && !keep(e, mark.load(Ordering::Relaxed))
            {
                *slot = None;
                self.live -= 1;
            }
        }
        self.compact_if_sparse();
    }

    /// Forgets the paths without an entry when they outnumber the entries.
    fn compact_if_sparse(&mut self) {
        let empty = self.index.len() - self.live;
        if empty <= self.live + 1024 {
            return;
        }
        let slots = &self.slots;
        let free = &mut self.free;
        self.index.retain(|_, slot| {
            let kept = slots[*slot as usize].is_some();
            if !kept {
                free.push(*slot);
            }
            kept
        });
        self.generation += 1;
    }
}

/// Asks the processor to bring the cache line at `at` into its cache: a
/// hint, which reads nothing and cannot fault, whatever the address (make
/// it with `wrapping_add`, without dereferencing). Nothing elsewhere than
/// on x86-64.
#[inline(always)]
pub fn prefetch(at: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(at.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_name_the_same_paths_until_the_generation_moves() {
        let mut t = Table::default();
        assert_eq!(t.insert(b"a", 1), None);
        assert_eq!(t.insert(b"b", 2), None);
        let (a, b) = (t.slot(b"a"), t.slot(b"b"));
        let v = t.version();
        // Taken out, put back: the same slot, the same version.
        assert_eq!(t.remove(b"a"), Some(1));
        assert_eq!(t.get(b"a"), None);
        assert_eq!(t.insert(b"a", 3), None);
        assert_eq!((t.slot(b"a"), t.version()), (a, v));
        assert_eq!(t.insert(b"a", 4), Some(3));
        assert_eq!((t.at(a), t.at(b), t.len()), (Some(&4), Some(&2), 2));
        // A new path: `added` moves, the generation does not.
        t.insert(b"c", 5);
        assert_eq!(t.version().0, v.0);
        assert_ne!(t.version().1, v.1);
        assert_eq!(t.slot(b"zzz"), NO_SLOT);
        // Many paths emptied: forgotten, slots reused, generation moved.
        let g = t.version().0;
        for i in 0..3000u32 {
            t.insert(&i.to_le_bytes(), 0);
        }
        t.retain(|&mut v| v != 0);
        assert_eq!(t.len(), 3);
        assert_ne!(t.version().0, g);
        assert_eq!(t.slot(&7u32.to_le_bytes()), NO_SLOT);
        assert_eq!((t.get(b"a"), t.get(b"b"), t.get(b"c")), (Some(&4), Some(&2), Some(&5)));
        let before = t.slots.len();
        t.insert(b"d", 6);
        assert_eq!(t.slots.len(), before);
        assert_eq!(t.values().copied().sum::<i32>(), 17);
    }

    #[test]
    fn marks_stay_with_their_slots_and_are_set_by_each_insert() {
        let mut t = Table::default();
        t.insert_marked(b"a", 'a', 5);
        t.insert_marked(b"b", 'b', 7);
        t.mark(t.slot(b"a"), 9);
        t.mark(NO_SLOT, 1);
        let mut seen: Vec<_> = t.values_marked().map(|(e, m)| (*e, m)).collect();
        seen.sort();
        assert_eq!(seen, [('a', 9), ('b', 7)]);
        // Replaced: the new entry's mark.
        t.insert_marked(b"a", 'A', 2);
        let mut kept = Vec::new();
        t.retain_marked(|e, m| {
            kept.push((*e, m));
            m > 2
        });
        kept.sort();
        assert_eq!(kept, [('A', 2), ('b', 7)]);
        assert_eq!((t.get(b"a"), t.get(b"b")), (None, Some(&'b')));
    }
}
