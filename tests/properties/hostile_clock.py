"""``python hostile_clock.py [SCALE]``: the hostile corpus timed, for ``cargo xtask fuzz`` only
(never a test: a loaded machine slows one measurement). Every entry at SCALE times its size, n
and 8n, best of three: t(8n) / t(n) must stay below the corpus's ``maxRatio`` (linear work gives
about 8, quadratic 64)."""

from __future__ import annotations

import sys
import time
from typing import Any

from hostile_corpus import CORPUS, expand, run

MIN_SECONDS = 0.02
"""How long a measurement runs at least: short inputs are run again and again."""


def _per_run(kind: str, payload: Any) -> float:
    """The time of one run, averaged over enough runs to last ``MIN_SECONDS``."""
    reps = 1
    while True:
        start = time.perf_counter()
        for _ in range(reps):
            run(kind, payload)
        total = time.perf_counter() - start
        if total >= MIN_SECONDS or reps >= 1024:
            return total / reps
        reps *= 2


def main(argv: list[str]) -> int:
    scale = int(argv[0]) if argv else 1
    failures = []
    for e in CORPUS["entries"]:
        n = e["n"] * scale
        small, large = expand(e, n), expand(e, 8 * n)
        t1 = min(_per_run(*small) for _ in range(3))
        # 8n once; again (best of three) when it looks slow (past half the bound), to rule out noise.
        t8 = _per_run(*large)
        if t8 / max(t1, 1e-9) > CORPUS["maxRatio"] / 2:
            t8 = min(t8, *(_per_run(*large) for _ in range(2)))
        ratio = t8 / max(t1, 1e-9)
        print(f"python {e['name']}: n = {n}: {t1 * 1000:.1f} ms, 8n {t8 * 1000:.1f} ms, ratio {ratio:.1f}")
        if ratio > CORPUS["maxRatio"]:
            failures.append(f"{e['name']}: t(8n)/t(n) = {ratio:.1f}")
    if failures:
        print("hostile corpus, Python: grows faster than linear:\n" + "\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
