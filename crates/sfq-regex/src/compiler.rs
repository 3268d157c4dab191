//! Compiles a [`Pattern`] tree to a [`Program`].

use std::collections::HashMap;

use crate::ast::{Assertion, CharSet, Lookaround, Node, Pattern, Repeat};
use crate::charset::{MAX_CODE_POINT, MAX_CODE_UNIT};
use crate::parser::{is_lead, is_trail};
use crate::program::{ClassSet, Guard, GuardedChar, INF, Inst, Matcher, NONE, Program, TestStep};

/// Compiles `pattern`.
pub(crate) fn compile(pattern: &Pattern) -> Program {
    compile_with(pattern, true)
}

/// Compiles `pattern` without [`Inst::LookTest`]s: every lookahead that is not one
/// character or a literal runs through `LookStart`…`LookEnd` (tests compare the two).
#[cfg(test)]
pub(crate) fn compile_general(pattern: &Pattern) -> Program {
    compile_with(pattern, false)
}

fn compile_with(pattern: &Pattern, look_tests: bool) -> Program {
    let unicode = pattern.unicode_mode();
    let mut c = Compiler {
        look_tests,
        insts: Vec::new(),
        sets: Vec::new(),
        set_list: Vec::new(),
        set_ids: HashMap::new(),
        lits: Vec::new(),
        tests: Vec::new(),
        guarded: Vec::new(),
        regs: 2 * (pattern.capture_count + 1),
        unicode,
        max_char: if unicode { MAX_CODE_POINT } else { MAX_CODE_UNIT },
        behind_firsts: HashMap::new(),
    };
    c.emit(&pattern.root, false);
    c.insts.push(Inst::Match);
    thread_jumps(&mut c.insts);
    let guards = guards(&c.insts, &c.lits, &c.set_list, &c.guarded, &c.behind_firsts);
    let backref_guards = backref_guards(&c.insts);
    let lead_end = c.insts.iter().position(|i| !i.is_lead()).unwrap_or(c.insts.len()) as u32;
    // No instruction jumps into the lead (a run that skips it must not miss a way in).
    let lead_end = c.insts.iter().flat_map(targets).filter(|&t| t > 0).fold(lead_end, u32::min);
    let lead_saves = c.insts[..lead_end as usize]
        .iter()
        .filter_map(|i| if let Inst::Save { reg } = *i { Some(reg) } else { None })
        .collect();
    let lead_checks = c.insts[..lead_end as usize]
        .iter()
        .filter(|i| !matches!(i, Inst::Save { .. }))
        .copied()
        .collect();
    let memo = crate::memo::Plan::new(&c.insts, c.regs);
    // After the plan: it sees the loops as `Split`s (same successors, same slots).
    fuse_star_runs(&mut c.insts, &guards);
    Program {
        memo,
        guards,
        backref_guards,
        captures: pattern.capture_count + 1,
        lead_end,
        lead_saves,
        lead_is_word_boundary: lead_checks == [Inst::WordBoundary { negated: false }],
        lead_checks,
        insts: c.insts,
        sets: c.sets,
        lits: c.lits,
        tests: c.tests,
        guarded: c.guarded,
        regs: c.regs,
        unicode,
        ignore_case: pattern.flags.ignore_case,
        word_extended: pattern.flags.ignore_case && unicode,
    }
}

/// The instructions `inst` may continue at other than the next one.
fn targets(inst: &Inst) -> Vec<u32> {
    match *inst {
        Inst::Jmp { to } => vec![to],
        Inst::Split { first, second } => vec![first, second],
        Inst::StarRun { exit, .. } => vec![exit],
        Inst::RepeatHead { body, exit, .. } => vec![body, exit],
        Inst::RepeatTail { head, .. } => vec![head],
        Inst::LookStart { end, .. } => vec![end],
        _ => Vec::new(),
    }
}

/// A jump to an alternative (the back edge of a `*` loop) becomes that alternative:
/// one instruction less per iteration, same meaning.
fn thread_jumps(insts: &mut [Inst]) {
    for pc in 0..insts.len() {
        if let Inst::Jmp { to } = insts[pc]
            && let Some(&split @ Inst::Split { .. }) = insts.get(to as usize)
        {
            insts[pc] = split;
        }
    }
}

/// `Split(body, exit)`, `RepeatOne(m, min, unbounded, greedy)` whose guard is a
/// disjoint `One(sep)`, that `One(sep)`, `Split(body, exit)` (the threaded back edge):
/// the loop becomes one [`Inst::StarRun`] at the first `Split`. The body always
/// advances (by its `sep`, at least).
fn fuse_star_runs(insts: &mut [Inst], guards: &[Option<Guard>]) {
    for pc in 0..insts.len().saturating_sub(3) {
        let Inst::Split { first, second: exit } = insts[pc] else { continue };
        let body = pc as u32 + 1;
        if first != body || exit != pc as u32 + 4 {
            continue;
        }
        let Inst::RepeatOne { m, min, max: INF, greedy: true, back: false } = insts[pc + 1] else {
            continue;
        };
        let Inst::One { m: sep, back: false } = insts[pc + 2] else { continue };
        let back_edge = Inst::Split { first: body, second: exit };
        let disjoint =
            matches!(guards[pc + 1], Some(Guard { m: Some(g), disjoint: true, .. }) if g == sep);
        if disjoint && matches!(insts[pc + 3], i if i == back_edge) {
            insts[pc] = Inst::StarRun { m, min, sep, exit };
        }
    }
}

/// Most sequences an [`Inst::LookTest`] tries.
const MAX_TEST_SEQUENCES: usize = 16;
/// Most steps in one sequence of an [`Inst::LookTest`].
const MAX_TEST_STEPS: usize = 8;

struct Compiler {
    /// Whether lookaheads may become [`Inst::LookTest`]s.
    look_tests: bool,
    insts: Vec<Inst>,
    sets: Vec<ClassSet>,
    set_list: Vec<CharSet>,
    set_ids: HashMap<CharSet, u32>,
    lits: Vec<u16>,
    tests: Vec<TestStep>,
    guarded: Vec<GuardedChar>,
    regs: u32,
    unicode: bool,
    max_char: u32,
    /// By the index of a positive lookbehind's `LookStart`: the character its body reads
    /// first (the one right before the position), when known.
    behind_firsts: HashMap<u32, Matcher>,
}

impl Compiler {
    fn pc(&self) -> u32 {
        self.insts.len() as u32
    }

    fn push(&mut self, inst: Inst) -> u32 {
        self.insts.push(inst);
        self.pc() - 1
    }

    fn alloc_regs(&mut self, n: u32) -> u32 {
        let r = self.regs;
        self.regs += n;
        r
    }

    fn set_id(&mut self, set: &CharSet) -> u32 {
        if let Some(&id) = self.set_ids.get(set) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.sets.push(ClassSet::new(set));
        self.set_list.push(set.clone());
        self.set_ids.insert(set.clone(), id);
        id
    }

    /// The code units of a literal character, if it can be matched as plain units (in
    /// Unicode mode a surrogate code point must match an unpaired surrogate only).
    fn literal_units(&self, c: u32) -> Option<[u16; 2]> {
        if !self.unicode {
            return Some([c as u16, 0]);
        }
        if c > 0xFFFF {
            let c = c - 0x10000;
            return Some([0xD800 + (c >> 10) as u16, 0xDC00 + (c & 0x3FF) as u16]);
        }
        if is_lead(c) || is_trail(c) { None } else { Some([c as u16, 0]) }
    }

    /// A single-character matcher for the node, if it is one character without captures.
    fn matcher(&mut self, node: &Node) -> Option<Matcher> {
        match node {
            Node::Char(c) => {
                if let Some(u) = self.literal_units(*c)
                    && *c <= 0xFFFF
                {
                    return Some(Matcher::Unit(u[0]));
                }
                Some(Matcher::Set(self.set_id(&CharSet::single(*c))))
            }
            Node::Class(set) => Some(self.class_matcher(set)),
            _ => None,
        }
    }

    fn class_matcher(&mut self, set: &CharSet) -> Matcher {
        if set.ranges() == [(0, self.max_char)] {
            return Matcher::Any;
        }
        let plain = |c: u32| c <= 0xFFFF && (!self.unicode || !(is_lead(c) || is_trail(c)));
        if set.len() <= 2 && set.iter().all(plain) {
            let mut it = set.iter();
            match (it.next(), it.next()) {
                (Some(a), None) => return Matcher::Unit(a as u16),
                (Some(a), Some(b)) => return Matcher::Unit2(a as u16, b as u16),
                _ => {}
            }
        }
        Matcher::Set(self.set_id(set))
    }

    fn emit(&mut self, node: &Node, back: bool) {
        match node {
            Node::Empty => {}
            Node::Char(_) | Node::Class(_) => {
                if let Node::Char(c) = node
                    && *c > 0xFFFF
                    && self.unicode
                {
                    self.emit_lits(&[*c], back);
                    return;
                }
                if let Some(m) = self.matcher(node) {
                    self.push(Inst::One { m, back });
                }
            }
            Node::Assertion(a) => {
                self.push(assertion_inst(*a));
            }
            Node::Concat(nodes) => self.emit_concat(nodes, back),
            Node::Alternation(alts) => self.emit_alternation(alts, back),
            Node::Capture(cap) => {
                let (start, end) = (2 * cap.index, 2 * cap.index + 1);
                // Backwards, the end of the group is reached first.
                let (first, second) = if back { (end, start) } else { (start, end) };
                self.push(Inst::Save { reg: first });
                self.emit(&cap.node, back);
                self.push(Inst::Save { reg: second });
            }
            Node::Repeat(r) => self.emit_repeat(r, back),
            Node::Lookaround(l) => {
                if let Some(check) = self.look_check(l) {
                    self.push(check);
                    return;
                }
                let start = self.push(Inst::LookStart { negative: l.negative, end: 0 });
                if l.behind
                    && !l.negative
                    && let Some(set) = crate::prefilter::last_units(&l.node)
                {
                    let m = self.class_matcher(&set);
                    self.behind_firsts.insert(start, m);
                }
                self.emit(&l.node, l.behind);
                self.push(Inst::LookEnd);
                let end = self.pc();
                self.insts[start as usize] = Inst::LookStart { negative: l.negative, end };
            }
            Node::BackReference(group) => {
                self.push(Inst::BackRef { group: *group, back });
            }
        }
    }

    /// A lookaround that needs no frames, as one zero-width check of the position: a
    /// positive assertion (`(?=$)`: the assertion itself), a `LookOne` (one character),
    /// a `LookLit` (a literal) or, for a lookahead, a `LookTest` (see
    /// [`Compiler::test_sequences`]). `None` for the general `LookStart`…`LookEnd`.
    fn look_check(&mut self, l: &Lookaround) -> Option<Inst> {
        if let (Node::Assertion(a), false) = (&l.node, l.negative) {
            return Some(assertion_inst(*a));
        }
        if let Some(m) = self.matcher(&l.node)
            && !matches!(l.node, Node::Char(c) if c > 0xFFFF && self.unicode)
        {
            return Some(Inst::LookOne { m, behind: l.behind, negative: l.negative });
        }
        if let Some(chars) = literal_chars(&l.node)
            && chars.iter().all(|&c| self.literal_units(c).is_some())
        {
            let start = self.lits.len() as u32;
            for &c in &chars {
                if let Some(u) = self.literal_units(c) {
                    self.lits.push(u[0]);
                    if c > 0xFFFF {
                        self.lits.push(u[1]);
                    }
                }
            }
            let len = self.lits.len() as u32 - start;
            return Some(Inst::LookLit { start, len, behind: l.behind, negative: l.negative });
        }
        if l.behind || !self.look_tests {
            return None;
        }
        let seqs = self.test_sequences(&l.node)?;
        let first = self.test_first_units(&seqs).map_or(NONE, |set| self.set_id(&set));
        let mut steps = Vec::new();
        for seq in seqs {
            steps.push(TestStep::Seq { len: seq.len() as u32 });
            steps.extend(seq);
        }
        // The same body again (picomatch repeats its guards): the same steps.
        let start = match self.tests.windows(steps.len()).position(|w| w == steps.as_slice()) {
            Some(i) => i as u32,
            None => {
                self.tests.extend_from_slice(&steps);
                (self.tests.len() - steps.len()) as u32
            }
        };
        Some(Inst::LookTest { start, len: steps.len() as u32, negative: l.negative, first })
    }

    /// The code units a text has at the position whenever one of `seqs` matches there:
    /// those that start a character of a sequence's first `One` step (in Unicode mode,
    /// a lead surrogate for an astral character). `None` if a sequence reads no
    /// character or its first one can be any.
    fn test_first_units(&self, seqs: &[Vec<TestStep>]) -> Option<CharSet> {
        let mut units = CharSet::new();
        for seq in seqs {
            let m =
                seq.iter().find_map(|s| if let TestStep::One(m) = s { Some(*m) } else { None })?;
            let set = matcher_set(m, &self.set_list, &self.guarded)?;
            for &(a, b) in set.ranges() {
                if a <= MAX_CODE_UNIT {
                    units.add_range(a, b.min(MAX_CODE_UNIT));
                }
                if b > MAX_CODE_UNIT {
                    units.add_range(0xD800, 0xDBFF);
                }
            }
        }
        Some(units)
    }

    /// `(?:(?!(?:^|\/)\.).)`, `(?:\b\w)`: a zero-width check the position alone decides
    /// ([`Compiler::look_check`], an assertion) then one character, as a
    /// [`Matcher::Guarded`], so that a loop over it is a `RepeatOne` (no `Split`, no
    /// frame per iteration). Read forwards only: the check comes first.
    fn guarded_matcher(&mut self, node: &Node) -> Option<Matcher> {
        let Node::Concat(nodes) = node else { return None };
        let [check, one] = nodes.as_slice() else { return None };
        let check = match check {
            Node::Assertion(a) => assertion_inst(*a),
            Node::Lookaround(l) => self.look_check(l)?,
            _ => return None,
        };
        let g = GuardedChar { check, m: self.matcher(one)? };
        let i = self.guarded.iter().position(|&h| h == g).unwrap_or_else(|| {
            self.guarded.push(g);
            self.guarded.len() - 1
        });
        Some(Matcher::Guarded(i as u32))
    }

    /// A lookahead's body as the sequences of steps it can match, for an
    /// [`Inst::LookTest`]; `None` unless the body is made of characters, sets, `^`, `$`,
    /// `\b`, `\B`, non-capturing groups, alternations and repetitions with a small
    /// maximum, and expands to at most [`MAX_TEST_SEQUENCES`] sequences of at most
    /// [`MAX_TEST_STEPS`] steps (`(?:^|\/)\.{1,2}(?:\/|$)`: 8 sequences of 3 or 4).
    ///
    /// The expansion is exact: a lookaround is atomic and such a body sets no register,
    /// so all that counts is whether some path through it matches, not which path nor
    /// in which order paths are tried. A repetition `{min,max}` is the union of its
    /// `min..=max` powers; the spec's empty check rejects an iteration past `min` that
    /// matched empty, but dropping that iteration gives a path with one iteration less
    /// that reaches the same position, which the union has too. Each step is the
    /// instruction the general path would run (`Matcher`s from [`Compiler::matcher`],
    /// the flags' `^`/`$`), so the result is the same in every mode.
    fn test_sequences(&mut self, node: &Node) -> Option<Vec<Vec<TestStep>>> {
        let product = |a: &[Vec<TestStep>], b: &[Vec<TestStep>]| {
            if a.len() * b.len() > MAX_TEST_SEQUENCES {
                return None;
            }
            let out: Vec<Vec<TestStep>> =
                a.iter().flat_map(|x| b.iter().map(move |y| [x.as_slice(), y].concat())).collect();
            out.iter().all(|s| s.len() <= MAX_TEST_STEPS).then_some(out)
        };
        let mut seqs = match node {
            Node::Empty => vec![Vec::new()],
            Node::Char(_) | Node::Class(_) => vec![vec![TestStep::One(self.matcher(node)?)]],
            Node::Assertion(a) => vec![vec![match a {
                Assertion::StartOfInput => TestStep::StartOfInput,
                Assertion::EndOfInput => TestStep::EndOfInput,
                Assertion::StartOfLine => TestStep::StartOfLine,
                Assertion::EndOfLine => TestStep::EndOfLine,
                Assertion::WordBoundary => TestStep::WordBoundary { negated: false },
                Assertion::NotWordBoundary => TestStep::WordBoundary { negated: true },
            }]],
            Node::Concat(nodes) => {
                let mut acc = vec![Vec::new()];
                for n in nodes {
                    let next = self.test_sequences(n)?;
                    acc = product(&acc, &next)?;
                }
                acc
            }
            Node::Alternation(alts) => {
                let mut out = Vec::new();
                for a in alts {
                    out.extend(self.test_sequences(a)?);
                    if out.len() > MAX_TEST_SEQUENCES {
                        return None;
                    }
                }
                out
            }
            Node::Repeat(r) => {
                let max = r.max.filter(|&m| m as usize <= MAX_TEST_STEPS)?;
                let body = if max > 0 { self.test_sequences(&r.node)? } else { Vec::new() };
                let mut out = Vec::new();
                let mut power = vec![Vec::new()];
                for k in 0..=max {
                    if k >= r.min {
                        out.extend(power.iter().cloned());
                    }
                    if k < max {
                        power = product(&power, &body)?;
                    }
                }
                out
            }
            Node::Capture(_) | Node::Lookaround(_) | Node::BackReference(_) => return None,
        };
        // `(?:a|a)`, `x{0,2}` over an empty body: a sequence tried twice fails twice.
        let mut unique: Vec<Vec<TestStep>> = Vec::with_capacity(seqs.len());
        for s in seqs.drain(..) {
            if !unique.contains(&s) {
                unique.push(s);
            }
        }
        (unique.len() <= MAX_TEST_SEQUENCES).then_some(unique)
    }

    /// A concatenation; runs of literal characters become one `Lit`.
    fn emit_concat(&mut self, nodes: &[Node], back: bool) {
        // Split into segments: literal runs and other nodes, in source order.
        let mut segments: Vec<Result<Vec<u32>, &Node>> = Vec::new();
        for n in nodes {
            match n {
                Node::Char(c) if self.literal_units(*c).is_some() => match segments.last_mut() {
                    Some(Ok(run)) => run.push(*c),
                    _ => segments.push(Ok(vec![*c])),
                },
                other => segments.push(Err(other)),
            }
        }
        if back {
            segments.reverse();
        }
        for seg in segments {
            match seg {
                Ok(run) if run.len() == 1 && run[0] <= 0xFFFF => {
                    self.push(Inst::One { m: Matcher::Unit(run[0] as u16), back });
                }
                Ok(run) => self.emit_lits(&run, back),
                Err(node) => self.emit(node, back),
            }
        }
    }

    fn emit_lits(&mut self, chars: &[u32], back: bool) {
        let start = self.lits.len() as u32;
        for &c in chars {
            if let Some(u) = self.literal_units(c) {
                self.lits.push(u[0]);
                if c > 0xFFFF {
                    self.lits.push(u[1]);
                }
            }
        }
        let len = self.lits.len() as u32 - start;
        self.push(Inst::Lit { start, len, back });
    }

    fn emit_alternation(&mut self, alts: &[Node], back: bool) {
        let mut jumps = Vec::new();
        for (i, alt) in alts.iter().enumerate() {
            if i + 1 < alts.len() {
                let split = self.push(Inst::Split { first: 0, second: 0 });
                self.emit(alt, back);
                jumps.push(self.push(Inst::Jmp { to: 0 }));
                let next = self.pc();
                self.insts[split as usize] = Inst::Split { first: split + 1, second: next };
            } else {
                self.emit(alt, back);
            }
        }
        let end = self.pc();
        for j in jumps {
            self.insts[j as usize] = Inst::Jmp { to: end };
        }
    }

    fn emit_repeat(&mut self, r: &Repeat, back: bool) {
        let max = r.max.unwrap_or(INF);
        if max == 0 {
            return;
        }
        if let Some(m) = self.matcher(&r.node) {
            self.push(Inst::RepeatOne { m, min: r.min, max, greedy: r.greedy, back });
            return;
        }
        if !back
            && self.look_tests
            && let Some(m) = self.guarded_matcher(&r.node)
        {
            // One character per iteration, so no empty check and no captures to reset.
            self.push(Inst::RepeatOne { m, min: r.min, max, greedy: r.greedy, back });
            return;
        }
        let caps = r.node.capture_range();
        let (clear_lo, clear_hi) =
            if caps.is_empty() { (0, 0) } else { (2 * caps.start, 2 * caps.end) };
        let nullable = r.node.can_be_empty();
        if r.min == 0 && (max == 1 || (max == INF && !nullable)) {
            // `?`, and `*` over a body that always advances: no counter needed.
            let split = self.push(Inst::Split { first: 0, second: 0 });
            let body = self.pc();
            if clear_hi > clear_lo {
                self.push(Inst::ClearRegs { lo: clear_lo, hi: clear_hi });
            }
            let mark = if nullable {
                let reg = self.alloc_regs(1);
                self.push(Inst::Save { reg });
                Some(reg)
            } else {
                None
            };
            self.emit(&r.node, back);
            if let Some(reg) = mark {
                self.push(Inst::CheckProgress { reg });
            }
            if max == INF {
                self.push(Inst::Jmp { to: split });
            }
            let exit = self.pc();
            self.insts[split as usize] = if r.greedy {
                Inst::Split { first: body, second: exit }
            } else {
                Inst::Split { first: exit, second: body }
            };
            return;
        }
        let reg = self.alloc_regs(2);
        self.push(Inst::RepeatInit { reg });
        let head = self.push(Inst::Jmp { to: 0 });
        let body = self.push(Inst::RepeatEnter { reg, clear_lo, clear_hi });
        self.emit(&r.node, back);
        self.push(Inst::RepeatTail { reg, min: r.min, head, check_empty: nullable });
        let exit = self.pc();
        self.insts[head as usize] =
            Inst::RepeatHead { reg, min: r.min, max, greedy: r.greedy, body, exit };
    }
}

/// The instruction of an assertion.
fn assertion_inst(a: Assertion) -> Inst {
    match a {
        Assertion::StartOfInput => Inst::StartOfInput,
        Assertion::EndOfInput => Inst::EndOfInput,
        Assertion::StartOfLine => Inst::StartOfLine,
        Assertion::EndOfLine => Inst::EndOfLine,
        Assertion::WordBoundary => Inst::WordBoundary { negated: false },
        Assertion::NotWordBoundary => Inst::WordBoundary { negated: true },
    }
}

/// The characters of a node that is a plain literal string.
fn literal_chars(node: &Node) -> Option<Vec<u32>> {
    match node {
        Node::Char(c) => Some(vec![*c]),
        Node::Concat(v) => {
            v.iter().map(|n| if let Node::Char(c) = n { Some(*c) } else { None }).collect()
        }
        _ => None,
    }
}

/// The guard of each `RepeatOne`: what the instruction after it (past `Save`s and
/// `Jmp`s) needs to find at once. A greedy loop gives back characters down to a
/// position where it holds; a lazy one takes characters up to one.
fn guards(
    insts: &[Inst],
    lits: &[u16],
    sets: &[CharSet],
    guarded: &[GuardedChar],
    behind_firsts: &HashMap<u32, Matcher>,
) -> Vec<Option<Guard>> {
    let mut out = vec![None; insts.len()];
    for (pc, inst) in insts.iter().enumerate() {
        let Inst::RepeatOne { m: rep, back, .. } = *inst else { continue };
        let mut next = pc + 1;
        for _ in 0..insts.len() {
            match insts.get(next) {
                Some(Inst::Save { .. }) => next += 1,
                Some(&Inst::Jmp { to }) => next = to as usize,
                _ => break,
            }
        }
        let m = match insts.get(next) {
            Some(&Inst::One { m, back: b }) if b == back => Some(m),
            Some(&Inst::RepeatOne { m, min, back: b, .. }) if b == back && min >= 1 => Some(m),
            Some(&Inst::LookOne { m, behind, negative: false }) if behind == back => Some(m),
            Some(&Inst::Lit { start, len, back: b }) if b == back && len > 0 => {
                let i = if back { start + len - 1 } else { start };
                lits.get(i as usize).map(|&u| Matcher::Unit(u))
            }
            Some(&Inst::LookLit { start, len, behind, negative: false })
                if behind == back && len > 0 =>
            {
                let i = if back { start + len - 1 } else { start };
                lits.get(i as usize).map(|&u| Matcher::Unit(u))
            }
            Some(Inst::EndOfInput) if !back => {
                // Only the end of the text will do: giving back never helps.
                out[pc] = Some(Guard { m: None, line_end: false, behind: false, disjoint: true });
                continue;
            }
            Some(&Inst::LookOne { m, behind: true, negative: false }) if !back => {
                out[pc] =
                    Some(Guard { m: Some(m), line_end: false, behind: true, disjoint: false });
                continue;
            }
            Some(&Inst::LookLit { start, len, behind: true, negative: false })
                if !back && len > 0 =>
            {
                // The literal's last unit is right before the position.
                out[pc] = lits.get((start + len - 1) as usize).map(|&u| Guard {
                    m: Some(Matcher::Unit(u)),
                    line_end: false,
                    behind: true,
                    disjoint: false,
                });
                continue;
            }
            Some(Inst::LookStart { negative: false, .. })
                if let Some(&m) = behind_firsts.get(&(next as u32)) =>
            {
                // A lookbehind: the character before the position must be one its body
                // reads first (a character of the loop's own run, so never disjoint).
                out[pc] =
                    Some(Guard { m: Some(m), line_end: false, behind: true, disjoint: false });
                continue;
            }
            Some(Inst::EndOfLine) if !back => {
                // The end of the text or a line terminator: giving back helps only if the
                // loop can match a terminator.
                let terminators =
                    CharSet::from_ranges([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]);
                let disjoint = matcher_set(rep, sets, guarded)
                    .is_some_and(|a| a.intersect(&terminators).is_empty());
                out[pc] = Some(Guard { m: None, line_end: true, behind: false, disjoint });
                continue;
            }
            _ => None,
        };
        out[pc] = m.map(|m| {
            let (a, b) = (matcher_set(rep, sets, guarded), matcher_set(m, sets, guarded));
            // A lone unit of a surrogate pair never counts as disjoint: keep it simple.
            let disjoint = match (a, b) {
                (Some(a), Some(b)) => {
                    a.intersect(&b).is_empty()
                        && !b.ranges().iter().any(|&(lo, hi)| lo <= 0xDFFF && hi >= 0xD800)
                }
                _ => false,
            };
            Guard { m: Some(m), line_end: false, behind: false, disjoint }
        });
    }
    out
}

/// For each greedy forward `RepeatOne` followed, past `Save`s that do not write that
/// group, by a forward back reference: the group (see `Program::backref_guards`).
fn backref_guards(insts: &[Inst]) -> Vec<u32> {
    let mut out = vec![NONE; insts.len()];
    for (pc, inst) in insts.iter().enumerate() {
        let Inst::RepeatOne { greedy: true, back: false, .. } = *inst else { continue };
        let mut next = pc + 1;
        let mut written = Vec::new();
        while let Some(&Inst::Save { reg }) = insts.get(next) {
            written.push(reg);
            next += 1;
        }
        if let Some(&Inst::BackRef { group, back: false }) = insts.get(next)
            && !written.iter().any(|&r| r / 2 == group)
        {
            out[pc] = group;
        }
    }
    out
}

/// The set of characters a matcher accepts (`None` for any character); for a
/// [`Matcher::Guarded`], those of its character (a superset: its check is ignored).
fn matcher_set(m: Matcher, sets: &[CharSet], guarded: &[GuardedChar]) -> Option<CharSet> {
    match m {
        Matcher::Guarded(i) => guarded.get(i as usize).and_then(|g| matcher_set(g.m, sets, &[])),
        Matcher::Unit(c) => Some(CharSet::single(u32::from(c))),
        Matcher::Unit2(a, b) => {
            Some(CharSet::from_ranges([(u32::from(a), u32::from(a)), (u32::from(b), u32::from(b))]))
        }
        Matcher::Set(i) => sets.get(i as usize).cloned(),
        Matcher::Any => None,
    }
}
