//! The outline pipeline: detect the language, check the cost bounds, parse
//! under a deadline, walk the tree (or fall back to the approximate
//! outline), and say what happened in a note.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::fallback;
use crate::formats;
use crate::item::Outline;
use crate::language::{self, Language};
use crate::lines::LineIndex;
use crate::options::OutlineOptions;
use crate::parser::{self, Parsed};
use crate::rules;
use crate::walker::Walker;

/// The outline was cancelled through the caller's flag
/// ([`outline_with_cancel`]); the JS layer reports it as `EABORTED`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the outline was cancelled")
    }
}

impl std::error::Error for Cancelled {}

/// The outline of a file whose path is `path` (used only to detect the
/// language; reported back as given) and whose decoded text is `text`.
///
/// Never fails and never panics: unknown languages, oversized, minified or
/// slow-to-parse files get the approximate outline (`approximate: true`)
/// with a `note`; a cut item list has `truncated: true` and a note.
///
/// ```
/// use sfq_outline::{ItemKind, OutlineOptions, outline};
/// let o = outline("a.py", "class A:\n    def m(self):\n        pass\n", &OutlineOptions::default());
/// assert_eq!(o.total_lines, 3);
/// assert_eq!(o.items[0].name, "A");
/// assert_eq!(o.items[0].children[0].kind, ItemKind::Method);
/// ```
pub fn outline(path: &str, text: &str, options: &OutlineOptions) -> Outline {
    run(path, text, options, None, None).unwrap_or_else(|_| unreachable_cancel(path, text))
}

/// [`outline`] that stops early, with [`Cancelled`], once `cancel` is set
/// (checked while parsing and between steps).
pub fn outline_with_cancel(
    path: &str,
    text: &str,
    options: &OutlineOptions,
    cancel: &AtomicBool,
) -> Result<Outline, Cancelled> {
    run(path, text, options, None, Some(cancel))
}

/// [`outline`] with the language chosen by the caller instead of detected
/// (`None` forces the approximate outline).
pub fn outline_as(
    path: &str,
    text: &str,
    language: Option<Language>,
    options: &OutlineOptions,
) -> Outline {
    run(path, text, options, Some(language), None)
        .unwrap_or_else(|_| unreachable_cancel(path, text))
}

/// Without a cancel flag nothing can cancel; this keeps the API total
/// without an `unwrap`.
fn unreachable_cancel(path: &str, text: &str) -> Outline {
    Outline {
        path: path.to_string(),
        total_lines: crate::lines::line_count(text),
        language: None,
        approximate: true,
        truncated: false,
        note: Some("the outline was cancelled".to_string()),
        items: Vec::new(),
    }
}

const APPROXIMATE: &str = "items come from a keyword and indentation heuristic (approximate)";

fn run(
    path: &str,
    text: &str,
    options: &OutlineOptions,
    forced: Option<Option<Language>>,
    cancel: Option<&AtomicBool>,
) -> Result<Outline, Cancelled> {
    let started = Instant::now();
    let is_cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let mut language = forced.unwrap_or_else(|| language::detect_language(path, text));
    if language == Some(Language::C)
        && forced.is_none()
        && path.to_ascii_lowercase().ends_with(".h")
        && language::header_looks_like_cpp(text)
    {
        language = Some(Language::Cpp);
    }
    // tree-sitter is given the text after a byte-order mark; the mark has no
    // newline, so line numbers are unchanged.
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines = LineIndex::new(body);
    let total_lines = lines.total();
    let mut result = Outline {
        path: path.to_string(),
        total_lines,
        language,
        approximate: false,
        truncated: false,
        note: None,
        items: Vec::new(),
    };
    let approximate = |result: &mut Outline, why: String| {
        let (items, cut) = fallback::approximate(
            body,
            options.max_items(),
            options.max_depth(),
            options.max_signature_chars(),
        );
        result.approximate = true;
        result.items = items;
        result.truncated = cut;
        result.note = Some(format!("{why}; {APPROXIMATE}."));
    };
    let bytes = body.len();
    let mean = bytes / total_lines.max(1);
    if bytes > options.max_bytes() {
        approximate(
            &mut result,
            format!(
                "File is {}, over the outline size limit of {} (maxBytes)",
                human(bytes),
                human(options.max_bytes())
            ),
        );
    } else if let Some(lang) = language.filter(|l| l.is_built_in()) {
        // Markdown, TOML, YAML, JSON: exact line parsers, linear in the
        // text, so no minified check and no deadline (a one-line JSON file
        // still lists its keys).
        let (items, cut) = formats::outline(lang, body, &lines, options);
        result.items = items;
        result.truncated = cut;
    } else if bytes > 4096 && mean > options.minified_mean_line_bytes() {
        approximate(
            &mut result,
            format!(
                "File looks minified or generated (mean line length {mean} bytes, over {})",
                options.minified_mean_line_bytes()
            ),
        );
    } else if let Some(lang) = language {
        match crate::grammar::grammar(lang).zip(rules::spec(lang)) {
            None => approximate(
                &mut result,
                format!(
                    "The {} parser is not compiled into this build (cargo feature {})",
                    lang.display_name(),
                    lang.cargo_feature().unwrap_or("none")
                ),
            ),
            Some((grammar, spec)) => {
                let deadline = started + options.timeout();
                let masked = match lang {
                    Language::C | Language::Cpp => rules::mask_c_macros(body),
                    _ => None,
                };
                let source = masked.as_deref().unwrap_or(body);
                match parser::parse(&grammar, source, deadline, cancel) {
                    Parsed::Tree(tree) => {
                        if is_cancelled() {
                            return Err(Cancelled);
                        }
                        let mut walker = Walker::new(source, &lines, spec, options);
                        result.items = walker.outline(tree.root_node());
                        result.truncated = walker.truncated;
                    }
                    Parsed::Cancelled => return Err(Cancelled),
                    Parsed::TimedOut => approximate(
                        &mut result,
                        format!(
                            "Parsing took longer than {} ms (timeoutMs)",
                            options.timeout().as_millis()
                        ),
                    ),
                    Parsed::Failed => {
                        approximate(
                            &mut result,
                            format!("The {} parser could not be loaded", lang.display_name()),
                        );
                    }
                }
            }
        }
    } else if total_lines > 0 {
        approximate(&mut result, "No parser for this file type".to_string());
    }
    if is_cancelled() {
        return Err(Cancelled);
    }
    if result.truncated {
        let cut = format!("Only the first {} items are listed (maxItems).", options.max_items());
        result.note = Some(match result.note.take() {
            Some(n) => format!("{n} {cut}"),
            None => cut,
        });
    }
    Ok(result)
}

/// `1536` → `1.5 KiB`.
fn human(bytes: usize) -> String {
    const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} bytes") } else { format!("{value:.1} {}", UNITS[unit]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_sizes() {
        assert_eq!(human(10), "10 bytes");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(3 * 1024 * 1024), "3.0 MiB");
    }
}
