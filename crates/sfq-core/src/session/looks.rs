//! The listings of folders walked without ignore rules, kept between calls
//! while the watch proves them current: what the 0-matches hint lists at
//! every call that finds nothing (each folder the search's walk dropped:
//! `dist/`, `build/`, `node_modules/`), which otherwise walked them all
//! again each time.
//!
//! A listing is kept only when the watch is healthy and was told of every
//! folder its walk read (the walk's observer), and is used only while
//! nothing has been drained since it was kept (the listings' clock: any
//! event, anywhere, and every look is dropped) and the session root's
//! fingerprint (git's index and configuration, the exclude files: an entry
//! says whether it is tracked) is the one it was kept under, checked once a
//! call. A folder that is a repository of its own (a `.git` in it) is not
//! kept: its index is not the root's.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;
use sfq_walk::discovery::Entry;

use crate::discovery::{DiscoveryProfile, Listed};

/// The looks kept.
#[derive(Debug, Default)]
pub struct Looks {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// The call whose start the fingerprint was checked at.
    call: u64,
    /// The session root's fingerprint the looks were kept under (`None`:
    /// none could be taken, nothing is kept).
    fingerprint: Option<Vec<u8>>,
    /// The listings' clock the looks were kept at.
    clock: (u64, u64),
    /// Bumped at each new fingerprint: a look kept must have been walked
    /// under the current one (its walk may end during a later call).
    generation: u64,
    kept: FxHashMap<(PathBuf, String), Arc<[Entry]>>,
    bytes: u64,
}

/// What a look needs to be kept or found: its folder, its profile's key,
/// and the listings' clock when its walk began.
#[derive(Debug)]
pub struct LookKey {
    root: PathBuf,
    key: String,
    clock: (u64, u64),
    /// The fingerprint's generation when the look was asked for.
    generation: u64,
}

impl Looks {
    /// The key of a walk of `root` for `profile` that may be kept: a walk
    /// without ignore rules, submodules or sizes, whose filter has a key
    /// (see [`super::listing::view_key`]), of a folder that is not a
    /// repository of its own; `None` otherwise.
    pub fn key(root: &Path, profile: &DiscoveryProfile, clock: (u64, u64)) -> Option<LookKey> {
        if profile.ignore_files
            || profile.recurse_submodules
            || profile.metadata
            || profile.filter.as_ref().is_some_and(|f| f.forces())
            || std::fs::symlink_metadata(root.join(".git")).is_ok()
        {
            return None;
        }
        let key = super::listing::view_key(profile)?;
        Some(LookKey { root: root.to_path_buf(), key, clock, generation: 0 })
    }

    /// The kept look of `key`, when it is current: `call` is the call's
    /// number, `clock` the listings' clock now, `fingerprint` gives the
    /// session root's fingerprint (asked at most once a call). `key` notes
    /// the fingerprint it was asked under (for [`Looks::keep`]).
    pub fn find(
        &self,
        key: &mut LookKey,
        call: u64,
        fingerprint: impl FnOnce() -> Option<Vec<u8>>,
    ) -> Option<Arc<[Entry]>> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if inner.call != call {
            let now = fingerprint();
            if now.is_none() || now != inner.fingerprint {
                inner.clear();
                inner.fingerprint = now;
                inner.generation += 1;
            }
            inner.call = call;
        }
        key.generation = inner.generation;
        if inner.clock != key.clock {
            inner.clear();
            inner.clock = key.clock;
        }
        inner.kept.get(&(key.root.clone(), key.key.clone())).cloned()
    }

    /// Keeps the listing of `key` walked now, if nothing was drained since
    /// its walk began (`clock`: the listings' clock now), the root's
    /// fingerprint is the one it was asked under, it is whole (no folder
    /// unreadable, nothing a sparse checkout left out) and the looks stay
    /// within `limit` bytes.
    pub fn keep(&self, key: LookKey, clock: (u64, u64), listed: &Listed<Vec<Entry>>, limit: u64) {
        if key.clock != clock
            || !listed.unreadable.is_empty()
            || listed.not_checked_out.files > 0
            || !listed.not_checked_out.dirs.is_empty()
        {
            return;
        }
        let bytes = listed
            .items
            .iter()
            .map(|e| (e.path.len() + std::mem::size_of::<Entry>()) as u64)
            .sum::<u64>()
            + (key.root.as_os_str().len() + key.key.len()) as u64;
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if inner.clock != clock
            || inner.generation != key.generation
            || inner.fingerprint.is_none()
            || inner.bytes + bytes > limit
        {
            return;
        }
        let entries: Arc<[Entry]> = listed.items.clone().into();
        if inner.kept.insert((key.root, key.key), entries).is_none() {
            inner.bytes += bytes;
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).bytes
    }

    /// Forgets every look.
    pub fn clear(&self) {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

impl Inner {
    fn clear(&mut self) {
        self.kept.clear();
        self.bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sfq_walk::discovery::EntryKind;

    fn key(clock: (u64, u64)) -> LookKey {
        LookKey { root: "/t/ignored".into(), key: "k".into(), clock, generation: 0 }
    }

    fn listed() -> Listed<Vec<Entry>> {
        Listed::of(vec![Entry::new("a.js".into(), None, EntryKind::File, false, None)])
    }

    /// A look whose walk ends after a later call found the root's
    /// fingerprint changed (a `git add` meanwhile) is not kept: it may say
    /// a file is untracked that the new index tracks.
    #[test]
    fn a_look_walked_under_an_older_fingerprint_is_not_kept() {
        let looks = Looks::default();
        let mut first = key((0, 0));
        assert!(looks.find(&mut first, 1, || Some(b"index 1".to_vec())).is_none());
        // The walk is still running when call 2 begins, under a new index.
        let mut second = key((0, 0));
        assert!(looks.find(&mut second, 2, || Some(b"index 2".to_vec())).is_none());
        looks.keep(first, (0, 0), &listed(), 1 << 20);
        assert!(looks.find(&mut key((0, 0)), 2, || unreachable!()).is_none());
        // The same under an unchanged fingerprint (a later call) is kept.
        looks.keep(second, (0, 0), &listed(), 1 << 20);
        let mut third = key((0, 0));
        assert!(looks.find(&mut third, 3, || Some(b"index 2".to_vec())).is_some());
        // And a drained event (the clock) still drops it.
        assert!(looks.find(&mut key((0, 1)), 3, || unreachable!()).is_none());
    }
}
