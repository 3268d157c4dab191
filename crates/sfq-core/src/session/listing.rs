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

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use sfq_walk::discovery::{Entry, EntryKind};

use super::watch::Drained;
use crate::discovery::DiscoveryProfile;

/// A file's size and modification time, as `lstat` gave them (`None`: it
/// could not be `lstat`ed).
type Meta = Option<(u64, Option<SystemTime>)>;

/// Folders whose listings are kept at once.
const KEPT: usize = 8;

/// The listings of a session.
#[derive(Debug, Default)]
pub struct Listings {
    inner: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Structural changes drained so far: a listing walked before the
    /// last one is stale.
    seq: u64,
    /// Drains that read events so far.
    epoch: u64,
    kept: Vec<Kept>,
    /// Sizes and times `lstat`ed for calls, kept until an event names the
    /// file.
    metas: HashMap<PathBuf, Meta>,
}

#[derive(Debug)]
struct Kept {
    root: PathBuf,
    fingerprint: Vec<u8>,
    seq: u64,
    /// `None`: this walk cannot be filtered for a call (see the module's
    /// notes); calls walk the tree.
    entries: Option<Arc<Vec<Entry>>>,
}

/// A kept listing found for a call.
pub enum Found {
    /// The whole listing.
    Entries(Arc<Vec<Entry>>),
    /// The folder's whole listing is not filterable: walk.
    Walk,
}

impl Listings {
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
            st.metas.clear();
            return;
        }
        for path in &drained.files {
            st.metas.remove(path);
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
        st.metas.clear();
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
        entries: Option<Arc<Vec<Entry>>>,
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
    }

    /// Entries held, over every kept listing.
    pub fn entries(&self) -> u64 {
        self.lock().kept.iter().filter_map(|k| k.entries.as_ref()).map(|e| e.len() as u64).sum()
    }

    /// `whole` as `profile`'s own walk lists it (see the module's notes),
    /// on the profile's threads, with sizes and times (as they are now)
    /// when the profile asks for them.
    pub fn filter(&self, whole: &[Entry], profile: &DiscoveryProfile) -> Vec<Entry> {
        let parts = profile.threads.clamp(1, 8).min(whole.len() / 4096 + 1);
        let mut out = if parts <= 1 {
            filter(whole, profile)
        } else {
            let size = whole.len().div_ceil(parts);
            std::thread::scope(|s| {
                let handles: Vec<_> =
                    whole.chunks(size).map(|c| s.spawn(move || filter(c, profile))).collect();
                let mut out = Vec::new();
                for h in handles {
                    out.extend(h.join().unwrap_or_default());
                }
                out
            })
        };
        if profile.metadata {
            self.fill_metas(&mut out);
        }
        out
    }

    /// Sets the size and time of each file of `entries`: kept ones, else
    /// `lstat`ed now (and kept unless a drain read events meanwhile).
    fn fill_metas(&self, entries: &mut [Entry]) {
        let (epoch, mut missing) = {
            let st = self.lock();
            let mut missing = Vec::new();
            for (i, e) in entries.iter_mut().enumerate() {
                if e.kind != EntryKind::File || e.missing.is_some() {
                    continue;
                }
                match st.metas.get(&e.abs_path) {
                    Some(m) => set(e, *m),
                    None => missing.push(i),
                }
            }
            (st.epoch, missing)
        };
        let mut found = Vec::with_capacity(missing.len());
        for i in missing.drain(..) {
            let e = &mut entries[i];
            let m =
                std::fs::symlink_metadata(&e.abs_path).ok().map(|m| (m.len(), m.modified().ok()));
            set(e, m);
            found.push((e.abs_path.clone(), m));
        }
        let mut st = self.lock();
        if st.epoch == epoch {
            st.metas.extend(found);
        }
    }
}

fn set(e: &mut Entry, m: Meta) {
    if let Some((size, modified)) = m {
        e.size = Some(size);
        e.modified = modified;
    }
}

/// See [`Listings::filter`] (one part of the listing, without sizes).
fn filter(whole: &[Entry], profile: &DiscoveryProfile) -> Vec<Entry> {
    let prune: rustc_hash::FxHashSet<&str> =
        profile.prune_names.iter().map(String::as_str).collect();
    // Directories the filter skipped or kept (a subdirectory of a skipped
    // one is never reached).
    let mut skipped: rustc_hash::FxHashMap<&str, bool> = rustc_hash::FxHashMap::default();
    let mut out = Vec::new();
    for e in whole {
        let is_dir = e.kind == EntryKind::Dir;
        if is_dir && !profile.dirs {
            continue;
        }
        if (!profile.hidden || !prune.is_empty())
            && dropped_by_components(&e.path, is_dir, profile.hidden, &prune)
        {
            continue;
        }
        if let Some(f) = &profile.filter {
            if is_dir {
                if dir_skipped(&e.path, &**f, &mut skipped) {
                    continue;
                }
            } else if e
                .path
                .rsplit_once('/')
                .is_some_and(|(parent, _)| dir_skipped(parent, &**f, &mut skipped))
                || !f.keep_file(&e.path)
            {
                // (Under a skipped directory no file is kept: the
                // filter's contract, which the walk relies on too.)
                continue;
            }
        }
        let mut entry = e.clone();
        entry.size = None;
        entry.modified = None;
        out.push(entry);
    }
    out
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
