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
