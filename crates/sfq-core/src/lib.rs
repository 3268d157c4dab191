//! smart-file-query's engine. It never imports napi: the binding crate at the
//! repository root converts JS values and delegates to [`query_encoded`].
//!
//! The pipeline for every API is the same: raw options (a JSON object from
//! the JS wrapper) → a validated config for that API's profile → discovery
//! (git-exact candidate files) → per-file search on a worker pool → in-order
//! merge under the API's limits → a result model serialised to JSON with
//! `JSON.stringify`'s exact bytes.
#![deny(missing_docs)]

pub(crate) mod cancel;
pub(crate) mod dirfd;
pub(crate) mod discovery;
pub(crate) mod disposal;
pub(crate) mod engine;
pub(crate) mod error;
pub(crate) mod excludes;
pub(crate) mod failpoint;
pub(crate) mod file_view;
pub(crate) mod jsstr;
pub(crate) mod lines;
pub(crate) mod matcher;
pub(crate) mod options;
pub(crate) mod paths;
pub(crate) mod pattern;
/// The profiles: one module per API (or family of APIs), each its options
/// table, its validated config and its work over the shared machinery
/// (discovery, the engine, the matcher, the reader, the result models).
/// They differ in defaults, not in machinery. Declared here, beside
/// [`Command`], so that a new API is its module and its lines in this file.
pub(crate) mod profiles {
    pub(crate) mod agent;
    pub(crate) mod explore;
    pub(crate) mod find_files;
    pub(crate) mod glob_files;
    pub(crate) mod outline;
    pub(crate) mod smart_file_query;
}
pub(crate) mod project_config;
pub(crate) mod scan;
pub(crate) mod search;
pub(crate) mod session;
pub(crate) mod text;
pub(crate) mod transport;

use profiles::{agent, explore, find_files, glob_files, outline, smart_file_query};

// The facade: what the binding (and any other caller) uses; everything else
// is the crate's own (so the compiler reports what nothing uses).
pub use cancel::{Cancel, Progress};
pub use error::{Error, ErrorCode, Result};
pub use matcher::{Matcher, Mode as MatchMode};
pub use paths::shown as shown_path;
pub use project_config::{ExcludeMode, ProjectConfig};
pub use search::{FileText, count_matches};
pub use session::{Session, SessionStats};
pub use transport::to_compact;

/// The APIs [`query_encoded`] serves, by the name the JS wrapper passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// `smartFileQuery` (seed 000).
    SmartFileQuery,
    /// `findFiles` (seed 002).
    FindFiles,
    /// `getOutline` (seed 003).
    GetOutline,
    /// `formatOutline` (seed 003).
    FormatOutline,
    /// One window viewer operation (seed 003).
    ViewWindow,
    /// `searchCode` (seed 003).
    SearchCode,
    /// `grep` (seed 002).
    Grep,
    /// `grepContent` (seed 004).
    GrepContent,
    /// `globFiles` (seed 004).
    GlobFiles,
    /// `survey` (seed 001).
    Survey,
    /// `scout` (seed 001).
    Scout,
    /// `sample` (seed 001).
    Sample,
    /// `show` (seed 001).
    Show,
}

impl Command {
    /// Every command with its JS name.
    pub const ALL: [(Command, &'static str); 13] = [
        (Command::SmartFileQuery, "smartFileQuery"),
        (Command::FindFiles, "findFiles"),
        (Command::GetOutline, "getOutline"),
        (Command::FormatOutline, "formatOutline"),
        (Command::ViewWindow, "viewWindow"),
        (Command::SearchCode, "searchCode"),
        (Command::Grep, "grep"),
        (Command::GrepContent, "grepContent"),
        (Command::GlobFiles, "globFiles"),
        (Command::Survey, "survey"),
        (Command::Scout, "scout"),
        (Command::Sample, "sample"),
        (Command::Show, "show"),
    ];

    /// The command's JS name.
    pub fn name(self) -> &'static str {
        Command::ALL.iter().find(|(c, _)| *c == self).map_or("", |(_, n)| n)
    }

    /// The API's option table: the options object it takes (`None`:
    /// `formatOutline` and the viewer's operations, which take none of
    /// their own). The APIs with a table are the module's queries: a
    /// session answers each of them.
    pub(crate) fn table(self) -> Option<&'static [options::OptSpec]> {
        Some(match self {
            Command::SmartFileQuery => smart_file_query::OPTIONS,
            Command::FindFiles => find_files::OPTIONS,
            Command::GetOutline => outline::OUTLINE_OPTIONS,
            Command::FormatOutline | Command::ViewWindow => return None,
            Command::SearchCode => agent::SEARCH_CODE_OPTIONS,
            Command::Grep => agent::GREP_OPTIONS,
            Command::GrepContent => agent::GREP_CONTENT_OPTIONS,
            Command::GlobFiles => glob_files::GLOB_FILES_OPTIONS,
            Command::Survey => explore::SURVEY_OPTIONS,
            Command::Scout => explore::SCOUT_OPTIONS,
            Command::Sample => explore::SAMPLE_OPTIONS,
            Command::Show => explore::SHOW_OPTIONS,
        })
    }

    /// The command named `kind`.
    pub fn parse(kind: &str) -> Result<Command> {
        Command::ALL.iter().find(|(_, n)| *n == kind).map(|(c, _)| *c).ok_or_else(|| {
            Error::invalid_option(format!(
                "unknown query kind '{kind}'; expected one of {}",
                Command::ALL.map(|(_, n)| n).join(", ")
            ))
        })
    }
}

/// What a query produced, ready to serialise (to JSON bytes by [`query_encoded`]).
#[derive(Debug, serde::Serialize)]
#[serde(untagged)]
pub enum Output {
    /// `smartFileQuery`'s payload.
    SmartFileQuery(smart_file_query::Payload),
    /// `getOutline`'s result.
    Outline(sfq_outline::Outline),
    /// A text (`formatOutline`).
    Text(String),
    /// A viewer window.
    View(outline::ViewResult),
    /// `findFiles`' entries.
    Found(Vec<find_files::Found>),
    /// `searchCode`'s result.
    Search(agent::SearchResult),
    /// `grep`'s entries.
    Grep(Vec<agent::GrepEntry>),
    /// `grepContent`'s result.
    GrepContent(agent::GrepContentResult),
    /// `globFiles`' result.
    Glob(glob_files::GlobResult),
    /// `survey`'s result.
    Survey(explore::survey::SurveyResult),
    /// `scout`'s result.
    Scout(explore::scout::ScoutResult),
    /// `sample`'s result.
    Sample(explore::sample::SampleResult),
    /// `show`'s result.
    Show(explore::show::ShowResult),
}

/// How a result is handed over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Minified JSON with `JSON.stringify`'s exact bytes (the CLI's output).
    Json,
    /// The compact transport (the `transport` module), cheaper for JS to rebuild.
    Compact,
}

/// A serialised result.
#[derive(Debug)]
pub enum Encoded {
    /// JSON bytes.
    Json(Vec<u8>),
    /// The compact form.
    Compact(transport::Compact),
}

/// Runs the API `kind` with the JSON `options` and returns its result
/// serialised in `format` (JSON: minified, with `JSON.stringify`'s exact
/// bytes). `pattern` is the main pattern as UTF-16 when the wrapper passes it
/// beside the JSON; `base` is the call's cancellation (its abort flag, its
/// start for `timeoutMs`, and the progress counters the caller may read while
/// it runs).
pub fn query_encoded(
    kind: Command,
    options: &str,
    pattern: Option<Vec<u16>>,
    base: Cancel,
    format: Format,
) -> Result<Encoded> {
    query_encoded_from(&engine::Source::Disk, kind, options, pattern, base, format)
}

/// [`query_encoded`] reading file contents from `source` (a session's, or
/// the disk).
pub fn query_encoded_from(
    source: &engine::Source,
    kind: Command,
    options: &str,
    pattern: Option<Vec<u16>>,
    base: Cancel,
    format: Format,
) -> Result<Encoded> {
    if kind == Command::SmartFileQuery {
        // Its printer takes each file as it is merged, encoded by the
        // worker that searched it (the payload is never whole in memory).
        let (config, cancel) = smart_file_query_config(source, options, pattern, base)?;
        return smart_file_query::run_encoded(&config, &cancel, format);
    }
    encode(&query_output_from(source, kind, options, pattern, base)?, format)
}

/// A whole result serialised in `format`.
fn encode(output: &Output, format: Format) -> Result<Encoded> {
    let internal = |e: &dyn std::fmt::Display| {
        Error::new(ErrorCode::Internal, format!("cannot serialise the result: {e}"))
    };
    Ok(match format {
        Format::Json => Encoded::Json(serde_json::to_vec(output).map_err(|e| internal(&e))?),
        Format::Compact => match output {
            Output::Found(found) => Encoded::Compact(find_files::to_compact(found)),
            _ => Encoded::Compact(transport::to_compact(output).map_err(|e| internal(&e))?),
        },
    })
}

/// `smartFileQuery` with its JSON written to `out` as the files are merged
/// (`smart_file_query::write_json`): the CLI's output with bounded
/// memory. Returns the payload without its results, as JSON.
pub fn query_to_writer(
    options: &str,
    pattern: Option<Vec<u16>>,
    base: Cancel,
    out: &mut dyn std::io::Write,
) -> Result<Vec<u8>> {
    let (config, cancel) = smart_file_query_config(&engine::Source::Disk, options, pattern, base)?;
    smart_file_query::write_json(&config, &cancel, out)
}

/// `smartFileQuery`'s validated config and its cancellation (with `timeoutMs`).
fn smart_file_query_config(
    source: &engine::Source,
    options: &str,
    pattern: Option<Vec<u16>>,
    base: Cancel,
) -> Result<(smart_file_query::SfqConfig, Cancel)> {
    let raw =
        options::RawOptions::parse_names("smartFileQuery", options, smart_file_query::OPTIONS)?
            .with_source(source.clone());
    let config = smart_file_query::SfqConfig::from_options(&raw, pattern)?;
    let cancel = base.with_timeout(config.timeout_ms);
    cancel.check()?;
    Ok((config, cancel))
}

/// [`query_encoded`] without the serialisation: the typed result.
pub fn query_output(
    command: Command,
    options: &str,
    pattern: Option<Vec<u16>>,
    base: Cancel,
) -> Result<Output> {
    query_output_from(&engine::Source::Disk, command, options, pattern, base)
}

/// [`query_output`] reading file contents from `source`.
pub fn query_output_from(
    source: &engine::Source,
    command: Command,
    options: &str,
    pattern: Option<Vec<u16>>,
    base: Cancel,
) -> Result<Output> {
    let cancel = base;
    let started = cancel.started();
    // The command's options, checked against its table, and its cancellation.
    let checked = || -> Result<(options::RawOptions, Cancel)> {
        let t = command.table().unwrap_or_default();
        let raw = options::RawOptions::parse_table(command.name(), options, t)?
            .with_source(source.clone());
        let cancel = cancel.clone().with_timeout(raw.int_of("timeoutMs", t)?);
        cancel.check()?;
        Ok((raw, cancel))
    };
    match command {
        Command::SmartFileQuery => {
            // Checked where read, in the order seed 000's script checks them.
            let (config, cancel) = smart_file_query_config(source, options, pattern, cancel)?;
            Ok(Output::SmartFileQuery(smart_file_query::run(&config, &cancel)?))
        }
        Command::FindFiles => {
            let (raw, cancel) = checked()?;
            Ok(Output::Found(find_files::run(&raw, &cancel)?))
        }
        Command::GetOutline => {
            // Checked where read (one file, read from disk).
            let raw = options::RawOptions::parse_names(
                command.name(),
                options,
                outline::OUTLINE_OPTIONS,
            )?;
            let cancel = cancel.with_timeout(raw.int_of("timeoutMs", outline::OUTLINE_OPTIONS)?);
            Ok(Output::Outline(outline::get_outline(&raw, &cancel)?))
        }
        Command::FormatOutline => Ok(Output::Text(outline::format_outline(options)?)),
        Command::ViewWindow => {
            let raw = options::RawOptions::parse("viewer", options, outline::VIEW_OPTION_NAMES)?;
            Ok(Output::View(outline::view_window(&raw)?))
        }
        Command::SearchCode => {
            let (raw, cancel) = checked()?;
            Ok(Output::Search(agent::search_code(&raw, pattern, &cancel, started)?))
        }
        Command::Grep => {
            let (raw, cancel) = checked()?;
            Ok(Output::Grep(agent::grep(&raw, pattern, &cancel, started)?))
        }
        Command::GrepContent => {
            let (raw, cancel) = checked()?;
            Ok(Output::GrepContent(agent::grep_content(&raw, pattern, &cancel, started)?))
        }
        Command::GlobFiles => {
            let (raw, cancel) = checked()?;
            Ok(Output::Glob(glob_files::glob_files(&raw, &cancel)?))
        }
        Command::Survey => {
            let (raw, cancel) = checked()?;
            Ok(Output::Survey(explore::survey::survey(&raw, &cancel)?))
        }
        Command::Scout => {
            let (raw, cancel) = checked()?;
            Ok(Output::Scout(explore::scout::scout(&raw, &cancel)?))
        }
        Command::Sample => {
            let (raw, cancel) = checked()?;
            Ok(Output::Sample(explore::sample::sample(&raw, &cancel)?))
        }
        Command::Show => {
            let (raw, cancel) = checked()?;
            Ok(Output::Show(explore::show::show(&raw, &cancel)?))
        }
    }
}
