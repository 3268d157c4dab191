//! `searchCode` (seed 003): its options, exclusions, result and run.

use super::*;

/// `searchCode`'s options (the query travels beside them as `query`).
pub const SEARCH_CODE_OPTIONS: &[OptSpec] = &{
    let c = common_options!();
    let x = result_options!();
    [
        opt("query", Kind::Str, "the text (or regex, with isRegex) to search for")
            .mcp_same("Search term or regex pattern"),
        opt("path", Kind::Str, "a file or folder under the root to search (default: the root)")
            .mcp_same("Limit search to this file or directory"),
        opt("isRegex", Kind::Bool, "read the query as a JavaScript regex (default: false, a literal)")
            .default_bool(false)
            .mcp("is_regex", "Treat query as regex (default: false)")
            .cli("--regex", "", "read QUERY as a JavaScript regex"),
        opt(
            "caseSensitive",
            Kind::Bool,
            "true/false; default smart case (insensitive unless the query has an upper-case letter)",
        )
        .default_prose("smart case (insensitive unless the query has an upper-case letter)")
        .mcp("case_sensitive", "Case-sensitive search (default: false)")
        .cli("--case-sensitive", "", "exact case"),
        opt("maxResults", Kind::Int(1, MAX_RESULTS), "matching lines returned (default 50)")
            .default_int(50)
            .mcp("max_results", "Max matching lines to return (default: 50)")
            .cli("--max-results", "<n>", "matching lines returned (default 50)"),
        opt("offset", Kind::Int(0, MAX_RESULTS), "skip this many matching lines first (paging)")
            .default_int(0)
            .mcp_same(
                "Skip this many matching lines first, to page through a long answer (default: 0)",
            )
            .cli("--offset", "<n>", "skip this many matching lines first (paging)"),
        opt("includeExtensions", Kind::List, "only files with these extensions ('.ts' or 'ts')")
            .mcp("include_extensions", "Only files with these extensions (e.g. [\".ts\", \".tsx\"])")
            .cli_list(
                "--ext",
                "<.ts,.tsx>",
                Split::Comma,
                "only these extensions; comma-separated, repeatable",
            ),
        opt(
            "excludePatterns",
            Kind::List,
            "globs to exclude besides .gitignore, .git and node_modules",
        )
        .mcp(
            "exclude_patterns",
            "Glob patterns to exclude (a name without / matches at any depth)",
        )
        .cli_list(
            "--exclude",
            "<glob>",
            Split::Globs,
            "exclude paths (a name without / at any depth); comma-separated, repeatable",
        ),
        c[4].cli(
            "--max-line-length",
            "<n>",
            "cut longer lines to a window around the match (default 500; 0: off)",
        ),
        x[1],
        c[6].cli("--recurse-submodules", "", SUBMODULES_CLI),
        x[0],
        x[2],
        c[0],
        c[1],
        c[2],
        c[3],
        c[5],
    ]
};

/// `searchCode`'s result (seed 003's `SearchResult`, plus counts).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    /// The query as given.
    pub query: String,
    /// Matching lines in the searched files (exact, past `maxResults` too).
    pub match_count: u64,
    /// The page of matching lines.
    pub matches: Vec<SearchMatch>,
    /// Whether matching lines were left out (past the page).
    pub truncated: bool,
    /// Files with at least one matching line.
    pub files_with_matches: u64,
    /// Files searched.
    pub files_searched: u64,
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

/// One matching line (seed 003's `SearchMatch`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchMatch {
    /// Root-relative path.
    pub path: Arc<str>,
    /// 1-based line.
    pub line_number: usize,
    /// The line (a window around the match when longer than `maxLineLength`).
    pub content: String,
    /// Present (true) when `content` was cut.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub content_truncated: bool,
    /// With `withSymbols`: the innermost outline item holding the line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<Symbol>,
}

fn extensions_glob(exts: &[String]) -> Result<Option<GlobSet>> {
    let globs: Vec<String> = exts
        .iter()
        .map(|e| e.trim().trim_start_matches('.').to_string())
        .filter(|e| !e.is_empty())
        .map(|e| format!("**/*.{e}"))
        .collect();
    if globs.is_empty() {
        Ok(None)
    } else {
        glob_set("includeExtensions", &globs, true, false).map(Some)
    }
}

/// Runs `searchCode`.
pub fn search_code(
    raw: &RawOptions,
    pattern: Option<Vec<u16>>,
    cancel: &Cancel,
    started: Instant,
) -> Result<SearchResult> {
    let t = SEARCH_CODE_OPTIONS;
    let source = query_of(raw, "query", pattern, "the text to search for")?;
    let case = match raw.bool("caseSensitive")? {
        None => Case::Smart,
        Some(true) => Case::Sensitive,
        Some(false) => Case::Insensitive,
    };
    let syntax = if raw.bool_default("isRegex", t)? { Syntax::Regex } else { Syntax::Literal };
    let matcher = PatternSpec::new(source.clone(), syntax, case)
        .compile("searchCode", "query")?
        .with_timeout(raw.int_of("regexTimeoutMs", t)?);
    let root = resolve_root(raw.string("cwd")?.as_deref())?;
    let mut excludes = Excludes::from_entries(crate::excludes::SEED003);
    excludes.extend_entries(&raw.string_list("excludePatterns")?.unwrap_or_default());
    let scan = LineScan {
        base: resolve_base(&root, raw.string("path")?)?,
        root,
        excludes,
        include: extensions_glob(&raw.string_list("includeExtensions")?.unwrap_or_default())?,
        matcher,
        reader: Reader::new(1024 * 1024, Encoding::Utf8, raw.source().clone()),
        context_lines: 0,
        max_line_length: raw.int_default("maxLineLength", t)? as usize,
        max_result_bytes: raw.int_default("maxResultBytes", t)?,
        offset: raw.int_default("offset", t)? as usize,
        max_results: raw.int_default("maxResults", t)? as usize,
        count_all: true,
        threads: raw.threads()?,
        time_budget: raw.int_of("timeBudgetMs", t)?.map(Duration::from_millis),
        with_symbols: raw.bool_default("withSymbols", t)?,
        hint: raw.int_of("hintMs", t)? != Some(0),
        hint_time: raw.int_of("hintMs", t)?.map(Duration::from_millis),
        recurse_submodules: raw.bool_default("recurseSubmodules", t)?,
    };
    let found = scan.run(cancel, started)?;
    let truncated = scan.truncated(&found);
    Ok(SearchResult {
        query: String::from_utf16_lossy(&source),
        match_count: found.total,
        matches: found
            .entries
            .into_iter()
            .map(|(path, e)| SearchMatch {
                path,
                line_number: e.line_number,
                content: e.content,
                content_truncated: e.truncated,
                symbol: e.symbol,
            })
            .collect(),
        truncated,
        files_with_matches: found.files_with_matches,
        files_searched: found.files_searched,
        skipped: found.skipped,
        complete: found.incomplete.is_none(),
        reason: found.incomplete,
        truncated_by: found.cut_by_bytes.then_some("maxResultBytes"),
        hint: found.hint,
    })
}
