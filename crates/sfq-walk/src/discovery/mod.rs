//! Candidate discovery: exactly the files `git ls-files --cached --others
//! --exclude-standard` lists inside a git work tree (regular files only),
//! every non-ignored file outside git.
//!
//! # Git semantics covered
//!
//! * tracked files from `.git/index` (versions 2–4, v4 path compression,
//!   unmerged stages collapsed, gitlinks skipped), listed even when ignored
//!   and even when deleted on disk ([`Entry::missing`]); split indexes
//!   (`link`: the shared index `$GIT_DIR/sharedindex.<hash>` with the
//!   replace and delete bitmaps applied); optional extensions (`TREE`,
//!   `REUC`, `UNTR`, `FSMN`, `EOIE`, `IEOT`, any `A`–`Z` one) skipped, an
//!   unknown required one refused as git refuses it;
//! * sparse checkouts, with or without a sparse index: skip-worktree
//!   entries and sparse directory entries (`sdir`) are not on disk, so they
//!   are not candidates (what `git grep` does not search either), and are
//!   counted in [`Listing::not_checked_out`]; a file found on disk at a
//!   skip-worktree path is a tracked candidate when git clears the bit
//!   (`core.sparseCheckout` on, `sparse.expectFilesOutsideOfPatterns` off),
//!   as git's `clear_skip_worktree_from_present_files` does;
//! * untracked files not excluded by nested `.gitignore` files,
//!   `$GIT_COMMON_DIR/info/exclude` and `core.excludesFile` (default
//!   `$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`), with git's
//!   precedence and pattern rules (a port of `dir.c` and `wildmatch.c`);
//! * an ignore file of 100 MiB or more (git's `PATTERN_MAX_FILE_SIZE`) is
//!   not used and not read: such a `.gitignore` is skipped, as git skips it
//!   with a warning, and reported in [`Listing::errors`] with [`EFBIG`]
//!   (outside git the same holds for `.gitignore` and `.ignore`); such an
//!   `info/exclude` or `core.excludesFile` ends the walk with
//!   [`WalkError::Repository`], as git dies on it;
//! * excluded directories are not entered (a file below cannot be
//!   re-included), untracked nested repositories and submodules are not
//!   entered (gitlinks are not listed either), `.git` is never listed nor
//!   entered;
//! * with [`WalkConfigBuilder::recurse_submodules`], initialised submodules
//!   as `git ls-files --recurse-submodules` lists them: every gitlink under
//!   the root whose directory holds a `.git` file or directory naming a
//!   repository (usually `$GIT_DIR/modules/<name>`) is walked as git run in
//!   that directory walks it — its own index, `.gitignore` files,
//!   `info/exclude` and configuration (`core.excludesFile`), its own
//!   submodules in turn — and its paths are listed under the submodule's
//!   path, in path order with the rest. A gitlink is tracked, so an ignore
//!   rule of the superproject does not hide it, and the superproject's
//!   rules do not apply inside it; the hidden, prune and filter settings
//!   apply to the full path. An uninitialised submodule (an empty
//!   directory, a `.git` naming nothing) is skipped without an error.
//!   **Untracked files inside a submodule** follow the rule of the top:
//!   tracked plus untracked-but-not-ignored by the submodule's own rules,
//!   what `git -C <submodule> ls-files --cached --others
//!   --exclude-standard` lists (`git ls-files --recurse-submodules` only
//!   supports `--cached`, and `git grep --recurse-submodules --untracked`
//!   is refused; a search tool finds the file an agent just wrote in a
//!   submodule as it does at the top);
//! * a root below the work-tree top: the parents' `.gitignore` files apply
//!   and an excluded parent hides every untracked file, as in git;
//! * `.git` files (`gitdir:`), linked worktrees and `commondir`.
//!
//! Symlinks are never followed nor listed, including tracked ones and files
//! reached through a symlinked directory.
//!
//! # Not modelled (documented deviations)
//!
//! * a sparse directory entry whose directory is on disk (files written
//!   outside the cone): git expands the index from the directory's tree
//!   object and lists the tracked files there as tracked; the walk reads no
//!   objects and lists the files there as untracked ones, so a tracked file
//!   there that an ignore rule matches is left out (and, with
//!   `sparse.expectFilesOutsideOfPatterns`, a tracked file there is listed);
//! * submodules: whether git counts one as active (`submodule.<name>.active`,
//!   `submodule.active`, `submodule.<name>.url`) is not consulted — a
//!   gitlink whose directory holds a repository is walked; a gitlink whose
//!   directory holds no valid `.git` is skipped, where git falls back to
//!   the git dir `$GIT_DIR/modules/<name>` (`<name>` from `.gitmodules`)
//!   and lists that index's paths, files on disk or not; a gitlink inside
//!   a sparse directory entry is not seen;
//! * the index checksum is not verified (git verifies it);
//! * `core.ignoreCase = true` folds ASCII case in ignore rules, for `.git`
//!   and in index lookups below the root (a file or folder renamed in case
//!   only is the tracked one, listed as the index spells it); a root whose
//!   own path differs in case from the index's is matched as spelled on disk;
//! * `GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`, `GIT_CEILING_DIRECTORIES`,
//!   `safe.directory` and `includeIf "hasconfig:…"` are not consulted; a
//!   skip-worktree `.gitignore` (not on disk in a sparse checkout) is not
//!   read from its blob as git reads it (it matters only for untracked
//!   files next to it, in a directory outside the sparse patterns);
//! * `~user/` in `core.excludesFile` is not expanded (the file is skipped);
//! * a wildmatch pattern needing more than 1000 nested `*` levels does not
//!   match (git would recurse further);
//! * outside git, ignore files above the root are not read, and a nested
//!   repository's `info/exclude` does not apply.
//!
//! Paths are handled as bytes: on Windows a name's bytes are its UTF-8 form
//! (see `os_bytes`), and paths relative to the repository are `/`-separated
//! there too.

mod config;
mod dir;
mod entry;
mod error;
mod fingerprint;
mod gitconfig;
mod index;
mod repo;
mod rules;
mod submodule;
mod walker;
mod whole;
mod wildmatch;

use crate::os_bytes::os_str;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

pub use config::{
    GitEnvironment, PathFilter, Prefixed, WalkConfig, WalkConfigBuilder, WalkObserver,
};
pub use entry::{Entry, EntryKind, Listing, Mode, NotCheckedOut};
pub use error::{ConfigError, EFBIG, ENOENT, ENOTDIR, SoftError, WalkError};
pub use fingerprint::fingerprint;

use gitconfig::{Config, IncludeContext};
use index::Index;
use rules::{PATTERN_MAX_FILE_SIZE, PatternFile, RuleList, Rules, read_pattern_file};
use walker::{DirTask, Walker};

/// Lists the candidates under `config.root()`.
///
/// `cancel` is polled for every directory (and every 4096 entries of a large
/// one); once it returns `true` the walk stops and returns
/// [`WalkError::Cancelled`]. The output is identical whatever the number of
/// threads.
pub fn walk(config: &WalkConfig, cancel: &(dyn Fn() -> bool + Sync)) -> Result<Listing, WalkError> {
    let root = config.root();
    match std::fs::metadata(root) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(WalkError::Root { path: root.to_path_buf(), code: ENOTDIR }),
        Err(e) => {
            return Err(WalkError::Root {
                path: root.to_path_buf(),
                code: e.raw_os_error().unwrap_or(ENOENT),
            });
        }
    }
    match repo::find(root) {
        repo::Found::WorkTree(repo) => walk_git(config, cancel, &repo),
        repo::Found::None => walk_plain(config, cancel),
        repo::Found::BadGitfile(path) => Err(WalkError::Repository {
            path,
            reason: "not a git repository (invalid gitfile)".into(),
        }),
    }
}

/// Thread pools kept per thread count, so a walk does not spawn threads.
type Pools = Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>;

fn thread_pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Pools> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new(Vec::new()));
    let mut pools = pools.lock().ok()?;
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(p.clone());
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("sfq-walk-{i}"))
            // Matching recursion is bounded, but keep headroom for debug builds.
            .stack_size(8 << 20)
            .build()
            .ok()?,
    );
    pools.push((threads, pool.clone()));
    Some(pool)
}

fn run(walker: &Walker<'_>, start: Option<DirTask>, threads: usize) {
    let Some(task) = start else { return };
    match thread_pool(threads) {
        Some(pool) => pool.install(|| rayon::scope(|s| walker.walk_dir(s, task))),
        None => rayon::scope(|s| walker.walk_dir(s, task)),
    }
}

fn finish(walker: Walker<'_>, extra: Vec<Entry>, mode: Mode) -> Result<Listing, WalkError> {
    if walker.cancelled.load(Ordering::Relaxed) {
        return Err(WalkError::Cancelled);
    }
    let mut parts = walker.parts.into_inner().unwrap_or_else(|p| p.into_inner());
    let mut entries = std::mem::take(&mut parts.entries);
    if walker.lossy.load(Ordering::Relaxed)
        || walker.case_moved.load(Ordering::Relaxed)
        || !extra.is_empty()
    {
        drop(parts);
        entries.extend(extra);
        if !walker.cfg.abs_paths {
            // Ties are ordered by the real bytes of the absolute paths.
            for e in entries.iter_mut().filter(|e| e.abs_path.is_none()) {
                e.abs_path = Some(Box::new(walker.cfg.root.join(&*e.path)));
            }
        }
        sort_entries(&mut entries);
    } else {
        assemble(parts, &mut entries);
    }
    let mut errors = walker.errors.into_inner().unwrap_or_else(|p| p.into_inner());
    errors.sort_by(|a, b| a.path.cmp(&b.path));
    let mut dropped = walker.dropped.into_inner().unwrap_or_else(|p| p.into_inner());
    dropped.sort();
    let mut dirs = walker.sparse_dirs.into_inner().unwrap_or_else(|p| p.into_inner());
    dirs.sort_by(|a, b| crate::cmp_utf16(a, b));
    let not_checked_out =
        NotCheckedOut { files: walker.skip_worktree.load(Ordering::Relaxed), dirs };
    Ok(Listing { entries, errors, mode, dropped, not_checked_out })
}

/// Puts `entries` (the directories' parts one after the other, see
/// [`walker::DirOut`]) in path order: the parts merged depth first from
/// slot 0, in place (the listing is held once, plus four bytes an entry for
/// the order).
fn assemble(parts: walker::Parts, entries: &mut [Entry]) {
    // Where each slot's part is (a directory that could not be read has
    // none): one lookup a subdirectory, not a search among a million parts.
    let slots = parts.outs.iter().map(|p| p.slot as usize + 1).max().unwrap_or(0);
    let mut at_slot = vec![u32::MAX; slots];
    for (i, p) in parts.outs.iter().enumerate() {
        at_slot[p.slot as usize] = i as u32;
    }
    let part = |slot: u32| {
        let i = *at_slot.get(slot as usize)?;
        parts.outs.get(i as usize)
    };
    /// A part being merged: its next entry and next subdirectory.
    struct Open<'p> {
        part: &'p walker::DirOut,
        entry: u32,
        sub: u32,
    }
    fn open(part: &walker::DirOut) -> Open<'_> {
        Open { part, entry: part.entries.0, sub: part.subs.0 }
    }
    // order[i]: where the entry that goes to i is now.
    let mut order: Vec<u32> = Vec::with_capacity(entries.len());
    let mut stack: Vec<Open<'_>> = part(0).map(open).into_iter().collect();
    while let Some(at) = stack.last_mut() {
        let p = at.part;
        let entry = (at.entry < p.entries.1).then(|| &entries[at.entry as usize]);
        let sub = (at.sub < p.subs.1).then(|| &parts.subs[at.sub as usize]);
        // The next of this part's entries, unless a subdirectory sorts first
        // (the paths of the part begin with its directory's path).
        let sub_first = match (entry, sub) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(e), Some(sub)) => {
                let rest = e.path.get(p.skip as usize..).unwrap_or_default();
                crate::cmp_utf16(parts.name(sub), rest).is_lt()
            }
        };
        if let (true, Some(sub)) = (sub_first, sub) {
            at.sub += 1;
            if let Some(part) = part(sub.slot) {
                stack.push(open(part));
            }
        } else if entry.is_some() {
            order.push(at.entry);
            at.entry += 1;
        } else {
            stack.pop();
        }
    }
    debug_assert_eq!(order.len(), entries.len(), "every part is reached from slot 0");
    if order.len() != entries.len() {
        // (Not reached: every part's slot is in its parent's subdirectories.)
        sort_entries(entries);
        return;
    }
    drop(parts);
    permute(entries, order);
}

/// Sorts by the UTF-16 order of the path (ties, possible only between lossy
/// names, by the real bytes). Byte order is already UTF-16 order unless both
/// paths hold a byte >= 0xEE, so most comparisons are a `memcmp`.
fn sort_entries(entries: &mut [Entry]) {
    use rayon::slice::ParallelSliceMut;
    let mut keys: Vec<(&[u8], bool, u32)> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.path.as_bytes(), e.path.bytes().any(|b| b >= 0xEE), i as u32))
        .collect();
    let cmp = |a: &(&[u8], bool, u32), b: &(&[u8], bool, u32)| {
        let ord = if a.1 && b.1 {
            crate::cmp_utf16(
                std::str::from_utf8(a.0).unwrap_or(""),
                std::str::from_utf8(b.0).unwrap_or(""),
            )
        } else {
            a.0.cmp(b.0)
        };
        ord.then_with(|| {
            let (x, y) = (&entries[a.2 as usize], &entries[b.2 as usize]);
            abs_bytes(x).cmp(abs_bytes(y))
        })
    };
    if keys.len() > 20_000 {
        keys.par_sort_unstable_by(cmp);
    } else {
        keys.sort_unstable_by(cmp);
    }
    let order: Vec<u32> = keys.into_iter().map(|k| k.2).collect();
    permute(entries, order);
}

/// The bytes of an entry's absolute path, when it has one.
pub(crate) fn abs_bytes(e: &Entry) -> &[u8] {
    e.abs_path.as_ref().map_or(&[], |p| p.as_os_str().as_encoded_bytes())
}

/// Puts at each `i` the entry now at `order[i]` (a permutation), in place:
/// each cycle in turn, by swaps.
///
/// Each swap's entry is where the cycle's previous step pointed: followed
/// one after the other, every step waited for a cache miss (a million-entry
/// listing is 48 MB; its assembly was a serial tenth of a second while the
/// other cores idled). The cycle's positions a few steps ahead are read
/// from `order` (not yet changed there) and their entries fetched early.
fn permute<T>(entries: &mut [T], mut order: Vec<u32>) {
    /// How many steps ahead of the swap an entry is fetched.
    const AHEAD: usize = 8;
    for start in 0..order.len() {
        if order[start] as usize == start {
            continue;
        }
        // The position AHEAD steps on along the cycle (stops at `start`,
        // whose `order` is rewritten by the first step).
        let mut ahead = start;
        for _ in 0..AHEAD {
            ahead = order[ahead] as usize;
            if ahead == start {
                break;
            }
            prefetch(&entries[ahead]);
        }
        let mut at = start;
        loop {
            let from = order[at] as usize;
            // A placed entry's order points at itself.
            order[at] = at as u32;
            if from == start || from == at {
                break;
            }
            if ahead != start {
                ahead = order[ahead] as usize;
                if ahead != start {
                    prefetch(&entries[ahead]);
                }
            }
            entries.swap(at, from);
            at = from;
        }
    }
}

/// Asks for `value`'s cache lines ahead of its use (a hint; nothing where
/// the target has no stable prefetch instruction).
#[inline(always)]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let first = (value as *const T).cast::<i8>();
        let last = first.wrapping_add(std::mem::size_of::<T>().saturating_sub(1));
        // SAFETY: a prefetch never faults nor changes memory; both addresses
        // lie within `value`.
        unsafe {
            _mm_prefetch(first, _MM_HINT_T0);
            _mm_prefetch(last, _MM_HINT_T0);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

fn walk_plain(
    config: &WalkConfig,
    cancel: &(dyn Fn() -> bool + Sync),
) -> Result<Listing, WalkError> {
    let walker = Walker {
        cfg: config,
        cancel,
        cancelled: AtomicBool::new(false),
        rules: Rules::default(),
        index: None,
        prefix: Vec::new(),
        git_mode: false,
        parts: Mutex::new(walker::Parts::default()),
        next_slot: AtomicUsize::new(1),
        lossy: AtomicBool::new(false),
        case_moved: AtomicBool::new(false),
        errors: Mutex::new(Vec::new()),
        dropped: Mutex::new(Vec::new()),
        clear_present_skip_worktree: false,
        skip_worktree: AtomicUsize::new(0),
        sparse_dirs: Mutex::new(Vec::new()),
    };
    run(
        &walker,
        Some(DirTask {
            rel: Vec::new(),
            node: None,
            forced: false,
            slot: 0,
            parent: None,
            index_rel: None,
        }),
        config.threads(),
    );
    finish(walker, Vec::new(), Mode::Plain)
}

/// Reads the git configuration that applies to `repo`, in git's order.
fn load_config(env: &GitEnvironment, repo: &repo::Repo) -> Config {
    let ctx = IncludeContext {
        git_dir: Some(repo.git_dir.clone()),
        branch: repo::current_branch(&repo.git_dir),
        home: env.home.clone(),
    };
    let mut cfg = Config::default();
    if !env.config_nosystem {
        let system = env.config_system.clone().unwrap_or_else(|| PathBuf::from("/etc/gitconfig"));
        cfg.read_file(&system, &ctx, 0);
    }
    match &env.config_global {
        Some(global) => cfg.read_file(global, &ctx, 0),
        None => {
            if let Some(xdg) = xdg_path(env, "config") {
                cfg.read_file(&xdg, &ctx, 0);
            }
            if let Some(home) = &env.home {
                cfg.read_file(&home.join(".gitconfig"), &ctx, 0);
            }
        }
    }
    let mut local = Config::default();
    local.read_file(&repo.common_dir.join("config"), &ctx, 0);
    let worktree_config = local.get_bool("extensions.worktreeconfig").unwrap_or(false);
    cfg.entries.extend(local.entries);
    if worktree_config {
        cfg.read_file(&repo.git_dir.join("config.worktree"), &ctx, 0);
    }
    cfg
}

/// git's `xdg_config_home(name)`.
fn xdg_path(env: &GitEnvironment, name: &str) -> Option<PathBuf> {
    match &env.xdg_config_home {
        Some(x) => Some(x.join("git").join(name)),
        None => env.home.as_ref().map(|h| h.join(".config").join("git").join(name)),
    }
}

/// Reads an exclude file (`info/exclude`, `core.excludesFile`). One of
/// 100 MiB or more ends the walk, as git dies on it ("cannot use … as an
/// exclude file") where it only skips such a `.gitignore`.
fn read_list(path: &Path, errors: &mut Vec<SoftError>) -> Result<Option<RuleList>, WalkError> {
    match read_pattern_file(path) {
        Ok(PatternFile::Content(data)) => Ok(Some(RuleList::parse(&data, b""))),
        Ok(PatternFile::TooLarge(len)) => Err(WalkError::Repository {
            path: path.to_path_buf(),
            reason: format!(
                "the exclude file holds {len} bytes; git refuses to work with an exclude file of \
                 100 MiB ({PATTERN_MAX_FILE_SIZE} bytes) or more (\"cannot use it as an exclude \
                 file\"): shrink it or remove it"
            ),
        }),
        Err(e)
            if matches!(e.kind(), std::io::ErrorKind::NotFound)
                || e.raw_os_error() == Some(ENOTDIR) =>
        {
            Ok(None)
        }
        Err(e) => {
            errors.push(SoftError { path: path.to_path_buf(), code: e.raw_os_error() });
            Ok(None)
        }
    }
}

/// The identity of an index file as written: git replaces the index by
/// renaming a new file over it, so a new index has a new inode and time.
#[derive(Debug, Clone, PartialEq, Eq)]
struct IndexStamp {
    path: PathBuf,
    len: u64,
    modified: Option<std::time::SystemTime>,
    inode: u64,
    hash_len: usize,
}

/// The parsed indexes of the last few repositories walked: an agent's calls
/// (and a command walking several paths) read a large index once, not once
/// per walk.
static INDEXES: Mutex<Vec<(IndexStamp, Arc<Index>)>> = Mutex::new(Vec::new());
const CACHED_INDEXES: usize = 4;

/// Reads and parses the index at `path` (none: an empty index), reusing the
/// parse of an unchanged file.
fn load_index(path: &Path, git_dir: &Path, hash_len: usize) -> Result<Arc<Index>, WalkError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Arc::default()),
        Err(e) => {
            return Err(WalkError::Repository { path: path.to_path_buf(), reason: e.to_string() });
        }
    };
    let stamp = IndexStamp {
        path: path.to_path_buf(),
        len: meta.len(),
        modified: meta.modified().ok(),
        inode: crate::identity::of(path, &meta).ino,
        hash_len,
    };
    if let Ok(cache) = INDEXES.lock()
        && let Some((_, index)) = cache.iter().find(|(s, _)| *s == stamp)
    {
        return Ok(index.clone());
    }
    let (mut file, opened) = whole::open(path)
        .map_err(|e| WalkError::Repository { path: path.to_path_buf(), reason: e.to_string() })?;
    // Cache what was stamped: a file replaced between the stat and the open
    // is not cached under the old stamp.
    let unchanged = opened.len() == stamp.len
        && crate::identity::of_open(&file, &opened).ino == stamp.inode
        && opened.modified().ok() == stamp.modified;
    // A split index names its shared index: `$GIT_DIR/sharedindex.<hash>`,
    // else next to the index file (git's read_index_from). Its name is its
    // checksum, so the pair is cached under the split index's stamp.
    let mut read_shared = |hex: &str| {
        let name = format!("sharedindex.{hex}");
        let first = git_dir.join(&name);
        let path = match path.parent() {
            Some(dir) if !first.exists() => dir.join(&name),
            _ => first,
        };
        whole::open(&path)
            .map(|(file, meta)| (Box::new(file) as Box<dyn std::io::Read>, meta.len()))
            .map_err(|e| {
                index::IndexError::Io(format!(
                    "split index: cannot read its shared index {}: {e}",
                    path.display()
                ))
            })
    };
    let index =
        Arc::new(Index::read(&mut file, opened.len(), hash_len, &mut read_shared).map_err(
            |e| WalkError::Repository { path: path.to_path_buf(), reason: e.to_string() },
        )?);
    drop(file);
    if unchanged && let Ok(mut cache) = INDEXES.lock() {
        cache.retain(|(s, _)| s.path != stamp.path);
        if cache.len() >= CACHED_INDEXES {
            cache.remove(0);
        }
        cache.push((stamp, index.clone()));
    }
    Ok(index)
}

fn walk_git(
    config: &WalkConfig,
    cancel: &(dyn Fn() -> bool + Sync),
    repo: &repo::Repo,
) -> Result<Listing, WalkError> {
    let gitcfg = load_config(&config.env, repo);
    let hash_len = match gitcfg.get("extensions.objectformat").flatten() {
        Some(f) if f.eq_ignore_ascii_case("sha256") => 32,
        _ => 20,
    };
    let fold = gitcfg.get_bool("core.ignorecase").unwrap_or(false);
    // git's clear_skip_worktree_from_present_files: in a sparse checkout a
    // skip-worktree path found on disk is an ordinary tracked file.
    let clear_present_skip_worktree = gitcfg.get_bool("core.sparsecheckout").unwrap_or(false)
        && !gitcfg.get_bool("sparse.expectfilesoutsideofpatterns").unwrap_or(false);
    let index = load_index(&repo.git_dir.join("index"), &repo.git_dir, hash_len)?;
    let mut early_errors = Vec::new();
    let mut global = Vec::new();
    if config.ignore_files {
        // Read in git's order (`setup_standard_excludes`: the excludes file,
        // then info/exclude), so an error names the file git names; listed
        // by precedence (info/exclude first).
        let excludes_file = match gitcfg.get("core.excludesfile") {
            Some(Some(v)) => gitconfig::interpolate_path(v, config.env.home.as_deref())
                .map(|p| if p.is_absolute() { p } else { repo.top.join(p) }),
            _ => xdg_path(&config.env, "ignore"),
        };
        let user = match excludes_file {
            Some(path) => read_list(&path, &mut early_errors)?,
            None => None,
        };
        let info = read_list(&repo.common_dir.join("info").join("exclude"), &mut early_errors)?;
        global.extend(info);
        global.extend(user);
    }
    let mut prefix = repo.prefix.clone();
    if !prefix.is_empty() {
        prefix.push(b'/');
    }
    let walker = Walker {
        cfg: config,
        cancel,
        cancelled: AtomicBool::new(false),
        rules: Rules { global: Arc::new(global), fold },
        index: Some(&*index),
        prefix,
        git_mode: true,
        // Room for the tracked files under the root (most of a listing):
        // untouched room costs no memory, growth would copy.
        parts: Mutex::new(walker::Parts {
            entries: Vec::with_capacity(index.range_under(&repo.prefix).len()),
            ..Default::default()
        }),
        next_slot: AtomicUsize::new(1),
        lossy: AtomicBool::new(false),
        case_moved: AtomicBool::new(false),
        errors: Mutex::new(early_errors),
        dropped: Mutex::new(Vec::new()),
        clear_present_skip_worktree,
        skip_worktree: AtomicUsize::new(0),
        sparse_dirs: Mutex::new(Vec::new()),
    };
    // The leading path (git's treat_leading_path): the root's ancestors
    // below the top decide whether untracked files are looked for at all.
    // (The root's own ignore file is read by the walk itself.)
    let mut node = if repo.prefix.is_empty() {
        None
    } else {
        walker.load_ancestor_ignores(&repo.top, b"", None)
    };
    let mut walkable = true;
    let comps: Vec<&[u8]> = if repo.prefix.is_empty() {
        Vec::new()
    } else {
        repo.prefix.split(|&c| c == b'/').collect()
    };
    let mut rel: Vec<u8> = Vec::new();
    for (i, comp) in comps.iter().enumerate() {
        if !rel.is_empty() {
            rel.push(b'/');
        }
        rel.extend_from_slice(comp);
        let excluded = config.ignore_files && walker.rules.is_excluded(node.as_deref(), &rel, true);
        if excluded {
            walkable = false;
            break;
        }
        if !index.has_dir(&rel) {
            let is_gitlink = index.find(&rel).is_some_and(|at| index.entries[at].is_gitlink());
            if is_gitlink || repo::is_nested_repo(&repo.top.join(os_str(&rel))) {
                walkable = false;
                break;
            }
        }
        if i + 1 < comps.len() {
            let dir = repo.top.join(os_str(&rel));
            node = walker.load_ancestor_ignores(&dir, &rel, node);
        }
    }
    let mut extra = Vec::new();
    if walkable {
        run(
            &walker,
            Some(DirTask {
                rel: repo.prefix.clone(),
                node,
                forced: false,
                slot: 0,
                parent: None,
                index_rel: None,
            }),
            config.threads(),
        );
    } else {
        if (walker.cancel)() {
            return Err(WalkError::Cancelled);
        }
        let range = index.range_under(&repo.prefix);
        walker.resolve_slow(&repo.prefix, range, &mut extra);
    }
    // Submodules are walked after the superproject (each walk is parallel
    // on its own), whether or not the root's leading path is walkable: a
    // gitlink is tracked, so ignore rules do not hide it.
    let submodules = if config.recurse_submodules && !walker.cancelled.load(Ordering::Relaxed) {
        let roots = walker.submodule_roots(&index, index.range_under(&repo.prefix));
        submodule::walk_all(config, cancel, roots)?
    } else {
        Vec::new()
    };
    let listing =
        finish(walker, extra, Mode::Git { top: repo.top.clone(), git_dir: repo.git_dir.clone() })?;
    Ok(submodule::merge(listing, submodules, config))
}

#[cfg(test)]
mod tests {
    /// The permutation in place gives what a gather gives, for cycles of
    /// every length (fixed points, pairs, cycles longer than the look-ahead,
    /// one cycle through everything).
    #[test]
    fn permute_in_place_equals_a_gather() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for n in [0usize, 1, 2, 3, 9, 17, 100, 1000, 4096] {
            for kind in 0..4 {
                let mut order: Vec<u32> = (0..n as u32).collect();
                match kind {
                    0 => {}
                    1 => order.reverse(),
                    2 => {
                        // One cycle through every position.
                        order = (0..n as u32).map(|i| (i + 1) % n.max(1) as u32).collect();
                    }
                    _ => {
                        for i in (1..n).rev() {
                            let j = next(i + 1);
                            order.swap(i, j);
                        }
                    }
                }
                let items: Vec<String> = (0..n).map(|i| format!("item {i}")).collect();
                let gathered: Vec<String> =
                    order.iter().map(|&i| items[i as usize].clone()).collect();
                let mut permuted = items;
                super::permute(&mut permuted, order);
                assert_eq!(permuted, gathered, "n = {n}, kind = {kind}");
            }
        }
    }
}
