//! File discovery and glob matching for smart-file-query.
//!
//! # Brief overview
//!
//! * [`discovery`] lists the candidate files (and, on request, directories) under a
//!   root directory. Inside a git work tree the list is exactly what
//!   `git ls-files --cached --others --exclude-standard` prints when run in that
//!   root — computed in-process by reading `.git/index` and the ignore files, never
//!   by spawning git — restricted to regular files (symlinks are never followed nor
//!   listed). Outside git every file is listed, honouring nested `.gitignore` and
//!   `.ignore` files. The walk is parallel and its output is sorted by the UTF-16
//!   code-unit order of the relative path, whatever the thread count.
//! * [`glob`] compiles glob patterns with picomatch 4.0.3's meaning (optionally
//!   `dot: true` and basename matching) and matches root-relative paths with them.
//!   It also answers the two questions a walker needs to prune directories: "can
//!   any path under this directory match?" and "does every path under it match?".
//!
//! # Example
//!
//! ```no_run
//! use sfq_walk::discovery::{walk, WalkConfig};
//! use sfq_walk::glob::{GlobOptions, GlobSet};
//!
//! let config = WalkConfig::builder("/path/to/repo")
//!     .prune_dirs(["node_modules", ".turbo"])
//!     .build()?;
//! let listing = walk(&config, &|| false)?;
//! let ts = GlobSet::new(["**/*.ts"], &GlobOptions::default())?;
//! for entry in listing.entries.iter().filter(|e| ts.is_match(&e.path)) {
//!     println!("{} {:?}", entry.path, entry.size());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod discovery;
pub mod glob;
pub mod identity;
mod order;
mod os_bytes;

pub use order::cmp_utf16;
