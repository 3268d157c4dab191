//! The flags of a regular expression (`dgimsuvy`), parsed as `new RegExp(p, flags)` does.

use std::fmt;

use crate::error::Error;

/// The flags of a regular expression, as in `new RegExp(pattern, flags)`.
///
/// Only `i m s u v` change what matches. `g` and `d` are recorded and change nothing in
/// this crate (every search API already reports every match with its position). `y`
/// (sticky) makes [`Regex::find_at`](crate::Regex::find_at) match only at the start
/// position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    /// `d`: hasIndices.
    pub has_indices: bool,
    /// `g`: global.
    pub global: bool,
    /// `i`: ignoreCase.
    pub ignore_case: bool,
    /// `m`: multiline (`^` and `$` also match at line terminators).
    pub multiline: bool,
    /// `s`: dotAll (`.` also matches line terminators).
    pub dot_all: bool,
    /// `u`: unicode (the pattern and the text are code points, strict syntax).
    pub unicode: bool,
    /// `v`: unicodeSets (like `u`, plus set operations and strings in classes).
    pub unicode_sets: bool,
    /// `y`: sticky (a match must start exactly at the start position).
    pub sticky: bool,
}

impl Flags {
    /// Parses a flags string as V8 does: each of `dgimsuvy` at most once, and not both `u`
    /// and `v`. Anything else is the error `Invalid flags supplied to RegExp constructor
    /// '<flags>'`.
    pub fn parse(flags: &str) -> Result<Flags, Error> {
        let mut f = Flags::default();
        for c in flags.chars() {
            let slot = match c {
                'd' => &mut f.has_indices,
                'g' => &mut f.global,
                'i' => &mut f.ignore_case,
                'm' => &mut f.multiline,
                's' => &mut f.dot_all,
                'u' => &mut f.unicode,
                'v' => &mut f.unicode_sets,
                'y' => &mut f.sticky,
                _ => return Err(Error::invalid_flags(flags)),
            };
            if *slot {
                return Err(Error::invalid_flags(flags));
            }
            *slot = true;
        }
        if f.unicode && f.unicode_sets {
            return Err(Error::invalid_flags(flags));
        }
        Ok(f)
    }

    /// Whether the pattern is in Unicode mode (`u` or `v`): the pattern and the text are
    /// read as code points, and the stricter syntax applies.
    pub fn unicode_mode(&self) -> bool {
        self.unicode || self.unicode_sets
    }
}

/// Formats the flags in V8's canonical order (`dgimsuvy`), as `RegExp.prototype.flags` and
/// V8's error messages show them.
impl fmt::Display for Flags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let all = [
            (self.has_indices, 'd'),
            (self.global, 'g'),
            (self.ignore_case, 'i'),
            (self.multiline, 'm'),
            (self.dot_all, 's'),
            (self.unicode, 'u'),
            (self.unicode_sets, 'v'),
            (self.sticky, 'y'),
        ];
        for (on, c) in all {
            if on {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_each_flag() {
        let f = Flags::parse("gimsuyd").unwrap();
        assert!(f.global && f.ignore_case && f.multiline && f.dot_all && f.unicode);
        assert!(f.sticky && f.has_indices && !f.unicode_sets);
        assert_eq!(f.to_string(), "dgimsuy");
        assert_eq!(Flags::parse("v").unwrap().to_string(), "v");
        assert_eq!(Flags::parse("").unwrap(), Flags::default());
    }

    #[test]
    fn rejects_like_v8() {
        for bad in ["gg", "uv", "x", "G", " g", "ii", "vu", "gimsuyvd"] {
            let e = Flags::parse(bad).unwrap_err();
            assert_eq!(
                e.message(),
                format!("Invalid flags supplied to RegExp constructor '{bad}'")
            );
        }
    }
}
