//! The safe transcript (docs/TRANSCRIPT.md): terminal bytes in, text that any UI can
//! show out. UTF-8 is decoded incrementally (one U+FFFD per maximal invalid
//! subsequence), escape and control sequences are removed with the DEC / ECMA-48
//! parser state machine, and a one-line discipline (CR, BS, LF, TAB, CSI G/D/C/K)
//! makes redrawn progress lines show their last state.
//!
//! Work per chunk is proportional to the chunk: the parser state, an incomplete UTF-8
//! sequence and the current line carry over; finished lines go to one growing buffer.
//!
//! Details that TRANSCRIPT.md leaves open, decided identically in the three bindings
//! (see `tests/vectors/transcript/README.md`):
//! - BEL ends an OSC string (as xterm does); in DCS, SOS, PM and APC strings it is payload.
//! - C0 controls inside escape and CSI sequences are executed (CR, LF, BS, TAB act) and
//!   the sequence goes on; inside OSC, DCS, SOS, PM and APC strings they are payload.
//! - `:` in a CSI sequence makes it ignored (no effect); a numeric parameter saturates
//!   at 65535; CSI `C` and CSI `G` never move the cursor right of column 1023 (0-based),
//!   and CSI `C` leaves a cursor that is already further right where it is.
//! - CSI `K` with a parameter other than 0, 1 or 2 has no effect; erasing never makes
//!   the line longer.
//! - An incomplete UTF-8 sequence at the end of the bytes so far is not shown (it waits);
//!   a prefix that can no longer become a character (`ED A0`, `F4 90`) is shown at once.
//! - U+FEFF and every other code point at or above U+00A0 that is not a bidi control
//!   is printed as one cell.

/// Largest value of a numeric CSI parameter; longer digit strings saturate here.
const MAX_PARAM: u32 = 65_535;
/// CSI `C` and CSI `G` do not move the cursor to the right of this column (0-based).
const MAX_MOVE_COL: usize = 1_023;

/// Parser states (vt100.net's DEC parser). The five DCS states and the SOS/PM/APC
/// string state share `Str`: none of them has a visible effect, and all of them end
/// the same way (ESC, CAN, SUB or a C1 control).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum State {
    #[default]
    Ground,
    Escape,
    EscInter,
    CsiEntry,
    CsiParam,
    CsiInter,
    CsiIgnore,
    Osc,
    Str,
}

/// The current line: cells and a cursor column.
///
/// While the cursor stays at or past the end, or the line is pure ASCII, the cells are
/// kept as UTF-8 bytes (`narrow`); a write inside a line with non-ASCII cells switches to
/// one `char` per cell (`wide`) until the line is finished or cleared. Trailing spaces
/// are indistinguishable from missing cells (printing past the end pads with spaces, the
/// output trims them), so erasing to the end truncates.
#[derive(Debug, Clone, Default)]
struct Line {
    /// The cells as UTF-8 (whole characters only), when not `wide`.
    bytes: Vec<u8>,
    /// Number of cells in `bytes`.
    n: usize,
    /// The cells, when `wide`.
    cells: Vec<char>,
    /// Which representation holds the cells.
    wide: bool,
    /// Cursor column (0-based); may be past the end.
    col: usize,
}

impl Line {
    fn len(&self) -> usize {
        if self.wide { self.cells.len() } else { self.n }
    }

    /// Narrow and pure ASCII: a cell index is a byte index.
    fn ascii(&self) -> bool {
        !self.wide && self.bytes.len() == self.n
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.cells.clear();
        self.n = 0;
        self.wide = false;
    }

    fn make_wide(&mut self) {
        if !self.wide {
            self.cells.clear();
            self.cells.extend(std::str::from_utf8(&self.bytes).expect("whole characters").chars());
            self.bytes.clear();
            self.n = 0;
            self.wide = true;
        }
    }

    /// Prints a run of ASCII cells (TAB or U+0020..U+007E).
    fn put_ascii(&mut self, run: &[u8]) {
        if !self.wide {
            if self.col >= self.n {
                self.bytes.resize(self.bytes.len() + (self.col - self.n), b' ');
                self.bytes.extend_from_slice(run);
                self.n = self.col + run.len();
                self.col = self.n;
                return;
            }
            if self.ascii() {
                let end = self.col + run.len();
                if end <= self.n {
                    self.bytes[self.col..end].copy_from_slice(run);
                } else {
                    let (inside, beyond) = run.split_at(self.n - self.col);
                    self.bytes[self.col..].copy_from_slice(inside);
                    self.bytes.extend_from_slice(beyond);
                    self.n = end;
                }
                self.col = end;
                return;
            }
            self.make_wide();
        }
        for &b in run {
            self.put_wide(char::from(b));
        }
    }

    /// Prints one cell holding a non-ASCII character.
    fn put_char(&mut self, c: char) {
        if !self.wide {
            if self.col >= self.n {
                self.bytes.resize(self.bytes.len() + (self.col - self.n), b' ');
                self.bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                self.n = self.col + 1;
                self.col = self.n;
                return;
            }
            self.make_wide();
        }
        self.put_wide(c);
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
            0 if col == 0 => self.clear(),
            0 if col < len => {
                if self.ascii() {
                    self.bytes.truncate(col);
                    self.n = col;
                } else {
                    self.make_wide();
                    self.cells.truncate(col);
                }
            }
            1 if col + 1 >= len => self.clear(),
            1 => {
                if self.ascii() {
                    self.bytes[..=col].fill(b' ');
                } else {
                    self.make_wide();
                    self.cells[..=col].fill(' ');
                }
            }
            2 => self.clear(),
            _ => {}
        }
    }

    /// Appends the UTF-8 of the cells without trailing spaces.
    fn write_to(&self, out: &mut Vec<u8>) {
        if self.wide {
            let end = self.cells.iter().rposition(|&c| c != ' ').map_or(0, |p| p + 1);
            for c in &self.cells[..end] {
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
        } else {
            let end = self.bytes.iter().rposition(|&b| b != b' ').map_or(0, |p| p + 1);
            out.extend_from_slice(&self.bytes[..end]);
        }
    }
}

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

/// Bidi embedding, override and isolate controls: removed.
fn is_bidi(cp: u32) -> bool {
    matches!(cp, 0x202A..=0x202E | 0x2066..=0x2069)
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
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    /// Finished lines, each followed by `\n`, checked as UTF-8 in large blocks.
    out: String,
    /// Finished lines after `out`, not yet moved there (always whole characters).
    raw: Vec<u8>,
    line: Line,
    state: State,
    /// The first CSI parameter so far.
    param: u32,
    /// Still reading the first CSI parameter.
    first: bool,
    /// The CSI sequence has a private marker (`<`, `=`, `>` or `?`).
    private: bool,
    /// An incomplete UTF-8 sequence waiting for the next chunk.
    pend: [u8; 4],
    pend_len: usize,
}

impl Transcript {
    /// An empty transcript.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets everything: the text, the current line, a pending sequence or character.
    /// Use it when a replacement snapshot arrives, then push the snapshot's bytes.
    pub fn reset(&mut self) {
        self.out.clear();
        self.raw.clear();
        self.line.clear();
        self.line.col = 0;
        self.state = State::Ground;
        self.pend_len = 0;
    }

    /// The transcript so far: every finished line followed by `\n`, then the current
    /// line, trailing spaces removed. An unfinished sequence and an incomplete
    /// character at the end show nothing yet.
    #[must_use]
    pub fn text(&self) -> String {
        let mut tail = self.raw.clone();
        self.line.write_to(&mut tail);
        let mut s = String::with_capacity(self.out.len() + tail.len());
        s.push_str(&self.out);
        s.push_str(std::str::from_utf8(&tail).expect("whole characters"));
        s
    }

    /// Continues the transcript with the next chunk of terminal bytes.
    pub fn push(&mut self, bytes: &[u8]) {
        let n = bytes.len();
        let mut i = if self.pend_len > 0 { self.resume(bytes) } else { 0 };
        while i < n {
            match self.state {
                State::Ground => {
                    let start = i;
                    while i < n && matches!(bytes[i], 0x20..=0x7E | b'\t') {
                        i += 1;
                    }
                    if i > start {
                        self.line.put_ascii(&bytes[start..i]);
                    }
                    if i < n {
                        if bytes[i] == 0x1B && bytes.get(i + 1) == Some(&b'[') {
                            self.state = self.csi();
                            i += 2;
                        } else {
                            i = self.step(bytes, i);
                        }
                    }
                }
                State::CsiEntry | State::CsiParam => {
                    // The usual parameter bytes and final byte, without going through `step`.
                    while i < n {
                        match bytes[i] {
                            b @ b'0'..=b'9' => self.digit(b),
                            b';' => self.first = false,
                            _ => break,
                        }
                        self.state = State::CsiParam;
                        i += 1;
                    }
                    if i < n {
                        let b = bytes[i];
                        if (0x40..=0x7E).contains(&b) {
                            self.dispatch(b);
                            self.state = State::Ground;
                            i += 1;
                        } else {
                            i = self.step(bytes, i);
                        }
                    }
                }
                State::Osc | State::Str => {
                    let osc = self.state == State::Osc;
                    let found = bytes[i..]
                        .iter()
                        .position(|&b| matches!(b, 0x18 | 0x1A | 0x1B | 0xC2) || (osc && b == 0x07));
                    let Some(k) = found else { break };
                    i += k;
                    if bytes[i] != 0xC2 {
                        self.ascii(bytes[i]);
                        i += 1;
                    } else if i + 1 == n {
                        self.stash(&bytes[i..]);
                        break;
                    } else if (0x80..=0x9F).contains(&bytes[i + 1]) {
                        self.c1(u32::from(bytes[i + 1]));
                        i += 2;
                    } else {
                        // Payload: U+00A0..U+00BF, or U+FFFD followed by a byte looked at again.
                        i += 1;
                    }
                }
                _ => i = self.step(bytes, i),
            }
        }
    }

    /// Handles the code point starting at `bytes[i]`; returns the next index.
    fn step(&mut self, bytes: &[u8], i: usize) -> usize {
        let b = bytes[i];
        if b < 0x80 {
            self.ascii(b);
            return i + 1;
        }
        match decode(&bytes[i..]) {
            Step::Char(cp, len) => {
                self.code_point(cp);
                i + len
            }
            Step::Bad(len) => {
                self.code_point(0xFFFD);
                i + len
            }
            Step::Short => {
                self.stash(&bytes[i..]);
                bytes.len()
            }
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
                self.code_point(cp);
                len - p
            }
            Step::Bad(len) => {
                self.code_point(0xFFFD);
                len - p
            }
            Step::Short => {
                self.stash(&tmp[..p + take]);
                bytes.len()
            }
        }
    }

    /// A decoded code point at or above U+0080 (U+FFFD included).
    fn code_point(&mut self, cp: u32) {
        if cp <= 0x9F {
            self.c1(cp);
            return;
        }
        match self.state {
            State::Osc | State::Str => {}
            _ => {
                self.state = State::Ground;
                if !is_bidi(cp) {
                    self.line.put_char(char::from_u32(cp).expect("decoded a scalar value"));
                }
            }
        }
    }

    /// A C1 control, from any state: the same as its 7-bit equivalent `ESC Fe`.
    fn c1(&mut self, cp: u32) {
        self.state = match cp {
            0x90 | 0x98 | 0x9E | 0x9F => State::Str,
            0x9B => self.csi(),
            0x9D => State::Osc,
            _ => State::Ground,
        };
    }

    fn csi(&mut self) -> State {
        self.param = 0;
        self.first = true;
        self.private = false;
        State::CsiEntry
    }

    /// C0 controls executed in the ground, escape and CSI states.
    fn execute(&mut self, b: u8) {
        match b {
            0x08 => self.line.col = self.line.col.saturating_sub(1),
            b'\t' => self.line.put_ascii(b"\t"),
            b'\n' => self.finish_line(),
            b'\r' => self.line.col = 0,
            _ => {}
        }
    }

    /// LF: the line is finished and an empty one starts at column 0.
    fn finish_line(&mut self) {
        self.line.write_to(&mut self.raw);
        self.raw.push(b'\n');
        self.line.clear();
        self.line.col = 0;
        if self.raw.len() >= 1 << 15 {
            self.out.push_str(std::str::from_utf8(&self.raw).expect("whole characters"));
            self.raw.clear();
        }
    }

    fn digit(&mut self, b: u8) {
        if self.first {
            self.param = (self.param * 10 + u32::from(b - b'0')).min(MAX_PARAM);
        }
    }

    /// CSI final byte without intermediates, outside CSI ignore.
    fn dispatch(&mut self, fin: u8) {
        if self.private {
            return;
        }
        let n = self.param;
        let line = &mut self.line;
        match fin {
            b'G' => line.col = (n.max(1) as usize - 1).min(MAX_MOVE_COL),
            b'D' => line.col = line.col.saturating_sub(n.max(1) as usize),
            b'C' => {
                if line.col < MAX_MOVE_COL {
                    line.col = (line.col + n.max(1) as usize).min(MAX_MOVE_COL);
                }
            }
            b'K' => line.erase(n),
            _ => {}
        }
    }

    /// One byte below 0x80 in the current state.
    fn ascii(&mut self, b: u8) {
        use State as S;
        match b {
            0x1B => {
                self.state = S::Escape;
                return;
            }
            0x18 | 0x1A => {
                self.state = S::Ground;
                return;
            }
            _ => {}
        }
        self.state = match (self.state, b) {
            (S::Ground, 0x20..=0x7E) => {
                self.line.put_ascii(&[b]);
                S::Ground
            }
            (S::Osc, 0x07) => S::Ground,
            (s @ (S::Osc | S::Str), _) => s,
            (s, 0x7F) => s,
            (s, 0x00..=0x1F) => {
                self.execute(b);
                s
            }
            (S::Ground, _) => S::Ground,
            (S::Escape, 0x20..=0x2F) | (S::EscInter, 0x20..=0x2F) => S::EscInter,
            (S::Escape, b'[') => self.csi(),
            (S::Escape, b']') => S::Osc,
            (S::Escape, b'P' | b'X' | b'^' | b'_') => S::Str,
            (S::Escape | S::EscInter, _) => S::Ground,
            (S::CsiEntry | S::CsiParam, b'0'..=b'9') => {
                self.digit(b);
                S::CsiParam
            }
            (S::CsiEntry | S::CsiParam, b';') => {
                self.first = false;
                S::CsiParam
            }
            (S::CsiEntry, 0x3C..=0x3F) => {
                self.private = true;
                S::CsiParam
            }
            (S::CsiEntry | S::CsiParam | S::CsiInter, 0x20..=0x2F) => S::CsiInter,
            (S::CsiEntry | S::CsiParam, 0x40..=0x7E) => {
                self.dispatch(b);
                S::Ground
            }
            (S::CsiInter | S::CsiIgnore, 0x40..=0x7E) => S::Ground,
            // `:` and misplaced private markers in entry/param, parameters after an
            // intermediate, anything in ignore.
            (S::CsiEntry | S::CsiParam | S::CsiInter | S::CsiIgnore, _) => S::CsiIgnore,
        };
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

    #[test]
    fn vectors() {
        // The schema crate (`schema/`) or the generated crate (`generated/rust/`).
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = ["../tests/vectors/transcript", "../../tests/vectors/transcript"]
            .iter()
            .map(|d| root.join(d))
            .find(|d| d.is_dir())
            .expect("tests/vectors/transcript");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        let (mut passed, mut failed) = (0, Vec::new());
        for file in &files {
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).expect("readable")).expect("JSON");
            for case in doc["cases"].as_array().expect("cases") {
                let name = case["name"].as_str().expect("name");
                assert_eq!(case["kind"], "transcript", "{name}");
                let chunks: Vec<Vec<u8>> = case["chunks"]
                    .as_array()
                    .expect("chunks")
                    .iter()
                    .map(|c| super::super::decode_base64(c.as_str().expect("base64 string")).expect("strict base64"))
                    .collect();
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
                    failed.push(format!(
                        "{} :: {name}\n    expected {want:?}\n    got      {got:?} (one chunk {:?}, bytewise {bytewise:?})",
                        file.display(),
                        one_shot(&all)
                    ));
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
            (self.next() % n as u64) as usize
        }
    }

    const PIECES: &[&[u8]] = &[
        b"hello", b"progress 42%", b" ", b"  ", b"\t", b"\r", b"\n", b"\r\n", b"\x08", b"\x07", b"\x00", b"\x7f",
        b"\x1b[31m", b"\x1b[0m", b"\x1b[38;2;1;2;3m", b"\x1b[K", b"\x1b[0K", b"\x1b[1K", b"\x1b[2K", b"\x1b[3K",
        b"\x1b[1G", b"\x1b[5G", b"\x1b[G", b"\x1b[2D", b"\x1b[D", b"\x1b[3C", b"\x1b[0C", b"\x1b[?25l", b"\x1b[?2K",
        b"\x1b[1$G", b"\x1b[1:2G", b"\x1b[99999C", b"\x1b]0;title\x07", b"\x1b]8;;http://x\x1b\\", b"\x1b]2;t",
        b"\x1bP1$qm\x1b\\", b"\x1bPq#0;2;0;0;0\x1b\\", b"\x1bX sos \x1b\\", b"\x1b^pm\x07x\x1b\\", b"\x1b_apc\x1b\\",
        b"\x1b(B", b"\x1b7", b"\x1b8", b"\x1b", b"\x1b[", b"\x1b]", b"\x1bP", b"\x18", b"\x1a", b"\xc2\x9b2K",
        b"\xc2\x9b", b"\xc2\x9d0;x\xc2\x9c", b"\xc2\x90q\xc2\x9c", b"\xc2\x85", b"\xc2\x9c", b"\xc2\x80",
        b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xe4\xb8\xad\xe6\x96\x87", b"\xe2\x80\xae",
        b"\xe2\x81\xa6", b"\xef\xbb\xbf", b"\xc2\xa0", b"\x80", b"\xbf", b"\xc0\xaf", b"\xe0\x80\xaf",
        b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf5", b"\xff", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc2", b"\xed",
        b"\xf4", b"0123456789", b";", b"[", b"]", b"\\",
    ];

    #[test]
    fn rechunking_never_changes_the_text() {
        let mut rng = Rng(0x5EED_1234_ABCD_0001);
        for round in 0..400 {
            let mut stream = Vec::new();
            for _ in 0..rng.below(60) + 1 {
                if rng.below(8) == 0 {
                    stream.push(rng.next() as u8);
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
    fn nothing_unsafe_survives() {
        let mut rng = Rng(0xFEED_0000_0000_0042);
        for _ in 0..200 {
            let stream: Vec<u8> = (0..rng.below(400)).map(|_| rng.next() as u8).collect();
            let text = one_shot(&stream);
            assert!(
                text.chars().all(|c| c == '\n' || c == '\t' || !(c.is_control() || super::is_bidi(u32::from(c)))),
                "{text:?}"
            );
        }
    }
}
