//! `sample`: representative clusters of one query's matches, chosen
//! deterministically (seed 001): matches are grouped by file; matching lines
//! within 2 lines of each other form one cluster, represented by its first
//! match; a file's clusters are taken first, middle, last, then the rest in
//! order; files take turns (round-robin, in path order); each representative
//! is shown with one line of context on each side.

use serde::Serialize;

use super::report::{self, Budget, MAX_LINE_CHARS, quote_always};
use super::{
    Merged, Query, SCAN_LIMIT, Scope, ShownLine, Skipped, broad_warning, count_text,
    excerpt_around, limit_warning, line_hits, query_warnings, reader,
};
use crate::cancel::Cancel;
use crate::discovery::Candidate;
use crate::engine::{self, Outcome};
use crate::error::Result;
use crate::options::RawOptions;
use crate::search::FileText;
use crate::search::{Hit, SkipReason};

/// sample's default output budget.
pub const BUDGET: Budget = Budget { lines: 20, bytes: 6_000 };
/// Matching lines at most this far apart share a cluster.
pub const CLUSTER_GAP: usize = 2;
/// Lines of context around each representative.
const CONTEXT: usize = 1;
/// The longest line shown (characters).
const LINE_CHARS: usize = 160;
/// No budget holds more snippets than this (4 lines each within 40).
const MAX_SNIPPETS: usize = report::HARD_LINES / (2 + 2 * CONTEXT);

/// One shown cluster.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SampleCluster {
    /// Root-relative path.
    pub path: String,
    /// The representative's line (1-based).
    pub line: usize,
    /// Which of the file's clusters it is (1-based, in line order).
    pub cluster: usize,
    /// How many clusters the file has.
    pub of: usize,
    /// Matching lines in the cluster.
    pub matches: u64,
    /// The representative with its context.
    pub lines: Vec<ShownLine>,
}

/// `sample`'s result.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SampleResult {
    /// What the CLI prints.
    pub text: String,
    /// The CLI's exit status (0: an answer).
    pub exit_code: u8,
    /// The query.
    pub query: String,
    /// The query mode.
    pub mode: &'static str,
    /// The paths searched as given (empty: the whole root).
    pub paths: Vec<String>,
    /// Matching lines.
    pub matches: u64,
    /// Files with a matching line.
    pub files: u64,
    /// Clusters in all the matching files.
    pub total_clusters: u64,
    /// Files searched.
    pub files_searched: u64,
    /// The clusters shown, in the order printed.
    pub clusters: Vec<SampleCluster>,
    /// Warnings, as printed.
    pub warnings: Vec<String>,
    /// More than 1,000 matching lines or 100 files.
    pub broad: bool,
    /// The scan limit stopped the count (the counts are lower bounds).
    pub at_least: bool,
    /// Files not searched, by reason.
    pub skipped: Skipped,
}

/// A file's part: its counts and its clusters in the order it offers them.
struct FileSample {
    matches: u64,
    clusters: usize,
    picks: Vec<SampleCluster>,
}

/// The clusters of `hits` (in line order) as `(first hit, size)`.
pub fn clusters(hits: &[Hit]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, h) in hits.iter().enumerate() {
        match out.last_mut() {
            Some((first, size)) if h.line - hits[*first + *size - 1].line <= CLUSTER_GAP => {
                *size += 1;
            }
            _ => out.push((i, 1)),
        }
    }
    out
}

/// The order a file offers its clusters in: first, middle, last, then the
/// rest in line order.
pub fn pick_order(n: usize) -> Vec<usize> {
    if n <= 3 {
        return (0..n).collect();
    }
    let preferred = [0, n / 2, n - 1];
    preferred.iter().copied().chain((1..n - 1).filter(|i| *i != n / 2)).collect()
}

fn file_sample(cand: &Candidate, text: &crate::search::FileText, hits: &[Hit]) -> FileSample {
    let groups = clusters(hits);
    let picks = pick_order(groups.len())
        .into_iter()
        .take(MAX_SNIPPETS)
        .map(|k| {
            let (first, size) = groups[k];
            let rep = &hits[first];
            SampleCluster {
                path: cand.rel().to_string(),
                line: rep.line + 1,
                cluster: k + 1,
                of: groups.len(),
                matches: size as u64,
                lines: excerpt_around(text, hits, rep, CONTEXT, LINE_CHARS),
            }
        })
        .collect();
    FileSample { matches: hits.len() as u64, clusters: groups.len(), picks }
}

fn cluster_head(c: &SampleCluster) -> String {
    let lines = if c.matches == 1 { "line" } else { "lines" };
    format!(
        "{}:{} (cluster {} of {}; {} matching {lines})",
        c.path, c.line, c.cluster, c.of, c.matches
    )
}

/// Runs `sample`.
pub fn sample(raw: &RawOptions, cancel: &Cancel) -> Result<SampleResult> {
    let Query { mode, text: query, matcher, budget } = Query::from_options(raw, BUDGET)?;
    let scope = Scope::new(raw, raw.string_list("paths")?.unwrap_or_default(), None)?;
    let (candidates, unreadable) = scope.candidates(cancel)?;
    let cancelled = || cancel.is_cancelled();
    let reader = reader(raw);
    let work =
        |c: &Candidate, text: &FileText| match line_hits(text, &matcher, SCAN_LIMIT, &cancelled) {
            Err(_) => Outcome::Skipped(SkipReason::RegexBudgetExceeded),
            Ok((hits, _)) if hits.is_empty() => Outcome::NoMatch,
            Ok((hits, _)) => Outcome::Matched(file_sample(c, text, &hits)),
        };
    let mut s = Merged::new(unreadable, |f: &FileSample| f.matches);
    engine::run_searching(&candidates, &reader, &matcher, scope.threads, cancel, work, &mut s)?;

    let files = s.files.len() as u64;
    let total_clusters: u64 = s.files.iter().map(|(_, f)| f.clusters as u64).sum();
    let mut warnings = query_warnings(mode, &query);
    warnings.extend(broad_warning(mode, s.matches, files, s.at_least));
    if s.at_least {
        warnings.push(limit_warning());
    }
    warnings.extend(s.skipped.warning());

    // Round-robin: each file's first offer, then each file's second, …
    let rounds = s.files.iter().map(|(_, f)| f.picks.len()).max().unwrap_or(0);
    let mut order: Vec<SampleCluster> = Vec::new();
    let mut picks: Vec<std::vec::IntoIter<SampleCluster>> =
        s.files.into_iter().map(|(_, f)| f.picks.into_iter()).collect();
    for _ in 0..rounds {
        for p in &mut picks {
            order.extend(p.next());
        }
    }

    let paths = if scope.explicit { scope.path_names() } else { vec![".".to_string()] };
    let head = |shown: usize| {
        let mut h = format!(
            "sample: {} ({}) in {}: {} matching lines in {} files, {} clusters",
            quote_always(&query),
            mode.name(),
            paths.join(", "),
            count_text(s.matches, s.at_least),
            count_text(files, s.at_least),
            count_text(total_clusters, s.at_least),
        );
        if total_clusters > 0 {
            h.push_str(&format!("; showing {shown}"));
        }
        report::clip(&h, MAX_LINE_CHARS)
    };
    let rest_note = |left: u64| {
        format!("… {left} more clusters; narrow the path, or read one file with show QUERY FILE")
    };
    let mut body = String::new();
    let fixed: Vec<String> =
        warnings.iter().map(|w| report::clip(&format!("warning: {w}"), MAX_LINE_CHARS)).collect();
    let mut lines = 1 + fixed.len();
    let mut bytes = head(order.len()).len() + 1 + fixed.iter().map(|w| w.len() + 1).sum::<usize>();
    let mut shown: Vec<SampleCluster> = Vec::new();
    for (i, c) in order.iter().enumerate() {
        let block: Vec<String> = std::iter::once(report::clip(&cluster_head(c), MAX_LINE_CHARS))
            .chain(c.lines.iter().map(|l| report::clip(&l.printed(), MAX_LINE_CHARS)))
            .collect();
        let block_bytes: usize = block.iter().map(|l| l.len() + 1).sum();
        let left_after = total_clusters - (i as u64 + 1);
        let note = if left_after > 0 { rest_note(left_after).len() + 1 } else { 0 };
        if lines + block.len() + usize::from(note > 0) > budget.lines
            || bytes + block_bytes + note > budget.bytes
        {
            break;
        }
        lines += block.len();
        bytes += block_bytes;
        for l in block {
            body.push_str(&l);
            body.push('\n');
        }
        shown.push(c.clone());
    }
    let mut text = head(shown.len());
    text.push('\n');
    for w in &fixed {
        text.push_str(w);
        text.push('\n');
    }
    text.push_str(&body);
    let left = total_clusters - shown.len() as u64;
    if left > 0 {
        let note = rest_note(left);
        if lines < budget.lines && bytes + note.len() < budget.bytes {
            text.push_str(&note);
            text.push('\n');
        }
    }
    Ok(SampleResult {
        text: report::fit(text, budget),
        exit_code: 0,
        query,
        mode: mode.name(),
        paths: if scope.explicit { scope.path_names() } else { vec![] },
        broad: s.matches > super::BROAD_LINES || files > super::BROAD_FILES || s.at_least,
        matches: s.matches,
        files,
        total_clusters,
        files_searched: s.files_searched,
        clusters: shown,
        warnings,
        at_least: s.at_least,
        skipped: s.skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_files_offer_first_middle_last() {
        assert_eq!(pick_order(2), vec![0, 1]);
        assert_eq!(pick_order(3), vec![0, 1, 2]);
        assert_eq!(pick_order(4), vec![0, 2, 3, 1]);
        assert_eq!(pick_order(7), vec![0, 3, 6, 1, 2, 4, 5]);
    }
}
