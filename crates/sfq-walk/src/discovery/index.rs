//! Reader for git's index file (`.git/index`), versions 2, 3 and 4.
//!
//! Only what listing needs is kept: each path once (unmerged stages are
//! collapsed) with its mode. Required extensions this reader cannot interpret
//! (split index `link`, sparse directories `sdir`, or any unknown lower-case
//! signature) make [`Index::parse`] fail instead of returning a wrong list.

use std::fmt;

/// Mode bits of a gitlink (submodule) entry.
const S_IFGITLINK: u32 = 0o160000;
const S_IFMT: u32 = 0o170000;
const S_IFDIR: u32 = 0o040000;

/// Why an index could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexError {
    /// The file is not an index, is truncated or is inconsistent.
    Corrupt(String),
    /// The index uses a feature this reader does not implement.
    Unsupported(String),
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Corrupt(why) => write!(f, "corrupt git index: {why}"),
            IndexError::Unsupported(why) => write!(f, "unsupported git index: {why}"),
        }
    }
}

/// One path of the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// Path relative to the work-tree top, `/`-separated bytes.
    pub path: Box<[u8]>,
    /// File mode (`0o100644`, `0o100755`, `0o120000`, `0o160000`).
    pub mode: u32,
    /// The skip-worktree bit (sparse checkout).
    pub skip_worktree: bool,
}

impl IndexEntry {
    /// Whether this is a submodule (gitlink) entry.
    pub fn is_gitlink(&self) -> bool {
        self.mode & S_IFMT == S_IFGITLINK
    }
}

/// The parsed index: entries sorted by path bytes, one per path.
#[derive(Debug, Default, Clone)]
pub struct Index {
    /// Entries in git's order (byte order of the path).
    pub entries: Vec<IndexEntry>,
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], IndexError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.data.len())
            .ok_or_else(|| IndexError::Corrupt("truncated".into()))?;
        let s = &self.data[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, IndexError> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u16(&mut self) -> Result<u16, IndexError> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    /// git's `decode_varint` (offset encoding used by index v4).
    fn varint(&mut self) -> Result<usize, IndexError> {
        let mut c = self.take(1)?[0];
        let mut val: usize = (c & 127) as usize;
        while c & 128 != 0 {
            c = self.take(1)?[0];
            val = val
                .checked_add(1)
                .and_then(|v| v.checked_mul(128))
                .and_then(|v| v.checked_add((c & 127) as usize))
                .ok_or_else(|| IndexError::Corrupt("varint overflow".into()))?;
        }
        Ok(val)
    }
}

impl Index {
    /// Parses an index file's bytes. `hash_len` is 20 for SHA-1 repositories
    /// and 32 for SHA-256 ones.
    pub fn parse(data: &[u8], hash_len: usize) -> Result<Index, IndexError> {
        let mut r = Reader { data, pos: 0 };
        if r.take(4)? != b"DIRC" {
            return Err(IndexError::Corrupt("bad signature".into()));
        }
        let version = r.u32()?;
        if !(2..=4).contains(&version) {
            return Err(IndexError::Unsupported(format!("index version {version}")));
        }
        let count = r.u32()? as usize;
        if data.len() < 12 + hash_len {
            return Err(IndexError::Corrupt("truncated".into()));
        }
        let body_end = data.len() - hash_len;
        // Each entry takes at least 62 bytes (SHA-1): bound the allocation.
        let mut entries: Vec<IndexEntry> = Vec::with_capacity(count.min(data.len() / 62 + 1));
        let mut prev_name: Vec<u8> = Vec::new();
        for _ in 0..count {
            let start = r.pos;
            r.take(24)?; // ctime, mtime, dev, ino
            let mode = r.u32()?;
            r.take(12)?; // uid, gid, size
            r.take(hash_len)?;
            let flags = r.u16()?;
            let mut skip_worktree = false;
            if flags & 0x4000 != 0 {
                if version < 3 {
                    return Err(IndexError::Corrupt("extended flags in a version 2 index".into()));
                }
                let ext = r.u16()?;
                skip_worktree = ext & 0x4000 != 0;
            }
            let name_len_field = (flags & 0x0FFF) as usize;
            let name: Vec<u8> = if version == 4 {
                let strip = r.varint()?;
                if strip > prev_name.len() {
                    return Err(IndexError::Corrupt("bad v4 path prefix".into()));
                }
                let rest = &data[r.pos..body_end.max(r.pos)];
                let nul = rest
                    .iter()
                    .position(|&c| c == 0)
                    .ok_or_else(|| IndexError::Corrupt("unterminated path".into()))?;
                let mut name = prev_name[..prev_name.len() - strip].to_vec();
                name.extend_from_slice(&rest[..nul]);
                r.pos += nul + 1;
                name
            } else {
                let rest = &data[r.pos..body_end.max(r.pos)];
                let nul = if name_len_field < 0x0FFF {
                    if rest.get(name_len_field) != Some(&0) {
                        return Err(IndexError::Corrupt("path length mismatch".into()));
                    }
                    name_len_field
                } else {
                    rest.iter()
                        .position(|&c| c == 0)
                        .ok_or_else(|| IndexError::Corrupt("unterminated path".into()))?
                };
                let name = rest[..nul].to_vec();
                // Entries are padded with 1..8 NULs to a multiple of 8 bytes.
                let entry_len = (r.pos - start + nul + 8) & !7;
                r.pos = start + entry_len;
                if r.pos > body_end {
                    return Err(IndexError::Corrupt("truncated entry".into()));
                }
                name
            };
            if mode & S_IFMT == S_IFDIR {
                return Err(IndexError::Unsupported("sparse index (directory entries); run `git sparse-checkout disable` or set index.sparse=false".into()));
            }
            let dup = entries.last().is_some_and(|e| *e.path == name[..]);
            if !dup {
                if let Some(last) = entries.last()
                    && *last.path > name[..]
                {
                    return Err(IndexError::Corrupt("entries out of order".into()));
                }
                entries.push(IndexEntry {
                    path: name.clone().into_boxed_slice(),
                    mode,
                    skip_worktree,
                });
            }
            prev_name = name;
        }
        // Extensions.
        while r.pos + 8 <= body_end {
            let sig = r.take(4)?;
            let size = r.u32()? as usize;
            if !sig[0].is_ascii_uppercase() {
                let name = String::from_utf8_lossy(sig).into_owned();
                let what = match sig {
                    b"link" => {
                        "split index (extension `link`); run `git update-index --no-split-index`"
                            .to_string()
                    }
                    b"sdir" => "sparse index (extension `sdir`)".to_string(),
                    _ => format!("required extension `{name}`"),
                };
                return Err(IndexError::Unsupported(what));
            }
            r.take(size)?;
        }
        if r.pos != body_end {
            return Err(IndexError::Corrupt("trailing bytes".into()));
        }
        Ok(Index { entries })
    }

    /// Position of the exact path, if present.
    pub fn find(&self, path: &[u8]) -> Option<usize> {
        self.entries.binary_search_by(|e| (*e.path).cmp(path)).ok()
    }

    /// First entry position whose path is `>= key`.
    pub fn lower_bound(&self, key: &[u8]) -> usize {
        self.entries.partition_point(|e| *e.path < *key)
    }

    /// Whether some entry lies under directory `dir` (git's
    /// `directory_exists_in_index` returning `index_directory`).
    pub fn has_dir(&self, dir: &[u8]) -> bool {
        let mut key = dir.to_vec();
        key.push(b'/');
        self.entries.get(self.lower_bound(&key)).is_some_and(|e| e.path.starts_with(&key))
    }

    /// The range of entries at or under directory `prefix` (`""` = all).
    pub fn range_under(&self, prefix: &[u8]) -> std::ops::Range<usize> {
        if prefix.is_empty() {
            return 0..self.entries.len();
        }
        let mut key = prefix.to_vec();
        key.push(b'/');
        let start = self.lower_bound(&key);
        // The paths under the prefix are contiguous from `start` (sorted):
        // a binary search finds their end (a scan was linear in the entries
        // under every directory walked, the whole index at the root).
        let end = start + self.entries[start..].partition_point(|e| e.path.starts_with(&key));
        start..end
    }
}

#[cfg(test)]
mod tests {
    use super::{Index, IndexError};

    fn entry_v2(name: &str, mode: u32, stage: u16) -> Vec<u8> {
        let mut e = vec![0u8; 24];
        e.extend_from_slice(&mode.to_be_bytes());
        e.extend_from_slice(&[0u8; 12]);
        e.extend_from_slice(&[0u8; 20]);
        let flags = (stage << 12) | name.len() as u16;
        e.extend_from_slice(&flags.to_be_bytes());
        e.extend_from_slice(name.as_bytes());
        let len = (e.len() + 8) & !7;
        e.resize(len, 0);
        e
    }

    fn index(version: u32, entries: &[Vec<u8>], ext: &[u8]) -> Vec<u8> {
        let mut d = b"DIRC".to_vec();
        d.extend_from_slice(&version.to_be_bytes());
        d.extend_from_slice(&(entries.len() as u32).to_be_bytes());
        for e in entries {
            d.extend_from_slice(e);
        }
        d.extend_from_slice(ext);
        d.extend_from_slice(&[0u8; 20]);
        d
    }

    #[test]
    fn v2_with_stages_and_gitlink() {
        let data = index(
            2,
            &[
                entry_v2("a", 0o100644, 0),
                entry_v2("b", 0o100644, 1),
                entry_v2("b", 0o100644, 2),
                entry_v2("sub", 0o160000, 0),
            ],
            b"TREE\0\0\0\0",
        );
        let idx = Index::parse(&data, 20).unwrap();
        let names: Vec<_> =
            idx.entries.iter().map(|e| String::from_utf8_lossy(&e.path).into_owned()).collect();
        assert_eq!(names, ["a", "b", "sub"]);
        assert!(idx.entries[2].is_gitlink());
    }

    #[test]
    fn required_extension_is_refused() {
        let data = index(2, &[entry_v2("a", 0o100644, 0)], b"link\0\0\0\0");
        assert!(matches!(Index::parse(&data, 20), Err(IndexError::Unsupported(_))));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for n in 0..64 {
            let data: Vec<u8> = (0..n).map(|i| (i * 37 % 251) as u8).collect();
            let _ = Index::parse(&data, 20);
        }
        let mut data = index(2, &[entry_v2("abc", 0o100644, 0)], b"");
        data.truncate(40);
        assert!(Index::parse(&data, 20).is_err());
    }

    #[test]
    fn bit_flips_do_not_panic() {
        let good = index(
            4,
            &[entry_v2("a/b", 0o100644, 0), entry_v2("a/c", 0o100644, 0)],
            b"TREE\0\0\0\x01x",
        );
        for i in 0..good.len() {
            for bit in 0..8 {
                let mut d = good.clone();
                d[i] ^= 1 << bit;
                let _ = Index::parse(&d, 20);
                let _ = Index::parse(&d, 32);
            }
        }
    }

    #[test]
    fn dir_queries() {
        let data = index(
            2,
            &[
                entry_v2("a/b", 0o100644, 0),
                entry_v2("a/c/d", 0o100644, 0),
                entry_v2("ab", 0o100644, 0),
            ],
            b"",
        );
        let idx = Index::parse(&data, 20).unwrap();
        assert!(idx.has_dir(b"a"));
        assert!(idx.has_dir(b"a/c"));
        assert!(!idx.has_dir(b"ab"));
        assert_eq!(idx.range_under(b"a"), 0..2);
        assert_eq!(idx.find(b"ab"), Some(2));
    }
}
