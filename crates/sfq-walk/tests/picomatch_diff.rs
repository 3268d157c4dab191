//! Differential test: `sfq_walk::glob` against picomatch 4.0.3 (run by node
//! through `tests/picomatch_oracle.cjs`) on generated patterns × paths, for
//! the option sets `{}`, `{dot}`, `{basename}` and `{dot, basename}`.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{Rng, seeds};
use sfq_walk::glob::{Coverage, Glob, GlobError, GlobOptions};

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn picomatch_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../node_modules/picomatch");
    let dir = std::fs::canonicalize(dir).ok()?;
    // Node's require takes `C:\…`, not Windows' verbatim `\\?\C:\…`.
    let text = dir.to_string_lossy().into_owned();
    let dir = text.strip_prefix(r"\\?\").map_or(dir, PathBuf::from);
    dir.join("lib/picomatch.js").is_file().then_some(dir)
}

const TOKENS: &[&str] = &[
    "a",
    "b",
    "ab",
    "x",
    "*",
    "*",
    "**",
    "?",
    "/",
    "/",
    ".",
    ".",
    "[",
    "]",
    "!",
    "^",
    "{",
    "}",
    ",",
    "(",
    ")",
    "|",
    "@",
    "+",
    "\\",
    "..",
    "-",
    "[:alpha:]",
    "[:digit:]",
    "[[:space:]]",
    "\u{e9}",
    "\u{1F600}",
    "\u{FF61}",
    "$",
    "\"",
    "",
    "",
    ".a",
    "..a",
    "x.a_1",
    "y.b",
    "\u{2028}",
    "a\u{2029}.js",
    ".js.js",
    "a.js/",
    "b.b",
    ".js",
    "src",
    "node_modules",
    "1",
    "3",
    "{a,b}",
    "{1..3}",
    "@(a|b)",
    "!(a)",
    "*(a|b)",
    "+(x)",
    "?(b)",
    "[!a]",
    "[^a]",
    "[a-c]",
    "**/",
    "/**",
    "./",
    "\\*",
    "\\?",
    "\\[",
    " ",
    ":",
    "=",
    "<",
    ";",
    "'",
    "#",
    "%",
    "&",
    "~",
    "`",
    "\0",
    "\n",
    "\r",
];
const SEGMENTS: &[&str] = &[
    "a",
    "b",
    "ab",
    "x",
    "x.js",
    "a.js",
    ".hidden",
    ".js",
    "src",
    "node_modules",
    "\u{e9}",
    "\u{1F600}",
    "\u{FF61}",
    "a.b",
    "[ab]",
    "{a,b}",
    "1",
    "2",
    "3",
    "a b",
    "!a",
    "(a)",
    "a+b",
    "-",
    "a*b",
    "a?b",
    "$",
    "^a",
    "x\u{1F600}y",
    "aa",
    "bb",
    "abc",
    "c",
    ".",
    "..",
    "a\\b",
    "\n",
    "a\rb",
    "'",
    "\"",
];

fn pattern(rng: &mut Rng) -> String {
    let n = 1 + rng.below(7);
    (0..n).map(|_| TOKENS[rng.below(TOKENS.len())]).collect()
}

fn path(rng: &mut Rng) -> String {
    let n = 1 + rng.below(4);
    let mut p: Vec<&str> = (0..n).map(|_| SEGMENTS[rng.below(SEGMENTS.len())]).collect();
    if rng.chance(5) {
        p.push("");
    }
    p.join("/")
}

fn run_oracle(
    dir: &std::path::Path,
    cases: &[(String, GlobOptions)],
    paths: &[String],
) -> Vec<String> {
    let mut input = format!(
        "{{\"picomatch\":{},\"paths\":[",
        json_str(&dir.join("lib/picomatch.js").to_string_lossy())
    );
    input.push_str(&paths.iter().map(|p| json_str(p)).collect::<Vec<_>>().join(","));
    input.push_str("],\"cases\":[");
    let cs: Vec<String> = cases
        .iter()
        .map(|(p, o)| {
            format!(
                "{{\"pattern\":{},\"opts\":{{\"dot\":{},\"basename\":{}}}}}",
                json_str(p),
                o.dot,
                o.basename
            )
        })
        .collect();
    input.push_str(&cs.join(","));
    input.push_str("]}");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/picomatch_oracle.cjs");
    let mut child = Command::new("node")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn node");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("node");
    assert!(out.status.success(), "oracle failed");
    String::from_utf8(out.stdout).expect("utf8").lines().map(str::to_string).collect()
}

/// Every pattern under the four option sets against picomatch on `paths`:
/// the mismatches (matching, errors, and the soundness of the pruning
/// helpers), counting cases in `total` and documented deviations in
/// `unsupported`.
fn compare(
    dir: &std::path::Path,
    patterns: &[String],
    paths: &[String],
    total: &mut usize,
    unsupported: &mut usize,
) -> Vec<String> {
    let mut failures = Vec::new();
    let opts = [
        GlobOptions { dot: false, basename: false },
        GlobOptions { dot: true, basename: false },
        GlobOptions { dot: false, basename: true },
        GlobOptions { dot: true, basename: true },
    ];
    let cases: Vec<(String, GlobOptions)> =
        patterns.iter().flat_map(|p| opts.iter().map(move |o| (p.clone(), *o))).collect();
    let oracle = run_oracle(dir, &cases, paths);
    assert_eq!(oracle.len(), cases.len());
    for ((pat, o), want) in cases.iter().zip(&oracle) {
        *total += 1;
        match (Glob::new(pat, o), want.as_bytes().first()) {
            (Err(GlobError::Unsupported { reason, .. }), Some(b'B')) => {
                // Documented deviation (the glob module's docs): groups
                // nested too deeply, a repeated group led by a lookbehind.
                *unsupported += 1;
                if *unsupported <= 5 {
                    eprintln!("unsupported (deviation): {pat:?}: {reason}");
                }
            }
            (Err(e), Some(b'E')) => {
                let _ = e;
            }
            (Err(e), _) => {
                failures.push(format!("{pat:?} {o:?}: we fail ({e}), picomatch compiles"))
            }
            (Ok(_), Some(b'E')) => {
                failures.push(format!("{pat:?} {o:?}: picomatch throws {want}, we compile"))
            }
            (Ok(g), _) => {
                let bits = &want.as_bytes()[1..];
                for (p, &b) in paths.iter().zip(bits) {
                    let ours = g.is_match(p);
                    let theirs = b == b'1';
                    if ours != theirs {
                        failures.push(format!(
                            "{pat:?} {o:?} on {p:?}: ours {ours}, picomatch {theirs}"
                        ));
                    }
                    // The pruning helpers must be sound for every directory
                    // prefix D of the path: "nothing under D can match" and
                    // "everything (non-hidden) under D matches".
                    // (Only for paths a walk can produce: no empty, `.`
                    // or `..` segments.)
                    let real = p.split('/').all(|s| !s.is_empty() && s != "." && s != "..");
                    for (cut, _) in p.match_indices('/').filter(|_| real) {
                        let (dir, below) = (&p[..cut], &p[cut + 1..]);
                        if dir.is_empty() || below.is_empty() {
                            continue;
                        }
                        if theirs && !g.could_match_under(dir) {
                            failures.push(format!(
                                "{pat:?} {o:?}: could_match_under({dir:?}) false but {p:?} matches"
                            ));
                        }
                        let lt = below.contains(['\n', '\r', '\u{2028}', '\u{2029}']);
                        let hidden = below.split('/').any(|s| s.starts_with('.'));
                        let covered = match g.covers_dir(dir) {
                            Coverage::All => !lt,
                            Coverage::NonHidden => !lt && !hidden,
                            Coverage::None => false,
                        };
                        if covered && !theirs {
                            failures.push(format!(
                                "{pat:?} {o:?}: covers_dir({dir:?}) but {p:?} does not match"
                            ));
                        }
                    }
                }
            }
        }
    }
    failures
}

/// Globs with double quotes: picomatch treats the text between a quote at
/// the start of a token and the next quote as literal, and drops the quote
/// characters (`"src"/*.js` matches `src/a.js`); a quote a run of text
/// swallows stays (`a"b"c`); an unterminated quote runs to the end.
const QUOTED: &[&str] = &[
    "\"src\"/*.js",
    "\"a\"*",
    "\"*\".md",
    "*\"a\"",
    "\"*\"",
    "\"?\"",
    "\"[a]\"",
    "\"{a,b}\"",
    "\"**\"",
    "\"a",
    "\"",
    "\"\"",
    "\"\"\"",
    "a\"b",
    "a\"b\"c",
    "a\"*\"b",
    "a/\"b\"",
    "a/\"b\"/*",
    "\"a/b\"",
    "\"a/\"*",
    "\"src/\"*.js",
    "\"a\"/**",
    "**/\"a\"",
    "**/\"a.js\"",
    "\"a.js\"",
    "*.\"js\"",
    "{\"a\",b}",
    "\"a\"{b,c}",
    "[\"a]",
    "!\"a\"",
    "\\\"a\\\"",
    "\"a\\\"b\"",
    "@(\"a\")",
    "\"a\"?",
    "?\"a\"",
    "\".hidden\"",
    "\"node_modules\"/**",
];

/// Paths for the quoted globs: the quoted text with and without its quotes.
const QUOTED_PATHS: &[&str] = &[
    "src/a.js",
    "src/b/a.js",
    "\"src\"/a.js",
    "a",
    "ab",
    "\"a\"",
    "\"a",
    "a\"",
    "a\"b",
    "a\"b\"c",
    "axb",
    "a*b",
    "a\"xb",
    "*",
    "?",
    "x",
    "*.md",
    "x.md",
    "[a]",
    "{a,b}",
    "b",
    "**",
    "a/b",
    "a/b/c",
    "a/x",
    "x/a",
    "x/a.js",
    "a.js",
    ".hidden",
    "node_modules/x",
    "\"",
    "\"\"",
    "a\\\"b",
];

#[test]
fn quoted_globs_match_picomatch() {
    let Some(dir) = picomatch_dir() else {
        panic!(
            "picomatch is not installed at ../../node_modules/picomatch: run `npm ci` at the repository root"
        );
    };
    const PIECES: &[&str] = &[
        "\"", "\"", "\"", "a", "b", "ab", "src", "*", "**", "?", "/", ".", ".js", "[a]", "{a,b}",
        "!", "@(a)", "\\", "-", "$", "^", "(", ")",
    ];
    let (mut total, mut unsupported) = (0usize, 0usize);
    for seed in seeds(3) {
        let mut rng = Rng::new(seed.wrapping_mul(104_729));
        let mut patterns: Vec<String> = QUOTED.iter().map(|s| s.to_string()).collect();
        for _ in 0..300 {
            let n = 1 + rng.below(6);
            patterns.push((0..n).map(|_| *rng.pick(PIECES)).collect());
        }
        let mut paths: Vec<String> = QUOTED_PATHS.iter().map(|s| s.replace('\\', "/")).collect();
        // Each pattern's text without its quotes, and as written.
        for p in patterns.iter().take(120) {
            paths.push(p.replace('"', "").replace('\\', "/"));
            paths.push(p.replace('\\', "/"));
        }
        paths.retain(|p| !p.is_empty());
        paths.sort();
        paths.dedup();
        let failures = compare(&dir, &patterns, &paths, &mut total, &mut unsupported);
        assert!(
            failures.is_empty(),
            "seed {seed}: {} mismatches:\n{}",
            failures.len(),
            failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
        );
    }
    eprintln!("quoted globs: {total} pattern/option cases identical ({unsupported} unsupported)");
}

#[test]
fn matches_picomatch() {
    let Some(dir) = picomatch_dir() else {
        panic!(
            "picomatch is not installed at ../../node_modules/picomatch: run `npm ci` at the repository root"
        );
    };
    let mut total = 0usize;
    let mut unsupported = 0usize;
    for seed in seeds(3) {
        let mut rng = Rng::new(seed.wrapping_mul(7919));
        let mut patterns: Vec<String> = (0..400).map(|_| pattern(&mut rng)).collect();
        patterns.extend(
            [
                "",
                "**/*.ts",
                "*.ts",
                "src/**",
                "**/node_modules/**",
                "dist/**",
                "a/*/b",
                "{a,b}/c",
                "*.{js,ts}",
                "!(a)*",
                "@(a|b).js",
                "foo/**/bar",
                "[abc].txt",
                "a?c",
                "**",
                "*",
                ".git/**",
                "a/**/",
                "file{1..3}.txt",
                "[[:alpha:]]x",
                "a[!b]c",
                "!**/*.js",
                "!!a",
                "**/!(*.d).ts",
                "*.!(js)",
                "a/{b,c/**}",
                "{a,{b,c}}",
                "[",
                "{",
                "(",
                "a\\",
                "\\\\*",
                "**/*",
                "*.js",
                "**/*.js",
                "./**/*",
                "***",
                "**/**",
                "*.a_1",
                "**/*.b",
                "./*.js",
                "a/**",
                "**/.*",
                "*.*",
            ]
            .iter()
            .chain(QUOTED)
            .map(|s| s.to_string()),
        );
        let mut paths: Vec<String> = (0..80).map(|_| path(&mut rng)).collect();
        for p in patterns.iter().take(40) {
            if !p.is_empty() {
                paths.push(p.clone());
            }
        }
        // The product normalises `\` to `/` in paths before matching.
        for p in paths.iter_mut() {
            *p = p.replace('\\', "/");
        }
        let failures = compare(&dir, &patterns, &paths, &mut total, &mut unsupported);
        assert!(
            failures.is_empty(),
            "seed {seed}: {} mismatches:\n{}",
            failures.len(),
            failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
        );
    }
    eprintln!(
        "picomatch differential: {total} pattern/option cases identical ({unsupported} unsupported)"
    );
}
