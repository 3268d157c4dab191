//! Memoisation of failed states, so that patterns with exponentially many paths
//! (`(a|aa)+(?=b)`, `^(?=(a+)+$)`, `(a*)+b\1`) search in polynomial time.
//!
//! A backtracking search that stops at its first match explores the states of the
//! program (an instruction and a text position, with the registers that instruction
//! and its successors will still read) in priority order. Once a state has been
//! reached, either its exploration finds the match (and the search ends) or it
//! exhausts every path from it. Reaching the same state again can therefore only
//! fail: the VM fails it at once (RE2's "bit-state" backtracker does the same). The
//! result is the one the plain search gives, captures included: only paths that
//! would fail are cut.
//!
//! What makes two states the same:
//! * the instruction and the position;
//! * the registers that are *live* there (read on some path before being written):
//!   capture registers a back reference reads, loop counters (only up to the point
//!   where their value stops mattering: `min + 1` for an unbounded loop) and the
//!   loop marks of the empty checks. Captures no back reference reads are output
//!   only: they never decide whether a path fails;
//! * inside a lookaround, the activation of that lookaround: its body ends at its
//!   first success (a lookaround is atomic), so its states are not exhausted and
//!   are only memoised within one activation (each `LookStart` starts a new
//!   generation for the states of its body).
//!
//! Only join points are memoised (targets of jumps and alternatives, loop heads,
//! the continuation of a one-character loop): every path that can revisit a state
//! passes through one. The memo is switched on only when a search has done much
//! more work than its text's length (ordinary searches never pay for it), and off
//! again when it does not pay (few revisits).

use std::collections::HashMap;

use crate::program::{INF, Inst, NONE};

/// A register whose value is part of a memoised state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Live {
    pub(crate) reg: u32,
    /// Values at or above this one behave alike (a loop counter past its minimum);
    /// `NONE`: the exact value counts.
    pub(crate) cap: u32,
}

/// Which instructions are memoised, and what their states hold (computed once per
/// program).
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    /// By instruction: its memo slot, or `NONE`.
    pub(crate) slot: Vec<u32>,
    /// By slot: the live registers.
    pub(crate) live: Vec<Box<[Live]>>,
    /// By slot: its row in the dense table (slots with no live register), or `NONE`.
    pub(crate) row: Vec<u32>,
    /// Rows of the dense table.
    pub(crate) rows: u32,
    /// By instruction: the innermost lookaround it belongs to (a `LookStart` belongs
    /// to the enclosing one, its `LookEnd` to its own), or `NONE`.
    pub(crate) look: Vec<u32>,
    /// Lookarounds with a body of their own (`LookStart`…`LookEnd`).
    pub(crate) looks: u32,
}

/// Programs with more instructions × registers than this are not analysed (the
/// liveness bit sets would be too big); they run without a memo.
const MAX_ANALYSIS_BITS: usize = 1 << 24;

impl Plan {
    /// The plan for `insts` with `regs` registers, of which `2 * captures` are
    /// capture registers.
    pub(crate) fn new(insts: &[Inst], regs: u32) -> Plan {
        let n = insts.len();
        let regs = regs as usize;
        if n == 0 || n.saturating_mul(regs.max(1)) > MAX_ANALYSIS_BITS {
            return Plan::default();
        }
        // Lookaround nesting.
        let mut look = vec![NONE; n];
        let mut looks = 0u32;
        let mut open: Vec<(u32, usize)> = Vec::new();
        let mut end_of = vec![NONE; n];
        for (pc, inst) in insts.iter().enumerate() {
            while let Some(&(_, end)) = open.last() {
                if pc >= end {
                    open.pop();
                } else {
                    break;
                }
            }
            look[pc] = open.last().map_or(NONE, |&(i, _)| i);
            if let Inst::LookStart { end, .. } = *inst {
                open.push((looks, end as usize));
                looks += 1;
            }
            if let Inst::LookEnd = inst {
                // The instruction after the lookaround: where its body continues.
                end_of[pc] = open.last().map_or(NONE, |&(_, end)| end as u32);
            }
        }
        // Successors, and how many ways each instruction is reached.
        let succ = |pc: usize| -> [u32; 2] {
            let next = pc as u32 + 1;
            match insts[pc] {
                Inst::Match => [NONE, NONE],
                Inst::Jmp { to } => [to, NONE],
                Inst::Split { first, second } => [first, second],
                Inst::RepeatHead { body, exit, .. } => [body, exit],
                Inst::RepeatTail { head, .. } => [head, NONE],
                Inst::LookStart { end, negative: true } => [next, end],
                Inst::LookEnd => [end_of[pc], NONE],
                _ => [next, NONE],
            }
        };
        let mut preds = vec![0u32; n];
        let mut join = vec![false; n];
        for pc in 0..n {
            for s in succ(pc) {
                if (s as usize) < n {
                    preds[s as usize] += 1;
                }
            }
            match insts[pc] {
                Inst::Split { first, second } => {
                    for s in [first, second] {
                        if (s as usize) < n {
                            join[s as usize] = true;
                        }
                    }
                }
                Inst::RepeatHead { .. } => join[pc] = true,
                Inst::RepeatOne { min, max, .. } if min != max && pc + 1 < n => join[pc + 1] = true,
                _ => {}
            }
        }
        // Loop counters: values at or past `min + 1` (unbounded loops) behave alike.
        let mut cap = vec![NONE; regs];
        for inst in insts {
            if let Inst::RepeatHead { reg, min, max, .. } = *inst
                && max == INF
            {
                cap[reg as usize] = min.saturating_add(1);
            }
        }
        // Liveness: a backward data-flow over bit sets of registers.
        let words = regs.div_ceil(64).max(1);
        let mut uses = vec![0u64; n * words];
        let mut defs = vec![0u64; n * words];
        let set = |v: &mut Vec<u64>, pc: usize, r: u32| {
            if (r as usize) < regs {
                v[pc * words + r as usize / 64] |= 1 << (r % 64);
            }
        };
        for (pc, inst) in insts.iter().enumerate() {
            match *inst {
                Inst::Save { reg } | Inst::RepeatInit { reg } => set(&mut defs, pc, reg),
                Inst::ClearRegs { lo, hi } => (lo..hi).for_each(|r| set(&mut defs, pc, r)),
                Inst::RepeatHead { reg, .. } | Inst::CheckProgress { reg } => {
                    set(&mut uses, pc, reg)
                }
                Inst::RepeatEnter { reg, clear_lo, clear_hi } => {
                    set(&mut uses, pc, reg);
                    set(&mut defs, pc, reg);
                    set(&mut defs, pc, reg + 1);
                    (clear_lo..clear_hi).for_each(|r| set(&mut defs, pc, r));
                }
                Inst::RepeatTail { reg, check_empty: true, .. } => {
                    set(&mut uses, pc, reg);
                    set(&mut uses, pc, reg + 1);
                }
                Inst::BackRef { group, .. } => {
                    set(&mut uses, pc, 2 * group);
                    set(&mut uses, pc, 2 * group + 1);
                }
                _ => {}
            }
        }
        let mut live = vec![0u64; n * words];
        let mut changed = true;
        while changed {
            changed = false;
            for pc in (0..n).rev() {
                for w in 0..words {
                    let mut out = 0u64;
                    for s in succ(pc) {
                        if (s as usize) < n {
                            out |= live[s as usize * words + w];
                        }
                    }
                    let i = pc * words + w;
                    let v = uses[i] | (out & !defs[i]);
                    if v != live[i] {
                        live[i] = v;
                        changed = true;
                    }
                }
            }
        }
        let mut plan = Plan { slot: vec![NONE; n], look, looks, ..Plan::default() };
        for pc in 0..n {
            if !(join[pc] || preds[pc] >= 2) || matches!(insts[pc], Inst::Match) {
                continue;
            }
            let regs_live: Box<[Live]> = (0..regs as u32)
                .filter(|&r| live[pc * words + r as usize / 64] >> (r % 64) & 1 == 1)
                .map(|r| Live { reg: r, cap: cap[r as usize] })
                .collect();
            plan.slot[pc] = plan.live.len() as u32;
            plan.row.push(if regs_live.is_empty() {
                plan.rows += 1;
                plan.rows - 1
            } else {
                NONE
            });
            plan.live.push(regs_live);
        }
        plan
    }

    /// Whether the program has anything to memoise.
    pub(crate) fn is_empty(&self) -> bool {
        self.live.is_empty()
    }
}

/// Dense-table entries (4 bytes each) beyond which states go to the hash table.
const MAX_DENSE: usize = 1 << 23;
/// Hashed states kept at most (later ones are not recorded: the search only loses
/// pruning).
const MAX_HASHED: usize = 1 << 20;
/// Entries of the dense table or the key store kept for the next search (4 MiB).
const KEEP_STAMPS: usize = 1 << 20;
/// Lookups after which the memo's hit rate is judged (at least; more on long texts,
/// where the first revisits come later).
const JUDGE_AFTER: u64 = 1 << 12;

/// The memo of one search (kept in the VM's scratch memory between searches).
#[derive(Default)]
pub(crate) struct Memo {
    /// Recording and pruning states.
    pub(crate) active: bool,
    /// Never switched on in this search (nothing to memoise).
    retired: bool,
    /// The search's steps after which the memo is switched on (again: a memo that did
    /// not pay is switched off and tried again after four times the work).
    next_try: u64,
    /// The search's steps when last looked at.
    steps: u64,
    /// The last generation handed out; generations are never reused, so entries of
    /// earlier searches never match.
    gen_counter: u32,
    /// The generation of the states outside lookarounds, for this search.
    search_gen: u32,
    /// By lookaround: the generation of its current activation.
    look_gens: Vec<u32>,
    /// Dense table: `rows × width` generation stamps.
    stamps: Vec<u32>,
    width: usize,
    /// Hashed states: key hash → the offset of the last key with that hash in `keys`.
    table: HashMap<u64, u32, BuildFx>,
    keys: Vec<u32>,
    hashed: usize,
    lookups: u64,
    hits: u64,
    /// The budget's spent steps when the search began.
    pub(crate) spent_at_start: u64,
    /// Tests: memoise from the first step.
    pub(crate) eager: bool,
}

impl Memo {
    fn next_gen(&mut self) -> u32 {
        if self.gen_counter == u32::MAX {
            // Wrapped: forget every stamp.
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.table.clear();
            self.keys.clear();
            self.hashed = 0;
            self.gen_counter = 0;
        }
        self.gen_counter += 1;
        self.gen_counter
    }

    /// A new search over a text of `len` units, with `plan`.
    pub(crate) fn begin(&mut self, plan: &Plan, len: usize, spent: u64) {
        self.active = false;
        self.retired = plan.is_empty();
        self.spent_at_start = spent;
        self.search_gen = self.next_gen();
        if self.look_gens.len() < plan.looks as usize {
            self.look_gens.resize(plan.looks as usize, 0);
        }
        self.width = len + 1;
        if !self.table.is_empty() {
            self.table.clear();
            self.keys.clear();
            self.hashed = 0;
        }
        self.lookups = 0;
        self.hits = 0;
        self.steps = 0;
        self.next_try = 16 * self.width as u64 + 20_000;
        if self.eager && !self.retired {
            self.activate(plan);
        }
    }

    /// Frees the memory of an unusually large memo (after a search).
    pub(crate) fn shrink(&mut self) {
        if self.stamps.len() > KEEP_STAMPS {
            self.stamps = Vec::new();
        }
        if self.keys.len() > KEEP_STAMPS {
            self.keys = Vec::new();
            self.table = HashMap::default();
            self.hashed = 0;
        }
    }

    /// Whether a search that has spent `steps` should start memoising.
    #[inline]
    pub(crate) fn wants(&mut self, steps: u64) -> bool {
        self.steps = steps;
        !self.active && !self.retired && steps > self.next_try
    }

    /// Starts recording states.
    pub(crate) fn activate(&mut self, plan: &Plan) {
        let need = plan.rows as usize * self.width;
        if need <= MAX_DENSE {
            if self.stamps.len() < need {
                self.stamps.resize(need, 0);
            }
        } else if self.stamps.len() > MAX_DENSE {
            self.stamps = Vec::new();
        }
        self.active = true;
        self.lookups = 0;
        self.hits = 0;
    }

    /// A lookaround's body is entered: its states start afresh.
    #[inline]
    pub(crate) fn enter_look(&mut self, plan: &Plan, pc: u32) {
        // The body's first instruction belongs to this lookaround.
        if let Some(&l) = plan.look.get(pc as usize + 1)
            && l != NONE
        {
            let g = self.next_gen();
            self.look_gens[l as usize] = g;
        }
    }

    /// Records the state at `pc` (a memo point with `slot`) and `pos`; `true` if it
    /// was reached before in this search (it can only fail).
    pub(crate) fn seen(&mut self, plan: &Plan, slot: u32, pc: u32, pos: u32, regs: &[u32]) -> bool {
        let l = plan.look[pc as usize];
        let generation = if l == NONE { self.search_gen } else { self.look_gens[l as usize] };
        let row = plan.row[slot as usize];
        self.lookups += 1;
        let seen = if row != NONE && self.stamps.len() >= (row as usize + 1) * self.width {
            let i = row as usize * self.width + pos as usize;
            let s = &mut self.stamps[i];
            let seen = *s == generation;
            *s = generation;
            seen
        } else {
            self.seen_hashed(plan, slot, pos, generation, regs)
        };
        if seen {
            self.hits += 1;
        }
        if self.lookups >= JUDGE_AFTER.max(2 * self.width as u64)
            && self.hits < self.lookups / 32
            && !self.eager
        {
            // Hardly any state comes back: the memo only costs. Off until the search
            // has done four times the work.
            self.active = false;
            self.next_try = self.steps.saturating_mul(4).max(self.next_try);
        }
        seen
    }

    fn seen_hashed(
        &mut self,
        plan: &Plan,
        slot: u32,
        pos: u32,
        generation: u32,
        regs: &[u32],
    ) -> bool {
        let live = &plan.live[slot as usize];
        let value = |l: &Live| {
            let v = regs[l.reg as usize];
            if l.cap != NONE { v.min(l.cap) } else { v }
        };
        let mut h = Fx::default();
        h.add(u64::from(slot) << 32 | u64::from(pos));
        h.add(u64::from(generation));
        for l in live.iter() {
            h.add(u64::from(value(l)));
        }
        // Entries in `keys`: the next entry of the same hash (or `NONE`), then the key.
        let mut at = self.table.get(&h.0).copied().unwrap_or(NONE);
        while at != NONE {
            let k = &self.keys[at as usize..at as usize + 4 + live.len()];
            if k[1] == slot
                && k[2] == pos
                && k[3] == generation
                && live.iter().zip(&k[4..]).all(|(l, &v)| value(l) == v)
            {
                return true;
            }
            at = k[0];
        }
        if self.hashed < MAX_HASHED {
            let head = self.keys.len() as u32;
            let next = self.table.insert(h.0, head).unwrap_or(NONE);
            self.keys.extend([next, slot, pos, generation]);
            self.keys.extend(live.iter().map(value));
            self.hashed += 1;
        }
        false
    }
}

/// FxHash (rustc's hasher): keys here are small integers, hashed in bulk.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Fx {
    #[inline]
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The table's keys are already hashes: pass them through.
#[derive(Default, Clone, Copy)]
struct BuildFx;

impl std::hash::BuildHasher for BuildFx {
    type Hasher = PassThrough;
    fn build_hasher(&self) -> PassThrough {
        PassThrough(0)
    }
}

struct PassThrough(u64);

impl std::hash::Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}
