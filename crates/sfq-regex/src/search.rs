//! The search loop: which start positions to try, and the reusable VM memory.

use std::cell::RefCell;

use crate::Regex;
use crate::budget::Budget;
use crate::error::{BudgetCause, BudgetExceeded};
use crate::parser::{is_lead, is_trail};
use crate::program::{Inst, Matcher};
use crate::vm::{Scratch, Vm, is_word};

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// VM memory bigger than this (in backtracking frames) is not kept for the next search.
const KEEP_STACK: usize = 1 << 16;

/// Runs `f` with this thread's VM memory, or with fresh memory if that is in use (when a
/// budget's check runs another search) or gone (thread exit).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    // `with` would panic only during the thread's exit, which this rules out.
    if SCRATCH.try_with(|_| ()).is_err() {
        return f(&mut Scratch::default());
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            let r = f(&mut scratch);
            scratch.shrink(KEEP_STACK);
            r
        }
        Err(_) => f(&mut Scratch::default()),
    })
}

/// Tests: whether this thread's searches memoise failed states from their first
/// step (normally only once a search has done far more work than its text's length).
#[doc(hidden)]
pub fn memoise_eagerly(on: bool) {
    let _ = SCRATCH.try_with(|cell| {
        if let Ok(mut s) = cell.try_borrow_mut() {
            s.memo.eager = on;
        }
    });
}

/// Whether `pos` is between the halves of a surrogate pair.
#[inline]
fn mid_pair(text: &[u16], pos: usize) -> bool {
    pos > 0
        && pos < text.len()
        && is_lead(u32::from(text[pos - 1]))
        && is_trail(u32::from(text[pos]))
}

/// Finds the first match at or after `start` and converts its registers with `out`.
pub(crate) fn search<T>(
    re: &Regex,
    text: &[u16],
    start: usize,
    budget: &mut Budget<'_>,
    out: impl FnOnce(&[u32]) -> T,
) -> Result<Option<T>, BudgetExceeded> {
    let inner = &re.inner;
    if text.len() >= u32::MAX as usize {
        return Err(BudgetExceeded { cause: BudgetCause::TextTooLong });
    }
    if start > text.len() {
        return Ok(None);
    }
    let prog = &inner.program;
    let pf = &inner.prefilter;
    let mut start = start;
    if let Some(max) = inner.end_skip {
        start = start.max(text.len().saturating_sub(max as usize));
    }
    // V8 first tries from the start of the pair, then from where it was asked to.
    let stepped_back = inner.step_back && mid_pair(text, start);
    if stepped_back {
        start -= 1;
    }
    let sticky = inner.pattern.flags.sticky;
    if pf.anchored && start > 0 {
        return Ok(None);
    }
    if !pf.has_required(text, start) {
        budget.charge(1 + (text.len() - start) as u64 / 64)?;
        return Ok(None);
    }
    let vm = Vm::new(prog, text, budget.max_stack());
    with_scratch(|scratch| {
        scratch.memo.begin(&prog.memo, text.len(), budget.spent());
        if sticky || pf.anchored {
            let found = vm.run(start as u32, scratch, budget)?
                || (stepped_back && vm.run(start as u32 + 1, scratch, budget)?);
            return Ok(found.then(|| out(&scratch.regs)));
        }
        let len = text.len();
        let mut pos = start;
        if !pf.prefix.is_empty() {
            while let Some(p) = pf.next_prefix(text, pos) {
                budget.charge(1 + (p - pos) as u64 / 64)?;
                if vm.lead_ok(p as u32) && vm.run_past_lead(p as u32, scratch, budget)? {
                    return Ok(Some(out(&scratch.regs)));
                }
                pos = p + 1;
            }
            budget.charge(1 + (len - pos.min(len)) as u64 / 64)?;
            return Ok(None);
        }
        if let Some(Inst::LookOne { m, behind: true, negative: false }) = prog.insts.first() {
            // A positive one-character lookbehind first: look for that character.
            let units: &[u16] = match m {
                Matcher::Unit(a) => &[*a],
                Matcher::Unit2(a, b) => &[*a, *b],
                _ => &[],
            };
            if !units.is_empty() {
                while let Some(q) = crate::prefilter::find_first(units, text, pos.max(1) - 1) {
                    let p = q + 1;
                    budget.charge(1 + (p - pos) as u64 / 64)?;
                    let first_ok = match &pf.first {
                        Some(first) => text.get(p).is_some_and(|&u| first.contains(u32::from(u))),
                        None => true,
                    };
                    if p >= pos && first_ok && vm.run(p as u32, scratch, budget)? {
                        return Ok(Some(out(&scratch.regs)));
                    }
                    pos = p + 1;
                }
                budget.charge(1 + (len - pos.min(len)) as u64 / 64)?;
                return Ok(None);
            }
        }
        if pf.first_units.is_none()
            && let Some(inner) = &pf.inner
        {
            // A literal `lo..=hi` units after the start of every match: only the starts
            // that far before one of its occurrences can match.
            // (`lo` is negative for a literal a leading lookbehind reads.)
            let (lo, hi) = (inner.lo, inner.hi);
            let mut next = pos;
            let mut from = pos.saturating_add_signed(lo);
            while let Some(q) = inner.next(text, from) {
                budget.charge(1 + (q - from) as u64 / 64)?;
                let last = q.saturating_add_signed(-lo).min(len);
                let first = q.saturating_add_signed(-hi).max(next);
                for p in first..=last {
                    let first_ok = match &pf.first {
                        Some(first) => text.get(p).is_some_and(|&u| first.contains(u32::from(u))),
                        None => true,
                    };
                    scratch.skip = 0;
                    if first_ok
                        && vm.lead_ok(p as u32)
                        && vm.run_past_lead(p as u32, scratch, budget)?
                    {
                        return Ok(Some(out(&scratch.regs)));
                    }
                }
                next = next.max(last + 1);
                from = q + 1;
            }
            budget.charge(1 + (len - from.min(len)) as u64 / 64)?;
            return Ok(None);
        }
        if pf.first_units.is_none()
            && let Some(units) = &pf.behind_units
        {
            // A leading lookbehind whose body ends with one of a few units: only the
            // positions right after one can match.
            while let Some(q) = crate::prefilter::find_first(units, text, pos.max(1) - 1) {
                let p = q + 1;
                budget.charge(1 + (p - pos.min(p)) as u64 / 64)?;
                let first_ok = match &pf.first {
                    Some(first) => text.get(p).is_some_and(|&u| first.contains(u32::from(u))),
                    None => true,
                };
                if p >= pos && first_ok && vm.run(p as u32, scratch, budget)? {
                    return Ok(Some(out(&scratch.regs)));
                }
                pos = pos.max(p + 1);
            }
            budget.charge(1 + (len - pos.min(len)) as u64 / 64)?;
            return Ok(None);
        }
        if let Some(units) = &pf.first_units {
            while let Some(p) = crate::prefilter::find_first(units, text, pos) {
                budget.charge(1 + (p - pos) as u64 / 64)?;
                scratch.skip = 0;
                if vm.lead_ok(p as u32) && vm.run_past_lead(p as u32, scratch, budget)? {
                    return Ok(Some(out(&scratch.regs)));
                }
                pos = (p + 1).max(scratch.skip as usize);
            }
            budget.charge(1 + (len - pos.min(len)) as u64 / 64)?;
            return Ok(None);
        }
        if let Some(first) = &pf.first {
            if pf.word_start {
                // `\b` then a word character: only the starts of words can match.
                let ext = prog.word_extended;
                // The scan itself makes the lead's check when it is that `\b` alone.
                let scan_checks_lead = prog.lead_is_word_boundary;
                let mut prev = pos > 0 && is_word(text[pos - 1], ext);
                let mut scanned = 0u64;
                while pos < len {
                    let u = text[pos];
                    let w = is_word(u, ext);
                    if w && !prev
                        && first.contains(u32::from(u))
                        && (scan_checks_lead || vm.lead_ok(pos as u32))
                    {
                        budget.charge(1 + scanned / 64)?;
                        scanned = 0;
                        scratch.skip = 0;
                        if vm.run_past_lead(pos as u32, scratch, budget)? {
                            return Ok(Some(out(&scratch.regs)));
                        }
                        if scratch.skip as usize > pos + 1 {
                            // No start before the end of the run the pattern's first
                            // loop matched can match.
                            pos = scratch.skip as usize;
                            prev = is_word(text[pos - 1], ext);
                            continue;
                        }
                    }
                    prev = w;
                    scanned += 1;
                    pos += 1;
                }
                budget.charge(1 + scanned / 64)?;
                return Ok(None);
            }
            let mut scanned = 0u64;
            while pos < len {
                let u = text[pos];
                if first.contains(u32::from(u)) && vm.lead_ok(pos as u32) {
                    budget.charge(1 + scanned / 64)?;
                    scanned = 0;
                    scratch.skip = 0;
                    if vm.run_past_lead(pos as u32, scratch, budget)? {
                        return Ok(Some(out(&scratch.regs)));
                    }
                    if scratch.skip as usize > pos + 1 {
                        pos = scratch.skip as usize;
                        continue;
                    }
                }
                scanned += 1;
                pos += 1;
            }
            budget.charge(1 + scanned / 64)?;
            return Ok(None);
        }
        // V8 tries every code unit position, also between the halves of a surrogate pair
        // in Unicode mode (where only zero-width matches can succeed).
        loop {
            budget.charge(1)?;
            scratch.skip = 0;
            if vm.lead_ok(pos as u32) && vm.run_past_lead(pos as u32, scratch, budget)? {
                return Ok(Some(out(&scratch.regs)));
            }
            if pos >= len {
                return Ok(None);
            }
            pos = (pos + 1).max(scratch.skip as usize);
        }
    })
}
