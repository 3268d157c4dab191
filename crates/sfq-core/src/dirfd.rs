//! Opening files relative to their directory.
//!
//! A scan reads its candidates in path order, so a worker's consecutive files
//! mostly share a directory. Inside a [`Scope`] the worker keeps that
//! directory open and opens each file with `openat(dir, name)`: the kernel
//! looks up one name instead of every component of the absolute path (on a
//! tree of many small files the path walk was a tenth of the scan's time).
//! The directory is opened at its second file, not its first: a directory
//! with one candidate (half of nuttx's) costs one open by path, not two.
//! Outside a scope, and off Unix, files are opened by their path.
//!
//! The semantics are those of `File::open(path)`: symlinks in the path are
//! followed as before (the directory is opened by its path, the name is
//! resolved by `openat` as `open` would).

use std::fs::File;
use std::io;
use std::path::Path;

#[cfg(unix)]
mod imp {
    use std::cell::RefCell;
    use std::ffi::CString;
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    /// This thread's open directory, while a scope is active.
    struct Cached {
        /// Scopes entered and not yet left on this thread.
        depth: usize,
        /// The directory of the last file opened, with its handle once a
        /// second file of it was asked for.
        dir: Option<(PathBuf, Option<OwnedFd>)>,
    }

    thread_local! {
        static CACHE: RefCell<Cached> = const { RefCell::new(Cached { depth: 0, dir: None }) };
    }

    pub fn enter() {
        CACHE.with(|c| c.borrow_mut().depth += 1);
    }

    pub fn leave() {
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            c.depth = c.depth.saturating_sub(1);
            if c.depth == 0 {
                c.dir = None; // closes the directory
            }
        });
    }

    /// How a directory's handle is opened: `O_PATH` where the system has it
    /// (no permission to list the directory needed), else for reading
    /// (macOS and the BSDs).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const DIR_FLAGS: libc::c_int = libc::O_PATH | libc::O_DIRECTORY;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const DIR_FLAGS: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY;

    fn cstring(bytes: &[u8]) -> io::Result<CString> {
        CString::new(bytes).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
    }

    fn open_at(dir: libc::c_int, name: &[u8], flags: libc::c_int) -> io::Result<OwnedFd> {
        let name = cstring(name)?;
        // SAFETY: `name` is a NUL-terminated string alive for the call; the
        // returned descriptor is owned by nobody else.
        let fd = unsafe { libc::openat(dir, name.as_ptr(), flags | libc::O_CLOEXEC) };
        if fd < 0 {
            Err(io::Error::last_os_error())
        } else {
            // SAFETY: `fd` was just opened and is not shared.
            Ok(unsafe { OwnedFd::from_raw_fd(fd) })
        }
    }

    pub fn open(path: &Path) -> io::Result<File> {
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            return File::open(path);
        };
        CACHE.with(|c| {
            let Ok(mut c) = c.try_borrow_mut() else { return File::open(path) };
            if c.depth == 0 || !path.is_absolute() {
                return File::open(path);
            }
            match c.dir.as_mut() {
                Some((p, handle)) if p.as_os_str() == parent.as_os_str() => {
                    let dir = match handle {
                        Some(dir) => dir,
                        None => {
                            match open_at(libc::AT_FDCWD, parent.as_os_str().as_bytes(), DIR_FLAGS)
                            {
                                Ok(dir) => handle.insert(dir),
                                // A directory that may be crossed but not read
                                // (without `O_PATH`): the file by its path.
                                Err(_) => return File::open(path),
                            }
                        }
                    };
                    open_at(dir.as_raw_fd(), name.as_bytes(), libc::O_RDONLY).map(File::from)
                }
                _ => {
                    // The first file of a directory: by its path (the
                    // directory is opened if a second one follows).
                    c.dir = Some((parent.to_path_buf(), None));
                    File::open(path)
                }
            }
        })
    }
}

#[cfg(not(unix))]
mod imp {
    use std::fs::File;
    use std::io;
    use std::path::Path;

    pub fn enter() {}
    pub fn leave() {}
    pub fn open(path: &Path) -> io::Result<File> {
        File::open(path)
    }
}

/// While alive, [`open`] on this thread opens files relative to a kept
/// directory handle; the handle is closed when the outermost scope ends.
pub struct Scope(());

impl Scope {
    /// Starts keeping this thread's directory handle.
    pub fn enter() -> Scope {
        imp::enter();
        Scope(())
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        imp::leave();
    }
}

/// Opens `path` for reading, as `File::open` does (relative to the kept
/// directory inside a [`Scope`]).
pub fn open(path: &Path) -> io::Result<File> {
    imp::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn read(path: &Path) -> io::Result<String> {
        let mut s = String::new();
        open(path)?.read_to_string(&mut s)?;
        Ok(s)
    }

    #[test]
    fn opens_like_file_open_inside_and_outside_a_scope() {
        let dir = std::env::temp_dir().join(format!("sfq-dirfd-{}", std::process::id()));
        let sub = dir.join("a");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join("one.txt"), "one").unwrap();
        std::fs::write(sub.join("two.txt"), "two").unwrap();
        std::fs::write(dir.join("three.txt"), "three").unwrap();
        assert_eq!(read(&sub.join("one.txt")).unwrap(), "one");
        {
            let _scope = Scope::enter();
            for _ in 0..2 {
                assert_eq!(read(&sub.join("one.txt")).unwrap(), "one");
                assert_eq!(read(&sub.join("two.txt")).unwrap(), "two");
                assert_eq!(read(&dir.join("three.txt")).unwrap(), "three");
            }
            let missing = read(&sub.join("nope.txt")).unwrap_err();
            assert_eq!(missing.kind(), io::ErrorKind::NotFound);
            let no_dir = read(&dir.join("b").join("x.txt")).unwrap_err();
            assert_eq!(no_dir.kind(), io::ErrorKind::NotFound);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
