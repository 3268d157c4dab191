//! Differential test: `sfq_walk::discovery::walk` against
//! `git ls-files -z --cached --others --exclude-standard` on generated
//! repositories (minus symlinks, directories and nested-repo entries, which
//! the product never lists).
//!
//! On Windows git cannot be run by the test (under Wine a Linux git starts
//! but is not waited for): a run on Linux with `SFQ_WALK_RECORD` keeps its
//! trees and git's answers, made with names Windows allows and no symlinks,
//! and `matches_recorded_git_ls_files` walks the same trees on Windows
//! (`SFQ_WALK_REPLAY`) against those answers.

// On Windows only the replay runs: the generation is Linux's.
#![cfg_attr(windows, allow(dead_code, unused_imports))]

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{Rng, TempDir, record_dir, seeds};
use sfq_walk::discovery::{
    EFBIG, EntryKind, GitEnvironment, Listing, SoftError, WalkConfig, WalkError, walk,
};

struct Env {
    home: PathBuf,
    xdg: PathBuf,
}

impl Env {
    fn git(&self, dir: &Path, args: &[&str]) -> Vec<u8> {
        self.git_stdin(dir, args, &[])
    }
    fn git_stdin(&self, dir: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
        let mut child = Command::new("git")
            .args([
                "-c",
                "init.defaultBranch=main",
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@e",
                "-c",
                "core.autocrlf=false",
            ])
            .args(args)
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", &self.xdg)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("LC_ALL", "C")
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
    /// Runs git expecting it to fail: its stderr.
    fn git_fails(&self, dir: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", &self.xdg)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("LC_ALL", "C")
            .output()
            .expect("git");
        assert!(!out.status.success(), "git {args:?} in {} succeeded", dir.display());
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
    fn git_env(&self) -> GitEnvironment {
        GitEnvironment {
            home: Some(self.home.clone()),
            xdg_config_home: Some(self.xdg.clone()),
            config_nosystem: true,
            ..Default::default()
        }
    }
}

const NAMES: &[&str] = &[
    "a",
    "b",
    "src",
    "lib",
    "build",
    "dist",
    "tmp",
    "node_modules",
    "sp ace",
    "ünï",
    "\u{FF61}",
    "\u{1F600}",
    ".hidden",
    "x.log",
    "foo.o",
    "[br]",
    "tr ",
    "#h",
    "!bang",
    "a*b",
    "Keep.LOG",
    "deep",
    "q?",
    "zz",
    "caf\u{e9}",
    "e\u{301}",
];
const EXTS: &[&str] = &["", ".txt", ".log", ".o", ".rs", ".ts", ".md", " "];

/// A name Windows allows: none of `*?"<>|:\\`, no trailing blank or dot.
fn windows_name(name: &str) -> bool {
    !name.contains(['*', '?', '"', '<', '>', '|', ':', '\\']) && !name.ends_with([' ', '.'])
}

fn name(rng: &mut Rng) -> String {
    loop {
        let mut n = NAMES[rng.below(NAMES.len())].to_string();
        if rng.chance(50) {
            n.push_str(EXTS[rng.below(EXTS.len())]);
        }
        // Trees recorded for Windows hold only names it allows.
        if record_dir().is_none() || windows_name(&n) {
            return n;
        }
    }
}

/// A symbolic link, where the tree is not recorded for Windows (which
/// checks links out as text files unless told otherwise: its own case).
fn try_symlink(target: &str, link: &Path) {
    #[cfg(unix)]
    if record_dir().is_none() {
        let _ = std::os::unix::fs::symlink(target, link);
    }
    #[cfg(not(unix))]
    let _ = (target, link);
}

/// A path held as bytes (UTF-8 on Windows, any bytes on Unix).
fn os_path(raw: &[u8]) -> PathBuf {
    #[cfg(unix)]
    return PathBuf::from(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(raw));
    #[cfg(not(unix))]
    PathBuf::from(String::from_utf8_lossy(raw).into_owned())
}

fn rule(rng: &mut Rng) -> String {
    let atoms = [
        "*.log",
        "*.o",
        "build/",
        "/dist",
        "!keep.log",
        "**/tmp",
        "a/**/b",
        "\\!bang",
        "\\#h",
        "x.log   ",
        "tr\\ ",
        "[abc]*",
        "[!a]*.txt",
        "[[:digit:]]*",
        "?.txt",
        "node_modules/",
        "*.log/",
        "!build/",
        "src/*.rs",
        "/src/**/*.ts",
        "**/lib/",
        "deep/**",
        "!*.md",
        "ünï",
        "\u{1F600}*",
        "[\u{FF61}]",
        "!\u{FF61}",
        "*",
        "!*/",
        "**/",
        "a**/b",
        "zz*",
        "!zz",
        "[[:alpha:]][!.]*",
        "q\\?",
        "*.[oO]",
        "Keep.*",
        "caf?",
        "e*",
        "\\[br]",
        "[br]",
        "!.hidden",
        ".hidden/",
        "lib",
        "/*.txt",
        "sp ace/",
        "*/*",
        "**/*.ts",
        "!**/a/**",
        "b/",
        "#comment",
    ];
    let mut r = rng.pick(&atoms).to_string();
    if rng.chance(10) {
        r.push_str("  ");
    }
    r
}

/// Writes a file, creating parents; silently skips impossible paths (a
/// parent that is a file) since the tree is random.
fn write(path: &Path, data: &[u8]) {
    if let Some(p) = path.parent()
        && fs::create_dir_all(p).is_err()
    {
        return;
    }
    let _ = fs::write(path, data);
}

fn random_tree(rng: &mut Rng, root: &Path, files: usize) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = vec![PathBuf::new()];
    let mut made = Vec::new();
    for _ in 0..files {
        let base = rng.pick(&dirs).clone();
        if rng.chance(35) && base.components().count() < 4 {
            let d = base.join(name(rng));
            if root.join(&d).is_file() {
                continue;
            }
            fs::create_dir_all(root.join(&d)).ok();
            if root.join(&d).is_dir() {
                dirs.push(d);
            }
            continue;
        }
        let f = base.join(name(rng));
        if root.join(&f).is_dir() {
            continue;
        }
        write(&root.join(&f), b"x\n");
        made.push(f);
    }
    for d in dirs.iter() {
        if rng.chance(40) {
            let n = 1 + rng.below(5);
            let lines: Vec<String> = (0..n).map(|_| rule(rng)).collect();
            let mut text = lines.join("\n");
            if rng.chance(20) {
                text = text.replace('\n', "\r\n");
            }
            if rng.chance(70) {
                text.push('\n');
            }
            write(&root.join(d).join(".gitignore"), text.as_bytes());
        }
    }
    made
}

/// The reference: git's list, keeping regular files (and missing ones).
fn expected(root: &Path, git_out: &[u8]) -> (Vec<String>, BTreeSet<String>) {
    let mut set = BTreeSet::new();
    let mut missing = BTreeSet::new();
    'outer: for raw in git_out.split(|&c| c == 0) {
        if raw.is_empty() || raw.ends_with(b"/") {
            continue;
        }
        let rel = os_path(raw);
        // Any symlinked component drops the path.
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
                    // ENOTDIR: a tracked path below a file.
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
    let mut list: Vec<String> = set.into_iter().collect();
    list.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    (list, missing)
}

fn compare(env: &Env, root: &Path, label: &str, threads: usize) {
    let git_out = env.git(root, &["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
    if let Some(dir) = record_dir() {
        record(&dir, env, root, label, threads, &git_out);
    }
    check(&env.git_env(), root, label, threads, &git_out);
}

/// Keeps a comparison for Windows to replay: a copy of the test's folder as
/// it is now (`trees/<n>/`; a worktree's gitfile made to point into the copy
/// by a relative path), `cases/<n>.case` (the label, then the root, home and XDG
/// folders relative to the record folder, `/`-separated, then the thread
/// count, a line each) and `cases/<n>.git` (git's answer).
fn record(dir: &Path, env: &Env, root: &Path, label: &str, threads: usize, git_out: &[u8]) {
    static N: AtomicUsize = AtomicUsize::new(0);
    let name = format!("{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
    let dir = fs::canonicalize(dir).expect("record folder");
    let test_dir = env.home.parent().expect("the test's folder");
    let copy = dir.join("trees").join(&name);
    common::copy_tree(test_dir, &copy);
    let moved = |p: &Path| copy.join(p.strip_prefix(test_dir).expect("in the test's folder"));
    let gitfile = moved(root).join(".git");
    if gitfile.is_file() {
        // Relative (as `git worktree add --relative-paths` writes it): the
        // copy is read where Windows finds it, under Wine or on a runner.
        let text = fs::read_to_string(&gitfile).expect("gitfile");
        let target = text.trim_end().strip_prefix("gitdir: ").expect("gitdir: line");
        let target = moved(Path::new(target));
        let from = moved(root);
        let up = from.strip_prefix(&copy).expect("in the copy").components().count();
        let rel = format!(
            "{}{}",
            "../".repeat(up),
            target.strip_prefix(&copy).expect("in the copy").to_str().expect("UTF-8")
        );
        fs::write(&gitfile, format!("gitdir: {rel}\n")).expect("gitfile");
    }
    let rel = |p: &Path| {
        let r = moved(p);
        r.strip_prefix(&dir).expect("in the record folder").to_str().expect("UTF-8").to_string()
    };
    let text =
        format!("{label}\n{}\n{}\n{}\n{threads}\n", rel(root), rel(&env.home), rel(&env.xdg));
    fs::create_dir_all(dir.join("cases")).expect("cases folder");
    fs::write(dir.join("cases").join(format!("{name}.case")), text).expect("write case");
    fs::write(dir.join("cases").join(format!("{name}.git")), git_out).expect("write case");
}

/// The walk of `root` against git's answer `git_out` on it.
fn check(git_env: &GitEnvironment, root: &Path, label: &str, threads: usize, git_out: &[u8]) {
    let (want, want_missing) = expected(root, git_out);
    let cfg = WalkConfig::builder(root)
        .git_environment(git_env.clone())
        .threads(threads)
        .build()
        .expect("config");
    let listing = walk(&cfg, &|| false).expect("walk");
    let got: Vec<String> = listing
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::File)
        .map(|e| e.path.to_string())
        .collect();
    let got_missing: BTreeSet<String> = listing
        .entries
        .iter()
        .filter(|e| e.missing.is_some())
        .map(|e| e.path.to_string())
        .collect();
    if got != want {
        let g: BTreeSet<_> = got.iter().collect();
        let w: BTreeSet<_> = want.iter().collect();
        let extra: Vec<_> = g.difference(&w).collect();
        let lacking: Vec<_> = w.difference(&g).collect();
        panic!(
            "{label}: {} differs from git\n  extra (ours only): {extra:?}\n  missing (git only): {lacking:?}\n  order ok: {}",
            root.display(),
            extra.is_empty() && lacking.is_empty()
        );
    }
    assert_eq!(got_missing, want_missing, "{label}: missing flags in {}", root.display());

    // Pruned names and hidden entries: git's list minus paths with such components.
    let cfg = WalkConfig::builder(root)
        .git_environment(git_env.clone())
        .threads(threads)
        .prune_dirs(["node_modules", "build"])
        .hidden(false)
        .metadata(false)
        .build()
        .expect("config");
    let listing = walk(&cfg, &|| false).expect("walk");
    let got: Vec<String> = listing.entries.iter().map(|e| e.path.to_string()).collect();
    let want: Vec<String> = want
        .into_iter()
        .filter(|p| {
            let comps: Vec<&str> = p.split('/').collect();
            !comps.iter().any(|c| c.starts_with('.'))
                && !comps[..comps.len() - 1].iter().any(|c| *c == "node_modules" || *c == "build")
        })
        .collect();
    assert_eq!(got, want, "{label}: pruned/hidden listing in {}", root.display());
}

fn one_seed(seed: u64) {
    let mut rng = Rng::new(seed);
    let tmp = TempDir::new(&format!("git{seed}"));
    let env = Env { home: tmp.path().join("home"), xdg: tmp.path().join("xdg") };
    fs::create_dir_all(&env.home).expect("home");
    fs::create_dir_all(env.xdg.join("git")).expect("xdg");
    let repo = tmp.path().join("repo");
    fs::create_dir_all(&repo).expect("repo");
    env.git(&repo, &["init", "-q"]);

    let count = 40 + rng.below(80);
    let files = random_tree(&mut rng, &repo, count);
    // Global excludes: default XDG location or core.excludesFile.
    let global_rules: Vec<String> = (0..rng.below(4)).map(|_| rule(&mut rng)).collect();
    if rng.chance(50) {
        write(&env.xdg.join("git/ignore"), global_rules.join("\n").as_bytes());
    } else {
        write(&env.home.join("my-ignore"), global_rules.join("\n").as_bytes());
        write(&env.home.join(".gitconfig"), b"[core]\n\texcludesFile = ~/my-ignore\n");
    }
    let exclude_rules: Vec<String> = (0..rng.below(4)).map(|_| rule(&mut rng)).collect();
    write(&repo.join(".git/info/exclude"), exclude_rules.join("\n").as_bytes());

    // Track a random subset, ignored files included.
    let mut to_add = Vec::new();
    for f in &files {
        if rng.chance(50) && repo.join(f).is_file() {
            to_add.extend_from_slice(f.to_str().expect("UTF-8 name").as_bytes());
            to_add.push(0);
        }
    }
    if !to_add.is_empty() {
        env.git_stdin(
            &repo,
            &["add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul"],
            &to_add,
        );
    }
    // Unmerged stages for one path.
    if rng.chance(50) {
        write(&repo.join("conflict.txt"), b"c\n");
        let oid =
            String::from_utf8(env.git(&repo, &["hash-object", "-w", "conflict.txt"])).expect("oid");
        let oid = oid.trim();
        let info = format!(
            "100644 {oid} 1\tconflict.txt\n100644 {oid} 2\tconflict.txt\n100644 {oid} 3\tconflict.txt\n"
        );
        env.git_stdin(&repo, &["update-index", "--index-info"], info.as_bytes());
    }
    // Delete some tracked files; make a tracked path a directory.
    let tracked: Vec<PathBuf> =
        to_add.split(|&c| c == 0).filter(|s| !s.is_empty()).map(os_path).collect();
    for t in &tracked {
        if rng.chance(10) {
            fs::remove_file(repo.join(t)).ok();
        }
    }
    if let Some(t) = tracked.first()
        && rng.chance(30)
        && repo.join(t).is_file()
    {
        fs::remove_file(repo.join(t)).ok();
        write(&repo.join(t).join("inner.txt"), b"i\n");
    }
    // More untracked files after the add.
    random_tree(&mut rng, &repo, 20);
    // Symlinks: to a file, to a dir, a loop, a tracked one, a dangling one.
    try_symlink("a", &repo.join("link-file"));
    try_symlink("src", &repo.join("link-dir"));
    try_symlink("loop", &repo.join("loop"));
    try_symlink("nowhere", &repo.join("dangling"));
    write(&repo.join("real/inside.txt"), b"r\n");
    try_symlink("../real", &repo.join("src-link"));
    if rng.chance(50) && repo.join("link-file").symlink_metadata().is_ok() {
        env.git(&repo, &["add", "-f", "link-file", "dangling"]);
    }
    // node_modules at several depths.
    write(&repo.join("node_modules/pkg/index.js"), b"m\n");
    write(&repo.join("src/node_modules/x/y.js"), b"m\n");
    // An untracked nested repository.
    let nested = repo.join("nested");
    fs::create_dir_all(&nested).expect("nested");
    env.git(&nested, &["init", "-q"]);
    write(&nested.join("file.txt"), b"n\n");
    // Index version.
    let version = ["2", "3", "4"][rng.below(3)];
    env.git(&repo, &["update-index", "--index-version", version]);
    // A split index (the shared index holds the entries, `link` the rest).
    let split = rng.chance(30);
    if split {
        env.git(&repo, &["update-index", "--split-index"]);
        let oid =
            String::from_utf8(env.git(&repo, &["hash-object", "-w", "--stdin"])).expect("oid");
        let info = format!("100644 {}\tsplit-added.txt\n", oid.trim());
        env.git_stdin(&repo, &["update-index", "--index-info"], info.as_bytes());
    }

    compare(
        &env,
        &repo,
        &format!("seed {seed} top (index v{version}{})", if split { ", split" } else { "" }),
        1 + rng.below(4),
    );

    // A subdirectory root.
    let mut subdirs = Vec::new();
    for e in fs::read_dir(&repo).expect("read").flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir())
            && e.file_name() != ".git"
            && e.file_name() != "nested"
        {
            subdirs.push(e.path());
        }
    }
    subdirs.sort();
    if !subdirs.is_empty() {
        let sub = rng.pick(&subdirs).clone();
        compare(&env, &sub, &format!("seed {seed} subdir {}", sub.display()), 2);
        // Two levels below the top: the root's prefix in the repository has
        // a separator (`/` in the index on every platform).
        let mut deeper: Vec<PathBuf> = fs::read_dir(&sub)
            .expect("read")
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.path())
            .collect();
        deeper.sort();
        if !deeper.is_empty() {
            let deep = rng.pick(&deeper).clone();
            compare(&env, &deep, &format!("seed {seed} subdir {}", deep.display()), 1);
        }
    }

    // A linked worktree (needs a commit).
    if seed.is_multiple_of(3) {
        env.git(&repo, &["update-index", "--force-remove", "conflict.txt"]);
        env.git(&repo, &["commit", "-q", "--allow-empty", "-m", "c"]);
        let wt = tmp.path().join("wt");
        env.git(&repo, &["worktree", "add", "-q", wt.to_str().expect("utf8"), "-b", "wt"]);
        random_tree(&mut rng, &wt, 15);
        compare(&env, &wt, &format!("seed {seed} worktree"), 2);
    }
}

/// The comparisons a recording run kept (see the module's doc), each made
/// again here on the same trees.
#[cfg(windows)]
#[test]
fn matches_recorded_git_ls_files() {
    let dir = common::replay_dir().expect(
        "set SFQ_WALK_REPLAY to the folder a Linux run of this test filled with SFQ_WALK_RECORD (scripts/test-wine.mjs does both)",
    );
    let mut cases: Vec<PathBuf> = fs::read_dir(dir.join("cases"))
        .expect("the replay folder has cases/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no cases in {}", dir.display());
    let at = |rel: &str| rel.split('/').fold(dir.clone(), |p, c| p.join(c));
    for case in &cases {
        let text = fs::read_to_string(case).expect("read case");
        let lines: Vec<&str> = text.lines().collect();
        let [label, root, home, xdg, threads] = lines[..] else {
            panic!("bad case {}", case.display())
        };
        let git_out = fs::read(case.with_extension("git")).expect("read git's answer");
        let git_env = GitEnvironment {
            home: Some(at(home)),
            xdg_config_home: Some(at(xdg)),
            config_nosystem: true,
            ..Default::default()
        };
        check(&git_env, &at(root), label, threads.parse().expect("threads"), &git_out);
    }
    eprintln!("git differential on Windows: {} recorded comparisons identical", cases.len());
}

#[cfg(unix)]
#[test]
fn matches_git_ls_files() {
    let seeds = seeds(40);
    for &seed in &seeds {
        one_seed(seed);
    }
    eprintln!("git differential: {} seeds identical", seeds.len());
}

#[cfg(unix)]
#[test]
fn threads_do_not_change_output() {
    let mut rng = Rng::new(77);
    let (_tmp, env, repo) = empty_repo("threads", &[]);
    random_tree(&mut rng, &repo, 300);
    let run = |threads| {
        let cfg = WalkConfig::builder(&repo)
            .git_environment(env.git_env())
            .threads(threads)
            .dirs(true)
            .build()
            .expect("cfg");
        walk(&cfg, &|| false).expect("walk").entries
    };
    let one = run(1);
    for t in [2, 3, 8] {
        assert_eq!(run(t), one, "threads = {t}");
    }
}

/// A fresh empty repository (`git init` with `init_args`), its home and
/// XDG folders in the same temporary folder.
fn empty_repo(tag: &str, init_args: &[&str]) -> (TempDir, Env, PathBuf) {
    let tmp = TempDir::new(tag);
    let env = Env { home: tmp.path().join("home"), xdg: tmp.path().join("xdg") };
    fs::create_dir_all(&env.home).expect("home");
    let repo = tmp.path().join("repo");
    fs::create_dir_all(&repo).expect("repo");
    let mut args = vec!["init", "-q"];
    args.extend_from_slice(init_args);
    env.git(&repo, &args);
    (tmp, env, repo)
}

/// A fresh repository with a few files and rules, for the feature tests.
fn small_repo(tag: &str, init_args: &[&str]) -> (TempDir, Env, PathBuf) {
    let (tmp, env, repo) = empty_repo(tag, init_args);
    for f in ["a.txt", "b.log", "B.LOG", "c.inc", "d/e.inc", "d/f.txt", "g.Tmp"] {
        write(&repo.join(f), b"x\n");
    }
    write(&repo.join(".gitignore"), b"*.LOG\n*.tmp\n");
    env.git(&repo, &["add", "a.txt", "d/f.txt"]);
    (tmp, env, repo)
}

#[cfg(unix)]
#[test]
fn include_if_gitdir_and_sha256_and_ignorecase() {
    // includeIf "gitdir:" pulling in core.excludesFile.
    let (_tmp, env, repo) = small_repo("incl", &[]);
    write(&env.home.join("inc.cfg"), b"[core]\n\texcludesFile = ~/inc-ignore\n");
    write(&env.home.join("inc-ignore"), b"*.inc\n");
    let cfg = format!("[includeIf \"gitdir:{}/\"]\n\tpath = inc.cfg\n", repo.display());
    write(&env.home.join(".gitconfig"), cfg.as_bytes());
    compare(&env, &repo, "includeIf gitdir", 1);

    // A SHA-256 repository (32-byte object ids in the index).
    let (_tmp2, env2, repo2) = small_repo("sha256", &["--object-format=sha256"]);
    compare(&env2, &repo2, "sha256", 1);

    // core.ignoreCase = true: ignore rules fold ASCII case.
    let (_tmp3, env3, repo3) = small_repo("icase", &[]);
    env3.git(&repo3, &["config", "core.ignorecase", "true"]);
    compare(&env3, &repo3, "ignorecase", 1);
}

/// `core.ignoreCase = true` (Windows' and macOS's default): a file or
/// folder whose case on disk differs from the index's (a case-only rename)
/// is the tracked one, listed as the index spells it, never also as an
/// untracked path. (On Linux's case-sensitive disk git lists the index's
/// path as missing; under Wine, which looks names up ignoring case, as
/// present: the replay checks that with the same answer of git's.) The name
/// ends with the recorded tests' filter, so Windows replays it.
#[cfg(unix)]
#[test]
fn ignore_case_matches_git_ls_files() {
    let (_tmp, env, repo) = empty_repo("icase-rename", &[]);
    for f in
        ["README.md", "Docs/a.md", "Docs/Sub/b.md", "Docs/Sub/c.log", "src/Main.rs", "x/Y/z.txt"]
    {
        write(&repo.join(f), b"x\n");
    }
    write(&repo.join(".gitignore"), b"*.log\n");
    env.git(&repo, &["add", "-f", "."]);
    env.git(&repo, &["config", "core.ignorecase", "true"]);
    fs::rename(repo.join("README.md"), repo.join("Readme.md")).expect("rename");
    fs::rename(repo.join("Docs"), repo.join("docs")).expect("rename");
    fs::rename(repo.join("docs/Sub"), repo.join("docs/sub")).expect("rename");
    fs::rename(repo.join("src/Main.rs"), repo.join("src/main.rs")).expect("rename");
    write(&repo.join("docs/new.md"), b"n\n");
    write(&repo.join("docs/sub/new.log"), b"n\n");
    write(&repo.join("docs/sub/d.md"), b"n\n");
    write(&repo.join("src/other.rs"), b"n\n");
    for threads in [1, 3] {
        compare(&env, &repo, "case-only renames under core.ignoreCase", threads);
    }
    compare(&env, &repo.join("docs"), "a root inside a renamed folder", 1);
    compare(&env, &repo.join("x"), "a root above an unrenamed one", 1);
}

/// With `core.symlinks = false` (Git for Windows' default) a tracked link is
/// checked out as a text file holding its target: still a link, never listed
/// (as a link checked out as a link is not), wherever it sits.
#[cfg(unix)]
#[test]
fn a_tracked_link_checked_out_as_a_file_is_not_listed() {
    let (_tmp, env, repo) = empty_repo("link-as-file", &[]);
    env.git(&repo, &["config", "core.symlinks", "false"]);
    write(&repo.join("a.txt"), b"a\n");
    write(&repo.join("sub/b.txt"), b"b\n");
    let oid = String::from_utf8(env.git_stdin(&repo, &["hash-object", "-w", "--stdin"], b"a.txt"))
        .expect("oid");
    let info = format!("120000 {0}\tlink\n120000 {0}\tsub/link\n", oid.trim());
    env.git_stdin(&repo, &["update-index", "--add", "--index-info"], info.as_bytes());
    env.git(&repo, &["add", "a.txt", "sub/b.txt"]);
    // As git checks them out with core.symlinks=false: files holding the target.
    write(&repo.join("link"), b"a.txt");
    write(&repo.join("sub/link"), b"a.txt");
    let listed = String::from_utf8(env.git(&repo, &["ls-files"])).expect("utf8");
    assert!(listed.lines().any(|l| l == "sub/link"), "git tracks the links: {listed}");
    for threads in [1, 2] {
        let cfg = WalkConfig::builder(&repo)
            .git_environment(env.git_env())
            .threads(threads)
            .build()
            .expect("cfg");
        let got = common::files(&walk(&cfg, &|| false).expect("walk"));
        assert_eq!(got, ["a.txt", "sub/b.txt"], "threads {threads}");
    }
    // Below a root inside the repository, and looked up outside the folder walk.
    let cfg =
        WalkConfig::builder(repo.join("sub")).git_environment(env.git_env()).build().expect("cfg");
    assert_eq!(common::files(&walk(&cfg, &|| false).expect("walk")), ["b.txt"]);
}

#[cfg(unix)]
#[test]
fn an_index_rewritten_between_walks_is_read_again() {
    // The parse of an unchanged index is reused across walks; git rewrites
    // the index (a new file renamed over it) on every change, and each
    // change is seen by the next walk.
    let (_tmp, env, repo) = small_repo("rewrite", &[]);
    compare(&env, &repo, "first walk", 1);
    env.git(&repo, &["add", "-f", "b.log"]);
    compare(&env, &repo, "after add -f of an ignored file", 1);
    env.git(&repo, &["rm", "-q", "--cached", "a.txt"]);
    compare(&env, &repo, "after rm --cached", 2);
    env.git(&repo, &["add", "-f", "B.LOG"]);
    compare(&env, &repo, "after a second add", 1);
}

/// git's `PATTERN_MAX_FILE_SIZE`: 100 MiB.
const PATTERN_MAX: u64 = 100 * 1024 * 1024;

/// Makes `path` a sparse file of `len` bytes: the line `*`, then a hole
/// (NUL bytes that take no disk space).
fn star_file(path: &Path, len: u64) {
    write(path, b"*\n");
    fs::OpenOptions::new().write(true).open(path).expect("open").set_len(len).expect("set_len");
}

fn files(listing: &Listing) -> Vec<&str> {
    listing.entries.iter().filter(|e| e.kind == EntryKind::File).map(|e| &*e.path).collect()
}

#[cfg(unix)]
#[test]
fn ignore_files_of_100_mib_or_more_are_treated_as_git_treats_them() {
    // small_repo: a.txt and d/f.txt tracked, b.log, B.LOG, c.inc, d/e.inc,
    // g.Tmp and .gitignore untracked.
    let (_tmp, env, repo) = small_repo("oversized", &[]);
    let walk_at = |root: &Path| {
        let cfg = WalkConfig::builder(root).git_environment(env.git_env()).build().expect("cfg");
        walk(&cfg, &|| false)
    };
    let tracked = ["a.txt", "d/f.txt"];

    // A .gitignore of exactly 100 MiB holding `*`: git skips it (with a
    // warning) and hides nothing; the walk skips it unread and reports it.
    let gitignore = repo.join(".gitignore");
    star_file(&gitignore, PATTERN_MAX);
    compare(&env, &repo, ".gitignore of 100 MiB", 2);
    let listing = walk_at(&repo).expect("walk");
    assert_eq!(files(&listing).len(), 8, "{:?}", files(&listing));
    assert_eq!(listing.errors, [SoftError { path: gitignore.clone(), code: Some(EFBIG) }]);
    // From a subdirectory root (the top's .gitignore is an ancestor's).
    compare(&env, &repo.join("d"), ".gitignore of 100 MiB, root d", 1);
    assert_eq!(walk_at(&repo.join("d")).expect("walk").errors.len(), 1);
    // One byte less: read, and `*` hides every untracked file.
    star_file(&gitignore, PATTERN_MAX - 1);
    compare(&env, &repo, ".gitignore of 100 MiB - 1", 2);
    let listing = walk_at(&repo).expect("walk");
    assert_eq!(files(&listing), tracked);
    assert!(listing.errors.is_empty(), "{:?}", listing.errors);
    compare(&env, &repo.join("d"), ".gitignore of 100 MiB - 1, root d", 1);
    fs::remove_file(&gitignore).expect("rm");

    // The same in a subdirectory.
    let nested = repo.join("d/.gitignore");
    star_file(&nested, PATTERN_MAX);
    compare(&env, &repo, "d/.gitignore of 100 MiB", 1);
    assert!(files(&walk_at(&repo).expect("walk")).contains(&"d/e.inc"));
    star_file(&nested, PATTERN_MAX - 1);
    compare(&env, &repo, "d/.gitignore of 100 MiB - 1", 1);
    assert!(!files(&walk_at(&repo).expect("walk")).contains(&"d/e.inc"));
    fs::remove_file(&nested).expect("rm");

    // info/exclude and core.excludesFile (here at its default XDG place and
    // set in the config): git dies ("cannot use … as an exclude file"); the
    // walk ends with a repository error naming the file.
    let info = repo.join(".git/info/exclude");
    let xdg = env.xdg.join("git/ignore");
    let configured = env.home.join("big-ignore");
    for (label, file) in
        [("info/exclude", &info), ("XDG excludes file", &xdg), ("core.excludesFile", &configured)]
    {
        if file == &configured {
            let value = configured.to_str().expect("utf8");
            env.git(&repo, &["config", "core.excludesFile", value]);
        }
        star_file(file, PATTERN_MAX);
        let stderr = env.git_fails(&repo, &["ls-files", "--others", "--exclude-standard"]);
        assert!(stderr.contains("as an exclude file"), "{label}: {stderr}");
        match walk_at(&repo) {
            Err(WalkError::Repository { path, reason }) => {
                assert_eq!(&path, file, "{label}");
                assert!(reason.contains("100 MiB") && reason.contains("exclude file"), "{reason}");
            }
            other => panic!("{label}: expected a repository error, got {other:?}"),
        }
        star_file(file, PATTERN_MAX - 1);
        compare(&env, &repo, &format!("{label} of 100 MiB - 1"), 1);
        assert_eq!(files(&walk_at(&repo).expect("walk")), tracked, "{label}");
        fs::remove_file(file).expect("rm");
    }
    compare(&env, &repo, "no ignore file left", 1);
}
