//! `JsStr`: a JavaScript string value in results. Almost always well-formed
//! Unicode (kept as UTF-8); a string with a lone surrogate (a non-`u` match
//! that splits a surrogate pair, a utf16le file) keeps its UTF-16 code units,
//! and serialises the way `JSON.stringify` does (`"\ud83d"`).

use std::fmt::Write as _;
use std::sync::Arc;

use serde::{Serialize, Serializer};

/// A JS string: UTF-8 when well-formed, else the raw UTF-16 code units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsStr {
    /// Well-formed text.
    Utf8(Arc<str>),
    /// Text holding at least one lone surrogate.
    Utf16(Arc<[u16]>),
}

impl JsStr {
    /// The string made of `units`.
    pub fn from_utf16(units: &[u16]) -> JsStr {
        match String::from_utf16(units) {
            Ok(s) => JsStr::Utf8(s.into()),
            Err(_) => JsStr::Utf16(units.into()),
        }
    }

    /// The empty string.
    pub fn empty() -> JsStr {
        JsStr::Utf8(Arc::from(""))
    }

    /// Length in UTF-8 bytes of its JSON form, roughly (for budgets).
    pub fn approx_len(&self) -> usize {
        match self {
            JsStr::Utf8(s) => s.len(),
            JsStr::Utf16(u) => u.len() * 3,
        }
    }

    /// The text with lone surrogates replaced by U+FFFD (for text renderings).
    pub fn to_string_lossy(&self) -> String {
        match self {
            JsStr::Utf8(s) => s.to_string(),
            JsStr::Utf16(u) => String::from_utf16_lossy(u),
        }
    }
}

impl From<&str> for JsStr {
    fn from(s: &str) -> JsStr {
        JsStr::Utf8(Arc::from(s))
    }
}

impl Serialize for JsStr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            JsStr::Utf8(s) => serializer.serialize_str(s),
            JsStr::Utf16(units) => {
                let raw = serde_json::value::RawValue::from_string(json_quote_utf16(units))
                    .map_err(serde::ser::Error::custom)?;
                raw.serialize(serializer)
            }
        }
    }
}

/// The JSON text `JSON.stringify` gives for the JS string made of `units`:
/// `"` and `\` escaped, `\b \t \n \f \r` short forms, other C0 controls and
/// lone surrogates as lowercase `\uXXXX`, everything else literal.
pub fn json_quote_utf16(units: &[u16]) -> String {
    let mut out = String::with_capacity(units.len() + 2);
    out.push('"');
    for item in char::decode_utf16(units.iter().copied()) {
        match item {
            Ok(c) => push_escaped(&mut out, c),
            Err(e) => {
                let _ = write!(out, "\\u{:04x}", e.unpaired_surrogate());
            }
        }
    }
    out.push('"');
    out
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\u{8}' => out.push_str("\\b"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\u{c}' => out.push_str("\\f"),
        '\r' => out.push_str("\\r"),
        c if (c as u32) < 0x20 => {
            let _ = write!(out, "\\u{:04x}", c as u32);
        }
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_like_json_stringify() {
        let s = JsStr::from_utf16(
            &"a\"\\\u{8}\u{1}\u{7f}\u{2028}😀".encode_utf16().collect::<Vec<_>>(),
        );
        assert!(matches!(s, JsStr::Utf8(_)));
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"a\\\"\\\\\\b\\u0001\u{7f}\u{2028}😀\"");
        let lone = JsStr::from_utf16(&[0x61, 0xD83D, 0x0A]);
        assert!(matches!(lone, JsStr::Utf16(_)));
        assert_eq!(serde_json::to_string(&vec![lone]).unwrap(), "[\"a\\ud83d\\n\"]");
        let low = JsStr::from_utf16(&[0xDE00]);
        assert_eq!(serde_json::to_string(&low).unwrap(), "\"\\ude00\"");
    }
}
