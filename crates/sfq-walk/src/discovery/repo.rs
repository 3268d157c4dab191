//! Finding the git repository a root belongs to, without spawning git:
//! `.git` directories and gitfiles (`gitdir: …`, worktrees, submodules),
//! `commondir`, and git's own tests for "is this a repository".

use std::fs;
use std::path::{Path, PathBuf};

use crate::os_bytes::{into_bytes, os_str};

/// The repository that contains a root directory.
#[derive(Debug, Clone)]
pub struct Repo {
    /// The work-tree top (canonical path).
    pub top: PathBuf,
    /// The repository directory of this work tree (`.git`, or
    /// `.git/worktrees/<name>` for a linked worktree).
    pub git_dir: PathBuf,
    /// The common directory (`commondir`), where `config` and `info/` live.
    pub common_dir: PathBuf,
    /// The root relative to `top`: `/`-separated bytes, empty at the top.
    pub prefix: Vec<u8>,
}

/// Outcome of looking for a repository above a root.
#[derive(Debug)]
pub enum Found {
    /// The root is inside a work tree.
    WorkTree(Repo),
    /// No work tree: not in a repository, or in a bare one / inside a git dir.
    None,
    /// A `.git` file exists but does not point to a repository (git would
    /// fail with "not a git repository").
    BadGitfile(PathBuf),
}

/// git's `get_common_dir`: the `commondir` file's content (its trailing
/// newlines removed), relative to `git_dir`, as a real path.
pub fn common_dir(git_dir: &Path) -> PathBuf {
    match fs::read(git_dir.join("commondir")) {
        Ok(data) => {
            let end = trim_newlines(&data);
            if end == 0 {
                return git_dir.to_path_buf();
            }
            let p = PathBuf::from(os_str(&data[..end]).into_owned());
            let dir = if p.is_absolute() { p } else { git_dir.join(p) };
            fs::canonicalize(&dir).unwrap_or(dir)
        }
        Err(_) => git_dir.to_path_buf(),
    }
}

/// The length of `data` without its trailing `\n` and `\r` bytes (git
/// trims only those from `.git` files and `commondir`: a trailing blank is
/// part of the path).
fn trim_newlines(data: &[u8]) -> usize {
    let mut end = data.len();
    while end > 0 && matches!(data[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    end
}

/// git's `validate_headref`.
fn valid_head(path: &Path) -> bool {
    let Ok(meta) = fs::symlink_metadata(path) else { return false };
    if meta.file_type().is_symlink() {
        return fs::read_link(path)
            .is_ok_and(|t| t.as_os_str().as_encoded_bytes().starts_with(b"refs/"));
    }
    let Ok(data) = fs::read(path) else { return false };
    let data = &data[..data.len().min(255)];
    if let Some(rest) = data.strip_prefix(b"ref:") {
        let rest =
            &rest[rest.iter().take_while(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')).count()..];
        if rest.starts_with(b"refs/") {
            return true;
        }
    }
    let hex = data.iter().take_while(|c| c.is_ascii_hexdigit()).count();
    (hex == 40 || hex == 64) && data.get(hex).is_none_or(|c| !c.is_ascii_hexdigit())
}

/// git's `is_git_directory`: a valid `HEAD`, and `objects/` and `refs/` in
/// the common directory.
pub fn is_git_directory(dir: &Path) -> bool {
    if !valid_head(&dir.join("HEAD")) {
        return false;
    }
    let common = common_dir(dir);
    common.join("objects").is_dir() && common.join("refs").is_dir()
}

/// git's `read_gitfile_gently`: `Ok(Some(dir))` for a valid gitfile (the
/// real path of the directory it names, relative to the file's directory;
/// only trailing newlines are trimmed), `Ok(None)` when `path` is not a
/// regular file, `Err(_)` for a gitfile that cannot be read, is over 1 MiB
/// or does not point to a repository.
pub fn read_gitfile(path: &Path) -> Result<Option<PathBuf>, GitfileError> {
    /// git's limit on a `.git` file's size.
    const MAX_GITFILE: u64 = 1 << 20;
    let Ok(meta) = fs::metadata(path) else { return Ok(None) };
    if !meta.is_file() {
        return Ok(None);
    }
    if meta.len() > MAX_GITFILE {
        return Err(GitfileError::Invalid);
    }
    let data = fs::read(path).map_err(|_| GitfileError::ReadFailed)?;
    let Some(rest) = data.strip_prefix(b"gitdir: ") else { return Err(GitfileError::Invalid) };
    let end = trim_newlines(rest);
    if end == 0 {
        return Err(GitfileError::Invalid);
    }
    let target = PathBuf::from(os_str(&rest[..end]).into_owned());
    let dir = if target.is_absolute() {
        target
    } else {
        path.parent().unwrap_or(Path::new("/")).join(target)
    };
    if !is_git_directory(&dir) {
        return Err(GitfileError::NotARepo);
    }
    // git keeps the real path of the directory.
    Ok(Some(fs::canonicalize(&dir).unwrap_or(dir)))
}

/// Why a gitfile was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GitfileError {
    /// Could not be opened or read.
    ReadFailed,
    /// Does not start with `gitdir: `.
    Invalid,
    /// Points to something that is not a repository.
    NotARepo,
}

/// git's `is_nonbare_repository_dir`: does `dir/.git` make `dir` a nested
/// repository (that `git ls-files --others` shows as `dir/` and never enters)?
pub fn is_nested_repo(dir: &Path) -> bool {
    let dotgit = dir.join(".git");
    match read_gitfile(&dotgit) {
        Ok(Some(_)) => true,
        Err(GitfileError::ReadFailed) => true,
        Err(_) => false,
        Ok(None) => is_git_directory(&dotgit),
    }
}

/// Looks for the repository containing `root` (an existing directory), as
/// git's discovery does: the nearest ancestor with a `.git` entry.
pub fn find(root: &Path) -> Found {
    let Ok(start) = fs::canonicalize(root) else { return Found::None };
    let mut dir = start.clone();
    loop {
        let dotgit = dir.join(".git");
        let git_dir = match read_gitfile(&dotgit) {
            Ok(Some(d)) => Some(d),
            Ok(None) => is_git_directory(&dotgit).then(|| dotgit.clone()),
            Err(_) => return Found::BadGitfile(dotgit),
        };
        if let Some(git_dir) = git_dir {
            let prefix = start.strip_prefix(&dir).map(slash_path).unwrap_or_default();
            // Inside the repository directory itself: no work tree.
            if prefix.split(|&c| c == b'/').any(|c| c == b".git") {
                return Found::None;
            }
            let common_dir = common_dir(&git_dir);
            return Found::WorkTree(Repo { top: dir, git_dir, common_dir, prefix });
        }
        if is_git_directory(&dir) {
            // A bare repository or the inside of a git dir.
            return Found::None;
        }
        if !dir.pop() {
            return Found::None;
        }
    }
}

/// A relative path as the index holds paths: its names' bytes joined by `/`
/// (Windows separates them with `\\`).
fn slash_path(rel: &Path) -> Vec<u8> {
    let mut out = Vec::new();
    for name in rel.components() {
        if !out.is_empty() {
            out.push(b'/');
        }
        out.extend_from_slice(&into_bytes(name.as_os_str().to_os_string()));
    }
    out
}

/// The branch `HEAD` points to, for `includeIf "onbranch:…"`.
pub fn current_branch(git_dir: &Path) -> Option<String> {
    let data = fs::read(git_dir.join("HEAD")).ok()?;
    let s = String::from_utf8_lossy(&data);
    let r = s.strip_prefix("ref:")?.trim();
    r.strip_prefix("refs/heads/").map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_below_the_top_is_a_slash_separated_prefix() {
        let sep = std::path::MAIN_SEPARATOR;
        let rel = format!("src{sep}core{sep}ünï");
        assert_eq!(slash_path(Path::new(&rel)), "src/core/ünï".as_bytes());
        assert_eq!(slash_path(Path::new("")), b"");
    }

    /// A gitfile naming its repository by an absolute path written with `/`
    /// (as Git for Windows writes `C:/Users/…`) or by a relative one.
    #[test]
    fn gitfiles_name_the_repository_absolutely_with_slashes_or_relatively() {
        let dir = std::env::temp_dir().join(format!("sfq-gitfile-{}", std::process::id()));
        let git_dir = dir.join("real.git");
        fs::create_dir_all(git_dir.join("objects")).unwrap();
        fs::create_dir_all(git_dir.join("refs")).unwrap();
        fs::write(git_dir.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        let wt = dir.join("wt");
        fs::create_dir_all(&wt).unwrap();
        let want = fs::canonicalize(&git_dir).unwrap();
        let slashed = git_dir.to_str().unwrap().replace('\\', "/");
        for text in [format!("gitdir: {slashed}\n"), "gitdir: ../real.git\r\n".to_string()] {
            fs::write(wt.join(".git"), &text).unwrap();
            assert_eq!(read_gitfile(&wt.join(".git")), Ok(Some(want.clone())), "{text:?}");
            let Found::WorkTree(repo) = find(&wt) else { panic!("no work tree for {text:?}") };
            assert_eq!(repo.git_dir, want);
            assert!(repo.prefix.is_empty());
        }
        let _ = fs::remove_dir_all(&dir);
    }
}
