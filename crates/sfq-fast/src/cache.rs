//! Explicit search caches, for callers that search many texts on one thread.

use regex_automata::meta;

use crate::FastRegex;

/// The mutable scratch space of the searches of one [`FastRegex`] (lazy DFA states and
/// the like). The plain methods take one from an internal pool on each call; a caller
/// searching line after line can keep one per thread and use the `*_with` methods. A cache
/// made for another `FastRegex` is replaced, never misused.
#[derive(Debug, Clone)]
pub struct Cache {
    owner: u64,
    pub(crate) exact: Option<meta::Cache>,
    pub(crate) prefilter: Option<meta::Cache>,
}

impl Cache {
    pub(crate) fn new(re: &FastRegex) -> Cache {
        Cache {
            owner: re.id,
            exact: re.exact.as_ref().ok().map(meta::Regex::create_cache),
            prefilter: re.prefilter.as_ref().map(|p| p.regex.create_cache()),
        }
    }

    /// Makes the cache one for `re`.
    pub(crate) fn fit(&mut self, re: &FastRegex) {
        if self.owner != re.id {
            *self = Cache::new(re);
        }
    }
}
