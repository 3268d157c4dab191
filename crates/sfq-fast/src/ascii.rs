//! Skipping ASCII eight bytes at a time: the scans under the guards and the non-ASCII
//! prefilter.

/// The high bit of each byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The offset of the first byte of `bytes` (from `from`) for which the eight-byte filter
/// `hits` (given a little-endian word, returning the high bit of each byte that may be
/// wanted) is set, then `wanted` confirms; `None` if there is none.
#[inline]
fn scan(
    bytes: &[u8],
    from: usize,
    hits: impl Fn(u64) -> u64,
    wanted: impl Fn(usize) -> bool,
) -> Option<usize> {
    let len = bytes.len();
    let mut i = from;
    while i < len {
        while i + 8 <= len {
            let mut chunk = [0u8; 8];
            chunk.copy_from_slice(&bytes[i..i + 8]);
            let h = hits(u64::from_le_bytes(chunk));
            if h != 0 {
                i += (h.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        if i >= len {
            return None;
        }
        if bytes[i] >= 0x80 && wanted(i) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The offset of the first byte at or after `from` that is not ASCII and for which
/// `wanted` (given its offset) holds.
pub(crate) fn find_non_ascii(
    bytes: &[u8],
    from: usize,
    wanted: impl Fn(usize) -> bool,
) -> Option<usize> {
    scan(bytes, from, |w| w & HIGH_BITS, wanted)
}

/// The offset of the first byte at or after `from` that starts a 4-byte UTF-8 sequence
/// (an astral character): a byte 0xF0 or above.
pub(crate) fn find_astral(bytes: &[u8], from: usize) -> Option<usize> {
    // Bit 7 of each byte survives the AND only if bits 7, 6, 5 and 4 are all set; the
    // shifts move bits within each byte (by at most 3 places, from bits 4..6 to bit 7).
    scan(bytes, from, |w| w & (w << 1) & (w << 2) & (w << 3) & HIGH_BITS, |i| bytes[i] >= 0xF0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_agree_with_the_slow_way() {
        let pieces = ["a", "é", "€", "😀", "\u{10FFFF}", "\u{7F}", "\u{80}", "\u{FFFF}"];
        let mut text = String::new();
        for i in 0..300 {
            text.push_str(pieces[(i * 7 + i / 5) % pieces.len()]);
            if i % 3 == 0 {
                text.push_str("abcdefghij");
            }
        }
        let b = text.as_bytes();
        for from in 0..b.len() {
            let non_ascii = (from..b.len()).find(|&i| b[i] >= 0x80);
            assert_eq!(find_non_ascii(b, from, |_| true), non_ascii);
            let astral = (from..b.len()).find(|&i| b[i] >= 0xF0);
            assert_eq!(find_astral(b, from), astral);
        }
        assert_eq!(find_non_ascii(b"", 0, |_| true), None);
        assert_eq!(find_astral(b"abc", 5), None);
    }
}
