//! The backtracking VM: runs a [`Program`] at one start position, with an explicit
//! backtracking stack (no recursion) and a step budget.

use crate::budget::Budget;
use crate::error::{BudgetCause, BudgetExceeded};
use crate::memo::Memo;
use crate::parser::{is_lead, is_trail};
use crate::program::{Guard, INF, Inst, Matcher, NONE, Program, TestStep};
use crate::unicode;

/// An entry of the backtracking stack.
#[derive(Clone, Copy, Debug)]
enum Frame {
    /// An alternative: continue at `pc` with `pos`.
    Alt { pc: u32, pos: u32 },
    /// Undo a register write.
    Restore { reg: u32, val: u32 },
    /// A lookaround in progress, entered at `pos`; `end` is the instruction after it.
    Look { pos: u32, end: u32, negative: bool },
    /// A greedy one-character loop at `pc` that can still give back characters down to
    /// `min_pos`; it is now at `pos`.
    Greedy { pc: u32, min_pos: u32, pos: u32 },
    /// A lazy one-character loop at `pc` that has matched `count` characters up to `pos`
    /// and can take one more.
    Lazy { pc: u32, pos: u32, count: u32 },
}

/// Reusable memory of the VM.
#[derive(Default)]
pub(crate) struct Scratch {
    pub(crate) regs: Vec<u32>,
    stack: Vec<Frame>,
    looks: Vec<u32>,
    /// After a failed run: no start position before this one can match either (0: no
    /// information).
    pub(crate) skip: u32,
    /// The states already explored by this search.
    pub(crate) memo: Memo,
}

impl Scratch {
    /// Frees the memory of an unusually deep search.
    pub(crate) fn shrink(&mut self, keep: usize) {
        if self.stack.capacity() > keep {
            self.stack = Vec::new();
        }
        self.memo.shrink();
    }
}

/// Steps between two charges of the budget.
const CHUNK: u64 = 2048;

/// Whether `u` ends a line for `^`/`$` under `m`.
#[inline]
fn is_line_terminator(u: u16) -> bool {
    matches!(u, 0x0A | 0x0D | 0x2028 | 0x2029)
}

/// Whether `u` is a word character for `\b` (`extended`: also ſ and K, under `iu`/`iv`).
#[inline(always)]
pub(crate) fn is_word(u: u16, extended: bool) -> bool {
    matches!(u, 0x30..=0x39 | 0x41..=0x5A | 0x5F | 0x61..=0x7A)
        || (extended && (u == 0x17F || u == 0x212A))
}

/// The VM for one search: the program, the text and the scratch memory.
pub(crate) struct Vm<'a> {
    prog: &'a Program,
    text: &'a [u16],
    len: u32,
    max_stack: usize,
}

impl<'a> Vm<'a> {
    pub(crate) fn new(prog: &'a Program, text: &'a [u16], max_stack: usize) -> Vm<'a> {
        Vm { prog, text, len: text.len() as u32, max_stack }
    }

    /// The character at `pos` read forwards in Unicode mode: (code point, next position),
    /// or `None` at the end or between the halves of a surrogate pair.
    #[inline]
    fn read_fwd(&self, pos: u32) -> Option<(u32, u32)> {
        let t = self.text;
        let u = u32::from(*t.get(pos as usize)?);
        if is_lead(u) {
            if let Some(&n) = t.get(pos as usize + 1)
                && is_trail(u32::from(n))
            {
                return Some((0x10000 + ((u - 0xD800) << 10) + (u32::from(n) - 0xDC00), pos + 2));
            }
        } else if is_trail(u) && pos > 0 && is_lead(u32::from(t[pos as usize - 1])) {
            return None;
        }
        Some((u, pos + 1))
    }

    /// The character ending at `pos` read backwards in Unicode mode.
    #[inline]
    fn read_back(&self, pos: u32) -> Option<(u32, u32)> {
        if pos == 0 {
            return None;
        }
        let t = self.text;
        let u = u32::from(t[pos as usize - 1]);
        if is_trail(u) {
            if pos >= 2 {
                let l = u32::from(t[pos as usize - 2]);
                if is_lead(l) {
                    return Some((0x10000 + ((l - 0xD800) << 10) + (u - 0xDC00), pos - 2));
                }
            }
        } else if is_lead(u) && pos < self.len && is_trail(u32::from(t[pos as usize])) {
            return None;
        }
        Some((u, pos - 1))
    }

    /// One step of `m` from `pos`; the new position.
    #[inline(always)]
    fn step(&self, m: Matcher, pos: u32, back: bool) -> Option<u32> {
        if let Matcher::Guarded(i) = m {
            return self.step_guarded(i, pos, back);
        }
        self.step_one(m, pos, back)
    }

    /// [`Vm::step`] for `Matcher::Guarded(i)`: its check at the position before the
    /// character (forwards: `pos`; backwards: the position after the step).
    #[inline(never)]
    fn step_guarded(&self, i: u32, pos: u32, back: bool) -> Option<u32> {
        let g = self.prog.guarded[i as usize];
        if back {
            let p = self.step_one(g.m, pos, true)?;
            self.guarded_check(g.check, p).then_some(p)
        } else if self.guarded_check(g.check, pos) {
            self.step_one(g.m, pos, false)
        } else {
            None
        }
    }

    /// [`Vm::check_ok`] with the usual checks of a `Guarded` inline (picomatch's guards
    /// are `LookTest`s).
    #[inline(always)]
    fn guarded_check(&self, check: Inst, p: u32) -> bool {
        match check {
            Inst::LookTest { start, len, negative, first } => {
                self.look_test(start, len, first, p) != negative
            }
            // A `LookOne`'s matcher is never `Guarded`.
            Inst::LookOne { m, behind, negative } => {
                self.step_one(m, p, behind).is_some() != negative
            }
            inst => self.check_ok(inst, p),
        }
    }

    /// [`Vm::step`] for a matcher that is not `Guarded`.
    #[inline(always)]
    fn step_one(&self, m: Matcher, pos: u32, back: bool) -> Option<u32> {
        let t = self.text;
        match m {
            // Not reached (`step` takes these).
            Matcher::Guarded(_) => None,
            Matcher::Unit(c) => {
                if back {
                    (pos > 0 && t[pos as usize - 1] == c).then(|| pos - 1)
                } else {
                    (t.get(pos as usize) == Some(&c)).then(|| pos + 1)
                }
            }
            Matcher::Unit2(a, b) => {
                if back {
                    if pos == 0 {
                        return None;
                    }
                    let u = t[pos as usize - 1];
                    (u == a || u == b).then(|| pos - 1)
                } else {
                    let u = *t.get(pos as usize)?;
                    (u == a || u == b).then(|| pos + 1)
                }
            }
            Matcher::Set(i) => {
                let set = &self.prog.sets[i as usize];
                if self.prog.unicode {
                    let (c, next) = if back { self.read_back(pos)? } else { self.read_fwd(pos)? };
                    set.contains(c).then_some(next)
                } else if back {
                    (pos > 0 && set.contains(u32::from(t[pos as usize - 1]))).then(|| pos - 1)
                } else {
                    let u = *t.get(pos as usize)?;
                    set.contains(u32::from(u)).then(|| pos + 1)
                }
            }
            Matcher::Any => {
                if self.prog.unicode {
                    let (_, next) = if back { self.read_back(pos)? } else { self.read_fwd(pos)? };
                    Some(next)
                } else if back {
                    (pos > 0).then(|| pos - 1)
                } else {
                    (pos < self.len).then(|| pos + 1)
                }
            }
        }
    }

    /// Gives back one character of a greedy loop that consumed forwards (or, `back`,
    /// backwards) from its start.
    #[inline]
    fn give_back(&self, pos: u32, limit: u32, back: bool) -> u32 {
        let t = self.text;
        if back {
            if self.prog.unicode
                && pos + 2 <= limit
                && is_lead(u32::from(t[pos as usize]))
                && is_trail(u32::from(t[pos as usize + 1]))
            {
                return pos + 2;
            }
            pos + 1
        } else {
            if self.prog.unicode
                && pos >= limit + 2
                && is_trail(u32::from(t[pos as usize - 1]))
                && is_lead(u32::from(t[pos as usize - 2]))
            {
                return pos - 2;
            }
            pos - 1
        }
    }

    /// Evaluates every zero-width check the program starts with (word boundaries,
    /// one-character or literal lookarounds, anchors): `false` if the program must fail
    /// at `pos`. Lets the search skip most start positions without running the VM, and
    /// when it holds, [`Vm::run_past_lead`] may start past those checks.
    #[inline]
    pub(crate) fn lead_ok(&self, pos: u32) -> bool {
        self.prog.lead_checks.iter().all(|&inst| self.check_ok(inst, pos))
    }

    /// Whether a zero-width check of the position alone (an instruction of a lead, or the
    /// check of a [`Matcher::Guarded`]) holds at `pos`.
    #[inline]
    fn check_ok(&self, inst: Inst, pos: u32) -> bool {
        match inst {
            Inst::WordBoundary { negated } => {
                let before = pos > 0 && self.word_at(pos - 1);
                (before != self.word_at(pos)) != negated
            }
            Inst::LookOne { m, behind, negative } => {
                self.step(m, pos, behind).is_some() != negative
            }
            Inst::LookLit { start, len, behind, negative } => {
                self.lit_at(start, len, pos, behind).is_some() != negative
            }
            Inst::LookTest { start, len, negative, first } => {
                self.look_test(start, len, first, pos) != negative
            }
            Inst::StartOfLine => pos == 0 || is_line_terminator(self.text[pos as usize - 1]),
            Inst::EndOfLine => pos == self.len || is_line_terminator(self.text[pos as usize]),
            Inst::StartOfInput => pos == 0,
            Inst::EndOfInput => pos == self.len,
            // Never a check (`Inst::is_lead` lists the kinds above and `Save`, which
            // `lead_checks` and `GuardedChar::check` leave out).
            _ => true,
        }
    }

    /// Matches `m` up to `max` times from `pos`: (new position, count).
    #[inline(always)]
    fn repeat(&self, m: Matcher, pos: u32, max: u32, back: bool) -> (u32, u32) {
        let t = self.text;
        let mut p = pos;
        let mut count = 0u32;
        if !back {
            match m {
                Matcher::Unit(c) => {
                    let end = (u64::from(p) + u64::from(max)).min(u64::from(self.len)) as u32;
                    while p < end && t[p as usize] == c {
                        p += 1;
                    }
                    return (p, p - pos);
                }
                Matcher::Unit2(a, b) => {
                    let end = (u64::from(p) + u64::from(max)).min(u64::from(self.len)) as u32;
                    while p < end && (t[p as usize] == a || t[p as usize] == b) {
                        p += 1;
                    }
                    return (p, p - pos);
                }
                Matcher::Set(i) if !self.prog.unicode => {
                    let set = &self.prog.sets[i as usize];
                    let end = (u64::from(p) + u64::from(max)).min(u64::from(self.len)) as u32;
                    while p < end && set.contains(u32::from(t[p as usize])) {
                        p += 1;
                    }
                    return (p, p - pos);
                }
                Matcher::Set(i) => {
                    // Unicode mode: a unit that is not a surrogate is a character of its
                    // own; pairs (and lone halves) go through `step`.
                    let set = &self.prog.sets[i as usize];
                    while count < max && p < self.len {
                        let u = t[p as usize];
                        if (u & 0xF800) != 0xD800 {
                            if !set.contains(u32::from(u)) {
                                break;
                            }
                            p += 1;
                        } else {
                            match self.step(m, p, false) {
                                Some(n) => p = n,
                                None => break,
                            }
                        }
                        count += 1;
                    }
                    return (p, count);
                }
                Matcher::Any if !self.prog.unicode => {
                    let end = (u64::from(p) + u64::from(max)).min(u64::from(self.len)) as u32;
                    return (end, end - pos);
                }
                _ => {}
            }
        }
        while count < max {
            match self.step(m, p, back) {
                Some(n) => {
                    p = n;
                    count += 1;
                }
                None => break,
            }
        }
        (p, count)
    }

    /// Whether the continuation of a greedy loop can start at `p`.
    #[inline]
    fn guard_ok(&self, g: Guard, p: u32, back: bool) -> bool {
        match g.m {
            Some(m) => self.step(m, p, back || g.behind).is_some(),
            None => p == self.len || (g.line_end && is_line_terminator(self.text[p as usize])),
        }
    }

    /// Takes characters of a lazy loop at `pc` over `m`, from `p` after `count` of them,
    /// up to the first position where the continuation can start (where the loop's guard
    /// holds; at once without a guard), taking at most `max` in all: (position, count),
    /// `None` if the guard holds nowhere. The continuation fails at once at the positions
    /// passed, so not trying it there changes nothing but the work.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn lazy_advance(
        &self,
        pc: u32,
        m: Matcher,
        mut p: u32,
        mut count: u32,
        max: u32,
        back: bool,
        fuel: &mut u64,
    ) -> Option<(u32, u32)> {
        let Some(g) = self.prog.guards[pc as usize] else { return Some((p, count)) };
        while !self.guard_ok(g, p, back) {
            if count >= max {
                return None;
            }
            p = self.step(m, p, back)?;
            count += 1;
            *fuel += 1;
        }
        Some((p, count))
    }

    /// Gives back characters of a greedy forward loop at `pc` from `p` (not below
    /// `min_pos`) until the back reference after it can start: where the first unit of
    /// its group's text follows. `None` if no position down to `min_pos` has it; `p` as
    /// it is when the loop has no such guard or the group's text is unset, empty or
    /// compared without case.
    #[inline]
    fn backref_give_back(
        &self,
        pc: u32,
        mut p: u32,
        min_pos: u32,
        regs: &[u32],
        fuel: &mut u64,
    ) -> Option<u32> {
        let group = self.prog.backref_guards[pc as usize];
        if group == NONE || self.prog.ignore_case {
            return Some(p);
        }
        let (s, e) = (regs[2 * group as usize], regs[2 * group as usize + 1]);
        if s == NONE || e == NONE || e <= s {
            return Some(p);
        }
        let first = self.text[s as usize];
        loop {
            if self.text.get(p as usize) == Some(&first) {
                return Some(p);
            }
            if p == min_pos {
                return None;
            }
            p = self.give_back(p, min_pos, false);
            *fuel += 1;
        }
    }

    /// Whether `pos` is between the halves of a surrogate pair.
    fn inside_pair(&self, pos: u32) -> bool {
        pos > 0
            && pos < self.len
            && is_lead(u32::from(self.text[pos as usize - 1]))
            && is_trail(u32::from(self.text[pos as usize]))
    }

    fn word_at(&self, pos: u32) -> bool {
        pos < self.len && is_word(self.text[pos as usize], self.prog.word_extended)
    }

    /// Compares the text at `pos` with `regs[lo..hi]`'s capture; the new position.
    fn back_reference(&self, start: u32, end: u32, pos: u32, back: bool) -> Option<u32> {
        let len = end - start;
        let t = self.text;
        let (from, to) = if back {
            if pos < len {
                return None;
            }
            (pos - len, pos)
        } else {
            if len > self.len - pos {
                return None;
            }
            (pos, pos + len)
        };
        let a = &t[start as usize..end as usize];
        let b = &t[from as usize..to as usize];
        let equal = if !self.prog.ignore_case {
            // Short captures are the rule: compare inline rather than through memcmp.
            a.iter().zip(b).all(|(x, y)| x == y)
        } else if !self.prog.unicode {
            a.iter().zip(b).all(|(&x, &y)| {
                x == y || unicode::canonical(x.into(), false) == unicode::canonical(y.into(), false)
            })
        } else {
            let mut ia = char::decode_utf16(a.iter().copied());
            let mut ib = char::decode_utf16(b.iter().copied());
            loop {
                match (ia.next(), ib.next()) {
                    (None, None) => break true,
                    (Some(x), Some(y)) => {
                        let cx =
                            x.map(u32::from).unwrap_or_else(|e| u32::from(e.unpaired_surrogate()));
                        let cy =
                            y.map(u32::from).unwrap_or_else(|e| u32::from(e.unpaired_surrogate()));
                        if cx != cy && unicode::canonical(cx, true) != unicode::canonical(cy, true)
                        {
                            break false;
                        }
                    }
                    _ => break false,
                }
            }
        };
        if !equal {
            return None;
        }
        let new_pos = if back { from } else { to };
        // In Unicode mode the reference must not end between the halves of a pair.
        if self.prog.unicode && self.inside_pair(new_pos) {
            return None;
        }
        Some(new_pos)
    }

    /// The literal `lits[start..start + len]` after `pos` (`back`: before it): the
    /// position past it.
    #[inline]
    fn lit_at(&self, start: u32, len: u32, pos: u32, back: bool) -> Option<u32> {
        let lit = &self.prog.lits[start as usize..(start + len) as usize];
        let t = self.text;
        if back {
            (pos >= len && &t[(pos - len) as usize..pos as usize] == lit).then(|| pos - len)
        } else {
            (len <= self.len - pos && &t[pos as usize..(pos + len) as usize] == lit)
                .then(|| pos + len)
        }
    }

    /// Whether one of the sequences in `tests[start..start + len]` of an
    /// [`Inst::LookTest`] matches at `pos`; `first`: its set of first units, or `NONE`.
    #[inline(always)]
    fn look_test(&self, start: u32, len: u32, first: u32, pos: u32) -> bool {
        // Most positions fail at the unit there (picomatch's guards test for `.` and `/`).
        if first != NONE {
            match self.text.get(pos as usize) {
                Some(&u) if self.prog.sets[first as usize].contains(u32::from(u)) => {}
                _ => return false,
            }
        }
        self.look_test_sequences(start, len, pos)
    }

    /// [`Vm::look_test`] without its first-unit check.
    #[inline(never)]
    fn look_test_sequences(&self, start: u32, len: u32, pos: u32) -> bool {
        let t = self.text;
        let mut steps = &self.prog.tests[start as usize..(start + len) as usize];
        'seqs: while let [TestStep::Seq { len }, rest @ ..] = steps {
            let (seq, next) = rest.split_at(*len as usize);
            steps = next;
            let mut p = pos;
            for &step in seq {
                let ok = match step {
                    TestStep::One(m) => match self.step_one(m, p, false) {
                        Some(q) => {
                            p = q;
                            true
                        }
                        None => false,
                    },
                    TestStep::StartOfInput => p == 0,
                    TestStep::EndOfInput => p == self.len,
                    TestStep::StartOfLine => p == 0 || is_line_terminator(t[p as usize - 1]),
                    TestStep::EndOfLine => p == self.len || is_line_terminator(t[p as usize]),
                    TestStep::WordBoundary { negated } => {
                        let before = p > 0 && self.word_at(p - 1);
                        (before != self.word_at(p)) != negated
                    }
                    TestStep::Seq { .. } => false,
                };
                if !ok {
                    continue 'seqs;
                }
            }
            return true;
        }
        false
    }

    /// Whether `inst` may succeed at `pos` (`false` only when it fails there for sure):
    /// the check a [`Inst::StarRun`] makes before leaving an alternative at `pos`.
    #[inline]
    fn may_continue(&self, inst: Inst, pos: u32, regs: &[u32]) -> bool {
        match inst {
            Inst::One { m, back: false } => self.step(m, pos, false).is_some(),
            Inst::Lit { start, len, back: false } => self.lit_at(start, len, pos, false).is_some(),
            Inst::BackRef { group, back: false } => {
                let (s, e) = (regs[2 * group as usize], regs[2 * group as usize + 1]);
                s == NONE || e == NONE || self.back_reference(s, e, pos, false).is_some()
            }
            _ => true,
        }
    }

    /// Runs the program anchored at `start`. On a match, `scratch.regs` holds the capture
    /// registers (0 and 1: the match).
    #[inline]
    pub(crate) fn run(
        &self,
        start: u32,
        scratch: &mut Scratch,
        budget: &mut Budget<'_>,
    ) -> Result<bool, BudgetExceeded> {
        self.exec(start, 0, scratch, budget)
    }

    /// [`Vm::run`] where [`Vm::lead_ok`] holds at `start`: the lead's checks are not
    /// made again (its captures are set at once), the run begins after them.
    #[inline]
    pub(crate) fn run_past_lead(
        &self,
        start: u32,
        scratch: &mut Scratch,
        budget: &mut Budget<'_>,
    ) -> Result<bool, BudgetExceeded> {
        self.exec(start, self.prog.lead_end, scratch, budget)
    }

    fn exec(
        &self,
        start: u32,
        first: u32,
        scratch: &mut Scratch,
        budget: &mut Budget<'_>,
    ) -> Result<bool, BudgetExceeded> {
        let prog = self.prog;
        let insts = &prog.insts[..];
        let Scratch { regs, stack, looks, skip, memo } = scratch;
        let plan = &prog.memo;
        // Kept in a register: read before every instruction.
        let mut memo_on = memo.active;
        *skip = 0;
        // Only the capture registers need a value: loop registers are always written
        // (by RepeatInit, RepeatEnter or Save) before they are read.
        if regs.len() < prog.regs as usize {
            regs.resize(prog.regs as usize, NONE);
        }
        let captures = (2 * prog.captures) as usize;
        regs[..captures].fill(NONE);
        stack.clear();
        looks.clear();
        if first > 0 {
            // What the lead's `Save`s would write (with nothing to backtrack to).
            for &r in &prog.lead_saves {
                regs[r as usize] = start;
            }
        }
        let mut pc: u32 = first;
        let mut pos: u32 = start;
        let mut fuel: u64 = 0;
        let max_stack = self.max_stack;

        macro_rules! push {
            ($f:expr) => {{
                if stack.len() >= max_stack {
                    budget.charge(fuel)?;
                    return Err(BudgetExceeded { cause: BudgetCause::StackLimit });
                }
                stack.push($f);
            }};
        }
        macro_rules! set_reg {
            ($r:expr, $v:expr) => {{
                let r = $r as usize;
                let v = $v;
                let old = regs[r];
                if old != v {
                    // With nothing to backtrack to, nothing will ever undo the write.
                    if !stack.is_empty() {
                        push!(Frame::Restore { reg: r as u32, val: old });
                    }
                    regs[r] = v;
                }
            }};
        }

        'run: loop {
            fuel += 1;
            if fuel >= CHUNK {
                budget.charge(fuel)?;
                fuel = 0;
                if memo.wants(budget.spent() - memo.spent_at_start) {
                    memo.activate(plan);
                    memo_on = true;
                }
            }
            // A state reached before in this search: every path from it fails.
            let seen = memo_on && {
                let slot = plan.slot[pc as usize];
                let seen = slot != NONE && memo.seen(plan, slot, pc, pos, regs);
                memo_on = memo.active;
                seen
            };
            let ok = !seen
                && match insts[pc as usize] {
                    Inst::Match => {
                        budget.charge(fuel)?;
                        regs[0] = start;
                        regs[1] = pos;
                        return Ok(true);
                    }
                    Inst::One { m, back } => match self.step(m, pos, back) {
                        Some(p) => {
                            pos = p;
                            pc += 1;
                            // The ends and starts of groups around it (`(.)(.)`), without
                            // a dispatch each.
                            while let Inst::Save { reg } = insts[pc as usize] {
                                set_reg!(reg, pos);
                                pc += 1;
                            }
                            true
                        }
                        None => false,
                    },
                    Inst::Lit { start: ls, len, back } => match self.lit_at(ls, len, pos, back) {
                        Some(p) => {
                            pos = p;
                            pc += 1;
                            true
                        }
                        None => false,
                    },
                    Inst::StartOfInput => {
                        pc += 1;
                        pos == 0
                    }
                    Inst::EndOfInput => {
                        pc += 1;
                        pos == self.len
                    }
                    Inst::StartOfLine => {
                        pc += 1;
                        pos == 0 || is_line_terminator(self.text[pos as usize - 1])
                    }
                    Inst::EndOfLine => {
                        pc += 1;
                        pos == self.len || is_line_terminator(self.text[pos as usize])
                    }
                    Inst::WordBoundary { negated } => {
                        pc += 1;
                        let before = pos > 0 && self.word_at(pos - 1);
                        (before != self.word_at(pos)) != negated
                    }
                    Inst::Jmp { to } => {
                        pc = to;
                        true
                    }
                    Inst::Split { first, second } => {
                        push!(Frame::Alt { pc: second, pos });
                        pc = first;
                        true
                    }
                    Inst::StarRun { m, min, sep, exit } => {
                        // Each iteration: the alternative its `Split` leaves, then the body
                        // (a run of `m`, then `sep`). The body that fails is the `Split`'s
                        // alternative taken at once: go on at `exit` from the last start.
                        loop {
                            let (p, count) = self.repeat(m, pos, INF, false);
                            fuel += u64::from(count) + 3;
                            let next = if count >= min { self.step(sep, p, false) } else { None };
                            let Some(n) = next else { break };
                            // An alternative whose first instruction fails here at once
                            // is not left (no push, pop and dispatch for it).
                            if self.may_continue(insts[exit as usize], pos, regs) {
                                push!(Frame::Alt { pc: exit, pos });
                            }
                            pos = n;
                        }
                        pc = exit;
                        true
                    }
                    Inst::Save { reg } => {
                        set_reg!(reg, pos);
                        pc += 1;
                        true
                    }
                    Inst::ClearRegs { lo, hi } => {
                        for r in lo..hi {
                            set_reg!(r, NONE);
                        }
                        pc += 1;
                        true
                    }
                    Inst::RepeatInit { reg } => {
                        set_reg!(reg, 0);
                        pc += 1;
                        true
                    }
                    Inst::RepeatHead { reg, min, max, greedy, body, exit } => {
                        let count = regs[reg as usize];
                        if count < min {
                            pc = body;
                        } else if max != INF && count >= max {
                            pc = exit;
                        } else if greedy {
                            push!(Frame::Alt { pc: exit, pos });
                            pc = body;
                        } else {
                            push!(Frame::Alt { pc: body, pos });
                            pc = exit;
                        }
                        true
                    }
                    Inst::RepeatEnter { reg, clear_lo, clear_hi } => {
                        let count = regs[reg as usize];
                        set_reg!(reg, count.saturating_add(1));
                        set_reg!(reg + 1, pos);
                        for r in clear_lo..clear_hi {
                            set_reg!(r, NONE);
                        }
                        pc += 1;
                        true
                    }
                    Inst::RepeatTail { reg, min, head, check_empty } => {
                        if check_empty && regs[reg as usize] > min && regs[reg as usize + 1] == pos
                        {
                            false
                        } else {
                            pc = head;
                            true
                        }
                    }
                    Inst::CheckProgress { reg } => {
                        pc += 1;
                        regs[reg as usize] != pos
                    }
                    Inst::RepeatOne { m, min, max, greedy, back } => {
                        // One pass when every character is one unit (then the position
                        // after `min` characters is known), two otherwise.
                        let units =
                            !prog.unicode || matches!(m, Matcher::Unit(_) | Matcher::Unit2(..));
                        let first = if greedy && units { max } else { min };
                        let (p, count) = self.repeat(m, pos, first, back);
                        fuel += u64::from(count);
                        if count < min {
                            false
                        } else if greedy {
                            let (mut p, min_pos) = if units {
                                (p, if back { pos - min } else { pos + min })
                            } else {
                                let (q, n) = self.repeat(m, p, max - min, back);
                                fuel += u64::from(n);
                                (q, p)
                            };
                            // Give back at once what the continuation cannot start with.
                            let guard = prog.guards[pc as usize];
                            let mut ok = true;
                            let mut keep = true;
                            if let Some(g) = guard {
                                if g.disjoint {
                                    // Only the end of the run can be followed by the guard.
                                    ok = self.guard_ok(g, p, back);
                                    keep = false;
                                    if !ok
                                        && pc == prog.lead_end
                                        && pos == start
                                        && max == INF
                                        && !back
                                    {
                                        // The program started with this loop (after zero-width
                                        // checks only): a run started later in the stretch it
                                        // matched would end at `p` and fail the same way, so the
                                        // search may skip to `p`.
                                        *skip = p;
                                    }
                                } else {
                                    while !self.guard_ok(g, p, back) {
                                        if p == min_pos {
                                            ok = false;
                                            break;
                                        }
                                        p = self.give_back(p, min_pos, back);
                                        fuel += 1;
                                    }
                                }
                            } else if !back {
                                match self.backref_give_back(pc, p, min_pos, regs, &mut fuel) {
                                    Some(q) => p = q,
                                    None => ok = false,
                                }
                            }
                            if ok {
                                if keep && p != min_pos {
                                    push!(Frame::Greedy { pc, min_pos, pos: p });
                                }
                                pos = p;
                                pc += 1;
                                // The end of a group around the loop (`(\w+)`), without a
                                // dispatch of its own.
                                if let Inst::Save { reg } = insts[pc as usize] {
                                    set_reg!(reg, pos);
                                    pc += 1;
                                }
                            }
                            ok
                        } else if let Some((p, count)) =
                            self.lazy_advance(pc, m, p, count, max, back, &mut fuel)
                        {
                            if count < max {
                                push!(Frame::Lazy { pc, pos: p, count });
                            }
                            pos = p;
                            pc += 1;
                            true
                        } else {
                            false
                        }
                    }
                    Inst::LookOne { m, behind, negative } => {
                        pc += 1;
                        self.step(m, pos, behind).is_some() != negative
                    }
                    Inst::LookLit { start: ls, len, behind, negative } => {
                        pc += 1;
                        self.lit_at(ls, len, pos, behind).is_some() != negative
                    }
                    Inst::LookTest { start: ls, len, negative, first } => {
                        pc += 1;
                        self.look_test(ls, len, first, pos) != negative
                    }
                    Inst::BackRef { group, back } => {
                        let (s, e) = (regs[2 * group as usize], regs[2 * group as usize + 1]);
                        pc += 1;
                        if s == NONE || e == NONE {
                            // An unset group matches empty; in Unicode mode V8 still checks
                            // that the position is not inside a surrogate pair.
                            !(prog.unicode && self.inside_pair(pos))
                        } else {
                            fuel += u64::from(e.saturating_sub(s));
                            match self.back_reference(s, e, pos, back) {
                                Some(p) => {
                                    pos = p;
                                    true
                                }
                                None => false,
                            }
                        }
                    }
                    Inst::LookStart { negative, end } => {
                        memo.enter_look(plan, pc);
                        looks.push(stack.len() as u32);
                        push!(Frame::Look { pos, end, negative });
                        pc += 1;
                        true
                    }
                    Inst::LookEnd => {
                        let Some(mark) = looks.pop() else {
                            // Unreachable: every LookEnd has its LookStart.
                            return Ok(false);
                        };
                        let mark = mark as usize;
                        let Frame::Look { pos: at, end, negative } = stack[mark] else {
                            return Ok(false);
                        };
                        if negative {
                            // The body matched: the assertion fails. Undo the body's writes.
                            while stack.len() > mark + 1 {
                                if let Some(Frame::Restore { reg, val }) = stack.pop() {
                                    regs[reg as usize] = val;
                                }
                            }
                            stack.pop();
                            false
                        } else {
                            // Keep the body's register writes (to undo later), drop its
                            // alternatives: a lookaround is atomic.
                            let mut w = mark;
                            for r in mark + 1..stack.len() {
                                if let Frame::Restore { .. } = stack[r] {
                                    stack[w] = stack[r];
                                    w += 1;
                                }
                            }
                            stack.truncate(w);
                            fuel += (stack.len() - mark) as u64;
                            pos = at;
                            pc = end;
                            true
                        }
                    }
                };
            if ok {
                continue;
            }
            // Backtrack.
            loop {
                fuel += 1;
                let Some(frame) = stack.pop() else {
                    budget.charge(fuel)?;
                    return Ok(false);
                };
                match frame {
                    Frame::Alt { pc: p, pos: q } => {
                        pc = p;
                        pos = q;
                        continue 'run;
                    }
                    Frame::Restore { reg, val } => regs[reg as usize] = val,
                    Frame::Look { pos: at, end, negative } => {
                        looks.pop();
                        if negative {
                            pos = at;
                            pc = end;
                            continue 'run;
                        }
                    }
                    Frame::Greedy { pc: p, min_pos, pos: q } => {
                        let Inst::RepeatOne { back, .. } = insts[p as usize] else {
                            continue;
                        };
                        let mut n = self.give_back(q, min_pos, back);
                        let mut ok = true;
                        if let Some(g) = prog.guards[p as usize] {
                            while !self.guard_ok(g, n, back) {
                                if n == min_pos {
                                    ok = false;
                                    break;
                                }
                                n = self.give_back(n, min_pos, back);
                                fuel += 1;
                            }
                        } else if !back {
                            match self.backref_give_back(p, n, min_pos, regs, &mut fuel) {
                                Some(m) => n = m,
                                None => ok = false,
                            }
                        }
                        if ok {
                            if n != min_pos {
                                stack.push(Frame::Greedy { pc: p, min_pos, pos: n });
                            }
                            pos = n;
                            pc = p + 1;
                            continue 'run;
                        }
                    }
                    Frame::Lazy { pc: p, pos: q, count } => {
                        let Inst::RepeatOne { m, max, back, .. } = insts[p as usize] else {
                            continue;
                        };
                        if let Some(n) = self.step(m, q, back)
                            && let Some((n, count)) =
                                self.lazy_advance(p, m, n, count + 1, max, back, &mut fuel)
                        {
                            if count < max {
                                stack.push(Frame::Lazy { pc: p, pos: n, count });
                            }
                            pos = n;
                            pc = p + 1;
                            continue 'run;
                        }
                    }
                }
                if fuel >= CHUNK {
                    budget.charge(fuel)?;
                    fuel = 0;
                }
            }
        }
    }
}
