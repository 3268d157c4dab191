//! smartFileQuery's unit tests.

use super::printer::STREAM_INLINE_BYTES;
use super::*;
use crate::cancel::Cancel;
use crate::transport::{to_compact, to_json_value};
use crate::{Encoded, Format};

fn config(root: &std::path::Path, extra: &str) -> SfqConfig {
    let json = format!(r#"{{"regex":"a\\w*|\\uD83D","cwd":{:?}{extra}}}"#, root.to_str().unwrap());
    let raw = RawOptions::parse_names("smartFileQuery", &json, OPTIONS).unwrap();
    SfqConfig::from_options(&raw, None).unwrap()
}

/// A streamed scan paces its workers by the matches not yet merged
/// (PACE) while one thread merges: with far more matches than PACE it
/// ends, with the bytes of the whole payload.
#[test]
fn a_paced_stream_ends_with_the_whole_payload_whatever_the_thread_count() {
    let dir = std::env::temp_dir().join(format!("sfq-paced-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..200 {
        let body = format!("{}\n", vec!["aa ab ac"; 100 + i % 50].join("\n"));
        std::fs::write(dir.join(format!("f{i:03}.txt")), body).unwrap();
    }
    let root = std::fs::canonicalize(&dir).unwrap();
    for threads in [1, 2, 3, 5] {
        let c = config(&root, &format!(r#","maxMatches":1000000,"threads":{threads}"#));
        let cancel = Cancel::default();
        let Encoded::Json(bytes) = run_encoded(&c, &cancel, Format::Json).unwrap() else {
            panic!("json")
        };
        let mut streamed = Vec::new();
        write_json(&c, &cancel, &mut streamed).unwrap();
        assert!(streamed == bytes, "threads {threads}");
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains(r#""totalMatches":74700"#), "threads {threads}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file whose result passes STREAM_INLINE_BYTES is written by the
/// merge match by match (searched again there): the same bytes as the
/// payload serialised whole, with a file cut at `maxMatches` among them.
#[test]
fn large_files_are_streamed_with_the_bytes_of_the_whole_payload() {
    let dir = std::env::temp_dir().join(format!("sfq-deferred-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 3,000 matches on a 2 KB line: about 6 MB of JSON per file.
    let line = "ab ".repeat(700);
    for i in 0..4 {
        std::fs::write(dir.join(format!("f{i}.txt")), format!("x\n{line}\ny\n")).unwrap();
    }
    std::fs::write(dir.join("small.txt"), "ab\n").unwrap();
    let root = std::fs::canonicalize(&dir).unwrap();
    for (max, threads) in [(100_000, 1), (100_000, 3), (2_000, 2)] {
        let c = config(
            &root,
            &format!(r#","maxMatches":{max},"threads":{threads},"maxResultBytes":1073741824"#),
        );
        let cancel = Cancel::default();
        let whole = serde_json::to_vec(&run(&c, &cancel).unwrap()).unwrap();
        let mut streamed = Vec::new();
        write_json(&c, &cancel, &mut streamed).unwrap();
        assert!(streamed == whole, "{max} threads {threads}");
        assert!(whole.len() > 4 * STREAM_INLINE_BYTES as usize);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `maxResultBytes` stops the scan where the next match would pass it:
/// the results' JSON stays under it, the cut file is marked, the
/// aggregate says what stopped it, the same place whatever the thread
/// count; without the option the payload has no new key.
#[test]
fn the_result_budget_cuts_the_same_prefix_whatever_the_thread_count() {
    let dir = std::env::temp_dir().join(format!("sfq-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let line = "ab ".repeat(300);
    for i in 0..30 {
        let body = (0..=i % 5).map(|_| format!("{line}\n")).collect::<String>();
        std::fs::write(dir.join(format!("f{i:02}.txt")), body).unwrap();
    }
    let root = std::fs::canonicalize(&dir).unwrap();
    let mut first: Option<Vec<u8>> = None;
    for threads in [1, 2, 3, 5] {
        let c = config(
            &root,
            &format!(r#","maxMatches":1000000,"maxResultBytes":200000,"threads":{threads}"#),
        );
        let payload = run(&c, &Cancel::default()).unwrap();
        assert!(payload.aggregate.truncated);
        assert_eq!(payload.aggregate.truncated_by, Some("maxResultBytes"));
        assert!(payload.results.last().unwrap().truncated);
        let results = serde_json::to_vec(&payload.results).unwrap();
        assert!(results.len() <= 200_000, "{}", results.len());
        assert!(results.len() > 150_000, "{}", results.len());
        let bytes = serde_json::to_vec(&payload).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.contains(r#""maxResultBytes":200000"#));
        assert!(text.contains(r#""truncatedBy":"maxResultBytes""#));
        // Both encodings agree.
        let Encoded::Json(json_bytes) = run_encoded(&c, &Cancel::default(), Format::Json).unwrap()
        else {
            panic!("json")
        };
        assert!(json_bytes == bytes, "threads {threads}");
        match &first {
            None => first = Some(bytes),
            Some(f) => assert!(*f == bytes, "threads {threads}"),
        }
    }
    // A budget too small for the first match: nothing returned, said so.
    let c = config(&root, r#","maxMatches":1000000,"maxResultBytes":1024,"contextLines":3"#);
    let payload = run(&c, &Cancel::default()).unwrap();
    assert!(payload.results.is_empty());
    assert_eq!(payload.aggregate.truncated_by, Some("maxResultBytes"));
    // The default budget is far away: the seed's keys only.
    let c = config(&root, r#","maxMatches":10"#);
    let text = serde_json::to_string(&run(&c, &Cancel::default()).unwrap()).unwrap();
    assert!(!text.contains("maxResultBytes") && !text.contains("truncatedBy"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The payload serialised file by file in the workers (both formats)
/// equals the typed payload serialised whole, with a file cut at
/// `maxMatches`, lone surrogates (`\uD83D` matches half of a pair),
/// skipped files, and any thread count.
#[test]
fn encoded_payload_equals_the_typed_payload() {
    let dir = std::env::temp_dir().join(format!("sfq-encoded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for i in 0..40 {
        let body = (0..=i % 7).map(|k| format!("ab{k} x\nq\naa \u{1F600}\n")).collect::<String>();
        std::fs::write(dir.join(format!("f{i:02}.txt")), body).unwrap();
    }
    std::fs::write(dir.join("bin.dat"), b"a\0b").unwrap();
    // Long lines, for maxLineLength.
    let long = format!("{}ab{}\nq{}\n", "x".repeat(50), "y".repeat(50), "z".repeat(40));
    std::fs::write(dir.join("long.txt"), long).unwrap();
    // Read with `encoding: utf16le`: lines made from UTF-16 (a lone surrogate included).
    let units: Vec<u16> =
        "ab1\nq\r\naa D x\nlong line a long line a long line\nlong line b long line b long line\n"
            .encode_utf16()
            .map(|u| if u == 0x44 { 0xD83D } else { u })
            .collect();
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(units.iter().flat_map(|u| u.to_le_bytes()));
    std::fs::write(dir.join("w16.txt"), bytes).unwrap();
    let root = std::fs::canonicalize(&dir).unwrap();
    for extra in [
        r#","maxMatches":100"#,
        r#","maxMatches":4"#,
        r#","maxMatches":1000,"contextLines":0"#,
        r#","maxMatches":1000,"maxLineLength":6"#,
        r#","glob":"**/node_modules/**""#,
    ] {
        for threads in [1, 2, 3] {
            let c = config(&root, &format!(r#"{extra},"threads":{threads}"#));
            let cancel = Cancel::default();
            let typed = run(&c, &cancel).unwrap();
            let Encoded::Json(bytes) = run_encoded(&c, &cancel, Format::Json).unwrap() else {
                panic!("json")
            };
            assert_eq!(
                String::from_utf8(bytes.clone()).unwrap(),
                serde_json::to_string(&typed).unwrap(),
                "{extra} threads {threads}"
            );
            assert_eq!(typed.hint.is_some(), extra.contains("node_modules"), "{extra}");
            // Written file by file as they are merged: the same bytes.
            let mut streamed = Vec::new();
            let summary = write_json(&c, &cancel, &mut streamed).unwrap();
            assert_eq!(streamed, bytes, "streamed, {extra} threads {threads}");
            // The summary is the payload without `results`.
            let text = String::from_utf8(bytes).unwrap();
            let head = text.find(",\"results\":[").unwrap();
            let tail = text.rfind("],\"skipped\":").unwrap() + 1;
            let expected = format!("{}{}", &text[..head], &text[tail..]);
            assert_eq!(String::from_utf8(summary).unwrap(), expected);
            let Encoded::Compact(compact) = run_encoded(&c, &cancel, Format::Compact).unwrap()
            else {
                panic!("compact")
            };
            // Serialised whole, strings are shared across files; the
            // decoded values are the same.
            let whole = to_json_value(&to_compact(&typed).unwrap());
            assert_eq!(to_json_value(&compact), whole, "{extra} threads {threads}");
        }
    }
    let c = config(&root, r#","maxMatches":4"#);
    let typed = run(&c, &Cancel::default()).unwrap();
    assert!(typed.aggregate.truncated);
    assert_eq!(typed.aggregate.total_matches, 4);
    assert!(typed.results.last().unwrap().truncated);
    assert!(serde_json::to_string(&typed).unwrap().contains(r#""match":"\ud83d""#));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file another process holds open without sharing (Windows) is
/// skipped as Node names that error there: `EBUSY` (Win32's error 32
/// once read as errno 32, `EPIPE`).
#[cfg(windows)]
#[test]
fn a_locked_file_is_skipped_as_ebusy() {
    use std::os::windows::fs::OpenOptionsExt;
    let dir = std::env::temp_dir().join(format!("sfq-locked-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.txt"), "abc\n").unwrap();
    std::fs::write(dir.join("b.txt"), "abc\n").unwrap();
    let lock = std::fs::OpenOptions::new().read(true).share_mode(0).open(dir.join("b.txt"));
    let lock = lock.unwrap();
    let root = std::fs::canonicalize(&dir).unwrap();
    let cancel = Cancel::default();
    let Encoded::Json(bytes) = run_encoded(&config(&root, ""), &cancel, Format::Json).unwrap()
    else {
        panic!("json")
    };
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.contains(r#"{"path":"b.txt","reason":"readError","code":"EBUSY"}"#), "{text}");
    assert!(text.contains(r#""totalMatches":1"#), "{text}");
    drop(lock);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A reader gone while the output is written is `EPIPE` wherever the
/// OS says so (Windows: ERROR_BROKEN_PIPE, which libuv names `EOF`).
#[test]
fn a_reader_gone_is_epipe() {
    struct Gone(std::io::Error);
    impl std::io::Write for Gone {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(self.0.kind(), "reader gone"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let dir = std::env::temp_dir().join(format!("sfq-gone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.txt"), "abc\n").unwrap();
    let root = std::fs::canonicalize(&dir).unwrap();
    let broken = if cfg!(windows) { 109 } else { 32 };
    for e in [std::io::Error::from_raw_os_error(broken), std::io::ErrorKind::BrokenPipe.into()] {
        let err = write_json(&config(&root, ""), &Cancel::default(), &mut Gone(e)).unwrap_err();
        assert_eq!(err.code().as_str(), "EPIPE");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
