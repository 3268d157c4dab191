//! A session's watch on the directories its walks read (Linux: inotify).
//!
//! inotify queues an event before the system call that changed the
//! directory returns, so draining the queue when a call starts sees every
//! change completed before the call began: a directory watched before its
//! entries were read either shows a change in that read or reports it at
//! the next drain. A directory is watched through its open descriptor
//! (`/proc/self/fd/N`), so the watch is on the very directory read, even
//! if its path was replaced meanwhile.
//!
//! What inotify does not see, and how the session copes:
//! * writes through a shared `mmap` (no event): not detected (documented);
//! * a file with several hard links written through a path in another
//!   directory: files with more than one link are never trusted without a
//!   stat (see the content cache);
//! * remote writes on a network file system: no watcher on those file
//!   systems ([`network_fs`]);
//! * a full queue (`IN_Q_OVERFLOW`) or a watch refused (`ENOSPC` from
//!   `fs.inotify.max_user_watches`): the session falls back to stat
//!   revalidation (an overflow for one refresh, a refused watch for good:
//!   every watch is then removed at once, so that a tree past the limit
//!   does not hold the user's other watches).
//!
//! Elsewhere than Linux there is no watcher: sessions revalidate by stat.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a drain of the queue found.
#[derive(Debug, Default)]
pub struct Drained {
    /// Events were lost (queue overflow, or the forced-overflow failpoint),
    /// or a directory was removed or moved (its files' paths went with it
    /// without an event each): no text can be trusted without a stat.
    pub overflow: bool,
    /// A directory's entries changed (a name created, deleted or renamed,
    /// an ignore file or a `.git` written, a directory's mode changed, a
    /// watched directory gone): listings must be walked again.
    pub structural: bool,
    /// Files whose contents or metadata may have changed.
    pub files: Vec<PathBuf>,
    /// Whether any event was read.
    pub any: bool,
}

/// Names whose change alters a listing although they are files.
fn is_walk_input(name: &[u8]) -> bool {
    matches!(name, b".gitignore" | b".ignore" | b".git")
}

#[cfg(target_os = "linux")]
mod imp {
    use std::ffi::CString;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::{OsStrExt, OsStringExt};

    use super::*;

    const MASK: u32 = libc::IN_MODIFY
        | libc::IN_ATTRIB
        | libc::IN_CREATE
        | libc::IN_DELETE
        | libc::IN_MOVED_FROM
        | libc::IN_MOVED_TO
        | libc::IN_DELETE_SELF
        | libc::IN_MOVE_SELF
        | libc::IN_ONLYDIR
        | libc::IN_EXCL_UNLINK;

    /// An inotify instance and the directories it watches.
    pub struct Watcher {
        pub(super) fd: OwnedFd,
        state: Mutex<Dirs>,
        /// A watch was refused: the watcher is not to be relied on.
        failed: AtomicBool,
    }

    #[derive(Default)]
    struct Dirs {
        by_wd: HashMap<i32, PathBuf>,
        by_path: HashMap<PathBuf, i32>,
        /// Bytes of the paths of `by_wd`.
        path_bytes: usize,
        /// The watch was given up since the last drain.
        lost: bool,
    }

    impl Dirs {
        /// Stops counting `path` and the folders below it as watched (their
        /// watches, if still alive, are on folders that moved away).
        fn forget_under(&mut self, path: &Path) {
            self.by_path.retain(|p, _| !p.starts_with(path));
        }
    }

    impl std::fmt::Debug for Watcher {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("Watcher").field("fd", &self.fd).finish_non_exhaustive()
        }
    }

    impl Watcher {
        /// A new watcher, or `None` when inotify is unavailable.
        pub fn new() -> Option<Watcher> {
            // SAFETY: plain system call.
            let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
            if fd < 0 {
                return None;
            }
            Some(Watcher {
                // SAFETY: `fd` was just opened and belongs to nobody else.
                fd: unsafe { OwnedFd::from_raw_fd(fd) },
                state: Mutex::new(Dirs::default()),
                failed: AtomicBool::new(false),
            })
        }

        /// Whether every watch asked for was set.
        pub fn healthy(&self) -> bool {
            !self.failed.load(Ordering::Relaxed)
        }

        /// Directories watched.
        pub fn watched(&self) -> usize {
            self.lock().by_wd.len()
        }

        /// Whether the directory at `path` is watched.
        pub fn is_watched(&self, path: &Path) -> bool {
            self.lock().by_path.contains_key(path)
        }

        fn lock(&self) -> std::sync::MutexGuard<'_, Dirs> {
            self.state.lock().unwrap_or_else(|e| e.into_inner())
        }

        /// Watches the directory at `path` (through `fd`, its open
        /// descriptor, when given). A refusal marks the watcher failed.
        pub fn watch(&self, path: &Path, fd: Option<i32>) {
            if self.failed.load(Ordering::Relaxed) {
                return;
            }
            let target = match fd {
                Some(fd) => format!("/proc/self/fd/{fd}").into_bytes(),
                None => path.as_os_str().as_bytes().to_vec(),
            };
            let Ok(c) = CString::new(target) else { return self.fail() };
            // SAFETY: `c` is NUL-terminated; the inotify descriptor is open.
            let mut wd = unsafe { libc::inotify_add_watch(self.fd.as_raw_fd(), c.as_ptr(), MASK) };
            if wd < 0 && fd.is_some() {
                // No /proc: by the path.
                let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
                    return self.fail();
                };
                // SAFETY: as above.
                wd = unsafe { libc::inotify_add_watch(self.fd.as_raw_fd(), c.as_ptr(), MASK) };
            }
            if wd < 0 {
                let e = std::io::Error::last_os_error();
                // A directory gone since it was read is a change the next
                // drain of its parent reports; anything else (ENOSPC: the
                // watch limit) leaves changes unseen.
                if e.raw_os_error() != Some(libc::ENOENT) {
                    self.fail();
                }
                return;
            }
            let mut dirs = self.lock();
            dirs.path_bytes += path.as_os_str().len();
            if let Some(old) = dirs.by_wd.insert(wd, path.to_path_buf()) {
                dirs.path_bytes -= old.as_os_str().len();
                if old != path {
                    dirs.by_path.remove(&old);
                }
            }
            dirs.by_path.insert(path.to_path_buf(), wd);
        }

        /// Gives the watch up: every watch is removed at once (a session
        /// past the watch limit must not hold the rest of the user's
        /// watches, which other sessions and programs need), and the next
        /// drain reports lost events (texts trusted under the watch are
        /// checked by stat again).
        fn fail(&self) {
            if self.failed.swap(true, Ordering::Relaxed) {
                return;
            }
            let mut dirs = self.lock();
            for &wd in dirs.by_wd.keys() {
                // SAFETY: plain system call on our inotify descriptor.
                unsafe { libc::inotify_rm_watch(self.fd.as_raw_fd(), wd) };
            }
            *dirs = Dirs::default();
            dirs.lost = true;
        }

        /// Bytes the watched folders' bookkeeping holds (about).
        pub fn bytes(&self) -> u64 {
            let dirs = self.lock();
            let slot = std::mem::size_of::<(i32, PathBuf)>() + 8;
            ((dirs.by_wd.capacity() + dirs.by_path.capacity()) * slot + 2 * dirs.path_bytes) as u64
        }

        /// Reads every queued event.
        pub fn drain(&self) -> Drained {
            let mut out = Drained::default();
            if crate::failpoint::armed("watch-overflow") {
                out.overflow = true;
                out.structural = true;
                out.any = true;
            }
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                // SAFETY: the kernel writes at most `buf.len()` bytes.
                let n =
                    unsafe { libc::read(self.fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
                if n < 0 {
                    let e = std::io::Error::last_os_error();
                    if e.raw_os_error() == Some(libc::EINTR) {
                        continue;
                    }
                    break; // EAGAIN: the queue is empty.
                }
                if n == 0 {
                    break;
                }
                out.any = true;
                self.parse(&buf[..n as usize], &mut out);
            }
            if std::mem::take(&mut self.lock().lost) {
                out.overflow = true;
                out.structural = true;
                out.any = true;
            }
            out
        }

        fn parse(&self, mut data: &[u8], out: &mut Drained) {
            const HEAD: usize = 16; // wd, mask, cookie, len
            let mut dirs = self.lock();
            while data.len() >= HEAD {
                let wd = i32::from_ne_bytes([data[0], data[1], data[2], data[3]]);
                let mask = u32::from_ne_bytes([data[4], data[5], data[6], data[7]]);
                let len = u32::from_ne_bytes([data[12], data[13], data[14], data[15]]) as usize;
                let end = (HEAD + len).min(data.len());
                let raw = &data[HEAD..end];
                let name = &raw[..raw.iter().position(|&b| b == 0).unwrap_or(raw.len())];
                data = &data[end..];
                if mask & libc::IN_Q_OVERFLOW != 0 {
                    out.overflow = true;
                    out.structural = true;
                    continue;
                }
                if mask
                    & (libc::IN_IGNORED
                        | libc::IN_DELETE_SELF
                        | libc::IN_MOVE_SELF
                        | libc::IN_UNMOUNT)
                    != 0
                {
                    out.structural = true;
                    // The directory is gone (or no longer what was read):
                    // its files' texts cannot be trusted without a check.
                    out.overflow |= mask & (libc::IN_MOVE_SELF | libc::IN_UNMOUNT) != 0;
                    if let Some(path) = dirs.by_wd.get(&wd).cloned() {
                        dirs.forget_under(&path);
                    }
                    if mask & libc::IN_IGNORED != 0
                        && let Some(old) = dirs.by_wd.remove(&wd)
                    {
                        dirs.path_bytes -= old.as_os_str().len();
                    }
                    continue;
                }
                let Some(dir) = dirs.by_wd.get(&wd) else { continue };
                if name.is_empty() {
                    // An event on the directory itself (its mode, say).
                    out.structural = true;
                    continue;
                }
                let path = dir.join(std::ffi::OsString::from_vec(name.to_vec()));
                let entries_changed = mask
                    & (libc::IN_CREATE | libc::IN_DELETE | libc::IN_MOVED_FROM | libc::IN_MOVED_TO)
                    != 0;
                if entries_changed || mask & libc::IN_ISDIR != 0 || is_walk_input(name) {
                    out.structural = true;
                }
                // A directory removed or moved takes its files' paths with
                // it (no event per file): a new file at one of those paths
                // later is in a directory not watched yet.
                if mask & libc::IN_ISDIR != 0
                    && mask & (libc::IN_DELETE | libc::IN_MOVED_FROM | libc::IN_MOVED_TO) != 0
                {
                    out.overflow = true;
                    // The watches of the folders below went with it: their
                    // paths name other folders now (or none).
                    dirs.forget_under(&path);
                }
                out.files.push(path);
            }
        }
    }

    /// Whether the file system holding `path` is one whose changes inotify
    /// may not report (changes made by another machine).
    pub fn network_fs(path: &Path) -> bool {
        let Ok(c) = CString::new(path.as_os_str().as_bytes()) else { return true };
        // SAFETY: an all-zero `statfs` is a valid value to be overwritten.
        let mut st: libc::statfs = unsafe { std::mem::zeroed() };
        // SAFETY: `c` is NUL-terminated and `st` writable.
        if unsafe { libc::statfs(c.as_ptr(), &mut st) } != 0 {
            return true;
        }
        #[allow(clippy::unnecessary_cast)]
        let magic = st.f_type as i64 as u32;
        matches!(
            magic,
            0x6969 // NFS
                | 0x517B // SMB
                | 0xFF53_4D42 // CIFS
                | 0xFE53_4D42 // SMB2
                | 0x6573_5546 // FUSE (sshfs, …)
                | 0x0102_1997 // 9P (WSL2's /mnt, VM shares)
                | 0x00C3_6400 // Ceph
                | 0x5346_414F // AFS
                | 0x0BD0_0BD0 // Lustre
                | 0x4750_4653 // GPFS
                | 0x7461_636F // OCFS2
                | 0x0116_1970 // GFS2
        )
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::*;

    /// No watcher here: [`Watcher::new`] gives none.
    #[derive(Debug)]
    pub struct Watcher {
        _never: std::convert::Infallible,
        _state: Mutex<HashMap<i32, PathBuf>>,
        _failed: AtomicBool,
    }

    impl Watcher {
        /// None: sessions revalidate by stat here.
        pub fn new() -> Option<Watcher> {
            None
        }
        /// Unreachable (no watcher exists).
        pub fn healthy(&self) -> bool {
            false
        }
        /// Unreachable (no watcher exists).
        pub fn watched(&self) -> usize {
            0
        }
        /// Unreachable (no watcher exists).
        pub fn is_watched(&self, _path: &Path) -> bool {
            false
        }
        /// Unreachable (no watcher exists).
        pub fn watch(&self, _path: &Path, _fd: Option<i32>) {
            let _ = Ordering::Relaxed;
        }
        /// Unreachable (no watcher exists).
        pub fn bytes(&self) -> u64 {
            0
        }
        /// Unreachable (no watcher exists).
        pub fn drain(&self) -> Drained {
            let _ = is_walk_input(b"");
            Drained::default()
        }
    }

    /// Every file system counts as one without change events here.
    pub fn network_fs(_path: &Path) -> bool {
        true
    }
}

pub use imp::{Watcher, network_fs};

impl sfq_walk::discovery::WalkObserver for Watcher {
    fn dir_used(&self, path: &Path, fd: Option<i32>) {
        self.watch(path, fd);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Watches the inotify instance of `w` holds, as the kernel lists them.
    fn kernel_watches(w: &Watcher) -> usize {
        use std::os::fd::AsRawFd;
        let info =
            std::fs::read_to_string(format!("/proc/self/fdinfo/{}", w.fd.as_raw_fd())).unwrap();
        info.lines().filter(|l| l.starts_with("inotify wd:")).count()
    }

    /// A refused watch gives every watch up at once, and the next drain
    /// reports lost events (texts trusted under the watch are checked again).
    #[test]
    fn a_refused_watch_gives_up_every_watch() {
        let dir = std::env::temp_dir().join(format!("sfq-watch-fail-{}", std::process::id()));
        for d in ["a", "b", "c"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        let w = Watcher::new().unwrap();
        for d in ["a", "b", "c"] {
            w.watch(&dir.join(d), None);
        }
        assert!(w.healthy());
        assert_eq!((w.watched(), kernel_watches(&w)), (3, 3));
        assert!(!w.drain().overflow);
        // A path the kernel cannot take (an interior NUL): refused.
        w.watch(Path::new("bad\0path"), None);
        assert!(!w.healthy());
        assert_eq!((w.watched(), kernel_watches(&w), w.bytes()), (0, 0, 0));
        let d = w.drain();
        assert!(d.overflow && d.structural);
        assert!(!w.drain().overflow);
        // Given up for good: no watch is set again.
        w.watch(&dir.join("a"), None);
        assert_eq!(kernel_watches(&w), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
