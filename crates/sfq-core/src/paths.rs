//! The root of a call and the include/ignore globs over root-relative paths.

use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorCode, Result};

/// Resolves the call's root: `cwd` (relative to the process's working
/// directory) or the working directory itself. It must exist and be a
/// directory; errors are fatal I/O errors naming the path.
pub fn resolve_root(cwd: Option<&str>) -> Result<PathBuf> {
    let base = match std::env::current_dir() {
        Ok(dir) => dir,
        Err(e) => {
            // The working directory was deleted or cannot be read; name it
            // as the shell knew it.
            let pwd = std::env::var_os("PWD").map_or_else(|| PathBuf::from("."), PathBuf::from);
            return Err(Error::io(&e, "uv_cwd", &pwd));
        }
    };
    let path = match cwd {
        Some(c) if !c.is_empty() => base.join(c),
        _ => base,
    };
    match std::fs::metadata(&path) {
        Err(e) => Err(Error::io(&e, "scandir", &path)),
        Ok(m) if !m.is_dir() => Err(Error::new(
            ErrorCode::Io("ENOTDIR"),
            format!("ENOTDIR: not a directory, scandir '{}'", path.display()),
        )),
        Ok(_) => std::fs::canonicalize(&path).map_err(|e| Error::io(&e, "realpath", &path)),
    }
}

/// Whether `path` lies inside `root` (both absolute and normalised).
pub fn is_within(root: &Path, path: &Path) -> bool {
    path.starts_with(root)
}

/// Resolves `path` (relative to `root`, or absolute) to an existing entry
/// inside `root`, following symlinks: `EOUTSIDEROOT` when it resolves outside
/// (`..`, an absolute path elsewhere, a symlink pointing out), `ENOENT` when
/// it does not exist. Returns the canonical absolute path and the
/// root-relative POSIX path.
pub fn resolve_inside(root: &Path, path: &str) -> Result<(PathBuf, String)> {
    if path.is_empty() {
        return Err(Error::invalid_option("path must not be empty"));
    }
    let normalised = path.replace('\\', "/");
    let joined = root.join(&normalised);
    let canonical = std::fs::canonicalize(&joined).map_err(|e| {
        // A path that points outside is refused before "does it exist".
        if !lexically_within(root, &joined) {
            outside(root, path)
        } else {
            Error::io(&e, "open", &joined)
        }
    })?;
    if !is_within(root, &canonical) {
        return Err(outside(root, path));
    }
    let rel = canonical
        .strip_prefix(root)
        .map(|r| r.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    Ok((canonical, rel))
}

fn outside(root: &Path, path: &str) -> Error {
    Error::new(
        ErrorCode::OutsideRoot,
        format!(
            "path '{path}' resolves outside the root '{}'; give a path inside it",
            root.display()
        ),
    )
}

/// `path` inside `root` after resolving `.` and `..` lexically.
fn lexically_within(root: &Path, path: &Path) -> bool {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out.starts_with(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_outside_the_root_are_refused() {
        let dir = std::env::temp_dir().join(format!("sfq-paths-{}", std::process::id()));
        let root = dir.join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(dir.join("secret.txt"), "s").unwrap();
        std::fs::write(root.join("sub/a.txt"), "a").unwrap();
        let root = std::fs::canonicalize(&root).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.join("secret.txt"), root.join("link.txt")).unwrap();

        let (abs, rel) = resolve_inside(&root, "sub/../sub/a.txt").unwrap();
        assert_eq!(rel, "sub/a.txt");
        assert!(abs.ends_with("sub/a.txt"));
        for bad in ["../secret.txt", "../nope.txt", "/etc/passwd"] {
            assert_eq!(
                resolve_inside(&root, bad).unwrap_err().code(),
                ErrorCode::OutsideRoot,
                "{bad}"
            );
        }
        #[cfg(unix)]
        assert_eq!(resolve_inside(&root, "link.txt").unwrap_err().code(), ErrorCode::OutsideRoot);
        assert_eq!(
            resolve_inside(&root, "missing.txt").unwrap_err().code(),
            ErrorCode::Io("ENOENT")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
