//! picomatch's regular expressions on the workspace's JavaScript engine,
//! [`sfq_regex`]: `new RegExp(source)` without flags (picomatch's default:
//! no `nocase`), so non-Unicode mode with Annex B, over UTF-16 code units,
//! with V8's results and V8's syntax errors.
//!
//! [`sfq_fast`]'s translation of the same tree to `regex-automata` answers
//! first: its superset (lookarounds dropped) rejects most paths at automaton
//! speed, and when the pattern has an exact translation (no lookaround) it
//! answers alone. The engine decides the rest. The translation is built at
//! the first match (its automata take 0.1–0.2 ms to build), so that a glob
//! whose paths never reach the regex (a direct matcher, a required literal)
//! does not pay for it.

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use sfq_fast::{FastRegex, Scope};
use sfq_regex::{Budget, ErrorKind, Reason};

/// A compiled regular expression: the engine and its fast path (built on
/// first use, shared by clones).
#[derive(Debug, Clone)]
pub struct Regex {
    exact: sfq_regex::Regex,
    fast: Arc<OnceLock<FastRegex>>,
}

/// What `new RegExp(source)` gives.
#[derive(Debug)]
pub enum Compiled {
    /// A regular expression.
    Regex(Regex),
    /// V8 throws a `SyntaxError` (picomatch's `toRegex` then uses `/$^/`).
    Invalid,
    /// V8 compiles it, the engine cannot match it as V8 does.
    Unsupported(&'static str),
}

/// Whether the engine rejected `source` only for its own nesting limit
/// ([`sfq_regex::MAX_NESTING`]), which V8 does not share.
fn too_deep(e: &sfq_regex::Error) -> bool {
    e.kind() == ErrorKind::InvalidPattern(Reason::StackOverflow)
}

/// `new RegExp(source)`.
pub fn compile(source: &[u16]) -> Compiled {
    match sfq_regex::Regex::new(source, "") {
        // The only quirk possible without `v`: V8 11.3 may skip a repeated
        // group that starts with a lookbehind, where the engine follows the
        // spec.
        Ok(re) if !re.v8_quirks().is_empty() => {
            Compiled::Unsupported("a repeated group starting with a lookbehind")
        }
        Ok(re) => Compiled::Regex(Regex { exact: re, fast: Arc::default() }),
        Err(e) if too_deep(&e) => Compiled::Unsupported("groups nested too deeply"),
        Err(_) => Compiled::Invalid,
    }
}

/// Whether `new RegExp(source)` succeeds (picomatch's `expandRange`).
pub fn is_valid(source: &[u16]) -> bool {
    match sfq_regex::parse(source, "") {
        Ok(_) => true,
        Err(e) => too_deep(&e),
    }
}

/// Whether `source` has a `|` outside every group and class (`a|b`, not
/// `(?:a|b)`), or is not a valid pattern.
pub fn has_top_level_alternation(source: &[u16]) -> bool {
    if sfq_regex::parse(source, "").is_err() {
        return true;
    }
    // The pattern is valid, so a token scan finds its structure: an escape
    // is `\` and one unit, a class runs to the first unescaped `]`.
    let (mut depth, mut in_class, mut i) = (0usize, false, 0);
    while i < source.len() {
        match source[i] {
            0x5C => i += 1, // `\`
            0x5D if in_class => in_class = false,
            _ if in_class => {}
            0x5B => in_class = true,
            0x28 => depth += 1,
            0x29 => depth = depth.saturating_sub(1),
            0x7C if depth == 0 => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

thread_local! {
    /// The subject as UTF-16, reused from path to path.
    static UNITS: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
}

/// A buffer longer than this is not kept for the next subject.
const KEEP_UNITS: usize = 1 << 16;

impl Regex {
    /// The engine's parsed tree of the source (the shortcuts of the glob
    /// module are read off it, so that they agree with the regex).
    pub fn ast(&self) -> &sfq_regex::ast::Pattern {
        self.exact.ast()
    }

    /// `regex.test(subject)` (a fresh `lastIndex` of 0).
    pub fn test(&self, subject: &str) -> bool {
        let fast = self.fast.get_or_init(|| FastRegex::new(self.exact.ast(), Scope::Whole));
        // No match starts anywhere: none at 0 either.
        if fast.next_candidate(subject, 0).is_none() {
            return false;
        }
        if !fast.needs_exact(subject) {
            let mut found = false;
            fast.for_each_match(subject, |_, _| {
                found = true;
                false
            });
            return found;
        }
        self.test_exact(subject)
    }

    /// [`Regex::test`] on the engine, with the subject as UTF-16 in a buffer
    /// reused from call to call.
    ///
    /// Without a step limit: the engine memoises failed states, so a search
    /// is polynomial. Should its backtracking stack reach its limit (64 MiB),
    /// the subject counts as not matching.
    fn test_exact(&self, subject: &str) -> bool {
        let run = |units: &[u16]| {
            self.exact.is_match_at(units, 0, &mut Budget::unlimited()).unwrap_or(false)
        };
        UNITS.with(|cell| match cell.try_borrow_mut() {
            Ok(mut units) => {
                units.clear();
                units.extend(subject.encode_utf16());
                let found = run(&units);
                if units.capacity() > KEEP_UNITS {
                    *units = Vec::new();
                }
                found
            }
            // Not reachable (no re-entrance); stay correct anyway.
            Err(_) => run(&subject.encode_utf16().collect::<Vec<_>>()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Compiled, compile, has_top_level_alternation, is_valid};

    fn u(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    fn m(src: &str, s: &str) -> bool {
        match compile(&u(src)) {
            Compiled::Regex(re) => {
                let exact = re.test_exact(s);
                assert_eq!(re.test(s), exact, "{src} on {s:?}: the fast path disagrees");
                exact
            }
            other => panic!("{src}: {other:?}"),
        }
    }

    #[test]
    fn matches_like_v8() {
        assert!(m("^(?:a[^/]c)$", "abc"));
        assert!(!m("^(?:a[^/]c)$", "a/c"));
        assert!(m("^(?:(?!\\.)(?=.)[^/]*?\\.ts\\/?)$", "x.ts"));
        assert!(!m("^(?:(?!\\.)(?=.)[^/]*?\\.ts\\/?)$", ".x.ts"));
        assert!(m("^(?:(?:(?!(?:^|\\/)\\.).)*?)$", "a/b/c"));
        assert!(!m("^(?:(?:(?!(?:^|\\/)\\.).)*?)$", "a/.b/c"));
        assert!(m("^(?!^(?:a)$).*$", "b"));
        assert!(!m("^(?!^(?:a)$).*$", "a"));
        assert!(m("^a{$", "a{"));
        assert!(m("^\\x41\\u0042\\cC$", "AB\u{3}"));
        assert!(m("^[\\d-x]+$", "1-x"));
        // Code units: `.` is half of a surrogate pair.
        assert!(m("^a..b$", "a\u{1F600}b") && !m("^a.b$", "a\u{1F600}b"));
        // Backreferences and lookbehind, which picomatch passes through.
        assert!(m("^(a)\\1$", "aa") && !m("^(a)\\1$", "ab"));
        assert!(m("^\\1(a)$", "a"));
        assert!(m("^(?:a(?<=a)b)$", "ab") && !m("^(?:a(?<!a)b)$", "ab"));
        // `test` searches: a top-level alternative need not start at 0.
        assert!(m("^a|b$", "xb"));
    }

    #[test]
    fn errors_are_v8s() {
        for bad in ["a**", "(a", "a)", "[b-a]", "{1}", "a{2,1}", "\\", "(?<a)"] {
            assert!(matches!(compile(&u(bad)), Compiled::Invalid), "{bad}");
            assert!(!is_valid(&u(bad)), "{bad}");
        }
        assert!(is_valid(&u("[1-3]")) && is_valid(&u("(a)\\1(?<=b)")));
        let deep = format!("{}a{}", "(".repeat(600), ")".repeat(600));
        assert!(matches!(compile(&u(&deep)), Compiled::Unsupported("groups nested too deeply")));
        assert!(is_valid(&u(&deep)));
        assert!(matches!(compile(&u("(?:(?<=B)abc)*S")), Compiled::Unsupported(_)));
    }

    #[test]
    fn top_level_alternation() {
        for (src, want) in [
            ("a|b", true),
            ("(?:a|b)", false),
            ("a(b|c)d", false),
            ("[|]", false),
            ("[\\]|]", false),
            ("\\|", false),
            ("\\(|a", true),
            ("[(]|a", true),
            ("a\\/(?:(?!(?:^|\\/)\\.).)*?", false),
            ("", false),
            ("(", true),
        ] {
            assert_eq!(has_top_level_alternation(&u(src)), want, "{src}");
        }
    }
}
