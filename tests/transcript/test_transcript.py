"""The Python transcript renderer against every vector in tests/vectors/transcript, and a
seeded property test: re-chunking a byte stream never changes the text.

Run with ``python -m pytest tests/transcript`` from the repository root.
"""

from __future__ import annotations

import base64
import importlib
import json
import os
import random
import re
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors" / "transcript"


def _load() -> ModuleType:
    """templates/python/client/transcript.py as it sits in the generated package, next to
    the runtime (``_runtime``: templates/python/runtime) that it imports relatively: a
    package of links to the templates, in a temporary folder, so the tests run the
    templates in place without writing bytecode into them."""
    sys.dont_write_bytecode = True
    templates = ROOT / "templates" / "python"
    package = Path(tempfile.mkdtemp(prefix="acp-transcript-in-place-")) / "inplace"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in ("transcript.py", "transcript_table.py"):
        (package / name).symlink_to(templates / "client" / name)
    (package / "_runtime").symlink_to(templates / "runtime", target_is_directory=True)
    if str(package.parent) not in sys.path:
        sys.path.insert(0, str(package.parent))
    return importlib.import_module("inplace.transcript")


_MODULE = _load()
Transcript: Any = _MODULE.Transcript
if os.environ.get("ACP_TERMINAL_EXPECT_NATIVE") and Transcript is _MODULE.PureTranscript:
    raise RuntimeError("ACP_TERMINAL_EXPECT_NATIVE is set but the native path is not in use")
MAX_LINE_LENGTH: int = _MODULE.MAX_LINE_LENGTH
MAX_TEXT_LENGTH: int = _MODULE.MAX_TEXT_LENGTH


def render(chunks: list[bytes]) -> str:
    t = Transcript()
    for c in chunks:
        t.push(c)
    text: str = t.text
    return text


def _cases() -> list[Any]:
    return [
        pytest.param(case, id=f"{file.stem}::{case['name']}")
        for file in sorted(VECTORS.glob("*.json"))
        for case in json.loads(file.read_text(encoding="utf-8"))["cases"]
    ]


CASES = _cases()


def test_enough_vectors() -> None:
    assert len(CASES) >= 80


@pytest.mark.parametrize("case", CASES)
def test_vector(case: dict[str, Any]) -> None:
    assert case["kind"] == "transcript"
    chunks = [base64.b64decode(c, validate=True) for c in case["chunks"]]
    want = case["expect"]["text"]
    assert render(chunks) == want
    whole = b"".join(chunks)
    assert render([whole]) == want, "as one chunk"
    assert render([bytes([b]) for b in whole]) == want, "one byte at a time"


# fmt: off
PIECES = [
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
]
# fmt: on


def _stream(rng: random.Random) -> bytes:
    parts = []
    for _ in range(rng.randrange(1, 61)):
        if rng.randrange(8) == 0:
            parts.append(bytes([rng.randrange(256)]))
        else:
            parts.append(rng.choice(PIECES))
    return b"".join(parts)


def test_rechunking_never_changes_the_text() -> None:
    rng = random.Random(0x5EED1234)
    for round_ in range(400):
        stream = _stream(rng)
        want = render([stream])
        t = Transcript()
        at = 0
        while at < len(stream):
            end = min(at + rng.randrange(9), len(stream))
            t.push(stream[at:end])
            at = end
            if rng.randrange(4) == 0:
                assert t.text == render([stream[:at]]), (round_, stream, at)
        assert t.text == want, (round_, stream)
        t.reset()
        t.push(stream)
        assert t.text == want, (round_, "after reset")


def test_rechunking_large_streams() -> None:
    """Longer streams in bigger chunks exercise the bulk path across chunk ends."""
    rng = random.Random(7)
    for _ in range(30):
        stream = b"".join(_stream(rng) for _ in range(40))
        want = render([stream])
        chunks = []
        at = 0
        while at < len(stream):
            end = min(at + rng.randrange(1, 300), len(stream))
            chunks.append(stream[at:end])
            at = end
        assert render(chunks) == want


_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_nothing_unsafe_survives_random_bytes() -> None:
    rng = random.Random(42)
    for _ in range(300):
        stream = bytes(rng.randrange(256) for _ in range(rng.randrange(400)))
        text = render([stream])
        assert not _UNSAFE.search(text), text


def _incomplete_prefix(b: bytes) -> bool:
    """Whether ``b`` (starting with a lead byte) can still become one character."""
    first = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}
    b0 = b[0]
    need = 1 if 0xC2 <= b0 <= 0xDF else 2 if 0xE0 <= b0 <= 0xEF else 3 if 0xF0 <= b0 <= 0xF4 else 0
    if len(b) > need:
        return False
    if len(b) >= 2:
        lo, hi = first.get(b0, (0x80, 0xBF))
        if not lo <= b[1] <= hi:
            return False
    return all(0x80 <= x <= 0xBF for x in b[2:])


def test_a_prefix_waits_only_while_it_can_become_a_character() -> None:
    for b0 in range(0x80, 0x100):
        for tail in [b""] + [bytes([x]) for x in range(0x80, 0xC0)]:
            b = bytes([b0]) + tail
            # C2 80..C2 9F are C1 controls: no effect (or the start of a sequence).
            want = "" if _incomplete_prefix(b) else re.sub("[\x80-\x9f]", "", b.decode("utf-8", "replace"))
            assert render([b]) == want, b


def test_reset_forgets_everything() -> None:
    t = Transcript()
    t.push(b"old line\r\npartial \xe2\x82")
    t.push(b"")
    t.reset()
    assert t.text == ""
    t.push(b"\xac new")
    assert t.text == "\ufffd new"
    t.reset()
    t.push(b"x\x1b]0;unfinished")
    t.reset()
    t.push(b"visible")
    assert t.text == "visible"


def test_text_is_stable_between_pushes() -> None:
    t = Transcript()
    t.push(b"a\r\nb\r\n")
    assert t.text == t.text == "a\nb\n"
    t.push(b"c   ")
    assert t.text == "a\nb\nc"


def test_a_line_at_the_length_limit_wraps_and_is_counted() -> None:
    t = Transcript(max_line_length=4)
    t.push("abcdéfghij\r\n".encode())
    assert t.text == "abcd\néfgh\nij\n"
    assert t.wrapped_lines == 2
    # CR goes back to the start of the wrapped line only, as on a terminal that wide.
    t.push(b"0123456\rX\x1b[1K")
    assert t.text == "abcd\néfgh\nij\n0123\n  6"
    t = Transcript(max_line_length=4)
    t.push(b"ab\x1b[9Cc")
    assert (t.text, t.wrapped_lines) == ("ab\nc", 1)
    line = b"x" * (MAX_LINE_LENGTH + 5)
    assert render([line]) == "x" * MAX_LINE_LENGTH + "\nxxxxx"
    assert render([line[i : i + 7] for i in range(0, len(line), 7)]) == render([line])
    # Whole lines past the limit in the middle of a chunk, and a redraw that starts past it.
    many = b"a" * 5000 + b"\r\n" + "é".encode() * 4100 + b"\r\nend\r\n"
    want = "a" * 4096 + "\n" + "a" * 904 + "\n" + "é" * 4096 + "\n" + "éééé\nend\n"
    assert render([b"x\r\n" + many]) == "x\n" + want
    assert render([bytes([b]) for b in many]) == want
    redraw = b"b" * 5000 + b"\r\x1b[Kdone\r\n"
    assert render([redraw]) == "b" * 4096 + "\ndone\n"
    assert render([bytes([b]) for b in redraw]) == "b" * 4096 + "\ndone\n"


def test_a_limit_that_is_not_a_whole_number_is_a_value_error_that_names_it() -> None:
    with pytest.raises(ValueError, match="max_line_length must be a whole number"):
        Transcript(max_line_length=-1)
    with pytest.raises(ValueError, match="max_text_length must be a whole number"):
        Transcript(max_text_length=1.5)
    t = Transcript(max_line_length=0, max_text_length=0)
    t.push(b"ab\r\nc")
    assert (t.text, t.wrapped_lines, t.dropped_lines) == ("c", 1, 2)


def test_past_the_text_length_limit_the_oldest_lines_are_left_out_and_counted() -> None:
    t = Transcript(max_line_length=100, max_text_length=10)

    def state() -> tuple[str, int, int]:
        return (t.text, t.dropped_lines, t.dropped_chars)

    t.push(b"one\ntwo\nthr")
    assert state() == ("one\ntwo\nthr", 0, 0)
    t.push("ée\n".encode())
    assert state() == ("two\nthrée\n", 1, 4)
    t.push(b"four\n")
    assert state() == ("four\n", 3, 14)
    t.push(b"a very long line\nnow")
    assert state() == ("now", 5, 14 + 5 + 17)
    t.reset()
    assert (*state(), t.wrapped_lines) == ("", 0, 0, 0)
    # Any chunking drops the same lines; a 4-byte character counts as one code point.
    stream = "".join(f"line {i} é😀\r\n" for i in range(3000)).encode()
    whole = Transcript(max_line_length=100, max_text_length=1000)
    whole.push(stream)
    bytewise = Transcript(max_line_length=100, max_text_length=1000)
    for b in stream:
        bytewise.push(bytes([b]))
    assert whole.text == bytewise.text
    assert whole.dropped_lines == bytewise.dropped_lines
    assert len(whole.text) <= 1000 and whole.text.startswith("line ")
    assert whole.dropped_chars + len(whole.text) == len(stream.decode().replace("\r", ""))


def test_reading_only_what_is_new_gives_the_text() -> None:
    stream = b"".join(f"line {i} é\x1b[31m😀\x1b[0m\r\nprogress {i}\r".encode() for i in range(4000))
    for max_text in (MAX_TEXT_LENGTH, 5000):
        t = Transcript(max_line_length=64, max_text_length=max_text)
        shown, at = [], 0
        for i in range(0, len(stream), 333):
            t.push(stream[i : i + 333])
            shown.append(t.finished_since(at))
            at = t.finished_length
            assert ("".join(shown) + t.current_line).endswith(t.text)
        kept = t.text
        if max_text == MAX_TEXT_LENGTH:
            assert "".join(shown) + t.current_line == kept
        assert t.finished_since(0) + t.current_line == kept
        # The last line is "line 3999 é😀8" ("progress 3998" overwritten up to its "8").
        assert t.finished_since(t.finished_length - 3) == "8\n", "3 bytes before the end: inside the emoji"


def _work(stream: bytes, read: bool) -> int:
    """The work to render ``stream`` in 4 KiB chunks, reading what is new after each one when
    ``read``: the transcript's work counter plus the length of every string read."""
    t = Transcript()
    total = at = 0
    for i in range(0, len(stream), 4096):
        t.push(stream[i : i + 4096])
        if read:
            total += len(t.finished_since(at)) + len(t.current_line)
            at = t.finished_length
    total += len(t.text)
    return t.work + total


# name, stream of about n bytes, read the text after every chunk, n
_PATTERNS = [
    ("a long line then erase-to-start repeated", lambda n: b"x" * (n // 2) + b"\x1b[2D" + b"\x1b[1K" * (n // 8), False, 1 << 17),
    ("a long line then erase and print repeated", lambda n: b"x" * (n // 2) + b"\x1b[1Ky" * (n // 10), False, 1 << 18),
    ("a long non-ASCII line redrawn from its start", lambda n: "é".encode() * (n // 4) + b"\x1b[1Gz\x1b[1000G\x1b[1K" * (n // 32), False, 1 << 15),
    ("CR progress redraws", lambda n: b"\r\x1b[Kprogress 42% " * (n // 18), False, 1 << 18),
    ("control-heavy output", lambda n: b"\x1b[32mok\x1b[0m \x1b[1mtest\x1b[22m \x08\x07\r\n" * (n // 30), False, 1 << 17),
    ("unterminated OSC", lambda n: b"\x1b]0;" + b"payload " * (n // 8), False, 1 << 20),
    ("lines read after every chunk (what is new)", lambda n: b"a line of output\r\n" * (n // 18), True, 1 << 20),
]


@pytest.mark.parametrize(("name", "make", "read", "n"), _PATTERNS, ids=[p[0] for p in _PATTERNS])
def test_work_is_linear_in_the_input_whatever_the_sequence(name: str, make: Any, read: bool, n: int) -> None:
    """n against 8n bytes, counted, not timed (``cargo xtask bench`` times it): linear work
    gives a ratio of 8, n log n about 9.2 at these sizes, quadratic work 64. n is large enough
    that both sizes are past the line length limit, which bounds the cells a print pads."""
    small, large = make(n), make(8 * n)
    a, b = _work(small, read), _work(large, read)
    ratio = b / a
    assert 7 <= ratio <= 9, f"{name}: 8x the input ({len(small)} bytes) took {ratio:.2f}x the work ({a} then {b})"
    assert a >= len(small), f"{name}: every byte is counted"
