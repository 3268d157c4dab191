//! `scout`: one query's distribution: matching lines and files, then the
//! folders and the files holding the most matching lines.

use std::collections::HashMap;

use serde::Serialize;

use super::report::{self, Budget, Section, cell, row, table_head};
use super::{
    Merged, Query, SCAN_LIMIT, Scope, Skipped, broad_warning, count_text, limit_warning,
    parent_dir, query_warnings, reader,
};
use crate::cancel::Cancel;
use crate::discovery::Candidate;
use crate::engine::{self, Outcome};
use crate::error::Result;
use crate::options::RawOptions;
use crate::search::{FileText, SkipReason, count_lines};

/// scout's default output budget.
pub const BUDGET: Budget = Budget { lines: 15, bytes: 4_000 };
/// The most rows of each table.
pub const TOP: usize = 10;

/// A folder or a file with its matching lines.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PathCount {
    /// Root-relative path (`.` for the root folder).
    pub path: String,
    /// Matching lines in it.
    pub matches: u64,
}

/// `scout`'s result.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoutResult {
    /// What the CLI prints.
    pub text: String,
    /// The CLI's exit status (0: an answer).
    pub exit_code: u8,
    /// The query.
    pub query: String,
    /// The query mode.
    pub mode: &'static str,
    /// The paths searched as given (empty: the whole root).
    pub paths: Vec<String>,
    /// Matching lines.
    pub matches: u64,
    /// Files with a matching line.
    pub files: u64,
    /// Folders holding a matching file directly.
    pub directories: u64,
    /// Files searched.
    pub files_searched: u64,
    /// The busiest folders, as printed (most matching lines first).
    pub top_directories: Vec<PathCount>,
    /// The busiest files, as printed.
    pub top_files: Vec<PathCount>,
    /// Warnings, as printed.
    pub warnings: Vec<String>,
    /// More than 1,000 matching lines or 100 files.
    pub broad: bool,
    /// The scan limit stopped the count (the counts are lower bounds).
    pub at_least: bool,
    /// Files not searched, by reason.
    pub skipped: Skipped,
}

/// The most matching first, then path order; at most [`TOP`].
fn top(mut counts: Vec<(String, u64)>) -> Vec<PathCount> {
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.encode_utf16().cmp(b.0.encode_utf16())));
    counts.into_iter().take(TOP).map(|(path, matches)| PathCount { path, matches }).collect()
}

/// Runs `scout`.
pub fn scout(raw: &RawOptions, cancel: &Cancel) -> Result<ScoutResult> {
    let Query { mode, text: query, matcher, budget } = Query::from_options(raw, BUDGET)?;
    let scope = Scope::new(raw, raw.string_list("paths")?.unwrap_or_default(), None)?;
    let (candidates, unreadable) = scope.candidates(cancel)?;
    let cancelled = || cancel.is_cancelled();
    let reader = reader(raw);
    let work = |_: &Candidate, text: &FileText| match count_lines(
        text, &matcher, SCAN_LIMIT, &cancelled,
    ) {
        Err(_) => Outcome::Skipped(SkipReason::RegexBudgetExceeded),
        Ok(0) => Outcome::NoMatch,
        Ok(n) => Outcome::Matched(n),
    };
    let mut d = Merged::new(unreadable, |n: &u64| *n);
    engine::run_searching(&candidates, &reader, &matcher, scope.threads, cancel, work, &mut d)?;

    let mut dirs: HashMap<&str, u64> = HashMap::new();
    for (path, n) in &d.files {
        *dirs.entry(parent_dir(path)).or_default() += n;
    }
    let directories = dirs.len() as u64;
    let top_directories = top(dirs.into_iter().map(|(p, n)| (p.to_string(), n)).collect());
    let files = d.files.len() as u64;
    let top_files = top(d.files);

    let mut warnings = query_warnings(mode, &query);
    warnings.extend(broad_warning(mode, d.matches, files, d.at_least));
    if d.at_least {
        warnings.push(limit_warning());
    }
    warnings.extend(d.skipped.warning());

    let paths = if scope.explicit { scope.path_names() } else { vec![".".to_string()] };
    let head = vec![
        "scout:".to_string(),
        format!("  query: {}", cell(&query)),
        format!("  mode: {}", mode.name()),
        format!(
            "  paths[{}]: {}",
            paths.len(),
            paths.iter().map(|p| cell(p)).collect::<Vec<_>>().join(",")
        ),
        format!("  matches: {}", count_text(d.matches, d.at_least)),
        format!("  files: {}", count_text(files, d.at_least)),
        format!("  directories: {}", count_text(directories, d.at_least)),
    ];
    // The rows left after every fixed line, shared by the two tables (the
    // folders get the odd one, and what the files do not need).
    let fixed = head.len() + 2 + warnings.len();
    let room = budget.lines.saturating_sub(fixed);
    let dir_rows = room.saturating_sub(top_files.len().min(room / 2));
    let rows = |list: &[PathCount]| -> Vec<String> {
        list.iter().map(|c| row(&[cell(&c.path), count_text(c.matches, d.at_least)])).collect()
    };
    let sections = vec![
        Section::head(head),
        Section {
            head: vec![table_head("top_directories", &["path", "matches"])],
            rows: rows(&top_directories),
            max_rows: dir_rows,
            note: None,
        },
        Section {
            head: vec![table_head("top_files", &["path", "matches"])],
            rows: rows(&top_files),
            max_rows: usize::MAX,
            note: None,
        },
        Section::head(warnings.iter().map(|w| format!("warning: {w}")).collect()),
    ];
    let rendered = report::render(&sections, budget);
    let mut top_directories = top_directories;
    let mut top_files = top_files;
    top_directories.truncate(rendered.shown[1]);
    top_files.truncate(rendered.shown[2]);
    Ok(ScoutResult {
        text: rendered.text,
        exit_code: 0,
        query,
        mode: mode.name(),
        paths: if scope.explicit { scope.path_names() } else { vec![] },
        broad: d.matches > super::BROAD_LINES || files > super::BROAD_FILES || d.at_least,
        matches: d.matches,
        files,
        directories,
        files_searched: d.files_searched,
        top_directories,
        top_files,
        warnings,
        at_least: d.at_least,
        skipped: d.skipped,
    })
}
