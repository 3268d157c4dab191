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

/// A few ASCII needles, each found case-folded as [`Folded`] finds one: the scan behind
/// `/TODO|FIXME|HACK/i` (a Teddy over the 48 case variants of such a set is a third as
/// fast). On AVX2, every input byte is folded with one OR (`| 0x20`, as each needle's
/// compared bytes are), each needle's two bytes are compared at 32 positions a step, and
/// each position where some needle's two agree is checked whole against every needle.
#[derive(Clone, Debug)]
pub(crate) struct FoldedSet {
    needles: Vec<Folded>,
    shortest: usize,
    longest: usize,
}

impl FoldedSet {
    /// The most needles a set holds.
    pub(crate) const MAX: usize = 4;

    /// The finder of any of `needles` (2 to [`FoldedSet::MAX`], each as [`Folded::new`]
    /// takes it); `None` otherwise.
    pub(crate) fn new(needles: &[Vec<u8>]) -> Option<FoldedSet> {
        if !(2..=Self::MAX).contains(&needles.len()) {
            return None;
        }
        let needles = needles.iter().map(|n| Folded::new(n)).collect::<Option<Vec<_>>>()?;
        let shortest = needles.iter().map(Folded::len).min()?;
        let longest = needles.iter().map(Folded::len).max()?;
        Some(FoldedSet { needles, shortest, longest })
    }

    /// Whether this machine has the set's vector scan (AVX2): elsewhere
    /// [`FoldedSet::find`] tries each position in turn, slower than the
    /// regex engine's own literal search, so no scan should be made a set.
    pub(crate) fn is_fast() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// Whether one of the needles occurs at `at`, wholly before `end`.
    #[inline(always)]
    fn is_at(&self, hay: &[u8], at: usize, end: usize) -> bool {
        self.needles.iter().any(|n| at + n.len() <= end && n.is_at(hay, at))
    }

    /// The start of the first occurrence of a needle lying wholly in `hay[from..end]`.
    pub(crate) fn find(&self, hay: &[u8], from: usize, end: usize) -> Option<usize> {
        let end = end.min(hay.len());
        if from > end || end - from < self.shortest {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is available (checked above).
                return unsafe {
                    match self.needles.len() {
                        2 => self.find_avx2::<2>(hay, from, end),
                        3 => self.find_avx2::<3>(hay, from, end),
                        _ => self.find_avx2::<4>(hay, from, end),
                    }
                };
            }
        }
        self.find_each(hay, from, end)
    }

    /// The occurrences starting in `from..`, one position at a time.
    fn find_each(&self, hay: &[u8], from: usize, end: usize) -> Option<usize> {
        let last = end.checked_sub(self.shortest)?;
        (from..=last).find(|&at| self.is_at(hay, at, end))
    }

    /// `N`: the number of needles.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn find_avx2<const N: usize>(
        &self,
        hay: &[u8],
        from: usize,
        end: usize,
    ) -> Option<usize> {
        use std::arch::x86_64::*;
        let fold = _mm256_set1_epi8(0x20);
        let mut want1 = [fold; N];
        let mut want2 = [fold; N];
        let mut at1 = [0usize; N];
        let mut at2 = [0usize; N];
        for (j, f) in self.needles.iter().take(N).enumerate() {
            want1[j] = _mm256_set1_epi8((f.needle[f.index1] | 0x20) as i8);
            want2[j] = _mm256_set1_epi8((f.needle[f.index2] | 0x20) as i8);
            (at1[j], at2[j]) = (f.index1, f.index2);
        }
        let base = hay.as_ptr();
        let mut p = from;
        // The chunks' positions: those after which every needle fits before `end`, so a
        // chunk reads bytes up to p + 31 + (longest - 1) < end.
        if let Some(last) = end.checked_sub(self.longest) {
            while p + 32 <= last + 1 {
                // SAFETY: p + 31 + max(index) <= last + longest - 1 < end <= hay.len().
                let mut mask = unsafe {
                    let mut any = _mm256_setzero_si256();
                    for j in 0..N {
                        let v1 =
                            _mm256_or_si256(_mm256_loadu_si256(base.add(p + at1[j]).cast()), fold);
                        let v2 =
                            _mm256_or_si256(_mm256_loadu_si256(base.add(p + at2[j]).cast()), fold);
                        let both = _mm256_and_si256(
                            _mm256_cmpeq_epi8(v1, want1[j]),
                            _mm256_cmpeq_epi8(v2, want2[j]),
                        );
                        any = _mm256_or_si256(any, both);
                    }
                    _mm256_movemask_epi8(any) as u32
                };
                while mask != 0 {
                    let at = p + mask.trailing_zeros() as usize;
                    if self.is_at(hay, at, end) {
                        return Some(at);
                    }
                    mask &= mask - 1;
                }
                p += 32;
            }
        }
        self.find_each(hay, p, end)
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

    /// The set's scan against the naive search, on `hay[from..end]`.
    fn check_set(needles: &[&str], hay: &[u8], from: usize, end: usize) {
        let set =
            FoldedSet::new(&needles.iter().map(|n| n.as_bytes().to_vec()).collect::<Vec<_>>())
                .unwrap();
        let naive = (from..end).find(|&at| {
            needles.iter().any(|n| {
                at + n.len() <= end && hay[at..at + n.len()].eq_ignore_ascii_case(n.as_bytes())
            })
        });
        let shown = String::from_utf8_lossy(hay);
        assert_eq!(set.find(hay, from, end), naive, "{needles:?} in {shown:?} {from}..{end}");
        assert_eq!(set.find_each(hay, from, end), naive, "each {needles:?} in {shown:?}");
    }

    #[test]
    fn a_set_finds_the_first_of_its_needles_in_every_case() {
        let sets: [&[&str]; 4] = [
            &["todo", "fixme", "hack"],
            &["ab", "b_c"],
            &["x@Z", "configuration_x9", "re", "QQQQ"],
            &["hack", "hackers"],
        ];
        for needles in sets {
            for at in 0..100 {
                for (k, needle) in needles.iter().enumerate() {
                    let mut hay = vec![b'_'; 110];
                    let word: Vec<u8> = needle
                        .bytes()
                        .enumerate()
                        .map(
                            |(i, b)| if (i + k + at) % 3 == 0 { b.to_ascii_uppercase() } else { b },
                        )
                        .collect();
                    if at + word.len() <= hay.len() {
                        hay[at..at + word.len()].copy_from_slice(&word);
                    }
                    // A near miss of another needle before it.
                    if at > 12 {
                        let other = needles[(k + 1) % needles.len()].as_bytes();
                        hay[at - 12..at - 12 + other.len() - 1]
                            .copy_from_slice(&other[..other.len() - 1]);
                    }
                    for (from, end) in [
                        (0, hay.len()),
                        (at.min(7), hay.len()),
                        (0, at + 2),
                        (at, at + needle.len()),
                    ] {
                        check_set(needles, &hay, from.min(end), end.min(hay.len()));
                    }
                }
            }
        }
        // Bytes that fold onto a needle's non-letters are no match ('_' | 0x20 is DEL).
        check_set(&["a_b", "zz"], b"a\x7fb A_B", 0, 7);
        check_set(&["a_b", "zz"], b"a\x7fb zZ", 0, 6);
        assert!(FoldedSet::new(&[b"one".to_vec()]).is_none());
        assert!(FoldedSet::new(&[b"x".to_vec(), b"yz".to_vec()]).is_none());
    }

    #[test]
    fn refuses_what_it_cannot_fold() {
        assert!(Folded::new(b"r").is_none());
        assert!(Folded::new("ré".as_bytes()).is_none());
        assert_eq!(Folded::new(b"ReTurn").unwrap().needle(), b"return");
    }
}
