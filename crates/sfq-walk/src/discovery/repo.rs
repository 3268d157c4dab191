//! Finding the git repository a root belongs to, without spawning git:
//! `.git` directories and gitfiles (`gitdir: …`, worktrees, submodules),
//! `commondir`, and git's own tests for "is this a repository".

use std::fs;
use std::path::{Path, PathBuf};

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

/// git's `get_common_dir`: `commondir` file content, relative to `git_dir`.
pub fn common_dir(git_dir: &Path) -> PathBuf {
    match fs::read(git_dir.join("commondir")) {
        Ok(data) => {
            let s = String::from_utf8_lossy(&data);
            let s = s.trim_end_matches(['\n', '\r']);
            if s.is_empty() {
                return git_dir.to_path_buf();
            }
            let p = Path::new(s);
            if p.is_absolute() { p.to_path_buf() } else { git_dir.join(p) }
        }
        Err(_) => git_dir.to_path_buf(),
    }
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

/// git's `read_gitfile_gently`: `Ok(Some(dir))` for a valid gitfile,
/// `Ok(None)` when `path` is not a regular file, `Err(())` for a gitfile that
/// cannot be read or does not point to a repository.
pub fn read_gitfile(path: &Path) -> Result<Option<PathBuf>, GitfileError> {
    let Ok(meta) = fs::metadata(path) else { return Ok(None) };
    if !meta.is_file() {
        return Ok(None);
    }
    let data = fs::read(path).map_err(|_| GitfileError::ReadFailed)?;
    let Some(rest) = data.strip_prefix(b"gitdir: ") else { return Err(GitfileError::Invalid) };
    let mut end = rest.len();
    while end > 0 && rest[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    if end == 0 {
        return Err(GitfileError::Invalid);
    }
    let target = PathBuf::from(String::from_utf8_lossy(&rest[..end]).into_owned());
    let dir = if target.is_absolute() {
        target
    } else {
        path.parent().unwrap_or(Path::new("/")).join(target)
    };
    if !is_git_directory(&dir) {
        return Err(GitfileError::NotARepo);
    }
    Ok(Some(dir))
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
            let prefix = start
                .strip_prefix(&dir)
                .map(|p| p.as_os_str().as_encoded_bytes().to_vec())
                .unwrap_or_default();
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

/// The branch `HEAD` points to, for `includeIf "onbranch:…"`.
pub fn current_branch(git_dir: &Path) -> Option<String> {
    let data = fs::read(git_dir.join("HEAD")).ok()?;
    let s = String::from_utf8_lossy(&data);
    let r = s.strip_prefix("ref:")?.trim();
    r.strip_prefix("refs/heads/").map(str::to_string)
}
