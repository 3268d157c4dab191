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
            format!("ENOTDIR: not a directory, scandir '{}'", shown(&path)),
        )),
        Ok(_) => std::fs::canonicalize(&path).map_err(|e| Error::io(&e, "realpath", &path)),
    }
}

/// A path as answers and messages show it. Roots come from `canonicalize`,
/// which on Windows gives the verbatim form (`\\?\C:\Repo`, `\\?\UNC\server\share`):
/// kept for I/O (where it makes `aux.c` and paths past 260 characters safe),
/// shown as Node's `realpath` shows it (libuv strips the same prefixes):
/// `C:\Repo`, `\\server\share`. Elsewhere the path as it is.
pub fn shown(path: &Path) -> String {
    let text = path.display().to_string();
    #[cfg(windows)]
    {
        if let Some(rest) = text.strip_prefix(r"\\?\UNC\") {
            return format!(r"\\{rest}");
        }
        if let Some(rest) = text.strip_prefix(r"\\?\")
            && rest.as_bytes().get(1) == Some(&b':')
        {
            return rest.to_string();
        }
    }
    text
}

/// A relative path with `/` between its names, as every answer writes
/// repository-relative paths (Windows joins them with `\\`).
pub fn slashed(rel: &Path) -> String {
    let text = rel.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '/' { text.into_owned() } else { text.replace('\\', "/") }
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
    let rel = canonical.strip_prefix(root).map(slashed).unwrap_or_default();
    Ok((canonical, rel))
}

fn outside(root: &Path, path: &str) -> Error {
    Error::new(
        ErrorCode::OutsideRoot,
        format!("path '{path}' resolves outside the root '{}'; give a path inside it", shown(root)),
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
    // (A verbatim root, `\\?\C:\…`, against a path given as `C:\…`.)
    out.starts_with(root) || Path::new(&shown(&out)).starts_with(shown(root))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_shown_without_the_verbatim_prefix() {
        if cfg!(windows) {
            assert_eq!(shown(Path::new(r"\\?\C:\Repo\a.txt")), r"C:\Repo\a.txt");
            assert_eq!(shown(Path::new(r"\\?\UNC\srv\share\x")), r"\\srv\share\x");
            assert_eq!(shown(Path::new(r"C:\Repo")), r"C:\Repo");
            assert_eq!(slashed(Path::new(r"src\core\a.rs")), "src/core/a.rs");
        } else {
            assert_eq!(shown(Path::new("/repo/a b.txt")), "/repo/a b.txt");
            assert_eq!(slashed(Path::new("src/core/a.rs")), "src/core/a.rs");
        }
    }

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
        // An absolute path inside the root as a user writes it (on Windows
        // `C:\…`, where the root is held verbatim, `\\?\C:\…`).
        let sep = std::path::MAIN_SEPARATOR;
        let inside = format!("{}{sep}sub{sep}a.txt", shown(&root));
        assert_eq!(resolve_inside(&root, &inside).unwrap().1, "sub/a.txt");
        let missing = format!("{}{sep}missing.txt", shown(&root));
        assert_eq!(resolve_inside(&root, &missing).unwrap_err().code(), ErrorCode::Io("ENOENT"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
