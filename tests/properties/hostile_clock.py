"""``python hostile_clock.py [SCALE]``: the hostile corpus timed, for ``cargo xtask fuzz`` only
(never a test: a loaded machine slows one measurement). Every entry at SCALE times its size, n
and 8n, best of three: t(8n) / t(n) must stay below the corpus's ``maxRatio`` (linear work gives
about 8, quadratic 64). Every transcript entry runs on each renderer in use: the native one (when
its wheel is installed, ``Transcript``) and the pure-Python one."""

from __future__ import annotations

import sys
import time
from typing import Any

from hostile_corpus import CORPUS, expand, run

from acp_terminal import Transcript
from acp_terminal.transcript import PureTranscript

RENDERERS: list[Any] = [Transcript] if Transcript is PureTranscript else [Transcript, PureTranscript]

MIN_SECONDS = 0.02
"""How long a measurement runs at least: short inputs are run again and again."""


def _per_run(kind: str, payload: Any, renderer: Any) -> float:
    """The time of one run, averaged over enough runs to last ``MIN_SECONDS``."""
    reps = 1
    while True:
        start = time.perf_counter()
        for _ in range(reps):
            run(kind, payload, renderer=renderer)
        total = time.perf_counter() - start
        if total >= MIN_SECONDS or reps >= 1024:
            return total / reps
        reps *= 2


def main(argv: list[str]) -> int:
    scale = int(argv[0]) if argv else 1
    failures = []
    entries = [(e, r) for e in CORPUS["entries"] for r in (RENDERERS if e["target"] == "transcript" else [Transcript])]
    for e, r in entries:
        name = f"{e['name']} ({r.__module__})" if e["target"] == "transcript" else e["name"]
        n = e["n"] * scale
        small, large = expand(e, n), expand(e, 8 * n)
        t1 = min(_per_run(*small, r) for _ in range(3))
        # 8n once; again (best of three) when it looks slow (past half the bound), to rule out noise.
        t8 = _per_run(*large, r)
        if t8 / max(t1, 1e-9) > CORPUS["maxRatio"] / 2:
            t8 = min(t8, *(_per_run(*large, r) for _ in range(2)))
        ratio = t8 / max(t1, 1e-9)
        print(f"python {name}: n = {n}: {t1 * 1000:.1f} ms, 8n {t8 * 1000:.1f} ms, ratio {ratio:.1f}")
        if ratio > CORPUS["maxRatio"]:
            failures.append(f"{name}: t(8n)/t(n) = {ratio:.1f}")
    if failures:
        print("hostile corpus, Python: grows faster than linear:\n" + "\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
