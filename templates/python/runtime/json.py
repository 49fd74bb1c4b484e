"""JSON text in: strict RFC 8259 parsing that keeps member order and rejects repeated member names."""

from __future__ import annotations

import json as _json
import re
from collections.abc import Iterable
from typing import Final, NoReturn, TypeAlias

from pydantic import JsonValue

from .errors import DecodeError, ErrorKind, Problem, pointer

__all__ = [
    "MAX_DEPTH",
    "Json",
    "JsonObject",
    "check_value",
    "parse_json",
    "to_json",
]

Json: TypeAlias = JsonValue
"""Any JSON value: ``None | bool | int | float | str | list[Json] | dict[str, Json]``.
Dicts keep their input order. Integers stay ``int`` (written as the nearest double, as
JavaScript reads them); other numbers are finite ``float``s. The same alias as
pydantic's ``JsonValue``, so generated models can hold these values directly."""

JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object: its members in input order."""

MAX_DEPTH: Final = 127
"""The deepest nesting of arrays and objects accepted. The Rust binding parses with
``serde_json``, whose recursion limit accepts 127 nested arrays/objects and rejects the
128th; every binding must agree."""

# An integer literal with this many digits or more may be too large for a double
# (the largest double has 309 integer digits); shorter ones never are.
_LONG_INT: Final = 309
_INF: Final = float("inf")
# The smallest integer that rounds to infinity as a double: 2^1024 - 2^970.
_INT_OVERFLOW: Final = 2**1024 - 2**970

# A `\u` escape of a surrogate code unit (it may still be one half of a valid pair).
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
# A surrogate code point: in a decoded string it comes from a lone `\u` escape; raw in
# the text it makes the text ill-formed Unicode.
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


class _NotJson(Exception):
    """Raised by the decoder's hooks: the text is not JSON for a reason `json` accepts."""


class _Repeated(Exception):
    """Raised by the object hook: an object repeats a member name (found in document order later)."""


class _Pairs(list[tuple[str, JsonValue]]):
    """An object's members as parsed, repeats included (the slow duplicate-key pass)."""


def _object(pairs: list[tuple[str, JsonValue]]) -> JsonObject:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _Repeated
    return obj


def _float(s: str) -> float:
    f = float(s)
    if f == _INF or f == -_INF:
        raise _NotJson("a number is too large for a double")
    return f


def _int(s: str) -> int:
    if len(s) < _LONG_INT:
        return int(s)
    if len(s) > 400:  # past 10^400 for certain; also keeps clear of Python's int-string digit limit
        raise _NotJson("a number is too large for a double")
    n = int(s)
    if abs(n) >= _INT_OVERFLOW:
        raise _NotJson("a number is too large for a double")
    return n


def _constant(s: str) -> NoReturn:
    raise _NotJson(f"`{s}` is not a JSON number")


_DECODER: Final = _json.JSONDecoder(
    object_pairs_hook=_object, parse_float=_float, parse_int=_int, parse_constant=_constant
)
# A text shorter than `_LONG_INT`, or without `_LONG_INT` digits in a row, cannot hold an
# integer too large for a double: `int` itself (which `json` calls natively, with no Python
# call per number) is enough there.
_SHORT_DECODER: Final = _json.JSONDecoder(
    object_pairs_hook=_object, parse_float=_float, parse_int=int, parse_constant=_constant
)
_LONG_DIGITS: Final = re.compile(f"[0-9]{{{_LONG_INT}}}")
_PAIRS_DECODER: Final = _json.JSONDecoder(
    object_pairs_hook=_Pairs, parse_float=_float, parse_int=_int, parse_constant=_constant
)


def _invalid(reason: str) -> NoReturn:
    raise DecodeError(Problem("invalid_json", "", f"the text is not valid JSON: {reason}"))


def _decode(decoder: _json.JSONDecoder, text: str) -> JsonValue:
    """Runs ``decoder``; every way `json` rejects the text becomes ``invalid_json``."""
    try:
        return decoder.decode(text)  # type: ignore[no-any-return]
    except _json.JSONDecodeError as e:
        where = "at the end of the text" if e.pos >= len(text) else f"at offset {e.pos}"
        msg = e.msg[:1].lower() + e.msg[1:]
        _invalid(f"{msg} {where}")
    except _NotJson as e:
        _invalid(str(e))
    except RecursionError:
        _invalid(f"arrays and objects are nested more than {MAX_DEPTH} deep")
    except ValueError as e:  # e.g. an integer literal past Python's digit limit
        _invalid(str(e))


def _needs_depth_check(text: str) -> bool:
    """Whether ``text`` has more than ``MAX_DEPTH`` opening brackets (a necessary
    condition for nesting too deep): a count for short texts, a bounded `find` loop
    (memchr speed, one step per bracket up to the limit) for long ones, whose brackets
    are usually few for their length (long strings)."""
    n = len(text)
    if n <= 2 * MAX_DEPTH:
        return False
    if n < 4096:
        return text.count("[") + text.count("{") > MAX_DEPTH
    seen = 0
    for c in "[{":
        i = text.find(c)
        while i >= 0:
            seen += 1
            if seen > MAX_DEPTH:
                return True
            i = text.find(c, i + 1)
    return False


def _too_deep(value: object) -> bool:
    """Whether arrays and objects nest more than ``MAX_DEPTH`` deep in a parsed value."""
    if not isinstance(value, (list, dict)):
        return False
    stack: list[tuple[object, int]] = [(value, 1)]
    pop = stack.pop
    push = stack.append
    while stack:
        v, depth = pop()
        if depth > MAX_DEPTH:
            return True
        items: Iterable[object]
        if isinstance(v, dict):
            items = v.values()
        elif isinstance(v, _Pairs):
            items = [x for _, x in v]
        else:
            items = v  # type: ignore[assignment]
        for x in items:
            if isinstance(x, (list, dict)):
                push((x, depth + 1))
    return False


def _has_surrogate(value: object) -> bool:
    """Whether a string (member names included) in a parsed value holds a surrogate code point."""
    stack: list[object] = [value]
    pop = stack.pop
    push = stack.append
    search = _SURROGATE.search
    while stack:
        v = pop()
        if isinstance(v, str):
            if search(v) is not None:
                return True
        elif isinstance(v, dict):
            for k, x in v.items():
                push(k)
                push(x)
        elif isinstance(v, (list, tuple)):  # a tuple: a member of `_Pairs`
            stack.extend(v)
    return False


def _check(text: str, value: JsonValue) -> None:
    """The checks `json` does not make, on a value it parsed: lone surrogate escapes and depth."""
    backslash = text.find("\\")
    if backslash >= 0 and _SURROGATE_ESCAPE.search(text, backslash) is not None and _has_surrogate(value):
        _invalid("a `\\u` escape is a lone surrogate")
    if _needs_depth_check(text) and _too_deep(value):
        _invalid(f"arrays and objects are nested more than {MAX_DEPTH} deep")


def parse_json(text: str) -> JsonValue:
    """Parses JSON text into a value whose objects keep their member order.

    Raises a ``DecodeError`` with ``invalid_json`` at ``""`` when the text is not JSON
    (also for a lone surrogate, a number too large for a double, or nesting deeper than
    ``MAX_DEPTH``), else ``duplicate_key`` at the first repeated member in document order
    (the second occurrence) when an object repeats a name. Text that is not JSON is
    ``invalid_json`` even when a repeated name comes before the syntax error.
    """
    if not text.isascii() and _SURROGATE.search(text) is not None:
        _invalid("the text contains a lone surrogate")
    try:
        short = len(text) < _LONG_INT or _LONG_DIGITS.search(text) is None
        value = _decode(_SHORT_DECODER if short else _DECODER, text)
    except _Repeated:
        _repeated(text)
    _check(text, value)
    return value


def check_value(value: object) -> None:
    """Applies the rules of JSON text to an already parsed value (from ``json.loads``,
    an SDK, or built by hand), so a value is accepted exactly when its text would be:
    only JSON types (``dict`` with ``str`` keys, ``list``, ``str``, ``int``, ``float``,
    ``bool``, ``None``), no NaN or infinities, no integer too large for a double, no lone
    surrogate in a string or member name, and nesting at most ``MAX_DEPTH`` deep.

    Raises a ``DecodeError`` at the first offending value in document order:
    ``invalid_json`` for what JSON text cannot hold (NaN, infinities, huge numbers, lone
    surrogates, too deep), ``wrong_type`` for a value of a non-JSON type."""
    if not _plain(value, 0):
        _walk(value, [], 0)  # finds and raises the first problem (or accepts a subclass)


def _plain(v: object, depth: int) -> bool:
    """The fast pass of ``check_value``: ``True`` when ``v`` is made of exact JSON types
    and breaks no rule. One Python call per array or object, none per scalar."""
    t = type(v)
    if t is dict:
        if depth >= MAX_DEPTH:
            return False
        items: Iterable[object] = v.values()  # type: ignore[attr-defined]
        for k in v:  # type: ignore[attr-defined]
            if type(k) is not str or (not k.isascii() and _SURROGATE.search(k) is not None):
                return False
    elif t is list:
        if depth >= MAX_DEPTH:
            return False
        items = v  # type: ignore[assignment]
    else:
        items = (v,)
    search = _SURROGATE.search
    for x in items:
        t = type(x)
        if t is str:
            if not x.isascii() and search(x) is not None:  # type: ignore[attr-defined,call-overload]
                return False
        elif t is int:
            if not -_INT_OVERFLOW < x < _INT_OVERFLOW:  # type: ignore[operator]
                return False
        elif t is float:
            if x - x != 0.0:  # type: ignore[operator]  # NaN and the infinities
                return False
        elif x is None or t is bool:
            pass
        elif t is dict or t is list:
            if not _plain(x, depth + 1):
                return False
        else:
            return False
    return True


def _value_problem(kind: ErrorKind, tokens: list[str | int], message: str) -> NoReturn:
    raise DecodeError(Problem(kind, pointer(tokens), message))


def _walk(v: object, tokens: list[str | int], depth: int) -> None:
    """``check_value``'s walk, in document order; ``tokens`` is the pointer to ``v``."""
    if isinstance(v, str):
        if not v.isascii() and _SURROGATE.search(v) is not None:
            _value_problem("invalid_json", tokens, "a string holds a lone surrogate, which JSON text cannot carry")
    elif v is None or isinstance(v, bool):
        pass
    elif isinstance(v, int):
        if abs(v) >= _INT_OVERFLOW:
            _value_problem("invalid_json", tokens, f"the number is too large for a double ({v.bit_length()} bits)")
    elif isinstance(v, float):
        if v != v or v == _INF or v == -_INF:
            shown = "NaN" if v != v else ("Infinity" if v > 0 else "-Infinity")
            _value_problem("invalid_json", tokens, f"{shown} is not a JSON number; send a finite number")
    elif isinstance(v, (dict, list)):
        if depth >= MAX_DEPTH:
            _value_problem("invalid_json", tokens, f"arrays and objects are nested more than {MAX_DEPTH} deep")
        tokens.append(0)
        at = len(tokens) - 1
        if isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    tokens.pop()
                    _value_problem("wrong_type", tokens, f"member names must be strings, got {type(k).__name__} {k!r}")
                if not k.isascii() and _SURROGATE.search(k) is not None:
                    tokens.pop()  # the pointer names the object: it cannot hold the name
                    _value_problem(
                        "invalid_json",
                        tokens,
                        f"the member name {k!r} holds a lone surrogate, which JSON text cannot carry",
                    )
                tokens[at] = k
                _walk(x, tokens, depth + 1)
        else:
            for i, x in enumerate(v):
                tokens[at] = i
                _walk(x, tokens, depth + 1)
        tokens.pop()
    else:
        _value_problem(
            "wrong_type",
            tokens,
            f"expected a JSON value, got a Python {type(v).__name__}; "
            "pass what json.loads returns (dict, list, str, int, float, bool, None)",
        )


def _repeated(text: str) -> NoReturn:
    """The slow path once an object repeats a name: the whole text must still be JSON
    (``invalid_json`` wins), then the first repeat in document order is reported."""
    pairs = _decode(_PAIRS_DECODER, text)
    _check(text, pairs)
    found = _first_repeat(pairs, [])
    if found is None:  # pragma: no cover - the fast pass saw a repeat
        raise AssertionError("no repeated member found")
    name = found[-1]
    raise DecodeError(
        Problem("duplicate_key", pointer(found), f"member `{name}` appears twice in one object; send it once")
    )


def _first_repeat(v: object, tokens: list[str | int]) -> list[str | int] | None:
    """Walks the parsed text in document order: the pointer tokens of the first member
    whose name repeats an earlier member of the same object."""
    if isinstance(v, _Pairs):
        seen: set[str] = set()
        for k, x in v:
            if k in seen:
                return [*tokens, k]
            seen.add(k)
            if isinstance(x, list):
                found = _first_repeat(x, [*tokens, k])
                if found is not None:
                    return found
    elif isinstance(v, list):
        for i, x in enumerate(v):
            if isinstance(x, list):
                found = _first_repeat(x, [*tokens, i])
                if found is not None:
                    return found
    return None


def to_json(value: object) -> JsonValue:
    """Checks that ``value`` is made of JSON types only (tuples become lists; dicts keep
    their order) and returns it as ``Json``; raises ``TypeError`` otherwise (also for
    NaN and the infinities). For building ``_meta`` and such by hand."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if value != value or value in (_INF, -_INF):
            raise TypeError(f"{value} cannot be written as JSON")
        return value
    if isinstance(value, (list, tuple)):
        return [to_json(x) for x in value]
    if isinstance(value, dict):
        out: JsonObject = {}
        for k, x in value.items():
            if not isinstance(k, str):
                raise TypeError(f"member names must be strings, got {type(k).__name__}")
            out[k] = to_json(x)
        return out
    raise TypeError(f"{type(value).__name__} is not a JSON type")
