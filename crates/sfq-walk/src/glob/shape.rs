//! Direct matchers for the commonest globs (`*`, `**`, `**/*`, `*.ext`,
//! `**/*.ext`), equivalent to the regular expressions picomatch's fast paths
//! build for them (checked by the differential test against picomatch).
//!
//! The semantics, with LT = line terminators (`\n`, `\r`, U+2028, U+2029):
//! * a "star" run is any text without `/`;
//! * a "globstar" run from position 0 is text without LT where no `/` is
//!   followed by `.` and position 0 is not `.` (`dot: false`), or where no
//!   segment is `.` or `..` (`dot: true`);
//! * a trailing `/` is allowed (`\/?`).

/// A recognised pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// `*`
    Star,
    /// `**`
    Globstar,
    /// `**/*`
    GlobstarStar,
    /// `*.ext` (`ext` of ASCII word characters)
    StarExt(String),
    /// `**/*.ext`
    GlobstarStarExt(String),
}

impl Shape {
    /// Recognises the fast-path input (after picomatch's replacements and the
    /// removal of a leading `./`).
    pub fn recognise(input: &str) -> Option<Shape> {
        let word =
            |e: &str| !e.is_empty() && e.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        Some(match input {
            "*" => Shape::Star,
            "**" => Shape::Globstar,
            "**/*" => Shape::GlobstarStar,
            _ => {
                if let Some(ext) = input.strip_prefix("**/*.")
                    && word(ext)
                {
                    Shape::GlobstarStarExt(ext.to_string())
                } else if let Some(ext) = input.strip_prefix("*.")
                    && word(ext)
                {
                    Shape::StarExt(ext.to_string())
                } else {
                    return None;
                }
            }
        })
    }

    /// Whether the whole of `s` matches (picomatch's regex, not counting the
    /// `input === glob` shortcut).
    pub fn matches(&self, s: &str, dot: bool) -> bool {
        let b = s.as_bytes();
        let n = b.len();
        match self {
            Shape::Star => n > 0 && nodot_start(b, dot) && star_tail(b, 0, None),
            Shape::StarExt(ext) => n > 0 && nodot_start(b, dot) && star_tail(b, 0, Some(ext)),
            Shape::Globstar => {
                nodot_start(b, dot)
                    && (globstar_ok(b, n, dot)
                        || (n > 0 && b[n - 1] == b'/' && globstar_ok(b, n - 1, dot)))
            }
            Shape::GlobstarStar => globstar_then(b, dot, None),
            Shape::GlobstarStarExt(ext) => globstar_then(b, dot, Some(ext)),
        }
    }
}

/// Is there a line terminator starting at byte `i`?
fn lt_at(b: &[u8], i: usize) -> bool {
    match b[i] {
        b'\n' | b'\r' => true,
        0xE2 => b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9)),
        _ => false,
    }
}

/// `\.{1,2}(?:\/|$)` at `i`.
fn dotseg(b: &[u8], i: usize) -> bool {
    let end = |j: usize| j == b.len() || b[j] == b'/';
    b.get(i) == Some(&b'.') && (end(i + 1) || (b.get(i + 1) == Some(&b'.') && end(i + 2)))
}

/// picomatch's fast-path `nodot` at position 0: `(?!\.)`, or with `dot`
/// `(?!(?:^|\/)\.{1,2}(?:\/|$))`.
fn nodot_start(b: &[u8], dot: bool) -> bool {
    if dot {
        !(dotseg(b, 0) || (b.first() == Some(&b'/') && dotseg(b, 1)))
    } else {
        b.first() != Some(&b'.')
    }
}

/// `slashDot` at `t`: `(?!\.)`, or with `dot` `(?!\.{1,2}(?:\/|$))`.
fn slashdot(b: &[u8], t: usize, dot: bool) -> bool {
    if dot { !dotseg(b, t) } else { b.get(t) != Some(&b'.') }
}

/// The globstar run `[0, end)` is valid.
fn globstar_ok(b: &[u8], end: usize, dot: bool) -> bool {
    for q in 0..end {
        if lt_at(b, q) {
            return false;
        }
        let bad = if dot {
            (q == 0 && dotseg(b, 0)) || (b[q] == b'/' && dotseg(b, q + 1))
        } else {
            (q == 0 && b[0] == b'.') || (b[q] == b'/' && b.get(q + 1) == Some(&b'.'))
        };
        if bad {
            return false;
        }
    }
    true
}

/// `(?=.)[^/]*?` [`\.ext`] `\/?$` from `t`.
fn star_tail(b: &[u8], t: usize, ext: Option<&String>) -> bool {
    let n = b.len();
    if t >= n || lt_at(b, t) {
        return false;
    }
    let body_end = if b[n - 1] == b'/' { n - 1 } else { n };
    if b[t..body_end].contains(&b'/') {
        return false;
    }
    match ext {
        None => true,
        Some(e) => {
            let body = &b[t..body_end];
            body.len() > e.len()
                && body.ends_with(e.as_bytes())
                && body[body.len() - e.len() - 1] == b'.'
        }
    }
}

/// `(?:nodot globstar \/)? slashDot (?=.)[^/]*?` [`\.ext`] `\/?`.
fn globstar_then(b: &[u8], dot: bool, ext: Option<&String>) -> bool {
    let tail = |t: usize| slashdot(b, t, dot) && star_tail(b, t, ext);
    if tail(0) {
        return true;
    }
    if !nodot_start(b, dot) {
        return false;
    }
    // The group's '/' is the last slash, or the one before a trailing '/'.
    let n = b.len();
    let mut candidates = b.iter().enumerate().rev().filter(|(_, c)| **c == b'/').map(|(i, _)| i);
    for _ in 0..2 {
        let Some(g) = candidates.next() else { break };
        if globstar_ok(b, g, dot) && tail(g + 1) {
            return true;
        }
        if g + 1 != n {
            // Only a trailing '/' leaves room for an earlier candidate.
            break;
        }
    }
    false
}
