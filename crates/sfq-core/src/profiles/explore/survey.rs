//! `survey`: up to 12 fixed terms compared over up to 8 paths in one pass
//! over the files (each file searched once, each term counted in it), no
//! match bodies: per term its matching lines, files and dominant path
//! (`overall`), and per path and term the same counts (`by_path`, zero
//! rows left out). Without paths, the paths compared are the root's
//! top-level entries.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use aho_corasick::{AhoCorasick, MatchKind};
use serde::Serialize;

use super::report::{self, Budget, Section, cell, row, table_head};
use super::{
    BROAD_FILES, BROAD_LINES, QueryMode, SCAN_LIMIT, Scope, Skipped, count_text, first_duplicate,
    limit_warning, reader, short_term_warning, top_level, under,
};
use crate::cancel::Cancel;
use crate::discovery::Candidate;
use crate::engine::{self, Collector, Flow, Outcome};
use crate::error::{Error, Result};
use crate::matcher::Matcher;
use crate::options::RawOptions;
use crate::search::{FileText, SkipReason, count_lines};

/// survey's default output budget.
pub const BUDGET: Budget = Budget { lines: 20, bytes: 4_000 };
/// The most terms one survey compares.
pub const MAX_TERMS: usize = 12;
/// The most paths one survey compares.
pub const MAX_PATHS: usize = 8;
/// A term with this share of all matching lines (percent) dominates.
const DOMINANCE_PERCENT: u64 = 80;

/// One term's totals (`overall`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TermRow {
    /// The term.
    pub term: String,
    /// Matching lines.
    pub matches: u64,
    /// Files with a matching line.
    pub files: u64,
    /// The path with the most matching lines (`null` when none matched).
    pub dominant_path: Option<String>,
    /// More than 1,000 matching lines or 100 files.
    pub broad: bool,
    /// The scan limit stopped the count (the counts are lower bounds).
    pub at_least: bool,
}

/// One term's counts under one path (`by_path`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PathRow {
    /// The path (a given one, or a top-level entry).
    pub path: String,
    /// The term.
    pub term: String,
    /// Matching lines.
    pub matches: u64,
    /// Files with a matching line.
    pub files: u64,
}

/// `survey`'s result.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SurveyResult {
    /// What the CLI prints.
    pub text: String,
    /// The CLI's exit status (0: an answer).
    pub exit_code: u8,
    /// The query mode.
    pub mode: &'static str,
    /// The paths compared as given (empty: the whole root, by top-level entry).
    pub paths: Vec<String>,
    /// Files searched.
    pub files_searched: u64,
    /// Per term.
    pub overall: Vec<TermRow>,
    /// Per path and term, zero rows left out (all of them, also those the
    /// text had no room for).
    pub by_path: Vec<PathRow>,
    /// Warnings, as printed.
    pub warnings: Vec<String>,
    /// Whether any term is broad.
    pub broad: bool,
    /// Whether any count is a lower bound (the scan limit stopped a term).
    pub at_least: bool,
    /// Whether the text left rows out for its budget.
    pub truncated: bool,
    /// Files not searched, by reason.
    pub skipped: Skipped,
}

/// Runs `survey`.
pub fn survey(raw: &RawOptions, cancel: &Cancel) -> Result<SurveyResult> {
    let api = raw.api();
    let mode = QueryMode::parse(api, raw.string("mode")?)?;
    if mode == QueryMode::Regex {
        return Err(Error::invalid_option(format!(
            "{api}: mode 'regex' is not accepted: survey compares fixed terms; use scout with a \
             regex for one pattern"
        )));
    }
    let terms = raw.string_list("terms")?.unwrap_or_default();
    if terms.is_empty() {
        return Err(Error::invalid_option(format!(
            "{api}: option 'terms' is required: give 1 to {MAX_TERMS} terms to compare"
        )));
    }
    if terms.len() > MAX_TERMS {
        return Err(Error::invalid_option(format!(
            "{api}: option 'terms' has {} terms; give at most {MAX_TERMS}",
            terms.len()
        )));
    }
    if let Some(t) = first_duplicate(&terms) {
        return Err(Error::invalid_option(format!(
            "{api}: option 'terms' names {t:?} twice; give each term once"
        )));
    }
    let matchers = terms
        .iter()
        .map(|t| mode.compile(api, "terms", t, false))
        .collect::<Result<Vec<Matcher>>>()?;
    let budget = Budget::from_options(raw, BUDGET)?;
    let scope = Scope::new(raw, raw.string_list("paths")?.unwrap_or_default(), Some(MAX_PATHS))?;
    let (candidates, unreadable) = scope.candidates(cancel)?;

    let done: Vec<AtomicBool> = terms.iter().map(|_| AtomicBool::new(false)).collect();
    let cancelled = || cancel.is_cancelled();
    // One multi-term pass tells which terms a file may hold (every mode
    // matches the term's own text); only those are counted line by line.
    let presence = Presence::new(&terms);
    let reader = reader(raw);
    let work = |c: &Candidate| match reader.read(c) {
        Err(reason) => Outcome::Skipped(reason),
        Ok(text) => {
            let mut counts = vec![0u64; matchers.len()];
            let held = presence.terms_in(&text);
            for (i, m) in matchers.iter().enumerate() {
                if !held[i] || done[i].load(Ordering::Relaxed) {
                    continue;
                }
                match count_lines(&text, m, SCAN_LIMIT, &cancelled) {
                    Ok(n) => counts[i] = n,
                    Err(_) => return Outcome::Skipped(SkipReason::RegexBudgetExceeded),
                }
            }
            if counts.iter().all(|&n| n == 0) { Outcome::NoMatch } else { Outcome::Matched(counts) }
        }
    };
    let mut tally = Tally {
        scope: &scope,
        done: &done,
        terms: vec![Counts::default(); terms.len()],
        groups: Vec::new(),
        group_index: HashMap::new(),
        files_searched: 0,
        skipped: Skipped { unreadable, ..Skipped::default() },
    };
    if scope.explicit {
        for (p, _) in &scope.paths {
            tally.group(p);
        }
    }
    engine::run_over(&candidates, scope.threads, cancel, work, &mut tally)?;
    Ok(tally.result(&terms, mode, budget))
}

/// Which terms a text may hold, from one pass of a multi-term automaton
/// (leftmost-first, so it reports no occurrence overlapping an earlier
/// one): a term it did not see is absent unless a term that can share text
/// with it (one holds the other, or an end of one is a start of the other)
/// was seen, since any occurrence is either reported or overlapped by a
/// reported one.
struct Presence {
    automaton: Option<AhoCorasick>,
    /// Per term, the other terms that can share text with it.
    partners: Vec<Vec<usize>>,
}

impl Presence {
    fn new(terms: &[String]) -> Presence {
        let automaton = (terms.len() > 1)
            .then(|| AhoCorasick::builder().match_kind(MatchKind::LeftmostFirst).build(terms).ok())
            .flatten();
        let partners = terms
            .iter()
            .enumerate()
            .map(|(i, t)| {
                (0..terms.len()).filter(|&j| j != i && can_share_text(t, &terms[j])).collect()
            })
            .collect();
        Presence { automaton, partners }
    }

    /// Per term, whether `text` may hold it.
    fn terms_in(&self, text: &FileText) -> Vec<bool> {
        let n = self.partners.len();
        let (Some(ac), FileText::Utf8(s)) = (&self.automaton, text) else {
            return vec![true; n];
        };
        let mut seen = vec![false; n];
        let mut left = n;
        for m in ac.find_iter(s.as_str()) {
            let i = m.pattern().as_usize();
            if !seen[i] {
                seen[i] = true;
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
        (0..n).map(|i| seen[i] || self.partners[i].iter().any(|&j| seen[j])).collect()
    }
}

/// Whether occurrences of `a` and `b` can overlap: one holds the other, or
/// a non-empty end of one is a start of the other.
fn can_share_text(a: &str, b: &str) -> bool {
    let end_starts = |x: &str, y: &str| {
        (1..x.len().min(y.len()))
            .any(|k| x.is_char_boundary(x.len() - k) && y.starts_with(&x[x.len() - k..]))
    };
    a.contains(b) || b.contains(a) || end_starts(a, b) || end_starts(b, a)
}

/// Matching lines and files.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    lines: u64,
    files: u64,
}

impl Counts {
    fn add(&mut self, lines: u64) {
        self.lines += lines;
        self.files += 1;
    }
}

/// The merge: counts per term and per path and term, in path order.
struct Tally<'a> {
    scope: &'a Scope,
    done: &'a [AtomicBool],
    terms: Vec<Counts>,
    /// Paths compared, with per-term counts.
    groups: Vec<(String, Vec<Counts>)>,
    group_index: HashMap<String, usize>,
    files_searched: u64,
    skipped: Skipped,
}

impl Tally<'_> {
    fn group(&mut self, path: &str) -> usize {
        if let Some(&i) = self.group_index.get(path) {
            return i;
        }
        self.groups.push((path.to_string(), vec![Counts::default(); self.terms.len()]));
        self.group_index.insert(path.to_string(), self.groups.len() - 1);
        self.groups.len() - 1
    }

    fn result(self, terms: &[String], mode: QueryMode, budget: Budget) -> SurveyResult {
        let at_least_of = |i: usize| self.done[i].load(Ordering::Relaxed);
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        if !self.scope.explicit {
            // The busiest top-level entries first.
            let total = |g: usize| self.groups[g].1.iter().map(|c| c.lines).sum::<u64>();
            order.sort_by(|&a, &b| {
                total(b).cmp(&total(a)).then_with(|| {
                    self.groups[a].0.encode_utf16().cmp(self.groups[b].0.encode_utf16())
                })
            });
        }
        let overall: Vec<TermRow> = terms
            .iter()
            .enumerate()
            .map(|(i, term)| {
                let c = self.terms[i];
                let at_least = at_least_of(i);
                // Ties go to the first path in the printed order.
                let dominant = order
                    .iter()
                    .map(|&g| &self.groups[g])
                    .filter(|(_, g)| g[i].lines > 0)
                    .fold(None::<(&str, u64)>, |best, (p, g)| match best {
                        Some((_, n)) if n >= g[i].lines => best,
                        _ => Some((p, g[i].lines)),
                    })
                    .map(|(p, _)| p.to_string());
                TermRow {
                    term: term.clone(),
                    matches: c.lines,
                    files: c.files,
                    dominant_path: dominant,
                    broad: c.lines > BROAD_LINES || c.files > BROAD_FILES || at_least,
                    at_least,
                }
            })
            .collect();
        let by_path: Vec<PathRow> = order
            .iter()
            .flat_map(|&g| {
                let (path, counts) = &self.groups[g];
                terms.iter().zip(counts).filter(|(_, c)| c.lines > 0).map(|(term, c)| PathRow {
                    path: path.clone(),
                    term: term.clone(),
                    matches: c.lines,
                    files: c.files,
                })
            })
            .collect();
        let warnings = warnings(terms, mode, &overall, &self.skipped);
        let at_least = overall.iter().any(|r| r.at_least);
        let paths =
            if self.scope.explicit { self.scope.path_names() } else { vec![".".to_string()] };
        let term_at_least: HashMap<&str, bool> =
            overall.iter().map(|r| (r.term.as_str(), r.at_least)).collect();
        let sections = vec![
            Section::head(vec![
                "survey:".to_string(),
                format!("  mode: {}", mode.name()),
                format!(
                    "  paths[{}]: {}",
                    paths.len(),
                    paths.iter().map(|p| cell(p)).collect::<Vec<_>>().join(",")
                ),
                format!("  files_searched: {}", self.files_searched),
            ]),
            Section {
                head: vec![table_head("overall", &["term", "matches", "files", "dominant_path"])],
                rows: overall
                    .iter()
                    .map(|r| {
                        row(&[
                            cell(&r.term),
                            count_text(r.matches, r.at_least),
                            count_text(r.files, r.at_least),
                            r.dominant_path.as_deref().map_or_else(|| "null".to_string(), cell),
                        ])
                    })
                    .collect(),
                max_rows: usize::MAX,
                note: Some(|n| format!("  … {n} more terms (see the JS result's overall)")),
            },
            Section {
                head: vec![table_head("by_path", &["path", "term", "matches", "files"])],
                rows: by_path
                    .iter()
                    .map(|r| {
                        let at_least = term_at_least[r.term.as_str()];
                        row(&[
                            cell(&r.path),
                            cell(&r.term),
                            count_text(r.matches, at_least),
                            count_text(r.files, at_least),
                        ])
                    })
                    .collect(),
                max_rows: usize::MAX,
                note: Some(|n| format!("  … {n} more rows; compare fewer terms or paths")),
            },
            Section::head(warnings.iter().map(|w| format!("warning: {w}")).collect()),
        ];
        let rendered = report::render(&sections, budget);
        let truncated = rendered.shown[1] < overall.len() || rendered.shown[2] < by_path.len();
        SurveyResult {
            text: rendered.text,
            exit_code: 0,
            mode: mode.name(),
            paths: if self.scope.explicit { self.scope.path_names() } else { vec![] },
            files_searched: self.files_searched,
            broad: overall.iter().any(|r| r.broad),
            at_least,
            overall,
            by_path,
            warnings,
            truncated,
            skipped: self.skipped,
        }
    }
}

fn warnings(
    terms: &[String],
    mode: QueryMode,
    overall: &[TermRow],
    skipped: &Skipped,
) -> Vec<String> {
    let mut out = Vec::new();
    let total: u64 = overall.iter().map(|r| r.matches).sum();
    if overall.len() > 1
        && total > 0
        && let Some(top) = overall.iter().max_by_key(|r| r.matches)
        && top.matches * 100 >= DOMINANCE_PERCENT * total
    {
        out.push(format!(
            "{} has {}% of all matching lines and dominates the comparison; survey the other \
             terms without it, {}",
            report::quote_always(&top.term),
            top.matches * 100 / total,
            dominance_advice(mode)
        ));
    }
    let broad: Vec<String> =
        overall.iter().filter(|r| r.broad).map(|r| report::quote_always(&r.term)).collect();
    if !broad.is_empty() {
        out.push(format!(
            "broad: {} (more than {BROAD_LINES} matching lines or {BROAD_FILES} files); narrow \
             the paths or the terms instead of raising limits",
            broad.join(", ")
        ));
    }
    let refs: Vec<&str> = terms.iter().map(String::as_str).collect();
    out.extend(short_term_warning(mode, &refs));
    if overall.iter().any(|r| r.at_least) {
        out.push(limit_warning());
    }
    out.extend(skipped.warning());
    out
}

/// How to narrow a dominant term, in terms of the mode already in use: a
/// fixed string can become an identifier or word query; an identifier or
/// word query already matches whole names, so only a more specific term or
/// fewer paths narrow it.
fn dominance_advice(mode: QueryMode) -> &'static str {
    match mode {
        QueryMode::Identifier => {
            "narrow it to a longer, more specific term (it already matches whole identifiers), \
             or give a path to compare within one folder"
        }
        QueryMode::Word => {
            "narrow it to a longer, more specific term (it already matches whole words), or \
             give a path to compare within one folder"
        }
        QueryMode::Fixed | QueryMode::Regex => "or narrow it with --identifier or --word",
    }
}

impl Collector<Vec<u64>> for Tally<'_> {
    fn collect(&mut self, cand: &Candidate, outcome: Outcome<Vec<u64>>) -> Result<Flow> {
        let counts = match outcome {
            Outcome::Skipped(reason) => {
                self.skipped.add(&reason);
                return Ok(Flow::Continue);
            }
            Outcome::NoMatch => {
                self.files_searched += 1;
                return Ok(Flow::Continue);
            }
            Outcome::Matched(counts) => counts,
        };
        self.files_searched += 1;
        let groups: Vec<usize> = if self.scope.explicit {
            (0..self.scope.paths.len())
                .filter(|&g| under(&self.scope.paths[g].0, cand.rel()))
                .collect()
        } else {
            vec![self.group(top_level(cand.rel()))]
        };
        for (i, &n) in counts.iter().enumerate() {
            if n == 0 || self.done[i].load(Ordering::Relaxed) {
                continue;
            }
            self.terms[i].add(n);
            for &g in &groups {
                self.groups[g].1[i].add(n);
            }
            if self.terms[i].lines >= SCAN_LIMIT {
                self.done[i].store(true, Ordering::Relaxed);
            }
        }
        if self.done.iter().all(|d| d.load(Ordering::Relaxed)) {
            return Ok(Flow::Stop);
        }
        Ok(Flow::Continue)
    }

    fn unreadable(&mut self, _dir: crate::discovery::Unreadable) {
        self.skipped.unreadable += 1;
    }

    fn matches(&self) -> u64 {
        self.terms.iter().map(|c| c.lines).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_term_is_ruled_out_only_when_no_term_that_can_hide_it_was_seen() {
        assert!(can_share_text("spin_lock", "lock"));
        assert!(can_share_text("abc", "cde"));
        assert!(can_share_text("cde", "abc"));
        assert!(!can_share_text("kmalloc", "kfree"));
        let terms: Vec<String> = ["a-a", "ba", "zzz", "q"].map(String::from).to_vec();
        let p = Presence::new(&terms);
        let held = |s: &str| p.terms_in(&FileText::Utf8(s.to_string()));
        // "ba" is found first and hides "a-a" (which starts inside it).
        assert_eq!(held("xba-a"), vec![true, true, false, false]);
        assert_eq!(held("nothing here"), vec![false, false, false, false]);
        assert_eq!(held("q zzz"), vec![false, false, true, true]);
    }

    #[test]
    fn the_dominance_warning_suggests_what_narrows_in_the_mode_in_use() {
        let row = |term: &str, matches| TermRow {
            term: term.to_string(),
            matches,
            files: 1,
            dominant_path: Some("src".to_string()),
            broad: false,
            at_least: false,
        };
        let overall = [row("common", 90), row("rare", 10)];
        let terms: Vec<String> = ["common", "rare"].map(String::from).to_vec();
        let warning = |mode| warnings(&terms, mode, &overall, &Skipped::default()).remove(0);
        let head = "\"common\" has 90% of all matching lines and dominates the comparison; \
                    survey the other terms without it, ";
        assert_eq!(
            warning(QueryMode::Fixed),
            format!("{head}or narrow it with --identifier or --word")
        );
        for (mode, unit) in [(QueryMode::Identifier, "identifiers"), (QueryMode::Word, "words")] {
            let text = warning(mode);
            assert_eq!(
                text,
                format!(
                    "{head}narrow it to a longer, more specific term (it already matches whole \
                     {unit}), or give a path to compare within one folder"
                )
            );
            assert!(!text.contains("--identifier") && !text.contains("--word"), "{text}");
        }
    }
}
