//! What a walk depends on outside the directories it reads.
//!
//! A walk's listing is decided by the entries of the directories it reads
//! (a caller can watch those: see [`super::WalkObserver`]) and by a few
//! things elsewhere: the repository found above the root, the git
//! configuration (system, global, local, includes), the index, the
//! exclude files, the ignore files of the root's ancestors below the
//! work-tree top and whether those ancestors are nested repositories. A
//! [`fingerprint`] holds all of them, so that two equal fingerprints taken
//! before two walks with the same configuration, and no change in the
//! directories read, mean equal listings.
//!
//! Contents are compared, not times: an exclude or ignore file edited in
//! place within one timestamp tick is still told apart. The index, which
//! git only ever replaces (a new file renamed over the old one), is
//! compared by its identity and times: device, inode, size, mtime and ctime.
//! A file over [`MAX_COMPARED`] bytes is compared by the same identity.

use std::io::Write;
use std::path::Path;

use super::config::WalkConfig;
use super::gitconfig;
use super::repo::{self, Found};
use super::{load_config, xdg_path};

/// Files up to this size are fingerprinted by their contents.
pub const MAX_COMPARED: u64 = 1 << 20;

/// The fingerprint of what a walk with `config` depends on outside the
/// directories it reads (see the [module documentation](self)). Taken
/// before a walk, it is equal to one taken before a later walk only if
/// none of those inputs changed in between. Submodules (with
/// [`recurse_submodules`](super::WalkConfigBuilder::recurse_submodules))
/// are not covered: their own repositories are outside it.
pub fn fingerprint(config: &WalkConfig) -> Vec<u8> {
    let mut out = Vec::with_capacity(1024);
    let root = config.root();
    let _ = writeln!(out, "env {:?}", config.env);
    identity(&mut out, "root", root);
    let found = repo::find(root);
    let _ = writeln!(out, "repo {found:?}");
    let Found::WorkTree(repo) = found else { return out };
    let gitcfg = load_config(&config.env, &repo);
    let _ = writeln!(out, "config {:?}", gitcfg.entries);
    identity(&mut out, "index", &repo.git_dir.join("index"));
    if config.ignore_files {
        let excludes_file = match gitcfg.get("core.excludesfile") {
            Some(Some(v)) => gitconfig::interpolate_path(v, config.env.home.as_deref())
                .map(|p| if p.is_absolute() { p } else { repo.top.join(p) }),
            _ => xdg_path(&config.env, "ignore"),
        };
        if let Some(path) = excludes_file {
            contents(&mut out, "excludes", &path);
        }
        contents(&mut out, "info/exclude", &repo.common_dir.join("info").join("exclude"));
    }
    // The leading path: each ancestor below the top, its ignore file and
    // whether it is a nested repository.
    if !repo.prefix.is_empty() {
        let mut dir = repo.top.clone();
        if config.ignore_files {
            contents(&mut out, "ignore", &dir.join(".gitignore"));
        }
        for comp in repo.prefix.split(|&c| c == b'/') {
            dir.push(&*crate::os_bytes::os_str(comp));
            let _ = writeln!(out, "nested {}", repo::is_nested_repo(&dir));
            if config.ignore_files {
                contents(&mut out, "ignore", &dir.join(".gitignore"));
            }
        }
    }
    out
}

/// The identity of the entry at `path` (not following a symlink).
fn identity(out: &mut Vec<u8>, what: &str, path: &Path) {
    let _ = write!(out, "{what} {} ", path.display());
    match std::fs::symlink_metadata(path) {
        Ok(m) => stamp(out, path, &m),
        Err(e) => {
            let _ = write!(out, "error {:?}", e.raw_os_error());
        }
    }
    out.push(b'\n');
}

#[cfg(unix)]
fn stamp(out: &mut Vec<u8>, _path: &Path, m: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let _ = write!(
        out,
        "{} {} {:o} {} {}.{} {}.{}",
        m.dev(),
        m.ino(),
        m.mode(),
        m.size(),
        m.mtime(),
        m.mtime_nsec(),
        m.ctime(),
        m.ctime_nsec()
    );
}

#[cfg(not(unix))]
fn stamp(out: &mut Vec<u8>, path: &Path, m: &std::fs::Metadata) {
    let id = crate::identity::of(path, m);
    let _ = write!(
        out,
        "{} {} {} {:?} {:?} {}",
        id.dev,
        id.ino,
        m.len(),
        m.file_type(),
        m.modified().ok(),
        id.ctime_ns
    );
}

/// The contents of the file at `path` (its identity when larger than
/// [`MAX_COMPARED`] or not a regular file).
fn contents(out: &mut Vec<u8>, what: &str, path: &Path) {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() && m.len() <= MAX_COMPARED => match std::fs::read(path) {
            Ok(data) => {
                let _ = writeln!(out, "{what} {} {}", path.display(), data.len());
                out.extend_from_slice(&data);
                out.push(b'\n');
            }
            Err(e) => {
                let _ = writeln!(out, "{what} {} error {:?}", path.display(), e.raw_os_error());
            }
        },
        _ => identity(out, what, path),
    }
}

// Unix only: the repositories are made with git, which a Windows test
// under Wine cannot wait for.
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir)
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    }

    /// Each input changes the fingerprint; a file edited in place within
    /// the same second, same size, does too.
    #[test]
    fn every_input_changes_the_fingerprint() {
        let dir = std::env::temp_dir().join(format!("sfq-fp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a/b")).unwrap();
        let dir = std::fs::canonicalize(&dir).unwrap();
        git(&dir, &["init", "-q"]);
        std::fs::write(dir.join("a/b/f.txt"), "x").unwrap();
        let config = WalkConfig::builder(dir.join("a/b")).build().unwrap();
        let mut last = fingerprint(&config);
        assert_eq!(fingerprint(&config), last);
        let mut changed = |what: &str, f: &dyn Fn()| {
            f();
            let now = fingerprint(&config);
            assert_ne!(now, last, "{what}");
            last = now;
        };
        changed("ancestor ignore", &|| std::fs::write(dir.join("a/.gitignore"), "x1\n").unwrap());
        changed("same size", &|| std::fs::write(dir.join("a/.gitignore"), "x2\n").unwrap());
        changed("top ignore", &|| std::fs::write(dir.join(".gitignore"), "y\n").unwrap());
        changed("info/exclude", &|| std::fs::write(dir.join(".git/info/exclude"), "z\n").unwrap());
        changed("index", &|| git(&dir, &["add", "a/b/f.txt"]));
        changed("config", &|| git(&dir, &["config", "core.ignorecase", "true"]));
        changed("nested", &|| git(&dir.join("a"), &["init", "-q"]));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
