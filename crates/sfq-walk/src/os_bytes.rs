//! File names as bytes, on every platform. Git's index, ignore rules and the
//! walker's sort speak bytes; on Unix a name *is* its bytes (no copy), on
//! Windows a name is UTF-16 and its bytes are its UTF-8 form (an unpaired
//! surrogate, which no git checkout produces, becomes U+FFFD).

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};

/// The OS string for a name or relative path held as bytes.
#[cfg(unix)]
pub(crate) fn os_str(bytes: &[u8]) -> Cow<'_, OsStr> {
    use std::os::unix::ffi::OsStrExt;
    Cow::Borrowed(OsStr::from_bytes(bytes))
}

/// The OS string for a name or relative path held as bytes.
#[cfg(not(unix))]
pub(crate) fn os_str(bytes: &[u8]) -> Cow<'_, OsStr> {
    match String::from_utf8_lossy(bytes) {
        Cow::Borrowed(s) => Cow::Borrowed(OsStr::new(s)),
        Cow::Owned(s) => Cow::Owned(OsString::from(s)),
    }
}

/// The bytes of a directory entry's name (Linux reads them from the
/// directory itself: see `discovery::dir`).
#[cfg(unix)]
pub(crate) fn into_bytes(name: OsString) -> Vec<u8> {
    use std::os::unix::ffi::OsStringExt;
    name.into_vec()
}

/// The bytes of a directory entry's name.
#[cfg(not(unix))]
pub(crate) fn into_bytes(name: OsString) -> Vec<u8> {
    match name.into_string() {
        Ok(s) => s.into_bytes(),
        Err(name) => name.to_string_lossy().into_owned().into_bytes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_bytes() {
        for name in ["plain.txt", "ünïcödé/ファイル.rs", "a b/c"] {
            let os = os_str(name.as_bytes());
            assert_eq!(&*os, OsStr::new(name));
            assert_eq!(into_bytes(os.into_owned()), name.as_bytes());
        }
    }
}
