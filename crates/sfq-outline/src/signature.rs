//! Signatures and names: a slice of source turned into one tidy line.
//!
//! Whitespace runs (newlines included) become one space; no space is kept
//! after `(`, `[` or before `)`, `]`; a trailing comma before `)` or `]`
//! is dropped; comment byte ranges are skipped; trailing `{`, `;`, `,` (and the
//! language's extra terminators, Python's `:`) and spaces are stripped; the
//! result is capped at a number of characters, a cut one ending in `…`.

use std::ops::Range;

/// Collapses `src[range]` minus the `skip` ranges (sorted, e.g. comments)
/// into one line of at most `max_chars` characters (see the module docs).
/// Returns `None` when nothing is left or `max_chars` is 0.
pub(crate) fn one_line(
    src: &str,
    range: Range<usize>,
    skip: &[Range<usize>],
    strip_suffix: &[char],
    max_chars: usize,
) -> Option<String> {
    if max_chars == 0 {
        return None;
    }
    let start = floor_boundary(src, range.start.min(src.len()));
    let end = floor_boundary(src, range.end.min(src.len()));
    if start >= end {
        return None;
    }
    // Collect a little more than the cap so that stripping a suffix can
    // still make a head fit.
    let budget = max_chars.saturating_add(8);
    let mut out = String::new();
    let mut count = 0usize;
    let mut pending_space = false;
    let mut skip_iter = skip.iter().peekable();
    let mut i = start;
    let mut complete = true;
    for (off, c) in src[start..end].char_indices() {
        let pos = start + off;
        if pos < i {
            continue;
        }
        while skip_iter.peek().is_some_and(|r| r.end <= pos) {
            skip_iter.next();
        }
        if let Some(r) = skip_iter.peek()
            && r.start <= pos
        {
            i = r.end;
            pending_space = true;
            continue;
        }
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        if count >= budget {
            complete = false;
            break;
        }
        if matches!(c, ')' | ']') {
            pending_space = false;
            if out.ends_with(',') {
                out.pop();
                count -= 1;
            }
        }
        if pending_space && !out.is_empty() && !out.ends_with(['(', '[']) {
            out.push(' ');
            count += 1;
        }
        pending_space = false;
        out.push(if c.is_control() { ' ' } else { c });
        count += 1;
    }
    if complete {
        loop {
            let trimmed = out.trim_end();
            let Some(last) = trimmed.chars().last() else { break };
            if matches!(last, '{' | ';' | ',') || strip_suffix.contains(&last) {
                let cut = trimmed.len() - last.len_utf8();
                out.truncate(cut);
            } else {
                let len = trimmed.len();
                out.truncate(len);
                break;
            }
        }
    }
    let chars = out.chars().count();
    if chars > max_chars || (!complete && chars >= max_chars) {
        let keep = max_chars.saturating_sub(1);
        let cut = out.char_indices().nth(keep).map_or(out.len(), |(b, _)| b);
        out.truncate(cut);
        let len = out.trim_end().len();
        out.truncate(len);
        out.push('…');
    } else if !complete {
        out.push('…');
    }
    (!out.is_empty() && out != "…").then_some(out)
}

/// A name: `src[range]` on one line, at most 200 characters, with no space
/// around `::` or `.` (a qualified name split across lines).
pub(crate) fn name_text(src: &str, range: Range<usize>) -> String {
    let mut name = one_line(src, range, &[], &[], 200).unwrap_or_default();
    if name.contains(' ') {
        for (from, to) in [(":: ", "::"), (" ::", "::"), (". ", "."), (" .", ".")] {
            while name.contains(from) {
                name = name.replace(from, to);
            }
        }
    }
    name
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str, max: usize) -> Option<String> {
        one_line(s, 0..s.len(), &[], &[':'], max)
    }

    #[test]
    fn collapses_and_tidies() {
        assert_eq!(line("def f(\n    a,\n    b,\n):", 200).unwrap(), "def f(a, b)");
        assert_eq!(
            line("class  Foo<T>\n  extends Bar {", 200).unwrap(),
            "class Foo<T> extends Bar"
        );
        assert_eq!(line("fn f( a: [ u8 ; 4 ] )", 200).unwrap(), "fn f(a: [u8 ; 4])");
        assert_eq!(line("  \n\t ", 200), None);
        assert_eq!(line("{", 200), None);
    }

    #[test]
    fn caps_with_ellipsis() {
        let long = format!("function f({})", "a, ".repeat(100));
        let s = line(&long, 50).unwrap();
        assert_eq!(s.chars().count(), 50);
        assert!(s.ends_with('…'));
        assert_eq!(line("abcdef", 6).unwrap(), "abcdef");
        assert_eq!(line("abcdefg", 6).unwrap(), "abcde…");
        // a suffix that is stripped lets a head fit
        assert_eq!(line("abcdef {", 6).unwrap(), "abcdef");
        assert_eq!(line("x", 0), None);
    }

    #[test]
    fn skips_ranges_and_respects_boundaries() {
        let src = "fn f(a, // first\n b)";
        let c = src.find("//").unwrap();
        let e = src.find('\n').unwrap();
        let comments = [Range { start: c, end: e }];
        assert_eq!(one_line(src, 0..src.len(), &comments, &[], 200).unwrap(), "fn f(a, b)");
        let uni = "fn ñandú(é: u8)";
        assert_eq!(one_line(uni, 1..uni.len() + 5, &[], &[], 200).unwrap(), "n ñandú(é: u8)");
        assert_eq!(one_line(uni, 4..5, &[], &[], 200).unwrap(), "ñ"); // mid-character start snaps back
        assert_eq!(name_text("a\u{0}b", 0..3), "a b");
        assert_eq!(name_text("A<T>::\n  find", 0..15), "A<T>::find");
    }
}
