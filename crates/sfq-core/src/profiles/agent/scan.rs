//! The line scan the three profiles share: discovery, the index, the
//! per-line search, the merge (`LinesCollector`) and the hint's look at
//! what was left out.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::search::FileText;

use super::*;

/// A validated line-search profile: everything but the result's shape.
pub(super) struct LineScan {
    pub(super) root: PathBuf,
    pub(super) base: Base,
    pub(super) excludes: Excludes,
    pub(super) include: Option<GlobSet>,
    pub(super) matcher: Matcher,
    pub(super) reader: Reader,
    pub(super) context_lines: usize,
    pub(super) max_line_length: usize,
    /// `maxResultBytes`.
    pub(super) max_result_bytes: u64,
    pub(super) offset: usize,
    pub(super) max_results: usize,
    pub(super) count_all: bool,
    pub(super) threads: usize,
    pub(super) time_budget: Option<Duration>,
    pub(super) with_symbols: bool,
    /// Whether the result can carry a hint (grep's array cannot).
    pub(super) hint: bool,
    /// `hintMs`: the hint's time, when the caller set it.
    pub(super) hint_time: Option<Duration>,
    /// `recurseSubmodules`.
    pub(super) recurse_submodules: bool,
}

/// What a line search found, before a profile shapes it.
pub(super) struct Found {
    /// Kept entries with their root-relative paths, in path then line order.
    pub(super) entries: Vec<(Arc<str>, LineEntry)>,
    pub(super) total: u64,
    pub(super) files_with_matches: u64,
    pub(super) files_searched: u64,
    pub(super) skipped: SkipCounts,
    /// `Some(reason)` when the scan stopped before the end.
    pub(super) incomplete: Option<&'static str>,
    /// Whether `maxResultBytes` left matching lines out.
    pub(super) cut_by_bytes: bool,
    /// When nothing matched, what the left-out files hold.
    pub(super) hint: Option<String>,
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
    /// Set once the page is full: the files still being searched (all after
    /// the last one merged, as files are merged in order) are only counted,
    /// their lines not built.
    page_full: Arc<AtomicBool>,
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
                if self.seen >= page_end || f.cut_by_bytes {
                    self.page_full.store(true, Ordering::Relaxed);
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
    pub(super) fn run(&self, cancel: &Cancel, started: Instant) -> Result<Found> {
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
        let page_full = Arc::new(AtomicBool::new(false));
        let counted = LineQuery { keep: 0, ..query };
        let search = |_: &Candidate, text: &FileText| {
            let q = if page_full.load(Ordering::Relaxed) { &counted } else { &query };
            match search_lines(text, q, &cancelled) {
                Err(_) => Outcome::Skipped(SkipReason::RegexBudgetExceeded),
                Ok(None) => Outcome::NoMatch,
                Ok(Some(lines)) => Outcome::Matched(lines),
            }
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
            page_full: page_full.clone(),
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
                let work = |c: &Candidate| {
                    engine::searched(self.reader.read_unless(c, &self.matcher), |t| search(c, t))
                };
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
                    search,
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
    pub(super) fn label(
        &self,
        entries: &mut [(Arc<str>, LineEntry)],
        cancel: &Cancel,
    ) -> Result<()> {
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
    pub(super) fn list(
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
    pub(super) fn hint(
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

    pub(super) fn truncated(&self, found: &Found) -> bool {
        found.total > (self.offset + found.entries.len()) as u64
    }
}
