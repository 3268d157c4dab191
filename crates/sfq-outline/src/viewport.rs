//! The window viewer's arithmetic (SWE-agent's open / goto / scroll_up /
//! scroll_down) and its rendering, as pure functions: the stateful
//! `WindowViewer` and file reading live in the caller.
//!
//! With `w` = window size (≥ 1) and `T` = the file's line count
//! ([`crate::line_count`]):
//!
//! - `clamp_start(s) = clamp(s, 1, max(1, T - w + 1))`; `end = min(T, start + w - 1)`.
//! - [`ViewOp::Open`] without a line: `start = 1`, so lines `1..min(T, w)`.
//! - [`ViewOp::Goto`]`(n)` and [`ViewOp::Open`] with a line `n`:
//!   `start = clamp_start(n - floor(w / 2))` (`goto(500)` with `w = 100`
//!   shows 450-549).
//! - [`ViewOp::ScrollDown`] / [`ViewOp::ScrollUp`]: `start = clamp_start(prev
//!   ± (w - overlap))` with `overlap = min(20, floor(w / 5))` (`w = 100`:
//!   1-100, then 81-180; `w = 1` moves one line).
//! - `currentLine = start + floor((end - start + 1) / 2)`, the window's
//!   centre (so `goto(currentLine)` shows the same window); 0 for an empty
//!   file.
//! - `linesAbove = start - 1`, `linesBelow = T - end`.
//! - An empty file (`T = 0`) gives `start = 1`, `end = 0` (the formulas'
//!   own result: an empty range), `currentLine = 0`, no lines above or
//!   below, empty `content`, and a note.
//! - A requested line outside `1..T` gives the clamped window and a note
//!   that says so; so does scrolling when the window cannot move.
//!
//! `content` is the window's lines, each as `N: text` (N the 1-based line
//! number, no padding, the line's text without its terminator as
//! `split(/\r?\n/)` gives it, a lone `\r` kept), joined by `\n`, with no
//! trailing newline.

use serde::Serialize;

use crate::error::OptionError;

/// A validated window size: an integer ≥ 1 (default 100).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct WindowSize(usize);

impl WindowSize {
    /// The default window size, 100 lines.
    pub const DEFAULT: WindowSize = WindowSize(100);
    /// The largest accepted window size.
    pub const MAX: usize = 1_000_000;

    /// A window of `lines` lines; an error unless `1 <= lines <= 1,000,000`.
    pub fn new(lines: i64) -> Result<Self, OptionError> {
        let v = OptionError::check_range("windowSize", lines, 1, Self::MAX as u64)?;
        Ok(WindowSize(usize::try_from(v).unwrap_or(Self::MAX)))
    }

    /// The size in lines.
    pub fn get(self) -> usize {
        self.0
    }

    /// Lines shared by two consecutive scroll positions: `min(20, floor(w/5))`.
    pub fn overlap(self) -> usize {
        (self.0 / 5).min(20)
    }

    /// How far one scroll moves: `w - overlap` (at least 1).
    pub fn step(self) -> usize {
        (self.0 - self.overlap()).max(1)
    }
}

impl Default for WindowSize {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A viewer operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewOp {
    /// `open(path)` (`None`) or `open(path, line)`.
    Open(Option<i64>),
    /// `goto(line)`.
    Goto(i64),
    /// `scrollDown()` from a window starting at `from` (the previous
    /// `viewportStart`).
    ScrollDown {
        /// The previous window's first line.
        from: usize,
    },
    /// `scrollUp()` from a window starting at `from`.
    ScrollUp {
        /// The previous window's first line.
        from: usize,
    },
}

/// A computed window. Serialises (camelCase) as `{totalLines, windowSize,
/// viewportStart, viewportEnd, currentLine, linesAbove, linesBelow, note?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Viewport {
    /// The file's line count `T`.
    pub total_lines: usize,
    /// The window size `w`.
    pub window_size: usize,
    /// First line shown, 1-based (1 for an empty file).
    pub viewport_start: usize,
    /// Last line shown, 1-based inclusive (0 for an empty file).
    pub viewport_end: usize,
    /// The window's centre line (0 for an empty file).
    pub current_line: usize,
    /// Lines before the window.
    pub lines_above: usize,
    /// Lines after the window.
    pub lines_below: usize,
    /// Set when a requested line was clamped, the window could not move, or
    /// the file is empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Viewport {
    /// The window `op` leads to in a file of `total_lines` lines.
    pub fn compute(window: WindowSize, total_lines: usize, op: ViewOp) -> Viewport {
        let w = window.get();
        let t = total_lines;
        let max_start = t.saturating_sub(w).saturating_add(1).max(1);
        let clamp_start = |s: i128| -> usize {
            let s = s.clamp(1, max_start as i128);
            usize::try_from(s).unwrap_or(1)
        };
        let half = (w / 2) as i128;
        let mut note = None;
        let requested = match op {
            ViewOp::Open(Some(n)) | ViewOp::Goto(n) => Some(n),
            _ => None,
        };
        if let Some(n) = requested
            && t > 0
            && (n < 1 || n as i128 > t as i128)
        {
            note = Some(if n < 1 {
                format!("Line {n} is before the first line; showing from line 1.")
            } else {
                format!("Line {n} is past the end of the file ({t} lines); showing its last lines.")
            });
        }
        let start = match op {
            ViewOp::Open(None) => 1,
            ViewOp::Open(Some(n)) | ViewOp::Goto(n) => clamp_start(n as i128 - half),
            ViewOp::ScrollDown { from } => {
                let s = clamp_start(from as i128 + window.step() as i128);
                if t > 0 && s == clamp_start(from as i128) && s + w > t {
                    note = Some(format!("Already at the end of the file ({t} lines)."));
                }
                s
            }
            ViewOp::ScrollUp { from } => {
                let s = clamp_start(from as i128 - window.step() as i128);
                if t > 0 && s == 1 && clamp_start(from as i128) == 1 {
                    note = Some("Already at the top of the file.".to_string());
                }
                s
            }
        };
        if t == 0 {
            return Viewport {
                total_lines: 0,
                window_size: w,
                viewport_start: 1,
                viewport_end: 0,
                current_line: 0,
                lines_above: 0,
                lines_below: 0,
                note: Some("The file is empty (0 lines).".to_string()),
            };
        }
        let end = t.min(start + w - 1);
        Viewport {
            total_lines: t,
            window_size: w,
            viewport_start: start,
            viewport_end: end,
            current_line: start + (end + 1 - start) / 2,
            lines_above: start - 1,
            lines_below: t - end,
            note,
        }
    }
}

/// What `open`/`goto`/`scrollUp`/`scrollDown` resolve to: SPEC's
/// `{path, totalLines, viewportStart, viewportEnd, content, linesAbove,
/// linesBelow}` plus `note` when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowView {
    /// The path as the caller gave it.
    pub path: String,
    /// The file's line count.
    pub total_lines: usize,
    /// First line shown (1 for an empty file).
    pub viewport_start: usize,
    /// Last line shown (0 for an empty file).
    pub viewport_end: usize,
    /// The lines shown, as `N: text` joined by `\n` (see the module docs).
    pub content: String,
    /// Lines before the window.
    pub lines_above: usize,
    /// Lines after the window.
    pub lines_below: usize,
    /// Why the window differs from the request, if it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `getState()`: `{currentFile, currentLine, windowSize}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowState {
    /// The open file, `null` before the first `open`.
    pub current_file: Option<String>,
    /// The window's centre line (0 before the first `open` and for an
    /// empty file).
    pub current_line: usize,
    /// The window size.
    pub window_size: usize,
}

impl WindowState {
    /// The state before any file is open.
    pub fn closed(window: WindowSize) -> Self {
        WindowState { current_file: None, current_line: 0, window_size: window.get() }
    }

    /// The state after showing `viewport` of `path`.
    pub fn showing(path: &str, viewport: &Viewport) -> Self {
        WindowState {
            current_file: Some(path.to_string()),
            current_line: viewport.current_line,
            window_size: viewport.window_size,
        }
    }
}

/// Computes the window `op` leads to in `text` and renders it: the whole
/// `open`/`goto`/`scroll*` step for a caller that has the file's text.
/// Returns the view and the viewport (whose `viewport_start` the caller
/// keeps for the next scroll and whose `current_line` goes in the state).
pub fn view(path: &str, text: &str, window: WindowSize, op: ViewOp) -> (WindowView, Viewport) {
    let total = crate::lines::line_count(text);
    let viewport = Viewport::compute(window, total, op);
    let content = render(text, &viewport);
    let view = WindowView {
        path: path.to_string(),
        total_lines: viewport.total_lines,
        viewport_start: viewport.viewport_start,
        viewport_end: viewport.viewport_end,
        content,
        lines_above: viewport.lines_above,
        lines_below: viewport.lines_below,
        note: viewport.note.clone(),
    };
    (view, viewport)
}

/// The lines `viewport_start..=viewport_end` of `text` as `N: text` joined
/// by `\n` (empty for an empty window).
pub fn render(text: &str, viewport: &Viewport) -> String {
    let (start, end) = (viewport.viewport_start, viewport.viewport_end);
    if end < start {
        return String::new();
    }
    let mut out = String::new();
    for (i, line) in crate::lines::lines(text).enumerate().skip(start - 1).take(end + 1 - start) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&(i + 1).to_string());
        out.push_str(": ");
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(n: i64) -> WindowSize {
        WindowSize::new(n).unwrap()
    }

    fn span(window: i64, total: usize, op: ViewOp) -> (usize, usize) {
        let v = Viewport::compute(w(window), total, op);
        (v.viewport_start, v.viewport_end)
    }

    #[test]
    fn window_size_validation() {
        assert_eq!(WindowSize::new(0).unwrap_err().option, "windowSize");
        assert!(WindowSize::new(-1).is_err());
        assert!(WindowSize::new(1_000_001).is_err());
        assert_eq!(WindowSize::default().get(), 100);
        assert_eq!(w(100).overlap(), 20);
        assert_eq!(w(100).step(), 80);
        assert_eq!(w(1).step(), 1);
        assert_eq!(w(5).overlap(), 1);
        assert_eq!(w(4).overlap(), 0);
        assert_eq!(w(1000).overlap(), 20);
    }

    #[test]
    fn spec_examples() {
        assert_eq!(span(100, 1000, ViewOp::Open(None)), (1, 100));
        assert_eq!(span(100, 1000, ViewOp::ScrollDown { from: 1 }), (81, 180));
        assert_eq!(span(100, 1000, ViewOp::Goto(500)), (450, 549));
        assert_eq!(span(100, 1000, ViewOp::Open(Some(500))), (450, 549));
        assert_eq!(span(1, 10, ViewOp::ScrollDown { from: 3 }), (4, 4));
        assert_eq!(span(1, 10, ViewOp::ScrollUp { from: 3 }), (2, 2));
    }

    #[test]
    fn formulas_hold_for_many_cases() {
        for window in [1i64, 2, 3, 4, 5, 7, 10, 99, 100, 101] {
            for total in [0usize, 1, 2, 5, 99, 100, 101, 250] {
                let ws = w(window);
                let wu = window as usize;
                let max_start = (total as i64 - window + 1).max(1);
                for n in [-5i64, 0, 1, 2, 50, 99, 100, 101, 249, 250, 251, 10_000] {
                    let v = Viewport::compute(ws, total, ViewOp::Goto(n));
                    let want_start = (n - window / 2).clamp(1, max_start) as usize;
                    assert_eq!(v.viewport_start, want_start, "w={window} T={total} n={n}");
                    assert_eq!(v.viewport_end, total.min(want_start + wu - 1));
                    assert_eq!(v.lines_above, v.viewport_start - 1);
                    assert_eq!(v.lines_below, total - v.viewport_end);
                    assert_eq!(
                        v.note.is_some(),
                        total == 0 || n < 1 || n as usize > total,
                        "{v:?}"
                    );
                    if total > 0 {
                        // goto(currentLine) is idempotent
                        let again =
                            Viewport::compute(ws, total, ViewOp::Goto(v.current_line as i64));
                        assert_eq!(
                            (again.viewport_start, again.viewport_end),
                            (v.viewport_start, v.viewport_end)
                        );
                        assert!(
                            v.current_line >= v.viewport_start && v.current_line <= v.viewport_end
                        );
                        assert!(v.viewport_end - v.viewport_start < wu);
                    }
                }
                let mut start = 1usize;
                for _ in 0..5 {
                    let v = Viewport::compute(ws, total, ViewOp::ScrollDown { from: start });
                    let step = wu - (wu / 5).min(20);
                    let want = (start as i64 + step as i64).clamp(1, max_start) as usize;
                    assert_eq!(v.viewport_start, want);
                    let back =
                        Viewport::compute(ws, total, ViewOp::ScrollUp { from: v.viewport_start });
                    assert_eq!(
                        back.viewport_start,
                        (want as i64 - step as i64).clamp(1, max_start) as usize
                    );
                    start = v.viewport_start;
                }
            }
        }
    }

    #[test]
    fn edges() {
        // shorter than the window
        assert_eq!(span(100, 30, ViewOp::Open(None)), (1, 30));
        assert_eq!(span(100, 30, ViewOp::Goto(25)), (1, 30));
        assert_eq!(span(100, 30, ViewOp::ScrollDown { from: 1 }), (1, 30));
        // exactly the window
        assert_eq!(span(100, 100, ViewOp::ScrollDown { from: 1 }), (1, 100));
        assert_eq!(span(100, 100, ViewOp::Goto(100)), (1, 100));
        // past both ends
        let down = Viewport::compute(w(100), 1000, ViewOp::ScrollDown { from: 901 });
        assert_eq!((down.viewport_start, down.viewport_end), (901, 1000));
        assert!(down.note.as_deref().unwrap().contains("end of the file"));
        let near = Viewport::compute(w(100), 1000, ViewOp::ScrollDown { from: 881 });
        assert_eq!(
            (near.viewport_start, near.viewport_end, near.note.is_none()),
            (901, 1000, true)
        );
        let up = Viewport::compute(w(100), 1000, ViewOp::ScrollUp { from: 1 });
        assert_eq!((up.viewport_start, up.viewport_end), (1, 100));
        assert!(up.note.as_deref().unwrap().contains("top"));
        assert!(Viewport::compute(w(100), 1000, ViewOp::ScrollUp { from: 50 }).note.is_none());
        // goto 0, negative, beyond T, extreme values
        let zero = Viewport::compute(w(100), 1000, ViewOp::Goto(0));
        assert_eq!((zero.viewport_start, zero.viewport_end), (1, 100));
        assert!(zero.note.as_deref().unwrap().contains("Line 0"));
        assert_eq!(span(100, 1000, ViewOp::Goto(-7)), (1, 100));
        let past = Viewport::compute(w(100), 1000, ViewOp::Goto(5000));
        assert_eq!((past.viewport_start, past.viewport_end), (901, 1000));
        assert!(past.note.as_deref().unwrap().contains("past the end"));
        assert_eq!(span(100, 1000, ViewOp::Goto(i64::MIN)), (1, 100));
        assert_eq!(span(100, 1000, ViewOp::Goto(i64::MAX)), (901, 1000));
        assert_eq!(span(1, 1000, ViewOp::ScrollDown { from: usize::MAX }), (1000, 1000));
        // window of one
        assert_eq!(span(1, 10, ViewOp::Goto(7)), (7, 7));
        assert_eq!(Viewport::compute(w(1), 10, ViewOp::Goto(7)).current_line, 7);
        // centre lines
        assert_eq!(Viewport::compute(w(100), 1000, ViewOp::Goto(500)).current_line, 500);
        assert_eq!(Viewport::compute(w(100), 1000, ViewOp::Open(None)).current_line, 51);
        assert_eq!(Viewport::compute(w(100), 30, ViewOp::Open(None)).current_line, 16);
    }

    #[test]
    fn empty_file() {
        for op in [
            ViewOp::Open(None),
            ViewOp::Goto(1),
            ViewOp::ScrollDown { from: 1 },
            ViewOp::ScrollUp { from: 1 },
        ] {
            let v = Viewport::compute(w(100), 0, op);
            assert_eq!(
                (v.viewport_start, v.viewport_end, v.current_line, v.lines_above, v.lines_below),
                (1, 0, 0, 0, 0)
            );
            assert!(v.note.as_deref().unwrap().contains("empty"));
        }
        let (view, _) = view("e.txt", "", w(10), ViewOp::Open(None));
        assert_eq!(view.content, "");
        assert_eq!(view.total_lines, 0);
    }

    #[test]
    fn rendering() {
        let text = "a\r\nb\rc\n\nd\n";
        let (v, vp) = view("f", text, w(2), ViewOp::Open(None));
        assert_eq!(v.content, "1: a\n2: b\rc");
        assert_eq!(
            (v.total_lines, v.viewport_start, v.viewport_end, v.lines_above, v.lines_below),
            (4, 1, 2, 0, 2)
        );
        assert_eq!(vp.current_line, 2);
        let (v, _) = view("f", text, w(2), ViewOp::ScrollDown { from: 1 });
        assert_eq!(v.content, "3: \n4: d");
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"path":"f","totalLines":4,"viewportStart":3,"viewportEnd":4,"content":"3: \n4: d","linesAbove":2,"linesBelow":0}"#
        );
        let (v, _) = view("f", "only", w(100), ViewOp::Goto(3));
        assert_eq!(v.content, "1: only");
        assert!(v.note.is_some());
        let state = WindowState::showing("f", &vp);
        assert_eq!(
            serde_json::to_string(&state).unwrap(),
            r#"{"currentFile":"f","currentLine":2,"windowSize":2}"#
        );
        assert_eq!(
            serde_json::to_string(&WindowState::closed(WindowSize::DEFAULT)).unwrap(),
            r#"{"currentFile":null,"currentLine":0,"windowSize":100}"#
        );
    }
}
