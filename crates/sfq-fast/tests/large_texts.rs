//! Large texts (many lines, lines longer than the candidate search's windows, far-apart
//! candidates, guarded characters in between), checked line by line against the exact
//! engine (`sfq_regex`, itself checked against V8 by its own tests): every line it finds a
//! match in is a candidate, and `for_each_match` gives its matches on unguarded lines.

mod common;

use common::Rng;
use sfq_fast::{FastRegex, Scope};
use sfq_regex::{Budget, Regex};

/// Patterns exercising each prefilter path: plain regex, literal scan, non-ASCII scan,
/// line-length scan, forced candidates (astral, U+2028/9, ſ/K), no prefilter.
const PATTERNS: &[(&str, &str)] = &[
    ("needle", ""),
    (r"\w+Error\b", ""),
    (r"^\s*#include\s*<", ""),
    (r"[^\x00-\x7F]+", "u"),
    (r"[^\x00-\x7F]+", ""),
    (r"^.{60,}$", ""),
    (r"^.{60,}$", "u"),
    (r"x.{50,}y", "s"),
    (r"^b|a$", "m"),
    (r"\bk\w*", "iu"),
    (r"\Bq", "u"),
    (r"(['x])needle\1", ""),
    (r"(?<=\.)needle", ""),
    (r"q*", ""),
];

/// Lines: mostly filler, sometimes a hit, sometimes a guarded character, some very long.
fn text(rng: &mut Rng) -> String {
    let pieces = [
        "fn main() { let x = 1; }",
        "    #include <stdio.h>",
        "// needle in a haystack",
        "'needle'",
        "obj.needle",
        "TypeError: bad",
        "caf\u{E9} \u{1F600}",
        "\u{2028}b",
        "a\u{2029}",
        "\u{212A}q",
        "\u{17F}k",
        "xq",
        "\u{1F600}q",
        "plain words here",
        "x",
        "",
    ];
    let filler = "filler text without anything of interest, just words";
    let mut t = String::new();
    while t.len() < 200_000 {
        let line = match rng.below(100) {
            // A long line (longer than the first search window).
            0..=1 => (0..1500 + rng.below(1500))
                .map(|_| rng.pick_str(&pieces))
                .collect::<Vec<_>>()
                .join(" "),
            // A stretch of filler: candidates far apart.
            2..=5 => vec![filler; 300 + rng.below(300)].join("\n"),
            6..=40 => {
                (0..1 + rng.below(4)).map(|_| rng.pick_str(&pieces)).collect::<Vec<_>>().join(" ")
            }
            _ => filler.repeat(1 + rng.below(3)),
        };
        t.push_str(&line);
        t.push_str(if rng.chance(20) { "\r\n" } else { "\n" });
    }
    t
}

/// `split(/\r?\n/)` content spans.
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

#[test]
fn large_texts_agree_with_the_exact_engine() {
    let mut rng = Rng::new(5);
    let texts: Vec<String> = (0..2).map(|_| text(&mut rng)).collect();
    for (p, f) in PATTERNS {
        let units: Vec<u16> = p.encode_utf16().collect();
        let exact = Regex::new(&units, f).expect("valid");
        let fast = FastRegex::new(exact.ast(), Scope::Lines);
        for text in &texts {
            let spans = js_lines(text);
            let mut cache = fast.create_cache();
            // The pipeline's loop.
            let mut candidates = Vec::new();
            let mut pos = 0;
            while let Some(c) = fast.next_candidate_with(&mut cache, text, pos) {
                assert!(c >= pos);
                candidates.push(text.as_bytes()[..c].iter().filter(|&&b| b == b'\n').count());
                match text[c..].find('\n') {
                    Some(i) => pos = c + i + 1,
                    None => break,
                }
            }
            let (mut hits, mut compared) = (0, 0);
            for (i, &(a, b)) in spans.iter().enumerate() {
                let line = &text[a..b];
                let line16: Vec<u16> = line.encode_utf16().collect();
                let mut budget = Budget::new(50_000_000);
                let want: Vec<(usize, usize)> = exact
                    .find_iter(&line16, &mut budget)
                    .map(|m| m.map(|m| (m.start(), m.end())).expect("budget"))
                    .collect();
                if !want.is_empty() {
                    hits += 1;
                    assert!(
                        candidates.binary_search(&i).is_ok(),
                        "/{p}/{f}: line {i} ({:?}…) has matches but is no candidate",
                        line.chars().take(40).collect::<String>()
                    );
                }
                if fast.is_exact() && !fast.needs_exact(line) {
                    compared += 1;
                    // UTF-16 offset of each byte offset (at character boundaries).
                    let mut utf16 = vec![0; line.len() + 1];
                    for (b, c) in line.char_indices() {
                        utf16[b + c.len_utf8()] = utf16[b] + c.len_utf16();
                    }
                    let mut got = Vec::new();
                    fast.for_each_match_with(&mut cache, line, |s, e| {
                        got.push((utf16[s], utf16[e]));
                        true
                    });
                    assert_eq!(got, want, "/{p}/{f}: line {i}");
                }
            }
            assert!(hits > 0 || *p == r"(?<=\.)needle", "/{p}/{f}: no line matched at all");
            assert!(compared > 0 || !fast.is_exact(), "/{p}/{f}: nothing compared");
        }
    }
}
