//! Candidate files for a query: `sfq-walk`'s git-exact listing (tracked plus
//! untracked-but-not-ignored, symlinks never followed) under one profile's
//! pruned directory names and include/exclude globs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use sfq_walk::discovery::Prefixed;
use sfq_walk::discovery::{
    Entry, EntryKind, NotCheckedOut, PathFilter, WalkConfig, WalkError, WalkObserver, walk,
};
use sfq_walk::glob::{GlobError, GlobOptions, GlobSet};

use crate::cancel::Cancel;
use crate::engine::Source;
use crate::error::{Error, ErrorCode, Result, io_code};

/// A file to search: its root-relative path, and where to open it.
///
/// Held once per listed file by every search, so it holds one string: the
/// absolute path is made when the file is opened ([`Candidate::abs`]), from
/// the folder walked (shared by every candidate of a walk) and the path,
/// unless the real bytes differ from the lossy path (a name that is not
/// UTF-8), which are then kept.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Root-relative POSIX path (lossy for names that are not UTF-8).
    rel: Box<str>,
    /// Where `rel`'s part relative to the folder walked starts (after a
    /// prefix given by [`Candidate::prefix`]).
    tail: u32,
    /// The folder walked, or the file's own absolute path.
    base: Base,
    /// OS error code when a tracked file could not be found on disk.
    pub missing: Option<i32>,
    /// Listed by the walk as a regular file (not a path named by the caller,
    /// which may be a FIFO or a device): read without a `stat` first, a
    /// short read being its end (see [`crate::search::load`]).
    pub regular: bool,
}

#[derive(Debug, Clone)]
enum Base {
    /// The folder walked: the file is this joined with the path's tail.
    Folder(Arc<PathBuf>),
    /// The file's absolute path (a file named by the caller, a name that is
    /// not UTF-8).
    Own(Box<PathBuf>),
}

// As large as a walk's entry, so the walk's list becomes the candidates'
// in place.
const _: () = assert!(std::mem::size_of::<Candidate>() == std::mem::size_of::<Entry>());

impl Candidate {
    /// A file named by the caller: `rel` for answers, `abs` to open.
    pub fn named(rel: String, abs: PathBuf, regular: bool) -> Candidate {
        Candidate {
            rel: rel.into(),
            tail: 0,
            base: Base::Own(Box::new(abs)),
            missing: None,
            regular,
        }
    }

    /// A file a walk of `folder` listed (`abs`: its absolute path when the
    /// walk kept it, else `folder` joined with `rel`).
    fn listed(folder: &Arc<PathBuf>, e: Entry) -> Candidate {
        let base = match e.abs_path {
            Some(abs) if !joins(folder, &e.path, &abs) => Base::Own(abs),
            _ => Base::Folder(folder.clone()),
        };
        Candidate { rel: e.path, tail: 0, base, missing: e.missing, regular: true }
    }

    /// Root-relative POSIX path (lossy for names that are not UTF-8).
    pub fn rel(&self) -> &str {
        &self.rel
    }

    /// Puts `prefix` before the path (a walk of a folder below the root).
    pub fn prefix(&mut self, prefix: &str) {
        self.rel = format!("{prefix}{}", self.rel).into();
        self.tail = self.tail.saturating_add(prefix.len() as u32);
    }

    /// The absolute path with the real bytes.
    pub fn abs(&self) -> std::borrow::Cow<'_, Path> {
        match &self.base {
            Base::Own(abs) => std::borrow::Cow::Borrowed(abs.as_path()),
            Base::Folder(folder) => {
                let tail = self.rel.get(self.tail as usize..).unwrap_or_default();
                let mut abs = PathBuf::with_capacity(folder.as_os_str().len() + 1 + tail.len());
                abs.push(folder.as_path());
                abs.push(tail);
                std::borrow::Cow::Owned(abs)
            }
        }
    }

    /// [`Candidate::abs`], written in `buf` (a search's lookups of many
    /// candidates reuse one buffer).
    pub fn abs_in<'b>(&'b self, buf: &'b mut PathBuf) -> &'b Path {
        match &self.base {
            Base::Own(abs) => abs.as_path(),
            Base::Folder(folder) => {
                buf.clear();
                buf.push(folder.as_path());
                buf.push(self.rel.get(self.tail as usize..).unwrap_or_default());
                buf
            }
        }
    }

    /// The Node-style code of a tracked-but-missing file (`ENOENT`).
    pub fn missing_code(&self) -> Option<&'static str> {
        self.missing.map(|code| io_code(&std::io::Error::from_raw_os_error(code)))
    }
}

/// Whether `abs` is `folder` joined with `rel`.
pub(crate) fn joins(folder: &Path, rel: &str, abs: &Path) -> bool {
    let (f, a) = (folder.as_os_str().as_encoded_bytes(), abs.as_os_str().as_encoded_bytes());
    a.len() == f.len() + 1 + rel.len()
        && a.starts_with(f)
        && a[f.len()] == std::path::MAIN_SEPARATOR as u8
        && a.ends_with(rel.as_bytes())
}

/// What an API's profile decides about discovery.
#[derive(Clone)]
pub struct DiscoveryProfile {
    /// Directory names never entered, at any depth (`.git` always is).
    pub prune_names: Vec<String>,
    /// The API's globs, applied during the walk (so it prunes): files it
    /// does not keep are never listed.
    pub filter: Option<Arc<dyn PathFilter>>,
    /// Whether directories are listed too (`findFiles`).
    pub dirs: bool,
    /// Whether entries whose name starts with `.` are listed (all but
    /// `globFiles` without `includeHidden` list them).
    pub hidden: bool,
    /// Whether `.gitignore` (and, outside git, `.ignore`) rules apply (only
    /// a hint's look at what the rules left out turns them off).
    pub ignore_files: bool,
    /// Whether each entry is `lstat`ed for its size and time (a listing
    /// that stats only the entries it returns turns it off).
    pub metadata: bool,
    /// Whether each entry carries its absolute path (a listing that stats
    /// each file it returns; candidates make theirs when they are opened,
    /// see [`Candidate::abs`], and a listing that stats during the walk
    /// joins the root and the path for the few it needs).
    pub abs_paths: bool,
    /// Worker threads.
    pub threads: usize,
    /// Whether initialised submodules are walked too (`recurseSubmodules`,
    /// as `git ls-files --recurse-submodules`; see sfq-walk's
    /// `WalkConfigBuilder::recurse_submodules`).
    pub recurse_submodules: bool,
    /// Where the listing comes from: a walk of the disk, or a session's
    /// listing kept fresh by its watch (the same entries).
    pub source: Source,
}

impl std::fmt::Debug for DiscoveryProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DiscoveryProfile")
            .field("prune_names", &self.prune_names)
            .field("filter", &self.filter.is_some())
            .field("dirs", &self.dirs)
            .field("hidden", &self.hidden)
            .field("ignore_files", &self.ignore_files)
            .field("metadata", &self.metadata)
            .field("recurse_submodules", &self.recurse_submodules)
            .finish_non_exhaustive()
    }
}

impl DiscoveryProfile {
    /// The same profile, walking the disk.
    pub fn on_disk(&self) -> DiscoveryProfile {
        DiscoveryProfile { source: Source::Disk, ..self.clone() }
    }
}

/// A listing returning more entries than this `lstat`s every file during
/// the parallel walk, relative to the directory being read (cheaper per
/// file when most are returned); one returning fewer walks without it and
/// `lstat`s only the files it returns (a call returning 100 of a tree's
/// 50,000 files stats 100, not 50,000).
pub const STAT_DURING_WALK_ABOVE: usize = 2_000;

/// A directory or ignore file that could not be read: reported, not fatal.
#[derive(Debug, Clone)]
pub struct Unreadable {
    /// Root-relative path.
    pub rel: String,
    /// Node-style error code.
    pub code: &'static str,
}

/// The entries under `root` (files, and directories when the profile lists
/// them), in UTF-16 path order, and what could not be read.
pub fn entries(
    root: &Path,
    profile: &DiscoveryProfile,
    cancel: &Cancel,
) -> Result<(Vec<Entry>, Vec<Unreadable>)> {
    let listed = listing(root, profile, cancel, false)?;
    Ok((listed.items, listed.unreadable))
}

/// What an ignore rule or a pruned name dropped: root-relative paths (the
/// top of each dropped subtree) with a flag for directories.
pub type Dropped = Vec<(String, bool)>;

/// A walk's items (entries or candidates) and what it reports beside them.
#[derive(Debug)]
pub struct Listed<I> {
    /// The entries or candidates, in UTF-16 path order.
    pub items: I,
    /// Directories and ignore files that could not be read.
    pub unreadable: Vec<Unreadable>,
    /// What ignore rules and pruned names dropped (when asked for).
    pub dropped: Dropped,
    /// The tracked paths under the root a sparse checkout left out (only
    /// those the profile's settings and filter would have listed):
    /// skip-worktree files, and sparse directories of a sparse index.
    pub not_checked_out: NotCheckedOut,
    /// What was dropped was asked for but not looked at (the listing came
    /// from a session's memory): [`Listed::take_dropped`] walks for it.
    pub deferred: Option<Box<Deferred>>,
}

/// What a listing from a session's memory says of what was dropped: the
/// walk that would tell, and where its answer is kept while the listing
/// it was drawn from is (see [`Listed::take_dropped`]).
#[derive(Debug)]
pub struct Deferred {
    /// The folder listed.
    pub root: PathBuf,
    /// The call's profile.
    pub profile: DiscoveryProfile,
    /// The dropped entries of this profile, once walked for, kept with the
    /// session's view of the listing: dropped with it at the first change
    /// of the tree's structure or of its ignore rules.
    pub memo: Option<Arc<std::sync::OnceLock<Dropped>>>,
}

/// The most dropped entries a session keeps for a view (a handful of
/// paths each, so at most 16 views × 4,096 paths stay outside the budget's
/// count; a longer list is walked for at each call).
const KEPT_DROPPED: usize = 1 << 12;

impl<I> Listed<I> {
    /// A listing of `items` with nothing else to report.
    pub fn of(items: I) -> Listed<I> {
        Listed {
            items,
            unreadable: Vec::new(),
            dropped: Vec::new(),
            not_checked_out: NotCheckedOut::default(),
            deferred: None,
        }
    }

    /// What ignore rules and pruned names dropped (walked for now when the
    /// listing came from a session's memory).
    pub fn take_dropped(&mut self, cancel: &Cancel) -> Result<Dropped> {
        let Some(d) = self.deferred.take() else { return Ok(std::mem::take(&mut self.dropped)) };
        if let Some(kept) = d.memo.as_ref().and_then(|m| m.get()) {
            return Ok(kept.clone());
        }
        let dropped = listing(&d.root, &d.profile.on_disk(), cancel, true)?.dropped;
        if let Some(memo) = &d.memo
            && dropped.len() <= KEPT_DROPPED
        {
            let _ = memo.set(dropped.clone());
        }
        Ok(dropped)
    }
}

/// [`entries`], plus what ignore rules and pruned names dropped when
/// `report_dropped` (for a look at what was left out without a second walk)
/// and what a sparse checkout left out.
pub fn listing(
    root: &Path,
    profile: &DiscoveryProfile,
    cancel: &Cancel,
    report_dropped: bool,
) -> Result<Listed<Vec<Entry>>> {
    match &profile.source {
        Source::Disk => walk_listing(root, profile, cancel, report_dropped, None),
        Source::Session(store) => store.listing(root, profile, cancel, report_dropped),
    }
}

/// [`listing`] by a walk of the disk, `observer` told of every directory
/// read.
pub fn walk_listing(
    root: &Path,
    profile: &DiscoveryProfile,
    cancel: &Cancel,
    report_dropped: bool,
    observer: Option<Arc<dyn WalkObserver>>,
) -> Result<Listed<Vec<Entry>>> {
    let mut builder = WalkConfig::builder(root)
        .report_dropped(report_dropped)
        .recurse_submodules(profile.recurse_submodules)
        .prune_dirs(profile.prune_names.iter().map(String::as_str))
        .dirs(profile.dirs)
        .hidden(profile.hidden)
        .ignore_files(profile.ignore_files)
        .metadata(profile.metadata)
        .abs_paths(profile.abs_paths)
        .threads(profile.threads);
    if let Some(filter) = &profile.filter {
        builder = builder.filter(filter.clone());
    }
    if let Some(observer) = observer {
        builder = builder.observer(observer);
    }
    let config = builder
        .build()
        .map_err(|e| Error::new(ErrorCode::Internal, format!("invalid walk configuration: {e}")))?;
    let listing = walk(&config, &|| cancel.is_cancelled()).map_err(|e| walk_error(e, cancel))?;
    let unreadable = listing
        .errors
        .into_iter()
        .map(|s| Unreadable {
            rel: crate::paths::slashed(s.path.strip_prefix(root).unwrap_or(&s.path)),
            code: s.code.map_or("EIO", |c| io_code(&std::io::Error::from_raw_os_error(c))),
        })
        .collect();
    Ok(Listed {
        items: listing.entries,
        unreadable,
        dropped: listing.dropped,
        not_checked_out: listing.not_checked_out,
        deferred: None,
    })
}

/// The candidates of a call, in UTF-16 path order: a walk's own, or shared
/// with a session's kept view of its listing (not copied for each call; see
/// [`crate::session::Store::candidates`]).
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    items: Arc<Vec<Candidate>>,
    /// Where a session's cache keeps what it knows of these candidates
    /// (shared by the calls that share them).
    slots: Option<Arc<crate::session::cache::Slots>>,
}

impl std::ops::Deref for Candidates {
    type Target = [Candidate];
    fn deref(&self) -> &[Candidate] {
        &self.items
    }
}

impl Candidates {
    /// A walk's candidates.
    pub fn owned(items: Vec<Candidate>) -> Candidates {
        Candidates { items: Arc::new(items), slots: None }
    }

    /// Candidates shared with a session's view (`slots` is its memo).
    pub fn shared(
        items: Arc<Vec<Candidate>>,
        slots: Arc<crate::session::cache::Slots>,
    ) -> Candidates {
        Candidates { items, slots: Some(slots) }
    }

    /// The session cache's memo for these candidates, if they are shared.
    pub fn slots(&self) -> Option<&crate::session::cache::Slots> {
        self.slots.as_deref()
    }

    /// Puts `prefix` before every path (a walk of a folder below the root;
    /// a shared list is copied first). The absolute paths do not change.
    pub fn prefix(&mut self, prefix: &str) {
        if prefix.is_empty() {
            return;
        }
        for c in Arc::make_mut(&mut self.items) {
            c.prefix(prefix);
        }
    }

    /// The candidates as a list of their own.
    pub fn into_vec(mut self) -> Vec<Candidate> {
        Arc::unwrap_or_clone(std::mem::take(&mut self.items))
    }
}

/// A list of more candidates than this, when its last holder lets it go,
/// is freed off the calling thread (see [`crate::disposal`]).
const FREED_LATER: usize = 20_000;

impl Drop for Candidates {
    fn drop(&mut self) {
        if self.items.len() > FREED_LATER && Arc::strong_count(&self.items) == 1 {
            crate::disposal::later(std::mem::take(&mut self.items));
        }
    }
}

/// The candidate files, in UTF-16 path order, and what could not be read.
pub fn candidates(
    root: &Path,
    profile: &DiscoveryProfile,
    cancel: &Cancel,
) -> Result<(Candidates, Vec<Unreadable>)> {
    // What a sparse checkout left out is not asked for: a session may list
    // them from a kept listing of a sparse checkout.
    let listed = listed_candidates(root, profile, cancel, false, false)?;
    Ok((listed.items, listed.unreadable))
}

/// [`candidates`], plus what was dropped and what a sparse checkout left
/// out (see [`listing`]).
pub fn candidates_and_dropped(
    root: &Path,
    profile: &DiscoveryProfile,
    cancel: &Cancel,
    report_dropped: bool,
) -> Result<Listed<Candidates>> {
    listed_candidates(root, profile, cancel, report_dropped, true)
}

/// [`candidates_and_dropped`]; `left_out`: whether [`Listed::not_checked_out`]
/// is read (else it may be empty).
fn listed_candidates(
    root: &Path,
    profile: &DiscoveryProfile,
    cancel: &Cancel,
    report_dropped: bool,
    left_out: bool,
) -> Result<Listed<Candidates>> {
    if let Source::Session(store) = &profile.source
        && let Some(listed) = store.candidates(root, profile, cancel, report_dropped, left_out)?
    {
        return Ok(listed);
    }
    Ok(listing(root, profile, cancel, report_dropped)?.into_candidates(root))
}

impl Listed<Vec<Entry>> {
    /// The listing's files as candidates (a walk of `root`), the rest as it is.
    pub(crate) fn into_candidates(self, root: &Path) -> Listed<Candidates> {
        let Listed { items, unreadable, dropped, not_checked_out, deferred } = self;
        let items = Candidates::owned(to_candidates(root, items));
        Listed { items, unreadable, dropped, not_checked_out, deferred }
    }
}

/// The files of a listing of `root` as candidates.
pub(crate) fn to_candidates(root: &Path, entries: Vec<Entry>) -> Vec<Candidate> {
    let folder = Arc::new(root.to_path_buf());
    entries
        .into_iter()
        .filter(|e| e.kind == EntryKind::File)
        .map(|e| Candidate::listed(&folder, e))
        .collect()
}

fn walk_error(e: WalkError, cancel: &Cancel) -> Error {
    match e {
        WalkError::Root { path, code } => {
            Error::io(&std::io::Error::from_raw_os_error(code), "scandir", &path)
        }
        WalkError::Repository { path, reason } => Error::new(
            ErrorCode::Io("EREPOSITORY"),
            format!("cannot read the git repository at '{}': {reason}", crate::paths::shown(&path)),
        ),
        WalkError::Cancelled => cancel
            .check()
            .err()
            .unwrap_or_else(|| Error::new(ErrorCode::Aborted, "The operation was aborted")),
        other => Error::new(ErrorCode::Internal, other.to_string()),
    }
}

/// Compiles `patterns` (picomatch's meaning; `dot` matches dotfiles,
/// `basename` matches slash-free patterns against the file name).
pub fn glob_set(option: &str, patterns: &[String], dot: bool, basename: bool) -> Result<GlobSet> {
    GlobSet::new(patterns, &GlobOptions { dot, basename }).map_err(|e| {
        let what = match &e {
            GlobError::Empty => "an empty pattern".to_string(),
            other => other.to_string(),
        };
        Error::invalid_option(format!("invalid {option} glob: {what}"))
    })
}
