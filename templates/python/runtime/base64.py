"""Strict canonical base64 (RFC 4648, standard alphabet, padding required) on bytes."""

from __future__ import annotations

from binascii import a2b_base64, b2a_base64
from collections.abc import Callable
from functools import partial
from typing import Final

from . import native as _native

__all__ = [
    "ACCELERATED",
    "Base64Error",
    "decode_base64",
    "encode_base64",
]

try:  # Optional: SIMD base64 when the `pybase64` package is installed; the checks around it are the same.
    import pybase64 as _pybase64  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - depends on the environment
    _pybase64 = None  # type: ignore[assignment, unused-ignore]

_ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE: Final[dict[str, int]] = {c: i for i, c in enumerate(_ALPHABET)}
_WHITESPACE: Final = frozenset(" \t\n\r\f\v")
_SYMBOLS: Final = (_ALPHABET + "=").encode("ascii")


class Base64Error(ValueError):
    """Raised by ``decode_base64``; the message says what is wrong and what to change."""


def decode_base64(text: str) -> bytes:
    """Decodes strict canonical base64: standard alphabet (``A-Z a-z 0-9 + /``), length a
    multiple of 4, ``=`` padding only at the end and only as needed, no whitespace, and
    the unused low bits of the last symbol zero. So every accepted text is exactly what
    ``encode_base64`` writes for the bytes. The empty string is zero bytes.

    Raises a ``Base64Error`` whose message describes the first problem.

    The bulk work runs in C (or in Rust with the native path): the decoder rejects every
    character outside the alphabet and misplaced padding; then, in a few operations, the
    length must be exactly the canonical one for the bytes (a multiple of 4, no extra group
    of padding: only the standard library's strict mode lets padding past the end through,
    ``pybase64``'s validating decode refuses it, as the tests check for each) and the unused
    bits of the last symbol zero.
    """
    bulk = _decode
    try:
        out = bulk(text)
    except ValueError:  # binascii.Error, a character outside ASCII, or the native decoder's error
        raise Base64Error(_explain(text)) from None
    if bulk is _native_decode:
        return out
    if bulk is _decode_binascii and len(text) != (len(out) + 2) // 3 * 4:
        raise Base64Error(_explain(text))
    if text[-1:] == "=" and (text[-3] not in _ZERO4 if text[-2] == "=" else text[-2] not in _ZERO2):
        # The bits past the last whole byte must be zero: of the last symbol, 4 bits after
        # one byte (two `=`), 2 bits after two bytes (one `=`).
        raise Base64Error(_explain(text))
    return out


def encode_base64(data: bytes | bytearray | memoryview) -> str:
    """Encodes bytes as canonical padded standard base64."""
    return _encode(data)


def _decode_binascii(text: str) -> bytes:
    """Standard alphabet, padding where `binascii`'s strict mode wants it (raises ``ValueError``)."""
    return a2b_base64(text, strict_mode=True)


def _encode_binascii(data: bytes | bytearray | memoryview) -> str:
    return b2a_base64(data, newline=False).decode("ascii")


if _pybase64 is not None:
    _decode_pybase64: Callable[[str], bytes] = partial(_pybase64.b64decode, validate=True)
    """As ``_decode_binascii``, about ten times faster on long texts (called without a Python frame)."""

    def _encode_pybase64(data: bytes | bytearray | memoryview) -> str:
        out: str = _pybase64.b64encode_as_string(data)
        return out


# Both sides evaluated (a tuple, not `or`): which is available depends on the environment.
ACCELERATED: Final = any((_pybase64 is not None, _native.MODULE is not None))
"""Whether the optional ``pybase64`` package or the native path does the bulk work (same
results, faster)."""

_native_decode: Callable[[str], bytes] | None = None if _native.MODULE is None else _native.MODULE.decode_base64
_decode: Callable[[str], bytes] = (
    _native_decode if _native_decode is not None else _decode_pybase64 if _pybase64 is not None else _decode_binascii
)
"""The bulk decoder ``decode_base64`` checks around (each rejects anything outside the
alphabet and misplaced padding; the native one is strict and canonical on its own)."""
_ZERO4: Final = frozenset(c for c, v in _VALUE.items() if v & 0x0F == 0)
_ZERO2: Final = frozenset(c for c, v in _VALUE.items() if v & 0x03 == 0)
_encode: Callable[[bytes | bytearray | memoryview], str] = (
    _encode_pybase64 if _pybase64 is not None else _encode_binascii
)


def _first_outside(text: str) -> int:
    """The offset of the first character that is neither a symbol nor ``=``, or -1.

    Bulk operations in C only (a 50 MB text takes a fraction of a second): the first
    character outside ASCII from the encoder's error, the other characters from
    ``bytes.translate``, then the first occurrence of each of those."""
    try:
        raw = text.encode("ascii")
        first = -1
    except UnicodeEncodeError as e:
        first = e.start
        raw = text[:first].encode("ascii")
    others = raw.translate(None, _SYMBOLS)
    if others:
        return min(raw.find(c) for c in set(others))
    return first


def _explain(text: str) -> str:
    """Says why ``text`` is not strict canonical base64 (called only once decoding failed)."""
    n = len(text)
    i = _first_outside(text)
    if i >= 0:
        c = text[i]
        if c in _WHITESPACE:
            return f"whitespace at offset {i}; base64 here must be one unbroken line"
        if c in "-_":
            return f"`{c}` at offset {i} belongs to the URL-safe alphabet; use the standard one (`+`, `/`)"
        shown = f"`{c}`" if "\x21" <= c < "\x7f" else f"U+{ord(c):04X}"
        return f"{shown} at offset {i} is not in the standard base64 alphabet"
    first_pad = text.find("=")
    if first_pad >= 0:
        if text.rstrip("=") != text[:first_pad]:
            return f"padding `=` at offset {first_pad} is not at the end of the text"
        if n - first_pad > 2:
            return f"there are {n - first_pad} padding characters; a group needs at most 2"
        if first_pad % 4 < 2:
            return f"padding `=` at offset {first_pad} comes before the group's second symbol"
    if n & 3:
        symbols = n - (n - first_pad if first_pad >= 0 else 0)
        if symbols % 4 == 1:
            return f"length {n} cannot be base64: the last group has a single symbol"
        return f"length {n} is not a multiple of 4; pad the last group with `=`"
    last = first_pad - 1 if first_pad >= 0 else n - 1
    return f"the symbol at offset {last} has non-zero unused bits; the canonical encoding of these bytes differs"
