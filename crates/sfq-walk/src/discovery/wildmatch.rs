//! A port of git's `wildmatch.c`: shell-style matching of `?`, `\`, `[]`, `*`
//! and `**` as git uses it for ignore rules.
//!
//! Character classes use git's own ASCII-only `ctype` table, so the results do
//! not depend on the locale, exactly as in git.

/// Fold ASCII upper case to lower case (`WM_CASEFOLD`).
pub const CASEFOLD: u32 = 1;
/// `/` is special: `*` and `?` do not match it, `**` does (`WM_PATHNAME`).
pub const PATHNAME: u32 = 2;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Res {
    Match,
    NoMatch,
    AbortAll,
    AbortToStarStar,
}

/// Whether `text` matches `pattern` (git's `wildmatch(pattern, text, flags) == 0`).
///
/// Both are byte strings without NUL bytes; a NUL ends them, as in C.
pub fn wildmatch(pattern: &[u8], text: &[u8], flags: u32) -> bool {
    dowild(pattern, 0, text, 0, flags, 0) == Res::Match
}

/// Recursion bound: one level per `*` run; a pattern needing more (tens of
/// thousands of stars) is treated as not matching instead of overflowing
/// the stack.
const MAX_DEPTH: u32 = 1000;

/// git's `is_glob_special`: `*`, `?`, `[` and `\`.
pub fn is_glob_special(c: u8) -> bool {
    matches!(c, b'*' | b'?' | b'[' | b'\\')
}

#[inline]
fn at(s: &[u8], i: usize) -> u8 {
    s.get(i).copied().unwrap_or(0)
}

fn dowild(pat: &[u8], mut p: usize, text: &[u8], mut t: usize, flags: u32, depth: u32) -> Res {
    if depth > MAX_DEPTH {
        return Res::AbortAll;
    }
    let pstart = p;
    let fold = flags & CASEFOLD != 0;
    let pathname = flags & PATHNAME != 0;
    loop {
        let mut p_ch = at(pat, p);
        if p_ch == 0 {
            break;
        }
        let mut t_ch = at(text, t);
        if t_ch == 0 && p_ch != b'*' {
            return Res::AbortAll;
        }
        if fold && t_ch.is_ascii_uppercase() {
            t_ch = t_ch.to_ascii_lowercase();
        }
        if fold && p_ch.is_ascii_uppercase() {
            p_ch = p_ch.to_ascii_lowercase();
        }
        match p_ch {
            b'\\' => {
                p += 1;
                if t_ch != at(pat, p) {
                    return Res::NoMatch;
                }
            }
            b'?' => {
                if pathname && t_ch == b'/' {
                    return Res::NoMatch;
                }
            }
            b'*' => {
                let match_slash;
                p += 1;
                if at(pat, p) == b'*' {
                    let first_star = p - 1;
                    while at(pat, p) == b'*' {
                        p += 1;
                    }
                    let prev_is_start_or_slash =
                        first_star == pstart || pat[first_star - 1] == b'/';
                    if !pathname {
                        match_slash = true;
                    } else if prev_is_start_or_slash
                        && (at(pat, p) == 0
                            || at(pat, p) == b'/'
                            || (at(pat, p) == b'\\' && at(pat, p + 1) == b'/'))
                    {
                        if at(pat, p) == b'/'
                            && dowild(pat, p + 1, text, t, flags, depth + 1) == Res::Match
                        {
                            return Res::Match;
                        }
                        match_slash = true;
                    } else {
                        match_slash = false;
                    }
                } else {
                    match_slash = !pathname;
                }
                if at(pat, p) == 0 {
                    if !match_slash && text[t.min(text.len())..].contains(&b'/') {
                        return Res::NoMatch;
                    }
                    return Res::Match;
                } else if !match_slash && at(pat, p) == b'/' {
                    match text[t.min(text.len())..].iter().position(|&c| c == b'/') {
                        None => return Res::NoMatch,
                        Some(off) => {
                            // The slash is consumed by the loop increment.
                            t += off;
                            t += 1;
                            p += 1;
                            continue;
                        }
                    }
                }
                loop {
                    if t_ch == 0 {
                        break;
                    }
                    let pc = at(pat, p);
                    if !is_glob_special(pc) {
                        let pc = if fold { pc.to_ascii_lowercase() } else { pc };
                        loop {
                            t_ch = at(text, t);
                            if t_ch == 0 || (!match_slash && t_ch == b'/') {
                                break;
                            }
                            if fold {
                                t_ch = t_ch.to_ascii_lowercase();
                            }
                            if t_ch == pc {
                                break;
                            }
                            t += 1;
                        }
                        if t_ch != pc {
                            return Res::NoMatch;
                        }
                    }
                    let matched = dowild(pat, p, text, t, flags, depth + 1);
                    if matched != Res::NoMatch {
                        if !match_slash || matched != Res::AbortToStarStar {
                            return matched;
                        }
                    } else if !match_slash && t_ch == b'/' {
                        return Res::AbortToStarStar;
                    }
                    t += 1;
                    t_ch = at(text, t);
                }
                return Res::AbortAll;
            }
            b'[' => {
                p += 1;
                let mut p_ch = at(pat, p);
                if p_ch == b'^' {
                    p_ch = b'!';
                }
                let negated = p_ch == b'!';
                if negated {
                    p += 1;
                    p_ch = at(pat, p);
                }
                let mut prev_ch: u8 = 0;
                let mut matched = false;
                loop {
                    if p_ch == 0 {
                        return Res::AbortAll;
                    }
                    if p_ch == b'\\' {
                        p += 1;
                        p_ch = at(pat, p);
                        if p_ch == 0 {
                            return Res::AbortAll;
                        }
                        if t_ch == p_ch {
                            matched = true;
                        }
                    } else if p_ch == b'-'
                        && prev_ch != 0
                        && at(pat, p + 1) != 0
                        && at(pat, p + 1) != b']'
                    {
                        p += 1;
                        p_ch = at(pat, p);
                        if p_ch == b'\\' {
                            p += 1;
                            p_ch = at(pat, p);
                            if p_ch == 0 {
                                return Res::AbortAll;
                            }
                        }
                        if t_ch <= p_ch && t_ch >= prev_ch {
                            matched = true;
                        } else if fold && t_ch.is_ascii_lowercase() {
                            let up = t_ch.to_ascii_uppercase();
                            if up <= p_ch && up >= prev_ch {
                                matched = true;
                            }
                        }
                        p_ch = 0;
                    } else if p_ch == b'[' && at(pat, p + 1) == b':' {
                        p += 2;
                        let s = p;
                        loop {
                            p_ch = at(pat, p);
                            if p_ch == 0 || p_ch == b']' {
                                break;
                            }
                            p += 1;
                        }
                        if p_ch == 0 {
                            return Res::AbortAll;
                        }
                        // i = p - s - 1 (length of the class name before ':')
                        if p == s || pat[p - 1] != b':' {
                            // Didn't find ":]", so treat like a normal set.
                            p = s - 2;
                            p_ch = b'[';
                            if t_ch == p_ch {
                                matched = true;
                            }
                        } else {
                            let name = &pat[s..p - 1];
                            match class_matches(name, t_ch, fold) {
                                None => return Res::AbortAll,
                                Some(true) => matched = true,
                                Some(false) => {}
                            }
                            p_ch = 0;
                        }
                    } else if t_ch == p_ch {
                        matched = true;
                    }
                    prev_ch = p_ch;
                    p += 1;
                    p_ch = at(pat, p);
                    if p_ch == b']' {
                        break;
                    }
                }
                if matched == negated || (pathname && t_ch == b'/') {
                    return Res::NoMatch;
                }
            }
            _ => {
                if t_ch != p_ch {
                    return Res::NoMatch;
                }
            }
        }
        t += 1;
        p += 1;
    }
    if at(text, t) != 0 { Res::NoMatch } else { Res::Match }
}

/// git's ASCII-only character classes; `None` for an unknown class name.
fn class_matches(name: &[u8], c: u8, fold: bool) -> Option<bool> {
    Some(match name {
        b"alnum" => c.is_ascii_alphanumeric(),
        b"alpha" => c.is_ascii_alphabetic(),
        b"blank" => c == b' ' || c == b'\t',
        b"cntrl" => c < 0x20 || c == 0x7f,
        b"digit" => c.is_ascii_digit(),
        b"graph" => (0x21..=0x7e).contains(&c),
        b"lower" => c.is_ascii_lowercase(),
        b"print" => (0x20..=0x7e).contains(&c),
        b"punct" => c.is_ascii_punctuation(),
        // git's sane isspace: space, tab, LF, CR (not VT, FF).
        b"space" => matches!(c, b' ' | b'\t' | b'\n' | b'\r'),
        b"upper" => c.is_ascii_uppercase() || (fold && c.is_ascii_lowercase()),
        b"xdigit" => c.is_ascii_hexdigit(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{CASEFOLD, PATHNAME, wildmatch};

    fn wm(p: &str, t: &str) -> bool {
        wildmatch(p.as_bytes(), t.as_bytes(), PATHNAME)
    }
    fn fnm(p: &str, t: &str) -> bool {
        wildmatch(p.as_bytes(), t.as_bytes(), 0)
    }

    // Cases from git's t/t3070-wildmatch.sh (wildmatch column).
    #[test]
    fn git_t3070_cases() {
        let cases: &[(bool, &str, &str)] = &[
            (true, "foo", "foo"),
            (false, "foo", "bar"),
            (true, "", ""),
            (true, "???", "foo"),
            (false, "??", "foo"),
            (true, "*", "foo"),
            (true, "f*", "foo"),
            (false, "*f", "foo"),
            (true, "*foo*", "foo"),
            (true, "*ob*a*r*", "foobar"),
            (true, "*ab", "aaaaaaabababab"),
            (true, "foo\\*", "foo*"),
            (false, "foo\\*bar", "foobar"),
            (true, "f\\\\oo", "f\\oo"),
            (true, "*[al]?", "ball"),
            (false, "[ten]", "ten"),
            (true, "**[!te]", "ten"),
            (false, "**[!ten]", "ten"),
            (true, "t[a-g]n", "ten"),
            (false, "t[!a-g]n", "ten"),
            (true, "t[!a-g]n", "ton"),
            (true, "t[^a-g]n", "ton"),
            (true, "a[]]b", "a]b"),
            (true, "a[]-]b", "a-b"),
            (true, "a[]-]b", "a]b"),
            (false, "a[]-]b", "aab"),
            (true, "a[]a-]b", "aab"),
            (true, "]", "]"),
            (false, "foo*bar", "foo/baz/bar"),
            (false, "foo**bar", "foo/baz/bar"),
            (true, "foo**bar", "foobazbar"),
            (true, "foo/**/bar", "foo/baz/bar"),
            (true, "foo/**/**/bar", "foo/baz/bar"),
            (true, "foo/**/bar", "foo/b/a/z/bar"),
            (true, "foo/**/**/bar", "foo/b/a/z/bar"),
            (true, "foo/**/bar", "foo/bar"),
            (true, "foo/**/**/bar", "foo/bar"),
            (false, "foo?bar", "foo/bar"),
            (false, "foo[/]bar", "foo/bar"),
            (false, "foo[^a-z]bar", "foo/bar"),
            (false, "f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo/bar"),
            (true, "f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "foo-bar"),
            (true, "**/foo", "foo"),
            (true, "**/foo", "XXX/foo"),
            (true, "**/foo", "bar/baz/foo"),
            (false, "*/foo", "bar/baz/foo"),
            (false, "**/bar*", "foo/bar/baz"),
            (true, "**/bar/*", "deep/foo/bar/baz"),
            (false, "**/bar/*", "deep/foo/bar/baz/"),
            (true, "**/bar/**", "deep/foo/bar/baz/"),
            (false, "**/bar/*", "deep/foo/bar"),
            (true, "**/bar/**", "deep/foo/bar/"),
            (false, "**/bar**", "foo/bar/baz"),
            (true, "*/bar/**", "foo/bar/baz/x"),
            (false, "*/bar/**", "deep/foo/bar/baz/x"),
            (true, "**/bar/*/*", "deep/foo/bar/baz/x"),
            (false, "a[c-c]st", "acrt"),
            (true, "a[c-c]rt", "acrt"),
            (false, "[!]-]", "]"),
            (true, "[!]-]", "a"),
            (false, "\\", ""),
            (false, "\\", "\\"),
            (false, "*/\\", "XXX/\\"),
            (true, "*/\\\\", "XXX/\\"),
            (true, "foo", "foo"),
            (true, "@foo", "@foo"),
            (false, "@foo", "foo"),
            (true, "\\[ab]", "[ab]"),
            (true, "[[]ab]", "[ab]"),
            (true, "[[:]ab]", "[ab]"),
            (false, "[[::]ab]", "[ab]"),
            (true, "[[:digit]ab]", "[ab]"),
            (true, "[\\[:]ab]", "[ab]"),
            (true, "\\??\\?b", "?a?b"),
            (true, "\\a\\b\\c", "abc"),
            (false, "", "foo"),
            (true, "**/t[o]", "foo/bar/baz/to"),
            (true, "[[:alpha:]][[:digit:]][[:upper:]]", "a1B"),
            (false, "[[:digit:][:upper:][:space:]]", "a"),
            (true, "[[:digit:][:upper:][:space:]]", "A"),
            (true, "[[:digit:][:upper:][:space:]]", "1"),
            (false, "[[:digit:][:upper:][:spaci:]]", "1"),
            (true, "[[:digit:][:upper:][:space:]]", " "),
            (false, "[[:digit:][:upper:][:space:]]", "."),
            (true, "[[:digit:][:punct:][:space:]]", "."),
            (true, "[[:xdigit:]]", "5"),
            (true, "[[:xdigit:]]", "f"),
            (true, "[[:xdigit:]]", "D"),
            (true, "[a-c[:digit:]x-z]", "5"),
            (true, "[a-c[:digit:]x-z]", "b"),
            (true, "[a-c[:digit:]x-z]", "y"),
            (false, "[a-c[:digit:]x-z]", "q"),
            (true, "[\\\\-^]", "]"),
            (false, "[\\\\-^]", "["),
            (true, "[\\-_]", "-"),
            (true, "[\\]]", "]"),
            (false, "[\\]]", "\\]"),
            (false, "[\\]]", "\\"),
            (false, "a[]b", "ab"),
            (false, "a[]b", "a[]b"),
            (false, "ab[", "ab["),
            (false, "[!", "ab"),
            (false, "[-", "ab"),
            (true, "[-]", "-"),
            (false, "[a-", "-"),
            (false, "[!a-", "-"),
            (true, "[--A]", "-"),
            (true, "[--A]", "5"),
            (true, "[ --]", " "),
            (true, "[ --]", "$"),
            (true, "[ --]", "-"),
            (false, "[ --]", "0"),
            (true, "[---]", "-"),
            (true, "[------]", "-"),
            (false, "[a-e-n]", "j"),
            (true, "[a-e-n]", "-"),
            (true, "[!------]", "a"),
            (false, "[]-a]", "["),
            (true, "[]-a]", "^"),
            (false, "[!]-a]", "^"),
            (true, "[!]-a]", "["),
            (true, "[a^bc]", "^"),
            (true, "[a-]b]", "-b]"),
            (false, "[\\]", "\\"),
            (true, "[\\\\]", "\\"),
            (false, "[!\\\\]", "\\"),
            (true, "[A-\\\\]", "G"),
            (false, "b*a", "aaabbb"),
            (false, "*ba*", "aabcaa"),
            (true, "[,]", ","),
            (true, "[\\\\,]", ","),
            (true, "[\\\\,]", "\\"),
            (true, "[,-.]", "-"),
            (false, "[,-.]", "+"),
            (false, "[,-.]", "-.]"),
            (true, "[\\1-\\3]", "2"),
            (true, "[\\1-\\3]", "3"),
            (false, "[\\1-\\3]", "4"),
            (true, "[[-\\]]", "\\"),
            (true, "[[-\\]]", "["),
            (true, "[[-\\]]", "]"),
            (false, "[[-\\]]", "-"),
            (
                true,
                "-*-*-*-*-*-*-12-*-*-*-m-*-*-*",
                "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1",
            ),
            (
                false,
                "-*-*-*-*-*-*-12-*-*-*-m-*-*-*",
                "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1",
            ),
            (
                false,
                "-*-*-*-*-*-*-12-*-*-*-m-*-*-*",
                "-adobe-courier-bold-o-normal--12-120-75-75-/-70-iso8859-1",
            ),
            (
                true,
                "XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*",
                "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1",
            ),
            (
                false,
                "XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*",
                "XXX/adobe/courier/bold/o/normal//12/120/75/75/X/70/iso8859/1",
            ),
            (true, "**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt"),
            (false, "**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz"),
            (false, "*/*/*", "foo"),
            (false, "*/*/*", "foo/bar"),
            (true, "*/*/*", "foo/bba/arr"),
            (false, "*/*/*", "foo/bb/aa/rr"),
            (true, "**/**/**", "foo/bb/aa/rr"),
            (true, "*X*i", "abcXdefXghi"),
            (false, "*X*i", "ab/cXd/efXg/hi"),
            (true, "*/*X*/*/*i", "ab/cXd/efXg/hi"),
            (true, "**/*X*/**/*i", "ab/cXd/efXg/hi"),
        ];
        for &(want, p, t) in cases {
            assert_eq!(wm(p, t), want, "wildmatch({p:?}, {t:?})");
        }
    }

    #[test]
    fn without_pathname_star_crosses_slash() {
        assert!(fnm("foo*bar", "foo/baz/bar"));
        assert!(fnm("*/foo", "bar/baz/foo"));
        assert!(fnm("foo?bar", "foo/bar"));
    }

    #[test]
    fn casefold() {
        assert!(wildmatch(b"[A-Z]", b"a", CASEFOLD | PATHNAME));
        assert!(wildmatch(b"FOO", b"foo", CASEFOLD));
        assert!(!wildmatch(b"FOO", b"foo", 0));
    }
}
