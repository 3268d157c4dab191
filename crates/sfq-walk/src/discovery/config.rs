//! The validated configuration of a walk.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::ConfigError;

/// A caller-supplied path filter applied during the walk (for instance glob
/// include/exclude sets, see [`crate::glob::GlobFilter`]).
///
/// Contract: when [`skip_dir`](PathFilter::skip_dir) returns `true` for a
/// directory, [`keep_file`](PathFilter::keep_file) must return `false` for
/// every file under it (tracked files under a skipped directory are still
/// passed to `keep_file`).
pub trait PathFilter: Send + Sync {
    /// Whether the directory at root-relative `path` can be skipped (neither
    /// entered nor listed).
    fn skip_dir(&self, path: &str) -> bool;
    /// Whether the file at root-relative `path` is kept.
    fn keep_file(&self, path: &str) -> bool;
    /// Whether the directory at `path` is entered although an ignore rule or
    /// a pruned name drops it, because a force-included path may lie under
    /// it (seed 004's `include_patterns`). Below such a directory only files
    /// for which [`force_file`](PathFilter::force_file) holds are listed.
    fn force_dir(&self, _path: &str) -> bool {
        false
    }
    /// Whether the file at `path` is listed although an ignore rule (or an
    /// ignored or pruned ancestor) drops it; it must also pass
    /// [`keep_file`](PathFilter::keep_file).
    fn force_file(&self, _path: &str) -> bool {
        false
    }
    /// Whether [`force_dir`](PathFilter::force_dir) or
    /// [`force_file`](PathFilter::force_file) may ever hold (a listing made
    /// without the filter and filtered after cannot stand for a walk that
    /// forces paths in).
    fn forces(&self) -> bool {
        false
    }
    /// A text naming the filter's decisions: two filters with the same key
    /// skip, keep and force the same paths (so a listing filtered by one
    /// may stand for the other's). `None` (the default): unknown, never
    /// taken for another filter.
    fn key(&self) -> Option<String> {
        None
    }
}

/// Told of every directory a walk is about to use, before it reads the
/// directory's entries (or probes it as a nested repository), so that a
/// caller can watch the directory for changes first: a change made after
/// the call is then either seen by the read or reported by the watch.
pub trait WalkObserver: Send + Sync {
    /// The directory at `path` is about to be read; on Linux `fd` is its
    /// open descriptor (the entries read are those of this very inode).
    fn dir_used(&self, path: &Path, fd: Option<i32>);

    /// The ignore file at `path` is about to be read: its contents shape
    /// the listing as the directories' entries do.
    fn file_read(&self, _path: &Path) {}
}

/// A filter over paths relative to a subfolder (a submodule, a `path`
/// option), stated for root-relative ones: each path is asked about with the
/// subfolder's prefix in front.
pub struct Prefixed {
    /// The filter stated for root-relative paths.
    pub inner: Arc<dyn PathFilter>,
    /// The subfolder's root-relative path with a trailing `/`.
    pub prefix: String,
}

impl Prefixed {
    fn full(&self, path: &str) -> String {
        format!("{}{path}", self.prefix)
    }
}

impl PathFilter for Prefixed {
    fn skip_dir(&self, path: &str) -> bool {
        self.inner.skip_dir(&self.full(path))
    }
    fn keep_file(&self, path: &str) -> bool {
        self.inner.keep_file(&self.full(path))
    }
    fn force_dir(&self, path: &str) -> bool {
        self.inner.force_dir(&self.full(path))
    }
    fn force_file(&self, path: &str) -> bool {
        self.inner.force_file(&self.full(path))
    }
    fn forces(&self) -> bool {
        self.inner.forces()
    }
    fn key(&self) -> Option<String> {
        Some(format!("prefixed {:?} {}", self.prefix, self.inner.key()?))
    }
}

/// The environment that locates the user's and system's git configuration.
/// [`GitEnvironment::from_process`] reads the process environment; tests pass
/// their own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GitEnvironment {
    /// `$HOME`.
    pub home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME` (ignored when empty).
    pub xdg_config_home: Option<PathBuf>,
    /// `$GIT_CONFIG_NOSYSTEM`: skip the system config.
    pub config_nosystem: bool,
    /// `$GIT_CONFIG_SYSTEM`: replaces `/etc/gitconfig` (on Windows, where
    /// there is none, Git for Windows' own, found by [`GitEnvironment::from_vars`]).
    pub config_system: Option<PathBuf>,
    /// `$GIT_CONFIG_GLOBAL`: replaces the user's global config files.
    pub config_global: Option<PathBuf>,
}

impl GitEnvironment {
    /// Reads `HOME`, `XDG_CONFIG_HOME`, `GIT_CONFIG_NOSYSTEM`,
    /// `GIT_CONFIG_SYSTEM` and `GIT_CONFIG_GLOBAL` from the process (on
    /// Windows, with Git for Windows' home when `HOME` is unset: see
    /// [`GitEnvironment::from_vars`]).
    pub fn from_process() -> GitEnvironment {
        GitEnvironment::from_vars(|k| std::env::var_os(k))
    }

    /// [`GitEnvironment::from_process`] over the variables `var` gives. On
    /// Windows a missing `HOME` is, as Git for Windows has it,
    /// `%HOMEDRIVE%%HOMEPATH%` when that folder exists, else `%USERPROFILE%`;
    /// the system config is the one beside the `git.exe` found on `PATH`
    /// (`…\Git\cmd\git.exe` → `…\Git\etc\gitconfig`), else none.
    pub fn from_vars(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> GitEnvironment {
        let path = |k: &str| var(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let nosystem =
            var("GIT_CONFIG_NOSYSTEM").and_then(|v| v.into_string().ok()).is_some_and(|v| {
                matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on")
            });
        let mut home = path("HOME");
        let mut system = path("GIT_CONFIG_SYSTEM");
        if cfg!(windows) {
            if home.is_none() {
                let drive = path("HOMEDRIVE").zip(path("HOMEPATH")).map(|(d, p)| {
                    let mut joined = d.into_os_string();
                    joined.push(p.as_os_str());
                    PathBuf::from(joined)
                });
                home = drive.filter(|d| d.is_dir()).or_else(|| path("USERPROFILE"));
            }
            if system.is_none() {
                system = var("PATH").and_then(|p| windows_system_config(&p));
            }
        }
        GitEnvironment {
            home,
            xdg_config_home: path("XDG_CONFIG_HOME"),
            config_nosystem: nosystem,
            config_system: system,
            config_global: path("GIT_CONFIG_GLOBAL"),
        }
    }
}

/// Git for Windows' system config: `etc\gitconfig` in the installation of
/// the first `git.exe` on `PATH` (found in `cmd\`, `bin\` or
/// `mingw64\bin\`), when that file exists.
fn windows_system_config(path_var: &std::ffi::OsStr) -> Option<PathBuf> {
    for dir in std::env::split_paths(path_var) {
        if !dir.join("git.exe").is_file() {
            continue;
        }
        let mut top = dir.as_path();
        for step in ["cmd", "bin", "mingw64", "mingw32", "clangarm64"] {
            if top.file_name().is_some_and(|n| n.eq_ignore_ascii_case(step)) {
                top = top.parent()?;
            }
        }
        let config = top.join("etc").join("gitconfig");
        return config.is_file().then_some(config);
    }
    None
}

/// A validated walk configuration; build it with [`WalkConfig::builder`].
#[derive(Clone)]
pub struct WalkConfig {
    pub(crate) root: PathBuf,
    pub(crate) prune: HashSet<Vec<u8>>,
    pub(crate) ignore_files: bool,
    pub(crate) hidden: bool,
    pub(crate) dirs: bool,
    pub(crate) metadata: bool,
    pub(crate) abs_paths: bool,
    pub(crate) threads: usize,
    pub(crate) env: GitEnvironment,
    pub(crate) filter: Option<Arc<dyn PathFilter>>,
    pub(crate) report_dropped: bool,
    pub(crate) recurse_submodules: bool,
    pub(crate) observer: Option<Arc<dyn WalkObserver>>,
}

impl fmt::Debug for WalkConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WalkConfig")
            .field("root", &self.root)
            .field(
                "prune",
                &self.prune.iter().map(|p| String::from_utf8_lossy(p)).collect::<Vec<_>>(),
            )
            .field("ignore_files", &self.ignore_files)
            .field("hidden", &self.hidden)
            .field("dirs", &self.dirs)
            .field("metadata", &self.metadata)
            .field("abs_paths", &self.abs_paths)
            .field("threads", &self.threads)
            .field("filter", &self.filter.is_some())
            .field("recurse_submodules", &self.recurse_submodules)
            .field("observer", &self.observer.is_some())
            .finish()
    }
}

impl WalkConfig {
    /// Starts a builder for `root` with the defaults: no pruned names, ignore
    /// files honoured, hidden entries listed, files only, metadata read,
    /// threads = available parallelism, git environment from the process.
    pub fn builder(root: impl Into<PathBuf>) -> WalkConfigBuilder {
        WalkConfigBuilder {
            config: WalkConfig {
                root: root.into(),
                prune: HashSet::new(),
                ignore_files: true,
                hidden: true,
                dirs: false,
                metadata: true,
                abs_paths: true,
                threads: 0,
                env: GitEnvironment::from_process(),
                filter: None,
                report_dropped: false,
                recurse_submodules: false,
                observer: None,
            },
            bad_prune: None,
        }
    }

    /// The root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The number of threads a walk uses (at least 1).
    pub fn threads(&self) -> usize {
        if self.threads == 0 {
            std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
        } else {
            self.threads
        }
    }
}

/// Builder for [`WalkConfig`]; [`build`](WalkConfigBuilder::build) validates.
#[derive(Debug, Clone)]
pub struct WalkConfigBuilder {
    config: WalkConfig,
    bad_prune: Option<String>,
}

impl WalkConfigBuilder {
    /// Directory names pruned at any depth (for example `node_modules`): such
    /// directories are not entered and any candidate with such a directory
    /// component in its root-relative path (tracked files too) is dropped.
    pub fn prune_dirs<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for n in names {
            let n = n.as_ref();
            if n.is_empty() || n == "." || n == ".." || n.contains('/') || n.contains('\0') {
                self.bad_prune.get_or_insert_with(|| n.to_string());
            } else {
                self.config.prune.insert(n.as_bytes().to_vec());
            }
        }
        self
    }

    /// Whether ignore files (`.gitignore`, `info/exclude`, the global excludes
    /// file; `.ignore` outside git) are honoured. Default `true`. When `false`
    /// every regular file is a candidate (nested repositories are still not
    /// entered inside a git work tree, and `.git` never is).
    pub fn ignore_files(mut self, yes: bool) -> Self {
        self.config.ignore_files = yes;
        self
    }

    /// Whether entries whose root-relative path has a component starting with
    /// `.` are listed. Default `true` (git lists dotfiles).
    pub fn hidden(mut self, yes: bool) -> Self {
        self.config.hidden = yes;
        self
    }

    /// Whether directories are listed too (each non-ignored directory once,
    /// never the root itself). Default `false`.
    pub fn dirs(mut self, yes: bool) -> Self {
        self.config.dirs = yes;
        self
    }

    /// Whether every file is `lstat`ed for its size and modification time
    /// (directories never are).
    /// Default `true`. Without it, only tracked files whose presence the
    /// directory listing cannot prove are `lstat`ed.
    pub fn metadata(mut self, yes: bool) -> Self {
        self.config.metadata = yes;
        self
    }

    /// Whether each entry carries its absolute path ([`Entry::abs_path`](super::Entry)).
    /// Default `true`. Without it the path is left empty, except for a name
    /// that is not UTF-8 (the real bytes are nowhere else), and filled in for
    /// every entry of a listing that holds such a name; a caller that needs
    /// few of them joins the root and [`Entry::path`](super::Entry) instead
    /// (one allocation per entry saved on a large listing).
    pub fn abs_paths(mut self, yes: bool) -> Self {
        self.config.abs_paths = yes;
        self
    }

    /// Number of threads; `0` (the default) means the available parallelism.
    pub fn threads(mut self, n: usize) -> Self {
        self.config.threads = n;
        self
    }

    /// The environment used to find the git configuration (default: the
    /// process environment).
    pub fn git_environment(mut self, env: GitEnvironment) -> Self {
        self.config.env = env;
        self
    }

    /// Report the entries an ignore rule, a pruned name or the hidden
    /// setting dropped (the top
    /// of each dropped subtree; see [`super::Listing::dropped`]), so that a
    /// caller can look at what was left out without walking again.
    pub fn report_dropped(mut self, yes: bool) -> Self {
        self.config.report_dropped = yes;
        self
    }

    /// Whether initialised submodules are walked too, as `git ls-files
    /// --recurse-submodules` lists them (default `false`, as in git). A
    /// submodule is walked when its gitlink (an index entry of mode 160000)
    /// lies under the root and its directory holds a `.git` file or
    /// directory naming a repository; its files are listed under its path,
    /// by its own index and ignore rules (its untracked, not ignored files
    /// too: see the [module documentation](super)), and its own submodules
    /// likewise. Without it a gitlink is never entered (nor listed).
    pub fn recurse_submodules(mut self, yes: bool) -> Self {
        self.config.recurse_submodules = yes;
        self
    }

    /// Told of each directory before it is read (see [`WalkObserver`]).
    pub fn observer(mut self, observer: Arc<dyn WalkObserver>) -> Self {
        self.config.observer = Some(observer);
        self
    }

    /// A filter applied while walking (directories skipped, files kept).
    pub fn filter(mut self, filter: Arc<dyn PathFilter>) -> Self {
        self.config.filter = Some(filter);
        self
    }

    /// Validates and returns the configuration.
    pub fn build(self) -> Result<WalkConfig, ConfigError> {
        if !self.config.root.is_absolute() {
            return Err(ConfigError::RelativeRoot(self.config.root));
        }
        if let Some(bad) = self.bad_prune {
            return Err(ConfigError::BadPruneName(bad));
        }
        if self.config.threads > 1024 {
            return Err(ConfigError::TooManyThreads(self.config.threads));
        }
        Ok(self.config)
    }
}

#[cfg(test)]
mod tests {
    use super::{GitEnvironment, WalkConfig};
    use std::collections::HashMap;
    use std::ffi::OsString;
    use std::path::PathBuf;

    #[test]
    fn the_home_is_home_and_on_windows_the_user_profile_without_it() {
        let dir = std::env::temp_dir().join(format!("sfq-walk-home-{}", std::process::id()));
        let install = dir.join("Git");
        std::fs::create_dir_all(install.join("cmd")).unwrap();
        std::fs::create_dir_all(install.join("etc")).unwrap();
        std::fs::write(install.join("cmd").join("git.exe"), "").unwrap();
        std::fs::write(install.join("etc").join("gitconfig"), "").unwrap();
        let path_var = std::env::join_paths([dir.join("nowhere"), install.join("cmd")]).unwrap();
        let vars = |pairs: &[(&str, OsString)]| -> HashMap<String, OsString> {
            pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
        };
        let env = |m: HashMap<String, OsString>| GitEnvironment::from_vars(|k| m.get(k).cloned());
        let profile = OsString::from(dir.join("profile"));
        let with_home = vars(&[
            ("HOME", "h".into()),
            ("USERPROFILE", profile.clone()),
            ("PATH", path_var.clone()),
        ]);
        assert_eq!(env(with_home).home, Some(PathBuf::from("h")));
        let without = vars(&[
            ("HOME", "".into()),
            ("USERPROFILE", profile.clone()),
            ("PATH", path_var.clone()),
        ]);
        let got = env(without);
        if cfg!(windows) {
            assert_eq!(got.home, Some(PathBuf::from(&profile)));
            assert_eq!(got.config_system, Some(install.join("etc").join("gitconfig")));
        } else {
            // git elsewhere reads `HOME` only, and `/etc/gitconfig`.
            assert_eq!(got.home, None);
            assert_eq!(got.config_system, None);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    use crate::discovery::ConfigError;

    #[test]
    fn validation() {
        let abs = if cfg!(windows) { r"C:\x" } else { "/x" };
        assert!(matches!(WalkConfig::builder("rel").build(), Err(ConfigError::RelativeRoot(_))));
        assert!(matches!(
            WalkConfig::builder(abs).prune_dirs(["a/b"]).build(),
            Err(ConfigError::BadPruneName(_))
        ));
        assert!(matches!(
            WalkConfig::builder(abs).prune_dirs([".."]).build(),
            Err(ConfigError::BadPruneName(_))
        ));
        assert!(matches!(
            WalkConfig::builder(abs).threads(5000).build(),
            Err(ConfigError::TooManyThreads(5000))
        ));
        let c = WalkConfig::builder(abs).prune_dirs(["node_modules"]).threads(3).build().unwrap();
        assert_eq!(c.threads(), 3);
    }
}
