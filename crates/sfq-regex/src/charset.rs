//! Sets of characters as sorted lists of inclusive ranges.

/// The largest code point.
pub const MAX_CODE_POINT: u32 = 0x10FFFF;
/// The largest UTF-16 code unit.
pub const MAX_CODE_UNIT: u32 = 0xFFFF;

/// A set of characters: code units (`0..=0xFFFF`) without the `u`/`v` flag, code points
/// (`0..=0x10FFFF`, lone surrogates included) with it.
///
/// Always canonical: the ranges are inclusive, sorted, non-empty, and neither overlap nor
/// touch, so two sets are equal exactly when their ranges are.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CharSet {
    ranges: Vec<(u32, u32)>,
}

impl CharSet {
    /// The empty set.
    pub fn new() -> CharSet {
        CharSet { ranges: Vec::new() }
    }

    /// The set of one character.
    pub fn single(c: u32) -> CharSet {
        CharSet { ranges: vec![(c, c)] }
    }

    /// The set of all characters from `lo` to `hi` inclusive (empty if `lo > hi`).
    pub fn range(lo: u32, hi: u32) -> CharSet {
        if lo > hi { CharSet::new() } else { CharSet { ranges: vec![(lo, hi)] } }
    }

    /// The set of the given ranges, in any order, overlapping or not.
    pub fn from_ranges<I: IntoIterator<Item = (u32, u32)>>(ranges: I) -> CharSet {
        let mut s = CharSet { ranges: ranges.into_iter().filter(|&(a, b)| a <= b).collect() };
        s.canonicalize();
        s
    }

    /// The ranges, sorted and disjoint.
    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The number of characters in the set.
    pub fn len(&self) -> u64 {
        self.ranges.iter().map(|&(a, b)| u64::from(b - a) + 1).sum()
    }

    /// Whether `c` is in the set.
    pub fn contains(&self, c: u32) -> bool {
        // Binary search for the last range starting at or before c.
        let i = self.ranges.partition_point(|&(a, _)| a <= c);
        i > 0 && self.ranges[i - 1].1 >= c
    }

    /// The single member, if the set has exactly one.
    pub fn as_single(&self) -> Option<u32> {
        match self.ranges.as_slice() {
            [(a, b)] if a == b => Some(*a),
            _ => None,
        }
    }

    /// Iterates over the members (beware of large sets).
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.ranges.iter().flat_map(|&(a, b)| a..=b)
    }

    /// Adds the characters `lo..=hi`.
    pub fn add_range(&mut self, lo: u32, hi: u32) {
        if lo > hi {
            return;
        }
        // Fast path: appending in order.
        if let Some(last) = self.ranges.last_mut() {
            if lo > last.1.saturating_add(1) {
                self.ranges.push((lo, hi));
                return;
            }
            if lo >= last.0 {
                last.1 = last.1.max(hi);
                return;
            }
        } else {
            self.ranges.push((lo, hi));
            return;
        }
        self.ranges.push((lo, hi));
        self.canonicalize();
    }

    /// Adds one character.
    pub fn add(&mut self, c: u32) {
        self.add_range(c, c);
    }

    /// Adds every member of `other`.
    pub fn add_set(&mut self, other: &CharSet) {
        if other.ranges.is_empty() {
            return;
        }
        if self.ranges.is_empty() {
            self.ranges.clone_from(&other.ranges);
            return;
        }
        self.ranges.extend_from_slice(&other.ranges);
        self.canonicalize();
    }

    /// The union of two sets.
    pub fn union(&self, other: &CharSet) -> CharSet {
        let mut s = self.clone();
        s.add_set(other);
        s
    }

    /// The intersection of two sets.
    pub fn intersect(&self, other: &CharSet) -> CharSet {
        let (a, b) = (&self.ranges, &other.ranges);
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        while i < a.len() && j < b.len() {
            let lo = a[i].0.max(b[j].0);
            let hi = a[i].1.min(b[j].1);
            if lo <= hi {
                out.push((lo, hi));
            }
            if a[i].1 < b[j].1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        CharSet { ranges: out }
    }

    /// The members of `self` that are not in `other`.
    pub fn subtract(&self, other: &CharSet) -> CharSet {
        let mut out = Vec::new();
        let b = &other.ranges;
        let mut j = 0;
        for &(mut lo, hi) in &self.ranges {
            while j < b.len() && b[j].1 < lo {
                j += 1;
            }
            let mut k = j;
            let mut done = false;
            while k < b.len() && b[k].0 <= hi {
                if b[k].0 > lo {
                    out.push((lo, b[k].0 - 1));
                }
                if b[k].1 >= hi {
                    done = true;
                    break;
                }
                lo = b[k].1 + 1;
                k += 1;
            }
            if !done {
                out.push((lo, hi));
            }
        }
        CharSet { ranges: out }
    }

    /// The characters of `0..=max` that are not in the set.
    pub fn complement(&self, max: u32) -> CharSet {
        let mut out = Vec::with_capacity(self.ranges.len() + 1);
        let mut next = 0u32;
        for &(a, b) in &self.ranges {
            if a > max {
                break;
            }
            if a > next {
                out.push((next, a - 1));
            }
            next = b.saturating_add(1);
        }
        if next <= max {
            out.push((next, max));
        }
        CharSet { ranges: out }
    }

    fn canonicalize(&mut self) {
        self.ranges.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(self.ranges.len());
        for &(a, b) in &self.ranges {
            match out.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        self.ranges = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(r: &[(u32, u32)]) -> CharSet {
        CharSet::from_ranges(r.iter().copied())
    }

    #[test]
    fn canonical_form() {
        let s = set(&[(10, 20), (5, 9), (21, 21), (30, 40), (35, 36)]);
        assert_eq!(s.ranges(), &[(5, 21), (30, 40)]);
        assert!(s.contains(5) && s.contains(21) && s.contains(35));
        assert!(!s.contains(4) && !s.contains(22) && !s.contains(41));
        assert_eq!(s.len(), 17 + 11);
        let mut t = CharSet::new();
        for c in [7, 3, 5, 4, 6] {
            t.add(c);
        }
        assert_eq!(t.ranges(), &[(3, 7)]);
    }

    #[test]
    fn set_operations() {
        let a = set(&[(0, 10), (20, 30)]);
        let b = set(&[(5, 25)]);
        assert_eq!(a.union(&b).ranges(), &[(0, 30)]);
        assert_eq!(a.intersect(&b).ranges(), &[(5, 10), (20, 25)]);
        assert_eq!(a.subtract(&b).ranges(), &[(0, 4), (26, 30)]);
        assert_eq!(b.subtract(&a).ranges(), &[(11, 19)]);
        assert_eq!(a.complement(40).ranges(), &[(11, 19), (31, 40)]);
        assert_eq!(CharSet::new().complement(MAX_CODE_UNIT).ranges(), &[(0, 0xFFFF)]);
        assert!(CharSet::range(0, MAX_CODE_POINT).complement(MAX_CODE_POINT).is_empty());
        let c = set(&[(0, 3), (6, 8), (10, 12)]);
        assert_eq!(
            c.subtract(&set(&[(1, 1), (7, 11)])).ranges(),
            &[(0, 0), (2, 3), (6, 6), (12, 12)]
        );
    }

    #[test]
    fn subtract_exhaustive_small() {
        // Compare with a bitmap implementation on all small sets.
        for x in 0u32..256 {
            for y in (0u32..256).step_by(7) {
                let to_set = |bits: u32| {
                    CharSet::from_ranges((0..8).filter(|i| bits >> i & 1 == 1).map(|i| (i, i)))
                };
                let (a, b) = (to_set(x), to_set(y));
                assert_eq!(a.subtract(&b), to_set(x & !y));
                assert_eq!(a.intersect(&b), to_set(x & y));
                assert_eq!(a.union(&b), to_set(x | y));
                assert_eq!(a.complement(7), to_set(!x & 0xFF));
            }
        }
    }
}
