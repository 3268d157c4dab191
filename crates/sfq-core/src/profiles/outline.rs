//! `getOutline`, `formatOutline` and the window viewer's reads: a file
//! under the root is resolved (never outside it), read, checked for binary
//! content, decoded, and handed to `sfq-outline`.

use std::path::Path;

use serde::Serialize;
use sfq_outline::{ImportMode, Outline, OutlineOptions, ViewOp, WindowSize, WindowView};

use crate::cancel::Cancel;
use crate::error::{Error, ErrorCode, Result};
use crate::options::{Kind, OptSpec, RawOptions, opt};
use crate::paths::{resolve_inside, resolve_root};
use crate::text::{Encoding, is_binary};

/// `getOutline`'s options (checked where they are read).
pub const OUTLINE_OPTIONS: &[OptSpec] = &[
    opt("path", Kind::Str, "the file, under the root").mcp_same("Path to the source file"),
    opt(
        "imports",
        Kind::OneOf(&["block", "each", "none"]),
        "how imports are listed: 'block' (default), 'each' or 'none'",
    )
    .default_str("block")
    .mcp_same(
        "How imports are shown: 'block' (default) one line per run of consecutive imports, \
         'imports (N): module, module, …'; 'each' one line per import; 'none' leaves them out",
    ),
    opt("cwd", Kind::Str, "the root; path must resolve inside it (default: process.cwd())")
        .default_prose("process.cwd()"),
    crate::options::TIMEOUT_MS,
    opt("maxItems", Kind::Int(1, 1_000_000), "item budget; the rest is cut (default 2000)")
        .default_int(OutlineOptions::DEFAULT_MAX_ITEMS),
    opt("maxDepth", Kind::Int(1, 100), "nesting depth kept (default 6)")
        .default_int(OutlineOptions::DEFAULT_MAX_DEPTH),
    opt("includeImports", Kind::Bool, "list imports (default true; false is imports: 'none')")
        .default_bool(true),
];
/// Options of the viewer's native read.
pub const VIEW_OPTION_NAMES: &[&str] = &["path", "cwd", "windowSize", "op", "line", "from"];
/// The largest file either reads (larger ones are refused with `EFILETOOLARGE`).
pub const MAX_READ_BYTES: u64 = 256 << 20;

/// A text file under the root, read and decoded as UTF-8 (as Node decodes).
struct TextFile {
    rel: String,
    text: String,
}

fn read_text(root: &Path, path: &str) -> Result<TextFile> {
    let (abs, rel) = resolve_inside(root, path)?;
    let meta = std::fs::metadata(&abs).map_err(|e| Error::io(&e, "stat", &abs))?;
    if meta.is_dir() {
        return Err(Error::new(
            ErrorCode::Io("EISDIR"),
            format!("EISDIR: '{path}' is a directory, not a file"),
        ));
    }
    if meta.len() > MAX_READ_BYTES {
        return Err(Error::new(
            ErrorCode::Io("EFILETOOLARGE"),
            format!(
                "'{path}' is {} bytes; files over {MAX_READ_BYTES} bytes are not read",
                meta.len()
            ),
        ));
    }
    let bytes = std::fs::read(&abs).map_err(|e| Error::io(&e, "open", &abs))?;
    if is_binary(&bytes, Encoding::Utf8) {
        return Err(Error::new(
            ErrorCode::Io("EBINARY"),
            format!("'{path}' is a binary file (a NUL or control byte in its first KiB)"),
        ));
    }
    let text = match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    Ok(TextFile { rel, text })
}

fn required_path(raw: &RawOptions) -> Result<String> {
    raw.string("path")?
        .ok_or_else(|| Error::invalid_option(format!("{}: a file path is required", raw.api())))
}

fn option_error(e: sfq_outline::OptionError) -> Error {
    Error::invalid_option(e.message)
}

/// Runs `getOutline`.
pub fn get_outline(raw: &RawOptions, cancel: &Cancel) -> Result<Outline> {
    let root = resolve_root(raw.string("cwd")?.as_deref())?;
    let path = required_path(raw)?;
    let mut options = OutlineOptions::default();
    if let Some(n) = raw.int_of("maxItems", OUTLINE_OPTIONS)? {
        options = options.with_max_items(n as i64).map_err(option_error)?;
    }
    if let Some(n) = raw.int_of("maxDepth", OUTLINE_OPTIONS)? {
        options = options.with_max_depth(n as i64).map_err(option_error)?;
    }
    let mode = match raw.string("imports")? {
        None => None,
        Some(name) => Some(ImportMode::from_name(&name).ok_or_else(|| {
            Error::invalid_option(format!(
                "getOutline: imports must be 'block', 'each' or 'none'; got {name:?}"
            ))
        })?),
    };
    match (raw.bool("includeImports")?, mode) {
        (Some(include), Some(mode)) if include != (mode != ImportMode::None) => {
            return Err(Error::invalid_option(format!(
                "getOutline: includeImports: {include} contradicts imports: '{}'",
                mode.as_str()
            )));
        }
        (_, Some(mode)) => options = options.with_import_mode(mode),
        (Some(include), None) => options = options.with_imports(include),
        (None, None) => {}
    }
    let file = read_text(&root, &path)?;
    cancel.check()?;
    let outline = sfq_outline::outline_with_cancel(&file.rel, &file.text, &options, cancel.flag())
        .map_err(|_| Error::new(ErrorCode::Aborted, "The operation was aborted"))?;
    cancel.check()?;
    Ok(outline)
}

/// Renders an outline (the JSON of a `getOutline` result) as text.
pub fn format_outline(json: &str) -> Result<String> {
    let outline: Outline = serde_json::from_str(json).map_err(|e| {
        Error::invalid_option(format!("formatOutline: not an outline result ({e})"))
    })?;
    Ok(sfq_outline::format_outline(&outline))
}

/// What the viewer's native read returns: the window and its centre line.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewResult {
    /// SPEC's window object.
    pub view: WindowView,
    /// The window's centre line, for `getState()`.
    pub current_line: usize,
}

/// Reads the file fresh (so a change on disk is seen) and computes the
/// window for one viewer operation.
pub fn view_window(raw: &RawOptions) -> Result<ViewResult> {
    let root = resolve_root(raw.string("cwd")?.as_deref())?;
    let path = required_path(raw)?;
    let window = WindowSize::new(raw.int("windowSize", 1, 1_000_000)?.unwrap_or(100) as i64)
        .map_err(option_error)?;
    let line = |key: &str| -> Result<i64> {
        let Some(v) = raw.int_signed(key)? else {
            return Err(Error::invalid_option(format!(
                "viewer: '{key}' is required for this operation"
            )));
        };
        Ok(v)
    };
    let op = match raw.string("op")?.as_deref() {
        Some("open") => ViewOp::Open(raw.int_signed("line")?),
        Some("goto") => ViewOp::Goto(line("line")?),
        Some("scrollDown") => ViewOp::ScrollDown { from: line("from")?.max(1) as usize },
        Some("scrollUp") => ViewOp::ScrollUp { from: line("from")?.max(1) as usize },
        other => {
            return Err(Error::invalid_option(format!(
                "viewer: unknown operation {other:?}; expected open, goto, scrollDown or scrollUp"
            )));
        }
    };
    let file = read_text(&root, &path)?;
    let (view, viewport) = sfq_outline::view(&file.rel, &file.text, window, op);
    Ok(ViewResult { view, current_line: viewport.current_line })
}
