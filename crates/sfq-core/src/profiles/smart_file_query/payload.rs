//! smartFileQuery's payload: seed 000's keys, in its order.

use serde::Serialize;

use crate::file_view::FileResult;
use crate::jsstr::JsStr;
use crate::search::SkipReason;

/// The payload, in the seed's key order.
#[derive(Debug, Serialize)]
pub struct Payload {
    /// Echo of the effective options.
    pub query: Echo,
    /// Files with at least one match, in path order.
    pub results: Vec<FileResult>,
    /// Files not searched, in path order.
    pub skipped: Vec<Skipped>,
    /// Totals.
    pub aggregate: Aggregate,
    /// When nothing matched and a glob asks for paths a default ignore
    /// leaves out: how to search them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// The option echo.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Echo {
    /// `regex`.
    pub regex: JsStr,
    /// `flags`.
    pub flags: String,
    /// Effective include globs.
    pub glob: Vec<String>,
    /// Effective ignore globs (defaults first).
    pub ignore: Vec<String>,
    /// `contextLines`.
    pub context_lines: usize,
    /// `includeAllContent`.
    pub include_all_content: bool,
    /// `maxFileSizeKB`.
    #[serde(rename = "maxFileSizeKB")]
    pub max_file_size_kb: u64,
    /// `maxMatches`.
    pub max_matches: u64,
    /// Present (as `true`) only when whole-text matching was asked for.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub multiline: bool,
    /// Present only when lines are cut (`maxLineLength` > 0).
    #[serde(skip_serializing_if = "is_zero")]
    pub max_line_length: usize,
    /// Present only when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_result_bytes: Option<u64>,
    /// Present (as `true`) only when submodules were searched too.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub recurse_submodules: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A file that was not searched.
#[derive(Debug, Serialize)]
pub struct Skipped {
    /// Root-relative path.
    pub path: String,
    /// `binary`, `maxFileSizeExceeded`, `readError` or `regexBudgetExceeded`.
    pub reason: &'static str,
    /// Size in bytes, for `maxFileSizeExceeded`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// OS error code, for `readError`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
}

impl Skipped {
    pub(super) fn new(path: String, reason: SkipReason) -> Skipped {
        let (reason, size, code) = match reason {
            SkipReason::Binary => ("binary", None, None),
            SkipReason::MaxFileSizeExceeded(size) => ("maxFileSizeExceeded", Some(size), None),
            SkipReason::ReadError(code) => ("readError", None, Some(code)),
            SkipReason::RegexBudgetExceeded => ("regexBudgetExceeded", None, None),
        };
        Skipped { path, reason, size, code }
    }
}

/// Totals over the scan.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Aggregate {
    /// Candidates examined (up to the one where `maxMatches` was reached).
    pub files_visited: u64,
    /// Files with at least one returned match.
    pub files_matched: u64,
    /// Matches returned.
    pub total_matches: u64,
    /// True when the scan stopped at `maxMatches` or `maxResultBytes`.
    pub truncated: bool,
    /// `"maxResultBytes"` when the result budget, not `maxMatches`, stopped
    /// the scan (absent otherwise, so the seed's payload is unchanged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_by: Option<&'static str>,
}
