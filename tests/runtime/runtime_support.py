"""Shared test helpers: parse outcomes as (kind, path) pairs."""

from __future__ import annotations

from typing import TypeVar

from runtime.decode import Decoder, decode_text
from runtime.errors import DecodeError, Parsed, ParseError
from runtime.json import Json, parse_json

T = TypeVar("T")


def json_error(text: str) -> tuple[str, str] | None:
    """The error of parsing ``text`` as JSON, as ``(kind, path)``, or ``None`` when it parses."""
    try:
        parse_json(text)
    except DecodeError as e:
        assert e.problem.message, "an error carries a sentence"
        return (e.problem.kind, e.problem.path)
    return None


def json(text: str) -> Json:
    """Parses ``text``, failing the test with the problem when it does not parse."""
    return parse_json(text)


def error_of(text: str, decoder: Decoder[T]) -> tuple[str, str]:
    """``(kind, path)`` of decoding ``text``; fails when it decodes."""
    try:
        decode_text(text, decoder)
    except ParseError as e:
        assert e.message, "an error carries a sentence"
        return (e.kind, e.path)
    raise AssertionError(f"expected an error for {text!r}")


def ok_of(parsed: Parsed[T]) -> tuple[T, list[tuple[str, str]]]:
    """The value and ``(kind, path)`` warnings of a parse result."""
    return parsed.value, [(w.kind, w.path) for w in parsed.warnings]


def ok(text: str, decoder: Decoder[T]) -> tuple[T, list[tuple[str, str]]]:
    """Decodes ``text``: the value and ``(kind, path)`` warnings."""
    return ok_of(decode_text(text, decoder))
