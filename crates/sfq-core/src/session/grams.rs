//! A session's index of its texts: for each text held, the set of its byte
//! trigrams (ASCII letters folded to lower case) as a one-hash Bloom filter
//! of 7 to 14 bits per distinct trigram (stored bit-sliced, see
//! [`super::slices`]), and which of the fast path's guarded characters it
//! holds.
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

/// Bits per distinct trigram of a text, at least: a filter has the power
/// of two of bits at or above this many per trigram (so 7 to 14), and a
/// trigram absent from the text is reported present about one time in ten
/// (1 - e^(-1/7) at most), whatever the text (a filter sized by its text's
/// bytes fills up on data with many distinct trigrams, hex tables say, and
/// then rules out little); a literal of four bytes (two trigrams) about
/// once in a hundred.
pub const BITS_PER_GRAM: usize = 7;

/// The header bits of the guards a text trips.
pub const ASTRAL: u8 = 1;
pub const LINE_SEPARATORS: u8 = 2;
pub const LONG_S_KELVIN: u8 = 4;
pub const CRLF: u8 = 8;

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

/// Bits of the table that estimates how many distinct trigrams a text
/// holds (8 KiB: it stays in the first-level cache).
const COUNT_BITS: usize = 1 << 16;

/// Each trigram key of `bytes`, in order (repeats included).
fn each_key(bytes: &[u8], mut f: impl FnMut(u32)) {
    let [a, b, rest @ ..] = bytes else { return };
    let mut k = key(0, *a, *b);
    for &c in rest {
        k = ((k << 8) | u32::from(FOLD[usize::from(c)])) & 0xFF_FFFF;
        f(k);
    }
}

/// About how many distinct trigrams `bytes` holds, by linear counting: the
/// keys hashed into [`COUNT_BITS`] bits, `-m ln(share of bits left clear)`;
/// the byte count when the table is nearly full (only the filter's size
/// depends on it, never what the filter holds).
fn distinct_estimate(bytes: &[u8]) -> usize {
    let mut table = [0u64; COUNT_BITS / 64];
    each_key(bytes, |k| {
        let h = (k.wrapping_mul(0x9E37_79B1) >> 16) as usize;
        table[h / 64] |= 1 << (h % 64);
    });
    let clear: u32 = table.iter().map(|w| w.count_zeros()).sum();
    if clear < 64 {
        return bytes.len();
    }
    let m = COUNT_BITS as f64;
    (-m * (f64::from(clear) / m).ln()).round() as usize
}

/// What a text's filter is made of: its distinct trigrams' keys, and the
/// guards it trips (made without the session's lock; the filter is then
/// stored by [`super::slices::Slices::insert`]).
#[derive(Debug)]
pub struct Trigrams {
    /// The filter's bits.
    bits: usize,
    /// The filter, made without the session's lock (under it, a filter
    /// stored bit-sliced is only copied in, front to back).
    words: Vec<u64>,
    trips: u8,
}

impl Trigrams {
    /// The trigrams of `text`.
    pub fn of(text: &str) -> Trigrams {
        let bytes = text.as_bytes();
        let one = |g: Guards| g.trips(bytes);
        // The guarded characters are all outside ASCII.
        let ascii = bytes.is_ascii();
        let tripped = [
            (!ascii && one(Guards { astral: true, ..Guards::default() }), ASTRAL),
            (!ascii && one(Guards { line_separators: true, ..Guards::default() }), LINE_SEPARATORS),
            (!ascii && one(Guards { long_s_kelvin: true, ..Guards::default() }), LONG_S_KELVIN),
            (one(Guards { crlf: true, ..Guards::default() }), CRLF),
        ];
        let trips = tripped.iter().filter(|(t, _)| *t).fold(0, |acc, (_, bit)| acc | bit);
        let bits = (distinct_estimate(bytes) * BITS_PER_GRAM).max(64).next_power_of_two();
        let mut words = vec![0u64; bits / 64];
        each_key(bytes, |k| {
            let h = slot(k, bits / 64);
            words[h / 64] |= 1 << (h % 64);
        });
        Trigrams { bits, words, trips }
    }

    /// The filter's words, given up.
    pub fn into_words(self) -> Vec<u64> {
        self.words
    }

    /// The bits set, ascending.
    pub fn set(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    i * 64 + b
                })
            })
        })
    }

    /// The guards tripped.
    pub fn trips(&self) -> u8 {
        self.trips
    }

    /// The bits of the text's filter: a power of two, at least 64 and
    /// [`BITS_PER_GRAM`] per distinct trigram (as estimated).
    pub fn rows(&self) -> usize {
        self.bits
    }

    /// Bytes the filter will take (see [`super::slices::Filter::bytes`]).
    pub fn filter_bytes(&self) -> u64 {
        self.rows() as u64 / 8 + 64
    }
}

/// The bit of a filter of `words` words that stands for `key`: its hash
/// scaled to the filter's size.
pub fn slot(key: u32, words: usize) -> usize {
    ((u64::from(key.wrapping_mul(0x9E37_79B1)) * (words as u64 * 64)) >> 32) as usize
}

/// What a pattern requires of a text, as trigram keys: one of the literals
/// (each its trigrams' keys), unless the text trips one of the guards.
#[derive(Debug, Clone)]
pub struct Needles {
    /// Each literal's keys (never empty).
    literals: Vec<Vec<u32>>,
    /// The guards as a filter's trip bits.
    guard_bits: u8,
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
        Some(Needles::new(literals, guards))
    }

    /// Each literal's keys (none empty).
    pub fn literals(&self) -> &[Vec<u32>] {
        &self.literals
    }

    /// The guards as a filter's trip bits.
    pub fn guard_bits(&self) -> u8 {
        self.guard_bits
    }

    fn new(literals: Vec<Vec<u32>>, guards: Guards) -> Needles {
        let bits = [
            (guards.astral, ASTRAL),
            (guards.line_separators, LINE_SEPARATORS),
            (guards.long_s_kelvin, LONG_S_KELVIN),
            (guards.crlf, CRLF),
        ];
        let guard_bits = bits.iter().filter(|(g, _)| *g).fold(0, |acc, (_, bit)| acc | bit);
        Needles { literals, guard_bits }
    }
}

#[cfg(test)]
mod tests {
    use super::super::slices::{Filter, Slices};
    use super::*;
    use crate::matcher::Mode;

    fn needles(pattern: &str, flags: &str) -> Option<Needles> {
        let units: Vec<u16> = pattern.encode_utf16().collect();
        Needles::of(&Matcher::new(&units, flags, Mode::Lines).unwrap())
    }

    /// A text's filter, alone in its store.
    struct One(Slices, Filter);

    impl One {
        fn of(text: &str) -> One {
            let mut slices = Slices::default();
            let f = slices.insert(Trigrams::of(text));
            One(slices, f)
        }

        /// The single-file test, checked against the bit-sliced pass.
        fn may_match(&self, n: &Needles) -> bool {
            let one = self.0.may_match(&self.1, n);
            assert_eq!(one, self.0.matching(n).may(&self.1));
            one
        }

        fn has(&self, key: u32) -> bool {
            self.may_match(&Needles::new(vec![vec![key]], Guards::default()))
        }

        fn trips(&self, bit: u8) -> bool {
            self.1.trips() & bit != 0
        }
    }

    #[test]
    fn prunes_only_texts_that_cannot_match() {
        let n = needles("handler_4242", "").unwrap();
        assert!(One::of("let x = handler_4242();").may_match(&n));
        assert!(!One::of("let x = handler_4243();").may_match(&n));
        // Case folded: the filter is a superset for /i too.
        let i = needles("TODO|FIXME", "i").unwrap();
        assert!(One::of("// todo: later").may_match(&i));
        assert!(One::of("// FixMe").may_match(&i));
        assert!(!One::of("// nothing to see").may_match(&i));
        // An inner literal: every match of \w+Error holds "Error".
        let e = needles("\\w+Error\\b", "").unwrap();
        assert!(One::of("throw new TypeError()").may_match(&e));
        assert!(!One::of("throw new Exception()").may_match(&e));
        // No literal of three bytes: nothing to prune by.
        assert!(needles("a|bc", "").is_none());
        assert!(needles("\\w+", "").is_none());
    }

    /// Every trigram of a text is in its filter (the rolling key is the
    /// window's key), case folded, in ASCII and beyond.
    #[test]
    fn every_trigram_is_in_the_filter() {
        let text = "Hello, World! fn main() { let ß = \"Straße\"; } 😀 end\r\n";
        let g = One::of(text);
        for w in text.as_bytes().windows(3) {
            assert!(g.has(key(w[0], w[1], w[2])));
            let upper: Vec<u8> = w.iter().map(u8::to_ascii_uppercase).collect();
            assert!(g.has(key(upper[0], upper[1], upper[2])));
        }
        assert!(g.trips(ASTRAL) && g.trips(CRLF) && !g.trips(LINE_SEPARATORS));
        assert!(!One::of("ab").trips(CRLF));
    }

    /// Sized by its distinct trigrams, a filter rules out about nine absent
    /// trigrams in ten, on prose and on data with many distinct trigrams
    /// alike; an empty text holds none.
    #[test]
    fn a_filter_rules_out_most_absent_trigrams_whatever_the_text() {
        let mut x = 0x2545_f491_u32;
        let mut rand = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let hex: String = (0..20_000).map(|_| format!("{:02x},", rand() & 0xff)).collect();
        let prose = "the quick brown fox jumps over the lazy dog; ".repeat(500);
        for text in [hex.as_str(), prose.as_str()] {
            let g = One::of(text);
            let present: std::collections::HashSet<u32> =
                text.as_bytes().windows(3).map(|w| key(w[0], w[1], w[2])).collect();
            let absent: Vec<u32> =
                (0..2_000).map(|_| rand() & 0xFF_FFFF).filter(|k| !present.contains(k)).collect();
            let reported = absent.iter().filter(|&&k| g.has(k)).count();
            assert!(reported * 100 < absent.len() * 14, "{reported} of {}", absent.len());
            assert!(present.iter().all(|&k| g.has(k)));
        }
        let n = needles("abc", "").unwrap();
        assert!(!One::of("").may_match(&n) && !One::of("ab").may_match(&n));
        // The estimate of distinct trigrams: close, whatever the repeats.
        assert_eq!(distinct_estimate(b"abcabc"), 3);
        let many: String = (0..3000).map(|i| format!("{i:05}")).collect();
        let n = distinct_estimate(many.as_bytes()) as f64;
        let exact = many.as_bytes().windows(3).collect::<std::collections::HashSet<_>>().len();
        assert!((n / exact as f64 - 1.0).abs() < 0.05, "{n} for {exact}");
    }

    #[test]
    fn a_text_tripping_a_guard_is_never_pruned() {
        let n = Needles::new(
            vec![vec![key(b'a', b'b', b'c')]],
            Guards { astral: true, crlf: true, ..Guards::default() },
        );
        assert!(!One::of("xyz").may_match(&n));
        assert!(One::of("xyz \u{1F600}").may_match(&n));
        assert!(One::of("x\r\ny").may_match(&n));
        assert!(!One::of("x\ny\u{2028}").may_match(&n));
        assert!(One::of("ABC").may_match(&n));
    }
}
