//! `recurse_submodules`: the files of initialised submodules, listed as
//! `git ls-files --recurse-submodules` lists them (each submodule walked as
//! git run inside it walks it, its paths prefixed with its own), merged
//! into the superproject's listing in path order.

use std::cmp::Ordering;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::config::{Prefixed, WalkConfig};
use super::entry::{Entry, EntryKind, Listing, Mode};
use super::error::WalkError;
use super::repo;
use crate::os_bytes::os_str;

/// Whether the directory of a gitlink holds an initialised submodule: a
/// `.git` file naming a repository (`gitdir: ../.git/modules/<name>`, what
/// `git submodule update --init` writes) or a `.git` repository directory.
/// An empty directory (not initialised), a `.git` file naming nothing or a
/// directory that is no repository is not one, and is skipped.
pub(crate) fn initialised(dir: &Path) -> bool {
    let dotgit = dir.join(".git");
    match repo::read_gitfile(&dotgit) {
        Ok(Some(_)) => true,
        Ok(None) => {
            fs::symlink_metadata(&dotgit).is_ok_and(|m| m.is_dir())
                && repo::is_git_directory(&dotgit)
        }
        Err(_) => false,
    }
}

/// One submodule's listing, with its root-relative path (bytes).
pub(crate) struct Walked {
    rel: Vec<u8>,
    listing: Listing,
}

/// Walks the submodules at `roots` (root-relative paths), each with the
/// superproject's settings (its filter asked about the full path), its own
/// repository, index and ignore rules, and its own submodules in turn.
/// One that is no longer a work-tree top of its own by the time it is
/// walked (removed meanwhile) is skipped; a repository error (a corrupt
/// index, as `git ls-files --recurse-submodules` dies on) ends the walk.
pub(crate) fn walk_all(
    config: &WalkConfig,
    cancel: &(dyn Fn() -> bool + Sync),
    roots: Vec<Vec<u8>>,
) -> Result<Vec<Walked>, WalkError> {
    let mut out = Vec::with_capacity(roots.len());
    for rel in roots {
        if cancel() {
            return Err(WalkError::Cancelled);
        }
        let mut cfg = config.clone();
        cfg.root = config.root.join(os_str(&rel));
        if let Some(inner) = &config.filter {
            let prefix = format!("{}/", String::from_utf8_lossy(&rel));
            cfg.filter = Some(Arc::new(Prefixed { inner: inner.clone(), prefix }));
        }
        let listing = match super::walk(&cfg, cancel) {
            Ok(l) => l,
            Err(WalkError::Root { .. }) => continue,
            Err(e) => return Err(e),
        };
        let own_top = match (&listing.mode, fs::canonicalize(&cfg.root)) {
            (Mode::Git { top, .. }, Ok(root)) => *top == root,
            _ => false,
        };
        if own_top {
            out.push(Walked { rel, listing });
        }
    }
    Ok(out)
}

/// Path order of a listing: UTF-16 order of the path, ties (lossy names) by
/// the absolute path's bytes.
fn order(a: &Entry, b: &Entry) -> Ordering {
    crate::cmp_utf16(&a.path, &b.path).then_with(|| super::abs_bytes(a).cmp(super::abs_bytes(b)))
}

/// Merges the submodules' listings into the superproject's: entries in
/// path order (each submodule's paths prefixed with its path; with
/// directories listed, the submodule's directory and the ones leading to
/// it once each), errors, what was dropped (a submodule's directory that
/// an ignore rule matched is walked, so it is no longer reported as
/// dropped) and what a sparse checkout left out.
pub(crate) fn merge(mut listing: Listing, walked: Vec<Walked>, config: &WalkConfig) -> Listing {
    if walked.is_empty() {
        return listing;
    }
    let root: &Path = config.root();
    let mut inserts: Vec<Entry> = Vec::new();
    let mut sub_dropped: Vec<(String, bool)> = Vec::new();
    for Walked { rel, listing: sub } in walked {
        let key = String::from_utf8_lossy(&rel).into_owned();
        let lossy_key = std::str::from_utf8(&rel).is_err();
        let sub_root: PathBuf = root.join(os_str(&rel));
        if config.dirs {
            let mut end = 0;
            while end < rel.len() {
                end += rel[end..].iter().position(|&c| c == b'/').unwrap_or(rel.len() - end);
                let dir = &rel[..end];
                inserts.push(Entry::new(
                    String::from_utf8_lossy(dir).into(),
                    (config.abs_paths || lossy_key).then(|| Box::new(root.join(os_str(dir)))),
                    EntryKind::Dir,
                    false,
                    None,
                ));
                end += 1;
            }
        }
        for mut e in sub.entries {
            if lossy_key && e.abs_path.is_none() {
                e.abs_path = Some(Box::new(sub_root.join(&*e.path)));
            }
            e.path = format!("{key}/{}", e.path).into();
            inserts.push(e);
        }
        listing.errors.extend(sub.errors);
        listing.dropped.retain(|(p, is_dir)| !(*is_dir && *p == key));
        sub_dropped.extend(sub.dropped.into_iter().map(|(p, d)| (format!("{key}/{p}"), d)));
        listing.not_checked_out.files += sub.not_checked_out.files;
        listing
            .not_checked_out
            .dirs
            .extend(sub.not_checked_out.dirs.into_iter().map(|d| format!("{key}/{d}")));
    }
    listing.errors.sort_by(|a, b| a.path.cmp(&b.path));
    listing.dropped.extend(sub_dropped);
    listing.dropped.sort();
    listing.not_checked_out.dirs.sort_by(|a, b| crate::cmp_utf16(a, b));
    // Each submodule's entries are in order already: a stable sort merges
    // the runs.
    inserts.sort_by(order);
    // A name that is not UTF-8 fills in every absolute path (see
    // `WalkConfigBuilder::abs_paths`).
    let fill = !config.abs_paths
        && (inserts.iter().any(|e| e.abs_path.is_some())
            || listing.entries.iter().any(|e| e.abs_path.is_some()));
    let main = std::mem::take(&mut listing.entries);
    let mut out: Vec<Entry> = Vec::with_capacity(main.len() + inserts.len());
    let mut a = main.into_iter().peekable();
    let mut b = inserts.into_iter().peekable();
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => {
                if order(x, y).is_le() {
                    a.next()
                } else {
                    b.next()
                }
            }
            (Some(_), None) => a.next(),
            (None, Some(_)) => b.next(),
            (None, None) => break,
        };
        let Some(mut e) = next else { break };
        // A directory listed by both walks is listed once.
        if e.kind == EntryKind::Dir
            && out.last().is_some_and(|l| l.kind == EntryKind::Dir && l.path == e.path)
        {
            continue;
        }
        if fill && e.abs_path.is_none() {
            e.abs_path = Some(Box::new(root.join(&*e.path)));
        }
        out.push(e);
    }
    listing.entries = out;
    listing
}
