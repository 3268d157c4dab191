//! Hand-written expectations: plain (non-git) mode, directories, filters,
//! errors and cancellation.

mod common;

use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{TempDir, symlink};
use sfq_walk::discovery::{
    EFBIG, EntryKind, GitEnvironment, Mode, SoftError, WalkConfig, WalkError, walk,
};
use sfq_walk::glob::{GlobFilter, GlobOptions, GlobSet};

fn write(root: &Path, rel: &str, data: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    fs::write(p, data).expect("write");
}

fn no_git_env() -> GitEnvironment {
    GitEnvironment { config_nosystem: true, ..Default::default() }
}

/// A tree outside git with `.gitignore` and `.ignore` files.
fn fixture(root: &Path) {
    write(root, ".gitignore", "*.log\nbuild/\n*.tmp\n");
    write(root, ".ignore", "!important.log\n");
    write(root, "a.txt", "a");
    write(root, "b.log", "b");
    write(root, "important.log", "i");
    write(root, "c.tmp", "c");
    write(root, "build/x.txt", "x");
    write(root, "sub/.gitignore", "!*.log\n");
    write(root, "sub/d.log", "d");
    write(root, "sub/e.tmp", "e");
    write(root, "sub/deep/f.txt", "f");
    write(root, ".hidden/h.txt", "h");
    write(root, ".git/config", "not a repository");
    write(root, "nested/.git/HEAD", "not a repository either");
    write(root, "nested/g.txt", "g");
    write(root, "node_modules/m.js", "m");
    write(root, "\u{FF61}.txt", "");
    write(root, "\u{1F600}.txt", "");
    symlink("a.txt", root.join("link"));
    symlink("sub", root.join("dirlink"));
    symlink("loop", root.join("loop"));
}

fn paths(
    root: &Path,
    f: impl FnOnce(sfq_walk::discovery::WalkConfigBuilder) -> sfq_walk::discovery::WalkConfigBuilder,
) -> Vec<String> {
    let cfg = f(WalkConfig::builder(root).git_environment(no_git_env())).build().expect("config");
    let listing = walk(&cfg, &|| false).expect("walk");
    assert_eq!(listing.mode, Mode::Plain);
    listing
        .entries
        .into_iter()
        .map(|e| if e.kind == EntryKind::Dir { format!("{}/", e.path) } else { e.path.into() })
        .collect()
}

#[test]
fn plain_mode_honours_gitignore_and_ignore() {
    let tmp = TempDir::new("plain");
    fixture(tmp.path());
    let got = paths(tmp.path(), |b| b);
    let want = [
        ".gitignore",
        ".hidden/h.txt",
        ".ignore",
        "a.txt",
        "important.log",
        "nested/g.txt",
        "node_modules/m.js",
        "sub/.gitignore",
        "sub/d.log",
        "sub/deep/f.txt",
        "\u{1F600}.txt",
        "\u{FF61}.txt",
    ];
    assert_eq!(got, want);
}

#[test]
fn plain_mode_options() {
    let tmp = TempDir::new("plainopts");
    fixture(tmp.path());
    let got = paths(tmp.path(), |b| b.hidden(false).prune_dirs(["node_modules"]).dirs(true));
    let want = [
        "a.txt",
        "important.log",
        "nested/",
        "nested/g.txt",
        "sub/",
        "sub/d.log",
        "sub/deep/",
        "sub/deep/f.txt",
        "\u{1F600}.txt",
        "\u{FF61}.txt",
    ];
    assert_eq!(got, want);
    let got = paths(tmp.path(), |b| b.ignore_files(false).hidden(false));
    let want = [
        "a.txt",
        "b.log",
        "build/x.txt",
        "c.tmp",
        "important.log",
        "nested/g.txt",
        "node_modules/m.js",
        "sub/d.log",
        "sub/deep/f.txt",
        "sub/e.tmp",
        "\u{1F600}.txt",
        "\u{FF61}.txt",
    ];
    assert_eq!(got, want);
}

#[test]
fn metadata_is_from_lstat() {
    let tmp = TempDir::new("meta");
    write(tmp.path(), "five.txt", "12345");
    let cfg =
        WalkConfig::builder(tmp.path()).git_environment(no_git_env()).build().expect("config");
    let l = walk(&cfg, &|| false).expect("walk");
    assert_eq!(l.entries.len(), 1);
    assert_eq!(l.entries[0].size(), Some(5));
    assert!(l.entries[0].modified().is_some());
    assert_eq!(l.entries[0].abs_path.as_deref(), Some(&tmp.path().join("five.txt")));
    assert_eq!(l.entries[0].missing, None);
}

#[test]
fn glob_filter_prunes_and_filters() {
    let tmp = TempDir::new("filter");
    fixture(tmp.path());
    let o = GlobOptions::default();
    let filter = GlobFilter::new(
        Some(GlobSet::new(["**/*.txt", "**/*.log"], &o).expect("glob")),
        Some(GlobSet::new(["**/node_modules/**", "sub/**"], &o).expect("glob")),
        Some(GlobSet::new(["sub/deep/**"], &o).expect("glob")),
        false,
    );
    let got = paths(tmp.path(), |b| b.hidden(false).filter(Arc::new(filter)));
    assert_eq!(
        got,
        [
            "a.txt",
            "important.log",
            "nested/g.txt",
            "sub/deep/f.txt",
            "\u{1F600}.txt",
            "\u{FF61}.txt"
        ]
    );
}

#[test]
fn root_errors_are_fatal_with_os_codes() {
    let tmp = TempDir::new("errs");
    write(tmp.path(), "file", "x");
    let missing = WalkConfig::builder(tmp.path().join("nope")).build().expect("config");
    assert!(matches!(
        walk(&missing, &|| false),
        Err(WalkError::Root { code: sfq_walk::discovery::ENOENT, .. })
    ));
    let file = WalkConfig::builder(tmp.path().join("file")).build().expect("config");
    assert!(matches!(
        walk(&file, &|| false),
        Err(WalkError::Root { code: sfq_walk::discovery::ENOTDIR, .. })
    ));
}

#[test]
fn cancellation_stops_the_walk() {
    let tmp = TempDir::new("cancel");
    for i in 0..50 {
        write(tmp.path(), &format!("d{i}/f.txt"), "x");
    }
    let calls = AtomicUsize::new(0);
    let cfg = WalkConfig::builder(tmp.path())
        .git_environment(no_git_env())
        .threads(2)
        .build()
        .expect("config");
    let r = walk(&cfg, &|| calls.fetch_add(1, Ordering::Relaxed) > 3);
    assert_eq!(r.err(), Some(WalkError::Cancelled));
}

#[test]
fn files_and_directories_come_in_utf16_path_order_whatever_the_thread_count() {
    // Names around `/` (0x2F) in byte order, and the two ranges where UTF-16
    // order differs from byte order (U+E000..U+FFFF after astral ones).
    let tmp = TempDir::new("order");
    let root = tmp.path();
    for rel in [
        "a/b.txt",
        "a-c.txt",
        "a.txt",
        "a0/z.txt",
        "a/-/x.txt",
        "a/./y.txt",
        "sp ace/q.txt",
        "\u{FF61}/p.txt",
        "\u{1F600}/p.txt",
        "\u{FF61}x.txt",
        "\u{1F600}x/deep/er/p.txt",
        "z/\u{E000}.txt",
        "z/\u{10000}.txt",
    ] {
        write(root, rel, "");
    }
    for threads in [1, 2, 4] {
        let cfg = WalkConfig::builder(root)
            .git_environment(no_git_env())
            .dirs(true)
            .threads(threads)
            .build()
            .expect("config");
        let got: Vec<String> = walk(&cfg, &|| false)
            .expect("walk")
            .entries
            .into_iter()
            .map(|e| e.path.into())
            .collect();
        let mut want = got.clone();
        want.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        assert_eq!(got, want, "threads {threads}");
        assert!(got.contains(&"\u{1F600}x/deep/er/p.txt".to_string()));
        assert!(got.contains(&"a/-".to_string()));
    }
}

#[test]
fn without_absolute_paths_the_listing_is_the_same_and_only_non_utf8_names_keep_theirs() {
    let tmp = TempDir::new("noabs");
    let root = tmp.path();
    for rel in ["a.txt", "d/b.txt", "d/e/c.txt", "\u{FFFD}x.txt"] {
        write(root, rel, "12");
    }
    // Two names the lossy conversion makes equal to `\u{FFFD}x.txt`: the
    // tie is ordered by the real bytes (Unix: names need not be UTF-8;
    // Windows names are UTF-16, whose unpaired surrogates the file systems
    // Wine runs on cannot hold).
    #[cfg(unix)]
    for name in [&b"\xffx.txt"[..], &b"\xfex.txt"[..]] {
        use std::os::unix::ffi::OsStrExt;
        fs::write(root.join(std::ffi::OsStr::from_bytes(name)), "3").expect("write");
    }
    for lossy in [false, true] {
        let dir = if lossy { root.to_path_buf() } else { root.join("d") };
        for threads in [1, 3] {
            let build = |abs: bool| {
                WalkConfig::builder(&dir)
                    .git_environment(no_git_env())
                    .dirs(true)
                    .abs_paths(abs)
                    .threads(threads)
                    .build()
                    .expect("config")
            };
            let with = walk(&build(true), &|| false).expect("walk").entries;
            let without = walk(&build(false), &|| false).expect("walk").entries;
            let key = |e: &sfq_walk::discovery::Entry| (e.path.clone(), e.kind, e.size());
            assert_eq!(
                with.iter().map(key).collect::<Vec<_>>(),
                without.iter().map(key).collect::<Vec<_>>(),
                "lossy {lossy} threads {threads}"
            );
            for (w, o) in with.iter().zip(&without) {
                if lossy && cfg!(unix) {
                    // A listing with a name that is not UTF-8 has them all.
                    assert_eq!(w.abs_path, o.abs_path);
                } else {
                    assert!(o.abs_path.is_none(), "{}", o.path);
                    assert_eq!(w.abs_path.as_deref(), Some(&dir.join(&*w.path)));
                }
            }
        }
    }
}

#[test]
fn ignore_files_of_100_mib_or_more_are_skipped_outside_git_too() {
    // git's limit (PATTERN_MAX_FILE_SIZE), applied to `.gitignore` and
    // `.ignore` alike: such a file is not read (a sparse file here: `*` then
    // a hole), hides nothing, and is reported; one byte less is read.
    const LIMIT: u64 = 100 * 1024 * 1024;
    let tmp = TempDir::new("bigignore");
    let root = tmp.path();
    write(root, "a.txt", "a");
    write(root, "sub/b.txt", "b");
    for (dir, name) in [("", ".gitignore"), ("", ".ignore"), ("sub/", ".ignore")] {
        let rel = format!("{dir}{name}");
        let path = root.join(&rel);
        write(root, &rel, "*\n");
        let file = fs::OpenOptions::new().write(true).open(&path).expect("open");
        file.set_len(LIMIT).expect("set_len");
        let cfg = WalkConfig::builder(root).git_environment(no_git_env()).build().expect("cfg");
        let listing = walk(&cfg, &|| false).expect("walk");
        let mut want = vec![rel.as_str(), "a.txt", "sub/b.txt"];
        want.sort();
        let got: Vec<&str> = listing.entries.iter().map(|e| &*e.path).collect();
        assert_eq!(got, want, "{rel} of 100 MiB");
        assert_eq!(listing.errors, [SoftError { path: path.clone(), code: Some(EFBIG) }]);
        file.set_len(LIMIT - 1).expect("set_len");
        let listing = walk(&cfg, &|| false).expect("walk");
        let got: Vec<&str> = listing.entries.iter().map(|e| &*e.path).collect();
        let want: &[&str] = if dir.is_empty() { &[] } else { &["a.txt"] };
        assert_eq!(got, want, "{rel} of 100 MiB - 1");
        assert!(listing.errors.is_empty(), "{:?}", listing.errors);
        fs::remove_file(&path).expect("rm");
    }
}
