//! Parser unit tests: tree shapes, resolved sets and V8's error messages (checked
//! against V8 by hand; the differential tests compare everything with V8 itself).

use crate::ast::{Assertion, CharSet, Node, V8Quirk};
use crate::flags::Flags;

fn parse(p: &str, f: &str) -> Result<crate::ast::Pattern, String> {
    let units: Vec<u16> = p.encode_utf16().collect();
    super::parse(&units, Flags::parse(f).map_err(|e| e.to_string())?)
        .map_err(|e| e.message().to_string())
}

fn root(p: &str, f: &str) -> Node {
    parse(p, f).unwrap_or_else(|e| panic!("{p}: {e}")).root
}

fn err(p: &str, f: &str) -> String {
    match parse(p, f) {
        Ok(_) => panic!("{p} should be invalid"),
        Err(e) => e,
    }
}

fn set(ranges: &[(u32, u32)]) -> CharSet {
    CharSet::from_ranges(ranges.iter().copied())
}

#[test]
fn literals_and_escapes() {
    assert_eq!(root("a", ""), Node::Char('a' as u32));
    assert_eq!(
        root(r"\x41\u0042\cI\0", ""),
        Node::Concat(vec![Node::Char(0x41), Node::Char(0x42), Node::Char(9), Node::Char(0)])
    );
    // Annex B: octal, identity escapes, \8, a lone \c, \u{2} as "uu".
    assert_eq!(root(r"\101", ""), Node::Char(0x41));
    assert_eq!(root(r"\8", ""), Node::Char('8' as u32));
    assert_eq!(root(r"\a", ""), Node::Char('a' as u32));
    assert_eq!(
        root(r"\c", ""),
        Node::Concat(vec![Node::Char('\\' as u32), Node::Char('c' as u32)])
    );
    assert_eq!(
        root(r"\u{2}", ""),
        Node::Repeat(Box::new(crate::ast::Repeat {
            min: 2,
            max: Some(2),
            greedy: true,
            node: Node::Char('u' as u32)
        }))
    );
    // Unicode mode: code points, combined surrogate escapes, lone surrogates.
    assert_eq!(root(r"\u{1F600}", "u"), Node::Char(0x1F600));
    assert_eq!(root(r"\uD83D\uDE00", "u"), Node::Char(0x1F600));
    assert_eq!(
        root(r"\uD83D\uDE00", ""),
        Node::Concat(vec![Node::Char(0xD83D), Node::Char(0xDE00)])
    );
    assert_eq!(root("😀", "u"), Node::Char(0x1F600));
    assert_eq!(root("😀", ""), Node::Concat(vec![Node::Char(0xD83D), Node::Char(0xDE00)]));
}

#[test]
fn classes_and_class_escapes() {
    assert_eq!(root(r"\d", ""), Node::Class(set(&[(0x30, 0x39)])));
    assert_eq!(root("[]", ""), Node::Class(CharSet::new()));
    assert_eq!(root("[^]", ""), Node::Class(set(&[(0, 0xFFFF)])));
    assert_eq!(root("[^]", "u"), Node::Class(set(&[(0, 0x10FFFF)])));
    assert_eq!(root(r"[\b]", ""), Node::Char(8).clone().into_class());
    assert_eq!(
        root(r"[\w-a]", ""),
        Node::Class(set(&[(0x2D, 0x2D), (0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]))
    );
    assert_eq!(root("[a&&b]", ""), Node::Class(set(&[(0x26, 0x26), (0x61, 0x62)])));
    // `.` without s excludes the four line terminators.
    assert_eq!(
        root(".", ""),
        Node::Class(set(&[(0, 9), (0xB, 0xC), (0xE, 0x2027), (0x202A, 0xFFFF)]))
    );
    // \s: U+FEFF in, U+0085 out.
    let Node::Class(s) = root(r"\s", "") else { panic!() };
    assert!(s.contains(0xFEFF) && s.contains(0xA0) && !s.contains(0x85));
    // \w gains ſ and K only with i and u/v.
    let Node::Class(w) = root(r"\w", "iu") else { panic!() };
    assert!(w.contains(0x17F) && w.contains(0x212A));
    let Node::Class(w) = root(r"\w", "i") else { panic!() };
    assert!(!w.contains(0x17F) && !w.contains(0x212A));
    // v mode: set operations and strings.
    assert_eq!(root(r"[\d--[2]]", "v"), Node::Class(set(&[(0x30, 0x31), (0x33, 0x39)])));
    assert_eq!(
        root("[[a-z]&&[^aeiou]]", "v"),
        Node::Class(set(&[(0x62, 0x64), (0x66, 0x68), (0x6A, 0x6E), (0x70, 0x74), (0x76, 0x7A)]))
    );
    assert_eq!(
        root(r"[\q{ab|c|}]", "v"),
        Node::Alternation(vec![
            Node::Concat(vec![Node::Char(0x61), Node::Char(0x62)]),
            Node::Class(CharSet::single(0x63)),
            Node::Empty
        ])
    );
    let Node::Alternation(v) = root(r"\p{RGI_Emoji_Flag_Sequence}", "v") else { panic!() };
    assert!(v.len() > 250);
}

#[test]
fn case_insensitive_literals_are_classes() {
    assert_eq!(root("k", "i"), Node::Class(set(&[(0x4B, 0x4B), (0x6B, 0x6B)])));
    assert_eq!(root("k", "iu"), Node::Class(set(&[(0x4B, 0x4B), (0x6B, 0x6B), (0x212A, 0x212A)])));
    assert_eq!(root("ß", "i"), Node::Char(0xDF));
    assert_eq!(root("ß", "iu"), Node::Class(set(&[(0xDF, 0xDF), (0x1E9E, 0x1E9E)])));
    assert_eq!(root("1", "i"), Node::Char(0x31));
    // A class is closed over case, then negated.
    assert_eq!(root("[^k]", "i"), Node::Class(set(&[(0, 0x4A), (0x4C, 0x6A), (0x6C, 0xFFFF)])));
}

#[test]
fn properties() {
    let Node::Class(greek) = root(r"\p{Script=Greek}", "u") else { panic!() };
    assert!(greek.contains(0x3A9) && !greek.contains(0x41));
    assert_eq!(root(r"\p{sc=Grek}", "u"), root(r"\p{Script=Greek}", "u"));
    assert_eq!(root(r"\p{General_Category=Letter}", "u"), root(r"\p{L}", "u"));
    // V8 reads only the low byte of each name character: \p{Ō} is \p{L}.
    assert_eq!(root(r"\p{Ō}", "u"), root(r"\p{L}", "u"));
    // Without u, \p is an identity escape.
    assert_eq!(
        root(r"\p{L}", ""),
        Node::Concat(vec![
            Node::Char('p' as u32),
            Node::Char('{' as u32),
            Node::Char('L' as u32),
            Node::Char('}' as u32)
        ])
    );
    for bad in
        [r"\p{Greek}", r"\p{letter}", r"\p{Lu=x}", r"\p{gc=}", r"\pL", r"\p{RGI_Emoji}", r"\P{Any"]
    {
        assert!(err(bad, "u").ends_with(": Invalid property name"), "{bad}");
    }
    assert!(err(r"[\p{Foo}]", "u").ends_with(": Invalid property name in character class"));
    assert!(err(r"\P{RGI_Emoji}", "v").ends_with(": Invalid property name"));
}

#[test]
fn groups_and_references() {
    let p = parse(r"(?<year>\d{4})-(\d\d)\k<year>\2", "").unwrap();
    assert_eq!(p.capture_count, 2);
    assert_eq!(p.group_names, vec![Some("year".to_string()), None]);
    let Node::Concat(v) = p.root else { panic!() };
    assert_eq!(v[3], Node::BackReference(1));
    assert_eq!(v[4], Node::BackReference(2));
    // A reference inside its own group matches empty: it vanishes with its quantifier.
    assert_eq!(
        root(r"(a\1*)", ""),
        Node::Capture(Box::new(crate::ast::Capture {
            index: 1,
            name: None,
            node: Node::Char(0x61)
        }))
    );
    // \k is an identity escape without named groups (and without u).
    assert_eq!(root(r"\k", ""), Node::Char('k' as u32));
    // \N beyond the group count: octal or identity escape without u.
    assert_eq!(
        root(r"\2(a)", "").clone(),
        Node::Concat(vec![
            Node::Char(2),
            Node::Capture(Box::new(crate::ast::Capture {
                index: 1,
                name: None,
                node: Node::Char(0x61)
            }))
        ])
    );
    // Names may use \u escapes and astral characters.
    let p = parse(r"(?<\u{1D49C}b>x)\k<𝒜b>", "").unwrap();
    assert_eq!(p.group_names, vec![Some("𝒜b".to_string())]);
}

#[test]
fn assertions_and_lookarounds() {
    assert_eq!(
        root("^$", ""),
        Node::Concat(vec![
            Node::Assertion(Assertion::StartOfInput),
            Node::Assertion(Assertion::EndOfInput)
        ])
    );
    assert_eq!(
        root("^$", "m"),
        Node::Concat(vec![
            Node::Assertion(Assertion::StartOfLine),
            Node::Assertion(Assertion::EndOfLine)
        ])
    );
    let Node::Lookaround(l) = root("(?<!a)", "") else { panic!() };
    assert!(l.behind && l.negative);
    // Annex B: a quantified lookahead; a quantifier over a lookaround that can only
    // match empty disappears with it when it allows zero iterations.
    assert_eq!(root("(?=a)*", ""), Node::Empty);
    assert!(matches!(root("(?=a){2}", ""), Node::Lookaround(_)));
    assert!(err("(?=a)*", "u").ends_with(": Invalid quantifier"));
    assert!(err("(?<=a)*", "").ends_with(": Invalid quantifier"));
    // Inside a non-capturing group the quantifier is allowed even with u.
    assert_eq!(root("(?:(?=a))*", "u"), Node::Empty);
}

#[test]
fn quantifiers() {
    let rep = |p: &str, f: &str| match root(p, f) {
        Node::Repeat(r) => (r.min, r.max, r.greedy),
        other => panic!("{p}: {other:?}"),
    };
    assert_eq!(rep("a*", ""), (0, None, true));
    assert_eq!(rep("a+?", ""), (1, None, false));
    assert_eq!(rep("a{2,5}", ""), (2, Some(5), true));
    assert_eq!(rep("a{2,}", ""), (2, None, true));
    assert_eq!(rep("a{99999999999999999999}", ""), (i32::MAX as u32, None, true));
    // Annex B: incomplete quantifiers are literals without u.
    assert_eq!(
        root("a{,5}", ""),
        Node::Concat("a{,5}".chars().map(|c| Node::Char(c as u32)).collect())
    );
    assert_eq!(root("a{", ""), Node::Concat(vec![Node::Char(0x61), Node::Char(0x7B)]));
    assert!(err("a{,5}", "u").ends_with(": Incomplete quantifier"));
    assert!(err("a{2,1}", "").ends_with(": numbers out of order in {} quantifier"));
    // V8's quirk: with v, [^] has max_match() == 0, so `*` drops it and `{2}` keeps one.
    assert_eq!(root("[^]*", "v"), Node::Empty);
    assert_eq!(root("[^]{2}", "v"), Node::Class(set(&[(0, 0x10FFFF)])));
}

#[test]
fn v8_error_messages() {
    let cases: &[(&str, &str, &str)] = &[
        ("(", "", "Invalid regular expression: /(/: Unterminated group"),
        ("a/(", "g", "Invalid regular expression: /a/(/g: Unterminated group"),
        ("a\n(", "gimsuyd", "Invalid regular expression: /a\n(/dgimsuy: Unterminated group"),
        ("[", "u", "Invalid regular expression: /[/u: Unterminated character class"),
        ("\\", "", "Invalid regular expression: /\\/: \\ at end of pattern"),
        ("a**", "", "Invalid regular expression: /a**/: Nothing to repeat"),
        (
            "(?<a>)(?<a>)",
            "",
            "Invalid regular expression: /(?<a>)(?<a>)/: Duplicate capture group name",
        ),
        ("(?i:a)", "", "Invalid regular expression: /(?i:a)/: Invalid group"),
        ("[a-\\w]", "u", "Invalid regular expression: /[a-\\w]/u: Invalid character class"),
        ("[z-a]", "", "Invalid regular expression: /[z-a]/: Range out of order in character class"),
        (
            "\\k<x>(?<y>)",
            "",
            "Invalid regular expression: /\\k<x>(?<y>)/: Invalid named capture referenced",
        ),
        ("(?<1>)", "", "Invalid regular expression: /(?<1>)/: Invalid capture group name"),
        ("\\u{110000}", "u", "Invalid regular expression: /\\u{110000}/u: Invalid Unicode escape"),
        ("[(]", "v", "Invalid regular expression: /[(]/v: Invalid character in character class"),
        (
            "[a-z--a]",
            "v",
            "Invalid regular expression: /[a-z--a]/v: Invalid set operation in character class",
        ),
        ("}", "u", "Invalid regular expression: /}/u: Lone quantifier brackets"),
        (")", "", "Invalid regular expression: /)/: Unmatched ')'"),
        ("\\c", "u", "Invalid regular expression: /\\c/u: Invalid Unicode escape"),
        ("\\1", "u", "Invalid regular expression: /\\1/u: Invalid escape"),
        ("\\00", "u", "Invalid regular expression: /\\00/u: Invalid decimal escape"),
        ("[\\01]", "u", "Invalid regular expression: /[\\01]/u: Invalid class escape"),
        ("\\k<a", "u", "Invalid regular expression: /\\k<a/u: Invalid capture group name"),
        ("\\k", "u", "Invalid regular expression: /\\k/u: Invalid named reference"),
        (
            "[^\\p{RGI_Emoji}]",
            "v",
            "Invalid regular expression: /[^\\p{RGI_Emoji}]/v: Negated character class may contain strings",
        ),
    ];
    for (p, f, msg) in cases {
        assert_eq!(err(p, f), *msg, "/{p}/{f}");
    }
    // The duplicate is reported when its group closes: an unterminated one wins.
    assert!(err("(?<a>)(?<a>x", "").ends_with(": Unterminated group"));
}

#[test]
fn quirk_flags() {
    assert_eq!(parse("(?:a[^S])+", "v").unwrap().quirks, vec![V8Quirk::RecompiledNegatedClass]);
    assert!(parse("(?:a[^S])*", "v").unwrap().quirks.is_empty());
    assert!(parse("(?:a[^S])+", "u").unwrap().quirks.is_empty());
    assert!(parse("(?:(a)[^S])+", "v").unwrap().quirks.is_empty());
    assert_eq!(
        parse("(?:(?<=B)abc)*S", "").unwrap().quirks,
        vec![V8Quirk::LoopStartingWithLookbehind]
    );
    assert!(parse("(?:(?<=B)abc)?S", "").unwrap().quirks.is_empty());
    assert!(parse("(?:a(?<=a)bc)*S", "").unwrap().quirks.is_empty());
}

impl Node {
    fn into_class(self) -> Node {
        match self {
            Node::Char(c) => Node::Class(CharSet::single(c)),
            other => other,
        }
    }
}
