//! `grep` (seed 002): its options, exclusions, result and run.

use super::*;

/// `grep`'s options.
pub const GREP_OPTIONS: &[OptSpec] = &{
    let c = common_options!();
    [
        opt("pattern", Kind::Str, "text or regex pattern to search for")
            .mcp_same("Text or regex pattern to search for"),
        opt("path", Kind::Str, "directory or file to search (default: project root)")
            .mcp_same("Directory or file to search (default: project root)"),
        opt("regex", Kind::Bool, "treat pattern as regex (default: false)")
            .default_bool(false)
            .mcp_same("Treat pattern as regex (default: false)"),
        opt("caseSensitive", Kind::Bool, "case sensitive search (default: false)")
            .default_bool(false)
            .mcp_same("Case sensitive search (default: false)"),
        opt("maxResults", Kind::Int(1, MAX_RESULTS), "maximum matches to return (default: 50)")
            .default_int(50)
            .mcp_same("Maximum matches to return (default: 50)"),
        opt("contextLines", Kind::Int(0, 20), "lines of context around each match (default: 0)")
            .default_int(0)
            .mcp_same(
                "Lines of context around each match, 0-20 (default: 0); context then holds them \
                 with the match line, from line contextStart",
            ),
        c[6].mcp_same(crate::options::RECURSE_SUBMODULES_MCP),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
    ]
};

/// One entry of `grep`'s result (seed 002).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepEntry {
    /// Root-relative path.
    pub file: Arc<str>,
    /// 1-based line.
    pub line: usize,
    /// The line (windowed when too long).
    pub content: String,
    /// Present (true) when a line was cut.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub content_truncated: bool,
    /// The lines around the match in file order, the match line included
    /// (when `contextLines` > 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<Vec<String>>,
    /// Line number of `context`'s first entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_start: Option<usize>,
}

/// Runs `grep`.
pub fn grep(
    raw: &RawOptions,
    pattern: Option<Vec<u16>>,
    cancel: &Cancel,
    started: Instant,
) -> Result<Vec<GrepEntry>> {
    let t = GREP_OPTIONS;
    let source = query_of(raw, "pattern", pattern, "the text or regex to search for")?;
    let case =
        if raw.bool_default("caseSensitive", t)? { Case::Sensitive } else { Case::Insensitive };
    let syntax = if raw.bool_default("regex", t)? { Syntax::Regex } else { Syntax::Literal };
    let matcher = PatternSpec::new(source, syntax, case)
        .compile("grep", "pattern")?
        .with_timeout(raw.int_of("regexTimeoutMs", t)?);
    let root = resolve_root(raw.string("cwd")?.as_deref())?;
    let context_lines = raw.int_default("contextLines", t)? as usize;
    let scan = LineScan {
        base: resolve_base(&root, raw.string("path")?)?,
        root,
        excludes: Excludes::from_entries(crate::excludes::SEED002),
        include: None,
        matcher,
        reader: Reader::new(1024 * 1024, Encoding::Utf8, raw.source().clone()),
        context_lines,
        max_line_length: raw.int_default("maxLineLength", t)? as usize,
        max_result_bytes: raw.int_default("maxResultBytes", t)?,
        offset: 0,
        max_results: raw.int_default("maxResults", t)? as usize,
        count_all: false,
        threads: raw.threads()?,
        time_budget: None,
        with_symbols: false,
        hint: false,
        hint_time: None,
        recurse_submodules: raw.bool_default("recurseSubmodules", t)?,
    };
    let found = scan.run(cancel, started)?;
    Ok(found
        .entries
        .into_iter()
        .map(|(file, e)| {
            let (context, context_start) = if context_lines > 0 {
                let start = e.line_number - e.before.len();
                let mut block = e.before;
                block.push(e.content.clone());
                block.extend(e.after);
                (Some(block), Some(start))
            } else {
                (None, None)
            };
            GrepEntry {
                file,
                line: e.line_number,
                content: e.content,
                content_truncated: e.truncated,
                context,
                context_start,
            }
        })
        .collect())
}
