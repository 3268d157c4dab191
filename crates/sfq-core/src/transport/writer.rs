//! Compact values written operation by operation ([`Writer`]), and one
//! value assembled from parts serialised apart ([`Assembler`]).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use rustc_hash::FxHasher;

use serde::ser::Serialize;

use super::*;

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
