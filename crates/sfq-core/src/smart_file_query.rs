//! `smartFileQuery` (seed 000): regex search with context over the candidate
//! files, returning the seed's payload key for key.
//!
//! Pipeline: raw options → [`SfqConfig`] (validated; the regex compiled) →
//! candidates (discovery + include/ignore globs) → per-file search on the
//! worker pool → in-order merge that enforces `maxMatches` → [`Payload`]
//! ([`run`]), or the payload serialised with each matched file encoded by the
//! worker that searched it ([`run_encoded`]; see [`crate::file_view`]).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use crate::cancel::Cancel;
use crate::discovery::{self, Candidate, DiscoveryProfile, Unreadable, glob_set};
use crate::engine::{self, Collector, Flow, Outcome, Reader};
use crate::error::Result;
use crate::excludes::Excludes;
pub use crate::file_view::FileResult;
use crate::file_view::FileView;
use crate::jsstr::JsStr;
use crate::matcher::Matcher;
use crate::options::RawOptions;
use crate::paths::resolve_root;
use crate::scan;
use crate::search::{self, FileText, Hit, Mode, SkipReason};
use crate::text::Encoding;
use crate::transport::Assembler;
use crate::{Encoded, Format};
use sfq_walk::glob::GlobSet;

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
    "maxLineLength",
    "maxResultBytes",
    "regexTimeoutMs",
    "cwd",
    "timeoutMs",
    "threads",
    "recurseSubmodules",
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
/// Default `maxResultBytes`: the JSON the results may take (256 MiB; a JS
/// string holds at most about 512 Mi characters).
pub const DEFAULT_MAX_RESULT_BYTES: u64 = 256 << 20;
/// Largest `maxResultBytes` (1 GiB).
pub const MAX_RESULT_BYTES: u64 = 1 << 30;
/// Largest `timeoutMs` (about 24 days, the largest a JS timer takes).
pub const MAX_TIMEOUT_MS: u64 = (1 << 31) - 1;

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
    let defaults: Vec<String> = DEFAULT_IGNORE.iter().map(|s| s.to_string()).collect();
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
                let named = DEFAULT_IGNORE.iter().find(|d| {
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
            Matcher::new(&regex, &flags, if multiline { Mode::Whole } else { Mode::Lines })?
                .with_timeout(raw.int("regexTimeoutMs", 1, MAX_TIMEOUT_MS)?);
        let mut glob = non_empty(raw.string_list("glob")?);
        if glob.is_empty() {
            glob.push(DEFAULT_GLOB.to_string());
        }
        let mut ignore: Vec<String> = DEFAULT_IGNORE.iter().map(|s| s.to_string()).collect();
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
        let max_result_bytes = raw.int("maxResultBytes", 1024, MAX_RESULT_BYTES)?;
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
            max_line_length: raw.int("maxLineLength", 0, 10_000_000)?.unwrap_or(0) as usize,
            max_result_bytes: max_result_bytes.unwrap_or(DEFAULT_MAX_RESULT_BYTES),
            max_result_bytes_given: max_result_bytes.is_some(),
            source: raw.source().clone(),
            root,
            threads: raw.threads()?,
            recurse_submodules: raw.bool("recurseSubmodules")?.unwrap_or(false),
            timeout_ms: raw.int("timeoutMs", 1, MAX_TIMEOUT_MS)?,
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
    /// True when the scan stopped at `maxMatches` or `maxResultBytes`.
    pub truncated: bool,
    /// `"maxResultBytes"` when the result budget, not `maxMatches`, stopped
    /// the scan (absent otherwise, so the seed's payload is unchanged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_by: Option<&'static str>,
}

/// A matched file as the workers hand it to the merge.
struct Found<F> {
    /// Matches found (at most the search's limit).
    count: usize,
    /// What they take as JSON ([`FileView::result_bytes`]).
    bytes: u64,
    /// The file with all of them, typed or serialised; `None` when they
    /// passed the worker's allowance (the merge then cuts the file).
    file: Option<Result<F>>,
}

/// How a matched file is encoded for the merge (typed, or serialised).
type Encode<'a, F> = &'a (dyn Fn(&FileView) -> Result<F> + Sync);

/// Reads and searches one candidate for at most `limit` matches, and hands
/// the view of them to `f` (`truncated`: the file is cut there).
fn with_view<R>(
    config: &SfqConfig,
    cand: &Candidate,
    cancel: &Cancel,
    limit: usize,
    truncated: bool,
    f: impl FnOnce(FileView<'_>) -> R,
) -> Outcome<R> {
    let (text, size) = match config.reader().read_unless(cand, &config.matcher) {
        Ok(Some(t)) => t,
        Ok(None) => return Outcome::NoMatch,
        Err(reason) => return Outcome::Skipped(reason),
    };
    let mode = if config.multiline { Mode::Whole } else { Mode::Lines };
    let text = match (&*text, mode) {
        (FileText::Utf8(s), Mode::Whole) if config.matcher.whole_needs_exact(s) => {
            std::sync::Arc::new(FileText::clone(&text).into_utf16())
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
        return Outcome::Skipped(SkipReason::RegexBudgetExceeded);
    }
    if hits.is_empty() {
        return Outcome::NoMatch;
    }
    let view = FileView::new(
        cand.rel(),
        size,
        &text,
        &hits,
        config.context_lines,
        config.include_all_content,
        truncated,
    )
    .cut_lines(config.max_line_length);
    Outcome::Matched(f(view))
}

/// Searches one candidate for at most `limit` matches; a matched file goes
/// through `encode` when its result takes at most `allowance` bytes.
fn search_one<F>(
    config: &SfqConfig,
    cand: &Candidate,
    cancel: &Cancel,
    limit: usize,
    allowance: u64,
    encode: Encode<'_, F>,
) -> Outcome<Found<F>> {
    with_view(config, cand, cancel, limit, false, |view| {
        let bytes = view.result_bytes();
        Found {
            count: view.match_count(),
            bytes,
            file: (bytes <= allowance).then(|| encode(&view)),
        }
    })
}

/// The scan's result before the payload is put together: `F` is a matched
/// file, typed or serialised.
struct Scanned<F> {
    results: Vec<F>,
    skipped: Vec<Skipped>,
    aggregate: Aggregate,
    /// What the results take as JSON ([`FileView::result_bytes`]).
    bytes: u64,
}

/// Where merged files go: to the caller as each is merged (with its
/// candidate), or into [`Scanned::results`].
type Emit<'e, F> = Option<&'e mut dyn FnMut(&Candidate, F) -> Result<()>>;

/// seed 000's merge: counts, keeps files in path order and stops at
/// `maxMatches` or `maxResultBytes`. The one file that crosses either is
/// searched again on this thread for exactly the matches that remain (a
/// file's first N matches are the same whatever the limit).
struct MaxMatches<'a, 'e, F> {
    config: &'a SfqConfig,
    cancel: &'a Cancel,
    encode: Encode<'a, F>,
    /// `maxResultBytes` (unbounded for the streamed output).
    budget: u64,
    out: Scanned<F>,
    /// Told each merged file's position and the totals so far.
    ahead: &'a Ahead,
    /// A candidate's position in the list.
    index: &'a (dyn Fn(&Candidate) -> usize + Sync),
    emit: Emit<'e, F>,
}

impl<F> Collector<Found<F>> for MaxMatches<'_, '_, F> {
    fn collect(&mut self, cand: &Candidate, outcome: Outcome<Found<F>>) -> Result<Flow> {
        let flow = self.merge(cand, outcome);
        self.ahead.merge((self.index)(cand), self.out.aggregate.total_matches, self.out.bytes);
        if !matches!(flow, Ok(Flow::Continue)) {
            // No more merging: workers waiting for it must not wait.
            self.ahead.ended.store(true, Ordering::Relaxed);
        }
        flow
    }

    fn matches(&self) -> u64 {
        self.out.aggregate.total_matches
    }

    fn unreadable(&mut self, u: Unreadable) {
        // Directories that could not be read are reported after the files.
        self.out.skipped.push(Skipped {
            path: u.rel,
            reason: "readError",
            size: None,
            code: Some(u.code),
        });
    }
}

impl<F> MaxMatches<'_, '_, F> {
    fn merge(&mut self, cand: &Candidate, outcome: Outcome<Found<F>>) -> Result<Flow> {
        let max = self.config.max_matches;
        self.out.aggregate.files_visited += 1;
        let found = match outcome {
            Outcome::Skipped(reason) => {
                self.out.skipped.push(Skipped::new(cand.rel().to_string(), reason));
                return Ok(Flow::Continue);
            }
            Outcome::NoMatch => return Ok(Flow::Continue),
            Outcome::Matched(found) => found,
        };
        let remaining =
            usize::try_from(max - self.out.aggregate.total_matches).unwrap_or(usize::MAX);
        let room = self.budget.saturating_sub(self.out.bytes);
        let (file, count, bytes, by_bytes) = match found.file {
            Some(file) if found.count <= remaining && found.bytes <= room => {
                (file?, found.count, found.bytes, false)
            }
            _ => {
                // The file crosses a cap: searched again for what fits.
                let limit = found.count.min(remaining);
                let encode = self.encode;
                let cut_at_max = limit < found.count;
                let cut = with_view(self.config, cand, self.cancel, limit, cut_at_max, |view| {
                    let n = view.matches_within(room);
                    if n == 0 {
                        return None;
                    }
                    let view = if n < view.match_count() {
                        view.first(n, self.config.max_line_length)
                    } else {
                        view
                    };
                    Some((encode(&view), n, view.result_bytes(), n < limit))
                });
                match cut {
                    Outcome::Matched(Some((file, n, bytes, by_bytes))) => {
                        (file?, n, bytes, by_bytes)
                    }
                    Outcome::Matched(None) => {
                        // Not even its first match fits.
                        let agg = &mut self.out.aggregate;
                        agg.truncated = true;
                        agg.truncated_by = Some("maxResultBytes");
                        return Ok(Flow::Stop);
                    }
                    _ => {
                        return Err(crate::error::Error::new(
                            crate::error::ErrorCode::Internal,
                            format!("{}: the file changed while it was searched", cand.rel()),
                        ));
                    }
                }
            }
        };
        let agg = &mut self.out.aggregate;
        agg.total_matches += count as u64;
        agg.files_matched += 1;
        self.out.bytes += bytes;
        match &mut self.emit {
            Some(emit) => emit(cand, file)?,
            None => self.out.results.push(file),
        }
        let agg = &mut self.out.aggregate;
        if by_bytes {
            agg.truncated = true;
            agg.truncated_by = Some("maxResultBytes");
            return Ok(Flow::Stop);
        }
        if agg.total_matches >= max {
            agg.truncated = true;
            return Ok(Flow::Stop);
        }
        Ok(Flow::Continue)
    }
}

/// Discovers the candidates and searches them on the worker pool. Each
/// matched file goes through `encode` in the worker that searched it, so
/// serialising runs in parallel and the typed value is freed there. Merged
/// files go to `emit` when given (else into the result), and with `pace`
/// the workers keep few matches ahead of the merge (the output is being
/// written as merged, and memory should hold little more than it).
fn scan_files<F: Send>(
    config: &SfqConfig,
    cancel: &Cancel,
    budget: u64,
    encode: impl Fn(&FileView) -> Result<F> + Sync,
    emit: Emit<'_, F>,
    pace: bool,
) -> Result<Scanned<F>> {
    let profile = DiscoveryProfile {
        prune_names: config.excludes.prune_names(),
        filter: Some(config.filter.0.clone()),
        dirs: false,
        hidden: true,
        ignore_files: true,
        // No lstat per file: the reader takes the size from the opened file.
        metadata: false,
        // A candidate makes its absolute path when it is opened.
        abs_paths: false,
        threads: config.threads,
        recurse_submodules: config.recurse_submodules,
        source: config.source.clone(),
    };
    let (candidates, unreadable) = discovery::candidates(&config.root, &profile, cancel)?;
    let ahead = Ahead::new(candidates.len());
    let index = |c: &Candidate| {
        (c as *const Candidate as usize - candidates.as_ptr() as usize)
            / std::mem::size_of::<Candidate>().max(1)
    };
    let max = config.max_matches;
    // Written as merged, a worker hands its files' results to the merge as
    // soon as they hold STREAM_FLUSH matches (files without matches go 64 at
    // a time: the merging thread, which only merges then, is woken once per
    // message), so memory holds about that many matches per worker.
    let chunk = if pace { 4 * scan::CHUNK } else { scan::CHUNK };
    let batching = if pace {
        scan::Batching { claim: chunk, flush_weight: STREAM_FLUSH, caller_works: false }
    } else {
        // The merging thread works chunks too: the progress a caller polls
        // may lag by the chunk it is on (the agent searches, whose progress
        // the MCP tasks report with their first hits, keep it apart).
        scan::Batching { caller_works: true, ..scan::Batching::whole(chunk) }
    };
    let mut collector = MaxMatches {
        config,
        cancel,
        encode: &encode,
        budget,
        out: Scanned {
            results: Vec::new(),
            skipped: Vec::new(),
            aggregate: Aggregate::default(),
            bytes: 0,
        },
        ahead: &ahead,
        index: &index,
        emit,
    };
    let work = |c: &Candidate| {
        let i = index(c);
        if pace {
            // Written as merged: a worker waits while the files searched
            // ahead of the merge hold more than PACE matches, so memory holds
            // about one chunk's results beyond them. The worker of the chunk
            // the merge needs next never waits (its files are merged only
            // once it is done); the thread that merges works no file here
            // (`caller_works` is off).
            while i / chunk > ahead.frontier() / chunk
                && ahead.unmerged_over(i, PACE)
                && !ahead.ended.load(Ordering::Relaxed)
                && !cancel.is_cancelled()
            {
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
        }
        // A file is searched for at most the matches that can still be used:
        // at most `maxMatches` minus what the files before it are known to
        // hold, plus one (to know that it crosses the cap). Workers run ahead
        // of the merge, and without this each would keep every match of
        // every file it searched.
        let before = ahead.lower_bound(i, max);
        if before >= max {
            // The merge stops at or before this file: it is never used.
            ahead.found(i, 0);
            return Outcome::NoMatch;
        }
        let limit = usize::try_from(max - before).unwrap_or(usize::MAX).saturating_add(1);
        // A file's result is kept only when it fits what the merged files
        // left of the budget (else the merge cuts it), so memory holds at
        // most the budget per worker beyond the merged results.
        let allowance = budget.saturating_sub(ahead.merged_bytes());
        let outcome = search_one(config, c, cancel, limit, allowance, &encode);
        ahead.found(i, if let Outcome::Matched(f) = &outcome { f.count as u64 } else { 0 });
        outcome
    };
    let weigh = |f: &Found<F>| f.count;
    // Files a session's index rules out are "no match" unsearched.
    let pruned = config.reader().pruned(&candidates, &config.matcher, config.threads);
    engine::run_masked(
        &candidates,
        pruned.as_deref(),
        config.threads,
        batching,
        cancel,
        work,
        weigh,
        &mut collector,
    )?;
    for u in unreadable {
        collector.unreadable(u);
    }
    Ok(collector.out)
}

/// Matches a streamed scan lets the workers search ahead of the merge.
const PACE: u64 = 20_000;
/// Matches after which a worker of a streamed scan hands its results over.
const STREAM_FLUSH: usize = 1_000;

/// What the workers know of the matches before a file, while they run
/// ahead of the merge: each finished file's count, and the merge's frontier.
/// Every file asks (for its match limit, and when paced, whether to wait):
/// running totals answer at once while the matches found anywhere stay
/// under the cap, and the exact sum over the files between the frontier and
/// it is taken only past that.
struct Ahead {
    /// Per candidate, its matches once searched (`u64::MAX` before).
    counts: Vec<AtomicU64>,
    /// Candidates merged so far and the matches they held.
    merged: Mutex<(usize, u64)>,
    /// The same two, to read without the lock (each on its own).
    frontier: AtomicUsize,
    merged_matches: AtomicU64,
    /// What the merged files' results take as JSON.
    merged_bytes: AtomicU64,
    /// Matches of every file searched so far, wherever it is.
    found_total: AtomicU64,
    /// Set when the merge stopped (the cap, an error).
    ended: AtomicBool,
}

impl Ahead {
    fn new(n: usize) -> Ahead {
        Ahead {
            counts: (0..n).map(|_| AtomicU64::new(u64::MAX)).collect(),
            merged: Mutex::new((0, 0)),
            frontier: AtomicUsize::new(0),
            merged_matches: AtomicU64::new(0),
            merged_bytes: AtomicU64::new(0),
            found_total: AtomicU64::new(0),
            ended: AtomicBool::new(false),
        }
    }

    fn found(&self, i: usize, n: u64) {
        self.counts[i].store(n, Ordering::Relaxed);
        self.found_total.fetch_add(n, Ordering::Relaxed);
    }

    /// At most the matches the files before `i` hold, exact enough to tell
    /// whether they reach `max`: while fewer than `max` were found in all,
    /// the matches merged (a file may then search for a few more matches
    /// than it can use); past that, those merged plus those searched since
    /// in the files before `i` (files still being searched count as none).
    fn lower_bound(&self, i: usize, max: u64) -> u64 {
        if self.found_total.load(Ordering::Relaxed) < max {
            return self.merged_matches.load(Ordering::Relaxed);
        }
        let (merged, searched) = self.before(i);
        merged + searched
    }

    /// The matches merged, and those searched since in the files before `i`
    /// (one consistent look).
    fn before(&self, i: usize) -> (u64, u64) {
        let (frontier, merged) = *self.merged.lock().unwrap_or_else(|e| e.into_inner());
        let searched: u64 = (frontier..i)
            .map(|j| self.counts[j].load(Ordering::Relaxed))
            .filter(|&n| n != u64::MAX)
            .sum();
        (merged, searched)
    }

    /// The first candidate not merged yet.
    fn frontier(&self) -> usize {
        self.frontier.load(Ordering::Relaxed)
    }

    /// Whether the files before `i` hold more than `pace` matches searched
    /// but not merged (those of all files bound them: the exact sum is
    /// taken only when they pass `pace`).
    fn unmerged_over(&self, i: usize, pace: u64) -> bool {
        let found = self.found_total.load(Ordering::Relaxed);
        found.saturating_sub(self.merged_matches.load(Ordering::Relaxed)) > pace
            && self.before(i).1 > pace
    }

    fn merge(&self, i: usize, total: u64, bytes: u64) {
        *self.merged.lock().unwrap_or_else(|e| e.into_inner()) = (i + 1, total);
        self.frontier.store(i + 1, Ordering::Relaxed);
        self.merged_matches.store(total, Ordering::Relaxed);
        self.merged_bytes.store(bytes, Ordering::Relaxed);
    }

    /// What the merged files' results take as JSON.
    fn merged_bytes(&self) -> u64 {
        self.merged_bytes.load(Ordering::Relaxed)
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

/// Runs the query: the typed payload.
pub fn run(config: &SfqConfig, cancel: &Cancel) -> Result<Payload> {
    let s =
        scan_files(config, cancel, config.max_result_bytes, |f| Ok(f.to_result()), None, false)?;
    let hint = config.hint_for(&s.aggregate);
    Ok(Payload {
        query: config.echo(),
        results: s.results,
        skipped: s.skipped,
        aggregate: s.aggregate,
        hint,
    })
}

/// The keys of [`Payload`], in order.
const PAYLOAD_KEYS: [&str; 4] = ["query", "results", "skipped", "aggregate"];
/// The keys of [`Payload`] with a hint.
const PAYLOAD_KEYS_WITH_HINT: [&str; 5] = ["query", "results", "skipped", "aggregate", "hint"];

/// Runs the query and serialises the payload in `format`, each matched file in
/// the worker that searched it. The bytes (or the decoded value) are exactly
/// those of serialising [`run`]'s payload.
pub fn run_encoded(config: &SfqConfig, cancel: &Cancel, format: Format) -> Result<Encoded> {
    match format {
        Format::Json => {
            let s = scan_files(config, cancel, config.max_result_bytes, |f| json(f), None, false)?;
            let mut out =
                Vec::with_capacity(s.results.iter().map(|r| r.len() + 1).sum::<usize>() + 4096);
            out.extend_from_slice(b"{\"query\":");
            out.extend(json(&config.echo())?);
            out.extend_from_slice(b",\"results\":[");
            for (i, r) in s.results.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(r);
            }
            out.extend_from_slice(b"],\"skipped\":");
            out.extend(json(&s.skipped)?);
            out.extend_from_slice(b",\"aggregate\":");
            out.extend(json(&s.aggregate)?);
            if let Some(hint) = config.hint_for(&s.aggregate) {
                out.extend_from_slice(b",\"hint\":");
                out.extend(json(&hint)?);
            }
            out.push(b'}');
            Ok(Encoded::Json(out))
        }
        Format::Compact => {
            // Each file is spliced in as it is merged, while the workers go
            // on, not after the scan: the payload's keys (with a hint or
            // not) and the results' length are filled in at the end.
            let mut asm = Assembler::new();
            let payload = asm.begin_object();
            asm.serialize(&config.echo()).map_err(|e| internal(&e))?;
            let results = asm.begin_array();
            let mut files = 0;
            let mut splice = |_: &Candidate, file: crate::transport::Compact| -> Result<()> {
                asm.splice(file);
                files += 1;
                Ok(())
            };
            let s = scan_files(
                config,
                cancel,
                config.max_result_bytes,
                |f| Ok(f.to_compact()),
                Some(&mut splice),
                false,
            )?;
            asm.end_array(results, files);
            let hint = config.hint_for(&s.aggregate);
            asm.end_object(
                payload,
                if hint.is_some() { &PAYLOAD_KEYS_WITH_HINT } else { &PAYLOAD_KEYS },
            );
            asm.serialize(&s.skipped).map_err(|e| internal(&e))?;
            asm.serialize(&s.aggregate).map_err(|e| internal(&e))?;
            if let Some(hint) = hint {
                asm.serialize(&hint).map_err(|e| internal(&e))?;
            }
            Ok(Encoded::Compact(asm.finish()))
        }
    }
}

/// A file's JSON results as a streamed scan's workers hand them to the
/// merge: serialised, or, past [`STREAM_INLINE_BYTES`], only what the
/// merge needs to search the file again and write its JSON straight to the
/// output, match by match.
enum Streamed {
    /// The file's JSON.
    Bytes(Vec<u8>),
    /// Searched again when merged: for this many matches, cut or not.
    Deferred { limit: usize, truncated: bool },
}

/// Largest file result a streamed scan's worker serialises ahead of the
/// merge (larger ones are written by the merge as they are made).
const STREAM_INLINE_BYTES: u64 = 1 << 20;

/// Runs the query and writes the payload's JSON to `out` as the files are
/// merged (the same bytes as [`run_encoded`]'s JSON), so memory holds about
/// a file's result at a time, not the whole payload: a file whose result
/// takes more than [`STREAM_INLINE_BYTES`] is searched again when merged
/// and its JSON written match by match from its text (a match's context as
/// it is made; a minified line matched 200,000 times is written as 36 GB
/// with bounded memory). `maxResultBytes` does not apply: the output is as
/// large as asked for. Nothing is written before the first file is merged
/// (an error in discovery leaves `out` empty). Returns the payload without
/// its results, as JSON (`{"query","skipped","aggregate"}`), for the
/// caller's diagnostics. A write error is an error with the OS code
/// (`EPIPE` when the reader went away).
pub fn write_json(
    config: &SfqConfig,
    cancel: &Cancel,
    out: &mut dyn std::io::Write,
) -> Result<Vec<u8>> {
    let echo = json(&config.echo())?;
    let written = |e: std::io::Error| {
        // The reader gone is EPIPE on every platform (Windows says
        // ERROR_BROKEN_PIPE, `EOF`, or ERROR_NO_DATA, `EPIPE`).
        let code = if e.kind() == std::io::ErrorKind::BrokenPipe {
            "EPIPE"
        } else {
            crate::error::io_code(&e)
        };
        crate::error::Error::new(
            crate::error::ErrorCode::Io(code),
            format!("cannot write the output: {e}"),
        )
    };
    let mut started = false;
    let mut emit = |cand: &Candidate, file: Streamed| -> Result<()> {
        if started {
            out.write_all(b",").map_err(written)?;
        } else {
            out.write_all(b"{\"query\":").map_err(written)?;
            out.write_all(&echo).map_err(written)?;
            out.write_all(b",\"results\":[").map_err(written)?;
            started = true;
        }
        match file {
            Streamed::Bytes(bytes) => out.write_all(&bytes).map_err(written),
            Streamed::Deferred { limit, truncated } => {
                let out = &mut *out;
                match with_view(config, cand, cancel, limit, truncated, |view| {
                    serde_json::to_writer(out, &view)
                }) {
                    Outcome::Matched(r) => r.map_err(|e| written(e.into())),
                    _ => Err(crate::error::Error::new(
                        crate::error::ErrorCode::Internal,
                        format!("{}: the file changed while it was searched", cand.rel()),
                    )),
                }
            }
        }
    };
    let encode = |view: &FileView| {
        if view.result_bytes() > STREAM_INLINE_BYTES {
            Ok(Streamed::Deferred { limit: view.match_count(), truncated: view.truncated() })
        } else {
            json(view).map(Streamed::Bytes)
        }
    };
    let s = scan_files(config, cancel, u64::MAX, encode, Some(&mut emit), true)?;
    if !started {
        out.write_all(b"{\"query\":").map_err(written)?;
        out.write_all(&echo).map_err(written)?;
        out.write_all(b",\"results\":[").map_err(written)?;
    }
    let skipped = json(&s.skipped)?;
    let mut aggregate = json(&s.aggregate)?;
    if let Some(hint) = config.hint_for(&s.aggregate) {
        aggregate.extend_from_slice(b",\"hint\":");
        aggregate.extend(json(&hint)?);
    }
    out.write_all(b"],\"skipped\":").map_err(written)?;
    out.write_all(&skipped).map_err(written)?;
    out.write_all(b",\"aggregate\":").map_err(written)?;
    out.write_all(&aggregate).map_err(written)?;
    out.write_all(b"}").map_err(written)?;
    out.flush().map_err(written)?;
    let mut summary = b"{\"query\":".to_vec();
    summary.extend(echo);
    summary.extend_from_slice(b",\"skipped\":");
    summary.extend(skipped);
    summary.extend_from_slice(b",\"aggregate\":");
    summary.extend(aggregate);
    summary.push(b'}');
    Ok(summary)
}

fn internal(e: &dyn std::fmt::Display) -> crate::error::Error {
    crate::error::Error::new(
        crate::error::ErrorCode::Internal,
        format!("cannot serialise the result: {e}"),
    )
}

/// `value` as minified JSON.
fn json<T: Serialize>(value: &T) -> Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(|e| internal(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::{to_compact, to_json_value};

    fn config(root: &std::path::Path, extra: &str) -> SfqConfig {
        let json =
            format!(r#"{{"regex":"a\\w*|\\uD83D","cwd":{:?}{extra}}}"#, root.to_str().unwrap());
        let raw = RawOptions::parse("smartFileQuery", &json, OPTION_NAMES).unwrap();
        SfqConfig::from_options(&raw, None).unwrap()
    }

    /// A streamed scan paces its workers by the matches not yet merged
    /// (PACE) while one thread merges: with far more matches than PACE it
    /// ends, with the bytes of the whole payload.
    #[test]
    fn a_paced_stream_ends_with_the_whole_payload_whatever_the_thread_count() {
        let dir = std::env::temp_dir().join(format!("sfq-paced-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for i in 0..200 {
            let body = format!("{}\n", vec!["aa ab ac"; 100 + i % 50].join("\n"));
            std::fs::write(dir.join(format!("f{i:03}.txt")), body).unwrap();
        }
        let root = std::fs::canonicalize(&dir).unwrap();
        for threads in [1, 2, 3, 5] {
            let c = config(&root, &format!(r#","maxMatches":1000000,"threads":{threads}"#));
            let cancel = Cancel::default();
            let Encoded::Json(bytes) = run_encoded(&c, &cancel, Format::Json).unwrap() else {
                panic!("json")
            };
            let mut streamed = Vec::new();
            write_json(&c, &cancel, &mut streamed).unwrap();
            assert!(streamed == bytes, "threads {threads}");
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.contains(r#""totalMatches":74700"#), "threads {threads}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file whose result passes STREAM_INLINE_BYTES is written by the
    /// merge match by match (searched again there): the same bytes as the
    /// payload serialised whole, with a file cut at `maxMatches` among them.
    #[test]
    fn large_files_are_streamed_with_the_bytes_of_the_whole_payload() {
        let dir = std::env::temp_dir().join(format!("sfq-deferred-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // 3,000 matches on a 2 KB line: about 6 MB of JSON per file.
        let line = "ab ".repeat(700);
        for i in 0..4 {
            std::fs::write(dir.join(format!("f{i}.txt")), format!("x\n{line}\ny\n")).unwrap();
        }
        std::fs::write(dir.join("small.txt"), "ab\n").unwrap();
        let root = std::fs::canonicalize(&dir).unwrap();
        for (max, threads) in [(100_000, 1), (100_000, 3), (2_000, 2)] {
            let c = config(
                &root,
                &format!(r#","maxMatches":{max},"threads":{threads},"maxResultBytes":1073741824"#),
            );
            let cancel = Cancel::default();
            let whole = serde_json::to_vec(&run(&c, &cancel).unwrap()).unwrap();
            let mut streamed = Vec::new();
            write_json(&c, &cancel, &mut streamed).unwrap();
            assert!(streamed == whole, "{max} threads {threads}");
            assert!(whole.len() > 4 * STREAM_INLINE_BYTES as usize);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `maxResultBytes` stops the scan where the next match would pass it:
    /// the results' JSON stays under it, the cut file is marked, the
    /// aggregate says what stopped it, the same place whatever the thread
    /// count; without the option the payload has no new key.
    #[test]
    fn the_result_budget_cuts_the_same_prefix_whatever_the_thread_count() {
        let dir = std::env::temp_dir().join(format!("sfq-budget-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let line = "ab ".repeat(300);
        for i in 0..30 {
            let body = (0..=i % 5).map(|_| format!("{line}\n")).collect::<String>();
            std::fs::write(dir.join(format!("f{i:02}.txt")), body).unwrap();
        }
        let root = std::fs::canonicalize(&dir).unwrap();
        let mut first: Option<Vec<u8>> = None;
        for threads in [1, 2, 3, 5] {
            let c = config(
                &root,
                &format!(r#","maxMatches":1000000,"maxResultBytes":200000,"threads":{threads}"#),
            );
            let payload = run(&c, &Cancel::default()).unwrap();
            assert!(payload.aggregate.truncated);
            assert_eq!(payload.aggregate.truncated_by, Some("maxResultBytes"));
            assert!(payload.results.last().unwrap().truncated);
            let results = serde_json::to_vec(&payload.results).unwrap();
            assert!(results.len() <= 200_000, "{}", results.len());
            assert!(results.len() > 150_000, "{}", results.len());
            let bytes = serde_json::to_vec(&payload).unwrap();
            let text = String::from_utf8(bytes.clone()).unwrap();
            assert!(text.contains(r#""maxResultBytes":200000"#));
            assert!(text.contains(r#""truncatedBy":"maxResultBytes""#));
            // Both encodings agree.
            let Encoded::Json(json_bytes) =
                run_encoded(&c, &Cancel::default(), Format::Json).unwrap()
            else {
                panic!("json")
            };
            assert!(json_bytes == bytes, "threads {threads}");
            match &first {
                None => first = Some(bytes),
                Some(f) => assert!(*f == bytes, "threads {threads}"),
            }
        }
        // A budget too small for the first match: nothing returned, said so.
        let c = config(&root, r#","maxMatches":1000000,"maxResultBytes":1024,"contextLines":3"#);
        let payload = run(&c, &Cancel::default()).unwrap();
        assert!(payload.results.is_empty());
        assert_eq!(payload.aggregate.truncated_by, Some("maxResultBytes"));
        // The default budget is far away: the seed's keys only.
        let c = config(&root, r#","maxMatches":10"#);
        let text = serde_json::to_string(&run(&c, &Cancel::default()).unwrap()).unwrap();
        assert!(!text.contains("maxResultBytes") && !text.contains("truncatedBy"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The payload serialised file by file in the workers (both formats)
    /// equals the typed payload serialised whole, with a file cut at
    /// `maxMatches`, lone surrogates (`\uD83D` matches half of a pair),
    /// skipped files, and any thread count.
    #[test]
    fn encoded_payload_equals_the_typed_payload() {
        let dir = std::env::temp_dir().join(format!("sfq-encoded-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for i in 0..40 {
            let body =
                (0..=i % 7).map(|k| format!("ab{k} x\nq\naa \u{1F600}\n")).collect::<String>();
            std::fs::write(dir.join(format!("f{i:02}.txt")), body).unwrap();
        }
        std::fs::write(dir.join("bin.dat"), b"a\0b").unwrap();
        // Long lines, for maxLineLength.
        let long = format!("{}ab{}\nq{}\n", "x".repeat(50), "y".repeat(50), "z".repeat(40));
        std::fs::write(dir.join("long.txt"), long).unwrap();
        // Read with `encoding: utf16le`: lines made from UTF-16 (a lone surrogate included).
        let units: Vec<u16> = "ab1\nq\r\naa D x\nlong line a long line a long line\nlong line b long line b long line\n"
            .encode_utf16()
            .map(|u| if u == 0x44 { 0xD83D } else { u })
            .collect();
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(units.iter().flat_map(|u| u.to_le_bytes()));
        std::fs::write(dir.join("w16.txt"), bytes).unwrap();
        let root = std::fs::canonicalize(&dir).unwrap();
        for extra in [
            r#","maxMatches":100"#,
            r#","maxMatches":4"#,
            r#","maxMatches":1000,"contextLines":0"#,
            r#","maxMatches":1000,"maxLineLength":6"#,
            r#","glob":"**/node_modules/**""#,
        ] {
            for threads in [1, 2, 3] {
                let c = config(&root, &format!(r#"{extra},"threads":{threads}"#));
                let cancel = Cancel::default();
                let typed = run(&c, &cancel).unwrap();
                let Encoded::Json(bytes) = run_encoded(&c, &cancel, Format::Json).unwrap() else {
                    panic!("json")
                };
                assert_eq!(
                    String::from_utf8(bytes.clone()).unwrap(),
                    serde_json::to_string(&typed).unwrap(),
                    "{extra} threads {threads}"
                );
                assert_eq!(typed.hint.is_some(), extra.contains("node_modules"), "{extra}");
                // Written file by file as they are merged: the same bytes.
                let mut streamed = Vec::new();
                let summary = write_json(&c, &cancel, &mut streamed).unwrap();
                assert_eq!(streamed, bytes, "streamed, {extra} threads {threads}");
                // The summary is the payload without `results`.
                let text = String::from_utf8(bytes).unwrap();
                let head = text.find(",\"results\":[").unwrap();
                let tail = text.rfind("],\"skipped\":").unwrap() + 1;
                let expected = format!("{}{}", &text[..head], &text[tail..]);
                assert_eq!(String::from_utf8(summary).unwrap(), expected);
                let Encoded::Compact(compact) = run_encoded(&c, &cancel, Format::Compact).unwrap()
                else {
                    panic!("compact")
                };
                // Serialised whole, strings are shared across files; the
                // decoded values are the same.
                let whole = to_json_value(&to_compact(&typed).unwrap());
                assert_eq!(to_json_value(&compact), whole, "{extra} threads {threads}");
            }
        }
        let c = config(&root, r#","maxMatches":4"#);
        let typed = run(&c, &Cancel::default()).unwrap();
        assert!(typed.aggregate.truncated);
        assert_eq!(typed.aggregate.total_matches, 4);
        assert!(typed.results.last().unwrap().truncated);
        assert!(serde_json::to_string(&typed).unwrap().contains(r#""match":"\ud83d""#));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file another process holds open without sharing (Windows) is
    /// skipped as Node names that error there: `EBUSY` (Win32's error 32
    /// once read as errno 32, `EPIPE`).
    #[cfg(windows)]
    #[test]
    fn a_locked_file_is_skipped_as_ebusy() {
        use std::os::windows::fs::OpenOptionsExt;
        let dir = std::env::temp_dir().join(format!("sfq-locked-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.txt"), "abc\n").unwrap();
        std::fs::write(dir.join("b.txt"), "abc\n").unwrap();
        let lock = std::fs::OpenOptions::new().read(true).share_mode(0).open(dir.join("b.txt"));
        let lock = lock.unwrap();
        let root = std::fs::canonicalize(&dir).unwrap();
        let cancel = Cancel::default();
        let Encoded::Json(bytes) = run_encoded(&config(&root, ""), &cancel, Format::Json).unwrap()
        else {
            panic!("json")
        };
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains(r#"{"path":"b.txt","reason":"readError","code":"EBUSY"}"#), "{text}");
        assert!(text.contains(r#""totalMatches":1"#), "{text}");
        drop(lock);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A reader gone while the output is written is `EPIPE` wherever the
    /// OS says so (Windows: ERROR_BROKEN_PIPE, which libuv names `EOF`).
    #[test]
    fn a_reader_gone_is_epipe() {
        struct Gone(std::io::Error);
        impl std::io::Write for Gone {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::new(self.0.kind(), "reader gone"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let dir = std::env::temp_dir().join(format!("sfq-gone-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.txt"), "abc\n").unwrap();
        let root = std::fs::canonicalize(&dir).unwrap();
        let broken = if cfg!(windows) { 109 } else { 32 };
        for e in [std::io::Error::from_raw_os_error(broken), std::io::ErrorKind::BrokenPipe.into()]
        {
            let err = write_json(&config(&root, ""), &Cancel::default(), &mut Gone(e)).unwrap_err();
            assert_eq!(err.code().as_str(), "EPIPE");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
