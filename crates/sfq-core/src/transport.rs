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

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use rustc_hash::FxHasher;

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
    /// Object shapes: the keys of each, in order.
    pub shapes: Vec<Vec<&'static str>>,
}

/// Serialises `value` in compact form. Every string `value` serialises must
/// live until this returns (strings are recognised by address).
pub fn to_compact<T: Serialize>(value: &T) -> Result<Compact, Error> {
    let mut ser = Serializer::default();
    value.serialize(&mut ser)?;
    Ok(ser.out)
}

/// Writes a compact value operation by operation, for a hot path that knows
/// its shapes and does its own string interning (a file's matches: see
/// `smart_file_query::FileView`). The caller writes a well-formed value:
/// an object's values follow [`Writer::object`], an array's elements
/// follow [`Writer::array`].
#[derive(Default)]
pub struct Writer {
    out: Compact,
}

impl Writer {
    /// A writer with room for about `ops` operations, and `strings` strings
    /// of `units` code units in all (a buffer grown a dozen times is a
    /// dozen reallocations, under the allocator's lock).
    pub fn with_capacity(ops: usize, strings: usize, units: usize) -> Writer {
        Writer {
            out: Compact {
                ops: Vec::with_capacity(ops),
                strings: Vec::with_capacity(units),
                ends: Vec::with_capacity(strings),
                ..Compact::default()
            },
        }
    }

    /// Registers an object shape (its keys, in order); returns its id.
    pub fn shape(&mut self, keys: &[&'static str]) -> u32 {
        self.out.shapes.push(keys.to_vec());
        self.out.shapes.len() as u32 - 1
    }

    /// Starts an object of shape `shape`.
    pub fn object(&mut self, shape: u32) {
        self.out.ops.extend([OBJECT, shape]);
    }

    /// Starts an array of `len` elements.
    pub fn array(&mut self, len: usize) {
        self.out.ops.extend([ARRAY, len as u32]);
    }

    /// A number.
    pub fn number(&mut self, v: u64) {
        if let Ok(v) = u32::try_from(v) {
            self.out.ops.extend([U32, v]);
        } else {
            self.out.ops.extend([NUMBER, self.out.numbers.len() as u32]);
            self.out.numbers.push(v as f64);
        }
    }

    /// Starts a value that JS builds when it is first read (op 8); the value
    /// follows, then [`Writer::end_lazy`] with what this returned.
    pub fn begin_lazy(&mut self) -> usize {
        self.out.ops.extend([LAZY, 0]);
        self.out.ops.len()
    }

    /// Ends the value started by [`Writer::begin_lazy`] (which returned `at`).
    pub fn end_lazy(&mut self, at: usize) {
        self.out.ops[at - 1] = (self.out.ops.len() - at) as u32;
    }

    /// A boolean.
    pub fn bool(&mut self, v: bool) {
        self.out.ops.push(if v { TRUE } else { FALSE });
    }

    /// Adds `v` to the string table (without writing it); returns its index.
    pub fn add_str(&mut self, v: &str) -> u32 {
        if v.is_ascii() {
            self.out.strings.extend(v.bytes().map(u16::from));
        } else {
            self.out.strings.extend(v.encode_utf16());
        }
        self.out.ends.push(self.out.strings.len() as u32);
        self.out.ends.len() as u32 - 1
    }

    /// Adds a string given as UTF-16 code units; returns its index.
    pub fn add_units(&mut self, units: &[u16]) -> u32 {
        self.out.strings.extend_from_slice(units);
        self.out.ends.push(self.out.strings.len() as u32);
        self.out.ends.len() as u32 - 1
    }

    /// Writes the string at `index` of the table.
    pub fn string(&mut self, index: u32) {
        self.out.ops.extend([STRING, index]);
    }

    /// The value written.
    pub fn finish(self) -> Compact {
        self.out
    }
}

/// Builds one compact value out of parts serialised separately, for example
/// one per file in the worker that searched it, so that serialising runs in
/// parallel. Each part keeps its own string table (strings are deduplicated
/// within a part, not across parts); splicing it renumbers its strings,
/// numbers and shapes. The caller writes the enclosing objects and arrays.
#[derive(Default)]
pub struct Assembler {
    out: Compact,
    shape_ids: HashMap<Vec<&'static str>, u32, BuildHasherDefault<FxHasher>>,
}

impl Assembler {
    /// An empty assembler.
    pub fn new() -> Assembler {
        Assembler::default()
    }

    /// Starts an object with `keys`: the next `keys.len()` values are its
    /// values, in order.
    #[cfg(test)]
    pub fn object(&mut self, keys: &[&'static str]) {
        let id = self.shape_id(keys);
        self.out.ops.extend([OBJECT, id]);
    }

    /// Starts an array of `len` elements: the next `len` values.
    #[cfg(test)]
    pub fn array(&mut self, len: usize) {
        self.out.ops.extend([ARRAY, len as u32]);
    }

    /// Starts an object whose keys are known only once its values are
    /// written: [`Assembler::end_object`] gives them.
    pub fn begin_object(&mut self) -> usize {
        self.out.ops.extend([OBJECT, 0]);
        self.out.ops.len() - 1
    }

    /// Gives the keys of the object started at `at` by
    /// [`Assembler::begin_object`].
    pub fn end_object(&mut self, at: usize, keys: &[&'static str]) {
        self.out.ops[at] = self.shape_id(keys);
    }

    /// Starts an array whose length is known only once its elements are
    /// written: [`Assembler::end_array`] gives it.
    pub fn begin_array(&mut self) -> usize {
        self.out.ops.extend([ARRAY, 0]);
        self.out.ops.len() - 1
    }

    /// Gives the length of the array started at `at` by
    /// [`Assembler::begin_array`].
    pub fn end_array(&mut self, at: usize, len: usize) {
        self.out.ops[at] = len as u32;
    }

    /// Serialises `value` and appends it.
    pub fn serialize<T: Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.splice(to_compact(value)?);
        Ok(())
    }

    /// Appends a value serialised separately (by [`to_compact`]).
    pub fn splice(&mut self, part: Compact) {
        let string_base = self.out.ends.len() as u32;
        let unit_base = self.out.strings.len() as u32;
        let number_base = self.out.numbers.len() as u32;
        let shapes: Vec<u32> = part.shapes.iter().map(|keys| self.shape_id(keys)).collect();
        self.out.strings.extend_from_slice(&part.strings);
        self.out.ends.extend(part.ends.iter().map(|e| e + unit_base));
        self.out.numbers.extend_from_slice(&part.numbers);
        let ops = &part.ops;
        self.out.ops.reserve(ops.len());
        let mut i = 0;
        while i < ops.len() {
            let op = ops[i];
            match op {
                NULL | FALSE | TRUE => {
                    self.out.ops.push(op);
                    i += 1;
                    continue;
                }
                STRING => self.out.ops.extend([op, ops[i + 1] + string_base]),
                NUMBER => self.out.ops.extend([op, ops[i + 1] + number_base]),
                OBJECT => self.out.ops.extend([op, shapes[ops[i + 1] as usize]]),
                _ => self.out.ops.extend([op, ops[i + 1]]), // U32, ARRAY, LAZY (a length of ops, unchanged)
            }
            i += 2;
        }
    }

    /// The assembled value.
    pub fn finish(self) -> Compact {
        self.out
    }

    fn shape_id(&mut self, keys: &[&'static str]) -> u32 {
        if let Some(&id) = self.shape_ids.get(keys) {
            return id;
        }
        let id = self.out.shapes.len() as u32;
        self.out.shapes.push(keys.to_vec());
        self.shape_ids.insert(keys.to_vec(), id);
        id
    }
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

const NULL: u32 = 0;
const FALSE: u32 = 1;
const TRUE: u32 = 2;
const U32: u32 = 3;
const NUMBER: u32 = 4;
const STRING: u32 = 5;
const ARRAY: u32 = 6;
const OBJECT: u32 = 7;
const LAZY: u32 = 8;

/// serde_json's name for its raw-JSON newtype (used by `JsStr` for strings
/// holding lone surrogates).
const RAW_VALUE: &str = "$serde_json::private::RawValue";

#[derive(Default)]
struct Serializer {
    out: Compact,
    /// Short strings seen so far, by content (match texts repeat).
    interned: HashMap<Box<str>, u32, BuildHasherDefault<FxHasher>>,
    /// Long strings seen so far, by address: a line shown as a match line and
    /// as its neighbours' context is one slice of the file's text (or one
    /// shared allocation). Values given to [`to_compact`] must therefore keep
    /// every string they serialise alive until it returns (no temporaries), so
    /// that an address and length identify a string for this serialisation.
    by_address: HashMap<(usize, usize), u32, BuildHasherDefault<FxHasher>>,
    /// Strings holding lone surrogates, keyed by their units.
    interned_utf16: HashMap<Box<[u16]>, u32, BuildHasherDefault<FxHasher>>,
    /// Shape ids by the addresses of their (static) keys.
    shape_ids: HashMap<Box<[usize]>, u32, BuildHasherDefault<FxHasher>>,
    /// Keys of the objects being serialised, innermost last (one buffer
    /// instead of a vector per object).
    key_stack: Vec<&'static str>,
    /// The key addresses of the object being finished (reused).
    scratch: Vec<usize>,
}

impl Serializer {
    fn number(&mut self, v: f64) {
        if v >= 0.0 && v <= f64::from(u32::MAX) && v.fract() == 0.0 {
            self.out.ops.extend([U32, v as u32]);
        } else {
            self.out.ops.extend([NUMBER, self.out.numbers.len() as u32]);
            self.out.numbers.push(v);
        }
    }

    fn string(&mut self, v: &str) {
        const SHORT: usize = 32;
        let index = if v.len() <= SHORT {
            match self.interned.get(v) {
                Some(&i) => i,
                None => {
                    let i = self.push_str(v);
                    self.interned.insert(v.into(), i);
                    i
                }
            }
        } else {
            let key = (v.as_ptr() as usize, v.len());
            match self.by_address.get(&key) {
                Some(&i) => i,
                None => {
                    let i = self.push_str(v);
                    self.by_address.insert(key, i);
                    i
                }
            }
        };
        self.out.ops.extend([STRING, index]);
    }

    fn string_units(&mut self, units: Vec<u16>) {
        let index = match self.interned_utf16.get(units.as_slice()) {
            Some(&i) => i,
            None => {
                let i = self.push_string(units.iter().copied());
                self.interned_utf16.insert(units.into_boxed_slice(), i);
                i
            }
        };
        self.out.ops.extend([STRING, index]);
    }

    fn push_string(&mut self, units: impl Iterator<Item = u16>) -> u32 {
        let i = self.out.ends.len() as u32;
        self.out.strings.extend(units);
        self.out.ends.push(self.out.strings.len() as u32);
        i
    }

    fn push_str(&mut self, v: &str) -> u32 {
        if v.is_ascii() {
            // One unit per byte: a plain widening copy the compiler vectorises.
            let i = self.out.ends.len() as u32;
            self.out.strings.extend(v.bytes().map(u16::from));
            self.out.ends.push(self.out.strings.len() as u32);
            i
        } else {
            self.push_string(v.encode_utf16())
        }
    }

    /// The id of the shape made of the keys on the stack from `from`, which
    /// are popped.
    fn shape(&mut self, from: usize) -> u32 {
        self.scratch.clear();
        self.scratch.extend(self.key_stack[from..].iter().map(|k| k.as_ptr() as usize));
        let id = match self.shape_ids.get(self.scratch.as_slice()) {
            Some(&id) => id,
            None => {
                let id = self.out.shapes.len() as u32;
                self.out.shapes.push(self.key_stack[from..].to_vec());
                self.shape_ids.insert(self.scratch.as_slice().into(), id);
                id
            }
        };
        self.key_stack.truncate(from);
        id
    }
}

/// Decodes the JSON string literal a `RawValue` holds into UTF-16 units.
fn unquote_json(raw: &str) -> Result<Vec<u16>, Error> {
    let inner = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| Error(format!("raw JSON value is not a string: {raw}")))?;
    let mut out = Vec::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u16; 2];
            out.extend_from_slice(c.encode_utf16(&mut buf));
            continue;
        }
        let unit = match chars.next() {
            Some('"') => 0x22,
            Some('\\') => 0x5C,
            Some('/') => 0x2F,
            Some('b') => 0x08,
            Some('f') => 0x0C,
            Some('n') => 0x0A,
            Some('r') => 0x0D,
            Some('t') => 0x09,
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                u16::from_str_radix(&hex, 16).map_err(|_| Error(format!("bad escape in {raw}")))?
            }
            _ => return Err(Error(format!("bad escape in {raw}"))),
        };
        out.push(unit);
    }
    Ok(out)
}

/// Serialises one struct or map: values first, then the shape patched in.
struct Compound<'a> {
    ser: &'a mut Serializer,
    slot: usize,
    /// Where this object's keys start on the serializer's key stack.
    keys_from: usize,
    count_slot: Option<usize>,
    count: u32,
    /// serde_json's `RawValue` (a `JsStr` with a lone surrogate): its one
    /// field is the JSON text of a string, sent as that string.
    raw: bool,
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if self.raw {
            let quoted = serde_json::to_string(value).map_err(|e| Error(e.to_string()))?;
            let json: String = serde_json::from_str(&quoted).map_err(|e| Error(e.to_string()))?;
            self.ser.string_units(unquote_json(&json)?);
            return Ok(());
        }
        // Nested objects push and pop their own keys above ours.
        let mark = self.ser.key_stack.len();
        value.serialize(&mut *self.ser)?;
        self.ser.key_stack.truncate(mark);
        self.ser.key_stack.push(key);
        Ok(())
    }
    fn end(self) -> Result<(), Error> {
        if !self.raw {
            let id = self.ser.shape(self.keys_from);
            self.ser.out.ops[self.slot] = id;
        }
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.count += 1;
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        if let Some(slot) = self.count_slot {
            self.ser.out.ops[slot] = self.count;
        }
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl<'a> Serializer {
    fn begin_array(&'a mut self) -> Compound<'a> {
        self.out.ops.extend([ARRAY, 0]);
        let slot = self.out.ops.len() - 1;
        let keys_from = self.key_stack.len();
        Compound { ser: self, slot, keys_from, count_slot: Some(slot), count: 0, raw: false }
    }
}

impl<'a> ser::Serializer for &'a mut Serializer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out.ops.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.number(f64::from(v));
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.number(f64::from(v));
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.number(f64::from(v));
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.number(v as f64);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.number(f64::from(v));
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.number(f64::from(v));
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.number(f64::from(v));
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.number(v as f64);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.number(f64::from(v));
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.number(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0u8; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.out.ops.push(NULL);
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.ops.push(NULL);
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.out.ops.push(NULL);
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.begin_array())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a>, Error> {
        Ok(self.begin_array())
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        let _ = len;
        let keys_from = self.key_stack.len();
        if name == RAW_VALUE {
            return Ok(Compound {
                ser: self,
                slot: 0,
                keys_from,
                count_slot: None,
                count: 0,
                raw: true,
            });
        }
        self.out.ops.extend([OBJECT, 0]);
        let slot = self.out.ops.len() - 1;
        Ok(Compound { ser: self, slot, keys_from, count_slot: None, count: 0, raw: false })
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        Err(Error("compact transport: bytes are not supported".into()))
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(Error("compact transport: newtype variants are not supported".into()))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(Error("compact transport: tuple structs are not supported".into()))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(Error("compact transport: tuple variants are not supported".into()))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(Error("compact transport: maps are not supported".into()))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(Error("compact transport: struct variants are not supported".into()))
    }
}

/// Decodes a compact value into the JSON value it stands for (what
/// `lib/decode.js` does, for tests on the Rust side).
#[cfg(test)]
pub(crate) fn to_json_value(c: &Compact) -> serde_json::Value {
    use serde_json::Value;
    fn string(c: &Compact, k: usize) -> Value {
        let start = if k == 0 { 0 } else { c.ends[k - 1] as usize };
        Value::String(String::from_utf16_lossy(&c.strings[start..c.ends[k] as usize]))
    }
    fn value(c: &Compact, i: &mut usize) -> Value {
        let op = c.ops[*i];
        *i += 1;
        let mut operand = || {
            *i += 1;
            c.ops[*i - 1]
        };
        match op {
            NULL => Value::Null,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            U32 => Value::from(operand()),
            NUMBER => {
                // One number type, as in JS: integral values compare as integers.
                let x = c.numbers[operand() as usize];
                if x.fract() == 0.0 && x.abs() < 9e15 {
                    Value::from(x as i64)
                } else {
                    Value::from(x)
                }
            }
            STRING => string(c, operand() as usize),
            ARRAY => {
                let n = operand();
                Value::Array((0..n).map(|_| value(c, i)).collect())
            }
            OBJECT => {
                let keys = &c.shapes[operand() as usize];
                Value::Object(keys.iter().map(|k| (k.to_string(), value(c, i))).collect())
            }
            LAZY => {
                let n = operand() as usize;
                let end = *i + n;
                let v = value(c, i);
                assert_eq!(*i, end, "a lazy value's length is its ops'");
                v
            }
            other => panic!("bad op {other}"),
        }
    }
    let mut i = 0;
    let v = value(c, &mut i);
    assert_eq!(i, c.ops.len(), "trailing ops");
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsstr::JsStr;

    #[derive(serde::Serialize)]
    struct Item {
        name: JsStr,
        n: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<&'static str>,
        tags: Vec<JsStr>,
        ok: bool,
    }

    #[test]
    fn shapes_strings_and_numbers_round_trip_the_stream() {
        let items = vec![
            Item {
                name: "a".into(),
                n: 7,
                note: None,
                tags: vec!["x".into(), "a".into()],
                ok: true,
            },
            Item {
                name: JsStr::from_utf16(&[0x61, 0xD83D]),
                n: 1 << 40,
                note: Some("hi"),
                tags: vec![],
                ok: false,
            },
        ];
        let c = to_compact(&items).unwrap();
        assert_eq!(
            c.shapes,
            vec![vec!["name", "n", "tags", "ok"], vec!["name", "n", "note", "tags", "ok"]]
        );
        // "a" is interned once and reused.
        let strings: Vec<Vec<u16>> = c
            .ends
            .iter()
            .scan(0usize, |start, &end| {
                let s = c.strings[*start..end as usize].to_vec();
                *start = end as usize;
                Some(s)
            })
            .collect();
        assert_eq!(strings, vec![vec![0x61], vec![0x78], vec![0x61, 0xD83D], vec![0x68, 0x69]]);
        assert_eq!(c.numbers, vec![(1u64 << 40) as f64]);
        assert_eq!(
            c.ops,
            vec![
                ARRAY, 2, //
                OBJECT, 0, STRING, 0, U32, 7, ARRAY, 2, STRING, 1, STRING, 0, TRUE, //
                OBJECT, 1, STRING, 2, NUMBER, 0, STRING, 3, ARRAY, 0, FALSE,
            ]
        );
    }

    #[test]
    fn a_lazy_value_carries_the_length_of_its_ops_through_a_splice() {
        let mut w = Writer::default();
        let shape = w.shape(&["n", "items", "ok"]);
        w.object(shape);
        w.number(2);
        let at = w.begin_lazy();
        w.array(2);
        let s = w.add_str("x");
        w.string(s);
        w.number(1 << 40);
        w.end_lazy(at);
        w.bool(true);
        let part = w.finish();
        assert_eq!(
            part.ops,
            vec![OBJECT, 0, U32, 2, LAZY, 6, ARRAY, 2, STRING, 0, NUMBER, 0, TRUE]
        );
        let mut asm = Assembler::new();
        asm.array(2);
        asm.serialize(&"y").unwrap();
        asm.splice(part);
        let whole = asm.finish();
        assert_eq!(&whole.ops[4..10], &[OBJECT, 0, U32, 2, LAZY, 6]);
        assert_eq!(
            to_json_value(&whole),
            serde_json::json!(["y", {"n": 2, "items": ["x", (1u64 << 40)], "ok": true}])
        );
    }

    #[test]
    fn assembled_parts_decode_to_the_whole() {
        let items = vec![
            Item { name: "a".into(), n: 7, note: None, tags: vec!["x".into()], ok: true },
            Item {
                name: JsStr::from_utf16(&[0x61, 0xD83D]),
                n: 1 << 40,
                note: Some("hi"),
                tags: vec!["a".into()],
                ok: false,
            },
        ];
        let mut asm = Assembler::new();
        asm.object(&["first", "rest", "n"]);
        asm.serialize(&items[0]).unwrap();
        asm.array(items.len());
        for item in &items {
            asm.splice(to_compact(item).unwrap());
        }
        asm.serialize(&(-1.5f64)).unwrap();
        let got = to_json_value(&asm.finish());
        let want = serde_json::json!({
            "first": serde_json::to_value(&items[0]).unwrap(),
            "rest": [
                serde_json::to_value(&items[0]).unwrap(),
                {"name": "a\u{FFFD}", "n": (1u64 << 40), "note": "hi", "tags": ["a"], "ok": false},
            ],
            "n": -1.5,
        });
        assert_eq!(got, want);
    }
}
