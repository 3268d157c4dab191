//! What a walk produces.

use std::path::PathBuf;
use std::time::SystemTime;

use super::error::SoftError;

/// The kind of a listed entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A regular file (or a tracked file missing on disk).
    File,
    /// A directory (only when directories were asked for).
    Dir,
}

/// One candidate. A listing holds one per file of the tree: 48 bytes and
/// its path (a million-file listing is 48 MB and the paths).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Path relative to the root, `/`-separated, never `./`-prefixed. Names
    /// that are not valid UTF-8 are converted lossily (U+FFFD).
    pub path: Box<str>,
    /// Absolute path with the real bytes of every name, when the walk was
    /// asked for absolute paths or a name is not UTF-8 (else it is the root
    /// joined with [`Entry::path`]).
    pub abs_path: Option<Box<PathBuf>>,
    /// File or directory.
    pub kind: EntryKind,
    /// Whether the path is in the git index; for a directory, whether it is
    /// listed only for the tracked files below it (an ignored directory the
    /// walk did not enter: listed when a file below it is).
    pub tracked: bool,
    /// `Some(os_code)` for a tracked file that could not be `lstat`ed
    /// (`ENOENT` when it was deleted but is still in the index): git lists it,
    /// so it stays a candidate and the caller reports the read error.
    pub missing: Option<i32>,
    /// Size and modification time from `lstat`, when metadata was asked
    /// for and the entry is a file that exists (directories are not
    /// `lstat`ed).
    meta: Option<Box<(u64, Option<SystemTime>)>>,
}

// A million-file listing holds a million of these.
const _: () = assert!(std::mem::size_of::<Entry>() == 48);

impl Entry {
    /// An entry without size and time.
    pub fn new(
        path: Box<str>,
        abs_path: Option<Box<PathBuf>>,
        kind: EntryKind,
        tracked: bool,
        missing: Option<i32>,
    ) -> Entry {
        Entry { path, abs_path, kind, tracked, missing, meta: None }
    }

    /// Size from `lstat`, when metadata was asked for and the entry is a
    /// file that exists.
    pub fn size(&self) -> Option<u64> {
        self.meta.as_ref().map(|m| m.0)
    }

    /// Modification time from `lstat`, when metadata was asked for (files
    /// only).
    pub fn modified(&self) -> Option<SystemTime> {
        self.meta.as_ref().and_then(|m| m.1)
    }

    /// Sets the size and modification time `lstat` gave.
    pub fn set_meta(&mut self, size: u64, modified: Option<SystemTime>) {
        self.meta = Some(Box::new((size, modified)));
    }

    /// The absolute path: [`Entry::abs_path`], else `root` joined with the
    /// path.
    pub fn abs(&self, root: &std::path::Path) -> std::borrow::Cow<'_, std::path::Path> {
        match &self.abs_path {
            Some(abs) => std::borrow::Cow::Borrowed(abs.as_path()),
            None => std::borrow::Cow::Owned(root.join(&*self.path)),
        }
    }
}

/// How the candidates were decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Inside a git work tree: `git ls-files --cached --others --exclude-standard`.
    Git {
        /// The work-tree top.
        top: PathBuf,
        /// The repository directory (`.git` or a worktree's directory).
        git_dir: PathBuf,
    },
    /// Outside git: every file, with nested `.gitignore`/`.ignore` files.
    Plain,
}

/// The result of a walk.
#[derive(Debug, Clone)]
pub struct Listing {
    /// Entries sorted by the UTF-16 order of [`Entry::path`].
    pub entries: Vec<Entry>,
    /// Directories and ignore files that could not be read, sorted by path.
    pub errors: Vec<SoftError>,
    /// Git or plain mode.
    pub mode: Mode,
    /// With [`super::WalkConfigBuilder::report_dropped`]: the entries an
    /// ignore rule or a pruned name dropped (root-relative paths, the top of
    /// each dropped subtree, directories flagged), sorted by path.
    pub dropped: Vec<(String, bool)>,
    /// Tracked paths a sparse checkout left out (git mode).
    pub not_checked_out: NotCheckedOut,
}

/// The tracked paths under the root that are not candidates because a
/// sparse checkout left them out of the work tree: what `git grep` does not
/// search either. Only paths the hidden, prune and path-filter settings
/// would have listed are counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NotCheckedOut {
    /// Index entries with the skip-worktree bit (not checked out), counted
    /// as files. A file present on disk at such a path is a candidate when
    /// git clears the bit (`core.sparseCheckout` on and
    /// `sparse.expectFilesOutsideOfPatterns` off), else it is counted here.
    pub files: usize,
    /// Sparse directory entries (a sparse index's entries standing for a
    /// whole directory outside the cone, not on disk): root-relative paths
    /// ending with `/`, sorted. The files in them are not counted in
    /// [`NotCheckedOut::files`] (their number is in the directories' tree
    /// objects, which are not read).
    pub dirs: Vec<String>,
}
