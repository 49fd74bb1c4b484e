"""JSON text out: the canonical writer (compact; ECMAScript number and string forms; dicts in their order)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from json.encoder import encode_basestring
from typing import Any, Final, TypeAlias, TypeVar, overload

from pydantic import MISSING

from .base64 import encode_base64
from .json import Json, JsonObject

__all__ = [
    "Encoder",
    "Writer",
    "encode_array",
    "encode_boolean",
    "encode_bytes",
    "encode_json",
    "encode_number",
    "encode_object",
    "encode_string",
    "format_number",
    "format_string",
    "write_json",
]

T = TypeVar("T")

_Bool: TypeAlias = bool
_Bytes: TypeAlias = bytes | bytearray | memoryview
_SAFE: Final = 2**53
"""Integers below this magnitude are doubles exactly, and ECMAScript writes all their digits."""
_INF: Final = float("inf")
_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def format_number(x: int | float) -> str:
    """The text ECMAScript's Number::toString gives for ``x`` as an IEEE double:
    ``1.0`` -> ``1``, ``1e21`` -> ``1e+21``, ``1.5e-7`` -> ``1.5e-7``, ``-0.0`` -> ``0``;
    an ``int`` is converted to the nearest double first (``12345678901234567890`` ->
    ``12345678901234567000``). Raises ``ValueError`` for NaN and the infinities (and
    integers too large for a double), which JSON cannot write."""
    if type(x) is int:
        if -_SAFE < x < _SAFE:
            return str(x)
        try:
            x = float(x)
        except OverflowError:
            raise ValueError(f"{x} is too large for a double and cannot be written as JSON") from None
    elif isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"expected a number, got {type(x).__name__}")
    else:
        x = float(x)
        if x.is_integer() and -_SAFE < x < _SAFE:
            return str(int(x))  # also -0.0 -> "0"
    if x != x or x == _INF or x == -_INF:
        raise ValueError(f"{x} cannot be written as JSON")
    return _ecmascript(x)


def _ecmascript(x: float) -> str:
    """Number::toString (ECMA-262 6.1.6.1.20) from Python's shortest round-trip digits,
    which are the digits ECMAScript's step 5 asks for (fewest digits; closest to ``x``)."""
    sign = ""
    if x < 0:
        sign = "-"
        x = -x
    r = repr(x)
    mantissa, _, exp = r.partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = whole + frac
    # `x` = 0.digits * 10^n, i.e. the decimal point sits after the first n digits.
    n = len(whole) + (int(exp) if exp else 0)
    stripped = digits.lstrip("0")
    n -= len(digits) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    e = n - 1
    exponent = f"e+{e}" if e >= 0 else f"e-{-e}"
    if k == 1:
        return sign + digits + exponent
    return sign + digits[0] + "." + digits[1:] + exponent


def format_string(s: str) -> str:
    """``s`` as ``JSON.stringify`` writes it: ``"`` and ``\\`` escaped, controls below
    U+0020 as ``\\b \\f \\n \\r \\t`` or lowercase ``\\u00xx``, lone surrogates as
    lowercase ``\\udxxx``, everything else as itself."""
    return _string(s)


def _escape_surrogate(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def _string(s: str) -> str:
    out: str = encode_basestring(s)
    if not out.isascii() and _LONE_SURROGATE.search(out) is not None:
        out = _LONE_SURROGATE.sub(_escape_surrogate, out)
    return out


def _key(name: str, comma: bool) -> str:
    """A member name with its colon, after a comma when ``comma``."""
    k = _string(name)
    return "," + k + ":" if comma else k + ":"


_KEYS: dict[str, tuple[str, str]] = {}
"""Member names written with ``Writer.key``: (after a comma, first), escaped."""
_KEYS_LIMIT: Final = 4096


def _cache_key(name: str) -> tuple[str, str]:
    k = _string(name)
    texts = ("," + k + ":", k + ":")
    if len(_KEYS) < _KEYS_LIMIT:
        _KEYS[name] = texts
    return texts


def _write(v: object, append: Callable[[str], None]) -> None:
    """Writes a JSON value (free JSON: ``_meta``, ``rawInput``, unknown members) in one
    recursive function, without the writer's per-token method calls."""
    t = type(v)
    if t is str:
        append(_string(v))  # type: ignore[arg-type]
    elif t is dict:
        if not v:
            append("{}")
            return
        append("{")
        comma = False
        for k, x in v.items():  # type: ignore[attr-defined]
            append(_key(k, comma))
            comma = True
            _write(x, append)
        append("}")
    elif t is list:
        if not v:
            append("[]")
            return
        append("[")
        comma = False
        for x in v:  # type: ignore[attr-defined]
            if comma:
                append(",")
            comma = True
            _write(x, append)
        append("]")
    elif t is int:
        append(str(v) if -_SAFE < v < _SAFE else format_number(v))  # type: ignore[operator, arg-type]
    elif v is None:
        append("null")
    elif v is True:
        append("true")
    elif v is False:
        append("false")
    elif t is float:
        append(format_number(v))  # type: ignore[arg-type]
    elif isinstance(v, str):
        append(_string(v))
    elif isinstance(v, dict):
        _write(dict(v), append)
    elif isinstance(v, list):
        _write(list(v), append)
    elif isinstance(v, (int, float)):
        append(format_number(v))
    else:
        raise TypeError(f"{type(v).__name__} is not a JSON type")


class Writer:
    """Writes canonical JSON: no insignificant whitespace, strings as ``JSON.stringify``
    writes them, numbers as ECMAScript's Number-to-String (``1.0`` -> ``1``, ``1e21`` ->
    ``1e+21``, ``-0`` -> ``0``), object members in the order they are written.

    Commas are placed automatically: call ``key`` before each member value and ``item``
    before each array item.
    """

    __slots__ = ("_first", "_out")

    def __init__(self) -> None:
        self._out: list[str] = []
        self._first = True

    def finish(self) -> str:
        """The text written so far."""
        return "".join(self._out)

    def begin_object(self) -> None:
        """Starts an object."""
        self._out.append("{")
        self._first = True

    def end_object(self) -> None:
        """Ends an object."""
        self._out.append("}")
        self._first = False

    def begin_array(self) -> None:
        """Starts an array."""
        self._out.append("[")
        self._first = True

    def end_array(self) -> None:
        """Ends an array."""
        self._out.append("]")
        self._first = False

    def item(self) -> None:
        """Writes the comma before an array item when needed."""
        if not self._first:
            self._out.append(",")
        self._first = True

    def key(self, name: str) -> None:
        """Writes a member name (and the comma before it when needed). The names a
        program writes again and again (its schema's) are escaped once and cached."""
        texts = _KEYS.get(name)
        if texts is None:
            texts = _cache_key(name)
        self._out.append(texts[self._first])
        self._first = True

    def string(self, s: str) -> None:
        """Writes a string with ``JSON.stringify``'s escapes."""
        self._out.append(_string(s))
        self._first = False

    def number(self, n: int | float) -> None:
        """Writes a number as ECMAScript's Number-to-String does. Raises ``ValueError``
        for NaN and the infinities, which JSON cannot write."""
        self._out.append(format_number(n))
        self._first = False

    def bool(self, v: _Bool) -> None:
        """Writes ``true`` or ``false``."""
        self._out.append("true" if v else "false")
        self._first = False

    def null(self) -> None:
        """Writes ``null``."""
        self._out.append("null")
        self._first = False

    def bytes(self, b: _Bytes) -> None:
        """Writes bytes as canonical padded standard base64."""
        self._out.append('"' + encode_base64(b) + '"')
        self._first = False

    def raw(self, text: str) -> None:
        """Writes raw text that is already a canonical JSON value."""
        self._out.append(text)
        self._first = False

    def value(self, v: Json) -> None:
        """Writes any JSON value, keeping object member order at every depth."""
        _write(v, self._out.append)
        self._first = False

    def members(self, o: JsonObject) -> None:
        """Writes every member of ``o``, in its order, into the object being written."""
        if not o:
            return
        append = self._out.append
        comma = not self._first
        for k, v in o.items():
            append(_key(k, comma))
            comma = True
            _write(v, append)
        self._first = False

    def array(self, items: Sequence[T], write: Encoder[T]) -> None:
        """Writes an array, each item with ``write``."""
        self.begin_array()
        for x in items:
            self.item()
            write(self, x)
        self.end_array()

    def map(self, members: Mapping[str, T], write: Encoder[T]) -> None:
        """Writes an object, each member's value with ``write``, in its order."""
        self.begin_object()
        for k, x in members.items():
            self.key(k)
            write(self, x)
        self.end_object()

    def put(self, name: str, v: T, write: Encoder[T]) -> None:
        """Writes a required member."""
        self.key(name)
        write(self, v)

    # `put_optional` and `put_patch` are overloaded so that mypy checks a union-typed
    # member (`A | B | None`) item by item instead of joining `A | B` to `object`.

    @overload
    def put_optional(self, name: str, v: None, write: Encoder[Any]) -> None: ...
    @overload
    def put_optional(self, name: str, v: T, write: Encoder[T]) -> None: ...
    def put_optional(self, name: str, v: object, write: Encoder[Any]) -> None:
        """Writes an optional member when present (``None`` is omitted)."""
        if v is None:
            return
        self.key(name)
        write(self, v)

    @overload
    def put_patch(self, name: str, v: MISSING, write: Encoder[Any]) -> None: ...
    @overload
    def put_patch(self, name: str, v: None, write: Encoder[Any]) -> None: ...
    @overload
    def put_patch(self, name: str, v: T, write: Encoder[T]) -> None: ...
    def put_patch(self, name: str, v: object, write: Encoder[Any]) -> None:
        """Writes a patch member exactly as set: ``MISSING`` omitted, ``None`` written as
        ``null``, or the value."""
        if v is MISSING:
            return
        self.key(name)
        if v is None:
            self.null()
        else:
            write(self, v)


Encoder: TypeAlias = Callable[[Writer, T], None]
"""Writes a ``T`` in its canonical form."""


def encode_string(w: Writer, v: str) -> None:
    """A string."""
    w.string(v)


def encode_boolean(w: Writer, v: bool) -> None:
    """``true`` or ``false``."""
    w.bool(v)


def encode_number(w: Writer, v: int | float) -> None:
    """Any finite number, integers included."""
    w.number(v)


def encode_bytes(w: Writer, v: _Bytes) -> None:
    """Bytes as canonical base64."""
    w.bytes(v)


def encode_json(w: Writer, v: Json) -> None:
    """Any JSON value, in its order."""
    w.value(v)


def encode_object(w: Writer, v: JsonObject) -> None:
    """A free-form object, in its order."""
    w.begin_object()
    w.members(v)
    w.end_object()


def encode_array(item: Encoder[T]) -> Encoder[Sequence[T]]:
    """An array of ``item``s (hoist the result to module scope: it allocates a closure)."""

    def encode(w: Writer, v: Sequence[T]) -> None:
        w.array(v, item)

    return encode


def write_json(v: Json) -> str:
    """The canonical text of any JSON value."""
    w = Writer()
    w.value(v)
    return w.finish()
