//! [`OutlineOptions`]: the cost bounds and switches of [`crate::outline`],
//! valid by construction (every setter checks its range).

use std::time::Duration;

use serde::Serialize;

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
    imports: bool,
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
            imports: true,
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
    /// listed. Default `true`.
    pub fn with_imports(mut self, imports: bool) -> Self {
        self.imports = imports;
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

    /// Whether imports are listed.
    pub fn imports(&self) -> bool {
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
        let json = serde_json::to_value(&o).unwrap();
        assert_eq!(json["maxItems"], 2000);
        assert_eq!(json["timeoutMs"], 1000);
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
        assert!(!o.with_imports(false).imports());
    }
}
