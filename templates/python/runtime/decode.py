"""Checked decoding of parsed JSON (pointer, warnings, lenient/optional/patch members) and the entry points."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn, TypeAlias, TypeVar

from pydantic import MISSING

from .base64 import Base64Error, decode_base64
from .errors import DecodeError, ErrorKind, Parsed, ParseError, Problem, pointer, push_token
from .json import Json, JsonObject, check_value, parse_json
from .limits import DEFAULT_MAX_WARNINGS
from .path import is_absolute_path, why_not_absolute
from .pattern import Pattern, matches_pattern
from .writer import Encoder, Writer, format_number

__all__ = [
    "DEFAULT_MAX_WARNINGS",
    "MAX_SAFE_INTEGER",
    "Cx",
    "Decoder",
    "MemberOptions",
    "decode_absolute_path",
    "decode_array",
    "decode_boolean",
    "decode_bytes",
    "decode_default",
    "decode_input",
    "decode_int32",
    "decode_int64",
    "decode_json",
    "decode_number",
    "decode_object",
    "decode_string",
    "decode_text",
    "decode_uint8",
    "decode_uint16",
    "decode_uint32",
    "decode_uint64",
    "decode_value",
    "describe",
    "encode_text",
    "length_message",
    "objects_only",
    "tag_first",
]

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


_QUIET: Final = DecodeError(Problem("wrong_type", "", ""))
"""What is raised for a problem that will be absorbed past the warning limit: one shared
exception, so such a problem makes no pointer, no message and no exception object."""


def _quiet() -> NoReturn:
    # A fresh traceback each time: the shared exception must not collect them.
    raise _QUIET.with_traceback(None)


def objects_only(decode: F) -> F:
    """Marks a generated decoder whose first step is ``cx.expect_object``: an array past
    its warning limit counts a non-object item as dropped without calling it."""
    decode.acp_shape = True  # type: ignore[attr-defined]
    return decode


def tag_first(tag: str) -> Callable[[F], F]:
    """Marks a generated decoder whose first steps are ``cx.expect_object`` and
    ``cx.read_tag(obj, tag)``: an array past its warning limit counts an item that is not an
    object with a string ``tag`` as dropped without calling it (no exception raised)."""

    def mark(decode: F) -> F:
        decode.acp_shape = tag  # type: ignore[attr-defined]
        return decode

    return mark


def _fits(x: object, shape: str | bool) -> bool:
    """Whether ``x`` can pass the first steps of a decoder marked ``shape``."""
    if not isinstance(x, dict):
        return False
    return shape is True or isinstance(x.get(shape), str)


MAX_SAFE_INTEGER: Final = 9007199254740991
"""The largest integer every binding reads exactly (2^53 - 1); the bound of the 64-bit formats."""


def describe(v: Json) -> str:
    """Describes a JSON value's type for messages."""
    if v is None:
        return "null"
    if v is True or v is False:
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    return "an array" if isinstance(v, list) else "an object"


def _show(x: float | int) -> str:
    """A number as JavaScript's ``String(x)`` shows it in a message."""
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if x != x else ("Infinity" if x > 0 else "-Infinity")
    try:
        return format_number(x)
    except ValueError:
        return str(x)


@dataclass(frozen=True, slots=True)
class MemberOptions:
    """The constraints of one member, checked by the member helpers (``required`` ...).
    Make one constant per combination at module level (no allocation per call)."""

    lenient: bool = False
    """``x-deserialize-default-on-error``: a problem inside the member drops the member and adds a warning."""
    skip_items: bool = False
    """``x-deserialize-skip-invalid-items``: a problem inside an array item drops the item and adds a warning."""
    range: tuple[float, float] | None = None
    """``minimum``/``maximum``: a number member must lie in ``[min, max]`` (else ``out_of_range``)."""
    min_items: int | None = None
    """``minItems``: an array member needs at least this many items (else ``out_of_range`` at the array)."""
    pattern: Pattern | None = None
    """``pattern``: a string member must match it (else ``pattern_mismatch``)."""
    length: tuple[int, float] | None = None
    """``minLength``/``maxLength``: a string member's length in code points (else ``out_of_range``)."""
    null_as_empty: bool = False
    """``x-deserialize-default-on-null`` on a required array member: ``null`` reads as ``[]``."""
    plain: bool = field(init=False, repr=False, compare=False)
    """No check but leniency: the value goes straight to its decoder."""

    def __post_init__(self) -> None:
        plain = (
            self.range is None
            and self.min_items is None
            and self.pattern is None
            and self.length is None
            and not self.null_as_empty
            and not self.skip_items
        )
        object.__setattr__(self, "plain", plain)


class Cx:
    """Where decoding is (an RFC 6901 pointer, built only when a problem needs it) and
    what lenient members absorbed so far. One per parse; generated decoders take it as
    their second argument and report every problem through it."""

    __slots__ = (
        "_absorbing",
        "_skip_items_next",
        "_tokens",
        "max_warnings",
        "problems_built",
        "warnings",
        "warnings_dropped",
    )

    def __init__(self, max_warnings: int | None = DEFAULT_MAX_WARNINGS) -> None:
        self._tokens: list[str | int] = []
        """Reference tokens from the root to the value being decoded."""
        self.warnings: list[Problem] = []
        """Problems lenient members and skipped items absorbed, in document order (at most
        ``max_warnings``)."""
        self.max_warnings: int = _max_warnings(max_warnings)
        """How many warnings to keep; past it an absorbed problem is only counted and
        nothing is built for it (no pointer, message or exception)."""
        self.warnings_dropped = 0
        """Absorbed problems not kept, past ``max_warnings``."""
        self.problems_built = 0
        """How many problems had their pointer and message built: the work counter the tests read."""
        self._skip_items_next = False
        """Set by a member with ``skip_items``; taken by the next ``array`` call."""
        self._absorbing = False
        """A problem raised now is absorbed (a lenient member or a skipped item is being read)."""

    @property
    def silent(self) -> bool:
        """Whether a problem raised now would be absorbed past the warning limit (then
        nothing is built for it)."""
        return self._absorbing and len(self.warnings) >= self.max_warnings

    def _keep(self, e: DecodeError) -> None:
        """Keeps an absorbed problem, or only counts it past the limit."""
        if e is _QUIET or len(self.warnings) >= self.max_warnings:
            self.warnings_dropped += 1
        else:
            self.warnings.append(e.problem)

    @property
    def path(self) -> str:
        """The current JSON pointer (``""`` at the root)."""
        return pointer(self._tokens)

    def at(self, token: str, fn: Callable[[Cx], T]) -> T:
        """Runs ``fn`` one member deeper."""
        tokens = self._tokens
        depth = len(tokens)
        tokens.append(token)
        try:
            return fn(self)
        finally:
            del tokens[depth:]

    def index(self, i: int, fn: Callable[[Cx], T]) -> T:
        """Runs ``fn`` one array item deeper."""
        tokens = self._tokens
        depth = len(tokens)
        tokens.append(i)
        try:
            return fn(self)
        finally:
            del tokens[depth:]

    # --- problems ---

    def problem(self, kind: ErrorKind, message: str) -> Problem:
        """A problem at the current pointer."""
        self.problems_built += 1
        return Problem(kind, pointer(self._tokens), message)

    def fail(self, kind: ErrorKind, message: str) -> NoReturn:
        """Fails with ``kind`` at the current pointer."""
        if self._absorbing and len(self.warnings) >= self.max_warnings:
            _quiet()
        self.problems_built += 1
        raise DecodeError(Problem(kind, pointer(self._tokens), message))

    def wrong_type(self, expected: str, got: Json) -> NoReturn:
        """Fails with ``wrong_type`` at the current pointer."""
        if self._absorbing and len(self.warnings) >= self.max_warnings:
            _quiet()
        self.fail("wrong_type", f"expected {expected}, got {describe(got)}")

    def missing(self, name: str) -> NoReturn:
        """Fails with ``missing_field`` for member ``name`` of the object at the current pointer."""
        if self._absorbing and len(self.warnings) >= self.max_warnings:
            _quiet()
        self.problems_built += 1
        raise DecodeError(
            Problem(
                "missing_field",
                push_token(pointer(self._tokens), name),
                f"required member `{name}` is missing; add it",
            )
        )

    def missing_one_of(self, names: Sequence[str]) -> NoReturn:
        """Fails with ``missing_field`` for an object that has none of the members that
        select a shape union's alternatives; the pointer names the first of them."""
        if self._absorbing and len(self.warnings) >= self.max_warnings:
            _quiet()
        self.problems_built += 1
        listed = " or ".join(f"`{n}`" for n in names)
        raise DecodeError(
            Problem(
                "missing_field",
                push_token(pointer(self._tokens), names[0] if names else ""),
                f"the object needs one of the members {listed}; add the one that fits",
            )
        )

    def unknown_value(self, value: str, type_name: str, known: Sequence[str]) -> NoReturn:
        """Fails with ``unknown_variant`` at the current pointer: a closed enum got ``value``."""
        if self._absorbing and len(self.warnings) >= self.max_warnings:
            _quiet()
        self.fail("unknown_variant", f"`{value}` is not a known {type_name} value; use one of: {', '.join(known)}")

    def unknown_tag(self, tag_name: str, tag: str, type_name: str, known: Sequence[str]) -> NoReturn:
        """Fails with ``unknown_variant`` at the tag member: a closed union got the tag ``tag``."""
        if self._absorbing and len(self.warnings) >= self.max_warnings:
            _quiet()
        self.problems_built += 1
        raise DecodeError(
            Problem(
                "unknown_variant",
                push_token(pointer(self._tokens), tag_name),
                f"`{tag}` is not a known {type_name} variant; use one of: {', '.join(known)}",
            )
        )

    def warn(self, p: Problem) -> None:
        """Records an absorbed problem (only counted past the warning limit)."""
        if len(self.warnings) < self.max_warnings:
            self.warnings.append(p)
        else:
            self.warnings_dropped += 1

    def optional_tag(self, obj: JsonObject, tag_name: str, lenient: bool) -> str | None:
        """Reads an optional tag (a tagged object whose tag may be absent): absent or
        ``null`` is ``None``; a tag that is not a string is ``wrong_type``, or, when
        ``lenient``, dropped with that warning."""
        tag = obj.get(tag_name)
        if tag is None or isinstance(tag, str):
            return tag
        problem = Problem(
            "wrong_type", push_token(pointer(self._tokens), tag_name), f"expected a string tag, got {describe(tag)}"
        )
        if not lenient:
            raise DecodeError(problem)
        self.warnings.append(problem)
        return None

    def attempt(self, fn: Callable[[Cx], T]) -> T | None:
        """Runs ``fn`` on its own, for a union that falls back to raw JSON when a branch
        rejects the value: its result (with the warnings it recorded) when it records no
        problem, else ``None`` with nothing recorded. ``fn`` never returns ``None`` itself."""
        depth = len(self._tokens)
        warnings = len(self.warnings)
        try:
            return fn(self)
        except DecodeError as e:
            if e.problem.kind == "invalid_json":
                raise
            del self._tokens[depth:]
            self._skip_items_next = False
            del self.warnings[warnings:]
            return None

    def forbidden(self, name: str, owner: str) -> NoReturn:
        """Fails with ``forbidden_member`` for member ``name`` of the object at the current pointer."""
        raise DecodeError(
            Problem(
                "forbidden_member",
                push_token(pointer(self._tokens), name),
                f"member `{name}` is not allowed in {owner}; remove it",
            )
        )

    def length(self, s: str, least: int, most: float) -> str:
        """Fails with ``out_of_range`` when ``s`` is not ``least`` to ``most`` code points long."""
        n = len(s)
        if n < least or n > most:
            self.fail("out_of_range", length_message(n, least, most))
        return s

    def absorb(self, fn: Callable[[Cx], T]) -> T | None:
        """Runs ``fn``; when it fails with a decoding problem, records the problem as a
        warning and returns ``None`` (the lenient value is dropped)."""
        depth = len(self._tokens)
        absorbing = self._absorbing
        self._absorbing = True
        try:
            return fn(self)
        except DecodeError as e:
            del self._tokens[depth:]
            self._skip_items_next = False
            self._keep(e)
            return None
        finally:
            self._absorbing = absorbing

    # --- values ---

    def expect_object(self, v: Json) -> JsonObject:
        """Expects an object."""
        if isinstance(v, dict):
            return v
        if self._absorbing and len(self.warnings) >= self.max_warnings:
            _quiet()
        self.wrong_type("an object", v)

    def map(self, v: Json, value: Decoder[T]) -> dict[str, T]:
        """Expects an object whose member values are all decoded by ``value``, in input order."""
        obj = self.expect_object(v)
        out: dict[str, T] = {}
        tokens = self._tokens
        depth = len(tokens)
        tokens.append("")
        try:
            for k, x in obj.items():
                tokens[depth] = k
                out[k] = value(x, self)
        finally:
            del tokens[depth:]
        return out

    def read_tag(self, obj: JsonObject, tag_name: str) -> str:
        """Reads the string tag of a tagged union: ``missing_field`` when absent,
        ``wrong_type`` when not a string."""
        tag = obj.get(tag_name, MISSING)
        if isinstance(tag, str):
            return tag
        if tag is MISSING:
            self.missing(tag_name)
        if self._absorbing and len(self.warnings) >= self.max_warnings:
            _quiet()
        self.problems_built += 1
        raise DecodeError(
            Problem(
                "wrong_type", push_token(pointer(self._tokens), tag_name), f"expected a string tag, got {describe(tag)}"
            )
        )

    def str_(self, v: Json) -> str:
        """Expects a string."""
        if isinstance(v, str):
            return v
        self.wrong_type("a string", v)

    def bool_(self, v: Json) -> bool:
        """Expects a boolean."""
        if v is True or v is False:
            return v
        self.wrong_type("a boolean", v)

    def num(self, v: Json) -> float:
        """Expects a number (``format: double``); an integer becomes the nearest double."""
        t = type(v)
        if t is float:
            return v  # type: ignore[return-value]
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            try:
                return float(v)
            except OverflowError:  # an `int` built by hand, past the largest double
                self.fail("out_of_range", f"{v} is too large for a double")
        self.wrong_type("a number", v)

    def int_(self, v: Json, lo: int, hi: int, what: str) -> int:
        """Expects a whole number in ``[lo, hi]``: ``3``, ``3.0`` and ``3e0`` are all 3
        (returned as ``int``). A fraction is ``wrong_type``; a whole number outside the
        range is ``out_of_range``. ``bool`` is not a number. ``what`` names the format for
        messages ("a whole number from 0 to 4294967295")."""
        if type(v) is int:
            x: int = v
        elif isinstance(v, float):
            if not v.is_integer():
                self.fail("wrong_type", f"expected {what}, got {_show(v)}, which has a fraction")
            if not lo <= v <= hi:
                self.fail("out_of_range", f"{_show(v)} is outside the range of {what} ({lo} to {hi})")
            return int(v)
        elif isinstance(v, int) and not isinstance(v, bool):
            x = int(v)
        else:
            self.wrong_type(what, v)
        if x < lo or x > hi:
            self.fail("out_of_range", f"{_show(x)} is outside the range of {what} ({lo} to {hi})")
        return x

    def uint8(self, v: Json) -> int:
        """``format: uint8``."""
        return self.int_(v, 0, 255, "a whole number from 0 to 255")

    def uint16(self, v: Json) -> int:
        """``format: uint16``."""
        return self.int_(v, 0, 65535, "a whole number from 0 to 65535")

    def uint32(self, v: Json) -> int:
        """``format: uint32``."""
        return self.int_(v, 0, 4294967295, "a whole number from 0 to 4294967295")

    def int32(self, v: Json) -> int:
        """``format: int32``."""
        return self.int_(v, -2147483648, 2147483647, "a whole number from -2147483648 to 2147483647")

    def uint64(self, v: Json) -> int:
        """``format: uint64``, limited to the safe range."""
        return self.int_(v, 0, MAX_SAFE_INTEGER, "a whole number from 0 to 9007199254740991")

    def int64(self, v: Json) -> int:
        """``format: int64``, limited to the safe range."""
        return self.int_(
            v, -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER, "a whole number from -9007199254740991 to 9007199254740991"
        )

    def bytes_(self, v: Json) -> bytes:
        """Expects strict canonical base64 (``format: byte``) and decodes it:
        ``invalid_base64`` otherwise."""
        if not isinstance(v, str):
            self.wrong_type("a base64 string", v)
        try:
            return decode_base64(v)
        except Base64Error as e:
            self.fail("invalid_base64", f"not strict base64: {e}")

    def absolute_path(self, v: Json) -> str:
        """Expects an absolute path string (``AbsolutePath``): ``relative_path`` otherwise."""
        if not isinstance(v, str):
            self.wrong_type("an absolute path string", v)
        if is_absolute_path(v):
            return v
        self.fail("relative_path", why_not_absolute(v))

    def array(self, v: Json, item: Decoder[T], skip_invalid_items: bool | None = None) -> list[T]:
        """Expects an array and decodes each item with ``item``. With
        ``skip_invalid_items`` (or when the member being decoded has ``skip_items``), an
        item with a problem is dropped and the problem becomes a warning."""
        skip = self._skip_items_next if skip_invalid_items is None else skip_invalid_items
        self._skip_items_next = False
        if not isinstance(v, list):
            self.wrong_type("an array", v)
        tokens = self._tokens
        depth = len(tokens)
        tokens.append(0)
        out: list[T] = []
        absorbing = self._absorbing
        try:
            if not skip:
                append = out.append
                for i, x in enumerate(v):
                    tokens[depth] = i
                    append(item(x, self))
                return out
            self._absorbing = True
            shape: str | bool = getattr(item, "acp_shape", False)
            warnings = self.warnings
            limit = self.max_warnings
            items = enumerate(v)
            for i, x in items:
                tokens[depth] = i
                try:
                    out.append(item(x, self))
                except DecodeError as e:
                    del tokens[depth + 1 :]
                    self._skip_items_next = False
                    self._keep(e)
                    if shape and len(warnings) >= limit:
                        break
            # Past the warning limit: an item the decoder would reject at its first step
            # is dropped and counted without a call, with nothing built.
            for i, x in items:
                if type(x) is dict:
                    if shape is not True and not isinstance(x.get(shape), str):  # type: ignore[arg-type]
                        self.warnings_dropped += 1
                        continue
                elif not _fits(x, shape):
                    self.warnings_dropped += 1
                    continue
                tokens[depth] = i
                try:
                    out.append(item(x, self))
                except DecodeError as e:
                    del tokens[depth + 1 :]
                    self._skip_items_next = False
                    self._keep(e)
            return out
        finally:
            del tokens[depth:]
            self._absorbing = absorbing

    # --- members ---

    def required(self, name: str, v: Json, decode: Decoder[T], opts: MemberOptions | None = None) -> T:
        """Decodes a required member's value (``null`` is ``wrong_type`` unless the type
        allows it). Never lenient."""
        tokens = self._tokens
        tokens.append(name)
        try:
            if opts is None:
                return decode(v, self)
            return self._checked(v, decode, opts)
        finally:
            tokens.pop()

    def optional(self, name: str, v: Json, decode: Decoder[T], opts: MemberOptions | None = None) -> T | None:
        """Decodes an optional member's value: ``null`` is the same as omitted (``None``);
        a lenient member that fails is dropped (``None``) with a warning."""
        if v is None:
            return None
        tokens = self._tokens
        tokens.append(name)
        try:
            if opts is None:
                return decode(v, self)
            if not opts.lenient:
                return self._checked(v, decode, opts)
            absorbing = self._absorbing
            self._absorbing = True
            try:
                return decode(v, self) if opts.plain else self._checked(v, decode, opts)
            except DecodeError as e:
                self._keep(e)
                return None
            finally:
                self._absorbing = absorbing
        finally:
            tokens.pop()

    def maybe(self, name: str, v: Json, decode: Decoder[T], opts: MemberOptions | None = None) -> T | None:
        """Decodes an optional member that upstream declares non-nullable but not
        required: ``null`` is still the same as omitted, as for every optional member."""
        return self.optional(name, v, decode, opts)

    def patch(self, name: str, v: Json, decode: Decoder[T], opts: MemberOptions | None = None) -> T | MISSING | None:
        """Decodes a patch member's value: ``null`` clears (``None``); a lenient member
        that fails is dropped (``MISSING``, "unchanged") with a warning. An omitted member
        is ``MISSING`` too (the generated decoder's default)."""
        if v is None:
            return None
        tokens = self._tokens
        tokens.append(name)
        try:
            if opts is None:
                return decode(v, self)
            if not opts.lenient:
                return self._checked(v, decode, opts)
            absorbing = self._absorbing
            self._absorbing = True
            try:
                return decode(v, self) if opts.plain else self._checked(v, decode, opts)
            except DecodeError as e:
                self._keep(e)
                return MISSING
            finally:
                self._absorbing = absorbing
        finally:
            tokens.pop()

    def _checked(self, v: Json, decode: Decoder[T], opts: MemberOptions) -> T:
        if opts.null_as_empty and v is None:
            v = []
        r = opts.range
        if r is not None:
            t = type(v)
            if t is int or t is float:
                x = float(v)  # type: ignore[arg-type]
                if x < r[0] or x > r[1]:
                    self.fail("out_of_range", f"{_show(x)} is outside the allowed range {_show(r[0])} to {_show(r[1])}")
        min_items = opts.min_items
        if min_items is not None and isinstance(v, list) and len(v) < min_items:
            self.fail("out_of_range", f"the array has {len(v)} items; at least {min_items} required")
        pattern = opts.pattern
        length = opts.length
        if pattern is not None or length is not None:
            out = decode(v, self)
            if isinstance(out, str) and pattern is not None and not matches_pattern(pattern, out):
                self.fail("pattern_mismatch", f"the string does not match the pattern `{pattern.source}`")
            if isinstance(out, str) and length is not None:
                self.length(out, length[0], length[1])
            return out
        if not opts.skip_items:
            return decode(v, self)
        self._skip_items_next = True
        warnings = len(self.warnings)
        try:
            out = decode(v, self)
        finally:
            self._skip_items_next = False
        # ``minItems`` counts the items kept, so a written array always reads back; when
        # too few are left, the skipped items' warnings do not count.
        if min_items is not None and isinstance(out, list) and len(out) < min_items:
            del self.warnings[warnings:]
            self.fail("out_of_range", f"the array has {len(out)} items; at least {min_items} required")
        return out


def length_message(n: int, least: int, most: float) -> str:
    """The ``out_of_range`` message of a string ``n`` code points long, outside ``[least, most]``."""
    if math.isinf(most):
        return f"the string has {n} characters; at least {least} required"
    return f"the string has {n} characters; {least} to {int(most)} allowed"


Decoder: TypeAlias = Callable[[Json, Cx], T]
"""Checks a JSON value and builds a ``T``, reporting problems at ``cx``'s pointer."""

# --- ready-made decoders, for passing to `array` and the member helpers ---


def decode_string(v: Json, cx: Cx) -> str:
    """Any string."""
    if type(v) is str:
        return v
    return cx.str_(v)


def decode_boolean(v: Json, cx: Cx) -> bool:
    """``true`` or ``false``."""
    if v is True or v is False:
        return v
    cx.wrong_type("a boolean", v)


def decode_number(v: Json, cx: Cx) -> float:
    """Any number (``format: double``), as a ``float``."""
    return cx.num(v)


def decode_uint8(v: Json, cx: Cx) -> int:
    """``format: uint8``."""
    if type(v) is int and 0 <= v <= 255:
        return v
    return cx.uint8(v)


def decode_uint16(v: Json, cx: Cx) -> int:
    """``format: uint16``."""
    if type(v) is int and 0 <= v <= 65535:
        return v
    return cx.uint16(v)


def decode_uint32(v: Json, cx: Cx) -> int:
    """``format: uint32``."""
    if type(v) is int and 0 <= v <= 4294967295:
        return v
    return cx.uint32(v)


def decode_int32(v: Json, cx: Cx) -> int:
    """``format: int32``."""
    if type(v) is int and -2147483648 <= v <= 2147483647:
        return v
    return cx.int32(v)


def decode_uint64(v: Json, cx: Cx) -> int:
    """``format: uint64`` (safe range)."""
    if type(v) is int and 0 <= v <= MAX_SAFE_INTEGER:
        return v
    return cx.uint64(v)


def decode_int64(v: Json, cx: Cx) -> int:
    """``format: int64`` (safe range)."""
    if type(v) is int and -MAX_SAFE_INTEGER <= v <= MAX_SAFE_INTEGER:
        return v
    return cx.int64(v)


def decode_bytes(v: Json, cx: Cx) -> bytes:
    """Strict base64 to bytes (``format: byte``)."""
    return cx.bytes_(v)


def decode_absolute_path(v: Json, cx: Cx) -> str:
    """An absolute path (``AbsolutePath``)."""
    if type(v) is str and is_absolute_path(v):
        return v
    return cx.absolute_path(v)


def decode_json(v: Json, cx: Cx) -> Json:
    """Free JSON (``rawInput``, ``rawOutput``): any value, kept as is."""
    return v


def decode_object(v: Json, cx: Cx) -> JsonObject:
    """A free-form object (``_meta``): any object, kept as is."""
    if type(v) is dict:
        return v
    return cx.expect_object(v)


def decode_array(item: Decoder[T]) -> Decoder[list[T]]:
    """An array of ``item``s (hoist the result to module scope: it allocates a closure)."""

    def decode(v: Json, cx: Cx) -> list[T]:
        return cx.array(v, item)

    return decode


# --- entry points ---


def _max_warnings(n: int | None) -> int:
    """A warning limit: a whole number from 0 up, or ``None`` for all of them."""
    if n is None:
        return sys.maxsize
    if type(n) is not int or n < 0:
        raise ValueError(f"max_warnings must be a whole number from 0 up, or None for all; got {n!r}")
    return n


def decode_text(text: str, decode: Decoder[T], *, max_warnings: int | None = DEFAULT_MAX_WARNINGS) -> Parsed[T]:
    """Parses JSON text as a ``T``: the value and the warnings for what lenient members
    absorbed (at most ``max_warnings``; ``None`` keeps all; the rest are counted in
    ``warnings_dropped``). Raises ``ParseError`` with the first problem (``invalid_json``,
    ``duplicate_key``, then type problems in input order)."""
    limit = _max_warnings(max_warnings)
    try:
        value = parse_json(text)
    except DecodeError as e:
        raise ParseError(e.problem) from None
    return _decode_parsed(value, decode, limit)


def decode_input(data: str | Json, decode: Decoder[T], *, max_warnings: int | None = DEFAULT_MAX_WARNINGS) -> Parsed[T]:
    """``decode_text`` for a ``str`` (JSON text), ``decode_value`` for anything else (an
    already parsed value): what every generated ``parse_<name>`` does."""
    if isinstance(data, str):
        return decode_text(data, decode, max_warnings=max_warnings)
    return decode_value(data, decode, max_warnings=max_warnings)


def decode_default(text: str, decode: Decoder[T]) -> T | None:
    """A schema ``default`` (JSON text) as a ``T``, or ``None`` when it does not decode (the
    generator checks every default against its type, so that does not happen)."""
    try:
        return decode_text(text, decode).value
    except ParseError:
        return None


def decode_value(value: Json, decode: Decoder[T], *, max_warnings: int | None = DEFAULT_MAX_WARNINGS) -> Parsed[T]:
    """Checks an already parsed JSON value as a ``T``. The rules of JSON text apply
    first (``check_value``: JSON types only, no NaN or infinities, no number too large
    for a double, no lone surrogates, nesting at most ``MAX_DEPTH`` deep), so a value is
    accepted exactly when its text would be; only repeated member names can no longer be
    seen (use ``decode_text`` on untrusted text). Warnings as for ``decode_text``.
    Raises ``ParseError``."""
    limit = _max_warnings(max_warnings)
    try:
        check_value(value)
    except DecodeError as e:
        raise ParseError(e.problem) from None
    return _decode_parsed(value, decode, limit)


def _decode_parsed(value: Json, decode: Decoder[T], max_warnings: int) -> Parsed[T]:
    cx = Cx(max_warnings)
    try:
        out = decode(value, cx)
    except DecodeError as e:
        raise ParseError(e.problem) from None
    return Parsed(out, tuple(cx.warnings), cx.warnings_dropped)


def encode_text(value: T, encode: Encoder[T]) -> str:
    """Writes the canonical JSON text of ``value``."""
    w = Writer()
    encode(w, value)
    return w.finish()
