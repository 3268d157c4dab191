//! Errors of the discovery module: fatal ones end a walk, soft ones are
//! collected next to the entries.

use std::fmt;
use std::path::PathBuf;

/// A walk that could not produce a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WalkError {
    /// The root does not exist, is not a directory, or cannot be examined.
    Root {
        /// The root as given.
        path: PathBuf,
        /// The OS error code (`ENOENT`, `ENOTDIR`, …).
        code: i32,
    },
    /// The repository could not be read in a way that keeps the list exact
    /// (unsupported index format, corrupt index, broken gitfile).
    Repository {
        /// The file at fault (`.git/index`, a `.git` file, …).
        path: PathBuf,
        /// What is wrong, for a person.
        reason: String,
    },
    /// The cancellation check returned `true`.
    Cancelled,
}

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkError::Root { path, code } => {
                write!(
                    f,
                    "cannot walk {}: {}",
                    path.display(),
                    std::io::Error::from_raw_os_error(*code)
                )
            }
            WalkError::Repository { path, reason } => write!(f, "{}: {reason}", path.display()),
            WalkError::Cancelled => f.write_str("walk cancelled"),
        }
    }
}

impl std::error::Error for WalkError {}

/// A directory (or ignore file) that could not be read; the walk goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoftError {
    /// Absolute path of what could not be read.
    pub path: PathBuf,
    /// The OS error code (`EACCES`, …), or `None` when there was none.
    /// [`EFBIG`] for a per-directory ignore file of 100 MiB or more, which is
    /// not used (git skips such a `.gitignore` with a warning).
    pub code: Option<i32>,
}

/// `EFBIG` ("File too large"): 27 on Linux and macOS; on Windows, where
/// error numbers are Win32's, `ERROR_FILE_TOO_LARGE` (223).
pub const EFBIG: i32 = if cfg!(windows) { 223 } else { 27 };

/// `ENOTDIR` (a path through a file, a root that is a file): 20 on Linux and
/// macOS; on Windows `ERROR_DIRECTORY` (267), which the engine names
/// `ENOTDIR` as libuv's `scandir` reports a file given as a folder.
pub const ENOTDIR: i32 = if cfg!(windows) { 267 } else { 20 };

/// `ENOENT`: 2 on Linux and macOS, and `ERROR_FILE_NOT_FOUND` (2) on Windows.
pub const ENOENT: i32 = 2;

impl fmt::Display for SoftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.code {
            Some(code) => {
                write!(f, "{}: {}", self.path.display(), std::io::Error::from_raw_os_error(code))
            }
            None => write!(f, "{}: unreadable", self.path.display()),
        }
    }
}

/// A [`WalkConfig`](super::WalkConfig) that was rejected by its builder.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// The root is not an absolute path.
    RelativeRoot(PathBuf),
    /// A pruned directory name is empty, `.`, `..` or contains `/` or NUL.
    BadPruneName(String),
    /// More threads than the limit (1024) were asked for.
    TooManyThreads(usize),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::RelativeRoot(p) => {
                write!(f, "the root must be an absolute path: {}", p.display())
            }
            ConfigError::BadPruneName(n) => write!(f, "invalid directory name to prune: {n:?}"),
            ConfigError::TooManyThreads(n) => write!(f, "too many threads: {n} (at most 1024)"),
        }
    }
}

impl std::error::Error for ConfigError {}
