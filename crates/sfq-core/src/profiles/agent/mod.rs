//! The agent-server search APIs as profiles over the one engine:
//! `searchCode` (seed 003), `grep` (seed 002) and `grepContent` (seed 004).
//! Each is an option table, a few defaults (case, literal or regex,
//! exclusions, limits) and the shape of its result; the walk, the reader,
//! the matcher, the per-line search ([`crate::lines`]) and the merge
//! ([`scan::LinesCollector`]) are shared.
//!
//! Counts are of matching lines (as `rg --json` match events count them),
//! and are exact past `maxResults`: every candidate is searched whole.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use sfq_walk::discovery::PathFilter;
use sfq_walk::glob::GlobSet;

use crate::cancel::Cancel;
use crate::discovery::{self, Candidate, Candidates, DiscoveryProfile, Prefixed, glob_set};
use crate::engine::{self, Collector, Flow, Outcome, Reader};
use crate::error::{Error, Result};
use crate::excludes::{Excludes, LeftOut};
use crate::lines::{FileLines, LineEntry, LineQuery, Symbol, label, search_lines};
use crate::matcher::Matcher;
use crate::options::{Kind, MAX_TIMEOUT_MS, OptSpec, RawOptions, SUBMODULES_CLI, Split, opt};
use crate::paths::{resolve_inside, resolve_root};
use crate::pattern::{Case, PatternSpec, Syntax};
use crate::project_config::{ExcludeMode, ProjectConfig};
use crate::search::SkipReason;
use crate::text::Encoding;

const MAX_RESULTS: u64 = 10_000_000;
use crate::profiles::smart_file_query::{DEFAULT_MAX_RESULT_BYTES, MAX_RESULT_BYTES};

/// Options every line-search profile takes.
macro_rules! common_options {
    () => {
        [
            opt(
                "cwd",
                Kind::Str,
                "workspace root; paths are relative to it (default: process.cwd())",
            )
            .default_prose("process.cwd()"),
            crate::options::TIMEOUT_MS,
            crate::options::THREADS,
            opt(
                "regexTimeoutMs",
                Kind::Int(1, MAX_TIMEOUT_MS),
                "time the backtracking engine may spend on one file before skipping it (default 1000)",
            )
            .default_int(crate::matcher::DEFAULT_REGEX_TIMEOUT.as_millis() as u64),
            opt(
                "maxLineLength",
                Kind::Int(0, 10_000_000),
                "cut longer lines to a window around the match (0: off; default 500)",
            )
            .default_int(500),
            opt(
                "maxResultBytes",
                Kind::Int(1024, MAX_RESULT_BYTES),
                "the most the returned lines may take as JSON (default 256 MiB); lines past it are counted, not returned",
            )
            .default_int(DEFAULT_MAX_RESULT_BYTES),
            opt(
                "recurseSubmodules",
                Kind::Bool,
                "search initialised git submodules too, as git ls-files --recurse-submodules (default: false)",
            )
            .default_bool(false)
            .mcp("recurse_submodules", crate::options::RECURSE_SUBMODULES_MCP),
        ]
    };
}

/// Options of the searches whose result is an object (`searchCode`,
/// `grepContent`): a time budget, symbols, the hint.
macro_rules! result_options {
    () => {
        [
            opt(
                "timeBudgetMs",
                Kind::Int(1, MAX_TIMEOUT_MS),
                "return what was found within this time, with complete: false",
            ),
            opt(
                "withSymbols",
                Kind::Bool,
                "label each match with its innermost outline item (name, kind, range)",
            )
            .default_bool(false)
            .mcp(
                "with_symbols",
                "Label each match with the innermost class/function/method holding it: symbol {name, kind, range} (default: false)",
            ),
            opt(
                "hintMs",
                Kind::Int(0, 60_000),
                "time for the hint's look at excluded files when nothing matched (0: no hint; default 5% of the search, 5 ms..1 s)",
            )
            .default_prose("a twentieth of the search's own time, 5 ms to 1 s"),
        ]
    };
}

/// Files skipped, by reason.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SkipCounts {
    /// Binary files.
    pub binary: u64,
    /// Files over the size cap.
    pub too_large: u64,
    /// Files or directories that could not be read.
    pub unreadable: u64,
    /// Files where the regex engine's budget ran out.
    pub budget: u64,
    /// Tracked files a sparse checkout left out of the work tree (not
    /// searched, as `git grep` does not search them); with a sparse index,
    /// a directory left out whole counts once. Present only when not 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub not_checked_out: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a sparse checkout left out, for a hint (`None` when nothing):
/// `3 files of the sparse checkout are not checked out`.
pub fn not_checked_out_note(left_out: &sfq_walk::discovery::NotCheckedOut) -> Option<String> {
    let files = left_out.files;
    let dirs = left_out.dirs.len();
    let count =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let (what, verb) = match (files, dirs) {
        (0, 0) => return None,
        (f, 0) => (count(f, "file", "files"), if f == 1 { "is" } else { "are" }),
        (0, d) => (count(d, "directory", "directories"), if d == 1 { "is" } else { "are" }),
        (f, d) => (
            format!("{} and {}", count(f, "file", "files"), count(d, "directory", "directories")),
            "are",
        ),
    };
    Some(format!("{what} of the sparse checkout {verb} not checked out"))
}

/// Joins a hint (`0 matches; …`) and the sparse checkout's note.
pub fn with_note(head: &str, hint: Option<String>, note: Option<String>) -> Option<String> {
    match (hint, note) {
        (hint, None) => hint,
        (Some(h), Some(n)) => Some(format!("{h}; {n}")),
        (None, Some(n)) => Some(format!("{head}; {n}")),
    }
}

impl SkipCounts {
    fn add(&mut self, reason: &SkipReason) {
        match reason {
            SkipReason::Binary => self.binary += 1,
            SkipReason::MaxFileSizeExceeded(_) => self.too_large += 1,
            SkipReason::ReadError(_) => self.unreadable += 1,
            SkipReason::RegexBudgetExceeded => self.budget += 1,
        }
    }
}

/// Where a profile searches.
enum Base {
    /// A folder (the root itself when `prefix` is empty).
    Dir { abs: PathBuf, prefix: String },
    /// One file, named explicitly (searched whatever the exclusions say).
    File(Candidate),
}

fn resolve_base(root: &Path, path: Option<String>) -> Result<Base> {
    let Some(p) = path.filter(|p| !p.is_empty() && p != ".") else {
        return Ok(Base::Dir { abs: root.to_path_buf(), prefix: String::new() });
    };
    let (abs, rel) = resolve_inside(root, &p)?;
    let meta = std::fs::metadata(&abs).map_err(|e| Error::io(&e, "stat", &abs))?;
    if meta.is_dir() {
        let prefix = if rel.is_empty() { String::new() } else { format!("{rel}/") };
        Ok(Base::Dir { abs, prefix })
    } else {
        Ok(Base::File(Candidate::named(rel, abs, meta.is_file())))
    }
}

fn query_of(
    raw: &RawOptions,
    key: &str,
    pattern: Option<Vec<u16>>,
    what: &str,
) -> Result<Vec<u16>> {
    match pattern {
        Some(p) => Ok(p),
        None => raw.string(key)?.map(|s| s.encode_utf16().collect()).ok_or_else(|| {
            Error::invalid_option(format!("{}: option '{key}' is required ({what})", raw.api()))
        }),
    }
}

mod grep;
mod grep_content;
mod scan;
mod search_code;

pub use grep::{GREP_OPTIONS, GrepEntry, grep};
pub use grep_content::{GREP_CONTENT_OPTIONS, GrepContentResult, grep_content, seed004_excludes};
use scan::LineScan;
pub use search_code::{SEARCH_CODE_OPTIONS, SearchResult, search_code};
