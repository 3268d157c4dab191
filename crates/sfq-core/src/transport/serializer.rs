//! serde's `Serializer` for the compact form.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use rustc_hash::FxHasher;

use serde::ser::{self, Serialize};

use super::*;

#[derive(Default)]
pub(super) struct Serializer {
    pub(super) out: Compact,
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
                self.out.shapes.push(Shape::Owned(self.key_stack[from..].to_vec()));
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
pub(super) struct Compound<'a> {
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
