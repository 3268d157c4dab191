//! Test-only failure injection. Setting `SMART_FILE_QUERY_FAILPOINT=<name>`
//! in the environment makes the named point panic, so the tests can prove
//! that a panic anywhere in the engine (worker threads included) reaches
//! Node as an `EINTERNAL` error and never as a crash.

use std::sync::OnceLock;

/// Panics when the environment names `point`.
pub fn hit(point: &str) {
    static ARMED: OnceLock<Option<String>> = OnceLock::new();
    let armed = ARMED.get_or_init(|| std::env::var("SMART_FILE_QUERY_FAILPOINT").ok());
    if armed.as_deref() == Some(point) {
        panic!("failpoint '{point}' triggered (SMART_FILE_QUERY_FAILPOINT)");
    }
}
