//! A hand-written table of tricky cases (the guide's §1 and §4 list, and V8 quirks found
//! while building the engine), each compared with V8.

mod common;

use common::{Case, check_all};

/// Texts that exercise case folding, line terminators, surrogates and spaces.
const TEXTS: &[&str] = &[
    "ab AB aB kK\u{212A} sS\u{17F} \u{C5}\u{E5}\u{212B} \u{DF}\u{1E9E} \u{3C3}\u{3C2}\u{3A3} \u{3B8}\u{3D1}\u{3F4} \u{3A9}\u{3C9}\u{2126}",
    "x\ry\nz\u{2028}w\u{2029}v",
    "\u{1F600}a\u{1D49C}b",
    "1 2\u{A0}3\u{FEFF}4\u{85}5\t6\u{3000}7",
    "function foo() { return bar; } // TODO: fix",
    "",
];

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut behind = Vec::new();
    let mut add = |p: &str, flags: &[&str]| {
        for f in flags {
            out.push(Case::new(p, f, TEXTS));
        }
    };
    let all = &["", "i", "u", "iu", "v", "iv", "m", "s", "y", "gimsuyd"];
    // Lookaround and backreferences.
    for p in [
        r"(?=a)",
        r"(?!a).",
        r"(?<=a)b",
        r"(?<!a)b",
        r"(?<=(\w+))\s",
        r"(?<=(\d+)(\d+))$",
        r"(?<=\1(a))b",
        r"(a)|\1b",
        r"\b(\w+)\s+\1\b",
        r"(['\x22])use strict\1",
        r"(?<![\w.])return",
        r"\bdef\s+\w+(?=\(self)",
        r"(?<x>a)\k<x>",
        r"\k<x>(?<x>a)",
        r"(a\1)",
        r"(?:(a)|b)*\1",
        r"^(?:(a)|\1b)+$",
        r"(?<=^|\s)\w",
        r"(?<=\b\w*)k",
        r"(?<=(a|b)+)c",
        r"(?<!^)$",
    ] {
        add(p, all);
    }
    // Leads: zero-width checks and captures before the first step (a run may start past
    // them), and a group closed right after a greedy loop (folded into the loop's step).
    for p in [
        r"(\b)\w+",
        r"\b(?=f)\w+",
        r"\b(?!r)(\w+)",
        r"^(\w+)",
        r"(?<=\s)(\w+)\s",
        r"$()",
        r"\B(\w)",
        r"(\b)(\b)(\w)",
        r"(^)\w",
        r"\b\b\w+",
        r"(?=\w)\b(\w+)\s+\1",
        r"\b(?<=o)\w",
        r"(\w+)(\s)\2",
        r"(a+)(b+)?c",
        r"(\w+?)\s",
        r"(\w*)x",
        r"((\w+))\s\2",
        r"(?:(\w+)\s)+\1",
        // A greedy loop giving back to where a back reference's text can start.
        r"(.{2}).+\1",
        r"(\w+).*\1",
        r"(a|)\w*\1",
        r"(.).*(\1)",
        r"(\w)(\w*)\2",
        r"(.+)\1",
        r"(?:(\w)|\s).*\1",
        r"(\S+).*?\1",
        r"(\w)\w*(?<=\1)",
        r"(\p{L}).*\1",
    ] {
        add(p, all);
    }
    // Leading lookbehinds ending with one of a few characters (only the positions after
    // one are tried), on texts where the first and last characters of their bodies differ.
    const BEHIND: &[&str] = &[
        "abcd bcx cdy ab c dc cb",
        "xyz zk abcab fooo fo o \u{1F600}a\u{1F600}",
        "b\u{2028}c\nd bcbc cdcd",
        "",
    ];
    for p in [
        r"(?<=(bc)|(cd)).",
        r"(?<=b|c)\w",
        r"(?<=[ab]\b)\s",
        r"(?<=a(?=b))b",
        r"(?<=(?:a|b)c?)\w",
        r"(?<=\u{1F600})a",
        r"(?<=k)\w",
        r"(?<=[xyz]+)\w",
        r"(?<=o)(?<=fo)o",
        r"(?<=\1(o))\w",
        r"(?<=bc|cd)",
        r"(?<=c(?:d|b))\w",
        // Leading lookaheads that need a character (the unit at the start is one of theirs).
        r"(?=(bc))(?<=\1)",
        r"(?=\w)\b",
        r"(?=b)",
        r"(?=[ab])\w{2}",
        r"(?=b|)c",
        r"(?=b)|c",
        r"(?=bc)b",
        r"(?=.*o)\w",
        r"(?=\u{1F600})",
        r"(?=b)(?=c)",
        r"(?=[^a])",
        r"(?=c)\w*?",
    ] {
        for f in all {
            behind.push(Case::new(p, f, BEHIND));
        }
    }
    // Lookarounds of an assertion, loops before `$` (with `m`: a line end stops them),
    // and Unicode-mode class loops over pairs and lone halves.
    const ENDS: &[&str] = &[
        "ab cd\nef\r\ngh\u{2028}ij\u{2029}kl",
        "x \u{1F600}\u{1F600}y z w\u{1F600}",
        "trailing   \n\n  lead;\nend;",
        "",
    ];
    for p in [
        r"\w+(?<=$)",
        r"\w+(?=$)",
        r"\w+$",
        r".+$",
        r"[\s\S]+$",
        r"[\s\S]+$\n",
        r"[^x]+$\r",
        r"[^\n]+$",
        r"(?=\b)\w+",
        r"(?<=^)\w",
        r"\w(?!$)",
        r"\w+(?<!\b)",
        r"\P{L}+",
        r"[\u{1F600}a-z]+",
        r"[^x]+$",
        r"\S+;$",
        // Loops before a lookbehind give back only to where its last character is before.
        r".*(?<=d)",
        r".*(?<=cd)",
        r"\w+(?<=(b|f))\b",
        r".*(?<=(l|ad))(.*)",
        r"\w*(?<=[^a])",
        r"(?<=\w*(?<=a)b)\w",
        r"\S+(?<=\u{1F600})",
        r".+(?<=\u{2028}ij)",
        r"a*(?<=b)",
        r"[a-z]+(?<=(?:x|y)z?)\s",
    ] {
        for f in all {
            let mut case = Case::new(p, f, ENDS);
            // And lone surrogate halves.
            case.texts.push(vec![0x78, 0xD83D, 0x7A, 0x20, 0xDE00, 0x77, 0xD83D, 0xDE00]);
            case.starts.push(-1);
            behind.push(case);
        }
    }
    // Quantifiers, empty checks, capture resets.
    for p in [
        r"(?:|a)*",
        r"(?:a|b?)+",
        r"a*",
        r"(a*)*",
        r"(a*)+",
        r"(?:(a)|b)*",
        r"(z)((a+)?(b+)?(c))*",
        r"(a?){2}b",
        r"(?:a?){2,3}?b",
        r"(?=(a))*a",
        r"()*",
        r"(){2}",
        r"a{,2}",
        r"a{2,}",
        r"a{1",
        r"x{99999999999999999999}",
        r"a??b",
        r"(a+)+$",
        r"\w+?\b",
        r"(?:a|ab)(?:c|bcd)",
    ] {
        add(p, all);
    }
    // Classes, escapes, case folding, Annex B syntax.
    for p in [
        r"[\w-a]",
        r"[a-\w]",
        r"[]",
        r"[^]",
        r"[\b]",
        r"[a&&b]",
        r"[\d--[2]]",
        r"[\p{L}--[a-z]]",
        r"[[a-z]&&[^aeiou]]",
        r"[\q{ab|c|}]",
        r"\p{L}",
        r"\P{Lu}",
        r"\p{Script=Greek}",
        r"\p{sc=Grek}",
        r"\p{scx=Grek}",
        r"\p{General_Category=Letter}",
        r"\p{Greek}",
        r"\p{letter}",
        r"\p{ASCII}",
        r"\P{Any}",
        r"\p{RGI_Emoji}",
        r"[^\p{RGI_Emoji}]",
        r"\cI",
        r"\c",
        r"[\c_]",
        r"\101",
        r"\8",
        r"\<div\>",
        r"\k",
        r"\u{2}",
        r"\u{1F600}",
        r"\uD83D\uDE00",
        r"\uD83D",
        r"[\uD83D\uDE00]",
        r"[😀]",
        r"😀",
        r".",
        r"^.$",
        r"$",
        r"^",
        r"\s+",
        r"\S",
        r"\w\b",
        r"\B",
        r"\W",
        r"[^\W]",
        r"s",
        r"k",
        r"\u00DF",
        r"\u1E9E",
        r"[a-z]",
        r"[A-Z]",
        r"[\u0100-\u017F]",
        r"[^a-z]",
        r"σ",
        r"Ω",
        r"\u212B",
        r"[\q{K}--k]",
        r"[\w--k]",
        r"(?i:a)",
        r"(?P<n>a)",
        r"(?<a>)(?<a>)",
        r"a**",
        r"(",
        r")",
        r"[",
        r"\",
        r"a{2,1}",
        r"}",
        r"]",
        r"{",
        r"{1}",
        r"\00",
        r"\-",
        r"[\-]",
        r"[(]",
        r"[a--b]",
        r"\p{Ō}",
        r"(?<𝒜>x)\k<𝒜>",
        r"(?<\u0061>x)\k<a>",
        r"(?<a\u{10400}>x)",
        // V8's max_match() quirks with v (see the parser's builder).
        r"[^]*",
        r"[^]{2}",
        r"[[^]]$",
        r"b??[^]+?$",
        r"a?[[^]]$",
        r"-?[[^]]$",
        r"(?:[^])+x",
        // V8 11.3 re-reads a pair after `\N` from its trail surrogate when `\N` made it
        // scan ahead for groups (see the parser's `position`).
        r"(?<=\1😀)()",
        r"(?<=b\1😀)()",
        r"(?<=\1b😀)()",
        r"\1😀(a)",
        r"(?<=\1😀.)|()s",
        r"\2\u{1F600}()()",
    ] {
        add(p, all);
    }
    out.extend(behind);
    out
}

#[test]
fn tricky_cases_agree_with_v8() {
    let cases = cases();
    let (agree, skipped, _) = check_all(&cases, "tricky", 50_000_000, &|_| false);
    assert_eq!(skipped, 0, "no tricky case may be skipped");
    assert_eq!(agree, cases.len());
}

#[test]
fn limits_agree_with_v8() {
    // V8 limits: 32,767 capture groups, 32,767 consecutive literal characters. (V8
    // also fails to compile patterns with more than about 10,000 groups, with "Stack
    // overflow", which depends on its native stack: the engine accepts those.)
    let mut cases = Vec::new();
    for p in [
        "()".repeat(32768),
        format!("(?:{})", "()".repeat(32768)),
        "a".repeat(32767),
        "a".repeat(32768),
        format!("{}(b)", "a".repeat(32768)),
        format!("\\32768{}", "()".repeat(3)),
    ] {
        cases.push(Case::new(&p, "", &["aaa"]));
    }
    let (agree, skipped, _) = check_all(&cases, "limits", 1_000_000, &|_| false);
    assert_eq!((agree, skipped), (cases.len(), 0));
}

#[test]
fn start_positions_agree_with_v8() {
    // exec with lastIndex inside a surrogate pair, past the end, and sticky.
    let mut cases = Vec::new();
    for (p, f) in [
        (r"\uDE00", "u"),
        (r"\uDE00", ""),
        (r".", "u"),
        (r"(?:)", "u"),
        (r".", "yu"),
        (r"(?:)", "yv"),
        (r"(?<=\uD83D)\uDE00", "u"),
        (r"(?<!\uD83D)\uDE00", "y"),
        (r"a", "y"),
        (r"\b", ""),
        (r"\B", "yu"),
        (r"\B", "u"),
        (r"(?!\uDE00)", "yu"),
        (r"\u{1F600}", "u"),
        (r"\u{1F600}(?<n>){0,1}?", "u"),
        (r"\u{1F600}(?:){0,1}?", "u"),
        (r"\u{1F600}(?:)", "u"),
        (r"(?:)\u{1F600}", "u"),
        (r"(?:\u{1F600})", "u"),
        (r"$", "m"),
    ] {
        let text = "a\u{1F600}a\u{1F600}";
        for start in 0..=7 {
            let mut c = Case::new(p, f, &[text]);
            c.starts = vec![start];
            cases.push(c);
        }
    }
    let (agree, skipped, _) = check_all(&cases, "starts", 1_000_000, &|_| false);
    assert_eq!((agree, skipped), (cases.len(), 0));
}

#[test]
fn memoised_searches_agree_with_v8() {
    // Patterns where a memo of failed states that forgot part of the state (a capture
    // a back reference reads, a loop counter, a mark, the activation of a lookaround)
    // would cut a path that succeeds. `compare` runs every case twice: as usual and
    // with the memo on from the first step; texts long enough that the usual run
    // switches it on too.
    let aa = "a".repeat(18);
    let ab = "ab".repeat(12);
    let texts = [
        format!("{aa}b"),
        format!("{aa}-b"),
        format!("{ab}c{ab}"),
        format!("{aa}ba{aa}"),
        "aabaab aab aabaab".to_string(),
        "aaaab".to_string(),
        format!("x{}y{}", "ab".repeat(10), "a".repeat(12)),
    ];
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let patterns = [
        r"(a|aa)+(?=b)",
        r"^(?=(a+)+$)",
        r"(a*)+b\1",
        r"(a+)+b\1",
        r"^(?:(a)|b)*\1",
        r"(?:(?=(a+))a)*\1b",
        r"(?=(a+?))(\1)*b",
        r"(?:a|ab){2,3}c",
        r"(a|b){3}\1",
        r"(?:(a|b)|\1c)+c",
        r"(?:(?!ab)[ab])+b",
        r"(a*)*b",
        r"(?:a?)*?b",
        r"(a|)+b",
        r"(?:(a)|\1b)+",
        r"(?<=(a+)\1)b",
        r"(?<=(?:a|aa)+)b",
        r"(?<!(?:a|aa)+b)a",
        r"((a)|b)+?\2c",
        r"(?:(a)|(b))+\1\2",
        r"^(?:a|ab|b)*?(?=b{2})",
        r"(?=(a|aa)+b)(a+)\2",
        r"(?:a{0,2}){2,5}b",
        r"(?:(?:ab)+|b|a)+c",
        r"(?:()|a)+b\1",
        r"(x+x+)+y",
        r"\b(\w+)\s+\1\b",
        r"(\w+)\s(?:\w+\s)*\1",
        // The same lookahead entered twice at 2 (`a` then `\1`, or `aa`) with nothing
        // live to tell the two apart: the first activation's states must not prune
        // the second.
        r"^(?:(a)|aa)\1(?!(?:a|aa)+b)",
    ];
    all_agree("memoised", &patterns, &["", "i", "u"], &texts);
}

/// Every pattern under every flag set, on every text, agrees with V8 (none skipped).
fn all_agree(name: &str, patterns: &[&str], flags: &[&str], texts: &[&str]) {
    let cases: Vec<Case> =
        patterns.iter().flat_map(|p| flags.iter().map(move |f| Case::new(p, f, texts))).collect();
    let (agree, skipped, _) = check_all(&cases, name, 50_000_000, &|_| false);
    assert_eq!(skipped, 0, "no {name} case may be skipped");
    assert_eq!(agree, cases.len());
}

#[test]
fn inner_literal_searches_agree_with_v8() {
    // Searches that start only a bounded distance before a literal every match holds
    // (`(.)a`: 1 unit before an `a`, or 2 under `u` where `.` can be a surrogate pair),
    // on texts with pairs, lone surrogates and line terminators.
    let texts = ["a😀b😀ab", "😀a😀😀ba", "xxab aab 😀ab", "a\u{2028}ab", "abcdabbdcd abccdx"];
    // Lone surrogates around an `a`: "\uD83Da\uDE00a".
    let lone: Vec<u16> = vec![0xD83D, 0x61, 0xDE00, 0x61];
    let mut cases = Vec::new();
    for p in [
        r"(.)(?<a>a)\1\2",
        r"(.)a",
        r"..a",
        r".{1,3}b",
        r"(?:😀|.)a",
        r"[😀a]b",
        r"(?<=a)..b",
        r"\Ba",
        r"(?:)..a",
        r"(?:ab|c)d",
        r"(?<=a(?=([bc]{2}(?<!a{2}))d)\w{3})\w\w",
        r"(?<=ab)\w",
        r"(?<=a\w)b",
        r"(?<=(a).)\w",
        r"\w(?<=ab)",
        r"(?<=😀a)b",
        r"(?<=a.)b",
        r".(?<=a(?:b|😀))",
    ] {
        for f in ["", "u", "v", "m"] {
            let mut case = Case::new(p, f, &texts);
            case.texts.push(lone.clone());
            case.starts.push(-1);
            cases.push(case);
        }
    }
    let (agree, skipped, _) = check_all(&cases, "inner", 50_000_000, &|_| false);
    assert_eq!(skipped, 0);
    assert_eq!(agree, cases.len());
}

#[test]
fn fused_star_runs_agree_with_v8() {
    // `(?:X+Y)*` with Y a character X never matches runs as one instruction
    // (`StarRun`): each iteration leaves the alternative its `Split` would, a failing
    // body goes on after the loop from the last iteration's start. Shapes that fuse
    // (captures before and after, back references reading them, inside lookarounds
    // and outer loops, `{2,}` runs, Unicode and case-folded sets) and near misses that
    // must not (lazy loops, overlapping sets, nullable bodies, captures in the body).
    let words = (0..40).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
    let texts = [
        "foo bar baz foo;".to_string(),
        "Foo bar FOO; k\u{212A} K x K;".to_string(),
        "a b c d a; x y z".to_string(),
        format!("{words} w3;"),
        format!("{words} end;"),
        "1.2.3 1.2. ..1 1..2 12.34.56x".to_string(),
        "ab,cd,x ab,,x ,x abcx".to_string(),
        "ab cd end a end ab c end".to_string(),
        "\u{E9}t\u{E9} \u{1D4B3}y z \u{C9}T\u{C9} \u{1F600} q".to_string(),
        "AB_cd_X ab_X _X x".to_string(),
        "say \"hi\" and \"bye\" ok ,, , ,; a,b,,x \"odd".to_string(),
        String::new(),
    ];
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let patterns = [
        r"(\w+)\s(?:\w+\s)*\1;",
        r"(?:\w+\s)*(\w+)",
        r"^(?:\d+\.)*\d+$",
        r"(?:\d+\.)*\d+",
        r"(?:[a-z]+,)*x",
        r"(?:\w{2,}\s)*end",
        r"(?:\w+\s)*?end",
        r"(?=(?:\w+\s)*x)\w",
        r"(?<=(?:\w+\s)*)y",
        r"(?:(?:\w+\s)*;)+",
        r"(?:\p{L}+\s)*\p{L}+",
        r"(?:[a-z]+_)*X",
        r"(?:\w+\w)*;",
        r"(?:\w*\s)*;",
        r"(?:(\w+)\s)*\1",
        r"(?:a+b)*a",
        r"((?:\w+\s)*)\1",
        r#"^(?:[^"]*")*[^"]*$"#,
        r"(?:[^,]*,)*x",
        r"(?:\s*,)*;",
        r"(?:\w*\s?)*;",
    ];
    all_agree("star runs", &patterns, &["", "i", "u", "iu", "m"], &texts);
}

#[test]
fn small_lookaheads_and_guarded_loops_agree_with_v8() {
    // A lookahead whose body is a few fixed sequences of characters and `^ $ \b \B`
    // runs as one check (`LookTest`); a loop over such a check (or any other
    // frameless one: one character, a literal, an assertion) then one character
    // (`(?:(?!…).)*?`) runs as a one-character loop (a `Guarded` matcher); a lazy loop
    // takes characters up to where its continuation can start. picomatch's shapes on
    // paths, each flag, line terminators, surrogates (pairs and lone), case pairs; and
    // near misses that take the general path (captures, back references, nested
    // lookarounds, unbounded or too large bodies).
    let texts = [
        "a/b/c",
        ".a/b",
        "a/.b/c",
        "a/./b/../c/.../d",
        "lib/x/.y/z.py",
        "share/doc/.hidden/x.txt",
        "/.",
        "..",
        "a/",
        "x.PY/K\u{212A}k/\u{17F}s",
        "a\nb/.c\r\n.d\u{2028}/..\u{2029}e",
        "\u{1F600}/.\u{1F600}x/\u{1F600}.",
        "ab cd_e-f g",
        "",
    ];
    let mut cases = Vec::new();
    let patterns = [
        r"^(?:(?:(?!(?:^|\/)\.).)*?)$",
        r"^(?:lib(?:\/(?!\.)(?:(?:(?!(?:^|\/)\.).)*?)\/|\/|$)(?!\.)(?=.)[^/]*?\.py)$",
        r"^(?:share(?:\/(?!\.)(?:(?:(?!(?:^|\/)\.).)*?)|$))$",
        r"^(?:(?:^|\/|(?:(?:(?!(?:^|\/)\.).)*?)\/)(bin|lib)(?:\/(?!\.)(?:(?:(?!(?:^|\/)\.).)*?)|$))$",
        r"^(?!^(?:(?:^|\/|(?:(?:(?!(?:^|\/)\.).)*?)\/)(?!\.)(?=.)[^/]*?\.py)$).*$",
        r"^(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*?$",
        r"(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)+",
        r"(?:(?!\.{0,1}(?:\/|$)).)+",
        r"(?!(?:^|\/)\.{1,2}(?:\/|$))",
        r"(?=(?:^|\/)\.{1,2}(?:\/|$))..",
        r"(?:(?!(?:^|\/)\.).)*",
        r"(?:(?!(?:^|\/)\.).){2,3}",
        r"(?:(?!(?:^|\/)\.).)*?\/",
        r"(?:(?!(?:^|\/)\.).)+?\.",
        r"(?=^.|.$)\w",
        r"(?!^|$).",
        r"(?:(?!^|$).)+",
        r"(?:(?=[a-z]\w|k).)+",
        r"(?=\b\w|\B-)",
        r"(?:\b\w)+",
        r"(?:\B.)+?",
        r"(?:(?<=\/).)+",
        r"(?:(?<!a).)+?b",
        r"(?=.\n|.$|\r\n).",
        r"(?!.\.).",
        r"(?=\u{1F600}|\/.)..",
        r"(?:(?!\uD83D).)+",
        r"(?=x{0,2}\/)\w*",
        r"(?!)|(?=)a",
        r"a(?!$)",
        r"(?=[^\/]{2}(?:\/|$))",
        // General path: a capture, a back reference, a nested lookaround, an
        // unbounded body, too many sequences.
        r"(?:(?!(\/)\.).)+",
        r"(\w)(?=\1|\/)",
        r"(?=(?:^|\/)(?!\.))\w",
        r"(?=\.+\/)",
        r"(?:(?![ab][cd][ef][gh][ij]).)+",
        r"(?=(?:a|b|c|d)(?:a|b|c|d)(?:a|b|c|d)[\/.])",
    ];
    for p in patterns {
        for f in ["", "i", "m", "s", "u", "iu", "mu", "v"] {
            let mut case = Case::new(p, f, &texts);
            // Lone surrogates around `/.`: "\uD83D/.\uDE00".
            case.texts.push(vec![0xD83D, 0x2F, 0x2E, 0xDE00]);
            case.starts.push(-1);
            cases.push(case);
        }
    }
    let (agree, skipped, _) = check_all(&cases, "look tests", 50_000_000, &|_| false);
    assert_eq!(skipped, 0);
    assert_eq!(agree, cases.len());
}
