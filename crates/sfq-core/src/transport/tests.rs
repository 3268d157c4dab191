//! The compact transport's tests, and a decoder for them.

use super::*;
use crate::jsstr::JsStr;

/// Decodes a compact value into the JSON value it stands for (what
/// `lib/decode.js` does, for tests on the Rust side).
pub(crate) fn to_json_value(c: &Compact) -> serde_json::Value {
    use serde_json::Value;
    fn string(c: &Compact, k: usize) -> Value {
        let start = if k == 0 { 0 } else { c.ends[k - 1] as usize };
        Value::String(String::from_utf16_lossy(&c.strings[start..c.ends[k] as usize]))
    }
    fn value(c: &Compact, i: &mut usize) -> Value {
        let op = c.ops[*i];
        *i += 1;
        let mut operand = || {
            *i += 1;
            c.ops[*i - 1]
        };
        match op {
            NULL => Value::Null,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            U32 => Value::from(operand()),
            NUMBER => {
                // One number type, as in JS: integral values compare as integers.
                let x = c.numbers[operand() as usize];
                if x.fract() == 0.0 && x.abs() < 9e15 {
                    Value::from(x as i64)
                } else {
                    Value::from(x)
                }
            }
            STRING => string(c, operand() as usize),
            ARRAY => {
                let n = operand();
                Value::Array((0..n).map(|_| value(c, i)).collect())
            }
            OBJECT => {
                let keys = &c.shapes[operand() as usize];
                Value::Object(keys.iter().map(|k| (k.to_string(), value(c, i))).collect())
            }
            LAZY => {
                let n = operand() as usize;
                let end = *i + n;
                let v = value(c, i);
                assert_eq!(*i, end, "a lazy value's length is its ops'");
                v
            }
            other => panic!("bad op {other}"),
        }
    }
    let mut i = 0;
    let v = value(c, &mut i);
    assert_eq!(i, c.ops.len(), "trailing ops");
    v
}

#[derive(serde::Serialize)]
struct Item {
    name: JsStr,
    n: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'static str>,
    tags: Vec<JsStr>,
    ok: bool,
}

#[test]
fn shapes_strings_and_numbers_round_trip_the_stream() {
    let items = vec![
        Item { name: "a".into(), n: 7, note: None, tags: vec!["x".into(), "a".into()], ok: true },
        Item {
            name: JsStr::from_utf16(&[0x61, 0xD83D]),
            n: 1 << 40,
            note: Some("hi"),
            tags: vec![],
            ok: false,
        },
    ];
    let c = to_compact(&items).unwrap();
    assert_eq!(
        c.shapes,
        vec![vec!["name", "n", "tags", "ok"], vec!["name", "n", "note", "tags", "ok"]]
    );
    // "a" is interned once and reused.
    let strings: Vec<Vec<u16>> = c
        .ends
        .iter()
        .scan(0usize, |start, &end| {
            let s = c.strings[*start..end as usize].to_vec();
            *start = end as usize;
            Some(s)
        })
        .collect();
    assert_eq!(strings, vec![vec![0x61], vec![0x78], vec![0x61, 0xD83D], vec![0x68, 0x69]]);
    assert_eq!(c.numbers, vec![(1u64 << 40) as f64]);
    assert_eq!(
        c.ops,
        vec![
            ARRAY, 2, //
            OBJECT, 0, STRING, 0, U32, 7, ARRAY, 2, STRING, 1, STRING, 0, TRUE, //
            OBJECT, 1, STRING, 2, NUMBER, 0, STRING, 3, ARRAY, 0, FALSE,
        ]
    );
}

#[test]
fn a_lazy_value_carries_the_length_of_its_ops_through_a_splice() {
    let mut w = Writer::default();
    let shape = w.shape(&["n", "items", "ok"]);
    w.object(shape);
    w.number(2);
    let at = w.begin_lazy();
    w.array(2);
    let s = w.add_str("x");
    w.string(s);
    w.number(1 << 40);
    w.end_lazy(at);
    w.bool(true);
    let part = w.finish();
    assert_eq!(part.ops, vec![OBJECT, 0, U32, 2, LAZY, 6, ARRAY, 2, STRING, 0, NUMBER, 0, TRUE]);
    let mut asm = Assembler::new();
    asm.array(2);
    asm.serialize(&"y").unwrap();
    asm.splice(part);
    let whole = asm.finish();
    assert_eq!(&whole.ops[4..10], &[OBJECT, 0, U32, 2, LAZY, 6]);
    assert_eq!(
        to_json_value(&whole),
        serde_json::json!(["y", {"n": 2, "items": ["x", (1u64 << 40)], "ok": true}])
    );
}

#[test]
fn assembled_parts_decode_to_the_whole() {
    let items = vec![
        Item { name: "a".into(), n: 7, note: None, tags: vec!["x".into()], ok: true },
        Item {
            name: JsStr::from_utf16(&[0x61, 0xD83D]),
            n: 1 << 40,
            note: Some("hi"),
            tags: vec!["a".into()],
            ok: false,
        },
    ];
    let mut asm = Assembler::new();
    asm.object(&["first", "rest", "n"]);
    asm.serialize(&items[0]).unwrap();
    asm.array(items.len());
    for item in &items {
        asm.splice(to_compact(item).unwrap());
    }
    asm.serialize(&(-1.5f64)).unwrap();
    let got = to_json_value(&asm.finish());
    let want = serde_json::json!({
        "first": serde_json::to_value(&items[0]).unwrap(),
        "rest": [
            serde_json::to_value(&items[0]).unwrap(),
            {"name": "a\u{FFFD}", "n": (1u64 << 40), "note": "hi", "tags": ["a"], "ok": false},
        ],
        "n": -1.5,
    });
    assert_eq!(got, want);
}

/// A spliced part's buffers are kept for later writers (see
/// `Assembler::splice`): a writer that gets them starts empty, whatever the
/// earlier part held (numbers, shapes, strings of other lengths), and the
/// assembled value is what the parts wrote.
#[test]
fn writers_given_a_spliced_parts_buffers_start_empty() {
    let value = |k: u64| if k.is_multiple_of(3) { (1u64 << 40) + k } else { k };
    let text = |k: u64| "v".repeat(1 + (k as usize * 7) % 40);
    let mut asm = Assembler::new();
    let at = asm.begin_array();
    for k in 0..200u64 {
        let mut w = Writer::with_capacity(8, 2, 8);
        let shape = if k.is_multiple_of(2) { w.shape(&["n", "s"]) } else { w.shape(&["s", "n"]) };
        w.object(shape);
        let s = w.add_str(&text(k));
        if k.is_multiple_of(2) {
            w.number(value(k));
            w.string(s);
        } else {
            w.string(s);
            w.number(value(k));
        }
        asm.splice(w.finish());
    }
    asm.end_array(at, 200);
    let whole = asm.finish();
    let want: Vec<serde_json::Value> =
        (0..200u64).map(|k| serde_json::json!({"n": value(k), "s": text(k)})).collect();
    assert_eq!(to_json_value(&whole), serde_json::Value::Array(want));
    // Nothing of an earlier part came along: exactly the parts' own.
    assert_eq!(whole.strings.len(), (0..200).map(|k| text(k).len()).sum::<usize>());
    assert_eq!((whole.ends.len(), whole.numbers.len(), whole.shapes.len()), (200, 67, 2));
    assert_eq!(whole.ops.len(), 2 + 200 * 6);
}
