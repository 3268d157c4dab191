//! Decoded file text: encodings exactly as Node's `Buffer#toString` decodes
//! them, the binary-file test, and lines as `text.split(/\r?\n/)` gives them.

use crate::error::{Error, Result};

/// A supported file encoding (Node's names, case-insensitive, with Node's aliases).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// `utf8` / `utf-8` (default): invalid sequences become U+FFFD, a BOM is kept.
    Utf8,
    /// `utf16le` / `utf-16le` / `ucs2` / `ucs-2`: little-endian code units; an odd last byte is dropped.
    Utf16Le,
    /// `latin1` / `binary`: one byte, one character.
    Latin1,
    /// `ascii`: the high bit of every byte cleared, then latin1.
    Ascii,
}

impl Encoding {
    /// Parses an encoding name the way Node's `Buffer.isEncoding` accepts it,
    /// restricted to the text encodings.
    pub fn parse(name: &str) -> Result<Encoding> {
        match name.to_ascii_lowercase().as_str() {
            "utf8" | "utf-8" => Ok(Encoding::Utf8),
            "utf16le" | "utf-16le" | "ucs2" | "ucs-2" => Ok(Encoding::Utf16Le),
            "latin1" | "binary" => Ok(Encoding::Latin1),
            "ascii" => Ok(Encoding::Ascii),
            _ => Err(Error::invalid_option(format!(
                "Unsupported encoding '{name}': use one of utf8, utf16le (ucs2), latin1 (binary), ascii"
            ))),
        }
    }
}

/// How many leading bytes the binary test looks at.
pub const BINARY_SNIFF_BYTES: usize = 1024;

/// True for a code unit that marks a file as binary: NUL, or a C0 control
/// other than tab, LF, VT, FF, CR and ESC.
#[inline]
fn is_binary_unit(u: u16) -> bool {
    u < 0x20 && !matches!(u, 0x09 | 0x0A | 0x0B | 0x0C | 0x0D | 0x1B)
}

/// The binary-file test over the first KiB (decoded first KiB for utf16le).
pub fn is_binary(bytes: &[u8], encoding: Encoding) -> bool {
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    match encoding {
        Encoding::Utf16Le => {
            head.chunks_exact(2).any(|p| is_binary_unit(u16::from_le_bytes([p[0], p[1]])))
        }
        // The same test as `is_binary_unit`, written with comparisons only so
        // that it runs on whole vectors of bytes.
        _ => head.chunks(64).any(|chunk| {
            chunk.iter().fold(false, |acc, &b| {
                acc | (b < 0x09) | (b.wrapping_sub(0x0E) < 0x0D) | (b.wrapping_sub(0x1C) < 0x04)
            })
        }),
    }
}

/// Appends the UTF-16 code units of `s` to `out`: ASCII runs are widened in
/// bulk (which the compiler vectorizes), the rest encoded character by
/// character.
pub fn push_utf16(out: &mut Vec<u16>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let ascii = bytes[i..].iter().position(|&b| b >= 0x80).map_or(bytes.len(), |k| i + k);
        out.extend(bytes[i..ascii].iter().map(|&b| u16::from(b)));
        if ascii == bytes.len() {
            break;
        }
        // The non-ASCII run up to the next ASCII byte (a character boundary).
        let end = bytes[ascii..].iter().position(|&b| b < 0x80).map_or(bytes.len(), |k| ascii + k);
        out.extend(s[ascii..end].encode_utf16());
        i = end;
    }
}

/// Decodes `bytes` to the UTF-16 code units of the JS string
/// `buffer.toString(encoding)` would give.
pub fn decode(bytes: &[u8], encoding: Encoding) -> Vec<u16> {
    match encoding {
        Encoding::Utf8 => {
            let mut out = Vec::new();
            push_utf16(&mut out, &String::from_utf8_lossy(bytes));
            out
        }
        Encoding::Utf16Le => {
            bytes.chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]])).collect()
        }
        Encoding::Latin1 => bytes.iter().map(|&b| u16::from(b)).collect(),
        Encoding::Ascii => bytes.iter().map(|&b| u16::from(b & 0x7F)).collect(),
    }
}

/// Line boundaries of a text: `text.split(/\r?\n/)` without the empty string
/// that follows a final newline (so an empty text has no lines).
#[derive(Debug, Clone, Default)]
pub struct Lines {
    /// `(start, end)` code-unit offsets of each line's text, terminator excluded.
    spans: Vec<(usize, usize)>,
    /// Where the unlisted empty line after a final newline (or of an empty
    /// text) starts, if the text has one.
    phantom_start: Option<usize>,
}

impl Lines {
    /// Splits `text` into lines.
    pub fn split(text: &[u16]) -> Lines {
        let mut spans = Vec::new();
        let mut start = 0;
        for (i, &u) in text.iter().enumerate() {
            if u == u16::from(b'\n') {
                let end = if i > start && text[i - 1] == u16::from(b'\r') { i - 1 } else { i };
                spans.push((start, end));
                start = i + 1;
            }
        }
        let phantom_start = if start < text.len() {
            spans.push((start, text.len()));
            None
        } else {
            Some(start)
        };
        Lines { spans, phantom_start }
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when there are no lines (an empty text).
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The `(start, end)` span of line `index` (0-based).
    pub fn span(&self, index: usize) -> (usize, usize) {
        self.spans[index]
    }

    /// All spans, in order.
    pub fn spans(&self) -> &[(usize, usize)] {
        &self.spans
    }

    /// The 0-based index of the line holding code-unit offset `pos` (for
    /// whole-text matches); an offset inside a line terminator belongs to the
    /// line it ends. An offset on the empty line after a final newline gets
    /// index `len()`: that line is not listed by [`Lines::split`].
    pub fn index_of(&self, pos: usize) -> usize {
        if self.phantom_start.is_some_and(|p| pos >= p) {
            return self.spans.len();
        }
        self.spans.partition_point(|&(start, _)| start <= pos).saturating_sub(1)
    }

    /// The start offset of line `index`, including the unlisted last line.
    pub fn start_of(&self, index: usize) -> usize {
        match self.spans.get(index) {
            Some(&(start, _)) => start,
            None => self.phantom_start.unwrap_or(0),
        }
    }
}

/// 1-based column of `index` within `line`: the number of code points in
/// `line[..index]` plus one (`Array.from(line.slice(0, index)).length + 1`);
/// a lone surrogate counts as one code point.
pub fn column(line: &[u16], index: usize) -> usize {
    let prefix = &line[..index];
    let mut pairs = 0;
    let mut i = 0;
    while i + 1 < prefix.len() {
        if is_high(prefix[i]) && is_low(prefix[i + 1]) {
            pairs += 1;
            i += 2;
        } else {
            i += 1;
        }
    }
    index - pairs + 1
}

/// True for a high (leading) surrogate.
#[inline]
pub fn is_high(u: u16) -> bool {
    (0xD800..0xDC00).contains(&u)
}

/// True for a low (trailing) surrogate.
#[inline]
pub fn is_low(u: u16) -> bool {
    (0xDC00..0xE000).contains(&u)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn push_utf16_is_encode_utf16() {
        for s in ["", "abc", "é", "aé", "éa", "a😀b\u{2028}c", "ÿ\u{7f}\u{80}x", "😀😀", "x\0y"]
        {
            let mut out = vec![7u16];
            push_utf16(&mut out, s);
            let mut want = vec![7u16];
            want.extend(s.encode_utf16());
            assert_eq!(out, want, "{s:?}");
        }
    }

    fn lines(s: &str) -> Vec<String> {
        let t = u(s);
        let l = Lines::split(&t);
        l.spans().iter().map(|&(a, b)| String::from_utf16(&t[a..b]).unwrap()).collect()
    }

    #[test]
    fn lines_follow_split_crlf_without_trailing_empty() {
        assert_eq!(lines(""), Vec::<String>::new());
        assert_eq!(lines("\n"), vec![""]);
        assert_eq!(lines("a"), vec!["a"]);
        assert_eq!(lines("a\r\nb\n"), vec!["a", "b"]);
        assert_eq!(lines("a\rb\r\n\r\nc"), vec!["a\rb", "", "c"]);
        assert_eq!(lines("x\r"), vec!["x\r"]);
        assert_eq!(lines("\u{2028}a\n\n"), vec!["\u{2028}a", ""]);
    }

    #[test]
    fn index_of_maps_offsets_to_lines() {
        let t = u("ab\r\ncd\n");
        let l = Lines::split(&t);
        assert_eq!(l.index_of(0), 0);
        assert_eq!(l.index_of(2), 0); // the \r
        assert_eq!(l.index_of(3), 0); // the \n
        assert_eq!(l.index_of(4), 1);
        assert_eq!(l.index_of(7), 2); // after the final newline
        let e = Lines::split(&[]);
        assert_eq!(e.index_of(0), 0);
    }

    #[test]
    fn columns_count_code_points_and_lone_surrogates() {
        let s = u("😀a");
        assert_eq!(column(&s, 0), 1);
        assert_eq!(column(&s, 1), 2); // inside the pair: the lone high surrogate counts once
        assert_eq!(column(&s, 2), 2);
        assert_eq!(column(&s, 3), 3);
        let lone = [0xD83D, 0x61];
        assert_eq!(column(&lone, 1), 2);
    }

    #[test]
    fn decoding_matches_node() {
        assert_eq!(
            decode(&[0x41, 0xC1, 0x80, 0xFF, 0x00, 0x7F], Encoding::Ascii),
            [0x41, 0x41, 0, 0x7F, 0, 0x7F]
        );
        assert_eq!(decode(&[0xFF], Encoding::Latin1), [0xFF]);
        assert_eq!(decode(&[0x3D, 0xD8, 0x41, 0x00, 0x42], Encoding::Utf16Le), [0xD83D, 0x41]);
        let bad = [
            0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0x80, 0xE2, 0x82, 0x41, 0xC0, 0xAF, 0xF4, 0x90,
            0x80, 0x80,
        ];
        let got = String::from_utf16(&decode(&bad, Encoding::Utf8)).unwrap();
        assert_eq!(
            got,
            "😀\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}A\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"
        );
        assert_eq!(decode(&[0xEF, 0xBB, 0xBF, 0x61], Encoding::Utf8), [0xFEFF, 0x61]);
    }

    #[test]
    fn binary_test_uses_the_spec_control_set() {
        assert!(!is_binary(b"a\tb\r\n\x0b\x0c\x1b[0m", Encoding::Utf8));
        assert!(is_binary(b"a\x00b", Encoding::Utf8));
        assert!(is_binary(b"a\x01b", Encoding::Utf8));
        assert!(!is_binary(b"\x7f", Encoding::Utf8));
        let mut late = vec![b'a'; 1024];
        late.push(0);
        assert!(!is_binary(&late, Encoding::Utf8));
        assert!(!is_binary(&[0x61, 0x00, 0x62, 0x00], Encoding::Utf16Le));
        assert!(is_binary(&[0x01, 0x00], Encoding::Utf16Le));
    }

    #[test]
    fn encoding_names_follow_node() {
        assert_eq!(Encoding::parse("UTF-8").unwrap(), Encoding::Utf8);
        assert_eq!(Encoding::parse("ucs-2").unwrap(), Encoding::Utf16Le);
        assert_eq!(Encoding::parse("binary").unwrap(), Encoding::Latin1);
        assert!(Encoding::parse("hex").is_err());
        assert!(Encoding::parse("utf16-le").is_err());
    }

    #[test]
    fn the_vector_binary_test_is_the_unit_test() {
        for b in 0..=255u8 {
            let mut text = vec![b'a'; 100];
            text[70] = b;
            assert_eq!(is_binary(&text, Encoding::Utf8), is_binary_unit(u16::from(b)), "{b:#x}");
        }
    }
}
