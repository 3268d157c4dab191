//! A matched file as the search left it ([`FileView`]), and its two
//! serialisations: through serde (JSON bytes, the CLI's) and op by op into the
//! compact transport (the JS API's). Both write lines straight from the file's
//! text; the typed [`FileResult`] is built only when asked for.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use rustc_hash::FxHasher;
use serde::Serialize;

use crate::jsstr::JsStr;
use crate::lines::CharIndex;
use crate::search::{FileText, Hit, HitText, Span};
use crate::transport::{Compact, Writer};

/// One file's matches.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileResult {
    /// Root-relative POSIX path.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Number of matches returned for this file.
    pub match_count: usize,
    /// The matches, in order.
    pub matches: Vec<MatchOut>,
    /// The whole decoded text (only with `includeAllContent`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<JsStr>,
    /// True when this file had more matches than were returned.
    pub truncated: bool,
}

/// One match with its context.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchOut {
    /// 1-based line of the match start.
    pub line_number: usize,
    /// 1-based column in code points.
    pub column: usize,
    /// The matched text.
    #[serde(rename = "match")]
    pub text: JsStr,
    /// Surrounding lines.
    pub context: Context,
}

/// Context lines of a match.
#[derive(Debug, Serialize)]
pub struct Context {
    /// Up to `contextLines` lines before.
    pub before: Vec<JsStr>,
    /// The line holding the match start.
    pub line: JsStr,
    /// Up to `contextLines` lines after.
    pub after: Vec<JsStr>,
}

/// A matched file as the search left it: its text, its hits and the spans of
/// their context lines. It serialises exactly as the [`FileResult`] it stands
/// for, writing lines straight from the text (no string is copied before it
/// is serialised); [`FileView::to_result`] builds the typed value.
pub struct FileView<'a> {
    path: &'a str,
    size: u64,
    text: &'a FileText,
    hits: &'a [Hit],
    /// Per hit: (index of its first context span in `spans`, lines before,
    /// lines after, the span of its own line).
    contexts: Vec<(usize, usize, usize, Span)>,
    spans: Vec<Span>,
    /// For a UTF-16 text, the lines shown (by start) and the content as JS
    /// strings made once: serialisers may recognise a string by its address,
    /// so every string they see lives as long as the view.
    utf16: HashMap<usize, JsStr, BuildHasherDefault<FxHasher>>,
    content16: Option<JsStr>,
    include_content: bool,
    truncated: bool,
    /// Lines of context asked for on each side.
    context_lines: usize,
    /// With `maxLineLength`: the lines cut to a window, by (match, position
    /// in its before/line/after sequence). Lines not in it are shown whole.
    cut: HashMap<(usize, usize), JsStr, BuildHasherDefault<FxHasher>>,
}

impl<'a> FileView<'a> {
    /// The view of `hits` in `text`, each with up to `context_lines` lines
    /// around it; `truncated` says the file was cut at `maxMatches`.
    pub(crate) fn new(
        path: &'a str,
        size: u64,
        text: &'a FileText,
        hits: &'a [Hit],
        context_lines: usize,
        include_content: bool,
        truncated: bool,
    ) -> FileView<'a> {
        let mut spans = Vec::with_capacity(hits.len() * context_lines * 2);
        let contexts: Vec<(usize, usize, usize, Span)> = hits
            .iter()
            .map(|hit| {
                let first = spans.len();
                let (before, line) = text.context_spans(hit, context_lines, &mut spans);
                (first, before, spans.len() - first - before, line)
            })
            .collect();
        let mut utf16 = HashMap::default();
        let mut content16 = None;
        if let FileText::Utf16 { .. } = text {
            for &span in spans.iter().chain(contexts.iter().map(|c| &c.3)) {
                utf16.entry(span.start).or_insert_with(|| text.line_text(span));
            }
            if include_content {
                content16 = Some(text.to_js());
            }
        }
        FileView {
            path,
            size,
            text,
            hits,
            contexts,
            spans,
            utf16,
            content16,
            include_content,
            truncated,
            context_lines,
            cut: HashMap::default(),
        }
    }

    /// Cuts every shown line longer than `max` characters (0: none) to a
    /// window of `max` characters around its match, with `…` at each cut end
    /// (the agent APIs' windowing): a match's own line around the match, its
    /// context lines at the same window. Lines of a UTF-16 text holding a
    /// lone surrogate are never cut.
    pub(crate) fn cut_lines(mut self, max: usize) -> Self {
        let FileText::Utf8(text) = self.text else { return self };
        if max == 0 {
            return self;
        }
        // Each long line is indexed by character once, however many
        // matches show it (a minified line with 100,000 matches).
        let mut indexed: HashMap<usize, CharIndex<'a>, BuildHasherDefault<FxHasher>> =
            HashMap::default();
        let long = |s: &Span| s.end - s.start > max;
        for (k, (hit, &(first, before, after, own))) in
            self.hits.iter().zip(&self.contexts).enumerate()
        {
            let spans = &self.spans[first..first + before + after];
            if !long(&own) && !spans.iter().any(long) {
                continue; // fewer bytes than `max`: fewer characters too
            }
            let start = if long(&own) {
                let from = hit.column - 1;
                let len = match &hit.text {
                    HitText::Range(a, b) => text[*a..(*b).min(own.end.max(*a))].chars().count(),
                    HitText::Js(js) => js.to_string_lossy().chars().count(),
                };
                let line = indexed
                    .entry(own.start)
                    .or_insert_with(|| CharIndex::new(&text[own.start..own.end]));
                let (own_cut, was_cut, start) = line.window(from, from + len, max);
                if was_cut {
                    self.cut.insert((k, before), JsStr::Utf8(own_cut.into()));
                }
                start
            } else {
                0
            };
            for (j, span) in spans.iter().enumerate() {
                if !long(span) {
                    continue;
                }
                let line = indexed
                    .entry(span.start)
                    .or_insert_with(|| CharIndex::new(&text[span.start..span.end]));
                let (s, was_cut) = line.window_at(start, max);
                if was_cut {
                    let pos = if j < before { j } else { j + 1 };
                    self.cut.insert((k, pos), JsStr::Utf8(s.into()));
                }
            }
        }
        self
    }

    /// The line at position `pos` of match `k`'s context (before lines,
    /// its own line, after lines), at `span`, to serialise.
    fn line_of(&self, k: usize, pos: usize, span: Span) -> TextPiece<'_> {
        match self.cut.get(&(k, pos)) {
            Some(js) => TextPiece::Js(js),
            None => self.piece(span),
        }
    }

    /// The matched text of `hit` to serialise.
    fn matched<'b>(&'b self, hit: &'b Hit) -> TextPiece<'b> {
        match (&hit.text, self.text) {
            (HitText::Range(a, b), FileText::Utf8(s)) => TextPiece::Str(&s[*a..*b]),
            (HitText::Js(js), _) => TextPiece::Js(js),
            (HitText::Range(..), FileText::Utf16 { .. }) => {
                unreachable!("byte ranges come from UTF-8 texts only")
            }
        }
    }

    /// The whole text to serialise, with `includeAllContent`.
    fn content(&self) -> Option<TextPiece<'_>> {
        if !self.include_content {
            return None;
        }
        Some(match (self.text, &self.content16) {
            (FileText::Utf8(s), _) => TextPiece::Str(s),
            (_, Some(js)) => TextPiece::Js(js),
            (FileText::Utf16 { .. }, None) => unreachable!("made in FileView::new"),
        })
    }

    /// The line at `span` to serialise.
    fn piece(&self, span: Span) -> TextPiece<'_> {
        match self.text.line_str(span) {
            Some(s) => TextPiece::Str(s),
            None => TextPiece::Js(&self.utf16[&span.start]),
        }
    }

    /// The typed result; lines shown several times share one string.
    pub fn to_result(&self) -> FileResult {
        let mut lines: HashMap<usize, JsStr, BuildHasherDefault<FxHasher>> = HashMap::default();
        let mut line = |k: usize, pos: usize, span: Span| match self.cut.get(&(k, pos)) {
            Some(js) => js.clone(),
            None => lines.entry(span.start).or_insert_with(|| self.text.line_text(span)).clone(),
        };
        let matches = self
            .hits
            .iter()
            .zip(&self.contexts)
            .enumerate()
            .map(|(k, (hit, &(first, before, after, own)))| MatchOut {
                line_number: hit.line + 1,
                column: hit.column,
                text: self.matched(hit).to_js(),
                context: Context {
                    before: self.spans[first..first + before]
                        .iter()
                        .enumerate()
                        .map(|(j, &s)| line(k, j, s))
                        .collect(),
                    line: line(k, before, own),
                    after: self.spans[first + before..first + before + after]
                        .iter()
                        .enumerate()
                        .map(|(j, &s)| line(k, before + 1 + j, s))
                        .collect(),
                },
            })
            .collect();
        FileResult {
            path: self.path.to_string(),
            size: self.size,
            match_count: self.hits.len(),
            matches,
            content: self.content().map(|c| c.to_js()),
            truncated: self.truncated,
        }
    }
}

/// JSON around a file's result (keys, numbers, brackets), counted by
/// [`FileView::result_bytes`].
const FILE_JSON_BYTES: u64 = 100;
/// JSON around one match (keys, numbers, brackets).
const MATCH_JSON_BYTES: u64 = 100;
/// JSON around one string (quotes and a comma).
const STRING_JSON_BYTES: u64 = 3;

impl<'a> FileView<'a> {
    /// The bytes this file's result takes as JSON, as `maxResultBytes`
    /// counts them: every string's UTF-8 bytes (three per code unit in a
    /// UTF-16 text) with its quotes, and a fixed allowance for the keys,
    /// numbers and brackets of the file and of each match (escapes count as
    /// the character they stand for). A function of the result alone, so a
    /// budget cuts the same place whatever the thread count.
    pub(crate) fn result_bytes(&self) -> u64 {
        self.file_bytes() + (0..self.hits.len()).map(|k| self.match_bytes(k)).sum::<u64>()
    }

    /// How many of the first matches fit in `bytes` with the file's own
    /// part (0 when not even one does).
    pub(crate) fn matches_within(&self, bytes: u64) -> usize {
        let mut used = self.file_bytes();
        for k in 0..self.hits.len() {
            used += self.match_bytes(k);
            if used > bytes {
                return k;
            }
        }
        self.hits.len()
    }

    /// The view of the first `n` matches only, marked truncated.
    pub(crate) fn first(&self, n: usize, max_line_length: usize) -> FileView<'a> {
        FileView::new(
            self.path,
            self.size,
            self.text,
            &self.hits[..n.min(self.hits.len())],
            self.context_lines,
            self.include_content,
            true,
        )
        .cut_lines(max_line_length)
    }

    /// Whether this view was made as cut (at `maxMatches` or the budget).
    pub(crate) fn truncated(&self) -> bool {
        self.truncated
    }

    /// The matches shown.
    pub(crate) fn match_count(&self) -> usize {
        self.hits.len()
    }

    fn file_bytes(&self) -> u64 {
        let content = match self.content() {
            Some(TextPiece::Str(s)) => s.len(),
            Some(TextPiece::Js(js)) => js.approx_len(),
            None => 0,
        };
        FILE_JSON_BYTES + (self.path.len() + content) as u64 + 2 * STRING_JSON_BYTES
    }

    /// Match `k`'s part: its text and its context lines (as cut).
    fn match_bytes(&self, k: usize) -> u64 {
        let hit = &self.hits[k];
        let (first, before, after, own) = self.contexts[k];
        let matched = match &hit.text {
            HitText::Range(a, b) => b - a,
            HitText::Js(js) => js.approx_len(),
        };
        let units = if matches!(self.text, FileText::Utf16 { .. }) { 3 } else { 1 };
        let line = |pos: usize, span: Span| match self.cut.get(&(k, pos)) {
            Some(js) => js.approx_len(),
            None => (span.end - span.start) * units,
        };
        let mut lines = line(before, own);
        for (j, &span) in self.spans[first..first + before + after].iter().enumerate() {
            lines += line(if j < before { j } else { j + 1 }, span);
        }
        MATCH_JSON_BYTES
            + (matched + lines) as u64
            + (2 + before + after) as u64 * STRING_JSON_BYTES
    }
}

/// The keys of [`FileResult`], [`MatchOut`] and [`Context`], in order.
static FILE_KEYS: [&str; 5] = ["path", "size", "matchCount", "matches", "truncated"];
static FILE_KEYS_WITH_CONTENT: [&str; 6] =
    ["path", "size", "matchCount", "matches", "content", "truncated"];
static MATCH_KEYS: [&str; 4] = ["lineNumber", "column", "match", "context"];
static CONTEXT_KEYS: [&str; 3] = ["before", "line", "after"];

/// Longest matched text looked up by content (longer ones rarely repeat).
const INTERN_MAX: usize = 64;

impl FileView<'_> {
    /// The file's result in the compact transport, written op by op (what
    /// serialising it through serde gives, without the generic machinery):
    /// each distinct line once, found by where it starts; matched texts by
    /// content.
    pub fn to_compact(&self) -> Compact {
        /// Files with at least this many matches have them built in JS when
        /// they are first read.
        const LAZY_MATCHES: usize = 16;
        let lines_shown = self.spans.len() + self.hits.len();
        // The lines shown, in code units: at most their sum, and at most the
        // text from the first to the last (a line shown twice is written once).
        let (sum, first, last) = (self.contexts.iter().map(|c| c.3))
            .chain(self.spans.iter().copied())
            .fold((0, usize::MAX, 0), |(sum, first, last), s| {
                (sum + (s.end - s.start), first.min(s.start), last.max(s.end))
            });
        let units = self.path.len() + sum.min(last.saturating_sub(first)) + 64;
        let mut w = Writer::with_capacity(
            16 + self.hits.len() * 16 + lines_shown * 2,
            lines_shown + 2,
            units,
        );
        let file_shape =
            w.shape(if self.include_content { &FILE_KEYS_WITH_CONTENT } else { &FILE_KEYS });
        let match_shape = w.shape(&MATCH_KEYS);
        let context_shape = w.shape(&CONTEXT_KEYS);
        let mut lines = LINES.take();
        lines.clear();
        lines.reserve(lines_shown);
        let mut texts = Interned::default();
        let add = |w: &mut Writer, piece: TextPiece<'_>| match piece {
            TextPiece::Str(s) => w.add_str(s),
            TextPiece::Js(JsStr::Utf8(s)) => w.add_str(s),
            TextPiece::Js(JsStr::Utf16(units)) => w.add_units(units),
        };
        let cut = &self.cut;
        let mut line = |w: &mut Writer, k: usize, pos: usize, span: Span| {
            if let Some(js) = cut.get(&(k, pos)) {
                let i = add(w, TextPiece::Js(js));
                w.string(i);
                return;
            }
            let i = match lines.get(&span.start) {
                Some(&i) => i,
                None => {
                    let i = add(w, self.piece(span));
                    lines.insert(span.start, i);
                    i
                }
            };
            w.string(i);
        };
        w.object(file_shape);
        let path = w.add_str(self.path);
        w.string(path);
        w.number(self.size);
        w.number(self.hits.len() as u64);
        // Many matches are built in JS when first read (most of a large
        // result's decode; a caller reading the counts never pays it). A
        // lazy property costs about two matches' decode, so a file with few
        // is built at once.
        let lazy = (self.hits.len() >= LAZY_MATCHES).then(|| w.begin_lazy());
        w.array(self.hits.len());
        for (k, (hit, &(first, before, after, own))) in
            self.hits.iter().zip(&self.contexts).enumerate()
        {
            w.object(match_shape);
            w.number(hit.line as u64 + 1);
            w.number(hit.column as u64);
            let matched = match self.matched(hit) {
                TextPiece::Js(JsStr::Utf8(s)) => TextPiece::Str(s),
                other => other,
            };
            let m = match matched {
                TextPiece::Str(s) if s.len() <= INTERN_MAX => match texts.get(s) {
                    Some(i) => i,
                    None => {
                        let i = w.add_str(s);
                        texts.insert(s, i);
                        i
                    }
                },
                other => add(&mut w, other),
            };
            w.string(m);
            w.object(context_shape);
            w.array(before);
            for (j, &span) in self.spans[first..first + before].iter().enumerate() {
                line(&mut w, k, j, span);
            }
            line(&mut w, k, before, own);
            w.array(after);
            for (j, &span) in self.spans[first + before..first + before + after].iter().enumerate()
            {
                line(&mut w, k, before + 1 + j, span);
            }
        }
        if let Some(at) = lazy {
            w.end_lazy(at);
        }
        if let Some(content) = self.content() {
            let i = add(&mut w, content);
            w.string(i);
        }
        w.bool(self.truncated);
        if lines.capacity() <= LINES_KEPT {
            LINES.set(lines);
        }
        w.finish()
    }
}

/// Where each line shown starts → its string's index, for one file.
type LineIds = HashMap<usize, u32, BuildHasherDefault<FxHasher>>;

thread_local! {
    /// A thread's map of lines shown, kept from file to file.
    static LINES: std::cell::Cell<LineIds> = std::cell::Cell::new(LineIds::default());
}

/// The most lines shown a thread's kept map has room for.
const LINES_KEPT: usize = 4096;

/// Matched texts by content → their string's index: the first few in a
/// list (a file's matches are mostly one or a few texts: no allocation),
/// the others in a map.
#[derive(Default)]
struct Interned<'a> {
    few: [(&'a str, u32); 4],
    len: usize,
    more: HashMap<&'a str, u32, BuildHasherDefault<FxHasher>>,
}

impl<'a> Interned<'a> {
    fn get(&self, s: &str) -> Option<u32> {
        match self.few[..self.len].iter().find(|(t, _)| *t == s) {
            Some(&(_, i)) => Some(i),
            None if self.len < self.few.len() => None,
            None => self.more.get(s).copied(),
        }
    }

    fn insert(&mut self, s: &'a str, i: u32) {
        if self.len < self.few.len() {
            self.few[self.len] = (s, i);
            self.len += 1;
        } else {
            self.more.insert(s, i);
        }
    }
}

/// A piece of a file's text (a line, or the whole text) as a JS string.
enum TextPiece<'a> {
    /// Borrowed from a UTF-8 text.
    Str(&'a str),
    /// Made from a UTF-16 text.
    Js(&'a JsStr),
}

impl TextPiece<'_> {
    /// The piece as a string of its own.
    fn to_js(&self) -> JsStr {
        match self {
            TextPiece::Str(s) => JsStr::Utf8((*s).into()),
            TextPiece::Js(js) => (*js).clone(),
        }
    }
}

impl Serialize for TextPiece<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        match self {
            TextPiece::Str(s) => serializer.serialize_str(s),
            TextPiece::Js(js) => js.serialize(serializer),
        }
    }
}

/// Lines of match `k`'s context, from position `from` of its sequence.
struct Lines<'a> {
    view: &'a FileView<'a>,
    k: usize,
    from: usize,
    spans: &'a [Span],
}

impl Serialize for Lines<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(
            self.spans
                .iter()
                .enumerate()
                .map(|(j, &span)| self.view.line_of(self.k, self.from + j, span)),
        )
    }
}

/// One match of a [`FileView`], serialised as a [`MatchOut`].
struct MatchPiece<'a> {
    view: &'a FileView<'a>,
    index: usize,
}

impl Serialize for MatchPiece<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let v = self.view;
        let hit = &v.hits[self.index];
        let (first, before, after, own) = v.contexts[self.index];
        let mut m = serializer.serialize_struct("MatchOut", 4)?;
        m.serialize_field("lineNumber", &(hit.line + 1))?;
        m.serialize_field("column", &hit.column)?;
        m.serialize_field("match", &v.matched(hit))?;
        m.serialize_field(
            "context",
            &ContextPiece {
                before: Lines {
                    view: v,
                    k: self.index,
                    from: 0,
                    spans: &v.spans[first..first + before],
                },
                line: v.line_of(self.index, before, own),
                after: Lines {
                    view: v,
                    k: self.index,
                    from: before + 1,
                    spans: &v.spans[first + before..first + before + after],
                },
            },
        )?;
        m.end()
    }
}

/// A match's context, serialised as a [`Context`].
#[derive(Serialize)]
#[serde(rename = "Context")]
struct ContextPiece<'a> {
    before: Lines<'a>,
    line: TextPiece<'a>,
    after: Lines<'a>,
}

impl Serialize for FileView<'_> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut f =
            serializer.serialize_struct("FileResult", 5 + usize::from(self.include_content))?;
        f.serialize_field("path", self.path)?;
        f.serialize_field("size", &self.size)?;
        f.serialize_field("matchCount", &self.hits.len())?;
        f.serialize_field(
            "matches",
            &Seq((0..self.hits.len()).map(|index| MatchPiece { view: self, index })),
        )?;
        if let Some(content) = self.content() {
            f.serialize_field("content", &content)?;
        }
        f.serialize_field("truncated", &self.truncated)?;
        f.end()
    }
}

/// A sequence serialised from a cloneable iterator.
struct Seq<I>(I);

impl<I: Iterator<Item = T> + Clone, T: Serialize> Serialize for Seq<I> {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.clone())
    }
}
