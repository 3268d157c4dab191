//! [`OutlineOptions`]: the cost bounds and switches of [`crate::outline`],
//! valid by construction (every setter checks its range).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::OptionError;

/// Options of [`crate::outline`]. Start from [`OutlineOptions::default`] and
/// chain the `with_*` setters, each of which rejects an out-of-range value
/// with an [`OptionError`] naming the option:
///
/// ```
/// # fn main() -> Result<(), sfq_outline::OptionError> {
/// let opts = sfq_outline::OutlineOptions::default().with_max_items(500)?.with_timeout_ms(200)?;
/// assert_eq!(opts.max_items(), 500);
/// assert!(sfq_outline::OutlineOptions::default().with_max_items(0).is_err());
/// # Ok(()) }
/// ```
///
/// Serialises (camelCase) to the effective values, for echoing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutlineOptions {
    max_bytes: u64,
    minified_mean_line_bytes: u64,
    timeout_ms: u64,
    max_items: u64,
    max_depth: u64,
    max_signature_chars: u64,
    imports: ImportMode,
}

/// How imports (`import`, `use`, `#include`, `require`, re-exports) are
/// listed ([`OutlineOptions::with_import_mode`]).
///
/// Serialises lowercase (`"block"`, `"each"`, `"none"`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImportMode {
    /// One item per block of consecutive imports (blank lines, comments and
    /// attributes between them allowed, and conditionals holding only
    /// imports; the first other statement ends a block): kind `import`,
    /// detail `block`, named `imports (N)` with N the modules its imports
    /// name (one per statement, except Python's `import os, sys` and Go's
    /// `import (…)`, which name several), with the block's modules, each
    /// once, in [`crate::OutlineItem::modules`]. JS/TS re-exports
    /// (`export … from`) count apart: `imports (5), re-exports (2)`, or
    /// `re-exports (N)` with detail `re-export block` when a block has only
    /// re-exports. The default.
    #[default]
    Block,
    /// One item per import statement, named by its module.
    Each,
    /// No import items.
    None,
}

impl ImportMode {
    /// `"block"`, `"each"` or `"none"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ImportMode::Block => "block",
            ImportMode::Each => "each",
            ImportMode::None => "none",
        }
    }

    /// The mode named `name` (`block`, `each`, `none`).
    pub fn from_name(name: &str) -> Option<ImportMode> {
        match name {
            "block" => Some(ImportMode::Block),
            "each" => Some(ImportMode::Each),
            "none" => Some(ImportMode::None),
            _ => None,
        }
    }
}

impl Default for OutlineOptions {
    fn default() -> Self {
        OutlineOptions {
            max_bytes: Self::DEFAULT_MAX_BYTES,
            minified_mean_line_bytes: Self::DEFAULT_MINIFIED_MEAN_LINE_BYTES,
            timeout_ms: Self::DEFAULT_TIMEOUT_MS,
            max_items: Self::DEFAULT_MAX_ITEMS,
            max_depth: Self::DEFAULT_MAX_DEPTH,
            max_signature_chars: Self::DEFAULT_MAX_SIGNATURE_CHARS,
            imports: ImportMode::Block,
        }
    }
}

impl OutlineOptions {
    /// Default size cap: 2 MiB of UTF-8 text.
    pub const DEFAULT_MAX_BYTES: u64 = 2 * 1024 * 1024;
    /// Default minified threshold: a mean of 300 bytes per line.
    pub const DEFAULT_MINIFIED_MEAN_LINE_BYTES: u64 = 300;
    /// Default parse deadline: 1000 ms.
    pub const DEFAULT_TIMEOUT_MS: u64 = 1000;
    /// Default item budget: 2000 items, children included.
    pub const DEFAULT_MAX_ITEMS: u64 = 2000;
    /// Default nesting limit: 6 levels (namespace › namespace › class ›
    /// class › method is 5).
    pub const DEFAULT_MAX_DEPTH: u64 = 6;
    /// Default signature length: 200 characters.
    pub const DEFAULT_MAX_SIGNATURE_CHARS: u64 = 200;

    /// Texts longer than this many bytes (UTF-8) are not parsed; they get
    /// the approximate outline and a note. 1 KiB to 256 MiB.
    pub fn with_max_bytes(mut self, bytes: i64) -> Result<Self, OptionError> {
        self.max_bytes = OptionError::check_range("maxBytes", bytes, 1024, 256 * 1024 * 1024)?;
        Ok(self)
    }

    /// A text of more than 4 KiB whose mean line length exceeds this many
    /// bytes is treated as minified: not parsed, approximate outline and a
    /// note. 80 to 1,000,000.
    pub fn with_minified_mean_line_bytes(mut self, bytes: i64) -> Result<Self, OptionError> {
        self.minified_mean_line_bytes =
            OptionError::check_range("minifiedMeanLineBytes", bytes, 80, 1_000_000)?;
        Ok(self)
    }

    /// Parsing that takes longer than this is abandoned (tree-sitter's
    /// progress callback) and the approximate outline is returned with a
    /// note. 1 to 600,000 ms.
    pub fn with_timeout_ms(mut self, ms: i64) -> Result<Self, OptionError> {
        self.timeout_ms = OptionError::check_range("timeoutMs", ms, 1, 600_000)?;
        Ok(self)
    }

    /// At most this many items (children included) are returned; the rest
    /// are cut, `truncated` is set and a note says how many were kept.
    /// 1 to 1,000,000.
    pub fn with_max_items(mut self, items: i64) -> Result<Self, OptionError> {
        self.max_items = OptionError::check_range("maxItems", items, 1, 1_000_000)?;
        Ok(self)
    }

    /// Items nested deeper than this many levels are left out (their
    /// container stays). 1 (top level only) to 32.
    pub fn with_max_depth(mut self, depth: i64) -> Result<Self, OptionError> {
        self.max_depth = OptionError::check_range("maxDepth", depth, 1, 32)?;
        Ok(self)
    }

    /// Signatures longer than this many characters are cut and end in `…`;
    /// 0 leaves signatures out. 0 to 10,000.
    pub fn with_max_signature_chars(mut self, chars: i64) -> Result<Self, OptionError> {
        self.max_signature_chars = OptionError::check_range("maxSignatureChars", chars, 0, 10_000)?;
        Ok(self)
    }

    /// Whether import items (`import`, `use`, `#include`, re-exports) are
    /// listed: `true` lists them in blocks ([`ImportMode::Block`], the
    /// default), `false` leaves them out ([`ImportMode::None`]).
    pub fn with_imports(mut self, imports: bool) -> Self {
        self.imports = if imports { ImportMode::Block } else { ImportMode::None };
        self
    }

    /// How imports are listed (see [`ImportMode`]). Default
    /// [`ImportMode::Block`].
    pub fn with_import_mode(mut self, mode: ImportMode) -> Self {
        self.imports = mode;
        self
    }

    /// The size cap in bytes.
    pub fn max_bytes(&self) -> usize {
        usize::try_from(self.max_bytes).unwrap_or(usize::MAX)
    }

    /// The minified threshold (mean bytes per line).
    pub fn minified_mean_line_bytes(&self) -> usize {
        usize::try_from(self.minified_mean_line_bytes).unwrap_or(usize::MAX)
    }

    /// The parse deadline.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    /// The item budget.
    pub fn max_items(&self) -> usize {
        usize::try_from(self.max_items).unwrap_or(usize::MAX)
    }

    /// The nesting limit.
    pub fn max_depth(&self) -> usize {
        usize::try_from(self.max_depth).unwrap_or(usize::MAX)
    }

    /// The signature length cap (0: no signatures).
    pub fn max_signature_chars(&self) -> usize {
        usize::try_from(self.max_signature_chars).unwrap_or(usize::MAX)
    }

    /// Whether imports are listed (in blocks or one by one).
    pub fn imports(&self) -> bool {
        self.imports != ImportMode::None
    }

    /// How imports are listed.
    pub fn import_mode(&self) -> ImportMode {
        self.imports
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let o = OutlineOptions::default();
        assert_eq!(o.max_bytes(), 2 * 1024 * 1024);
        assert_eq!(o.timeout(), Duration::from_millis(1000));
        assert_eq!(o.max_items(), 2000);
        assert_eq!(o.max_depth(), 6);
        assert_eq!(o.max_signature_chars(), 200);
        assert!(o.imports());
        assert_eq!(o.import_mode(), ImportMode::Block);
        let json = serde_json::to_value(&o).unwrap();
        assert_eq!(json["maxItems"], 2000);
        assert_eq!(json["timeoutMs"], 1000);
        assert_eq!(json["imports"], "block");
    }

    #[test]
    fn setters_validate() {
        let o = OutlineOptions::default();
        assert!(o.clone().with_max_items(1).is_ok());
        assert_eq!(o.clone().with_max_items(0).unwrap_err().option, "maxItems");
        assert_eq!(o.clone().with_timeout_ms(-5).unwrap_err().option, "timeoutMs");
        assert_eq!(o.clone().with_max_bytes(10).unwrap_err().option, "maxBytes");
        assert_eq!(o.clone().with_max_depth(33).unwrap_err().option, "maxDepth");
        assert_eq!(
            o.clone().with_minified_mean_line_bytes(1).unwrap_err().option,
            "minifiedMeanLineBytes"
        );
        assert_eq!(o.clone().with_max_signature_chars(0).unwrap().max_signature_chars(), 0);
        assert!(!o.clone().with_imports(false).imports());
        assert_eq!(o.clone().with_imports(false).import_mode(), ImportMode::None);
        assert_eq!(o.clone().with_import_mode(ImportMode::Each).import_mode(), ImportMode::Each);
        assert!(o.with_import_mode(ImportMode::Each).imports());
        for m in [ImportMode::Block, ImportMode::Each, ImportMode::None] {
            assert_eq!(ImportMode::from_name(m.as_str()), Some(m));
            assert_eq!(serde_json::to_value(m).unwrap(), m.as_str());
        }
        assert_eq!(ImportMode::from_name("all"), None);
    }
}
