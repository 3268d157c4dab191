//! Compact values written operation by operation ([`Writer`]), and one
//! value assembled from parts serialised apart ([`Assembler`]).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Mutex;

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
    /// dozen reallocations, under the allocator's lock). Its buffers are a
    /// spliced part's when one is spare (see [`Assembler::splice`]).
    pub fn with_capacity(ops: usize, strings: usize, units: usize) -> Writer {
        let mut out = spare(ops, units).unwrap_or_default();
        out.ops.reserve(ops);
        out.strings.reserve(units);
        out.ends.reserve(strings);
        Writer { out }
    }

    /// Registers an object shape (its keys, in order); returns its id.
    pub fn shape(&mut self, keys: &'static [&'static str]) -> u32 {
        self.out.shapes.push(Shape::Borrowed(keys));
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
    shape_ids: HashMap<Shape, u32, BuildHasherDefault<FxHasher>>,
    /// Lent shapes seen, by address: a part's shapes are found without
    /// hashing their keys.
    lent: Vec<(&'static [&'static str], u32)>,
    /// A part's shape ids in the whole, reused from part to part.
    ids: Vec<u32>,
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

    /// Appends a value serialised separately (by [`to_compact`] or a
    /// [`Writer`]); its buffers are then kept for the next writer (parts are
    /// written on workers and spliced on the calling thread: freeing them
    /// here took the worker's allocator lock at every part, and each thread
    /// waited on the other).
    pub fn splice(&mut self, part: Compact) {
        let string_base = self.out.ends.len() as u32;
        let unit_base = self.out.strings.len() as u32;
        let number_base = self.out.numbers.len() as u32;
        let mut shapes = std::mem::take(&mut self.ids);
        shapes.clear();
        shapes.extend(part.shapes.iter().map(|keys| self.part_shape_id(keys)));
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
        self.ids = shapes;
        keep_spare(part);
    }

    /// The assembled value.
    pub fn finish(self) -> Compact {
        self.out
    }

    fn shape_id(&mut self, keys: &[&'static str]) -> u32 {
        if let Some(&(_, id)) = self.lent.iter().find(|(k, _)| std::ptr::eq(*k, keys)) {
            return id;
        }
        if let Some(&id) = self.shape_ids.get(keys) {
            return id;
        }
        let id = self.out.shapes.len() as u32;
        self.out.shapes.push(Shape::Owned(keys.to_vec()));
        self.shape_ids.insert(Shape::Owned(keys.to_vec()), id);
        id
    }

    /// [`Assembler::shape_id`] of a part's shape, remembering a lent one by
    /// its address.
    fn part_shape_id(&mut self, keys: &Shape) -> u32 {
        let id = self.shape_id(keys);
        if let Shape::Borrowed(k) = keys
            && self.lent.len() < LENT_MAX
            && !self.lent.iter().any(|(l, _)| std::ptr::eq(*l, *k))
        {
            self.lent.push((k, id));
        }
        id
    }
}

/// Lent shapes an assembler remembers by address (a result has a handful).
const LENT_MAX: usize = 16;

/// Spliced parts' buffers, emptied, for the next writers: at most
/// [`SPARES_MAX`] of at most [`SPARE_BYTES_MAX`] each (a few MiB held
/// between calls at most).
static SPARES: Mutex<Vec<Compact>> = Mutex::new(Vec::new());
const SPARES_MAX: usize = 32;
const SPARE_BYTES_MAX: usize = 64 << 10;

/// A spare part's buffers, if one is there and no other thread holds the
/// list (then a writer allocates its own): one with room for `ops`
/// operations and `units` code units if there is one (growing a spare
/// copies its whole old buffer), else the last kept.
fn spare(ops: usize, units: usize) -> Option<Compact> {
    let mut spares = SPARES.try_lock().ok()?;
    let fits = |c: &Compact| c.ops.capacity() >= ops && c.strings.capacity() >= units;
    match spares.iter().rposition(fits) {
        Some(i) => Some(spares.swap_remove(i)),
        None => spares.pop(),
    }
}

/// Keeps `part`'s buffers, emptied, for a later writer; frees them when it
/// is large, the list is full or another thread holds it.
fn keep_spare(mut part: Compact) {
    let bytes = part.ops.capacity() * 4
        + part.numbers.capacity() * 8
        + part.strings.capacity() * 2
        + part.ends.capacity() * 4;
    if bytes > SPARE_BYTES_MAX {
        return;
    }
    part.ops.clear();
    part.numbers.clear();
    part.strings.clear();
    part.ends.clear();
    part.shapes.clear();
    if let Ok(mut spares) = SPARES.try_lock()
        && spares.len() < SPARES_MAX
    {
        spares.push(part);
    }
}
