//! The text the exploration commands print, held to an output budget: a
//! command's default (survey 20 lines / 4,000 bytes, scout 15 / 4,000,
//! sample 20 / 6,000, show 30 / 8,000), lowered by `maxLines`/`maxBytes`,
//! never above the hard caps of [`HARD_LINES`] lines and [`HARD_BYTES`]
//! bytes. Tables are TOON-style: `name[col,col]:` then one indented,
//! comma-separated row per line, cells quoted only when they must be.

use crate::error::{Error, Result};
use crate::options::RawOptions;

/// No output has more lines than this.
pub const HARD_LINES: usize = 40;
/// No output has more bytes (UTF-8) than this.
pub const HARD_BYTES: usize = 8_000;
/// The longest line (in characters) a report prints; longer ones are cut.
pub const MAX_LINE_CHARS: usize = 240;

/// An output budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Lines (each ends in `\n`).
    pub lines: usize,
    /// Bytes of UTF-8, newlines included.
    pub bytes: usize,
}

impl Budget {
    /// The command's default budget, lowered by `maxLines` and `maxBytes`
    /// (which may not raise it).
    pub fn from_options(raw: &RawOptions, default: Budget) -> Result<Budget> {
        let api = raw.api();
        let lower = |key: &str, default: usize, min: usize| -> Result<usize> {
            match raw.int(key, 1, u64::MAX)? {
                None => Ok(default),
                Some(n) if (n as usize) >= min && (n as usize) <= default => Ok(n as usize),
                Some(n) => Err(Error::invalid_option(format!(
                    "{api}: option '{key}' must be from {min} to {default} (it can only lower \
                     {api}'s budget), got {n}"
                ))),
            }
        };
        Ok(Budget {
            lines: lower("maxLines", default.lines, 3)?,
            bytes: lower("maxBytes", default.bytes, 200)?,
        })
    }
}

/// A TOON cell or value: as it is, or JSON-quoted when it would be misread
/// (empty, padded, holding a delimiter, a quote, a colon, a bracket or a
/// control character, or looking like a number, a boolean or null).
pub fn cell(s: &str) -> String {
    let plain = !s.is_empty()
        && s.trim() == s
        && !s.starts_with('-')
        && !s.chars().any(|c| c.is_control() || ",:\"\\[]{}#".contains(c))
        && !matches!(s, "true" | "false" | "null")
        && s.parse::<f64>().is_err();
    if plain { s.to_string() } else { quote_always(s) }
}

/// `s` as a JSON string.
pub fn quote_always(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// `s` cut to at most `max` characters, with `…` at the cut.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// A table header: `name[col,col]:`.
pub fn table_head(name: &str, columns: &[&str]) -> String {
    format!("{name}[{}]:", columns.join(","))
}

/// A table row: two spaces, then the cells (each already a [`cell`] or a
/// number).
pub fn row(cells: &[String]) -> String {
    format!("  {}", cells.join(","))
}

/// A part of a report: lines it always prints, then rows printed while the
/// budget lasts, at most `max_rows` of them, with a note when some are left
/// out.
pub struct Section {
    /// Always printed (headers, metadata, warnings).
    pub head: Vec<String>,
    /// Printed in order while they fit.
    pub rows: Vec<String>,
    /// At most this many rows.
    pub max_rows: usize,
    /// The line saying how many rows were left out (none: left out silently,
    /// because the head already gives the total).
    pub note: Option<fn(usize) -> String>,
}

impl Section {
    /// A section of head lines only.
    pub fn head(lines: Vec<String>) -> Section {
        Section { head: lines, rows: vec![], max_rows: 0, note: None }
    }
}

/// The rendered text and how many rows each section printed.
pub struct Rendered {
    /// The text (every line ends in `\n`).
    pub text: String,
    /// Rows printed, per section.
    pub shown: Vec<usize>,
}

/// Lays `sections` out within `budget`: every head line (each cut to
/// [`MAX_LINE_CHARS`]), then each section's rows in order while they fit,
/// keeping room for its note. Heads that alone exceed the budget are cut
/// line by line; nothing ever exceeds it.
pub fn render(sections: &[Section], budget: Budget) -> Rendered {
    let line_bytes = |s: &str| s.len() + 1;
    let heads: Vec<Vec<String>> =
        sections.iter().map(|s| s.head.iter().map(|h| clip(h, MAX_LINE_CHARS)).collect()).collect();
    let mut used_lines: usize = heads.iter().map(Vec::len).sum();
    let mut used_bytes: usize = heads.iter().flatten().map(|h| line_bytes(h)).sum();
    // Room kept for the notes of the sections after each one, so that a
    // section that fills the budget never hides that later rows exist.
    let note_room = |s: &Section| match s.note {
        Some(note) if !s.rows.is_empty() => {
            (1, line_bytes(&clip(&note(s.rows.len()), MAX_LINE_CHARS)))
        }
        _ => (0, 0),
    };
    let mut chosen: Vec<(Vec<String>, usize)> = Vec::with_capacity(sections.len());
    for (k, s) in sections.iter().enumerate() {
        let (later_lines, later_bytes) = sections[k + 1..]
            .iter()
            .map(note_room)
            .fold((0, 0), |(l, b), (l2, b2)| (l + l2, b + b2));
        let budget = Budget {
            lines: budget.lines.saturating_sub(later_lines),
            bytes: budget.bytes.saturating_sub(later_bytes),
        };
        let mut rows = Vec::new();
        let total = s.rows.len().min(s.max_rows);
        let wanted = s.rows.len();
        for (i, r) in s.rows.iter().take(total).enumerate() {
            let r = clip(r, MAX_LINE_CHARS);
            // Room for the note if this row is not the last one wanted.
            let left_after = wanted - i - 1;
            let (note_lines, note_bytes) = match (s.note, left_after) {
                (Some(note), n) if n > 0 => (1, line_bytes(&note(n))),
                _ => (0, 0),
            };
            if used_lines + 1 + note_lines > budget.lines
                || used_bytes + line_bytes(&r) + note_bytes > budget.bytes
            {
                break;
            }
            used_lines += 1;
            used_bytes += line_bytes(&r);
            rows.push(r);
        }
        let printed = rows.len();
        let left = wanted - printed;
        if let Some(note) = s.note
            && left > 0
        {
            let n = clip(&note(left), MAX_LINE_CHARS);
            if used_lines < budget.lines && used_bytes + line_bytes(&n) <= budget.bytes {
                used_lines += 1;
                used_bytes += line_bytes(&n);
                rows.push(n);
            }
        }
        chosen.push((rows, printed));
    }
    let mut text = String::new();
    let mut shown = Vec::with_capacity(sections.len());
    for (head, (rows, printed)) in heads.iter().zip(chosen) {
        for h in head {
            push_line(&mut text, h);
        }
        for r in &rows {
            push_line(&mut text, r);
        }
        shown.push(printed);
    }
    Rendered { text: fit(text, budget), shown }
}

fn push_line(text: &mut String, line: &str) {
    text.push_str(line);
    text.push('\n');
}

/// `text` cut to whole lines within `budget` (the last resort when the
/// heads alone do not fit).
pub fn fit(text: String, budget: Budget) -> String {
    let mut lines = 0;
    let mut end = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            if lines + 1 > budget.lines || i + 1 > budget.bytes {
                break;
            }
            lines += 1;
            end = i + 1;
        }
    }
    if end == text.len() { text } else { text[..end].to_string() }
}

/// Counts a text's lines (each ends in `\n`).
pub fn line_count(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_only_when_needed() {
        assert_eq!(cell("src/core"), "src/core");
        assert_eq!(cell("at least 5"), "at least 5");
        assert_eq!(cell("a,b"), "\"a,b\"");
        assert_eq!(cell(""), "\"\"");
        assert_eq!(cell("42"), "\"42\"");
        assert_eq!(cell("true"), "\"true\"");
        assert_eq!(cell(" x"), "\" x\"");
        assert_eq!(cell("-x"), "\"-x\"");
        assert_eq!(cell("a\"b"), "\"a\\\"b\"");
    }

    #[test]
    fn rows_fill_the_budget_and_notes_say_what_was_left() {
        let sections = vec![
            Section::head(vec!["meta:".into(), "  x: 1".into()]),
            Section {
                head: vec![table_head("t", &["a", "b"])],
                rows: (0..50).map(|i| row(&[cell(&format!("r{i}")), i.to_string()])).collect(),
                max_rows: 50,
                note: Some(|n| format!("  … {n} more rows")),
            },
            Section::head(vec!["warnings:".into(), "  - w".into()]),
        ];
        let r = render(&sections, Budget { lines: 10, bytes: 4000 });
        assert_eq!(line_count(&r.text), 10);
        assert_eq!(r.shown, vec![0, 4, 0]);
        assert!(r.text.contains("  … 46 more rows\nwarnings:\n  - w\n"), "{}", r.text);
        let r = render(&sections, Budget { lines: 40, bytes: 120 });
        assert!(r.text.len() <= 120, "{}", r.text);
        assert!(r.text.ends_with("  - w\n"));
    }

    #[test]
    fn a_full_section_leaves_room_for_the_notes_of_later_ones() {
        let table = |name: &str, n: usize| Section {
            head: vec![table_head(name, &["a"])],
            rows: (0..n).map(|i| row(&[i.to_string()])).collect(),
            max_rows: usize::MAX,
            note: Some(|n| format!("  … {n} more")),
        };
        let r =
            render(&[table("first", 30), table("second", 5)], Budget { lines: 10, bytes: 4000 });
        assert_eq!(line_count(&r.text), 10);
        assert!(r.text.ends_with("second[a]:\n  … 5 more\n"), "{}", r.text);
        assert_eq!(r.shown, vec![6, 0]);
    }

    #[test]
    fn heads_that_do_not_fit_are_cut_by_whole_lines() {
        let sections = vec![Section::head((0..10).map(|i| format!("line {i}")).collect())];
        let r = render(&sections, Budget { lines: 3, bytes: 4000 });
        assert_eq!(r.text, "line 0\nline 1\nline 2\n");
        let r = render(&sections, Budget { lines: 40, bytes: 15 });
        assert_eq!(r.text, "line 0\nline 1\n");
    }
}
