//! The parallel directory walk and the resolution of tracked files.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::config::WalkConfig;
use super::dir::{self, Child, Held, Meta};
use super::entry::{Entry, EntryKind};
use super::error::{EFBIG, ENOENT, ENOTDIR, SoftError};
use super::index::Index;
use super::repo;
use super::rules::{PatternFile, RuleList, RuleNode, Rules, read_pattern_file};
use crate::os_bytes::os_str;

/// Shared state of one walk.
pub(crate) struct Walker<'a> {
    pub cfg: &'a WalkConfig,
    pub cancel: &'a (dyn Fn() -> bool + Sync),
    pub cancelled: AtomicBool,
    pub rules: Rules,
    /// The git index (git mode only).
    pub index: Option<&'a Index>,
    /// The root relative to the matching base, with a trailing `/` when not
    /// empty (git mode: relative to the work-tree top).
    pub prefix: Vec<u8>,
    /// Whether the per-directory ignore files are `.gitignore` only (git) or
    /// `.gitignore` then `.ignore` (plain).
    pub git_mode: bool,
    /// What the walked directories produced (see [`DirOut`]).
    pub parts: Mutex<Parts>,
    /// The next free [`DirTask::slot`] (the first task has slot 0).
    pub next_slot: AtomicUsize,
    /// Whether some name was not UTF-8: lossy paths can tie, and ties are
    /// ordered by the real bytes across directories, so the listing is then
    /// sorted whole instead of assembled from the directories' parts.
    pub lossy: AtomicBool,
    /// Whether some tracked path was listed as the index spells it where
    /// the disk's names differ in case (`core.ignoreCase`): it may sit out
    /// of the folder order, so the listing is then sorted whole too.
    pub case_moved: AtomicBool,
    pub errors: Mutex<Vec<SoftError>>,
    /// What ignore rules and pruned names dropped (when reported).
    pub dropped: Mutex<Vec<(String, bool)>>,
    /// Whether git clears the skip-worktree bit of a tracked path present
    /// on disk (`core.sparseCheckout` on, `sparse.expectFilesOutsideOfPatterns`
    /// off: git's `clear_skip_worktree_from_present_files`).
    pub clear_present_skip_worktree: bool,
    /// Tracked files left out as skip-worktree entries (not checked out).
    pub skip_worktree: AtomicUsize,
    /// Sparse directory entries left out (root-relative, ending with `/`).
    pub sparse_dirs: Mutex<Vec<String>>,
}

/// A directory to walk.
pub(crate) struct DirTask {
    /// Path relative to the matching base, without a trailing `/`.
    pub rel: Vec<u8>,
    pub node: Option<Arc<RuleNode>>,
    /// Entered only because a force-included path may lie below (the
    /// directory itself is ignored or pruned): only forced files are listed.
    pub forced: bool,
    /// Where its output goes in the assembled listing.
    pub slot: usize,
    /// Its parent, kept open to open it relative to (see [`dir::read`]).
    pub parent: Option<Arc<Held>>,
    /// Under `core.ignoreCase`, the directory as the index spells it (from
    /// the matching base) when that differs in case from `rel`.
    pub index_rel: Option<Vec<u8>>,
}

/// One walked directory's part of the listing: its entries (direct
/// children, and tracked files resolved below subdirectories it did not
/// enter), sorted by path, a stretch of [`Parts::entries`], and the
/// subdirectories walked on their own, a stretch of [`Parts::subs`],
/// sorted by name. Every path below such a subdirectory sorts right where
/// its name (with a `/`) does among the paths of the part (all beginning
/// with the directory's path, `skip` bytes), so the listing is the parts
/// merged depth first, with no global sort.
pub(crate) struct DirOut {
    pub slot: u32,
    pub skip: u32,
    pub entries: (u32, u32),
    pub subs: (u32, u32),
}

/// A subdirectory walked on its own: its name with a `/` (a stretch of
/// [`Parts::names`]) and its slot.
pub(crate) struct Sub {
    pub name: (u32, u32),
    pub slot: u32,
}

/// What the walked directories produced, one after the other (a few bytes
/// a directory beyond its entries: a tree of a million folders is walked
/// without a million small lists).
#[derive(Default)]
pub(crate) struct Parts {
    /// Every entry listed: the listing, put in order in place at the end.
    pub entries: Vec<Entry>,
    pub outs: Vec<DirOut>,
    pub subs: Vec<Sub>,
    pub names: String,
}

impl Parts {
    /// The name of `sub`, with its `/`.
    pub fn name(&self, sub: &Sub) -> &str {
        self.names.get(sub.name.0 as usize..sub.name.1 as usize).unwrap_or_default()
    }
}

thread_local! {
    /// The names of the directory being read (see [`dir::read`]), kept by
    /// each walking thread for the next one.
    static NAMES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A names buffer larger than this is not kept for the next directory.
const KEEP_NAMES: usize = 1 << 20;

/// A subdirectory to walk next: a [`DirTask`] but for its rule node and
/// parent handle.
struct Subdir {
    rel: Vec<u8>,
    forced: bool,
    slot: usize,
    index_rel: Option<Vec<u8>>,
}

/// The index entries of one directory: tracked files directly in it (sorted
/// by name, as the index orders them) and its subdirectories holding tracked
/// paths (sorted by name), each with its range of entries.
#[derive(Default)]
struct DirIndex<'i> {
    files: Vec<(&'i [u8], usize)>,
    dirs: Vec<(&'i [u8], std::ops::Range<usize>)>,
}

impl<'i> DirIndex<'i> {
    fn build(index: &'i Index, dir_rel: &[u8]) -> DirIndex<'i> {
        let range = index.range_under(dir_rel);
        let skip = if dir_rel.is_empty() { 0 } else { dir_rel.len() + 1 };
        let mut out = DirIndex::default();
        let mut i = range.start;
        while i < range.end {
            let path = index.path(i);
            let rest = &path[skip..];
            if rest.is_empty() {
                // The sparse directory entry `dir_rel/` itself: its files
                // are not known (see `Walker::resolve_slow`).
                i += 1;
                continue;
            }
            match rest.iter().position(|&c| c == b'/') {
                None => {
                    out.files.push((rest, i));
                    i += 1;
                }
                Some(slash) => {
                    let key = &path[..skip + slash + 1];
                    let end = index.prefix_end(i, range.end, key);
                    out.dirs.push((&rest[..slash], i..end));
                    i = end;
                }
            }
        }
        out.dirs.sort_unstable_by(|a, b| a.0.cmp(b.0));
        out
    }

    fn file(&self, name: &[u8]) -> Option<usize> {
        self.files.binary_search_by(|f| f.0.cmp(name)).ok().map(|k| self.files[k].1)
    }

    fn has_dir(&self, name: &[u8]) -> bool {
        self.dirs.binary_search_by(|d| d.0.cmp(name)).is_ok()
    }

    /// The tracked file whose name equals `name` but for ASCII case (git's
    /// `index_file_exists` under `core.ignoreCase`).
    fn file_folded(&self, name: &[u8]) -> Option<usize> {
        self.files.iter().find(|f| f.0.eq_ignore_ascii_case(name)).map(|f| f.1)
    }

    /// The index's spelling of the subdirectory `name`, ASCII case folded.
    fn dir_folded(&self, name: &[u8]) -> Option<&'i [u8]> {
        self.dirs.iter().find(|d| d.0.eq_ignore_ascii_case(name)).map(|d| d.0)
    }
}

fn os_code(e: &std::io::Error) -> Option<i32> {
    e.raw_os_error()
}

impl<'a> Walker<'a> {
    fn poll_cancel(&self) -> bool {
        if self.cancelled.load(Ordering::Relaxed) {
            return true;
        }
        if (self.cancel)() {
            self.cancelled.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// Root-relative part of a base-relative path (`None` outside the root).
    fn root_rel<'p>(&self, rel: &'p [u8]) -> Option<&'p [u8]> {
        if self.prefix.is_empty() {
            return Some(rel);
        }
        if rel.len() + 1 == self.prefix.len() && self.prefix.starts_with(rel) {
            return Some(&[]);
        }
        rel.strip_prefix(&self.prefix[..])
    }

    fn abs(&self, root_rel: &[u8]) -> PathBuf {
        if root_rel.is_empty() {
            self.cfg.root.clone()
        } else {
            // Of its exact size (a join grows the root's buffer).
            let mut abs =
                PathBuf::with_capacity(self.cfg.root.as_os_str().len() + 1 + root_rel.len());
            abs.push(&self.cfg.root);
            abs.push(os_str(root_rel));
            abs
        }
    }

    fn soft(&self, path: PathBuf, code: Option<i32>) {
        if let Ok(mut e) = self.errors.lock() {
            e.push(SoftError { path, code });
        }
    }

    /// Whether a root-relative candidate path is dropped by the hidden and
    /// prune settings (the prune check looks at directory components only).
    fn dropped_by_components(&self, root_rel: &[u8]) -> bool {
        if self.cfg.hidden && self.cfg.prune.is_empty() {
            return false;
        }
        let mut comps = root_rel.split(|&c| c == b'/').peekable();
        while let Some(c) = comps.next() {
            let is_last = comps.peek().is_none();
            if !self.cfg.hidden && c.first() == Some(&b'.') {
                return true;
            }
            if !is_last && self.cfg.prune.contains(c) {
                return true;
            }
        }
        false
    }

    fn keep_file(&self, path: &[u8]) -> bool {
        match &self.cfg.filter {
            None => true,
            Some(f) => f.keep_file(&String::from_utf8_lossy(path)),
        }
    }

    /// Whether an ignored or pruned entry is listed (a file) or entered (a
    /// directory) anyway, because the filter force-includes it.
    fn forced(&self, path: &[u8], is_dir: bool) -> bool {
        let Some(f) = &self.cfg.filter else { return false };
        let path = String::from_utf8_lossy(path);
        if is_dir { f.force_dir(&path) } else { f.force_file(&path) && f.keep_file(&path) }
    }

    fn make_entry(
        &self,
        root_rel: &[u8],
        kind: EntryKind,
        meta: Option<&Meta>,
        tracked: bool,
        missing: Option<i32>,
    ) -> Entry {
        let (path, lossy): (Box<str>, bool) = match std::str::from_utf8(root_rel) {
            Ok(s) => (s.into(), false),
            Err(_) => {
                self.lossy.store(true, Ordering::Relaxed);
                (String::from_utf8_lossy(root_rel).into(), true)
            }
        };
        let abs = (self.cfg.abs_paths || lossy).then(|| Box::new(self.abs(root_rel)));
        let mut entry = Entry::new(path, abs, kind, tracked, missing);
        if let Some(m) = meta {
            entry.set_meta(m.len, m.modified);
        }
        entry
    }

    /// Reads the per-directory ignore files of `dir_abs` (listed in
    /// `children`) into a node on top of `parent`.
    fn load_ignores(
        &self,
        dir_abs: &Path,
        rel: &[u8],
        children: &[Child],
        parent: Option<Arc<RuleNode>>,
    ) -> Option<Arc<RuleNode>> {
        if !self.cfg.ignore_files {
            return parent;
        }
        let names: &[&[u8]] =
            if self.git_mode { &[b".gitignore"] } else { &[b".gitignore", b".ignore"] };
        let mut base = rel.to_vec();
        if !base.is_empty() {
            base.push(b'/');
        }
        let mut lists = Vec::new();
        for name in names {
            let Some(child) = children.iter().find(|c| c.name == *name) else { continue };
            // git opens in-tree ignore files with O_NOFOLLOW.
            if !child.kind.is_file() {
                continue;
            }
            let path = dir_abs.join(os_str(name));
            if let Some(o) = &self.cfg.observer {
                o.file_read(&path);
            }
            match read_pattern_file(&path) {
                Ok(PatternFile::Content(data)) => {
                    let list = RuleList::parse(&data, &base);
                    if !list.is_empty() {
                        lists.push(list);
                    }
                }
                // git skips it (with a warning) and walks on.
                Ok(PatternFile::TooLarge(_)) => self.soft(path, Some(EFBIG)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => self.soft(path, os_code(&e)),
            }
        }
        if lists.is_empty() { parent } else { Some(RuleNode::push(parent, lists)) }
    }

    /// Reads the ignore file of an ancestor directory of the root (leading
    /// path), which the walk does not list.
    pub(crate) fn load_ancestor_ignores(
        &self,
        dir_abs: &Path,
        rel: &[u8],
        parent: Option<Arc<RuleNode>>,
    ) -> Option<Arc<RuleNode>> {
        if !self.cfg.ignore_files {
            return parent;
        }
        let path = dir_abs.join(".gitignore");
        let is_file = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
        if !is_file {
            return parent;
        }
        let mut base = rel.to_vec();
        if !base.is_empty() {
            base.push(b'/');
        }
        if let Some(o) = &self.cfg.observer {
            o.file_read(&path);
        }
        match read_pattern_file(&path) {
            Ok(PatternFile::Content(data)) => {
                let list = RuleList::parse(&data, &base);
                if list.is_empty() { parent } else { Some(RuleNode::push(parent, vec![list])) }
            }
            Ok(PatternFile::TooLarge(_)) => {
                self.soft(path, Some(EFBIG));
                parent
            }
            Err(e) => {
                self.soft(path, os_code(&e));
                parent
            }
        }
    }

    /// Walks one directory and spawns its subdirectories.
    pub(crate) fn walk_dir<'s>(&'s self, scope: &rayon::Scope<'s>, task: DirTask) {
        if self.poll_cancel() {
            return;
        }
        let Some(dir_root_rel) = self.root_rel(&task.rel) else { return };
        let dir_abs = self.abs(dir_root_rel);
        let mut local: Vec<Entry> = Vec::new();
        let mut names = NAMES.with(|n| n.take());
        let name = task.rel.rsplit(|&c| c == b'/').next().unwrap_or_default();
        let parent = task.parent.as_deref().map(|p| (p.dir(), name));
        let (dir, mut children) =
            match dir::read(parent, &dir_abs, &mut names, self.cfg.observer.as_deref()) {
                Ok(r) => r,
                Err(e) => {
                    self.soft(dir_abs, os_code(&e));
                    if let Some(index) = self.index {
                        let range = index.range_under(&task.rel);
                        self.resolve_slow(&task.rel, range, &mut local);
                    }
                    self.flush(task.slot, dir_root_rel, local, Vec::new());
                    return;
                }
            };
        if self.poll_cancel() {
            return;
        }
        children.sort_unstable_by(|a, b| a.name.cmp(b.name));
        let node = self.load_ignores(&dir_abs, &task.rel, &children, task.node.clone());
        let index_dir = task.index_rel.as_deref().unwrap_or(&task.rel);
        let dir_index =
            self.index.map(|index| DirIndex::build(index, index_dir)).unwrap_or_default();
        let fold = self.rules.fold;
        let mut recurse: Vec<Subdir> = Vec::new();
        let mut subs: Vec<(String, usize)> = Vec::new();
        // One buffer for the children's paths (relative to the base).
        let mut rel: Vec<u8> = Vec::with_capacity(task.rel.len() + 64);
        rel.extend_from_slice(&task.rel);
        if !task.rel.is_empty() {
            rel.push(b'/');
        }
        let base_len = rel.len();
        for child in &children {
            let name = child.name;
            if name == b".git" || (fold && name.eq_ignore_ascii_case(b".git")) {
                continue;
            }
            if !self.cfg.hidden && name.first() == Some(&b'.') {
                if self.cfg.report_dropped && !task.forced {
                    rel.truncate(base_len);
                    rel.extend_from_slice(name);
                    if let Some(rrel) = self.root_rel(&rel)
                        && let Ok(mut d) = self.dropped.lock()
                    {
                        d.push((String::from_utf8_lossy(rrel).into_owned(), child.kind.is_dir()));
                    }
                }
                continue;
            }
            rel.truncate(base_len);
            rel.extend_from_slice(name);
            let Some(rrel) = self.root_rel(&rel) else { continue };
            let is_dir = child.kind.is_dir();
            if fold
                && !is_dir
                && let Some(index) = self.index
                && (task.index_rel.is_some() || dir_index.file(name).is_none())
                && let Some(at) = dir_index.file(name).or_else(|| dir_index.file_folded(name))
            {
                // Tracked under another case (`core.ignoreCase`): git lists
                // the index's path, present if the disk answers to it.
                if !index.entries[at].is_gitlink()
                    && let Some(irel) = self.root_rel(index.path(at))
                {
                    self.tracked_as_spelled(index, at, irel, &mut local);
                }
                continue;
            }
            if !is_dir
                && let Some(index) = self.index
                && let Some(at) = dir_index.file(name)
            {
                // Tracked: listed whatever the ignore rules say (gitlinks never).
                // (The directory's own components were checked on the way in,
                // and a hidden name was skipped above.) A skip-worktree entry
                // present on disk is listed only when git clears its bit.
                let entry = &index.entries[at];
                if entry.skip_worktree && !self.clear_present_skip_worktree {
                    if !entry.is_gitlink() && self.keep_file(rrel) {
                        self.skip_worktree.fetch_add(1, Ordering::Relaxed);
                    }
                    continue;
                }
                if !entry.is_gitlink()
                    && !entry.is_symlink()
                    && child.kind.is_file()
                    && self.keep_file(rrel)
                {
                    let meta = if self.cfg.metadata { dir.meta(child).ok() } else { None };
                    local.push(self.make_entry(rrel, EntryKind::File, meta.as_ref(), true, None));
                }
                continue;
            }
            let dropped = task.forced
                || (self.cfg.ignore_files && self.rules.is_excluded(node.as_deref(), &rel, is_dir))
                || (is_dir && self.cfg.prune.contains(name));
            // An ignored or pruned entry stays only when force-included.
            if dropped && !(child.kind.is_file() || is_dir) {
                continue;
            }
            if dropped && !self.forced(rrel, is_dir) {
                if self.cfg.report_dropped
                    && !task.forced
                    && let Ok(mut d) = self.dropped.lock()
                {
                    d.push((String::from_utf8_lossy(rrel).into_owned(), is_dir));
                }
                continue;
            }
            if dropped && !is_dir {
                let meta = if self.cfg.metadata { dir.meta(child).ok() } else { None };
                local.push(self.make_entry(rrel, EntryKind::File, meta.as_ref(), false, None));
                continue;
            }
            if is_dir {
                let path = String::from_utf8_lossy(rrel);
                if !dropped && self.cfg.filter.as_ref().is_some_and(|f| f.skip_dir(&path)) {
                    continue;
                }
                let mut sub_index_rel = None;
                let enter = match self.index {
                    Some(index) => {
                        let spelled =
                            if fold && (task.index_rel.is_some() || !dir_index.has_dir(name)) {
                                dir_index.dir_folded(name)
                            } else {
                                None
                            };
                        if let Some(spelled) = spelled {
                            let mut irel = index_dir.to_vec();
                            if !irel.is_empty() {
                                irel.push(b'/');
                            }
                            irel.extend_from_slice(spelled);
                            if irel != rel {
                                sub_index_rel = Some(irel);
                            }
                            true
                        } else if dir_index.has_dir(name) {
                            true
                        } else if dir_index
                            .file(name)
                            .is_some_and(|i| index.entries[i].is_gitlink())
                        {
                            false
                        } else {
                            let abs = self.abs(rrel);
                            if let Some(o) = &self.cfg.observer {
                                o.dir_used(&abs, None);
                            }
                            !repo::is_nested_repo(&abs)
                        }
                    }
                    None => true,
                };
                if self.cfg.dirs {
                    // Metadata is read for files only (a directory's size means nothing).
                    local.push(self.make_entry(rrel, EntryKind::Dir, None, false, None));
                }
                if enter {
                    let slot = self.next_slot.fetch_add(1, Ordering::Relaxed);
                    let mut key = String::with_capacity(name.len() + 1);
                    match std::str::from_utf8(name) {
                        Ok(s) => key.push_str(s),
                        Err(_) => {
                            self.lossy.store(true, Ordering::Relaxed);
                            key.push_str(&String::from_utf8_lossy(name));
                        }
                    }
                    key.push('/');
                    subs.push((key, slot));
                    recurse.push(Subdir {
                        rel: rel.clone(),
                        forced: dropped,
                        slot,
                        index_rel: sub_index_rel,
                    });
                }
            } else if child.kind.is_file() && self.keep_file(rrel) {
                let meta = if self.cfg.metadata { dir.meta(child).ok() } else { None };
                local.push(self.make_entry(rrel, EntryKind::File, meta.as_ref(), false, None));
            }
        }
        if let Some(index) = self.index {
            self.resolve_tracked_children(
                index, &dir_index, &task.rel, &children, &recurse, &mut local,
            );
        }
        self.flush(task.slot, dir_root_rel, local, subs);
        drop(children);
        if names.capacity() <= KEEP_NAMES {
            NAMES.with(|n| n.replace(names));
        }
        // The parent's handle is let go before the subdirectories take this one.
        drop(task.parent);
        let held = if recurse.is_empty() { None } else { Held::keep(dir) };
        for Subdir { rel, forced, slot, index_rel } in recurse {
            let node = node.clone();
            let parent = held.clone();
            scope.spawn(move |s| {
                self.walk_dir(s, DirTask { rel, node, forced, slot, parent, index_rel })
            });
        }
    }

    /// Adds a directory's part: `entries` under `dir` (its root-relative
    /// path), and `subs` (names with a `/`, and slots).
    fn flush(
        &self,
        slot: usize,
        dir: &[u8],
        mut entries: Vec<Entry>,
        mut subs: Vec<(String, usize)>,
    ) {
        if entries.is_empty() && subs.is_empty() {
            return;
        }
        // Nearly sorted already (children come in name order).
        entries.sort_unstable_by(|a, b| crate::cmp_utf16(&a.path, &b.path));
        subs.sort_unstable_by(|a, b| crate::cmp_utf16(&a.0, &b.0));
        let Ok(mut parts) = self.parts.lock() else { return };
        let parts = &mut *parts;
        let start = parts.entries.len() as u32;
        parts.entries.append(&mut entries);
        let first_sub = parts.subs.len() as u32;
        for (name, slot) in subs {
            let at = parts.names.len() as u32;
            parts.names.push_str(&name);
            parts.subs.push(Sub { name: (at, parts.names.len() as u32), slot: slot as u32 });
        }
        parts.outs.push(DirOut {
            slot: slot as u32,
            skip: if dir.is_empty() { 0 } else { dir.len() as u32 + 1 },
            entries: (start, parts.entries.len() as u32),
            subs: (first_sub, parts.subs.len() as u32),
        });
    }

    /// Tracked files under a walked directory: direct children not seen as
    /// regular files, and files under subdirectories the walk does not enter.
    fn resolve_tracked_children(
        &self,
        index: &Index,
        dir_index: &DirIndex<'_>,
        dir_rel: &[u8],
        children: &[Child],
        recursed: &[Subdir],
        local: &mut Vec<Entry>,
    ) {
        let fold = self.rules.fold;
        for &(name, i) in &dir_index.files {
            if index.entries[i].is_gitlink() {
                continue;
            }
            if children.binary_search_by(|c| c.name.cmp(name)).is_ok()
                || (fold && children.iter().any(|c| c.name.eq_ignore_ascii_case(name)))
            {
                // Listed on disk: either emitted above or not a regular file.
                continue;
            }
            let path = index.path(i);
            let Some(rrel) = self.root_rel(path) else { continue };
            if self.dropped_by_components(rrel) || !self.keep_file(rrel) {
                continue;
            }
            if index.entries[i].skip_worktree {
                // Not checked out (sparse checkout): not a candidate.
                self.skip_worktree.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            local.push(self.make_entry(rrel, EntryKind::File, None, true, Some(ENOENT)));
        }
        let skip = if dir_rel.is_empty() { 0 } else { dir_rel.len() + 1 };
        for (_, range) in &dir_index.dirs {
            let group_dir = index.path(range.start);
            let slash = group_dir[skip..]
                .iter()
                .position(|&c| c == b'/')
                .map_or(group_dir.len(), |p| skip + p);
            let group_dir = &group_dir[..slash];
            let walked = recursed.binary_search_by(|r| r.rel[..].cmp(group_dir)).is_ok()
                || (fold
                    && recursed.iter().any(|r| {
                        r.index_rel.as_deref().unwrap_or(&r.rel).eq_ignore_ascii_case(group_dir)
                    }));
            if !walked {
                self.resolve_slow(dir_rel, range.clone(), local);
            }
        }
    }

    /// Lists index entry `at` (root-relative `rrel`), found on disk under
    /// another case, by `lstat`ing the path as the index spells it: a
    /// case-insensitive file system answers (a tracked file), a
    /// case-sensitive one does not (missing, as git lists it). A skip-worktree
    /// entry is left out as [`Walker::resolve_slow`] leaves it.
    fn tracked_as_spelled(&self, index: &Index, at: usize, rrel: &[u8], local: &mut Vec<Entry>) {
        if self.dropped_by_components(rrel) || !self.keep_file(rrel) {
            return;
        }
        let meta = fs::symlink_metadata(self.abs(rrel));
        if index.entries[at].skip_worktree && (meta.is_err() || !self.clear_present_skip_worktree) {
            self.skip_worktree.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let entry = match meta {
            Ok(m) if m.file_type().is_file() && !index.entries[at].is_symlink() => self.make_entry(
                rrel,
                EntryKind::File,
                self.cfg.metadata.then(|| Meta::from(&m)).as_ref(),
                true,
                None,
            ),
            Ok(_) => return,
            Err(e) => self.make_entry(
                rrel,
                EntryKind::File,
                None,
                true,
                Some(os_code(&e).unwrap_or(ENOENT)),
            ),
        };
        self.case_moved.store(true, Ordering::Relaxed);
        local.push(entry);
    }

    /// Resolves tracked entries `range` (all under `base_rel`, a directory
    /// known to be real) by `lstat`ing their components: symlinked
    /// components drop the entry, missing ones flag it.
    pub(crate) fn resolve_slow(
        &self,
        base_rel: &[u8],
        range: std::ops::Range<usize>,
        local: &mut Vec<Entry>,
    ) {
        let Some(index) = self.index else { return };
        // The entries looked up here depend on the directories holding
        // them, which the walk does not read: the observer watches them.
        if let (Some(o), Some(base)) = (&self.cfg.observer, self.root_rel(base_rel)) {
            o.dir_used(&self.abs(base), None);
        }
        let mut dir_cache: HashMap<Vec<u8>, Result<(), Option<i32>>> = HashMap::new();
        let mut dirs_emitted: HashSet<Vec<u8>> = HashSet::new();
        for i in range {
            let e = &index.entries[i];
            if e.is_gitlink() {
                continue;
            }
            let path = index.path(i);
            if e.is_sparse_dir() {
                self.sparse_dir(&path[..path.len() - 1]);
                continue;
            }
            let Some(rrel) = self.root_rel(path) else { continue };
            if rrel.is_empty() || self.dropped_by_components(rrel) {
                continue;
            }
            if !self.keep_file(rrel) {
                continue;
            }
            // Check each directory component below base_rel.
            let start = if base_rel.is_empty() { 0 } else { base_rel.len() + 1 };
            let mut status: Result<(), Option<i32>> = Ok(());
            let mut dropped = false;
            let mut pos = start;
            while let Some(off) = path[pos..].iter().position(|&c| c == b'/') {
                let comp_end = pos + off;
                let d = &path[..comp_end];
                let st = dir_cache.entry(d.to_vec()).or_insert_with(|| {
                    match self.root_rel(d).map(|r| (r, fs::symlink_metadata(self.abs(r)))) {
                        Some((r, Ok(m))) if m.file_type().is_dir() => {
                            if let Some(o) = &self.cfg.observer {
                                o.dir_used(&self.abs(r), None);
                            }
                            Ok(())
                        }
                        Some((_, Ok(m))) if m.file_type().is_symlink() => Err(None),
                        Some((_, Ok(_))) => Err(Some(ENOTDIR)),
                        Some((_, Err(err))) => Err(Some(os_code(&err).unwrap_or(ENOENT))),
                        None => Err(Some(ENOENT)),
                    }
                });
                match *st {
                    Ok(()) => {}
                    Err(None) => {
                        dropped = true;
                        break;
                    }
                    Err(Some(code)) => {
                        status = Err(Some(code));
                        break;
                    }
                }
                pos = comp_end + 1;
            }
            if dropped {
                continue;
            }
            let meta = match status {
                Err(Some(code)) => Err(code),
                _ => {
                    fs::symlink_metadata(self.abs(rrel)).map_err(|e| os_code(&e).unwrap_or(ENOENT))
                }
            };
            // A skip-worktree entry is not checked out: not a candidate,
            // unless it is on disk and git clears its bit.
            if e.skip_worktree && (meta.is_err() || !self.clear_present_skip_worktree) {
                self.skip_worktree.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let entry = match meta {
                Ok(m) if m.file_type().is_file() && !e.is_symlink() => Some(self.make_entry(
                    rrel,
                    EntryKind::File,
                    self.cfg.metadata.then(|| Meta::from(&m)).as_ref(),
                    true,
                    None,
                )),
                Ok(_) => None,
                Err(code) => Some(self.make_entry(rrel, EntryKind::File, None, true, Some(code))),
            };
            let Some(entry) = entry else { continue };
            if self.cfg.dirs && entry.missing.is_none() {
                let mut pos = start;
                while let Some(off) = path[pos..].iter().position(|&c| c == b'/') {
                    let d = &path[..pos + off];
                    if let Some(dr) = self.root_rel(d)
                        && !dr.is_empty()
                        && dirs_emitted.insert(d.to_vec())
                    {
                        // `tracked`: listed for the tracked files below it,
                        // not walked (an ignored directory).
                        local.push(self.make_entry(dr, EntryKind::Dir, None, true, None));
                    }
                    pos += off + 1;
                }
            }
            local.push(entry);
        }
    }
}

impl Walker<'_> {
    /// With `recurse_submodules`: the root-relative paths of the submodules
    /// to walk, in index order: gitlinks in `range` (the entries under the
    /// root) that the hidden, prune and filter settings keep (as a
    /// directory), reached through real directories only (no symlink is
    /// followed), whose directory holds a repository (see
    /// [`super::submodule::initialised`]). Ignore rules do not matter: a
    /// gitlink is tracked.
    pub(crate) fn submodule_roots(
        &self,
        index: &Index,
        range: std::ops::Range<usize>,
    ) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for i in range {
            if !index.entries[i].is_gitlink() {
                continue;
            }
            let Some(rrel) = self.root_rel(index.path(i)) else { continue };
            if rrel.is_empty() {
                continue;
            }
            // Every component is a directory's: checked as hidden or pruned.
            let mut as_dir = rrel.to_vec();
            as_dir.push(b'/');
            if self.dropped_by_components(&as_dir) {
                continue;
            }
            if self.cfg.filter.as_ref().is_some_and(|f| f.skip_dir(&String::from_utf8_lossy(rrel)))
            {
                continue;
            }
            let mut real = true;
            let mut end = 0;
            while real && end < rrel.len() {
                end += rrel[end..].iter().position(|&c| c == b'/').unwrap_or(rrel.len() - end);
                real = fs::symlink_metadata(self.abs(&rrel[..end])).is_ok_and(|m| m.is_dir());
                end += 1;
            }
            if real && super::submodule::initialised(&self.abs(rrel)) {
                out.push(rrel.to_vec());
            }
        }
        out
    }

    /// A sparse directory entry (`dir` without its `/`), reached by the
    /// resolution of tracked paths: not on disk, it is left out (recorded);
    /// on disk, its files are walked as untracked ones where the walk enters
    /// it (git would read the tracked ones from the directory's tree).
    fn sparse_dir(&self, dir: &[u8]) {
        let Some(rel) = self.root_rel(dir) else { return };
        if rel.is_empty() {
            return;
        }
        // Its own name is a directory's: checked as hidden or pruned too.
        let mut with_slash = rel.to_vec();
        with_slash.push(b'/');
        if self.dropped_by_components(&with_slash) {
            return;
        }
        let path = String::from_utf8_lossy(rel).into_owned();
        if self.cfg.filter.as_ref().is_some_and(|f| f.skip_dir(&path)) {
            return;
        }
        if fs::symlink_metadata(self.abs(rel)).is_ok_and(|m| m.is_dir()) {
            return;
        }
        if let Ok(mut dirs) = self.sparse_dirs.lock() {
            dirs.push(path + "/");
        }
    }
}
