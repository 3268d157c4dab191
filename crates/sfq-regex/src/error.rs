//! Errors: invalid flags and invalid patterns, worded exactly as V8 words them; and the
//! error a search returns when its [`Budget`](crate::Budget) runs out.

use std::fmt;

use crate::flags::Flags;

/// Why a pattern is invalid: one variant per V8 `RegExpError` that V8 11.3 can report
/// for a pattern, and [`Reason::PropertyOfStringsUnsupported`], which V8 never reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// "Maximum call stack size exceeded": the pattern nests deeper than this engine's
    /// limit ([`MAX_NESTING`](crate::MAX_NESTING)). V8 reports it for v-mode classes
    /// nested about 6,000 deep.
    StackOverflow,
    /// "Regular expression too large": a run of more than 32,767 consecutive literal
    /// characters (V8's limit on one text node).
    TooLarge,
    /// "Unterminated group".
    UnterminatedGroup,
    /// "Unmatched ')'".
    UnmatchedParen,
    /// "\\ at end of pattern".
    EscapeAtEndOfPattern,
    /// "Invalid property name".
    InvalidPropertyName,
    /// "Invalid escape".
    InvalidEscape,
    /// "Invalid decimal escape".
    InvalidDecimalEscape,
    /// "Invalid class escape" (V8 11.3: a decimal escape inside a class in Unicode mode).
    InvalidClassEscape,
    /// "Invalid Unicode escape".
    InvalidUnicodeEscape,
    /// "Nothing to repeat".
    NothingToRepeat,
    /// "Lone quantifier brackets".
    LoneQuantifierBrackets,
    /// "numbers out of order in {} quantifier".
    RangeOutOfOrder,
    /// "Incomplete quantifier".
    IncompleteQuantifier,
    /// "Invalid quantifier".
    InvalidQuantifier,
    /// "Invalid group".
    InvalidGroup,
    /// "Too many captures".
    TooManyCaptures,
    /// "Invalid capture group name".
    InvalidCaptureGroupName,
    /// "Duplicate capture group name".
    DuplicateCaptureGroupName,
    /// "Invalid named reference".
    InvalidNamedReference,
    /// "Invalid named capture referenced".
    InvalidNamedCaptureReference,
    /// "Invalid property name in character class".
    InvalidClassPropertyName,
    /// "Invalid character class".
    InvalidCharacterClass,
    /// "Unterminated character class".
    UnterminatedCharacterClass,
    /// "Range out of order in character class".
    OutOfOrderCharacterClass,
    /// "Invalid set operation in character class".
    InvalidClassSetOperation,
    /// "Invalid character in character class".
    InvalidCharacterInClass,
    /// "Negated character class may contain strings".
    NegatedCharacterClassWithStrings,
    /// A property of strings (`\p{RGI_Emoji}` …) that this build cannot match. Never
    /// produced by the current tables, which include them; kept so that callers can
    /// match on it should a build drop the string data.
    PropertyOfStringsUnsupported,
}

impl Reason {
    /// The text V8 puts after the pattern in its `SyntaxError` message.
    pub fn text(self) -> &'static str {
        match self {
            Reason::StackOverflow => "Maximum call stack size exceeded",
            Reason::TooLarge => "Regular expression too large",
            Reason::UnterminatedGroup => "Unterminated group",
            Reason::UnmatchedParen => "Unmatched ')'",
            Reason::EscapeAtEndOfPattern => "\\ at end of pattern",
            Reason::InvalidPropertyName => "Invalid property name",
            Reason::InvalidEscape => "Invalid escape",
            Reason::InvalidDecimalEscape => "Invalid decimal escape",
            Reason::InvalidClassEscape => "Invalid class escape",
            Reason::InvalidUnicodeEscape => "Invalid Unicode escape",
            Reason::NothingToRepeat => "Nothing to repeat",
            Reason::LoneQuantifierBrackets => "Lone quantifier brackets",
            Reason::RangeOutOfOrder => "numbers out of order in {} quantifier",
            Reason::IncompleteQuantifier => "Incomplete quantifier",
            Reason::InvalidQuantifier => "Invalid quantifier",
            Reason::InvalidGroup => "Invalid group",
            Reason::TooManyCaptures => "Too many captures",
            Reason::InvalidCaptureGroupName => "Invalid capture group name",
            Reason::DuplicateCaptureGroupName => "Duplicate capture group name",
            Reason::InvalidNamedReference => "Invalid named reference",
            Reason::InvalidNamedCaptureReference => "Invalid named capture referenced",
            Reason::InvalidClassPropertyName => "Invalid property name in character class",
            Reason::InvalidCharacterClass => "Invalid character class",
            Reason::UnterminatedCharacterClass => "Unterminated character class",
            Reason::OutOfOrderCharacterClass => "Range out of order in character class",
            Reason::InvalidClassSetOperation => "Invalid set operation in character class",
            Reason::InvalidCharacterInClass => "Invalid character in character class",
            Reason::NegatedCharacterClassWithStrings => {
                "Negated character class may contain strings"
            }
            Reason::PropertyOfStringsUnsupported => {
                "Properties of strings are not supported by this engine"
            }
        }
    }
}

/// What kind of error an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The flags string is invalid (unknown or repeated letter, or `u` with `v`).
    InvalidFlags,
    /// The pattern is invalid for the given flags.
    InvalidPattern(Reason),
}

/// An invalid flags string or pattern. [`Error::message`] is exactly the message of the
/// `SyntaxError` that `new RegExp(pattern, flags)` throws in Node 20.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    position: Option<usize>,
}

impl Error {
    pub(crate) fn invalid_flags(flags: &str) -> Error {
        Error {
            kind: ErrorKind::InvalidFlags,
            message: format!("Invalid flags supplied to RegExp constructor '{flags}'"),
            position: None,
        }
    }

    /// `Invalid regular expression: /<source>/<flags>: <reason>`, the source as given
    /// (V8 does not escape it; an unpaired surrogate is shown as U+FFFD) and the flags in
    /// canonical order.
    pub(crate) fn pattern(source: &[u16], flags: Flags, reason: Reason, position: usize) -> Error {
        let source = String::from_utf16_lossy(source);
        Error {
            kind: ErrorKind::InvalidPattern(reason),
            message: format!("Invalid regular expression: /{source}/{flags}: {}", reason.text()),
            position: Some(position),
        }
    }

    /// The kind of error.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, exactly as V8 words it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// For a pattern error, the UTF-16 index in the pattern where V8's single-pass parser
    /// detected it (informative; V8 does not show it).
    pub fn position(&self) -> Option<usize> {
        self.position
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// A search stopped because its [`Budget`](crate::Budget) ran out (too many steps, the
/// backtracking stack reached its limit, or the cancellation check asked to stop). The
/// search has no result: the caller should report the line or file as skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BudgetExceeded {
    pub(crate) cause: BudgetCause,
}

/// Why a [`BudgetExceeded`] happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BudgetCause {
    /// The step counter reached zero.
    Steps,
    /// The backtracking stack reached its size limit.
    StackLimit,
    /// The cancellation check returned `true`.
    Cancelled,
    /// The time limit passed ([`crate::Budget::with_deadline`]).
    Time,
    /// The text is 2^32 − 1 code units or longer (positions are 32-bit).
    TextTooLong,
}

impl BudgetExceeded {
    /// Why the budget was exceeded.
    pub fn cause(&self) -> BudgetCause {
        self.cause
    }
}

impl fmt::Display for BudgetExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.cause {
            BudgetCause::Steps => f.write_str("regex budget exceeded: too many steps"),
            BudgetCause::StackLimit => {
                f.write_str("regex budget exceeded: backtracking stack limit reached")
            }
            BudgetCause::Cancelled => f.write_str("regex budget exceeded: cancelled"),
            BudgetCause::Time => f.write_str("regex budget exceeded: time limit"),
            BudgetCause::TextTooLong => f.write_str("regex budget exceeded: text too long"),
        }
    }
}

impl std::error::Error for BudgetExceeded {}
