//! Why a pattern has no exact translation.

use std::fmt;

/// Why [`FastRegex::is_exact`](crate::FastRegex::is_exact) is `false`: the first construct
/// met that `regex-automata` cannot express with JavaScript's meaning (every line then goes
/// to the exact engine; the prefilter still applies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Inexact {
    /// `(?=…)`, `(?!…)`, `(?<=…)` or `(?<!…)`: no lookaround in `regex-automata`.
    Lookaround,
    /// `\1` or `\k<name>`: no backreferences in `regex-automata`.
    BackReference,
    /// A quantifier with `min < max` over a body that can match the empty string: JavaScript
    /// rejects an iteration beyond the minimum that matches empty (`/(?:|a)*/` finds `"aa"`
    /// in `"aa"`), `regex-automata` does not (it finds `""`).
    EmptyIteration,
    /// The `y` flag: a match must start exactly where the previous one ended.
    Sticky,
    /// The pattern may trigger a V8 11.3 bug that even the exact engine does not
    /// reproduce: a [`sfq_regex::ast::V8Quirk`], or (with `v`) a class of every code point
    /// (`[^]`) in a pattern with `$` (no `m`): V8 11.3 never matches `/[^]$/v`.
    V8Quirk,
    /// The translation exceeds `regex-automata`'s size limits, or the pattern nests more
    /// than 64 levels deep.
    TooLarge,
}

impl fmt::Display for Inexact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Inexact::Lookaround => "lookaround",
            Inexact::BackReference => "backreference",
            Inexact::EmptyIteration => "quantified body that can match empty",
            Inexact::Sticky => "sticky flag",
            Inexact::V8Quirk => "V8 quirk",
            Inexact::TooLarge => "too large",
        })
    }
}
