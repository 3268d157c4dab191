//! The agent-server search APIs as profiles over the one engine:
//! `searchCode` (seed 003), `grep` (seed 002) and `grepContent` (seed 004).
//! Each is an option table, a few defaults (case, literal or regex,
//! exclusions, limits) and the shape of its result; the walk, the reader,
//! the matcher, the per-line search ([`crate::lines`]) and the merge
//! ([`LinesCollector`]) are shared.
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
use crate::options::{Kind, OptSpec, RawOptions, opt};
use crate::paths::{resolve_inside, resolve_root};
use crate::pattern::{Case, PatternSpec, Syntax};
use crate::project_config::{ExcludeMode, ProjectConfig};
use crate::search::SkipReason;
use crate::text::Encoding;

const MAX_RESULTS: u64 = 10_000_000;
const MAX_TIMEOUT_MS: u64 = (1 << 31) - 1;
use crate::smart_file_query::{DEFAULT_MAX_RESULT_BYTES, MAX_RESULT_BYTES};

/// Options every line-search profile takes.
macro_rules! common_options {
    () => {
        [
            opt(
                "cwd",
                Kind::Str,
                "workspace root; paths are relative to it (default: process.cwd())",
            ),
            opt(
                "timeoutMs",
                Kind::Int(1, MAX_TIMEOUT_MS),
                "reject with ETIMEOUT after this many milliseconds",
            ),
            opt("threads", Kind::Int(1, 256), "worker threads (output is the same for any value)"),
            opt(
                "regexTimeoutMs",
                Kind::Int(1, MAX_TIMEOUT_MS),
                "time the backtracking engine may spend on one file before skipping it (default 1000)",
            ),
            opt(
                "maxLineLength",
                Kind::Int(0, 10_000_000),
                "cut longer lines to a window around the match (0: off; default 500)",
            ),
            opt(
                "maxResultBytes",
                Kind::Int(1024, MAX_RESULT_BYTES),
                "the most the returned lines may take as JSON (default 256 MiB); lines past it are counted, not returned",
            ),
            opt(
                "recurseSubmodules",
                Kind::Bool,
                "search initialised git submodules too, as git ls-files --recurse-submodules (default: false)",
            ),
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
            ),
            opt(
                "hintMs",
                Kind::Int(0, 60_000),
                "time for the hint's look at excluded files when nothing matched (0: no hint; default 5% of the search, 5 ms..1 s)",
            ),
        ]
    };
}

/// `searchCode`'s options (the query travels beside them as `query`).
pub const SEARCH_CODE_OPTIONS: &[OptSpec] = &{
    let c = common_options!();
    let x = result_options!();
    [
        opt("query", Kind::Str, "the text (or regex, with isRegex) to search for"),
        opt("path", Kind::Str, "a file or folder under the root to search (default: the root)"),
        opt(
            "caseSensitive",
            Kind::Bool,
            "true/false; default smart case (insensitive unless the query has an upper-case letter)",
        ),
        opt("isRegex", Kind::Bool, "read the query as a JavaScript regex (default: literal)"),
        opt("maxResults", Kind::Int(1, MAX_RESULTS), "matching lines returned (default 50)"),
        opt("offset", Kind::Int(0, MAX_RESULTS), "skip this many matching lines first (paging)"),
        opt("includeExtensions", Kind::List, "only files with these extensions ('.ts' or 'ts')"),
        opt(
            "excludePatterns",
            Kind::List,
            "globs to exclude besides .gitignore, .git and node_modules",
        ),
        x[0],
        x[1],
        x[2],
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
        c[6],
    ]
};

/// `grep`'s options.
pub const GREP_OPTIONS: &[OptSpec] = &{
    let c = common_options!();
    [
        opt("pattern", Kind::Str, "text or regex pattern to search for"),
        opt("path", Kind::Str, "directory or file to search (default: project root)"),
        opt("regex", Kind::Bool, "treat pattern as regex (default: false)"),
        opt("caseSensitive", Kind::Bool, "case sensitive search (default: false)"),
        opt("maxResults", Kind::Int(1, MAX_RESULTS), "maximum matches to return (default: 50)"),
        opt("contextLines", Kind::Int(0, 20), "lines of context around each match (default: 0)"),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
        c[6],
    ]
};

/// `grepContent`'s options.
pub const GREP_CONTENT_OPTIONS: &[OptSpec] = &{
    let c = common_options!();
    let x = result_options!();
    [
        opt(
            "pattern",
            Kind::Str,
            "regex pattern to search (JavaScript; Python's (?P<name>) accepted)",
        ),
        opt("path", Kind::Str, "file or directory to search (default: the root)"),
        opt("fileGlob", Kind::Str, "only search matching files (without '/': names at any depth)"),
        opt("contextLines", Kind::Int(0, 20), "lines of context (default: config, else 2)"),
        opt("caseSensitive", Kind::Bool, "case-sensitive (default: true)"),
        opt(
            "maxResults",
            Kind::Int(1, MAX_RESULTS),
            "max matches to return (default: config, else 500)",
        ),
        opt("offset", Kind::Int(0, MAX_RESULTS), "skip this many matching lines first (paging)"),
        opt(
            "excludePatterns",
            Kind::List,
            "more exclusions (bare names at any depth, paths from the root)",
        ),
        opt(
            "excludeMode",
            Kind::Str,
            "'extend' (default) adds to the default exclusions, 'replace' replaces them",
        ),
        opt("includePatterns", Kind::List, "paths kept even when excluded or git-ignored"),
        opt(
            "maxFileSizeKB",
            Kind::Int(1, 1 << 20),
            "skip larger files (default: config, else 1024)",
        ),
        x[0],
        x[1],
        x[2],
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
        c[6],
    ]
};

/// seed 004's default exclusions.
pub const SEED004_EXCLUDES: &[&str] = &[
    ".git",
    ".svn",
    ".hg",
    ".bzr",
    "node_modules",
    "bower_components",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    "dist",
    "build",
    "out",
    "target",
    ".idea",
    ".vscode",
    "*.min.js",
    "*.min.css",
];
/// seed 002's always-ignored names.
pub const SEED002_EXCLUDES: &[&str] = &["node_modules", ".git", "dist", "build", ".next"];
/// seed 003's exclusions besides `.gitignore`.
pub const SEED003_EXCLUDES: &[&str] = &[".git", "node_modules"];

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

/// A validated line-search profile: everything but the result's shape.
struct LineScan {
    root: PathBuf,
    base: Base,
    excludes: Excludes,
    include: Option<GlobSet>,
    matcher: Matcher,
    reader: Reader,
    context_lines: usize,
    max_line_length: usize,
    /// `maxResultBytes`.
    max_result_bytes: u64,
    offset: usize,
    max_results: usize,
    count_all: bool,
    threads: usize,
    time_budget: Option<Duration>,
    with_symbols: bool,
    /// Whether the result can carry a hint (grep's array cannot).
    hint: bool,
    /// `hintMs`: the hint's time, when the caller set it.
    hint_time: Option<Duration>,
    /// `recurseSubmodules`.
    recurse_submodules: bool,
}

/// What a line search found, before a profile shapes it.
struct Found {
    /// Kept entries with their root-relative paths, in path then line order.
    entries: Vec<(Arc<str>, LineEntry)>,
    total: u64,
    files_with_matches: u64,
    files_searched: u64,
    skipped: SkipCounts,
    /// `Some(reason)` when the scan stopped before the end.
    incomplete: Option<&'static str>,
    /// Whether `maxResultBytes` left matching lines out.
    cut_by_bytes: bool,
    /// When nothing matched, what the left-out files hold.
    hint: Option<String>,
}

/// The most files a hint looks at.
const HINT_FILES: usize = 5_000;
/// The longest a hint looks.
const HINT_TIME: Duration = Duration::from_secs(1);
/// The shortest time a hint is given.
const HINT_MIN_TIME: Duration = Duration::from_millis(5);

/// The merge of every line-search profile: keeps the entries of the page
/// (`offset`, `maxResults`), counts the rest, honours the time budget.
struct LinesCollector {
    /// Where the first kept lines are reported while the search runs.
    progress: Arc<crate::cancel::Progress>,
    offset: usize,
    want: usize,
    seen: usize,
    count_all: bool,
    deadline: Option<Instant>,
    /// `maxResultBytes`, and what the kept lines take.
    budget: u64,
    bytes: u64,
    found: Found,
}

impl Collector<FileLines> for LinesCollector {
    fn collect(&mut self, cand: &Candidate, outcome: Outcome<FileLines>) -> Result<Flow> {
        let f = &mut self.found;
        match outcome {
            Outcome::Skipped(reason) => f.skipped.add(&reason),
            Outcome::NoMatch => f.files_searched += 1,
            Outcome::Matched(lines) => {
                f.files_searched += 1;
                f.files_with_matches += 1;
                f.total += lines.count;
                let path: Arc<str> = cand.rel().into();
                let page_end = self.offset + self.want;
                // The worker kept fewer lines than were found and wanted:
                // those past them did not fit the budget.
                let dropped = (lines.entries.len() as u64) < lines.count.min(page_end as u64);
                for e in lines.entries {
                    if self.seen >= page_end || f.cut_by_bytes {
                        break;
                    }
                    if self.seen >= self.offset {
                        let cost = e.json_bytes() + path.len() as u64 + 3;
                        if self.bytes + cost > self.budget {
                            f.cut_by_bytes = true;
                            break;
                        }
                        self.bytes += cost;
                        if self.progress.wants_hits() {
                            self.progress.add_hit(&path, e.line_number, &e.content);
                        }
                        f.entries.push((path.clone(), e));
                    }
                    self.seen += 1;
                }
                if dropped && self.seen < page_end {
                    f.cut_by_bytes = true;
                }
                if !self.count_all && (self.seen >= page_end || f.cut_by_bytes) {
                    return Ok(Flow::Stop);
                }
            }
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            f.incomplete = Some("timeBudget");
            return Ok(Flow::Stop);
        }
        Ok(Flow::Continue)
    }

    fn unreadable(&mut self, _dir: discovery::Unreadable) {
        self.found.skipped.unreadable += 1;
    }

    fn matches(&self) -> u64 {
        self.found.total
    }
}

impl LineScan {
    fn run(&self, cancel: &Cancel, started: Instant) -> Result<Found> {
        let keep = self.offset.saturating_add(self.max_results);
        let query = LineQuery {
            matcher: &self.matcher,
            context_lines: self.context_lines,
            keep,
            count_all: self.count_all,
            max_line_length: self.max_line_length,
            keep_bytes: self.max_result_bytes,
        };
        let cancelled = || cancel.is_cancelled();
        let work = |c: &Candidate| match self.reader.read_unless(c, &self.matcher) {
            Err(reason) => Outcome::Skipped(reason),
            Ok(None) => Outcome::NoMatch,
            Ok(Some((text, _))) => match search_lines(&text, &query, &cancelled) {
                Err(_) => Outcome::Skipped(SkipReason::RegexBudgetExceeded),
                Ok(None) => Outcome::NoMatch,
                Ok(Some(lines)) => Outcome::Matched(lines),
            },
        };
        let mut collector = LinesCollector {
            progress: cancel.progress_handle(),
            offset: self.offset,
            want: self.max_results,
            seen: 0,
            count_all: self.count_all,
            deadline: self.time_budget.and_then(|b| started.checked_add(b)),
            budget: self.max_result_bytes,
            bytes: 0,
            found: Found {
                entries: Vec::new(),
                total: 0,
                files_with_matches: 0,
                files_searched: 0,
                skipped: SkipCounts::default(),
                incomplete: None,
                cut_by_bytes: false,
                hint: None,
            },
        };
        match &self.base {
            Base::File(c) => {
                engine::run_over(std::slice::from_ref(c), 1, cancel, work, &mut collector)?
            }
            Base::Dir { abs, prefix } => {
                let mut listed = self.list(abs, prefix, cancel, true)?;
                engine::run_searching(
                    &listed.items,
                    &self.reader,
                    &self.matcher,
                    self.threads,
                    cancel,
                    work,
                    &mut collector,
                )?;
                for u in std::mem::take(&mut listed.unreadable) {
                    collector.unreadable(u);
                }
                let left_out = std::mem::take(&mut listed.not_checked_out);
                collector.found.skipped.not_checked_out =
                    (left_out.files + left_out.dirs.len()) as u64;
                if self.hint && collector.found.total == 0 && collector.found.incomplete.is_none() {
                    // A listing from a session's memory walks for what was
                    // dropped now (the look's time is measured after it, as
                    // a cold call's).
                    let mut dropped = listed.take_dropped(cancel)?;
                    for d in &mut dropped {
                        d.0.insert_str(0, prefix);
                    }
                    // The extra look costs at most a twentieth of the search's
                    // own time (at least 5 ms, at most 1 s) unless `hintMs` says.
                    let limit = self.hint_time.unwrap_or_else(|| {
                        (started.elapsed() / 20).clamp(HINT_MIN_TIME, HINT_TIME)
                    });
                    let hint = self.hint(&dropped, &cancel.bounded(limit), cancel)?;
                    collector.found.hint =
                        with_note("0 matches", hint, not_checked_out_note(&left_out));
                }
            }
        }
        if self.with_symbols {
            self.label(&mut collector.found.entries, cancel)?;
        }
        Ok(collector.found)
    }

    /// `withSymbols`: only the files whose lines are returned are parsed,
    /// after the scan.
    fn label(&self, entries: &mut [(Arc<str>, LineEntry)], cancel: &Cancel) -> Result<()> {
        let mut i = 0;
        while i < entries.len() {
            cancel.check()?;
            let path = entries[i].0.clone();
            let end = i + entries[i..].iter().take_while(|(p, _)| *p == path).count();
            let abs = self.root.join(&*path);
            let cand = Candidate::named(path.to_string(), abs, false);
            if let Ok(text) = self.reader.read(&cand) {
                label(&path, &text, entries[i..end].iter_mut().map(|(_, e)| e));
            }
            i = end;
        }
        Ok(())
    }

    /// The candidates under `abs` (root-relative paths): with the profile's
    /// exclusions and `.gitignore`, or (`excluded: false`) without either.
    fn list(
        &self,
        abs: &Path,
        prefix: &str,
        cancel: &Cancel,
        excluded: bool,
    ) -> Result<discovery::Listed<Candidates>> {
        let mut excludes = if excluded { self.excludes.clone() } else { Excludes::default() };
        let base = prefix.trim_end_matches('/');
        if excluded && !base.is_empty() {
            // A folder named explicitly is searched even when an exclusion
            // covers it (as rg searches a path it is given): `path:
            // 'node_modules/react'` looks inside.
            let prune = excludes.prune_names();
            let pruned = base.split('/').any(|d| prune.iter().any(|p| p == d));
            let set = excludes.exclude_set("excludePatterns")?;
            if pruned || set.is_some_and(|s| s.is_match(base) || s.is_match(&format!("{base}/x"))) {
                excludes = excludes.with_force(&[base]);
            }
        }
        let filter = excludes.filter(self.include.clone(), "excludePatterns")?;
        let filter: Arc<dyn PathFilter> = if prefix.is_empty() {
            filter
        } else {
            Arc::new(Prefixed { inner: filter, prefix: prefix.to_string() })
        };
        let profile = DiscoveryProfile {
            prune_names: excludes.prune_names(),
            filter: Some(filter),
            dirs: false,
            hidden: true,
            ignore_files: excluded,
            // No lstat per file: the reader takes the size from the opened file.
            metadata: false,
            // A candidate makes its absolute path when it is opened.
            abs_paths: false,
            threads: self.threads,
            recurse_submodules: self.recurse_submodules,
            source: self.reader.source.clone(),
        };
        // What the rules dropped is reported by the searching walk (for a
        // hint without a second walk of the whole tree).
        let mut listed =
            discovery::candidates_and_dropped(abs, &profile, cancel, excluded && self.hint)?;
        if !prefix.is_empty() {
            listed.items.prefix(prefix);
            for d in &mut listed.not_checked_out.dirs {
                d.insert_str(0, prefix);
            }
        }
        Ok(listed)
    }

    /// When nothing matched: how many matching lines the files left out by
    /// an exclusion or by `.gitignore` hold, by what left them out
    /// (`0 matches; 12 in files excluded by node_modules`). It reads what
    /// the search's walk reported as dropped (no second walk of the tree),
    /// within [`HINT_FILES`] files and `bounded`'s deadline.
    fn hint(
        &self,
        dropped: &[(String, bool)],
        bounded: &Cancel,
        cancel: &Cancel,
    ) -> Result<Option<String>> {
        let query = LineQuery {
            matcher: &self.matcher,
            context_lines: 0,
            keep: 0,
            count_all: true,
            max_line_length: 0,
            keep_bytes: 0,
        };
        let exclude_set = self.excludes.exclude_set("excludePatterns")?;
        let mut left_out = LeftOut::default();
        let mut looked = 0usize;
        'dropped: for (path, is_dir) in dropped {
            let reason = self.excludes.reason(path, *is_dir, exclude_set.as_ref(), true);
            let abs = self.root.join(path);
            let files = if *is_dir {
                match self.list(&abs, &format!("{path}/"), bounded, false) {
                    Ok(listed) => listed.items.into_vec(),
                    Err(_) => {
                        cancel.check()?;
                        left_out.cut = true;
                        break;
                    }
                }
            } else if self.include.as_ref().is_none_or(|i| i.is_match(path)) {
                vec![Candidate::named(path.clone(), abs, false)]
            } else {
                vec![]
            };
            for c in &files {
                if bounded.is_cancelled() || looked >= HINT_FILES {
                    left_out.cut = true;
                    break 'dropped;
                }
                looked += 1;
                let Ok(text) = self.reader.read(c) else { continue };
                let timed_out = || bounded.is_cancelled();
                let Ok(Some(lines)) = search_lines(&text, &query, &timed_out) else { continue };
                left_out.add(&reason, lines.count);
            }
        }
        Ok(left_out.summary("0 matches", "in files "))
    }

    fn truncated(&self, found: &Found) -> bool {
        found.total > (self.offset + found.entries.len()) as u64
    }
}

fn bool_or(raw: &RawOptions, key: &str, default: bool) -> Result<bool> {
    Ok(raw.bool(key)?.unwrap_or(default))
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

/// `searchCode`'s result (seed 003's `SearchResult`, plus counts).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    /// The query as given.
    pub query: String,
    /// Matching lines in the searched files (exact, past `maxResults` too).
    pub match_count: u64,
    /// The page of matching lines.
    pub matches: Vec<SearchMatch>,
    /// Whether matching lines were left out (past the page).
    pub truncated: bool,
    /// Files with at least one matching line.
    pub files_with_matches: u64,
    /// Files searched.
    pub files_searched: u64,
    /// Files not searched, by reason.
    pub skipped: SkipCounts,
    /// False when `timeBudgetMs` ended the search early.
    pub complete: bool,
    /// Why the result is incomplete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// `"maxResultBytes"` when the result budget, not the page size, left
    /// matching lines out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_by: Option<&'static str>,
    /// When nothing matched: what the excluded or ignored files hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// One matching line (seed 003's `SearchMatch`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchMatch {
    /// Root-relative path.
    pub path: Arc<str>,
    /// 1-based line.
    pub line_number: usize,
    /// The line (a window around the match when longer than `maxLineLength`).
    pub content: String,
    /// Present (true) when `content` was cut.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub content_truncated: bool,
    /// With `withSymbols`: the innermost outline item holding the line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<Symbol>,
}

fn extensions_glob(exts: &[String]) -> Result<Option<GlobSet>> {
    let globs: Vec<String> = exts
        .iter()
        .map(|e| e.trim().trim_start_matches('.').to_string())
        .filter(|e| !e.is_empty())
        .map(|e| format!("**/*.{e}"))
        .collect();
    if globs.is_empty() {
        Ok(None)
    } else {
        glob_set("includeExtensions", &globs, true, false).map(Some)
    }
}

/// Runs `searchCode`.
pub fn search_code(
    raw: &RawOptions,
    pattern: Option<Vec<u16>>,
    cancel: &Cancel,
    started: Instant,
) -> Result<SearchResult> {
    let t = SEARCH_CODE_OPTIONS;
    let source = query_of(raw, "query", pattern, "the text to search for")?;
    let case = match raw.bool("caseSensitive")? {
        None => Case::Smart,
        Some(true) => Case::Sensitive,
        Some(false) => Case::Insensitive,
    };
    let syntax = if bool_or(raw, "isRegex", false)? { Syntax::Regex } else { Syntax::Literal };
    let matcher = PatternSpec::new(source.clone(), syntax, case)
        .compile("searchCode", "query")?
        .with_timeout(raw.int("regexTimeoutMs", 1, MAX_TIMEOUT_MS)?);
    let root = resolve_root(raw.string("cwd")?.as_deref())?;
    let mut excludes = Excludes::from_entries(SEED003_EXCLUDES);
    excludes.extend_entries(&raw.string_list("excludePatterns")?.unwrap_or_default());
    let scan = LineScan {
        base: resolve_base(&root, raw.string("path")?)?,
        root,
        excludes,
        include: extensions_glob(&raw.string_list("includeExtensions")?.unwrap_or_default())?,
        matcher,
        reader: Reader::new(1024 * 1024, Encoding::Utf8, raw.source().clone()),
        context_lines: 0,
        max_line_length: raw.int_or("maxLineLength", t, 500)? as usize,
        max_result_bytes: raw.int_or("maxResultBytes", t, DEFAULT_MAX_RESULT_BYTES)?,
        offset: raw.int_or("offset", t, 0)? as usize,
        max_results: raw.int_or("maxResults", t, 50)? as usize,
        count_all: true,
        threads: raw.threads()?,
        time_budget: raw.int("timeBudgetMs", 1, MAX_TIMEOUT_MS)?.map(Duration::from_millis),
        with_symbols: bool_or(raw, "withSymbols", false)?,
        hint: raw.int("hintMs", 0, 60_000)? != Some(0),
        hint_time: raw.int("hintMs", 0, 60_000)?.map(Duration::from_millis),
        recurse_submodules: bool_or(raw, "recurseSubmodules", false)?,
    };
    let found = scan.run(cancel, started)?;
    let truncated = scan.truncated(&found);
    Ok(SearchResult {
        query: String::from_utf16_lossy(&source),
        match_count: found.total,
        matches: found
            .entries
            .into_iter()
            .map(|(path, e)| SearchMatch {
                path,
                line_number: e.line_number,
                content: e.content,
                content_truncated: e.truncated,
                symbol: e.symbol,
            })
            .collect(),
        truncated,
        files_with_matches: found.files_with_matches,
        files_searched: found.files_searched,
        skipped: found.skipped,
        complete: found.incomplete.is_none(),
        reason: found.incomplete,
        truncated_by: found.cut_by_bytes.then_some("maxResultBytes"),
        hint: found.hint,
    })
}

/// One entry of `grep`'s result (seed 002).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepEntry {
    /// Root-relative path.
    pub file: Arc<str>,
    /// 1-based line.
    pub line: usize,
    /// The line (windowed when too long).
    pub content: String,
    /// Present (true) when a line was cut.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub content_truncated: bool,
    /// The lines around the match in file order, the match line included
    /// (when `contextLines` > 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<Vec<String>>,
    /// Line number of `context`'s first entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_start: Option<usize>,
}

/// Runs `grep`.
pub fn grep(
    raw: &RawOptions,
    pattern: Option<Vec<u16>>,
    cancel: &Cancel,
    started: Instant,
) -> Result<Vec<GrepEntry>> {
    let t = GREP_OPTIONS;
    let source = query_of(raw, "pattern", pattern, "the text or regex to search for")?;
    let case =
        if bool_or(raw, "caseSensitive", false)? { Case::Sensitive } else { Case::Insensitive };
    let syntax = if bool_or(raw, "regex", false)? { Syntax::Regex } else { Syntax::Literal };
    let matcher = PatternSpec::new(source, syntax, case)
        .compile("grep", "pattern")?
        .with_timeout(raw.int("regexTimeoutMs", 1, MAX_TIMEOUT_MS)?);
    let root = resolve_root(raw.string("cwd")?.as_deref())?;
    let context_lines = raw.int_or("contextLines", t, 0)? as usize;
    let scan = LineScan {
        base: resolve_base(&root, raw.string("path")?)?,
        root,
        excludes: Excludes::from_entries(SEED002_EXCLUDES),
        include: None,
        matcher,
        reader: Reader::new(1024 * 1024, Encoding::Utf8, raw.source().clone()),
        context_lines,
        max_line_length: raw.int_or("maxLineLength", t, 500)? as usize,
        max_result_bytes: raw.int_or("maxResultBytes", t, DEFAULT_MAX_RESULT_BYTES)?,
        offset: 0,
        max_results: raw.int_or("maxResults", t, 50)? as usize,
        count_all: false,
        threads: raw.threads()?,
        time_budget: None,
        with_symbols: false,
        hint: false,
        hint_time: None,
        recurse_submodules: bool_or(raw, "recurseSubmodules", false)?,
    };
    let found = scan.run(cancel, started)?;
    Ok(found
        .entries
        .into_iter()
        .map(|(file, e)| {
            let (context, context_start) = if context_lines > 0 {
                let start = e.line_number - e.before.len();
                let mut block = e.before;
                block.push(e.content.clone());
                block.extend(e.after);
                (Some(block), Some(start))
            } else {
                (None, None)
            };
            GrepEntry {
                file,
                line: e.line_number,
                content: e.content,
                content_truncated: e.truncated,
                context,
                context_start,
            }
        })
        .collect())
}

/// `grepContent`'s result (seed 004's response, camelCase).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepContentResult {
    /// The page of matching lines.
    pub matches: Vec<GrepContentMatch>,
    /// Matching lines in the searched files (exact past the cap).
    pub total_matches: u64,
    /// Files with at least one matching line.
    pub files_with_matches: u64,
    /// Files searched.
    pub files_searched: u64,
    /// Whether matching lines were left out.
    pub truncated: bool,
    /// The pattern as given.
    pub pattern: String,
    /// The absolute path searched.
    pub path: String,
    /// The file glob, or null.
    pub file_glob: Option<String>,
    /// Files not searched, by reason.
    pub skipped: SkipCounts,
    /// False when `timeBudgetMs` ended the search early.
    pub complete: bool,
    /// Why the result is incomplete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// `"maxResultBytes"` when the result budget, not the page size, left
    /// matching lines out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_by: Option<&'static str>,
    /// When nothing matched: what the excluded or ignored files hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// One matching line of `grepContent`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepContentMatch {
    /// Root-relative path.
    pub file: Arc<str>,
    /// Absolute path.
    pub absolute_path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (code points) of the line's first match.
    pub column: usize,
    /// The line (windowed when too long).
    pub text: String,
    /// The first match's text.
    #[serde(rename = "match")]
    pub matched: String,
    /// Lines before.
    pub context_before: Vec<String>,
    /// Lines after.
    pub context_after: Vec<String>,
    /// Present (true) when a line was cut.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub text_truncated: bool,
    /// With `withSymbols`: the innermost outline item holding the line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<Symbol>,
}

/// The exclusions of a seed-004 profile: defaults (or not, with
/// `replace`), the config's and the call's patterns, force includes.
pub fn seed004_excludes(raw: &RawOptions, config: &ProjectConfig) -> Result<Excludes> {
    let mode = match raw.string("excludeMode")? {
        Some(m) => ExcludeMode::parse(&m).ok_or_else(|| {
            Error::invalid_option(format!(
                "{}: option 'excludeMode' must be 'extend' or 'replace', got {m:?}",
                raw.api()
            ))
        })?,
        None => config.exclude_mode.unwrap_or_default(),
    };
    let patterns = match raw.string_list("excludePatterns")? {
        Some(p) => p,
        None => config.exclude_patterns.clone().unwrap_or_default(),
    };
    let mut excludes = match mode {
        ExcludeMode::Extend => Excludes::from_entries(SEED004_EXCLUDES),
        // `.git` is never searched, whatever the list says.
        ExcludeMode::Replace => Excludes::from_entries(&[".git"]),
    };
    excludes.extend_entries(&patterns);
    let force = match raw.string_list("includePatterns")? {
        Some(p) => p,
        None => config.include_patterns.clone().unwrap_or_default(),
    };
    Ok(excludes.with_force(&force))
}

/// Runs `grepContent`.
pub fn grep_content(
    raw: &RawOptions,
    pattern: Option<Vec<u16>>,
    cancel: &Cancel,
    started: Instant,
) -> Result<GrepContentResult> {
    let t = GREP_CONTENT_OPTIONS;
    let source = query_of(raw, "pattern", pattern, "a regex")?;
    let case =
        if bool_or(raw, "caseSensitive", true)? { Case::Sensitive } else { Case::Insensitive };
    let matcher = PatternSpec::new(source.clone(), Syntax::PythonRegex, case)
        .compile("grepContent", "pattern")?
        .with_timeout(raw.int("regexTimeoutMs", 1, MAX_TIMEOUT_MS)?);
    let root = resolve_root(raw.string("cwd")?.as_deref())?;
    let config = ProjectConfig::load(&root)?;
    let file_glob = raw.string("fileGlob")?.filter(|g| !g.trim().is_empty());
    let include = match &file_glob {
        Some(g) => Some(glob_set("fileGlob", std::slice::from_ref(g), true, !g.contains('/'))?),
        None => None,
    };
    let base = resolve_base(&root, raw.string("path")?)?;
    let path = match &base {
        Base::Dir { abs, .. } => crate::paths::shown(abs),
        Base::File(c) => crate::paths::shown(&c.abs()),
    };
    let scan = LineScan {
        base,
        excludes: seed004_excludes(raw, &config)?,
        include,
        matcher,
        reader: Reader::new(
            raw.int_or("maxFileSizeKB", t, config.max_file_size_kb.unwrap_or(1024))? * 1024,
            Encoding::Utf8,
            raw.source().clone(),
        ),
        context_lines: raw.int_or("contextLines", t, config.context_lines.unwrap_or(2))? as usize,
        max_line_length: raw.int_or("maxLineLength", t, 500)? as usize,
        max_result_bytes: raw.int_or("maxResultBytes", t, DEFAULT_MAX_RESULT_BYTES)?,
        offset: raw.int_or("offset", t, 0)? as usize,
        max_results: raw.int_or("maxResults", t, config.max_results.unwrap_or(500))? as usize,
        count_all: true,
        threads: raw.threads()?,
        time_budget: raw.int("timeBudgetMs", 1, MAX_TIMEOUT_MS)?.map(Duration::from_millis),
        with_symbols: bool_or(raw, "withSymbols", false)?,
        hint: raw.int("hintMs", 0, 60_000)? != Some(0),
        hint_time: raw.int("hintMs", 0, 60_000)?.map(Duration::from_millis),
        recurse_submodules: bool_or(raw, "recurseSubmodules", false)?,
        root,
    };
    let found = scan.run(cancel, started)?;
    let truncated = scan.truncated(&found);
    let matches = found
        .entries
        .into_iter()
        .map(|(file, e)| GrepContentMatch {
            absolute_path: crate::paths::shown(&scan.root.join(&*file)),
            file,
            line: e.line_number,
            column: e.column,
            text: e.content,
            matched: e.matched,
            context_before: e.before,
            context_after: e.after,
            text_truncated: e.truncated,
            symbol: e.symbol,
        })
        .collect();
    Ok(GrepContentResult {
        matches,
        total_matches: found.total,
        files_with_matches: found.files_with_matches,
        files_searched: found.files_searched,
        truncated,
        pattern: String::from_utf16_lossy(&source),
        path,
        file_glob,
        skipped: found.skipped,
        complete: found.incomplete.is_none(),
        reason: found.incomplete,
        truncated_by: found.cut_by_bytes.then_some("maxResultBytes"),
        hint: found.hint,
    })
}
