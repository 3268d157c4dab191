//! Property test against V8: random JavaScript regexes from a grammar (literals with the
//! tricky case pairs, classes, `.`, `\d \w \s \b \B`, anchors, alternation, greedy and lazy
//! quantifiers, groups, named groups, lookarounds, backreferences, `\p{…}`, `v` set
//! operations; flags from `i m s u v`) and random texts (astral characters, `\r`, `\r\n`,
//! U+2028/9, NBSP, U+FEFF, U+0085 …). For every case, in both scopes:
//!
//! 1. exactness: when `is_exact()` and `!needs_exact(text)`, `for_each_match` gives V8's
//!    `matchAll` matches (as UTF-16 offsets) on each line (Lines) or the whole text;
//! 2. superset: every line holding a V8 match gets a candidate in the pipeline's loop
//!    (Lines); no V8 match starts between `from` and the candidate (Whole);
//! 3. patterns with lookarounds or backreferences are never exact.
//!
//! `cargo test -p sfq-fast` runs one fixed seed. More seeds (release is faster):
//! `SFQ_FAST_SEEDS=1..500 cargo test -p sfq-fast --release --test v8_property -- --nocapture`
//! (`SFQ_FAST_CASES` sets the number of cases per seed, 2,500 by default).

mod common;

use common::{Case, PatternGen, Rng, oracle, seeds};
use sfq_fast::{FastRegex, Scope};
use sfq_regex::ast::{Node, Pattern};

/// What the comparison covered.
#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    rejected_by_parser: usize,
    v8_timeouts: usize,
    v8_crashes: usize,
    exact_patterns: usize,
    lines: usize,
    lines_compared: usize,
    lines_compared_with_matches: usize,
    lines_guarded: usize,
    lines_with_matches: usize,
    wholes_compared: usize,
    wholes_compared_with_matches: usize,
    whole_candidates_checked: usize,
}

fn generate(seed: u64, count: usize, stats: &mut Stats) -> Vec<(Case, Pattern)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let flags = common::flags(&mut rng);
        let pattern = PatternGen::new(&mut rng, &flags).generate();
        let units: Vec<u16> = pattern.encode_utf16().collect();
        let ast = match sfq_regex::parse(&units, &flags) {
            Ok(ast) => ast,
            Err(_) => {
                stats.rejected_by_parser += 1;
                continue;
            }
        };
        let unicode = ast.unicode_mode();
        let texts = (0..1 + rng.below(2))
            .map(|_| common::text(&mut rng, Some(&ast.root), unicode))
            .collect();
        out.push((Case { pattern, flags, texts }, ast));
    }
    out
}

/// The content spans of `text.split(/\r?\n/)`.
fn js_lines(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, _) in text.match_indices('\n') {
        let end = if i > start && text.as_bytes()[i - 1] == b'\r' { i - 1 } else { i };
        out.push((start, end));
        start = i + 1;
    }
    out.push((start, text.len()));
    out
}

/// The UTF-16 offset of each byte offset that is a character boundary.
fn utf16_of(s: &str, byte: usize) -> usize {
    s[..byte].encode_utf16().count()
}

/// The byte offset of the character holding UTF-16 offset `unit` (its start).
fn byte_floor(s: &str, unit: usize) -> usize {
    let mut u = 0;
    for (b, c) in s.char_indices() {
        if u + c.len_utf16() > unit {
            return b;
        }
        u += c.len_utf16();
    }
    s.len()
}

fn parse_list(list: &str) -> Vec<(usize, usize)> {
    list.split(' ')
        .filter(|m| !m.is_empty())
        .map(|m| {
            let (s, e) = m.split_once(',').expect("start,end");
            (s.parse().expect("start"), e.parse().expect("end"))
        })
        .collect()
}

fn ours(re: &FastRegex, text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut cache = re.create_cache();
    let ran = re.for_each_match_with(&mut cache, text, |s, e| {
        assert!(text.is_char_boundary(s) && text.is_char_boundary(e) && s <= e);
        out.push((utf16_of(text, s), utf16_of(text, e)));
        out.len() < 100_000
    });
    assert!(ran);
    // The pooled form agrees with the cached one.
    let mut again = Vec::new();
    re.for_each_match(text, |s, e| {
        again.push((utf16_of(text, s), utf16_of(text, e)));
        true
    });
    assert_eq!(out, again);
    out
}

/// The lines the pipeline's loop visits: candidate, its line, resume after that line.
fn candidate_lines(re: &FastRegex, text: &str) -> Result<Vec<usize>, String> {
    let mut lines = Vec::new();
    let mut cache = re.create_cache();
    let mut pos = 0;
    while let Some(c) = re.next_candidate_with(&mut cache, text, pos) {
        if c < pos || c > text.len() || !text.is_char_boundary(c) {
            return Err(format!("candidate {c} from {pos} is not a boundary at or after it"));
        }
        if re.next_candidate(text, pos) != Some(c) {
            return Err(format!("pooled and cached candidates differ from {pos}"));
        }
        lines.push(text.as_bytes()[..c].iter().filter(|&&b| b == b'\n').count());
        match text[c..].find('\n') {
            Some(i) => pos = c + i + 1,
            None => break,
        }
    }
    Ok(lines)
}

fn has_lookaround_or_backreference(node: &Node) -> bool {
    match node {
        Node::Lookaround(_) | Node::BackReference(_) => true,
        Node::Concat(v) | Node::Alternation(v) => v.iter().any(has_lookaround_or_backreference),
        Node::Capture(c) => has_lookaround_or_backreference(&c.node),
        Node::Repeat(r) => has_lookaround_or_backreference(&r.node),
        _ => false,
    }
}

fn describe(case: &Case, text: &str) -> String {
    format!(
        "new RegExp({}, {}) on {}",
        common::json_string(&case.pattern),
        common::json_string(&case.flags),
        common::json_string(text)
    )
}

fn check_case(case: &Case, ast: &Pattern, v8: &str, stats: &mut Stats, failures: &mut Vec<String>) {
    match v8 {
        "T" => {
            stats.v8_timeouts += 1;
            eprintln!("V8 timed out (not compared): {}", describe(case, ""));
            return;
        }
        "C" => {
            stats.v8_crashes += 1;
            eprintln!("V8 crashed (not compared): {}", describe(case, ""));
            return;
        }
        "E" => {
            failures.push(format!("V8 rejects a pattern sfq-regex parsed: {}", describe(case, "")));
            return;
        }
        _ => {}
    }
    let lines_re = FastRegex::new(ast, Scope::Lines);
    let whole_re = FastRegex::new(ast, Scope::Whole);
    if lines_re.is_exact() {
        stats.exact_patterns += 1;
    }
    if has_lookaround_or_backreference(&ast.root) && (lines_re.is_exact() || whole_re.is_exact()) {
        failures.push(format!("exact with lookaround/backreference: {}", describe(case, "")));
    }
    let results: Vec<&str> = v8.split('\t').skip(1).collect();
    assert_eq!(results.len(), case.texts.len());
    for (text, result) in case.texts.iter().zip(results) {
        let (lines_part, whole_part) = result.split_once('#').expect("lines#whole");
        let v8_lines: Vec<Vec<(usize, usize)>> = lines_part.split('/').map(parse_list).collect();
        let spans = js_lines(text);
        assert_eq!(spans.len(), v8_lines.len(), "line count of {text:?}");

        // Lines scope: exactness per line, then the superset over the whole text.
        let mut with_matches = Vec::new();
        for (i, (&(a, b), v8_line)) in spans.iter().zip(&v8_lines).enumerate() {
            let line = &text[a..b];
            stats.lines += 1;
            if !v8_line.is_empty() {
                with_matches.push(i);
            }
            if lines_re.needs_exact(line) {
                if lines_re.is_exact() {
                    stats.lines_guarded += 1;
                }
                continue;
            }
            let got = ours(&lines_re, line);
            stats.lines_compared += 1;
            if !v8_line.is_empty() {
                stats.lines_compared_with_matches += 1;
            }
            if &got != v8_line {
                failures.push(format!(
                    "Lines: {}\n    V8:   {v8_line:?}\n    fast: {got:?}",
                    describe(case, line)
                ));
            }
        }
        stats.lines_with_matches += with_matches.len();
        match candidate_lines(&lines_re, text) {
            Ok(candidates) => {
                for i in with_matches {
                    if !candidates.contains(&i) {
                        failures.push(format!(
                            "Lines superset: line {i} has V8 matches {:?} but no candidate ({candidates:?}): {}",
                            v8_lines[i],
                            describe(case, text)
                        ));
                    }
                }
            }
            Err(e) => failures.push(format!("Lines candidates: {e}: {}", describe(case, text))),
        }

        // Whole scope.
        let v8_whole = parse_list(whole_part);
        if !whole_re.needs_exact(text) {
            let got = ours(&whole_re, text);
            stats.wholes_compared += 1;
            if !v8_whole.is_empty() {
                stats.wholes_compared_with_matches += 1;
            }
            if got != v8_whole {
                failures.push(format!(
                    "Whole: {}\n    V8:   {v8_whole:?}\n    fast: {got:?}",
                    describe(case, text)
                ));
            }
        }
        let starts: Vec<usize> = v8_whole.iter().map(|&(s, _)| byte_floor(text, s)).collect();
        for from in std::iter::once(0).chain(starts.iter().copied()) {
            let first = starts.iter().copied().filter(|&s| s >= from).min();
            let got = whole_re.next_candidate(text, from);
            stats.whole_candidates_checked += 1;
            let ok = match (first, got) {
                (None, _) => got.is_none_or(|p| p >= from),
                (Some(s), Some(p)) => from <= p && p <= s,
                (Some(_), None) => false,
            };
            if !ok {
                failures.push(format!(
                    "Whole superset: from {from}, first V8 start {first:?}, candidate {got:?}: {}",
                    describe(case, text)
                ));
            }
        }
    }
}

#[test]
fn fast_path_agrees_with_v8() {
    let count: usize =
        std::env::var("SFQ_FAST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(2500);
    let mut total = Stats::default();
    let mut failures = Vec::new();
    let seeds = seeds("SFQ_FAST_SEEDS", 20_250_601);
    for &seed in &seeds {
        let mut stats = Stats::default();
        let cases = generate(seed, count, &mut stats);
        let plain: Vec<Case> = cases.iter().map(|(c, _)| c.clone()).collect();
        let t0 = std::time::Instant::now();
        let v8 = oracle(&plain, &format!("seed{seed}"));
        let oracle_time = t0.elapsed();
        let before = failures.len();
        for ((case, ast), line) in cases.iter().zip(&v8) {
            stats.cases += 1;
            check_case(case, ast, line, &mut stats, &mut failures);
        }
        if seeds.len() > 1 || std::env::var("SFQ_FAST_VERBOSE").is_ok() {
            eprintln!(
                "seed {seed}: {} cases, {} failures (V8 {:.1} s, total {:.1} s)",
                stats.cases,
                failures.len() - before,
                oracle_time.as_secs_f64(),
                t0.elapsed().as_secs_f64()
            );
        }
        add(&mut total, &stats);
    }
    eprintln!("{total:#?}");
    if !failures.is_empty() {
        let n = failures.len();
        failures.truncate(30);
        panic!("{n} disagreements with V8:\n{}", failures.join("\n"));
    }
    // The comparison must not become vacuous.
    let per_seed = |n: usize| n * seeds.len();
    assert!(total.exact_patterns >= per_seed(count / 3), "{total:?}");
    assert!(total.lines_compared_with_matches >= per_seed(count / 3), "{total:?}");
    assert!(total.wholes_compared_with_matches >= per_seed(count / 5), "{total:?}");
    assert!(total.lines_with_matches >= per_seed(count / 2), "{total:?}");
}

fn add(total: &mut Stats, s: &Stats) {
    total.cases += s.cases;
    total.rejected_by_parser += s.rejected_by_parser;
    total.v8_timeouts += s.v8_timeouts;
    total.v8_crashes += s.v8_crashes;
    total.exact_patterns += s.exact_patterns;
    total.lines += s.lines;
    total.lines_compared += s.lines_compared;
    total.lines_compared_with_matches += s.lines_compared_with_matches;
    total.lines_guarded += s.lines_guarded;
    total.lines_with_matches += s.lines_with_matches;
    total.wholes_compared += s.wholes_compared;
    total.wholes_compared_with_matches += s.wholes_compared_with_matches;
    total.whole_candidates_checked += s.whole_candidates_checked;
}
