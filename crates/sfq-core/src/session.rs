//! A session's file contents, kept between calls and proven fresh by stat.
//!
//! A [`ContentCache`] is the source of contents a session's calls read
//! through ([`crate::engine::Source::Session`]): the candidates still come
//! from the walk of each call (git's index, the ignore files and the tree
//! are read again, so the candidate set is exactly a cold call's), and each
//! candidate's text comes from the cache when the file is provably the one
//! that was read:
//!
//! * its stamp is taken (`lstat`) before its bytes are read, and a later
//!   call uses the text only while the file's stamp is the same: device,
//!   inode, mode, size, mtime and ctime to the nanosecond (ctime changes on
//!   every write and cannot be set back by a caller);
//! * racy edits (git's racy-git problem): a file whose mtime lies within
//!   [`RACY_WINDOW`] of the moment its bytes were read may have been written
//!   again within the same timestamp tick, so its text is not kept: it is
//!   read again at every call until it is older than that;
//! * a file that could not be stamped, is not a regular file, or is over
//!   the call's size cap is read as a cold call reads it.
//!
//! The texts are held within a memory budget; past it the least recently
//! used are dropped (and read again when asked for). The cache only saves
//! reads: the matcher searches every text, so an answer is the cold call's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use crate::cancel::Cancel;
use crate::discovery::Candidate;
use crate::engine::Source;
use crate::error::{Error, ErrorCode, Result};
use crate::options::RawOptions;
use crate::paths::resolve_root;
use crate::search::{self, FileText, SkipReason};
use crate::text::Encoding;
use crate::{Command, Encoded, Format};

/// How close to the moment it was read a file's mtime makes its text
/// unsafe to keep: file systems stamp writes at a coarse clock tick (a few
/// milliseconds on Linux, a second or two on some file systems), so a write
/// within the same tick as the read leaves the same stamp.
pub const RACY_WINDOW: Duration = Duration::from_secs(2);

/// What identifies a file's contents without reading them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    mode: u32,
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
}

impl Stamp {
    /// The stamp of the file at `path` (not following a symlink), when it
    /// is a regular file.
    fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        if !meta.file_type().is_file() {
            return None;
        }
        Some(Stamp::from_metadata(&meta))
    }

    #[cfg(unix)]
    fn from_metadata(meta: &std::fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            mode: meta.mode(),
            size: meta.size(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
            ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
        }
    }

    #[cfg(not(unix))]
    fn from_metadata(meta: &std::fs::Metadata) -> Stamp {
        let ns = |t: std::io::Result<SystemTime>| {
            t.ok()
                .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos() as i128)
        };
        Stamp {
            dev: 0,
            ino: 0,
            mode: u32::from(meta.permissions().readonly()),
            size: meta.len(),
            mtime_ns: ns(meta.modified()),
            // No ctime here: the creation time stands in (the racy window
            // covers writes within a tick).
            ctime_ns: ns(meta.created()),
        }
    }
}

/// One file's text (or that it is binary), as read when its stamp was taken.
struct Entry {
    stamp: Stamp,
    encoding: Encoding,
    /// The text, or `Err(Binary)`.
    text: Result<Arc<FileText>, SkipReason>,
    /// Bytes the text holds in memory.
    bytes: u64,
    /// The call that last used it (for eviction).
    used: u64,
}

/// What [`ContentCache::stats`] reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Files whose text is held.
    pub files: u64,
    /// Bytes of text held.
    pub content_bytes: u64,
    /// Files read from disk during the last call (not served from memory).
    pub files_read: u64,
    /// Files served from memory during the last call.
    pub files_reused: u64,
}

/// A session's file texts, checked against each file's stamp at every use.
pub struct ContentCache {
    /// The session's root (absolute, canonical).
    root: PathBuf,
    /// The most bytes of text held.
    budget: u64,
    inner: Mutex<Inner>,
    /// Counters of the current (last) call.
    read: AtomicU64,
    reused: AtomicU64,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<PathBuf, Entry>,
    bytes: u64,
    /// Calls begun so far (the clock of `Entry::used`).
    calls: u64,
}

impl std::fmt::Debug for ContentCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContentCache").field("root", &self.root).finish_non_exhaustive()
    }
}

impl ContentCache {
    /// An empty cache for the tree at `root`, holding at most `budget`
    /// bytes of text.
    pub fn new(root: PathBuf, budget: u64) -> ContentCache {
        ContentCache {
            root,
            budget,
            inner: Mutex::new(Inner::default()),
            read: AtomicU64::new(0),
            reused: AtomicU64::new(0),
        }
    }

    /// The session's root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Marks the start of a call: its counters start from zero.
    pub fn begin_call(&self) {
        self.lock().calls += 1;
        self.read.store(0, Ordering::Relaxed);
        self.reused.store(0, Ordering::Relaxed);
    }

    /// What is held, and what the last call read.
    pub fn stats(&self) -> CacheStats {
        let inner = self.lock();
        CacheStats {
            files: inner.entries.len() as u64,
            content_bytes: inner.bytes,
            files_read: self.read.load(Ordering::Relaxed),
            files_reused: self.reused.load(Ordering::Relaxed),
        }
    }

    /// Drops every text.
    pub fn clear(&self) {
        let mut inner = self.lock();
        inner.entries = HashMap::new();
        inner.bytes = 0;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `cand`'s text as [`search::load`] reads it with this cap and
    /// encoding: from memory when the file's stamp is the one it was read
    /// with (and that read was not racy), else from disk (and kept).
    pub fn read(
        &self,
        cand: &Candidate,
        max_bytes: u64,
        encoding: Encoding,
    ) -> Result<(Arc<FileText>, u64), SkipReason> {
        let cold = || {
            self.read.fetch_add(1, Ordering::Relaxed);
            search::load(&cand.abs, max_bytes, encoding, cand.regular)
                .map(|(text, size)| (Arc::new(text), size))
        };
        let Some(stamp) = Stamp::of(&cand.abs) else { return cold() };
        if stamp.size > max_bytes {
            return cold();
        }
        {
            let mut inner = self.lock();
            let calls = inner.calls;
            if let Some(e) = inner.entries.get_mut(&cand.abs)
                && e.stamp == stamp
                && e.encoding == encoding
            {
                e.used = calls;
                let text = e.text.clone();
                drop(inner);
                self.reused.fetch_add(1, Ordering::Relaxed);
                return text.map(|t| (t, stamp.size));
            }
        }
        // Read after the stamp: a write after it changes the stamp (or
        // falls in the racy window).
        let started = SystemTime::now();
        self.read.fetch_add(1, Ordering::Relaxed);
        let result = search::load(&cand.abs, max_bytes, encoding, cand.regular);
        let text = match result {
            Ok((text, size)) => {
                let text = Arc::new(text);
                if size == stamp.size {
                    self.keep(cand, stamp, encoding, Ok(text.clone()), started);
                }
                return Ok((text, size));
            }
            Err(SkipReason::Binary) => Err(SkipReason::Binary),
            Err(other) => return Err(other),
        };
        self.keep(cand, stamp, encoding, text.clone(), started);
        text.map(|t| (t, stamp.size))
    }

    /// Keeps a text read at `started` under `stamp`, unless the read was
    /// racy or the text is larger than the whole budget; makes room by
    /// dropping the least recently used.
    fn keep(
        &self,
        cand: &Candidate,
        stamp: Stamp,
        encoding: Encoding,
        text: Result<Arc<FileText>, SkipReason>,
        started: SystemTime,
    ) {
        let started_ns =
            started.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i128);
        if stamp.mtime_ns >= started_ns - RACY_WINDOW.as_nanos() as i128
            || stamp.ctime_ns >= started_ns - RACY_WINDOW.as_nanos() as i128
        {
            return;
        }
        let bytes = match &text {
            Ok(t) => text_bytes(t),
            Err(_) => 0,
        } + cand.abs.as_os_str().len() as u64
            + 64;
        if bytes > self.budget {
            return;
        }
        let mut inner = self.lock();
        let used = inner.calls;
        if let Some(old) = inner.entries.remove(&cand.abs) {
            inner.bytes -= old.bytes;
        }
        if inner.bytes + bytes > self.budget {
            evict(&mut inner, self.budget.saturating_sub(bytes) / 4 * 3);
        }
        inner.bytes += bytes;
        inner.entries.insert(cand.abs.clone(), Entry { stamp, encoding, text, bytes, used });
    }
}

/// Drops the least recently used entries until at most `target` bytes are held.
fn evict(inner: &mut Inner, target: u64) {
    let mut by_age: Vec<(u64, PathBuf)> =
        inner.entries.iter().map(|(k, e)| (e.used, k.clone())).collect();
    by_age.sort_unstable();
    for (_, key) in by_age {
        if inner.bytes <= target {
            break;
        }
        if let Some(e) = inner.entries.remove(&key) {
            inner.bytes -= e.bytes;
        }
    }
}

/// The memory a text holds.
fn text_bytes(text: &FileText) -> u64 {
    match text {
        FileText::Utf8(s) => s.len() as u64,
        FileText::Utf16 { units, .. } => units.len() as u64 * 2 + units.len() as u64 / 8,
    }
}

/// The default `memoryBudgetMB` of a session.
pub const DEFAULT_MEMORY_BUDGET_MB: u64 = 1024;

/// The options [`Session::open`] takes.
pub const SESSION_OPTION_NAMES: &[&str] = &["cwd", "memoryBudgetMB", "threads"];

/// The queries a session answers (the module's, by their JS names).
const SESSION_COMMANDS: [Command; 11] = [
    Command::SmartFileQuery,
    Command::SearchCode,
    Command::Grep,
    Command::GrepContent,
    Command::GlobFiles,
    Command::FindFiles,
    Command::Survey,
    Command::Scout,
    Command::Sample,
    Command::Show,
    Command::GetOutline,
];

/// A tree opened once and queried many times: every call walks the tree
/// again (the candidate set is a cold call's) and reads each candidate
/// through the session's [`ContentCache`] (the text is the one a cold read
/// gives now), so its answer is byte for byte the cold call's.
#[derive(Debug)]
pub struct Session {
    cache: Arc<ContentCache>,
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
    /// Bytes of index held (no content index yet: 0).
    pub index_bytes: u64,
    /// The memory budget in bytes.
    pub memory_budget_bytes: u64,
    /// How the last call established freshness: `statRevalidation` (every
    /// candidate's stamp compared), or `none` before the first call.
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
        let raw = RawOptions::parse("openSession", options, SESSION_OPTION_NAMES)?;
        let root = resolve_root(raw.string("cwd")?.as_deref())?;
        if root.to_str().is_none() {
            return Err(Error::invalid_option(format!(
                "openSession: the root {} is not valid UTF-8; open a session on a folder with a UTF-8 path",
                root.display()
            )));
        }
        let budget_mb = raw.int("memoryBudgetMB", 1, 1 << 20)?.unwrap_or(DEFAULT_MEMORY_BUDGET_MB);
        let threads = raw.int("threads", 1, 256)?;
        Ok(Session {
            cache: Arc::new(ContentCache::new(root, budget_mb << 20)),
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
        if !SESSION_COMMANDS.contains(&kind) {
            return Err(Error::invalid_option(format!("{api}: not a query a session answers")));
        }
        let options = self.call_options(api, options)?;
        self.cache.begin_call();
        self.calls.fetch_add(1, Ordering::Relaxed);
        let now =
            SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis());
        self.last_call_ms.store(now as u64, Ordering::Relaxed);
        let source = Source::Session(self.cache.clone());
        crate::query_encoded_from(&source, kind, &options, pattern, base, format)
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
                self.cache.root().display()
            )));
        }
        let root = self.cache.root().to_str().unwrap_or_default().to_string();
        map.insert("cwd".into(), serde_json::Value::String(root));
        if let (Some(t), false) = (self.threads, map.contains_key("threads")) {
            map.insert("threads".into(), serde_json::Value::from(t));
        }
        serde_json::to_string(&map).map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))
    }

    /// What the session holds and how its last call went.
    pub fn stats(&self) -> SessionStats {
        let c = self.cache.stats();
        let calls = self.calls.load(Ordering::Relaxed);
        let last = self.last_call_ms.load(Ordering::Relaxed);
        SessionStats {
            root: self.cache.root().to_string_lossy().into_owned(),
            files_known: c.files,
            content_bytes: c.content_bytes,
            index_bytes: 0,
            memory_budget_bytes: self.cache.budget,
            freshness: if calls == 0 { "none" } else { "statRevalidation" },
            files_reread: c.files_read,
            files_reused: c.files_reused,
            calls,
            last_refresh: (calls > 0).then(|| {
                crate::glob_files::iso8601(SystemTime::UNIX_EPOCH + Duration::from_millis(last))
            }),
            closed: self.closed.load(Ordering::Relaxed),
        }
    }

    /// Frees what the session holds; later calls fail with `ESESSIONCLOSED`.
    pub fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
        self.cache.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(root: &Path, rel: &str) -> Candidate {
        Candidate { rel: rel.to_string(), abs: root.join(rel), missing: None, regular: true }
    }

    fn age(path: &Path, secs_ago: u64) {
        let t = SystemTime::now() - Duration::from_secs(secs_ago);
        std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
    }

    fn text(r: Result<(Arc<FileText>, u64), SkipReason>) -> String {
        match &*r.unwrap().0 {
            FileText::Utf8(s) => s.clone(),
            FileText::Utf16 { .. } => panic!("utf16"),
        }
    }

    /// A text is reused while the stamp holds, read again when it changes
    /// (a same-size write whose mtime is set back is told by its ctime),
    /// and never kept from a racy read.
    #[test]
    fn texts_are_reused_only_while_the_stamp_holds() {
        let dir = std::env::temp_dir().join(format!("sfq-session-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let root = std::fs::canonicalize(&dir).unwrap();
        let f = root.join("a.txt");
        std::fs::write(&f, "one\n").unwrap();
        let cache = ContentCache::new(root.clone(), 1 << 20);
        let c = cand(&root, "a.txt");
        // Just written: racy, read each time.
        cache.begin_call();
        assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "one\n");
        assert_eq!(cache.stats().files, 0);
        age(&f, 10);
        // ctime is still recent: racy until it ages too.
        cache.begin_call();
        assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "one\n");
        assert_eq!(cache.stats().files, 0);
        std::thread::sleep(RACY_WINDOW + Duration::from_millis(100));
        cache.begin_call();
        assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "one\n");
        assert_eq!(
            cache.stats(),
            CacheStats {
                files: 1,
                content_bytes: cache.stats().content_bytes,
                files_read: 1,
                files_reused: 0
            }
        );
        cache.begin_call();
        assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "one\n");
        assert_eq!(cache.stats().files_reused, 1);
        // A same-size write with the old mtime put back: the ctime tells.
        let mtime = std::fs::metadata(&f).unwrap().modified().unwrap();
        std::fs::write(&f, "two\n").unwrap();
        std::fs::File::options().write(true).open(&f).unwrap().set_modified(mtime).unwrap();
        cache.begin_call();
        assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "two\n");
        // Another encoding is another read.
        cache.begin_call();
        let latin = cache.read(&c, 1 << 20, Encoding::Latin1);
        assert!(latin.is_ok());
        assert_eq!(cache.stats().files_read, 1);
        // Over the cap: the cold reader's skip.
        assert!(matches!(
            cache.read(&c, 2, Encoding::Utf8),
            Err(SkipReason::MaxFileSizeExceeded(4))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Past the budget the least recently used texts are dropped.
    #[test]
    fn the_budget_drops_the_least_recently_used() {
        let dir = std::env::temp_dir().join(format!("sfq-session-lru-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let root = std::fs::canonicalize(&dir).unwrap();
        for i in 0..10 {
            let f = root.join(format!("f{i}.txt"));
            std::fs::write(&f, "x".repeat(1000)).unwrap();
        }
        std::thread::sleep(RACY_WINDOW + Duration::from_millis(100));
        let cache = ContentCache::new(root.clone(), 5000);
        for i in 0..10 {
            cache.begin_call();
            cache.read(&cand(&root, &format!("f{i}.txt")), 1 << 20, Encoding::Utf8).unwrap();
            assert!(cache.stats().content_bytes <= 5000);
        }
        let held = cache.stats().files;
        assert!((2..=4).contains(&held), "{held}");
        // The newest is held.
        cache.begin_call();
        cache.read(&cand(&root, "f9.txt"), 1 << 20, Encoding::Utf8).unwrap();
        assert_eq!(cache.stats().files_reused, 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
