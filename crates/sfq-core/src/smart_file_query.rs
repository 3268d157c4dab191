//! `smartFileQuery` (seed 000): regex search with context over the candidate
//! files, returning the seed's payload key for key.
//!
//! Pipeline: raw options → [`SfqConfig`] (validated; the regex compiled) →
//! candidates (discovery + include/ignore globs) → per-file search on the
//! worker pool → in-order merge that enforces `maxMatches` → [`Payload`].

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

use crate::cancel::Cancel;
use crate::discovery::{self, Candidate, DiscoveryProfile, glob_filter, glob_set};
use crate::error::Result;
use crate::jsstr::JsStr;
use crate::matcher::Matcher;
use crate::options::RawOptions;
use crate::paths::resolve_root;
use crate::scan::{self, Flow};
use crate::search::{self, FileText, Hit, Mode, SkipReason};
use crate::text::Encoding;

/// The option names `smartFileQuery` accepts.
pub const OPTION_NAMES: &[&str] = &[
    "regex",
    "flags",
    "glob",
    "ignore",
    "contextLines",
    "includeAllContent",
    "maxFileSizeKB",
    "maxMatches",
    "encoding",
    "multiline",
    "cwd",
    "timeoutMs",
    "threads",
];

/// The ignore globs every query starts with (the user's extend them).
pub const DEFAULT_IGNORE: &[&str] = &[".git/**", "**/node_modules/**", "**/.turbo/**"];
/// The include glob when none is given.
pub const DEFAULT_GLOB: &str = "**/*";
/// Bounds of the numeric options.
pub const MAX_CONTEXT_LINES: u64 = 20;
/// Largest `maxFileSizeKB` (1 GiB).
pub const MAX_FILE_SIZE_KB: u64 = 1 << 20;
/// Largest `maxMatches`.
pub const MAX_MATCHES: u64 = 1_000_000;
/// Largest `threads`.
pub const MAX_THREADS: u64 = 256;
/// Largest `timeoutMs` (about 24 days, the largest a JS timer takes).
pub const MAX_TIMEOUT_MS: u64 = (1 << 31) - 1;

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
    /// The root directory (absolute).
    pub root: PathBuf,
    /// Worker threads.
    pub threads: usize,
    /// `timeoutMs`, if given.
    pub timeout_ms: Option<u64>,
    filter: Arc<sfq_walk::glob::GlobFilter>,
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
        let multiline = raw.bool("multiline")?.unwrap_or(false);
        let matcher =
            Matcher::new(&regex, &flags, if multiline { Mode::Whole } else { Mode::Lines })?;
        let mut glob = non_empty(raw.string_list("glob")?);
        if glob.is_empty() {
            glob.push(DEFAULT_GLOB.to_string());
        }
        let mut ignore: Vec<String> = DEFAULT_IGNORE.iter().map(|s| s.to_string()).collect();
        ignore.extend(non_empty(raw.string_list("ignore")?));
        let filter = glob_filter(
            Some(glob_set("glob", &glob, true, false)?),
            Some(glob_set("ignore", &ignore, true, false)?),
            None,
        );
        let encoding = match raw.string("encoding")? {
            Some(e) => Encoding::parse(&e)?,
            None => Encoding::Utf8,
        };
        let root = resolve_root(raw.string("cwd")?.as_deref())?;
        Ok(SfqConfig {
            regex,
            flags,
            matcher,
            glob,
            ignore,
            context_lines: raw.int("contextLines", 0, MAX_CONTEXT_LINES)?.unwrap_or(2) as usize,
            include_all_content: raw.bool("includeAllContent")?.unwrap_or(false),
            max_file_size_kb: raw.int("maxFileSizeKB", 1, MAX_FILE_SIZE_KB)?.unwrap_or(256),
            max_matches: raw.int("maxMatches", 1, MAX_MATCHES)?.unwrap_or(500),
            encoding,
            multiline,
            root,
            threads: raw
                .int("threads", 1, MAX_THREADS)?
                .map_or_else(scan::default_threads, |t| t as usize),
            timeout_ms: raw.int("timeoutMs", 1, MAX_TIMEOUT_MS)?,
            filter,
        })
    }
}

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
}

/// One file's matches.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileResult {
    /// Root-relative POSIX path.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Number of matches returned for this file.
    pub match_count: usize,
    /// The matches, in order.
    pub matches: Vec<MatchOut>,
    /// The whole decoded text (only with `includeAllContent`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<JsStr>,
    /// True when this file had more matches than were returned.
    pub truncated: bool,
}

/// One match with its context.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchOut {
    /// 1-based line of the match start.
    pub line_number: usize,
    /// 1-based column in code points.
    pub column: usize,
    /// The matched text.
    #[serde(rename = "match")]
    pub text: JsStr,
    /// Surrounding lines.
    pub context: Context,
}

/// Context lines of a match.
#[derive(Debug, Serialize)]
pub struct Context {
    /// Up to `contextLines` lines before.
    pub before: Vec<JsStr>,
    /// The line holding the match start.
    pub line: JsStr,
    /// Up to `contextLines` lines after.
    pub after: Vec<JsStr>,
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
    fn new(path: String, reason: SkipReason) -> Skipped {
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
    /// True when the scan stopped at `maxMatches`.
    pub truncated: bool,
}

/// What searching one candidate produced.
enum Outcome {
    Skipped(Skipped),
    NoMatch,
    Matched(FileResult),
}

/// Each line converted to a `JsStr` once per file, shared by the matches
/// and contexts that show it.
#[derive(Default)]
struct LineCache {
    lines: std::collections::HashMap<usize, JsStr>,
}

impl LineCache {
    fn context(&mut self, text: &FileText, hit: &Hit, n: usize) -> Context {
        let c = text.context(hit, n, |index, span| {
            self.lines.entry(index).or_insert_with(|| text.line_text(span)).clone()
        });
        Context { before: c.before, line: c.line, after: c.after }
    }
}

fn search_one(config: &SfqConfig, cand: &Candidate, cancel: &Cancel) -> Outcome {
    crate::failpoint::hit("scan-file");
    if cancel.is_cancelled() {
        // Never consumed: the merge checks cancellation before each outcome.
        return Outcome::NoMatch;
    }
    let text = match cand.missing_code() {
        Some(code) => Err(SkipReason::ReadError(code)),
        None => search::load(&cand.abs, cand.size, config.max_file_size_kb * 1024, config.encoding),
    };
    let text = match text {
        Ok(t) => t,
        Err(reason) => return Outcome::Skipped(Skipped::new(cand.rel.clone(), reason)),
    };
    let limit = usize::try_from(config.max_matches).unwrap_or(usize::MAX).saturating_add(1);
    let mode = if config.multiline { Mode::Whole } else { Mode::Lines };
    let text = match (&text, mode) {
        (FileText::Utf8(s), Mode::Whole) if config.matcher.whole_needs_exact(s) => {
            text.into_utf16()
        }
        _ => text,
    };
    let mut hits: Vec<Hit> = Vec::new();
    let cancelled = || cancel.is_cancelled();
    let outcome = search::find(&text, &config.matcher, mode, &cancelled, &mut |hit| {
        hits.push(hit);
        hits.len() < limit
    });
    if outcome.is_err() {
        return Outcome::Skipped(Skipped::new(cand.rel.clone(), SkipReason::RegexBudgetExceeded));
    }
    if hits.is_empty() {
        return Outcome::NoMatch;
    }
    let mut cache = LineCache::default();
    let matches: Vec<MatchOut> = hits
        .into_iter()
        .map(|h| MatchOut {
            line_number: h.line + 1,
            column: h.column,
            context: cache.context(&text, &h, config.context_lines),
            text: h.text,
        })
        .collect();
    Outcome::Matched(FileResult {
        path: cand.rel.clone(),
        size: cand.size,
        match_count: matches.len(),
        matches,
        content: config.include_all_content.then(|| text.to_js()),
        truncated: false,
    })
}

/// Runs the query.
pub fn run(config: &SfqConfig, cancel: &Cancel) -> Result<Payload> {
    let profile = DiscoveryProfile {
        prune_names: vec!["node_modules".into(), ".turbo".into()],
        filter: Some(config.filter.clone()),
        threads: config.threads,
    };
    let (candidates, unreadable): (Vec<Candidate>, _) =
        discovery::candidates(&config.root, &profile, cancel)?;
    let mut payload = Payload {
        query: Echo {
            regex: JsStr::from_utf16(&config.regex),
            flags: config.flags.clone(),
            glob: config.glob.clone(),
            ignore: config.ignore.clone(),
            context_lines: config.context_lines,
            include_all_content: config.include_all_content,
            max_file_size_kb: config.max_file_size_kb,
            max_matches: config.max_matches,
            multiline: config.multiline,
        },
        results: Vec::new(),
        skipped: Vec::new(),
        aggregate: Aggregate::default(),
    };
    let max = config.max_matches;
    scan::ordered(
        &candidates,
        config.threads,
        cancel,
        |c| search_one(config, c, cancel),
        |outcome| {
            cancel.check()?;
            let agg = &mut payload.aggregate;
            agg.files_visited += 1;
            match outcome {
                Outcome::Skipped(s) => payload.skipped.push(s),
                Outcome::NoMatch => {}
                Outcome::Matched(mut file) => {
                    let remaining = usize::try_from(max - agg.total_matches).unwrap_or(usize::MAX);
                    if file.matches.len() > remaining {
                        file.matches.truncate(remaining);
                        file.match_count = remaining;
                        file.truncated = true;
                    }
                    agg.total_matches += file.matches.len() as u64;
                    agg.files_matched += 1;
                    payload.results.push(file);
                    if agg.total_matches >= max {
                        agg.truncated = true;
                        return Ok(Flow::Stop);
                    }
                }
            }
            Ok(Flow::Continue)
        },
    )?;
    cancel.check()?;
    // Directories that could not be read are reported after the files.
    payload.skipped.extend(unreadable.into_iter().map(|u| Skipped {
        path: u.rel,
        reason: "readError",
        size: None,
        code: Some(u.code),
    }));
    Ok(payload)
}
