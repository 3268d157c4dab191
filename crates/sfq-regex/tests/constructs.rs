//! One case per construct, with the answer Node 20 gives (recorded from V8 when the test
//! was written): runs without node, so that a failure points at one construct.

use sfq_regex::{Budget, Regex};

/// (construct, pattern, flags, text, V8's matches: "start,end,g1start,g1end,…|…").
const CASES: &[(&str, &str, &str, &str, &str)] = &[
    ("lookahead", "\\w+(?=!)", "", "hi! yo ok!", "0,2|7,9"),
    ("negative lookahead", "\\b\\w+\\b(?!\\()", "", "f(x) g y(", "2,3|5,6"),
    ("lookbehind", "(?<=\\$)\\d+", "", "cost $42 and 7", "6,8"),
    ("variable-length lookbehind", "(?<=^\\s*)def", "m", "  def\u{a}xdef\u{a}def", "2,5|11,14"),
    (
        "negative lookbehind",
        "(?<![\\w.])print\\(",
        "",
        "print( x.print( reprint( print(",
        "0,6|25,31",
    ),
    ("lookbehind captures, right to left", "(?<=(\\d+)(\\d+))$", "", "1053", "4,4,0,1,1,4"),
    ("backreference inside lookbehind", "(?<=\\1(a))b", "", "aab ab", "2,3,1,2"),
    ("backreference", "\\b(\\w+)\\s+\\1\\b", "", "the the cat sat sat", "0,7,0,3|12,19,12,15"),
    ("case-insensitive backreference", "(\\w)\\1", "i", "aA Bb cd", "0,2,0,1|3,5,3,4"),
    ("unset group backreference", "(a)|\\1b", "", "b ab", "0,1,-1,-1|2,3,2,3|3,4,-1,-1"),
    (
        "named groups",
        "(?<y>\\d{4})-(?<m>\\d\\d)",
        "",
        "on 2024-05 and 1999-12",
        "3,10,3,7,8,10|15,22,15,19,20,22",
    ),
    (
        "named backreference",
        "(?<q>['\"]).*?\\k<q>",
        "",
        "say 'hi' or \"yo\"",
        "4,8,4,5|12,16,12,13",
    ),
    ("empty check", "(?:|a)*", "", "aa", "0,2|2,2"),
    ("empty check with alternation", "(?:a|b?)+", "", "ab", "0,2|2,2"),
    ("capture reset", "(?:(a)|b)*", "", "ab", "0,2,-1,-1|2,2,-1,-1"),
    ("lazy", "<.+?>", "", "<a><b>", "0,3|3,6"),
    ("counted", "x{2,3}", "", "xxxxxxx", "0,3|3,6"),
    ("zero-length matches advance", "a*", "", "ab", "0,1|1,1|2,2"),
    ("dot and line terminators", ".", "", "a\u{d}\u{a}\u{2028}b", "0,1|4,5"),
    ("dotAll", ".", "s", "a\u{d}\u{2029}", "0,1|1,2|2,3"),
    ("multiline anchors", "^\\w|\\w$", "m", "ab\u{d}cd\u{2028}ef", "0,1|1,2|3,4|4,5|6,7|7,8"),
    ("word boundary", "\\b", "", "ab cd", "0,0|2,2|3,3|5,5"),
    ("iu word boundary with Kelvin sign", "\\b\\w+\\b", "iu", "\u{212a}\u{17f} x", "0,2|3,4"),
    ("non-u case folding", "[a-z]+", "i", "ABC \u{212a}\u{17f} def", "0,3|7,10"),
    ("u case folding", "[a-z]+", "iu", "ABC \u{212a}\u{17f} def", "0,3|4,6|7,10"),
    ("sigma", "\u{3c3}", "i", "\u{3a3}\u{3c3}\u{3c2}", "0,1|1,2|2,3"),
    ("sharp s", "\u{df}", "iu", "\u{df}\u{1e9e}", "0,1|1,2"),
    ("surrogates without u", "\\uD83D", "", "\u{1f600}", "0,1"),
    // surrogates with u: has a lone surrogate, see lone_surrogates()
    ("astral class without u", "[\u{1f600}]", "", "\u{1f600}", "0,1|1,2"),
    ("astral class with u", "[\u{1f600}]", "u", "\u{1f600}", "0,2"),
    ("empty matches in u mode", "", "u", "\u{1f600}a", "0,0|2,2|3,3"),
    ("\\s", "\\s+", "", "a\u{a0}\u{feff}\u{85}b", "1,3"),
    ("v-mode subtraction", "[\\p{L}--[a-z]]+", "v", "abc\u{c4}\u{d6}", "3,5"),
    ("v-mode strings", "[\\q{abc|ab|x}]", "v", "abcabx", "0,3|3,5|5,6"),
    (
        "RGI_Emoji",
        "\\p{RGI_Emoji}",
        "v",
        "a\u{1f1fa}\u{1f1f8}#\u{fe0f}\u{20e3}\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}",
        "1,5|5,8|8,16",
    ),
    ("sticky", "a", "y", "aab", "0,1|1,2"),
    ("Annex B octal", "\\101\\8", "", "A8", "0,2"),
    ("Annex B \\c in class", "[\\c_]", "", "\u{1f}_", "0,1"),
];

fn matches(pattern: &[u16], flags: &str, text: &[u16]) -> String {
    let re = Regex::new(pattern, flags).unwrap_or_else(|e| panic!("{e}"));
    let mut budget = Budget::new(1_000_000);
    re.captures_iter(text, &mut budget)
        .map(|caps| {
            let caps = caps.expect("within budget");
            caps.iter()
                .flat_map(|m| match m {
                    Some(m) => [m.start() as i64, m.end() as i64],
                    None => [-1, -1],
                })
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("|")
}

#[test]
fn each_construct_matches_like_v8() {
    let mut bad = Vec::new();
    for (name, pattern, flags, text, expected) in CASES {
        let p: Vec<u16> = pattern.encode_utf16().collect();
        let t: Vec<u16> = text.encode_utf16().collect();
        let got = matches(&p, flags, &t);
        if got != *expected {
            bad.push(format!(
                "{name}: /{pattern}/{flags} on {text:?}: V8 {expected}, engine {got}"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn lone_surrogates() {
    // `.` with u on "😀" and a lone lead surrogate: the pair is one character, the lone
    // surrogate another.
    let text = [0xD83D, 0xDE00, 0xD83D];
    assert_eq!(matches(&".".encode_utf16().collect::<Vec<_>>(), "u", &text), "0,2|2,3");
    // Without u, a pattern's lone lead surrogate matches the first half of a pair.
    assert_eq!(matches(&[0xD83D], "", &text), "0,1|2,3");
    // With u, only the unpaired one.
    assert_eq!(matches(&[0xD83D], "u", &text), "2,3");
}
