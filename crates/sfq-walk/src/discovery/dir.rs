//! Reading one directory: its entries' names and kinds, and an entry's
//! `lstat` on demand.
//!
//! On Linux the names come from `getdents64` into a buffer the walking
//! thread keeps from one directory to the next, and an entry is `lstat`ed
//! relative to the open directory: no allocation per directory or per
//! entry (glibc's `opendir` allocates a 32 KiB buffer per directory, and
//! the allocator consolidated its free lists for each one), no name copied.
//! Elsewhere the standard library's `read_dir` does the same work. The
//! kinds and sizes are those `std::fs::read_dir` and `DirEntry::metadata`
//! give: the entry's type from the directory when the file system records
//! it, else from an `lstat`.

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

/// What an entry is, without following a symlink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    /// A symlink, a FIFO, a socket, a device.
    Other,
}

impl Kind {
    pub(crate) fn is_file(self) -> bool {
        self == Kind::File
    }

    pub(crate) fn is_dir(self) -> bool {
        self == Kind::Dir
    }
}

/// An entry's size and modification time (from `lstat`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Meta {
    pub len: u64,
    pub modified: Option<SystemTime>,
}

impl From<&std::fs::Metadata> for Meta {
    fn from(m: &std::fs::Metadata) -> Meta {
        Meta { len: m.len(), modified: m.modified().ok() }
    }
}

/// One entry of a directory (not `.` or `..`).
pub(crate) struct Child<'b> {
    pub name: &'b [u8],
    pub kind: Kind,
    /// Where its `lstat` comes from (see [`Dir::meta`]).
    #[cfg(not(target_os = "linux"))]
    entry: usize,
}

#[cfg(target_os = "linux")]
mod imp {
    use std::ffi::CString;
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::time::{Duration, UNIX_EPOCH};

    use super::{Child, Kind, Meta};
    use crate::discovery::WalkObserver;

    /// An open directory.
    pub(crate) struct Dir {
        fd: OwnedFd,
    }

    fn cstring(bytes: &[u8]) -> io::Result<CString> {
        CString::new(bytes).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
    }

    /// Where the names of a directory's entries go: grown as needed, kept
    /// by the walking thread for the next directory.
    const CHUNK: usize = 32 * 1024;

    /// Directories are opened relative to their parent's handle.
    pub(crate) const RELATIVE: bool = true;

    /// Opens `path` (by `name` in `parent` when given) and reads its
    /// entries' names into `buf`.
    pub(crate) fn read<'b>(
        parent: Option<(&Dir, &[u8])>,
        path: &Path,
        buf: &'b mut Vec<u8>,
        observer: Option<&dyn WalkObserver>,
    ) -> io::Result<(Dir, Vec<Child<'b>>)> {
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
        let fd = match parent {
            Some((parent, name)) => {
                let c = cstring(name)?;
                // SAFETY: `c` is NUL-terminated and alive for the call; the
                // parent's descriptor is open.
                unsafe { libc::openat(parent.fd.as_raw_fd(), c.as_ptr(), flags) }
            }
            None => {
                let c = cstring(path.as_os_str().as_bytes())?;
                // SAFETY: `c` is NUL-terminated and alive for the call.
                unsafe { libc::open(c.as_ptr(), flags) }
            }
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just opened and belongs to nobody else.
        let dir = Dir { fd: unsafe { OwnedFd::from_raw_fd(fd) } };
        if let Some(o) = observer {
            o.dir_used(path, Some(dir.fd.as_raw_fd()));
        }
        buf.clear();
        loop {
            if buf.capacity() - buf.len() < CHUNK {
                buf.reserve(CHUNK);
            }
            let spare = buf.capacity() - buf.len();
            // SAFETY: the kernel writes at most `spare` bytes into the
            // spare capacity, which the vector owns.
            let n = unsafe {
                libc::syscall(
                    libc::SYS_getdents64,
                    dir.fd.as_raw_fd(),
                    buf.as_mut_ptr().add(buf.len()),
                    spare,
                )
            };
            if n < 0 {
                let e = io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                // As `read_dir` does, an error ends the listing: what was
                // read stays.
                break;
            }
            if n == 0 {
                break;
            }
            // SAFETY: the kernel wrote `n` bytes past the length.
            unsafe { buf.set_len(buf.len() + n as usize) };
        }
        // Records: d_ino (8 bytes), d_off (8), d_reclen (2), d_type (1),
        // then the NUL-terminated name.
        let mut children = Vec::new();
        let mut at = 0;
        let buf: &'b [u8] = buf;
        while at + 19 < buf.len() {
            let reclen = u16::from_ne_bytes([buf[at + 16], buf[at + 17]]) as usize;
            if reclen == 0 || at + reclen > buf.len() {
                break;
            }
            let d_type = buf[at + 18];
            let raw = &buf[at + 19..at + reclen];
            let name = &raw[..raw.iter().position(|&b| b == 0).unwrap_or(raw.len())];
            at += reclen;
            if name == b"." || name == b".." || name.is_empty() {
                continue;
            }
            let kind = match d_type {
                libc::DT_REG => Kind::File,
                libc::DT_DIR => Kind::Dir,
                libc::DT_UNKNOWN => match dir.lstat(name) {
                    Ok(st) => kind_of(st.st_mode),
                    Err(_) => continue, // gone since it was listed
                },
                _ => Kind::Other,
            };
            children.push(Child { name, kind });
        }
        Ok((dir, children))
    }

    fn kind_of(mode: libc::mode_t) -> Kind {
        match mode & libc::S_IFMT {
            libc::S_IFREG => Kind::File,
            libc::S_IFDIR => Kind::Dir,
            _ => Kind::Other,
        }
    }

    impl Dir {
        fn lstat(&self, name: &[u8]) -> io::Result<libc::stat> {
            let c = cstring(name)?;
            // SAFETY: an all-zero `stat` is a valid value to be overwritten.
            let mut st: libc::stat = unsafe { std::mem::zeroed() };
            // SAFETY: `c` is NUL-terminated, `st` is writable, the
            // descriptor is open.
            let r = unsafe {
                libc::fstatat(self.fd.as_raw_fd(), c.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW)
            };
            if r < 0 { Err(io::Error::last_os_error()) } else { Ok(st) }
        }

        /// The `lstat` of `child`, relative to the open directory.
        pub(crate) fn meta(&self, child: &Child<'_>) -> io::Result<Meta> {
            let st = self.lstat(child.name)?;
            let (sec, nsec) = (st.st_mtime, st.st_mtime_nsec);
            let modified = if sec >= 0 {
                UNIX_EPOCH.checked_add(Duration::new(sec as u64, nsec as u32))
            } else {
                UNIX_EPOCH
                    .checked_sub(Duration::from_secs(sec.unsigned_abs()))
                    .and_then(|t| t.checked_add(Duration::from_nanos(nsec as u64)))
            };
            Ok(Meta { len: st.st_size as u64, modified })
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use std::fs;
    use std::io;
    use std::path::Path;

    use super::{Child, Kind, Meta};
    use crate::discovery::WalkObserver;
    use crate::os_bytes::into_bytes;

    /// A read directory: its entries, for their `lstat`.
    pub(crate) struct Dir {
        entries: Vec<fs::DirEntry>,
    }

    /// Directories are opened by their path.
    pub(crate) const RELATIVE: bool = false;

    /// Reads the entries of `path`, their names into `buf`.
    pub(crate) fn read<'b>(
        _parent: Option<(&Dir, &[u8])>,
        path: &Path,
        buf: &'b mut Vec<u8>,
        observer: Option<&dyn WalkObserver>,
    ) -> io::Result<(Dir, Vec<Child<'b>>)> {
        if let Some(o) = observer {
            o.dir_used(path, None);
        }
        buf.clear();
        let mut entries = Vec::new();
        let mut found = Vec::new();
        for item in fs::read_dir(path)? {
            let Ok(entry) = item else { continue };
            let Ok(ft) = entry.file_type() else { continue };
            let kind = if ft.is_file() {
                Kind::File
            } else if ft.is_dir() {
                Kind::Dir
            } else {
                Kind::Other
            };
            let start = buf.len();
            buf.extend_from_slice(&into_bytes(entry.file_name()));
            found.push((start, buf.len(), kind));
            entries.push(entry);
        }
        let buf: &'b [u8] = buf;
        let children = found
            .into_iter()
            .enumerate()
            .map(|(entry, (start, end, kind))| Child { name: &buf[start..end], kind, entry })
            .collect();
        Ok((Dir { entries }, children))
    }

    impl Dir {
        /// The `lstat` of `child`, as its directory entry gives it.
        pub(crate) fn meta(&self, child: &Child<'_>) -> io::Result<Meta> {
            self.entries[child.entry].metadata().map(|m| Meta::from(&m))
        }
    }
}

pub(crate) use imp::Dir;

/// Opens `path` and lists its entries, their names in `buf` (see the
/// module's notes); unsorted. With `parent`, the directory named there is
/// opened relative to it (the kernel looks up one name, not every component
/// of `path`; where that is not supported, `path` is opened). `observer` is
/// told of the directory once it is open, before its entries are read.
pub(crate) fn read<'b>(
    parent: Option<(&Dir, &[u8])>,
    path: &Path,
    buf: &'b mut Vec<u8>,
    observer: Option<&dyn super::WalkObserver>,
) -> io::Result<(Dir, Vec<Child<'b>>)> {
    imp::read(parent, path, buf, observer)
}

/// Directories kept open for their subdirectories to be opened relative to
/// them, in the whole process; past [`MAX_HELD`] subdirectories are opened
/// by their path.
static HELD: AtomicUsize = AtomicUsize::new(0);
const MAX_HELD: usize = 256;

/// A directory kept open while its subdirectories wait to be read.
pub(crate) struct Held(Dir);

impl Held {
    /// Keeps `dir` for its subdirectories, if that saves work here and the
    /// process holds few enough.
    pub(crate) fn keep(dir: Dir) -> Option<Arc<Held>> {
        if !imp::RELATIVE {
            return None;
        }
        HELD.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
            (n < MAX_HELD).then_some(n + 1)
        })
        .ok()?;
        Some(Arc::new(Held(dir)))
    }

    pub(crate) fn dir(&self) -> &Dir {
        &self.0
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        HELD.fetch_sub(1, Ordering::Relaxed);
    }
}
