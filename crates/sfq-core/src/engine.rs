//! The one search every API runs: candidates from discovery, each read by
//! the one [`Reader`] and searched by the profile's work function on the
//! worker pool, then handed in path order to the profile's [`Collector`].
//!
//! The collector is ripgrep's `Sink` for whole files: it sees exactly what a
//! sequential scan in path order would, and returning [`Flow::Stop`] is how
//! `maxMatches`, `maxResults` and time budgets end a scan early.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use crate::cancel::Cancel;
use crate::discovery::{Candidate, Candidates, Unreadable};
use crate::error::Result;
pub use crate::scan::Flow;
use crate::search::{self, FileText, SkipReason};
use crate::session::Store;
use crate::session::cache::{Look, Resolved};
use crate::text::Encoding;

/// Where a call's listings and file contents come from: the disk, or a
/// session's memory proven fresh by its watch or by stat
/// ([`crate::session::Store`]). Either way they are what a cold walk and a
/// cold read give now.
#[derive(Debug, Clone, Default)]
pub enum Source {
    /// Every folder is walked and every file read from disk (a cold call).
    #[default]
    Disk,
    /// A session's listings and contents.
    Session(Arc<Store>),
}

/// How candidate files are read: the size cap, the decoding and the source.
#[derive(Debug, Clone)]
pub struct Reader {
    /// Files larger than this many bytes are skipped unread.
    pub max_bytes: u64,
    /// How bytes are decoded.
    pub encoding: Encoding,
    /// Where the contents come from.
    pub source: Source,
}

impl Reader {
    /// A reader of `source` with this cap and decoding.
    pub fn new(max_bytes: u64, encoding: Encoding, source: Source) -> Reader {
        Reader { max_bytes, encoding, source }
    }

    /// Reads and decodes a candidate (size cap, binary test, decode); `Err`
    /// says why it is skipped.
    pub fn read(&self, cand: &Candidate) -> std::result::Result<Arc<FileText>, SkipReason> {
        self.read_sized(cand).map(|(text, _)| text)
    }

    /// [`Reader::read`], with the file's size in bytes.
    pub fn read_sized(
        &self,
        cand: &Candidate,
    ) -> std::result::Result<(Arc<FileText>, u64), SkipReason> {
        if let Some(code) = cand.missing_code() {
            return Err(SkipReason::ReadError(code));
        }
        match &self.source {
            Source::Disk => search::load(&cand.abs(), self.max_bytes, self.encoding, cand.regular)
                .map(|(text, size)| (Arc::new(text), size)),
            Source::Session(store) => store.cache.read(cand, self.max_bytes, self.encoding),
        }
    }

    /// What a session holds of each candidate when the call starts: the
    /// texts it can hand out and the files its index proves hold no match
    /// of `matcher`'s pattern, looked up once for the whole list (see
    /// [`crate::session::cache::ContentCache::resolve`]); `None` when
    /// reading from disk.
    pub fn resolve(
        &self,
        candidates: &Candidates,
        matcher: &crate::matcher::Matcher,
        threads: usize,
    ) -> Option<Resolved> {
        match &self.source {
            Source::Session(store) => Some(store.cache.resolve(
                candidates,
                candidates.slots(),
                self.max_bytes,
                self.encoding,
                matcher.needles(),
                threads,
            )),
            Source::Disk => None,
        }
    }

    /// [`Reader::read_unless`], answered from what [`Reader::resolve`]
    /// found for the `i`-th candidate when it can (a text it holds is lent
    /// for as long as `resolved` lives).
    pub fn read_held<'a>(
        &self,
        resolved: Option<&'a Resolved>,
        i: usize,
        cand: &Candidate,
        matcher: &crate::matcher::Matcher,
    ) -> Read<'a> {
        if let Source::Session(store) = &self.source {
            match resolved.and_then(|r| r.get(i)) {
                Some(Look::Pruned) => return Ok(None),
                Some(Look::TooLarge(size)) => {
                    store.cache.note_reused();
                    return Err(SkipReason::MaxFileSizeExceeded(size));
                }
                Some(Look::Text(text, size)) => {
                    store.cache.note_reused();
                    return text.map(|t| Some((Text::Lent(t), size)));
                }
                Some(Look::Unknown) | None => {}
            }
        }
        self.read_unless(cand, matcher)
    }

    /// [`Reader::read_sized`], or `Ok(None)` when a session's index proves
    /// the file holds no match of `matcher`'s pattern (it is then not
    /// searched: its outcome is "no match", as a search would find).
    pub fn read_unless(
        &self,
        cand: &Candidate,
        matcher: &crate::matcher::Matcher,
    ) -> Read<'static> {
        let read = match &self.source {
            Source::Session(store) => {
                if let Some(code) = cand.missing_code() {
                    return Err(SkipReason::ReadError(code));
                }
                store.cache.read_unless(cand, self.max_bytes, self.encoding, matcher.needles())
            }
            Source::Disk => self.read_sized(cand).map(Some),
        };
        read.map(|r| r.map(|(t, size)| (Text::Shared(t), size)))
    }
}

/// A candidate's text and size as read, `Ok(None)` when a session's index
/// proves it holds no match (it is not searched), or why it is skipped.
pub type Read<'a> = std::result::Result<Option<(Text<'a>, u64)>, SkipReason>;

/// A text read: lent by a session for the call ([`Reader::read_held`]),
/// or shared.
#[derive(Debug, Clone)]
pub enum Text<'a> {
    /// Lent for as long as the call's [`Resolved`] lives.
    Lent(&'a FileText),
    /// Read, or held by a session and shared.
    Shared(Arc<FileText>),
}

impl std::ops::Deref for Text<'_> {
    type Target = FileText;

    fn deref(&self) -> &FileText {
        match self {
            Text::Lent(t) => t,
            Text::Shared(t) => t,
        }
    }
}

/// What `search` makes of a text `read`, or why it was not searched.
pub fn searched<F>(read: Read<'_>, search: impl FnOnce(&FileText) -> Outcome<F>) -> Outcome<F> {
    match read {
        Err(reason) => Outcome::Skipped(reason),
        Ok(None) => Outcome::NoMatch,
        Ok(Some((text, _))) => search(&text),
    }
}

/// What the work function made of one candidate.
pub enum Outcome<F> {
    /// Not searched (binary, too large, unreadable, regex budget).
    Skipped(SkipReason),
    /// Searched; nothing matched.
    NoMatch,
    /// Searched, with the profile's per-file result.
    Matched(F),
}

/// The merge stage of a profile: receives each candidate's outcome in path
/// order and says whether to go on.
pub trait Collector<F> {
    /// One candidate's outcome.
    fn collect(&mut self, cand: &Candidate, outcome: Outcome<F>) -> Result<Flow>;
    /// A directory or ignore file that could not be read (after the files).
    fn unreadable(&mut self, _dir: Unreadable) {}
    /// Matches collected so far (for progress reports).
    fn matches(&self) -> u64 {
        0
    }
}

/// [`run`] over a list of candidates already known.
pub fn run_over<F, W, C>(
    candidates: &[Candidate],
    threads: usize,
    cancel: &Cancel,
    work: W,
    collector: &mut C,
) -> Result<()>
where
    F: Send,
    W: Fn(&Candidate) -> Outcome<F> + Sync,
    C: Collector<F>,
{
    let whole = crate::scan::Batching::whole(crate::scan::CHUNK);
    run_over_in(candidates, threads, whole, cancel, work, |_| 0, collector)
}

/// [`run_over`] with candidates handed to the workers and their outcomes
/// to the collector as `batching` says, `weigh` giving the weight of a
/// matched file's result (see [`crate::scan::ordered_in`]).
pub fn run_over_in<F, W, C>(
    candidates: &[Candidate],
    threads: usize,
    batching: crate::scan::Batching,
    cancel: &Cancel,
    work: W,
    weigh: impl Fn(&F) -> usize + Sync,
    collector: &mut C,
) -> Result<()>
where
    F: Send,
    W: Fn(&Candidate) -> Outcome<F> + Sync,
    C: Collector<F>,
{
    run_masked(candidates, None, threads, batching, cancel, |_, c| work(c), weigh, collector)
}

/// [`run_over`] for a search with `matcher` through `reader`, which reads
/// each candidate and hands its text to `work`: the candidates a session's
/// index rules out are "no match" unsearched (see [`run_masked`]), the
/// texts it holds are handed out without a lookup each.
pub fn run_searching<F, W, C>(
    candidates: &Candidates,
    reader: &Reader,
    matcher: &crate::matcher::Matcher,
    threads: usize,
    cancel: &Cancel,
    work: W,
    collector: &mut C,
) -> Result<()>
where
    F: Send,
    W: Fn(&Candidate, &FileText) -> Outcome<F> + Sync,
    C: Collector<F>,
{
    let held = reader.resolve(candidates, matcher, threads);
    let work = |i: usize, c: &Candidate| {
        let read = reader.read_held(held.as_ref(), i, c, matcher);
        searched(read, |text| work(c, text))
    };
    // A session's texts are in memory: a chunk takes the calling thread
    // microseconds, and one thread fewer to wake for every chunk handed
    // over is most of a warm search's overhead on few cores (test262's
    // 57,000 files: 60 -> 35 ms).
    let batching = crate::scan::Batching {
        caller_works: matches!(reader.source, Source::Session(_)),
        ..crate::scan::Batching::whole(crate::scan::CHUNK)
    };
    run_masked(candidates, held.as_ref(), threads, batching, cancel, work, |_| 0, collector)
}

/// How many searched candidates ahead of the one being searched a worker
/// asks for the header of the text (see [`Resolved::prefetch`]), and for
/// its first bytes.
const PREFETCH_HEADERS: usize = 8;
const PREFETCH_BYTES: usize = 4;

/// [`run_over_in`], the candidates `held` marks pruned (a session's index
/// proved they hold no match) given to the collector as "no match" in their
/// place in path order, without going through the workers; `work` is given
/// each other candidate's place in `candidates` with it.
#[allow(clippy::too_many_arguments)]
pub fn run_masked<F, W, C>(
    candidates: &[Candidate],
    held: Option<&Resolved>,
    threads: usize,
    batching: crate::scan::Batching,
    cancel: &Cancel,
    work: W,
    weigh: impl Fn(&F) -> usize + Sync,
    collector: &mut C,
) -> Result<()>
where
    F: Send,
    W: Fn(usize, &Candidate) -> Outcome<F> + Sync,
    C: Collector<F>,
{
    let progress = cancel.progress();
    progress.files_total.fetch_add(candidates.len() as u64, Ordering::Relaxed);
    let pruned = held.filter(|h| h.len() == candidates.len());
    let searched: Vec<usize> = match pruned {
        Some(h) => (0..candidates.len()).filter(|&i| !h.is_pruned(i)).collect(),
        None => (0..candidates.len()).collect(),
    };
    // The next candidate the collector has not seen, and whether it stopped.
    let mut next = 0usize;
    let mut stopped = false;
    // Gives the pruned candidates before `upto` to the collector.
    let pass = |upto: usize, next: &mut usize, collector: &mut C| -> Result<Flow> {
        while *next < upto {
            let cand = &candidates[*next];
            *next += 1;
            cancel.check()?;
            let flow = collector.collect(cand, Outcome::NoMatch)?;
            progress.files_done.fetch_add(1, Ordering::Relaxed);
            if flow == Flow::Stop {
                return Ok(Flow::Stop);
            }
        }
        Ok(Flow::Continue)
    };
    crate::scan::ordered_in(
        &searched,
        threads,
        batching,
        cancel,
        |item: &usize| {
            let i = *item;
            if let Some(h) = pruned {
                // The texts of the candidates a few places on in this
                // worker's claim: their headers, then their first bytes.
                // (`item` is an element of `searched`: its place by address.)
                let at = (std::ptr::from_ref(item).addr()).wrapping_sub(searched.as_ptr().addr())
                    / std::mem::size_of::<usize>();
                let ahead = |k: usize| searched.get(at.wrapping_add(k)).copied();
                if let Some(j) = ahead(PREFETCH_HEADERS) {
                    h.prefetch(j, false);
                }
                if let Some(j) = ahead(PREFETCH_BYTES) {
                    h.prefetch(j, true);
                }
            }
            crate::failpoint::hit("scan-file");
            // Never consumed when cancelled: the merge checks first.
            let outcome =
                if cancel.is_cancelled() { Outcome::NoMatch } else { work(i, &candidates[i]) };
            (i, outcome)
        },
        |(_, outcome)| if let Outcome::Matched(f) = outcome { weigh(f) } else { 0 },
        |(i, outcome)| {
            if pass(i, &mut next, collector)? == Flow::Stop {
                stopped = true;
                return Ok(Flow::Stop);
            }
            next = i + 1;
            cancel.check()?;
            let flow = collector.collect(&candidates[i], outcome);
            progress.files_done.fetch_add(1, Ordering::Relaxed);
            progress.matches.store(collector.matches(), Ordering::Relaxed);
            if matches!(flow, Ok(Flow::Stop)) {
                stopped = true;
            }
            flow
        },
    )?;
    if !stopped {
        pass(candidates.len(), &mut next, collector)?;
        progress.matches.store(collector.matches(), Ordering::Relaxed);
    }
    cancel.check()
}
