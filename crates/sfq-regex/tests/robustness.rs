//! The engine must never panic, hang, overflow its stack or run away with memory: random
//! patterns and texts (including random bytes read as UTF-16), catastrophic patterns
//! under a budget, and nesting at and beyond the limit on a small thread stack.

use std::time::{Duration, Instant};

use sfq_regex::{Budget, BudgetCause, ErrorKind, MAX_NESTING, Reason, Regex};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Characters that make patterns interesting: syntax, escapes, class operators.
const SYNTAX: &str = r"\\\\()[]{}|*+?^$.-,:=!<>&~pPqukcxdDwWsSbB0123456789aAzZ_ ";

fn random_units(rng: &mut Rng, len: usize) -> Vec<u16> {
    let syntax: Vec<u16> = SYNTAX.encode_utf16().collect();
    (0..len)
        .map(|_| match rng.below(10) {
            0 => rng.next() as u16,
            1 => [0xD83D, 0xDE00, 0x017F, 0x212A, 0x2028, 0x0A][rng.below(6)],
            _ => syntax[rng.below(syntax.len())],
        })
        .collect()
}

fn random_flags(rng: &mut Rng) -> String {
    let mut f = String::new();
    for c in ['d', 'g', 'i', 'm', 's', 'y'] {
        if rng.below(4) == 0 {
            f.push(c);
        }
    }
    match rng.below(4) {
        0 => f.push('u'),
        1 => f.push('v'),
        _ => {}
    }
    f
}

fn exercise(re: &Regex, rng: &mut Rng) {
    for _ in 0..3 {
        let len = rng.below(40);
        let text = random_units(rng, len);
        let mut budget = Budget::new(200_000);
        for m in re.captures_iter(&text, &mut budget).take(100) {
            let Ok(caps) = m else { break };
            for g in caps.iter().flatten() {
                assert!(g.start() <= g.end() && g.end() <= text.len());
            }
        }
        let start = rng.below(text.len() + 2);
        let _ = re.find_at(&text, start, &mut Budget::new(200_000));
    }
}

#[test]
fn random_patterns_never_panic() {
    let mut rng = Rng(7);
    let (mut ok, mut err) = (0, 0);
    for i in 0..20_000 {
        let len = rng.below(24);
        let pattern: Vec<u16> = if i % 4 == 0 {
            // Random bytes read as UTF-16.
            (0..len).map(|_| rng.next() as u16).collect()
        } else {
            random_units(&mut rng, len)
        };
        let flags = random_flags(&mut rng);
        match Regex::new(&pattern, &flags) {
            Ok(re) => {
                ok += 1;
                exercise(&re, &mut rng);
            }
            Err(e) => {
                err += 1;
                assert!(
                    e.message().starts_with("Invalid regular expression: /"),
                    "{}",
                    e.message()
                );
            }
        }
    }
    assert!(ok > 2000 && err > 2000, "{ok} valid, {err} invalid");
}

#[test]
fn exponential_backtracking_is_memoised() {
    // 2^40 paths for a plain backtracker (V8 would not finish); the memo of failed
    // states makes it linear.
    for (pattern, text) in [
        ("^(a+)+$", format!("{}b", "a".repeat(40))),
        ("(a|aa)+(?=b)", format!("{}-b", "a".repeat(40))),
        ("^(?=(a+)+$)", format!("{}b", "a".repeat(40))),
        ("(x+x+)+y", format!("{}-y", "x".repeat(40))),
    ] {
        let re = Regex::from_str(pattern, "").expect("valid");
        let text: Vec<u16> = text.encode_utf16().collect();
        let mut budget = Budget::new(5_000_000);
        let found = re.find_at(&text, 0, &mut budget).expect("within budget");
        assert!(found.is_none(), "{pattern}");
    }
    // With a back reference the memo keeps the capture: (a*)+b\1 still finds its match.
    let re = Regex::from_str(r"(a*)+b\1", "").expect("valid");
    let text: Vec<u16> = format!("{}bc", "a".repeat(40)).encode_utf16().collect();
    let m = re.find_at(&text, 0, &mut Budget::new(50_000_000)).expect("within budget");
    assert_eq!(m.map(|m| m.range()), Some(40..41));
}

#[test]
fn catastrophic_backtracking_stops_on_budget() {
    // A back reference makes the memo keep the capture in its states: cubic in the
    // length, too many for a 3,000-character line.
    let re = Regex::from_str(r"^(a+)+\1$", "").expect("valid");
    let text: Vec<u16> = format!("{}b", "a".repeat(3000)).encode_utf16().collect();
    let t0 = Instant::now();
    let mut budget = Budget::new(1_000_000);
    let err = re.find_at(&text, 0, &mut budget).expect_err("must run out of budget");
    assert_eq!(err.cause(), BudgetCause::Steps);
    assert_eq!(budget.remaining(), 0);
    // About 10 ms in a release build; generous for debug builds on a loaded machine.
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());

    // The same through the iterator: one error, then the end.
    let mut budget = Budget::new(1_000_000);
    let results: Vec<_> = re.find_iter(&text, &mut budget).collect();
    assert_eq!(results.len(), 1);
    assert!(results[0].is_err());
}

#[test]
fn cancellation_check_stops_a_search() {
    let re = Regex::from_str(r"^(x+x+)+\1$", "").expect("valid");
    let text: Vec<u16> = format!("{}y", "x".repeat(3000)).encode_utf16().collect();
    let calls = std::cell::Cell::new(0u32);
    let check = || {
        calls.set(calls.get() + 1);
        calls.get() > 3
    };
    let mut budget = Budget::unlimited().with_check(10_000, &check);
    let err = re.find_at(&text, 0, &mut budget).expect_err("cancelled");
    assert_eq!(err.cause(), BudgetCause::Cancelled);
    assert_eq!(calls.get(), 4);
}

#[test]
fn backtracking_stack_is_bounded() {
    // Each iteration of a group loop leaves frames to backtrack into.
    let re = Regex::from_str(r"(?:a|b)*\d", "").expect("valid");
    let text: Vec<u16> = "ab".repeat(1000).encode_utf16().collect();
    let mut budget = Budget::unlimited().with_max_stack(1000);
    let err = re.find_at(&text, 0, &mut budget).expect_err("stack limit");
    assert_eq!(err.cause(), BudgetCause::StackLimit);
    // With the default limit the same search completes (no match).
    assert_eq!(re.find_at(&text, 0, &mut Budget::unlimited()).expect("no limit hit"), None);
}

/// Runs `f` on a thread with a small stack: 1 MiB in release builds (the deepest patterns
/// need about 512 KiB), 2 MiB in debug builds, whose frames are larger (about 1.5 MiB).
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    let default = if cfg!(debug_assertions) { 2 << 20 } else { 1 << 20 };
    let size = std::env::var("SFQ_TEST_STACK").ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    std::thread::Builder::new().stack_size(size).spawn(f).expect("spawn").join().expect("no panic");
}

#[test]
fn nesting_up_to_the_limit_works_on_a_small_stack() {
    on_small_stack(|| {
        let n = MAX_NESTING;
        let shapes = [
            format!("{}a{}", "(".repeat(n), ")".repeat(n)),
            format!("{}a{}", "(?:".repeat(n), ")*".repeat(n)),
            format!("{}a{}", "(?=".repeat(n), ")".repeat(n)),
            format!("{}a{}", "(?<=".repeat(n), ")".repeat(n)),
            format!("{}a|b{}", "(?:x|".repeat(n), ")+".repeat(n)),
        ];
        let text: Vec<u16> = "xxaab".encode_utf16().collect();
        for p in &shapes {
            let re = Regex::from_str(p, "").unwrap_or_else(|e| panic!("{}: {e}", &p[..20]));
            let _ = re.find_at(&text, 0, &mut Budget::new(10_000_000));
        }
        let v = format!("{}a{}", "[".repeat(n), "]".repeat(n));
        let re = Regex::from_str(&v, "v").expect("nested classes");
        assert!(re.find_at(&text, 0, &mut Budget::unlimited()).expect("in budget").is_some());
    });
}

#[test]
fn nesting_beyond_the_limit_is_an_error() {
    on_small_stack(|| {
        let n = MAX_NESTING + 1;
        for (p, f) in [
            (format!("{}a{}", "(".repeat(n), ")".repeat(n)), ""),
            (format!("{}a{}", "(?:".repeat(n), ")".repeat(n)), ""),
            (format!("{}a{}", "[".repeat(n), "]".repeat(n)), "v"),
            (format!("{}a", "(".repeat(100_000)), ""),
        ] {
            let e = Regex::from_str(&p, f).expect_err("too deep");
            assert_eq!(e.kind(), ErrorKind::InvalidPattern(Reason::StackOverflow));
            assert!(e.message().ends_with(": Maximum call stack size exceeded"));
        }
    });
}

#[test]
fn long_flat_patterns_and_texts() {
    // Flat patterns are not limited by nesting: thousands of terms and alternatives.
    let alts: Vec<String> = (0..5000).map(|i| format!("w{i}")).collect();
    let re = Regex::from_str(&alts.join("|"), "").expect("alternation");
    let text: Vec<u16> = "xx w4999 w12".encode_utf16().collect();
    // The first alternative that matches wins: w4 comes before w4999.
    let m = re.find_at(&text, 0, &mut Budget::unlimited()).expect("budget").expect("match");
    assert_eq!(m.range(), 3..5);
    let seq = "a?".repeat(20_000);
    assert!(Regex::from_str(&seq, "").is_ok());
    // A long text with a lazy loop: no recursion, bounded stack.
    let re = Regex::from_str(r"(?:ab)*?c|[^c]+$", "").expect("valid");
    let text: Vec<u16> = "ab".repeat(500_000).encode_utf16().collect();
    let m = re.find_at(&text, 0, &mut Budget::unlimited()).expect("budget").expect("match");
    assert_eq!(m.range(), 0..text.len());
}

#[test]
fn regexes_are_shared_across_threads() {
    let re = Regex::from_str(r"\b(\w+)\s+\1\b", "i").expect("valid");
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let re = re.clone();
            std::thread::spawn(move || {
                let text: Vec<u16> = format!("{i} the The cat").encode_utf16().collect();
                let mut budget = Budget::unlimited();
                re.find_iter(&text, &mut budget)
                    .map(|m| m.expect("budget").range())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().expect("thread"), vec![2..9]);
    }
}
