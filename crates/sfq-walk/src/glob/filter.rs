//! Include/exclude/force-include glob sets as a walk filter.

use super::{Coverage, GlobSet};
use crate::discovery::PathFilter;

/// Keeps a file when it matches the include set (if any) and is not excluded,
/// unless a force-include glob matches it (seed 004's `include_patterns`).
/// As a [`PathFilter`] it also prunes directories the sets prove useless.
///
/// One deliberate approximation: an exclusion like `**/node_modules/**`
/// prunes the whole directory, although picomatch would not match a name
/// below it that contains a line terminator (such files are dropped too).
#[derive(Debug, Clone, Default)]
pub struct GlobFilter {
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
    force: Option<GlobSet>,
    hidden_listed: bool,
}

impl GlobFilter {
    /// A filter. `hidden_listed` says whether the walk lists entries whose
    /// name starts with `.`; it decides whether an exclusion that spares
    /// hidden files (picomatch's default `dot: false`) may prune.
    pub fn new(
        include: Option<GlobSet>,
        exclude: Option<GlobSet>,
        force_include: Option<GlobSet>,
        hidden_listed: bool,
    ) -> GlobFilter {
        GlobFilter { include, exclude, force: force_include, hidden_listed }
    }

    /// Whether a file is kept.
    pub fn keep(&self, path: &str) -> bool {
        if let Some(i) = &self.include
            && !i.is_match(path)
        {
            return false;
        }
        match &self.exclude {
            Some(e) if e.is_match(path) => self.force.as_ref().is_some_and(|f| f.is_match(path)),
            _ => true,
        }
    }

    /// Whether no file below `dir` can be kept.
    pub fn can_skip_dir(&self, dir: &str) -> bool {
        if let Some(i) = &self.include
            && !i.could_match_under(dir)
        {
            return true;
        }
        let Some(e) = &self.exclude else { return false };
        if self.force.as_ref().is_some_and(|f| f.could_match_under(dir)) {
            return false;
        }
        match e.covers_dir(dir) {
            Coverage::All => true,
            Coverage::NonHidden => {
                !self.hidden_listed
                    || self.include.as_ref().is_some_and(GlobSet::never_matches_hidden)
            }
            Coverage::None => false,
        }
    }
}

impl PathFilter for GlobFilter {
    fn skip_dir(&self, path: &str) -> bool {
        self.can_skip_dir(path)
    }
    fn keep_file(&self, path: &str) -> bool {
        self.keep(path)
    }
    fn force_dir(&self, path: &str) -> bool {
        self.force.as_ref().is_some_and(|f| f.is_match(path) || f.could_match_under(path))
    }
    fn force_file(&self, path: &str) -> bool {
        self.force.as_ref().is_some_and(|f| f.is_match(path))
    }
    fn forces(&self) -> bool {
        self.force.is_some()
    }
    fn key(&self) -> Option<String> {
        let set = |s: &Option<GlobSet>| s.as_ref().map(GlobSet::key);
        Some(format!(
            "globs include {:?} exclude {:?} force {:?} hidden {}",
            set(&self.include),
            set(&self.exclude),
            set(&self.force),
            self.hidden_listed
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glob::GlobOptions;

    fn set(patterns: &[&str], dot: bool) -> Option<GlobSet> {
        Some(GlobSet::new(patterns, &GlobOptions { dot, basename: false }).unwrap())
    }

    /// Filters built alike have one key; any difference in what decides
    /// (a pattern, its order, an option, which set it is in, whether
    /// hidden entries are listed) gives another.
    #[test]
    fn a_key_names_what_decides() {
        let key = |f: GlobFilter| f.key().unwrap();
        let base =
            || GlobFilter::new(set(&["src/**"], false), set(&["**/*.md"], false), None, true);
        assert_eq!(key(base()), key(base()));
        let others = [
            GlobFilter::new(
                set(&["src/**", "lib/**"], false),
                set(&["**/*.md"], false),
                None,
                true,
            ),
            GlobFilter::new(set(&["src/**"], true), set(&["**/*.md"], false), None, true),
            GlobFilter::new(set(&["**/*.md"], false), set(&["src/**"], false), None, true),
            GlobFilter::new(
                set(&["src/**"], false),
                set(&["**/*.md"], false),
                set(&["a"], false),
                true,
            ),
            GlobFilter::new(set(&["src/**"], false), set(&["**/*.md"], false), None, false),
            GlobFilter::new(None, set(&["**/*.md"], false), None, true),
        ];
        let mut keys: Vec<String> = others.into_iter().map(key).collect();
        keys.push(key(base()));
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n);
        // Paths with quotes or separators in a pattern cannot make two keys meet.
        assert_ne!(
            key(GlobFilter::new(set(&["a\", \"b"], false), None, None, true)),
            key(GlobFilter::new(set(&["a", "b"], false), None, None, true))
        );
    }
}
