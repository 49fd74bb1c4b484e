"""The safe transcript (docs/TRANSCRIPT.md): terminal bytes in, text that any UI can show out.

UTF-8 is decoded incrementally (one U+FFFD per maximal invalid subsequence), escape and
control sequences are removed with the DEC / ECMA-48 parser state machine, and a one-line
discipline (CR, BS, LF, TAB, CSI G/D/C/K) makes redrawn progress lines show their last state.

Work per chunk is proportional to the chunk, and plain text never goes through a Python loop.
A chunk is decoded once by the C codec (which checks it and finds what waits for the next
chunk). Then, on its UTF-8 bytes, one regular-expression pass removes every complete
sequence without a visible effect, ``bytes.translate`` removes the controls without effect,
CR LF becomes LF, and lines without CR, BS or CSI G/D/C/K go to the output as they are.
Only the lines with those, and the rare chunks with a C1 control or a sequence that a
control or a non-ASCII character interrupts, go through the parser in Python; a line that
redraws itself (CR then CSI K, CSI 1 G then CSI K) is taken from its last redraw.

Details TRANSCRIPT.md leaves open are decided as in the Rust and TypeScript bindings
(tests/vectors/transcript/README.md): BEL ends an OSC string but not DCS/SOS/PM/APC; C0
controls inside escape and CSI sequences are executed; ``:`` makes a CSI sequence ignored;
numeric parameters saturate at 65535; CSI C and CSI G never move the cursor right of column
1023; CSI K with another parameter than 0, 1 or 2 has no effect; an incomplete character at
the end is not shown yet.
"""

from __future__ import annotations

import codecs
import re
from typing import Final

__all__ = ["MAX_LINE_LENGTH", "MAX_TEXT_LENGTH", "Transcript"]

MAX_LINE_LENGTH: Final = 4096
"""The default longest line, in cells: a longer line wraps (see ``Transcript``)."""
MAX_TEXT_LENGTH: Final = 1 << 24
"""The default longest text of finished lines, in code points (line ends included): past it,
the oldest lines are left out (see ``Transcript``)."""

_MAX_PARAM: Final = 65535
_MAX_MOVE_COL: Final = 1023

# Parser states (vt100.net's DEC parser). The DCS states and SOS/PM/APC share _STR: none of
# them has a visible effect and all of them end the same way.
_GROUND: Final = 0
_ESCAPE: Final = 1
_ESC_INTER: Final = 2
_CSI_ENTRY: Final = 3
_CSI_PARAM: Final = 4
_CSI_INTER: Final = 5
_CSI_IGNORE: Final = 6
_OSC: Final = 7
_STR: Final = 8

_DecoderFactory: Final = codecs.getincrementaldecoder("utf-8")

# ---- the fast path, on UTF-8 bytes of a chunk without C1 controls

# A C1 control (U+0080..U+009F) in UTF-8: such chunks take the slow path.
_C1: Final = re.compile(rb"\xc2[\x80-\x9f]")
# A sequence still open at the end of the chunk (from the last ESC).
_OPEN: Final = re.compile(
    rb"\x1b\x7f*+(?:\[[\x20-\x3f\x7f]*+|[\x20-\x2f][\x20-\x2f\x7f]*+|\][^\x07\x18\x1a\x1b]*+|[PX^_][^\x18\x1a\x1b]*+)?\Z"
)
# Complete sequences without visible effect, removed whole: CSI other than plain G/D/C/K,
# escape sequences, OSC strings (with a BEL that ends them), DCS/SOS/PM/APC strings, and a
# sequence that ESC, CAN or SUB interrupts (they stay: they start or end what follows).
_NO_EFFECT: Final = re.compile(
    rb"\x1b\[[0-9;]*+m"  # SGR, by far the most common: tried first
    rb"|\x1b\x7f*+(?:"
    rb"\[(?![0-9;\x7f]*+[CDGK])[\x20-\x3f\x7f]*+(?:[\x40-\x7e]|(?=[\x18\x1a\x1b]))"
    rb"|[\x20-\x2f][\x20-\x2f\x7f]*+(?:[\x30-\x7e]|(?=[\x18\x1a\x1b]))"
    rb"|\][^\x07\x18\x1a\x1b]*+(?:\x07|(?=[\x18\x1a\x1b]))"
    rb"|[PX^_][^\x18\x1a\x1b]*+(?=[\x18\x1a\x1b])"
    rb"|[\x30-\x4f\x51-\x57\x59\x5a\x5c\x60-\x7e]"
    rb"|(?=[\x18\x1a\x1b]))"
)
# After that pass, an ESC that does not start a plain CSI G/D/C/K: a control or a non-ASCII
# character interrupts its sequence, so the chunk takes the slow path.
_BAD_ESC: Final = re.compile(rb"\x1b(?!\x7f*+\[[0-9;\x7f]*+[CDGK])")
# C0 controls without effect in the ground state (CAN and SUB included), and DEL.
_DELETE: Final = bytes([*range(0x00, 0x08), 0x0B, 0x0C, *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F])
_BIDI_B: Final = re.compile(rb"\xe2(?:\x80[\xaa-\xae]|\x81[\xa6-\xa9])")
_TRAIL_B: Final = re.compile(rb" ++\n")
_CRLF_B: Final = re.compile(rb"\r\n")
# Everything in a line up to its last redraw: CR or CSI 1 G, then CSI K or CSI 2 K; or
# CSI 2 K then CR or CSI 1 G. The line is empty after it, with the cursor at column 0.
_LAST_RESET: Final = re.compile(rb".*(?:(?:\r|\x1b\[[01]?G)\x1b\[[02]?K|\x1b\[2K(?:\r|\x1b\[[01]?G))")
_END_MOVES: Final = re.compile(rb"(?:\r|\x08|\x1b\[[0-9;]*+[CDG])++\Z")
_TOKEN: Final = re.compile(rb"\r|\x08|\x1b\[([0-9]*+)[0-9;]*+([CDGK])")

# ---- the slow path, on decoded text

_ANY: Final = "\x18\x1a\x1b\x80-\x9f"
_CSI_START: Final = r"(?:\x1b\x7f*+\[|\x9b)"
# As _NO_EFFECT, with C1 controls, for text that holds no "complex" sequence (below).
_SIMPLE: Final = re.compile(
    _CSI_START + r"(?![0-9;\x7f]*+[CDGK])[\x20-\x3f\x7f]*+[\x40-\x7e]"
    r"|\x1b\x7f*+(?:[\x20-\x2f][\x20-\x2f\x7f]*+[\x30-\x7e]|[\x30-\x4f\x51-\x57\x59\x5a\x5c\x60-\x7e])"
    r"|(?:\x1b\x7f*+\]|\x9d)[^\x07" + _ANY + r"]*+(?:\x07|(?=[" + _ANY + r"]))"
    r"|(?:\x1b\x7f*+[PX^_]|[\x90\x98\x9e\x9f])[^" + _ANY + r"]*+(?=[" + _ANY + r"])"
    r"|[\x18\x1a\x80-\x8f\x91-\x97\x99\x9a\x9c]++"
    r"|[\x00-\x07\x0b\x0c\x0e-\x17\x19\x1c-\x1f\x7f]++"
)
# Escape and CSI sequences that a control, a character at or above U+00A0, another
# sequence or the end of the text interrupts before the final byte.
_COMPLEX: Final = re.compile(
    _CSI_START + r"[\x20-\x3f\x7f]*+(?![\x40-\x7e])"
    r"|\x1b\x7f*+(?:[\x20-\x2f][\x20-\x2f\x7f]*+(?![\x30-\x7e])|(?![\x20-\x7e\x7f]))"
)
_HARD: Final = re.compile("[\b\r\x1b\x80-\x9f\u202a-\u202e\u2066-\u2069]")
_EFFECT: Final = re.compile(r"(?:\x1b\[|\x9b)([0-9]*+)[0-9;]*+([CDGK])")
_CRLF: Final = re.compile("\r++\n")
_OSC_END: Final = re.compile("[\x07" + _ANY + "]")
_STR_END: Final = re.compile("[" + _ANY + "]")


def _param(digits: bytes) -> int:
    digits = digits.lstrip(b"0")
    return _MAX_PARAM if len(digits) > 5 else min(int(digits or b"0"), _MAX_PARAM)


def _cells(b: bytes) -> int:
    return len(b) if b.isascii() else len(b.decode())


# Every byte that does not continue a UTF-8 character: deleting them leaves the continuations.
_LEADS: Final = bytes([*range(0x80), *range(0xC0, 0x100)])


def _chars(b: bytes | bytearray) -> int:
    """Code points in whole UTF-8 characters ``b``, without decoding them."""
    return len(b) if b.isascii() else len(b) - len(b.translate(None, _LEADS))


class Transcript:
    """The incremental safe transcript renderer of docs/TRANSCRIPT.md.

    Push the terminal's bytes in chunks of any size; ``text`` is the same whatever the
    chunking. A replacement snapshot starts over with ``reset()``.

    Limits (docs/TRANSCRIPT.md, "Limits"; the same defaults in every binding):

    - ``max_line_length`` cells per line (0 counts as 1): a character printed at that column or
      further right first finishes the line, as a terminal that wide wraps;
      ``wrapped_lines`` counts it.
    - ``max_text_length`` code points of finished lines, each with its ``"\\n"``: past it the
      oldest whole lines are left out, and ``dropped_lines`` and ``dropped_chars`` say how
      much. The current line is always kept.

    The current line is kept as appended UTF-8 pieces while the cursor is at or past its
    end, and as one list entry per cell after a write inside it, until the line is finished
    or cleared. Trailing spaces and missing cells look the same in the output, so erasing to
    the end truncates.
    """

    __slots__ = (
        "_base",
        "_blank",
        "_cache",
        "_cells",
        "_chars",
        "_col",
        "_dec",
        "_fin",
        "_first",
        "_head",
        "_max_chars",
        "_max_line",
        "_n",
        "_out",
        "_param",
        "_parts",
        "_pending",
        "_private",
        "_st",
        "_work",
        "dropped_chars",
        "dropped_lines",
        "wrapped_lines",
    )

    def __init__(self, max_line_length: int = MAX_LINE_LENGTH, max_text_length: int = MAX_TEXT_LENGTH) -> None:
        for name, value in (("max_line_length", max_line_length), ("max_text_length", max_text_length)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"Transcript: {name} must be a whole number, 0 or more (got {value!r})")
        self._max_line = max(1, max_line_length)
        self._max_chars = max_text_length
        self.wrapped_lines = 0
        """Lines the line length limit broke (each one is a ``"\\n"`` the bytes did not have)."""
        self.dropped_lines = 0
        """Finished lines left out from the start of the text by the text length limit."""
        self.dropped_chars = 0
        """Code points (line ends included) left out from the start of the text by the text length limit."""
        self._dec: codecs.IncrementalDecoder = _DecoderFactory("replace")
        self._fin = bytearray()  # finished lines as UTF-8, each ending with "\n"; the text starts at _head
        self._head = 0
        self._base = 0  # where _fin[0] is in the finished text since the start (UTF-8 bytes)
        self._chars = 0  # code points in _fin[_head:]
        self._out: list[bytes] = []  # finished lines after _fin, not counted yet
        self._pending = 0  # bytes in _out
        self._cache: str | None = None  # the text as last read, until the next push or reset
        self._blank = 0  # leading cells of _cells known to be spaces
        self._parts: list[bytes] = []  # the current line's cells as UTF-8, when _cells is None
        self._n = 0  # number of cells in _parts
        self._cells: list[str] | None = None  # one string per cell, after a write inside the line
        self._col = 0  # cursor column (0-based), may be past the end
        self._st = _GROUND
        self._param = 0  # the first CSI parameter so far
        self._first = True  # still reading the first CSI parameter
        self._private = False  # the CSI sequence has a private marker
        self._work = 0  # bytes and cells looked at or moved so far (see `work`)

    def reset(self) -> None:
        """Forgets everything (text, current line, pending sequence or character). Use it
        when a replacement snapshot arrives, then push the snapshot's bytes."""
        self._dec = _DecoderFactory("replace")
        self._fin = bytearray()
        self._head = self._base = self._chars = self._pending = 0
        self._out = []
        self.wrapped_lines = self.dropped_lines = self.dropped_chars = 0
        self._cache = None
        self._clear()
        self._col = 0
        self._st = _GROUND

    @property
    def text(self) -> str:
        """The transcript so far: every finished line followed by ``"\\n"``, then the current
        line, trailing spaces removed. An unfinished sequence or character at the end shows
        nothing yet. Reading it again before the next push returns the same string."""
        if self._cache is None:
            self._settle()
            fin = self._fin
            self._cache = (fin[self._head :] if self._head else fin).decode() + self._line().decode()
        return self._cache

    @property
    def work(self) -> int:
        """Bytes and cells looked at, written or moved so far by ``push`` (each byte pushed,
        each cell printed, padded, erased, joined or re-encoded, each byte of a line left out
        or compacted): the work counter the tests read to check, without a clock, that the
        work grows linearly with the input whatever the sequences. The readers cost what they
        return."""
        return self._work

    @property
    def finished_length(self) -> int:
        """Where the finished lines end so far: a position in UTF-8 bytes of every line finished
        since the start or the last ``reset()`` (left-out lines included). Keep it, and pass it
        to ``finished_since`` on the next read."""
        return self._base + len(self._fin) + self._pending

    def finished_since(self, start: int) -> str:
        """The lines finished since position ``start`` (an earlier ``finished_length``), each
        with its ``"\\n"``: a display that keeps the finished lines reads only what is new,
        then ``current_line``. Lines already left out by the text length limit are skipped; a
        position inside a character moves to the next one."""
        self._settle()
        fin = self._fin
        at = max(start - self._base, self._head)
        while at < len(fin) and fin[at] & 0xC0 == 0x80:
            at += 1
        return fin[at:].decode()

    @property
    def current_line(self) -> str:
        """The current line, trailing spaces removed (the end of ``text``)."""
        return self._line().decode()

    def push(self, data: bytes) -> None:
        """Continues the transcript with the next chunk of terminal bytes."""
        dec = self._dec
        self._cache = None
        self._work += len(data)
        waiting = dec.getstate()[0]
        s = dec.decode(data)
        held = dec.getstate()[0]
        if len(held) == 2 and held[0] == 0xED and held[1] >= 0xA0:
            # ED A0..BF can never become a character (a surrogate): show it now, as a
            # stream that ended here would.
            s += dec.decode(b"", True)
            held = b""
        if not s:
            return
        i = self._run(s, 0) if self._st != _GROUND else 0
        if i == len(s):
            return
        if not waiting and "\ufffd" not in s:
            # The chunk is valid UTF-8: its own bytes, without what waits for the next chunk.
            start = len(s[:i].encode()) if i else 0
            b = data[start : len(data) - len(held)]
        else:
            b = (s[i:] if i else s).encode()
        if not self._fast(b):
            self._slow(s, i)

    # ---- the current line

    def _line(self) -> bytes:
        cells = self._cells
        self._work += self._n if cells is None else len(cells)
        return (b"".join(self._parts) if cells is None else "".join(cells).encode()).rstrip(b" ")

    def _clear(self) -> None:
        self._parts = []
        self._n = 0
        self._cells = None

    def _wide(self) -> list[str]:
        cells = self._cells
        if cells is None:
            self._work += self._n
            cells = self._cells = list(b"".join(self._parts).decode())
            self._parts = []
            self._n = 0
            self._blank = 0
        return cells

    def _put(self, b: bytes, count: int) -> None:
        """Prints ``b``, ``count`` characters without controls other than TAB, at the cursor."""
        if self._col + count > self._max_line:
            self._put_wrapping(b, count)
            return
        self._put_in_line(b, count)

    def _put_wrapping(self, b: bytes, count: int) -> None:
        """Prints ``b`` where it reaches the line length limit: a character that would go at the
        limit or further right first finishes the line."""
        s = None if count == len(b) else b.decode()
        i = 0
        while i < count:
            if self._col >= self._max_line:
                self.wrapped_lines += 1
                self._finish()
            k = min(count - i, self._max_line - self._col)
            self._put_in_line(b[i : i + k] if s is None else s[i : i + k].encode(), k)
            i += k

    def _put_in_line(self, b: bytes, count: int) -> None:
        """Prints ``b`` (``count`` characters) without passing the line length limit."""
        col = self._col
        cells = self._cells
        self._work += count + max(0, col - (self._n if cells is None else len(cells)))
        if cells is None:
            n = self._n
            if col >= n:
                if col > n:
                    self._parts.append(b" " * (col - n))
                self._parts.append(b)
                self._col = self._n = col + count
                return
            cells = self._wide()
        if col > len(cells):
            cells.extend(" " * (col - len(cells)))
        end = col + count
        cells[col:end] = b.decode()
        self._col = end
        if col < self._blank:
            self._blank = col

    def _finish(self) -> None:
        """LF: the line is finished and an empty one starts at column 0."""
        self._add(self._line() + b"\n")
        self._clear()
        self._col = 0

    def _add(self, lines: bytes) -> None:
        """Appends finished lines (each ending with LF). They are counted, and the text length
        limit applied, only once their bytes could pass it (a code point takes a byte or more)."""
        self._out.append(lines)
        self._pending += len(lines)
        if self._chars + self._pending > self._max_chars:
            self._settle()

    def _settle(self) -> None:
        """Moves the pending lines to ``_fin``, counts them and applies the text length limit."""
        if self._out:
            self._work += self._pending
            lines = b"".join(self._out)
            self._out.clear()
            self._pending = 0
            self._fin += lines
            self._chars += _chars(lines)
            if self._chars > self._max_chars:
                self._drop_oldest()

    def _drop_oldest(self) -> None:
        """Leaves out the oldest finished lines until the rest fits the text length limit, with
        C-level scans; the buffer is compacted only when more than half of it is left out."""
        fin = self._fin
        head = self._head
        while self._chars > self._max_chars:
            # At least this many bytes must go (a code point takes one byte or more): cut after
            # the line end at or past them, then count what went.
            excess = self._chars - self._max_chars
            cut = fin.find(b"\n", head + excess - 1) + 1
            self._work += cut - head
            view = fin[head:cut]
            chars = _chars(view)
            self.dropped_lines += view.count(b"\n")
            self.dropped_chars += chars
            self._chars -= chars
            head = cut
        if head * 2 > len(fin):
            self._work += len(fin)
            del fin[:head]
            self._base += head
            head = 0
        self._head = head

    def _erase(self, mode: int) -> None:
        """CSI K with its first parameter. Erasing to the start fills only the cells past the
        blank prefix (``_blank`` cells known to be spaces), so repeating it costs nothing."""
        cells = self._cells
        n = self._n if cells is None else len(cells)
        col = self._col
        if mode == 2 or (mode == 0 and col == 0) or (mode == 1 and col + 1 >= n):
            self._clear()
        elif mode == 0 and col < n:
            self._work += n - col
            del self._wide()[col:]
            self._blank = min(self._blank, col)
        elif mode == 1:
            cells = self._wide()
            blank = self._blank
            if col + 1 > blank:
                self._work += col + 1 - blank
                cells[blank : col + 1] = [" "] * (col + 1 - blank)
                self._blank = col + 1

    def _move(self, fin: int, n: int) -> None:
        """CSI G, D, C or K (final byte ``fin``) without private marker or intermediates."""
        if fin == 0x47:
            self._col = min(max(n, 1) - 1, _MAX_MOVE_COL)
        elif fin == 0x44:
            self._col = max(self._col - max(n, 1), 0)
        elif fin == 0x43:
            if self._col < _MAX_MOVE_COL:
                self._col = min(self._col + max(n, 1), _MAX_MOVE_COL)
        else:
            self._erase(n)

    def _lines(self, b: bytes) -> None:
        """Prints ``b``: plain text, TAB and LF."""
        nl = b.find(b"\n")
        if nl < 0:
            self._put(b, _cells(b))
            return
        if self._n or self._col or self._cells is not None:
            # The current line goes on until the first LF.
            if nl:
                self._put(b[:nl], _cells(b[:nl]))
            self._finish()
        else:
            nl = -1  # an empty line at column 0: the first line is like the others
        last = b.rfind(b"\n")
        if last > nl:
            mid = b[nl + 1 : last + 1]
            if len(mid) > self._max_line and any(
                len(line) > self._max_line and _cells(line) > self._max_line for line in mid.split(b"\n")
            ):
                # A line past the length limit: line by line, wrapping.
                for line in mid[:-1].split(b"\n"):
                    if line:
                        self._put(line, _cells(line))
                    self._finish()
            else:
                if b" \n" in mid:
                    mid = _TRAIL_B.sub(b"\n", mid)
                self._add(mid)
        if last + 1 < len(b):
            tail = b[last + 1 :]
            self._put(tail, _cells(tail))

    # ---- the fast path

    def _fast(self, b: bytes) -> bool:
        """Bytes that start in the ground state; False (nothing done) when they hold a C1
        control or a sequence that something interrupts before its end."""
        if b"\xc2" in b and _C1.search(b):
            return False
        tail = b""
        k = b.rfind(b"\x1b")
        if k >= 0:
            if _OPEN.match(b, k):
                tail = b[k:]
                b = b[:k]
            b = _NO_EFFECT.sub(b"", b)
            if b"\x1b" in b and _BAD_ESC.search(b):
                return False
        b = b.translate(None, _DELETE)
        if (b"\xe2\x80" in b or b"\xe2\x81" in b) and _BIDI_B.search(b):
            b = _BIDI_B.sub(b"", b)
        if b"\r" in b:
            b = _CRLF_B.sub(b"\n", b)
        n = len(b)
        # Where the next CR, BS and ESC are (n: none left).
        cr = b.find(b"\r") % (n + 1)
        bs = b.find(b"\x08") % (n + 1)
        esc = b.find(b"\x1b") % (n + 1)
        i = 0
        while i < n:
            if cr < i:
                cr = b.find(b"\r", i) % (n + 1)
            if bs < i:
                bs = b.find(b"\x08", i) % (n + 1)
            if esc < i:
                esc = b.find(b"\x1b", i) % (n + 1)
            h = min(cr, bs, esc)
            if h == n:
                self._lines(b[i:] if i else b)
                break
            start = b.rfind(b"\n", i, h) + 1 or i
            if start > i:
                self._lines(b[i:start])
            end = b.find(b"\n", h)
            if end < 0:
                end = n
            if not self._redraw(b[start:end], end < n) and end < n:
                self._finish()
            i = end + 1
        if tail:
            self._run(tail.decode(), 0)
        return True

    def _redraw(self, line: bytes, lf: bool) -> bool:
        """One line of bytes that holds CR, BS or a plain CSI G/D/C/K, followed by LF when
        ``lf``. Returns whether it finished the line itself."""
        m = _LAST_RESET.match(line)
        width = self._n if self._cells is None else len(self._cells)
        if m is not None and max(self._col, width, _MAX_MOVE_COL) + m.end() >= self._max_line:
            # Skipping to the last redraw is right only if nothing before it reaches the line
            # length limit: after CR the cursor is at most at _MAX_MOVE_COL plus what is printed
            # before the next CR (CSI C and G stop there; BS and CSI D go left).
            segs = line[: m.end()].split(b"\r")
            reach = max(self._col, width, _MAX_MOVE_COL) + len(segs[0])
            if len(segs) > 1:
                reach = max(reach, _MAX_MOVE_COL + max(map(len, segs[1:])))
            if reach >= self._max_line:
                m = None  # it might wrap before its last redraw: taken token by token
        if m is not None:
            self._clear()
            self._col = 0
            line = line[m.end() :]
        if lf:
            # Cursor movements at the end of a line change nothing.
            e = _END_MOVES.search(line)
            if e is not None:
                line = line[: e.start()]
        if not (b"\r" in line or b"\x1b" in line or b"\x08" in line):
            if m is not None and lf and len(line) <= self._max_line:
                self._add(line.rstrip(b" ") + b"\n")
                return True
            if line:
                self._put(line, _cells(line))
            return False
        pos = 0
        for t in _TOKEN.finditer(line):
            a = t.start()
            if a > pos:
                piece = line[pos:a]
                self._put(piece, _cells(piece))
            fin = t.group(2)
            if fin is not None:
                self._move(fin[0], _param(t.group(1)))
            elif line[a] == 0x0D:
                self._col = 0
            elif self._col > 0:
                self._col -= 1
            pos = t.end()
        if pos < len(line):
            piece = line[pos:]
            self._put(piece, _cells(piece))
        return False

    # ---- the slow path, on decoded text

    def _slow(self, s: str, i: int) -> None:
        n = len(s)
        while i < n:
            m = _COMPLEX.search(s, i)
            end = n if m is None else m.start()
            if end > i:
                self._bulk(s if i == 0 and end == n else s[i:end])
            if m is None:
                return
            i = self._run(s, end)

    def _bulk(self, t: str) -> None:
        """Text that starts in the ground state and holds no complex sequence."""
        t = _SIMPLE.sub("", t)
        if "\r" in t:
            t = _CRLF.sub("\n", t)
        n = len(t)
        i = 0
        while i < n:
            m = _HARD.search(t, i)
            h = n if m is None else m.start()
            if h > i:
                self._lines(t[i:h].encode())
            if m is None:
                return
            c = t[h]
            if c == "\r":
                self._col = 0
                i = h + 1
            elif c == "\b":
                if self._col > 0:
                    self._col -= 1
                i = h + 1
            elif c >= "\u202a":
                i = h + 1  # a bidi control: removed
            else:
                e = _EFFECT.match(t, h)
                if e is None:
                    i = self._run(t, h)  # a string still open at the end of the text
                else:
                    self._move(ord(e.group(2)), _param(e.group(1).encode()))
                    i = e.end()

    def _run(self, s: str, i: int) -> int:
        """Runs the parser from ``s[i]`` until it is back in the ground state; returns where
        the ground state resumes (or ``len(s)``)."""
        n = len(s)
        first = True
        while i < n and (first or self._st != _GROUND):
            first = False
            st = self._st
            if st >= _OSC:
                m = (_OSC_END if st == _OSC else _STR_END).search(s, i)
                if m is None:
                    return n
                i = m.end()
                c = ord(m.group())
                if c == 0x07:
                    self._st = _GROUND
                else:
                    self._char(c)
                continue
            c = ord(s[i])
            if c >= 0xA0:
                if st != _GROUND:
                    self._st = _GROUND  # cancels the sequence; the ground state takes the character
                return i
            i += 1
            self._char(c)
        return i

    def _csi(self) -> int:
        self._param = 0
        self._first = True
        self._private = False
        return _CSI_ENTRY

    def _char(self, c: int) -> None:
        """One character below U+00A0 outside strings (or an anywhere-character in one)."""
        if c == 0x1B:
            self._st = _ESCAPE
            return
        if c == 0x18 or c == 0x1A:
            self._st = _GROUND
            return
        if 0x80 <= c <= 0x9F:
            if c == 0x9B:
                self._st = self._csi()
            elif c == 0x9D:
                self._st = _OSC
            elif c in (0x90, 0x98, 0x9E, 0x9F):
                self._st = _STR
            else:
                self._st = _GROUND
            return
        st = self._st
        if c == 0x7F:
            return
        if c < 0x20:
            if c == 0x08:
                if self._col > 0:
                    self._col -= 1
            elif c == 0x09:
                self._put(b"\t", 1)
            elif c == 0x0A:
                self._finish()
            elif c == 0x0D:
                self._col = 0
            return
        if st == _GROUND:
            self._put(bytes([c]), 1)
        elif st == _ESCAPE:
            if c < 0x30:
                self._st = _ESC_INTER
            elif c == 0x5B:
                self._st = self._csi()
            elif c == 0x5D:
                self._st = _OSC
            elif c in (0x50, 0x58, 0x5E, 0x5F):
                self._st = _STR
            else:
                self._st = _GROUND
        elif st == _ESC_INTER:
            if c >= 0x30:
                self._st = _GROUND
        elif st in (_CSI_ENTRY, _CSI_PARAM):
            if 0x30 <= c <= 0x39:
                if self._first:
                    self._param = min(self._param * 10 + (c - 0x30), _MAX_PARAM)
                self._st = _CSI_PARAM
            elif c == 0x3B:
                self._first = False
                self._st = _CSI_PARAM
            elif 0x3C <= c <= 0x3F and st == _CSI_ENTRY:
                self._private = True
                self._st = _CSI_PARAM
            elif c < 0x30:
                self._st = _CSI_INTER
            elif c >= 0x40:
                self._st = _GROUND
                if not self._private and c in (0x43, 0x44, 0x47, 0x4B):
                    self._move(c, self._param)
            else:
                self._st = _CSI_IGNORE
        elif st == _CSI_INTER:
            if c >= 0x40:
                self._st = _GROUND
            elif c >= 0x30:
                self._st = _CSI_IGNORE
        elif st == _CSI_IGNORE and c >= 0x40:
            self._st = _GROUND
