//! `smartFileQuery` (seed 000): regex search with context over the candidate
//! files, returning the seed's payload key for key.
//!
//! Pipeline: raw options → [`SfqConfig`] (validated; the regex compiled) →
//! candidates (discovery + include/ignore globs) → per-file search on the
//! worker pool → in-order merge that enforces `maxMatches` → [`Payload`]
//! printed as it is merged (the `printer` module: the typed payload
//! ([`run`]), JSON or the compact transport ([`run_encoded`]), JSON written
//! to a stream ([`write_json`]); each matched file encoded by the worker that
//! searched it, see [`crate::file_view`]).

use std::path::PathBuf;
use std::sync::Arc;

use crate::discovery::glob_set;
use crate::engine::Reader;
use crate::error::Result;
use crate::excludes::Excludes;
use crate::jsstr::JsStr;
use crate::matcher::Matcher;
use crate::options::{Kind, MAX_TIMEOUT_MS, OptSpec, RawOptions, opt};
use crate::paths::resolve_root;
use crate::pattern::PatternSpec;
use crate::search::Mode;
use crate::text::Encoding;
use sfq_walk::glob::GlobSet;

/// `smartFileQuery`'s options (checked where they are read, in the order
/// the seed's script checks them, not all at parse time). The MCP tool
/// `smart_file_query` takes them under the same names.
pub const OPTIONS: &[OptSpec] = &[
    opt("regex", Kind::Str, "the JavaScript regex source, without slashes").mcp_same(
        "JavaScript regex pattern (no surrounding slashes). Passed directly to new RegExp(pattern, flags) \
         and run line by line.",
    ),
    opt("flags", Kind::Str, "regex flags (i, m, s, u, v; g and d accepted; y refused)")
        .default_str("")
        .mcp_same("Optional regex flags (i, m, s, u, v; g and d accepted; y refused). Default ''."),
    opt("glob", Kind::List, "repo-relative globs limiting the candidate files (default **/*)")
        .default_str(DEFAULT_GLOB)
        .mcp_same(
            "Repo-relative glob(s) limiting candidate files. Accepts *, ?, **, {a,b}. A string or a list. \
             Default **/*.",
        ),
    opt("ignore", Kind::List, "globs to exclude, added to .git/**, **/node_modules/**, **/.turbo/**")
        .mcp_same(
            "Globs to exclude, added to the defaults (.git/**, **/node_modules/**, **/.turbo/**). A string or \
             a list.",
        ),
    opt("contextLines", Kind::Int(0, MAX_CONTEXT_LINES), "lines before and after each match (default 2)")
        .default_int(2)
        .mcp_same("Number of surrounding lines to include before/after each match (0-20). Default 2."),
    opt("includeAllContent", Kind::Bool, "embed each matching file's whole content (default false)")
        .default_bool(false)
        .mcp_same(
            "Embed the full file contents for every file with at least one match (subject to size limits). \
             Default false.",
        ),
    opt("maxFileSizeKB", Kind::Int(1, MAX_FILE_SIZE_KB), "skip larger files (default 256)")
        .default_int(256)
        .mcp_same("Skip files larger than this size (in kilobytes). Default 256."),
    opt("maxMatches", Kind::Int(1, MAX_MATCHES), "the most matches returned (default 500)")
        .default_int(500)
        .mcp_same(
            "Hard cap on total matches returned; when exceeded, output is truncated and truncated flags set. \
             Default 500.",
        ),
    opt("encoding", Kind::Str, "utf8 (default), utf16le, latin1 or ascii")
        .default_str("utf8")
        .mcp_same("File encoding for reads: utf8 (default), utf16le, latin1 or ascii."),
    opt("multiline", Kind::Bool, "match each file's whole text (default false: line by line)")
        .default_bool(false)
        .mcp_same(
            "Match against each file's whole text, so a match can span lines. Default false (line by line).",
        ),
    opt("recurseSubmodules", Kind::Bool, "search initialised git submodules too (default false)")
        .default_bool(false)
        .mcp_same(crate::options::RECURSE_SUBMODULES_MCP),
    opt("maxLineLength", Kind::Int(0, 10_000_000), "cut longer lines to a window around the match (default 0: never)")
        .default_int(0)
        .mcp_same(
            "Cut lines (the match's and its context) longer than this many characters to a window of that many \
             around the match, with … at each cut end; use it on minified or generated files, where one line \
             can be megabytes. Default 0 (never).",
        ),
    opt("maxResultBytes", Kind::Int(1024, MAX_RESULT_BYTES), "the most the results may take as JSON (default 256 MiB)")
        .default_int(DEFAULT_MAX_RESULT_BYTES),
    opt("regexTimeoutMs", Kind::Int(1, MAX_TIMEOUT_MS), "time the backtracking engine may spend on one file (default 1000)")
        .default_int(crate::matcher::DEFAULT_REGEX_TIMEOUT.as_millis() as u64),
    opt("cwd", Kind::Str, "the root (default: process.cwd())").default_prose("process.cwd()"),
    crate::options::TIMEOUT_MS,
    crate::options::THREADS,
];

/// The include glob when none is given.
pub const DEFAULT_GLOB: &str = "**/*";
/// Bounds of the numeric options.
pub const MAX_CONTEXT_LINES: u64 = 20;
/// Largest `maxFileSizeKB` (1 GiB).
pub const MAX_FILE_SIZE_KB: u64 = 1 << 20;
/// Largest `maxMatches`.
pub const MAX_MATCHES: u64 = 1_000_000;
/// Default `maxResultBytes`: the JSON the results may take (256 MiB; a JS
/// string holds at most about 512 Mi characters).
pub const DEFAULT_MAX_RESULT_BYTES: u64 = 256 << 20;
/// Largest `maxResultBytes` (1 GiB).
pub const MAX_RESULT_BYTES: u64 = 1 << 30;

/// The walk filter of a query (opaque in `Debug` output).
#[derive(Clone)]
struct WalkFilter(Arc<dyn sfq_walk::discovery::PathFilter>);

impl std::fmt::Debug for WalkFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WalkFilter")
    }
}

/// Validated `smartFileQuery` options.
#[derive(Debug)]
pub struct SfqConfig {
    /// The pattern source, as the JS string it was.
    pub regex: Vec<u16>,
    /// The flags string, as given.
    pub flags: String,
    /// The compiled pattern.
    pub matcher: Matcher,
    /// Include globs (repo-relative, picomatch with `dot`).
    pub glob: Vec<String>,
    /// Ignore globs: the defaults followed by the user's.
    pub ignore: Vec<String>,
    /// Lines of context before and after each match (0–20).
    pub context_lines: usize,
    /// Whether matched files carry their whole decoded text.
    pub include_all_content: bool,
    /// Size cap in KiB.
    pub max_file_size_kb: u64,
    /// Cap on the total number of matches.
    pub max_matches: u64,
    /// How file bytes are decoded.
    pub encoding: Encoding,
    /// Whole-text matching instead of line by line.
    pub multiline: bool,
    /// Lines longer than this many characters are cut to a window around
    /// the match (0: never, seed 000's behaviour).
    pub max_line_length: usize,
    /// The most the results may take as JSON ([`FileView::result_bytes`]);
    /// the scan stops where the next match would pass it.
    pub max_result_bytes: u64,
    /// Whether `maxResultBytes` was given (it is echoed then).
    max_result_bytes_given: bool,
    /// Where file contents come from.
    source: crate::engine::Source,
    /// The root directory (absolute).
    pub root: PathBuf,
    /// Worker threads.
    pub threads: usize,
    /// Whether initialised git submodules are searched too.
    pub recurse_submodules: bool,
    /// `timeoutMs`, if given.
    pub timeout_ms: Option<u64>,
    excludes: Excludes,
    filter: WalkFilter,
    /// Said when nothing matched: a glob asks for paths a default ignore
    /// leaves out.
    hint: Option<String>,
}

/// Explicit beats default: a glob whose leading literal folder lies in what
/// a default ignore leaves out (`node_modules/@types/**/*.d.ts`) searches
/// that folder (unless the caller's own `ignore` covers it too): the globs
/// to force-include, and the hint for globs that ask for default-ignored
/// paths without naming a folder (`**/node_modules/**/*.d.ts`).
fn explicit_globs(
    globs: &GlobSet,
    user_ignore: &[String],
) -> Result<(Vec<String>, Option<String>)> {
    let defaults: Vec<String> =
        crate::excludes::SEED000_IGNORE.iter().map(|s| s.to_string()).collect();
    let defaults = glob_set("ignore", &defaults, true, false)?;
    let user = if user_ignore.is_empty() {
        None
    } else {
        Some(glob_set("ignore", user_ignore, true, false)?)
    };
    let covers = |set: &GlobSet, dir: &str| set.is_match(dir) || set.is_match(&format!("{dir}/x"));
    let mut force = Vec::new();
    let mut hint = None;
    for g in globs.globs() {
        match g.literal_dir() {
            Some(dir) if covers(&defaults, dir) => {
                if !user.as_ref().is_some_and(|u| covers(u, dir)) {
                    force.push(dir.to_string());
                    force.push(format!("{dir}/**"));
                }
            }
            _ => {
                let named = crate::excludes::SEED000_IGNORE.iter().find(|d| {
                    let name = d.trim_start_matches("**/").trim_end_matches("/**");
                    g.pattern().split('/').any(|seg| seg == name)
                });
                if let (Some(d), None) = (named, &hint) {
                    hint = Some(format!(
                        "glob '{}' asks for paths the default ignore '{d}' leaves out; name the folder from the root to search it (a glob such as 'node_modules/<package>/**')",
                        g.pattern()
                    ));
                }
            }
        }
    }
    Ok((force, hint))
}

fn non_empty(list: Option<Vec<String>>) -> Vec<String> {
    list.unwrap_or_default()
        .into_iter()
        .map(|g| g.trim().to_string())
        .filter(|g| !g.is_empty())
        .collect()
}

impl SfqConfig {
    /// Validates `raw`; `pattern` is the regex source when the wrapper passed
    /// it beside the JSON (so that lone surrogates survive).
    pub fn from_options(raw: &RawOptions, pattern: Option<Vec<u16>>) -> Result<SfqConfig> {
        let t = OPTIONS;
        let regex = match pattern {
            Some(p) => p,
            None => match raw.string("regex")? {
                Some(s) => s.encode_utf16().collect(),
                None => {
                    return Err(crate::error::Error::invalid_option(
                        "smartFileQuery: option 'regex' is required (a JavaScript regex source, without slashes)",
                    ));
                }
            },
        };
        let flags = raw.string("flags")?.unwrap_or_default();
        let multiline = raw.bool_default("multiline", t)?;
        let mode = if multiline { Mode::Whole } else { Mode::Lines };
        let matcher = PatternSpec::js(regex.clone(), flags.clone(), mode)
            .matcher()?
            .with_timeout(raw.int_of("regexTimeoutMs", t)?);
        let mut glob = non_empty(raw.string_list("glob")?);
        if glob.is_empty() {
            glob.push(DEFAULT_GLOB.to_string());
        }
        let mut ignore: Vec<String> =
            crate::excludes::SEED000_IGNORE.iter().map(|s| s.to_string()).collect();
        let user_ignore = non_empty(raw.string_list("ignore")?);
        ignore.extend(user_ignore.iter().cloned());
        let mut excludes = Excludes::from_globs(&ignore);
        let globs = glob_set("glob", &glob, true, false)?;
        let (force, hint) = explicit_globs(&globs, &user_ignore)?;
        excludes.force.extend(force);
        let filter = WalkFilter(excludes.filter(Some(globs), "ignore")?);
        let encoding = match raw.string("encoding")? {
            Some(e) => Encoding::parse(&e)?,
            None => Encoding::Utf8,
        };
        let root = resolve_root(raw.string("cwd")?.as_deref())?;
        let max_result_bytes = raw.int_of("maxResultBytes", t)?;
        Ok(SfqConfig {
            regex,
            flags,
            matcher,
            glob,
            ignore,
            context_lines: raw.int_default("contextLines", t)? as usize,
            include_all_content: raw.bool_default("includeAllContent", t)?,
            max_file_size_kb: raw.int_default("maxFileSizeKB", t)?,
            max_matches: raw.int_default("maxMatches", t)?,
            encoding,
            multiline,
            max_line_length: raw.int_default("maxLineLength", t)? as usize,
            max_result_bytes: raw.int_default("maxResultBytes", t)?,
            max_result_bytes_given: max_result_bytes.is_some(),
            source: raw.source().clone(),
            root,
            threads: raw.threads()?,
            recurse_submodules: raw.bool_default("recurseSubmodules", t)?,
            timeout_ms: raw.int_of("timeoutMs", t)?,
            excludes,
            filter,
            hint,
        })
    }

    /// How candidates are read.
    fn reader(&self) -> Reader {
        Reader::new(self.max_file_size_kb * 1024, self.encoding, self.source.clone())
    }
}

impl SfqConfig {
    /// The hint, when nothing matched.
    fn hint_for(&self, aggregate: &Aggregate) -> Option<String> {
        if aggregate.total_matches == 0 { self.hint.clone() } else { None }
    }

    /// The option echo.
    fn echo(&self) -> Echo {
        Echo {
            regex: JsStr::from_utf16(&self.regex),
            flags: self.flags.clone(),
            glob: self.glob.clone(),
            ignore: self.ignore.clone(),
            context_lines: self.context_lines,
            include_all_content: self.include_all_content,
            max_file_size_kb: self.max_file_size_kb,
            max_matches: self.max_matches,
            multiline: self.multiline,
            max_line_length: self.max_line_length,
            max_result_bytes: self.max_result_bytes_given.then_some(self.max_result_bytes),
            recurse_submodules: self.recurse_submodules,
        }
    }
}

mod collect;
mod payload;
mod printer;
#[cfg(test)]
mod tests;

pub use payload::{Aggregate, Echo, Payload, Skipped};
pub use printer::{run, run_encoded, write_json};
