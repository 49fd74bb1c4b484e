"""The hostile corpus (tests/hostile/corpus.json) in Python: every entry survives, and the work it
costs grows linearly (work(8n) / work(n) at most the corpus's ``maxWorkRatio``). Counted, never
timed: ``cargo xtask fuzz`` times the corpus (``hostile_clock.py``) at many times these sizes.
Every transcript entry runs on each renderer in use: the native one (when its wheel is installed,
``Transcript``) and the pure-Python one."""

from __future__ import annotations

from typing import Any

from hostile_corpus import CORPUS, expand, run, size

from acp_terminal import Transcript
from acp_terminal.transcript import PureTranscript

RENDERERS: list[Any] = [Transcript] if Transcript is PureTranscript else [Transcript, PureTranscript]


def test_every_hostile_input_is_survived_in_linear_work() -> None:
    failures = []
    for e in CORPUS["entries"]:
        for renderer in RENDERERS if e["target"] == "transcript" else [Transcript]:
            name = f"{e['name']} ({renderer.__module__})" if e["target"] == "transcript" else e["name"]
            small, large = expand(e, e["n"]), expand(e, 8 * e["n"])
            a, b = run(*small, renderer=renderer), run(*large, renderer=renderer)
            ratio = b / a
            print(f"{name}: n = {e['n']}: work {a}, 8n {b}, ratio {ratio:.2f}")
            if ratio > CORPUS["maxWorkRatio"] or a < size(*small):
                failures.append(f"{name}: work(8n)/work(n) = {ratio:.2f} (n: {a} for {size(*small)}, 8n: {b})")
    assert failures == []
