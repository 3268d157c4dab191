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
use crate::options::{Kind, OptSpec, RawOptions, opt};
use crate::paths::{resolve_inside, resolve_root};
use crate::pattern::{Boundary, Case, PatternSpec, Syntax};
use crate::search::{self, FileText, Hit, Mode, SkipReason};
use crate::text::Encoding;

/// seed 001's default exclusions (no option turns them off), on top of
/// `.gitignore`.
pub const EXCLUDES: &[&str] = &[
    ".git",
    "target",
    "node_modules",
    "vendor",
    "dist",
    "build",
    "coverage",
    "generated",
    "scratch",
    "tmp",
    "*.log",
    "*.jsonl",
    "*.xml",
    "*.min.js",
    "*.map",
];

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

/// How a query is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryMode {
    /// A fixed string, matched anywhere.
    Fixed,
    /// A fixed string with no ASCII identifier character (`[A-Za-z0-9_]`)
    /// on either side.
    Identifier,
    /// A fixed string with no word character (Unicode, as `rg -w`) on
    /// either side.
    Word,
    /// A JavaScript regex.
    Regex,
}

impl QueryMode {
    /// What narrows a query in this mode, for refusals and warnings (the
    /// boundary modes already match whole names: a longer term helps, not
    /// `--identifier` or `--word` again).
    pub fn narrowing(self) -> &'static str {
        match self {
            QueryMode::Fixed => "a longer term, --identifier or --word",
            QueryMode::Identifier | QueryMode::Word => "a longer, more specific term",
            QueryMode::Regex => "a more specific pattern",
        }
    }
}

impl QueryMode {
    /// The mode named `name` (`fixed`, `identifier`, `word`, `regex`).
    pub fn parse(api: &str, name: Option<String>) -> Result<QueryMode> {
        match name.as_deref() {
            None | Some("fixed") => Ok(QueryMode::Fixed),
            Some("identifier") => Ok(QueryMode::Identifier),
            Some("word") => Ok(QueryMode::Word),
            Some("regex") => Ok(QueryMode::Regex),
            Some(other) => Err(Error::invalid_option(format!(
                "{api}: option 'mode' must be 'fixed', 'identifier', 'word' or 'regex', got {other:?}"
            ))),
        }
    }

    /// The mode's name as the reports print it.
    pub fn name(self) -> &'static str {
        match self {
            QueryMode::Fixed => "fixed",
            QueryMode::Identifier => "identifier",
            QueryMode::Word => "word",
            QueryMode::Regex => "regex",
        }
    }

    /// Compiles `query` in this mode (case-sensitive, as `rg` by default).
    /// Empty queries, and in `regex` mode an unescaped `|` when `no_or`,
    /// are refused.
    pub fn compile(self, api: &str, key: &str, query: &str, no_or: bool) -> Result<Matcher> {
        if query.is_empty() {
            return Err(Error::invalid_option(format!(
                "{api}: option '{key}' is empty; give the text to search for"
            )));
        }
        if self == QueryMode::Regex && no_or && has_unescaped_bar(query) {
            return Err(Error::invalid_option(format!(
                "{api}: option '{key}' has an unescaped '|': {api} takes one pattern, not \
                 alternatives; compare terms with survey, or escape it as \\|"
            )));
        }
        let syntax = if self == QueryMode::Regex { Syntax::Regex } else { Syntax::Literal };
        let mut spec = PatternSpec::new(query.encode_utf16().collect(), syntax, Case::Sensitive);
        spec.boundary = match self {
            QueryMode::Identifier => Boundary::Identifier,
            QueryMode::Word => Boundary::Word,
            QueryMode::Fixed | QueryMode::Regex => Boundary::None,
        };
        spec.compile(api, key)
    }
}

/// Whether a regex source holds a `|` outside a character class that no
/// backslash escapes (an alternation).
fn has_unescaped_bar(source: &str) -> bool {
    let mut chars = source.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => drop(chars.next()),
            '[' => in_class = true,
            ']' => in_class = false,
            '|' if !in_class => return true,
            _ => {}
        }
    }
    false
}

/// The warning for short fixed-string terms (none in other modes).
fn short_term_warning(mode: QueryMode, terms: &[&str]) -> Option<String> {
    if mode != QueryMode::Fixed {
        return None;
    }
    let short: Vec<String> = terms
        .iter()
        .filter(|t| t.chars().count() <= SHORT_TERM)
        .map(|t| report::quote_always(t))
        .collect();
    if short.is_empty() {
        return None;
    }
    let (what, verb) = if short.len() == 1 { ("term", "matches") } else { ("terms", "match") };
    Some(format!(
        "short {what} {} {verb} inside longer words; use --identifier or --word",
        short.join(", ")
    ))
}

/// The options every command takes.
macro_rules! explore_options {
    () => {
        [
            opt("mode", Kind::Str, "'fixed' (default), 'identifier', 'word' or 'regex'"),
            // Bounds are checked per command (they depend on its budget).
            opt("maxLines", Kind::Int(1, u64::MAX), "lower the output's line budget"),
            opt("maxBytes", Kind::Int(1, u64::MAX), "lower the output's byte budget"),
            opt("cwd", Kind::Str, "the root; paths are relative to it (default: process.cwd())"),
            opt(
                "timeoutMs",
                Kind::Int(1, (1 << 31) - 1),
                "reject with ETIMEOUT after this many milliseconds",
            ),
            opt("threads", Kind::Int(1, 256), "worker threads (output is the same for any value)"),
        ]
    };
}

/// The option of the commands that walk folders (not `show`, which reads
/// one file).
const RECURSE_SUBMODULES: OptSpec = opt(
    "recurseSubmodules",
    Kind::Bool,
    "search initialised git submodules too, as git ls-files --recurse-submodules (default: false)",
);

/// `survey`'s options.
pub const SURVEY_OPTIONS: &[OptSpec] = &{
    let c = explore_options!();
    [
        opt("terms", Kind::List, "fixed terms to compare (1 to 12)"),
        opt("paths", Kind::List, "paths to compare (up to 8; default: the whole root)"),
        RECURSE_SUBMODULES,
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
    ]
};

/// `scout`'s and `sample`'s options.
pub const SCOUT_OPTIONS: &[OptSpec] = &{
    let c = explore_options!();
    [
        opt("query", Kind::Str, "the text (or regex, in mode 'regex') to search for"),
        opt("paths", Kind::List, "files or folders to search (default: the whole root)"),
        RECURSE_SUBMODULES,
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
    ]
};

/// `show`'s options.
pub const SHOW_OPTIONS: &[OptSpec] = &{
    let c = explore_options!();
    [
        opt("query", Kind::Str, "the text (or regex, in mode 'regex') to search for"),
        opt("file", Kind::Str, "the one file to show snippets of"),
        opt("context", Kind::Int(0, show::MAX_CONTEXT as u64), "lines of context (default 2)"),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
    ]
};

/// Where a command searches: the root and the given paths.
pub struct Scope {
    /// The root (the cwd).
    pub root: PathBuf,
    /// The paths as given, resolved: root-relative (`.` for the root), with
    /// whether each is a folder.
    pub paths: Vec<(String, bool)>,
    /// Whether the caller named paths (else the whole root, `.`).
    pub explicit: bool,
    /// Worker threads.
    pub threads: usize,
    /// Whether initialised git submodules are searched too.
    pub recurse_submodules: bool,
    /// Where listings and contents come from.
    pub source: crate::engine::Source,
}

impl Scope {
    /// Resolves `paths` (relative to the root, inside it, existing).
    pub fn new(raw: &RawOptions, paths: Vec<String>, max_paths: Option<usize>) -> Result<Scope> {
        let root = resolve_root(raw.string("cwd")?.as_deref())?;
        let api = raw.api();
        if let Some(max) = max_paths
            && paths.len() > max
        {
            return Err(Error::invalid_option(format!(
                "{api}: option 'paths' has {} paths; give at most {max}",
                paths.len()
            )));
        }
        let explicit = !paths.is_empty();
        let mut resolved: Vec<(String, bool)> = Vec::new();
        for p in &paths {
            let (abs, rel) = resolve_inside(&root, p)?;
            let is_dir = std::fs::metadata(&abs).map_err(|e| Error::io(&e, "stat", &abs))?.is_dir();
            let rel = if rel.is_empty() { ".".to_string() } else { rel };
            if resolved.iter().any(|(r, _)| *r == rel) {
                return Err(Error::invalid_option(format!(
                    "{api}: option 'paths' names {rel:?} twice; give each path once"
                )));
            }
            resolved.push((rel, is_dir));
        }
        if resolved.is_empty() {
            resolved.push((".".to_string(), true));
        }
        Ok(Scope {
            root,
            paths: resolved,
            explicit,
            threads: raw.threads()?,
            recurse_submodules: raw.bool("recurseSubmodules")?.unwrap_or(false),
            source: raw.source().clone(),
        })
    }

    /// The candidate files under every path (each file once, in path
    /// order), and how many directories could not be read.
    pub fn candidates(&self, cancel: &Cancel) -> Result<(Candidates, u64)> {
        // Ordinary folders (no hidden or excluded name on their path) share
        // one walk from the root, restricted to them; the others (and any
        // folder that walk found empty: one `.gitignore` drops, say) get a
        // walk of their own, as `rg` searches a path it is given.
        let excludes = Excludes::from_entries(EXCLUDES);
        let set = excludes.exclude_set("paths")?;
        let ordinary = |rel: &str| {
            rel != "."
                && !rel.split('/').any(|c| c.starts_with('.'))
                && !excludes.excludes(rel, set.as_ref())
        };
        let shared: Vec<&str> = self
            .paths
            .iter()
            .filter(|(rel, is_dir)| *is_dir && ordinary(rel))
            .map(|(rel, _)| rel.as_str())
            .collect();
        let mut listings: Vec<Result<(Candidates, u64)>> = Vec::new();
        let mut alone: Vec<&(String, bool)> =
            self.paths.iter().filter(|(rel, is_dir)| !(*is_dir && ordinary(rel))).collect();
        if shared.len() > 1 {
            let (files, bad) = self.walk(&self.root, "", Some(&shared), cancel)?;
            for p in &shared {
                if !files.iter().any(|f| under(p, f.rel())) {
                    alone.extend(self.paths.iter().find(|(rel, _)| rel == p));
                }
            }
            listings.push(Ok((files, bad)));
        } else {
            alone.extend(self.paths.iter().filter(|(rel, _)| shared.contains(&rel.as_str())));
        }
        // Several walks run at once (each has its own waits on the file system).
        listings.extend(std::thread::scope(|s| {
            let handles: Vec<_> = alone
                .iter()
                .map(|(rel, is_dir)| {
                    s.spawn(move || {
                        let abs = if rel == "." { self.root.clone() } else { self.root.join(rel) };
                        if *is_dir {
                            let prefix = if rel == "." { String::new() } else { format!("{rel}/") };
                            self.walk(&abs, &prefix, None, cancel)
                        } else {
                            let file = Candidate::named(rel.clone(), abs, false);
                            Ok((Candidates::owned(vec![file]), 0))
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(Error::new(crate::error::ErrorCode::Internal, "a walk panicked"))
                    })
                })
                .collect::<Vec<_>>()
        }));
        if listings.len() == 1 && self.paths.len() == 1 {
            // One walk: its candidates as they are (a session's shared list).
            return listings.pop().unwrap_or_else(|| Ok((Candidates::default(), 0)));
        }
        let mut all: Vec<Candidate> = Vec::new();
        let mut unreadable = 0u64;
        for listing in listings {
            let (files, bad) = listing?;
            all.extend(files.into_vec());
            unreadable += bad;
        }
        if self.paths.len() > 1 {
            all.sort_by(|a, b| a.rel().encode_utf16().cmp(b.rel().encode_utf16()));
            all.dedup_by(|a, b| a.rel() == b.rel());
        }
        Ok((Candidates::owned(all), unreadable))
    }

    /// The files under `abs` (whose root-relative path is `prefix`): seed
    /// 001's exclusions, `.gitignore`, hidden entries left out (as `rg`);
    /// with `within`, only those under one of these root-relative folders.
    /// The exclusions are names, checked below `abs` as `rg` checks its
    /// globs, so a folder named explicitly is searched even when an
    /// exclusion names it (`node_modules/react`), and nested names still
    /// are left out.
    fn walk(
        &self,
        abs: &Path,
        prefix: &str,
        within: Option<&[&str]>,
        cancel: &Cancel,
    ) -> Result<(Candidates, u64)> {
        let excludes = Excludes::from_entries(EXCLUDES);
        let mut filter = excludes.filter(None, "paths")?;
        if let Some(paths) = within {
            let paths = paths.iter().map(|p| p.to_string()).collect();
            filter = std::sync::Arc::new(Within { inner: filter, paths });
        }
        let profile = DiscoveryProfile {
            prune_names: excludes.prune_names(),
            filter: Some(filter),
            dirs: false,
            hidden: false,
            ignore_files: true,
            // No lstat per file: the reader takes the size from the opened file.
            metadata: false,
            // A candidate makes its absolute path when it is opened.
            abs_paths: false,
            threads: self.threads,
            recurse_submodules: self.recurse_submodules,
            source: self.source.clone(),
        };
        let (mut files, unreadable) = discovery::candidates(abs, &profile, cancel)?;
        files.prefix(prefix);
        Ok((files, unreadable.len() as u64))
    }

    /// The paths as the reports print them.
    pub fn path_names(&self) -> Vec<String> {
        self.paths.iter().map(|(p, _)| p.clone()).collect()
    }
}

/// A walk from the root restricted to some folders (and the folders
/// leading to them).
struct Within {
    inner: std::sync::Arc<dyn sfq_walk::discovery::PathFilter>,
    paths: Vec<String>,
}

impl sfq_walk::discovery::PathFilter for Within {
    fn skip_dir(&self, path: &str) -> bool {
        let leads = self.paths.iter().any(|p| under(path, p));
        let inside = self.paths.iter().any(|p| under(p, path));
        !(leads || inside) || (inside && self.inner.skip_dir(path))
    }
    fn keep_file(&self, path: &str) -> bool {
        self.paths.iter().any(|p| under(p, path)) && self.inner.keep_file(path)
    }
    fn key(&self) -> Option<String> {
        Some(format!("within {:?} {}", self.paths, self.inner.key()?))
    }
}

/// The reader every command uses.
pub fn reader(raw: &RawOptions) -> Reader {
    Reader::new(MAX_FILE_BYTES, Encoding::Utf8, raw.source().clone())
}

/// The first hit of each matching line of `text` (at most `limit` lines;
/// the flag says whether more were left).
pub fn line_hits(
    text: &FileText,
    matcher: &Matcher,
    limit: u64,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> std::result::Result<(Vec<Hit>, bool), BudgetExceeded> {
    let mut hits: Vec<Hit> = Vec::new();
    let mut more = false;
    search::find(text, matcher, Mode::Lines, cancelled, &mut |hit| {
        if hits.last().is_some_and(|h| h.line == hit.line) {
            return true;
        }
        if hits.len() as u64 >= limit {
            more = true;
            return false;
        }
        hits.push(hit);
        true
    })?;
    Ok((hits, more))
}

/// How many lines of `text` match (stopping past `limit`).
pub fn count_lines(
    text: &FileText,
    matcher: &Matcher,
    limit: u64,
    cancelled: &(dyn Fn() -> bool + Sync),
) -> std::result::Result<u64, BudgetExceeded> {
    let mut count = 0u64;
    let mut last = usize::MAX;
    search::find(text, matcher, Mode::Lines, cancelled, &mut |hit| {
        if hit.line != last {
            last = hit.line;
            count += 1;
        }
        count <= limit
    })?;
    Ok(count)
}

/// A line of a snippet.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ShownLine {
    /// 1-based line number.
    pub line: usize,
    /// The text (a window of it when it is long, with `…` at the cuts).
    pub text: String,
    /// Whether the line matches.
    #[serde(rename = "match")]
    pub is_match: bool,
}

impl ShownLine {
    /// The line as printed: `  40: text` for a match, `  39- text` for context.
    pub fn printed(&self) -> String {
        format!("  {}{} {}", self.line, if self.is_match { ':' } else { '-' }, self.text)
    }
}

/// The lines of a file, by number, for snippets.
pub struct LineTable<'a> {
    text: &'a FileText,
    spans: Vec<(usize, usize)>,
}

impl<'a> LineTable<'a> {
    /// The line spans of `text` (lines end at `\n`; a `\r` before it is not
    /// part of the line), as the search numbers them.
    pub fn new(text: &'a FileText) -> LineTable<'a> {
        let spans = match text {
            FileText::Utf8(s) => {
                let b = s.as_bytes();
                let mut spans = Vec::new();
                let mut start = 0;
                for i in memchr::memchr_iter(b'\n', b) {
                    let end = if i > start && b[i - 1] == b'\r' { i - 1 } else { i };
                    spans.push((start, end));
                    start = i + 1;
                }
                if start < b.len() {
                    spans.push((start, b.len()));
                }
                spans
            }
            FileText::Utf16 { lines, .. } => lines.spans().to_vec(),
        };
        LineTable { text, spans }
    }

    /// How many lines the file has.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Line `i` (0-based).
    pub fn get(&self, i: usize) -> String {
        let Some(&(a, b)) = self.spans.get(i) else { return String::new() };
        match self.text {
            FileText::Utf8(s) => s[a..b].to_string(),
            FileText::Utf16 { units, .. } => String::from_utf16_lossy(&units[a..b]),
        }
    }

    /// Lines `from..=to` (0-based, clamped to the file) around `anchor`:
    /// matching lines (those of `hits`) are windowed around their own match,
    /// the others around where the anchor's window starts.
    pub fn excerpt(
        &self,
        from: usize,
        to: usize,
        hits: &[Hit],
        anchor: &Hit,
        max_chars: usize,
    ) -> Vec<ShownLine> {
        let last = to.min(self.len().saturating_sub(1).max(anchor.line));
        shown_lines(
            self.text,
            (from..=last).map(|i| (i, self.get(i))).collect(),
            hits,
            anchor,
            max_chars,
        )
    }
}

/// `anchor`'s line with `context` lines on each side, found from the hit
/// itself (no line table of the whole file); marked and windowed as
/// [`LineTable::excerpt`].
pub fn excerpt_around(
    text: &FileText,
    hits: &[Hit],
    anchor: &Hit,
    context: usize,
    max_chars: usize,
) -> Vec<ShownLine> {
    let mut spans = Vec::new();
    let (before, own) = text.context_spans(anchor, context, &mut spans);
    spans.insert(before, own);
    let first = anchor.line - before;
    let line = |span| match text.line_str(span) {
        Some(s) => s.to_string(),
        None => text.line_text(span).to_string_lossy(),
    };
    let lines = spans.into_iter().enumerate().map(|(k, span)| (first + k, line(span))).collect();
    shown_lines(text, lines, hits, anchor, max_chars)
}

/// Lines `(index, text)` as shown: matching ones (in `hits`) windowed around
/// their own match, the others around where `anchor`'s window starts.
fn shown_lines(
    text: &FileText,
    lines: Vec<(usize, String)>,
    hits: &[Hit],
    anchor: &Hit,
    max_chars: usize,
) -> Vec<ShownLine> {
    let matched_chars = |hit: &Hit| match &hit.text {
        search::HitText::Range(a, b) => match text {
            FileText::Utf8(s) => s[*a..*b].chars().count(),
            FileText::Utf16 { .. } => 0,
        },
        search::HitText::Js(js) => js.to_string_lossy().chars().count(),
    };
    let window = |hit: &Hit, line: &str| {
        let from = hit.column - 1;
        crate::lines::window(line, from, from + matched_chars(hit), max_chars)
    };
    let start =
        lines.iter().find(|(i, _)| *i == anchor.line).map_or(0, |(_, l)| window(anchor, l).2);
    lines
        .into_iter()
        .map(|(i, l)| match hits.binary_search_by_key(&i, |h| h.line) {
            Ok(k) => ShownLine { line: i + 1, text: window(&hits[k], &l).0, is_match: true },
            Err(_) => ShownLine {
                line: i + 1,
                text: crate::lines::window_at(&l, start, max_chars).0,
                is_match: false,
            },
        })
        .collect()
}

/// The merge of the single-query commands (scout, sample): each matched
/// file's result in path order, counts, until the scan limit.
pub(super) struct Merged<T> {
    /// Matched files with their results, in path order.
    pub files: Vec<(String, T)>,
    /// Matching lines.
    pub matches: u64,
    /// Files searched.
    pub files_searched: u64,
    /// Whether the scan limit stopped the scan.
    pub at_least: bool,
    /// Files not searched.
    pub skipped: Skipped,
    /// A file result's matching lines.
    count: fn(&T) -> u64,
}

impl<T> Merged<T> {
    /// An empty merge; `unreadable` directories were met by the walk.
    pub fn new(unreadable: u64, count: fn(&T) -> u64) -> Merged<T> {
        Merged {
            files: Vec::new(),
            matches: 0,
            files_searched: 0,
            at_least: false,
            skipped: Skipped { unreadable, ..Skipped::default() },
            count,
        }
    }
}

impl<T> crate::engine::Collector<T> for Merged<T> {
    fn collect(
        &mut self,
        cand: &Candidate,
        outcome: crate::engine::Outcome<T>,
    ) -> Result<crate::engine::Flow> {
        use crate::engine::{Flow, Outcome};
        match outcome {
            Outcome::Skipped(reason) => self.skipped.add(&reason),
            Outcome::NoMatch => self.files_searched += 1,
            Outcome::Matched(result) => {
                self.files_searched += 1;
                self.matches += (self.count)(&result);
                self.files.push((cand.rel().to_string(), result));
                if self.matches >= SCAN_LIMIT {
                    self.at_least = true;
                    return Ok(Flow::Stop);
                }
            }
        }
        Ok(Flow::Continue)
    }

    fn unreadable(&mut self, _dir: discovery::Unreadable) {
        self.skipped.unreadable += 1;
    }

    fn matches(&self) -> u64 {
        self.matches
    }
}

/// Files the commands could not search, by reason.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Skipped {
    /// Binary files.
    pub binary: u64,
    /// Files over 256 MB.
    pub too_large: u64,
    /// Files or directories that could not be read.
    pub unreadable: u64,
    /// Files where the regex engine's work budget ran out.
    pub budget: u64,
}

impl Skipped {
    /// Counts one skipped file.
    pub fn add(&mut self, reason: &SkipReason) {
        match reason {
            SkipReason::Binary => self.binary += 1,
            SkipReason::MaxFileSizeExceeded(_) => self.too_large += 1,
            SkipReason::ReadError(_) => self.unreadable += 1,
            SkipReason::RegexBudgetExceeded => self.budget += 1,
        }
    }

    /// A warning when files that might hold matches were not searched
    /// (binary files are not: `rg` leaves them out too).
    pub fn warning(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.too_large > 0 {
            parts.push(format!("{} over 256 MB", self.too_large));
        }
        if self.unreadable > 0 {
            parts.push(format!("{} unreadable", self.unreadable));
        }
        if self.budget > 0 {
            parts.push(format!("{} where the regex ran too long", self.budget));
        }
        if parts.is_empty() { None } else { Some(format!("not searched: {}", parts.join(", "))) }
    }
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
