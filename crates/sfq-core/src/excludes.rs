//! One concept for what a profile leaves out: exclusion globs, with the
//! directory names the walk prunes derived from them (so each default is
//! written once), and the force-include globs that override both the
//! exclusions and `.gitignore` (seed 004's `include_patterns`).

use std::sync::Arc;

use sfq_walk::glob::{GlobFilter, GlobSet};

use crate::discovery::glob_set;
use crate::error::Result;

/// A profile's exclusions.
#[derive(Debug, Clone, Default)]
pub struct Excludes {
    /// The globs matched against root-relative paths (picomatch, `dot`).
    pub globs: Vec<String>,
    /// Globs of paths kept even when excluded or ignored by `.gitignore`.
    pub force: Vec<String>,
}

impl Excludes {
    /// Exclusions written as globs (seed 000's `ignore`).
    pub fn from_globs<S: AsRef<str>>(globs: &[S]) -> Excludes {
        Excludes { globs: globs.iter().map(|g| g.as_ref().to_string()).collect(), force: vec![] }
    }

    /// Exclusions written as entries (seeds 001, 002, 004): a name without
    /// `/` (`vendor`, `*.min.js`) drops that name at any depth, directory or
    /// file; an entry with `/` is matched from the root (`docs/gen`), and a
    /// directory it names is dropped whole.
    pub fn from_entries<S: AsRef<str>>(entries: &[S]) -> Excludes {
        Excludes { globs: entries.iter().flat_map(|e| expand(e.as_ref())).collect(), force: vec![] }
    }

    /// Adds entries (same reading as [`Excludes::from_entries`]) whose paths
    /// are kept whatever excludes them.
    pub fn with_force<S: AsRef<str>>(mut self, entries: &[S]) -> Excludes {
        self.force.extend(entries.iter().flat_map(|e| expand(e.as_ref())));
        self
    }

    /// Appends more exclusions written as entries.
    pub fn extend_entries<S: AsRef<str>>(&mut self, entries: &[S]) {
        self.globs.extend(entries.iter().flat_map(|e| expand(e.as_ref())));
    }

    /// Directory names the walk never enters: those excluded at any depth
    /// by a glob of the form `**/NAME/**`.
    pub fn prune_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .globs
            .iter()
            .filter_map(|g| g.strip_prefix("**/")?.strip_suffix("/**").map(str::to_string))
            .filter(|n| {
                !n.is_empty()
                    && !n.contains([
                        '/', '*', '?', '[', ']', '{', '}', '(', ')', '!', '+', '@', '\\',
                    ])
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The compiled exclusion set (`None` when there are none).
    pub fn exclude_set(&self, option: &str) -> Result<Option<GlobSet>> {
        if self.globs.is_empty() {
            Ok(None)
        } else {
            glob_set(option, &self.globs, true, false).map(Some)
        }
    }

    /// The walk filter: `include` (if any) minus the exclusions, force
    /// includes winning.
    pub fn filter(&self, include: Option<GlobSet>, option: &str) -> Result<Arc<GlobFilter>> {
        let force = if self.force.is_empty() {
            None
        } else {
            Some(glob_set("includePatterns", &self.force, true, false)?)
        };
        Ok(Arc::new(GlobFilter::new(include, self.exclude_set(option)?, force, true)))
    }
}

/// The globs an entry stands for.
fn expand(entry: &str) -> Vec<String> {
    let e = entry.trim().replace('\\', "/");
    let e = e.trim_start_matches("./").trim_start_matches('/').trim_end_matches('/');
    if e.is_empty() {
        return vec![];
    }
    if e.contains('/') {
        vec![e.to_string(), format!("{e}/**")]
    } else {
        vec![format!("**/{e}"), format!("**/{e}/**")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prune_names_are_derived_from_the_globs() {
        let x =
            Excludes::from_globs(&[".git/**", "**/node_modules/**", "**/.turbo/**", "**/*.x/**"]);
        assert_eq!(x.prune_names(), vec![".turbo", "node_modules"]);
        let y = Excludes::from_entries(&["vendor", "*.min.js", "docs/gen/", ""]);
        assert_eq!(
            y.globs,
            vec![
                "**/vendor",
                "**/vendor/**",
                "**/*.min.js",
                "**/*.min.js/**",
                "docs/gen",
                "docs/gen/**"
            ]
        );
        assert_eq!(y.prune_names(), vec!["vendor"]);
    }

    #[test]
    fn force_includes_win() {
        let x = Excludes::from_entries(&["node_modules"]).with_force(&["node_modules/@co"]);
        let f = x.filter(None, "exclude").unwrap();
        use sfq_walk::discovery::PathFilter;
        assert!(f.keep_file("node_modules/@co/a.js"));
        assert!(!f.keep_file("node_modules/x/a.js"));
        assert!(f.force_dir("node_modules"));
        assert!(f.force_dir("node_modules/@co/lib"));
        assert!(!f.force_dir("node_modules/x"));
    }
}
