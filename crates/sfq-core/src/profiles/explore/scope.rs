//! Where a command searches: the root and the given paths, walked once
//! where they can share a walk.

use super::*;

/// Where a command searches: the root and the given paths.
pub struct Scope {
    /// The root (the cwd).
    pub root: PathBuf,
    /// The paths as given, resolved: root-relative (`.` for the root), with
    /// whether each is a folder.
    pub paths: Vec<(String, bool)>,
    /// Whether the caller named paths (else the whole root, `.`).
    pub explicit: bool,
    /// Worker threads.
    pub threads: usize,
    /// Whether initialised git submodules are searched too.
    pub recurse_submodules: bool,
    /// Where listings and contents come from.
    pub source: crate::engine::Source,
}

impl Scope {
    /// Resolves `paths` (relative to the root, inside it, existing).
    pub fn new(raw: &RawOptions, paths: Vec<String>, max_paths: Option<usize>) -> Result<Scope> {
        let root = resolve_root(raw.string("cwd")?.as_deref())?;
        let api = raw.api();
        if let Some(max) = max_paths
            && paths.len() > max
        {
            return Err(Error::invalid_option(format!(
                "{api}: option 'paths' has {} paths; give at most {max}",
                paths.len()
            )));
        }
        let explicit = !paths.is_empty();
        let mut resolved: Vec<(String, bool)> = Vec::new();
        for p in &paths {
            let (abs, rel) = resolve_inside(&root, p)?;
            let is_dir = std::fs::metadata(&abs).map_err(|e| Error::io(&e, "stat", &abs))?.is_dir();
            let rel = if rel.is_empty() { ".".to_string() } else { rel };
            if resolved.iter().any(|(r, _)| *r == rel) {
                return Err(Error::invalid_option(format!(
                    "{api}: option 'paths' names {rel:?} twice; give each path once"
                )));
            }
            resolved.push((rel, is_dir));
        }
        if resolved.is_empty() {
            resolved.push((".".to_string(), true));
        }
        Ok(Scope {
            root,
            paths: resolved,
            explicit,
            threads: raw.threads()?,
            recurse_submodules: raw.bool("recurseSubmodules")?.unwrap_or(false),
            source: raw.source().clone(),
        })
    }

    /// The candidate files under every path (each file once, in path
    /// order), and how many directories could not be read.
    pub fn candidates(&self, cancel: &Cancel) -> Result<(Candidates, u64)> {
        // Ordinary folders (no hidden or excluded name on their path) share
        // one walk from the root, restricted to them; the others (and any
        // folder that walk found empty: one `.gitignore` drops, say) get a
        // walk of their own, as `rg` searches a path it is given.
        let excludes = Excludes::from_entries(crate::excludes::SEED001);
        let set = excludes.exclude_set("paths")?;
        let ordinary = |rel: &str| {
            rel != "."
                && !rel.split('/').any(|c| c.starts_with('.'))
                && !excludes.excludes(rel, set.as_ref())
        };
        let shared: Vec<&str> = self
            .paths
            .iter()
            .filter(|(rel, is_dir)| *is_dir && ordinary(rel))
            .map(|(rel, _)| rel.as_str())
            .collect();
        let mut listings: Vec<Result<(Candidates, u64)>> = Vec::new();
        let mut alone: Vec<&(String, bool)> =
            self.paths.iter().filter(|(rel, is_dir)| !(*is_dir && ordinary(rel))).collect();
        if shared.len() > 1 {
            let (files, bad) = self.walk(&self.root, "", Some(&shared), cancel)?;
            for p in &shared {
                if !files.iter().any(|f| under(p, f.rel())) {
                    alone.extend(self.paths.iter().find(|(rel, _)| rel == p));
                }
            }
            listings.push(Ok((files, bad)));
        } else {
            alone.extend(self.paths.iter().filter(|(rel, _)| shared.contains(&rel.as_str())));
        }
        // Several walks run at once (each has its own waits on the file system).
        listings.extend(std::thread::scope(|s| {
            let handles: Vec<_> = alone
                .iter()
                .map(|(rel, is_dir)| {
                    s.spawn(move || {
                        let abs = if rel == "." { self.root.clone() } else { self.root.join(rel) };
                        if *is_dir {
                            let prefix = if rel == "." { String::new() } else { format!("{rel}/") };
                            self.walk(&abs, &prefix, None, cancel)
                        } else {
                            let file = Candidate::named(rel.clone(), abs, false);
                            Ok((Candidates::owned(vec![file]), 0))
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(Error::new(crate::error::ErrorCode::Internal, "a walk panicked"))
                    })
                })
                .collect::<Vec<_>>()
        }));
        if listings.len() == 1 && self.paths.len() == 1 {
            // One walk: its candidates as they are (a session's shared list).
            return listings.pop().unwrap_or_else(|| Ok((Candidates::default(), 0)));
        }
        let mut all: Vec<Candidate> = Vec::new();
        let mut unreadable = 0u64;
        for listing in listings {
            let (files, bad) = listing?;
            all.extend(files.into_vec());
            unreadable += bad;
        }
        if self.paths.len() > 1 {
            all.sort_by(|a, b| a.rel().encode_utf16().cmp(b.rel().encode_utf16()));
            all.dedup_by(|a, b| a.rel() == b.rel());
        }
        Ok((Candidates::owned(all), unreadable))
    }

    /// The files under `abs` (whose root-relative path is `prefix`): seed
    /// 001's exclusions, `.gitignore`, hidden entries left out (as `rg`);
    /// with `within`, only those under one of these root-relative folders.
    /// The exclusions are names, checked below `abs` as `rg` checks its
    /// globs, so a folder named explicitly is searched even when an
    /// exclusion names it (`node_modules/react`), and nested names still
    /// are left out.
    fn walk(
        &self,
        abs: &Path,
        prefix: &str,
        within: Option<&[&str]>,
        cancel: &Cancel,
    ) -> Result<(Candidates, u64)> {
        let excludes = Excludes::from_entries(crate::excludes::SEED001);
        let mut filter = excludes.filter(None, "paths")?;
        if let Some(paths) = within {
            let paths = paths.iter().map(|p| p.to_string()).collect();
            filter = std::sync::Arc::new(Within { inner: filter, paths });
        }
        let profile = DiscoveryProfile {
            prune_names: excludes.prune_names(),
            filter: Some(filter),
            dirs: false,
            hidden: false,
            ignore_files: true,
            // No lstat per file: the reader takes the size from the opened file.
            metadata: false,
            // A candidate makes its absolute path when it is opened.
            abs_paths: false,
            threads: self.threads,
            recurse_submodules: self.recurse_submodules,
            source: self.source.clone(),
        };
        let (mut files, unreadable) = discovery::candidates(abs, &profile, cancel)?;
        files.prefix(prefix);
        Ok((files, unreadable.len() as u64))
    }

    /// The paths as the reports print them.
    pub fn path_names(&self) -> Vec<String> {
        self.paths.iter().map(|(p, _)| p.clone()).collect()
    }
}

/// A walk from the root restricted to some folders (and the folders
/// leading to them).
struct Within {
    inner: std::sync::Arc<dyn sfq_walk::discovery::PathFilter>,
    paths: Vec<String>,
}

impl sfq_walk::discovery::PathFilter for Within {
    fn skip_dir(&self, path: &str) -> bool {
        let leads = self.paths.iter().any(|p| under(path, p));
        let inside = self.paths.iter().any(|p| under(p, path));
        !(leads || inside) || (inside && self.inner.skip_dir(path))
    }
    fn keep_file(&self, path: &str) -> bool {
        self.paths.iter().any(|p| under(p, path)) && self.inner.keep_file(path)
    }
    fn key(&self) -> Option<String> {
        Some(format!("within {:?} {}", self.paths, self.inner.key()?))
    }
}
