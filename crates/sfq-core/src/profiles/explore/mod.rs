//! seed 001's bounded exploration protocol: `survey` (compare terms),
//! `scout` (one term's distribution), `sample` (representative clusters) and
//! `show` (focused snippets in one file). Each is a profile over the one
//! engine: the same walk, reader and matcher as every other API, with seed
//! 001's fixed exclusions, its query modes, and a collector that counts
//! matching lines (stopping at [`SCAN_LIMIT`]); what differs is the report,
//! a text held to an output budget ([`report`]) plus the same facts typed.

pub mod report;
pub mod sample;
pub mod scout;
pub mod show;
pub mod survey;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cancel::Cancel;
use crate::discovery::{self, Candidate, Candidates, DiscoveryProfile};
use crate::engine::Reader;
use crate::error::{Error, Result};
use crate::excludes::Excludes;
use crate::matcher::{BudgetExceeded, Matcher};
use crate::options::{Kind, OptSpec, RawOptions, Split, opt};
use crate::paths::{resolve_inside, resolve_root};
use crate::pattern::{Boundary, Case, PatternSpec, Syntax};
use crate::search::{self, FileText, Hit, Mode, SkipReason};
use crate::text::Encoding;

/// Matching lines after which a scan stops (counts are then lower bounds).
pub const SCAN_LIMIT: u64 = 100_000;
/// More matching lines than this make a query broad.
pub const BROAD_LINES: u64 = 1_000;
/// More matching files than this make a query broad.
pub const BROAD_FILES: u64 = 100;
/// Fixed-string terms this short (in characters) draw a warning.
pub const SHORT_TERM: usize = 3;
/// Files larger than this are skipped (and reported), not read.
const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

mod excerpt;
mod merged;
mod mode;
mod scope;

pub use excerpt::{LineTable, ShownLine, excerpt_around, line_hits};
use merged::Merged;
pub use merged::Skipped;
#[cfg(test)]
use mode::has_unescaped_bar;
use mode::short_term_warning;
pub use mode::{MODE_MCP, MODE_MCP_REGEX, MODES, QueryMode};
pub use scope::Scope;

/// The options every command takes, with the command's budget (`maxLines`
/// and `maxBytes` may only lower it).
macro_rules! explore_options {
    ($budget:expr, $lines:literal, $bytes:literal) => {
        [
            opt("maxLines", Kind::Int(1, u64::MAX), "lower the output's line budget")
                .default_int($budget.lines as u64)
                .mcp("max_lines", concat!("Lower the output budget (default ", $lines, " lines)"))
                .cli(
                    "--max-lines",
                    "<n>",
                    concat!("lower the output budget (default ", $lines, " lines)"),
                ),
            opt("maxBytes", Kind::Int(1, u64::MAX), "lower the output's byte budget")
                .default_int($budget.bytes as u64)
                .mcp("max_bytes", concat!("Lower the output budget (default ", $bytes, " bytes)"))
                .cli(
                    "--max-bytes",
                    "<n>",
                    concat!("lower the output budget (default ", $bytes, " bytes)"),
                ),
            opt("cwd", Kind::Str, "the root; paths are relative to it (default: process.cwd())")
                .default_prose("process.cwd()"),
            crate::options::TIMEOUT_MS,
            crate::options::THREADS,
        ]
    };
}

/// The query mode, as the commands that search take it.
const MODE: OptSpec =
    opt("mode", Kind::OneOf(MODES), "'fixed' (default), 'identifier', 'word' or 'regex'")
        .default_str("fixed")
        .mcp_same(MODE_MCP_REGEX);

/// The option of the commands that walk folders (not `show`, which reads
/// one file).
const RECURSE_SUBMODULES: OptSpec = opt(
    "recurseSubmodules",
    Kind::Bool,
    "search initialised git submodules too, as git ls-files --recurse-submodules (default: false)",
)
.default_bool(false)
.mcp("recurse_submodules", crate::options::RECURSE_SUBMODULES_MCP)
.cli("--recurse-submodules", "", crate::options::SUBMODULES_CLI);

/// `paths` of scout and sample.
const PATHS: OptSpec =
    opt("paths", Kind::List, "files or folders to search (default: the whole root)")
        .mcp_same("Files or folders under the root to search (default: the whole root)");

/// `query` of scout, sample and show.
const QUERY: OptSpec =
    opt("query", Kind::Str, "the text (or regex, in mode 'regex') to search for")
        .mcp_same("The text (or regex, with mode \"regex\") to search for");

/// `survey`'s options.
pub const SURVEY_OPTIONS: &[OptSpec] = &{
    let c = explore_options!(survey::BUDGET, "20", "4000");
    [
        opt("terms", Kind::List, "fixed terms to compare (1 to 12)")
            .mcp_same("The terms to compare (1 to 12)")
            .cli_list("--term", "<text>", Split::Each, "a term to compare (repeatable, 1 to 12)"),
        opt("paths", Kind::List, "paths to compare (up to 8; default: the whole root)")
            .mcp_same("Up to 8 files or folders to compare (default: the top-level folders)"),
        opt(
            "mode",
            Kind::OneOf(MODES),
            "'fixed' (default), 'identifier' or 'word' ('regex' is refused)",
        )
        .default_str("fixed")
        .mcp_same(MODE_MCP)
        .mcp_values(&["fixed", "identifier", "word"]),
        RECURSE_SUBMODULES,
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
    ]
};

/// `scout`'s options.
pub const SCOUT_OPTIONS: &[OptSpec] = &{
    let c = explore_options!(scout::BUDGET, "15", "4000");
    [QUERY, PATHS, MODE, RECURSE_SUBMODULES, c[0], c[1], c[2], c[3], c[4]]
};

/// `sample`'s options.
pub const SAMPLE_OPTIONS: &[OptSpec] = &{
    let c = explore_options!(sample::BUDGET, "20", "6000");
    [QUERY, PATHS, MODE, RECURSE_SUBMODULES, c[0], c[1], c[2], c[3], c[4]]
};

/// `show`'s options.
pub const SHOW_OPTIONS: &[OptSpec] = &{
    let c = explore_options!(show::BUDGET, "30", "8000");
    [
        QUERY,
        opt("file", Kind::Str, "the one file to show snippets of")
            .mcp_same("The file (under the root)"),
        opt("context", Kind::Int(0, show::MAX_CONTEXT as u64), "lines of context (default 2)")
            .default_int(show::DEFAULT_CONTEXT as u64)
            .mcp_same("Lines of context around each match, 0 to 5 (default 2)")
            .cli("--context", "<n>", "lines of context, 0 to 5 (default 2)"),
        MODE,
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
    ]
};

/// The reader every command uses.
pub fn reader(raw: &RawOptions) -> Reader {
    Reader::new(MAX_FILE_BYTES, Encoding::Utf8, raw.source().clone())
}

/// A count as the reports print it: `at least N` when the scan stopped early.
pub fn count_text(n: u64, at_least: bool) -> String {
    if at_least { format!("at least {n}") } else { n.to_string() }
}

/// The broad-query warning, when the counts call for it.
pub fn broad_warning(mode: QueryMode, matches: u64, files: u64, at_least: bool) -> Option<String> {
    if matches <= BROAD_LINES && files <= BROAD_FILES && !at_least {
        return None;
    }
    let how = match mode {
        QueryMode::Fixed => "--identifier, --word, a longer term",
        _ => mode.narrowing(),
    };
    Some(format!(
        "broad query: {} matching lines in {} files (more than {BROAD_LINES} lines or {BROAD_FILES} \
         files); narrow the path or the query ({how}) instead of raising limits",
        count_text(matches, at_least),
        count_text(files, at_least),
    ))
}

/// The scan-limit warning.
pub fn limit_warning() -> String {
    format!("scan stopped at {SCAN_LIMIT} matching lines: counts are lower bounds")
}

/// The root-relative folder holding `path` (`.` for the root).
pub fn parent_dir(path: &str) -> &str {
    path.rfind('/').map_or(".", |i| &path[..i])
}

/// The top-level entry of `path` (its first component; `.` for a file at
/// the root).
pub fn top_level(path: &str) -> &str {
    path.find('/').map_or(".", |i| &path[..i])
}

/// Whether the file `file` lies under the given path `path`.
pub fn under(path: &str, file: &str) -> bool {
    path == "." || file == path || (file.starts_with(path) && file.as_bytes()[path.len()] == b'/')
}

/// The query's warnings shared by the single-query commands.
fn query_warnings(mode: QueryMode, query: &str) -> Vec<String> {
    short_term_warning(mode, &[query]).into_iter().collect()
}

/// Distinct values, for duplicate checks.
fn first_duplicate(items: &[String]) -> Option<&str> {
    let mut seen = HashSet::new();
    items.iter().find(|t| !seen.insert(t.as_str())).map(String::as_str)
}

/// The one query of scout, sample and show, read from their options once,
/// in the order their errors are reported: the mode, the query, its
/// compiled matcher, then the output budget.
pub struct Query {
    /// How the query is matched.
    pub mode: QueryMode,
    /// The query as given.
    pub text: String,
    /// The query compiled for its mode.
    pub matcher: Matcher,
    /// The report's budget (`maxLines` and `maxBytes` may only lower the
    /// command's).
    pub budget: report::Budget,
}

impl Query {
    /// Reads and checks the query's options; `budget` is the command's.
    pub fn from_options(raw: &RawOptions, budget: report::Budget) -> Result<Query> {
        let api = raw.api();
        let mode = QueryMode::parse(api, raw.string("mode")?)?;
        let text = required(raw, "query", "the text to search for")?;
        let matcher = mode.compile(api, "query", &text, true)?;
        let budget = report::Budget::from_options(raw, budget)?;
        Ok(Query { mode, text, matcher, budget })
    }
}

/// A required string option.
fn required(raw: &RawOptions, key: &str, what: &str) -> Result<String> {
    raw.string(key)?.ok_or_else(|| {
        Error::invalid_option(format!("{}: option '{key}' is required ({what})", raw.api()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternations_are_found_outside_classes_and_escapes() {
        assert!(has_unescaped_bar("a|b"));
        assert!(has_unescaped_bar(r"(a\|)|b"));
        assert!(!has_unescaped_bar(r"a\|b"));
        assert!(!has_unescaped_bar("[|]x"));
        assert!(!has_unescaped_bar(r"[\]|]x"));
    }

    #[test]
    fn short_fixed_terms_draw_one_warning() {
        assert_eq!(
            short_term_warning(QueryMode::Fixed, &["id", "parse", "db"]).unwrap(),
            "short terms \"id\", \"db\" match inside longer words; use --identifier or --word"
        );
        assert!(short_term_warning(QueryMode::Identifier, &["id"]).is_none());
        assert!(short_term_warning(QueryMode::Fixed, &["four"]).is_none());
    }

    fn matching(mode: QueryMode, query: &str, lines: &[&str]) -> Vec<usize> {
        let m = mode.compile("t", "query", query, true).unwrap();
        let text = FileText::Utf8(lines.join("\n"));
        let (hits, _) = line_hits(&text, &m, 100, &|| false).unwrap();
        hits.iter().map(|h| h.line).collect()
    }

    #[test]
    fn modes_draw_their_boundaries() {
        let lines = ["foo", "foobar", "a foo_b", "x.foo.y", "éfoo", "foo-", "1foo", "ba-a-a"];
        assert_eq!(matching(QueryMode::Fixed, "foo", &lines), vec![0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(matching(QueryMode::Identifier, "foo", &lines), vec![0, 3, 4, 5]);
        assert_eq!(matching(QueryMode::Word, "foo", &lines), vec![0, 3, 5]);
        // An overlapping later occurrence is found when the first fails.
        assert_eq!(matching(QueryMode::Word, "a-a", &lines), vec![7]);
        assert_eq!(matching(QueryMode::Word, "foo-", &lines), vec![5]);
        assert_eq!(matching(QueryMode::Regex, "fo+[.-]", &lines), vec![3, 5]);
        assert!(QueryMode::Regex.compile("t", "query", "a|b", true).is_err());
        assert!(QueryMode::Regex.compile("t", "query", "a|b", false).is_ok());
        assert!(QueryMode::Fixed.compile("t", "query", "a|b", true).is_ok());
        assert!(QueryMode::Fixed.compile("t", "query", "", true).is_err());
    }

    #[test]
    fn paths_hold_files() {
        assert!(under(".", "a/b"));
        assert!(under("a", "a/b"));
        assert!(under("a/b", "a/b"));
        assert!(!under("a", "ab/c"));
        assert_eq!(top_level("a/b/c"), "a");
        assert_eq!(top_level("c"), ".");
        assert_eq!(parent_dir("a/b/c"), "a/b");
        assert_eq!(parent_dir("c"), ".");
    }
}
