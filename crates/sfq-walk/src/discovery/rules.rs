//! Ignore rules with git's exact semantics (`dir.c`: `add_pattern`,
//! `match_basename`, `match_pathname`, `last_matching_pattern_from_list`).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;

use super::wildmatch::{self, CASEFOLD, PATHNAME, is_glob_special};

/// git's `PATTERN_MAX_FILE_SIZE` (`dir.c`): an ignore file of this size or
/// more is not used. git reads the file, appends a newline and then tests
/// `size > PATTERN_MAX_FILE_SIZE`, so a file of exactly 100 MiB is already
/// refused and one byte less is read.
pub const PATTERN_MAX_FILE_SIZE: u64 = 100 * 1024 * 1024;

/// An ignore file as [`read_pattern_file`] found it.
#[derive(Debug)]
pub enum PatternFile {
    /// Its content.
    Content(Vec<u8>),
    /// It holds [`PATTERN_MAX_FILE_SIZE`] bytes or more (its size, or the
    /// bytes read when it grew while being read): git does not use it.
    TooLarge(u64),
}

/// Reads an ignore file as git's `add_patterns` decides about it, without
/// holding more than [`PATTERN_MAX_FILE_SIZE`] bytes: the size is checked on
/// the open file first, and the read stops at the limit.
pub fn read_pattern_file(path: &Path) -> io::Result<PatternFile> {
    let file = File::open(path)?;
    let len = file.metadata()?.len();
    if len >= PATTERN_MAX_FILE_SIZE {
        return Ok(PatternFile::TooLarge(len));
    }
    let mut data = Vec::with_capacity(len as usize);
    file.take(PATTERN_MAX_FILE_SIZE).read_to_end(&mut data)?;
    if data.len() as u64 >= PATTERN_MAX_FILE_SIZE {
        return Ok(PatternFile::TooLarge(data.len() as u64));
    }
    Ok(PatternFile::Content(data))
}

const NEGATIVE: u8 = 1;
const MUSTBEDIR: u8 = 2;
const NODIR: u8 = 4;
const ENDSWITH: u8 = 8;

/// One parsed ignore line.
#[derive(Debug, Clone)]
struct Pattern {
    /// The pattern without `!` and without the trailing `/`.
    text: Box<[u8]>,
    /// Length of the leading part without glob specials (git's `nowildcardlen`).
    nowildcardlen: usize,
    flags: u8,
}

/// The patterns of one ignore file, with the directory they apply to.
#[derive(Debug, Clone, Default)]
pub struct RuleList {
    patterns: Vec<Pattern>,
    /// Directory of the ignore file relative to the matching base, with a
    /// trailing `/` (empty for the base itself and for global files).
    base: Box<[u8]>,
}

impl RuleList {
    /// Parses the content of an ignore file located in `base` (relative path
    /// with a trailing `/`, or empty), as git's `add_patterns_from_buffer`.
    pub fn parse(content: &[u8], base: &[u8]) -> RuleList {
        let mut buf = content;
        if let Some(rest) = buf.strip_prefix(b"\xEF\xBB\xBF") {
            buf = rest;
        }
        let mut patterns = Vec::new();
        for raw in buf.split(|&c| c == b'\n') {
            let mut line = raw;
            if line.is_empty() || line[0] == b'#' {
                continue;
            }
            if let Some(l) = line.strip_suffix(b"\r") {
                line = l;
            }
            // A NUL ends the C string.
            if let Some(nul) = line.iter().position(|&c| c == 0) {
                line = &line[..nul];
            }
            let line = trim_trailing_spaces(line);
            if let Some(p) = parse_pattern(line) {
                patterns.push(p);
            }
        }
        RuleList { patterns, base: base.into() }
    }

    /// Whether the list holds no pattern.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// git's `last_matching_pattern_from_list`: `Some(true)` excluded,
    /// `Some(false)` re-included by a negative pattern, `None` undecided.
    fn decide(&self, path: &[u8], basename: &[u8], is_dir: bool, fold: bool) -> Option<bool> {
        // The path relative to this list's directory, worked out once for
        // every pattern with a slash (git's `match_pathname` checks the base
        // again for each): None when the path is not under it.
        let mut under: Option<Option<&[u8]>> = None;
        for pat in self.patterns.iter().rev() {
            if pat.flags & MUSTBEDIR != 0 && !is_dir {
                continue;
            }
            let hit = if pat.flags & NODIR != 0 {
                match_basename(basename, pat, fold)
            } else {
                match under.get_or_insert_with(|| relative_to_base(path, &self.base, fold)) {
                    Some(name) => match_pathname(name, pat, fold),
                    None => false,
                }
            };
            if hit {
                return Some(pat.flags & NEGATIVE == 0);
            }
        }
        None
    }
}

/// git's `trim_trailing_spaces`: drops unescaped trailing spaces (not tabs).
fn trim_trailing_spaces(line: &[u8]) -> &[u8] {
    let mut last_space: Option<usize> = None;
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            b' ' => {
                if last_space.is_none() {
                    last_space = Some(i);
                }
            }
            b'\\' => {
                i += 1;
                if i >= line.len() {
                    return line;
                }
                last_space = None;
            }
            _ => last_space = None,
        }
        i += 1;
    }
    match last_space {
        Some(at) => &line[..at],
        None => line,
    }
}

/// git's `parse_path_pattern` + `add_pattern`.
fn parse_pattern(line: &[u8]) -> Option<Pattern> {
    let mut p = line;
    let mut flags = 0;
    if let Some(rest) = p.strip_prefix(b"!") {
        flags |= NEGATIVE;
        p = rest;
    }
    let mut len = p.len();
    if len > 0 && p[len - 1] == b'/' {
        len -= 1;
        flags |= MUSTBEDIR;
    }
    if !p[..len].contains(&b'/') {
        flags |= NODIR;
    }
    let simple = p.iter().position(|&c| is_glob_special(c)).unwrap_or(p.len());
    let nowildcardlen = simple.min(len);
    if p.first() == Some(&b'*') && !p[1..].iter().any(|&c| is_glob_special(c)) {
        flags |= ENDSWITH;
    }
    Some(Pattern { text: p[..len].into(), nowildcardlen, flags })
}

/// Byte equality (ASCII case folded under `fold`). Ignore rules are tested
/// against every directory and untracked file, most of them failing on the
/// length or the last byte: those are checked inline before the rest.
#[inline]
fn eq_path(a: &[u8], b: &[u8], fold: bool) -> bool {
    if a.len() != b.len() {
        return false;
    }
    match (a.last(), b.last()) {
        (Some(x), Some(y)) if x != y && !(fold && x.eq_ignore_ascii_case(y)) => false,
        _ => {
            if fold {
                a.eq_ignore_ascii_case(b)
            } else {
                a == b
            }
        }
    }
}

/// git's `match_basename`.
fn match_basename(basename: &[u8], pat: &Pattern, fold: bool) -> bool {
    let text = &pat.text[..];
    if pat.nowildcardlen == text.len() {
        eq_path(text, basename, fold)
    } else if pat.flags & ENDSWITH != 0 {
        let lit = &text[1..];
        lit.len() <= basename.len() && eq_path(lit, &basename[basename.len() - lit.len()..], fold)
    } else {
        wildmatch::wildmatch(text, basename, if fold { CASEFOLD } else { 0 })
    }
}

/// The first half of git's `match_pathname`: `path` relative to `base` (a
/// directory with a trailing `/`, or empty), or None when it is not under it.
fn relative_to_base<'p>(path: &'p [u8], base: &[u8], fold: bool) -> Option<&'p [u8]> {
    // base has a trailing '/' when non-empty; git's baselen excludes it.
    let baselen = base.len().saturating_sub(1);
    if path.len() < baselen + 1
        || (baselen > 0 && path[baselen] != b'/')
        || !eq_path(&path[..baselen], &base[..baselen], fold)
    {
        return None;
    }
    Some(if baselen > 0 { &path[baselen + 1..] } else { path })
}

/// The rest of git's `match_pathname`: `name` is the path relative to the
/// pattern's base (see [`relative_to_base`]).
fn match_pathname(mut name: &[u8], pat: &Pattern, fold: bool) -> bool {
    let mut pattern = &pat.text[..];
    let mut prefix = pat.nowildcardlen;
    if pattern.first() == Some(&b'/') {
        pattern = &pattern[1..];
        prefix = prefix.saturating_sub(1);
    }
    if prefix > 0 {
        if prefix > name.len() {
            return false;
        }
        if !eq_path(&pattern[..prefix], &name[..prefix], fold) {
            return false;
        }
        pattern = &pattern[prefix..];
        name = &name[prefix..];
        if pattern.is_empty() && name.is_empty() {
            return true;
        }
    }
    wildmatch::wildmatch(pattern, name, PATHNAME | if fold { CASEFOLD } else { 0 })
}

/// A persistent stack of per-directory rule lists (deepest first), shared
/// between the walker's threads.
#[derive(Debug, Default)]
pub struct RuleNode {
    /// Lists of this directory, in file order: later lists take precedence.
    lists: Vec<RuleList>,
    parent: Option<Arc<RuleNode>>,
}

impl RuleNode {
    /// A node with `lists` on top of `parent`.
    pub fn push(parent: Option<Arc<RuleNode>>, lists: Vec<RuleList>) -> Arc<RuleNode> {
        Arc::new(RuleNode { lists, parent })
    }
}

/// Everything that decides whether a path is ignored: the per-directory
/// stack plus the global lists (`info/exclude`, then `core.excludesFile`).
#[derive(Debug, Clone, Default)]
pub struct Rules {
    /// Lists that are consulted after every per-directory list, highest
    /// precedence first.
    pub global: Arc<Vec<RuleList>>,
    /// Fold ASCII case (`core.ignoreCase`).
    pub fold: bool,
}

impl Rules {
    /// git's `is_excluded`: `path` is relative to the matching base.
    pub fn is_excluded(&self, node: Option<&RuleNode>, path: &[u8], is_dir: bool) -> bool {
        let basename = match path.iter().rposition(|&c| c == b'/') {
            Some(i) => &path[i + 1..],
            None => path,
        };
        let mut cur = node;
        while let Some(n) = cur {
            for list in n.lists.iter().rev() {
                if let Some(d) = list.decide(path, basename, is_dir, self.fold) {
                    return d;
                }
            }
            cur = n.parent.as_deref();
        }
        for list in self.global.iter() {
            if let Some(d) = list.decide(path, basename, is_dir, self.fold) {
                return d;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{RuleList, RuleNode, Rules};
    use std::sync::Arc;

    fn excluded(lists: &[(&str, &str)], path: &str, is_dir: bool) -> bool {
        let mut node = None;
        for (base, content) in lists {
            node = Some(RuleNode::push(
                node,
                vec![RuleList::parse(content.as_bytes(), base.as_bytes())],
            ));
        }
        Rules::default().is_excluded(node.as_deref(), path.as_bytes(), is_dir)
    }

    #[test]
    fn basics() {
        assert!(excluded(&[("", "*.o\n")], "a/b.o", false));
        assert!(!excluded(&[("", "*.o\n!keep.o\n")], "keep.o", false));
        assert!(excluded(&[("", "!keep.o\n*.o\n")], "keep.o", false));
        assert!(excluded(&[("", "build/\n")], "x/build", true));
        assert!(!excluded(&[("", "build/\n")], "x/build", false));
        assert!(excluded(&[("", "/top\n")], "top", false));
        assert!(!excluded(&[("", "/top\n")], "a/top", false));
        assert!(excluded(&[("", "a/b\n")], "a/b", false));
        assert!(!excluded(&[("", "a/b\n")], "x/a/b", false));
        assert!(excluded(&[("", "**/b\n")], "x/y/b", false));
        assert!(excluded(&[("", "a/**\n")], "a/x/y", false));
        assert!(excluded(&[("sub/", "/x\n")], "sub/x", false));
        assert!(!excluded(&[("sub/", "/x\n")], "x", false));
        assert!(excluded(&[("", "# c\n\\#x\n")], "#x", false));
        assert!(excluded(&[("", "\\!x\n")], "!x", false));
        assert!(excluded(&[("", "sp\\ \n")], "sp ", false));
        assert!(excluded(&[("", "sp  \n")], "sp", false));
        assert!(excluded(&[("", "tab\t\n")], "tab\t", false));
        assert!(excluded(&[("", "crlf\r\n")], "crlf", false));
        // deeper lists win
        assert!(!excluded(&[("", "*.log\n"), ("d/", "!*.log\n")], "d/x.log", false));
        // prefix stripping changes how "**" is read, as in git
        assert!(excluded(&[("", "a**/b\n")], "ax/y/b", false));
    }

    #[test]
    fn arbitrary_lines_do_not_panic() {
        let alphabet: &[u8] = b"ab*?[]!^-:/\\ #\r\n.\x00\xff";
        let mut x: u64 = 0x1234_5678;
        for _ in 0..20_000 {
            let mut line = Vec::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for k in 0..(x % 12) {
                line.push(alphabet[((x >> (k * 4)) % alphabet.len() as u64) as usize]);
            }
            let list = RuleList::parse(&line, b"d/");
            let node = RuleNode::push(None, vec![list]);
            for path in [&b"d/a"[..], b"d/ab/[x]", b"d/.b", b"", b"d/a*b"] {
                let _ = Rules::default().is_excluded(Some(&node), path, true);
                let _ =
                    Rules { fold: true, ..Rules::default() }.is_excluded(Some(&node), path, false);
            }
        }
        // A line with very many stars is bounded, not a stack overflow.
        let stars = "*a".repeat(50_000);
        let list = RuleList::parse(stars.as_bytes(), b"");
        let node = RuleNode::push(None, vec![list]);
        let _ = Rules::default().is_excluded(Some(&node), "a".repeat(3000).as_bytes(), false);
    }

    #[test]
    fn literal_parts_compare_whole_names_and_fold_case_when_asked() {
        let fold = Rules { fold: true, ..Rules::default() };
        let list = |text: &str, base: &str| {
            RuleNode::push(None, vec![RuleList::parse(text.as_bytes(), base.as_bytes())])
        };
        let ends = list("*.O\n", "");
        assert!(fold.is_excluded(Some(&ends), b"d/x.o", false));
        assert!(!Rules::default().is_excluded(Some(&ends), b"d/x.o", false));
        assert!(!fold.is_excluded(Some(&ends), b"d/x.oo", false));
        assert!(!fold.is_excluded(Some(&ends), b"O", false));
        let exact = list("Build\n", "");
        assert!(fold.is_excluded(Some(&exact), b"a/build", true));
        assert!(!fold.is_excluded(Some(&exact), b"a/buil", true));
        assert!(!Rules::default().is_excluded(Some(&exact), b"a/builD", true));
        // A pattern with a slash is read from its list's directory, compared
        // with the path's first components (folded too).
        let nested = list("/Out/x\n", "Sub/");
        assert!(fold.is_excluded(Some(&nested), b"sub/out/x", false));
        assert!(!Rules::default().is_excluded(Some(&nested), b"sub/Out/x", false));
        assert!(Rules::default().is_excluded(Some(&nested), b"Sub/Out/x", false));
        assert!(!fold.is_excluded(Some(&nested), b"subx/out/x", false));
        assert!(!fold.is_excluded(Some(&nested), b"Sub", true));
    }

    #[test]
    fn pattern_files_of_100_mib_or_more_are_not_read() {
        use super::{PATTERN_MAX_FILE_SIZE, PatternFile, read_pattern_file};
        let dir = std::env::temp_dir().join(format!(
            "sfq-walk-rules-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let path = dir.join("big");
        std::fs::write(&path, b"*\n").expect("write");
        assert!(matches!(read_pattern_file(&path), Ok(PatternFile::Content(c)) if c == b"*\n"));
        // Sparse files: the sizes are decided from the metadata, unread.
        let file = std::fs::OpenOptions::new().write(true).open(&path).expect("open");
        for len in [PATTERN_MAX_FILE_SIZE, PATTERN_MAX_FILE_SIZE + 1, 1 << 33] {
            file.set_len(len).expect("set_len");
            assert!(
                matches!(read_pattern_file(&path), Ok(PatternFile::TooLarge(n)) if n == len),
                "{len}"
            );
        }
        drop(file);
        std::fs::remove_file(&path).expect("rm");
        // A directory is an error, as before (not a pattern file).
        assert!(read_pattern_file(&dir).is_err());
        assert!(read_pattern_file(&dir.join("missing")).is_err());
        std::fs::remove_dir_all(&dir).expect("rm dir");
    }

    #[test]
    fn global_lists_come_last() {
        let rules = Rules { global: Arc::new(vec![RuleList::parse(b"*.tmp\n", b"")]), fold: false };
        let node = RuleNode::push(None, vec![RuleList::parse(b"!x.tmp\n", b"")]);
        assert!(!rules.is_excluded(Some(&node), b"x.tmp", false));
        assert!(rules.is_excluded(Some(&node), b"y.tmp", false));
    }
}
