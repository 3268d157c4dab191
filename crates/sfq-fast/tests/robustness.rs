//! `FastRegex::new` and the searches never panic: random pattern soup (valid or not, as
//! `sfq_regex::parse` decides), huge counts, deep nesting, huge classes; every search
//! method on random texts and offsets (including offsets inside characters and past the
//! end).

mod common;

use common::{PatternGen, Rng};
use sfq_fast::{FastRegex, Scope};

/// Pieces of pattern soup: syntax in every state of completion (huge counts are in
/// `huge_and_deep_patterns_fall_back_quickly`: each costs a failed build).
const SOUP: &[&str] = &[
    "a",
    "b",
    "é",
    "ſ",
    "\u{212A}",
    "😀",
    "\n",
    "\r",
    "\u{2028}",
    ".",
    "^",
    "$",
    "|",
    "(",
    ")",
    "(?:",
    "(?=",
    "(?!",
    "(?<=",
    "(?<!",
    "(?<n>",
    "\\k<n>",
    "[",
    "]",
    "[^",
    "-",
    "{",
    "}",
    "{2}",
    "{1,3}",
    "{0,}",
    "{999}",
    "*",
    "+",
    "?",
    "??",
    "\\",
    "\\1",
    "\\2",
    "\\b",
    "\\B",
    "\\d",
    "\\w",
    "\\s",
    "\\S",
    "\\W",
    "\\p{L}",
    "\\P{Lu}",
    "\\p{RGI_Emoji}",
    "\\q{ab|c}",
    "--",
    "&&",
    "\\u{10FFFF}",
    "\\uD83D",
    "\\uDE00",
    "\\x",
    "\\c",
    "\\0",
    "[^]",
    "[]",
];

fn soup(rng: &mut Rng) -> String {
    (0..1 + rng.below(12)).map(|_| *rng.pick(SOUP)).collect()
}

/// Exercises every method; nothing may panic.
fn exercise(re: &FastRegex, texts: &[String], rng: &mut Rng) {
    let mut cache = re.create_cache();
    for text in texts {
        let _ = re.needs_exact(text);
        let mut n = 0;
        re.for_each_match(text, |s, e| {
            assert!(s <= e && e <= text.len());
            n += 1;
            n < 1000
        });
        re.for_each_match_with(&mut cache, text, |_, _| false);
        for _ in 0..4 {
            let from = rng.below(text.len() + 3);
            if let Some(c) = re.next_candidate(text, from) {
                assert!(c >= from && c <= text.len());
            }
            let _ = re.next_candidate_with(&mut cache, text, from);
        }
    }
}

#[test]
fn random_soup_never_panics() {
    let mut rng = Rng::new(7);
    let mut built = 0;
    let texts: Vec<String> = (0..4).map(|_| common::text(&mut rng, None, false)).collect();
    for _ in 0..3000 {
        let p = soup(&mut rng);
        let f = common::flags(&mut rng);
        let units: Vec<u16> = p.encode_utf16().collect();
        let Ok(ast) = sfq_regex::parse(&units, &f) else { continue };
        built += 1;
        for scope in [Scope::Lines, Scope::Whole] {
            exercise(&FastRegex::new(&ast, scope), &texts, &mut rng);
        }
    }
    assert!(built > 500, "only {built} patterns parsed");
}

#[test]
fn grammar_patterns_never_panic_on_any_offset() {
    let mut rng = Rng::new(11);
    for _ in 0..400 {
        let f = common::flags(&mut rng);
        let p = PatternGen::new(&mut rng, &f).generate();
        let units: Vec<u16> = p.encode_utf16().collect();
        let Ok(ast) = sfq_regex::parse(&units, &f) else { continue };
        let texts: Vec<String> =
            (0..3).map(|_| common::text(&mut rng, Some(&ast.root), ast.unicode_mode())).collect();
        for scope in [Scope::Lines, Scope::Whole] {
            exercise(&FastRegex::new(&ast, scope), &texts, &mut rng);
        }
    }
}

#[test]
fn huge_and_deep_patterns_fall_back_quickly() {
    let deep = format!("{}a{}", "(?:".repeat(400), ")".repeat(400));
    let deep_groups = format!("{}a{}", "(".repeat(400), ")*".repeat(400));
    let many_refs = format!("(a)(b){}", "\\1\\2".repeat(300));
    let nested_refs: String =
        (1..=40).map(|i| format!("({})", "\\".to_string() + &i.to_string())).collect();
    let patterns: Vec<(String, &str)> = vec![
        ("(?:a{1000}){1000}".into(), ""),
        ("(?:[\\s\\S]{100}){100}".into(), "u"),
        ("\\p{L}{1000}".into(), "iu"),
        ("(?:\\w{50}){50}".into(), "iu"),
        ("a{2147483647}".into(), ""),
        ("a{0,2147483647}".into(), "u"),
        ("(?:\\uD800){1000000}".into(), ""),
        ("(?:){99999}x".into(), ""),
        (deep, ""),
        (deep_groups, "v"),
        (many_refs, "i"),
        (nested_refs, ""),
        ("[\\p{L}--\\p{Lu}]{200}".into(), "v"),
        ("\\p{RGI_Emoji}{50}".into(), "v"),
    ];
    let mut rng = Rng::new(3);
    let texts = vec!["a".repeat(300), "ab\n".repeat(50), "é😀\r\n".repeat(20)];
    for (p, f) in &patterns {
        let units: Vec<u16> = p.encode_utf16().collect();
        let ast = sfq_regex::parse(&units, f).unwrap_or_else(|e| panic!("{p}: {e}"));
        for scope in [Scope::Lines, Scope::Whole] {
            let t0 = std::time::Instant::now();
            let re = FastRegex::new(&ast, scope);
            let took = t0.elapsed();
            // Generous (debug build, shared machine): the point is "no runaway".
            assert!(took.as_secs() < 20, "/{p}/{f} took {took:?} to build");
            exercise(&re, &texts, &mut rng);
        }
    }
}
