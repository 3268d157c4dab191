//! Search speed of the fast path against the exact engine alone, per-line semantics.
//!
//! ```text
//! cargo run --release -p sfq-fast --example speed -- [--mb N] [CORPUS_FILE] [PATTERN FLAGS]…
//! ```
//!
//! Without a corpus file, the corpus is made of the UTF-8 source files under
//! `~/.cargo/registry/src` (sorted by path, concatenated up to `--mb` MB, 64 by default).
//! Lines are `split(/\r?\n/)`. Two searches per pattern, both giving every match of every
//! line (and compared, so the figure is for identical results):
//!
//! * **fast**: the pipeline as sfq-core would run it: `next_candidate` over the whole
//!   text, then on each candidate line `for_each_match`, or the exact engine if
//!   `needs_exact` (or the pattern is not exact), the line converted to UTF-16 first;
//! * **exact/line**: `sfq_regex::Regex::find_iter` on every line, lines converted to UTF-16
//!   before the clock starts (as `sfq-regex`'s own bench does).
//!
//! * **rg**: `rg --count-matches` (ripgrep, if on PATH) on the same corpus written to a
//!   temporary file, for scale: its `\w \d \s .` are Unicode and its lines split on `\n`
//!   only, so its counts may differ; it cannot run lookaround or backreferences without
//!   PCRE2.
//!
//! Figures are MB of UTF-8 corpus per second: CPU time of the searching thread, best of
//! three batches, for ours; wall time of the whole `rg` process (start included), best of
//! five, for ripgrep. `new µs` is the time of `FastRegex::new` (best of three).

use std::path::{Path, PathBuf};
use std::time::Duration;

use sfq_fast::{FastRegex, Scope};
use sfq_regex::{Budget, Regex};

const DEFAULT_PATTERNS: &[(&str, &str)] = &[
    ("HashMap", ""),
    ("TODO|FIXME|HACK", "i"),
    (r"\w+Error\b", ""),
    (r"fn\s+\w+", ""),
    (r"^\s*#include\s*<", ""),
    (r"\d{4}-\d{2}-\d{2}", ""),
    (r"[^\x00-\x7F]+", "u"),
    ("XyZzyNotHere", ""),
    (r"\bmutex\b", "i"),
    (r"^.{120,}$", ""),
    (r"\bdef\s+\w+(?=\(self)", ""),
    (r#"(['"])use strict\1"#, ""),
];

/// CPU time of this thread, from `/proc/thread-self/schedstat` (0 if unavailable).
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()))
        .map(Duration::from_nanos)
        .unwrap_or_default()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() {
            collect(&p, out);
        } else if kind.is_file()
            && p.extension().and_then(|x| x.to_str()).is_some_and(|x| {
                matches!(x, "rs" | "c" | "h" | "py" | "js" | "md" | "toml" | "txt" | "json")
            })
        {
            out.push(p);
        }
    }
}

fn registry_corpus(mb: usize) -> (String, usize) {
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let mut files = Vec::new();
    collect(&Path::new(&home).join(".cargo/registry/src"), &mut files);
    files.sort();
    let mut text = String::new();
    let mut used = 0;
    for f in files {
        if text.len() >= mb << 20 {
            break;
        }
        let Ok(bytes) = std::fs::read(&f) else { continue };
        if let Ok(s) = String::from_utf8(bytes) {
            text.push_str(&s);
            if !s.ends_with('\n') {
                text.push('\n');
            }
            used += 1;
        }
    }
    (text, used)
}

/// `split(/\r?\n/)` content spans.
fn js_lines(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for i in memchr_iter(b) {
        let end = if i > start && b[i - 1] == b'\r' { i - 1 } else { i };
        out.push((start, end));
        start = i + 1;
    }
    if start < b.len() {
        out.push((start, b.len()));
    }
    out
}

fn memchr_iter(b: &[u8]) -> impl Iterator<Item = usize> + '_ {
    b.iter().enumerate().filter(|&(_, &c)| c == b'\n').map(|(i, _)| i)
}

/// The pipeline: candidates, then the fast matcher or the exact engine per line.
fn fast_search(fast: &FastRegex, exact: &Regex, text: &str) -> (usize, usize, usize) {
    let bytes = text.as_bytes();
    let mut cache = fast.create_cache();
    let (mut matches, mut candidates, mut exact_lines) = (0, 0, 0);
    let mut pos = 0;
    while pos < bytes.len() {
        let Some(c) = fast.next_candidate_with(&mut cache, text, pos) else { break };
        if c >= bytes.len() && bytes.last() == Some(&b'\n') {
            break;
        }
        candidates += 1;
        let start =
            memchr::memrchr(b'\n', &bytes[pos..c.min(bytes.len())]).map_or(pos, |i| pos + i + 1);
        let newline = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let end =
            if newline > start && bytes[newline - 1] == b'\r' { newline - 1 } else { newline };
        let line = &text[start..end];
        if fast.needs_exact(line) {
            exact_lines += 1;
            let units: Vec<u16> = line.encode_utf16().collect();
            let mut budget = Budget::new(10_000_000);
            matches += exact.find_iter(&units, &mut budget).filter(|m| m.is_ok()).count();
        } else {
            fast.for_each_match_with(&mut cache, line, |_, _| {
                matches += 1;
                true
            });
        }
        pos = newline + 1;
    }
    (matches, candidates, exact_lines)
}

fn exact_search(exact: &Regex, lines: &[Vec<u16>]) -> usize {
    let mut matches = 0;
    for units in lines {
        let mut budget = Budget::new(10_000_000);
        matches += exact.find_iter(units, &mut budget).filter(|m| m.is_ok()).count();
    }
    matches
}

/// CPU time of one run of `f`: best of three batches, each repeating `f` until it took
/// 200 ms at least (the clock behind `schedstat` is coarse on some kernels).
fn best_of_three(mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut result = 0;
    for _ in 0..3 {
        let t0 = thread_cpu();
        let mut runs = 0u32;
        while runs == 0 || thread_cpu() - t0 < Duration::from_millis(200) {
            result = std::hint::black_box(f());
            runs += 1;
        }
        best = best.min((thread_cpu() - t0) / runs);
    }
    (best, result)
}

/// ripgrep on the same corpus (`rg --count-matches`, with `-i` for the i flag): the wall
/// time of one run (best of five; process start included) and its match count; `None`
/// if `rg` is not on PATH or refuses the pattern (lookaround, backreferences: ripgrep
/// needs PCRE2 for them).
fn ripgrep(file: &Path, pattern: &str, flags: &str) -> Option<(Duration, usize)> {
    let mut cmd = std::process::Command::new("rg");
    cmd.args(["--no-config", "--count-matches", "--no-filename"]);
    if flags.contains('i') {
        cmd.arg("-i");
    }
    cmd.arg("-e").arg(pattern).arg(file);
    let first = cmd.output().ok()?;
    if !first.status.success() && first.status.code() != Some(1) {
        return None;
    }
    let count = String::from_utf8_lossy(&first.stdout).trim().parse().unwrap_or(0);
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t0 = std::time::Instant::now();
        cmd.output().ok()?;
        best = best.min(t0.elapsed());
    }
    Some((best, count))
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut mb = 64;
    if let Some(i) = args.iter().position(|a| a == "--mb") {
        mb = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(mb);
        args.drain(i..(i + 2).min(args.len()));
    }
    let (text, source) = if !args.is_empty() && args.len() % 2 == 1 {
        let path = args.remove(0);
        (std::fs::read_to_string(&path).expect("a UTF-8 corpus file"), path)
    } else {
        let (t, n) = registry_corpus(mb);
        (t, format!("{n} files under ~/.cargo/registry/src"))
    };
    let patterns: Vec<(String, String)> = if args.is_empty() {
        DEFAULT_PATTERNS.iter().map(|(p, f)| (p.to_string(), f.to_string())).collect()
    } else {
        args.chunks(2).map(|c| (c[0].clone(), c[1].clone())).collect()
    };
    let spans = js_lines(&text);
    let lines16: Vec<Vec<u16>> =
        spans.iter().map(|&(a, b)| text[a..b].encode_utf16().collect()).collect();
    let mbytes = text.len() as f64 / 1e6;
    let corpus_file =
        std::env::temp_dir().join(format!("sfq-fast-speed-{}.txt", std::process::id()));
    std::fs::write(&corpus_file, &text).expect("write the corpus for ripgrep");
    println!("corpus: {source}: {mbytes:.1} MB, {} lines", spans.len());
    println!(
        "{:<24} {:>5} {:>7} {:>8} {:>11} {:>9} {:>10} {:>8} {:>6} {:>13}",
        "pattern",
        "flags",
        "matches",
        "exact?",
        "cand/exact",
        "fast MB/s",
        "exact MB/s",
        "speedup",
        "new µs",
        "rg MB/s (n)"
    );
    for (p, f) in &patterns {
        let units: Vec<u16> = p.encode_utf16().collect();
        let exact = match Regex::new(&units, f) {
            Ok(r) => r,
            Err(e) => {
                println!("{p}: {e}");
                continue;
            }
        };
        let mut build = Duration::MAX;
        for _ in 0..3 {
            let t0 = std::time::Instant::now();
            std::hint::black_box(FastRegex::new(exact.ast(), Scope::Lines));
            build = build.min(t0.elapsed());
        }
        let fast = FastRegex::new(exact.ast(), Scope::Lines);
        let mut info = (0, 0, 0);
        let (fast_time, fast_count) = best_of_three(|| {
            info = fast_search(&fast, &exact, &text);
            info.0
        });
        let (exact_time, exact_count) = best_of_three(|| exact_search(&exact, &lines16));
        assert_eq!(fast_count, exact_count, "/{p}/{f}: the two searches disagree");
        let rate = |d: Duration| mbytes / d.as_secs_f64().max(1e-9);
        let rg = match ripgrep(&corpus_file, p, f) {
            Some((d, n)) => format!("{:.0} ({n})", rate(d)),
            None => "n/a".to_string(),
        };
        let kind = match fast.inexact_reason() {
            None if fast.has_line_scan() => "yes+lit".to_string(),
            None => "yes".to_string(),
            Some(why) => format!("no:{why}").chars().take(8).collect(),
        };
        println!(
            "{:<24} {:>5} {:>7} {:>8} {:>11} {:>9.0} {:>10.0} {:>7.1}x {:>6} {:>13}",
            p,
            f,
            fast_count,
            kind,
            format!("{}/{}", info.1, info.2),
            rate(fast_time),
            rate(exact_time),
            exact_time.as_secs_f64() / fast_time.as_secs_f64().max(1e-9),
            build.as_micros(),
            rg
        );
    }
    let _ = std::fs::remove_file(&corpus_file);
}
