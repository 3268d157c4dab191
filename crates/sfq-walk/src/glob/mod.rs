//! Glob matching with picomatch 4.0.3's meaning.
//!
//! A pattern is translated exactly as picomatch translates it (a port of its
//! parser, quirks included: `[!a]` is a class of `!` and `a`, `[abc]` also
//! matches the literal text `[abc]`, `?` matches one UTF-16 code unit, `{1..3}`
//! becomes `[1-3]`, unbalanced `[`/`{`/`(` become literals, a double-quoted
//! part at the start of a token is literal text without its quotes
//! (`"src"/*.js` matches `src/a.js`), an invalid result matches nothing but
//! the pattern text itself…) and the resulting JavaScript
//! regular expression runs on the workspace's JavaScript engine
//! (`sfq-regex`, V8's semantics over UTF-16 code units), so lookaheads,
//! lookbehinds and backreferences behave exactly as in Node.
//!
//! Paths are root-relative with `/` separators; `\` in a path is normalised
//! to `/` before matching.
//!
//! Speed: `*`, `**`, `**/*`, `*.ext` and `**/*.ext` have direct matchers;
//! the longest literal piece of the pattern's regex rejects most paths
//! first (`node_modules` for `**/node_modules/**`). Then the expression's
//! translation to `regex-automata` (`sfq-fast`: a superset without the
//! lookarounds, exact when there were none) rejects most paths, and the
//! engine decides the rest, on the path as UTF-16 in a buffer reused from
//! path to path.
//!
//! Deviations (compile errors, [`GlobError::Unsupported`], where picomatch
//! would build a working regex): groups nested more than 500 deep (the
//! engine's limit; V8's is about 10,000), and a repeated group that starts
//! with a lookbehind (`*((?<=a)b)`), where V8 11.3 matches differently from
//! the specification the engine follows. A POSIX class named like an
//! `Object.prototype` member (`[[:constructor:]]`) is treated as unknown.

mod filter;
mod js;
mod picomatch;
mod shape;

use std::fmt;

pub use filter::GlobFilter;

/// Options of a glob (picomatch's options of the same names).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GlobOptions {
    /// `dot: true`: wildcards also match names starting with `.`.
    pub dot: bool,
    /// `basename: true` (alias `matchBase`): the pattern is matched against
    /// the last path segment only (useful for patterns without `/`).
    pub basename: bool,
}

/// A pattern that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GlobError {
    /// The empty pattern (picomatch throws "Expected pattern to be a
    /// non-empty string").
    Empty,
    /// Longer than 65536 UTF-16 code units (picomatch throws).
    TooLong {
        /// The pattern.
        pattern: String,
        /// Its length in UTF-16 code units.
        len: usize,
    },
    /// picomatch would build a regular expression that the engine cannot
    /// run as V8 does (groups nested too deeply, a repeated group starting
    /// with a lookbehind).
    Unsupported {
        /// The pattern.
        pattern: String,
        /// The feature.
        reason: &'static str,
    },
}

impl fmt::Display for GlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GlobError::Empty => f.write_str("expected pattern to be a non-empty string"),
            GlobError::TooLong { len, .. } => {
                write!(f, "glob too long: {len} characters (at most 65536)")
            }
            GlobError::Unsupported { pattern, reason } => {
                write!(f, "unsupported glob {pattern:?}: {reason}")
            }
        }
    }
}

impl std::error::Error for GlobError {}

/// What part of a directory's subtree a pattern is known to match.
///
/// Names containing a line terminator (`\n`, `\r`, U+2028, U+2029) are an
/// exception to both answers: picomatch's `**` never matches them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Coverage {
    /// Nothing is known.
    None,
    /// Every path below the directory whose segments below it do not start
    /// with `.` matches.
    NonHidden,
    /// Every path below the directory matches.
    All,
}

/// One compiled glob.
#[derive(Debug, Clone)]
pub struct Glob {
    pattern: String,
    /// `None` when V8 rejects the source (picomatch then uses `/$^/`).
    regex: Option<js::Regex>,
    opts: GlobOptions,
    negated: bool,
    tail_globstar: bool,
    /// Every match starts with this (a directory prefix ending in `/`).
    prefix: Option<String>,
    hidden_safe: bool,
    shape: Option<shape::Shape>,
    /// Text every match of the regex contains (see [`required_literal`]):
    /// paths without it are answered without the regex.
    required: Option<String>,
}

fn to16(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

fn normalise(path: &str) -> std::borrow::Cow<'_, str> {
    if path.contains('\\') {
        std::borrow::Cow::Owned(path.replace('\\', "/"))
    } else {
        std::borrow::Cow::Borrowed(path)
    }
}

/// The longest run of text (at least two bytes) that every match of the
/// regex contains, read off the engine's tree of the compiled source: the
/// characters the top-level concatenation matches one after the other
/// (capture groups and zero-width assertions do not break a run; classes,
/// `.`, repetitions, alternations and backreferences do). Taken from the
/// regex, not the glob, because picomatch's translation does not keep the
/// glob's text: it drops a NUL that starts a token (`**\0ab` is
/// `(?!\.)[^/]*?ab`), lets a `.` merged into text through unescaped
/// (`****.js.` is `(?!\.)[^/]*?\.js.`), and drops or keeps double quotes.
fn required_literal(ast: &sfq_regex::ast::Pattern) -> Option<String> {
    use sfq_regex::ast::Node;
    fn walk(node: &Node, run: &mut Vec<u16>, runs: &mut Vec<Vec<u16>>) {
        match node {
            Node::Char(c) => match u16::try_from(*c) {
                Ok(c) => run.push(c),
                Err(_) => runs.push(std::mem::take(run)),
            },
            Node::Empty | Node::Assertion(_) | Node::Lookaround(_) => {}
            Node::Concat(nodes) => nodes.iter().for_each(|n| walk(n, run, runs)),
            Node::Capture(c) => walk(&c.node, run, runs),
            Node::Class(_) | Node::Alternation(_) | Node::Repeat(_) | Node::BackReference(_) => {
                runs.push(std::mem::take(run))
            }
        }
    }
    if ast.unicode_mode() || ast.flags.ignore_case {
        return None;
    }
    let (mut run, mut runs) = (Vec::new(), Vec::new());
    walk(&ast.root, &mut run, &mut runs);
    runs.push(run);
    // Code units to text: a lone surrogate ends a piece (a piece of a run is
    // contained in every match too).
    runs.iter()
        .flat_map(|r| {
            let mut pieces = vec![String::new()];
            for c in char::decode_utf16(r.iter().copied()) {
                match c {
                    Ok(c) => pieces.last_mut().expect("a piece").push(c),
                    Err(_) => pieces.push(String::new()),
                }
            }
            pieces
        })
        .filter(|piece| piece.len() >= 2)
        .max_by_key(String::len)
}

/// picomatch's `utils.basename`.
fn basename(path: &str) -> &str {
    let mut segs = path.rsplit('/');
    let last = segs.next().unwrap_or("");
    if last.is_empty() { segs.next().unwrap_or("") } else { last }
}

impl Glob {
    /// Compiles `pattern` with picomatch's meaning.
    pub fn new(pattern: &str, opts: &GlobOptions) -> Result<Glob, GlobError> {
        let p16 = to16(pattern);
        let parsed = picomatch::make(&p16, opts.dot).map_err(|e| match e {
            picomatch::ParseError::Empty => GlobError::Empty,
            picomatch::ParseError::TooLong(len) => {
                GlobError::TooLong { pattern: pattern.to_string(), len }
            }
        })?;
        // compileRe
        let mut source = to16("^(?:");
        source.extend_from_slice(&parsed.output);
        source.extend(to16(")$"));
        if parsed.negated {
            let mut s = to16("^(?!");
            s.extend_from_slice(&source);
            s.extend(to16(").*$"));
            source = s;
        }
        let regex = match js::compile(&source) {
            js::Compiled::Regex(r) => Some(r),
            // picomatch.toRegex returns /$^/ for an invalid source.
            js::Compiled::Invalid => None,
            js::Compiled::Unsupported(reason) => {
                return Err(GlobError::Unsupported { pattern: pattern.to_string(), reason });
            }
        };
        let prefix = if parsed.negated || opts.basename {
            None
        } else {
            literal_prefix(pattern, parsed.wild_dot)
        };
        // The tail argument ("matches D, so matches D/…") needs every match to
        // run through the final globstar: no alternation at the top level.
        // A parenthesis (an extglob, or one left open, which picomatch closes
        // with an empty alternative: `{a,b}(.a'/**` matches `a`) or an
        // unbalanced brace can route a match around the globstar: no tail
        // argument for those.
        let tail_globstar = parsed.tail_globstar
            && !js::has_top_level_alternation(&parsed.output)
            && !pattern.contains(['(', ')'])
            && pattern.matches('{').count() == pattern.matches('}').count();
        let hidden_safe = !opts.dot
            && !opts.basename
            && !parsed.negated
            && !parsed.wild_dot
            && is_hidden_safe(pattern);
        let required = regex.as_ref().and_then(|r| required_literal(r.ast()));
        Ok(Glob {
            pattern: pattern.to_string(),
            regex,
            opts: *opts,
            negated: parsed.negated,
            tail_globstar,
            prefix,
            hidden_safe,
            shape: parsed.shape,
            required,
        })
    }

    /// The pattern as given.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    fn regex_match(&self, path: &str) -> bool {
        let subject = if self.opts.basename { basename(path) } else { path };
        if let Some(shape) = &self.shape {
            return shape.matches(subject, self.opts.dot);
        }
        // An invalid source becomes picomatch's `/$^/`, which matches "".
        let Some(re) = &self.regex else { return subject.is_empty() };
        if let Some(lit) = &self.required
            && !subject.contains(lit.as_str())
        {
            return false;
        }
        re.test(subject)
    }

    /// Whether `path` matches (picomatch's `isMatch`).
    pub fn is_match(&self, path: &str) -> bool {
        let path = normalise(path);
        if path.is_empty() {
            return false;
        }
        if *path == *self.pattern {
            return true;
        }
        self.regex_match(&path)
    }

    /// `false` when provably no path strictly below directory `dir` matches.
    pub fn could_match_under(&self, dir: &str) -> bool {
        let dir = normalise(dir);
        if dir.trim_end_matches('/').is_empty() {
            return true;
        }
        let mut d = dir.trim_end_matches('/').to_string();
        d.push('/');
        if self.regex.is_none() {
            return self.pattern.starts_with(&d);
        }
        match &self.prefix {
            None => true,
            Some(p) => d.starts_with(p.as_str()) || p.starts_with(&d),
        }
    }

    /// Which paths strictly below directory `dir` are known to match
    /// (paths as a walk produces them: no empty, `.` or `..` segments).
    pub fn covers_dir(&self, dir: &str) -> Coverage {
        let dir = normalise(dir);
        let real =
            dir.trim_end_matches('/').split('/').all(|s| !s.is_empty() && s != "." && s != "..");
        if self.negated || !self.tail_globstar || self.opts.basename || !real {
            return Coverage::None;
        }
        if !self.regex_match(dir.trim_end_matches('/')) {
            return Coverage::None;
        }
        if self.opts.dot { Coverage::All } else { Coverage::NonHidden }
    }

    /// `true` when the pattern can never match a path with a segment
    /// starting with `.` (a conservative answer: `false` means "maybe").
    pub fn never_matches_hidden(&self) -> bool {
        self.hidden_safe
    }

    /// The directory every match lies under, from the pattern's leading
    /// literal text (`node_modules/@types` for `node_modules/@types/**/*.d.ts`),
    /// if it names one.
    pub fn literal_dir(&self) -> Option<&str> {
        self.prefix.as_deref().map(|p| p.trim_end_matches('/')).filter(|p| !p.is_empty())
    }
}

/// The directory part (ending in `/`) of the pattern's leading literal text.
/// With `wild_dot` (see [`picomatch::Parsed::wild_dot`]) a `.` of the glob
/// may match any character, `/` included, so the text ends before its first
/// `.`.
fn literal_prefix(pattern: &str, wild_dot: bool) -> Option<String> {
    let p = pattern.strip_prefix("./").unwrap_or(pattern);
    // A `|` reaches picomatch's regex as an alternation, at the top level
    // too: `ab/|**/@(a|b)` matches `a/b`, so no prefix is certain.
    if p.starts_with("./") || p.starts_with('!') || p.contains('|') {
        return None;
    }
    // An `@` not followed by `(` is literal in picomatch (npm scopes:
    // `node_modules/@company/**`), so it does not end the prefix.
    let chars: Vec<char> = p.chars().collect();
    let lit: String = chars
        .iter()
        .enumerate()
        .take_while(|&(i, &c)| {
            if c == '@' {
                return chars.get(i + 1).is_some_and(|&n| n != '(');
            }
            !matches!(
                c,
                '*' | '?'
                    | '['
                    | ']'
                    | '{'
                    | '}'
                    | '('
                    | ')'
                    | '!'
                    | '@'
                    | '+'
                    | '\\'
                    | '"'
                    | '|'
                    | ','
                    | '$'
                    | '^'
                    | '\0'
            )
        })
        .map(|(_, c)| c)
        .collect();
    let lit = match lit.find('.') {
        Some(dot) if wild_dot => lit[..dot].to_string(),
        _ => lit,
    };
    if lit.chars().count() == chars.len() && !lit.is_empty() {
        // A literal pattern matches itself only: nothing strictly below a
        // directory can match unless the pattern lies below it.
        return Some(format!("{lit}/"));
    }
    let cut = lit.rfind('/')?;
    Some(lit[..=cut].to_string())
}

/// See [`Glob::never_matches_hidden`].
fn is_hidden_safe(pattern: &str) -> bool {
    let p = pattern.strip_prefix("./").unwrap_or(pattern);
    if p.chars().any(|c| matches!(c, '{' | '}' | '[' | '(' | '|' | '\\' | '"' | '\0'))
        || p.starts_with('!')
    {
        return false;
    }
    let b = p.as_bytes();
    !(0..b.len()).any(|i| b[i] == b'.' && (i == 0 || b[i - 1] == b'/'))
}

/// Several globs: a path matches when any of them does (picomatch with an
/// array of patterns).
#[derive(Debug, Clone, Default)]
pub struct GlobSet {
    globs: Vec<Glob>,
}

impl GlobSet {
    /// Compiles every pattern.
    pub fn new<I, S>(patterns: I, opts: &GlobOptions) -> Result<GlobSet, GlobError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let globs = patterns
            .into_iter()
            .map(|p| Glob::new(p.as_ref(), opts))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GlobSet { globs })
    }

    /// Builds a set from compiled globs (they may have different options).
    pub fn from_globs(globs: Vec<Glob>) -> GlobSet {
        GlobSet { globs }
    }

    /// The globs.
    pub fn globs(&self) -> &[Glob] {
        &self.globs
    }

    /// Whether the set is empty (an empty set matches nothing).
    pub fn is_empty(&self) -> bool {
        self.globs.is_empty()
    }

    /// Whether any glob matches `path`.
    pub fn is_match(&self, path: &str) -> bool {
        self.globs.iter().any(|g| g.is_match(path))
    }

    /// `false` when provably no path strictly below `dir` matches any glob.
    pub fn could_match_under(&self, dir: &str) -> bool {
        self.globs.iter().any(|g| g.could_match_under(dir))
    }

    /// The best coverage any glob gives for `dir`'s subtree.
    pub fn covers_dir(&self, dir: &str) -> Coverage {
        self.globs.iter().map(|g| g.covers_dir(dir)).max().unwrap_or(Coverage::None)
    }

    /// `true` when no glob can match a path with a hidden segment.
    pub fn never_matches_hidden(&self) -> bool {
        self.globs.iter().all(Glob::never_matches_hidden)
    }

    /// A text naming the set: its patterns and their options, in order (two
    /// sets with the same key match the same paths).
    pub fn key(&self) -> String {
        let mut out = String::new();
        for g in &self.globs {
            out.push_str(&format!("{:?} {} {};", g.pattern, g.opts.dot, g.opts.basename));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{Coverage, Glob, GlobOptions, GlobSet};

    fn m(p: &str, s: &str) -> bool {
        Glob::new(p, &GlobOptions::default()).expect("glob").is_match(s)
    }

    fn required(p: &str) -> Option<String> {
        Glob::new(p, &GlobOptions::default()).expect("glob").required
    }

    #[test]
    fn the_required_literal_is_a_piece_every_match_contains() {
        let r = required;
        assert_eq!(r("**/node_modules/**").as_deref(), Some("node_modules"));
        assert_eq!(r(".git/**").as_deref(), Some(".git"));
        assert_eq!(r("**/*.min.js").as_deref(), Some(".min.js"));
        assert_eq!(r("a/**/b"), None); // one-character pieces are not worth it
        assert_eq!(r("../x/**").as_deref(), Some("../x"));
        assert_eq!(r("**/{a,bb}/**"), None);
        assert_eq!(r("!**/dist/**"), None);
        // Quotes: the regex has the text picomatch kept, quotes or not.
        assert_eq!(r("\"src\"/*.js").as_deref(), Some("src/"));
        assert_eq!(r("a\"b\"c").as_deref(), Some("a\"b\"c"));
        // `**/x/**` matches `x` itself: pieces never hold the `/`s around them.
        assert!(m("**/node_modules/**", "node_modules"));
        assert!(m(".git/**", ".git"));
        assert!(!m("**/node_modules/**", "a/node_module/b"));
        assert!(m("**/node_modules/**", "a/node_modules/b/c.js"));
    }

    /// picomatch's `push` merges a `.` into the text before it by its value,
    /// and a rebuilt output (`backtrack`, here from `****`) takes the token's
    /// output: the last `.` of `****.js.` is a wildcard
    /// (`(?!\.)[^/]*?\.js.`), so `.js.` is not required text (found by
    /// SFQ_WALK_SEED=99).
    #[test]
    fn a_dot_merged_into_text_is_a_wildcard() {
        let o = GlobOptions::default();
        let dot = GlobOptions { dot: true, basename: false };
        let base = GlobOptions { dot: false, basename: true };
        let dot_base = GlobOptions { dot: true, basename: true };
        assert_eq!(required("****.js.").as_deref(), Some(".js"));
        for opts in [o, dot, base, dot_base] {
            let g = Glob::new("****.js.", &opts).expect("g");
            assert!(g.is_match("\"a.js\""), "{opts:?}");
            assert!(g.is_match("){a,b}ab.jsb"), "{opts:?}");
            assert!(!g.is_match("a.js"), "{opts:?}");
        }
        assert!(!Glob::new("****.js.", &o).expect("g").is_match(".jsa"));
        assert!(Glob::new("****.js.", &dot).expect("g").is_match(".jsa"));
        assert!(Glob::new("****.js.", &base).expect("g").is_match("**/\"a.js\""));
        assert!(Glob::new("****.js.", &dot_base).expect("g").is_match("**/\"a.js\""));
        // The same wildcard matches `/`: the leading text is no directory
        // prefix past it, and a hidden segment can follow it.
        let g = Glob::new("src/a.b/***", &o).expect("g");
        assert!(g.is_match("src/axb/c") && g.is_match("src/a/b/c"));
        assert!(g.could_match_under("src/axb") && g.could_match_under("src/a"));
        assert!(!g.could_match_under("lib"));
        assert_eq!(g.literal_dir(), Some("src"));
        let h = Glob::new("*/ab..x/***", &o).expect("g");
        assert!(h.is_match("q/ab/.x/y"));
        assert!(!h.never_matches_hidden());
        // Without a rebuilt output the dots stay escaped.
        let e = Glob::new("src/a.b/**", &o).expect("g");
        assert!(!e.is_match("src/axb/c") && e.is_match("src/a.b/c"));
        assert_eq!(e.literal_dir(), Some("src/a.b"));
        assert!(Glob::new("*/ab..x/**", &o).expect("g").never_matches_hidden());
    }

    /// picomatch's parser skips a NUL that starts a token (one inside a run
    /// of text stays), so the regex of `**\0ab` is `(?!\.)[^/]*?ab`: `\0ab`
    /// is not required text (found by SFQ_WALK_SEED=61, 76 and 106).
    #[test]
    fn a_nul_starting_a_token_is_dropped() {
        let o = GlobOptions::default();
        let dot = GlobOptions { dot: true, basename: false };
        let base = GlobOptions { dot: false, basename: true };
        let dot_base = GlobOptions { dot: true, basename: true };
        for opts in [base, dot_base] {
            let g = Glob::new("**\0ab", &opts).expect("g");
            assert!(g.is_match("b/aa/!a/ab"), "{opts:?}");
            let g = Glob::new("*\0src", &opts).expect("g");
            assert!(g.is_match("src/") && g.is_match("'/src"), "{opts:?}");
        }
        for opts in [o, dot] {
            assert!(Glob::new("/**,\0", &opts).expect("g").is_match("/\u{1F600},"), "{opts:?}");
        }
        assert_eq!(required("**\0ab").as_deref(), Some("ab"));
        assert_eq!(required("*\0src").as_deref(), Some("src"));
        assert_eq!(required("/**,\0"), None);
        // Inside a run of text the NUL stays, and is required.
        assert!(m("*a\0b", "xa\0b") && !m("*a\0b", "xab"));
        assert_eq!(required("*a\0b").as_deref(), Some("a\0b"));
    }

    #[test]
    fn picomatch_quirks() {
        assert!(m("**/*.ts", "a/b/c.ts"));
        assert!(m("**/*.ts", "c.ts"));
        assert!(!m("**/*.ts", "a/.b/c.ts"));
        assert!(!m("*", "a/b"));
        assert!(m("a[!b]c", "a!c"));
        assert!(!m("a[!b]c", "axc"));
        assert!(m("a[^b]c", "axc"));
        assert!(!m("a?b", "a\u{1F600}b"));
        assert!(m("a??b", "a\u{1F600}b"));
        assert!(m("src/**", "src"));
        assert!(m("file{1..3}.txt", "file2.txt"));
        assert!(m("*.{js,ts}", "x.ts"));
        assert!(m("a[b", "a[b"));
        assert!(m("!(a)", "b"));
        assert!(m("!a", "b"));
        assert!(!m("!a", "a"));
        assert!(m("[[:alpha:]]x", "bx"));
        assert!(m("a\\*b", "a*b"));
        assert!(!m("src\\**", "src/x"));
        assert!(m("src\\**", "src*x"));
        assert!(
            Glob::new("*.ts", &GlobOptions { basename: true, dot: false })
                .expect("g")
                .is_match("x/y.ts")
        );
        assert!(
            Glob::new("*", &GlobOptions { dot: true, basename: false }).expect("g").is_match(".x")
        );
        assert!(Glob::new("", &GlobOptions::default()).is_err());
    }

    #[test]
    fn quoted_parts_are_literal_text_as_in_picomatch() {
        let o = GlobOptions::default();
        let base = GlobOptions { dot: false, basename: true };
        // The quotes are dropped, the text between them is literal.
        assert!(m("\"src\"/*.js", "src/a.js"));
        assert!(!m("\"src\"/*.js", "\"src\"/a.js"));
        assert!(m("\"a\"*", "a") && m("\"a\"*", "abc") && !m("\"a\"*", "a/b"));
        assert!(m("*\"a\"", "xa") && m("*\"a\"", "a") && !m("*\"a\"", "x\"a\""));
        assert!(m("\"*\".md", "*.md") && !m("\"*\".md", "x.md"));
        assert!(m("\"?\"", "?") && !m("\"?\"", "x"));
        assert!(m("\"[a]\"", "[a]") && !m("\"[a]\"", "a"));
        assert!(m("\"{a,b}\"", "{a,b}") && !m("\"{a,b}\"", "a"));
        // A slash inside quotes is still a separator in the path.
        assert!(m("\"a/b\"", "a/b"));
        assert!(m("\"src/\"*.js", "src/x.js"));
        // An unterminated quote runs to the end (and `isMatch`'s
        // `input === glob` keeps the pattern text itself).
        assert!(m("\"a", "a") && m("\"a", "\"a"));
        // A quote inside a run of text is part of the text.
        assert!(m("a\"b\"c", "a\"b\"c") && !m("a\"b\"c", "abc"));
        assert!(m("a\"*\"b", "a\"xb") && !m("a\"*\"b", "a*b"));
        // `basename` matches the last segment only.
        let g = Glob::new("\"a\"*", &base).expect("g");
        assert!(g.is_match("x/ab") && !g.is_match("ab/x"));
        assert!(!Glob::new("\"src\"/*.js", &base).expect("g").is_match("src/a.js"));
        // The pruning helpers stay sound.
        let q = Glob::new("\"src\"/*.js", &o).expect("g");
        assert!(q.could_match_under("src"));
        assert_eq!(q.literal_dir(), None);
        assert!(!Glob::new("\"a\"*", &o).expect("g").never_matches_hidden());
    }

    #[test]
    fn pruning_helpers() {
        let o = GlobOptions::default();
        let g = Glob::new("src/**/*.ts", &o).expect("g");
        assert!(g.could_match_under("src"));
        assert!(g.could_match_under("src/a"));
        assert!(!g.could_match_under("lib"));
        assert!(!g.could_match_under("srcx"));
        let nm = GlobSet::new(["**/node_modules/**", "dist/**"], &o).expect("g");
        assert_eq!(nm.covers_dir("a/node_modules"), Coverage::NonHidden);
        assert_eq!(nm.covers_dir("node_modules/x"), Coverage::NonHidden);
        assert_eq!(nm.covers_dir("dist"), Coverage::NonHidden);
        assert_eq!(nm.covers_dir("a/dist"), Coverage::None);
        let dot = Glob::new("dist/**", &GlobOptions { dot: true, basename: false }).expect("g");
        assert_eq!(dot.covers_dir("dist"), Coverage::All);
        assert!(Glob::new("**/*.ts", &o).expect("g").never_matches_hidden());
        assert!(!Glob::new("**/.env", &o).expect("g").never_matches_hidden());
        // Braces before the globstar keep the tail argument ...
        let braces = Glob::new("{a,b}/**", &o).expect("g");
        assert_eq!(braces.covers_dir("a"), Coverage::NonHidden);
        // ... a parenthesis left open does not: picomatch matches `a` through
        // an empty alternative, and not `a/b` (found by SFQ_WALK_SEED=38).
        let open = Glob::new("{a,b}(.a'/**", &o).expect("g");
        assert!(open.is_match("a") && !open.is_match("a/b"));
        assert_eq!(open.covers_dir("a"), Coverage::None);
        // A `|` is an alternation in picomatch's regex: no literal prefix
        // (found by SFQ_WALK_SEED=121).
        let bar = Glob::new("ab/|**/@(a|b)", &o).expect("g");
        assert!(bar.is_match("a/b"));
        assert!(bar.could_match_under("a"));
    }
}
