//! An ASCII string found case-insensitively at memchr's speed: the scan behind `/return/i`.
//!
//! regex-automata finds a case-insensitive literal through its case variants (64 of them
//! for "return", cut to a few short prefixes that Teddy finds all over a text), then runs
//! its automaton at each hit. Here two bytes of the needle, the rarest by memchr's
//! frequency ranking, are compared 32 (AVX2) or 16 (SSE2) positions at a time after
//! folding case with one OR (`b | 0x20` maps `A`–`Z` onto `a`–`z` and is compared only
//! where the needle has a letter), and each position where both agree is checked whole:
//! memchr's packed-pair algorithm, case-folded. Other targets scan for the rarer byte's
//! two cases with `memchr2`.

use memchr::arch::all::packedpair::Pair;

/// A needle of ASCII bytes in which letters match either case and other bytes match
/// themselves.
#[derive(Clone, Debug)]
pub(crate) struct Folded {
    /// The needle, letters in lower case.
    needle: Vec<u8>,
    /// The two offsets compared first (`index1 != index2`; elsewhere than
    /// on x86-64, only `index1`).
    index1: usize,
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    index2: usize,
    /// The needle's first eight bytes (fewer: zeros) as a little-endian word, the OR that
    /// folds them, and the mask of those that are the needle's: the check of a candidate
    /// in one load.
    head: u64,
    head_fold: u64,
    head_mask: u64,
}

/// The OR that folds byte `b` of a needle: `0x20` for a letter, `0` otherwise.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn fold_mask(b: u8) -> u8 {
    if b.is_ascii_alphabetic() { 0x20 } else { 0 }
}

impl Folded {
    /// The finder for `needle` (ASCII, at least two bytes); `None` otherwise.
    pub(crate) fn new(needle: &[u8]) -> Option<Folded> {
        if needle.len() < 2 || !needle.is_ascii() {
            return None;
        }
        let needle = needle.to_ascii_lowercase();
        let pair = Pair::new(&needle)?;
        let (index1, index2) = (usize::from(pair.index1()), usize::from(pair.index2()));
        let (mut head, mut head_fold, mut head_mask) = (0u64, 0u64, 0u64);
        for (k, &b) in needle.iter().take(8).enumerate() {
            head |= u64::from(b) << (8 * k);
            head_fold |= u64::from(if b.is_ascii_alphabetic() { 0x20u8 } else { 0 }) << (8 * k);
            head_mask |= 0xff << (8 * k);
        }
        (index1 != index2).then_some(Folded { needle, index1, index2, head, head_fold, head_mask })
    }

    /// The needle's length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.needle.len()
    }

    /// The needle, letters in lower case.
    pub(crate) fn needle(&self) -> &[u8] {
        &self.needle
    }

    /// The start of the first occurrence of the needle lying wholly in `hay[from..end]`.
    pub(crate) fn find(&self, hay: &[u8], from: usize, end: usize) -> Option<usize> {
        let end = end.min(hay.len());
        if from > end || end - from < self.needle.len() {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is available (checked above).
                return unsafe { self.find_avx2(hay, from, end) };
            }
            // SAFETY: SSE2 is part of the x86_64 baseline.
            unsafe { self.find_sse2(hay, from, end) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.find_memchr(hay, from, end)
        }
    }

    /// Whether the needle occurs at `at` (`at + len <= hay.len()`): its first eight bytes
    /// in one load where eight bytes are there to read. Inlined: a call in the scan's loop
    /// would make it keep its vectors on the stack (no vector register survives a call).
    #[inline(always)]
    fn is_at(&self, hay: &[u8], at: usize) -> bool {
        if at + 8 <= hay.len() {
            // SAFETY: `at + 8 <= hay.len()`; an unaligned read of eight bytes.
            let word = unsafe { hay.as_ptr().add(at).cast::<u64>().read_unaligned() };
            let word = u64::from_le(word);
            (word | self.head_fold) & self.head_mask == self.head
                && (self.needle.len() <= 8 || self.is_at_tail(hay, at))
        } else {
            self.is_at_slow(hay, at)
        }
    }

    /// The needle's bytes past the eighth at `at`.
    #[cold]
    #[inline(never)]
    fn is_at_tail(&self, hay: &[u8], at: usize) -> bool {
        hay[at + 8..at + self.needle.len()].eq_ignore_ascii_case(&self.needle[8..])
    }

    /// [`Folded::is_at`] byte by byte (near the end of `hay`).
    #[cold]
    #[inline(never)]
    fn is_at_slow(&self, hay: &[u8], at: usize) -> bool {
        hay[at..at + self.needle.len()].eq_ignore_ascii_case(&self.needle)
    }

    /// The occurrences starting in `from..=last`, one position at a time.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn find_each(&self, hay: &[u8], from: usize, last: usize) -> Option<usize> {
        (from..=last).find(|&at| self.is_at(hay, at))
    }

    /// The portable scan: the two cases of the needle's rarer byte with `memchr2`.
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    fn find_memchr(&self, hay: &[u8], from: usize, end: usize) -> Option<usize> {
        let n = self.needle.len();
        let last = end.checked_sub(n)?;
        let i = self.index1;
        let b = self.needle[i];
        let mut at = from;
        while at <= last {
            let hit = memchr::memchr2(b, b.to_ascii_uppercase(), &hay[at + i..=last + i])?;
            let start = at + hit;
            if self.is_at(hay, start) {
                return Some(start);
            }
            at = start + 1;
        }
        None
    }

    /// The SIMD scan, `W` positions a step; `chunk(p)` gives the bit mask of the starts
    /// in `p..p + W` where both compared bytes agree (bit `k` for start `p + k`).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn find_with<const W: usize>(
        &self,
        hay: &[u8],
        from: usize,
        end: usize,
        chunk: impl Fn(usize) -> u32,
    ) -> Option<usize> {
        let last = end.min(hay.len()).checked_sub(self.needle.len()).filter(|&l| l >= from)?;
        let mut p = from;
        // A chunk reads bytes up to p + W - 1 + (n - 1): inside `..end` while p + W <= last + 1.
        // Two chunks a step while both fit: one branch for 2 W positions without a candidate.
        while p + 2 * W <= last + 1 {
            let mut mask = u64::from(chunk(p)) | (u64::from(chunk(p + W)) << W);
            while mask != 0 {
                let at = p + mask.trailing_zeros() as usize;
                if self.is_at(hay, at) {
                    return Some(at);
                }
                mask &= mask - 1;
            }
            p += 2 * W;
        }
        while p + W <= last + 1 {
            let mut mask = chunk(p);
            while mask != 0 {
                let at = p + mask.trailing_zeros() as usize;
                if self.is_at(hay, at) {
                    return Some(at);
                }
                mask &= mask - 1;
            }
            p += W;
        }
        if p <= last { self.find_each(hay, p, last) } else { None }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn find_avx2(&self, hay: &[u8], from: usize, end: usize) -> Option<usize> {
        use std::arch::x86_64::*;
        let (b1, b2) = (self.needle[self.index1], self.needle[self.index2]);
        let want1 = _mm256_set1_epi8(b1 as i8);
        let want2 = _mm256_set1_epi8(b2 as i8);
        let fold1 = _mm256_set1_epi8(fold_mask(b1) as i8);
        let fold2 = _mm256_set1_epi8(fold_mask(b2) as i8);
        let base = hay.as_ptr();
        let (i1, i2) = (self.index1, self.index2);
        self.find_with::<32>(hay, from, end, |p| {
            // SAFETY: `find_with` keeps p + 31 + max(i1, i2) < end <= hay.len().
            unsafe {
                let v1 = _mm256_loadu_si256(base.add(p + i1).cast());
                let v2 = _mm256_loadu_si256(base.add(p + i2).cast());
                let eq1 = _mm256_cmpeq_epi8(_mm256_or_si256(v1, fold1), want1);
                let eq2 = _mm256_cmpeq_epi8(_mm256_or_si256(v2, fold2), want2);
                _mm256_movemask_epi8(_mm256_and_si256(eq1, eq2)) as u32
            }
        })
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse2")]
    unsafe fn find_sse2(&self, hay: &[u8], from: usize, end: usize) -> Option<usize> {
        use std::arch::x86_64::*;
        let (b1, b2) = (self.needle[self.index1], self.needle[self.index2]);
        let want1 = _mm_set1_epi8(b1 as i8);
        let want2 = _mm_set1_epi8(b2 as i8);
        let fold1 = _mm_set1_epi8(fold_mask(b1) as i8);
        let fold2 = _mm_set1_epi8(fold_mask(b2) as i8);
        let base = hay.as_ptr();
        let (i1, i2) = (self.index1, self.index2);
        self.find_with::<16>(hay, from, end, |p| {
            // SAFETY: `find_with` keeps p + 15 + max(i1, i2) < end <= hay.len().
            unsafe {
                let v1 = _mm_loadu_si128(base.add(p + i1).cast());
                let v2 = _mm_loadu_si128(base.add(p + i2).cast());
                let eq1 = _mm_cmpeq_epi8(_mm_or_si128(v1, fold1), want1);
                let eq2 = _mm_cmpeq_epi8(_mm_or_si128(v2, fold2), want2);
                _mm_movemask_epi8(_mm_and_si128(eq1, eq2)) as u32
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every scan the machine has, against the naive search, on `hay[from..end]`.
    fn check(needle: &str, hay: &[u8], from: usize, end: usize) {
        let f = Folded::new(needle.as_bytes()).unwrap();
        let n = needle.len();
        let naive = if end < from + n {
            None
        } else {
            (from..=end - n).find(|&at| hay[at..at + n].eq_ignore_ascii_case(needle.as_bytes()))
        };
        assert_eq!(
            f.find(hay, from, end),
            naive,
            "{needle:?} in {:?}",
            String::from_utf8_lossy(hay)
        );
        assert_eq!(f.find_memchr(hay, from, end), naive, "memchr2 {needle:?}");
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: SSE2 is baseline.
            assert_eq!(unsafe { f.find_sse2(hay, from, end) }, naive, "sse2 {needle:?}");
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: checked.
                assert_eq!(unsafe { f.find_avx2(hay, from, end) }, naive, "avx2 {needle:?}");
            }
        }
    }

    #[test]
    fn finds_every_case_at_every_offset() {
        for needle in ["return", "Re", "foo_bar", "a1", "x@Z", "abcdefgh", "configuration_x9"] {
            for at in 0..80 {
                for variant in 0..4u32 {
                    let mut hay = vec![b'.'; 90];
                    let word: Vec<u8> =
                        needle
                            .bytes()
                            .enumerate()
                            .map(|(k, b)| {
                                if (variant >> (k % 2)) & 1 == 1 {
                                    b.to_ascii_uppercase()
                                } else {
                                    b
                                }
                            })
                            .collect();
                    if at + word.len() <= hay.len() {
                        hay[at..at + word.len()].copy_from_slice(&word);
                    }
                    for (from, end) in [
                        (0, hay.len()),
                        (at.min(5), hay.len()),
                        (0, at + 3),
                        (at, at + needle.len()),
                    ] {
                        check(needle, &hay, from.min(end), end.min(hay.len()));
                    }
                }
            }
        }
    }

    #[test]
    fn non_letters_and_near_misses_do_not_match() {
        // `@` | 0x20 is `` ` ``, `[` | 0x20 is `{`: only letters fold.
        check("`{x", b"@[x `{X", 0, 7);
        check("re", b"rE\x80re R\xc3\xa9", 0, 10);
        check("return", b"retur\nreturN RETURNED", 0, 21);
        let long: Vec<u8> = (0..5000u32).map(|i| b"abcdefghij\n"[(i % 11) as usize]).collect();
        check("hij\nab", &long, 0, long.len());
        check("jihg", &long, 0, long.len());
        check("ghij", &long, 17, 40);
        // Past the eighth byte the rest is compared too; near the end, byte by byte.
        check("abcdefghij", b"ABCDEFGHIX abcdefghiJ", 0, 21);
        check("abcdefghij", b"ABCDEFGHIX abcdefghiJ", 0, 20);
        check("ab", b"xxxxxxxaB", 0, 9);
    }

    #[test]
    fn refuses_what_it_cannot_fold() {
        assert!(Folded::new(b"r").is_none());
        assert!(Folded::new("ré".as_bytes()).is_none());
        assert_eq!(Folded::new(b"ReTurn").unwrap().needle(), b"return");
    }
}
