//! Speed check: `cargo run --release -p sfq-walk --example bench -- DIR [GLOB…]`.
//! Walks DIR (git or plain mode) a few times and reports the best time, then
//! matches every listed path against each GLOB.
//! `bench --list DIR` prints the listed paths, NUL-terminated (to diff with
//! `git ls-files -z --cached --others --exclude-standard`); the environment
//! variables `SFQ_BENCH_METADATA=0` and `SFQ_BENCH_THREADS=n` change the walk.
//! `SFQ_BENCH_WALK=0` skips the walk timings (the paths are still listed once);
//! `SFQ_BENCH_REPEAT=n` matches each glob n times and reports the best run.

use std::time::Instant;

use sfq_walk::discovery::{WalkConfig, walk};
use sfq_walk::glob::{Glob, GlobOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut dir = args.next().ok_or("usage: bench [--list] DIR [GLOB…]")?;
    if dir == "--list" {
        dir = args.next().ok_or("usage: bench --list DIR")?;
        let metadata = std::env::var("SFQ_BENCH_METADATA").map_or(true, |v| v != "0");
        let threads =
            std::env::var("SFQ_BENCH_THREADS").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
        let cfg = WalkConfig::builder(&dir).metadata(metadata).threads(threads).build()?;
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        for e in walk(&cfg, &|| false)?.entries {
            use std::io::Write;
            out.write_all(e.path.as_bytes())?;
            out.write_all(b"\0")?;
        }
        return Ok(());
    }
    let globs: Vec<String> = args.collect();
    let time_walk = std::env::var("SFQ_BENCH_WALK").map_or(true, |v| v != "0");
    let repeat: usize =
        std::env::var("SFQ_BENCH_REPEAT").ok().and_then(|v| v.parse().ok()).unwrap_or(1).max(1);
    for threads in [1, 2].into_iter().filter(|_| time_walk) {
        for metadata in [true, false] {
            let cfg = WalkConfig::builder(&dir).threads(threads).metadata(metadata).build()?;
            let mut best = f64::MAX;
            let mut n = 0;
            for _ in 0..5 {
                let t = Instant::now();
                let l = walk(&cfg, &|| false)?;
                best = best.min(t.elapsed().as_secs_f64());
                n = l.entries.len();
            }
            println!(
                "walk threads={threads} metadata={metadata}: {n} entries, best {:.1} ms",
                best * 1e3
            );
        }
    }
    let cfg = WalkConfig::builder(&dir).build()?;
    let paths: Vec<String> =
        walk(&cfg, &|| false)?.entries.into_iter().map(|e| e.path.into()).collect();
    for g in globs {
        let glob = Glob::new(&g, &GlobOptions::default())?;
        let (mut el, mut hits) = (f64::MAX, 0);
        for _ in 0..repeat {
            let t = Instant::now();
            hits = paths.iter().filter(|p| glob.is_match(p)).count();
            el = el.min(t.elapsed().as_secs_f64());
        }
        println!(
            "glob {g:?}: {hits}/{} matched in {:.1} ms ({:.2} µs/path)",
            paths.len(),
            el * 1e3,
            el * 1e6 / paths.len() as f64
        );
    }
    Ok(())
}
