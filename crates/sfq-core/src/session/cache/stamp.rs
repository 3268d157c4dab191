//! What identifies a file's contents without reading them.

use std::path::Path;
#[cfg(not(unix))]
use std::time::SystemTime;

/// What identifies a file's contents without reading them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub(super) dev: u64,
    pub(super) ino: u64,
    pub(super) mode: u32,
    pub(super) size: u64,
    pub(super) mtime_ns: i128,
    pub(super) ctime_ns: i128,
    pub(super) nlink: u64,
}

impl Stamp {
    /// The stamp of the file at `path` (not following a symlink), when it
    /// is a regular file.
    pub(super) fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        if !meta.file_type().is_file() {
            return None;
        }
        Some(Stamp::from_metadata(path, &meta))
    }

    /// The stamp of whatever is at `path` (a folder too; not following a
    /// symlink); `None` when nothing is there or it cannot be `lstat`ed.
    pub(crate) fn of_any(path: &Path) -> Option<Stamp> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        Some(Stamp::from_metadata(path, &meta))
    }

    /// Whether it was changed within [`super::RACY_WINDOW`] before
    /// `started_ns` or later: a change in the same timestamp tick after it
    /// was taken would leave it as it is.
    pub(crate) fn racy(&self, started_ns: i128) -> bool {
        let since = started_ns - super::RACY_WINDOW.as_nanos() as i128;
        self.mtime_ns >= since || self.ctime_ns >= since
    }

    #[cfg(unix)]
    fn from_metadata(_path: &Path, meta: &std::fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            mode: meta.mode(),
            size: meta.size(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
            ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
            nlink: meta.nlink(),
        }
    }

    #[cfg(not(unix))]
    fn from_metadata(path: &Path, meta: &std::fs::Metadata) -> Stamp {
        let ns = |t: std::io::Result<SystemTime>| {
            t.ok()
                .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i128)
        };
        // Windows: the volume, file index and NTFS change time asked of a
        // handle (a same-size write with its old mtime put back moves the
        // change time).
        let id = sfq_walk::identity::of(path, meta);
        Stamp {
            dev: id.dev,
            ino: id.ino,
            mode: u32::from(meta.permissions().readonly()),
            size: meta.len(),
            mtime_ns: ns(meta.modified()),
            ctime_ns: id.ctime_ns,
            // Unknown here: never trusted without a stat.
            nlink: 2,
        }
    }
}
