//! Sessions: a tree opened once and queried many times, every answer the
//! one a cold call started at the same moment gives.
//!
//! A session holds, between calls, the listings of the folders its calls
//! walked ([`listing`]) and the texts of the files they read ([`cache`]),
//! and a watch on every directory those walks read ([`watch`]). When a
//! call starts, the watch's queue is drained: a listing is used again only
//! if no directory it read changed and nothing else it depends on (git's
//! index and configuration, the exclude files, the ignore files above the
//! root: sfq-walk's fingerprint) changed either; a text only if no event
//! named its file since it was read. Without a working watch (another OS, a
//! network file system, the watch limit reached, `watch: false`) every
//! call walks again and every text is checked against its file's stat.

pub mod cache;
pub mod grams;
pub mod listing;
pub mod looks;
pub mod slices;
pub mod stamps;
pub mod table;
pub mod watch;

pub use cache::ContentCache;

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime};

use sfq_walk::discovery::{Entry, NotCheckedOut, WalkConfig, WalkObserver};

use crate::cancel::Cancel;
use crate::discovery::{self, Candidates, DiscoveryProfile, Listed};
use crate::engine::Source;
use crate::error::{Error, ErrorCode, Result};
use crate::options::{Kind, OptSpec, RawOptions, opt};
use crate::paths::resolve_root;
use crate::{Command, Encoded, Format};
use listing::{Found, Listings, Whole};
use looks::{LookKey, Looks};
use watch::Watcher;

/// How a call established that what it used is fresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Freshness {
    /// No call yet.
    None = 0,
    /// The watch's queue was drained and nothing the listing depends on
    /// changed: the kept listing and the trusted texts were used as they
    /// were.
    WatcherDrain = 1,
    /// The tree was walked again (the first call on a folder, a change the
    /// watch reported, a call whose walk cannot come from a kept listing).
    Rebuild = 2,
    /// No working watch: the kept listing was used while the stamps of
    /// what its walk read held (else the tree was walked), and every text
    /// was checked against its file's stat.
    StatRevalidation = 3,
}

impl Freshness {
    fn name(self) -> &'static str {
        match self {
            Freshness::None => "none",
            Freshness::WatcherDrain => "watcherDrain",
            Freshness::Rebuild => "rebuild",
            Freshness::StatRevalidation => "statRevalidation",
        }
    }

    fn from_u8(v: u8) -> Freshness {
        match v {
            1 => Freshness::WatcherDrain,
            2 => Freshness::Rebuild,
            3 => Freshness::StatRevalidation,
            _ => Freshness::None,
        }
    }
}

/// What a session's calls read through ([`Source::Session`]): its kept
/// listings, its texts, and the watch that keeps both fresh.
#[derive(Debug)]
pub struct Store {
    /// The texts.
    pub cache: ContentCache,
    /// The listings.
    pub listings: Listings,
    watcher: Option<Arc<Watcher>>,
    /// The least fresh way a listing of the last call was established.
    freshness: AtomicU8,
    /// The tree's root (canonical).
    root: std::path::PathBuf,
    /// The listings of folders walked without ignore rules (the 0-matches
    /// hint's), kept while the watch proves them current.
    looks: Looks,
    /// At most this many bytes of them.
    looks_limit: u64,
    /// Calls begun (each drains the watch first).
    calls: AtomicU64,
    /// This store, for a walk finished off its call ([`Store::walk_look`]).
    me: Weak<Store>,
    /// Whether such a walk runs.
    looking: AtomicBool,
}

/// The longest a look's walk runs beyond the call that began it
/// ([`Store::walk_look`]): it bounds that walk's listing, as the hint's
/// deadline bounds a cold call's.
const LOOK_WALK_LIMIT: Duration = Duration::from_secs(2);

impl Store {
    /// A store for the tree at `root` (canonical), holding at most
    /// `budget` bytes of text, watching the directories its walks read
    /// when `watch` (and the platform and file system allow it).
    pub fn new(root: std::path::PathBuf, budget: u64, watch: bool) -> Arc<Store> {
        Arc::new_cyclic(|me| Store::with_self(root, budget, watch, me.clone()))
    }

    fn with_self(root: std::path::PathBuf, budget: u64, watch: bool, me: Weak<Store>) -> Store {
        let watcher =
            if watch && !watch::network_fs(&root) { Watcher::new().map(Arc::new) } else { None };
        Store {
            cache: ContentCache::new(root.clone(), budget, watcher.clone()),
            listings: Listings::new(budget / 2),
            watcher,
            freshness: AtomicU8::new(0),
            root,
            looks: Looks::default(),
            looks_limit: budget / 32,
            calls: AtomicU64::new(0),
            me,
            looking: AtomicBool::new(false),
        }
    }

    /// Whether the watch works (no watch refused so far).
    pub fn watching(&self) -> bool {
        self.watcher.as_ref().is_some_and(|w| w.healthy())
    }

    /// Drains the watch (at the start of a call) and applies what it
    /// reports to the listings and texts.
    fn refresh(&self) {
        self.freshness.store(Freshness::None as u8, Ordering::Relaxed);
        self.calls.fetch_add(1, Ordering::Relaxed);
        if let Some(w) = &self.watcher {
            let drained = w.drain();
            self.listings.invalidate(&drained);
            self.cache.invalidate(&drained);
        }
    }

    fn note(&self, how: Freshness) {
        self.freshness.fetch_max(how as u8, Ordering::Relaxed);
    }

    /// The listing of `root` for `profile`: from the kept whole listing of
    /// `root` when the watch and the fingerprint prove it current and the
    /// profile can be applied to it (see [`listing`]), else walked (the
    /// directories read are watched).
    pub fn listing(
        &self,
        root: &Path,
        profile: &DiscoveryProfile,
        cancel: &Cancel,
        report_dropped: bool,
    ) -> Result<Listed<Vec<Entry>>> {
        match self.plan(root, profile, cancel, true, !report_dropped)? {
            Plan::Walk(observer) => {
                self.walk(root, profile, cancel, report_dropped, observer, None)
            }
            Plan::Looked(entries) => Ok(Listed::of(entries.to_vec())),
            Plan::WalkLook(observer, key) => self.walk_look(root, profile, cancel, observer, key),
            Plan::WalkLeftOut(observer, whole) => {
                self.walk(root, profile, cancel, report_dropped, observer, Some(&whole))
            }
            Plan::Whole(whole) => {
                let mut listed = Listed::of(self.listings.filter(&whole, profile));
                listed.deferred = deferred(root, profile, report_dropped, None);
                listed.not_checked_out = left_out_of(&whole, profile);
                if profile.metadata {
                    self.reserve();
                }
                Ok(listed)
            }
        }
    }

    /// The candidates of `root` for `profile` when they come from a kept
    /// whole listing and the profile's filter has a key: shared with every
    /// call of the same profile since the listing was kept (see
    /// [`listing::Listings::view`]); `None` when the call lists them
    /// otherwise ([`Store::listing`]). `left_out`: whether the caller reads
    /// what a sparse checkout left out ([`Listed::not_checked_out`]: kept
    /// with the listing per profile once a walk of the profile reported it).
    pub fn candidates(
        &self,
        root: &Path,
        profile: &DiscoveryProfile,
        cancel: &Cancel,
        report_dropped: bool,
        left_out: bool,
    ) -> Result<Option<Listed<Candidates>>> {
        let Some(key) = listing::view_key(profile) else { return Ok(None) };
        let (observer, remember) =
            match self.plan(root, profile, cancel, left_out, !report_dropped)? {
                Plan::Whole(whole) => {
                    let (items, slots, dropped) = self.listings.view(&whole, key, profile);
                    let mut listed = Listed::of(Candidates::shared(items, slots));
                    // What the profile's walk dropped is kept fresh by the
                    // watch, which watched the ignored folders that walk read;
                    // the stamps do not cover them: looked at again each time.
                    let memo = whole.stamps.is_none().then_some(dropped);
                    listed.deferred = deferred(root, profile, report_dropped, memo);
                    if left_out {
                        listed.not_checked_out = left_out_of(&whole, profile);
                    }
                    self.reserve();
                    return Ok(Some(listed));
                }
                Plan::Walk(observer) => (observer, None),
                Plan::WalkLeftOut(observer, whole) => (observer, Some(whole)),
                Plan::Looked(entries) => {
                    return Ok(Some(Listed::of(entries.to_vec()).into_candidates(root)));
                }
                Plan::WalkLook(observer, key) => {
                    let listed = self.walk_look(root, profile, cancel, observer, key)?;
                    return Ok(Some(listed.into_candidates(root)));
                }
            };
        let listed =
            self.walk(root, profile, cancel, report_dropped, observer, remember.as_deref())?;
        Ok(Some(listed.into_candidates(root)))
    }

    /// A walk of `root` for `profile` (the watch told of each folder read),
    /// and, for a call that reports what a sparse checkout left out, that
    /// report kept with `remember`, the kept listing current when it began.
    fn walk(
        &self,
        root: &Path,
        profile: &DiscoveryProfile,
        cancel: &Cancel,
        report_dropped: bool,
        observer: Option<Arc<dyn WalkObserver>>,
        remember: Option<&Whole>,
    ) -> Result<Listed<Vec<Entry>>> {
        let listed = discovery::walk_listing(root, profile, cancel, report_dropped, observer)?;
        if let Some(whole) = remember {
            remember_left_out(whole, profile, &listed);
        }
        // The folders the walk watched count before any text is kept.
        self.reserve();
        Ok(listed)
    }

    /// The walk of a folder the 0-matches hint looks into, to be kept
    /// ([`Looks`]; no report of what it drops). It runs on a thread of its
    /// own, which finishes it and keeps its listing when `cancel` (the
    /// hint's deadline, a fraction of the call) ends the call's wait first:
    /// a walk cut short at each call was never kept, so every call walked
    /// it again (the generated corpus's `node_modules`, when a call took
    /// longer than usual). At most one walk runs so, for at most
    /// [`LOOK_WALK_LIMIT`]; while one does, a look is walked by its call
    /// alone, as a cold call's is.
    fn walk_look(
        &self,
        root: &Path,
        profile: &DiscoveryProfile,
        cancel: &Cancel,
        observer: Option<Arc<dyn WalkObserver>>,
        key: LookKey,
    ) -> Result<Listed<Vec<Entry>>> {
        if self.looking.swap(true, Ordering::AcqRel) {
            let listed = self.walk(root, profile, cancel, false, observer, None)?;
            self.keep_look(key, &listed);
            return Ok(listed);
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let (me, folder, walked_as) = (self.me.clone(), root.to_path_buf(), profile.clone());
        let spawned = std::thread::Builder::new().name("sfq-look".into()).spawn(move || {
            let own = Cancel::default().bounded(LOOK_WALK_LIMIT);
            let walked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                discovery::walk_listing(&folder, &walked_as, &own, false, observer)
            }))
            .unwrap_or_else(|_| Err(Error::new(ErrorCode::Internal, "a look's walk panicked")));
            if let Some(store) = me.upgrade() {
                if let Ok(listed) = &walked {
                    store.keep_look(key, listed);
                }
                store.reserve();
                store.looking.store(false, Ordering::Release);
            }
            // (The call may have stopped waiting.)
            let _ = tx.send(walked);
        });
        if spawned.is_err() {
            self.looking.store(false, Ordering::Release);
            // (The observer went with the closure: this walk is not kept.)
            return self.walk(root, profile, cancel, false, None, None);
        }
        loop {
            match rx.recv_timeout(Duration::from_millis(1)) {
                Ok(walked) => return walked,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => cancel.check()?,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Error::new(ErrorCode::Internal, "a look's walk ended unanswered"));
                }
            }
        }
    }

    /// Keeps the look `key` walked as `listed` (see [`looks`]).
    fn keep_look(&self, key: LookKey, listed: &Listed<Vec<Entry>>) {
        self.looks.keep(key, self.listings.clock(), listed, self.looks_limit);
        self.reserve();
    }

    /// The session root's fingerprint (git's index and configuration, the
    /// exclude files; see sfq-walk's `fingerprint`).
    fn root_fingerprint(&self) -> Option<Vec<u8>> {
        let config = WalkConfig::builder(&self.root).build().ok()?;
        Some(sfq_walk::discovery::fingerprint(&config))
    }

    /// How a call lists `root` for `profile`: from the kept whole listing
    /// (walked now if none is kept and the profile can use one), or by a
    /// walk of its own (told to the watch when there is one). A call that
    /// reads what a sparse checkout left out (`left_out`) walks a tree that
    /// has such paths: the kept listing holds the files there are, not the
    /// per-profile counts of those left out.
    fn plan(
        &self,
        root: &Path,
        profile: &DiscoveryProfile,
        cancel: &Cancel,
        left_out: bool,
        lookable: bool,
    ) -> Result<Plan> {
        // A working watch proves a kept listing current; without one, the
        // stamps of what its walk read do (see `stamps`).
        let watcher = self.watcher.as_ref().filter(|w| w.healthy());
        let (kept_as, rebuilt_as) = match watcher {
            Some(_) => (Freshness::WatcherDrain, Freshness::Rebuild),
            None => (Freshness::StatRevalidation, Freshness::StatRevalidation),
        };
        // The observer of a walk whose listing is not kept: the watch.
        let told = || watcher.cloned().map(|w| -> Arc<dyn WalkObserver> { w });
        // Texts are keyed by path: a root reached through a symlink could
        // later name other files by the same paths, unseen by the watch.
        if std::fs::canonicalize(root).ok().as_deref() != Some(root) {
            self.note(Freshness::StatRevalidation);
            return Ok(Plan::Walk(None));
        }
        let filterable = profile.ignore_files
            && !profile.recurse_submodules
            && profile.filter.as_ref().is_none_or(|f| !f.forces());
        if !filterable {
            // A walk without ignore rules (the 0-matches hint's look at
            // what was dropped): kept while the watch proves it current.
            if lookable
                && watcher.is_some()
                && let Some(mut key) = Looks::key(root, profile, self.listings.clock())
            {
                let call = self.calls.load(Ordering::Relaxed);
                if let Some(entries) = self.looks.find(&mut key, call, || self.root_fingerprint()) {
                    self.note(kept_as);
                    return Ok(Plan::Looked(entries));
                }
                self.note(rebuilt_as);
                return Ok(Plan::WalkLook(told(), key));
            }
            self.note(rebuilt_as);
            return Ok(Plan::Walk(told()));
        }
        let clock = self.listings.clock();
        let fingerprint = match WalkConfig::builder(root).build() {
            Ok(config) => sfq_walk::discovery::fingerprint(&config),
            Err(_) => {
                self.note(rebuilt_as);
                return Ok(Plan::Walk(None));
            }
        };
        let current = |whole: &Whole| match (&whole.stamps, watcher) {
            (Some(stamps), _) => stamps.current(profile.threads),
            (None, Some(w)) => w.healthy(),
            (None, None) => false,
        };
        match self.listings.find(root, &fingerprint) {
            Some(Found::Entries(whole)) if current(&whole) => {
                if left_out && whole.left_out && !knows_left_out(&whole, profile) {
                    self.note(rebuilt_as);
                    return Ok(Plan::WalkLeftOut(told(), whole));
                }
                self.note(kept_as);
                return Ok(Plan::Whole(whole));
            }
            Some(Found::Walk) => {
                self.note(rebuilt_as);
                return Ok(Plan::Walk(told()));
            }
            _ => {}
        }
        self.note(rebuilt_as);
        let whole_profile = DiscoveryProfile {
            prune_names: Vec::new(),
            filter: None,
            dirs: true,
            hidden: true,
            ignore_files: true,
            metadata: false,
            // Kept compact: the absolute path is the root joined with the
            // path, unless a name is not UTF-8 (the walk then gives it).
            abs_paths: false,
            threads: profile.threads,
            recurse_submodules: false,
            source: Source::Disk,
        };
        let (observer, stamps): (Arc<dyn WalkObserver>, _) = match watcher {
            Some(w) => (w.clone(), None),
            None => {
                let stamps = Arc::new(stamps::Stamps::new());
                (stamps.clone(), Some(stamps))
            }
        };
        let whole = discovery::walk_listing(root, &whole_profile, cancel, false, Some(observer))?;
        let filterable = whole.unreadable.is_empty();
        let sparse = whole.not_checked_out.files > 0 || !whole.not_checked_out.dirs.is_empty();
        let whole = if filterable && watcher.is_none_or(|w| w.healthy()) {
            Whole::new(root, whole.items).map(|w| w.with_left_out(sparse).with_stamps(stamps))
        } else {
            None
        };
        let Some(whole) = whole else {
            self.listings.keep(root, fingerprint, clock, None);
            self.reserve();
            return Ok(Plan::Walk(told()));
        };
        let whole = Arc::new(whole);
        // Too large for the budget: used for this call only; later calls
        // walk with their own profile. Kept by stamps, within an eighth of
        // that: what the stamps save (the walk) is less than what a larger
        // listing and its views take from the texts and index entries (on a
        // million-file tree past a 1 GB budget, with a 130 MB listing kept,
        // 84,000 files were read again at every call).
        let bytes = whole.bytes();
        let fits = match whole.stamps {
            Some(_) => self.listings.fits(bytes.saturating_mul(8)),
            None => self.listings.fits(bytes),
        };
        let kept = fits.then(|| whole.clone());
        self.listings.keep(root, fingerprint, clock, kept);
        self.reserve();
        if left_out && whole.left_out {
            return Ok(Plan::WalkLeftOut(told(), whole));
        }
        Ok(Plan::Whole(whole))
    }

    /// Tells the cache what the listings and the watch hold (the rest of
    /// the budget is the cache's).
    fn reserve(&self) {
        let watch = self.watcher.as_ref().map_or(0, |w| w.bytes());
        self.cache.reserve(self.listings.bytes() + self.looks.bytes() + watch);
    }

    /// Bytes held in all: texts, filters, listings, sizes and times, the
    /// watch's folders.
    pub fn bytes(&self) -> u64 {
        let watch = self.watcher.as_ref().map_or(0, |w| w.bytes());
        self.cache.stats().held_bytes + self.listings.bytes() + self.looks.bytes() + watch
    }

    /// Frees what the store holds.
    fn clear(&self) {
        self.cache.clear();
        self.listings.clear();
        self.looks.clear();
    }
}

/// How a call lists a folder (see [`Store::plan`]).
enum Plan {
    /// Walk, telling the watch (when there is one) of each folder read.
    Walk(Option<Arc<dyn WalkObserver>>),
    /// Filter the kept whole listing.
    Whole(Arc<Whole>),
    /// Walk, as a call that reports what a sparse checkout left out does
    /// the first time for its profile, and keep that report with the kept
    /// whole listing (current when the call began) for the next.
    WalkLeftOut(Option<Arc<dyn WalkObserver>>, Arc<Whole>),
    /// A kept listing of a folder walked without ignore rules.
    Looked(Arc<[Entry]>),
    /// Walk, telling the watch, and keep the listing as that look.
    WalkLook(Option<Arc<dyn WalkObserver>>, LookKey),
}

/// Whether `whole` keeps what a sparse checkout left out for `profile`
/// (or left nothing out).
fn knows_left_out(whole: &Whole, profile: &DiscoveryProfile) -> bool {
    !whole.left_out
        || listing::left_out_key(profile).is_some_and(|k| whole.left_out_of(&k).is_some())
}

/// What a sparse checkout left out for `profile`, as kept with `whole`
/// (nothing when it left nothing out). Asked only once
/// [`knows_left_out`] said it is kept.
fn left_out_of(whole: &Whole, profile: &DiscoveryProfile) -> NotCheckedOut {
    listing::left_out_key(profile).and_then(|k| whole.left_out_of(&k)).unwrap_or_default()
}

/// Keeps with `whole` what the walk `listed` of a call reported a sparse
/// checkout left out for `profile`.
fn remember_left_out(whole: &Whole, profile: &DiscoveryProfile, listed: &Listed<Vec<Entry>>) {
    if listed.unreadable.is_empty()
        && let Some(key) = listing::left_out_key(profile)
    {
        whole.remember_left_out(key, &listed.not_checked_out);
    }
}

/// What a listing from memory says of what was dropped: to be walked for
/// when asked for (see [`Listed::take_dropped`]).
fn deferred(
    root: &Path,
    profile: &DiscoveryProfile,
    report_dropped: bool,
    memo: Option<listing::DroppedMemo>,
) -> Option<Box<discovery::Deferred>> {
    report_dropped.then(|| {
        Box::new(discovery::Deferred { root: root.to_path_buf(), profile: profile.on_disk(), memo })
    })
}

/// `work` over `0..len` cut in up to `threads` stretches (at most 8, of at
/// least `least` items each), on scoped threads when there are several:
/// each stretch with its outcome, in order (`Err` for one whose work
/// panicked; with a single stretch a panic goes on up).
pub(crate) fn in_parts<R: Send>(
    len: usize,
    threads: usize,
    least: usize,
    work: impl Fn(std::ops::Range<usize>) -> R + Sync,
) -> Vec<(std::ops::Range<usize>, std::thread::Result<R>)> {
    let parts = threads.clamp(1, 8).min(len / least.max(1) + 1);
    if parts <= 1 {
        return vec![(0..len, Ok(work(0..len)))];
    }
    let size = len.div_ceil(parts);
    let work = &work;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..len)
            .step_by(size)
            .map(|start| {
                let range = start..(start + size).min(len);
                (range.clone(), s.spawn(move || work(range)))
            })
            .collect();
        handles.into_iter().map(|(range, h)| (range, h.join())).collect()
    })
}

/// The options [`Session::open`] takes.
pub const SESSION_OPTIONS: &[OptSpec] = &[
    opt("cwd", Kind::Str, "the tree the session answers for (default: process.cwd())")
        .default_prose("process.cwd()"),
    opt(
        "memoryBudgetMB",
        Kind::Int(1, 1 << 20),
        "the most memory the session holds, in MiB (default 1024)",
    )
    .default_int(1024),
    opt("threads", Kind::Int(1, 256), "worker threads of its calls that do not say")
        .default_prose("the machine's parallelism"),
    opt("watch", Kind::Bool, "watch the folders its calls walk (default true)").default_bool(true),
];

/// A tree opened once and queried many times, through a store (`Store`) whose
/// listings and texts are those a cold walk and a cold read give now (see
/// the module's notes), so every answer is byte for byte the cold call's.
#[derive(Debug)]
pub struct Session {
    store: Arc<Store>,
    /// `threads` for calls that do not say.
    threads: Option<u64>,
    closed: std::sync::atomic::AtomicBool,
    /// When the last call began (ms since the epoch).
    last_call_ms: AtomicU64,
    calls: AtomicU64,
}

/// What [`Session::stats`] reports (the JS `SessionStats`).
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionStats {
    /// The session's root.
    pub root: String,
    /// Files whose contents are held.
    pub files_known: u64,
    /// Bytes of file contents held.
    pub content_bytes: u64,
    /// Bytes of the trigram index held (counted in the budget with the
    /// contents).
    pub index_bytes: u64,
    /// Files the last call ruled out by the index, unsearched.
    pub files_pruned: u64,
    /// Bytes the session holds in all (counted against the budget): texts,
    /// trigram filters, listings, sizes and times, watched folders.
    pub memory_bytes: u64,
    /// The memory budget in bytes.
    pub memory_budget_bytes: u64,
    /// Entries of the listings held.
    pub listed_entries: u64,
    /// Whether the session watches its tree (false: `watch: false`, no
    /// watcher on this platform or file system, or the watch limit hit).
    pub watching: bool,
    /// Files whose text is used without a stat (under the watch).
    pub trusted_files: u64,
    /// Texts held whose trigram filters are still being made, after the
    /// call that read them (searched in full until then).
    pub files_unindexed: u64,
    /// How the last call established freshness: `watcherDrain` (the watch
    /// reported no change it depends on: kept listings and texts used),
    /// `rebuild` (walked again), `statRevalidation` (no watch: walked, and
    /// each text checked against its file's stat), or `none` before the
    /// first call.
    pub freshness: &'static str,
    /// Files the last call read from disk.
    pub files_reread: u64,
    /// Files the last call took from memory.
    pub files_reused: u64,
    /// Calls answered so far.
    pub calls: u64,
    /// When the last call began (ISO 8601, UTC), if any.
    pub last_refresh: Option<String>,
    /// Whether `close()` was called.
    pub closed: bool,
}

impl Session {
    /// Opens a session on the options' `cwd` (default: the process's).
    pub fn open(options: &str) -> Result<Session> {
        let t = SESSION_OPTIONS;
        let raw = RawOptions::parse_names("openSession", options, t)?;
        let root = resolve_root(raw.string("cwd")?.as_deref())?;
        if root.to_str().is_none() {
            return Err(Error::invalid_option(format!(
                "openSession: the root {} is not valid UTF-8; open a session on a folder with a UTF-8 path",
                root.display()
            )));
        }
        let budget_mb = raw.int_default("memoryBudgetMB", t)?;
        let threads = raw.int_of("threads", t)?;
        let watch = raw.bool_default("watch", t)?;
        Ok(Session {
            store: Store::new(root, budget_mb << 20, watch),
            threads,
            closed: std::sync::atomic::AtomicBool::new(false),
            last_call_ms: AtomicU64::new(0),
            calls: AtomicU64::new(0),
        })
    }

    /// Runs the query `kind` with `options` (which may not name `cwd`: the
    /// session's root is the call's) on the session's contents.
    pub fn query(
        &self,
        kind: Command,
        options: &str,
        pattern: Option<Vec<u16>>,
        base: Cancel,
        format: Format,
    ) -> Result<Encoded> {
        let api = Command::ALL.iter().find(|(c, _)| *c == kind).map_or("session", |(_, n)| *n);
        if self.closed.load(Ordering::Relaxed) {
            return Err(Error::new(
                ErrorCode::SessionClosed,
                format!("{api}: the session was closed; open a new one with openSession()"),
            ));
        }
        if kind.table().is_none() {
            return Err(Error::invalid_option(format!("{api}: not a query a session answers")));
        }
        let options = self.call_options(api, options)?;
        self.store.refresh();
        self.store.cache.begin_call();
        self.calls.fetch_add(1, Ordering::Relaxed);
        let now =
            SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis());
        self.last_call_ms.store(now as u64, Ordering::Relaxed);
        let source = Source::Session(self.store.clone());
        let answer = crate::query_encoded_from(&source, kind, &options, pattern, base, format);
        // Filters of the texts read from now on are made after the call,
        // off its path (the first call's were made as it read).
        self.store.cache.defer_filters();
        ContentCache::index_pending(&self.store, |s: &Store| &s.cache);
        answer
    }

    /// `options` with the session's root as `cwd` (and its `threads` when
    /// the call does not say).
    fn call_options(&self, api: &str, options: &str) -> Result<String> {
        let mut map =
            match serde_json::from_str::<serde_json::Value>(if options.trim().is_empty() {
                "null"
            } else {
                options
            }) {
                Ok(serde_json::Value::Object(map)) => map,
                Ok(serde_json::Value::Null) => serde_json::Map::new(),
                Ok(_) | Err(_) => {
                    return Err(Error::invalid_option(format!("{api}: options must be an object")));
                }
            };
        if map.contains_key("cwd") {
            return Err(Error::invalid_option(format!(
                "{api}: option 'cwd' is not taken by a session's calls (the session's root {} is; open another session for another folder)",
                crate::paths::shown(self.store.cache.root())
            )));
        }
        let root = self.store.cache.root().to_str().unwrap_or_default().to_string();
        map.insert("cwd".into(), serde_json::Value::String(root));
        if let (Some(t), false) = (self.threads, map.contains_key("threads")) {
            map.insert("threads".into(), serde_json::Value::from(t));
        }
        serde_json::to_string(&map).map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))
    }

    /// What the session holds and how its last call went.
    pub fn stats(&self) -> SessionStats {
        let c = self.store.cache.stats();
        let calls = self.calls.load(Ordering::Relaxed);
        let last = self.last_call_ms.load(Ordering::Relaxed);
        SessionStats {
            root: crate::paths::shown(self.store.cache.root()),
            files_known: c.files,
            content_bytes: c.content_bytes,
            index_bytes: c.index_bytes,
            files_pruned: c.files_pruned,
            memory_bytes: self.store.bytes(),
            memory_budget_bytes: self.store.cache.budget(),
            listed_entries: self.store.listings.entries(),
            watching: self.store.watching(),
            trusted_files: c.trusted,
            files_unindexed: self.store.cache.unindexed(),
            freshness: match Freshness::from_u8(self.store.freshness.load(Ordering::Relaxed)) {
                _ if calls == 0 => "none",
                // A call that walked nothing (one file shown).
                Freshness::None if self.store.watching() => Freshness::WatcherDrain.name(),
                Freshness::None => Freshness::StatRevalidation.name(),
                how => how.name(),
            },
            files_reread: c.files_read,
            files_reused: c.files_reused,
            calls,
            last_refresh: (calls > 0).then(|| {
                crate::profiles::glob_files::iso8601(
                    SystemTime::UNIX_EPOCH + Duration::from_millis(last),
                )
            }),
            closed: self.closed.load(Ordering::Relaxed),
        }
    }

    /// Frees what the session holds; later calls fail with `ESESSIONCLOSED`.
    pub fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
        self.store.clear();
    }
}
