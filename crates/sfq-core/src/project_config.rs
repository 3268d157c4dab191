//! The project configuration file of `globFiles` and `grepContent` (seed
//! 004): `.smart-file-query.json` at the workspace root, else
//! `.jaato/filesystem_query.json` (seed 004's own location). Read whole and
//! validated before anything is searched: a malformed file, an unknown key
//! or a wrong type is an `EINVALIDCONFIG` error naming the file, the key and
//! what was expected.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode, Result};

/// The files looked up, in order, relative to the root.
pub const CONFIG_FILES: [&str; 2] = [".smart-file-query.json", ".jaato/filesystem_query.json"];

/// The keys a config file may hold (seed 004's).
pub const CONFIG_KEYS: [&str; 8] = [
    "version",
    "exclude_patterns",
    "exclude_mode",
    "include_patterns",
    "max_results",
    "max_file_size_kb",
    "timeout_seconds",
    "context_lines",
];

/// How configured exclusions combine with the defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExcludeMode {
    /// Added to the default list.
    #[default]
    Extend,
    /// Used instead of the default list (`.gitignore` and `.git` still apply).
    Replace,
}

impl ExcludeMode {
    /// Parses `extend` or `replace`.
    pub fn parse(s: &str) -> Option<ExcludeMode> {
        match s {
            "extend" => Some(ExcludeMode::Extend),
            "replace" => Some(ExcludeMode::Replace),
            _ => None,
        }
    }
}

/// A project configuration (every key optional).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectConfig {
    /// The file it was read from, if any.
    pub file: Option<PathBuf>,
    /// `version`.
    pub version: Option<String>,
    /// `exclude_patterns`.
    pub exclude_patterns: Option<Vec<String>>,
    /// `exclude_mode`.
    pub exclude_mode: Option<ExcludeMode>,
    /// `include_patterns`.
    pub include_patterns: Option<Vec<String>>,
    /// `max_results`.
    pub max_results: Option<u64>,
    /// `max_file_size_kb`.
    pub max_file_size_kb: Option<u64>,
    /// `timeout_seconds`.
    pub timeout_seconds: Option<u64>,
    /// `context_lines`.
    pub context_lines: Option<u64>,
}

impl ProjectConfig {
    /// The configuration of the workspace at `root` (empty when no file exists).
    pub fn load(root: &Path) -> Result<ProjectConfig> {
        for name in CONFIG_FILES {
            let path = root.join(name);
            match std::fs::read(&path) {
                Ok(bytes) => return ProjectConfig::parse(&path, &bytes),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => continue,
                Err(e) => {
                    return Err(config_error(&path, format!("cannot be read: {e}")));
                }
            }
        }
        Ok(ProjectConfig::default())
    }

    /// Parses the bytes of the config file at `path`.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<ProjectConfig> {
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|e| config_error(path, format!("is not valid JSON: {e}")))?;
        let Value::Object(map) = value else {
            return Err(config_error(path, "must hold a JSON object".to_string()));
        };
        let mut c = ProjectConfig { file: Some(path.to_path_buf()), ..Default::default() };
        for key in map.keys() {
            if !CONFIG_KEYS.contains(&key.as_str()) {
                return Err(config_error(
                    path,
                    format!("has an unknown key '{key}'; known keys: {}", CONFIG_KEYS.join(", ")),
                ));
            }
        }
        let f = Fields { path, map: &map };
        c.version = f.string("version")?;
        c.exclude_patterns = f.strings("exclude_patterns")?;
        c.exclude_mode = match f.string("exclude_mode")? {
            None => None,
            Some(m) => Some(ExcludeMode::parse(&m).ok_or_else(|| {
                config_error(
                    path,
                    format!("key 'exclude_mode' must be \"extend\" or \"replace\", got {m:?}"),
                )
            })?),
        };
        c.include_patterns = f.strings("include_patterns")?;
        c.max_results = f.int("max_results", 1, 10_000_000)?;
        c.max_file_size_kb = f.int("max_file_size_kb", 1, 1 << 20)?;
        c.timeout_seconds = f.int("timeout_seconds", 1, 86_400)?;
        c.context_lines = f.int("context_lines", 0, 20)?;
        Ok(c)
    }
}

fn config_error(path: &Path, what: String) -> Error {
    Error::new(
        ErrorCode::Io("EINVALIDCONFIG"),
        format!("config file '{}' {what}", crate::paths::shown(path)),
    )
}

struct Fields<'a> {
    path: &'a Path,
    map: &'a Map<String, Value>,
}

impl Fields<'_> {
    fn wrong(&self, key: &str, want: &str, got: &Value) -> Error {
        let got = match got {
            Value::Null => "null".to_string(),
            Value::String(s) => format!("the string {s:?}"),
            Value::Array(_) => "an array".to_string(),
            Value::Object(_) => "an object".to_string(),
            other => other.to_string(),
        };
        config_error(self.path, format!("key '{key}' must be {want}, got {got}"))
    }

    fn string(&self, key: &str) -> Result<Option<String>> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.wrong(key, "a string", v)),
        }
    }

    fn strings(&self, key: &str) -> Result<Option<Vec<String>>> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(self.wrong(key, "an array of strings", other)),
                })
                .collect::<Result<Vec<_>>>()
                .map(Some),
            Some(v) => Err(self.wrong(key, "an array of strings", v)),
        }
    }

    fn int(&self, key: &str, min: u64, max: u64) -> Result<Option<u64>> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) if n.as_u64().is_some_and(|u| (min..=max).contains(&u)) => {
                Ok(n.as_u64())
            }
            Some(v) => Err(self.wrong(key, &format!("an integer from {min} to {max}"), v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_files_are_validated_whole() {
        let p = Path::new("/r/.smart-file-query.json");
        let c = ProjectConfig::parse(
            p,
            br#"{"version":"1.0","exclude_patterns":["vendor"],"exclude_mode":"replace","max_results":7}"#,
        )
        .unwrap();
        assert_eq!(c.exclude_patterns, Some(vec!["vendor".to_string()]));
        assert_eq!(c.exclude_mode, Some(ExcludeMode::Replace));
        assert_eq!(c.max_results, Some(7));
        let e = ProjectConfig::parse(p, br#"{"max_result": 3}"#).unwrap_err();
        assert_eq!(e.code().as_str(), "EINVALIDCONFIG");
        assert!(e.message().contains("unknown key 'max_result'"), "{e}");
        let e = ProjectConfig::parse(p, br#"{"max_results": "3"}"#).unwrap_err();
        assert!(
            e.message().contains(
                "key 'max_results' must be an integer from 1 to 10000000, got the string \"3\""
            ),
            "{e}"
        );
        let e = ProjectConfig::parse(p, b"{nope").unwrap_err();
        assert!(e.message().contains("/r/.smart-file-query.json' is not valid JSON"), "{e}");
        let e = ProjectConfig::parse(p, br#"{"exclude_mode":"merge"}"#).unwrap_err();
        assert!(e.message().contains("\"extend\" or \"replace\""), "{e}");
    }
}
