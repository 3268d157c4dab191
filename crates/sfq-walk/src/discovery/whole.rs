//! Reading the git index (and a split index's shared file) whole.
//!
//! The bytes are read into memory, never mapped: git and gitoxide map the
//! index, which parses a 44 MB index of 400k entries about 25 ms sooner, but
//! a mapped file truncated in place while it is read faults (SIGBUS), and in
//! an addon that kills the agent's own process. git never truncates its
//! index in place; other tools may, and the walk must not depend on them.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// Reads the file at `path` whole: its bytes and the metadata of the file
/// opened (the inode read, whatever `path` names by then).
pub(crate) fn read(path: &Path) -> io::Result<(Vec<u8>, Metadata)> {
    let mut file = File::open(path)?;
    let meta = file.metadata()?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0).saturating_add(1));
    file.read_to_end(&mut bytes)?;
    Ok((bytes, meta))
}
