//! `grepContent` (seed 004): its options, exclusions, result and run.

use super::*;

/// `grepContent`'s options.
pub const GREP_CONTENT_OPTIONS: &[OptSpec] = &{
    let c = common_options!();
    let x = result_options!();
    [
        opt(
            "pattern",
            Kind::Str,
            "regex pattern to search (JavaScript; Python's (?P<name>) accepted)",
        )
        .mcp_same("Regex pattern to search"),
        opt("path", Kind::Str, "file or directory to search (default: the root)")
            .mcp_same("File or directory to search (default: cwd, the server root)"),
        opt("fileGlob", Kind::Str, "only search matching files (without '/': names at any depth)")
            .mcp(
                "file_glob",
                "Only search matching files (e.g. *.py; without / it matches names at any depth)",
            ),
        opt("contextLines", Kind::Int(0, 20), "lines of context (default: config, else 2)")
            .default_int(2)
            .mcp("context_lines", "Lines of context (default: 2)"),
        opt("caseSensitive", Kind::Bool, "case-sensitive (default: true)")
            .default_bool(true)
            .mcp("case_sensitive", "Case-sensitive (default: true)"),
        opt(
            "maxResults",
            Kind::Int(1, MAX_RESULTS),
            "max matches to return (default: config, else 500)",
        )
        .default_int(500)
        .mcp("max_results", "Max matches to return (default: config max_results, else 500)"),
        opt("offset", Kind::Int(0, MAX_RESULTS), "skip this many matching lines first (paging)")
            .default_int(0)
            .mcp_same(
                "Skip this many matching lines first, to page through a long answer (default: 0)",
            ),
        x[1],
        c[6],
        opt(
            "excludePatterns",
            Kind::List,
            "more exclusions (bare names at any depth, paths from the root)",
        ),
        opt(
            "excludeMode",
            Kind::Str,
            "'extend' (default) adds to the default exclusions, 'replace' replaces them",
        )
        .default_str("extend"),
        opt("includePatterns", Kind::List, "paths kept even when excluded or git-ignored"),
        opt(
            "maxFileSizeKB",
            Kind::Int(1, 1 << 20),
            "skip larger files (default: config, else 1024)",
        )
        .default_int(1024),
        x[0],
        x[2],
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
    ]
};

/// `grepContent`'s result (seed 004's response, camelCase).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepContentResult {
    /// The page of matching lines.
    pub matches: Vec<GrepContentMatch>,
    /// Matching lines in the searched files (exact past the cap).
    pub total_matches: u64,
    /// Files with at least one matching line.
    pub files_with_matches: u64,
    /// Files searched.
    pub files_searched: u64,
    /// Whether matching lines were left out.
    pub truncated: bool,
    /// The pattern as given.
    pub pattern: String,
    /// The absolute path searched.
    pub path: String,
    /// The file glob, or null.
    pub file_glob: Option<String>,
    /// Files not searched, by reason.
    pub skipped: SkipCounts,
    /// False when `timeBudgetMs` ended the search early.
    pub complete: bool,
    /// Why the result is incomplete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// `"maxResultBytes"` when the result budget, not the page size, left
    /// matching lines out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_by: Option<&'static str>,
    /// When nothing matched: what the excluded or ignored files hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// One matching line of `grepContent`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepContentMatch {
    /// Root-relative path.
    pub file: Arc<str>,
    /// Absolute path.
    pub absolute_path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (code points) of the line's first match.
    pub column: usize,
    /// The line (windowed when too long).
    pub text: String,
    /// The first match's text.
    #[serde(rename = "match")]
    pub matched: String,
    /// Lines before.
    pub context_before: Vec<String>,
    /// Lines after.
    pub context_after: Vec<String>,
    /// Present (true) when a line was cut.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub text_truncated: bool,
    /// With `withSymbols`: the innermost outline item holding the line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<Symbol>,
}

/// The exclusions of a seed-004 profile: defaults (or not, with
/// `replace`), the config's and the call's patterns, force includes.
pub fn seed004_excludes(raw: &RawOptions, config: &ProjectConfig) -> Result<Excludes> {
    let mode = match raw.string("excludeMode")? {
        Some(m) => ExcludeMode::parse(&m).ok_or_else(|| {
            Error::invalid_option(format!(
                "{}: option 'excludeMode' must be 'extend' or 'replace', got {m:?}",
                raw.api()
            ))
        })?,
        None => config.exclude_mode.unwrap_or_default(),
    };
    let patterns = match raw.string_list("excludePatterns")? {
        Some(p) => p,
        None => config.exclude_patterns.clone().unwrap_or_default(),
    };
    let mut excludes = match mode {
        ExcludeMode::Extend => Excludes::from_entries(crate::excludes::SEED004),
        // `.git` is never searched, whatever the list says.
        ExcludeMode::Replace => Excludes::from_entries(&[".git"]),
    };
    excludes.extend_entries(&patterns);
    let force = match raw.string_list("includePatterns")? {
        Some(p) => p,
        None => config.include_patterns.clone().unwrap_or_default(),
    };
    Ok(excludes.with_force(&force))
}

/// Runs `grepContent`.
pub fn grep_content(
    raw: &RawOptions,
    pattern: Option<Vec<u16>>,
    cancel: &Cancel,
    started: Instant,
) -> Result<GrepContentResult> {
    let t = GREP_CONTENT_OPTIONS;
    let source = query_of(raw, "pattern", pattern, "a regex")?;
    let case =
        if raw.bool_default("caseSensitive", t)? { Case::Sensitive } else { Case::Insensitive };
    let matcher = PatternSpec::new(source.clone(), Syntax::PythonRegex, case)
        .compile("grepContent", "pattern")?
        .with_timeout(raw.int_of("regexTimeoutMs", t)?);
    let root = resolve_root(raw.string("cwd")?.as_deref())?;
    let config = ProjectConfig::load(&root)?;
    let file_glob = raw.string("fileGlob")?.filter(|g| !g.trim().is_empty());
    let include = match &file_glob {
        Some(g) => Some(glob_set("fileGlob", std::slice::from_ref(g), true, !g.contains('/'))?),
        None => None,
    };
    let base = resolve_base(&root, raw.string("path")?)?;
    let path = match &base {
        Base::Dir { abs, .. } => crate::paths::shown(abs),
        Base::File(c) => crate::paths::shown(&c.abs()),
    };
    let scan = LineScan {
        base,
        excludes: seed004_excludes(raw, &config)?,
        include,
        matcher,
        reader: Reader::new(
            raw.int_or_config("maxFileSizeKB", t, config.max_file_size_kb)? * 1024,
            Encoding::Utf8,
            raw.source().clone(),
        ),
        context_lines: raw.int_or_config("contextLines", t, config.context_lines)? as usize,
        max_line_length: raw.int_default("maxLineLength", t)? as usize,
        max_result_bytes: raw.int_default("maxResultBytes", t)?,
        offset: raw.int_default("offset", t)? as usize,
        max_results: raw.int_or_config("maxResults", t, config.max_results)? as usize,
        count_all: true,
        threads: raw.threads()?,
        time_budget: raw.int_of("timeBudgetMs", t)?.map(Duration::from_millis),
        with_symbols: raw.bool_default("withSymbols", t)?,
        hint: raw.int_of("hintMs", t)? != Some(0),
        hint_time: raw.int_of("hintMs", t)?.map(Duration::from_millis),
        recurse_submodules: raw.bool_default("recurseSubmodules", t)?,
        root,
    };
    let found = scan.run(cancel, started)?;
    let truncated = scan.truncated(&found);
    let matches = found
        .entries
        .into_iter()
        .map(|(file, e)| GrepContentMatch {
            absolute_path: crate::paths::shown(&scan.root.join(&*file)),
            file,
            line: e.line_number,
            column: e.column,
            text: e.content,
            matched: e.matched,
            context_before: e.before,
            context_after: e.after,
            text_truncated: e.truncated,
            symbol: e.symbol,
        })
        .collect();
    Ok(GrepContentResult {
        matches,
        total_matches: found.total,
        files_with_matches: found.files_with_matches,
        files_searched: found.files_searched,
        truncated,
        pattern: String::from_utf16_lossy(&source),
        path,
        file_glob,
        skipped: found.skipped,
        complete: found.incomplete.is_none(),
        reason: found.incomplete,
        truncated_by: found.cut_by_bytes.then_some("maxResultBytes"),
        hint: found.hint,
    })
}
