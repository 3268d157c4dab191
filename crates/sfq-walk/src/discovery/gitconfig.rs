//! A small reader for git's config files: just enough to find
//! `core.excludesFile`, `core.ignoreCase`, `extensions.objectFormat` and
//! `extensions.worktreeConfig`, with `include.path` and `includeIf`
//! (`gitdir:`, `gitdir/i:`, `onbranch:`) honoured.

use std::path::{Path, PathBuf};

use super::wildmatch::{self, CASEFOLD, PATHNAME};

/// Where the repository is, for `includeIf` conditions.
#[derive(Debug, Clone, Default)]
pub struct IncludeContext {
    /// The repository's git directory (absolute).
    pub git_dir: Option<PathBuf>,
    /// The current branch name (`HEAD` → `refs/heads/<name>`).
    pub branch: Option<String>,
    /// `$HOME`, for `~/` in paths.
    pub home: Option<PathBuf>,
}

/// Accumulated `key = value` pairs, in the order git reads them.
#[derive(Debug, Default, Clone)]
pub struct Config {
    /// `(section[.subsection].name, value)`; `value` is `None` for a bare key.
    pub entries: Vec<(String, Option<String>)>,
}

impl Config {
    /// The last value of `key` (lower-case `section.name`).
    pub fn get(&self, key: &str) -> Option<Option<&str>> {
        self.entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_deref())
    }

    /// The last value of `key` read as a git boolean.
    pub fn get_bool(&self, key: &str) -> Option<bool> {
        self.get(key).map(|v| match v {
            None => true,
            Some(s) => {
                let s = s.to_ascii_lowercase();
                matches!(s.as_str(), "true" | "yes" | "on")
                    || s.parse::<i64>().is_ok_and(|n| n != 0)
            }
        })
    }

    /// Reads `path` (if it exists) and appends its entries, following includes.
    pub fn read_file(&mut self, path: &Path, ctx: &IncludeContext, depth: u32) {
        if depth > 10 {
            return;
        }
        let Ok(data) = std::fs::read(path) else { return };
        let text = String::from_utf8_lossy(&data);
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for (key, value) in parse(&text) {
            let include = key == "include.path"
                || (key.starts_with("includeif.")
                    && key.ends_with(".path")
                    && condition_holds(
                        &key["includeif.".len()..key.len() - ".path".len()],
                        path,
                        ctx,
                    ));
            if include {
                if let Some(v) = &value {
                    let target = interpolate_path(v, ctx.home.as_deref())
                        .map(|p| if p.is_absolute() { p } else { dir.join(p) });
                    if let Some(t) = target {
                        self.read_file(&t, ctx, depth + 1);
                    }
                }
                continue;
            }
            self.entries.push((key, value));
        }
    }
}

fn condition_holds(cond: &str, config_path: &Path, ctx: &IncludeContext) -> bool {
    let (fold, pat) = if let Some(p) = cond.strip_prefix("gitdir:") {
        (false, p)
    } else if let Some(p) = cond.strip_prefix("gitdir/i:") {
        (true, p)
    } else if let Some(p) = cond.strip_prefix("onbranch:") {
        let Some(branch) = &ctx.branch else { return false };
        let mut pat = p.to_string();
        if pat.ends_with('/') {
            pat.push_str("**");
        }
        return wildmatch::wildmatch(pat.as_bytes(), branch.as_bytes(), PATHNAME);
    } else {
        return false;
    };
    let Some(git_dir) = &ctx.git_dir else { return false };
    let mut pattern = match pat.strip_prefix("~/") {
        Some(rest) => match &ctx.home {
            Some(h) => format!("{}/{}", git_form(h), rest),
            None => return false,
        },
        None => match pat.strip_prefix("./") {
            Some(rest) => match config_path.parent() {
                Some(d) => format!("{}/{}", git_form(d), rest),
                None => return false,
            },
            None => pat.to_string(),
        },
    };
    if !pattern.starts_with('/') {
        pattern = format!("**/{pattern}");
    }
    if pattern.ends_with('/') {
        pattern.push_str("**");
    }
    let flags = PATHNAME | if fold { CASEFOLD } else { 0 };
    let text = git_form(git_dir);
    let real =
        std::fs::canonicalize(git_dir).map(|p| git_form(&p)).unwrap_or_else(|_| text.clone());
    wildmatch::wildmatch(pattern.as_bytes(), text.as_bytes(), flags)
        || wildmatch::wildmatch(pattern.as_bytes(), real.as_bytes(), flags)
}

/// A path as git compares it with a `gitdir:` pattern: Git for Windows
/// writes `C:/Users/me/repo/.git` (no verbatim `\\?\` prefix, `/` between
/// names); elsewhere the path itself.
pub(crate) fn git_form(path: &Path) -> String {
    let text = path.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '/' {
        return text.into_owned();
    }
    let plain = match text.strip_prefix(r"\\?\UNC\") {
        Some(rest) => format!(r"\\{rest}"),
        None => text.strip_prefix(r"\\?\").unwrap_or(&text).to_string(),
    };
    plain.replace('\\', "/")
}

/// git's `interpolate_path` for `~/` (and a plain path); `~user/` is not
/// supported and yields `None`.
pub fn interpolate_path(v: &str, home: Option<&Path>) -> Option<PathBuf> {
    if let Some(rest) = v.strip_prefix("~/") {
        return Some(home?.join(rest));
    }
    if v == "~" {
        return home.map(Path::to_path_buf);
    }
    if v.starts_with('~') {
        return None;
    }
    Some(PathBuf::from(v))
}

/// Parses config text into `(key, value)` pairs.
pub fn parse(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut section = String::new();
    let n = chars.len();
    while i < n {
        let c = chars[i];
        if c == '\n' || c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '#' || c == ';' {
            while i < n && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '[' {
            i += 1;
            let mut name = String::new();
            while i < n && chars[i] != ']' && !chars[i].is_whitespace() && chars[i] != '\n' {
                name.push(chars[i].to_ascii_lowercase());
                i += 1;
            }
            // Old style [section.sub] lower-cases the subsection too.
            let mut sub: Option<String> = None;
            while i < n && chars[i] != ']' && chars[i] != '\n' {
                if chars[i] == '"' {
                    i += 1;
                    let mut s = String::new();
                    while i < n && chars[i] != '"' && chars[i] != '\n' {
                        if chars[i] == '\\' && i + 1 < n {
                            i += 1;
                        }
                        s.push(chars[i]);
                        i += 1;
                    }
                    sub = Some(s);
                }
                i += 1;
            }
            i += 1; // ']'
            section = match sub {
                Some(s) => format!("{name}.{s}"),
                None => name,
            };
            continue;
        }
        // key
        let mut key = String::new();
        while i < n && (chars[i].is_ascii_alphanumeric() || chars[i] == '-') {
            key.push(chars[i].to_ascii_lowercase());
            i += 1;
        }
        if key.is_empty() {
            // Not a valid line: skip it.
            while i < n && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        while i < n && (chars[i] == ' ' || chars[i] == '\t') {
            i += 1;
        }
        let full = format!("{section}.{key}");
        if i >= n || chars[i] == '\n' || chars[i] == '#' || chars[i] == ';' {
            out.push((full, None));
            continue;
        }
        if chars[i] != '=' {
            while i < n && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        i += 1;
        // value
        let mut value = String::new();
        let mut quoted = false;
        let mut pending_ws = String::new();
        let mut started = false;
        while i < n {
            let c = chars[i];
            if c == '\n' && !quoted {
                break;
            }
            if !quoted && (c == '#' || c == ';') {
                while i < n && chars[i] != '\n' {
                    i += 1;
                }
                break;
            }
            if c == '\\' && i + 1 < n {
                let e = chars[i + 1];
                i += 2;
                let ch = match e {
                    '\n' => {
                        continue;
                    }
                    'n' => '\n',
                    't' => '\t',
                    'b' => '\u{8}',
                    '\\' => '\\',
                    '"' => '"',
                    other => other,
                };
                value.push_str(&pending_ws);
                pending_ws.clear();
                value.push(ch);
                started = true;
                continue;
            }
            if c == '"' {
                quoted = !quoted;
                value.push_str(&pending_ws);
                pending_ws.clear();
                started = true;
                i += 1;
                continue;
            }
            if !quoted && (c == ' ' || c == '\t' || c == '\r') {
                if started {
                    pending_ws.push(c);
                }
                i += 1;
                continue;
            }
            value.push_str(&pending_ws);
            pending_ws.clear();
            value.push(c);
            started = true;
            i += 1;
        }
        out.push((full, Some(value)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{git_form, parse};

    /// `gitdir:` patterns are matched against paths as Git for Windows
    /// writes them: `C:/Users/me/repo/.git`.
    #[test]
    fn git_dirs_are_compared_in_git_s_own_form() {
        if cfg!(windows) {
            let p = std::path::Path::new(r"\\?\C:\Users\me\repo\.git");
            assert_eq!(git_form(p), "C:/Users/me/repo/.git");
            let unc = std::path::Path::new(r"\\?\UNC\srv\share\repo\.git");
            assert_eq!(git_form(unc), "//srv/share/repo/.git");
        } else {
            assert_eq!(git_form(std::path::Path::new("/home/me/repo/.git")), "/home/me/repo/.git");
        }
    }

    #[test]
    fn parses_common_shapes() {
        let cfg = "[core]\n\texcludesFile = ~/my ignore  # c\n\tbare\n[remote \"Origin\"]\n\turl = \"a b\\\"c\"\n[Extensions]\nobjectFormat=sha256\n";
        let e = parse(cfg);
        assert_eq!(e[0], ("core.excludesfile".into(), Some("~/my ignore".into())));
        assert_eq!(e[1], ("core.bare".into(), None));
        assert_eq!(e[2], ("remote.Origin.url".into(), Some("a b\"c".into())));
        assert_eq!(e[3], ("extensions.objectformat".into(), Some("sha256".into())));
    }
}
