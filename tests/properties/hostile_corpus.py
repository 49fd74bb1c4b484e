"""The hostile corpus (tests/hostile/corpus.json): its entries expanded at size n, run through
the transcript or the store, and the work they cost counted (``test_hostile.py``) or timed
(``hostile_clock.py``, run by ``cargo xtask fuzz`` only)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from acp_terminal import TerminalStore, Transcript
from acp_terminal.registry import StateLimits, session_state

CORPUS: dict[str, Any] = json.loads(
    (Path(__file__).parent.parent / "hostile" / "corpus.json").read_text(encoding="utf-8")
)


def _count(t: int | str, n: int) -> int:
    return n if t == "n" else int(t)


def _piece(p: dict[str, Any], n: int) -> str:
    text: str = p["text"]
    times = _count(p["times"], n)
    sep: str = p.get("separator", "")
    if "{i}" in text:
        return sep.join(text.replace("{i}", str(i)) for i in range(times))
    return sep.join([text] * times)


def expand(e: dict[str, Any], n: int) -> tuple[str, Any]:
    """Entry ``e`` at size ``n``: ``("bytes", (data, chunk, read_each))``, ``("lines", lines)`` or
    ``("state", (lines, limits))``."""
    if e["target"] == "transcript":
        data = "".join(_piece(p, n) for p in e["parts"]).encode()
        return "bytes", (data, max(1, int(e.get("chunk", 4096))), bool(e.get("readEachChunk", False)))
    lines: list[str] = []
    for line in e["lines"]:
        text = "".join(_piece(p, n) for p in line["pieces"])
        times = _count(line["times"], n)
        lines.extend(text.replace("{line}", str(i)) if "{line}" in text else text for i in range(times))
    if e["target"] == "state":
        return "state", (lines, {k: _count(v, n) for k, v in e["limits"].items()})
    return "lines", lines


def size(kind: str, payload: Any) -> int:
    """The input's size in bytes (characters for lines: what the decoder reads)."""
    if kind == "bytes":
        return len(payload[0])
    return sum(len(line) for line in (payload[0] if kind == "state" else payload))


def run(kind: str, payload: Any, renderer: Any = Transcript) -> int:
    """Runs the input and returns the work it cost: for bytes, the transcript's work counter plus
    the length of everything read (on ``renderer``: the ``Transcript`` in use, or the pure-Python
    one); for lines, the text decoded, the store's work counter, and every transcript's work and
    text. Checks that the store still works after the input and that its structures agree."""
    if kind == "bytes":
        data, chunk, read_each = payload
        t = renderer()
        shown = read = 0
        for at in range(0, len(data), chunk):
            t.push(data[at : at + chunk])
            if read_each:
                # What a display does after every chunk: read only what is new.
                read += len(t.finished_since(shown))
                shown = t.finished_length
                read += len(t.current_line)
        read += len(t.text)
        return t.work + read
    if kind == "state":
        lines, limits = payload
        state = session_state("v2", StateLimits.from_json(limits))
        assert state is not None
        decoded = 0
        for line in lines:
            decoded += len(line)
            with contextlib.suppress(ValueError):
                state.apply("SessionUpdate", line)
        # The state still takes a new target afterwards, and its targets still decode.
        state.apply("SessionUpdate", '{"sessionUpdate":"terminal_output_chunk","terminalId":"after","data":"b2s="}')
        assert state.get("terminal", "after") is not None
        state.check_invariants()
        return decoded + state.work + len(json.dumps(state.snapshot()))
    store = TerminalStore()
    decoded = 0
    for line in payload:
        decoded += len(line)
        # A refused line is an error value; the store must go on.
        with contextlib.suppress(ValueError):
            store.apply_text(line)
    store.apply_text('{"sessionUpdate":"terminal_output_chunk","terminalId":"after","data":"b2s="}')
    after = store.terminal("after")
    assert after is not None and after.output.to_bytes() == b"ok"
    store.check_invariants()
    work = decoded + store.work
    for _, state in store.terminals():
        r = state.read_transcript()
        work += r.work + len(r.text)
    return work
