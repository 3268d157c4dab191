//! `recurse_submodules` against git on repositories built here: a
//! superproject with an initialised submodule (with its own `.gitignore`,
//! `info/exclude` and a nested submodule), one whose `.git` is a directory,
//! one behind a directory the superproject ignores, one deinitialised (an
//! empty directory) and one whose `.git` file names nothing; a clone whose
//! submodules were never initialised.
//!
//! * with the option, the walk lists the files of `git -C <repo> ls-files
//!   --cached --others --exclude-standard` for the superproject and, under
//!   each initialised submodule's path, for that submodule (recursively),
//!   gitlinks left out; its tracked files are `git ls-files
//!   --recurse-submodules`'s;
//! * without it, the walk is what it was: `git ls-files --cached --others
//!   --exclude-standard` at the top, gitlinks left out, nothing below them.

#![cfg(unix)]

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{TempDir, files, sorted_utf16};
use sfq_walk::discovery::{EntryKind, GitEnvironment, Listing, PathFilter, WalkConfig, walk};

struct Env {
    home: PathBuf,
    xdg: PathBuf,
}

impl Env {
    fn new(tmp: &TempDir) -> Env {
        let env = Env { home: tmp.path().join("home"), xdg: tmp.path().join("xdg") };
        fs::create_dir_all(&env.home).expect("home");
        fs::create_dir_all(env.xdg.join("git")).expect("xdg");
        env
    }
    fn git(&self, dir: &Path, args: &[&str]) -> Vec<u8> {
        let out = Command::new("git")
            .args([
                "-c",
                "init.defaultBranch=main",
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@e",
                "-c",
                "core.autocrlf=false",
                "-c",
                "protocol.file.allow=always",
            ])
            .args(args)
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", &self.xdg)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("LC_ALL", "C")
            .output()
            .expect("spawn git");
        assert!(
            out.status.success(),
            "git {args:?} in {}: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }
    fn git_env(&self) -> GitEnvironment {
        GitEnvironment {
            home: Some(self.home.clone()),
            xdg_config_home: Some(self.xdg.clone()),
            config_nosystem: true,
            ..Default::default()
        }
    }
    fn config(&self, root: &Path, recurse: bool, threads: usize) -> WalkConfig {
        WalkConfig::builder(root)
            .git_environment(self.git_env())
            .recurse_submodules(recurse)
            .threads(threads)
            .build()
            .expect("cfg")
    }
}

fn write(path: &Path, data: &str) {
    if let Some(p) = path.parent() {
        fs::create_dir_all(p).expect("mkdir");
    }
    fs::write(path, data).expect("write");
}

fn records(out: &[u8]) -> Vec<String> {
    out.split(|&c| c == 0)
        .filter(|r| !r.is_empty())
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect()
}

/// The gitlinks of the index of the repository at `dir`.
fn gitlinks(env: &Env, dir: &Path) -> BTreeSet<String> {
    let out = env.git(dir, &["ls-files", "-z", "-s"]);
    records(&out)
        .into_iter()
        .filter(|r| r.starts_with("160000 "))
        .filter_map(|r| r.split_once('\t').map(|(_, p)| p.to_string()))
        .collect()
}

/// Whether git would enter the submodule at `dir`: it holds a `.git` that
/// `git rev-parse` accepts as its own top.
fn initialised(env: &Env, dir: &Path) -> bool {
    if !dir.join(".git").exists() {
        return false;
    }
    let out = Command::new("git")
        .args(["rev-parse", "--show-toplevel"])
        .current_dir(dir)
        .env("HOME", &env.home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git rev-parse");
    out.status.success()
        && fs::canonicalize(String::from_utf8_lossy(&out.stdout).trim()).ok()
            == fs::canonicalize(dir).ok()
}

/// What the walk at the top of `repo` should list: `ls-files --cached
/// --others --exclude-standard` without gitlinks (and without the `dir/`
/// of an untracked nested repository), plus, with `recurse`, the same of
/// every initialised submodule under its path, recursively.
fn expected(env: &Env, repo: &Path, prefix: &str, recurse: bool, out: &mut BTreeSet<String>) {
    let links = gitlinks(env, repo);
    // `-t`: a skip-worktree entry (`S`, not checked out) is no candidate.
    let listed =
        env.git(repo, &["ls-files", "-z", "-t", "--cached", "--others", "--exclude-standard"]);
    for r in records(&listed) {
        let (tag, p) = r.split_at(2);
        if tag != "S " && !links.contains(p) && !p.ends_with('/') {
            out.insert(format!("{prefix}{p}"));
        }
    }
    if recurse {
        for link in links {
            let dir = repo.join(&link);
            if initialised(env, &dir) {
                expected(env, &dir, &format!("{prefix}{link}/"), true, out);
            }
        }
    }
}

fn assert_same(label: &str, got: &[String], want: &[String]) {
    if got != want {
        let g: BTreeSet<_> = got.iter().collect();
        let w: BTreeSet<_> = want.iter().collect();
        panic!(
            "{label}: differs from git\n  ours only: {:?}\n  git only: {:?}\n  ours: {got:?}",
            g.difference(&w).collect::<Vec<_>>(),
            w.difference(&g).collect::<Vec<_>>()
        );
    }
}

/// Compares the walk of `root` (the top of `repo`) with git, with and
/// without the option, on one and three threads.
fn compare(env: &Env, repo: &Path, label: &str) -> Listing {
    let mut last = None;
    for recurse in [false, true] {
        let mut want = BTreeSet::new();
        expected(env, repo, "", recurse, &mut want);
        let want = sorted_utf16(want);
        let mut first: Option<Vec<String>> = None;
        for threads in [1, 3] {
            let listing = walk(&env.config(repo, recurse, threads), &|| false)
                .unwrap_or_else(|e| panic!("{label}: {e}"));
            let got = files(&listing);
            assert_same(&format!("{label} (recurse {recurse}, {threads} threads)"), &got, &want);
            if let Some(f) = &first {
                assert_eq!(f, &got, "{label}: the same for any thread count");
            }
            first = Some(got);
            last = Some(listing);
        }
    }
    last.expect("walked")
}

/// A repository with a commit of `files` (path, content).
fn repo_with(env: &Env, dir: &Path, files: &[(&str, &str)]) {
    fs::create_dir_all(dir).expect("repo");
    env.git(dir, &["init", "-q"]);
    for (p, c) in files {
        write(&dir.join(p), c);
    }
    env.git(dir, &["add", "-A"]);
    env.git(dir, &["commit", "-q", "-m", "init"]);
}

struct Fixture {
    _tmp: TempDir,
    env: Env,
    root: PathBuf,
    top: PathBuf,
}

/// The superproject described in the module documentation.
fn fixture(tag: &str) -> Fixture {
    let tmp = TempDir::new(tag);
    let env = Env::new(&tmp);
    let root = tmp.path().to_path_buf();
    let deep = root.join("deep-src");
    repo_with(&env, &deep, &[("deep.txt", "deep\n"), ("d/inner.txt", "inner\n")]);
    let lib = root.join("lib-src");
    repo_with(
        &env,
        &lib,
        &[
            ("lib.txt", "lib\n"),
            ("src/a.rs", "fn a() {}\n"),
            (".gitignore", "*.log\nbuild/\n"),
            ("forced.log", "tracked although ignored\n"),
        ],
    );
    // `git add -A` skipped forced.log (ignored): add it by force.
    env.git(&lib, &["add", "-f", "forced.log"]);
    env.git(&lib, &["submodule", "add", "-q", deep.to_str().unwrap(), "nested/deep"]);
    env.git(&lib, &["commit", "-q", "-m", "nested"]);
    let other = root.join("other-src");
    repo_with(&env, &other, &[("other.txt", "other\n")]);

    let top = root.join("super");
    repo_with(
        &env,
        &top,
        &[("README.md", "top\n"), (".gitignore", "*.tmp\nvendored/\n"), ("src/main.rs", "main\n")],
    );
    env.git(&top, &["submodule", "add", "-q", lib.to_str().unwrap(), "libs/lib"]);
    env.git(&top, &["submodule", "add", "-q", other.to_str().unwrap(), "gone"]);
    // Behind a directory the superproject ignores: a gitlink is tracked.
    env.git(&top, &["submodule", "add", "-q", "-f", other.to_str().unwrap(), "vendored/other"]);
    // A submodule whose .git is a directory: a repository made in place.
    repo_with(&env, &top.join("inplace"), &[("in.txt", "in\n")]);
    env.git(&top, &["submodule", "add", "-q", top.join("inplace").to_str().unwrap(), "inplace"]);
    // A submodule whose .git names nothing.
    env.git(&top, &["submodule", "add", "-q", other.to_str().unwrap(), "broken"]);
    env.git(&top, &["commit", "-q", "-m", "submodules"]);
    env.git(&top, &["submodule", "update", "-q", "--init", "--recursive"]);
    env.git(&top, &["submodule", "deinit", "-q", "-f", "gone"]);
    // (Its git dir goes too: git would list the index of
    // `.git/modules/broken` when the `.git` file fails, a documented
    // deviation.)
    write(&top.join("broken/.git"), "gitdir: ../.git/modules/nothing-here\n");
    fs::remove_dir_all(top.join(".git/modules/broken")).expect("rm modules/broken");

    // Untracked files, inside and outside the submodules, and ignore rules.
    let sub = top.join("libs/lib");
    write(&top.join("new.txt"), "untracked at the top\n");
    write(&top.join("scratch.tmp"), "ignored at the top\n");
    write(&sub.join("fresh.rs"), "untracked in the submodule\n");
    write(&sub.join("trace.log"), "ignored by the submodule's .gitignore\n");
    write(&sub.join("build/out.txt"), "ignored directory in the submodule\n");
    write(&sub.join("note.tmp"), "the superproject's *.tmp does not apply here\n");
    write(&sub.join("excluded.txt"), "ignored by the submodule's info/exclude\n");
    let sub_git = top.join(".git/modules/libs/lib");
    assert!(sub_git.is_dir(), "the submodule's git dir is absorbed");
    write(&sub_git.join("info/exclude"), "excluded.txt\n");
    write(&sub.join("nested/deep/d/new.txt"), "untracked in the nested submodule\n");
    write(&sub.join("nested/deep/.gitignore"), "*.bak\n");
    write(&sub.join("nested/deep/old.bak"), "ignored in the nested submodule\n");
    Fixture { _tmp: tmp, env, root, top }
}

#[test]
fn submodules_are_walked_as_git_lists_them() {
    let f = fixture("sm");
    let (env, top) = (&f.env, &f.top);
    let listing = compare(env, top, "superproject");
    let got = files(&listing);
    for p in [
        "README.md",
        "new.txt",
        "libs/lib/lib.txt",
        "libs/lib/forced.log",
        "libs/lib/fresh.rs",
        "libs/lib/note.tmp",
        "libs/lib/nested/deep/deep.txt",
        "libs/lib/nested/deep/d/new.txt",
        "vendored/other/other.txt",
        "inplace/in.txt",
    ] {
        assert!(got.iter().any(|g| g == p), "{p} listed: {got:?}");
    }
    for p in [
        "scratch.tmp",
        "libs/lib/trace.log",
        "libs/lib/build/out.txt",
        "libs/lib/excluded.txt",
        "libs/lib/nested/deep/old.bak",
        "libs/lib",
        "libs/lib/nested/deep",
    ] {
        assert!(!got.iter().any(|g| g == p), "{p}: {got:?}");
    }
    for p in ["gone", "broken"] {
        assert!(!got.iter().any(|g| g == p || g.starts_with(&format!("{p}/"))), "{p}: {got:?}");
    }
    // Tracked entries: exactly `git ls-files --recurse-submodules` (an
    // inactive submodule is listed there as its gitlink).
    let tracked: Vec<String> =
        listing.entries.iter().filter(|e| e.tracked).map(|e| e.path.to_string()).collect();
    let mut want: BTreeSet<String> =
        records(&env.git(top, &["ls-files", "-z", "--recurse-submodules"])).into_iter().collect();
    want.remove("gone");
    want.remove("broken");
    assert_same("tracked against ls-files --recurse-submodules", &tracked, &sorted_utf16(want));
    // Without the option: nothing under a gitlink.
    let off = walk(&env.config(top, false, 2), &|| false).expect("walk");
    assert!(files(&off).iter().all(|p| !p.starts_with("libs/lib/") && !p.starts_with("inplace/")));
}

#[test]
fn from_a_subdirectory_and_inside_a_submodule() {
    let f = fixture("sm-sub");
    let (env, top) = (&f.env, &f.top);
    // A root below the top: `ls-files` there, prefixes relative to it.
    let libs = top.join("libs");
    for recurse in [false, true] {
        let listing = walk(&env.config(&libs, recurse, 2), &|| false).expect("walk");
        let mut want = BTreeSet::new();
        if recurse {
            expected(env, &libs.join("lib"), "lib/", true, &mut want);
        }
        assert_same("libs/", &files(&listing), &sorted_utf16(want));
    }
    // The root inside the ignored `vendored/`: the submodule is still walked.
    let vendored = top.join("vendored");
    let listing = walk(&env.config(&vendored, true, 2), &|| false).expect("walk");
    assert_eq!(files(&listing), vec!["other/other.txt"]);
    // A root inside a submodule is that submodule's own work tree, with or
    // without the option.
    let sub = top.join("libs/lib");
    compare(env, &sub, "inside the submodule");
}

#[test]
fn uninitialised_submodules_are_skipped() {
    let f = fixture("sm-clone");
    let env = &f.env;
    let clone = f.root.join("clone");
    env.git(&f.root, &["clone", "-q", f.top.to_str().unwrap(), clone.to_str().unwrap()]);
    let listing = compare(env, &clone, "clone without --recurse-submodules");
    assert!(files(&listing).iter().all(|p| !p.starts_with("libs/lib/")));
    // Initialised non-recursively: the nested one stays empty.
    env.git(&clone, &["submodule", "update", "-q", "--init", "libs/lib"]);
    let listing = compare(env, &clone, "clone, top-level submodule initialised");
    let got = files(&listing);
    assert!(got.iter().any(|p| p == "libs/lib/lib.txt"), "{got:?}");
    assert!(got.iter().all(|p| !p.starts_with("libs/lib/nested/deep/")), "{got:?}");
}

/// A filter keeping `.rs` files only, skipping `skip` directories.
struct RsOnly;

impl PathFilter for RsOnly {
    fn skip_dir(&self, path: &str) -> bool {
        path == "inplace"
    }
    fn keep_file(&self, path: &str) -> bool {
        path.ends_with(".rs") && !path.starts_with("inplace/")
    }
}

#[test]
fn settings_apply_to_the_full_path_and_directories_are_listed_once() {
    let f = fixture("sm-set");
    let (env, top) = (&f.env, &f.top);
    // Prune: a pruned name on the submodule's path, or inside it.
    let cfg = WalkConfig::builder(top)
        .git_environment(env.git_env())
        .recurse_submodules(true)
        .prune_dirs(["libs", "vendored"])
        .build()
        .expect("cfg");
    let got = files(&walk(&cfg, &|| false).expect("walk"));
    assert!(got.iter().all(|p| !p.starts_with("libs/") && !p.starts_with("vendored/")), "{got:?}");
    assert!(got.iter().any(|p| p == "inplace/in.txt"), "{got:?}");
    let cfg = WalkConfig::builder(top)
        .git_environment(env.git_env())
        .recurse_submodules(true)
        .prune_dirs(["nested"])
        .build()
        .expect("cfg");
    let got = files(&walk(&cfg, &|| false).expect("walk"));
    assert!(got.iter().any(|p| p == "libs/lib/lib.txt"), "{got:?}");
    assert!(got.iter().all(|p| !p.contains("/nested/")), "{got:?}");
    // The filter sees full paths.
    let cfg = WalkConfig::builder(top)
        .git_environment(env.git_env())
        .recurse_submodules(true)
        .filter(std::sync::Arc::new(RsOnly))
        .build()
        .expect("cfg");
    let got = files(&walk(&cfg, &|| false).expect("walk"));
    assert_eq!(got, vec!["libs/lib/fresh.rs", "libs/lib/src/a.rs", "src/main.rs"]);
    // Directories: every directory once, in path order, the submodules' too;
    // the ones a walk without the option lists are still there.
    for abs_paths in [true, false] {
        let dirs = |recurse: bool| {
            let cfg = WalkConfig::builder(top)
                .git_environment(env.git_env())
                .recurse_submodules(recurse)
                .dirs(true)
                .abs_paths(abs_paths)
                .build()
                .expect("cfg");
            walk(&cfg, &|| false).expect("walk").entries
        };
        let on = dirs(true);
        let paths: Vec<&str> = on.iter().map(|e| &*e.path).collect();
        let mut sorted = paths.clone();
        sorted.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        sorted.dedup();
        assert_eq!(paths, sorted, "in order, each once");
        for d in ["libs", "libs/lib", "libs/lib/src", "libs/lib/nested", "libs/lib/nested/deep"] {
            assert!(on.iter().any(|e| e.kind == EntryKind::Dir && &*e.path == d), "{d}: {paths:?}");
        }
        for e in dirs(false) {
            assert!(on.iter().any(|o| o.path == e.path && o.kind == e.kind), "{} kept", e.path);
        }
        for e in &on {
            let abs = match &e.abs_path {
                None => {
                    assert!(!abs_paths);
                    top.join(&*e.path)
                }
                Some(abs) => abs.to_path_buf(),
            };
            assert!(fs::symlink_metadata(&abs).is_ok(), "{}", abs.display());
        }
    }
}

#[test]
fn sparse_checkout_inside_a_submodule_is_reported() {
    let f = fixture("sm-sparse");
    let (env, top) = (&f.env, &f.top);
    let sub = top.join("libs/lib");
    // (The .gitignore stays checked out: a skip-worktree .gitignore is not
    // read from its blob, a documented deviation.)
    env.git(&sub, &["sparse-checkout", "set", "--no-cone", "/src/", "/.gitignore"]);
    let on = walk(&env.config(top, true, 2), &|| false).expect("walk");
    let off = walk(&env.config(top, false, 2), &|| false).expect("walk");
    assert_eq!(off.not_checked_out.files, 0);
    let skipped = records(&env.git(&sub, &["ls-files", "-z", "-t"]))
        .into_iter()
        .filter(|r| r.starts_with("S "))
        .count();
    assert!(skipped > 0);
    assert_eq!(on.not_checked_out.files, skipped);
    compare(env, top, "sparse submodule");
}
