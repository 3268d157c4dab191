//! Every index git writes, and the layouts of monorepos: split indexes
//! (`link` and the shared index), sparse indexes (`sdir` directory entries),
//! sparse checkouts without one (skip-worktree entries), index version 4
//! (with the offset table's block restarts), optional extensions (`TREE`,
//! `REUC`, `UNTR`, `FSMN`, `EOIE`, `IEOT`), and linked worktrees
//! (`.git` files and `commondir`). Each case compares the walk with git
//! itself on a repository built here:
//!
//! * `git ls-files --cached --others --exclude-standard`, minus the
//!   skip-worktree entries (`ls-files -t` tags them `S`): those are not on
//!   disk, so they are not candidates (and must not come back as `ENOENT`
//!   read errors);
//! * where every file has content, the files `git grep -l ''` searches (it
//!   leaves skip-worktree entries out too) and the untracked ones.

#![cfg(unix)]

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{TempDir, files, sorted_utf16};
use sfq_walk::discovery::{GitEnvironment, Listing, NotCheckedOut, WalkConfig, WalkError, walk};

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
    fn command(&self, dir: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new("git");
        cmd.args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@e",
            "-c",
            "core.autocrlf=false",
            "-c",
            "advice.sparseIndexExpanded=false",
        ])
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &self.home)
        .env("XDG_CONFIG_HOME", &self.xdg)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("LC_ALL", "C");
        cmd
    }
    fn git(&self, dir: &Path, args: &[&str]) -> Vec<u8> {
        self.git_stdin(dir, args, b"")
    }
    fn git_stdin(&self, dir: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
        let mut child = self
            .command(dir, args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn git");
        child.stdin.take().expect("stdin").write_all(input).expect("write");
        let out = child.wait_with_output().expect("git");
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
    fn walk(&self, root: &Path) -> Result<Listing, WalkError> {
        let cfg = WalkConfig::builder(root).git_environment(self.git_env()).build().expect("cfg");
        walk(&cfg, &|| false)
    }
}

/// Writes a file, creating its parents.
fn write(path: &Path, data: &[u8]) {
    if let Some(p) = path.parent() {
        fs::create_dir_all(p).expect("mkdir");
    }
    fs::write(path, data).expect("write");
}

/// git's candidates under `root`: `ls-files -t --cached --others
/// --exclude-standard` without the skip-worktree (`S`) entries, regular
/// files only (a path below a symlink dropped), and which of them are
/// missing on disk.
fn expected(env: &Env, root: &Path) -> (Vec<String>, BTreeSet<String>, usize) {
    let out =
        env.git(root, &["ls-files", "-z", "-t", "--cached", "--others", "--exclude-standard"]);
    let mut set = BTreeSet::new();
    let mut missing = BTreeSet::new();
    let mut skip_worktree = BTreeSet::new();
    'outer: for rec in out.split(|&c| c == 0) {
        if rec.len() < 3 {
            continue;
        }
        let (tag, raw) = (rec[0], &rec[2..]);
        if tag == b'S' {
            skip_worktree.insert(raw.to_vec());
            continue;
        }
        if raw.ends_with(b"/") {
            continue;
        }
        let rel = Path::new(std::ffi::OsStr::from_bytes(raw));
        let mut acc = root.to_path_buf();
        let comps: Vec<_> = rel.components().collect();
        for (i, c) in comps.iter().enumerate() {
            acc.push(c);
            match fs::symlink_metadata(&acc) {
                Ok(m) if m.file_type().is_symlink() => continue 'outer,
                Ok(m) if i + 1 == comps.len() => {
                    if !m.file_type().is_file() {
                        continue 'outer;
                    }
                }
                Ok(m) if !m.is_dir() => {
                    missing.insert(String::from_utf8_lossy(raw).into_owned());
                    break;
                }
                Ok(_) => {}
                Err(_) => {
                    missing.insert(String::from_utf8_lossy(raw).into_owned());
                    break;
                }
            }
        }
        set.insert(String::from_utf8_lossy(raw).into_owned());
    }
    (sorted_utf16(set), missing, skip_worktree.len())
}

/// Compares the walk at `root` with git: the same files, the same missing
/// ones, and no skip-worktree entry among them. Returns the listing and the
/// number of skip-worktree entries git lists (`S`).
fn compare(env: &Env, root: &Path, label: &str) -> (Listing, usize) {
    let (want, want_missing, skip_worktree) = expected(env, root);
    for threads in [1, 3] {
        let cfg = WalkConfig::builder(root)
            .git_environment(env.git_env())
            .threads(threads)
            .build()
            .expect("cfg");
        let listing = walk(&cfg, &|| false).unwrap_or_else(|e| panic!("{label}: {e}"));
        let got = files(&listing);
        if got != want {
            let g: BTreeSet<_> = got.iter().collect();
            let w: BTreeSet<_> = want.iter().collect();
            panic!(
                "{label}: {} differs from git\n  ours only: {:?}\n  git only: {:?}",
                root.display(),
                g.difference(&w).collect::<Vec<_>>(),
                w.difference(&g).collect::<Vec<_>>()
            );
        }
        let got_missing: BTreeSet<String> = listing
            .entries
            .iter()
            .filter(|e| e.missing.is_some())
            .map(|e| e.path.to_string())
            .collect();
        assert_eq!(got_missing, want_missing, "{label}: missing flags");
        if threads == 3 {
            return (listing, skip_worktree);
        }
    }
    unreachable!()
}

/// The files git greps: `git grep -l ''` (tracked files, the skip-worktree
/// ones left out: every file here has a line) and the untracked ones
/// (`ls-files --others --exclude-standard`). (`git grep --untracked` is not
/// used: it walks the directories instead, leaving out tracked files that
/// an ignore rule matches and keeping skip-worktree files found on disk.)
fn compare_grep(env: &Env, root: &Path, listing: &Listing, label: &str) {
    let out = env.command(root, &["grep", "-z", "-l", "-e", ""]).output().expect("git grep");
    assert!(out.status.code().is_some_and(|c| c <= 1), "{label}: git grep failed");
    let others = env.git(root, &["ls-files", "-z", "--others", "--exclude-standard"]);
    let want: BTreeSet<String> = out
        .stdout
        .split(|&c| c == 0)
        .chain(others.split(|&c| c == 0))
        .filter(|r| !r.is_empty())
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect();
    let got: BTreeSet<String> = files(listing).into_iter().collect();
    assert_eq!(got, want, "{label}: the walk against the files git grep searches");
}

/// Whether the index file at `path` holds an extension signature (followed
/// by a plausible size).
fn has_extension(path: &Path, sig: &[u8; 4]) -> bool {
    let data = fs::read(path).expect("index");
    data.windows(8).any(|w| {
        &w[..4] == sig && (u32::from_be_bytes([w[4], w[5], w[6], w[7]]) as usize) < data.len()
    })
}

fn shared_indexes(git_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(git_dir)
        .expect("git dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("sharedindex."))
        .collect();
    names.sort();
    names
}

/// A repository with a tree of files in directories, committed.
fn tree_repo(tmp: &TempDir, env: &Env, name: &str) -> PathBuf {
    let repo = tmp.path().join(name);
    fs::create_dir_all(&repo).expect("repo");
    env.git(&repo, &["init", "-q"]);
    for f in [
        "top.txt",
        "a/x.txt",
        "a/b/y.txt",
        "a/b/deep/y2.txt",
        "a/c/z.txt",
        "a/c/w.log",
        "a/c/sub/v.txt",
        "d/q.txt",
        "d/sub/q2.txt",
        "e/r.txt",
        "e.txt",
    ] {
        write(&repo.join(f), format!("{f}\n").as_bytes());
    }
    write(&repo.join(".gitignore"), b"*.log\nbuild/\n");
    env.git(&repo, &["add", "-A", "-f"]);
    env.git(&repo, &["commit", "-q", "-m", "c"]);
    // Untracked files, some ignored.
    write(&repo.join("new.txt"), b"n\n");
    write(&repo.join("a/b/new.log"), b"n\n");
    write(&repo.join("build/out.txt"), b"n\n");
    repo
}

#[test]
fn split_index_after_adds_removals_and_rewrites() {
    let tmp = TempDir::new("split");
    let env = Env::new(&tmp);
    let repo = tree_repo(&tmp, &env, "repo");
    let git_dir = repo.join(".git");
    let index = git_dir.join("index");
    env.git(&repo, &["update-index", "--split-index"]);
    assert_eq!(shared_indexes(&git_dir).len(), 1);
    assert!(has_extension(&index, b"link"));
    let (listing, _) = compare(&env, &repo, "split index");
    compare_grep(&env, &repo, &listing, "split index");

    // The shared index is kept while the split index records the changes:
    // added entries, deleted ones (delete bitmap), modified ones (replace
    // bitmap).
    env.git(&repo, &["config", "splitIndex.maxPercentChange", "100"]);
    write(&repo.join("a/added.txt"), b"added\n");
    write(&repo.join("zz/added.txt"), b"added\n");
    env.git(&repo, &["add", "a/added.txt", "zz/added.txt", "a/b/new.log", "-f"]);
    env.git(&repo, &["rm", "-q", "--cached", "d/q.txt"]);
    env.git(&repo, &["rm", "-q", "e/r.txt"]);
    write(&repo.join("a/x.txt"), b"changed\n");
    write(&repo.join("top.txt"), b"changed\n");
    env.git(&repo, &["add", "a/x.txt", "top.txt"]);
    assert_eq!(shared_indexes(&git_dir).len(), 1, "the shared index is not rewritten");
    let (listing, _) = compare(&env, &repo, "split index with changes");
    compare_grep(&env, &repo, &listing, "split index with changes");
    let listed = files(&listing);
    assert!(listed.contains(&"a/added.txt".to_string()));
    assert!(listed.contains(&"a/b/new.log".to_string()), "a tracked ignored file");
    assert!(listed.contains(&"d/q.txt".to_string()), "untracked now");
    assert!(!listed.contains(&"e/r.txt".to_string()));

    // A tracked file deleted on disk, and unmerged stages.
    fs::remove_file(repo.join("a/b/y.txt")).expect("rm");
    let oid = String::from_utf8(env.git(&repo, &["hash-object", "-w", "top.txt"])).expect("oid");
    let info = format!(
        "100644 {0} 1\tconflict.txt\n100644 {0} 2\tconflict.txt\n100644 {0} 3\tconflict.txt\n",
        oid.trim()
    );
    env.git_stdin(&repo, &["update-index", "--index-info"], info.as_bytes());
    let (listing, _) = compare(&env, &repo, "split index, deleted file and conflict");
    assert_eq!(
        listing.entries.iter().filter(|e| e.missing.is_some()).count(),
        2,
        "a/b/y.txt and conflict.txt are tracked and missing"
    );
    env.git(&repo, &["update-index", "--force-remove", "conflict.txt"]);
    env.git(&repo, &["checkout", "--", "a/b/y.txt"]);

    // Every write makes a new shared index.
    env.git(&repo, &["config", "splitIndex.maxPercentChange", "0"]);
    write(&repo.join("b.txt"), b"b\n");
    env.git(&repo, &["add", "b.txt"]);
    assert!(shared_indexes(&git_dir).len() >= 2, "{:?}", shared_indexes(&git_dir));
    compare(&env, &repo, "split index after a shared index rewrite");
    env.git(&repo, &["config", "splitIndex.maxPercentChange", "20"]);
    env.git(&repo, &["rm", "-q", "--cached", "b.txt"]);
    compare(&env, &repo, "split index, one more removal");

    // Version 4 paths in both files, then a re-split.
    env.git(&repo, &["update-index", "--index-version", "4"]);
    compare(&env, &repo, "split index v4");
    env.git(&repo, &["update-index", "--no-split-index"]);
    assert!(!has_extension(&index, b"link"));
    compare(&env, &repo, "split index undone");
    env.git(&repo, &["update-index", "--split-index"]);
    write(&repo.join("c.txt"), b"c\n");
    env.git(&repo, &["add", "c.txt"]);
    assert!(has_extension(&index, b"link"));
    let (listing, _) = compare(&env, &repo, "re-split");
    compare_grep(&env, &repo, &listing, "re-split");
    // From a subdirectory.
    compare(&env, &repo.join("a"), "split index, root a");

    // The shared index gone (in a copy: the parse of an unchanged index is
    // reused): git refuses the index, so does the walk.
    let copy = tmp.path().join("copy");
    copy_dir(&repo, &copy);
    for name in shared_indexes(&copy.join(".git")) {
        fs::remove_file(copy.join(".git").join(name)).expect("rm");
    }
    assert!(!env.command(&copy, &["ls-files"]).output().expect("git").status.success());
    match env.walk(&copy) {
        Err(WalkError::Repository { path, reason }) => {
            assert_eq!(path, copy.join(".git/index"));
            assert!(reason.contains("shared index"), "{reason}");
        }
        other => panic!("expected a repository error, got {other:?}"),
    }
}

#[test]
fn sparse_index_in_cone_mode() {
    let tmp = TempDir::new("sparse-index");
    let env = Env::new(&tmp);
    let repo = tree_repo(&tmp, &env, "repo");
    let index = repo.join(".git/index");
    env.git(&repo, &["sparse-checkout", "init", "--cone", "--sparse-index"]);
    env.git(&repo, &["sparse-checkout", "set", "a/b"]);
    assert!(has_extension(&index, b"sdir"), "a sparse index");
    let sparse = env.git(&repo, &["ls-files", "--sparse"]);
    let sparse_dirs: Vec<String> = String::from_utf8_lossy(&sparse)
        .lines()
        .filter(|l| l.ends_with('/'))
        .map(str::to_string)
        .collect();
    assert_eq!(sparse_dirs, ["a/c/", "d/", "e/"]);
    assert!(!repo.join("d").exists());

    let (listing, _) = compare(&env, &repo, "sparse index");
    compare_grep(&env, &repo, &listing, "sparse index");
    assert_eq!(listing.not_checked_out, NotCheckedOut { files: 0, dirs: sparse_dirs.clone() });
    assert!(listing.errors.is_empty(), "{:?}", listing.errors);
    // From inside the cone: the sparse directories above are not reported.
    let (listing, _) = compare(&env, &repo.join("a"), "sparse index, root a");
    assert_eq!(listing.not_checked_out.dirs, ["c/"]);
    let (listing, _) = compare(&env, &repo.join("a/b"), "sparse index, root a/b");
    assert_eq!(listing.not_checked_out, NotCheckedOut::default());

    // Files written outside the cone: git finds the directory on disk,
    // expands the index and lists what is there (an untracked file, and a
    // tracked one written back, whose skip-worktree bit git then clears);
    // the tracked files still absent stay out.
    write(&repo.join("d/untracked.txt"), b"u\n");
    write(&repo.join("d/q.txt"), b"back\n");
    write(&repo.join("d/ignored.log"), b"i\n");
    let (listing, _) = compare(&env, &repo, "sparse index, files outside the cone");
    compare_grep(&env, &repo, &listing, "sparse index, files outside the cone");
    assert!(files(&listing).contains(&"d/untracked.txt".to_string()));
    assert_eq!(listing.not_checked_out.dirs, ["a/c/", "e/"]);
    fs::remove_dir_all(repo.join("d")).expect("rm");

    // Widening and narrowing the cone.
    env.git(&repo, &["sparse-checkout", "add", "d"]);
    let (listing, _) = compare(&env, &repo, "sparse index, cone a/b and d");
    assert_eq!(listing.not_checked_out.dirs, ["a/c/", "e/"]);
    env.git(&repo, &["sparse-checkout", "set", "e"]);
    let (listing, _) = compare(&env, &repo, "sparse index, cone e");
    compare_grep(&env, &repo, &listing, "sparse index, cone e");
    assert_eq!(listing.not_checked_out.dirs, ["a/", "d/"]);
    // The walk's filters apply to what is reported.
    let cfg = WalkConfig::builder(&repo)
        .git_environment(env.git_env())
        .prune_dirs(["d"])
        .build()
        .expect("cfg");
    assert_eq!(walk(&cfg, &|| false).expect("walk").not_checked_out.dirs, ["a/"]);
    env.git(&repo, &["sparse-checkout", "disable"]);
    let (listing, _) = compare(&env, &repo, "sparse checkout disabled");
    assert_eq!(listing.not_checked_out, NotCheckedOut::default());
}

#[test]
fn sparse_checkout_without_a_sparse_index() {
    let tmp = TempDir::new("sparse-full");
    let env = Env::new(&tmp);
    let repo = tree_repo(&tmp, &env, "repo");
    let index = repo.join(".git/index");
    env.git(&repo, &["sparse-checkout", "init", "--cone", "--no-sparse-index"]);
    env.git(&repo, &["sparse-checkout", "set", "a/b"]);
    assert!(!has_extension(&index, b"sdir"));
    let (listing, skip_worktree) = compare(&env, &repo, "sparse checkout");
    compare_grep(&env, &repo, &listing, "sparse checkout");
    // a/c/z.txt, a/c/w.log, a/c/sub/v.txt, d/q.txt, d/sub/q2.txt, e/r.txt
    assert_eq!(skip_worktree, 6);
    assert_eq!(listing.not_checked_out, NotCheckedOut { files: 6, dirs: Vec::new() });
    assert!(listing.entries.iter().all(|e| e.missing.is_none()), "no ENOENT candidates");
    assert!(listing.errors.is_empty(), "{:?}", listing.errors);
    // Version 4 and 3 (extended flags) both carry the bit.
    for version in ["4", "3"] {
        env.git(&repo, &["update-index", "--index-version", version]);
        let (listing, _) = compare(&env, &repo, &format!("sparse checkout, index v{version}"));
        assert_eq!(listing.not_checked_out.files, 6);
    }
    // Counted under the root only (a/c/z.txt, a/c/w.log, a/c/sub/v.txt).
    let (listing, _) = compare(&env, &repo.join("a"), "sparse checkout, root a");
    assert_eq!(listing.not_checked_out.files, 3);

    // A skip-worktree file written back on disk: git clears its bit (it is
    // a tracked file again) and greps it.
    write(&repo.join("a/c/z.txt"), b"back\n");
    write(&repo.join("d/untracked.txt"), b"u\n");
    let (listing, skip_worktree) = compare(&env, &repo, "sparse checkout, a file written back");
    compare_grep(&env, &repo, &listing, "sparse checkout, a file written back");
    assert!(files(&listing).contains(&"a/c/z.txt".to_string()));
    assert_eq!(skip_worktree, 5);
    assert_eq!(listing.not_checked_out.files, 5);
    // Unless files outside the patterns are expected: the bit stays, git
    // grep leaves the file out, and so does the walk.
    env.git(&repo, &["config", "sparse.expectFilesOutsideOfPatterns", "true"]);
    let (listing, skip_worktree) = compare(&env, &repo, "expectFilesOutsideOfPatterns");
    compare_grep(&env, &repo, &listing, "expectFilesOutsideOfPatterns");
    assert!(!files(&listing).contains(&"a/c/z.txt".to_string()));
    assert_eq!(skip_worktree, 6);
    assert_eq!(listing.not_checked_out.files, 6);
    env.git(&repo, &["config", "--unset", "sparse.expectFilesOutsideOfPatterns"]);

    // Non-cone patterns.
    env.git(&repo, &["sparse-checkout", "set", "--no-cone", "/*", "!/d/"]);
    let (listing, skip_worktree) = compare(&env, &repo, "non-cone sparse checkout");
    compare_grep(&env, &repo, &listing, "non-cone sparse checkout");
    assert_eq!(listing.not_checked_out.files, skip_worktree);
    assert!(skip_worktree > 0);
}

#[test]
fn skip_worktree_and_intent_to_add_without_a_sparse_checkout() {
    let tmp = TempDir::new("skip-worktree");
    let env = Env::new(&tmp);
    let repo = tree_repo(&tmp, &env, "repo");
    // Set by hand (core.sparseCheckout off): git keeps the bit even though
    // the file is on disk; ls-files tags it `S`, git grep skips it.
    env.git(&repo, &["update-index", "--skip-worktree", "a/x.txt", "d/q.txt"]);
    fs::remove_file(repo.join("d/q.txt")).expect("rm");
    // `git add -N`: an intent-to-add entry (extended flags, index v3).
    write(&repo.join("intent.txt"), b"i\n");
    env.git(&repo, &["add", "-N", "intent.txt"]);
    let (listing, skip_worktree) = compare(&env, &repo, "skip-worktree by hand");
    compare_grep(&env, &repo, &listing, "skip-worktree by hand");
    assert_eq!(skip_worktree, 2);
    assert_eq!(listing.not_checked_out.files, 2);
    let intent = listing.entries.iter().find(|e| &*e.path == "intent.txt").expect("intent.txt");
    assert!(intent.tracked);
    env.git(&repo, &["update-index", "--no-skip-worktree", "a/x.txt", "d/q.txt"]);
    let (listing, _) = compare(&env, &repo, "skip-worktree cleared");
    assert_eq!(listing.not_checked_out.files, 0);
    assert!(listing.entries.iter().any(|e| &*e.path == "d/q.txt" && e.missing.is_some()));
}

#[test]
fn index_v4_with_offset_table_and_optional_extensions() {
    let tmp = TempDir::new("extensions");
    let env = Env::new(&tmp);
    let repo = tree_repo(&tmp, &env, "repo");
    let index = repo.join(".git/index");
    assert!(has_extension(&index, b"TREE"));

    // REUC: a conflict resolved by `git add`.
    let oid = String::from_utf8(env.git(&repo, &["hash-object", "-w", "top.txt"])).expect("oid");
    let info = format!(
        "100644 {0} 1\tconflict.txt\n100644 {0} 2\tconflict.txt\n100644 {0} 3\tconflict.txt\n",
        oid.trim()
    );
    env.git_stdin(&repo, &["update-index", "--index-info"], info.as_bytes());
    compare(&env, &repo, "unmerged entries");
    write(&repo.join("conflict.txt"), b"resolved\n");
    env.git(&repo, &["add", "conflict.txt"]);
    assert!(has_extension(&index, b"REUC"));
    compare(&env, &repo, "REUC");

    // UNTR and FSMN: the untracked cache and an fsmonitor hook (protocol
    // version 2: it prints a token, then `/`, everything may have changed).
    let hook = tmp.path().join("fsmonitor-hook.sh");
    write(&hook, b"#!/bin/sh\nprintf 'token\\0/\\0'\n");
    fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
    env.git(&repo, &["config", "core.fsmonitor", hook.to_str().expect("utf8")]);
    env.git(&repo, &["config", "core.fsmonitorHookVersion", "2"]);
    env.git(&repo, &["update-index", "--untracked-cache"]);
    env.git(&repo, &["status", "--porcelain"]);
    env.git(&repo, &["status", "--porcelain"]);
    assert!(has_extension(&index, b"UNTR"), "untracked cache written");
    assert!(has_extension(&index, b"FSMN"), "fsmonitor extension written");
    let (listing, _) = compare(&env, &repo, "UNTR and FSMN");
    compare_grep(&env, &repo, &listing, "UNTR and FSMN");
    // A stale untracked cache is not trusted: the walk reads the disk.
    write(&repo.join("a/b/later.txt"), b"l\n");
    compare(&env, &repo, "UNTR and FSMN, a file written after");
    env.git(&repo, &["config", "--unset", "core.fsmonitor"]);

    // EOIE and IEOT (the offset table for threaded loading) need 20,000
    // entries or more and several threads; in v4 each block of the table
    // restarts the path compression.
    let mut info = String::new();
    for i in 0..25_000 {
        info.push_str(&format!(
            "100644 {}\tgen/d{:02}/s{}/file{i:05}.txt\n",
            oid.trim(),
            i % 50,
            i % 7
        ));
    }
    env.git_stdin(&repo, &["update-index", "--index-info"], info.as_bytes());
    for version in ["4", "2"] {
        env.git(
            &repo,
            &[
                "-c",
                "index.threads=4",
                "-c",
                "index.recordOffsetTable=true",
                "-c",
                "index.recordEndOfIndexEntries=true",
                "update-index",
                "--index-version",
                version,
            ],
        );
        assert!(has_extension(&index, b"EOIE") && has_extension(&index, b"IEOT"), "v{version}");
        let (listing, _) = compare(&env, &repo, &format!("EOIE and IEOT, v{version}"));
        assert!(listing.entries.iter().filter(|e| e.missing.is_some()).count() >= 25_000);
    }
}

#[test]
fn unknown_required_extensions_are_refused_optional_ones_skipped() {
    // git refuses an index with an extension whose signature does not start
    // with A-Z ("index uses … extension, which we do not understand") and
    // skips an unknown optional one. The index is crafted: a valid one with
    // an extension inserted before the checksum (git checks the checksum,
    // the walk does not).
    let tmp = TempDir::new("required-ext");
    let env = Env::new(&tmp);
    let repo = tree_repo(&tmp, &env, "repo");
    let index = repo.join(".git/index");
    let good = fs::read(&index).expect("index");
    let with_ext = |sig: &[u8; 4]| {
        let mut d = good[..good.len() - 20].to_vec();
        d.extend_from_slice(sig);
        d.extend_from_slice(&3u32.to_be_bytes());
        d.extend_from_slice(b"xyz");
        d.extend_from_slice(&[0u8; 20]);
        d
    };
    let want = files(&env.walk(&repo).expect("walk"));
    fs::write(&index, with_ext(b"ZNEW")).expect("write");
    assert_eq!(files(&env.walk(&repo).expect("optional extension")), want);
    fs::write(&index, with_ext(b"znew")).expect("write");
    match env.walk(&repo) {
        Err(WalkError::Repository { path, reason }) => {
            assert_eq!(path, index);
            assert!(reason.contains("`znew`"), "{reason}");
        }
        other => panic!("expected a repository error, got {other:?}"),
    }
}

#[test]
fn linked_worktrees_and_commondir() {
    let tmp = TempDir::new("worktree");
    let env = Env::new(&tmp);
    let repo = tree_repo(&tmp, &env, "repo");
    // info/exclude and config live in the common directory.
    write(&repo.join(".git/info/exclude"), b"*.tmp\n");
    env.git(&repo, &["config", "core.excludesFile", "../shared-ignore"]);
    write(&tmp.path().join("shared-ignore"), b"*.bak\n");
    let wt = tmp.path().join("wt");
    env.git(&repo, &["worktree", "add", "-q", wt.to_str().expect("utf8"), "-b", "wt"]);
    let wt_git_dir = repo.join(".git/worktrees/wt");
    assert!(wt.join(".git").is_file());
    assert!(wt_git_dir.join("commondir").is_file());
    for f in ["x.tmp", "a/y.tmp", "z.bak", "a/kept.txt"] {
        write(&wt.join(f), b"w\n");
    }
    let (listing, _) = compare(&env, &wt, "linked worktree");
    compare_grep(&env, &wt, &listing, "linked worktree");
    assert!(!files(&listing).iter().any(|f| f.ends_with(".tmp") || f.ends_with(".bak")));
    match &listing.mode {
        sfq_walk::discovery::Mode::Git { top, git_dir } => {
            assert_eq!(top, &wt);
            assert_eq!(git_dir, &wt_git_dir);
        }
        other => panic!("{other:?}"),
    }
    compare(&env, &wt.join("a"), "linked worktree, root a");
    // The worktree's own index (`$GIT_DIR/worktrees/wt/index`).
    write(&wt.join("only-in-wt.txt"), b"w\n");
    env.git(&wt, &["add", "only-in-wt.txt"]);
    let listing = env.walk(&repo).expect("main");
    assert!(!files(&listing).contains(&"only-in-wt.txt".to_string()));
    compare(&env, &wt, "linked worktree, its own index");

    // A split index in the worktree: its shared index is in the worktree's
    // git dir.
    env.git(&wt, &["update-index", "--split-index"]);
    assert_eq!(shared_indexes(&wt_git_dir).len(), 1);
    assert!(shared_indexes(&repo.join(".git")).is_empty());
    write(&wt.join("after-split.txt"), b"w\n");
    env.git(&wt, &["add", "after-split.txt"]);
    compare(&env, &wt, "linked worktree, split index");

    // A sparse checkout in the worktree only (config.worktree).
    env.git(&wt, &["sparse-checkout", "set", "a/b"]);
    let (listing, skip_worktree) = compare(&env, &wt, "linked worktree, sparse checkout");
    compare_grep(&env, &wt, &listing, "linked worktree, sparse checkout");
    assert_eq!(listing.not_checked_out.files + listing.not_checked_out.dirs.len(), skip_worktree);
    let (main, _) = compare(&env, &repo, "main worktree, not sparse");
    assert_eq!(main.not_checked_out, NotCheckedOut::default());
    env.git(&wt, &["sparse-checkout", "disable"]);

    // A `.git` file with a relative path and CRLF, and a relative commondir.
    write(&wt.join(".git"), b"gitdir: ../repo/.git/worktrees/wt\r\n");
    assert_eq!(fs::read(wt_git_dir.join("commondir")).expect("commondir"), b"../..\n");
    compare(&env, &wt, "relative gitdir with CRLF");
    // A gitdir path whose trailing blank is part of the name, as git reads it.
    let spaced = tmp.path().join("spaced ");
    fs::create_dir_all(&spaced).expect("dir");
    for entry in fs::read_dir(&wt_git_dir).expect("wt git dir").flatten() {
        let to = spaced.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &to);
        } else {
            fs::copy(entry.path(), &to).expect("copy");
        }
    }
    let common = repo.join(".git");
    write(&spaced.join("commondir"), format!("{}\n", common.display()).as_bytes());
    write(&wt.join(".git"), format!("gitdir: {}\n", spaced.display()).as_bytes());
    compare(&env, &wt, "gitdir path ending with a blank");
    match env.walk(&wt).expect("walk").mode {
        sfq_walk::discovery::Mode::Git { git_dir, .. } => assert_eq!(git_dir, spaced),
        other => panic!("{other:?}"),
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("mkdir");
    for entry in fs::read_dir(from).expect("read").flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("copy");
        }
    }
}
