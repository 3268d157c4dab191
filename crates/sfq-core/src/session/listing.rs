//! A session's listings: one whole walk per folder, kept while the watch
//! and the walk's fingerprint say nothing it depends on changed, and
//! filtered for each call as that call's own walk would have listed.
//!
//! The kept walk lists everything (directories too, hidden entries, no
//! pruned name, no filter); a file's size and time are `lstat`ed when a
//! call first asks for them and kept until an event names the file. A
//! call's profile is
//! applied after, as the walk applies it (see sfq-walk's walker): an entry
//! with a hidden component (when hidden entries are not listed) or a pruned
//! name among its directories (its own name too, for a directory) is left
//! out; a file is kept when the filter keeps it; a directory when neither
//! it nor a directory above it is skipped by the filter. A filter that
//! forces ignored paths in, a walk that reports what it dropped, a walk
//! without the ignore files or into submodules, and a walk whose whole
//! listing had unreadable entries or a sparse checkout's left-out paths are
//! not served from here: they walk the tree.
//!
//! A kept listing is compact ([`Whole`]: the paths back to back in one
//! string and sixteen bytes per entry), and its bytes, with the kept sizes
//! and times, count against the session's memory budget.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use rustc_hash::FxHashMap;
use sfq_walk::discovery::{Entry, EntryKind, NotCheckedOut};

use super::cache::Slots;
use super::watch::Drained;
use crate::discovery::{Candidate, DiscoveryProfile};

/// A file's size and modification time, as `lstat` gave them (`None`: it
/// could not be `lstat`ed).
type Meta = Option<(u64, Option<SystemTime>)>;

/// Folders whose listings are kept at once.
const KEPT: usize = 8;

/// The listings of a session.
#[derive(Debug, Default)]
pub struct Listings {
    inner: Mutex<State>,
    /// The most bytes the listings, sizes and times may hold (a listing
    /// past it is not kept: calls walk; sizes and times past it are not
    /// kept: calls `lstat`).
    limit: u64,
}

#[derive(Debug, Default)]
struct State {
    /// Structural changes drained so far: a listing walked before the
    /// last one is stale.
    seq: u64,
    /// Drains that read events so far.
    epoch: u64,
    kept: Vec<Kept>,
    /// Candidate lists filtered from kept listings, most recently used
    /// last.
    views: Vec<View>,
    /// Views asked for so far (the clock of `View::used`).
    view_calls: u64,
    /// Sizes and times `lstat`ed for calls, kept until an event names the
    /// file (by the bytes of the absolute path).
    metas: FxHashMap<Box<[u8]>, Meta>,
    /// Bytes of the keys of `metas`.
    meta_key_bytes: u64,
}

/// A whole listing, compact: each entry's path is the stretch of `paths`
/// from the end of the previous entry's to its own `end`.
#[derive(Debug)]
pub struct Whole {
    /// The folder listed (absolute): an entry's absolute path is this
    /// joined with its path, unless `odd` has it.
    root: PathBuf,
    paths: String,
    items: Vec<Item>,
    /// Absolute paths that are not `root` joined with the (lossy) path: a
    /// name that is not UTF-8.
    odd: FxHashMap<u32, PathBuf>,
    /// Whether the walk met tracked paths a sparse checkout left out (a
    /// call that reports them walks once per profile: see `Store::plan`).
    pub left_out: bool,
    /// What a sparse checkout left out, per profile ([`left_out_key`]), as
    /// the walk of the first call that reported it found: kept with this
    /// listing, so it goes with it at the first change of the tree's
    /// names, of its ignore rules or of the index.
    left_out_memo: Mutex<Vec<(String, NotCheckedOut)>>,
    /// Kept without a watch: what its walk read, stamped (see
    /// [`super::stamps`]); it is current while they hold.
    pub stamps: Option<Arc<super::stamps::Stamps>>,
}

/// At most this many paths of sparse directories are kept in all by a
/// listing's [`Whole::remember_left_out`] (a longer report is walked for
/// at each call).
const KEPT_LEFT_OUT: usize = 1 << 12;
/// At most this many profiles' reports are kept by a listing.
const KEPT_LEFT_OUT_PROFILES: usize = 16;

/// The key of what a sparse checkout left out for `profile`: the settings
/// it depends on (hidden, pruned names, the path filter, folders listed).
pub fn left_out_key(profile: &DiscoveryProfile) -> Option<String> {
    view_key(profile).map(|k| format!("{k} dirs {}", profile.dirs))
}

#[derive(Debug, Clone, Copy)]
struct Item {
    end: u32,
    kind: EntryKind,
    tracked: bool,
    missing: Option<i32>,
}

impl Whole {
    /// The compact form of the entries of a walk of `root` (`None` when
    /// their paths pass 4 GiB).
    pub fn new(root: &Path, entries: Vec<Entry>) -> Option<Whole> {
        let total: usize = entries.iter().map(|e| e.path.len()).sum();
        if u32::try_from(total).is_err() || u32::try_from(entries.len()).is_err() {
            return None;
        }
        let mut paths = String::with_capacity(total);
        let mut items = Vec::with_capacity(entries.len());
        let mut odd = FxHashMap::default();
        for (i, e) in entries.into_iter().enumerate() {
            paths.push_str(&e.path);
            if let Some(abs) = e.abs_path
                && !crate::discovery::joins(root, &e.path, &abs)
            {
                odd.insert(i as u32, *abs);
            }
            items.push(Item {
                end: paths.len() as u32,
                kind: e.kind,
                tracked: e.tracked,
                missing: e.missing,
            });
        }
        Some(Whole {
            root: root.to_path_buf(),
            paths,
            items,
            odd,
            left_out: false,
            left_out_memo: Mutex::default(),
            stamps: None,
        })
    }

    /// The listing, kept without a watch by the stamps of its walk.
    pub fn with_stamps(mut self, stamps: Option<Arc<super::stamps::Stamps>>) -> Whole {
        self.stamps = stamps;
        self
    }

    /// What a sparse checkout left out for the profile of `key`
    /// ([`left_out_key`]), when a call's walk reported it on this listing.
    pub fn left_out_of(&self, key: &str) -> Option<NotCheckedOut> {
        let memo = self.left_out_memo.lock().unwrap_or_else(|e| e.into_inner());
        memo.iter().find(|(k, _)| k == key).map(|(_, n)| n.clone())
    }

    /// Keeps what a call's walk, made while this listing was current,
    /// reported a sparse checkout left out for the profile of `key` (within
    /// [`KEPT_LEFT_OUT`] paths and [`KEPT_LEFT_OUT_PROFILES`] profiles).
    pub fn remember_left_out(&self, key: String, left_out: &NotCheckedOut) {
        let mut memo = self.left_out_memo.lock().unwrap_or_else(|e| e.into_inner());
        let kept: usize = memo.iter().map(|(_, n)| n.dirs.len()).sum();
        if memo.len() >= KEPT_LEFT_OUT_PROFILES
            || kept + left_out.dirs.len() > KEPT_LEFT_OUT
            || memo.iter().any(|(k, _)| *k == key)
        {
            return;
        }
        memo.push((key, left_out.clone()));
    }

    /// The listing, marked as one with paths a sparse checkout left out.
    pub fn with_left_out(mut self, left_out: bool) -> Whole {
        self.left_out = left_out;
        self
    }

    /// Entries listed.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing is listed.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        (self.paths.capacity()
            + self.items.capacity() * std::mem::size_of::<Item>()
            + self.odd.values().map(|p| p.as_os_str().len() + 48).sum::<usize>()
            + self.left_out_bytes()) as u64
            + self.root.as_os_str().len() as u64
            + self.stamps.as_ref().map_or(0, |s| s.bytes())
    }

    /// What the kept reports of paths left out by a sparse checkout take.
    fn left_out_bytes(&self) -> usize {
        let memo = self.left_out_memo.lock().unwrap_or_else(|e| e.into_inner());
        memo.iter()
            .map(|(k, n)| k.len() + 64 + n.dirs.iter().map(|d| d.len() + 24).sum::<usize>())
            .sum()
    }

    /// The path of entry `i`.
    fn path(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.items[i - 1].end as usize };
        &self.paths[start..self.items[i].end as usize]
    }

    /// Entry `i` as the walk gave it (without size and time; its absolute
    /// path when `abs` or when it is not the root joined with the path).
    fn entry(&self, i: usize, abs: bool) -> Entry {
        let item = self.items[i];
        let path = self.path(i);
        let abs_path = match self.odd.get(&(i as u32)) {
            Some(abs) => Some(Box::new(abs.clone())),
            None if abs => Some(Box::new(self.root.join(path))),
            None => None,
        };
        Entry::new(path.into(), abs_path, item.kind, item.tracked, item.missing)
    }
}

/// A kept listing filtered for one profile, as candidates: shared by every
/// call of that profile while the listing is kept.
#[derive(Debug)]
struct View {
    whole: Arc<Whole>,
    key: String,
    items: Arc<Vec<Candidate>>,
    slots: Arc<Slots>,
    /// What the profile's walk drops (the top of each dropped subtree), once
    /// a call walked for it (see [`crate::discovery::Deferred`]).
    dropped: DroppedMemo,
    /// Bytes of the candidates.
    bytes: u64,
    used: u64,
}

/// See [`View::dropped`].
pub type DroppedMemo = Arc<std::sync::OnceLock<crate::discovery::Dropped>>;

/// Views kept at once.
const VIEWS: usize = 16;

/// The key of `profile`'s view of a kept listing: what decides which of
/// its entries a call lists (`None`: a filter without a key; the call
/// filters the listing itself).
pub fn view_key(profile: &DiscoveryProfile) -> Option<String> {
    let filter = match &profile.filter {
        Some(f) => f.key()?,
        None => String::new(),
    };
    Some(format!("{:?} hidden {} filter {filter}", profile.prune_names, profile.hidden))
}

#[derive(Debug)]
struct Kept {
    root: PathBuf,
    fingerprint: Vec<u8>,
    seq: u64,
    /// `None`: this walk cannot be filtered for a call (see the module's
    /// notes), or is too large for the budget; calls walk the tree.
    entries: Option<Arc<Whole>>,
}

/// A kept listing found for a call.
pub enum Found {
    /// The whole listing.
    Entries(Arc<Whole>),
    /// The folder's whole listing is not filterable: walk.
    Walk,
}

impl Listings {
    /// No listings yet; at most `limit` bytes of them.
    pub fn new(limit: u64) -> Listings {
        Listings { inner: Mutex::default(), limit }
    }

    /// Whether a listing of `bytes` may be kept.
    pub fn fits(&self, bytes: u64) -> bool {
        bytes <= self.limit
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Applies a drain of the watch: a structural change (or a lost event)
    /// drops every listing; files changed in place get their size and time
    /// taken again.
    pub fn invalidate(&self, drained: &Drained) {
        if !drained.any && !drained.overflow {
            return;
        }
        let mut st = self.lock();
        st.epoch += 1;
        if drained.structural || drained.overflow {
            st.seq += 1;
            st.kept.clear();
            st.views.clear();
            st.metas = FxHashMap::default();
            st.meta_key_bytes = 0;
            return;
        }
        for path in &drained.files {
            if let Some((k, _)) = st.metas.remove_entry(path.as_os_str().as_encoded_bytes()) {
                st.meta_key_bytes -= k.len() as u64;
            }
        }
    }

    /// The structural sequence and epoch now (taken before a fingerprint
    /// and a walk whose listing is to be kept).
    pub fn clock(&self) -> (u64, u64) {
        let st = self.lock();
        (st.seq, st.epoch)
    }

    /// Forgets every listing.
    pub fn clear(&self) {
        let mut st = self.lock();
        st.kept.clear();
        st.views.clear();
        st.metas = FxHashMap::default();
        st.meta_key_bytes = 0;
    }

    /// Bytes held: the kept listings, sizes and times.
    pub fn bytes(&self) -> u64 {
        let st = self.lock();
        Self::held(&st)
    }

    fn held(st: &State) -> u64 {
        st.kept.iter().filter_map(|k| k.entries.as_ref()).map(|w| w.bytes()).sum::<u64>()
            + st.views.iter().map(|v| v.bytes).sum::<u64>()
            + st.metas.capacity() as u64 * (std::mem::size_of::<(Box<[u8]>, Meta)>() as u64 + 1)
            + st.meta_key_bytes
    }

    /// The kept listing of `root`, if it was walked with this fingerprint
    /// after the last structural change.
    pub fn find(&self, root: &Path, fingerprint: &[u8]) -> Option<Found> {
        let st = self.lock();
        let k = st
            .kept
            .iter()
            .find(|k| k.root == root && k.seq == st.seq && k.fingerprint == fingerprint)?;
        Some(match &k.entries {
            Some(e) => Found::Entries(e.clone()),
            None => Found::Walk,
        })
    }

    /// Keeps the listing of `root` walked at `clock` with `fingerprint`,
    /// unless a structural change was drained since.
    pub fn keep(
        &self,
        root: &Path,
        fingerprint: Vec<u8>,
        clock: (u64, u64),
        entries: Option<Arc<Whole>>,
    ) {
        let mut st = self.lock();
        if st.seq != clock.0 {
            return;
        }
        st.kept.retain(|k| k.root != root);
        if st.kept.len() >= KEPT {
            st.kept.remove(0);
        }
        st.kept.push(Kept { root: root.to_path_buf(), fingerprint, seq: clock.0, entries });
        // Views of listings no longer kept go with them.
        let State { kept, views, .. } = &mut *st;
        views.retain(|v| {
            kept.iter().any(|k| k.entries.as_ref().is_some_and(|w| Arc::ptr_eq(w, &v.whole)))
        });
    }

    /// The candidates `profile` lists from the kept listing `whole`, `key`
    /// its [`view_key`]: filtered once, then shared by the calls of the same
    /// key while the listing is kept (within the budget; past it, filtered
    /// for this call alone), with the cache's memo of their slots.
    pub fn view(
        &self,
        whole: &Arc<Whole>,
        key: String,
        profile: &DiscoveryProfile,
    ) -> (Arc<Vec<Candidate>>, Arc<Slots>, DroppedMemo) {
        {
            let mut st = self.lock();
            st.view_calls += 1;
            let now = st.view_calls;
            if let Some(v) =
                st.views.iter_mut().find(|v| Arc::ptr_eq(&v.whole, whole) && v.key == key)
            {
                v.used = now;
                return (v.items.clone(), v.slots.clone(), v.dropped.clone());
            }
        }
        let entries = self.filter(whole, &DiscoveryProfile { metadata: false, ..profile.clone() });
        let items = Arc::new(crate::discovery::to_candidates(&whole.root, entries));
        let slots = Arc::new(Slots::default());
        let dropped = DroppedMemo::default();
        // The slots' memo (four bytes a candidate, made by the call's first
        // resolution) is counted now, so that the reservation made after
        // this view covers it before any text is kept.
        let bytes = items
            .iter()
            .map(|c| (std::mem::size_of::<Candidate>() + c.rel().len() + 4) as u64)
            .sum::<u64>();
        let held = self.bytes();
        let mut st = self.lock();
        // Another call of the same profile may have made it meanwhile.
        if let Some(v) = st.views.iter().find(|v| Arc::ptr_eq(&v.whole, whole) && v.key == key) {
            return (v.items.clone(), v.slots.clone(), v.dropped.clone());
        }
        let is_kept =
            st.kept.iter().any(|k| k.entries.as_ref().is_some_and(|w| Arc::ptr_eq(w, whole)));
        if is_kept && held + bytes <= self.limit {
            if st.views.len() >= VIEWS
                && let Some(oldest) =
                    st.views.iter().enumerate().min_by_key(|(_, v)| v.used).map(|(i, _)| i)
            {
                st.views.remove(oldest);
            }
            let used = st.view_calls;
            st.views.push(View {
                whole: whole.clone(),
                key,
                items: items.clone(),
                slots: slots.clone(),
                dropped: dropped.clone(),
                bytes,
                used,
            });
        }
        (items, slots, dropped)
    }

    /// Entries held, over every kept listing.
    pub fn entries(&self) -> u64 {
        self.lock().kept.iter().filter_map(|k| k.entries.as_ref()).map(|w| w.len() as u64).sum()
    }

    /// `whole` as `profile`'s own walk lists it (see the module's notes),
    /// on the profile's threads, with sizes and times (as they are now)
    /// when the profile asks for them.
    pub fn filter(&self, whole: &Whole, profile: &DiscoveryProfile) -> Vec<Entry> {
        let mut out: Vec<Entry> =
            super::in_parts(whole.len(), profile.threads, 4096, |r| filter(whole, r, profile))
                .into_iter()
                // (A stretch that panicked is not left out of the listing:
                // the call fails, as a cold one would.)
                .flat_map(|(_, part)| part.unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
        if profile.metadata {
            // Kept sizes and times are kept fresh by the watch's events:
            // without a watch, each is taken again.
            self.fill_metas(&mut out, whole.stamps.is_none());
        }
        out
    }

    /// Sets the size and time of each file of `entries`: kept ones (when
    /// `kept`), else `lstat`ed now (and kept unless a drain read events
    /// meanwhile, or not `kept`).
    fn fill_metas(&self, entries: &mut [Entry], kept: bool) {
        let (epoch, mut missing) = {
            let st = self.lock();
            let mut missing = Vec::new();
            for (i, e) in entries.iter_mut().enumerate() {
                if e.kind != EntryKind::File || e.missing.is_some() {
                    continue;
                }
                // (Every entry has its absolute path when sizes are asked for.)
                let Some(abs) = &e.abs_path else { continue };
                match st.metas.get(abs.as_os_str().as_encoded_bytes()).filter(|_| kept) {
                    Some(m) => set(e, *m),
                    None => missing.push(i),
                }
            }
            (st.epoch, missing)
        };
        let mut found = Vec::with_capacity(missing.len());
        for i in missing.drain(..) {
            let e = &mut entries[i];
            let Some(abs) = e.abs_path.as_deref().cloned() else { continue };
            let m = std::fs::symlink_metadata(&abs).ok().map(|m| (m.len(), m.modified().ok()));
            set(e, m);
            found.push((abs, m));
        }
        let held = self.bytes();
        let mut st = self.lock();
        if kept && st.epoch == epoch && held < self.limit {
            for (k, m) in found {
                let k: Box<[u8]> = k.into_os_string().into_encoded_bytes().into();
                let len = k.len() as u64;
                if st.metas.insert(k, m).is_none() {
                    st.meta_key_bytes += len;
                }
            }
        }
    }
}

fn set(e: &mut Entry, m: Meta) {
    if let Some((size, modified)) = m {
        e.set_meta(size, modified);
    }
}

/// See [`Listings::filter`] (the entries of `range`, without sizes).
fn filter(whole: &Whole, range: std::ops::Range<usize>, profile: &DiscoveryProfile) -> Vec<Entry> {
    let prune: rustc_hash::FxHashSet<&str> =
        profile.prune_names.iter().map(String::as_str).collect();
    // Directories the filter skipped or kept (a subdirectory of a skipped
    // one is never reached).
    let mut skipped: rustc_hash::FxHashMap<&str, bool> = rustc_hash::FxHashMap::default();
    let mut out = Vec::new();
    // Directories listed only for the tracked files below them (ignored
    // ones the walk did not enter; `Item::tracked`): the walk lists one
    // when it lists a file below it. Each is placed, then taken out again
    // unless a kept file below it follows (below-paths come later, in one
    // run: `open` holds those whose run may still come).
    let mut marks: Vec<Mark> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    for i in range {
        let is_dir = whole.items[i].kind == EntryKind::Dir;
        if is_dir && !profile.dirs {
            continue;
        }
        let path = whole.path(i);
        if !open.is_empty() {
            open.retain(|&m| !marks[m].passed(path));
        }
        if (!profile.hidden || !prune.is_empty())
            && dropped_by_components(path, is_dir, profile.hidden, &prune)
        {
            continue;
        }
        if let Some(f) = &profile.filter {
            if is_dir {
                if dir_skipped(path, &**f, &mut skipped) {
                    continue;
                }
            } else if path
                .rsplit_once('/')
                .is_some_and(|(parent, _)| dir_skipped(parent, &**f, &mut skipped))
                || !f.keep_file(path)
            {
                // (Under a skipped directory no file is kept: the
                // filter's contract, which the walk relies on too.)
                continue;
            }
        }
        if is_dir && whole.items[i].tracked {
            open.push(marks.len());
            marks.push(Mark { at: out.len(), below: format!("{path}/"), kept: false });
        } else if !is_dir {
            for &m in &open {
                marks[m].kept |= path.starts_with(&marks[m].below);
            }
        }
        out.push(whole.entry(i, profile.abs_paths || profile.metadata));
    }
    if marks.iter().any(|m| !m.kept) {
        let mut unkept = marks.iter().filter(|m| !m.kept).map(|m| m.at).peekable();
        let mut at = 0;
        out.retain(|_| {
            let keep = unkept.peek() != Some(&at);
            if !keep {
                unkept.next();
            }
            at += 1;
            keep
        });
    }
    out
}

/// A directory listed only for the tracked files below it (see [`filter`]).
struct Mark {
    /// Its place in the filtered entries.
    at: usize,
    /// Its path and `/`: the start of the paths below it.
    below: String,
    /// Whether a file below it was kept.
    kept: bool,
}

impl Mark {
    /// Whether `path` comes after every path below this directory (in the
    /// listing's UTF-16 order), so that none of them follows.
    fn passed(&self, path: &str) -> bool {
        !path.starts_with(&self.below)
            && sfq_walk::cmp_utf16(path, &self.below) == std::cmp::Ordering::Greater
    }
}

/// Whether a component of `path` is hidden (when hidden entries are not
/// listed) or a pruned name (a folder's: any but a file's last).
fn dropped_by_components(
    path: &str,
    is_dir: bool,
    hidden: bool,
    prune: &rustc_hash::FxHashSet<&str>,
) -> bool {
    let mut rest = path;
    loop {
        let (c, more) = match memchr::memchr(b'/', rest.as_bytes()) {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        if (!hidden && c.starts_with('.')) || ((more.is_some() || is_dir) && prune.contains(c)) {
            return true;
        }
        match more {
            Some(m) => rest = m,
            None => return false,
        }
    }
}

/// Whether the filter skips the directory at `path` or one above it.
fn dir_skipped<'p>(
    path: &'p str,
    f: &dyn sfq_walk::discovery::PathFilter,
    memo: &mut rustc_hash::FxHashMap<&'p str, bool>,
) -> bool {
    if let Some(&known) = memo.get(path) {
        return known;
    }
    let above = path.rsplit_once('/').is_some_and(|(parent, _)| dir_skipped(parent, f, memo));
    let skipped = above || f.skip_dir(path);
    memo.insert(path, skipped);
    skipped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Source;

    fn profile(hidden: bool) -> DiscoveryProfile {
        DiscoveryProfile {
            prune_names: vec!["skip".into()],
            filter: None,
            dirs: false,
            hidden,
            ignore_files: true,
            metadata: false,
            abs_paths: false,
            threads: 1,
            recurse_submodules: false,
            source: Source::Disk,
        }
    }

    /// A profile's candidates are filtered once and shared while the
    /// listing is kept; another profile has its own; a structural change
    /// drops them with the listing.
    #[test]
    fn views_are_shared_until_the_listing_goes() {
        let root = PathBuf::from("/r");
        let entry = |p: &str, kind| Entry::new(p.into(), None, kind, true, None);
        let whole = Arc::new(
            Whole::new(
                &root,
                vec![
                    entry(".a", EntryKind::File),
                    entry("b", EntryKind::File),
                    entry("skip", EntryKind::Dir),
                    entry("skip/c", EntryKind::File),
                    entry("src", EntryKind::Dir),
                    entry("src/d", EntryKind::File),
                ],
            )
            .unwrap(),
        );
        let listings = Listings::new(1 << 20);
        listings.keep(&root, vec![1], listings.clock(), Some(whole.clone()));
        let (shown, hidden) = (profile(true), profile(false));
        let key = |p: &DiscoveryProfile| view_key(p).unwrap();
        let (a, slots, _) = listings.view(&whole, key(&shown), &shown);
        let names: Vec<&str> = a.iter().map(Candidate::rel).collect();
        assert_eq!(names, [".a", "b", "src/d"]);
        assert_eq!(a[2].abs(), root.join("src/d"));
        let (again, same_slots, _) = listings.view(&whole, key(&shown), &shown);
        assert!(Arc::ptr_eq(&a, &again) && Arc::ptr_eq(&slots, &same_slots));
        let (b, _, _) = listings.view(&whole, key(&hidden), &hidden);
        assert_eq!(b.iter().map(Candidate::rel).collect::<Vec<_>>(), ["b", "src/d"]);
        assert!(listings.bytes() > whole.bytes());
        listings.invalidate(&Drained { structural: true, any: true, ..Drained::default() });
        assert_eq!(listings.bytes(), 0);
        // Not kept: filtered for the call alone.
        let (c, _, _) = listings.view(&whole, key(&shown), &shown);
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(listings.bytes(), 0);
    }

    /// Keeps files whose name starts with `b`; skips no directory.
    #[derive(Debug)]
    struct NamesFromB;
    impl sfq_walk::discovery::PathFilter for NamesFromB {
        fn skip_dir(&self, _path: &str) -> bool {
            false
        }
        fn keep_file(&self, path: &str) -> bool {
            path.rsplit('/').next().is_some_and(|n| n.starts_with('b'))
        }
    }

    /// A directory listed only for the tracked files below it (an ignored
    /// one) stays only when one of those files does, as the walk lists it;
    /// other directories stay whatever the files below them do.
    #[test]
    fn a_directory_listed_for_its_tracked_files_stays_only_with_one_of_them() {
        let root = PathBuf::from("/r");
        let entry = |p: &str, kind, tracked| Entry::new(p.into(), None, kind, tracked, None);
        let whole = Whole::new(
            &root,
            vec![
                entry("a", EntryKind::Dir, false),
                entry("a/b", EntryKind::Dir, true),
                // Sorts between a/b and the paths below it.
                entry("a/b-x", EntryKind::Dir, false),
                entry("a/b-x/c", EntryKind::File, false),
                entry("a/b/c", EntryKind::File, true),
                entry("a/b/d", EntryKind::Dir, true),
                entry("a/b/d/bee", EntryKind::File, true),
                entry("a/c", EntryKind::Dir, true),
                entry("a/c/x", EntryKind::File, true),
                entry("z", EntryKind::File, false),
            ],
        )
        .unwrap();
        let mut p = profile(true);
        p.dirs = true;
        let all: Vec<String> =
            filter(&whole, 0..10, &p).into_iter().map(|e| e.path.to_string()).collect();
        assert_eq!(
            all,
            ["a", "a/b", "a/b-x", "a/b-x/c", "a/b/c", "a/b/d", "a/b/d/bee", "a/c", "a/c/x", "z"]
        );
        p.filter = Some(Arc::new(NamesFromB));
        let kept: Vec<String> =
            filter(&whole, 0..10, &p).into_iter().map(|e| e.path.to_string()).collect();
        // a/c's one file is not kept: a/c goes; a/b-x is walked: it stays.
        assert_eq!(kept, ["a", "a/b", "a/b-x", "a/b/d", "a/b/d/bee"]);
    }
}
