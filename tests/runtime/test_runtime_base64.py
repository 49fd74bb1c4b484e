"""Tests of strict canonical base64: only what encode_base64 writes is accepted; each other form has a reason."""

from __future__ import annotations

import base64 as stdbase64
import binascii
import importlib.util
import random
import re
from collections.abc import Iterator

import pytest

from runtime import base64 as runtime_base64
from runtime.base64 import Base64Error, decode_base64, encode_base64


@pytest.fixture(autouse=True, params=["binascii", "pybase64", "native"])
def bulk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Every test runs with each bulk codec: the standard library's, the optional pybase64, and
    the optional native wheel's (strict on its own; the reasons are still written here)."""
    name: str = request.param
    if name == "native":
        if runtime_base64._native_decode is None:
            pytest.skip("the native wheel is not in use")
        monkeypatch.setattr(runtime_base64, "_decode", runtime_base64._native_decode)
    elif name == "pybase64":
        if importlib.util.find_spec("pybase64") is None:
            pytest.skip("pybase64 is not installed")
        monkeypatch.setattr(runtime_base64, "_decode", runtime_base64._decode_pybase64)
        monkeypatch.setattr(runtime_base64, "_encode", runtime_base64._encode_pybase64)
    else:
        monkeypatch.setattr(runtime_base64, "_decode", runtime_base64._decode_binascii)
        monkeypatch.setattr(runtime_base64, "_encode", runtime_base64._encode_binascii)
    yield name


def test_pybase64_is_used_when_installed() -> None:
    installed = importlib.util.find_spec("pybase64") is not None
    assert (installed or runtime_base64._native_decode is not None) == runtime_base64.ACCELERATED


def reason(text: str) -> str:
    """The reason ``text`` is rejected; fails the test when it is accepted."""
    with pytest.raises(Base64Error) as e:
        decode_base64(text)
    assert isinstance(e.value, ValueError)
    assert str(e.value)
    return str(e.value)


def test_every_tail_length_round_trips() -> None:
    for plain, b64 in [
        (b"", ""),
        (b"a", "YQ=="),
        (b"ab", "YWI="),
        (b"abc", "YWJj"),
        (b"abcd", "YWJjZA=="),
        (b"abcde", "YWJjZGU="),
        (b"abcdef", "YWJjZGVm"),
        (b"hello", "aGVsbG8="),
    ]:
        assert encode_base64(plain) == b64
        assert decode_base64(b64) == plain


def test_the_empty_string_is_zero_bytes() -> None:
    assert decode_base64("") == b""


def test_all_256_byte_values_round_trip() -> None:
    data = bytes(range(256))
    text = encode_base64(data)
    assert text == stdbase64.b64encode(data).decode()
    assert decode_base64(text) == data


def test_every_length_to_300_and_large_inputs_match_the_standard_library_both_ways() -> None:
    for n in [*range(301), 4095, 49151, 49152, 49153, 65536, 200001]:
        data = bytes((i * 7919 + n) & 0xFF for i in range(n))
        text = encode_base64(data)
        assert text == stdbase64.b64encode(data).decode(), n
        assert decode_base64(text) == data, n


def test_bytearray_and_memoryview_encode() -> None:
    whole = bytes(range(7))
    assert encode_base64(bytearray(whole)) == stdbase64.b64encode(whole).decode()
    assert encode_base64(memoryview(whole)[2:5]) == stdbase64.b64encode(whole[2:5]).decode()


INVALID: list[tuple[str, str, str]] = [
    ("non-zero trailing bits with one pad", "aGVsbG9=", "unused bits"),
    ("non-zero trailing bits with two pads", "YR==", "unused bits"),
    ("non-zero trailing bits, last bit", "YWJ=", "unused bits"),
    ("non-zero trailing bits after whole groups", "YWJjYR==", "unused bits at offset 5|offset 5 has non-zero"),
    ("missing padding (two symbols)", "YQ", "multiple of 4"),
    ("missing padding (three symbols)", "YWJ", "multiple of 4"),
    ("one pad where two are needed", "YQ=", "multiple of 4"),
    ("a single symbol", "Y", "single symbol"),
    ("five symbols", "YWJjZ", "single symbol"),
    ("extra padding", "YQ===", "padding characters"),
    ("three pads in a group", "Y===", "padding characters"),
    ("a whole group of padding", "YWJj====", "padding characters"),
    ("only padding", "====", "padding characters"),
    ("a lone pad", "=", "second symbol"),
    ("a pad after one symbol", "Y=", "second symbol"),
    ("padding in the middle", "YQ==YQ==", "not at the end"),
    ("a pad inside a group", "YW=j", "not at the end"),
    ("a pad at the start", "=YWJ", "not at the end"),
    ("URL-safe minus", "YW-j", "URL-safe"),
    ("URL-safe underscore", "YW_j", "URL-safe"),
    ("a space", "YW Jj", "whitespace at offset 2"),
    ("a trailing newline", "YWJj\n", "whitespace at offset 4"),
    ("CRLF line break", "YWJj\r\nYWJj", "whitespace"),
    ("a tab", "\tYWJj", "whitespace at offset 0"),
    ("a star", "YWJj*", r"`\*` at offset 4"),
    ("a non-ASCII letter", "é", r"U\+00E9"),
    ("a non-ASCII letter in a whole group", "YWéj", r"U\+00E9 at offset 2"),
    ("a character past U+00FF in a whole group", "YW\u0141j", r"U\+0141"),
    ("a character that aliases a letter modulo 256", "YW\u0161j", r"U\+0161"),
    ("a NUL", "YW\u0000j", r"U\+0000"),
    ("a dot", "YW.j", r"`\.`"),
    ("a lone surrogate", "YW\ud800j", r"U\+D800"),
]


@pytest.mark.parametrize(("name", "text", "why"), INVALID, ids=[n for n, _, _ in INVALID])
def test_every_other_form_is_rejected_with_its_reason(name: str, text: str, why: str) -> None:
    assert re.search(why, reason(text))


def test_a_bad_character_deep_inside_a_long_text_is_found_with_its_offset() -> None:
    good = encode_base64(bytes([7]) * 6000)
    assert re.search("`-` at offset 5000 belongs to the URL-safe alphabet", reason(good[:5000] + "-" + good[5001:]))
    assert re.search(r"U\+0141 at offset 5000", reason(good[:5000] + "\u0141" + good[5001:]))
    assert re.search(r"U\+00E9 at offset 5000", reason(good[:5000] + "é" + good[5001:]))
    assert re.search("padding `=` at offset 400", reason(good[:400] + "==" + good[402:]))
    assert re.search("whitespace at offset 8000", reason(good + "\n"))


def test_what_the_standard_library_accepts_is_rejected_here() -> None:
    # b64decode without validate drops bad characters; strict_mode lets non-zero trailing bits
    # and padding past the end ("YWJj====", "AKv5=", "MACA==") through.
    for text in ["YW Jj\n", "YW-Jj", "aGVsbG9=", "YR==", "YWJj====", "AKv5=", "MACA=="]:
        stdbase64.b64decode(text)
        with pytest.raises(Base64Error):
            decode_base64(text)
    assert binascii.a2b_base64("YR==", strict_mode=True) == b"a"
    assert binascii.a2b_base64("AKv5=", strict_mode=True) == b"\x00\xab\xf9"


def lenient_canonical(text: str) -> bytes | None:
    """The bytes ``text`` stands for when it is their canonical encoding, by a lenient
    decoder and re-encoding: the reference for the random test."""
    try:
        data = binascii.a2b_base64(text)
    except (binascii.Error, ValueError):
        return None
    return data if stdbase64.b64encode(data).decode() == text else None


def test_accepted_exactly_when_the_text_is_the_canonical_encoding_of_its_bytes() -> None:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n"
    r = random.Random(7)
    accepted = 0
    for _ in range(20000):
        n = r.randrange(13)
        text = "".join(alphabet[r.randrange(len(alphabet) if r.randrange(4) == 0 else 65)] for _ in range(n))
        expected = lenient_canonical(text)
        try:
            got: bytes | None = decode_base64(text)
        except Base64Error:
            got = None
        assert got == expected, repr(text)
        if got is not None:
            accepted += 1
    assert accepted > 1000, accepted


def test_the_reason_for_a_long_text_costs_no_python_work_per_character() -> None:
    """Rejecting a huge text with one bad last character once built its message one
    character at a time (6.7 s for 50 MB). Count the Python lines the rejection runs
    for n and for 8n characters: the same number, so the scan happens in C."""
    import sys
    from types import FrameType
    from typing import Any

    def lines_run(text: str) -> tuple[int, str]:
        count = 0

        def tracer(frame: FrameType, event: str, arg: Any) -> Any:
            nonlocal count
            if event == "line":
                count += 1
            return tracer

        sys.settrace(tracer)
        try:
            message = reason(text)
        finally:
            sys.settrace(None)
        return count, message

    good = encode_base64(bytes(range(256)) * 48)  # 16 KiB of text
    for bad in ["*", " ", "-", "\u0141", "é"]:
        small, small_message = lines_run(good[:-4] + "AAA" + bad)
        large, large_message = lines_run(good * 8 + good[:-4] + "AAA" + bad)
        assert small == large, (bad, small, large)
        assert str(len(good) - 1) in small_message and str(len(good) * 9 - 1) in large_message
    for text in [good + "=", good[:-4] + "A=AA", good + "aGVsbG9="]:
        small, _ = lines_run(text)
        large, _ = lines_run(good * 8 + text)
        assert small == large, (text[-8:], small, large)
