//! Errors that reach the caller: a stable `code` (what a program branches on)
//! and a message a person can act on.

use std::fmt;

/// The stable error codes of the JS API. The binding copies `code()` into the
/// JS `Error`'s `code` property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorCode {
    /// An option is missing, has the wrong type or is out of range.
    InvalidOption,
    /// The regular expression or its flags are invalid (V8's wording).
    InvalidRegex,
    /// A path argument resolves outside the root.
    OutsideRoot,
    /// The operation was aborted through its `AbortSignal`.
    Aborted,
    /// The operation ran past `timeoutMs`.
    Timeout,
    /// A bug: a panic caught at the boundary. Never expected.
    Internal,
    /// A fatal I/O error; the payload is the OS error code (`ENOENT`, `EACCES`, …).
    Io(&'static str),
    /// A call on a session after its `close()`.
    SessionClosed,
}

impl ErrorCode {
    /// The string placed on the JS error's `code` property.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidOption => "EINVALIDOPTION",
            ErrorCode::InvalidRegex => "EINVALIDREGEX",
            ErrorCode::OutsideRoot => "EOUTSIDEROOT",
            ErrorCode::Aborted => "EABORTED",
            ErrorCode::Timeout => "ETIMEOUT",
            ErrorCode::Internal => "EINTERNAL",
            ErrorCode::Io(code) => code,
            ErrorCode::SessionClosed => "ESESSIONCLOSED",
        }
    }
}

/// An error with a code and a human-readable message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    code: ErrorCode,
    message: String,
}

impl Error {
    /// An error with the given code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error { code, message: message.into() }
    }

    /// `EINVALIDOPTION` with the given message.
    pub fn invalid_option(message: impl Into<String>) -> Error {
        Error::new(ErrorCode::InvalidOption, message)
    }

    /// A fatal I/O error on `path`, worded like Node's fs errors
    /// (`ENOENT: no such file or directory, scandir '/x'`).
    pub fn io(err: &std::io::Error, syscall: &str, path: &std::path::Path) -> Error {
        let code = io_code(err);
        let what = io_description(err);
        Error::new(
            ErrorCode::Io(code),
            format!("{code}: {what}, {syscall} '{}'", crate::paths::shown(path)),
        )
    }

    /// The error's code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The error's message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

/// The Node-style code (`ENOENT`, `EACCES`, …) of an I/O error.
pub fn io_code(err: &std::io::Error) -> &'static str {
    if let Some(name) = err.raw_os_error().and_then(errno_name) {
        return name;
    }
    use std::io::ErrorKind as K;
    match err.kind() {
        K::NotFound => "ENOENT",
        K::PermissionDenied => "EACCES",
        K::IsADirectory => "EISDIR",
        K::NotADirectory => "ENOTDIR",
        K::InvalidData => "EINVAL",
        K::OutOfMemory => "ENOMEM",
        K::BrokenPipe => "EPIPE",
        _ => "EIO",
    }
}

fn io_description(err: &std::io::Error) -> &'static str {
    match io_code(err) {
        "ENOENT" => "no such file or directory",
        "EACCES" => "permission denied",
        "EISDIR" => "illegal operation on a directory",
        "ENOTDIR" => "not a directory",
        "ELOOP" => "too many symbolic links encountered",
        "EMFILE" => "too many open files",
        "ENAMETOOLONG" => "name too long",
        "EPERM" => "operation not permitted",
        "ENOMEM" => "not enough memory",
        "EBUSY" => "resource busy or locked",
        "EINVAL" => "invalid argument",
        "EBADF" => "bad file descriptor",
        _ => "i/o error",
    }
}

/// errno → name for the errors a read-only file scan can meet (Linux and macOS numbers agree on these).
#[cfg(unix)]
fn errno_name(errno: i32) -> Option<&'static str> {
    Some(match errno {
        1 => "EPERM",
        2 => "ENOENT",
        5 => "EIO",
        6 => "ENXIO",
        9 => "EBADF",
        12 => "ENOMEM",
        13 => "EACCES",
        16 => "EBUSY",
        20 => "ENOTDIR",
        21 => "EISDIR",
        22 => "EINVAL",
        23 => "ENFILE",
        24 => "EMFILE",
        26 => "ETXTBSY",
        27 => "EFBIG",
        28 => "ENOSPC",
        32 => "EPIPE",
        36 if cfg!(target_os = "linux") => "ENAMETOOLONG",
        40 if cfg!(target_os = "linux") => "ELOOP",
        62 if cfg!(target_os = "macos") => "ELOOP",
        63 if cfg!(target_os = "macos") => "ENAMETOOLONG",
        _ => return None,
    })
}

/// A Win32 error number → the name Node gives it: libuv's
/// `uv_translate_sys_error` (`src/win/error.c`), its file-system part. A
/// file another process holds open without sharing (32) is `EBUSY`, never
/// errno 32's `EPIPE`.
#[cfg(windows)]
fn errno_name(code: i32) -> Option<&'static str> {
    Some(match code {
        1 => "EISDIR",                      // ERROR_INVALID_FUNCTION
        2 | 3 | 15 | 123 | 126 => "ENOENT", // FILE_/PATH_NOT_FOUND, INVALID_DRIVE, INVALID_NAME, MOD_NOT_FOUND
        161 | 203 | 4392 => "ENOENT",       // BAD_PATHNAME, ENVVAR_NOT_FOUND, INVALID_REPARSE_DATA
        267 => "ENOTDIR", // ERROR_DIRECTORY (libuv: ENOENT, but its scandir says ENOTDIR; sfq_walk's ENOTDIR)
        4 => "EMFILE",    // ERROR_TOO_MANY_OPEN_FILES
        5 | 740 | 998 | 1920 => "EACCES", // ACCESS_DENIED, ELEVATION_REQUIRED, NOACCESS, CANT_ACCESS_FILE
        6 | 1004 => "EBADF",              // INVALID_HANDLE, INVALID_FLAGS
        8 | 14 => "ENOMEM",               // NOT_ENOUGH_MEMORY, OUTOFMEMORY
        13 | 87 | 122 | 1464 => "EINVAL", // INVALID_DATA, INVALID_PARAMETER, INSUFFICIENT_BUFFER, SYMLINK_NOT_SUPPORTED
        17 => "EXDEV",                    // ERROR_NOT_SAME_DEVICE
        19 => "EROFS",                    // ERROR_WRITE_PROTECT
        23 | 31 | 110 | 1117 => "EIO",    // CRC, GEN_FAILURE, OPEN_FAILED, IO_DEVICE
        32 | 33 | 231 => "EBUSY",         // SHARING_VIOLATION, LOCK_VIOLATION, PIPE_BUSY
        39 | 82 | 112 => "ENOSPC",        // HANDLE_DISK_FULL, CANNOT_MAKE, DISK_FULL
        50 => "ENOTSUP",                  // ERROR_NOT_SUPPORTED
        64 => "ECONNRESET",               // ERROR_NETNAME_DELETED
        80 | 183 => "EEXIST",             // FILE_EXISTS, ALREADY_EXISTS
        109 => "EOF",                     // ERROR_BROKEN_PIPE
        121 => "ETIMEDOUT",               // ERROR_SEM_TIMEOUT
        145 => "ENOTEMPTY",               // ERROR_DIR_NOT_EMPTY
        206 => "ENAMETOOLONG",            // ERROR_FILENAME_EXCED_RANGE
        223 => "EFBIG", // ERROR_FILE_TOO_LARGE (not in libuv's table; sfq_walk's EFBIG)
        208 => "E2BIG", // ERROR_META_EXPANSION_TOO_LONG
        230 | 232 | 233 => "EPIPE", // BAD_PIPE, NO_DATA, PIPE_NOT_CONNECTED
        995 => "ECANCELED", // ERROR_OPERATION_ABORTED
        1113 => "ECHARSET", // ERROR_NO_UNICODE_TRANSLATION
        1314 => "EPERM", // ERROR_PRIVILEGE_NOT_HELD
        1921 => "ELOOP", // ERROR_CANT_RESOLVE_FILENAME
        _ => return None,
    })
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_carry_node_codes_and_paths() {
        let err = std::io::Error::from_raw_os_error(2);
        let e = Error::io(&err, "scandir", std::path::Path::new("/nope"));
        assert_eq!(e.code().as_str(), "ENOENT");
        assert_eq!(e.message(), "ENOENT: no such file or directory, scandir '/nope'");
        assert_eq!(io_code(&std::io::Error::from(std::io::ErrorKind::NotFound)), "ENOENT");
    }

    #[cfg(unix)]
    #[test]
    fn errno_numbers_are_named_as_node_names_them() {
        let denied = std::io::Error::from_raw_os_error(13);
        assert_eq!(io_code(&denied), "EACCES");
        assert_eq!(io_code(&std::io::Error::from_raw_os_error(32)), "EPIPE");
    }

    #[cfg(windows)]
    #[test]
    fn win32_error_numbers_are_named_as_libuv_names_them() {
        let named = |n| io_code(&std::io::Error::from_raw_os_error(n));
        assert_eq!(named(2), "ENOENT");
        assert_eq!(named(3), "ENOENT");
        assert_eq!(named(5), "EACCES");
        assert_eq!(named(32), "EBUSY");
        assert_eq!(named(33), "EBUSY");
        assert_eq!(named(206), "ENAMETOOLONG");
        assert_eq!(named(267), "ENOTDIR");
        assert_eq!(named(223), "EFBIG");
        assert_eq!(named(sfq_walk::discovery::EFBIG), "EFBIG");
        assert_eq!(named(sfq_walk::discovery::ENOTDIR), "ENOTDIR");
        let locked = std::io::Error::from_raw_os_error(32);
        let e = Error::io(&locked, "open", std::path::Path::new(r"C:\repo\locked.txt"));
        assert_eq!(e.message(), r"EBUSY: resource busy or locked, open 'C:\repo\locked.txt'");
    }
}
