// @generated in its copies: cargo xtask gen vendors templates/rust/client/transcript.rs byte for byte as src/transcript.rs of the acp-terminal crate; edit it here, never a copy.
//! The safe transcript (docs/TRANSCRIPT.md): terminal bytes in, text that any UI can
//! show out. UTF-8 is decoded incrementally (one U+FFFD per maximal invalid
//! subsequence), escape and control sequences are removed with the DEC / ECMA-48
//! parser state machine, and a one-line discipline (CR, BS, LF, TAB, CSI G/D/C/K)
//! makes redrawn progress lines show their last state.
//!
//! The state machine is data: `transcript_table.rs`, generated from the one hand-written
//! source `templates/transcript/transitions.txt` (which also says what each action is).
//! This file interprets it: the parser looks up `(action, next state)` for each input and
//! carries out the action on the current line. The ground state takes runs of printable
//! text in bulk (eight ASCII bytes at a time, whole UTF-8 characters) and appends each run
//! to the line in one operation; a compile-time check ties that bulk path to the table.
//!
//! Work per chunk is proportional to the chunk: the parser state, an incomplete UTF-8
//! sequence and the current line carry over; finished lines go to one growing buffer,
//! which a read checks as UTF-8 (only whole characters are written to it).
//!
//! Details that TRANSCRIPT.md leaves open (its "Decisions" list) are rows of the table;
//! the others are here: an incomplete UTF-8 sequence at the end of the bytes so far is
//! not shown (it waits), and a prefix that can no longer become a character (`ED A0`,
//! `F4 90`) is shown at once; erasing never makes the line longer.

use super::transcript_table as table;
use table::{CLASS_BIDI, CLASS_TEXT, CLASSES, GROUND, IGNORE, TABLE};

/// The default longest line, in cells: a longer line wraps (see [`Transcript::with_limits`]).
pub const MAX_LINE_LENGTH: usize = table::MAX_LINE_LENGTH;
/// The default longest text of finished lines, in code points (line ends included): past
/// it, the oldest lines are left out (see [`Transcript::with_limits`]).
pub const MAX_TEXT_LENGTH: usize = table::MAX_TEXT_LENGTH;

/// The table's entry for "print it, stay in the ground state".
const PLAIN: u8 = table::PRINT << 4 | GROUND;

// The bulk path of the ground state takes printable ASCII eight bytes at a time
// (`special8`), and whole characters from U+00A0 up that are neither C1 nor bidi controls
// (`printable_len`) without looking at the table: the table must print them.
const _: () = {
    let mut b = 0x20;
    while b < 0x7F {
        assert!(TABLE[b] == PLAIN, "the ground state must print U+0020..U+007E (the bulk path skips them)");
        b += 1;
    }
    assert!(TABLE[CLASS_TEXT] == PLAIN, "the ground state must print `text` (the bulk path skips it)");
    assert!(table::BIDI[0].0 == 0x202A && table::BIDI[0].1 == 0x202E && table::BIDI[1].0 == 0x2066 && table::BIDI[1].1 == 0x2069, "printable_len leaves out exactly the bidi controls of the table");
};

/// One UTF-8 decoding step.
enum Step {
    /// A character and its length in bytes.
    Char(u32, usize),
    /// A maximal invalid subsequence of this many bytes (one U+FFFD).
    Bad(usize),
    /// A valid but incomplete prefix that needs more bytes.
    Short,
}

/// Decodes the sequence starting with the non-ASCII byte `b[0]`.
#[inline]
fn decode(b: &[u8]) -> Step {
    let b0 = b[0];
    let (need, lo, hi) = match b0 {
        0xC2..=0xDF => (1, 0x80, 0xBF),
        0xE0 => (2, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (2, 0x80, 0xBF),
        0xED => (2, 0x80, 0x9F),
        0xF0 => (3, 0x90, 0xBF),
        0xF1..=0xF3 => (3, 0x80, 0xBF),
        0xF4 => (3, 0x80, 0x8F),
        _ => return Step::Bad(1),
    };
    let Some(&b1) = b.get(1) else { return Step::Short };
    if !(lo..=hi).contains(&b1) {
        return Step::Bad(1);
    }
    let mut cp = (u32::from(b0) & (0x7F >> (need + 1))) << 6 | (u32::from(b1) & 0x3F);
    for k in 2..=need {
        let Some(&bk) = b.get(k) else { return Step::Short };
        if bk & 0xC0 != 0x80 {
            return Step::Bad(k);
        }
        cp = cp << 6 | (u32::from(bk) & 0x3F);
    }
    Step::Char(cp, need + 1)
}

/// The length of the whole character at `b[0]` (a byte of 0xC2 or more) when it is
/// printed as it is: valid, complete, not a C1 control and not a bidi control. Otherwise
/// 0, and the parser decodes it and looks it up.
#[inline(always)]
fn printable_len(b: &[u8]) -> usize {
    let cont = |k: usize| b.get(k).is_some_and(|&x| x & 0xC0 == 0x80);
    let second = |lo: u8, hi: u8| b.get(1).is_some_and(|&x| (lo..=hi).contains(&x));
    let ok = match b[0] {
        0xC2 => second(0xA0, 0xBF),
        0xC3..=0xDF => cont(1),
        0xE0 => second(0xA0, 0xBF) && cont(2),
        0xE2 => cont(1) && cont(2) && !matches!((b[1], b[2]), (0x80, 0xAA..=0xAE) | (0x81, 0xA6..=0xA9)),
        0xE1 | 0xE3..=0xEC | 0xEE | 0xEF => cont(1) && cont(2),
        0xED => second(0x80, 0x9F) && cont(2),
        0xF0 => second(0x90, 0xBF) && cont(2) && cont(3),
        0xF1..=0xF3 => cont(1) && cont(2) && cont(3),
        0xF4 => second(0x80, 0x8F) && cont(2) && cont(3),
        _ => false,
    };
    if !ok {
        0
    } else if b[0] < 0xE0 {
        2
    } else if b[0] < 0xF0 {
        3
    } else {
        4
    }
}

/// For eight bytes, the top bit of each byte position that may not be printable ASCII
/// (U+0020..U+007E); the lowest set bit is exactly at the first such byte.
#[inline]
fn special8(w: u64) -> u64 {
    const LOW: u64 = 0x2020_2020_2020_2020;
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte below 0x20 borrows; a byte of 0x7F or more has or gets its top bit. Borrows
    // and carries only move upwards, so the lowest flag is exact.
    (w.wrapping_sub(LOW) & !w | w.wrapping_add(ONES) | w) & HIGH
}

/// The bidi controls of the table (removed).
#[inline]
fn is_bidi(cp: u32) -> bool {
    table::BIDI.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

/// The table's input for a code point.
#[inline]
fn class(cp: u32) -> usize {
    if cp < 0xA0 {
        cp as usize
    } else if is_bidi(cp) {
        CLASS_BIDI
    } else {
        CLASS_TEXT
    }
}

/// The code points and the line feeds in whole UTF-8 characters, eight bytes at a time.
fn count_chars_and_lines(bytes: &[u8]) -> (usize, usize) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const LF: u64 = 0x0A0A_0A0A_0A0A_0A0A;
    let words = bytes.chunks_exact(8);
    let rest = words.remainder();
    let (mut continuation, mut lines) = (0, 0);
    for w in words {
        let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
        // Continuation bytes are 10xxxxxx: the top bit set and the next one clear.
        continuation += (w & !(w << 1) & HIGH).count_ones() as usize;
        // A byte equal to LF is zero in `x`; its top bit stays clear after adding 7F to its
        // low seven bits (no carry crosses a byte), every other byte's is set.
        let x = w ^ LF;
        lines += (!((x & LOW7).wrapping_add(LOW7) | x) & HIGH).count_ones() as usize;
    }
    continuation += rest.iter().filter(|&&b| b & 0xC0 == 0x80).count();
    lines += rest.iter().filter(|&&b| b == b'\n').count();
    (bytes.len() - continuation, lines)
}

/// The incremental safe transcript renderer of docs/TRANSCRIPT.md.
///
/// Push the terminal's bytes in chunks of any size; [`Transcript::text`] is the same
/// whatever the chunking. A replacement snapshot starts over with [`Transcript::reset`].
///
/// ```text
/// let mut t = Transcript::new();
/// t.push(b"\x1b[32mok\x1b[0m 50%\r");
/// t.push(b"ok 100%\r\ndone \x1b]0;title\x07");
/// assert_eq!(t.text(), "ok 100%\ndone");
/// ```
///
/// The current line is a sequence of cells and a cursor column. While the cursor stays
/// at or past its end, or the line is pure ASCII, its cells are UTF-8 bytes at the end of
/// the output buffer (`narrow`: printing appends, finishing it appends `\n`); a write
/// inside a line with non-ASCII cells moves it to one `char` per cell (`wide`) until the
/// line is finished or cleared. Trailing spaces look the same as missing cells in the
/// output (printing past the end pads with spaces, and the output trims them), so
/// erasing to the end truncates.
#[derive(Debug, Clone)]
pub struct Transcript {
    /// Where the text starts in `buf` (the finished lines before it are left out).
    head: usize,
    /// Where `buf[0]` is in the finished text since the start (UTF-8 bytes, left-out lines
    /// included).
    base: u64,
    /// Code points of the finished lines kept (`buf[head..line_start]`).
    chars: usize,
    max_line: usize,
    max_chars: usize,
    wrapped: u64,
    dropped_lines: u64,
    dropped_chars: u64,
    /// Finished lines, each followed by `\n`, then (from `line_start`) the current line's
    /// cells when it is narrow, up to `end`; past `end` scratch space that printing writes
    /// whole words into. Only whole characters are ever written before `end`, so every
    /// read checks as UTF-8 (a read checks only what it returns).
    buf: Vec<u8>,
    end: usize,
    /// Where the current line starts in `buf`.
    line_start: usize,
    /// Number of cells of the narrow current line.
    n: usize,
    /// The cells of the current line, when `wide`.
    cells: Vec<char>,
    /// Which representation holds the current line.
    wide: bool,
    /// Cursor column (0-based); may be past the end of the line.
    col: usize,
    /// The parser state (a row of the table).
    state: u8,
    /// The first numeric parameter of the CSI sequence so far.
    param: u32,
    /// An incomplete UTF-8 sequence waiting for the next chunk.
    pend: [u8; 4],
    pend_len: usize,
    /// Bytes and cells looked at or moved so far (see [`Transcript::work`]).
    work: u64,
}

impl Default for Transcript {
    fn default() -> Self {
        Self::with_limits(MAX_LINE_LENGTH, MAX_TEXT_LENGTH)
    }
}

impl Transcript {
    /// An empty transcript with the default limits ([`MAX_LINE_LENGTH`], [`MAX_TEXT_LENGTH`]).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty transcript with these limits (docs/TRANSCRIPT.md, "Limits"):
    /// - `max_line_length` cells per line (0 counts as 1): a character printed at that
    ///   column or further right first finishes the line, as a terminal that wide wraps;
    ///   [`Transcript::wrapped_lines`] counts it.
    /// - `max_text_length` code points of finished lines, each with its `\n`: past it the
    ///   oldest whole lines are left out, and [`Transcript::dropped_lines`] and
    ///   [`Transcript::dropped_chars`] say how much. The current line is always kept.
    #[must_use]
    pub fn with_limits(max_line_length: usize, max_text_length: usize) -> Self {
        Self {
            head: 0,
            base: 0,
            chars: 0,
            max_line: max_line_length.max(1),
            max_chars: max_text_length,
            wrapped: 0,
            dropped_lines: 0,
            dropped_chars: 0,
            buf: Vec::new(),
            end: 0,
            line_start: 0,
            n: 0,
            cells: Vec::new(),
            wide: false,
            col: 0,
            state: GROUND,
            param: 0,
            pend: [0; 4],
            pend_len: 0,
            work: 0,
        }
    }

    /// Bytes and cells looked at, written or moved so far by `push` (each byte pushed,
    /// each cell printed, padded, erased, re-encoded or copied, each byte of a line left
    /// out or compacted): the work counter the tests read to check, without a clock,
    /// that the work grows linearly with the input whatever the sequences. The readers
    /// cost what they return.
    #[doc(hidden)]
    #[must_use]
    pub const fn work(&self) -> u64 {
        self.work
    }

    /// Lines the line length limit broke (each one is a `\n` the bytes did not have).
    #[must_use]
    pub fn wrapped_lines(&self) -> u64 {
        self.wrapped
    }

    /// Finished lines left out from the start of the text by the text length limit.
    #[must_use]
    pub fn dropped_lines(&self) -> u64 {
        self.dropped_lines
    }

    /// Code points (line ends included) left out from the start of the text by the text
    /// length limit.
    #[must_use]
    pub fn dropped_chars(&self) -> u64 {
        self.dropped_chars
    }

    /// Forgets everything: the text, the current line, a pending sequence or character.
    /// Use it when a replacement snapshot arrives, then push the snapshot's bytes.
    pub fn reset(&mut self) {
        self.head = 0;
        self.base = 0;
        self.chars = 0;
        self.wrapped = 0;
        self.dropped_lines = 0;
        self.dropped_chars = 0;
        self.buf.clear();
        self.end = 0;
        self.line_start = 0;
        self.clear_line();
        self.col = 0;
        self.state = GROUND;
        self.pend_len = 0;
    }

    /// The transcript so far: every finished line followed by `\n`, then the current
    /// line, trailing spaces removed. An unfinished sequence and an incomplete
    /// character at the end show nothing yet.
    ///
    /// # Panics
    /// Never: only whole characters are ever written to the buffer it reads.
    #[must_use]
    pub fn text(&self) -> String {
        let line = &self.buf[self.line_start..self.end];
        let mut s = String::with_capacity(self.end - self.head + self.cells.len() * 4);
        s.push_str(std::str::from_utf8(&self.buf[self.head..self.line_start]).expect("whole characters"));
        if self.wide {
            let end = self.cells.iter().rposition(|&c| c != ' ').map_or(0, |p| p + 1);
            s.extend(&self.cells[..end]);
        } else {
            s.push_str(std::str::from_utf8(line).expect("whole characters").trim_end_matches(' '));
        }
        s
    }

    /// Where the finished lines end so far: a position in UTF-8 bytes of every line
    /// finished since the start or the last [`Transcript::reset`] (left-out lines included).
    /// Keep it, and pass it to [`Transcript::finished_since`] on the next read.
    #[must_use]
    pub fn finished_len(&self) -> u64 {
        self.base + self.line_start as u64
    }

    /// The lines finished since position `from` (an earlier [`Transcript::finished_len`]),
    /// each with its `\n`, in two pieces to show one after the other (the second is empty
    /// in this version), without a copy: a display that keeps the finished lines reads only
    /// what is new, then the [`Transcript::current_line`]. Lines already left out by the
    /// text length limit are skipped; a position inside a character moves to the next one.
    ///
    /// # Panics
    /// Never: only whole characters are ever written to the buffer it reads.
    #[must_use]
    pub fn finished_since(&self, from: u64) -> (&str, &str) {
        let start = from.max(self.base + self.head as u64) - self.base;
        let mut at = usize::try_from(start).unwrap_or(usize::MAX).min(self.line_start);
        while at < self.line_start && self.buf[at] & 0xC0 == 0x80 {
            at += 1;
        }
        (std::str::from_utf8(&self.buf[at..self.line_start]).expect("whole characters"), "")
    }

    /// The current line, trailing spaces removed (the end of [`Transcript::text`]).
    #[must_use]
    pub fn current_line(&self) -> String {
        if self.wide {
            let end = self.cells.iter().rposition(|&c| c != ' ').map_or(0, |p| p + 1);
            self.cells[..end].iter().collect()
        } else {
            let line = std::str::from_utf8(&self.buf[self.line_start..self.end]).expect("whole characters");
            line.trim_end_matches(' ').to_owned()
        }
    }

    /// Continues the transcript with the next chunk of terminal bytes.
    pub fn push(&mut self, bytes: &[u8]) {
        self.work += bytes.len() as u64;
        let i = if self.pend_len > 0 { self.resume(bytes) } else { 0 };
        self.run(bytes, i);
        if self.chars > self.max_chars {
            self.drop_oldest();
        }
    }

    // ---- the current line

    /// Number of cells in the current line.
    fn len(&self) -> usize {
        if self.wide { self.cells.len() } else { self.n }
    }

    /// Narrow and pure ASCII: a cell index is a byte index.
    fn ascii(&self) -> bool {
        !self.wide && self.end - self.line_start == self.n
    }

    /// Makes `buf` hold at least `extra` bytes of scratch past `end` (doubling, so the
    /// copies are amortized).
    #[inline]
    fn room(&mut self, extra: usize) {
        if self.end + extra > self.buf.len() {
            let want = (self.end + extra).max(self.end * 2).max(256);
            self.buf.resize(want, 0);
        }
    }

    /// Appends bytes of whole characters at `end`.
    #[inline]
    fn append(&mut self, bytes: &[u8]) {
        self.room(bytes.len());
        self.buf[self.end..self.end + bytes.len()].copy_from_slice(bytes);
        self.end += bytes.len();
    }

    fn clear_line(&mut self) {
        self.end = self.line_start;
        self.cells.clear();
        self.n = 0;
        self.wide = false;
    }

    fn make_wide(&mut self) {
        if !self.wide {
            let line = std::str::from_utf8(&self.buf[self.line_start..self.end]).expect("whole characters");
            self.work += line.len() as u64;
            self.cells.clear();
            self.cells.extend(line.chars());
            self.end = self.line_start;
            self.n = 0;
            self.wide = true;
        }
    }

    /// Prints `run`: whole UTF-8 characters, `cells` of them, none of them a control.
    #[inline]
    fn put_run(&mut self, run: &[u8], cells: usize, ascii: bool) {
        let col = self.col;
        if col == self.n && !self.wide && col + cells <= self.max_line {
            // The usual case: the cursor at the end of the line.
            self.append(run);
            self.n = col + cells;
            self.col = self.n;
        } else if col + cells <= self.max_line {
            self.put_in_line(run, cells, ascii);
        } else {
            self.put_wrapping(run, ascii);
        }
    }

    /// Prints `run` where it reaches the line length limit: a character that would go at
    /// the limit or further right first finishes the line.
    #[cold]
    fn put_wrapping(&mut self, mut run: &[u8], ascii: bool) {
        while !run.is_empty() {
            if self.col >= self.max_line {
                self.wrapped += 1;
                self.finish_line();
            }
            let room = self.max_line - self.col;
            self.work += room.min(run.len()) as u64;
            let (take, cells) = if ascii {
                let take = room.min(run.len());
                (take, take)
            } else {
                let text = std::str::from_utf8(run).expect("whole characters");
                text.char_indices().nth(room).map_or_else(|| (run.len(), text.chars().count()), |(at, _)| (at, room))
            };
            self.put_in_line(&run[..take], cells, ascii);
            run = &run[take..];
        }
    }

    /// Prints `run` (`cells` characters) without passing the line length limit.
    #[inline]
    fn put_in_line(&mut self, run: &[u8], cells: usize, ascii: bool) {
        let col = self.col;
        self.work += (run.len() + col.saturating_sub(self.len())) as u64;
        if !self.wide {
            if col >= self.n {
                let pad = col - self.n;
                self.room(pad);
                self.buf[self.end..self.end + pad].fill(b' ');
                self.end += pad;
                self.append(run);
                self.n = col + cells;
                self.col = self.n;
                return;
            }
            if ascii && self.ascii() {
                let end = col + run.len();
                let at = self.line_start + col;
                if end <= self.n {
                    self.buf[at..at + run.len()].copy_from_slice(run);
                } else {
                    let (inside, beyond) = run.split_at(self.n - col);
                    self.buf[at..self.end].copy_from_slice(inside);
                    self.append(beyond);
                    self.n = end;
                }
                self.col = end;
                return;
            }
            self.make_wide();
        }
        for c in std::str::from_utf8(run).expect("whole characters").chars() {
            self.put_wide(c);
        }
    }

    /// Prints one cell holding a non-ASCII character.
    fn put_char(&mut self, c: char) {
        let mut utf8 = [0; 4];
        let bytes = c.encode_utf8(&mut utf8).as_bytes();
        self.put_run(bytes, 1, bytes.len() == 1);
    }

    fn put_wide(&mut self, c: char) {
        if self.col < self.cells.len() {
            self.cells[self.col] = c;
        } else {
            self.cells.resize(self.col, ' ');
            self.cells.push(c);
        }
        self.col += 1;
    }

    /// CSI `K` with its first parameter.
    fn erase(&mut self, mode: u32) {
        let (col, len) = (self.col, self.len());
        match mode {
            0 if col == 0 => self.clear_line(),
            0 if col < len => {
                if self.ascii() {
                    self.end = self.line_start + col;
                    self.n = col;
                } else {
                    self.make_wide();
                    self.cells.truncate(col);
                }
            }
            1 if col + 1 >= len => self.clear_line(),
            1 => {
                self.work += col as u64 + 1;
                if self.ascii() {
                    self.buf[self.line_start..=self.line_start + col].fill(b' ');
                } else {
                    self.make_wide();
                    self.cells[..=col].fill(' ');
                }
            }
            2 => self.clear_line(),
            _ => {}
        }
    }

    /// LF: the line is finished and an empty one starts at column 0.
    #[inline]
    fn finish_line(&mut self) {
        self.work += self.len() as u64 + 1;
        let cells = if self.wide {
            let end = self.cells.iter().rposition(|&c| c != ' ').map_or(0, |p| p + 1);
            self.room(end * 4);
            for k in 0..end {
                let c = self.cells[k];
                let len = c.encode_utf8(&mut self.buf[self.end..self.end + 4]).len();
                self.end += len;
            }
            end
        } else {
            let line = &self.buf[self.line_start..self.end];
            let end = line.iter().rposition(|&b| b != b' ').map_or(0, |p| p + 1);
            let trimmed = line.len() - end;
            self.end = self.line_start + end;
            self.n - trimmed
        };
        self.chars += cells + 1;
        self.append(b"\n");
        self.line_start = self.end;
        self.cells.clear();
        self.n = 0;
        self.wide = false;
        self.col = 0;
    }

    /// Leaves out the oldest finished lines until the rest fits the text length limit (once
    /// per push: the lines kept after a push are the same as if each line had been checked
    /// as it was finished, since a new line only ever moves the first line kept forward).
    /// At least as many bytes as code points over the limit must go, so the cut is made
    /// after the line end at or past that many bytes, and what went is counted in bulk;
    /// `buf` is compacted only when more than half of it is left out. The work is
    /// proportional to what goes.
    #[cold]
    fn drop_oldest(&mut self) {
        let bytes = &self.buf[..self.line_start];
        while self.chars > self.max_chars {
            let from = self.head + (self.chars - self.max_chars) - 1;
            let end = from + bytes[from..].iter().position(|&b| b == b'\n').expect("a finished line") + 1;
            let (chars, lines) = count_chars_and_lines(&bytes[self.head..end]);
            self.work += (end - self.head) as u64;
            self.head = end;
            self.chars -= chars;
            self.dropped_lines += lines as u64;
            self.dropped_chars += chars as u64;
        }
        if self.head > self.end / 2 {
            self.work += self.end as u64;
            self.buf.drain(..self.head);
            self.base += self.head as u64;
            self.line_start -= self.head;
            self.end -= self.head;
            self.head = 0;
        }
    }

    // ---- the parser

    /// Runs the parser over `bytes[i..]` in one loop. In the ground state, runs of
    /// printable cells go to the line without the table (eight ASCII bytes at a time,
    /// whole UTF-8 characters), and every other input goes through it. In any other state
    /// the table is looked up for each ASCII byte: most steps inside a sequence keep the
    /// state (parameter digits, string payload), so the row stays in a register and such a
    /// step is one load and one well-predicted comparison (the next load does not wait for
    /// the previous one). Non-ASCII bytes outside a run are decoded and looked up.
    fn run(&mut self, bytes: &[u8], mut i: usize) {
        let n = bytes.len();
        let mut state = self.state;
        while i < n {
            if state == GROUND && !self.wide && self.col == self.n && self.col < self.max_line {
                // The usual case, the cursor at the end of the line: copy while scanning,
                // a whole word at a time into the scratch space past `end` (only the bytes
                // of printable cells count), up to the line length limit (a character at
                // the limit is printed, and wraps, below).
                let stop = n.min(i + (self.max_line - self.col));
                self.room(stop - i + 8);
                let start = self.end;
                let mut end = start;
                let mut extra = 0;
                loop {
                    if i + 8 <= stop {
                        let w: [u8; 8] = bytes[i..i + 8].try_into().expect("eight bytes");
                        self.buf[end..end + 8].copy_from_slice(&w);
                        let special = special8(u64::from_le_bytes(w));
                        if special == 0 {
                            i += 8;
                            end += 8;
                            continue;
                        }
                        let k = special.trailing_zeros() as usize / 8;
                        i += k;
                        end += k;
                    }
                    let Some(&b) = bytes[..stop].get(i) else { break };
                    if b < 0x80 {
                        if TABLE[usize::from(b)] != PLAIN {
                            break;
                        }
                        self.buf[end] = b;
                        end += 1;
                        i += 1;
                    } else {
                        let len = if b >= 0xC2 { printable_len(&bytes[i..]) } else { 0 };
                        if len == 0 || i + len > stop {
                            break;
                        }
                        self.buf[end..end + len].copy_from_slice(&bytes[i..i + len]);
                        i += len;
                        end += len;
                        extra += len - 1;
                    }
                }
                self.n += end - start - extra;
                self.col = self.n;
                self.end = end;
            } else if state == GROUND {
                // One run of printable cells: ASCII (eight bytes at a time when it can) and
                // whole non-ASCII characters other than C1 and bidi controls.
                let start = i;
                let mut extra = 0; // bytes after the first of each multi-byte character
                loop {
                    if i + 8 <= n {
                        let special = special8(u64::from_le_bytes(bytes[i..i + 8].try_into().expect("eight bytes")));
                        if special == 0 {
                            i += 8;
                            continue;
                        }
                        i += special.trailing_zeros() as usize / 8;
                    }
                    let Some(&b) = bytes.get(i) else { break };
                    if b < 0x80 {
                        if TABLE[usize::from(b)] != PLAIN {
                            break;
                        }
                        i += 1;
                    } else {
                        let len = if b >= 0xC2 { printable_len(&bytes[i..]) } else { 0 };
                        if len == 0 {
                            break;
                        }
                        i += len;
                        extra += len - 1;
                    }
                }
                if i > start {
                    self.put_run(&bytes[start..i], i - start - extra, extra == 0);
                }
            }
            if state == GROUND {
                let Some(&b) = bytes.get(i) else { break };
                if b >= 0x80 {
                    self.state = state;
                    i = self.code_point_at(bytes, i);
                    state = self.state;
                    continue;
                }
                if b == 0x1B && table::INLINE_CSI && bytes.get(i + 1) == Some(&b'[') {
                    // ESC [ with its parameters and final byte in this chunk: the table's
                    // steps through the plain CSI states without leaving this loop.
                    if let Some(next) = self.inline_csi(bytes, i + 2) {
                        i = next;
                        continue;
                    }
                }
                let e = TABLE[usize::from(b)];
                i += 1;
                // The usual controls first, then the rest through `act`.
                match e >> 4 {
                    IGNORE => {}
                    table::LINE_FEED => self.finish_line(),
                    table::CARRIAGE_RETURN => self.col = 0,
                    action => self.act(action, u32::from(b)),
                }
                state = e & 15;
                continue;
            }
            let mut row = usize::from(state) * CLASSES;
            let mut stay = IGNORE << 4 | state;
            while i < n {
                let b = bytes[i];
                if b >= 0x80 {
                    self.state = state;
                    i = self.code_point_at(bytes, i);
                    state = self.state;
                    break;
                }
                let e = TABLE[row + usize::from(b)];
                i += 1;
                if e == stay {
                    continue;
                }
                let (action, next) = (e >> 4, e & 15);
                match action {
                    IGNORE => {}
                    // The generator allows `param` only on the digits 0-9.
                    table::PARAM => self.param = (self.param * 10 + u32::from(b - b'0')).min(table::MAX_PARAM),
                    table::CSI_START => self.param = 0,
                    _ => self.act(action, u32::from(b)),
                }
                if next != state {
                    state = next;
                    if state == GROUND {
                        break;
                    }
                    row = usize::from(state) * CLASSES;
                    stay = IGNORE << 4 | state;
                }
            }
        }
        self.state = state;
    }

    /// A CSI sequence from its first parameter byte at `bytes[i]`: when digits, `;` and a
    /// final byte (the plain CSI states, as `table::INLINE_CSI`, which the generator computes
    /// from the table, says) reach its end within `bytes`, the final byte's action is carried
    /// out with the first parameter and the index after it returned; otherwise `None`,
    /// nothing done (the table takes it from the ESC).
    #[inline]
    fn inline_csi(&mut self, bytes: &[u8], mut i: usize) -> Option<usize> {
        let mut state = table::CSI_ENTRY;
        let mut param = 0;
        while let Some(&b) = bytes.get(i) {
            match b {
                b'0'..=b'9' => {
                    if state != table::CSI_PARAM_REST {
                        param = (param * 10 + u32::from(b - b'0')).min(table::MAX_PARAM);
                        state = table::CSI_PARAM;
                    }
                }
                b';' => state = table::CSI_PARAM_REST,
                0x40..=0x7E => {
                    let action = TABLE[usize::from(state) * CLASSES + usize::from(b)] >> 4;
                    if action != IGNORE {
                        self.param = param;
                        self.act(action, u32::from(b));
                    }
                    return Some(i + 1);
                }
                _ => return None,
            }
            i += 1;
        }
        None
    }

    /// Decodes the code point at `bytes[i]` (a byte of 0x80 or more) and runs it through
    /// the table; returns the next index.
    fn code_point_at(&mut self, bytes: &[u8], i: usize) -> usize {
        match decode(&bytes[i..]) {
            Step::Char(cp, len) => {
                self.input(cp);
                i + len
            }
            Step::Bad(len) => {
                self.input(0xFFFD);
                i + len
            }
            Step::Short => {
                self.stash(&bytes[i..]);
                bytes.len()
            }
        }
    }

    /// One code point through the table.
    #[inline]
    fn input(&mut self, cp: u32) {
        let e = TABLE[usize::from(self.state) * CLASSES + class(cp)];
        self.state = e & 15;
        self.act(e >> 4, cp);
    }

    /// Carries out one action of the table (`transitions.txt` says what each one is).
    #[inline(always)]
    fn act(&mut self, action: u8, cp: u32) {
        match action {
            table::PRINT => {
                if let Ok(b) = u8::try_from(cp)
                    && b < 0x80
                {
                    self.put_run(&[b], 1, true);
                } else {
                    self.put_char(char::from_u32(cp).unwrap_or(char::REPLACEMENT_CHARACTER));
                }
            }
            table::BACKSPACE => self.col = self.col.saturating_sub(1),
            table::CARRIAGE_RETURN => self.col = 0,
            table::LINE_FEED => self.finish_line(),
            table::CSI_START => self.param = 0,
            // The generator allows `param` only on the digits 0-9.
            table::PARAM => self.param = (self.param * 10 + (cp - u32::from(b'0'))).min(table::MAX_PARAM),
            table::CURSOR_COLUMN => self.col = (self.param.max(1) as usize - 1).min(table::MAX_MOVE_COLUMN),
            table::CURSOR_LEFT => self.col = self.col.saturating_sub(self.param.max(1) as usize),
            // A cursor already right of the limit (by printing) stays where it is.
            table::CURSOR_RIGHT if self.col < table::MAX_MOVE_COLUMN => self.col = (self.col + self.param.max(1) as usize).min(table::MAX_MOVE_COLUMN),
            table::ERASE_IN_LINE => self.erase(self.param),
            _ => {}
        }
    }

    fn stash(&mut self, tail: &[u8]) {
        self.pend[..tail.len()].copy_from_slice(tail);
        self.pend_len = tail.len();
    }

    /// Completes the pending UTF-8 sequence with the start of `bytes`; returns how many
    /// bytes of `bytes` it used.
    fn resume(&mut self, bytes: &[u8]) -> usize {
        let p = self.pend_len;
        let take = (4 - p).min(bytes.len());
        let mut tmp = self.pend;
        tmp[p..p + take].copy_from_slice(&bytes[..take]);
        self.pend_len = 0;
        match decode(&tmp[..p + take]) {
            Step::Char(cp, len) => {
                self.input(cp);
                len - p
            }
            Step::Bad(len) => {
                self.input(0xFFFD);
                len - p
            }
            Step::Short => {
                self.stash(&tmp[..p + take]);
                bytes.len()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Transcript;
    use serde_json::Value;
    use std::path::Path;

    fn render(chunks: &[&[u8]]) -> String {
        let mut t = Transcript::new();
        for c in chunks {
            t.push(c);
        }
        t.text()
    }

    fn one_shot(bytes: &[u8]) -> String {
        render(&[bytes])
    }

    /// The bytes of a vector's (valid, padded) base64 chunk: the transcript needs no wire
    /// runtime, so neither do its tests.
    fn base64(text: &str) -> Vec<u8> {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let (mut out, mut acc, mut bits) = (Vec::new(), 0u32, 0);
        for c in text.bytes().filter(|&c| c != b'=') {
            let v = ALPHABET.iter().position(|&a| a == c).unwrap_or_else(|| panic!("{text:?} is not base64"));
            acc = (acc << 6) | u32::try_from(v).expect("below 64");
            bits += 6;
            if bits >= 8 {
                bits -= 8;
                out.push(u8::try_from((acc >> bits) & 0xFF).expect("a byte"));
            }
        }
        out
    }

    #[test]
    fn vectors() {
        // The schema crate (`schema/`) or the generated crate (`generated/rust/`).
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = ["../tests/vectors/transcript", "../../tests/vectors/transcript"].iter().map(|d| root.join(d)).find(|d| d.is_dir()).expect("tests/vectors/transcript");
        let mut files: Vec<_> =
            std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.expect("directory entry").path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
        files.sort();
        let (mut passed, mut failed) = (0, Vec::new());
        for file in &files {
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).expect("readable")).expect("JSON");
            for case in doc["cases"].as_array().expect("cases") {
                let name = case["name"].as_str().expect("name");
                assert_eq!(case["kind"], "transcript", "{name}");
                let chunks: Vec<Vec<u8>> = case["chunks"].as_array().expect("chunks").iter().map(|c| base64(c.as_str().expect("base64 string"))).collect();
                let want = case["expect"]["text"].as_str().expect("expect.text");
                let mut t = Transcript::new();
                for c in &chunks {
                    t.push(c);
                }
                let got = t.text();
                // The same bytes as one chunk, and one byte at a time, give the same text.
                let all = chunks.concat();
                let bytewise = render(&all.iter().map(std::slice::from_ref).collect::<Vec<_>>());
                if got == want && one_shot(&all) == want && bytewise == want {
                    passed += 1;
                } else {
                    failed.push(format!("{} :: {name}\n    expected {want:?}\n    got      {got:?} (one chunk {:?}, bytewise {bytewise:?})", file.display(), one_shot(&all)));
                }
            }
        }
        assert!(failed.is_empty(), "{}\n{passed} passed, {} failed", failed.join("\n"), failed.len());
        assert!(passed >= 80, "only {passed} transcript vectors");
    }

    /// xorshift64*: a small seeded generator, so failures reproduce.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: usize) -> usize {
            usize::try_from(self.next() % n as u64).expect("below n")
        }
    }

    const PIECES: &[&[u8]] = &[
        b"hello",
        b"progress 42%",
        b" ",
        b"  ",
        b"\t",
        b"\r",
        b"\n",
        b"\r\n",
        b"\x08",
        b"\x07",
        b"\x00",
        b"\x7f",
        b"\x1b[31m",
        b"\x1b[0m",
        b"\x1b[38;2;1;2;3m",
        b"\x1b[K",
        b"\x1b[0K",
        b"\x1b[1K",
        b"\x1b[2K",
        b"\x1b[3K",
        b"\x1b[1G",
        b"\x1b[5G",
        b"\x1b[G",
        b"\x1b[2D",
        b"\x1b[D",
        b"\x1b[3C",
        b"\x1b[0C",
        b"\x1b[?25l",
        b"\x1b[?2K",
        b"\x1b[1$G",
        b"\x1b[1:2G",
        b"\x1b[99999C",
        b"\x1b]0;title\x07",
        b"\x1b]8;;http://x\x1b\\",
        b"\x1b]2;t",
        b"\x1bP1$qm\x1b\\",
        b"\x1bPq#0;2;0;0;0\x1b\\",
        b"\x1bX sos \x1b\\",
        b"\x1b^pm\x07x\x1b\\",
        b"\x1b_apc\x1b\\",
        b"\x1b(B",
        b"\x1b7",
        b"\x1b8",
        b"\x1b",
        b"\x1b[",
        b"\x1b]",
        b"\x1bP",
        b"\x18",
        b"\x1a",
        b"\xc2\x9b2K",
        b"\xc2\x9b",
        b"\xc2\x9d0;x\xc2\x9c",
        b"\xc2\x90q\xc2\x9c",
        b"\xc2\x85",
        b"\xc2\x9c",
        b"\xc2\x80",
        b"\xc3\xa9",
        b"\xe2\x82\xac",
        b"\xf0\x9f\x98\x80",
        b"\xe4\xb8\xad\xe6\x96\x87",
        b"\xe2\x80\xae",
        b"\xe2\x81\xa6",
        b"\xef\xbb\xbf",
        b"\xc2\xa0",
        b"\x80",
        b"\xbf",
        b"\xc0\xaf",
        b"\xe0\x80\xaf",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"\xf5",
        b"\xff",
        b"\xe2\x82",
        b"\xf0\x9f\x98",
        b"\xc2",
        b"\xed",
        b"\xf4",
        b"0123456789",
        b";",
        b"[",
        b"]",
        b"\\",
    ];

    #[test]
    fn rechunking_never_changes_the_text() {
        let mut rng = Rng(0x5EED_1234_ABCD_0001);
        for round in 0..400 {
            let mut stream = Vec::new();
            for _ in 0..=rng.below(60) {
                if rng.below(8) == 0 {
                    stream.push(rng.next().to_le_bytes()[0]);
                } else {
                    stream.extend_from_slice(PIECES[rng.below(PIECES.len())]);
                }
            }
            let want = one_shot(&stream);
            let mut t = Transcript::new();
            let mut at = 0;
            while at < stream.len() {
                let end = (at + rng.below(9)).min(stream.len());
                t.push(&stream[at..end]);
                at = end;
                if rng.below(4) == 0 {
                    assert_eq!(t.text(), one_shot(&stream[..at]), "round {round}: prefix of {stream:?} at {at}");
                }
            }
            assert_eq!(t.text(), want, "round {round}: {stream:?}");
            t.reset();
            t.push(&stream);
            assert_eq!(t.text(), want, "round {round}: after reset");
        }
    }

    #[test]
    fn a_line_at_the_length_limit_wraps_and_is_counted() {
        let mut t = Transcript::with_limits(4, usize::MAX);
        t.push("abcdéfghij\r\n".as_bytes());
        assert_eq!(t.text(), "abcd\néfgh\nij\n");
        assert_eq!(t.wrapped_lines(), 2);
        // CR goes back to the start of the wrapped line only, as on a terminal that wide.
        t.push(b"0123456\rX\x1b[1K");
        assert_eq!(t.text(), "abcd\néfgh\nij\n0123\n  6");
        // A cursor moved past the limit wraps at the next character.
        let mut t = Transcript::with_limits(4, usize::MAX);
        t.push(b"ab\x1b[9Cc");
        assert_eq!((t.text().as_str(), t.wrapped_lines()), ("ab\nc", 1));
        // The default limit, and every chunking giving the same text.
        let line = "x".repeat(super::MAX_LINE_LENGTH + 5);
        assert_eq!(one_shot(line.as_bytes()), format!("{}\nxxxxx", &line[..super::MAX_LINE_LENGTH]));
        assert_eq!(render(&line.as_bytes().chunks(7).collect::<Vec<_>>()), one_shot(line.as_bytes()));
    }

    #[test]
    fn past_the_text_length_limit_the_oldest_lines_are_left_out_and_counted() {
        let mut t = Transcript::with_limits(100, 10);
        t.push(b"one\ntwo\nthr");
        assert_eq!((t.text().as_str(), t.dropped_lines(), t.dropped_chars()), ("one\ntwo\nthr", 0, 0));
        t.push("ée\n".as_bytes());
        // 4 + 4 + 6 code points: "one\n" goes, "two\nthrée\n" is exactly 10.
        assert_eq!((t.text().as_str(), t.dropped_lines(), t.dropped_chars()), ("two\nthrée\n", 1, 4));
        t.push(b"four\n");
        assert_eq!((t.text().as_str(), t.dropped_lines(), t.dropped_chars()), ("four\n", 3, 14));
        // A line longer than the limit goes as soon as it is finished; the current line stays.
        t.push(b"a very long line\nnow");
        assert_eq!((t.text().as_str(), t.dropped_lines(), t.dropped_chars()), ("now", 5, 14 + 5 + 17));
        t.reset();
        assert_eq!((t.text().as_str(), t.dropped_lines(), t.dropped_chars(), t.wrapped_lines()), ("", 0, 0, 0));
        // Any chunking drops the same lines.
        let stream: Vec<u8> = (0..3000).flat_map(|i| format!("line {i} é\r\n").into_bytes()).collect();
        let mut whole = Transcript::with_limits(100, 1000);
        whole.push(&stream);
        let mut bytewise = Transcript::with_limits(100, 1000);
        for b in &stream {
            bytewise.push(std::slice::from_ref(b));
        }
        assert_eq!(whole.text(), bytewise.text());
        assert_eq!(whole.dropped_lines(), bytewise.dropped_lines());
        assert!(whole.text().chars().count() <= 1000 && whole.text().starts_with("line "));
    }

    #[test]
    fn reading_only_what_is_new_gives_the_text() {
        let stream: Vec<u8> = (0..4000).flat_map(|i| format!("line {i} é\x1b[31m😀\x1b[0m\r\nprogress {i}\r").into_bytes()).collect();
        for max_text in [usize::MAX, 5000] {
            let mut t = Transcript::with_limits(64, max_text);
            let (mut shown, mut at) = (String::new(), 0);
            for chunk in stream.chunks(333) {
                t.push(chunk);
                let (a, b) = t.finished_since(at);
                shown.push_str(a);
                shown.push_str(b);
                at = t.finished_len();
                assert!(format!("{shown}{}", t.current_line()).ends_with(&t.text()));
            }
            let kept = t.text();
            assert!(format!("{shown}{}", t.current_line()).ends_with(&kept));
            if max_text == usize::MAX {
                assert_eq!(format!("{shown}{}", t.current_line()), kept);
            }
            // An old position gives what is kept; a position inside a character, the next one.
            assert_eq!(t.finished_since(0).0.len() + t.finished_since(0).1.len() + t.current_line().len(), kept.len());
            let (a, b) = t.finished_since(t.finished_len() - 3);
            // The last line is "line 3999 é😀8" ("progress 3998" overwritten up to its "8").
            assert_eq!(format!("{a}{b}"), "8\n", "3 bytes before the end: inside the emoji");
        }
    }

    /// The work to render `stream` in 4 KiB chunks and read its text: the transcript's
    /// work counter plus the text's length (what reading it costs).
    fn work(stream: &[u8]) -> u64 {
        let mut t = Transcript::new();
        for c in stream.chunks(4096) {
            t.push(c);
        }
        t.work() + t.text().len() as u64
    }

    /// Hostile streams of n and 8n bytes: the work grows by about 8, not by 64. Counted,
    /// not timed (`cargo xtask bench` times it), so the bound is tight.
    #[test]
    fn work_is_linear_in_the_input_whatever_the_sequence() {
        type Make = fn(usize) -> Vec<u8>;
        // n is large enough (4 MiB where the work per byte is small) that both sizes are
        // past the processor's caches: below that the time per byte is lower.
        let patterns: [(&str, Make, usize); 5] = [
            (
                "a long line then erase-to-start repeated",
                |n| {
                    let mut v = b"x".repeat(n / 2);
                    v.extend_from_slice(b"\x1b[2D");
                    v.extend(b"\x1b[1K".repeat(n / 8));
                    v
                },
                1 << 19,
            ),
            // Each print pads up to the cursor, which moves right until the line length
            // limit: n is large enough that both sizes are past that.
            (
                "a long line then erase and print repeated",
                |n| {
                    let mut v = b"x".repeat(n / 2);
                    v.extend(b"\x1b[1Ky".repeat(n / 10));
                    v
                },
                1 << 18,
            ),
            (
                "a long non-ASCII line redrawn from its start",
                |n| {
                    let mut v = "é".repeat(n / 4).into_bytes();
                    v.extend(b"\x1b[1Gz\x1b[1000G\x1b[1K".repeat(n / 32));
                    v
                },
                1 << 16,
            ),
            ("CR progress redraws", |n| b"\r\x1b[Kprogress 42% ".repeat(n / 18), 1 << 22),
            (
                "unterminated OSC",
                |n| {
                    let mut v = b"\x1b]0;".to_vec();
                    v.extend(b"payload ".repeat(n / 8));
                    v
                },
                1 << 22,
            ),
        ];
        for (name, make, n) in patterns {
            let (small, large) = (make(n), make(8 * n));
            let (a, b) = (work(&small), work(&large));
            #[allow(clippy::cast_precision_loss)]
            let ratio = b as f64 / a as f64;
            eprintln!("{name}: work {a} for {} bytes, {b} for 8x: {ratio:.2}x", small.len());
            // Linear work gives 8; quadratic work 64.
            assert!((7.0..=9.0).contains(&ratio), "{name}: 8x the input ({} bytes) took {ratio:.2}x the work ({a} then {b})", small.len());
            assert!(a >= small.len() as u64, "{name}: every byte is counted");
        }
    }

    #[test]
    fn nothing_unsafe_survives() {
        let mut rng = Rng(0xFEED_0000_0000_0042);
        for _ in 0..200 {
            let stream: Vec<u8> = (0..rng.below(400)).map(|_| rng.next().to_le_bytes()[0]).collect();
            let text = one_shot(&stream);
            assert!(text.chars().all(|c| c == '\n' || c == '\t' || !(c.is_control() || super::is_bidi(u32::from(c)))), "{text:?}");
        }
    }
}
