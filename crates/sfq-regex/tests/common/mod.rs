//! Shared by the tests that compare the engine with V8: the case format, the oracle
//! runner (`node tests/v8_oracle.mjs`) and the engine's side of the comparison.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::Command;

use sfq_regex::{Budget, Regex};

/// One pattern with its flags and the texts to search.
#[derive(Clone, Debug)]
pub struct Case {
    pub pattern: Vec<u16>,
    pub flags: String,
    pub texts: Vec<Vec<u16>>,
    /// Per text: -1 for the global exec loop (matchAll), else one exec at this lastIndex.
    pub starts: Vec<i64>,
}

impl Case {
    pub fn new(pattern: &str, flags: &str, texts: &[&str]) -> Case {
        Case {
            pattern: pattern.encode_utf16().collect(),
            flags: flags.to_string(),
            texts: texts.iter().map(|t| t.encode_utf16().collect()).collect(),
            starts: vec![-1; texts.len()],
        }
    }
}

/// A JSON string literal of UTF-16 code units (lone surrogates as `\uXXXX`, which
/// `JSON.parse` accepts).
pub fn json_string(units: &[u16]) -> String {
    let mut s = String::from("\"");
    for &u in units {
        match u {
            0x22 => s.push_str("\\\""),
            0x5C => s.push_str("\\\\"),
            0x20..=0x7E => s.push(u as u8 as char),
            _ => {
                let _ = write!(s, "\\u{u:04x}");
            }
        }
    }
    s.push('"');
    s
}

/// A readable JavaScript string literal, for failure reports.
pub fn js_literal(units: &[u16]) -> String {
    json_string(units)
}

/// Runs the V8 oracle on `cases`; one result line per case. A case on which V8 itself
/// crashes (V8 11.3 segfaults on `[\P{Any}]` with `v`, for one) gets the line `C`: the
/// cases are split until the crashing ones are isolated.
pub fn oracle(cases: &[Case], tag: &str) -> Vec<String> {
    match run_node(cases, tag) {
        Some(lines) => lines,
        None if cases.len() == 1 => vec!["C".to_string()],
        None => {
            let (a, b) = cases.split_at(cases.len() / 2);
            let mut lines = oracle(a, tag);
            lines.extend(oracle(b, tag));
            lines
        }
    }
}

/// One run of `node tests/v8_oracle.mjs`; `None` if node died of a signal.
fn run_node(cases: &[Case], tag: &str) -> Option<Vec<String>> {
    let dir = std::env::temp_dir();
    let path = dir.join(format!("sfq-regex-cases-{}-{tag}.jsonl", std::process::id()));
    {
        let mut f = std::fs::File::create(&path).expect("create case file");
        for c in cases {
            let texts: Vec<String> = c.texts.iter().map(|t| json_string(t)).collect();
            let starts: Vec<String> = c.starts.iter().map(|s| s.to_string()).collect();
            writeln!(
                f,
                "{{\"p\":{},\"f\":{},\"t\":[{}],\"s\":[{}]}}",
                json_string(&c.pattern),
                json_string(&c.flags.encode_utf16().collect::<Vec<_>>()),
                texts.join(","),
                starts.join(",")
            )
            .expect("write case file");
        }
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/v8_oracle.mjs");
    let out = Command::new("node").arg(script).arg(&path).output().unwrap_or_else(|e| {
        panic!("the differential tests need `node` (Node 20) on PATH: {e}");
    });
    let _ = std::fs::remove_file(&path);
    out.status.code()?;
    assert!(out.status.success(), "oracle failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("oracle output is UTF-8");
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert_eq!(
        lines.len(),
        cases.len(),
        "oracle returned {} lines for {} cases",
        lines.len(),
        cases.len()
    );
    Some(lines)
}

/// Decodes an `E <hex>` line to the message, lone surrogates as U+FFFD (as the engine
/// renders them).
pub fn decode_error(line: &str) -> Option<String> {
    let hex = line.strip_prefix("E ")?;
    let units: Vec<u16> = (0..hex.len() / 4)
        .map(|i| u16::from_str_radix(&hex[4 * i..4 * i + 4], 16).unwrap_or(0))
        .collect();
    Some(String::from_utf16_lossy(&units))
}

/// The engine's result in the oracle's format, or `None` if the budget ran out.
pub fn engine(case: &Case, steps: u64) -> Option<String> {
    let re = match Regex::new(&case.pattern, &case.flags) {
        Ok(re) => re,
        Err(e) => return Some(format!("E {}", e.message())),
    };
    let mut out = String::from("R");
    let mut budget = Budget::new(steps);
    for (text, &start) in case.texts.iter().zip(&case.starts) {
        out.push(';');
        if start < 0 {
            let mut list = Vec::new();
            let mut spans = Vec::new();
            for (n, caps) in re.captures_iter(text, &mut budget).enumerate() {
                let caps = caps.ok()?;
                if n == 200 {
                    list.push("+".to_string());
                    break;
                }
                spans.push(caps.get(0)?.range());
                list.push(encode(&caps));
            }
            // find_iter must agree with captures_iter.
            let mut b2 = Budget::new(steps);
            let found: Vec<_> = re
                .find_iter(text, &mut b2)
                .take(spans.len())
                .collect::<Result<Vec<_>, _>>()
                .ok()?;
            let found: Vec<_> = found.iter().map(|m| m.range()).collect();
            assert_eq!(
                found,
                spans,
                "find_iter and captures_iter differ for {}",
                js_literal(&case.pattern)
            );
            out.push_str(&list.join("|"));
        } else {
            match re.captures_at(text, start as usize, &mut budget).ok()? {
                Some(caps) => out.push_str(&encode(&caps)),
                None => out.push('-'),
            }
        }
    }
    Some(out)
}

fn encode(caps: &sfq_regex::Captures) -> String {
    let mut parts = Vec::new();
    for (g, m) in caps.iter().enumerate() {
        match m {
            Some(m) => {
                parts.push(m.start().to_string());
                parts.push(m.end().to_string());
            }
            None => {
                assert!(g > 0, "group 0 always matches");
                parts.push("-1".into());
                parts.push("-1".into());
            }
        }
    }
    parts.join(",")
}

/// The outcome of comparing one case.
pub enum Outcome {
    Agree,
    /// V8 timed out or the engine's budget ran out.
    Skipped(&'static str),
    Differ {
        expected: String,
        actual: String,
    },
}

pub fn compare(case: &Case, v8: &str, steps: u64) -> Outcome {
    if v8 == "T" {
        return Outcome::Skipped("V8 time limit");
    }
    if v8 == "C" {
        return Outcome::Skipped("V8 crashed");
    }
    let Some(actual) = engine(case, steps) else {
        return Outcome::Skipped("engine budget");
    };
    let expected = match decode_error(v8) {
        Some(msg) => format!("E {msg}"),
        None => v8.to_string(),
    };
    if expected != actual {
        return Outcome::Differ { expected, actual };
    }
    // The same answer with the memo of failed states on from the first step (it
    // normally starts only on searches that do far more work than their text).
    sfq_regex::memoise_eagerly(true);
    let memoised = engine(case, steps);
    sfq_regex::memoise_eagerly(false);
    match memoised {
        Some(m) if m != expected => {
            Outcome::Differ { expected, actual: format!("{m} (memoising from the first step)") }
        }
        _ => Outcome::Agree,
    }
}

pub fn describe(case: &Case) -> String {
    let texts: Vec<String> = case.texts.iter().map(|t| js_literal(t)).collect();
    format!(
        "new RegExp({}, {}) on [{}] starts {:?}",
        js_literal(&case.pattern),
        js_literal(&case.flags.encode_utf16().collect::<Vec<_>>()),
        texts.join(", "),
        case.starts
    )
}

/// Compares every case; panics with the first differences.
pub fn check_all(
    cases: &[Case],
    tag: &str,
    steps: u64,
    known: &dyn Fn(&Case) -> bool,
) -> (usize, usize, usize) {
    let v8 = oracle(cases, tag);
    if std::env::var("SFQ_REGEX_STATS").is_ok() {
        let errors = v8.iter().filter(|l| l.starts_with('E')).count();
        let nonempty = v8
            .iter()
            .filter(|l| {
                l.starts_with('R')
                    && l.split([';', '|']).any(|m| {
                        let v: Vec<i64> = m.split(',').filter_map(|x| x.parse().ok()).collect();
                        v.len() >= 2 && v[1] > v[0]
                    })
            })
            .count();
        let with_groups = v8
            .iter()
            .filter(|l| {
                l.starts_with('R')
                    && l.split('|').any(|m| m.split(',').count() > 2 && !m.contains("-1,-1"))
            })
            .count();
        eprintln!(
            "{tag}: {} cases, {errors} errors, {nonempty} with a non-empty match, {with_groups} with a set group",
            cases.len()
        );
    }
    let (mut agree, mut skipped, mut known_count) = (0, 0, 0);
    let mut failures = Vec::new();
    for (case, line) in cases.iter().zip(&v8) {
        match compare(case, line, steps) {
            Outcome::Agree => agree += 1,
            Outcome::Skipped(why) => {
                skipped += 1;
                eprintln!("skipped ({why}): {}", describe(case));
            }
            Outcome::Differ { expected, actual } => {
                if known(case) {
                    known_count += 1;
                    continue;
                }
                failures.push(format!(
                    "{}\n    V8:     {}\n    engine: {}",
                    shorten(&describe(case)),
                    shorten(&expected),
                    shorten(&actual)
                ));
            }
        }
    }
    if !failures.is_empty() {
        let n = failures.len();
        failures.truncate(25);
        panic!("{n} of {} cases differ from V8 ({tag}):\n{}", cases.len(), failures.join("\n"));
    }
    (agree, skipped, known_count)
}

/// Long lines, shortened to their start and end.
fn shorten(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= 400 {
        return s.to_string();
    }
    let head: String = chars[..200].iter().collect();
    let tail: String = chars[chars.len() - 200..].iter().collect();
    format!("{head} … {tail}")
}
