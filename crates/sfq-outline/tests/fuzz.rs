//! No panic on any input: random bytes read as text, random code-like token
//! soups, and every sample and real fixture truncated at random points, each
//! outlined as every language, with the outline's invariants checked.
//! Deterministic (a fixed-seed generator), a few seconds in a debug build.

use std::path::Path;

use sfq_outline::{
    ALL_LANGUAGES, Outline, OutlineItem, OutlineOptions, ViewOp, Viewport, WindowSize,
    format_outline, line_count, outline, view,
};

/// xorshift64*: small, deterministic, good enough for test inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TOKENS: &[&str] = &[
    "class ",
    "def ",
    "fn ",
    "func ",
    "function ",
    "interface ",
    "enum ",
    "struct ",
    "impl ",
    "trait ",
    "namespace ",
    "export ",
    "import ",
    "from ",
    "const ",
    "let ",
    "var ",
    "pub ",
    "static ",
    "async ",
    "@dec\n",
    "#[attr]\n",
    "#define X ",
    "#ifdef A\n",
    "#endif\n",
    "template<typename T>",
    "package p\n",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    ":",
    ";",
    ",",
    "=",
    "=>",
    "->",
    "::",
    ".",
    "*",
    "&",
    "'",
    "\"",
    "`",
    "/*",
    "*/",
    "//",
    "#",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "    ",
    " ",
    "x",
    "Foo",
    "bar_1",
    "ñ",
    "日本",
    "😀",
    "\u{feff}",
    "\u{2028}",
    "\0",
    "0x1F",
    "\\",
];

fn token_soup(rng: &mut Rng) -> String {
    let n = rng.below(400);
    (0..n).map(|_| TOKENS[rng.below(TOKENS.len())]).collect()
}

fn random_bytes_as_text(rng: &mut Rng) -> String {
    let n = rng.below(3000);
    let bytes: Vec<u8> = (0..n)
        .map(|_| {
            let r = rng.next();
            // bias towards ASCII and structure characters
            if r.is_multiple_of(3) {
                b"{}()[];:\n \t\"'#/*<>=,"[(r >> 8) as usize % 20]
            } else {
                (r >> 16) as u8
            }
        })
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn check_items(
    items: &[OutlineItem],
    total: usize,
    parent: Option<[usize; 2]>,
    depth: usize,
    ctx: &str,
) {
    assert!(depth < 40, "{ctx}: absurd depth");
    for i in items {
        assert!(!i.name.is_empty(), "{ctx}: empty name");
        assert!(!i.name.contains('\n'), "{ctx}: newline in name {:?}", i.name);
        let [s, e] = i.range;
        assert!(
            s >= 1 && s <= e && e <= total.max(1),
            "{ctx}: range {:?} of {:?} (total {total})",
            i.range,
            i.name
        );
        assert!(s <= i.line && i.line <= e, "{ctx}: line {} outside {:?}", i.line, i.range);
        if let Some(sig) = &i.signature {
            assert!(!sig.contains('\n') && !sig.is_empty(), "{ctx}: bad signature {sig:?}");
            assert!(sig.chars().count() <= 200, "{ctx}: signature too long");
        }
        if let Some([ps, pe]) = parent {
            assert!(
                ps <= s && e <= pe,
                "{ctx}: child {:?} {:?} outside parent {:?}",
                i.name,
                i.range,
                [ps, pe]
            );
        }
        check_items(&i.children, total, Some(i.range), depth + 1, ctx);
    }
}

fn check(path: &str, text: &str, options: &OutlineOptions) -> Outline {
    let o = outline(path, text, options);
    let ctx = format!("{path} ({} bytes)", text.len());
    assert_eq!(o.total_lines, line_count(text), "{ctx}");
    assert!(o.item_count() <= options.max_items(), "{ctx}");
    check_items(&o.items, o.total_lines, None, 0, &ctx);
    let _ = format_outline(&o);
    let _ = serde_json::to_string(&o).unwrap();
    o
}

fn paths() -> Vec<String> {
    let mut p: Vec<String> =
        ALL_LANGUAGES.iter().map(|l| format!("fuzz.{}", l.extensions()[0])).collect();
    p.push("fuzz.unknown".into());
    p
}

#[test]
fn random_texts_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let options = OutlineOptions::default();
    let small = OutlineOptions::default().with_max_items(7).unwrap().with_max_depth(2).unwrap();
    for path in paths() {
        for round in 0..24 {
            let text =
                if round % 2 == 0 { token_soup(&mut rng) } else { random_bytes_as_text(&mut rng) };
            check(&path, &text, &options);
            check(&path, &text, &small);
        }
    }
}

#[test]
fn truncated_real_files_never_panic() {
    let mut rng = Rng(42);
    let options = OutlineOptions::default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = Vec::new();
    for dir in [
        "samples",
        "real/python",
        "real/go",
        "real/java",
        "real/rust",
        "real/typescript",
        "real/javascript",
        "real/c",
        "real/cpp",
    ] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x != "outline") {
                files.push(p);
            }
        }
    }
    files.sort();
    let all_paths = paths();
    for file in files {
        let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        for _ in 0..3 {
            let mut cut = rng.below(text.len().min(20_000) + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let piece = &text[..cut];
            check(&name, piece, &options);
            // the same text read as another language
            check(&all_paths[rng.below(all_paths.len())], piece, &options);
        }
        // the whole file as its own language: the invariants hold on real code
        check(&name, &text, &OutlineOptions::default().with_max_items(1_000_000).unwrap());
    }
}

#[test]
fn viewer_never_panics_and_stays_in_range() {
    let mut rng = Rng(7);
    for _ in 0..3000 {
        let w = WindowSize::new(1 + rng.below(300) as i64).unwrap();
        let total = rng.below(2000);
        let op = match rng.below(4) {
            0 => ViewOp::Open(if rng.below(2) == 0 { None } else { Some(rng.next() as i64) }),
            1 => ViewOp::Goto(rng.next() as i64 >> rng.below(64)),
            2 => ViewOp::ScrollDown { from: rng.below(3000) },
            _ => ViewOp::ScrollUp { from: rng.below(3000) },
        };
        let v = Viewport::compute(w, total, op);
        if total == 0 {
            assert_eq!((v.viewport_start, v.viewport_end), (1, 0));
        } else {
            assert!(
                1 <= v.viewport_start
                    && v.viewport_start <= v.viewport_end
                    && v.viewport_end <= total,
                "{v:?}"
            );
            assert!(v.viewport_end - v.viewport_start < w.get());
            assert_eq!(v.viewport_end - v.viewport_start + 1, w.get().min(total));
        }
    }
    let text = "a\nb\r\nc";
    let (v, _) = view("t", text, WindowSize::new(2).unwrap(), ViewOp::Goto(-1));
    assert_eq!(v.content, "1: a\n2: b");
}
