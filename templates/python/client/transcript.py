"""The safe transcript (docs/TRANSCRIPT.md): terminal bytes in, text that any UI can show out.

UTF-8 is decoded incrementally (one U+FFFD per maximal invalid subsequence), escape and
control sequences are removed with the DEC / ECMA-48 parser state machine, and a one-line
discipline (CR, BS, LF, TAB, CSI G/D/C/K) makes redrawn progress lines show their last state.

The state machine is data: ``transcript_table.py``, generated from the one hand-written source
``templates/transcript/transitions.txt`` (which also says what each action is), with the regular
expressions of the bulk path derived from the same table. Work per chunk is proportional to the
chunk, and plain text never goes through a Python loop: the chunk is checked by the C codec,
then, on its UTF-8 bytes, C-level passes remove the strings (OSC, DCS ...), skip each line's
redraws up to its last one, remove every other sequence without a visible effect (one
substitution), delete the controls without effect (``bytes.translate``), and turn CR LF into LF;
lines without CR, BS or CSI G/D/C/K go to the output as they are. Only the lines with those get
cell work, and only the rare chunks with a C1 control, or a sequence that a control interrupts,
go through the interpreter (the table, one code point at a time, runs of text and payload in one
regular-expression step).

Decisions TRANSCRIPT.md leaves open are rows of the table; the others: an incomplete character at
the end is not shown yet, and erasing never makes the line longer.
"""

from __future__ import annotations

import codecs
import re
from typing import Final

from . import transcript_table as _T
from ._runtime import native as _native

__all__ = ["MAX_LINE_LENGTH", "MAX_TEXT_LENGTH", "PureTranscript", "Transcript"]

MAX_LINE_LENGTH: Final = _T.MAX_LINE_LENGTH
"""The default longest line, in cells: a longer line wraps (see ``Transcript``)."""
MAX_TEXT_LENGTH: Final = _T.MAX_TEXT_LENGTH
"""The default longest text of finished lines, in code points (line ends included): past it,
the oldest lines are left out (see ``Transcript``)."""

_DecoderFactory: Final = codecs.getincrementaldecoder("utf-8")

# A C1 control (U+0080..U+009F) in UTF-8: such chunks take the interpreter.
_C1: Final = re.compile(rb"\xc2[\x80-\x9f]")
_TRAIL_B: Final = re.compile(rb" ++\n")


def _actions(seq: bytes) -> list[tuple[int, int]]:
    """The actions (with the first parameter) of a whole sequence from the ground state, as the
    table reads it; empty when it does not end there."""
    out: list[tuple[int, int]] = []
    state = _T.GROUND
    param = 0
    table = _T.TABLE
    for c in seq:
        if c >= 0x80:
            return []
        e = table[state * _T.CLASSES + c]
        action = e >> 4
        if action == _T.CSI_START:
            param = 0
        elif action == _T.PARAM:
            param = min(param * 10 + (c - 0x30), _T.MAX_PARAM)
        elif action != _T.IGNORE:
            out.append((action, param))
        state = e & 15
    return out if state == _T.GROUND else []


def _redraws() -> list[bytes]:
    """The usual ways a line is redrawn from its start (CR or CSI 1 G, then CSI K or CSI 2 K; or
    CSI 2 K, then CR or CSI 1 G), as the table reads them: after any of them the line is empty
    and the cursor at column 0, whatever came before, so a line can be taken from its last one.
    Each starts with an input that acts the same in every state but the strings."""

    def home(a: list[tuple[int, int]]) -> bool:
        return len(a) == 1 and (a[0][0] == _T.CARRIAGE_RETURN or (a[0][0] == _T.CURSOR_COLUMN and a[0][1] <= 1))

    def erase(a: list[tuple[int, int]], everything: bool) -> bool:
        return len(a) == 1 and a[0][0] == _T.ERASE_IN_LINE and (a[0][1] == 2 or (not everything and a[0][1] == 0))

    forms = []
    for h in (b"\r", b"\x1b[G", b"\x1b[1G", b"\x1b[0G"):
        for e in (b"\x1b[K", b"\x1b[0K", b"\x1b[2K"):
            if home(_actions(h)) and erase(_actions(e), everything=False):
                forms.append(h + e)
            if home(_actions(h)) and erase(_actions(e), everything=True):
                forms.append(e + h)
    return forms


_REDRAWS: Final = _redraws()
_REDRAW_ANY: Final = b"|".join(re.escape(f) for f in _REDRAWS)
_REDRAW_LINE_CACHE: dict[int, re.Pattern[bytes]] = {}


def _redraw_line(span: int) -> re.Pattern[bytes]:
    """A line (from the LF before it) up to its last redraw, at most ``span`` bytes after the
    first: whatever it printed cannot reach the line length limit."""
    rx = _REDRAW_LINE_CACHE.get(span)
    if rx is None:
        rx = _REDRAW_LINE_CACHE[span] = re.compile(
            b"\n(?:" + _REDRAW_ANY + b")(?:[^\n]{0,%d}(?:" % span + _REDRAW_ANY + b"))?"
        )
    return rx


# The bulk path relies on these; a table where they do not hold makes the interpreter do it all.
_BULK: Final = _T.LINE_FEEDS == b"\n" and _T.CARRIAGE_RETURNS == b"\r" and bool(_REDRAWS) and _T.ABORT is not None
_ABORT: Final = _T.ABORT or b""
_PLAIN_ENTRY: Final = _T.PRINT << 4 | _T.GROUND
_BIDI_LO: Final = min(lo for lo, _ in _T.BIDI)
_BIDI_HI: Final = max(hi for _, hi in _T.BIDI)


def _input(cp: int) -> int:
    """The table's input for a code point."""
    if cp < 0xA0:
        return cp
    if _BIDI_LO <= cp <= _BIDI_HI and any(lo <= cp <= hi for lo, hi in _T.BIDI):
        return _T.CLASS_BIDI
    return _T.CLASS_TEXT


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
        "_head",
        "_max_chars",
        "_max_line",
        "_n",
        "_out",
        "_param",
        "_parts",
        "_pending",
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
        self._st = _T.GROUND  # the parser state (a row of the table)
        self._param = 0  # the first CSI parameter so far
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
        self._st = _T.GROUND

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
        i = self._interpret(s, 0, True) if self._st != _T.GROUND else 0
        if i == len(s):
            return
        if not waiting and "\ufffd" not in s:
            # The chunk is valid UTF-8: its own bytes, without what waits for the next chunk.
            start = len(s[:i].encode()) if i else 0
            b = data[start : len(data) - len(held)]
        else:
            b = (s[i:] if i else s).encode()
        if not (_BULK and self._bulk(b)):
            self._interpret(s, i, False)

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

    # ---- the bulk path

    def _bulk(self, b: bytes) -> bool:
        """Bytes that start in the ground state; False (nothing done) when they hold a C1
        control or a sequence that something other than ESC, CAN, SUB or a character cancels
        before its end (a control that acts inside it)."""
        if b"\xc2" in b and _C1.search(b):
            return False
        tail = b""
        k = b.rfind(b"\x1b")
        if k >= 0:
            if _T.OPEN.match(b, k):
                tail = b[k:]
                b = b[:k]
            # Strings first: their payload may hold what looks like a line end or a redraw. Each
            # leaves an input that aborts, as its ESC did, whatever sequence came before it.
            for opener, rx in _T.STRINGS:
                if opener in b:
                    b = rx.sub(_ABORT, b)
            if b"\n" in b and (b"\r\x1b[" in b or b"\n\x1b[" in b):
                # A line redrawn from its start: from the LF before it up to its last redraw
                # (nothing printed in between can reach the limit, and after the redraw the line
                # is empty at column 0, in the ground state).
                b = _redraw_line(max(0, self._max_line - _T.MAX_MOVE_COLUMN - 16)).sub(b"\n", b)
            if b"\x1b" in b:
                b = _T.SILENT.sub(b"", b)
                if b"\x1b" in b and _T.BAD.search(b):
                    return False
        b = b.translate(None, _T.DELETE)
        if _T.BIDI_BYTES is not None and (b"\xe2\x80" in b or b"\xe2\x81" in b):
            b = _T.BIDI_BYTES.sub(b"", b)
        if b"\r\n" in b:
            # A CR before LF does nothing.
            b = b.replace(b"\r\n", b"\n")
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
            self._cell_work(b, start, end)
            if end < n:
                self._finish()
            i = end + 1
        if tail:
            self._interpret(tail.decode(), 0, False)
        return True

    def _cell_work(self, b: bytes, start: int, end: int) -> None:
        """A line (``b[start:end]``) holding CR, BS or a sequence that acts on the line: its text
        and its tokens in order, each token's actions from the table."""
        pos = start
        for t in _T.TOKEN.finditer(b, start, end):
            a = t.start()
            if a > pos:
                piece = b[pos:a]
                self._put(piece, _cells(piece))
            for action, param in _token(t.group()):
                self._param = param
                self._act(action, 0)
            pos = t.end()
        if pos < end:
            piece = b[pos:end]
            self._put(piece, _cells(piece))

    # ---- the interpreter

    def _interpret(self, s: str, i: int, to_ground: bool) -> int:
        """Runs the table from ``s[i]``, one code point at a time (a run of text, or of inputs a
        state ignores, one regular-expression step). With ``to_ground``, stops where the ground
        state is back. Returns where it stopped."""
        n = len(s)
        st = self._st
        table = _T.TABLE
        while i < n:
            if st == _T.GROUND:
                if to_ground:
                    break
                j = _T.PLAIN.match(s, i).end()  # type: ignore[union-attr]
                if j > i:
                    piece = s[i:j]
                    self._put(piece.encode(), len(piece))
                    i = j
                    continue
            else:
                j = _T.STAY[st].match(s, i).end()  # type: ignore[union-attr]
                if j > i:
                    i = j
                    continue
            cp = ord(s[i])
            e = table[st * _T.CLASSES + _input(cp)]
            st = self._st = e & 15
            self._act(e >> 4, cp)
            i += 1
        self._st = st
        return i

    def _act(self, action: int, cp: int) -> None:
        """Carries out one action of the table (transitions.txt says what each one is)."""
        if action == _T.IGNORE:
            return
        if action == _T.PRINT:
            self._put(chr(cp).encode(), 1)
        elif action == _T.LINE_FEED:
            self._finish()
        elif action == _T.CARRIAGE_RETURN:
            self._col = 0
        elif action == _T.BACKSPACE:
            if self._col > 0:
                self._col -= 1
        elif action == _T.CSI_START:
            self._param = 0
        elif action == _T.PARAM:
            # The generator allows `param` only on the digits 0-9.
            self._param = min(self._param * 10 + (cp - 0x30), _T.MAX_PARAM)
        elif action == _T.CURSOR_COLUMN:
            self._col = min(max(self._param, 1) - 1, _T.MAX_MOVE_COLUMN)
        elif action == _T.CURSOR_LEFT:
            self._col = max(self._col - max(self._param, 1), 0)
        elif action == _T.CURSOR_RIGHT:
            # A cursor already right of the limit (by printing) stays where it is.
            if self._col < _T.MAX_MOVE_COLUMN:
                self._col = min(self._col + max(self._param, 1), _T.MAX_MOVE_COLUMN)
        elif action == _T.ERASE_IN_LINE:
            self._erase(self._param)


_TOKENS: dict[bytes, list[tuple[int, int]]] = {}


def _token(t: bytes) -> list[tuple[int, int]]:
    """A token's actions with their parameter, from the table once per distinct token."""
    a = _TOKENS.get(t)
    if a is None:
        a = _actions(t)
        if len(_TOKENS) > 4096:
            _TOKENS.clear()
        _TOKENS[t] = a
    return a


PureTranscript: Final = Transcript
"""The pure-Python renderer, whichever ``Transcript`` is in use: ``Transcript`` is the native one
(the same API, in Rust) when the optional ``acp-terminal-native`` wheel is installed."""

if _native.MODULE is not None:
    Transcript = _native.MODULE.Transcript  # type: ignore[misc, unused-ignore]
