"""Errors and warnings: a kind, an RFC 6901 JSON pointer and a sentence a user can act on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, NoReturn, TypeVar

from .error_kinds import ERROR_KINDS, ErrorKind

__all__ = [
    "ERROR_KINDS",
    "DecodeError",
    "ErrorKind",
    "ParseError",
    "Parsed",
    "Problem",
    "pointer",
    "push_token",
    "raise_error",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Problem:
    """A parse error, or a problem a lenient member absorbed (a warning: the member or
    array item was dropped). A warning has the kind and pointer the error would have had.
    """

    kind: ErrorKind
    """What kind of problem."""
    path: str
    """RFC 6901 pointer into the input: the offending value, or where a missing member
    should be, or the repeated member. ``""`` is the document root."""
    message: str
    """A sentence saying what was expected and what to change."""

    def __str__(self) -> str:
        """``"<kind> at <path>: <message>"`` (``"the document root"`` for the empty pointer)."""
        return _describe(self)


def _describe(problem: Problem) -> str:
    where = "the document root" if problem.path == "" else problem.path
    return f"{problem.kind} at {where}: {problem.message}"


class DecodeError(Exception):
    """Raised inside the runtime and generated decoders; the entry points turn it into
    a ``ParseError``. Never escapes a ``parse_...`` function."""

    problem: Problem

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        self.problem = problem

    def __str__(self) -> str:
        return _describe(self.problem)


class ParseError(ValueError):
    """The text or value is not a valid instance of the type: the first problem, with
    its kind, RFC 6901 pointer and a sentence saying what to change.

    ``str(error)`` reads ``"<kind> at <path>: <message>"`` (``"the document root"`` for
    the empty pointer).
    """

    problem: Problem
    kind: ErrorKind
    path: str
    message: str

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem)
        self.problem = problem
        self.kind = problem.kind
        self.path = problem.path
        self.message = problem.message

    def __str__(self) -> str:
        return _describe(self.problem)

    def __reduce__(self) -> tuple[type[ParseError], tuple[Problem]]:
        return (ParseError, (self.problem,))


@dataclass(frozen=True, slots=True)
class Parsed(Generic[T]):
    """A parsed value and the warnings for what lenient members absorbed, in document order."""

    value: T
    warnings: tuple[Problem, ...] = ()
    """What lenient members absorbed, in document order: at most the parse's ``max_warnings``."""
    warnings_dropped: int = 0
    """How many more problems lenient members absorbed past ``max_warnings``: counted, never built."""


def raise_error(kind: ErrorKind, path: str, message: str) -> NoReturn:
    """Raises a ``DecodeError`` for ``kind`` at ``path``."""
    raise DecodeError(Problem(kind, path, message))


def push_token(path: str, token: str | int) -> str:
    """Appends one RFC 6901 reference token (``~`` -> ``~0``, ``/`` -> ``~1``) to ``path``."""
    if isinstance(token, int):
        return f"{path}/{token}"
    if "~" in token or "/" in token:
        token = token.replace("~", "~0").replace("/", "~1")
    return f"{path}/{token}"


def pointer(tokens: Sequence[str | int]) -> str:
    """Builds an RFC 6901 pointer from reference tokens (member names and array indexes)."""
    path = ""
    for token in tokens:
        path = push_token(path, token)
    return path
