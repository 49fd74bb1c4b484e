"""``pattern`` checks, the same in the Rust and TypeScript runtimes.

The generator compiles each schema pattern into atoms, and this matcher runs them over
the value's code points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["Atom", "Pattern", "matches_pattern"]


class Atom(NamedTuple):
    """A set of code points repeated ``min`` to ``max`` times (``max`` -1: unbounded)."""

    negated: bool
    ranges: Sequence[tuple[int, int]]
    min: int
    max: int


class Pattern(NamedTuple):
    """A compiled ``pattern``: its source (for messages) and its atoms."""

    source: str
    atoms: Sequence[Atom]


def _accepts(a: Atom, c: int) -> bool:
    inside = any(lo <= c <= hi for lo, hi in a.ranges)
    return inside != a.negated


def _enter(p: Pattern, states: list[tuple[int, int]], i: int, n: int) -> None:
    """Adds state (atom ``i``, ``n`` repeats) and every state reachable from it without reading."""
    if (i, n) in states:
        return
    states.append((i, n))
    if i < len(p.atoms) and n >= p.atoms[i].min:
        _enter(p, states, i + 1, 0)


def matches_pattern(p: Pattern, s: str) -> bool:
    """Whether ``s`` matches ``p``, in time linear in ``s`` (a set of states, no backtracking)."""
    current: list[tuple[int, int]] = []
    _enter(p, current, 0, 0)
    for ch in s:
        c = ord(ch)
        nxt: list[tuple[int, int]] = []
        for i, n in current:
            if i == len(p.atoms):
                continue
            a = p.atoms[i]
            unbounded = a.max < 0
            if (unbounded or n < a.max) and _accepts(a, c):
                # Past ``min``, an unbounded atom's count no longer matters.
                _enter(p, nxt, i, min(n + 1, a.min) if unbounded else n + 1)
        if not nxt:
            return False
        current = nxt
    return any(i == len(p.atoms) for i, _ in current)
