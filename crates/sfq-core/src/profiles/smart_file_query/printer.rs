//! smartFileQuery's payload printed as the merge makes it, as ripgrep's
//! printers consume a search: one [`Printer`] interface, four printers
//! (the typed payload, JSON bytes, the compact transport, JSON streamed to
//! a writer with bounded memory). The scan encodes each matched file on
//! the worker that searched it ([`Printer::encode`]), hands the merged files
//! to [`Printer::file`] in path order, and the payload's tail (skipped,
//! aggregate, hint) to [`Printer::finish`]. Every printer gives the bytes of
//! serialising the typed payload.

use serde::Serialize;

use super::collect::{changed, scan_files, with_view};
use super::{Aggregate, Echo, Payload, SfqConfig, Skipped};
use crate::cancel::Cancel;
use crate::discovery::Candidate;
use crate::engine::Outcome;
use crate::error::{Error, ErrorCode, Result};
use crate::file_view::{FileResult, FileView};
use crate::transport::{Assembler, Compact};
use crate::{Encoded, Format};

/// Where smartFileQuery's payload goes, piece by piece.
pub(super) trait Printer {
    /// A matched file as a worker hands it to the merge.
    type File: Send;
    /// What the printer gives once the payload is whole.
    type Output;
    /// The most the results may take as JSON (`maxResultBytes`, or
    /// unbounded when the output is written as merged).
    fn budget(&self, config: &SfqConfig) -> u64 {
        config.max_result_bytes
    }
    /// Whether the workers keep few matches ahead of the merge (the output
    /// is written as merged, and memory should hold little more than it).
    fn paced(&self) -> bool {
        false
    }
    /// Encodes a matched file, on the worker that searched it.
    fn encode(view: &FileView) -> Result<Self::File>;
    /// Takes the next merged file (in path order).
    fn file(&mut self, cand: &Candidate, file: Self::File) -> Result<()>;
    /// Ends the payload with its tail.
    fn finish(self, tail: Tail) -> Result<Self::Output>;
}

/// The payload after its results.
pub(super) struct Tail {
    pub(super) skipped: Vec<Skipped>,
    pub(super) aggregate: Aggregate,
    pub(super) hint: Option<String>,
}

/// Runs the query, printing its payload with `printer`.
pub(super) fn print<P: Printer>(
    config: &SfqConfig,
    cancel: &Cancel,
    mut printer: P,
) -> Result<P::Output> {
    let budget = printer.budget(config);
    let paced = printer.paced();
    let mut emit = |cand: &Candidate, file: P::File| printer.file(cand, file);
    let s = scan_files(config, cancel, budget, P::encode, &mut emit, paced)?;
    let hint = config.hint_for(&s.aggregate);
    printer.finish(Tail { skipped: s.skipped, aggregate: s.aggregate, hint })
}

/// Runs the query: the typed payload.
pub fn run(config: &SfqConfig, cancel: &Cancel) -> Result<Payload> {
    print(config, cancel, Typed { query: config.echo(), results: Vec::new() })
}

/// Runs the query and serialises the payload in `format`, each matched file in
/// the worker that searched it. The bytes (or the decoded value) are exactly
/// those of serialising [`run`]'s payload.
pub fn run_encoded(config: &SfqConfig, cancel: &Cancel, format: Format) -> Result<Encoded> {
    match format {
        Format::Json => print(config, cancel, JsonBytes::new(&config.echo())?).map(Encoded::Json),
        Format::Compact => {
            print(config, cancel, CompactPrinter::new(&config.echo())?).map(Encoded::Compact)
        }
    }
}

/// Runs the query and writes the payload's JSON to `out` as the files are
/// merged (the same bytes as [`run_encoded`]'s JSON), so memory holds about
/// a file's result at a time, not the whole payload: a file whose result
/// takes more than [`STREAM_INLINE_BYTES`] is searched again when merged
/// and its JSON written match by match from its text (a match's context as
/// it is made; a minified line matched 200,000 times is written as 36 GB
/// with bounded memory). `maxResultBytes` does not apply: the output is as
/// large as asked for. Nothing is written before the first file is merged
/// (an error in discovery leaves `out` empty). Returns the payload without
/// its results, as JSON (`{"query","skipped","aggregate"}`), for the
/// caller's diagnostics. A write error is an error with the OS code
/// (`EPIPE` when the reader went away).
pub fn write_json(
    config: &SfqConfig,
    cancel: &Cancel,
    out: &mut dyn std::io::Write,
) -> Result<Vec<u8>> {
    let echo = json(&config.echo())?;
    print(config, cancel, Stream { config, cancel, out, echo, started: false })
}

/// The typed payload.
struct Typed {
    query: Echo,
    results: Vec<FileResult>,
}

impl Printer for Typed {
    type File = FileResult;
    type Output = Payload;

    fn encode(view: &FileView) -> Result<FileResult> {
        Ok(view.to_result())
    }

    fn file(&mut self, _: &Candidate, file: FileResult) -> Result<()> {
        self.results.push(file);
        Ok(())
    }

    fn finish(self, tail: Tail) -> Result<Payload> {
        let Tail { skipped, aggregate, hint } = tail;
        Ok(Payload { query: self.query, results: self.results, skipped, aggregate, hint })
    }
}

/// Minified JSON, with `JSON.stringify`'s exact bytes.
struct JsonBytes {
    out: Vec<u8>,
    files: usize,
}

impl JsonBytes {
    fn new(echo: &Echo) -> Result<JsonBytes> {
        let mut out = b"{\"query\":".to_vec();
        out.extend(json(echo)?);
        out.extend_from_slice(b",\"results\":[");
        Ok(JsonBytes { out, files: 0 })
    }
}

impl Printer for JsonBytes {
    type File = Vec<u8>;
    type Output = Vec<u8>;

    fn encode(view: &FileView) -> Result<Vec<u8>> {
        json(view)
    }

    fn file(&mut self, _: &Candidate, file: Vec<u8>) -> Result<()> {
        if self.files > 0 {
            self.out.push(b',');
        }
        self.files += 1;
        self.out.extend_from_slice(&file);
        Ok(())
    }

    fn finish(mut self, tail: Tail) -> Result<Vec<u8>> {
        self.out.push(b']');
        self.out.extend(json_tail(&tail)?);
        self.out.push(b'}');
        Ok(self.out)
    }
}

/// The compact transport: each file spliced in as it is merged, while the
/// workers go on; the payload's keys (with a hint or not) and the results'
/// length are filled in at the end.
struct CompactPrinter {
    asm: Assembler,
    payload: usize,
    results: usize,
    files: usize,
}

impl CompactPrinter {
    fn new(echo: &Echo) -> Result<CompactPrinter> {
        let mut asm = Assembler::new();
        let payload = asm.begin_object();
        asm.serialize(echo).map_err(|e| internal(&e))?;
        let results = asm.begin_array();
        Ok(CompactPrinter { asm, payload, results, files: 0 })
    }
}

/// The keys of [`Payload`], in order.
const PAYLOAD_KEYS: [&str; 4] = ["query", "results", "skipped", "aggregate"];
/// The keys of [`Payload`] with a hint.
const PAYLOAD_KEYS_WITH_HINT: [&str; 5] = ["query", "results", "skipped", "aggregate", "hint"];

impl Printer for CompactPrinter {
    type File = Compact;
    type Output = Compact;

    fn encode(view: &FileView) -> Result<Compact> {
        Ok(view.to_compact())
    }

    fn file(&mut self, _: &Candidate, file: Compact) -> Result<()> {
        self.asm.splice(file);
        self.files += 1;
        Ok(())
    }

    fn finish(mut self, tail: Tail) -> Result<Compact> {
        let asm = &mut self.asm;
        asm.end_array(self.results, self.files);
        let keys = if tail.hint.is_some() { &PAYLOAD_KEYS_WITH_HINT[..] } else { &PAYLOAD_KEYS };
        asm.end_object(self.payload, keys);
        asm.serialize(&tail.skipped).map_err(|e| internal(&e))?;
        asm.serialize(&tail.aggregate).map_err(|e| internal(&e))?;
        if let Some(hint) = &tail.hint {
            asm.serialize(hint).map_err(|e| internal(&e))?;
        }
        Ok(self.asm.finish())
    }
}

/// A file's JSON results as a streamed scan's workers hand them to the
/// merge: serialised, or, past [`STREAM_INLINE_BYTES`], only what the
/// merge needs to search the file again and write its JSON straight to the
/// output, match by match.
enum Streamed {
    /// The file's JSON.
    Bytes(Vec<u8>),
    /// Searched again when merged: for this many matches, cut or not.
    Deferred { limit: usize, truncated: bool },
}

/// Largest file result a streamed scan's worker serialises ahead of the
/// merge (larger ones are written by the merge as they are made).
pub(super) const STREAM_INLINE_BYTES: u64 = 1 << 20;

/// JSON written to a writer as the files are merged ([`write_json`]).
struct Stream<'a> {
    config: &'a SfqConfig,
    cancel: &'a Cancel,
    out: &'a mut dyn std::io::Write,
    /// The query's echo, as JSON.
    echo: Vec<u8>,
    /// Whether the payload's head is written.
    started: bool,
}

impl Stream<'_> {
    /// Writes `bytes`; a failed write is an error with the OS code.
    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes).map_err(written)
    }

    /// Writes the payload's head, once.
    fn start(&mut self) -> Result<()> {
        if !self.started {
            self.started = true;
            self.write(b"{\"query\":")?;
            self.out.write_all(&self.echo).map_err(written)?;
            self.write(b",\"results\":[")?;
        }
        Ok(())
    }
}

impl Printer for Stream<'_> {
    type File = Streamed;
    type Output = Vec<u8>;

    fn budget(&self, _: &SfqConfig) -> u64 {
        u64::MAX
    }

    fn paced(&self) -> bool {
        true
    }

    fn encode(view: &FileView) -> Result<Streamed> {
        if view.result_bytes() > STREAM_INLINE_BYTES {
            Ok(Streamed::Deferred { limit: view.match_count(), truncated: view.truncated() })
        } else {
            json(view).map(Streamed::Bytes)
        }
    }

    fn file(&mut self, cand: &Candidate, file: Streamed) -> Result<()> {
        if self.started {
            self.write(b",")?;
        }
        self.start()?;
        match file {
            Streamed::Bytes(bytes) => self.write(&bytes),
            Streamed::Deferred { limit, truncated } => {
                let (config, cancel, out) = (self.config, self.cancel, &mut *self.out);
                let read = config.reader().read_unless(cand, &config.matcher);
                match with_view(config, cand, read, cancel, limit, truncated, |view| {
                    serde_json::to_writer(out, &view)
                }) {
                    Outcome::Matched(r) => r.map_err(|e| written(e.into())),
                    _ => Err(changed(cand)),
                }
            }
        }
    }

    fn finish(mut self, tail: Tail) -> Result<Vec<u8>> {
        self.start()?;
        let rest = json_tail(&tail)?;
        self.write(b"]")?;
        self.write(&rest)?;
        self.write(b"}")?;
        self.out.flush().map_err(written)?;
        let mut summary = b"{\"query\":".to_vec();
        summary.append(&mut self.echo);
        summary.extend(rest);
        summary.push(b'}');
        Ok(summary)
    }
}

/// `,"skipped":…,"aggregate":…[,"hint":…]`: the payload after its results.
fn json_tail(tail: &Tail) -> Result<Vec<u8>> {
    let mut out = b",\"skipped\":".to_vec();
    out.extend(json(&tail.skipped)?);
    out.extend_from_slice(b",\"aggregate\":");
    out.extend(json(&tail.aggregate)?);
    if let Some(hint) = &tail.hint {
        out.extend_from_slice(b",\"hint\":");
        out.extend(json(hint)?);
    }
    Ok(out)
}

/// A failed write to the output, with the OS code (the reader gone is
/// `EPIPE` on every platform: Windows says ERROR_BROKEN_PIPE, `EOF`, or
/// ERROR_NO_DATA, `EPIPE`).
fn written(e: std::io::Error) -> Error {
    let code = if e.kind() == std::io::ErrorKind::BrokenPipe {
        "EPIPE"
    } else {
        crate::error::io_code(&e)
    };
    Error::new(ErrorCode::Io(code), format!("cannot write the output: {e}"))
}

fn internal(e: &dyn std::fmt::Display) -> Error {
    Error::new(ErrorCode::Internal, format!("cannot serialise the result: {e}"))
}

/// `value` as minified JSON.
fn json<T: Serialize>(value: &T) -> Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(|e| internal(&e))
}
