"""The hostile corpus (tests/hostile/corpus.json) in Python: every entry survives, and the work it
costs grows linearly (work(8n) / work(n) at most the corpus's ``maxWorkRatio``). Counted, never
timed: ``cargo xtask fuzz`` times the corpus (``hostile_clock.py``) at many times these sizes."""

from __future__ import annotations

from hostile_corpus import CORPUS, expand, run, size


def test_every_hostile_input_is_survived_in_linear_work() -> None:
    failures = []
    for e in CORPUS["entries"]:
        small, large = expand(e, e["n"]), expand(e, 8 * e["n"])
        a, b = run(*small), run(*large)
        ratio = b / a
        print(f"{e['name']}: n = {e['n']}: work {a}, 8n {b}, ratio {ratio:.2f}")
        if ratio > CORPUS["maxWorkRatio"] or a < size(*small):
            failures.append(f"{e['name']}: work(8n)/work(n) = {ratio:.2f} (n: {a} for {size(*small)}, 8n: {b})")
    assert failures == []
