//! Test-only failure injection. Setting `SMART_FILE_QUERY_FAILPOINT=<name>`
//! in the environment makes the named point panic, so the tests can prove
//! that a panic anywhere in the engine (worker threads included) reaches
//! Node as an `EINTERNAL` error and never as a crash.

//! A point whose name is tested with [`armed`] instead changes behaviour
//! (`watch-overflow`: every drain of a session's watcher reports a lost
//! event, for the sessions' differential suite).

use std::sync::OnceLock;

/// Whether the environment names `point`.
pub fn armed(point: &str) -> bool {
    static ARMED: OnceLock<Option<String>> = OnceLock::new();
    let armed = ARMED.get_or_init(|| std::env::var("SMART_FILE_QUERY_FAILPOINT").ok());
    armed.as_deref() == Some(point)
}

/// Panics when the environment names `point`.
pub fn hit(point: &str) {
    if armed(point) {
        panic!("failpoint '{point}' triggered (SMART_FILE_QUERY_FAILPOINT)");
    }
}
