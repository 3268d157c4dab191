//! Parsing with a deadline: one reusable tree-sitter `Parser` per thread,
//! and a progress callback that abandons the parse when the deadline passes
//! or the caller's cancel flag is set.

use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use tree_sitter::{ParseOptions, ParseState, Parser, Tree};

/// How a parse ended.
pub(crate) enum Parsed {
    /// A tree (possibly with error nodes).
    Tree(Tree),
    /// The deadline passed first.
    TimedOut,
    /// The cancel flag was set.
    Cancelled,
    /// The grammar could not be loaded (an ABI mismatch; not expected).
    Failed,
}

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses `text` as `language`, giving up at `deadline` or when `cancel`
/// is set.
pub(crate) fn parse(
    language: &tree_sitter::Language,
    text: &str,
    deadline: Instant,
    cancel: Option<&AtomicBool>,
) -> Parsed {
    PARSER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            let parser = slot.get_or_insert_with(Parser::new);
            parse_with(parser, language, text, deadline, cancel)
        }
        // Re-entered on this thread (not expected): use a fresh parser.
        Err(_) => parse_with(&mut Parser::new(), language, text, deadline, cancel),
    })
}

fn parse_with(
    parser: &mut Parser,
    language: &tree_sitter::Language,
    text: &str,
    deadline: Instant,
    cancel: Option<&AtomicBool>,
) -> Parsed {
    // A parse that was stopped would otherwise resume on the next call.
    parser.reset();
    if parser.set_language(language).is_err() {
        return Parsed::Failed;
    }
    let timed_out = Cell::new(false);
    let cancelled = Cell::new(false);
    let mut progress = |_: &ParseState| -> ControlFlow<()> {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            cancelled.set(true);
            return ControlFlow::Break(());
        }
        if Instant::now() >= deadline {
            timed_out.set(true);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    };
    let bytes = text.as_bytes();
    let options = ParseOptions::new().progress_callback(&mut progress);
    let tree = parser.parse_with_options(
        &mut |offset, _| bytes.get(offset..).unwrap_or(&[]),
        None,
        Some(options),
    );
    parser.reset();
    match tree {
        Some(t) if !timed_out.get() && !cancelled.get() => Parsed::Tree(t),
        _ if cancelled.get() => Parsed::Cancelled,
        _ if timed_out.get() => Parsed::TimedOut,
        Some(t) => Parsed::Tree(t),
        None => Parsed::Failed,
    }
}
