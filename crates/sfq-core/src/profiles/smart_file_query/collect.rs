//! smartFileQuery's scan: each candidate searched on the worker pool for
//! at most the matches still usable, merged in path order up to
//! `maxMatches` and `maxResultBytes`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::{Aggregate, SfqConfig, Skipped};
use crate::cancel::Cancel;
use crate::discovery::{self, Candidate, DiscoveryProfile, Unreadable};
use crate::engine::{self, Collector, Flow, Outcome};
use crate::error::Result;
use crate::file_view::FileView;
use crate::scan;
use crate::search::{self, FileText, Hit, Mode, SkipReason};

/// A matched file as the workers hand it to the merge.
pub(super) struct Found<F> {
    /// Matches found (at most the search's limit).
    pub(super) count: usize,
    /// What they take as JSON ([`FileView::result_bytes`]).
    pub(super) bytes: u64,
    /// The file with all of them, typed or serialised; `None` when they
    /// passed the worker's allowance (the merge then cuts the file).
    pub(super) file: Option<Result<F>>,
}

/// How a matched file is encoded for the merge (typed, or serialised).
pub(super) type Encode<'a, F> = &'a (dyn Fn(&FileView) -> Result<F> + Sync);

/// Searches one candidate, as `read` gave it, for at most `limit` matches,
/// and hands the view of them to `f` (`truncated`: the file is cut there).
pub(super) fn with_view<R>(
    config: &SfqConfig,
    cand: &Candidate,
    read: engine::Read<'_>,
    cancel: &Cancel,
    limit: usize,
    truncated: bool,
    f: impl FnOnce(FileView<'_>) -> R,
) -> Outcome<R> {
    let (text, size) = match read {
        Ok(Some(t)) => t,
        Ok(None) => return Outcome::NoMatch,
        Err(reason) => return Outcome::Skipped(reason),
    };
    let mode = if config.multiline { Mode::Whole } else { Mode::Lines };
    let text = match (&*text, mode) {
        (FileText::Utf8(s), Mode::Whole) if config.matcher.whole_needs_exact(s) => {
            engine::Text::Shared(std::sync::Arc::new(FileText::clone(&text).into_utf16()))
        }
        _ => text,
    };
    let mut hits = HITS.take();
    let cancelled = || cancel.is_cancelled();
    let outcome = search::find(&text, &config.matcher, mode, &cancelled, &mut |hit| {
        hits.push(hit);
        hits.len() < limit
    });
    let out = if outcome.is_err() {
        Outcome::Skipped(SkipReason::RegexBudgetExceeded)
    } else if hits.is_empty() {
        Outcome::NoMatch
    } else {
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
    };
    hits.clear();
    if hits.capacity() <= HITS_KEPT {
        HITS.set(hits);
    }
    out
}

thread_local! {
    /// A thread's list of one file's matches, kept from file to file (grown
    /// one push at a time, it was a few reallocations a file).
    static HITS: std::cell::Cell<Vec<Hit>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The longest list of matches a thread keeps for its next file.
const HITS_KEPT: usize = 4096;

/// The error when a file searched again (for a cut, or to stream it) no
/// longer gives the matches its first search found.
pub(super) fn changed(cand: &Candidate) -> crate::error::Error {
    crate::error::Error::new(
        crate::error::ErrorCode::Internal,
        format!("{}: the file changed while it was searched", cand.rel()),
    )
}

/// Searches one candidate for at most `limit` matches; a matched file goes
/// through `encode` when its result takes at most `allowance` bytes.
pub(super) fn search_one<F>(
    config: &SfqConfig,
    cand: &Candidate,
    read: engine::Read<'_>,
    cancel: &Cancel,
    limit: usize,
    allowance: u64,
    encode: Encode<'_, F>,
) -> Outcome<Found<F>> {
    with_view(config, cand, read, cancel, limit, false, |view| {
        let bytes = view.result_bytes();
        Found {
            count: view.match_count(),
            bytes,
            file: (bytes <= allowance).then(|| encode(&view)),
        }
    })
}

/// The scan's result after its files went to the printer.
pub(super) struct Scanned {
    pub(super) skipped: Vec<Skipped>,
    pub(super) aggregate: Aggregate,
    /// What the results take as JSON ([`FileView::result_bytes`]).
    pub(super) bytes: u64,
}

/// Where merged files go, as each is merged (with its candidate): the printer.
pub(super) type Emit<'e, F> = &'e mut dyn FnMut(&Candidate, F) -> Result<()>;

/// seed 000's merge: counts, keeps files in path order and stops at
/// `maxMatches` or `maxResultBytes`. The one file that crosses either is
/// searched again on this thread for exactly the matches that remain (a
/// file's first N matches are the same whatever the limit).
pub(super) struct MaxMatches<'a, 'e, F> {
    config: &'a SfqConfig,
    cancel: &'a Cancel,
    encode: Encode<'a, F>,
    /// `maxResultBytes` (unbounded for the streamed output).
    budget: u64,
    out: Scanned,
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
                let read = self.config.reader().read_unless(cand, &self.config.matcher);
                let cut =
                    with_view(self.config, cand, read, self.cancel, limit, cut_at_max, |view| {
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
                    _ => return Err(changed(cand)),
                }
            }
        };
        let agg = &mut self.out.aggregate;
        agg.total_matches += count as u64;
        agg.files_matched += 1;
        self.out.bytes += bytes;
        (self.emit)(cand, file)?;
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
/// files go to `emit` (the printer), and with `pace`
/// the workers keep few matches ahead of the merge (the output is being
/// written as merged, and memory should hold little more than it).
pub(super) fn scan_files<F: Send>(
    config: &SfqConfig,
    cancel: &Cancel,
    budget: u64,
    encode: impl Fn(&FileView) -> Result<F> + Sync,
    emit: Emit<'_, F>,
    pace: bool,
) -> Result<Scanned> {
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
        out: Scanned { skipped: Vec::new(), aggregate: Aggregate::default(), bytes: 0 },
        ahead: &ahead,
        index: &index,
        emit,
    };
    // What a session holds of the candidates, looked up once.
    let held = config.reader().resolve(&candidates, &config.matcher, config.threads);
    let work = |i: usize, c: &Candidate| {
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
        let read = config.reader().read_held(held.as_ref(), i, c, &config.matcher);
        let outcome = search_one(config, c, read, cancel, limit, allowance, &encode);
        ahead.found(i, if let Outcome::Matched(f) = &outcome { f.count as u64 } else { 0 });
        outcome
    };
    let weigh = |f: &Found<F>| f.count;
    // Files a session's index rules out are "no match" unsearched.
    engine::run_masked(
        &candidates,
        held.as_ref(),
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
pub(super) const PACE: u64 = 20_000;
/// Matches after which a worker of a streamed scan hands its results over.
pub(super) const STREAM_FLUSH: usize = 1_000;

/// What the workers know of the matches before a file, while they run
/// ahead of the merge: each finished file's count, and the merge's frontier.
/// Every file asks (for its match limit, and when paced, whether to wait):
/// running totals answer at once while the matches found anywhere stay
/// under the cap, and the exact sum over the files between the frontier and
/// it is taken only past that.
pub(super) struct Ahead {
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
