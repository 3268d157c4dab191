//! Unit tests of the translation and guard rules, one or more per rule. Expected values
//! were checked with Node 20 (`[...line.matchAll(new RegExp(p, f + 'g'))]`); the property
//! test (`tests/v8_property.rs`) compares with V8 itself.

use super::*;

fn pattern(p: &str, f: &str) -> Pattern {
    let units: Vec<u16> = p.encode_utf16().collect();
    sfq_regex::parse(&units, f).unwrap_or_else(|e| panic!("/{p}/{f}: {e}"))
}

fn fast(p: &str, f: &str, scope: Scope) -> FastRegex {
    FastRegex::new(&pattern(p, f), scope)
}

/// The matched strings of the exec loop over `text`; panics if not exact or guarded.
fn found(p: &str, f: &str, scope: Scope, text: &str) -> Vec<String> {
    let re = fast(p, f, scope);
    assert!(re.is_exact(), "/{p}/{f} is not exact: {:?}", re.inexact_reason());
    assert!(!re.needs_exact(text), "/{p}/{f} guards {text:?}");
    let mut out = Vec::new();
    assert!(re.for_each_match(text, |s, e| {
        out.push(text[s..e].to_string());
        true
    }));
    out
}

fn spans(p: &str, f: &str, text: &str) -> Vec<(usize, usize)> {
    let re = fast(p, f, Scope::Lines);
    let mut out = Vec::new();
    re.for_each_match(text, |s, e| {
        out.push((s, e));
        true
    });
    out
}

/// The 0-based lines the caller loop visits, as the pipeline runs it.
fn candidate_lines(re: &FastRegex, text: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let mut pos = 0;
    while let Some(c) = re.next_candidate(text, pos) {
        assert!(c >= pos && c <= text.len());
        let line = text.as_bytes()[..c].iter().filter(|&&b| b == b'\n').count();
        lines.push(line);
        match text[c..].find('\n') {
            Some(i) => pos = c + i + 1,
            None => break,
        }
    }
    lines
}

#[test]
fn fast_regex_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<FastRegex>();
    check::<Cache>();
}

#[test]
fn literals_and_sets_are_javascript_sets() {
    assert_eq!(found("HashMap", "", Scope::Lines, "a HashMap<HashMap>"), ["HashMap", "HashMap"]);
    // \d is ASCII only (no Arabic-Indic or full-width digits).
    assert_eq!(found(r"\d+", "u", Scope::Lines, "\u{663}12\u{FF11}"), ["12"]);
    // \s has U+FEFF and not U+0085.
    assert_eq!(found(r"\s", "", Scope::Lines, "a\u{FEFF}b\u{85}c\u{A0}"), ["\u{FEFF}", "\u{A0}"]);
    // \w is ASCII; under iu it has ſ and K too (the AST's set).
    assert_eq!(found(r"\w+", "", Scope::Lines, "caf\u{E9}\u{17F}"), ["caf"]);
    assert_eq!(found(r"\w+", "iu", Scope::Lines, "a\u{17F}\u{212A}b\u{E9}"), ["a\u{17F}\u{212A}b"]);
    // `.` leaves out \r, U+2028, U+2029 (not with s).
    assert_eq!(found(".", "", Scope::Lines, "a\rb\u{2028}c\u{2029}"), ["a", "b", "c"]);
    assert_eq!(found(".+", "s", Scope::Lines, "a\rb\u{2028}c"), ["a\rb\u{2028}c"]);
    // `[^]` is any character, `[]` none; set operators of v.
    assert_eq!(found("[^]", "", Scope::Whole, "a\n"), ["a", "\n"]);
    assert!(found("a[]", "", Scope::Lines, "a").is_empty());
    assert_eq!(found(r"[\p{L}--[a-z]]+", "v", Scope::Lines, "abC\u{E9}D"), ["C\u{E9}D"]);
    // v-mode strings are alternations, longest first.
    assert_eq!(found(r"[\q{abc|ab|x}]", "v", Scope::Lines, "abcab"), ["abc", "ab"]);
}

#[test]
fn case_folding_is_the_modes() {
    // Without u, a non-ASCII character never folds to ASCII: /s/i misses ſ, /k/i misses K.
    assert_eq!(found("s", "i", Scope::Lines, "sS\u{17F}"), ["s", "S"]);
    assert_eq!(found("k", "i", Scope::Lines, "kK\u{212A}"), ["k", "K"]);
    assert_eq!(found("\u{DF}", "i", Scope::Lines, "\u{DF}\u{1E9E}"), ["\u{DF}"]);
    // With u: simple case folding.
    assert_eq!(found("s", "iu", Scope::Lines, "sS\u{17F}"), ["s", "S", "\u{17F}"]);
    assert_eq!(found("\u{3C3}", "iu", Scope::Lines, "\u{3A3}\u{3C2}"), ["\u{3A3}", "\u{3C2}"]);
}

#[test]
fn anchors_are_the_line_or_text_ends() {
    assert_eq!(found("^a|b$", "", Scope::Lines, "ab ab"), ["a", "b"]);
    // A lone \r stays in the line: `$` without m is only the line's end.
    assert!(found("a$", "", Scope::Lines, "a\rb").is_empty());
    // With m, \r is a terminator inside a line.
    assert_eq!(found("^b|a$", "m", Scope::Lines, "a\rb"), ["a", "b"]);
    assert_eq!(found("^", "m", Scope::Lines, "a\r\rb").len(), 3);
    // Whole scope: ^/$ without m are the text's ends; with m every terminator counts.
    assert_eq!(found("^.|.$", "", Scope::Whole, "ab\ncd"), ["a", "d"]);
    assert_eq!(found("^.|.$", "m", Scope::Whole, "ab\ncd\re"), ["a", "b", "c", "d", "e"]);
}

#[test]
fn line_separators_and_crlf_are_guarded_under_m() {
    let re = fast("^b", "m", Scope::Lines);
    assert!(re.is_exact() && re.guards().line_separators);
    assert!(re.needs_exact("a\u{2028}b") && re.needs_exact("\u{2029}"));
    assert!(!re.needs_exact("a\rb"));
    let whole = fast("^b", "m", Scope::Whole);
    assert!(whole.needs_exact("a\r\nb") && !whole.needs_exact("a\nb\rc"));
    // Without m, nothing to guard.
    assert!(fast("^b$", "", Scope::Whole).guards().is_empty());
    // Line-separator lines are forced candidates.
    let lines = candidate_lines(&re, "b\nx\u{2028}b\nbb\nx\n");
    assert_eq!(lines, [0, 1, 2]);
}

#[test]
fn word_boundaries_are_ascii_with_s_and_k_guarded_under_iu() {
    assert_eq!(found(r"\b\w+\b", "", Scope::Lines, "caf\u{E9} ok"), ["caf", "ok"]);
    assert_eq!(found(r"\Bb", "", Scope::Lines, "ab b"), ["b"]);
    let re = fast(r"\bk", "iu", Scope::Lines);
    assert!(re.guards().long_s_kelvin);
    assert!(re.needs_exact("\u{212A}k") && re.needs_exact("\u{17F}"));
    assert!(!re.needs_exact("kk"));
    assert!(!fast(r"\bk", "i", Scope::Lines).guards().long_s_kelvin);
    assert!(!fast("k", "iu", Scope::Lines).guards().long_s_kelvin);
    // The forced candidate: in JS, `\Bk` matches after K (a word character under iu).
    let re = fast(r"\Bk", "iu", Scope::Lines);
    assert_eq!(candidate_lines(&re, "x\n\u{212A}k\n"), [1]);
}

#[test]
fn astral_characters_are_guarded_without_u_when_halves_can_match() {
    // `.` matches a code unit without u: the line goes exact.
    let re = fast(".", "", Scope::Lines);
    assert!(re.guards().astral && re.needs_exact("a\u{1F600}") && !re.needs_exact("a\u{E9}"));
    // Empty matches happen between the halves too.
    assert!(fast("a*", "", Scope::Lines).guards().astral);
    // Patterns that cannot touch a half stay fast; a pair written in the pattern is one
    // character.
    assert!(!fast("x", "", Scope::Lines).guards().astral);
    assert_eq!(
        found("\u{1F600}+", "u", Scope::Lines, "\u{1F600}\u{1F600}"),
        ["\u{1F600}\u{1F600}"]
    );
    assert_eq!(found("\u{1F600}", "", Scope::Lines, "a\u{1F600}"), ["\u{1F600}"]);
    assert_eq!(found(r"\uD83D\uDE00", "", Scope::Lines, "\u{1F600}"), ["\u{1F600}"]);
    assert!(!fast("\u{1F600}", "", Scope::Lines).guards().astral);
    assert!(fast("\u{1F600}+", "", Scope::Lines).guards().astral);
    // With u, nothing to guard; a lone surrogate never matches.
    assert!(!fast("[^a]", "u", Scope::Lines).guards().astral);
    assert!(found(r"\uD83D", "u", Scope::Lines, "\u{1F600}").is_empty());
    // Astral lines are forced candidates (a JS match may be a lone half).
    let re = fast(r"[^\x00-\x7F]", "", Scope::Lines);
    assert_eq!(candidate_lines(&re, "abc\n\u{1F600}\nxyz\n\u{E9}"), [1, 3]);
}

#[test]
fn empty_matches_advance_one_character() {
    assert_eq!(spans("a*", "", "ab"), [(0, 1), (1, 1), (2, 2)]);
    assert_eq!(spans("", "u", "\u{E9}\u{1F600}"), [(0, 0), (2, 2), (6, 6)]);
    assert_eq!(spans("", "", "\u{E9}"), [(0, 0), (2, 2)]);
    assert_eq!(spans(r"\b", "", "ab c"), [(0, 0), (2, 2), (3, 3), (4, 4)]);
    // Stopping early.
    let re = fast("a", "", Scope::Lines);
    let mut n = 0;
    re.for_each_match("aaaa", |_, _| {
        n += 1;
        n < 2
    });
    assert_eq!(n, 2);
}

#[test]
fn quantifiers_keep_backtracking_priority() {
    assert_eq!(found("a+?", "", Scope::Lines, "aaa"), ["a", "a", "a"]);
    assert_eq!(found("a{2,3}", "", Scope::Lines, "aaaaa"), ["aaa", "aa"]);
    assert_eq!(found("a{2,3}?", "", Scope::Lines, "aaaaa"), ["aa", "aa"]);
    assert_eq!(found("(?:a|ab)(?:c|bcd)", "", Scope::Lines, "abcd"), ["abcd"]);
    assert_eq!(found("(a|ab)*c", "", Scope::Lines, "abac"), ["abac"]);
    assert_eq!(found("(?:a?){2}", "", Scope::Lines, "a"), ["a", ""]);
    assert_eq!(found(r"<.*?>", "", Scope::Lines, "<a><b>"), ["<a>", "<b>"]);
}

#[test]
fn javascript_only_constructs_are_not_exact() {
    let cases = [
        ("a(?=b)", "", Inexact::Lookaround),
        ("(?<!x)a", "", Inexact::Lookaround),
        (r"(a)\1", "", Inexact::BackReference),
        (r"(?<n>a)\k<n>", "", Inexact::BackReference),
        ("(?:|a)*", "", Inexact::EmptyIteration),
        ("(?:a|b?)+", "", Inexact::EmptyIteration),
        ("a", "y", Inexact::Sticky),
        ("(?:a[^S])+", "v", Inexact::V8Quirk),
        // V8 11.3: /[^]$/v never matches.
        ("[^]$", "v", Inexact::V8Quirk),
        ("a[^]b$", "v", Inexact::V8Quirk),
    ];
    for (p, f, why) in cases {
        let re = fast(p, f, Scope::Lines);
        assert_eq!(re.inexact_reason(), Some(why), "/{p}/{f}");
        assert!(!re.is_exact() && re.needs_exact("anything"));
        assert!(!re.for_each_match("ab", |_, _| panic!("no exact matcher")));
        assert!(
            re.has_prefilter() || p.contains('|') || p.contains('?') || p == "[^]$",
            "/{p}/{f}"
        );
    }
}

#[test]
fn quirky_v_classes_widen_the_superset() {
    // V8 11.3 finds one character at a time for /[^]{2}/gv, and sfq-regex's tree says so.
    assert_eq!(found("[^]{2}", "v", Scope::Lines, "ab"), ["a", "b"]);
    assert_eq!(found("[^]{2}", "u", Scope::Lines, "ab"), ["ab"]);
    // /[^]$/v never matches in V8 11.3; with m it does; \s\S is suspected too.
    assert!(!fast("[^]$", "v", Scope::Lines).is_exact());
    assert!(!fast(r"[\s\S]$", "v", Scope::Lines).is_exact());
    assert_eq!(found("[^]$", "vm", Scope::Lines, "ab"), ["b"]);
    assert_eq!(found("[^]$", "u", Scope::Lines, "ab"), ["b"]);
    // The superset of a quirky pattern is wider (any character, optional).
    let re = fast("(?:a[^S])+", "v", Scope::Lines);
    assert_eq!(candidate_lines(&re, "x\naS\na?\n"), [1, 2]);
}

#[test]
fn superset_of_lookarounds_and_backreferences() {
    let re = fast(r#"(['"])use strict\1"#, "", Scope::Lines);
    assert!(re.has_prefilter());
    assert_eq!(candidate_lines(&re, "x\n'use strict'\nuse strict\n\"use strict\";"), [1, 3]);
    let re = fast(r"(?<![\w.])print\(", "", Scope::Lines);
    assert_eq!(candidate_lines(&re, "a\nx.print(1)\nprint(2)\n"), [1, 2]);
    // A reference to a group inside a lookahead.
    let re = fast(r"(?=(a+))\1b", "", Scope::Lines);
    assert_eq!(candidate_lines(&re, "c\naab\nb\n"), [1, 2]);
}

#[test]
fn candidates_respect_crlf_and_line_ends() {
    let re = fast("foo$", "", Scope::Lines);
    assert_eq!(candidate_lines(&re, "foo\r\nbar\nxfoo\nfoox\nfoo"), [0, 2, 4]);
    let re = fast("^bar", "", Scope::Lines);
    assert_eq!(candidate_lines(&re, "foo\r\nbar\r\nxbar\rbar\n"), [1, 2]);
    // A line never holds \n: a pattern needing one has no candidate at all.
    let re = fast(r"a\nb", "", Scope::Lines);
    assert!(re.has_prefilter() && re.next_candidate("a\nb\n", 0).is_none());
    // Whole scope: no match starts before the candidate.
    let re = fast(r"a\nb", "", Scope::Whole);
    assert_eq!(re.next_candidate("xa\nb", 0), Some(1));
    assert_eq!(found(r"a\nb", "", Scope::Whole, "xa\nb"), ["a\nb"]);
    assert_eq!(re.next_candidate("xa\nb", 2), None);
    assert_eq!(re.next_candidate("xa\nb", 99), None);
}

#[test]
fn inner_literals_find_lines_fast() {
    for p in [r"\w+Error\b", r"^\s*#include\s*<"] {
        let re = fast(p, "", Scope::Lines);
        assert!(re.has_line_scan(), "{p}");
    }
    assert!(!fast("HashMap", "", Scope::Lines).has_line_scan());
    let re = fast(r"\w+Error\b", "", Scope::Lines);
    // `\w+` needs a word character right before "Error".
    let text = "Error\nan Error\nTypeError\r\nx TypeErrorx ValueError.\n";
    assert_eq!(candidate_lines(&re, text), [2, 3]);
    assert_eq!(re.next_candidate(text, 0), Some(15));
    let re = fast(r"^\s*#include\s*<", "", Scope::Lines);
    assert_eq!(candidate_lines(&re, "// #include <a>\n  #include <b>\n#include\"c\"\n"), [1]);
    // Every match starts with a non-ASCII character: non-ASCII bytes are scanned for.
    let re = fast(r"[^\x00-\x7F]+", "u", Scope::Lines);
    assert!(re.has_line_scan());
    assert_eq!(candidate_lines(&re, "abc\nd\u{E9}f\n\u{1F600}\nxyz\n"), [1, 2]);
    assert!(!fast(r"[^\x00-\x7F]*", "u", Scope::Lines).has_line_scan());
    assert!(!fast(r"\w*\u00E9", "u", Scope::Lines).has_line_scan());
    // Long matches only: lines that long are scanned for.
    let re = fast(r"^.{50,}$", "", Scope::Lines);
    assert!(re.has_line_scan());
    let long = "x".repeat(60);
    let text = format!("short\n{long}\r\n{}\n{long}\u{1F600}\n", "y".repeat(49));
    assert_eq!(candidate_lines(&re, &text), [1, 3]);
}

#[test]
fn line_start_classes_find_their_lines() {
    // The regex runs without its prefix literals here (the class's bytes are all over
    // the lines): the same candidates.
    let text = "12\nx 34\n56.78\n\n9a\n  1\n0.5\n";
    assert_eq!(candidate_lines(&fast(r"^\d+$", "", Scope::Lines), text), [0]);
    assert_eq!(candidate_lines(&fast(r"^(\d+)\.(\d+)", "", Scope::Lines), text), [2, 6]);
    assert_eq!(candidate_lines(&fast(r"^[\d\q{ab}]+$", "v", Scope::Lines), "ab12\nxab\n"), [0]);
    assert_eq!(candidate_lines(&fast(r"^[a-z]", "", Scope::Lines), "A\nb\n 1\n"), [1]);
}

#[test]
fn size_limits_fall_back_without_panicking() {
    let re = fast("(?:a{1000}){1000}", "", Scope::Lines);
    assert_eq!(re.inexact_reason(), Some(Inexact::TooLarge));
    // The prefilter is widened to `(?:a{8,}){8,}`.
    assert!(re.has_prefilter());
    assert_eq!(candidate_lines(&re, "b\naaaaaaaaa\n".repeat(8).as_str()), [] as [usize; 0]);
    assert_eq!(candidate_lines(&re, &format!("b\n{}\n", "a".repeat(64))), [1]);
    let re = fast(r"[\s\S]{1000}", "u", Scope::Lines);
    let _ = re.next_candidate("abc", 0);
    let re = fast(r"(?:(?:\w{50}){50}){50}", "iu", Scope::Whole);
    assert!(!re.is_exact());
    let _ = re.next_candidate("abc", 0);
}

#[test]
fn no_prefilter_means_every_line() {
    let re = fast("x*", "", Scope::Lines);
    assert!(!re.has_prefilter());
    assert_eq!(re.next_candidate("ab", 1), Some(1));
    assert_eq!(re.next_candidate("ab", 2), Some(2));
    assert_eq!(re.next_candidate("ab", 3), None);
}

#[test]
fn explicit_caches_are_checked() {
    let a = fast("a+", "", Scope::Lines);
    let b = fast("b+", "", Scope::Lines);
    let mut cache = a.create_cache();
    let mut got = Vec::new();
    b.for_each_match_with(&mut cache, "aabb", |s, e| {
        got.push((s, e));
        true
    });
    assert_eq!(got, [(2, 4)]);
    // The candidate's line (located by the match's end).
    assert_eq!(a.next_candidate_with(&mut cache, "xxaa", 0), Some(0));
    assert_eq!(a.next_candidate_with(&mut cache, "b\nxxaa", 0), Some(2));
    assert_eq!(b.next_candidate_with(&mut cache, "xxaa", 0), None);
}

/// A case-insensitive ASCII literal (the whole pattern or a run of it) is scanned for
/// case-folded; every line holding a JavaScript match is a candidate, near misses not.
#[test]
fn case_insensitive_literals_are_scanned_case_folded() {
    let text = "RETURN x\nretur n\nreTurN;\n@ETURN\nreturned\n\u{E9}return\u{E9}\n";
    let re = fast("return", "i", Scope::Lines);
    assert!(re.has_line_scan());
    assert_eq!(candidate_lines(&re, text), [0, 2, 4, 5]);
    assert_eq!(found("return", "i", Scope::Lines, "Return reTURN"), ["Return", "reTURN"]);
    // The exact matches are the scan's occurrences, one after another.
    assert_eq!(found("aa", "i", Scope::Lines, "aAAa\u{E9}aaa"), ["aA", "Aa", "aa"]);
    assert_eq!(found("if", "i", Scope::Whole, "IF\nif\niff"), ["IF", "if", "if"]);
    // A run inside the pattern: the line is then searched by the regex.
    let re = fast(r"\bvalue\b", "i", Scope::Lines);
    assert!(re.has_line_scan());
    assert_eq!(candidate_lines(&re, "values\nVALUE\nvalued value\nx_value\n"), [1, 2]);
    let re = fast("foo_bar", "i", Scope::Lines);
    assert_eq!(candidate_lines(&re, "FOO_BAR\nfoo-bar\nfOo_bAr\n"), [0, 2]);
    // Whole scope: the occurrence is the match.
    let re = fast("if", "i", Scope::Whole);
    assert_eq!(re.next_candidate("x\niF", 0), Some(2));
    assert_eq!(re.next_candidate("x\niF", 3), None);
    // With `u`, k and s also match K (U+212A) and ſ (U+017F): not an ASCII scan.
    assert!(!fast("kiss", "iu", Scope::Lines).has_line_scan());
    // Letters of one case (no `i`) are literals the regex finds by itself.
    assert!(!fast("return", "", Scope::Lines).has_line_scan());
    // Alternatives each such a literal: scanned for as a set, each occurrence a match.
    let text = "x todo\nFixMe: y\nhAcK\nhac k\n@ODO\nTODONE\n";
    // (Only where the set's vector scan is: elsewhere the regex's own literals.)
    for scope in [Scope::Lines, Scope::Whole] {
        let re = fast("TODO|FIXME|HACK", "i", scope);
        assert_eq!(re.has_line_scan(), crate::folded::FoldedSet::is_fast());
        // The occurrence; from the regex alone in Lines scope, its line's start.
        let at = if scope == Scope::Lines && !re.has_line_scan() { 0 } else { 2 };
        assert_eq!(re.next_candidate(text, 0), Some(at));
    }
    let re = fast("TODO|FIXME|HACK", "i", Scope::Lines);
    assert_eq!(candidate_lines(&re, text), [0, 1, 2, 5]);
    assert_eq!(
        found("TODO|FIXME|HACK", "i", Scope::Lines, "hack todo FIXME"),
        ["hack", "todo", "FIXME"]
    );
    assert_eq!(found("ab|abc", "i", Scope::Lines, "ABC aBx"), ["AB", "aB"]);
    // Not with `u` (K and ſ fold there), nor past four alternatives.
    assert!(!fast("task|kiss", "iu", Scope::Whole).has_line_scan());
    assert!(!fast("aa|bb|cc|dd|ee", "i", Scope::Whole).has_line_scan());
}

/// A literal pattern's lines are counted by scanning for it, as the exec loop over each
/// line counts them; not when a line terminator or a guard is in the way.
#[test]
fn literal_lines_are_counted_by_a_scan() {
    let count_each = |re: &FastRegex, text: &str| {
        text.split('\n')
            .filter(|line| {
                let mut any = false;
                re.for_each_match(line.strip_suffix('\r').unwrap_or(line), |_, _| {
                    any = true;
                    false
                });
                any
            })
            .count() as u64
    };
    let text = "Return x return\r\nnothing\nRETURN\nretur\nn return\n\u{E9}reTurn";
    for (p, f) in [("return", "i"), ("return", ""), ("RETURN", ""), ("n re", "i"), ("\u{E9}re", "")]
    {
        let re = fast(p, f, Scope::Lines);
        assert_eq!(re.count_lines(text), Some(count_each(&re, text)), "/{p}/{f}");
    }
    assert_eq!(fast("return", "i", Scope::Lines).count_lines(text), Some(4));
    // An astral character in the literal is a whole pair, as JavaScript matches it.
    let re = fast("\u{1F600}x", "", Scope::Lines);
    assert_eq!(re.count_lines("\u{1F600}x\n\u{1F600}\nx"), Some(1));
    // Not a literal, across lines, the Whole scope.
    assert_eq!(fast("ret+urn", "", Scope::Lines).count_lines(text), None);
    assert_eq!(fast("a\\nb", "", Scope::Lines).count_lines("a\nb"), None);
    assert_eq!(fast("return", "", Scope::Whole).count_lines(text), None);
}
