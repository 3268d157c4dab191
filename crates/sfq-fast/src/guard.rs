//! The guards: characters (and the CRLF pair) near which a translation stops being exact,
//! so that a text holding one goes to the exact engine, and byte scans that find them.

use crate::ascii;

/// Which characters send a text to the exact engine (see
/// [`FastRegex::needs_exact`](crate::FastRegex::needs_exact)). All checks are byte scans
/// of the UTF-8 text; ASCII is skipped eight bytes at a time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Guards {
    /// Astral characters (U+10000 and above), when a match can involve half of a
    /// surrogate pair: without `u`/`v`, JavaScript sees two code units where the
    /// translation sees one character (`.`, `[^a]`, `\S`, empty matches between the
    /// halves…); with `u`/`v`, V8 finds empty matches between the halves when the pattern
    /// can match empty through `\B` (`/\B/gu` on `"a😀"` finds index 2).
    pub astral: bool,
    /// U+2028 and U+2029, when the pattern uses `^`/`$` with `m`: JavaScript line
    /// terminators that `regex-automata`'s CRLF looks do not know.
    pub line_separators: bool,
    /// ſ (U+017F) and K (U+212A), when the pattern uses `\b`/`\B` with `i` and `u`/`v`:
    /// word characters for JavaScript there, not for the ASCII word looks.
    pub long_s_kelvin: bool,
    /// The pair `"\r\n"` (whole-text scope with `^`/`$` and `m`): JavaScript's `^`/`$`
    /// match between `\r` and `\n`, the CRLF looks do not.
    pub crlf: bool,
}

impl Guards {
    /// Whether no text is ever guarded.
    pub fn is_empty(&self) -> bool {
        !self.has_chars() && !self.crlf
    }

    /// Whether a guard is a single character (all but [`Guards::crlf`]).
    pub(crate) fn has_chars(&self) -> bool {
        self.astral || self.line_separators || self.long_s_kelvin
    }

    /// Whether `text` trips a guard.
    pub fn trips(&self, text: &[u8]) -> bool {
        self.find_char(text).is_some()
            || (self.crlf && memchr::memmem::find(text, b"\r\n").is_some())
    }

    /// The offset of the first guarded character (not the CRLF pair) in `text`.
    pub(crate) fn find_char(&self, text: &[u8]) -> Option<usize> {
        if !self.has_chars() {
            return None;
        }
        if !self.line_separators && !self.long_s_kelvin {
            return ascii::find_astral(text, 0);
        }
        let next = |i: usize, k: usize| text.get(i + k).copied().unwrap_or(0);
        ascii::find_non_ascii(text, 0, |i| match text[i] {
            0xF0..=0xF4 => self.astral,
            0xC5 => self.long_s_kelvin && next(i, 1) == 0xBF,
            0xE2 => {
                (self.line_separators && next(i, 1) == 0x80 && matches!(next(i, 2), 0xA8 | 0xA9))
                    || (self.long_s_kelvin && next(i, 1) == 0x84 && next(i, 2) == 0xAA)
            }
            _ => false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_CHARS: Guards =
        Guards { astral: true, line_separators: true, long_s_kelvin: true, crlf: false };

    /// The guarded characters, found the slow way.
    fn naive(g: &Guards, text: &str) -> Option<usize> {
        text.char_indices()
            .find(|&(_, c)| {
                (g.astral && c as u32 > 0xFFFF)
                    || (g.line_separators && matches!(c, '\u{2028}' | '\u{2029}'))
                    || (g.long_s_kelvin && matches!(c, '\u{17F}' | '\u{212A}'))
            })
            .map(|(i, _)| i)
    }

    #[test]
    fn finds_each_guarded_character_at_every_offset() {
        let guards = [
            ALL_CHARS,
            Guards { astral: true, ..Guards::default() },
            Guards { line_separators: true, ..Guards::default() },
            Guards { long_s_kelvin: true, ..Guards::default() },
        ];
        let specials =
            ["\u{1F600}", "\u{10000}", "\u{10FFFF}", "\u{2028}", "\u{2029}", "\u{17F}", "\u{212A}"];
        let decoys =
            ["\u{E9}", "\u{2027}", "\u{202A}", "\u{2122}", "\u{17E}", "\u{FFFF}", "\u{2013}", "x"];
        for g in &guards {
            for pad in 0..20 {
                for s in specials.iter().chain(&decoys) {
                    for decoy in &decoys {
                        let text = format!("{}{decoy}{s}{}", "a".repeat(pad), "b".repeat(pad % 9));
                        assert_eq!(g.find_char(text.as_bytes()), naive(g, &text), "{g:?} {text:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn crlf_pairs() {
        let g = Guards { crlf: true, ..Guards::default() };
        assert!(g.trips(b"a\r\nb"));
        assert!(!g.trips(b"a\rb\n\r"));
        assert!(!g.has_chars());
        assert!(Guards::default().is_empty());
        assert!(!Guards::default().trips("\u{1F600}\u{2028}\r\n".as_bytes()));
    }
}
