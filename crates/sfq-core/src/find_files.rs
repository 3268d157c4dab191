//! `findFiles` (seed 002): files and directories whose path matches a glob,
//! `.gitignore` respected, seed 002's always-ignored directories skipped.

use serde::Serialize;
use std::sync::Arc;

use sfq_walk::discovery::{EntryKind, PathFilter};
use sfq_walk::glob::GlobSet;

use crate::cancel::Cancel;
use crate::discovery::{self, DiscoveryProfile, glob_set};
use crate::error::{Error, ErrorCode, Result};
use crate::options::RawOptions;
use crate::paths::{resolve_inside, resolve_root};
use crate::transport::{Compact, Writer};

/// Options of `findFiles`.
pub const OPTION_NAMES: &[&str] = &["pattern", "path", "maxResults", "cwd", "timeoutMs", "threads"];
/// Directories seed 002 always skips (its fallback list), at any depth.
pub const ALWAYS_IGNORED: &[&str] = crate::agent::SEED002_EXCLUDES;
/// Default `maxResults`.
pub const DEFAULT_MAX_RESULTS: u64 = 100;

/// One entry found.
#[derive(Debug, Serialize)]
pub struct Found {
    /// Root-relative POSIX path.
    pub path: String,
    /// `file` or `dir`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Size in bytes (files only).
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
}

/// Runs `findFiles`: the first `maxResults` matches in path order.
pub fn run(raw: &RawOptions, cancel: &Cancel) -> Result<Vec<Found>> {
    let pattern = raw
        .string("pattern")?
        .ok_or_else(|| Error::invalid_option("findFiles: option 'pattern' is required (a glob such as \"*.ts\" or \"src/**/*.test.js\")"))?;
    let max = raw.int("maxResults", 1, 10_000_000)?.unwrap_or(DEFAULT_MAX_RESULTS) as usize;
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
    let profile = DiscoveryProfile {
        prune_names: ALWAYS_IGNORED.iter().map(|s| s.to_string()).collect(),
        filter: Some(Arc::new(PatternFilter { globs: globs.clone() })),
        dirs: true,
        hidden: true,
        ignore_files: true,
        metadata: max > discovery::STAT_DURING_WALK_ABOVE,
        // Only the files stated after the walk are opened by their path.
        abs_paths: max <= discovery::STAT_DURING_WALK_ABOVE,
        threads,
    };
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
        let path = if prefix.is_empty() { e.path } else { format!("{prefix}{}", e.path) };
        let (kind, size) = match e.kind {
            EntryKind::File if profile.metadata => ("file", e.size),
            EntryKind::File => {
                ("file", std::fs::symlink_metadata(&e.abs_path).ok().map(|m| m.len()))
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
mod tests {
    use super::*;
    use crate::transport::{to_compact as generic, to_json_value};

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
