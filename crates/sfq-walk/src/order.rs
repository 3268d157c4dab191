//! The output order: JavaScript's default string order (UTF-16 code units).

use std::cmp::Ordering;

/// Compares two strings by their UTF-16 code units, the order JavaScript's
/// default `Array.prototype.sort` gives.
///
/// It equals byte (code point) order except that characters above U+FFFF
/// (surrogate pairs, 0xD800..0xDFFF) sort before U+E000..U+FFFF.
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let common = ab.iter().zip(bb).take_while(|(x, y)| x == y).count();
    match (ab.get(common), bb.get(common)) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(&x), Some(&y)) => {
            // Bytes 0xEE/0xEF lead U+E000..U+FFFF, 0xF0..0xF4 lead astral
            // characters: only that pairing differs from byte order. The
            // differing bytes may sit inside a character, so fall back to the
            // exact comparison from the start of that character.
            if x >= 0xEE && y >= 0xEE {
                let start = char_start(a, common).min(char_start(b, common));
                a[start..].encode_utf16().cmp(b[start..].encode_utf16())
            } else {
                x.cmp(&y)
            }
        }
    }
}

fn char_start(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::cmp_utf16;
    use std::cmp::Ordering;

    #[test]
    fn astral_sorts_before_high_bmp() {
        assert_eq!(cmp_utf16("\u{1F600}", "\u{FF61}"), Ordering::Less);
        assert_eq!(cmp_utf16("a\u{FF61}", "a\u{1F600}"), Ordering::Greater);
        assert_eq!(cmp_utf16("a/b", "a.b"), Ordering::Greater);
        assert_eq!(cmp_utf16("ab", "abc"), Ordering::Less);
        assert_eq!(cmp_utf16("\u{E000}", "\u{D7FF}"), Ordering::Greater);
    }

    #[test]
    fn agrees_with_encode_utf16_on_samples() {
        let samples = [
            "",
            "a",
            "b",
            "a/b",
            "a.b",
            "\u{FF61}",
            "\u{1F600}",
            "\u{E000}x",
            "\u{10000}",
            "\u{FFFF}",
            "é",
            "\u{800}",
            "\u{7FF}",
            "a\u{1F600}b",
            "a\u{FF61}b",
            "\u{D7FF}",
        ];
        for a in samples {
            for b in samples {
                assert_eq!(cmp_utf16(a, b), a.encode_utf16().cmp(b.encode_utf16()), "{a:?} {b:?}");
            }
        }
    }
}
