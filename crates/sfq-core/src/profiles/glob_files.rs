//! `globFiles` (seed 004): files whose root-relative path matches a glob,
//! with size and modification time, under seed 004's exclusions, the
//! project config and `.gitignore`; hidden paths left out unless asked for.
//! The same walk as every search: excluded trees are pruned, never walked.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::cancel::Cancel;
use crate::discovery::{self, DiscoveryProfile, glob_set};
use crate::error::{Error, ErrorCode, Result};
use crate::profiles::agent::{SkipCounts, not_checked_out_note, seed004_excludes, with_note};
use std::sync::Arc;

use crate::discovery::Prefixed;
use crate::excludes::{Excludes, LeftOut};
use crate::options::{Kind, OptSpec, RawOptions, opt};
use crate::paths::{resolve_inside, resolve_root};
use crate::project_config::ProjectConfig;

/// `globFiles`' options.
pub const GLOB_FILES_OPTIONS: &[OptSpec] = &[
    opt(
        "pattern",
        Kind::Str,
        "glob pattern (e.g. **/*.py), matched against paths relative to root",
    )
    .mcp_same("Glob pattern (e.g., **/*.py), relative to root"),
    opt("root", Kind::Str, "directory to search, inside cwd (default: cwd)")
        .mcp_same("Root directory (default: cwd, the server root); must be inside the server root"),
    opt("maxResults", Kind::Int(1, 10_000_000), "max files to return (default: config, else 500)")
        .default_int(500)
        .mcp("max_results", "Max files to return (default: config max_results, else 500)"),
    opt(
        "includeHidden",
        Kind::Bool,
        "include paths with a segment starting with '.' (default: false)",
    )
    .default_bool(false)
    .mcp("include_hidden", "Include hidden files (default: false)"),
    opt("offset", Kind::Int(0, 10_000_000), "skip this many files first (paging)")
        .default_int(0)
        .mcp_same("Skip this many files first, to page through a long answer (default: 0)"),
    opt(
        "sizes",
        Kind::Bool,
        "give each file's size and modified (default: true); false lists paths without an lstat per file",
    )
    .default_bool(true)
    .mcp_same(
        "Give each file its size and modified (default: true); false gives path and absolute_path \
         only, without a stat per file (faster on large trees)",
    ),
    opt(
        "recurseSubmodules",
        Kind::Bool,
        "list the files of initialised git submodules too, as git ls-files --recurse-submodules (default: false)",
    )
    .default_bool(false)
    .mcp("recurse_submodules", crate::options::RECURSE_SUBMODULES_MCP),
    opt(
        "excludePatterns",
        Kind::List,
        "more exclusions (bare names at any depth, paths from the root)",
    ),
    opt("excludeMode", Kind::Str, "'extend' (default) or 'replace' the default exclusions")
        .default_str("extend"),
    opt("includePatterns", Kind::List, "paths kept even when excluded or git-ignored"),
    opt("cwd", Kind::Str, "workspace root, where the config file is read (default: process.cwd())")
        .default_prose("process.cwd()"),
    crate::options::TIMEOUT_MS,
    crate::options::THREADS,
];

/// `globFiles`' result (seed 004's response, camelCase).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GlobResult {
    /// The page of files, in path order.
    pub files: Vec<GlobFile>,
    /// Files matched in all.
    pub total: u64,
    /// Files returned.
    pub returned: u64,
    /// Whether files were left out.
    pub truncated: bool,
    /// The absolute directory searched.
    pub root: String,
    /// The pattern as given.
    pub pattern: String,
    /// What was not listed, by reason (a listing only meets unreadable
    /// directories).
    pub skipped: SkipCounts,
    /// When nothing matched: how many files the exclusions, `.gitignore` or
    /// the hidden rule left out (`0 files; 3 excluded by node_modules`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// One file of [`GlobResult`].
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GlobFile {
    /// Path relative to `root`.
    pub path: String,
    /// Absolute path.
    pub absolute_path: String,
    /// Size in bytes (none with `sizes: false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Last modification, ISO-8601 UTC (`2025-01-15T10:30:00.000Z`); empty
    /// when it could not be read, none with `sizes: false`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
}

/// Runs `globFiles`.
pub fn glob_files(raw: &RawOptions, cancel: &Cancel) -> Result<GlobResult> {
    let t = GLOB_FILES_OPTIONS;
    let pattern = raw.string("pattern")?.filter(|p| !p.is_empty()).ok_or_else(|| {
        Error::invalid_option(
            "globFiles: option 'pattern' is required (a glob such as \"**/*.py\")",
        )
    })?;
    let cwd = resolve_root(raw.string("cwd")?.as_deref())?;
    let config = ProjectConfig::load(&cwd)?;
    let (base, _) = match raw.string("root")?.filter(|r| !r.is_empty() && r != ".") {
        Some(r) => resolve_inside(&cwd, &r)?,
        None => (cwd.clone(), String::new()),
    };
    if !base.is_dir() {
        return Err(Error::new(
            ErrorCode::Io("ENOTDIR"),
            format!("ENOTDIR: root '{}' is not a directory", crate::paths::shown(&base)),
        ));
    }
    let include = glob_set("pattern", std::slice::from_ref(&pattern), true, false)?;
    let excludes = seed004_excludes(raw, &config)?;
    let hidden = raw.bool_default("includeHidden", t)?;
    let offset = raw.int_default("offset", t)? as usize;
    let max = raw.int_or_config("maxResults", t, config.max_results)? as usize;
    // Without sizes no file is `lstat`ed (the walk's directory reads say
    // what is a regular file) and the page's absolute paths are joined here.
    let sizes = raw.bool_default("sizes", t)?;
    let profile = DiscoveryProfile {
        prune_names: excludes.prune_names(),
        filter: Some(excludes.filter(Some(include.clone()), "excludePatterns")?),
        dirs: false,
        hidden,
        ignore_files: true,
        metadata: sizes && offset.saturating_add(max) > discovery::STAT_DURING_WALK_ABOVE,
        abs_paths: sizes,
        threads: raw.threads()?,
        recurse_submodules: raw.bool_default("recurseSubmodules", t)?,
        source: raw.source().clone(),
    };
    let started = std::time::Instant::now();
    // What the rules dropped is reported by the same walk, for the hint.
    let mut listed = discovery::listing(&base, &profile, cancel, true)?;
    let (entries, unreadable, not_checked_out) = (
        std::mem::take(&mut listed.items),
        std::mem::take(&mut listed.unreadable),
        std::mem::take(&mut listed.not_checked_out),
    );
    cancel.check()?;
    let present: Vec<_> = entries.into_iter().filter(|e| e.missing.is_none()).collect();
    let total = present.len();
    let progress = cancel.progress();
    for counter in [&progress.files_total, &progress.files_done, &progress.matches] {
        counter.store(total as u64, std::sync::atomic::Ordering::Relaxed);
    }
    let files: Vec<GlobFile> = present
        .into_iter()
        .skip(offset)
        .take(max)
        .map(|e| {
            if !sizes {
                // The walk fills every absolute path in when a name is not
                // UTF-8 (its real bytes are nowhere else); else it is this.
                return GlobFile {
                    absolute_path: crate::paths::shown(&e.abs(&base)),
                    path: e.path.into(),
                    size: None,
                    modified: None,
                };
            }
            let abs = e.abs(&base);
            let (size, modified) = match (e.size(), e.modified()) {
                (Some(size), Some(modified)) => (size, Some(modified)),
                _ => match std::fs::symlink_metadata(&abs) {
                    Ok(m) => (m.len(), m.modified().ok()),
                    Err(_) => (0, None),
                },
            };
            GlobFile {
                absolute_path: crate::paths::shown(&abs),
                path: e.path.into(),
                size: Some(size),
                modified: Some(modified.map(iso8601).unwrap_or_default()),
            }
        })
        .collect();
    let hint = if total == 0 {
        // (A listing from a session's memory walks for what was dropped
        // now: the look's time is measured after it, as a cold call's.)
        let dropped = listed.take_dropped(cancel)?;
        let limit = (started.elapsed() / 10).clamp(HINT_MIN, HINT_MAX);
        let left_out = hint(&base, &dropped, &profile, include, &excludes, &cancel.bounded(limit));
        with_note("0 files", left_out, not_checked_out_note(&not_checked_out))
    } else {
        None
    };
    Ok(GlobResult {
        skipped: SkipCounts {
            unreadable: unreadable.len() as u64,
            not_checked_out: (not_checked_out.files + not_checked_out.dirs.len()) as u64,
            ..SkipCounts::default()
        },
        hint,
        total: total as u64,
        returned: files.len() as u64,
        truncated: offset + files.len() < total,
        files,
        root: crate::paths::shown(&base),
        pattern,
    })
}

/// At least this long for the look (a tenth of the search's time else): a
/// folder's look has fixed costs (a pool, the repository's discovery) that
/// a slow file system (Windows', Wine's) makes tens of milliseconds.
const HINT_MIN: std::time::Duration = std::time::Duration::from_millis(100);
const HINT_MAX: std::time::Duration = std::time::Duration::from_secs(1);

/// When nothing matched: the files matching the pattern among what the walk
/// dropped, by what dropped them; a bounded look (`cancel` carries its
/// deadline) into the dropped subtrees only.
fn hint(
    base: &std::path::Path,
    dropped: &[(String, bool)],
    profile: &DiscoveryProfile,
    include: sfq_walk::glob::GlobSet,
    excludes: &Excludes,
    cancel: &Cancel,
) -> Option<String> {
    let set = excludes.exclude_set("excludePatterns").ok()?;
    let matching = Excludes::default().filter(Some(include.clone()), "pattern").ok()?;
    let mut left_out = LeftOut::default();
    for (path, is_dir) in dropped {
        let reason = excludes.reason(path, *is_dir, set.as_ref(), profile.hidden);
        let n = if *is_dir {
            let open = DiscoveryProfile {
                prune_names: vec![],
                filter: Some(Arc::new(Prefixed {
                    inner: matching.clone(),
                    prefix: format!("{path}/"),
                })),
                dirs: false,
                hidden: true,
                ignore_files: false,
                metadata: false,
                abs_paths: false,
                threads: profile.threads,
                recurse_submodules: profile.recurse_submodules,
                source: profile.source.clone(),
            };
            match discovery::entries(&base.join(path), &open, cancel) {
                Ok((files, _)) => files.len() as u64,
                Err(_) => {
                    left_out.cut = true;
                    break;
                }
            }
        } else {
            u64::from(include.is_match(path))
        };
        if n > 0 {
            left_out.add(&reason, n);
        }
    }
    left_out.summary("0 files", "")
}

/// A time as JavaScript's `Date#toISOString` writes it.
pub fn iso8601(t: SystemTime) -> String {
    let (secs, millis) = match t.duration_since(UNIX_EPOCH) {
        // Node's `Stats#mtime` is `new Date(Math.round(mtimeMs))`: rounded
        // to the nearest millisecond, not truncated.
        Ok(d) => {
            let ms = (d.as_nanos() + 500_000) / 1_000_000;
            ((ms / 1000) as i64, (ms % 1000) as u32)
        }
        Err(e) => {
            let d = e.duration();
            let ms = d.as_millis() as i64;
            (-(ms + 999) / 1000, ((1000 - ms % 1000) % 1000) as u32)
        }
    };
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::find_files::tests::make_tree;
    use std::time::Duration;

    fn glob(root: &std::path::Path, extra: &str) -> GlobResult {
        let json = format!("{{\"cwd\":{:?},{extra}}}", root.display().to_string());
        let raw = RawOptions::parse_table("globFiles", &json, GLOB_FILES_OPTIONS).unwrap();
        glob_files(&raw, &Cancel::default()).unwrap()
    }

    /// `sizes: false` gives the same page, totals and absolute paths, with
    /// neither `size` nor `modified`; the sized answer has both, as before.
    #[test]
    fn without_sizes_the_page_is_the_sized_one_minus_size_and_time() {
        let plain = make_tree("glob-nosize", 2_000, false).unwrap();
        let git = make_tree("glob-nosize-git", 2_000, true);
        for tree in std::iter::once(&plain).chain(git.as_ref()) {
            for (pattern, hidden) in
                [("**/*", false), ("**/*", true), ("src/**/*.ts", false), ("*", true)]
            {
                for (offset, max) in
                    [(0, 1), (0, 500), (10, 1_990), (0, 2_001), (1_000, 10_000_000)]
                {
                    let args = format!(
                        "\"pattern\":{pattern:?},\"includeHidden\":{hidden},\"offset\":{offset},\"maxResults\":{max}"
                    );
                    let sized = glob(&tree.0, &format!("{args},\"threads\":1"));
                    assert!(sized.files.iter().all(|f| f.size.is_some() && f.modified.is_some()));
                    // Keys in the seed's order (serde_json's Value would sort them).
                    if let Some(first) = sized.files.first() {
                        let text = serde_json::to_string(first).unwrap();
                        let at = |k: &str| text.find(&format!("\"{k}\":")).unwrap();
                        assert!(at("path") < at("absolutePath") && at("absolutePath") < at("size"));
                        assert!(at("size") < at("modified"), "{text}");
                    }
                    for threads in [1, 3] {
                        let bare =
                            glob(&tree.0, &format!("{args},\"threads\":{threads},\"sizes\":false"));
                        assert_eq!(
                            (bare.total, bare.returned, bare.truncated),
                            (sized.total, sized.returned, sized.truncated)
                        );
                        let strip = |r: &GlobResult| {
                            r.files
                                .iter()
                                .map(|f| (f.path.clone(), f.absolute_path.clone()))
                                .collect::<Vec<_>>()
                        };
                        assert_eq!(
                            strip(&bare),
                            strip(&sized),
                            "{pattern} {offset} {max} {threads}"
                        );
                        assert!(
                            bare.files.iter().all(|f| f.size.is_none() && f.modified.is_none())
                        );
                        for f in &bare.files {
                            let text = serde_json::to_string(f).unwrap();
                            assert!(
                                !text.contains("\"size\"") && !text.contains("\"modified\""),
                                "{text}"
                            );
                        }
                    }
                }
            }
        }
        // The hint when nothing matched is the same. (Its look is bounded
        // in time, at least 100 ms: on a machine loaded enough to cut one of
        // the two looks short, they differ; a few tries tell that apart from
        // a difference every time.)
        let same = (0..5).any(|_| {
            let a = glob(&plain.0, "\"pattern\":\"**/p/*.ts\"");
            let b = glob(&plain.0, "\"pattern\":\"**/p/*.ts\",\"sizes\":false");
            assert_eq!(a.total, 0);
            a.hint.is_some() && a.hint == b.hint
        });
        assert!(same, "the hints differ with and without sizes");
    }

    #[test]
    fn times_are_written_as_to_iso_string() {
        let t = UNIX_EPOCH + Duration::from_millis(1_736_937_000_123);
        assert_eq!(iso8601(t), "2025-01-15T10:30:00.123Z");
        assert_eq!(iso8601(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        // Rounded as Node rounds mtimeMs (a kernel time of .5999999 s is .600).
        let t = UNIX_EPOCH + Duration::from_nanos(1_641_092_645_599_999_999);
        assert_eq!(iso8601(t), "2022-01-02T03:04:05.600Z");
        let t = UNIX_EPOCH + Duration::from_nanos(1_999_999_999_999_600_000);
        assert_eq!(iso8601(t), "2033-05-18T03:33:20.000Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(iso8601(leap), "2000-02-29T00:00:00.000Z");
    }

    /// Roots and absolute paths are shown as Node shows them on Windows,
    /// never in the verbatim form (`\\?\`) the root's canonical path has,
    /// whether the root is given so, by its 8.3 short name or plainly.
    #[cfg(windows)]
    #[test]
    fn roots_are_shown_without_the_verbatim_prefix_however_given() {
        #[link(name = "kernel32")]
        unsafe extern "system" {
            fn GetShortPathNameW(long: *const u16, short: *mut u16, len: u32) -> u32;
        }
        use std::os::windows::ffi::{OsStrExt, OsStringExt};
        let dir = std::env::temp_dir().join(format!("sfq-long-folder-name-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src").join("a.ts"), "x").unwrap();
        let verbatim = std::fs::canonicalize(&dir).unwrap();
        assert!(verbatim.to_str().unwrap().starts_with(r"\\?\"));
        let plain = crate::paths::shown(&verbatim);
        let wide: Vec<u16> = std::ffi::OsStr::new(&plain).encode_wide().chain([0]).collect();
        let mut buf = vec![0u16; 1024];
        // SAFETY: `wide` ends with a NUL; `buf` holds 1024 units.
        let n = unsafe { GetShortPathNameW(wide.as_ptr(), buf.as_mut_ptr(), 1024) } as usize;
        assert!(n > 0 && n < 1024);
        let short = std::path::PathBuf::from(std::ffi::OsString::from_wide(&buf[..n]));
        assert_ne!(short.to_str().unwrap(), plain, "an 8.3 name differs from the long one");
        for given in [verbatim.clone(), short, std::path::PathBuf::from(&plain)] {
            let r = glob(&given, "\"pattern\":\"**/*.ts\"");
            assert_eq!(r.root, plain, "given {}", given.display());
            assert_eq!(r.files.len(), 1);
            assert_eq!(r.files[0].path, "src/a.ts");
            assert_eq!(r.files[0].absolute_path, format!(r"{plain}\src\a.ts"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
