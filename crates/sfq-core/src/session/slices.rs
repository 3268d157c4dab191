//! The session's trigram filters, stored bit-sliced: a call's index pass
//! reads one word per 64 files, not one per file.
//!
//! Each text's filter ([`super::grams`]) has `64 << c` bits for some class
//! `c` (at least [`super::grams::BITS_PER_GRAM`] per distinct trigram). The
//! filters of one class are the columns of a bit matrix kept in blocks of
//! 64 columns: word `r` of a block holds bit `r` of each of its 64 filters.
//! A pattern's literal rules a block's files out together: the AND of the
//! rows of its trigrams, one word each, is the set of the 64 files that may
//! hold it ([`Slices::matching`]); the pass then reads one bit per file.
//!
//! Filters of more than [`MAX_SLICED_ROWS`] bits (texts of some 4,700
//! distinct trigrams and more: a few large files) are kept whole, one
//! allocation each, and probed one by one: a block of 64 of them would hold
//! megabytes for a single file.
//!
//! A filter is owned by the entries holding its [`Filter`] (an entry whose
//! text is read again with the same stamp keeps it); when the last holder
//! goes, its column is queued, taken back by the next [`Slices::sweep`],
//! and cleared with the other columns taken back, one pass per block, once
//! a block's worth waits or at a compaction, before it is given again. Columns left free in the middle are filled by moving
//! the last ones down ([`Slices::compact`]), so that each class holds at
//! most a quarter and one block more than its filters need.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use super::grams::{Needles, Trigrams, slot};

/// The most bits a bit-sliced filter has (a block of its class then takes
/// 256 KiB).
pub const MAX_SLICED_ROWS: usize = 1 << 15;

/// A filter's place: its class in the high half, its column in the low.
type Place = u64;

fn place(class: usize, column: usize) -> Place {
    ((class as u64) << 32) | column as u64
}

fn split(p: Place) -> (usize, usize) {
    ((p >> 32) as usize, (p & 0xFFFF_FFFF) as usize)
}

/// A held filter's column; its place moves when the matrix is compacted.
#[derive(Debug)]
pub struct Column {
    place: AtomicU64,
    /// Where the column goes when its last holder does.
    released: Arc<Mutex<Vec<Place>>>,
}

impl Drop for Column {
    fn drop(&mut self) {
        let p = self.place.load(Ordering::Relaxed);
        self.released.lock().unwrap_or_else(|e| e.into_inner()).push(p);
    }
}

/// A text's filter as an entry holds it: its column, where that column was
/// when last looked (read without following the column's pointer: one cache
/// miss less per file in the pass), and the guards the text trips.
#[derive(Debug, Clone)]
pub struct Filter {
    /// The store it is held in.
    store: u64,
    bits: Bits,
    trips: u8,
    rows: u32,
}

/// Where a filter's bits are.
#[derive(Debug, Clone)]
enum Bits {
    /// A column of its class's blocks.
    Sliced { column: Arc<Column>, at: Place },
    /// Its own words (a large filter).
    Whole(Arc<[u64]>),
}

impl Filter {
    /// The guards the text trips (see [`super::grams`]).
    #[cfg(test)]
    pub fn trips(&self) -> u8 {
        self.trips
    }

    /// Bytes the filter takes (its column's share of its blocks, and its
    /// bookkeeping).
    pub fn bytes(&self) -> u64 {
        u64::from(self.rows) / 8 + 64
    }

    /// Takes the column's place again (after [`Slices::compact`]).
    pub fn refresh(&mut self) {
        if let Bits::Sliced { column, at } = &mut self.bits {
            *at = column.place.load(Ordering::Relaxed);
        }
    }

    /// Whether the filter holds every key of one of `literals`.
    fn whole_may(words: &[u64], literals: &[Vec<u32>]) -> bool {
        literals.iter().any(|keys| {
            keys.iter().all(|&k| {
                let h = slot(k, words.len());
                words[h / 64] & (1 << (h % 64)) != 0
            })
        })
    }
}

/// The filters of one size.
#[derive(Debug, Default)]
struct Class {
    /// Bits per filter (words per block).
    rows: usize,
    blocks: Vec<Box<[u64]>>,
    /// Each column's holder (dangling when free or released).
    owners: Vec<Weak<Column>>,
    /// Free columns (their bits cleared), lowest first.
    free: BinaryHeap<Reverse<u32>>,
    /// Per block, the columns released whose bits are still to clear (a
    /// pass over a block clears them all at once: see [`Class::clean`]).
    dirty: Vec<u64>,
    /// How many columns `dirty` holds.
    dirty_count: usize,
    /// Columns held.
    live: usize,
}

impl Class {
    /// Clears the released columns' bits, one pass per block holding some,
    /// and makes them free.
    fn clean(&mut self) {
        if self.dirty_count == 0 {
            return;
        }
        for (b, mask) in self.dirty.iter_mut().enumerate() {
            if *mask == 0 {
                continue;
            }
            for w in self.blocks[b].iter_mut() {
                *w &= !*mask;
            }
            let mut m = *mask;
            while m != 0 {
                self.free.push(Reverse((b * 64) as u32 + m.trailing_zeros()));
                m &= m - 1;
            }
            *mask = 0;
        }
        self.dirty_count = 0;
    }
}

/// Every held filter, bit-sliced by class.
#[derive(Debug)]
pub struct Slices {
    /// This store's number (a filter made in another is not used here).
    id: u64,
    classes: Vec<Class>,
    released: Arc<Mutex<Vec<Place>>>,
}

impl Default for Slices {
    fn default() -> Slices {
        static STORES: AtomicU64 = AtomicU64::new(0);
        Slices {
            id: STORES.fetch_add(1, Ordering::Relaxed),
            classes: Vec::new(),
            released: Arc::new(Mutex::new(Vec::new())),
        }
    }
}

/// Which files of each block may match a pattern (see [`Slices::matching`]).
#[derive(Debug)]
pub struct Matching<'n> {
    /// Per class, per block, a bit per column.
    classes: Vec<Vec<u64>>,
    needles: &'n Needles,
}

impl Matching<'_> {
    /// Whether the text `f` is the filter of may hold a match (`false`: it
    /// certainly holds none).
    pub fn may(&self, f: &Filter) -> bool {
        if f.trips & self.needles.guard_bits() != 0 {
            return true;
        }
        match &f.bits {
            Bits::Sliced { at, .. } => {
                let (class, column) = split(*at);
                self.classes
                    .get(class)
                    .and_then(|blocks| blocks.get(column / 64))
                    .is_none_or(|w| w >> (column % 64) & 1 != 0)
            }
            Bits::Whole(words) => Filter::whole_may(words, self.needles.literals()),
        }
    }
}

impl Slices {
    /// Holds the filter of `grams` (the trigrams of a text).
    pub fn insert(&mut self, grams: Trigrams) -> Filter {
        // Released columns first: a place is never given while a release
        // of it waits.
        self.sweep();
        let rows = grams.rows();
        if rows > MAX_SLICED_ROWS {
            let (trips, rows) = (grams.trips(), rows as u32);
            let bits = Bits::Whole(grams.into_words().into());
            return Filter { store: self.id, bits, trips, rows };
        }
        let class = (rows / 64).trailing_zeros() as usize;
        if self.classes.len() <= class {
            self.classes.resize_with(class + 1, Class::default);
        }
        let cl = &mut self.classes[class];
        cl.rows = rows;
        // The lowest free column (keeps the held ones low: see `compact`);
        // released ones are cleared a block's worth at a time.
        if cl.free.is_empty() && cl.dirty_count >= 64 {
            cl.clean();
        }
        let column = match cl.free.pop() {
            Some(Reverse(c)) => c as usize,
            None => {
                cl.blocks.push(vec![0u64; rows].into_boxed_slice());
                cl.dirty.push(0);
                let first = cl.owners.len();
                cl.owners.resize_with(first + 64, Weak::new);
                cl.free.extend((first as u32 + 1..first as u32 + 64).map(Reverse));
                first
            }
        };
        let block = &mut cl.blocks[column / 64];
        let bit = 1u64 << (column % 64);
        for r in grams.set() {
            block[r] |= bit;
        }
        cl.live += 1;
        let at = place(class, column);
        let col = Arc::new(Column { place: AtomicU64::new(at), released: self.released.clone() });
        cl.owners[column] = Arc::downgrade(&col);
        let bits = Bits::Sliced { column: col, at };
        Filter { store: self.id, bits, trips: grams.trips(), rows: rows as u32 }
    }

    /// `f` as a filter of this store (its place taken again), if it is one.
    pub fn adopt(&self, mut f: Filter) -> Option<Filter> {
        (f.store == self.id).then(|| {
            f.refresh();
            f
        })
    }

    /// Whether the text `f` is the filter of may hold a match of `needles`.
    pub fn may_match(&self, f: &Filter, needles: &Needles) -> bool {
        if f.trips & needles.guard_bits() != 0 {
            return true;
        }
        let at = match &f.bits {
            Bits::Sliced { at, .. } => *at,
            Bits::Whole(words) => return Filter::whole_may(words, needles.literals()),
        };
        let (class, column) = split(at);
        let Some((cl, block)) =
            self.classes.get(class).and_then(|cl| Some((cl, cl.blocks.get(column / 64)?)))
        else {
            return true;
        };
        let bit = 1u64 << (column % 64);
        needles
            .literals()
            .iter()
            .any(|keys| keys.iter().all(|&k| block[slot(k, cl.rows / 64)] & bit != 0))
    }

    /// For every held filter, whether its text may hold a match of
    /// `needles`: per block, the AND of each literal's rows, ORed over the
    /// literals.
    pub fn matching<'n>(&self, needles: &'n Needles) -> Matching<'n> {
        let classes = self
            .classes
            .iter()
            .map(|cl| {
                if cl.blocks.is_empty() {
                    return Vec::new();
                }
                let rows: Vec<Vec<usize>> = needles
                    .literals()
                    .iter()
                    .map(|keys| keys.iter().map(|&k| slot(k, cl.rows / 64)).collect())
                    .collect();
                cl.blocks
                    .iter()
                    .map(|block| {
                        let mut any = 0u64;
                        for literal in &rows {
                            let mut all = !0u64;
                            for &r in literal {
                                all &= block[r];
                                if all == 0 {
                                    break;
                                }
                            }
                            any |= all;
                        }
                        any
                    })
                    .collect()
            })
            .collect();
        Matching { classes, needles }
    }

    /// Clears and frees the columns whose last holder went.
    pub fn sweep(&mut self) {
        let released =
            std::mem::take(&mut *self.released.lock().unwrap_or_else(|e| e.into_inner()));
        for p in released {
            let (class, column) = split(p);
            let Some(cl) = self.classes.get_mut(class) else { continue };
            cl.live -= 1;
            // Its block went with a compaction that found it released, or
            // (released too late for that compaction's sweep) its place was
            // given to another filter since: nothing to clear.
            if column >= cl.owners.len() || cl.owners[column].strong_count() > 0 {
                continue;
            }
            cl.owners[column] = Weak::new();
            cl.dirty[column / 64] |= 1 << (column % 64);
            cl.dirty_count += 1;
        }
    }

    /// Moves the last held columns of each class into its lowest free ones
    /// when the blocks held pass what the held columns need by more than a
    /// quarter and one, and frees the emptied blocks. Returns whether a column moved
    /// (its holders must then [`Filter::refresh`]). A class with a column
    /// released meanwhile (its last holder went outside the lock) waits
    /// for the next call.
    pub fn compact(&mut self) -> bool {
        self.sweep();
        let mut moved = false;
        for (class, cl) in self.classes.iter_mut().enumerate() {
            cl.clean();
            let need = cl.live.div_ceil(64);
            // (Columns freed by a branch switch are mostly taken again at
            // once by the files read again: moving others down first would
            // only cost.)
            if cl.blocks.len() <= need + need / 4 + 1 && (need > 0 || cl.blocks.is_empty()) {
                continue;
            }
            let held: Vec<usize> =
                (0..cl.owners.len()).filter(|&c| cl.owners[c].strong_count() > 0).collect();
            if held.len() != cl.live {
                continue;
            }
            let keep = need * 64;
            // (Swept free columns only: one released meanwhile is not.)
            let mut free: Vec<usize> =
                cl.free.iter().map(|c| c.0 as usize).filter(|&c| c < keep).collect();
            let mut all_moved = true;
            for &src in held.iter().rev().take_while(|&&c| c >= keep) {
                // (Released since it was counted: its block may go.)
                let Some(owner) = cl.owners[src].upgrade() else { continue };
                let Some(to) = free.pop() else {
                    all_moved = false;
                    break;
                };
                let (sb, tb) = (1u64 << (src % 64), 1u64 << (to % 64));
                for r in 0..cl.rows {
                    if cl.blocks[src / 64][r] & sb != 0 {
                        cl.blocks[to / 64][r] |= tb;
                    }
                }
                owner.place.store(place(class, to), Ordering::Relaxed);
                cl.owners[to] = Arc::downgrade(&owner);
                moved = true;
            }
            if !all_moved {
                continue;
            }
            cl.blocks.truncate(keep / 64);
            cl.dirty.truncate(keep / 64);
            cl.owners.truncate(keep);
            cl.free = free.into_iter().map(|c| Reverse(c as u32)).collect();
        }
        moved
    }

    /// Bytes of the blocks held.
    #[cfg(test)]
    pub fn bytes(&self) -> u64 {
        self.classes.iter().map(|cl| (cl.blocks.len() * cl.rows * 8) as u64).sum()
    }

    /// Bytes of the blocks' columns no filter holds.
    pub fn slack(&self) -> u64 {
        self.classes.iter().map(|cl| ((cl.owners.len() - cl.live) * cl.rows / 8) as u64).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::{Matcher, Mode};

    fn needles(pattern: &str) -> Needles {
        let units: Vec<u16> = pattern.encode_utf16().collect();
        Needles::of(&Matcher::new(&units, "", Mode::Lines).unwrap()).unwrap()
    }

    /// The pass over the blocks answers what each filter's own test
    /// answers, before and after filters go and the blocks are compacted,
    /// for sliced and whole filters alike; compacting frees blocks.
    #[test]
    fn the_blocks_answer_as_each_filter_does_through_compaction() {
        let mut slices = Slices::default();
        let texts: Vec<String> = (0..300).map(|i| format!("fn word{i:04}() {{}}\n")).collect();
        let mut filters: Vec<Option<Filter>> =
            texts.iter().map(|t| Some(slices.insert(Trigrams::of(t)))).collect();
        // One large text: a filter of its own.
        let big: String = (0..20_000).map(|i| format!("{i:x}")).collect::<Vec<_>>().join(",");
        let whole = slices.insert(Trigrams::of(&format!("{big} word0007")));
        assert!(matches!(whole.bits, Bits::Whole(_)));
        let check = |slices: &Slices, filters: &[Option<Filter>]| {
            for pattern in ["word0007", "word0299", "word9999", "fn word"] {
                let n = needles(pattern);
                let m = slices.matching(&n);
                for (i, f) in filters.iter().enumerate() {
                    let Some(f) = f else { continue };
                    assert_eq!(m.may(f), slices.may_match(f, &n), "{pattern} {i}");
                    if texts[i].contains(pattern) {
                        assert!(m.may(f), "{pattern} {i}");
                    }
                }
                assert!(m.may(&whole) == slices.may_match(&whole, &n));
            }
            assert!(slices.may_match(&whole, &needles("word0007")));
        };
        check(&slices, &filters);
        let full = slices.bytes();
        assert_eq!(slices.slack() % 8, 0);
        // Most filters go; a clone keeps one of them held.
        let kept = filters[250].clone();
        for (i, f) in filters.iter_mut().enumerate() {
            if i % 10 != 0 {
                *f = None;
            }
        }
        assert!(!slices.compact() || slices.bytes() < full);
        let moved = slices.bytes() < full;
        assert!(moved, "{} of {full}", slices.bytes());
        for f in filters.iter_mut().flatten() {
            f.refresh();
        }
        let kept = slices.adopt(kept.unwrap()).unwrap();
        filters[250] = Some(kept);
        check(&slices, &filters);
        // Every column holds exactly its text's bits: the moved ones, and
        // new filters in freed columns (none of the old bits left).
        let fresh: Vec<(String, Filter)> = (0..300)
            .map(|i| {
                let t = format!("zz{i}");
                let f = slices.insert(Trigrams::of(&t));
                (t, f)
            })
            .collect();
        let exact = |slices: &Slices, text: &str, f: &Filter| {
            let Bits::Sliced { at, .. } = &f.bits else { return };
            let (class, column) = split(*at);
            let cl = &slices.classes[class];
            let want: Vec<u32> = Trigrams::of(text).set().map(|r| r as u32).collect();
            let bit = 1u64 << (column % 64);
            let have: Vec<u32> = (0..cl.rows as u32)
                .filter(|&r| cl.blocks[column / 64][r as usize] & bit != 0)
                .collect();
            assert_eq!(have, want, "{text:?}");
        };
        for (t, f) in &fresh {
            exact(&slices, t, f);
        }
        for (i, f) in filters.iter().enumerate() {
            if let Some(f) = f {
                exact(&slices, &texts[i], f);
            }
        }
        check(&slices, &filters);
        // A filter of another store is not adopted.
        let other = Slices::default().insert(Trigrams::of("word0001"));
        assert!(slices.adopt(other).is_none());
    }
}
