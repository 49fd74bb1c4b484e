"""The safe transcript (docs/TRANSCRIPT.md): terminal bytes in, text that any UI can show out.

UTF-8 is decoded incrementally (one U+FFFD per maximal invalid subsequence), escape and
control sequences are removed with the DEC / ECMA-48 parser state machine, and a one-line
discipline (CR, BS, LF, TAB, CSI G/D/C/K) makes redrawn progress lines show their last state.

Work per chunk is proportional to the chunk. Each chunk is decoded once by the C codec, the
sequences without a visible effect are removed by one regular-expression pass, CR LF pairs
and whole lines are handled in bulk, and only what remains (CR, BS, CSI G/D/C/K, bidi
controls, sequences with executed controls inside, sequences split across chunks) goes
through the state machine in Python.

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

__all__ = ["Transcript"]

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

# Characters that act in every state: CAN, SUB, ESC and the C1 controls.
_ANY: Final = "\x18\x1a\x1b\x80-\x9f"
_CSI_START: Final = r"(?:\x1b\x7f*+\[|\x9b)"

# Removed in one pass from text that starts in the ground state and holds no "complex"
# sequence (below): complete sequences without effect, strings with their terminator (an
# anywhere-character other than BEL stays, as it starts what follows), C1 and C0 controls
# without effect. Each alternative starts where the parser is in the ground state.
_SIMPLE: Final = re.compile(
    _CSI_START + r"(?![0-9;\x7f]*+[CDGK])[\x20-\x3f\x7f]*+[\x40-\x7e]"
    r"|\x1b\x7f*+(?:[\x20-\x2f][\x20-\x2f\x7f]*+[\x30-\x7e]|[\x30-\x4f\x51-\x57\x59\x5a\x5c\x60-\x7e])"
    r"|(?:\x1b\x7f*+\]|\x9d)[^\x07" + _ANY + r"]*+(?:\x07|(?=[" + _ANY + r"]))"
    r"|(?:\x1b\x7f*+[PX^_]|[\x90\x98\x9e\x9f])[^" + _ANY + r"]*+(?=[" + _ANY + r"])"
    r"|[\x18\x1a\x80-\x8f\x91-\x97\x99\x9a\x9c]++"
    r"|[\x00-\x07\x0b\x0c\x0e-\x17\x19\x1c-\x1f\x7f]++"
)
# Escape and CSI sequences that the bulk pass cannot take: a control, a character at or
# above U+00A0 or the end of the chunk comes before the final byte.
_COMPLEX: Final = re.compile(
    _CSI_START + r"[\x20-\x3f\x7f]*+(?![\x40-\x7e])"
    r"|\x1b\x7f*+(?:[\x20-\x2f][\x20-\x2f\x7f]*+(?![\x30-\x7e])|(?![\x20-\x7e\x7f]))"
)
# What is left after the bulk pass that is not plain text, TAB or LF.
_HARD: Final = re.compile("[\b\r\x1b\x80-\x9f\u202a-\u202e\u2066-\u2069]")
# CSI G, D, C and K without private marker or intermediates (DEL is already removed).
_EFFECT: Final = re.compile(r"(?:\x1b\[|\x9b)([0-9]*+)[0-9;]*+([CDGK])")
_CRLF: Final = re.compile("\r++\n")
_TRAIL: Final = re.compile(" ++\n")
_OSC_END: Final = re.compile("[\x07" + _ANY + "]")
_STR_END: Final = re.compile("[" + _ANY + "]")
_DecoderFactory: Final = codecs.getincrementaldecoder("utf-8")


def _param(digits: str) -> int:
    digits = digits.lstrip("0")
    return _MAX_PARAM if len(digits) > 5 else min(int(digits or "0"), _MAX_PARAM)


class Transcript:
    """The incremental safe transcript renderer of docs/TRANSCRIPT.md.

    Push the terminal's bytes in chunks of any size; ``text`` is the same whatever the
    chunking. A replacement snapshot starts over with ``reset()``.

    The current line is kept as appended pieces while the cursor is at or past its end, and
    as one list entry per cell after a write inside it, until the line is finished or
    cleared. Trailing spaces and missing cells look the same in the output, so erasing to the
    end truncates.
    """

    __slots__ = ("_cells", "_col", "_dec", "_first", "_n", "_out", "_param", "_parts", "_private", "_st")

    def __init__(self) -> None:
        self._dec: codecs.IncrementalDecoder = _DecoderFactory("replace")
        self._out: list[str] = []  # finished lines, each ending with "\n"
        self._parts: list[str] = []  # the current line's cells, when _cells is None
        self._n = 0  # number of cells in _parts
        self._cells: list[str] | None = None  # one string per cell, after a write inside the line
        self._col = 0  # cursor column (0-based), may be past the end
        self._st = _GROUND
        self._param = 0  # the first CSI parameter so far
        self._first = True  # still reading the first CSI parameter
        self._private = False  # the CSI sequence has a private marker

    def reset(self) -> None:
        """Forgets everything (text, current line, pending sequence or character). Use it
        when a replacement snapshot arrives, then push the snapshot's bytes."""
        self._dec = _DecoderFactory("replace")
        self._out = []
        self._clear()
        self._col = 0
        self._st = _GROUND

    @property
    def text(self) -> str:
        """The transcript so far: every finished line followed by ``"\\n"``, then the current
        line, trailing spaces removed. An unfinished sequence or character at the end shows
        nothing yet."""
        out = self._out
        if len(out) > 1:
            joined = "".join(out)
            out.clear()
            out.append(joined)
        head = out[0] if out else ""
        cur = self._line()
        return head + cur if cur else head

    def push(self, data: bytes) -> None:
        """Continues the transcript with the next chunk of terminal bytes."""
        dec = self._dec
        s = dec.decode(data)
        held = dec.getstate()[0]
        if len(held) == 2 and held[0] == 0xED and held[1] >= 0xA0:
            # ED A0..BF can never become a character (a surrogate): show it now, as a
            # stream that ended here would.
            s += dec.decode(b"", True)
        if not s:
            return
        n = len(s)
        i = self._run(s, 0) if self._st != _GROUND else 0
        while i < n:
            m = _COMPLEX.search(s, i)
            end = n if m is None else m.start()
            if end > i:
                self._bulk(s if i == 0 and end == n else s[i:end])
            if m is None:
                return
            i = self._run(s, end)

    # ---- the current line

    def _line(self) -> str:
        cells = self._cells
        return ("".join(self._parts) if cells is None else "".join(cells)).rstrip(" ")

    def _clear(self) -> None:
        self._parts = []
        self._n = 0
        self._cells = None

    def _wide(self) -> list[str]:
        cells = self._cells
        if cells is None:
            cells = self._cells = list("".join(self._parts))
            self._parts = []
            self._n = 0
        return cells

    def _put(self, s: str) -> None:
        """Prints ``s`` (no controls except TAB) at the cursor."""
        col = self._col
        cells = self._cells
        if cells is None:
            n = self._n
            if col >= n:
                if col > n:
                    self._parts.append(" " * (col - n))
                self._parts.append(s)
                self._col = self._n = col + len(s)
                return
            cells = self._wide()
        if col > len(cells):
            cells.extend(" " * (col - len(cells)))
        end = col + len(s)
        cells[col:end] = s
        self._col = end

    def _finish(self) -> None:
        """LF: the line is finished and an empty one starts at column 0."""
        self._out.append(self._line() + "\n")
        self._clear()
        self._col = 0

    def _erase(self, mode: int) -> None:
        """CSI K with its first parameter."""
        cells = self._cells
        n = self._n if cells is None else len(cells)
        col = self._col
        if mode == 2 or (mode == 0 and col == 0) or (mode == 1 and col + 1 >= n):
            self._clear()
        elif mode == 0 and col < n:
            if cells is None:
                self._parts = ["".join(self._parts)[:col]]
                self._n = col
            else:
                del cells[col:]
        elif mode == 1:
            if cells is None:
                self._parts = [" " * (col + 1) + "".join(self._parts)[col + 1 :]]
            else:
                cells[: col + 1] = " " * (col + 1)

    def _move(self, fin: str, n: int) -> None:
        """CSI G, D, C or K without private marker or intermediates."""
        if fin == "G":
            self._col = min(max(n, 1) - 1, _MAX_MOVE_COL)
        elif fin == "D":
            self._col = max(self._col - max(n, 1), 0)
        elif fin == "C":
            if self._col < _MAX_MOVE_COL:
                self._col = min(self._col + max(n, 1), _MAX_MOVE_COL)
        else:
            self._erase(n)

    # ---- bulk path

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
                self._text(t, i, h)
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
                    self._move(e.group(2), _param(e.group(1)))
                    i = e.end()

    def _text(self, t: str, a: int, b: int) -> None:
        """Prints ``t[a:b]``: plain text, TAB and LF."""
        nl = t.find("\n", a, b)
        if nl < 0:
            self._put(t[a:b])
            return
        if nl > a:
            self._put(t[a:nl])
        self._finish()
        last = t.rfind("\n", nl, b)
        if last > nl:
            mid = t[nl + 1 : last + 1]
            if " \n" in mid:
                mid = _TRAIL.sub("\n", mid)
            self._out.append(mid)
        if last + 1 < b:
            self._put(t[last + 1 : b])

    # ---- the state machine, one character at a time

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
                self._put("\t")
            elif c == 0x0A:
                self._finish()
            elif c == 0x0D:
                self._col = 0
            return
        if st == _GROUND:
            self._put(chr(c))
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
                    self._move(chr(c), self._param)
            else:
                self._st = _CSI_IGNORE
        elif st == _CSI_INTER:
            if c >= 0x40:
                self._st = _GROUND
            elif c >= 0x30:
                self._st = _CSI_IGNORE
        elif st == _CSI_IGNORE and c >= 0x40:
            self._st = _GROUND
