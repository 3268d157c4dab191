//! A kept listing's proof where there is no watch: the stamps of what its
//! walk read.
//!
//! Without a watch (`watch: false`, a tree past the system's watch limit,
//! systems with no watcher here) a listing is kept with the stamp (device,
//! inode, mode, size, mtime and ctime in ns) of every folder its walk read
//! or looked into, of the `.git` where there is one (a nested repository
//! is not entered; one appearing moves its folder's stamp), and of every
//! ignore file it read. A name created, removed or
//! renamed in a folder moves the folder's mtime; an ignore file written
//! moves its own; a folder's mode moves its ctime. A later call uses the
//! listing only while every stamp is what it was, and none was racy: taken
//! within [`crate::session::cache::RACY_WINDOW`] of a change (a change in
//! the same timestamp tick, after the walk read the folder, would leave
//! the same stamp). What the walk reads outside the folders (the git index,
//! `info/exclude`, the excludes file, the git config, the ignore files
//! above the root) is the listing's fingerprint. `lstat`ing the folders is
//! a fraction of walking them: no open, no directory read, no close.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use sfq_walk::discovery::WalkObserver;

use super::cache::Stamp;

/// What one walk read, stamped as it read it.
#[derive(Debug)]
pub struct Stamps {
    /// When the walk began (ns since the epoch).
    started_ns: i128,
    /// Each path with its stamp (`None`: nothing there).
    seen: Mutex<Vec<(PathBuf, Option<Stamp>)>>,
}

impl Default for Stamps {
    fn default() -> Stamps {
        Stamps::new()
    }
}

/// Stamps checked by one thread at least (fewer: one thread checks all).
const PER_THREAD: usize = 2048;

impl Stamps {
    /// Nothing stamped yet; the walk begins now.
    pub fn new() -> Stamps {
        let started_ns =
            SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        Stamps { started_ns: started_ns as i128, seen: Mutex::default() }
    }

    /// Nothing stamped yet, for a walk that began at `started_ns`.
    #[cfg(test)]
    fn began_at(started_ns: i128) -> Stamps {
        Stamps { started_ns, seen: Mutex::default() }
    }

    fn seen(&self) -> std::sync::MutexGuard<'_, Vec<(PathBuf, Option<Stamp>)>> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn record(&self, path: PathBuf) {
        let stamp = Stamp::of_any(&path);
        self.seen().push((path, stamp));
    }

    /// Records `path` only when something is there (a name appearing in a
    /// stamped folder moves that folder's stamp).
    fn record_present(&self, path: PathBuf) {
        if let Some(stamp) = Stamp::of_any(&path) {
            self.seen().push((path, Some(stamp)));
        }
    }

    /// Bytes held (counted with the listing).
    pub fn bytes(&self) -> u64 {
        let seen = self.seen();
        let each = std::mem::size_of::<(PathBuf, Option<Stamp>)>();
        seen.iter().map(|(p, _)| (each + p.as_os_str().len()) as u64).sum()
    }

    /// Whether everything the walk read is as it was, on up to `threads`
    /// threads: no stamp racy, each path's stamp the same now.
    pub fn current(&self, threads: usize) -> bool {
        let seen = self.seen();
        if seen.iter().any(|(_, s)| s.is_some_and(|s| s.racy(self.started_ns))) {
            return false;
        }
        let same = |part: &[(PathBuf, Option<Stamp>)]| {
            part.iter().all(|(path, stamp)| Stamp::of_any(path) == *stamp)
        };
        super::in_parts(seen.len(), threads, PER_THREAD, |r| same(&seen[r]))
            .into_iter()
            .all(|(_, same)| same.unwrap_or(false))
    }
}

impl WalkObserver for Stamps {
    fn dir_used(&self, path: &Path, _fd: Option<i32>) {
        self.record(path.to_path_buf());
        self.record_present(path.join(".git"));
    }

    fn file_read(&self, path: &Path) {
        self.record(path.to_path_buf());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::time::Duration;

    /// Past the file system's timestamp tick (the racy window's case is
    /// the other test's).
    fn next_tick() {
        std::thread::sleep(Duration::from_millis(20));
    }

    fn tree(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sfq-stamps-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("sub").join(".gitignore"), "*.log\n").unwrap();
        fs::write(dir.join("sub").join("a.txt"), "a").unwrap();
        dir
    }

    /// The stamps of a walk of `dir`, as one that began long after every
    /// change so far (none racy: the racy window is the other test's).
    fn stamped(dir: &Path) -> Stamps {
        let s = Stamps::began_at(i128::MAX / 2);
        s.dir_used(dir, None);
        s.dir_used(&dir.join("sub"), None);
        s.file_read(&dir.join("sub").join(".gitignore"));
        s
    }

    /// A folder's new name, an ignore file written in place, a `.git`
    /// folder filled: each makes the stamps stale; reading the files alone
    /// does not.
    #[test]
    fn what_changes_a_listing_makes_its_stamps_stale() {
        let dir = tree("stale");
        let sub = dir.join("sub");
        let s = stamped(&dir);
        assert!(s.current(1));
        assert!(s.current(4));
        fs::read(sub.join("a.txt")).unwrap();
        assert!(s.current(1), "a read changes nothing");

        next_tick();
        fs::write(sub.join("b.txt"), "b").unwrap();
        assert!(!s.current(1), "a new name in a folder");

        let s = stamped(&dir);
        assert!(s.current(1));
        next_tick();
        fs::write(sub.join(".gitignore"), "*.tmp\n").unwrap();
        assert!(!s.current(1), "an ignore file written in place");

        // A `.git` folder becoming a repository (which the walk would not
        // enter) leaves its folder's stamp as it was.
        fs::create_dir(sub.join(".git")).unwrap();
        let s = stamped(&dir);
        assert!(s.current(1));
        next_tick();
        fs::write(sub.join(".git").join("HEAD"), "ref: refs/heads/main\n").unwrap();
        assert!(!s.current(1), "a .git filled");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A folder changed just before the walk may change again in the same
    /// tick unseen: its stamps are never current.
    #[test]
    fn stamps_taken_within_the_racy_window_are_not_current() {
        let dir = tree("racy");
        let s = Stamps::new();
        s.dir_used(&dir.join("sub"), None);
        assert!(!s.current(1));
        fs::remove_dir_all(&dir).unwrap();
    }
}
