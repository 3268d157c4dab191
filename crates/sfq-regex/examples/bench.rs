//! Per-line search speed of the engine, to compare with `examples/bench_v8.mjs` (V8's own
//! per-line global exec loop) on the same corpus and patterns.
//!
//! ```text
//! cargo run --release -p sfq-regex --example bench -- CORPUS [PATTERN FLAGS]…
//! node crates/sfq-regex/examples/bench_v8.mjs CORPUS [PATTERN FLAGS]…
//! ```
//!
//! CORPUS is any UTF-8 text (for instance source files concatenated). Lines are split on
//! `\n` (a `\r` stays in its line, as in the search), converted to UTF-16 before timing,
//! and every line is searched with the global exec loop (`find_iter`). The figure is CPU
//! time of the searching thread: MB of UTF-8 corpus per second, best of three runs.
//!
//! `bench --budget` shows how long a catastrophic pattern runs before its budget ends;
//! `bench --compile` how long `Regex::new` takes.

use std::time::Duration;

use sfq_regex::{Budget, Regex};

const DEFAULT_PATTERNS: &[(&str, &str)] = &[
    (r"\bdef\s+\w+(?=\(self)", ""),
    (r"\b(\w+)\s+\1\b", ""),
    (r#"(['"])use strict\1"#, ""),
    (r"(?<![\w.])print\(", ""),
    (r"HashMap", ""),
    (r"\w+Error\b", ""),
    (r"TODO|FIXME", ""),
    (r"function\s+\w+", ""),
    (r"\bmutex\b", "i"),
    (r"^\s*#include\s*<", ""),
    (r"\d{4}-\d{2}-\d{2}", ""),
    (r"[^\x00-\x7F]+", "u"),
    (r"^.{120,}$", ""),
    (r"(?<=\.)\w+(?=\()", ""),
    (r"\b(?:let|const|var)\s+(\w+)\s*=", ""),
];

/// CPU time of this thread, from `/proc/thread-self/schedstat` (falls back to 0).
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()))
        .map(Duration::from_nanos)
        .unwrap_or_default()
}

/// How long a catastrophic pattern takes to exhaust budgets of various sizes.
fn budget_demo() {
    let re = Regex::from_str("^(a+)+$", "").expect("valid");
    let text: Vec<u16> = format!("{}b", "a".repeat(40)).encode_utf16().collect();
    for steps in [1_000_000u64, 10_000_000, 100_000_000] {
        let t0 = std::time::Instant::now();
        let mut budget = Budget::new(steps);
        let r = re.find_at(&text, 0, &mut budget);
        println!(
            "/^(a+)+$/ on 40 a's and a b, budget {steps} steps: {:?} after {:.1} ms",
            r.map(|_| ()),
            t0.elapsed().as_secs_f64() * 1e3
        );
    }
}

/// How long `Regex::new` takes for a few patterns.
fn compile_demo() {
    let patterns: &[(&str, &str)] = &[
        (r"HashMap", ""),
        (r"\b(\w+)\s+\1\b", ""),
        (r"\bmutex\b", "i"),
        (r"[a-z]+", "iu"),
        (r"\p{L}+", "u"),
        (r"[\p{L}--\p{Script=Latin}]", "v"),
        (r"\p{RGI_Emoji}", "v"),
        (r"(?<=[^\w.])print\(\s*(['\x22]).*?\1\s*\)", ""),
    ];
    for (p, f) in patterns {
        let n = 200;
        let t0 = std::time::Instant::now();
        for _ in 0..n {
            let _ = Regex::from_str(p, f).expect("valid");
        }
        println!("Regex::new(/{p}/{f}): {:.1} µs", t0.elapsed().as_secs_f64() * 1e6 / f64::from(n));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--budget") {
        budget_demo();
        return;
    }
    if args.first().map(String::as_str) == Some("--compile") {
        compile_demo();
        return;
    }
    let Some(path) = args.first() else {
        eprintln!("usage: bench CORPUS [PATTERN FLAGS]...");
        std::process::exit(2);
    };
    let corpus = std::fs::read_to_string(path).expect("corpus must be readable UTF-8");
    let lines: Vec<Vec<u16>> = corpus.split('\n').map(|l| l.encode_utf16().collect()).collect();
    let patterns: Vec<(String, String)> = if args.len() > 1 {
        args[1..].chunks(2).map(|c| (c[0].clone(), c.get(1).cloned().unwrap_or_default())).collect()
    } else {
        DEFAULT_PATTERNS.iter().map(|(p, f)| (p.to_string(), f.to_string())).collect()
    };
    let mb = corpus.len() as f64 / 1e6;
    println!("corpus: {mb:.1} MB, {} lines", lines.len());
    for (pattern, flags) in patterns {
        let re = match Regex::from_str(&pattern, &flags) {
            Ok(re) => re,
            Err(e) => {
                println!("{pattern}: {e}");
                continue;
            }
        };
        let mut best = Duration::MAX;
        let mut count = 0usize;
        let mut skipped = 0usize;
        for _ in 0..3 {
            count = 0;
            skipped = 0;
            let t0 = thread_cpu();
            for line in &lines {
                let mut budget = Budget::new(10_000_000);
                for m in re.find_iter(line, &mut budget) {
                    match m {
                        Ok(_) => count += 1,
                        Err(_) => {
                            skipped += 1;
                            break;
                        }
                    }
                }
            }
            best = best.min(thread_cpu() - t0);
        }
        let secs = best.as_secs_f64().max(1e-9);
        println!(
            "{:<40} {:<3} {:>8} matches {:>9.1} MB/s  ({:.3} s){}",
            format!("/{pattern}/"),
            flags,
            count,
            mb / secs,
            secs,
            if skipped > 0 { format!(", {skipped} lines over budget") } else { String::new() }
        );
    }
}
