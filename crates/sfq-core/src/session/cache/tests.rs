//! The session cache's unit tests.

use super::*;

fn cand(root: &Path, rel: &str) -> Candidate {
    Candidate::named(rel.to_string(), root.join(rel), true)
}

fn age(path: &Path, secs_ago: u64) {
    let t = SystemTime::now() - Duration::from_secs(secs_ago);
    std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
}

fn text(r: Result<(Arc<FileText>, u64), SkipReason>) -> String {
    match &*r.unwrap().0 {
        FileText::Utf8(s) => s.clone(),
        FileText::Utf16 { .. } => panic!("utf16"),
    }
}

/// A text is reused while the stamp holds, read again when it changes
/// (a same-size write whose mtime is set back is told by its ctime),
/// and never kept from a racy read.
#[test]
fn texts_are_reused_only_while_the_stamp_holds() {
    let dir = std::env::temp_dir().join(format!("sfq-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = std::fs::canonicalize(&dir).unwrap();
    let f = root.join("a.txt");
    std::fs::write(&f, "one\n").unwrap();
    let cache = ContentCache::new(root.clone(), 1 << 20, None);
    let c = cand(&root, "a.txt");
    // Just written: racy, read each time.
    cache.begin_call();
    assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "one\n");
    assert_eq!(cache.stats().files, 0);
    age(&f, 10);
    // ctime is still recent: racy until it ages too.
    cache.begin_call();
    assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "one\n");
    assert_eq!(cache.stats().files, 0);
    std::thread::sleep(RACY_WINDOW + Duration::from_millis(100));
    cache.begin_call();
    assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "one\n");
    assert_eq!(
        cache.stats(),
        CacheStats {
            files: 1,
            content_bytes: 4,
            held_bytes: cache.stats().held_bytes,
            files_read: 1,
            files_reused: 0,
            trusted: 0,
            index_bytes: cache.stats().index_bytes,
            files_pruned: 0,
        }
    );
    cache.begin_call();
    assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "one\n");
    assert_eq!(cache.stats().files_reused, 1);
    // A same-size write with the old mtime put back: the ctime tells.
    let mtime = std::fs::metadata(&f).unwrap().modified().unwrap();
    std::fs::write(&f, "two\n").unwrap();
    std::fs::File::options().write(true).open(&f).unwrap().set_modified(mtime).unwrap();
    cache.begin_call();
    assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "two\n");
    // Another encoding is another read.
    cache.begin_call();
    let latin = cache.read(&c, 1 << 20, Encoding::Latin1);
    assert!(latin.is_ok());
    assert_eq!(cache.stats().files_read, 1);
    // Over the cap: the cold reader's skip.
    assert!(matches!(cache.read(&c, 2, Encoding::Utf8), Err(SkipReason::MaxFileSizeExceeded(4))));
    // Trusted (as under a watch), it is skipped for its size unread.
    for e in cache.lock().entries.values_mut() {
        e.trusted = true;
    }
    cache.begin_call();
    assert!(matches!(cache.read(&c, 2, Encoding::Utf8), Err(SkipReason::MaxFileSizeExceeded(4))));
    assert_eq!((cache.stats().files_read, cache.stats().files_reused), (0, 1));
    // Under a larger cap it is read again.
    assert_eq!(text(cache.read(&c, 1 << 20, Encoding::Utf8)), "two\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn tree(name: &str, files: usize, size: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sfq-session-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let root = std::fs::canonicalize(&dir).unwrap();
    for i in 0..files {
        let word = format!("word{i:04} ");
        std::fs::write(root.join(format!("f{i}.txt")), word.repeat(size / word.len())).unwrap();
    }
    std::thread::sleep(RACY_WINDOW + Duration::from_millis(100));
    root
}

/// The bytes a cache holds for `c` alone (its entry, text and filter),
/// and the free columns of the block its filter takes.
fn held_by_one(root: &Path, c: &Candidate) -> (u64, u64) {
    let probe = ContentCache::new(root.to_path_buf(), 1 << 20, None);
    probe.begin_call();
    probe.read(c, 1 << 20, Encoding::Utf8).unwrap();
    let inner = probe.lock();
    (inner.bytes, inner.slices.slack())
}

fn needles(pattern: &str) -> Needles {
    let units: Vec<u16> = pattern.encode_utf16().collect();
    let m = crate::matcher::Matcher::new(&units, "", crate::matcher::Mode::Lines).unwrap();
    Needles::of(&m).unwrap()
}

/// Past the budget, texts are dropped before filters: a file whose
/// text went is still ruled out by its filter, and read again (its
/// filter kept, not rebuilt) when it may match.
#[test]
fn past_the_budget_filters_outlive_texts() {
    let root = tree("lean", 20, 4000);
    let cands: Vec<Candidate> = (0..20).map(|i| cand(&root, &format!("f{i}.txt"))).collect();
    // Room for every filter and about five texts.
    let (one, block) = held_by_one(&root, &cands[0]);
    let budget = 20 * (one - 4000) + 5 * 4000 + 2000 + block;
    let cache = ContentCache::new(root.clone(), budget, None);
    cache.begin_call();
    for c in &cands {
        cache.read(c, 1 << 20, Encoding::Utf8).unwrap();
        assert!(cache.stats().held_bytes <= budget);
    }
    let s = cache.stats();
    // Every file is known (by its filter at least); some texts are held.
    assert_eq!(s.files, 20);
    let len = 4000 / 9 * 9;
    assert!(s.content_bytes >= len && s.content_bytes < 20 * len, "{s:?}");
    // Not watched, so not trusted: no pruning without a stat; the texts
    // held are reused after one.
    cache.begin_call();
    for c in &cands {
        cache.read(c, 1 << 20, Encoding::Utf8).unwrap();
    }
    let again = cache.stats();
    assert_eq!(again.files_reused + again.files_read, 20);
    assert_eq!(again.files_reused, s.content_bytes / len, "{again:?}");
    // The same part is held at every scan (no cycling through the tree).
    cache.begin_call();
    for c in &cands {
        cache.read(c, 1 << 20, Encoding::Utf8).unwrap();
    }
    assert_eq!(cache.stats().files_reused, again.files_reused);
    assert_eq!(cache.stats().content_bytes, again.content_bytes);
    // Untrusted (no watch), a file whose stamp holds is ruled out by
    // its filter after a stat, unread, text or not.
    cache.begin_call();
    let n = needles("word9999");
    for c in &cands {
        assert!(cache.read_unless(c, 1 << 20, Encoding::Utf8, Some(&n)).unwrap().is_none());
    }
    assert_eq!((cache.stats().files_pruned, cache.stats().files_read), (20, 0));
    // Trusted (as under a watch), a text-less entry is pruned unread.
    for e in cache.lock().entries.values_mut() {
        e.trusted = true;
    }
    cache.begin_call();
    let n = needles("word9999");
    for c in &cands {
        assert!(cache.read_unless(c, 1 << 20, Encoding::Utf8, Some(&n)).unwrap().is_none());
    }
    assert_eq!(cache.stats().files_pruned, 20);
    assert_eq!(cache.stats().files_read, 0);
    // One that may match is read (its text-less entry's filter kept).
    let n = needles("word0019");
    cache.begin_call();
    let found = cache.read_unless(&cands[19], 1 << 20, Encoding::Utf8, Some(&n)).unwrap();
    assert!(found.is_some());
    std::fs::remove_dir_all(&root).unwrap();
}

/// The index pass on several threads marks what it marks on one.
#[test]
fn the_index_pass_on_threads_is_the_one_thread_pass() {
    let root = tree("threads", 9000, 20);
    let cands: Vec<Candidate> = (0..9000).map(|i| cand(&root, &format!("f{i}.txt"))).collect();
    let cache = ContentCache::new(root.clone(), 1 << 30, None);
    cache.begin_call();
    for c in &cands {
        cache.read(c, 1 << 20, Encoding::Utf8).unwrap();
    }
    for e in cache.lock().entries.values_mut() {
        e.trusted = true;
    }
    // "word1234" is in f1234.txt only.
    let n = needles("word1234");
    cache.begin_call();
    let one = cache.pruned(&cands, None, 1 << 20, Encoding::Utf8, &n, 1).unwrap();
    assert_eq!(cache.stats().files_pruned, 8999);
    cache.begin_call();
    let two = cache.pruned(&cands, None, 1 << 20, Encoding::Utf8, &n, 2).unwrap();
    assert_eq!(cache.stats().files_pruned, 8999);
    assert_eq!(one, two);
    assert!(!one[1234] && one.iter().filter(|&&x| x).count() == 8999);
    std::fs::remove_dir_all(&root).unwrap();
}

/// With a shared list's slots, the index pass marks what it marks by
/// path: when the memo is first made, when it is used, after a file's
/// entry went and came back (same slot), and after the table forgot
/// paths (another generation: looked up again).
#[test]
fn the_slot_memo_marks_what_lookups_by_path_mark() {
    let root = tree("slots", 40, 20);
    let cands: Vec<Candidate> = (0..40).map(|i| cand(&root, &format!("f{i}.txt"))).collect();
    let cache = ContentCache::new(root.clone(), 1 << 30, None);
    cache.begin_call();
    // f39 is never read: no slot, never pruned.
    for c in &cands[..39] {
        cache.read(c, 1 << 20, Encoding::Utf8).unwrap();
    }
    for e in cache.lock().entries.values_mut() {
        e.trusted = true;
    }
    let n = needles("word0007");
    let by_path = cache.pruned(&cands, None, 1 << 20, Encoding::Utf8, &n, 1).unwrap();
    // (A filter may let a file through that cannot match: not pruned.)
    let pruned = by_path.iter().filter(|&&x| x).count();
    assert!((30..=38).contains(&pruned), "{pruned}");
    assert!(!by_path[7] && !by_path[39]);
    let slots = Slots::default();
    let first = cache.pruned(&cands, Some(&slots), 1 << 20, Encoding::Utf8, &n, 2).unwrap();
    assert_eq!(first, by_path);
    let memo = slots.get().unwrap();
    assert_eq!(memo.1.len(), 40);
    assert_eq!(memo.1[39], super::super::table::NO_SLOT);
    assert_eq!(cache.pruned(&cands, Some(&slots), 1 << 20, Encoding::Utf8, &n, 1), Some(first));
    // f3's entry dropped (an event) and read again: same slot, memo kept.
    let f3 = root.join("f3.txt");
    cache.lock().remove(&f3);
    let again = cache.pruned(&cands, Some(&slots), 1 << 20, Encoding::Utf8, &n, 1).unwrap();
    let without_f3 = pruned - usize::from(by_path[3]);
    assert!(!again[3] && again.iter().filter(|&&x| x).count() == without_f3);
    cache.read(&cands[3], 1 << 20, Encoding::Utf8).unwrap();
    cache.lock().entries.get_mut(key(&f3)).unwrap().trusted = true;
    assert_eq!(slots.get().unwrap().0, memo.0);
    let back = cache.pruned(&cands, Some(&slots), 1 << 20, Encoding::Utf8, &n, 1).unwrap();
    assert_eq!(back, by_path);
    // Everything forgotten: a new generation; the memo is made again.
    cache.clear();
    let none = cache.pruned(&cands, Some(&slots), 1 << 20, Encoding::Utf8, &n, 1).unwrap();
    assert!(none.iter().all(|&x| !x));
    assert_ne!(slots.get().unwrap().0, memo.0);
    std::fs::remove_dir_all(&root).unwrap();
}

/// Files no call used for two calls make room first; a smaller
/// reserve (the listings) shrinks what is held.
#[test]
fn stale_files_make_room_and_reserves_shrink() {
    let root = tree("stale", 10, 1000);
    // Room for four and a half files.
    let (one, block) = held_by_one(&root, &cand(&root, "f0.txt"));
    let cache = ContentCache::new(root.clone(), one * 9 / 2 + block, None);
    let read = |i: usize| cache.read(&cand(&root, &format!("f{i}.txt")), 1 << 20, Encoding::Utf8);
    cache.begin_call();
    for i in 0..4 {
        read(i).unwrap();
    }
    let len = 1000 / 9 * 9;
    assert_eq!(cache.stats().content_bytes, 4 * len);
    // Two calls later, the files of the first are stale: the new ones
    // take their place, texts and all.
    cache.begin_call();
    cache.begin_call();
    for i in 4..8 {
        read(i).unwrap();
    }
    let s = cache.stats();
    assert!(s.held_bytes <= one * 9 / 2 + block);
    cache.begin_call();
    for i in 4..8 {
        read(i).unwrap();
    }
    assert_eq!(cache.stats().files_reused, s.content_bytes / len);
    assert!(s.content_bytes >= 4 * len, "{s:?}");
    // A reserve leaving room for one file: texts go first, then entries.
    cache.reserve(one * 7 / 2);
    let s = cache.stats();
    assert!(s.held_bytes <= one + block, "{s:?}");
    assert_eq!(s.content_bytes, 0, "{s:?}");
    cache.reserve(one * 9 / 2 + block);
    assert_eq!(cache.stats().held_bytes, 0);
    std::fs::remove_dir_all(&root).unwrap();
}

/// A call's resolved texts are lent under its pin: an entry let go of
/// meanwhile (an event, the budget, a clear) keeps its text alive for the
/// call until the call's resolution is dropped, and only then frees it.
#[test]
fn texts_lent_to_a_call_outlive_their_entries_until_the_call_ends() {
    let root = tree("lent", 3, 40);
    let cands: Vec<Candidate> = (0..3).map(|i| cand(&root, &format!("f{i}.txt"))).collect();
    let cache = ContentCache::new(root.clone(), 1 << 30, None);
    cache.begin_call();
    let held: Vec<_> =
        cands.iter().map(|c| cache.read(c, 1 << 20, Encoding::Utf8).unwrap().0).collect();
    let weak: Vec<_> = held.iter().map(Arc::downgrade).collect();
    drop(held);
    for e in cache.lock().entries.values_mut() {
        e.trusted = true;
    }
    let lent_text = |r: &Resolved, i: usize| match r.get(i) {
        Some(Look::Text(Ok(FileText::Utf8(s)), size)) => (s.clone(), size),
        other => panic!("{other:?}"),
    };
    cache.begin_call();
    let resolved = cache.resolve(&cands, None, 1 << 20, Encoding::Utf8, None, 1);
    let (first, size) = lent_text(&resolved, 0);
    assert!(first.starts_with("word0000 ") && size == first.len() as u64);
    // Let go of by the cache while the call runs: still there for it.
    cache.lock().remove(&root.join("f1.txt"));
    cache.clear();
    assert_eq!(cache.stats().files, 0);
    assert!(lent_text(&resolved, 1).0.starts_with("word0001 "));
    assert_eq!(cache.grave.waiting(), 3);
    assert!(weak.iter().all(|w| w.upgrade().is_some()));
    // The call ends: the texts go.
    drop(resolved);
    assert_eq!(cache.grave.waiting(), 0);
    assert!(weak.iter().all(|w| w.upgrade().is_none()));
    // With no call running, a text let go of goes at once.
    cache.begin_call();
    let t = cache.read(&cands[2], 1 << 20, Encoding::Utf8).unwrap().0;
    let w = Arc::downgrade(&t);
    drop(t);
    cache.clear();
    assert!(w.upgrade().is_none());
    std::fs::remove_dir_all(&root).unwrap();
}
