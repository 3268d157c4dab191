//! One concept for what a profile leaves out: every API's default list (the
//! one place each is written; the generated `lib/generated/options.js`
//! carries them to the texts that state them, and `SFQ_BLESS=1 npx vitest
//! run __tests__/prose.test.ts` restates them in README.md and index.d.ts),
//! exclusion globs, with the
//! directory names the walk prunes derived from them, and the force-include
//! globs that override both the exclusions and `.gitignore` (seed 004's
//! `include_patterns`).

use std::sync::Arc;

use std::collections::HashSet;

use sfq_walk::discovery::PathFilter;
use sfq_walk::glob::{GlobFilter, GlobSet};

use crate::discovery::glob_set;
use crate::error::Result;

/// `smartFileQuery`'s ignore globs (seed 000): every query starts with them,
/// its `ignore` extends them.
pub const SEED000_IGNORE: &[&str] = &[".git/**", "**/node_modules/**", "**/.turbo/**"];

/// The exploration commands' exclusions (seed 001: `survey`, `scout`,
/// `sample`, `show`), on top of `.gitignore`; no option turns them off.
pub const SEED001: &[&str] = &[
    ".git",
    "target",
    "node_modules",
    "vendor",
    "dist",
    "build",
    "coverage",
    "generated",
    "scratch",
    "tmp",
    "*.log",
    "*.jsonl",
    "*.xml",
    "*.min.js",
    "*.map",
];

/// `grep` and `findFiles`' always-ignored names (seed 002).
pub const SEED002: &[&str] = &["node_modules", ".git", "dist", "build", ".next"];

/// `searchCode`'s exclusions besides `.gitignore` (seed 003); its
/// `excludePatterns` extend them.
pub const SEED003: &[&str] = &[".git", "node_modules"];

/// `globFiles` and `grepContent`'s default exclusions (seed 004); their
/// `excludePatterns` extend them, or replace them with `excludeMode:
/// 'replace'` (`.git` stays excluded).
pub const SEED004: &[&str] = &[
    ".git",
    ".svn",
    ".hg",
    ".bzr",
    "node_modules",
    "bower_components",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    "dist",
    "build",
    "out",
    "target",
    ".idea",
    ".vscode",
    "*.min.js",
    "*.min.css",
];

/// A profile's exclusions.
#[derive(Debug, Clone, Default)]
pub struct Excludes {
    /// Names excluded at any depth, file or directory (`vendor`): checked
    /// by name, not by glob, so a long default list costs a hash lookup per
    /// path component.
    pub names: Vec<String>,
    /// The globs matched against root-relative paths (picomatch, `dot`).
    pub globs: Vec<String>,
    /// Globs of paths kept even when excluded or ignored by `.gitignore`.
    pub force: Vec<String>,
}

impl Excludes {
    /// Exclusions written as globs (seed 000's `ignore`).
    pub fn from_globs<S: AsRef<str>>(globs: &[S]) -> Excludes {
        Excludes {
            names: vec![],
            globs: globs.iter().map(|g| g.as_ref().to_string()).collect(),
            force: vec![],
        }
    }

    /// Exclusions written as entries (seeds 001, 002, 004): a name without
    /// `/` (`vendor`, `*.min.js`) drops that name at any depth, directory or
    /// file; an entry with `/` is matched from the root (`docs/gen`), and a
    /// directory it names is dropped whole.
    pub fn from_entries<S: AsRef<str>>(entries: &[S]) -> Excludes {
        let mut x = Excludes::default();
        x.extend_entries(entries);
        x
    }

    /// Adds entries (same reading as [`Excludes::from_entries`]) whose paths
    /// are kept whatever excludes them.
    pub fn with_force<S: AsRef<str>>(mut self, entries: &[S]) -> Excludes {
        self.force.extend(entries.iter().flat_map(|e| expand(e.as_ref())));
        self
    }

    /// Appends more exclusions written as entries.
    pub fn extend_entries<S: AsRef<str>>(&mut self, entries: &[S]) {
        for e in entries {
            match plain_name(e.as_ref()) {
                Some(name) => self.names.push(name),
                None => self.globs.extend(expand(e.as_ref())),
            }
        }
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
            .chain(self.names.iter().cloned())
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
    pub fn filter(&self, include: Option<GlobSet>, option: &str) -> Result<Arc<dyn PathFilter>> {
        let force = if self.force.is_empty() {
            None
        } else {
            Some(glob_set("includePatterns", &self.force, true, false)?)
        };
        let globs = Arc::new(GlobFilter::new(include, self.exclude_set(option)?, force, true));
        if self.names.is_empty() {
            return Ok(globs);
        }
        Ok(Arc::new(NameFilter { names: self.names.iter().cloned().collect(), globs }))
    }

    /// Whether `path` (root-relative) is excluded by a name or a glob.
    pub fn excludes(&self, path: &str, set: Option<&GlobSet>) -> bool {
        path.split('/').any(|c| self.names.iter().any(|n| n == c))
            || set.is_some_and(|s| s.is_match(path))
    }
}

impl Excludes {
    /// Why an entry the walk dropped (see `discovery::listing`) was left
    /// out: a pruned name, an exclusion, the hidden rule (when hidden paths
    /// are not listed), else `.gitignore`.
    pub fn reason(&self, path: &str, is_dir: bool, set: Option<&GlobSet>, hidden: bool) -> String {
        let name = path.rsplit('/').next().unwrap_or(path);
        if is_dir && self.prune_names().iter().any(|p| p == name) {
            format!("excluded by {name}")
        } else if self.excludes(path, set) {
            "excluded by the exclusion patterns".to_string()
        } else if !hidden && name.starts_with('.') {
            "hidden (includeHidden: true lists them)".to_string()
        } else {
            "ignored by .gitignore".to_string()
        }
    }
}

/// What a hint found in the entries a search left out, by reason.
#[derive(Debug, Default)]
pub struct LeftOut {
    by_reason: Vec<(String, u64)>,
    /// False when the look stopped before the end (the counts are then
    /// lower bounds).
    pub cut: bool,
}

impl LeftOut {
    /// Adds `n` under `reason`.
    pub fn add(&mut self, reason: &str, n: u64) {
        match self.by_reason.iter_mut().find(|(r, _)| r == reason) {
            Some((_, total)) => *total += n,
            None => self.by_reason.push((reason.to_string(), n)),
        }
    }

    /// `{head}; [at least ]{n} {unit}{reason}, …`, most first; `None` when
    /// nothing was found.
    pub fn summary(mut self, head: &str, unit: &str) -> Option<String> {
        if self.by_reason.is_empty() {
            return None;
        }
        self.by_reason.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let parts: Vec<String> =
            self.by_reason.iter().map(|(r, n)| format!("{n} {unit}{r}")).collect();
        let at_least = if self.cut { "at least " } else { "" };
        Some(format!("{head}; {at_least}{}", parts.join(", ")))
    }
}

/// Excluded names checked by name, in front of the glob filter.
struct NameFilter {
    names: HashSet<String>,
    globs: Arc<GlobFilter>,
}

impl NameFilter {
    fn named(&self, path: &str) -> bool {
        path.split('/').any(|c| self.names.contains(c))
    }
}

impl PathFilter for NameFilter {
    fn skip_dir(&self, path: &str) -> bool {
        if self.named(path) && !self.globs.force_dir(path) {
            return true;
        }
        self.globs.skip_dir(path)
    }
    fn keep_file(&self, path: &str) -> bool {
        if self.named(path) {
            return self.globs.force_file(path) && self.globs.keep_file(path);
        }
        self.globs.keep_file(path)
    }
    fn force_dir(&self, path: &str) -> bool {
        self.globs.force_dir(path)
    }
    fn force_file(&self, path: &str) -> bool {
        self.globs.force_file(path)
    }
    fn forces(&self) -> bool {
        self.globs.forces()
    }
    fn key(&self) -> Option<String> {
        let mut names: Vec<&String> = self.names.iter().collect();
        names.sort();
        Some(format!("names {names:?} {}", self.globs.key()?))
    }
}

/// The name an entry stands for when it is a plain name (no `/`, no glob
/// syntax): `vendor`, `.git`, `__pycache__`.
fn plain_name(entry: &str) -> Option<String> {
    let e = entry.trim().trim_end_matches('/');
    let special =
        ['/', '\\', '*', '?', '[', ']', '{', '}', '(', ')', '!', '+', '@', '|', '"', '$', '^', ','];
    (!e.is_empty() && !e.contains(special) && e != "." && e != "..").then(|| e.to_string())
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
        assert_eq!(y.names, vec!["vendor"]);
        assert_eq!(y.globs, vec!["**/*.min.js", "**/*.min.js/**", "docs/gen", "docs/gen/**"]);
        assert_eq!(y.prune_names(), vec!["vendor"]);
        let f = y.filter(None, "exclude").unwrap();
        assert!(!f.keep_file("a/vendor/x.js"));
        assert!(!f.keep_file("vendor"));
        assert!(!f.keep_file("a/b.min.js"));
        assert!(!f.keep_file("docs/gen/a.md"));
        assert!(f.keep_file("docs/a.md"));
        assert!(f.keep_file("vendors/a.js"));
        assert!(f.skip_dir("x/vendor"));
    }

    #[test]
    fn force_includes_win() {
        let x = Excludes::from_entries(&["node_modules"]).with_force(&["node_modules/@co"]);
        let f = x.filter(None, "exclude").unwrap();
        assert!(f.keep_file("node_modules/@co/a.js"));
        assert!(!f.keep_file("node_modules/x/a.js"));
        assert!(f.force_dir("node_modules"));
        assert!(f.force_dir("node_modules/@co/lib"));
        assert!(!f.force_dir("node_modules/x"));
    }

    #[test]
    fn left_out_entries_are_told_by_reason() {
        let x = Excludes::from_entries(&["node_modules", "*.min.js"]);
        let set = x.exclude_set("e").unwrap();
        assert_eq!(
            x.reason("a/node_modules", true, set.as_ref(), true),
            "excluded by node_modules"
        );
        assert_eq!(
            x.reason("a/b.min.js", false, set.as_ref(), true),
            "excluded by the exclusion patterns"
        );
        assert_eq!(
            x.reason(".github", true, set.as_ref(), false),
            "hidden (includeHidden: true lists them)"
        );
        assert_eq!(x.reason("logs", true, set.as_ref(), true), "ignored by .gitignore");
        let mut l = LeftOut::default();
        l.add("ignored by .gitignore", 1);
        l.add("excluded by node_modules", 2);
        l.add("excluded by node_modules", 1);
        assert_eq!(
            l.summary("0 matches", "in files ").unwrap(),
            "0 matches; 3 in files excluded by node_modules, 1 in files ignored by .gitignore"
        );
        let cut = LeftOut { cut: true, ..LeftOut::default() };
        assert_eq!(cut.summary("0 files", ""), None);
    }
}
