//! A session's index of its texts: for each text held, the set of its byte
//! trigrams (ASCII letters folded to lower case) as a one-hash Bloom filter,
//! and which of the fast path's guarded characters it holds.
//!
//! The index only prunes: a pattern's fast path knows literals one of which
//! every match of its superset contains ([`sfq_fast::FastRegex::required_literals`]);
//! a text lacking a trigram of each of them, and tripping none of the
//! superset's guards (the characters where the superset may miss a
//! JavaScript match), cannot match, so it is answered "no match" without
//! being searched. Every other text is searched by the exact engine as a
//! cold call searches it. A Bloom filter has no false negatives, so the
//! answer is the cold call's; false positives only cost a search.

use sfq_fast::Guards;

use crate::matcher::Matcher;

/// One bit per byte of text (at least 512, at most 8 Mi bits): with about
/// a quarter as many distinct trigrams as bytes in source code, a trigram
/// absent from the text is reported present about one time in five, and a
/// literal of eight bytes (six trigrams) about once in ten thousand.
const MIN_BITS: usize = 512;
const MAX_BITS: usize = 1 << 23;

/// The trigram filter of one text.
#[derive(Debug)]
pub struct Grams {
    bits: Box<[u64]>,
    /// `32 - log2(bits)`: a hash's top bits index the filter.
    shift: u32,
    /// The guards the text trips (each alone).
    trips: Guards,
}

/// Each byte with ASCII letters folded to lower case.
static FOLD: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).to_ascii_lowercase();
        i += 1;
    }
    t
};

/// A trigram's key: its three bytes, ASCII letters folded, the first
/// highest (so that a key rolls: `(key << 8 | next) & 0xFF_FFFF`).
fn key(a: u8, b: u8, c: u8) -> u32 {
    (u32::from(FOLD[usize::from(a)]) << 16)
        | (u32::from(FOLD[usize::from(b)]) << 8)
        | u32::from(FOLD[usize::from(c)])
}

impl Grams {
    /// The filter of `text`.
    pub fn of(text: &str) -> Grams {
        let bytes = text.as_bytes();
        let n = bytes.len().clamp(MIN_BITS, MAX_BITS).next_power_of_two();
        let shift = 32 - n.trailing_zeros();
        let mut bits = vec![0u64; n / 64].into_boxed_slice();
        if let [a, b, rest @ ..] = bytes {
            let mut k = key(0, *a, *b);
            for &c in rest {
                k = ((k << 8) | u32::from(FOLD[usize::from(c)])) & 0xFF_FFFF;
                let h = (k.wrapping_mul(0x9E37_79B1) >> shift) as usize;
                bits[h / 64] |= 1 << (h % 64);
            }
        }
        let one = |g: Guards| g.trips(bytes);
        // The guarded characters are all outside ASCII.
        let ascii = bytes.is_ascii();
        let trips = Guards {
            astral: !ascii && one(Guards { astral: true, ..Guards::default() }),
            line_separators: !ascii && one(Guards { line_separators: true, ..Guards::default() }),
            long_s_kelvin: !ascii && one(Guards { long_s_kelvin: true, ..Guards::default() }),
            crlf: one(Guards { crlf: true, ..Guards::default() }),
        };
        Grams { bits, shift, trips }
    }

    /// Bytes the filter takes.
    pub fn bytes(&self) -> u64 {
        self.bits.len() as u64 * 8 + 16
    }

    fn has(&self, key: u32) -> bool {
        let h = (key.wrapping_mul(0x9E37_79B1) >> self.shift) as usize;
        self.bits[h / 64] & (1 << (h % 64)) != 0
    }

    /// Whether the text may hold a match of the pattern `needles` stand for
    /// (`false`: it certainly does not).
    pub fn may_match(&self, needles: &Needles) -> bool {
        let g = needles.guards;
        let tripped = (g.astral && self.trips.astral)
            || (g.line_separators && self.trips.line_separators)
            || (g.long_s_kelvin && self.trips.long_s_kelvin)
            || (g.crlf && self.trips.crlf);
        tripped || needles.literals.iter().any(|keys| keys.iter().all(|&k| self.has(k)))
    }
}

/// What a pattern requires of a text, as trigram keys: one of the literals
/// (each its trigrams' keys), unless the text trips one of the guards.
#[derive(Debug, Clone)]
pub struct Needles {
    literals: Vec<Vec<u32>>,
    guards: Guards,
}

impl Needles {
    /// The needles of `matcher`'s fast path, if it knows required literals.
    pub fn of(matcher: &Matcher) -> Option<Needles> {
        let (lits, guards) = matcher.required_literals()?;
        let literals: Vec<Vec<u32>> =
            lits.iter().map(|l| l.windows(3).map(|w| key(w[0], w[1], w[2])).collect()).collect();
        if literals.is_empty() || literals.iter().any(Vec::is_empty) {
            return None;
        }
        Some(Needles { literals, guards })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::Mode;

    fn needles(pattern: &str, flags: &str) -> Option<Needles> {
        let units: Vec<u16> = pattern.encode_utf16().collect();
        Needles::of(&Matcher::new(&units, flags, Mode::Lines).unwrap())
    }

    #[test]
    fn prunes_only_texts_that_cannot_match() {
        let n = needles("handler_4242", "").unwrap();
        assert!(Grams::of("let x = handler_4242();").may_match(&n));
        assert!(!Grams::of("let x = handler_4243();").may_match(&n));
        // Case folded: the filter is a superset for /i too.
        let i = needles("TODO|FIXME", "i").unwrap();
        assert!(Grams::of("// todo: later").may_match(&i));
        assert!(Grams::of("// FixMe").may_match(&i));
        assert!(!Grams::of("// nothing to see").may_match(&i));
        // An inner literal: every match of \w+Error holds "Error".
        let e = needles("\\w+Error\\b", "").unwrap();
        assert!(Grams::of("throw new TypeError()").may_match(&e));
        assert!(!Grams::of("throw new Exception()").may_match(&e));
        // No literal of three bytes: nothing to prune by.
        assert!(needles("a|bc", "").is_none());
        assert!(needles("\\w+", "").is_none());
    }

    /// Every trigram of a text is in its filter (the rolling key is the
    /// window's key), case folded, in ASCII and beyond.
    #[test]
    fn every_trigram_is_in_the_filter() {
        let text = "Hello, World! fn main() { let ß = \"Straße\"; } 😀 end\r\n";
        let g = Grams::of(text);
        for w in text.as_bytes().windows(3) {
            assert!(g.has(key(w[0], w[1], w[2])));
            let upper: Vec<u8> = w.iter().map(u8::to_ascii_uppercase).collect();
            assert!(g.has(key(upper[0], upper[1], upper[2])));
        }
        assert!(g.trips.astral && g.trips.crlf && !g.trips.line_separators);
        assert!(!Grams::of("ab").trips.crlf);
    }

    #[test]
    fn a_text_tripping_a_guard_is_never_pruned() {
        let n = Needles {
            literals: vec![vec![key(b'a', b'b', b'c')]],
            guards: Guards { astral: true, crlf: true, ..Guards::default() },
        };
        assert!(!Grams::of("xyz").may_match(&n));
        assert!(Grams::of("xyz \u{1F600}").may_match(&n));
        assert!(Grams::of("x\r\ny").may_match(&n));
        assert!(!Grams::of("x\ny\u{2028}").may_match(&n));
        assert!(Grams::of("ABC").may_match(&n));
    }
}
