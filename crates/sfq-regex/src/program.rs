//! The compiled program: a flat list of instructions for the backtracking VM, in the
//! style of QuickJS's libregexp. Lookbehinds are compiled to instructions that read
//! backwards, so they are matched right to left as the spec says.

/// A register or position value meaning "unset".
pub(crate) const NONE: u32 = u32::MAX;
/// "No maximum" in counted loops.
pub(crate) const INF: u32 = u32::MAX;

/// What a single-character step matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Matcher {
    /// One code unit (a BMP character that is not a surrogate in Unicode mode).
    Unit(u16),
    /// Either of two code units (same restriction).
    Unit2(u16, u16),
    /// A member of a set of the program (by index).
    Set(u32),
    /// Any character: one code unit, or one code point in Unicode mode.
    Any,
    /// A character of the program's `guarded[i]`: its check holds at the position, then
    /// its matcher matches (`(?:(?!(?:^|\/)\.).)`, see `compiler::Compiler::guarded_matcher`).
    Guarded(u32),
}

/// A zero-width check then one character: the body of a [`Matcher::Guarded`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GuardedChar {
    /// A zero-width check of the position alone: an instruction [`Inst::is_lead`]
    /// accepts, other than `Save`.
    pub(crate) check: Inst,
    /// The character, never itself `Guarded`.
    pub(crate) m: Matcher,
}

/// One instruction. `back` variants read the text right to left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Inst {
    /// The whole pattern matched.
    Match,
    /// Match one character.
    One { m: Matcher, back: bool },
    /// Match the code units `lits[start..start + len]` exactly.
    Lit { start: u32, len: u32, back: bool },
    /// `^` without `m`.
    StartOfInput,
    /// `$` without `m`.
    EndOfInput,
    /// `^` with `m`.
    StartOfLine,
    /// `$` with `m`.
    EndOfLine,
    /// `\b` (`negated`: `\B`).
    WordBoundary { negated: bool },
    /// Continue at `to`.
    Jmp { to: u32 },
    /// Continue at `first`; on backtracking, at `second` with the same position.
    Split { first: u32, second: u32 },
    /// `regs[reg] = pos` (undone on backtracking).
    Save { reg: u32 },
    /// Unset the registers `lo..hi` (the captures of a loop body, at each iteration).
    ClearRegs { lo: u32, hi: u32 },
    /// A counted loop starts: its counter is 0.
    RepeatInit { reg: u32 },
    /// The head of a counted loop with counter `regs[reg]` and mark `regs[reg + 1]`:
    /// below `min` iterations enter the body at `body`; at `max` exit to `exit`; else
    /// enter or exit in greedy or lazy order.
    RepeatHead { reg: u32, min: u32, max: u32, greedy: bool, body: u32, exit: u32 },
    /// Start of an iteration: count it, remember the position for the empty check, and
    /// unset the body's capture registers `clear_lo..clear_hi`.
    RepeatEnter { reg: u32, clear_lo: u32, clear_hi: u32 },
    /// End of an iteration: fail if an iteration beyond `min` matched empty (when
    /// `check_empty`), else continue at the head.
    RepeatTail { reg: u32, min: u32, head: u32, check_empty: bool },
    /// Fail if the position is `regs[reg]` (empty check of `?` and `*`).
    CheckProgress { reg: u32 },
    /// A loop over one character: greedy (as many as possible, giving back one at a time)
    /// or lazy.
    RepeatOne { m: Matcher, min: u32, max: u32, greedy: bool, back: bool },
    /// A greedy `*` loop whose body is a greedy run of `m` (at least `min`, maybe none)
    /// then one `sep` character that `m` never matches, with no captures: `(?:\w+\s)*`,
    /// `(?:[^;]*;)*`. The body
    /// matches one way or not at all, so the loop runs natively, leaving an alternative
    /// (continue at `exit`) at each iteration's start, as its `Split` would, and goes on
    /// at `exit` after the last iteration. Replaces the loop's `Split` (the body's
    /// instructions stay, unreached), after the guards and the memo plan are made.
    StarRun { m: Matcher, min: u32, sep: Matcher, exit: u32 },
    /// The text captured by `group` (empty if unset).
    BackRef { group: u32, back: bool },
    /// A lookaround starts; the instruction after its `LookEnd` is `end`.
    LookStart { negative: bool, end: u32 },
    /// A lookaround whose body is one character: succeeds (without moving) if the
    /// character after (`behind`: before) the position matches `m`, or not (`negative`).
    LookOne { m: Matcher, behind: bool, negative: bool },
    /// A lookaround whose body is a literal: the units `lits[start..start + len]` follow
    /// (`behind`: precede) the position, or not (`negative`).
    LookLit { start: u32, len: u32, behind: bool, negative: bool },
    /// A lookahead whose body is a few alternatives of fixed sequences of characters and
    /// position checks, without captures (`(?!(?:^|\/)\.)`): succeeds, without moving,
    /// if one of the sequences in `tests[start..start + len]` matches at the position, or
    /// (`negative`) none does. One instruction for what `LookStart`…`LookEnd` would run
    /// with frames (see `compiler::Compiler::test_sequences`). `first`: a set of the
    /// program that holds the code unit at the position whenever a sequence matches
    /// (every sequence reads a character), or `NONE`.
    LookTest { start: u32, len: u32, negative: bool, first: u32 },
    /// A lookaround body matched.
    LookEnd,
}

/// A step of a [`Inst::LookTest`] sequence, read forwards from the position. Each
/// sequence is a `Seq` then its steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TestStep {
    /// A sequence of `len` steps follows.
    Seq { len: u32 },
    /// One character.
    One(Matcher),
    /// `^` without `m`.
    StartOfInput,
    /// `$` without `m`.
    EndOfInput,
    /// `^` with `m`.
    StartOfLine,
    /// `$` with `m`.
    EndOfLine,
    /// `\b` (`negated`: `\B`).
    WordBoundary { negated: bool },
}

impl Inst {
    /// Whether the instruction may be in a program's lead: a capture's `Save` or a
    /// zero-width check of the position alone (`Vm::lead_ok` evaluates each of these).
    pub(crate) fn is_lead(&self) -> bool {
        matches!(
            self,
            Inst::Save { .. }
                | Inst::StartOfInput
                | Inst::StartOfLine
                | Inst::EndOfInput
                | Inst::EndOfLine
                | Inst::WordBoundary { .. }
                | Inst::LookOne { .. }
                | Inst::LookLit { .. }
                | Inst::LookTest { .. }
        )
    }
}

/// What the continuation of a one-character loop needs at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Guard {
    /// The character the continuation must start with, or `None` when it needs the end
    /// of the text (`$` without `m`) or, with `line_end`, of a line (`$` with `m`).
    pub(crate) m: Option<Matcher>,
    /// With `m` `None`: a line terminator after the position will do too.
    pub(crate) line_end: bool,
    /// `m` is the character before the position (a lookbehind's), whichever way the loop
    /// reads.
    pub(crate) behind: bool,
    /// No character the loop matches can satisfy the guard: only the position right after
    /// everything the loop matched can, so giving back is useless (greedy loops only).
    pub(crate) disjoint: bool,
}

/// A character set prepared for fast membership tests.
#[derive(Clone, Debug)]
pub(crate) struct ClassSet {
    low: [u64; 4],
    /// Ranges at or above 256.
    high: Box<[(u32, u32)]>,
}

impl ClassSet {
    pub(crate) fn new(set: &crate::charset::CharSet) -> ClassSet {
        let mut low = [0u64; 4];
        let mut high = Vec::new();
        for &(a, b) in set.ranges() {
            if a < 256 {
                for c in a..=b.min(255) {
                    low[(c >> 6) as usize] |= 1 << (c & 63);
                }
            }
            if b >= 256 {
                high.push((a.max(256), b));
            }
        }
        ClassSet { low, high: high.into_boxed_slice() }
    }

    #[inline(always)]
    pub(crate) fn contains(&self, c: u32) -> bool {
        if c < 256 {
            return self.low[(c >> 6) as usize] >> (c & 63) & 1 == 1;
        }
        let h = &self.high;
        match h.len() {
            0 => false,
            1 => c >= h[0].0 && c <= h[0].1,
            _ => {
                let i = h.partition_point(|&(a, _)| a <= c);
                i > 0 && h[i - 1].1 >= c
            }
        }
    }
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    pub(crate) insts: Vec<Inst>,
    pub(crate) sets: Vec<ClassSet>,
    pub(crate) lits: Vec<u16>,
    /// The sequences of the `LookTest`s, each a [`TestStep::Seq`] and its steps.
    pub(crate) tests: Vec<TestStep>,
    /// The bodies of the [`Matcher::Guarded`]s.
    pub(crate) guarded: Vec<GuardedChar>,
    /// Registers: `2 * captures` capture slots, then loop counters and marks.
    pub(crate) regs: u32,
    /// Capture groups, group 0 included.
    pub(crate) captures: u32,
    /// The first instruction that is not a straight-line zero-width check (`Save`,
    /// assertions, one-character lookarounds): a run always reaches it first.
    pub(crate) lead_end: u32,
    /// The capture registers the lead (`..lead_end`) sets: a run that starts past it
    /// ([`crate::vm::Vm::run_past_lead`]) sets them at once.
    pub(crate) lead_saves: Vec<u32>,
    /// The lead's zero-width checks, in order (its instructions but the `Save`s).
    pub(crate) lead_checks: Vec<Inst>,
    /// The lead's only check is `\b` (a scan for word starts makes it).
    pub(crate) lead_is_word_boundary: bool,
    /// Characters are code points (`u`/`v`).
    pub(crate) unicode: bool,
    /// Back references compare case-insensitively.
    pub(crate) ignore_case: bool,
    /// `\b` counts ſ and K as word characters (`i` with `u`/`v`).
    pub(crate) word_extended: bool,
    /// For each `RepeatOne`, by instruction index: a character the continuation needs at
    /// once, so that giving back (greedy) or taking (lazy) characters can skip positions
    /// without it.
    pub(crate) guards: Vec<Option<Guard>>,
    /// For each greedy forward `RepeatOne` whose continuation is a back reference (past
    /// `Save`s of other groups), by instruction index: that group (`NONE` otherwise). Giving
    /// back stops only where the captured text's first unit follows.
    pub(crate) backref_guards: Vec<u32>,
    /// What the memo of failed states records (see `memo`).
    pub(crate) memo: crate::memo::Plan,
}
