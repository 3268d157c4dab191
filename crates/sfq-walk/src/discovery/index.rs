//! Reader for git's index file (`.git/index`), versions 2, 3 and 4, as
//! `read-cache.c` reads it.
//!
//! Only what listing needs is kept: each path once (unmerged stages are
//! collapsed) with its mode and its skip-worktree and intent-to-add bits.
//!
//! * v4 prefix-compressed paths (a block start written for the offset table
//!   `IEOT` strips the whole previous path, which reads the same way);
//! * split indexes (`link`): the entries of `$GIT_DIR/sharedindex.<hash>`
//!   with the `link` extension's replace and delete EWAH bitmaps applied and
//!   this file's added entries merged in, as `split-index.c` does;
//! * sparse indexes (`sdir`): directory entries (mode `040000`, path ending
//!   in `/`, skip-worktree set) are kept as such, see
//!   [`IndexEntry::is_sparse_dir`];
//! * optional extensions (signature starting with `A`–`Z`: `TREE`, `REUC`,
//!   `UNTR`, `FSMN`, `EOIE`, `IEOT`, and any future one) are skipped; an
//!   unknown required one (any other first byte) is refused, as git refuses
//!   it ("index uses … extension, which we do not understand").

use std::fmt;
use std::io::Read;

/// Mode bits of a gitlink (submodule) entry.
const S_IFGITLINK: u32 = 0o160000;
const S_IFMT: u32 = 0o170000;
const S_IFDIR: u32 = 0o040000;
const S_IFLNK: u32 = 0o120000;

/// The on-disk flags of an entry (`read-cache-ll.h`).
const CE_EXTENDED: u16 = 0x4000;
const CE_STAGEMASK: u16 = 0x3000;
const CE_NAMEMASK: u16 = 0x0FFF;
/// The extended flags (a second 16-bit word, v3 and later).
const CE_SKIP_WORKTREE: u16 = 0x4000;
const CE_INTENT_TO_ADD: u16 = 0x2000;

/// Why an index could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexError {
    /// The file is not an index, is truncated or is inconsistent.
    Corrupt(String),
    /// The index uses a feature this reader (and git) does not implement.
    Unsupported(String),
    /// A file the index needs (a split index's shared index) could not be read.
    Io(String),
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Corrupt(why) => write!(f, "corrupt git index: {why}"),
            IndexError::Unsupported(why) => write!(f, "unsupported git index: {why}"),
            IndexError::Io(why) => f.write_str(why),
        }
    }
}

fn corrupt(why: &str) -> IndexError {
    IndexError::Corrupt(why.to_string())
}

fn too_large() -> IndexError {
    IndexError::Unsupported("an index whose paths take more than 4 GiB in all".to_string())
}

/// One path of the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// Where its path lies in [`Index::paths`] (see [`Index::path`]): the
    /// path relative to the work-tree top, `/`-separated bytes; a sparse
    /// directory's ends with `/`. (One buffer for every path: a 400k-entry
    /// index is not 400k allocations; sixteen bytes an entry: paths past
    /// 4 GiB in all are refused.)
    start: u32,
    len: u32,
    /// File mode (`0o100644`, `0o100755`, `0o120000`, `0o160000`, or
    /// `0o040000` for a sparse directory).
    pub mode: u32,
    /// The merge stage (0 when merged; the lowest one once collapsed).
    pub stage: u8,
    /// The skip-worktree bit (sparse checkout): not expected on disk.
    pub skip_worktree: bool,
    /// The intent-to-add bit (`git add -N`).
    pub intent_to_add: bool,
}

// A million-entry index holds a million of these.
const _: () = assert!(std::mem::size_of::<IndexEntry>() == 16);

impl IndexEntry {
    /// Whether this is a submodule (gitlink) entry.
    pub fn is_gitlink(&self) -> bool {
        self.mode & S_IFMT == S_IFGITLINK
    }

    /// Whether this is a symbolic link. With `core.symlinks = false` (Git
    /// for Windows' default) it is checked out as a text file holding the
    /// link's target: a link all the same, never listed.
    pub fn is_symlink(&self) -> bool {
        self.mode & S_IFMT == S_IFLNK
    }

    /// Whether this is a sparse directory entry (a sparse index's entry for
    /// a whole directory outside the sparse-checkout cone; git's
    /// `S_ISSPARSEDIR`). Its path ends with `/`.
    pub fn is_sparse_dir(&self) -> bool {
        self.mode & S_IFMT == S_IFDIR
    }
}

/// The parsed index: entries sorted by path bytes, one per path.
#[derive(Debug, Default, Clone)]
pub struct Index {
    /// Entries in git's order (byte order of the path).
    pub entries: Vec<IndexEntry>,
    /// The entries' paths, one after the other.
    paths: Vec<u8>,
}

/// Reads an index file front to back through a window of a few hundred
/// KiB: a million-entry index (130 MB, most of it stat data and object ids
/// the walk does not use) is never held whole beside its parse.
struct Reader<'r> {
    src: &'r mut dyn Read,
    buf: Vec<u8>,
    /// The next byte, in `buf`.
    at: usize,
    /// The end of the bytes read into `buf`.
    filled: usize,
    /// Where `buf[0]` is in the file.
    base: u64,
    /// The file's length.
    len: u64,
    /// The bytes read at a time (at least).
    window: usize,
}

/// The bytes read at a time.
const WINDOW: usize = 256 << 10;

/// Opens a split index's shared index by its name's hash: a reader and
/// the file's length.
pub type OpenShared<'a> = dyn FnMut(&str) -> Result<(Box<dyn Read>, u64), IndexError> + 'a;

impl<'r> Reader<'r> {
    fn new(src: &'r mut dyn Read, len: u64, window: usize) -> Reader<'r> {
        Reader { src, buf: Vec::new(), at: 0, filled: 0, base: 0, len, window: window.max(1) }
    }

    /// Where the next byte is in the file.
    fn pos(&self) -> u64 {
        self.base + self.at as u64
    }

    /// Has `n` bytes from the next one in `buf`.
    fn fill(&mut self, n: usize) -> Result<(), IndexError> {
        if self.filled - self.at >= n {
            return Ok(());
        }
        if self.pos().checked_add(n as u64).is_none_or(|end| end > self.len) {
            return Err(corrupt("truncated"));
        }
        self.buf.copy_within(self.at..self.filled, 0);
        self.base += self.at as u64;
        self.filled -= self.at;
        self.at = 0;
        let room =
            n.max(self.window).min(usize::try_from(self.len - self.base).unwrap_or(usize::MAX));
        if self.buf.len() < room {
            self.buf.resize(room, 0);
        }
        while self.filled < n {
            match self.src.read(&mut self.buf[self.filled..]) {
                Ok(0) => return Err(corrupt("truncated")),
                Ok(k) => self.filled += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(IndexError::Io(format!("cannot read the index: {e}"))),
            }
        }
        Ok(())
    }

    fn take(&mut self, n: usize) -> Result<&[u8], IndexError> {
        self.fill(n)?;
        let s = &self.buf[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    /// Goes past `n` bytes, a window at a time.
    fn skip(&mut self, mut n: u64) -> Result<(), IndexError> {
        while n > 0 {
            let step = usize::try_from(n).unwrap_or(usize::MAX).min(self.window);
            self.take(step)?;
            n -= step as u64;
        }
        Ok(())
    }

    /// The bytes before the next NUL (not past `end`), going past the NUL.
    fn until_nul(&mut self, end: u64) -> Result<&[u8], IndexError> {
        let mut looked = 0;
        loop {
            if let Some(i) = self.buf[self.at + looked..self.filled].iter().position(|&c| c == 0) {
                let n = looked + i;
                if self.pos() + n as u64 >= end {
                    return Err(corrupt("unterminated path"));
                }
                let s = &self.buf[self.at..self.at + n];
                self.at += n + 1;
                return Ok(s);
            }
            looked = self.filled - self.at;
            if self.pos() + looked as u64 >= end {
                return Err(corrupt("unterminated path"));
            }
            self.fill(looked + 1)?;
        }
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
                .ok_or_else(|| corrupt("varint overflow"))?;
        }
        Ok(val)
    }
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// An EWAH-compressed bitmap as git writes it (`ewah/ewah_io.c`): the bit
/// count, the number of 64-bit words, the words, the position of the last
/// run-length word.
struct Ewah<'a> {
    /// The words, big-endian.
    words: &'a [u8],
}

impl<'a> Ewah<'a> {
    /// Reads one bitmap at the start of `data`: it and the bytes it took
    /// (git's `ewah_read_mmap`).
    fn read(data: &'a [u8]) -> Result<(Ewah<'a>, usize), IndexError> {
        if data.len() < 8 {
            return Err(corrupt("ewah bitmap: eof before length"));
        }
        let words = be32(&data[4..8]) as usize;
        let end = words
            .checked_mul(8)
            .and_then(|n| n.checked_add(8))
            .filter(|&e| e <= data.len())
            .ok_or_else(|| corrupt("ewah bitmap: eof in data"))?;
        if data.len() < end + 4 {
            return Err(corrupt("ewah bitmap: eof before rlw"));
        }
        Ok((Ewah { words: &data[8..end] }, end + 4))
    }

    fn word(&self, i: usize) -> u64 {
        let b = &self.words[i * 8..i * 8 + 8];
        u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }

    /// Calls `f` with the position of each set bit, in increasing order
    /// (git's `ewah_each_bit`). Stops at `f`'s first error.
    fn each_bit(
        &self,
        mut f: impl FnMut(usize) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        let n = self.words.len() / 8;
        let overflow = || corrupt("ewah bitmap: position overflow");
        let mut pos: usize = 0;
        let mut p = 0;
        while p < n {
            let rlw = self.word(p);
            // A run-length word: the run's bit, its length in words (32
            // bits), then the number of literal words following (31 bits).
            let run = ((rlw >> 1) & 0xFFFF_FFFF) as usize * 64;
            let literals = (rlw >> 33) as usize;
            if rlw & 1 != 0 {
                for _ in 0..run {
                    f(pos)?;
                    pos = pos.checked_add(1).ok_or_else(overflow)?;
                }
            } else {
                pos = pos.checked_add(run).ok_or_else(overflow)?;
            }
            p += 1;
            for _ in 0..literals {
                if p >= n {
                    return Err(corrupt("ewah bitmap: literal words past the end"));
                }
                let mut bits = self.word(p);
                while bits != 0 {
                    f(pos + bits.trailing_zeros() as usize)?;
                    bits &= bits - 1;
                }
                pos = pos.checked_add(64).ok_or_else(overflow)?;
                p += 1;
            }
        }
        Ok(())
    }
}

/// The `link` extension of a split index.
struct Link<'a> {
    /// The shared index's checksum (all zero: no shared index).
    base: &'a [u8],
    delete: Option<Ewah<'a>>,
    replace: Option<Ewah<'a>>,
}

impl<'a> Link<'a> {
    /// git's `read_link_extension`.
    fn read(data: &'a [u8], hash_len: usize) -> Result<Link<'a>, IndexError> {
        if data.len() < hash_len {
            return Err(corrupt("link extension too short"));
        }
        let (base, rest) = data.split_at(hash_len);
        if rest.is_empty() {
            return Ok(Link { base, delete: None, replace: None });
        }
        let (delete, n) = Ewah::read(rest)?;
        let rest = &rest[n..];
        let (replace, m) = Ewah::read(rest)?;
        if m != rest.len() {
            return Err(corrupt("garbage at the end of the link extension"));
        }
        Ok(Link { base, delete: Some(delete), replace: Some(replace) })
    }
}

/// One index file as stored: its entries in file order (a split index's
/// replacement entries have empty paths), their paths and its `link`
/// extension.
struct RawIndex {
    entries: Vec<IndexEntry>,
    paths: Vec<u8>,
    /// The `link` extension's bytes (see [`Link::read`]).
    link: Option<Vec<u8>>,
    /// The file's trailing checksum.
    checksum: Vec<u8>,
}

impl RawIndex {
    fn path(&self, e: &IndexEntry) -> &[u8] {
        &self.paths[e.start as usize..e.start as usize + e.len as usize]
    }
}

/// Parses the index of `len` bytes `src` reads.
fn parse_raw(src: &mut dyn Read, len: u64, hash_len: usize) -> Result<RawIndex, IndexError> {
    parse_raw_in(src, len, hash_len, WINDOW)
}

/// [`parse_raw`], reading `window` bytes at a time.
fn parse_raw_in(
    src: &mut dyn Read,
    len: u64,
    hash_len: usize,
    window: usize,
) -> Result<RawIndex, IndexError> {
    let mut r = Reader::new(src, len, window);
    if r.take(4)? != b"DIRC" {
        return Err(corrupt("bad signature"));
    }
    let version = r.u32()?;
    if !(2..=4).contains(&version) {
        return Err(IndexError::Unsupported(format!("index version {version}")));
    }
    let count = r.u32()? as usize;
    if len < 12 + hash_len as u64 {
        return Err(corrupt("truncated"));
    }
    let body_end = len - hash_len as u64;
    // Each entry takes at least 62 bytes (SHA-1): bound the allocations.
    let bound = usize::try_from(len).unwrap_or(usize::MAX);
    let mut entries: Vec<IndexEntry> = Vec::with_capacity(count.min(bound / 62 + 1));
    let mut paths: Vec<u8> = Vec::with_capacity(bound.saturating_sub(12) / 2);
    // v4: where the previous entry's path starts in `paths`.
    let mut prev: (usize, usize) = (0, 0);
    let fixed = 40 + hash_len + 2;
    for _ in 0..count {
        let start = r.pos();
        let head = r.take(fixed)?;
        let mode = be32(&head[24..28]);
        let flags = u16::from_be_bytes([head[fixed - 2], head[fixed - 1]]);
        let (mut skip_worktree, mut intent_to_add) = (false, false);
        if flags & CE_EXTENDED != 0 {
            // git reads the extended word whatever the version says.
            let ext = r.u16()?;
            if ext & !(CE_SKIP_WORKTREE | CE_INTENT_TO_ADD) != 0 {
                return Err(IndexError::Corrupt(format!(
                    "unknown index entry format 0x{:08x}",
                    u32::from(ext) << 16
                )));
            }
            skip_worktree = ext & CE_SKIP_WORKTREE != 0;
            intent_to_add = ext & CE_INTENT_TO_ADD != 0;
        }
        let name_len_field = (flags & CE_NAMEMASK) as usize;
        let path_start = paths.len();
        if version == 4 {
            // The previous path minus `strip` bytes, then this entry's suffix.
            let strip = r.varint()?;
            if strip > prev.1 {
                return Err(corrupt("malformed name field (v4 prefix)"));
            }
            paths.extend_from_within(prev.0..prev.0 + prev.1 - strip);
            paths.extend_from_slice(r.until_nul(body_end)?);
        } else {
            let name_at = r.pos();
            let nul = if name_len_field < CE_NAMEMASK as usize {
                if r.pos() + name_len_field as u64 >= body_end {
                    return Err(corrupt("path length mismatch"));
                }
                let name = r.take(name_len_field + 1)?;
                if name[name_len_field] != 0 {
                    return Err(corrupt("path length mismatch"));
                }
                paths.extend_from_slice(&name[..name_len_field]);
                name_len_field
            } else {
                let name = r.until_nul(body_end)?;
                paths.extend_from_slice(name);
                name.len()
            };
            // Entries are padded with 1..8 NULs to a multiple of 8 bytes.
            let entry_end = start + ((name_at - start + nul as u64 + 8) & !7);
            if entry_end > body_end {
                return Err(corrupt("truncated entry"));
            }
            r.skip(entry_end - r.pos())?;
        }
        let len = paths.len() - path_start;
        prev = (path_start, len);
        let len = u32::try_from(len).map_err(|_| corrupt("path too long"))?;
        let stage = ((flags & CE_STAGEMASK) >> 12) as u8;
        entries.push(IndexEntry {
            start: u32::try_from(path_start).map_err(|_| too_large())?,
            len,
            mode,
            stage,
            skip_worktree,
            intent_to_add,
        });
    }
    // Extensions (git's `load_index_extensions`: fewer than 8 bytes left
    // before the checksum are not one).
    let mut link = None;
    while r.pos() + 8 <= body_end {
        let head = r.take(8)?;
        let sig = [head[0], head[1], head[2], head[3]];
        let size = u64::from(be32(&head[4..8]));
        if body_end - r.pos() < size {
            return Err(corrupt("truncated extension"));
        }
        match &sig {
            b"link" => link = Some(r.take(size as usize)?.to_vec()),
            // A sparse index: nothing but a marker (its directory entries
            // are read above).
            b"sdir" => r.skip(size)?,
            // Optional: TREE, REUC, UNTR, FSMN, EOIE, IEOT and any other.
            _ if sig[0].is_ascii_uppercase() => r.skip(size)?,
            _ => {
                return Err(IndexError::Unsupported(format!(
                    "index uses the `{}` extension, which git does not understand either \
                     (a newer git wrote it?)",
                    String::from_utf8_lossy(&sig)
                )));
            }
        }
    }
    r.skip(body_end - r.pos())?;
    let checksum = r.take(hash_len)?.to_vec();
    Ok(RawIndex { entries, paths, link, checksum })
}

/// git's `merge_base_index`: the shared index's entries, with the replace
/// and delete bitmaps applied, and the split index's added entries merged
/// in. Returns the entries and their paths.
fn merge_split(
    mut base: RawIndex,
    split: RawIndex,
    link: &Link<'_>,
) -> Result<(Vec<IndexEntry>, Vec<u8>), IndexError> {
    let mut replaced = 0usize;
    if let Some(replace) = &link.replace {
        replace.each_bit(|pos| {
            let dst = base
                .entries
                .get_mut(pos)
                .ok_or_else(|| corrupt("position for replacement exceeds base index size"))?;
            let src =
                split.entries.get(replaced).ok_or_else(|| corrupt("too many replacements"))?;
            if src.len != 0 {
                return Err(corrupt("a replacement entry should have an empty path"));
            }
            // The entry keeps its path, takes everything else.
            dst.mode = src.mode;
            dst.stage = src.stage;
            dst.skip_worktree = src.skip_worktree;
            dst.intent_to_add = src.intent_to_add;
            replaced += 1;
            Ok(())
        })?;
    }
    let mut removed = vec![false; base.entries.len()];
    if let Some(delete) = &link.delete {
        delete.each_bit(|pos| {
            *removed
                .get_mut(pos)
                .ok_or_else(|| corrupt("position for delete exceeds base index size"))? = true;
            Ok(())
        })?;
    }
    let added = &split.entries[replaced.min(split.entries.len())..];
    if added.iter().any(|e| e.len == 0) {
        return Err(corrupt("an added entry of a split index has an empty path"));
    }
    // The merged entries keep their paths where they are: the shared
    // index's buffer, then the split index's appended to it.
    let shift = u32::try_from(base.paths.len()).map_err(|_| too_large())?;
    if u32::try_from(base.paths.len() + split.paths.len()).is_err() {
        return Err(too_large());
    }
    let mut entries = Vec::with_capacity(base.entries.len() + added.len());
    let mut kept =
        base.entries.iter().zip(&removed).filter(|(_, r)| !**r).map(|(e, _)| e).peekable();
    let mut added = added.iter().peekable();
    loop {
        // git's add_index_entry: an added entry replaces the same path and
        // stage (a stage-0 one also its unmerged stages, which collapsing
        // to the lowest stage does).
        let from_added = match (kept.peek(), added.peek()) {
            (None, None) => break,
            (Some(_), None) => false,
            (None, Some(_)) => true,
            (Some(&k), Some(&a)) => {
                match base.path(k).cmp(split.path(a)).then(k.stage.cmp(&a.stage)) {
                    std::cmp::Ordering::Less => false,
                    std::cmp::Ordering::Greater => true,
                    std::cmp::Ordering::Equal => {
                        kept.next();
                        true
                    }
                }
            }
        };
        if from_added {
            entries
                .extend(added.next().map(|a| IndexEntry { start: a.start + shift, ..a.clone() }));
        } else {
            entries.extend(kept.next().cloned());
        }
    }
    drop(kept);
    let mut paths = base.paths;
    paths.extend_from_slice(&split.paths);
    Ok((entries, paths))
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Index {
    /// Parses an index file's bytes. `hash_len` is 20 for SHA-1 repositories
    /// and 32 for SHA-256 ones. A split index fails (see [`Index::parse_split`]).
    #[cfg(test)]
    pub fn parse(data: &[u8], hash_len: usize) -> Result<Index, IndexError> {
        Self::parse_split(data, hash_len, &mut |hex| -> Result<Vec<u8>, IndexError> {
            Err(IndexError::Io(format!("no shared index sharedindex.{hex}")))
        })
    }

    /// Parses an index file's bytes; for a split index, `shared(hex)` reads
    /// the shared index `sharedindex.<hex>`.
    #[cfg(test)]
    pub fn parse_split<B: AsRef<[u8]>>(
        data: &[u8],
        hash_len: usize,
        shared: &mut dyn FnMut(&str) -> Result<B, IndexError>,
    ) -> Result<Index, IndexError> {
        Self::read(&mut &data[..], data.len() as u64, hash_len, &mut |hex| {
            let bytes = shared(hex)?.as_ref().to_vec();
            let len = bytes.len() as u64;
            Ok((Box::new(std::io::Cursor::new(bytes)) as Box<dyn Read>, len))
        })
    }

    /// Parses the index of `len` bytes `src` reads, a window at a time; for
    /// a split index, `shared(hex)` opens the shared index
    /// `sharedindex.<hex>` (a reader and its length).
    pub fn read(
        src: &mut dyn Read,
        len: u64,
        hash_len: usize,
        shared: &mut OpenShared<'_>,
    ) -> Result<Index, IndexError> {
        let mut raw = parse_raw(src, len, hash_len)?;
        let link_data = raw.link.take();
        let link = link_data.as_deref().map(|d| Link::read(d, hash_len)).transpose()?;
        let (mut entries, paths) = match &link {
            Some(link) if link.base.iter().any(|&b| b != 0) => {
                let hex = to_hex(link.base);
                let (mut shared_src, shared_len) = shared(&hex)?;
                let base = parse_raw(&mut *shared_src, shared_len, hash_len)?;
                if base.checksum != link.base {
                    return Err(IndexError::Corrupt(format!(
                        "broken split index: sharedindex.{hex} does not hold the index {hex}"
                    )));
                }
                merge_split(base, raw, link)?
            }
            _ => (raw.entries, raw.paths),
        };
        let path = |e: &IndexEntry| &paths[e.start as usize..e.start as usize + e.len as usize];
        // git's check_ce_order, by path only (unmerged stages collapse).
        if entries.windows(2).any(|w| path(&w[0]) > path(&w[1])) {
            return Err(corrupt("entries out of order"));
        }
        if entries.iter().any(|e| e.is_sparse_dir() && path(e).last() != Some(&b'/')) {
            return Err(corrupt("a directory entry whose path does not end with '/'"));
        }
        // One entry per path: the lowest stage.
        entries.dedup_by(|b, a| path(a) == path(b));
        Ok(Index { entries, paths })
    }

    /// The path of entry `i`.
    pub fn path(&self, i: usize) -> &[u8] {
        let e = &self.entries[i];
        &self.paths[e.start as usize..e.start as usize + e.len as usize]
    }

    /// Position of the exact path, if present.
    pub fn find(&self, path: &[u8]) -> Option<usize> {
        self.entries.binary_search_by(|e| self.path_of(e).cmp(path)).ok()
    }

    fn path_of(&self, e: &IndexEntry) -> &[u8] {
        &self.paths[e.start as usize..e.start as usize + e.len as usize]
    }

    /// First entry position whose path is `>= key`.
    pub fn lower_bound(&self, key: &[u8]) -> usize {
        self.entries.partition_point(|e| self.path_of(e) < key)
    }

    /// The end of the run of entries from `start` (before `end`) whose
    /// paths start with `prefix`.
    pub fn prefix_end(&self, start: usize, end: usize, prefix: &[u8]) -> usize {
        start + self.entries[start..end].partition_point(|e| self.path_of(e).starts_with(prefix))
    }

    /// Whether some entry lies under directory `dir` (git's
    /// `directory_exists_in_index` returning `index_directory`; a sparse
    /// directory entry `dir/` counts).
    pub fn has_dir(&self, dir: &[u8]) -> bool {
        let mut key = dir.to_vec();
        key.push(b'/');
        let at = self.lower_bound(&key);
        at < self.entries.len() && self.path(at).starts_with(&key)
    }

    /// The range of entries at or under directory `prefix` (`""` = all; a
    /// sparse directory entry `prefix/` included).
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
        start..self.prefix_end(start, self.entries.len(), &key)
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
        let names: Vec<_> = (0..idx.entries.len())
            .map(|i| String::from_utf8_lossy(idx.path(i)).into_owned())
            .collect();
        assert_eq!(names, ["a", "b", "sub"]);
        assert!(idx.entries[2].is_gitlink());
    }

    /// An entry with extended flags (v3+) when `ext` is given; in v4 form
    /// (`strip` bytes removed from the previous path, then `suffix`) when
    /// `strip` is given.
    fn entry(suffix: &str, mode: u32, stage: u16, ext: Option<u16>, strip: Option<u8>) -> Vec<u8> {
        let mut e = vec![0u8; 24];
        e.extend_from_slice(&mode.to_be_bytes());
        e.extend_from_slice(&[0u8; 12]);
        e.extend_from_slice(&[0u8; 20]);
        // (The length field is the full path's; this reader does not use it
        // in v4, where only test paths shorter than 0xFFF appear.)
        let mut flags = (stage << 12) | suffix.len() as u16;
        if ext.is_some() {
            flags |= 0x4000;
        }
        e.extend_from_slice(&flags.to_be_bytes());
        if let Some(x) = ext {
            e.extend_from_slice(&x.to_be_bytes());
        }
        if let Some(n) = strip {
            e.push(n);
            e.extend_from_slice(suffix.as_bytes());
            e.push(0);
        } else {
            e.extend_from_slice(suffix.as_bytes());
            let len = (e.len() + 8) & !7;
            e.resize(len, 0);
        }
        e
    }

    fn index_with_checksum(
        version: u32,
        entries: &[Vec<u8>],
        ext: &[u8],
        sum: [u8; 20],
    ) -> Vec<u8> {
        let mut d = index(version, entries, ext);
        let n = d.len();
        d[n - 20..].copy_from_slice(&sum);
        d
    }

    fn names(idx: &Index) -> Vec<String> {
        (0..idx.entries.len()).map(|i| String::from_utf8_lossy(idx.path(i)).into_owned()).collect()
    }

    /// git's EWAH serialization of 64-bit `words`.
    fn ewah(bits: u32, words: &[u64]) -> Vec<u8> {
        let mut d = bits.to_be_bytes().to_vec();
        d.extend_from_slice(&(words.len() as u32).to_be_bytes());
        for w in words {
            d.extend_from_slice(&w.to_be_bytes());
        }
        d.extend_from_slice(&0u32.to_be_bytes());
        d
    }

    /// A run-length word: `run` words of `bit`, then `literals` literal words.
    fn rlw(bit: bool, run: u64, literals: u64) -> u64 {
        u64::from(bit) | (run << 1) | (literals << 33)
    }

    #[test]
    fn ewah_bits_in_order() {
        let data = ewah(
            300,
            &[rlw(false, 0, 2), 0b101, 1 << 1, rlw(true, 1, 0), rlw(false, 1, 1), 1 << 3],
        );
        let (bitmap, used) = super::Ewah::read(&data).unwrap();
        assert_eq!(used, data.len());
        let mut bits = Vec::new();
        bitmap
            .each_bit(|b| {
                bits.push(b);
                Ok(())
            })
            .unwrap();
        let mut want = vec![0, 2, 65];
        want.extend(128..192);
        want.push(192 + 64 + 3);
        assert_eq!(bits, want);
        // Literal words announced past the end: an error, not a read past it.
        let short = ewah(64, &[rlw(false, 0, 2), 1]);
        let (bad, _) = super::Ewah::read(&short).unwrap();
        assert!(bad.each_bit(|_| Ok(())).is_err());
        assert!(super::Ewah::read(&data[..data.len() - 1]).is_err());
    }

    #[test]
    fn split_index_merges_its_shared_index() {
        let sum = [7u8; 20];
        let shared = index_with_checksum(
            2,
            &[
                entry_v2("a", 0o100644, 0),
                entry_v2("b", 0o100644, 0),
                entry_v2("c", 0o100644, 0),
                entry_v2("d", 0o100644, 0),
                entry_v2("e", 0o100644, 1),
                entry_v2("e", 0o100644, 2),
            ],
            b"TREE\0\0\0\0",
            sum,
        );
        // Replace b (now executable, skip-worktree), delete c, add bb, a
        // resolved e (stage 0: its unmerged stages go) and f.
        let mut link = sum.to_vec();
        link.extend(ewah(6, &[rlw(false, 0, 1), 1 << 2]));
        link.extend(ewah(6, &[rlw(false, 0, 1), 1 << 1]));
        let mut ext = b"link".to_vec();
        ext.extend_from_slice(&(link.len() as u32).to_be_bytes());
        ext.extend(link);
        let split = index(
            3,
            &[
                entry("", 0o100755, 0, Some(0x4000), None),
                entry_v2("bb", 0o100644, 0),
                entry_v2("e", 0o100644, 0),
                entry_v2("f", 0o100644, 0),
            ],
            &ext,
        );
        let mut asked = Vec::new();
        let idx = Index::parse_split(&split, 20, &mut |hex| {
            asked.push(hex.to_string());
            Ok::<_, IndexError>(shared.clone())
        })
        .unwrap();
        assert_eq!(asked, ["07".repeat(20)]);
        assert_eq!(names(&idx), ["a", "b", "bb", "d", "e", "f"]);
        let b = &idx.entries[1];
        assert_eq!((b.mode, b.skip_worktree), (0o100755, true));
        assert_eq!(idx.entries[4].stage, 0);
        // Without its shared index, or with another one, it is refused.
        assert!(matches!(Index::parse(&split, 20), Err(IndexError::Io(_))));
        let other = index_with_checksum(2, &[entry_v2("a", 0o100644, 0)], b"", [8; 20]);
        let mut wrong = |_: &str| Ok::<_, IndexError>(other.clone());
        assert!(matches!(Index::parse_split(&split, 20, &mut wrong), Err(IndexError::Corrupt(_))));
        // Positions past the shared index's end.
        let mut link = sum.to_vec();
        link.extend(ewah(64, &[rlw(false, 0, 1), 1 << 40]));
        link.extend(ewah(0, &[]));
        let mut ext = b"link".to_vec();
        ext.extend_from_slice(&(link.len() as u32).to_be_bytes());
        ext.extend(link);
        let bad = index(2, &[], &ext);
        let mut good = |_: &str| Ok::<_, IndexError>(shared.clone());
        assert!(matches!(Index::parse_split(&bad, 20, &mut good), Err(IndexError::Corrupt(_))));
        // A null shared index: the entries are the file's own.
        let mut ext = b"link".to_vec();
        ext.extend_from_slice(&20u32.to_be_bytes());
        ext.extend_from_slice(&[0u8; 20]);
        let alone = index(2, &[entry_v2("x", 0o100644, 0)], &ext);
        assert_eq!(names(&Index::parse(&alone, 20).unwrap()), ["x"]);
    }

    #[test]
    fn sparse_directories_and_extended_flags() {
        let data = index(
            3,
            &[
                entry_v2("a.txt", 0o100644, 0),
                entry("a/", 0o040000, 0, Some(0x4000), None),
                entry("b/c.txt", 0o100644, 0, Some(0x2000), None),
            ],
            b"sdir\0\0\0\0",
        );
        let idx = Index::parse(&data, 20).unwrap();
        assert_eq!(names(&idx), ["a.txt", "a/", "b/c.txt"]);
        assert!(idx.entries[1].is_sparse_dir() && idx.entries[1].skip_worktree);
        assert!(idx.entries[2].intent_to_add && !idx.entries[2].skip_worktree);
        assert!(idx.has_dir(b"a"));
        assert_eq!(idx.range_under(b"a"), 1..2);
        // A directory entry must end with '/'; unknown extended bits are
        // refused as git refuses them.
        let no_slash = index(3, &[entry("a", 0o040000, 0, Some(0x4000), None)], b"");
        assert!(matches!(Index::parse(&no_slash, 20), Err(IndexError::Corrupt(_))));
        let unknown = index(3, &[entry("a", 0o100644, 0, Some(0x1000), None)], b"");
        assert!(matches!(Index::parse(&unknown, 20), Err(IndexError::Corrupt(_))));
    }

    #[test]
    fn v4_paths_and_block_restarts() {
        // The offset table's blocks restart the compression: the whole
        // previous path is stripped.
        let data = index(
            4,
            &[
                entry("dir/a.txt", 0o100644, 0, None, Some(0)),
                entry("b.txt", 0o100644, 0, Some(0x4000), Some(5)),
                entry("dir/c.txt", 0o100644, 0, None, Some(9)),
                entry("e/f", 0o100644, 0, None, Some(5)),
            ],
            b"",
        );
        let idx = Index::parse(&data, 20).unwrap();
        assert_eq!(names(&idx), ["dir/a.txt", "dir/b.txt", "dir/c.txt", "dir/e/f"]);
        assert!(idx.entries[1].skip_worktree);
        let bad = index(4, &[entry("x", 0o100644, 0, None, Some(1))], b"");
        assert!(Index::parse(&bad, 20).is_err());
    }

    #[test]
    fn extensions_optional_skipped_required_refused() {
        let one = [entry_v2("a", 0o100644, 0)];
        for ext in [
            &b"TREE\0\0\0\0"[..],
            b"REUC\0\0\0\0UNTR\0\0\0\x02xyFSMN\0\0\0\0",
            b"EOIE\0\0\0\x18012345678901234567890123IEOT\0\0\0\0",
            b"ZZZZ\0\0\0\x01z",
            // Fewer than 8 bytes before the checksum are no extension (git).
            b"\0\0\0",
        ] {
            assert_eq!(names(&Index::parse(&index(2, &one, ext), 20).unwrap()), ["a"]);
        }
        for ext in [&b"abcd\0\0\0\0"[..], b"1234\0\0\0\0", b"TREE\0\0\0\0zzzz\0\0\0\0"] {
            match Index::parse(&index(2, &one, ext), 20) {
                Err(IndexError::Unsupported(why)) => assert!(why.contains("extension"), "{why}"),
                other => panic!("{other:?}"),
            }
        }
        // A truncated extension, a link extension too short.
        assert!(Index::parse(&index(2, &one, b"TREE\0\0\0\x09x"), 20).is_err());
        assert!(matches!(
            Index::parse(&index(2, &one, b"link\0\0\0\0"), 20),
            Err(IndexError::Corrupt(_))
        ));
    }

    /// The index as read a few bytes at a time: entries and paths across
    /// window ends, long paths, extensions skipped and kept.
    #[test]
    fn any_window_reads_the_same() {
        let long = "d/".repeat(2100) + "f";
        // A path of 0xFFF bytes or more: its length field says 0xFFF.
        let mut long_entry = entry_v2(&long, 0o100644, 0);
        long_entry[60..62].copy_from_slice(&0x0FFFu16.to_be_bytes());
        let blobs = [
            index(
                2,
                &[entry_v2("a", 0o100644, 0), entry_v2("bb/c", 0o100644, 1), long_entry],
                b"TREE\0\0\0\x03xyzUNTR\0\0\0\x00",
            ),
            index(
                3,
                &[
                    entry("a/b", 0o100644, 0, Some(0x4000), None),
                    entry("a/c", 0o100644, 0, None, None),
                ],
                b"",
            ),
            index(
                4,
                &[
                    entry("src/a.rs", 0o100644, 0, None, Some(0)),
                    entry("b.rs", 0o100644, 0, None, Some(4)),
                    entry("tests/x", 0o100644, 0, None, Some(8)),
                ],
                &[b"link\0\0\0\x14".as_slice(), &[0u8; 20]].concat(),
            ),
        ];
        for data in &blobs {
            let whole = super::parse_raw(&mut &data[..], data.len() as u64, 20).expect("parses");
            for window in (1..=17).chain([64, 4096]) {
                let r = super::parse_raw_in(&mut &data[..], data.len() as u64, 20, window)
                    .expect("parses in windows");
                assert_eq!(
                    (&r.entries, &r.paths, &r.link),
                    (&whole.entries, &whole.paths, &whole.link)
                );
                assert_eq!(r.checksum, whole.checksum);
            }
            // Cut short anywhere: an error, never a panic (or, cut between
            // extensions, the same entries).
            for cut in 0..data.len() {
                for window in [1, 5, 64] {
                    let part = &data[..cut];
                    if let Ok(r) = super::parse_raw_in(&mut &part[..], cut as u64, 20, window) {
                        assert_eq!((&r.entries, &r.paths), (&whole.entries, &whole.paths), "{cut}");
                    }
                }
            }
        }
        assert_eq!(
            names(&Index::parse(&blobs[2], 20).unwrap()),
            ["src/a.rs", "src/b.rs", "tests/x"]
        );
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
                let _ = super::parse_raw_in(&mut &d[..], d.len() as u64, 20, 3);
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

    /// The load time of a 400,000-entry index (a generated tree: 2 to 6
    /// directory levels, about 45-byte paths; a 44 MB v2 file), as v2, v4
    /// and split (with 1,000 removals, 1,000 additions and 400
    /// replacements): `cargo test --release -p sfq-walk --lib -- --ignored
    /// load_400k --nocapture`. Each figure is the median of 11 loads (read
    /// read, parsed, dropped; by the walk's reader and by `std::fs::read`),
    /// the file in the page cache.
    #[test]
    #[ignore = "a benchmark: run it in release mode"]
    fn load_400k_entries() {
        use std::process::Command;
        use std::time::Instant;
        let dir = std::env::temp_dir().join(format!("sfq-index-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let git = |args: &[&str], input: &str| {
            use std::io::Write;
            let mut child = Command::new("git")
                .args(args)
                .current_dir(&dir)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .stdin(std::process::Stdio::piped())
                .spawn()
                .expect("git");
            child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
            assert!(child.wait().expect("git").success(), "git {args:?}");
        };
        git(&["init", "-q"], "");
        let words = ["src", "lib", "components", "utils", "packages", "app", "core", "test"];
        let mut seed = 1u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut paths = std::collections::BTreeSet::new();
        while paths.len() < 400_000 {
            let depth = 2 + next(5);
            let mut p = String::new();
            for _ in 0..depth {
                p.push_str(words[next(words.len() as u64) as usize]);
                p.push_str(&next(40).to_string());
                p.push('/');
            }
            p.push_str(&format!("file_{}.ts", next(100_000)));
            paths.insert(p);
        }
        let empty = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
        let info: String = paths.iter().map(|p| format!("100644 {empty}\t{p}\n")).collect();
        git(&["update-index", "--index-info"], &info);
        let index_path = dir.join(".git/index");
        let git_dir = dir.join(".git");
        let time = |label: &str| {
            let mut mapped = Vec::new();
            let mut copied = Vec::new();
            let mut entries = 0;
            for _ in 0..11 {
                let t = Instant::now();
                let (data, _) = crate::discovery::whole::read(&index_path).expect("read");
                let mut shared = |hex: &str| {
                    crate::discovery::whole::read(&git_dir.join(format!("sharedindex.{hex}")))
                        .map(|(b, _)| b)
                        .map_err(|e| IndexError::Io(e.to_string()))
                };
                entries = Index::parse_split(&data, 20, &mut shared).expect("parse").entries.len();
                mapped.push(t.elapsed().as_secs_f64() * 1000.0);
                let t = Instant::now();
                let data = std::fs::read(&index_path).expect("read");
                let mut shared = |hex: &str| {
                    std::fs::read(git_dir.join(format!("sharedindex.{hex}")))
                        .map_err(|e| IndexError::Io(e.to_string()))
                };
                let n = Index::parse_split(&data, 20, &mut shared).expect("parse").entries.len();
                assert_eq!(n, entries);
                copied.push(t.elapsed().as_secs_f64() * 1000.0);
            }
            mapped.sort_by(f64::total_cmp);
            copied.sort_by(f64::total_cmp);
            let size = std::fs::metadata(&index_path).expect("meta").len();
            eprintln!(
                "{label}: {entries} entries, index file {size} bytes: whole::read {:.1} ms, fs::read {:.1} ms (medians; min {:.1} / {:.1})",
                mapped[5], copied[5], mapped[0], copied[0]
            );
        };
        time("v2");
        git(&["update-index", "--index-version", "4"], "");
        time("v4");
        git(&["update-index", "--index-version", "2"], "");
        git(&["update-index", "--split-index"], "");
        let list: Vec<&String> = paths.iter().collect();
        let mut changes = String::new();
        for p in list.iter().step_by(400) {
            changes.push_str(&format!("0 {}\t{p}\n", "0".repeat(40)));
        }
        for i in 0..1000 {
            changes.push_str(&format!("100644 {empty}\tnew/f{i:05}.ts\n"));
        }
        for p in list.iter().skip(1).step_by(997) {
            changes.push_str(&format!("100755 {empty}\t{p}\n"));
        }
        git(&["update-index", "--index-info"], &changes);
        time("split");
        std::fs::remove_dir_all(&dir).ok();
    }
}
