"""hypothesis properties of the Python binding: strict base64, canonical output, the
transcript and the store. ``HYPOTHESIS_RUNS`` and ``HYPOTHESIS_SEED`` set the number of
examples and the seed (cargo xtask test: a short seeded pass; cargo xtask fuzz: longer)."""

from __future__ import annotations

import json
import os

from hypothesis import given, seed, settings
from hypothesis import strategies as st

from acp_terminal import TerminalStore, Transcript
from acp_terminal._runtime.base64 import decode_base64, encode_base64
from acp_terminal.registry import CODECS
from acp_terminal.transcript import PureTranscript

RUNS = int(os.environ.get("HYPOTHESIS_RUNS", "200"))
SEED = int(os.environ.get("HYPOTHESIS_SEED", "1"))
SETTINGS = settings(max_examples=RUNS, deadline=None, derandomize=False, database=None)

PIECES = [
    s.encode()
    for s in ["\x1b[31m", "\x1b[1K", "\x1b[2J", "\r", "\r\n", "\b", "\t", "\x1b]0;title\x07", "\x1b]8;;http://x\x1b\\", "\x1bP", "é", "日", "🦀", "\u202e"]
] + [b"\x9b", b"\xe6\x97", b"\xff"]
pty_bytes = st.lists(st.one_of(st.binary(max_size=12), st.sampled_from(PIECES)), max_size=40).map(b"".join)
cut_points = st.lists(st.integers(min_value=0, max_value=10_000), max_size=8)


def cuts(data: bytes, points: list[int]) -> list[bytes]:
    ps = sorted({p % (len(data) + 1) for p in points})
    out, last = [], 0
    for p in ps:
        out.append(data[last:p])
        last = p
    out.append(data[last:])
    return out


@seed(SEED)
@SETTINGS
@given(st.binary(max_size=200))
def test_every_byte_string_round_trips_through_canonical_base64(data: bytes) -> None:
    assert decode_base64(encode_base64(data)) == data


@seed(SEED)
@SETTINGS
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n", max_size=24))
def test_whatever_text_decodes_re_encodes_to_the_same_text(text: str) -> None:
    try:
        decoded = decode_base64(text)
    except ValueError:
        return
    assert encode_base64(decoded) == text


def _unsafe(text: str) -> list[str]:
    bad = []
    for ch in text:
        u = ord(ch)
        control = (u < 0x20 and ch not in "\n\t") or 0x7F <= u <= 0x9F
        bidi = 0x202A <= u <= 0x202E or 0x2066 <= u <= 0x2069
        if control or bidi:
            bad.append(f"U+{u:04X}")
    return bad


@seed(SEED)
@SETTINGS
@given(pty_bytes, cut_points)
def test_any_chunking_gives_the_transcript_of_one_push_and_it_is_safe(data: bytes, points: list[int]) -> None:
    whole = Transcript()
    whole.push(data)
    cut = Transcript()
    for c in cuts(data, points):
        cut.push(c)
    assert cut.text == whole.text
    assert _unsafe(whole.text) == []


@seed(SEED)
@SETTINGS
@given(pty_bytes, cut_points)
def test_the_native_and_the_pure_transcript_agree(data: bytes, points: list[int]) -> None:
    """With the native wheel installed, ``Transcript`` is the Rust one: any bytes, cut anywhere,
    give the same text and counters as the pure-Python renderer given them whole."""
    pure = PureTranscript(max_line_length=64, max_text_length=300)
    pure.push(data)
    other = Transcript(max_line_length=64, max_text_length=300)
    for c in cuts(data, points):
        other.push(c)
    assert other.text == pure.text
    assert (other.wrapped_lines, other.dropped_lines, other.dropped_chars) == (pure.wrapped_lines, pure.dropped_lines, pure.dropped_chars)
    assert other.finished_length == pure.finished_length


def _chunk(data: bytes) -> str:
    return json.dumps({"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": encode_base64(data)})


@seed(SEED)
@SETTINGS
@given(pty_bytes, cut_points)
def test_store_chunks_cut_anywhere_equal_one_chunk(data: bytes, points: list[int]) -> None:
    one, many = TerminalStore(), TerminalStore()
    one.apply_text(_chunk(data))
    for c in cuts(data, points):
        many.apply_text(_chunk(c))
    a, b = one.terminal("t"), many.terminal("t")
    assert a is not None and b is not None
    assert b.output.to_bytes() == a.output.to_bytes()
    assert b.transcript == a.transcript


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=12,
)


@seed(SEED)
@SETTINGS
@given(json_values, json_values)
def test_canonical_output_is_a_fixed_point(meta: object, extra: object) -> None:
    parse, serialize = CODECS["v2"]["SessionUpdate"]
    text = json.dumps({"sessionUpdate": "terminal_update", "terminalId": "t", "command": "ls", "_meta": {"m": meta}, "zz": extra})
    canonical = serialize(parse(text).value)
    assert serialize(parse(canonical).value) == canonical
