//! How a query is read: fixed string, identifier, word or regex.

use super::*;

/// The query modes (`mode`).
pub const MODES: &[&str] = &["fixed", "identifier", "word", "regex"];

/// What survey's MCP tool says of `mode` (no `regex`).
pub const MODE_MCP: &str = "'fixed' (default): the term anywhere; 'identifier': no [A-Za-z0-9_] on either side; \
     'word': no word character on either side (as rg -w). Prefer identifier or word for short or common terms.";
/// What the MCP tools of scout, sample and show say of `mode`.
pub const MODE_MCP_REGEX: &str = "'fixed' (default): the term anywhere; 'identifier': no [A-Za-z0-9_] on either side; \
     'word': no word character on either side (as rg -w). Prefer identifier or word for short or common terms. \
     'regex': a JavaScript regex (an unescaped | is refused: compare alternatives with survey).";

/// How a query is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryMode {
    /// A fixed string, matched anywhere.
    Fixed,
    /// A fixed string with no ASCII identifier character (`[A-Za-z0-9_]`)
    /// on either side.
    Identifier,
    /// A fixed string with no word character (Unicode, as `rg -w`) on
    /// either side.
    Word,
    /// A JavaScript regex.
    Regex,
}

impl QueryMode {
    /// What narrows a query in this mode, for refusals and warnings (the
    /// boundary modes already match whole names: a longer term helps, not
    /// `--identifier` or `--word` again).
    pub fn narrowing(self) -> &'static str {
        match self {
            QueryMode::Fixed => "a longer term, --identifier or --word",
            QueryMode::Identifier | QueryMode::Word => "a longer, more specific term",
            QueryMode::Regex => "a more specific pattern",
        }
    }
}

impl QueryMode {
    /// The mode named `name` (`fixed`, `identifier`, `word`, `regex`).
    pub fn parse(api: &str, name: Option<String>) -> Result<QueryMode> {
        match name.as_deref() {
            None | Some("fixed") => Ok(QueryMode::Fixed),
            Some("identifier") => Ok(QueryMode::Identifier),
            Some("word") => Ok(QueryMode::Word),
            Some("regex") => Ok(QueryMode::Regex),
            Some(other) => Err(Error::invalid_option(format!(
                "{api}: option 'mode' must be {}, got {other:?}",
                crate::options::one_of_words(MODES)
            ))),
        }
    }

    /// The mode's name as the reports print it.
    pub fn name(self) -> &'static str {
        match self {
            QueryMode::Fixed => "fixed",
            QueryMode::Identifier => "identifier",
            QueryMode::Word => "word",
            QueryMode::Regex => "regex",
        }
    }

    /// Compiles `query` in this mode (case-sensitive, as `rg` by default).
    /// Empty queries, and in `regex` mode an unescaped `|` when `no_or`,
    /// are refused.
    pub fn compile(self, api: &str, key: &str, query: &str, no_or: bool) -> Result<Matcher> {
        if query.is_empty() {
            return Err(Error::invalid_option(format!(
                "{api}: option '{key}' is empty; give the text to search for"
            )));
        }
        if self == QueryMode::Regex && no_or && has_unescaped_bar(query) {
            return Err(Error::invalid_option(format!(
                "{api}: option '{key}' has an unescaped '|': {api} takes one pattern, not \
                 alternatives; compare terms with survey, or escape it as \\|"
            )));
        }
        let syntax = if self == QueryMode::Regex { Syntax::Regex } else { Syntax::Literal };
        let mut spec = PatternSpec::new(query.encode_utf16().collect(), syntax, Case::Sensitive);
        spec.boundary = match self {
            QueryMode::Identifier => Boundary::Identifier,
            QueryMode::Word => Boundary::Word,
            QueryMode::Fixed | QueryMode::Regex => Boundary::None,
        };
        spec.compile(api, key)
    }
}

/// Whether a regex source holds a `|` outside a character class that no
/// backslash escapes (an alternation).
pub(super) fn has_unescaped_bar(source: &str) -> bool {
    let mut chars = source.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => drop(chars.next()),
            '[' => in_class = true,
            ']' => in_class = false,
            '|' if !in_class => return true,
            _ => {}
        }
    }
    false
}

/// The warning for short fixed-string terms (none in other modes).
pub(super) fn short_term_warning(mode: QueryMode, terms: &[&str]) -> Option<String> {
    if mode != QueryMode::Fixed {
        return None;
    }
    let short: Vec<String> = terms
        .iter()
        .filter(|t| t.chars().count() <= SHORT_TERM)
        .map(|t| report::quote_always(t))
        .collect();
    if short.is_empty() {
        return None;
    }
    let (what, verb) = if short.len() == 1 { ("term", "matches") } else { ("terms", "match") };
    Some(format!(
        "short {what} {} {verb} inside longer words; use --identifier or --word",
        short.join(", ")
    ))
}
