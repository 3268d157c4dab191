//! `findFiles` (seed 002): files and directories whose path matches a glob,
//! `.gitignore` respected, seed 002's always-ignored directories skipped.

use serde::Serialize;
use std::sync::Arc;

use sfq_walk::discovery::{EntryKind, PathFilter};
use sfq_walk::glob::GlobSet;

use crate::cancel::Cancel;
use crate::discovery::{self, DiscoveryProfile, glob_set};
use crate::error::{Error, ErrorCode, Result};
use crate::options::{Kind, OptSpec, RawOptions, opt};
use crate::paths::{resolve_inside, resolve_root};
use crate::transport::{Compact, Writer};

/// `findFiles`' options.
pub const OPTIONS: &[OptSpec] = &[
    opt("pattern", Kind::Str, "glob pattern (without '/': names at any depth)")
        .mcp_same("Glob pattern (e.g., \"*.ts\", \"**/*.test.js\")"),
    opt("path", Kind::Str, "directory to search (default: project root)")
        .mcp_same("Directory to search (default: project root)"),
    opt("maxResults", Kind::Int(1, 10_000_000), "maximum files to return (default: 100)")
        .default_int(100)
        .mcp_same("Maximum files to return (default: 100)")
        .cli(
            "--max-results",
            "<n>",
            "entries listed, the first in path order (default 100); a warning on stderr says when there were more",
        ),
    opt("sizes", Kind::Bool, "give each file's size (default: true); false: no stat per file")
        .default_bool(true)
        .mcp_same(
            "Give each file's size (default: true); false lists paths and types only, without a stat per \
             file (faster on large trees)",
        ),
    opt("recurseSubmodules", Kind::Bool, "list initialised git submodules' files too (default: false)")
        .default_bool(false)
        .mcp_same(crate::options::RECURSE_SUBMODULES_MCP)
        .cli("--recurse-submodules", "", crate::options::SUBMODULES_CLI),
    opt("cwd", Kind::Str, "workspace root (default: process.cwd())").default_prose("process.cwd()"),
    crate::options::TIMEOUT_MS,
    crate::options::THREADS,
];

/// One entry found.
#[derive(Debug, Serialize)]
pub struct Found {
    /// Root-relative POSIX path.
    pub path: String,
    /// `file` or `dir`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Size in bytes (files only; none with `sizes: false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

/// `findFiles`' entries in the compact transport, written directly (a
/// listing of 50,000 entries spent 10 ms in the generic serialiser, most of
/// it finding each object's shape by its keys).
pub fn to_compact(found: &[Found]) -> Compact {
    let units = found.iter().map(|f| f.path.len()).sum::<usize>();
    let mut w = Writer::with_capacity(2 + found.len() * 8, found.len() + 2, units);
    let sized = w.shape(&["path", "type", "size"]);
    let bare = w.shape(&["path", "type"]);
    let file = w.add_str("file");
    let dir = w.add_str("dir");
    w.array(found.len());
    for f in found {
        w.object(if f.size.is_some() { sized } else { bare });
        let path = w.add_str(&f.path);
        w.string(path);
        w.string(if f.kind == "dir" { dir } else { file });
        if let Some(size) = f.size {
            w.number(size);
        }
    }
    w.finish()
}

/// Prunes the walk to directories that match the pattern or can hold a match.
/// Paths are relative to the walk's base (`path`), as the pattern is (a user
/// of `find path -path` expects `src/*.ts` under `path`, not under the root).
/// Files are matched as they are found; directories after the walk.
struct PatternFilter {
    globs: GlobSet,
}

impl PathFilter for PatternFilter {
    fn skip_dir(&self, path: &str) -> bool {
        !self.globs.could_match_under(path) && !self.globs.is_match(path)
    }
    fn keep_file(&self, path: &str) -> bool {
        self.globs.is_match(path)
    }
    fn key(&self) -> Option<String> {
        Some(format!("pattern {}", self.globs.key()))
    }
}

/// The walk of a listing of at most `max` entries: with `sizes`, every file
/// is `lstat`ed during the walk when more than
/// [`discovery::STAT_DURING_WALK_ABOVE`] are asked for, else only the
/// returned ones after it (by their absolute paths); without, none is.
fn walk_profile(
    globs: &GlobSet,
    sizes: bool,
    max: usize,
    threads: usize,
    recurse_submodules: bool,
    source: crate::engine::Source,
) -> DiscoveryProfile {
    DiscoveryProfile {
        prune_names: crate::excludes::SEED002.iter().map(|s| s.to_string()).collect(),
        filter: Some(Arc::new(PatternFilter { globs: globs.clone() })),
        dirs: true,
        hidden: true,
        ignore_files: true,
        metadata: sizes && max > discovery::STAT_DURING_WALK_ABOVE,
        // Only the files stated after the walk are opened by their path.
        abs_paths: sizes && max <= discovery::STAT_DURING_WALK_ABOVE,
        threads,
        recurse_submodules,
        source,
    }
}

/// Runs `findFiles`: the first `maxResults` matches in path order. With
/// `sizes: false` no file is `lstat`ed for its size: the walk's directory
/// reads give each entry's kind (`d_type`; an `lstat` only where the file
/// system does not record it), and the entries are the same, without `size`.
pub fn run(raw: &RawOptions, cancel: &Cancel) -> Result<Vec<Found>> {
    let pattern = raw
        .string("pattern")?
        .ok_or_else(|| Error::invalid_option("findFiles: option 'pattern' is required (a glob such as \"*.ts\" or \"src/**/*.test.js\")"))?;
    let max = raw.int_default("maxResults", OPTIONS)? as usize;
    let sizes = raw.bool_default("sizes", OPTIONS)?;
    let threads = raw.threads()?;
    let root = resolve_root(raw.string("cwd")?.as_deref())?;
    // `path` scopes the walk to a directory inside the root.
    let (base, prefix) = match raw.string("path")?.filter(|p| !p.is_empty() && p != ".") {
        Some(p) => {
            let (abs, rel) = resolve_inside(&root, &p)?;
            if !abs.is_dir() {
                return Err(Error::new(
                    ErrorCode::Io("ENOTDIR"),
                    format!("ENOTDIR: '{p}' is not a directory"),
                ));
            }
            let prefix = if rel.is_empty() { String::new() } else { format!("{rel}/") };
            (abs, prefix)
        }
        None => (root.clone(), String::new()),
    };
    // A pattern without `/` matches the name at any depth (seed 002's "*.ts").
    let basename = !pattern.contains('/');
    let globs: GlobSet = glob_set("pattern", &[pattern], true, basename)?;
    let recurse = raw.bool_default("recurseSubmodules", OPTIONS)?;
    let profile = walk_profile(&globs, sizes, max, threads, recurse, raw.source().clone());
    let (entries, _unreadable) = discovery::entries(&base, &profile, cancel)?;
    cancel.check()?;
    let mut found = Vec::new();
    for e in entries {
        if e.missing.is_some() {
            continue; // tracked but deleted: nothing to find on disk
        }
        // Files were matched by the filter during the walk; directories are
        // matched here (the filter may only prune them).
        if e.kind != EntryKind::File && !globs.is_match(&e.path) {
            continue;
        }
        let path =
            if prefix.is_empty() { e.path.to_string() } else { format!("{prefix}{}", e.path) };
        let (kind, size) = match e.kind {
            EntryKind::File if !sizes => ("file", None),
            EntryKind::File if profile.metadata => ("file", e.size()),
            EntryKind::File => {
                ("file", std::fs::symlink_metadata(e.abs(&base)).ok().map(|m| m.len()))
            }
            _ => ("dir", None),
        };
        found.push(Found { path, kind, size });
        if found.len() == max {
            break;
        }
    }
    Ok(found)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::transport::{to_compact as generic, to_json_value};
    use std::path::{Path, PathBuf};

    /// A directory removed on drop.
    pub(crate) struct Tree(pub PathBuf);

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A seeded tree of `files` files over nested directories: ignore
    /// rules, hidden names, always-ignored directories, empty directories,
    /// symlinks (never listed) and non-ASCII names. With `git`, a repository
    /// with tracked files (one deleted on disk, one git-ignored) and
    /// untracked ones; `None` when git is not available.
    pub(crate) fn make_tree(name: &str, files: usize, git: bool) -> Option<Tree> {
        let dir = std::env::temp_dir().join(format!("sfq-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let tree = Tree(dir.clone());
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let write = |rel: &str, text: &[u8]| {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        let dirs = [
            "src",
            "src/a",
            "src/a/b",
            "lib",
            "lib/é ü",
            ".hidden",
            "docs/x/y/z",
            "node_modules/p",
            "pkg/dist",
        ];
        let exts = ["ts", "rs", "md", "log", "txt"];
        for i in 0..files {
            let d = dirs[next(dirs.len() as u64) as usize];
            let ext = exts[next(exts.len() as u64) as usize];
            let rel = format!("{d}/f{i}.{ext}");
            write(&rel, &vec![b'x'; next(300) as usize]);
        }
        write(".gitignore", b"*.log\nignored/\n");
        write("src/.gitignore", b"b/*.txt\n");
        write("ignored/kept-out.ts", b"x");
        write("README", b"readme");
        std::fs::create_dir_all(dir.join("empty/inner")).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("src", dir.join("link-dir")).unwrap();
            std::os::unix::fs::symlink("README", dir.join("link-file.ts")).unwrap();
        }
        if git {
            let run = |args: &[&str]| {
                std::process::Command::new("git")
                    .args([
                        "-c",
                        "user.name=t",
                        "-c",
                        "user.email=t@e",
                        "-c",
                        "init.defaultBranch=main",
                    ])
                    .args(args)
                    .current_dir(&dir)
                    .env("GIT_CONFIG_NOSYSTEM", "1")
                    .output()
                    .ok()
                    .filter(|o| o.status.success())
            };
            run(&["init", "-q"])?;
            write("tracked-then-ignored.log", b"tracked");
            write("deleted.ts", b"gone");
            run(&["add", "-A"])?;
            run(&["add", "-f", "tracked-then-ignored.log"])?;
            run(&["commit", "-q", "-m", "t"])?;
            std::fs::remove_file(dir.join("deleted.ts")).unwrap();
            write("untracked.ts", b"new");
        }
        Some(tree)
    }

    fn find(root: &Path, extra: &str) -> Vec<Found> {
        let json = format!("{{\"cwd\":{:?},{extra}}}", root.display().to_string());
        let raw = RawOptions::parse_table("findFiles", &json, OPTIONS).unwrap();
        run(&raw, &Cancel::default()).unwrap()
    }

    /// `sizes: false` lists the same entries of the same kinds, in the same
    /// order, without sizes, whether the sized listing stats during the walk
    /// (more than 2,000 entries asked for) or after it, on any thread count.
    #[test]
    fn without_sizes_the_listing_is_the_sized_one_minus_the_sizes() {
        let plain = make_tree("find-nosize", 2_000, false).unwrap();
        let git = make_tree("find-nosize-git", 2_000, true);
        if git.is_none() {
            eprintln!("git not available: the repository case is skipped");
        }
        for tree in std::iter::once(&plain).chain(git.as_ref()) {
            for pattern in ["**/*", "*.ts", "src/**", "**/f1*"] {
                for max in [1, 2_000, 2_001, 10_000_000] {
                    let sized = find(
                        &tree.0,
                        &format!("\"pattern\":{pattern:?},\"maxResults\":{max},\"threads\":1"),
                    );
                    assert!(!sized.is_empty(), "{pattern} {max}");
                    for threads in [1, 2, 8] {
                        let bare = find(
                            &tree.0,
                            &format!(
                                "\"pattern\":{pattern:?},\"maxResults\":{max},\"threads\":{threads},\"sizes\":false"
                            ),
                        );
                        let strip = |v: &[Found]| {
                            v.iter().map(|f| (f.path.clone(), f.kind)).collect::<Vec<_>>()
                        };
                        assert_eq!(strip(&bare), strip(&sized), "{pattern} {max} {threads}");
                        assert!(bare.iter().all(|f| f.size.is_none()), "{pattern} {max} {threads}");
                        let again = find(
                            &tree.0,
                            &format!(
                                "\"pattern\":{pattern:?},\"maxResults\":{max},\"threads\":{threads},\"sizes\":true"
                            ),
                        );
                        assert_eq!(strip(&again), strip(&sized));
                        let sizes = |v: &[Found]| v.iter().map(|f| f.size).collect::<Vec<_>>();
                        assert_eq!(sizes(&again), sizes(&sized));
                    }
                    // Every file of the sized listing has its size; directories none.
                    assert!(sized.iter().all(|f| (f.kind == "file") == f.size.is_some()));
                }
            }
            let all = find(&tree.0, "\"pattern\":\"**/*\",\"maxResults\":10000000,\"sizes\":false");
            let paths: Vec<&str> = all.iter().map(|f| f.path.as_str()).collect();
            assert!(
                paths.contains(&"lib/é ü")
                    && paths.contains(&"empty/inner")
                    && paths.contains(&"README")
            );
            assert!(!paths.iter().any(|p| p.starts_with("link-")
                || p.contains("node_modules")
                || p.ends_with(".log") && !p.starts_with("tracked")));
            assert!(!paths.iter().any(|p| p.starts_with("pkg/dist")
                || p.starts_with("ignored/")
                || *p == "deleted.ts"));
            assert!(all.len() > 1_000, "{}", all.len());
        }
        if let Some(git) = &git {
            let all = find(&git.0, "\"pattern\":\"*\",\"maxResults\":10000000,\"sizes\":false");
            let paths: Vec<&str> = all.iter().map(|f| f.path.as_str()).collect();
            assert!(paths.contains(&"tracked-then-ignored.log") && paths.contains(&"untracked.ts"));
        }
    }

    /// The sized listing stats (during the walk or after it); the bare one
    /// never asks the walk for metadata nor for absolute paths to stat by.
    #[test]
    fn sizes_false_asks_the_walk_for_no_metadata() {
        let globs = glob_set("pattern", &["*".to_string()], true, true).unwrap();
        for (sizes, max, metadata, abs_paths) in [
            (true, 100, false, true),
            (true, 2_000, false, true),
            (true, 2_001, true, false),
            (false, 100, false, false),
            (false, 10_000_000, false, false),
        ] {
            let p = walk_profile(&globs, sizes, max, 1, false, Default::default());
            assert_eq!((p.metadata, p.abs_paths), (metadata, abs_paths), "{sizes} {max}");
        }
        let tree = make_tree("find-profile", 10, false).unwrap();
        let json =
            format!("{{\"cwd\":{:?},\"pattern\":\"*\",\"sizes\":1}}", tree.0.display().to_string());
        let e = RawOptions::parse_table("findFiles", &json, OPTIONS).unwrap_err();
        assert!(e.to_string().contains("option 'sizes' must be"), "{e}");
    }

    /// The direct encoding decodes to what the generic serialiser gives.
    #[test]
    fn the_direct_compact_form_equals_the_generic_one() {
        let found = [
            Found { path: "a".into(), kind: "dir", size: None },
            Found { path: "a/b.ts".into(), kind: "file", size: Some(12) },
            Found { path: "a/gone.ts".into(), kind: "file", size: None },
            Found { path: "a/é 😀.md".into(), kind: "file", size: Some(5_000_000_000) },
            Found { path: "z".into(), kind: "dir", size: None },
        ];
        for n in [0, 1, found.len()] {
            let direct = to_json_value(&to_compact(&found[..n]));
            assert_eq!(direct, to_json_value(&generic(&&found[..n]).unwrap()), "{n}");
            assert_eq!(direct, serde_json::to_value(&found[..n]).unwrap(), "{n}");
        }
    }
}
