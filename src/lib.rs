//! The napi binding of smart-file-query: thin exports over `sfq-core`.
//!
//! Every export converts its arguments, calls the core inside
//! `catch_unwind`, and returns an [`Outcome`]: the result as JSON bytes, or
//! an error `code` and `message`. Errors travel as data so that the sync and
//! async forms behave the same; the JS wrapper (`index.js`) turns them into
//! `Error` objects with a `code` property. Nothing here panics into Node.
#![deny(missing_docs)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use napi::bindgen_prelude::{
    AsyncTask, BufferSlice, Float64ArraySlice, Uint32ArraySlice, Utf16String,
};
use napi::{Env, Task};
use napi_derive::napi;
use sfq_core::{Cancel, Command, Encoded, Format, Progress};

/// A result in the compact transport (decoded by `lib/decode.js`; the
/// format is documented in `sfq_core::transport`).
///
/// The arrays are copies in memory V8 owns (not views of Rust vectors): V8
/// frees them with the garbage it collects, while the finalizers of external
/// buffers wait for the event loop, so a loop of synchronous calls that
/// never yields would keep every result's native memory.
#[napi(object, object_from_js = false)]
pub struct CompactResult<'env> {
    /// The operation stream.
    pub ops: Uint32ArraySlice<'env>,
    /// Numbers that do not fit in `u32`.
    pub numbers: Float64ArraySlice<'env>,
    /// Every distinct string, concatenated.
    pub strings: Utf16String,
    /// End offset of each string in `strings`.
    pub ends: Uint32ArraySlice<'env>,
    /// Object shapes (their keys, in order) as JSON.
    pub shapes: String,
}

/// What a native call produced: `json` or `compact` on success, else `code`
/// and `message`.
#[napi(object, object_from_js = false)]
pub struct Outcome<'env> {
    /// The result as UTF-8 JSON (minified, `JSON.stringify`'s bytes), in a
    /// buffer V8 owns.
    pub json: Option<BufferSlice<'env>>,
    /// The result in the compact transport (when asked for).
    pub compact: Option<CompactResult<'env>>,
    /// The error code (`EINVALIDOPTION`, `EINVALIDREGEX`, `ENOENT`, …).
    pub code: Option<String>,
    /// The error message.
    pub message: Option<String>,
}

type CoreOutcome = Result<Encoded, (String, String)>;

impl Outcome<'static> {
    /// The JS value of a core outcome, its bytes copied into memory V8 owns.
    fn new(env: &Env, r: CoreOutcome) -> napi::Result<Outcome<'static>> {
        let empty = Outcome { json: None, compact: None, code: None, message: None };
        Ok(match r {
            Ok(Encoded::Json(json)) => {
                Outcome { json: Some(BufferSlice::copy_from(env, json)?), ..empty }
            }
            Ok(Encoded::Compact(c)) => {
                let shapes = serde_json::to_string(&c.shapes).unwrap_or_else(|_| "[]".to_string());
                let compact = CompactResult {
                    ops: Uint32ArraySlice::copy_from(env, &c.ops)?,
                    numbers: Float64ArraySlice::copy_from(env, &c.numbers)?,
                    strings: c.strings.into(),
                    ends: Uint32ArraySlice::copy_from(env, &c.ends)?,
                    shapes,
                };
                Outcome { compact: Some(compact), ..empty }
            }
            Err((code, message)) => Outcome { code: Some(code), message: Some(message), ..empty },
        })
    }
}

/// A cancellation flag shared by the JS wrapper (which sets it when the
/// caller's `AbortSignal` fires or its timer expires) and the worker.
#[napi]
pub struct CancelToken {
    flag: Arc<AtomicBool>,
    progress: Arc<Progress>,
}

#[napi]
impl CancelToken {
    /// A token that is not cancelled.
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> CancelToken {
        CancelToken { flag: Arc::new(AtomicBool::new(false)), progress: Arc::default() }
    }

    /// Asks the work observing this token to stop.
    #[napi]
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether `cancel()` was called.
    #[napi(getter)]
    pub fn cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// The running call's progress: `[filesTotal, filesDone, matches]`
    /// (candidate files known so far, files handled, matches found).
    #[napi(getter)]
    pub fn progress(&self) -> Vec<f64> {
        self.progress.snapshot().iter().map(|&n| n as f64).collect()
    }

    /// The first matches found so far (at most 10, in result order), as JSON
    /// `[{path, line, text}]`.
    #[napi(getter)]
    pub fn first_hits(&self) -> String {
        serde_json::to_string(&self.progress.first_hits()).unwrap_or_else(|_| "[]".into())
    }
}

/// One native call: what to run and how to hand the result back.
struct Request {
    command: Result<Command, sfq_core::Error>,
    options: String,
    pattern: Option<Vec<u16>>,
    flag: Arc<AtomicBool>,
    progress: Arc<Progress>,
    started: Instant,
    format: Format,
    /// `smartFileQuery` written to the process's stdout as it is merged
    /// (the result is then the payload without `results`).
    to_stdout: bool,
    /// The session the call is made on (else a cold call).
    session: Option<Arc<sfq_core::Session>>,
}

impl Request {
    fn new(
        kind: String,
        options: String,
        pattern: Option<Utf16String>,
        flag: Arc<AtomicBool>,
        progress: Arc<Progress>,
        compact: Option<bool>,
    ) -> Request {
        let format = if compact == Some(true) { Format::Compact } else { Format::Json };
        Request {
            command: Command::parse(&kind),
            options,
            pattern: pattern.map(|p| p.to_vec()),
            flag,
            progress,
            started: Instant::now(),
            format,
            to_stdout: false,
            session: None,
        }
    }

    /// Runs the core with panics turned into `EINTERNAL`.
    fn run(&mut self) -> CoreOutcome {
        let (command, options, pattern) =
            (self.command.clone(), &self.options, self.pattern.take());
        let base =
            Cancel::new(self.flag.clone(), self.started).with_progress(self.progress.clone());
        let format = self.format;
        let to_stdout = self.to_stdout;
        let session = self.session.clone();
        match catch_unwind(AssertUnwindSafe(|| {
            if let Some(session) = session {
                return session.query(command?, options, pattern, base, format);
            }
            if to_stdout {
                let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout::Stdout);
                return sfq_core::query_to_writer(options, pattern, base, &mut out)
                    .map(Encoded::Json);
            }
            sfq_core::query_encoded(command?, options, pattern, base, format)
        })) {
            Ok(Ok(encoded)) => Ok(encoded),
            Ok(Err(e)) => Err((e.code().as_str().to_string(), e.message().to_string())),
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                Err((
                    "EINTERNAL".to_string(),
                    format!("internal error in smart-file-query (please report it): {what}"),
                ))
            }
        }
    }
}

/// Runs query `kind` on the calling thread; `compact` asks for the compact
/// transport instead of JSON.
#[napi]
pub fn query_sync(
    env: Env,
    kind: String,
    options: String,
    pattern: Option<Utf16String>,
    compact: Option<bool>,
) -> napi::Result<Outcome<'static>> {
    let out = Request::new(kind, options, pattern, Arc::default(), Arc::default(), compact).run();
    Outcome::new(&env, out)
}

/// The work of [`query`], run on the libuv thread pool.
pub struct QueryTask(Request);

#[napi]
impl Task for QueryTask {
    type Output = CoreOutcome;
    type JsValue = Outcome<'static>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(self.0.run())
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        Outcome::new(&env, output)
    }
}

/// Runs query `kind` off the JS thread; `token` cancels it; `compact` asks
/// for the compact transport instead of JSON.
#[napi]
pub fn query(
    kind: String,
    options: String,
    pattern: Option<Utf16String>,
    token: &CancelToken,
    compact: Option<bool>,
) -> AsyncTask<QueryTask> {
    query_task(kind, options, pattern, token, compact, None)
}

/// A query's task, on `session` when given.
fn query_task(
    kind: String,
    options: String,
    pattern: Option<Utf16String>,
    token: &CancelToken,
    compact: Option<bool>,
    session: Option<Arc<sfq_core::Session>>,
) -> AsyncTask<QueryTask> {
    let mut request =
        Request::new(kind, options, pattern, token.flag.clone(), token.progress.clone(), compact);
    request.session = session;
    AsyncTask::new(QueryTask(request))
}

/// Runs `smartFileQuery` off the JS thread writing its JSON straight to the
/// process's stdout (fd 1) as the files are merged: the CLI's output, with
/// memory bounded by one file's result instead of the whole payload. The
/// caller must not have written to `process.stdout` (nothing is buffered
/// there). Resolves to the payload without `results` as JSON; a closed
/// reader is the error `EPIPE`.
#[napi]
pub fn query_to_stdout(
    options: String,
    pattern: Option<Utf16String>,
    token: &CancelToken,
) -> AsyncTask<QueryTask> {
    let mut request = Request::new(
        "smartFileQuery".to_string(),
        options,
        pattern,
        token.flag.clone(),
        token.progress.clone(),
        None,
    );
    request.to_stdout = true;
    AsyncTask::new(QueryTask(request))
}

/// A session (`openSession`): a tree opened once, whose calls read file
/// contents the session holds while their stamps prove them fresh.
#[napi]
pub struct NativeSession {
    inner: Arc<sfq_core::Session>,
}

#[napi]
impl NativeSession {
    /// Opens a session with `options` (JSON: `cwd`, `memoryBudgetMB`,
    /// `threads`); throws `CODE: message` on bad options.
    #[napi(factory)]
    pub fn open(options: String) -> napi::Result<NativeSession> {
        match catch_unwind(AssertUnwindSafe(|| sfq_core::Session::open(&options))) {
            Ok(Ok(session)) => Ok(NativeSession { inner: Arc::new(session) }),
            Ok(Err(e)) => {
                Err(napi::Error::from_reason(format!("{}: {}", e.code().as_str(), e.message())))
            }
            Err(_) => Err(napi::Error::from_reason("EINTERNAL: openSession panicked")),
        }
    }

    /// [`query`] on this session.
    #[napi]
    pub fn query(
        &self,
        kind: String,
        options: String,
        pattern: Option<Utf16String>,
        token: &CancelToken,
        compact: Option<bool>,
    ) -> AsyncTask<QueryTask> {
        query_task(kind, options, pattern, token, compact, Some(self.inner.clone()))
    }

    /// [`query_sync`] on this session.
    #[napi]
    pub fn query_sync(
        &self,
        env: Env,
        kind: String,
        options: String,
        pattern: Option<Utf16String>,
        compact: Option<bool>,
    ) -> napi::Result<Outcome<'static>> {
        let mut request =
            Request::new(kind, options, pattern, Arc::default(), Arc::default(), compact);
        request.session = Some(self.inner.clone());
        Outcome::new(&env, request.run())
    }

    /// What the session holds and how its last call went, as JSON.
    #[napi]
    pub fn stats(&self) -> String {
        serde_json::to_string(&self.inner.stats()).unwrap_or_else(|_| "{}".into())
    }

    /// Frees what the session holds; later calls fail with `ESESSIONCLOSED`.
    #[napi]
    pub fn close(&self) {
        self.inner.close();
    }
}

/// The project configuration (`.smart-file-query.json` at the root, else
/// `.jaato/filesystem_query.json`) as the engine reads it for `globFiles`
/// and `grepContent`: each key the file sets, validated; none when no file
/// exists.
#[napi(object, object_from_js = false)]
pub struct ProjectConfig {
    /// The file read (absent when neither file exists).
    pub file: Option<String>,
    /// `version`.
    pub version: Option<String>,
    /// `exclude_patterns`.
    pub exclude_patterns: Option<Vec<String>>,
    /// `exclude_mode`.
    #[napi(ts_type = "'extend' | 'replace'")]
    pub exclude_mode: Option<String>,
    /// `include_patterns`.
    pub include_patterns: Option<Vec<String>>,
    /// `max_results` (1 to 10,000,000).
    pub max_results: Option<u32>,
    /// `max_file_size_kb` (1 to 1,048,576).
    pub max_file_size_kb: Option<u32>,
    /// `timeout_seconds` (1 to 86,400).
    pub timeout_seconds: Option<u32>,
    /// `context_lines` (0 to 20).
    pub context_lines: Option<u32>,
}

impl From<sfq_core::ProjectConfig> for ProjectConfig {
    fn from(c: sfq_core::ProjectConfig) -> ProjectConfig {
        use sfq_core::ExcludeMode;
        // Every integer key is validated to a range well inside `u32`.
        let int = |n: Option<u64>| n.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
        ProjectConfig {
            file: c.file.map(|f| sfq_core::shown_path(&f)),
            version: c.version,
            exclude_patterns: c.exclude_patterns,
            exclude_mode: c.exclude_mode.map(|m| {
                match m {
                    ExcludeMode::Extend => "extend",
                    ExcludeMode::Replace => "replace",
                }
                .to_string()
            }),
            include_patterns: c.include_patterns,
            max_results: int(c.max_results),
            max_file_size_kb: int(c.max_file_size_kb),
            timeout_seconds: int(c.timeout_seconds),
            context_lines: int(c.context_lines),
        }
    }
}

/// Reads the project configuration of the directory `root` as `globFiles`
/// and `grepContent` do (the file is read anew at every call). Throws an
/// `Error` whose `code` is `EINVALIDCONFIG` (the message names the file and
/// the key) when the file cannot be read, is not a JSON object, has an
/// unknown key or a value of the wrong type or range.
#[napi]
pub fn project_config_sync(root: String) -> napi::Result<ProjectConfig, String> {
    let load = || sfq_core::ProjectConfig::load(std::path::Path::new(&root));
    match catch_unwind(AssertUnwindSafe(load)) {
        Ok(Ok(config)) => Ok(config.into()),
        Ok(Err(e)) => Err(napi::Error::new(e.code().as_str().to_string(), e.message().to_string())),
        Err(_) => Err(napi::Error::new(
            "EINTERNAL".to_string(),
            "internal error in smart-file-query (please report it): projectConfigSync panicked"
                .to_string(),
        )),
    }
}

/// What [`engine_count_sync`] measured.
#[napi(object, object_from_js = false)]
pub struct EngineCount {
    /// Matches found (at most the cap; 0 when the budget ran out).
    pub count: u32,
    /// The regex's compile and the search, in milliseconds (measured in Rust).
    pub ms: f64,
    /// The per-text time budget ran out (no count is reported).
    pub budget_exceeded: bool,
}

/// Bench and tests (not part of the package's API): compiles `pattern` with
/// `flags` as a search does and counts its matches in `text` line by line,
/// up to `cap`, with `timeout_ms` of backtracking (default 1 s): the
/// product's regex search alone, without files or results, which
/// `bench/regex.mjs` times against V8's exec loop over the same lines.
#[napi]
pub fn engine_count_sync(
    pattern: Utf16String,
    flags: String,
    text: Utf16String,
    cap: u32,
    timeout_ms: Option<u32>,
) -> napi::Result<EngineCount> {
    let text = sfq_core::FileText::from_utf16(text.to_vec());
    let pattern = pattern.to_vec();
    let run = || {
        let t = Instant::now();
        let matcher = sfq_core::Matcher::new(&pattern, &flags, sfq_core::MatchMode::Lines)?
            .with_timeout(timeout_ms.map(u64::from));
        let counted = sfq_core::count_matches(&text, &matcher, cap.max(1) as usize);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        Ok::<_, sfq_core::Error>(match counted {
            Ok(n) => EngineCount { count: n as u32, ms, budget_exceeded: false },
            Err(_) => EngineCount { count: 0, ms, budget_exceeded: true },
        })
    };
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(counted)) => Ok(counted),
        Ok(Err(e)) => {
            Err(napi::Error::from_reason(format!("{}: {}", e.code().as_str(), e.message())))
        }
        Err(_) => Err(napi::Error::from_reason("EINTERNAL: engine_count_sync panicked")),
    }
}

/// The process's standard output as the core writes to it.
mod stdout {
    /// fd 1, written directly with blocking semantics: Node may have made a
    /// pipe non-blocking, so a full pipe is waited on (`poll`) rather than
    /// reported.
    pub struct Stdout;

    #[cfg(unix)]
    impl std::io::Write for Stdout {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            loop {
                // SAFETY: writes `buf.len()` bytes from a valid slice to fd 1.
                let n = unsafe { libc::write(1, buf.as_ptr().cast(), buf.len()) };
                if n >= 0 {
                    return Ok(n as usize);
                }
                let e = std::io::Error::last_os_error();
                match e.kind() {
                    std::io::ErrorKind::Interrupted => {}
                    std::io::ErrorKind::WouldBlock => {
                        let mut fd = libc::pollfd { fd: 1, events: libc::POLLOUT, revents: 0 };
                        // SAFETY: one valid pollfd; a timeout bounds the wait.
                        unsafe { libc::poll(&mut fd, 1, 1000) };
                    }
                    _ => return Err(e),
                }
            }
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[cfg(not(unix))]
    impl std::io::Write for Stdout {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            std::io::Write::write(&mut std::io::stdout(), buf)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            std::io::Write::flush(&mut std::io::stdout())
        }
    }
}

/// Bench-only (`--features crossing-bench`): runs a query once and hands
/// the result over both ways — JSON bytes and JS objects built through
/// napi's serde serializer — with the time each step took in Rust.
#[cfg(feature = "crossing-bench")]
#[napi]
pub fn crossing_bench_sync(
    env: Env,
    kind: String,
    options: String,
) -> napi::Result<napi::bindgen_prelude::Object<'static>> {
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let out = sfq_core::query_output(
        Command::parse(&kind).map_err(|e| napi::Error::from_reason(e.to_string()))?,
        &options,
        None,
        Cancel::default(),
    )
    .map_err(|e| napi::Error::from_reason(e.to_string()))?;
    let search_ms = ms(t);
    let t = Instant::now();
    let json = serde_json::to_vec(&out).map_err(|e| napi::Error::from_reason(e.to_string()))?;
    let serialise_ms = ms(t);
    let t = Instant::now();
    let compact =
        sfq_core::to_compact(&out).map_err(|e| napi::Error::from_reason(e.to_string()))?;
    let compact_ms = ms(t);
    let t = Instant::now();
    let objects = env.to_js_value(&out)?;
    let build_ms = ms(t);
    let mut o = napi::bindgen_prelude::Object::new(&env)?;
    o.set("searchMs", search_ms)?;
    o.set("serialiseMs", serialise_ms)?;
    o.set("buildMs", build_ms)?;
    o.set("compactMs", compact_ms)?;
    let compact = Outcome::new(&env, Ok(Encoded::Compact(compact)))?;
    o.set("compact", compact.compact)?;
    o.set("json", napi::bindgen_prelude::Buffer::from(json))?;
    o.set("objects", objects)?;
    Ok(o)
}
