//! smart-file-query's code outlines and window-viewer arithmetic: pure Rust,
//! no napi, no file I/O (the caller reads, decodes and rejects binary files).
//!
//! - [`outline`] turns a file's path (for language detection) and decoded
//!   text into an [`Outline`]: SPEC's `getOutline` result, built with
//!   tree-sitter for the programming languages in [`supported_languages`],
//!   with small exact line parsers for Markdown (headings), TOML (tables
//!   and keys), YAML and JSON (keys), and with an approximate
//!   keyword/indentation outline for anything else. Cost is bounded by
//!   [`OutlineOptions`] (size cap, minified check, parse deadline, item
//!   budget).
//! - [`format_outline`] renders an outline as seed 003's text
//!   (`class Foo (lines 10-50)` with members indented beneath).
//! - [`Viewport::compute`], [`view`] and [`render`] are the window viewer's
//!   open/goto/scroll arithmetic and its `N: text` rendering.
//! - Lines are counted as the search engine counts them ([`line_count`]).
//!
//! Every public struct serialises with serde to the camelCase JSON shape
//! SPEC names.
#![deny(missing_docs)]

mod error;
mod fallback;
mod format;
mod formats;
mod grammar;
mod item;
mod language;
mod lines;
mod options;
mod outliner;
mod parser;
mod rules;
mod signature;
mod viewport;
mod walker;

pub use error::OptionError;
pub use format::{
    FormatOptions, MAX_HEAD_CHARS, MAX_IMPORTS_CHARS, format_item_head, format_outline,
    format_outline_with,
};
pub use item::{ItemKind, Outline, OutlineItem};
pub use language::{ALL_LANGUAGES, Language, LanguageInfo, detect_language, supported_languages};
pub use lines::{line_count, lines};
pub use options::{ImportMode, OutlineOptions};
pub use outliner::{Cancelled, outline, outline_as, outline_with_cancel};
pub use viewport::{ViewOp, Viewport, WindowSize, WindowState, WindowView, render, view};
