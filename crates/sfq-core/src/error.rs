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
        Error::new(ErrorCode::Io(code), format!("{code}: {what}, {syscall} '{}'", path.display()))
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
        _ => "i/o error",
    }
}

/// errno → name for the errors a read-only file scan can meet (Linux and macOS numbers agree on these).
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
        let denied = std::io::Error::from_raw_os_error(13);
        assert_eq!(io_code(&denied), "EACCES");
    }
}
