//! No input may panic or overflow the stack: random and pathological globs.

mod common;

use common::{Rng, seeds};
use sfq_walk::glob::{Glob, GlobOptions, GlobSet};

const CHARS: &[char] = &[
    'a', 'b', '.', '/', '*', '?', '[', ']', '{', '}', '(', ')', '!', '@', '+', '|', ',', '\\', '^',
    '$', '-', ':', '"', '\0', '\n', '1', '9', 'é', '😀', '\u{FFFF}', '<', '=', '#', ' ',
];

fn try_all(pattern: &str, paths: &[&str]) {
    for opts in [GlobOptions::default(), GlobOptions { dot: true, basename: true }] {
        if let Ok(g) = Glob::new(pattern, &opts) {
            for p in paths {
                let _ = g.is_match(p);
                let _ = g.could_match_under(p);
                let _ = g.covers_dir(p);
            }
        }
    }
}

#[test]
fn random_globs_do_not_panic() {
    let paths = ["a", "a/b", ".a/b.c", "", "/", "a//b/", "😀/é", "[a]/{b}"];
    for seed in seeds(3) {
        let mut rng = Rng::new(seed ^ 0xABCD);
        for _ in 0..1000 {
            let n = 1 + rng.below(24);
            let p: String = (0..n).map(|_| CHARS[rng.below(CHARS.len())]).collect();
            try_all(&p, &paths);
        }
    }
}

#[test]
fn pathological_globs_are_bounded() {
    let paths = ["a/b/c", "((((", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"];
    let cases = [
        format!("{}{}", "(".repeat(5000), ")".repeat(5000)),
        "!(".repeat(2000),
        "@(a|".repeat(2000),
        "[".repeat(20000),
        "\\[".repeat(20000),
        "*".repeat(60000),
        // Quadratic in picomatch too (each unmatched `}` rebuilds the output).
        format!("{}{}", "{".repeat(1500), "}".repeat(1500)),
        "{a,".repeat(1500),
        "a/".repeat(30000),
        "**/".repeat(20000),
        "[[:alpha:]".repeat(1500),
        "+(a)".repeat(3000),
        "x".repeat(70000),
    ];
    for c in &cases {
        try_all(c, &paths);
    }
    // A set with many patterns still answers.
    let many: Vec<String> = (0..2000).map(|i| format!("dir{i}/**/*.ts")).collect();
    let set = GlobSet::new(&many, &GlobOptions::default()).expect("set");
    assert!(set.is_match("dir1999/x/y.ts"));
    assert!(!set.could_match_under("other"));
}

#[test]
fn user_lookaheads_with_many_branches_are_bounded() {
    // picomatch passes `(?=` through: a long loop-free lookahead must not
    // recurse once per branch.
    let p = format!("(?={})*", "(a|b)".repeat(3000));
    try_all(&p, &["ab", "ba/x"]);
}
