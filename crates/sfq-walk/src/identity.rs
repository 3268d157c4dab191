//! What tells that a file changed beyond its size and modification time:
//! its identity (device and inode; on Windows the volume serial number and
//! file index) and its change time (Unix's ctime; NTFS's ChangeTime, which a
//! write moves even when the modification time is put back). Unix reads
//! them from the `lstat` already made; Windows has them only from a handle
//! (Rust's std keeps them behind unstable APIs), so the file is opened
//! without access rights to ask.

use std::fs::Metadata;
use std::path::Path;

/// A file's identity and change time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Identity {
    /// The device (Unix) or volume serial number (Windows).
    pub dev: u64,
    /// The inode (Unix) or file index (Windows).
    pub ino: u64,
    /// The change time in nanoseconds since the Unix epoch (0 when unknown).
    pub ctime_ns: i128,
}

/// The identity of the file at `path`, whose `lstat` is `meta`.
#[cfg(unix)]
pub fn of(_path: &Path, meta: &Metadata) -> Identity {
    use std::os::unix::fs::MetadataExt;
    Identity {
        dev: meta.dev(),
        ino: meta.ino(),
        ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
    }
}

/// The identity of the file at `path` (not following a link), asked of a
/// handle opened without access rights; the default (all 0) when it cannot
/// be opened.
#[cfg(windows)]
pub fn of(path: &Path, _meta: &Metadata) -> Identity {
    use std::os::windows::fs::OpenOptionsExt;
    /// Opens folders too.
    const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
    /// The link itself, not its target (as `lstat`).
    const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
    let file = std::fs::OpenOptions::new()
        .access_mode(0)
        .share_mode(7)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path);
    file.map(|f| of_file(&f)).unwrap_or_default()
}

/// The identity of an open file whose `fstat` is `meta` (Unix reads it
/// from `meta`, Windows asks the handle).
pub fn of_open(file: &std::fs::File, meta: &Metadata) -> Identity {
    #[cfg(unix)]
    {
        let _ = file;
        of(Path::new(""), meta)
    }
    #[cfg(windows)]
    {
        let _ = meta;
        of_file(file)
    }
}

/// The identity of an open file.
#[cfg(unix)]
pub fn of_file(file: &std::fs::File) -> Identity {
    file.metadata().map(|m| of(Path::new(""), &m)).unwrap_or_default()
}

/// The identity of an open file (`GetFileInformationByHandle` for the
/// volume and index, `GetFileInformationByHandleEx(FileBasicInfo)` for the
/// change time).
#[cfg(windows)]
pub fn of_file(file: &std::fs::File) -> Identity {
    use std::os::windows::io::AsRawHandle;
    #[repr(C)]
    #[derive(Default)]
    struct ByHandle {
        attributes: u32,
        creation: [u32; 2],
        access: [u32; 2],
        write: [u32; 2],
        volume_serial: u32,
        size_high: u32,
        size_low: u32,
        links: u32,
        index_high: u32,
        index_low: u32,
    }
    #[repr(C)]
    #[derive(Default)]
    struct BasicInfo {
        creation: i64,
        access: i64,
        write: i64,
        change: i64,
        attributes: u32,
    }
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GetFileInformationByHandle(h: *mut std::ffi::c_void, info: *mut ByHandle) -> i32;
        fn GetFileInformationByHandleEx(
            h: *mut std::ffi::c_void,
            class: i32,
            info: *mut std::ffi::c_void,
            size: u32,
        ) -> i32;
    }
    /// `FILE_INFO_BY_HANDLE_CLASS::FileBasicInfo`.
    const FILE_BASIC_INFO: i32 = 0;
    /// 100 ns ticks from 1601-01-01 to 1970-01-01.
    const EPOCH_TICKS: i128 = 116_444_736_000_000_000;
    let handle = file.as_raw_handle();
    let mut out = Identity::default();
    let mut by = ByHandle::default();
    // SAFETY: `handle` is an open file's; `by` is a writable
    // BY_HANDLE_FILE_INFORMATION.
    if unsafe { GetFileInformationByHandle(handle, &mut by) } != 0 {
        out.dev = u64::from(by.volume_serial);
        out.ino = (u64::from(by.index_high) << 32) | u64::from(by.index_low);
    }
    let mut basic = BasicInfo::default();
    // SAFETY: `basic` is a writable FILE_BASIC_INFO of the size given.
    let ok = unsafe {
        GetFileInformationByHandleEx(
            handle,
            FILE_BASIC_INFO,
            (&mut basic as *mut BasicInfo).cast(),
            std::mem::size_of::<BasicInfo>() as u32,
        )
    };
    if ok != 0 && basic.change != 0 {
        out.ctime_ns = (i128::from(basic.change) - EPOCH_TICKS) * 100;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write moves the change time even with the modification time put
    /// back; a file replaced by another under the same name has another
    /// identity.
    #[test]
    fn a_rewrite_changes_the_identity_or_the_change_time() {
        let dir = std::env::temp_dir().join(format!("sfq-identity-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        std::fs::write(&f, "one\n").unwrap();
        let stat = |p: &Path| of(p, &std::fs::symlink_metadata(p).unwrap());
        let first = stat(&f);
        assert_ne!(first.ino, 0);
        assert_ne!(first.ctime_ns, 0);
        assert_eq!(stat(&f), first, "asked twice, the same");
        assert_eq!(of_file(&std::fs::File::open(&f).unwrap()), first);
        let mtime = std::fs::metadata(&f).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        std::fs::write(&f, "two\n").unwrap();
        std::fs::File::options().write(true).open(&f).unwrap().set_modified(mtime).unwrap();
        assert_eq!(std::fs::metadata(&f).unwrap().modified().unwrap(), mtime);
        assert!(stat(&f).ctime_ns > first.ctime_ns, "the change time moved");
        let other = dir.join("b.txt");
        std::fs::write(&other, "two\n").unwrap();
        std::fs::rename(&other, &f).unwrap();
        assert_ne!(stat(&f).ino, first.ino, "another file under the same name");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
