//! Import blocks (`ImportMode::Block`, the default): one item per run of
//! consecutive imports, per language, with what may sit between imports
//! (blank lines, comments, attributes, preprocessor conditionals) and what
//! ends a block (any other statement); the item budget; `Each` and `None`;
//! the formatted line and its width.

use sfq_outline::{
    ImportMode, ItemKind, Outline, OutlineItem, OutlineOptions, format_outline, outline,
};

fn blocks(path: &str, text: &str) -> Outline {
    outline(path, text, &OutlineOptions::default())
}

fn each(path: &str, text: &str) -> Outline {
    outline(path, text, &OutlineOptions::default().with_import_mode(ImportMode::Each))
}

/// `name [start-end] {modules}` of every item, children indented.
fn summary(items: &[OutlineItem]) -> String {
    fn rec(items: &[OutlineItem], depth: usize, out: &mut String) {
        for i in items {
            out.push_str(&"  ".repeat(depth));
            out.push_str(&format!("{} [{}-{}]", i.name, i.range[0], i.range[1]));
            if !i.modules.is_empty() {
                out.push_str(&format!(" {{{}}}", i.modules.join(", ")));
            }
            out.push('\n');
            rec(&i.children, depth + 1, out);
        }
    }
    let mut out = String::new();
    rec(items, 0, &mut out);
    out
}

/// Checks the default outline of `text` (its `summary`) and that of
/// `ImportMode::Each` and `None` against it: `Each` has one import item per
/// import the blocks count, `None` none, and the other items are the same.
fn check(path: &str, text: &str, want: &str) -> Outline {
    let o = blocks(path, text);
    assert_eq!(summary(&o.items), want, "{path}:\n{}", summary(&o.items));
    let count = |items: &[OutlineItem]| -> (usize, Vec<String>) {
        fn rec(items: &[OutlineItem], n: &mut usize, others: &mut Vec<String>) {
            for i in items {
                if i.kind == ItemKind::Import {
                    *n += 1;
                } else {
                    others.push(format!("{} {:?}", i.name, i.range));
                }
                rec(&i.children, n, others);
            }
        }
        let (mut n, mut others) = (0, Vec::new());
        rec(items, &mut n, &mut others);
        (n, others)
    };
    let (block_items, others) = count(&o.items);
    let e = each(path, text);
    let (each_items, each_others) = count(&e.items);
    assert_eq!(others, each_others, "{path}");
    assert!(each_items >= block_items, "{path}");
    let none = outline(path, text, &OutlineOptions::default().with_import_mode(ImportMode::None));
    assert_eq!(count(&none.items), (0, others), "{path}");
    o
}

#[cfg(feature = "lang-typescript")]
#[test]
fn typescript_blocks_end_at_the_first_other_statement() {
    let text = "// header
import { a } from './a';
import type { B } from './b';

/* between */
import { c } from './a'; // the same module again
import x = require('./x');
export { d } from './d';
export * from './e';
import { late } from './late';
const y = 1;
import { after } from './after';
export function f(a: number): void {}
";
    let o = check(
        "a.ts",
        text,
        "imports (5), re-exports (2) [2-10] {./a, ./b, ./x, ./d, ./e, ./late}
y [11-11]
imports (1) [12-12] {./after}
f [13-13]
",
    );
    assert_eq!(
        format_outline(&o),
        "imports (5), re-exports (2): ./a, ./b, ./x, ./d, ./e, ./late (lines 2-10)
constant y (line 11)
imports (1): ./after (line 12)
function f(a: number): void (line 13)"
    );
    let block = &o.items[0];
    assert_eq!(
        (block.kind, block.detail.as_deref(), block.line),
        (ItemKind::Import, Some("block"), 2)
    );
    assert_eq!(block.signature, None);
    let e = each("a.ts", text);
    let names: Vec<&str> = e.items.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names, ["./a", "./b", "./a", "./x", "./d", "./e", "./late", "y", "./after", "f"]);
    assert!(e.items.iter().all(|i| i.modules.is_empty()));
    let json = serde_json::to_value(&o).unwrap();
    assert_eq!(
        json["items"][2],
        serde_json::json!({"name": "imports (1)", "kind": "import", "range": [12, 12], "line": 12,
            "detail": "block", "modules": ["./after"]})
    );
    assert!(json["items"][3].get("modules").is_none());
}

#[cfg(feature = "lang-typescript")]
#[test]
fn a_barrel_is_one_re_export_block() {
    let text = "/** The public API. */
export * from './a';
export { b, type B } from './b';
export * as c from './c';

export default 1;
";
    let o = check("index.ts", text, "re-exports (3) [2-4] {./a, ./b, ./c}\n");
    assert_eq!(o.items[0].detail.as_deref(), Some("re-export block"));
    assert_eq!(format_outline(&o), "re-exports (3): ./a, ./b, ./c (lines 2-4)");
}

#[cfg(feature = "lang-javascript")]
#[test]
fn commonjs_requires_are_imports() {
    let text = "'use strict';
const fs = require('fs');
const { join } = require('path');
// c
const util = require('util'), os = require('os');
const x = 5;
";
    check("a.js", text, "imports (4) [2-5] {fs, path, util, os}\nx [6-6]\n");
}

#[cfg(feature = "lang-python")]
#[test]
fn python_blocks_take_conditional_imports() {
    let text = "\"\"\"Doc.\"\"\"
from __future__ import annotations

import os, sys
# comment
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from a.b import C
    import d
sys.path.insert(0, 'x')
import late
try:
    import fast
except ImportError:
    fast = None
def f(a, b=1) -> int:
    pass
";
    check(
        "a.py",
        text,
        "imports (6) [2-9] {__future__, os, sys, typing, a.b, d}
imports (1) [11-11] {late}
imports (1) [13-13] {fast}
fast [15-15]
f [16-17]
",
    );
}

#[cfg(feature = "lang-rust")]
#[test]
fn rust_blocks_keep_attributes_and_name_modules() {
    let text = "//! Doc
use std::fmt;
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use crate::{a::B, c};

// c
pub use self::x::Y as Z;
extern crate alloc;
mod m;
mod tests {
    use super::*;
    use std::fmt::{self, Write as _};
}
fn f(x: u8) -> u8 { x }
";
    check(
        "a.rs",
        text,
        "imports (5) [2-9] {std::fmt, std::os::unix::fs::PermissionsExt, crate::{a::B, c}, self::x::Y, alloc}
m [10-10]
tests [11-14]
  imports (2) [12-13] {super::*, std::fmt}
f [15-15]
",
    );
}

#[cfg(feature = "lang-c")]
#[test]
fn c_blocks_go_through_preprocessor_conditionals() {
    let text = "#ifndef A_H
#define A_H
#include <stdio.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>
#endif
#include \"a.h\"
#define X 1
#include <late.h>
int f(int x);
#endif
";
    check(
        "a.c",
        text,
        "A_H [2-2]
imports (4) [3-9] {stdio.h, windows.h, unistd.h, a.h}
X [10-10]
imports (1) [11-11] {late.h}
f [12-12]
",
    );
}

#[cfg(feature = "lang-cpp")]
#[test]
fn cpp_includes_and_usings() {
    let text = "#include <string>
#include <vector>
using std::string;
using namespace std;
namespace n {
using std::vector;
int f(int a);
}
";
    check(
        "a.cpp",
        text,
        "imports (4) [1-4] {string, vector, std::string, std}
n [5-8]
  imports (1) [6-6] {std::vector}
  f [7-7]
",
    );
}

#[cfg(feature = "lang-go")]
#[test]
fn go_groups_count_each_path() {
    let text = "package p

import \"fmt\"

import (
\t\"os\"
\tstr \"strings\"
\t_ \"embed\"
\t\"fmt\"
)

func F(a int) (int, error) { return a, nil }
";
    let o =
        check("a.go", text, "p [1-1]\nimports (5) [3-10] {fmt, os, strings, embed}\nF [12-12]\n");
    assert_eq!(
        format_outline(&o),
        "package p (line 1)\nimports (5): fmt, os, strings, embed (lines 3-10)\nfunction F(a int) (int, error) (line 12)"
    );
}

#[cfg(feature = "lang-java")]
#[test]
fn java_imports() {
    let text = "package p;

import java.util.List;
import static java.lang.Math.PI;
// c
import java.io.*;

public class A {
  public static <T> List<T> f(T a) { return null; }
}
";
    let o = check(
        "A.java",
        text,
        "p [1-1]\nimports (3) [3-6] {java.util.List, java.lang.Math.PI, java.io.*}\nA [8-10]\n  f [9-9]\n",
    );
    assert!(format_outline(&o).ends_with("class A (lines 8-10)\n  <T> List<T> f(T a) (line 9)"));
}

/// A file of `n` imports of distinct modules, then three functions.
fn many_imports(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("import {{ m{i} }} from './modules/module-{i:03}';\n"));
    }
    text.push_str("\nexport function f1(a: string): number {\n  return 1;\n}\n");
    text.push_str("export function f2() {}\nexport function f3() {}\n");
    text
}

#[cfg(feature = "lang-typescript")]
#[test]
fn a_block_spends_one_item_of_the_budget() {
    let text = many_imports(67);
    let o = outline("a.ts", &text, &OutlineOptions::default().with_max_items(3).unwrap());
    assert_eq!(summary(&o.items).lines().count(), 3);
    assert_eq!(o.items[0].name, "imports (67)");
    assert_eq!(o.items[0].modules.len(), 67);
    assert_eq!(o.items[2].name, "f2");
    assert!(o.truncated);
    let o = outline("a.ts", &text, &OutlineOptions::default().with_max_items(4).unwrap());
    assert!(!o.truncated);
    assert_eq!(o.items.len(), 4);
    // one by one, the same budget keeps three imports
    let e = outline(
        "a.ts",
        &text,
        &OutlineOptions::default().with_max_items(3).unwrap().with_import_mode(ImportMode::Each),
    );
    assert_eq!(e.items.len(), 3);
    assert!(e.items.iter().all(|i| i.kind == ItemKind::Import));
}

#[cfg(feature = "lang-typescript")]
#[test]
fn the_line_of_a_long_block_is_cut_at_a_module() {
    let text = many_imports(67);
    let o = blocks("a.ts", &text);
    let formatted = format_outline(&o);
    let first = formatted.lines().next().unwrap();
    let head = first.strip_suffix(" (lines 1-67)").unwrap();
    assert!(head.chars().count() <= sfq_outline::MAX_IMPORTS_CHARS, "{head}");
    assert!(
        head.starts_with("imports (67): ./modules/module-000, ./modules/module-001, "),
        "{head}"
    );
    assert!(head.ends_with("module-003, …"), "{head}");
    assert_eq!(formatted.lines().count(), 4);
    let e = each("a.ts", &text);
    assert_eq!(format_outline(&e).lines().count(), 70);
    // one module longer than the line
    let long = format!("import x from './{}';\n", "d/".repeat(100));
    let line = format_outline(&blocks("a.ts", &long));
    let head = line.strip_suffix(" (line 1)").unwrap();
    assert_eq!(head.chars().count(), sfq_outline::MAX_IMPORTS_CHARS);
    assert!(head.starts_with("imports (1): ./d/d/") && head.ends_with('…'), "{head}");
}
