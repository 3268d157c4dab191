//! `show`: focused snippets of one query in one explicit file. More than
//! [`MAX_MATCHES`] matching lines (or the scan limit) is refused with advice
//! to narrow; a snippet is started only while the budget lasts and, once
//! started, printed whole (the line budget may be passed by its context,
//! never the hard caps).

use serde::Serialize;

use super::report::{self, Budget, HARD_BYTES, HARD_LINES, MAX_LINE_CHARS, quote_always};
use super::{LineTable, Query, SCAN_LIMIT, ShownLine, line_hits, query_warnings, reader, required};
use crate::cancel::Cancel;
use crate::discovery::Candidate;
use crate::error::{Error, ErrorCode, Result};
use crate::options::RawOptions;
use crate::paths::{resolve_inside, resolve_root};
use crate::search::SkipReason;

/// show's default output budget.
pub const BUDGET: Budget = Budget { lines: 30, bytes: 8_000 };
/// More matching lines than this are refused.
pub const MAX_MATCHES: usize = 20;
/// The default lines of context.
pub const DEFAULT_CONTEXT: usize = 2;
/// The most lines of context.
pub const MAX_CONTEXT: usize = 5;
/// The longest line shown (characters).
const LINE_CHARS: usize = 200;

/// One snippet: matching lines whose contexts touch, with their context.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Snippet {
    /// First line (1-based).
    pub start: usize,
    /// Last line (1-based).
    pub end: usize,
    /// The lines, as printed (fewer than `start..=end` when the hard caps cut it).
    pub lines: Vec<ShownLine>,
}

/// Why `show` printed no snippets.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Refusal {
    /// `tooManyMatches` (more than 20 matching lines) or `scanLimit`.
    pub reason: &'static str,
    /// The sentence printed.
    pub message: String,
}

/// `show`'s result.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShowResult {
    /// What the CLI prints.
    pub text: String,
    /// The CLI's exit status: 0 for snippets, 1 for a refusal.
    pub exit_code: u8,
    /// The query.
    pub query: String,
    /// The query mode.
    pub mode: &'static str,
    /// The file (root-relative).
    pub file: String,
    /// Lines of context.
    pub context: usize,
    /// Matching lines.
    pub matches: u64,
    /// The snippets printed.
    pub snippets: Vec<Snippet>,
    /// Snippets left out for the budget.
    pub omitted: usize,
    /// Warnings, as printed.
    pub warnings: Vec<String>,
    /// Set when the snippets were refused.
    pub refused: Option<Refusal>,
    /// The scan limit stopped the count.
    pub at_least: bool,
}

/// Runs `show`.
pub fn show(raw: &RawOptions, cancel: &Cancel) -> Result<ShowResult> {
    let api = raw.api();
    let Query { mode, text: query, matcher, budget } = Query::from_options(raw, BUDGET)?;
    let context = raw.int_default("context", super::SHOW_OPTIONS)? as usize;
    let root = resolve_root(raw.string("cwd")?.as_deref())?;
    let file = required(raw, "file", "the file to show")?;
    let (abs, rel) = resolve_inside(&root, &file)?;
    let meta = std::fs::metadata(&abs).map_err(|e| Error::io(&e, "stat", &abs))?;
    if meta.is_dir() {
        return Err(Error::new(
            ErrorCode::Io("EISDIR"),
            format!(
                "{api}: {file:?} is a directory; show reads one file (use sample or scout for a folder)"
            ),
        ));
    }
    let cand = Candidate::named(rel.clone(), abs, meta.is_file());
    cancel.check()?;
    let text = reader(raw).read(&cand).map_err(|reason| match reason {
        SkipReason::Binary => Error::new(
            ErrorCode::Io("EBINARY"),
            format!("{api}: {file:?} is a binary file; show reads text files"),
        ),
        SkipReason::MaxFileSizeExceeded(n) => Error::new(
            ErrorCode::Io("EFILETOOLARGE"),
            format!("{api}: {file:?} has {n} bytes, more than show reads (256 MB)"),
        ),
        SkipReason::ReadError(code) => {
            Error::new(ErrorCode::Io(code), format!("{code}: cannot read {file:?}"))
        }
        SkipReason::RegexBudgetExceeded => Error::new(ErrorCode::Internal, "unexpected budget"),
    })?;
    let cancelled = || cancel.is_cancelled();
    let (hits, more) = line_hits(&text, &matcher, SCAN_LIMIT, &cancelled).map_err(|_| {
        Error::new(
            ErrorCode::InvalidRegex,
            format!("{api}: the regex ran too long on {file:?}; simplify it"),
        )
    })?;
    cancel.check()?;
    let matches = hits.len() as u64;
    let warnings = query_warnings(mode, &query);
    let name = format!("{} ({}) in {}", quote_always(&query), mode.name(), rel);
    let refusal = if more {
        Some(Refusal {
            reason: "scanLimit",
            message: format!(
                "show: {name}: at least {SCAN_LIMIT} matching lines (the scan limit); refusing to \
                 print snippets: narrow the query ({})",
                mode.narrowing()
            ),
        })
    } else if hits.len() > MAX_MATCHES {
        Some(Refusal {
            reason: "tooManyMatches",
            message: format!(
                "show: {name}: {matches} matching lines, more than {MAX_MATCHES}; refusing to \
                 print snippets: narrow the query ({}), or use sample",
                mode.narrowing()
            ),
        })
    } else {
        None
    };
    let warning_lines: Vec<String> =
        warnings.iter().map(|w| report::clip(&format!("warning: {w}"), MAX_LINE_CHARS)).collect();
    if let Some(refused) = refusal {
        let mut text = report::clip(&refused.message, 2 * MAX_LINE_CHARS);
        text.push('\n');
        for w in &warning_lines {
            text.push_str(w);
            text.push('\n');
        }
        return Ok(ShowResult {
            text: report::fit(text, budget),
            exit_code: 1,
            query,
            mode: mode.name(),
            file: rel,
            context,
            matches,
            snippets: vec![],
            omitted: 0,
            warnings,
            refused: Some(refused),
            at_least: more,
        });
    }

    // Matching lines whose context windows touch share a snippet.
    let mut groups: Vec<(usize, usize, usize)> = Vec::new(); // (first hit, from, to) 0-based lines
    for (i, h) in hits.iter().enumerate() {
        let from = h.line.saturating_sub(context);
        let to = h.line + context;
        match groups.last_mut() {
            Some((_, _, end)) if from <= *end + 1 => *end = to,
            _ => groups.push((i, from, to)),
        }
    }
    let table = LineTable::new(&text);
    let last_line = table.len().max(hits.last().map_or(0, |h| h.line + 1));
    let head = report::clip(
        &format!(
            "show: {name}: {matches} matching lines, {} snippets, context {context}",
            groups.len()
        ),
        MAX_LINE_CHARS,
    );
    let mut out = format!("{head}\n");
    for w in &warning_lines {
        out.push_str(w);
        out.push('\n');
    }
    let omitted_note = |left: &[(usize, usize, usize)]| {
        let ranges: Vec<String> = left
            .iter()
            .take(5)
            .map(|&(_, from, to)| format!("{}-{}", from + 1, (to + 1).min(last_line)))
            .collect();
        let more = if left.len() > 5 { ", …" } else { "" };
        format!(
            "… {} more snippets (lines {}{more}); narrow the query or lower --context",
            left.len(),
            ranges.join(", ")
        )
    };
    // The hard caps hold whatever a snippet needs, with room for the note.
    let cap_lines = HARD_LINES - 1;
    let cap_bytes = HARD_BYTES - MAX_LINE_CHARS * 3 - 1;
    let mut lines = report::line_count(&out);
    let mut snippets: Vec<Snippet> = Vec::new();
    let mut cut = false;
    for (g, &(first, from, to)) in groups.iter().enumerate() {
        if lines >= budget.lines || out.len() >= budget.bytes || cut {
            break;
        }
        let end_hit = groups.get(g + 1).map_or(hits.len(), |n| n.0);
        let shown = table.excerpt(from, to, &hits[first..end_hit], &hits[first], LINE_CHARS);
        let to_line = shown.last().map_or(from + 1, |l| l.line);
        let head = format!("lines {}-{}:", from + 1, to_line);
        if lines + 2 > cap_lines || out.len() + head.len() + 1 > cap_bytes {
            break;
        }
        out.push_str(&head);
        out.push('\n');
        lines += 1;
        let mut printed = Vec::new();
        for l in shown {
            let p = report::clip(&l.printed(), MAX_LINE_CHARS);
            if lines + 1 > cap_lines || out.len() + p.len() + 1 > cap_bytes {
                cut = true;
                break;
            }
            out.push_str(&p);
            out.push('\n');
            lines += 1;
            printed.push(l);
        }
        snippets.push(Snippet { start: from + 1, end: to_line, lines: printed });
    }
    let omitted = groups.len() - snippets.len();
    if omitted > 0 || cut {
        let note = if cut {
            "… the snippet was cut at the output's hard cap; narrow the query or lower --context"
                .to_string()
        } else {
            omitted_note(&groups[snippets.len()..])
        };
        out.push_str(&report::clip(&note, MAX_LINE_CHARS));
        out.push('\n');
    }
    Ok(ShowResult {
        text: report::fit(out, Budget { lines: HARD_LINES, bytes: HARD_BYTES }),
        exit_code: 0,
        query,
        mode: mode.name(),
        file: rel,
        context,
        matches,
        snippets,
        omitted,
        warnings,
        refused: None,
        at_least: false,
    })
}
