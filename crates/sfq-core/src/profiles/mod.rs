//! The profiles: one module per API (or family of APIs), each its options
//! table, its validated config and its work over the shared machinery
//! (discovery, the engine, the matcher, the reader, the result models).
//! They differ in defaults, not in machinery.

pub(crate) mod agent;
pub(crate) mod explore;
pub(crate) mod find_files;
pub(crate) mod glob_files;
pub(crate) mod outline;
pub(crate) mod smart_file_query;
