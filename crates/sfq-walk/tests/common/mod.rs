//! Shared helpers of the integration tests: a seeded PRNG, temp dirs and
//! listings' paths.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// SplitMix64: small, seedable, good enough for test generation.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Seeds to run: `SFQ_WALK_SEED=n` runs just that one, `SFQ_WALK_SEEDS=n`
/// runs seeds `1..=n` and `SFQ_WALK_SEEDS=a..b` seeds `a..=b`, otherwise
/// `default` fixed seeds.
pub fn seeds(default: u64) -> Vec<u64> {
    if let Some(s) = std::env::var("SFQ_WALK_SEED").ok().and_then(|v| v.parse().ok()) {
        return vec![s];
    }
    let spec = std::env::var("SFQ_WALK_SEEDS").unwrap_or_default();
    if let Some((a, b)) = spec.split_once("..") {
        let bound =
            |v: &str| v.trim().parse::<u64>().expect("SFQ_WALK_SEEDS=a..b: a and b are numbers");
        return (bound(a)..=bound(b)).collect();
    }
    let n = spec.parse().unwrap_or(default);
    (1..=n).collect()
}

/// A temporary directory removed on drop.
pub struct TempDir(pub PathBuf);

/// `SFQ_WALK_RECORD`: where a run on Linux keeps copies of its trees (under
/// `trees/`) and git's answers on them (under `cases/`), for the same tests built for
/// Windows to replay there (`SFQ_WALK_REPLAY`: the same folder as Windows
/// sees it), where git cannot be run by the test itself (under Wine a Linux
/// git starts but is not waited for).
pub fn record_dir() -> Option<PathBuf> {
    std::env::var_os("SFQ_WALK_RECORD").map(PathBuf::from)
}

/// `SFQ_WALK_REPLAY`: the folder a recording run filled (see [`record_dir`]).
pub fn replay_dir() -> Option<PathBuf> {
    std::env::var_os("SFQ_WALK_REPLAY").map(PathBuf::from)
}

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("sfq-walk-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("create temp dir");
        TempDir(std::fs::canonicalize(&p).expect("canonicalize"))
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::env::var_os("SFQ_WALK_KEEP").is_none() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The file paths of a listing, in its order.
pub fn files(listing: &sfq_walk::discovery::Listing) -> Vec<String> {
    listing
        .entries
        .iter()
        .filter(|e| e.kind == sfq_walk::discovery::EntryKind::File)
        .map(|e| e.path.to_string())
        .collect()
}

/// The paths of `set` in UTF-16 order (a listing's order).
pub fn sorted_utf16(set: std::collections::BTreeSet<String>) -> Vec<String> {
    let mut list: Vec<String> = set.into_iter().collect();
    list.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    list
}

/// Makes a symbolic link where the platform lets the test (on Windows that
/// takes a privilege, so it may fail: the tests that make links expect them
/// never listed, which holds as well when there is none).
pub fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(target, link).expect("symlink");
    #[cfg(windows)]
    {
        let (target, link) = (target.as_ref(), link.as_ref());
        let is_dir = link.parent().is_some_and(|p| p.join(target).is_dir());
        let _ = if is_dir {
            std::os::windows::fs::symlink_dir(target, link)
        } else {
            std::os::windows::fs::symlink_file(target, link)
        };
    }
}

/// Copies the folder `from` to `to` (files and folders; no links).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create copy");
    for e in std::fs::read_dir(from).expect("read folder").flatten() {
        let kind = e.file_type().expect("file type");
        if kind.is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()));
        } else if kind.is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("copy file");
        }
    }
}
