//! The compact transport: a result handed to JS as a few flat arrays instead
//! of JSON text, so that JS rebuilds the objects without parsing.
//!
//! `JSON.parse` of an output-heavy result (100,000 matches with context)
//! costs several hundred milliseconds, most of it creating and scanning
//! strings that repeat (a line shows up as a match line and as context of its
//! neighbours). Here every distinct string is sent once (UTF-16, so lone
//! surrogates survive) and referenced by index, and the shape of the value is
//! a stream of `u32` operations that `lib/decode.js` walks:
//!
//! | op | meaning | operands |
//! |---|---|---|
//! | 0 / 1 / 2 | `null` / `false` / `true` | — |
//! | 3 | a number that fits in `u32` | the number |
//! | 4 | any other number | index into `numbers` |
//! | 5 | a string | index into the string table |
//! | 6 | an array | length, then the elements |
//! | 7 | an object | shape index (its keys, in order), then the values |
//! | 8 | a value JS builds when it is first read | the number of ops of the value, then the value |
//!
//! Op 8 stands before a value that is often not read, or read later, in an
//! output-heavy result (a file's matches: 100,000 of them cost more to build
//! as JS objects than to find): as an object's value it becomes a property
//! that decodes its ops when first read, then holds the value.
//!
//! Works for any `Serialize` value made of structs, sequences, strings,
//! booleans, numbers and options; serde's `skip_serializing_if` makes shapes
//! vary, so a shape is recorded when an object ends.

use std::borrow::Cow;

use serde::ser::{self, Serialize};

/// A value in compact form.
#[derive(Debug, Default)]
pub struct Compact {
    /// The operation stream.
    pub ops: Vec<u32>,
    /// Numbers that do not fit in `u32`.
    pub numbers: Vec<f64>,
    /// Every distinct string, concatenated (UTF-16 code units).
    pub strings: Vec<u16>,
    /// End offset of each string in `strings`.
    pub ends: Vec<u32>,
    /// Object shapes: the keys of each, in order (a writer that knows its
    /// shapes lends them; the serializer makes them as objects end).
    pub shapes: Vec<Shape>,
}

/// The keys of an object shape, in order.
pub type Shape = Cow<'static, [&'static str]>;

/// Serialises `value` in compact form. Every string `value` serialises must
/// live until this returns (strings are recognised by address).
pub fn to_compact<T: Serialize>(value: &T) -> Result<Compact, Error> {
    let mut ser = Serializer::default();
    value.serialize(&mut ser)?;
    Ok(ser.out)
}

/// A value the compact form cannot carry.
#[derive(Debug)]
pub struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

pub(super) const NULL: u32 = 0;
pub(super) const FALSE: u32 = 1;
pub(super) const TRUE: u32 = 2;
pub(super) const U32: u32 = 3;
pub(super) const NUMBER: u32 = 4;
pub(super) const STRING: u32 = 5;
pub(super) const ARRAY: u32 = 6;
pub(super) const OBJECT: u32 = 7;
pub(super) const LAZY: u32 = 8;

/// serde_json's name for its raw-JSON newtype (used by `JsStr` for strings
/// holding lone surrogates).
pub(super) const RAW_VALUE: &str = "$serde_json::private::RawValue";

mod serializer;
#[cfg(test)]
mod tests;
mod writer;

use serializer::Serializer;
#[cfg(test)]
pub(crate) use tests::to_json_value;
pub use writer::{Assembler, Writer};
