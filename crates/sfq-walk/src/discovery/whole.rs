//! Opening the git index (and a split index's shared file) to read it.
//!
//! The bytes are read, a window at a time (see the index parser's
//! `Reader`), never mapped: git and gitoxide map the index, which parses a
//! 44 MB index of 400k entries about 25 ms sooner, but a mapped file
//! truncated in place while it is read faults (SIGBUS), and in an addon that
//! kills the agent's own process. git never truncates its index in place;
//! other tools may, and the walk must not depend on them. Nor is the file
//! read whole first: a million-entry index is 130 MB, most of it stat data
//! and object ids the walk does not use.

use std::fs::{File, Metadata};
use std::io;
#[cfg(test)]
use std::io::Read;
use std::path::Path;

/// Opens the file at `path`: it and the metadata of the file opened (the
/// inode read, whatever `path` names by then).
pub(crate) fn open(path: &Path) -> io::Result<(File, Metadata)> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    Ok((file, meta))
}

/// Reads the file at `path` whole: its bytes and the metadata of the file
/// opened.
#[cfg(test)]
pub(crate) fn read(path: &Path) -> io::Result<(Vec<u8>, Metadata)> {
    let (mut file, meta) = open(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0).saturating_add(1));
    file.read_to_end(&mut bytes)?;
    Ok((bytes, meta))
}
