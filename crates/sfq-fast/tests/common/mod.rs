//! Shared by the property and robustness tests: a reproducible PRNG, a grammar of
//! JavaScript regular expressions, texts full of the characters where JavaScript and
//! `regex-automata` could disagree, and the V8 oracle runner (`node tests/v8_lines.mjs`).
#![allow(dead_code)]

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::Command;

use sfq_regex::ast::Node;

/// SplitMix64: reproducible without dependencies.
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x5FA5_7FA5_7000_0001)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn pick_str<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Literal characters of patterns: ASCII, the non-ASCII case pairs where the modes' case
/// folding differ, astral characters (two code units without u/v), and escaped syntax.
const LITERALS: &[&str] = &[
    "a", "b", "c", "k", "s", "x", "A", "B", "K", "S", "0", "1", "9", " ", "-", "_", ",", ":", "=",
    "<", ">", "#", "'", "\"", "é", "É", "ſ", "\u{212A}", "ß", "ẞ", "σ", "ς", "Σ", "Å", "\u{212B}",
    "θ", "ϑ", "😀", "𐐀", "𐐨", "\\.", "\\*", "\\(", "\\)", "\\[", "\\]", "\\{", "\\}", "\\/",
    "\\\\", "\\^", "\\$", "\\|", "\\?", "\\+", "\\-",
];

/// Escapes valid in every mode.
const ESCAPES: &[&str] = &[
    r"\d",
    r"\D",
    r"\w",
    r"\W",
    r"\s",
    r"\S",
    r"\t",
    r"\r",
    r"\n",
    r"\v",
    r"\f",
    r"\0",
    r"\x41",
    r"\x6b",
    r"\u0041",
    r"\u017F",
    r"\u212A",
    r"\u00DF",
    r"\u1E9E",
    r"\u03A3",
    r"\u2028",
    r"\u2029",
    r"\u00A0",
    r"\uFEFF",
    r"\u0085",
    r"\uD83D\uDE00",
    r"\uD83D",
    r"\uDE00",
    r"\cJ",
    r"\cM",
];

/// Class members valid in every mode (ranges are added separately).
const CLASS_ITEMS: &[&str] = &[
    "a", "b", "k", "s", "x", "z", "A", "K", "S", "0", "9", "_", " ", "é", "ſ", "\u{212A}", "ß",
    "σ", "Σ", "😀", r"\w", r"\W", r"\d", r"\D", r"\s", r"\S", r"\n", r"\r", r"\t", r"\u2028",
    r"\uFEFF", r"\u0085", r"\u00A0", r"\-", r"\]", r"\\", r"\u017F", r"\u212A", r"\uD83D",
    r"\uDE00", r"\x00", r"\x7F",
];

const RANGES: &[&str] = &[
    "a-z",
    "A-Z",
    "0-9",
    "a-f",
    "k-s",
    r"\x00-\x7F",
    r"\x80-\uFFFF",
    r"\u0100-\u024F",
    r"\u2000-\u206F",
    "à-ÿ",
    "α-ω",
    r"\uD800-\uDFFF",
];

const PROPERTIES: &[&str] = &[
    "L",
    "Lu",
    "Ll",
    "Nd",
    "P",
    "Sc",
    "Zs",
    "Script=Greek",
    "sc=Latin",
    "scx=Grek",
    "ASCII",
    "Alphabetic",
    "White_Space",
    "Emoji",
    "Any",
    "Cased",
    "Lowercase",
    "Uppercase",
];

const NAMES: &[&str] = &["n", "x", "ab", "é", "$", "_1"];

/// A random pattern in (mostly) valid syntax for the mode.
pub struct PatternGen<'r> {
    pub rng: &'r mut Rng,
    pub out: String,
    pub unicode: bool,
    pub sets: bool,
    groups: u32,
    names: Vec<&'static str>,
    /// Lookarounds and backreferences are generated in a minority of patterns.
    rich: bool,
}

impl<'r> PatternGen<'r> {
    pub fn new(rng: &'r mut Rng, flags: &str) -> PatternGen<'r> {
        let rich = rng.chance(25);
        PatternGen {
            rng,
            out: String::new(),
            unicode: flags.contains('u') || flags.contains('v'),
            sets: flags.contains('v'),
            groups: 0,
            names: Vec::new(),
            rich,
        }
    }

    pub fn generate(mut self) -> String {
        self.disjunction(0);
        self.out
    }

    fn disjunction(&mut self, depth: usize) {
        let n = 1 + if self.rng.chance(25) { self.rng.below(3) } else { 0 };
        for i in 0..n {
            if i > 0 {
                self.out.push('|');
            }
            let len = 1 + self.rng.below(if depth == 0 { 5 } else { 3 });
            for _ in 0..len {
                self.term(depth);
            }
        }
    }

    fn term(&mut self, depth: usize) {
        match self.rng.below(100) {
            0..=7 => {
                let a = *self.rng.pick(&["^", "$", r"\b", r"\B"]);
                self.out.push_str(a);
            }
            8..=12 if self.rich && depth < 3 => {
                let open = *self.rng.pick(&["(?=", "(?!", "(?<=", "(?<!"]);
                self.out.push_str(open);
                self.disjunction(depth + 1);
                self.out.push(')');
            }
            _ => {
                self.atom(depth);
                if self.rng.chance(35) {
                    self.quantifier();
                }
            }
        }
    }

    fn quantifier(&mut self) {
        let q = match self.rng.below(10) {
            0 | 1 => "*".to_string(),
            2 | 3 => "+".to_string(),
            4 | 5 => "?".to_string(),
            6 => format!("{{{}}}", self.rng.below(4)),
            7 => format!("{{{},}}", self.rng.below(3)),
            _ => {
                let a = self.rng.below(3);
                format!("{{{},{}}}", a, a + self.rng.below(3))
            }
        };
        self.out.push_str(&q);
        if self.rng.chance(30) {
            self.out.push('?');
        }
    }

    fn atom(&mut self, depth: usize) {
        match self.rng.below(100) {
            0..=34 => {
                let c = *self.rng.pick(LITERALS);
                self.out.push_str(c);
            }
            35..=41 => self.out.push('.'),
            42..=53 => {
                let e = *self.rng.pick(ESCAPES);
                self.out.push_str(e);
            }
            54..=67 => {
                if self.sets && self.rng.chance(60) {
                    self.class_set(0);
                } else {
                    self.class();
                }
            }
            68..=73 if self.unicode => {
                let neg = if self.rng.chance(30) { "P" } else { "p" };
                let p = *self.rng.pick(PROPERTIES);
                let _ = write!(self.out, r"\{neg}{{{p}}}");
            }
            74..=85 if depth < 3 => {
                match self.rng.below(4) {
                    0 | 1 => {
                        self.groups += 1;
                        self.out.push('(');
                    }
                    2 => self.out.push_str("(?:"),
                    _ => {
                        let name = *self.rng.pick(NAMES);
                        if self.names.contains(&name) {
                            self.out.push_str("(?:");
                        } else {
                            self.groups += 1;
                            self.names.push(name);
                            let _ = write!(self.out, "(?<{name}>");
                        }
                    }
                }
                self.disjunction(depth + 1);
                self.out.push(')');
            }
            86..=91 if self.rich && self.groups > 0 => {
                if !self.names.is_empty() && self.rng.chance(40) {
                    let name = *self.rng.pick(&self.names.clone());
                    let _ = write!(self.out, r"\k<{name}>");
                } else {
                    let n = 1 + self.rng.below(self.groups as usize);
                    let _ = write!(self.out, r"\{n}");
                }
            }
            _ => {
                let c = *self.rng.pick(&["a", "b", "k", "s", " ", "é"]);
                self.out.push_str(c);
            }
        }
    }

    fn class(&mut self) {
        self.out.push('[');
        if self.rng.chance(35) {
            self.out.push('^');
        }
        for _ in 0..self.rng.below(4) {
            if self.rng.chance(30) {
                let r = *self.rng.pick(RANGES);
                self.out.push_str(r);
            } else {
                let c = *self.rng.pick(CLASS_ITEMS);
                self.out.push_str(c);
            }
        }
        if self.unicode && self.rng.chance(15) {
            let p = *self.rng.pick(PROPERTIES);
            let _ = write!(self.out, r"\p{{{p}}}");
        }
        self.out.push(']');
    }

    fn class_operand(&mut self, depth: usize) {
        match self.rng.below(10) {
            0..=3 => {
                let c = *self.rng.pick(&[
                    "a", "k", "K", "s", "x", "ſ", "\u{212A}", "ß", "σ", "0", "😀", r"\-", r"\u212A",
                ]);
                self.out.push_str(c);
            }
            4 => {
                let r = *self.rng.pick(&["a-z", "A-Z", "0-9", "α-ω"]);
                self.out.push_str(r);
            }
            5 => {
                let e = *self.rng.pick(&[r"\w", r"\W", r"\d", r"\D", r"\s", r"\S"]);
                self.out.push_str(e);
            }
            6 => {
                let q = *self.rng.pick(&[
                    r"\q{ab|c}",
                    r"\q{}",
                    r"\q{K}",
                    r"\q{kx|KX|\u017F}",
                    r"\q{😀a}",
                ]);
                self.out.push_str(q);
            }
            7 => {
                let neg = if self.rng.chance(25) { "P" } else { "p" };
                let p = *self.rng.pick(&["L", "Lu", "Ll", "Nd", "Script=Greek", "ASCII", "Emoji"]);
                let _ = write!(self.out, r"\{neg}{{{p}}}");
            }
            _ => {
                if depth < 2 {
                    self.class_set(depth + 1);
                } else {
                    self.out.push_str("[a]");
                }
            }
        }
    }

    fn class_set(&mut self, depth: usize) {
        self.out.push('[');
        if self.rng.chance(25) {
            self.out.push('^');
        }
        let op = match self.rng.below(6) {
            0 => "--",
            1 => "&&",
            _ => "",
        };
        let n = if op.is_empty() { self.rng.below(4) } else { 2 + self.rng.below(2) };
        for i in 0..n {
            if i > 0 && !op.is_empty() {
                self.out.push_str(op);
            }
            self.class_operand(depth);
        }
        self.out.push(']');
    }
}

/// Random flags from `i m s u v` (u and v exclusive).
pub fn flags(rng: &mut Rng) -> String {
    let mut f = String::new();
    for (c, p) in [('i', 40), ('m', 30), ('s', 20)] {
        if rng.chance(p) {
            f.push(c);
        }
    }
    match rng.below(10) {
        0..=3 => f.push('u'),
        4 | 5 => f.push('v'),
        _ => {}
    }
    f
}

/// Pieces of line content: ASCII, case pairs, astral characters, a lone `\r`, the line
/// and paragraph separators, the spaces `\s` does and does not have.
const TEXT_PIECES: &[&str] = &[
    "a",
    "b",
    "c",
    "k",
    "s",
    "x",
    "A",
    "B",
    "K",
    "S",
    "ab",
    "abc",
    "kk",
    "ss",
    " ",
    "  ",
    "\t",
    "0",
    "1",
    "42",
    "_",
    "-",
    ".",
    "(",
    ")",
    "#",
    "'",
    "\"",
    "ſ",
    "\u{212A}",
    "Å",
    "\u{212B}",
    "ß",
    "ẞ",
    "σ",
    "ς",
    "Σ",
    "θ",
    "ϑ",
    "é",
    "É",
    "😀",
    "𐐀",
    "𐐨",
    "\u{1F1FA}\u{1F1F8}",
    "\r",
    "\u{2028}",
    "\u{2029}",
    "\u{A0}",
    "\u{FEFF}",
    "\u{85}",
    "\u{663}",
    "\u{FF11}",
    "\u{B}",
    "\u{C}",
];

/// A text of 1 to 4 lines ending in `\n`, `\r\n`, or nothing, whose lines often hold
/// strings the pattern matches (samples of its tree).
pub fn text(rng: &mut Rng, ast: Option<&Node>, unicode: bool) -> String {
    let nlines = 1 + rng.below(4);
    let mut t = String::new();
    for i in 0..nlines {
        let mut line = String::new();
        for _ in 0..rng.below(7) {
            line.push_str(rng.pick_str(TEXT_PIECES));
        }
        if let Some(ast) = ast {
            for _ in 0..rng.below(3) {
                let mut s = String::new();
                sample(ast, unicode, rng, &mut s, &mut 60);
                let at = floor_boundary(&line, rng.below(line.len() + 1));
                line.insert_str(at, &s);
            }
        }
        t.push_str(&line);
        if i + 1 < nlines || rng.chance(50) {
            t.push_str(if rng.chance(30) { "\r\n" } else { "\n" });
        }
    }
    t
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Appends a string the node (roughly) matches; assertions, lookarounds and
/// backreferences are ignored. Surrogates are skipped (texts are valid UTF-8).
pub fn sample(node: &Node, unicode: bool, rng: &mut Rng, out: &mut String, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let push = |c: u32, out: &mut String| {
        if let Some(ch) = char::from_u32(c) {
            out.push(ch);
        }
    };
    match node {
        Node::Char(c) => push(*c, out),
        Node::Class(set) => {
            let ranges = set.ranges();
            if !ranges.is_empty() {
                let (a, b) = ranges[rng.below(ranges.len())];
                let c = if b - a > 200 && rng.chance(80) {
                    a + rng.below(128) as u32
                } else {
                    a + (rng.next() % u64::from(b - a + 1)) as u32
                };
                push(c.min(b), out);
            }
        }
        Node::Concat(v) => {
            // A surrogate pair written in a non-u pattern is one character of the text.
            let mut i = 0;
            while i < v.len() {
                if let (false, Node::Char(h), Some(Node::Char(l))) = (unicode, &v[i], v.get(i + 1))
                    && (0xD800..0xDC00).contains(h)
                    && (0xDC00..0xE000).contains(l)
                {
                    push(0x10000 + ((h - 0xD800) << 10) + (l - 0xDC00), out);
                    i += 2;
                    continue;
                }
                sample(&v[i], unicode, rng, out, budget);
                i += 1;
            }
        }
        Node::Alternation(v) => {
            let n = &v[rng.below(v.len())];
            sample(n, unicode, rng, out, budget);
        }
        Node::Capture(c) => sample(&c.node, unicode, rng, out, budget),
        Node::Repeat(r) => {
            let min = r.min.min(4) as usize;
            let extra = r.max.map_or(3, |m| (m - r.min).min(3)) as usize;
            for _ in 0..min + rng.below(extra + 1) {
                sample(&r.node, unicode, rng, out, budget);
            }
        }
        Node::Lookaround(l) if !l.negative && rng.chance(50) => {
            sample(&l.node, unicode, rng, out, budget);
        }
        _ => {}
    }
}

/// One pattern with its texts.
#[derive(Clone, Debug)]
pub struct Case {
    pub pattern: String,
    pub flags: String,
    pub texts: Vec<String>,
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for u in s.encode_utf16() {
        match u {
            0x22 => out.push_str("\\\""),
            0x5C => out.push_str("\\\\"),
            0x20..=0x7E => out.push(u as u8 as char),
            _ => {
                let _ = write!(out, "\\u{u:04x}");
            }
        }
    }
    out.push('"');
    out
}

/// Runs the oracle on `cases`: one output line per case (`E`, `T`, `R…`, or `C` for a
/// case on which V8 itself crashed: the cases are split until the crashing one is alone).
pub fn oracle(cases: &[Case], tag: &str) -> Vec<String> {
    match run_node(cases, tag) {
        Some(lines) => lines,
        None if cases.len() <= 1 => vec!["C".to_string(); cases.len()],
        None => {
            let (a, b) = cases.split_at(cases.len() / 2);
            let mut lines = oracle(a, tag);
            lines.extend(oracle(b, tag));
            lines
        }
    }
}

fn run_node(cases: &[Case], tag: &str) -> Option<Vec<String>> {
    let path =
        std::env::temp_dir().join(format!("sfq-fast-cases-{}-{tag}.jsonl", std::process::id()));
    {
        let mut f = std::fs::File::create(&path).expect("create the case file");
        for c in cases {
            let texts: Vec<String> = c.texts.iter().map(|t| json_string(t)).collect();
            writeln!(
                f,
                "{{\"p\":{},\"f\":{},\"t\":[{}]}}",
                json_string(&c.pattern),
                json_string(&c.flags),
                texts.join(",")
            )
            .expect("write the case file");
        }
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/v8_lines.mjs");
    let out = Command::new("node")
        .arg(script)
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("the property test needs `node` (Node 20) on PATH: {e}"));
    let _ = std::fs::remove_file(&path);
    out.status.code()?;
    assert!(out.status.success(), "oracle failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("the oracle writes UTF-8");
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert_eq!(lines.len(), cases.len(), "one oracle line per case");
    Some(lines)
}

/// The seeds to run: `var` as `a..b` or `a,b,c`, else `default`.
pub fn seeds(var: &str, default: u64) -> Vec<u64> {
    match std::env::var(var) {
        Ok(s) => {
            if let Some((a, b)) = s.split_once("..") {
                let a: u64 = a.trim().parse().expect("seed range start");
                let b: u64 = b.trim().parse().expect("seed range end");
                (a..b).collect()
            } else {
                s.split(',').map(|x| x.trim().parse().expect("seed")).collect()
            }
        }
        Err(_) => vec![default],
    }
}
