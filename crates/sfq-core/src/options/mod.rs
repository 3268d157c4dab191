//! Raw options as the JS wrapper sends them (a JSON object), read with
//! validation: every type or range problem is an `EINVALIDOPTION` error
//! naming the option and what to fix. Unknown keys are refused with a
//! suggestion, because a misspelt option silently ignored is worse.

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// The generator of `lib/generated/options.js` (its test writes and checks it).
#[cfg(test)]
mod catalog;
mod spec;

pub use spec::{Dflt, Kind, OptSpec, Split, one_of_words, opt};

/// The largest `timeoutMs` (and time budgets): what a JS timer can wait.
pub const MAX_TIMEOUT_MS: u64 = (1 << 31) - 1;

/// `timeoutMs`, as every API takes it.
pub const TIMEOUT_MS: OptSpec = opt(
    "timeoutMs",
    Kind::Int(1, MAX_TIMEOUT_MS),
    "reject with ETIMEOUT after this many milliseconds",
);

/// `threads`, as every API that walks takes it.
pub const THREADS: OptSpec =
    opt("threads", Kind::Int(1, 256), "worker threads (output is the same for any value)")
        .default_prose("the machine's parallelism");

/// The CLI subcommands' text for `--recurse-submodules`.
pub const SUBMODULES_CLI: &str =
    "search initialised git submodules too, as git ls-files --recurse-submodules lists them";

/// The MCP tools' description of the recurse-submodules argument (each tool
/// spells its name in its own style).
pub const RECURSE_SUBMODULES_MCP: &str = "Search initialised git submodules too, as git ls-files --recurse-submodules lists them: \
     their files under their paths, by their own .gitignore (untracked, not ignored files too). \
     Default: false (a submodule is not entered).";

/// A JSON options object plus the API name used in messages.
#[derive(Debug)]
pub struct RawOptions {
    api: &'static str,
    map: Map<String, Value>,
    /// Where the call's file contents come from (not an option: the
    /// session the call was made on, or the disk).
    source: crate::engine::Source,
}

impl RawOptions {
    /// Parses `json` (an object, or `null`/empty for no options) and refuses
    /// keys not in `known`.
    pub fn parse(api: &'static str, json: &str, known: &[&str]) -> Result<RawOptions> {
        let value: Value = if json.trim().is_empty() {
            Value::Null
        } else {
            serde_json::from_str(json).map_err(|e| {
                Error::invalid_option(format!("{api}: options are not valid JSON: {e}"))
            })?
        };
        let map = match value {
            Value::Null => Map::new(),
            Value::Object(map) => map,
            other => {
                return Err(Error::invalid_option(format!(
                    "{api}: options must be an object, got {}",
                    describe(&other)
                )));
            }
        };
        for key in map.keys() {
            if !known.contains(&key.as_str()) {
                let hint = suggest(key, known)
                    .map(|k| format!(" (did you mean '{k}'?)"))
                    .unwrap_or_default();
                return Err(Error::invalid_option(format!(
                    "{api}: unknown option '{key}'{hint}; known options: {}",
                    known.join(", ")
                )));
            }
        }
        Ok(RawOptions { api, map, source: crate::engine::Source::Disk })
    }

    /// The API name, for messages.
    pub fn api(&self) -> &'static str {
        self.api
    }

    /// These options read their files from `source`.
    pub fn with_source(mut self, source: crate::engine::Source) -> RawOptions {
        self.source = source;
        self
    }

    /// Where the call's file contents come from.
    pub fn source(&self) -> &crate::engine::Source {
        &self.source
    }

    fn get(&self, key: &str) -> Option<&Value> {
        match self.map.get(key) {
            None | Some(Value::Null) => None,
            Some(v) => Some(v),
        }
    }

    fn type_error(&self, key: &str, want: &str, got: &Value) -> Error {
        Error::invalid_option(format!(
            "{}: option '{key}' must be {want}, got {}",
            self.api,
            describe(got)
        ))
    }

    /// A string option.
    pub fn string(&self, key: &str) -> Result<Option<String>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(self.type_error(key, "a string", other)),
        }
    }

    /// A boolean option.
    pub fn bool(&self, key: &str) -> Result<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.type_error(key, "a boolean", other)),
        }
    }

    /// An integer option within `min..=max`.
    pub fn int(&self, key: &str, min: u64, max: u64) -> Result<Option<u64>> {
        let Some(v) = self.get(key) else { return Ok(None) };
        let want = format!("a finite integer from {min} to {max}");
        let n = match v {
            Value::Number(n) => n,
            other => return Err(self.type_error(key, &want, other)),
        };
        let value = if let Some(u) = n.as_u64() {
            Some(u)
        } else if n.as_i64().is_some() {
            None
        } else {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u64::MAX as f64)
                .map(|f| f as u64)
        };
        match value {
            Some(u) if (min..=max).contains(&u) => Ok(Some(u)),
            _ => Err(Error::invalid_option(format!(
                "{}: option '{key}' must be {want}, got {n}",
                self.api
            ))),
        }
    }

    /// Any finite integer (negative too), e.g. a line number to clamp.
    pub fn int_signed(&self, key: &str) -> Result<Option<i64>> {
        let Some(v) = self.get(key) else { return Ok(None) };
        let n = match v {
            Value::Number(n) => n,
            other => return Err(self.type_error(key, "a finite integer", other)),
        };
        n.as_i64()
            .or_else(|| {
                n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15).map(|f| f as i64)
            })
            .map(Some)
            .ok_or_else(|| {
                Error::invalid_option(format!(
                    "{}: option '{key}' must be a finite integer, got {n}",
                    self.api
                ))
            })
    }

    /// A string or an array of strings (`glob: 'a'` or `glob: ['a', 'b']`).
    pub fn string_list(&self, key: &str) -> Result<Option<Vec<String>>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(vec![s.clone()])),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(self.type_error(key, "a string or an array of strings", other)),
                })
                .collect::<Result<Vec<_>>>()
                .map(Some),
            Some(other) => Err(self.type_error(key, "a string or an array of strings", other)),
        }
    }
}

impl RawOptions {
    /// Parses `json` against an option table: unknown keys are refused
    /// (with a suggestion) and every given value is type- and range-checked.
    pub fn parse_table(api: &'static str, json: &str, table: &[OptSpec]) -> Result<RawOptions> {
        let known: Vec<&str> = table.iter().map(|o| o.name).collect();
        let raw = RawOptions::parse(api, json, &known)?;
        for o in table {
            match o.kind {
                Kind::Str => drop(raw.string(o.name)?),
                Kind::Bool => drop(raw.bool(o.name)?),
                Kind::Int(min, max) => drop(raw.int(o.name, min, max)?),
                Kind::List => drop(raw.string_list(o.name)?),
                Kind::OneOf(values) => match raw.string(o.name)? {
                    Some(v) if !values.contains(&v.as_str()) => {
                        return Err(Error::invalid_option(format!(
                            "{api}: option '{}' must be {}, got {v:?}",
                            o.name,
                            spec::one_of_words(values)
                        )));
                    }
                    _ => {}
                },
            }
        }
        Ok(raw)
    }

    /// Parses `json` against an option table's names only: unknown keys are
    /// refused, values are checked where they are read (`smartFileQuery`
    /// checks in the seed script's order).
    pub fn parse_names(api: &'static str, json: &str, table: &[OptSpec]) -> Result<RawOptions> {
        let known: Vec<&str> = table.iter().map(|o| o.name).collect();
        RawOptions::parse(api, json, &known)
    }

    /// The `threads` option (1–256), else the machine's parallelism.
    pub fn threads(&self) -> Result<usize> {
        Ok(self
            .int_of("threads", &[THREADS])?
            .map_or_else(crate::scan::default_threads, |t| t as usize))
    }

    /// An integer option of `table`, checked against its bounds.
    pub fn int_of(&self, key: &str, table: &[OptSpec]) -> Result<Option<u64>> {
        let (min, max) = match spec::find(table, key).map(|o| o.kind) {
            Some(Kind::Int(min, max)) => (min, max),
            _ => return Err(undeclared(self.api, key, "an integer option")),
        };
        self.int(key, min, max)
    }

    /// An integer option of `table`, else its declared default.
    pub fn int_default(&self, key: &str, table: &[OptSpec]) -> Result<u64> {
        self.int_or_config(key, table, None)
    }

    /// An integer option of `table`, else `config` (the project config's
    /// value), else its declared default.
    pub fn int_or_config(&self, key: &str, table: &[OptSpec], config: Option<u64>) -> Result<u64> {
        let value = self.int_of(key, table)?;
        match (value.or(config), spec::find(table, key).map(|o| o.default)) {
            (Some(v), _) => Ok(v),
            (None, Some(Dflt::Int(d))) => Ok(d),
            _ => Err(undeclared(self.api, key, "an integer default")),
        }
    }

    /// A boolean option of `table`, else its declared default.
    pub fn bool_default(&self, key: &str, table: &[OptSpec]) -> Result<bool> {
        match (self.bool(key)?, spec::find(table, key).map(|o| o.default)) {
            (Some(v), _) => Ok(v),
            (None, Some(Dflt::Bool(d))) => Ok(d),
            _ => Err(undeclared(self.api, key, "a boolean default")),
        }
    }
}

/// A key the code reads but its table does not declare as it reads it: a
/// mistake in the tables (a test reads every declared option).
fn undeclared(api: &str, key: &str, what: &str) -> Error {
    Error::new(
        crate::error::ErrorCode::Internal,
        format!("{api}: option '{key}' is not declared with {what} in its table"),
    )
}

/// How a JSON value is named in messages. The wrapper sends non-finite
/// numbers as `{"$invalid": "NaN"}` because JSON cannot carry them.
fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("{n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(map) => match map.get("$invalid") {
            Some(Value::String(s)) => s.clone(),
            _ => "an object".into(),
        },
    }
}

/// The known key closest to `key` (same letters ignoring case, or at most
/// two edits away).
fn suggest<'a>(key: &str, known: &[&'a str]) -> Option<&'a str> {
    let lower = key.to_ascii_lowercase();
    known
        .iter()
        .map(|k| (edit_distance(&lower, &k.to_ascii_lowercase()), *k))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["maxMatches", "glob", "flags"];

    #[test]
    fn unknown_keys_are_refused_with_a_suggestion() {
        let e = RawOptions::parse("smartFileQuery", r#"{"maxMatch": 3}"#, KNOWN).unwrap_err();
        assert!(
            e.message().contains("unknown option 'maxMatch' (did you mean 'maxMatches'?)"),
            "{e}"
        );
    }

    #[test]
    fn integers_are_validated_with_bounds() {
        let o = RawOptions::parse("t", r#"{"maxMatches": 2.5}"#, KNOWN).unwrap();
        let e = o.int("maxMatches", 1, 10).unwrap_err();
        assert_eq!(
            e.message(),
            "t: option 'maxMatches' must be a finite integer from 1 to 10, got 2.5"
        );
        let o = RawOptions::parse("t", r#"{"maxMatches": -1}"#, KNOWN).unwrap();
        assert!(o.int("maxMatches", 1, 10).is_err());
        let o = RawOptions::parse("t", r#"{"maxMatches": {"$invalid": "NaN"}}"#, KNOWN).unwrap();
        assert!(o.int("maxMatches", 1, 10).unwrap_err().message().ends_with("got NaN"));
        let o = RawOptions::parse("t", r#"{"maxMatches": 4.0, "glob": null}"#, KNOWN).unwrap();
        assert_eq!(o.int("maxMatches", 1, 10).unwrap(), Some(4));
        assert_eq!(o.string_list("glob").unwrap(), None);
    }

    #[test]
    fn string_lists_accept_a_string_or_an_array() {
        let o = RawOptions::parse("t", r#"{"glob": "a"}"#, KNOWN).unwrap();
        assert_eq!(o.string_list("glob").unwrap(), Some(vec!["a".to_string()]));
        let o = RawOptions::parse("t", r#"{"glob": ["a", 1]}"#, KNOWN).unwrap();
        assert!(o.string_list("glob").is_err());
        assert!(RawOptions::parse("t", "[1]", KNOWN).is_err());
    }
}
