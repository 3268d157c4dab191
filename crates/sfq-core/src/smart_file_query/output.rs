//! smartFileQuery's payload serialised: whole (JSON or the decoded value),
//! or streamed to a writer as files are merged.

use serde::Serialize;

use super::collect::with_view;
use super::{SfqConfig, scan_files};
use crate::cancel::Cancel;
use crate::discovery::Candidate;
use crate::engine::Outcome;
use crate::error::Result;
use crate::file_view::FileView;
use crate::transport::Assembler;
use crate::{Encoded, Format};

/// The keys of [`Payload`], in order.
const PAYLOAD_KEYS: [&str; 4] = ["query", "results", "skipped", "aggregate"];
/// The keys of [`Payload`] with a hint.
const PAYLOAD_KEYS_WITH_HINT: [&str; 5] = ["query", "results", "skipped", "aggregate", "hint"];

/// Runs the query and serialises the payload in `format`, each matched file in
/// the worker that searched it. The bytes (or the decoded value) are exactly
/// those of serialising [`run`]'s payload.
pub fn run_encoded(config: &SfqConfig, cancel: &Cancel, format: Format) -> Result<Encoded> {
    match format {
        Format::Json => {
            let s = scan_files(config, cancel, config.max_result_bytes, |f| json(f), None, false)?;
            let mut out =
                Vec::with_capacity(s.results.iter().map(|r| r.len() + 1).sum::<usize>() + 4096);
            out.extend_from_slice(b"{\"query\":");
            out.extend(json(&config.echo())?);
            out.extend_from_slice(b",\"results\":[");
            for (i, r) in s.results.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(r);
            }
            out.extend_from_slice(b"],\"skipped\":");
            out.extend(json(&s.skipped)?);
            out.extend_from_slice(b",\"aggregate\":");
            out.extend(json(&s.aggregate)?);
            if let Some(hint) = config.hint_for(&s.aggregate) {
                out.extend_from_slice(b",\"hint\":");
                out.extend(json(&hint)?);
            }
            out.push(b'}');
            Ok(Encoded::Json(out))
        }
        Format::Compact => {
            // Each file is spliced in as it is merged, while the workers go
            // on, not after the scan: the payload's keys (with a hint or
            // not) and the results' length are filled in at the end.
            let mut asm = Assembler::new();
            let payload = asm.begin_object();
            asm.serialize(&config.echo()).map_err(|e| internal(&e))?;
            let results = asm.begin_array();
            let mut files = 0;
            let mut splice = |_: &Candidate, file: crate::transport::Compact| -> Result<()> {
                asm.splice(file);
                files += 1;
                Ok(())
            };
            let s = scan_files(
                config,
                cancel,
                config.max_result_bytes,
                |f| Ok(f.to_compact()),
                Some(&mut splice),
                false,
            )?;
            asm.end_array(results, files);
            let hint = config.hint_for(&s.aggregate);
            asm.end_object(
                payload,
                if hint.is_some() { &PAYLOAD_KEYS_WITH_HINT } else { &PAYLOAD_KEYS },
            );
            asm.serialize(&s.skipped).map_err(|e| internal(&e))?;
            asm.serialize(&s.aggregate).map_err(|e| internal(&e))?;
            if let Some(hint) = hint {
                asm.serialize(&hint).map_err(|e| internal(&e))?;
            }
            Ok(Encoded::Compact(asm.finish()))
        }
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
    let written = |e: std::io::Error| {
        // The reader gone is EPIPE on every platform (Windows says
        // ERROR_BROKEN_PIPE, `EOF`, or ERROR_NO_DATA, `EPIPE`).
        let code = if e.kind() == std::io::ErrorKind::BrokenPipe {
            "EPIPE"
        } else {
            crate::error::io_code(&e)
        };
        crate::error::Error::new(
            crate::error::ErrorCode::Io(code),
            format!("cannot write the output: {e}"),
        )
    };
    let mut started = false;
    let mut emit = |cand: &Candidate, file: Streamed| -> Result<()> {
        if started {
            out.write_all(b",").map_err(written)?;
        } else {
            out.write_all(b"{\"query\":").map_err(written)?;
            out.write_all(&echo).map_err(written)?;
            out.write_all(b",\"results\":[").map_err(written)?;
            started = true;
        }
        match file {
            Streamed::Bytes(bytes) => out.write_all(&bytes).map_err(written),
            Streamed::Deferred { limit, truncated } => {
                let out = &mut *out;
                let read = config.reader().read_unless(cand, &config.matcher);
                match with_view(config, cand, read, cancel, limit, truncated, |view| {
                    serde_json::to_writer(out, &view)
                }) {
                    Outcome::Matched(r) => r.map_err(|e| written(e.into())),
                    _ => Err(crate::error::Error::new(
                        crate::error::ErrorCode::Internal,
                        format!("{}: the file changed while it was searched", cand.rel()),
                    )),
                }
            }
        }
    };
    let encode = |view: &FileView| {
        if view.result_bytes() > STREAM_INLINE_BYTES {
            Ok(Streamed::Deferred { limit: view.match_count(), truncated: view.truncated() })
        } else {
            json(view).map(Streamed::Bytes)
        }
    };
    let s = scan_files(config, cancel, u64::MAX, encode, Some(&mut emit), true)?;
    if !started {
        out.write_all(b"{\"query\":").map_err(written)?;
        out.write_all(&echo).map_err(written)?;
        out.write_all(b",\"results\":[").map_err(written)?;
    }
    let skipped = json(&s.skipped)?;
    let mut aggregate = json(&s.aggregate)?;
    if let Some(hint) = config.hint_for(&s.aggregate) {
        aggregate.extend_from_slice(b",\"hint\":");
        aggregate.extend(json(&hint)?);
    }
    out.write_all(b"],\"skipped\":").map_err(written)?;
    out.write_all(&skipped).map_err(written)?;
    out.write_all(b",\"aggregate\":").map_err(written)?;
    out.write_all(&aggregate).map_err(written)?;
    out.write_all(b"}").map_err(written)?;
    out.flush().map_err(written)?;
    let mut summary = b"{\"query\":".to_vec();
    summary.extend(echo);
    summary.extend_from_slice(b",\"skipped\":");
    summary.extend(skipped);
    summary.extend_from_slice(b",\"aggregate\":");
    summary.extend(aggregate);
    summary.push(b'}');
    Ok(summary)
}

fn internal(e: &dyn std::fmt::Display) -> crate::error::Error {
    crate::error::Error::new(
        crate::error::ErrorCode::Internal,
        format!("cannot serialise the result: {e}"),
    )
}

/// `value` as minified JSON.
fn json<T: Serialize>(value: &T) -> Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(|e| internal(&e))
}
