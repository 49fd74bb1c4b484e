"""cargo xtask bench, the Python side: every row of BENCHMARKS.md, ours (the generated
``acp_terminal`` package) against the baselines in the same process, interleaved rounds
after a warm-up, median. Prints ``RESULT {json}`` lines for xtask.

Usage: ``bench.py speed DIR ROUNDS MODELS`` or ``bench.py mem DIR ours|hand MODELS``,
where MODELS is the pydantic module datamodel-code-generator wrote from upstream's v2
schema (xtask writes it and times that generation for the gen row).
"""

from __future__ import annotations

import codecs
import importlib.util
import json
import re
import resource
import sys
import time
from collections.abc import Callable, Iterable
from importlib.metadata import version
from types import ModuleType
from typing import Any

import pybase64

import acp_terminal
from acp_terminal import Limits, TerminalStore, Transcript
from acp_terminal._runtime.base64 import decode_base64

# The store's limits for every row: the hand-written client keeps every byte, so ours
# must too (the default 1 MiB per terminal would drop bytes, and render them into the
# transcript before they go: other work than the baseline's).
KEEP_ALL = Limits(max_retained_bytes=1 << 30)

CHUNK = 4096


def median(v: list[float]) -> float:
    return sorted(v)[len(v) // 2]


def duel(rounds: int, a: Callable[[], object], b: Callable[[], object]) -> tuple[float, float]:
    """Times a and b alternately after one warm-up each; median seconds of each."""
    a()
    b()
    ta: list[float] = []
    tb: list[float] = []
    for _ in range(rounds):
        t = time.perf_counter()
        a()
        ta.append(time.perf_counter() - t)
        t = time.perf_counter()
        b()
        tb.append(time.perf_counter() - t)
    return median(ta), median(tb)


def report(row: str, n: int, times: tuple[float, float], baseline: str) -> None:
    mib = n / (1024 * 1024)
    a, b = times
    print(
        "RESULT " + json.dumps({"row": row, "unit": "MiB/s", "ours": mib / a, "base": mib / b, "baseline": baseline}),
        flush=True,
    )


def load_models(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("upstream_models", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path}: cannot load upstream's generated models")
    module = importlib.util.module_from_spec(spec)
    sys.modules["upstream_models"] = module
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ clients


class Plain:
    """What a hand-written client keeps per terminal."""

    __slots__ = ("command", "cwd", "exit", "out")

    def __init__(self) -> None:
        self.out = bytearray()
        self.command: Any = None
        self.cwd: Any = None
        self.exit: Any = None


def apply_plain(terminals: dict[str, Plain], u: dict[str, Any]) -> tuple[str, bytes, bool] | None:
    """Applies one parsed update to plain state; returns (id, bytes, replaced) for output."""
    kind = u.get("sessionUpdate")
    if kind == "terminal_output_chunk":
        tid = u["terminalId"]
        data = pybase64.b64decode(u["data"], validate=True)
        t = terminals.get(tid)
        if t is None:
            t = terminals[tid] = Plain()
        t.out += data
        return tid, data, False
    if kind == "terminal_update":
        tid = u["terminalId"]
        t = terminals.get(tid)
        if t is None:
            t = terminals[tid] = Plain()
        if "command" in u:
            t.command = u["command"]
        if "cwd" in u:
            t.cwd = u["cwd"]
        if "exitStatus" in u:
            t.exit = u["exitStatus"]
        out = u.get("output")
        if out is not None:
            data = pybase64.b64decode(out["data"], validate=True)
            t.out = bytearray(data)
            return tid, data, True
    return None


def ours(lines: Iterable[str]) -> TerminalStore:
    store = TerminalStore(KEEP_ALL)
    apply = store.apply_notification_text
    for line in lines:
        apply(line)
    return store


def hand(lines: Iterable[str], on_output: Callable[[tuple[str, bytes, bool]], None] | None = None) -> dict[str, Plain]:
    """Hand-written: json.loads into dicts, pybase64, append to a bytearray."""
    terminals: dict[str, Plain] = {}
    loads = json.loads
    for line in lines:
        r = apply_plain(terminals, loads(line)["update"])
        if on_output is not None and r is not None:
            on_output(r)
    return terminals


def _get(obj: Any, *names: str) -> Any:
    for n in names:
        if hasattr(obj, n):
            return getattr(obj, n)
    return None


def make_peer(models: ModuleType) -> Callable[[Iterable[str]], dict[str, Plain]]:
    """Upstream's v2 schema as pydantic models (datamodel-code-generator), plus pybase64."""
    notification = models.UpdateSessionNotification

    def peer(lines: Iterable[str]) -> dict[str, Plain]:
        terminals: dict[str, Plain] = {}
        validate = notification.model_validate_json
        for line in lines:
            u = validate(line).update
            while hasattr(u, "root"):
                u = u.root
            tid = _get(u, "terminalId", "terminal_id")
            if tid is None:
                continue
            tid = _get(tid, "root") or tid
            t = terminals.get(tid)
            if t is None:
                t = terminals[tid] = Plain()
            data = _get(u, "data")
            if data is not None:
                t.out += pybase64.b64decode(data, validate=True)
                continue
            out = _get(u, "output")
            if out is not None:
                t.out = bytearray(pybase64.b64decode(out.data, validate=True))
        return terminals

    return peer


_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[ -/]*[0-~])")


class RegexStream:
    """A regex stripper made stateful: an incremental UTF-8 decoder (code points split
    across chunks survive) and a carried-over tail when the text ends inside a sequence."""

    __slots__ = ("carry", "decoder", "parts")

    def __init__(self) -> None:
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.carry = ""
        self.parts: list[str] = []

    def push(self, data: bytes) -> None:
        s = self.carry + self.decoder.decode(data)
        esc = s.rfind("\x1b")
        if esc >= 0 and len(s) - esc < 512 and _ANSI.match(s, esc) is None:
            self.carry = s[esc:]
            s = s[:esc]
        else:
            self.carry = ""
        self.parts.append(_ANSI.sub("", s))

    def text(self) -> str:
        return "".join(self.parts) + _ANSI.sub("", self.carry + self.decoder.decode(b"", True))


# ------------------------------------------------------------------ modes


def _read(d: str) -> tuple[bytes, list[str], int]:
    """The bench inputs: the PTY bytes, the notifications (one per line) and their size."""
    with open(f"{d}/pty.bin", "rb") as raw:
        pty = raw.read()
    with open(f"{d}/updates.jsonl", encoding="utf-8") as f:
        text = f.read()
    return pty, text.splitlines(), len(text.encode())


def _transcript_rows(suffix: str, rounds: int, pty: bytes, lines: list[str], n: int) -> None:
    """The rows of the transcript (against the regex stripper and the decoder alone), of
    equal work and of strict base64, with the ``Transcript`` and decoder in use (pure or
    native: ``suffix`` names the row)."""
    chunks = [pty[i : i + CHUNK] for i in range(0, len(pty), CHUNK)]

    def transcript() -> str:
        t = Transcript()
        for c in chunks:
            t.push(c)
        return t.text

    def strip() -> str:
        s = RegexStream()
        for c in chunks:
            s.push(c)
        return s.text()

    report(
        f"transcript{suffix}", len(pty), duel(rounds, transcript, strip), "incremental decoder + regex with carry-over"
    )

    if suffix:

        def decode_all() -> str:
            return "".join([c.decode("utf-8", "replace") for c in chunks])

        report(
            f"decode{suffix}",
            len(pty),
            duel(rounds, transcript, decode_all),
            'bytes.decode(errors="replace") over the same chunks',
        )

    def ours_text() -> list[str]:
        return [t.transcript for _, t in ours(lines).terminals()]

    def hand_text() -> list[str]:
        strippers: dict[str, RegexStream] = {}

        def feed(r: tuple[str, bytes, bool]) -> None:
            tid, data, replaced = r
            s = strippers.get(tid)
            if s is None or replaced:
                s = strippers[tid] = RegexStream()
            s.push(data)

        hand(lines, feed)
        return [s.text() for s in strippers.values()]

    report(f"equal{suffix}", n, duel(rounds, ours_text, hand_text), "hand-written ingest + regex stream")

    texts = [pybase64.b64encode_as_string(c) for c in chunks]
    for b64text, c in zip(texts, chunks, strict=True):
        if decode_base64(b64text) != c:
            raise SystemExit("decode_base64 is wrong")

    def strict() -> None:
        for b64text in texts:
            decode_base64(b64text)

    def lenient() -> None:
        b64 = pybase64.b64decode
        for b64text in texts:
            b64(b64text, validate=True)

    report(
        f"base64{suffix}",
        sum(len(x) for x in texts),
        duel(rounds, strict, lenient),
        "pybase64.b64decode(validate=True)",
    )


def speed_native(d: str, rounds: int) -> None:
    """The rows of the optional native path (the ``acp-terminal-native`` wheel installed):
    ``Transcript`` and strict base64 are the Rust ones behind the same API."""
    from acp_terminal._runtime import native

    if not native.NATIVE:
        raise SystemExit("bench.py speed-native: the native path is not in use (is acp-terminal-native installed?)")
    print(f"VERSION acp-terminal-native {version('acp-terminal-native')}", flush=True)
    _transcript_rows("-native", rounds, *_read(d))


def speed(d: str, rounds: int, models_path: str) -> None:
    print(
        f"VERSION python {sys.version.split()[0]}, pydantic {version('pydantic')}, pybase64 {version('pybase64')},"
        f" datamodel-code-generator {version('datamodel-code-generator')}",
        flush=True,
    )
    peer = make_peer(load_models(models_path))
    pty, lines, n = _read(d)

    # Same results first: the comparison is only fair if every side did the work.
    check = ours(lines)
    h = hand(lines)
    p = peer(lines)
    for tid, state in check.terminals():
        want = bytes(h[tid].out)
        if state.output.to_bytes() != want:
            raise SystemExit(f"ours and hand-written differ on {tid}")
        if bytes(p[tid].out) != want:
            raise SystemExit(f"upstream and hand-written differ on {tid}")
    del check, h, p

    report("ingest", n, duel(rounds, lambda: ours(lines), lambda: hand(lines)), "json.loads + pybase64 + bytearray")
    report(
        "peer",
        n,
        duel(rounds, lambda: ours(lines), lambda: peer(lines)),
        "pydantic models of upstream's v2 schema + pybase64",
    )

    _transcript_rows("", rounds, pty, lines, n)


def mem(d: str, which: str) -> None:
    retained = held = 0
    with open(f"{d}/updates.jsonl", encoding="utf-8") as f:
        if which == "ours":
            store = ours(line.rstrip("\n") for line in f)
            for _, state in store.terminals():
                retained += len(state.output)
                cap = getattr(state.output, "capacity", None)
                held += cap() if callable(cap) else cap if isinstance(cap, int) else len(state.output)
        elif which == "hand":
            for plain in hand(f).values():
                retained += len(plain.out)
                held += len(plain.out)
        else:
            raise SystemExit(f"mem: unknown client {which} (ours or hand)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print("RESULT " + json.dumps({"mem": which, "peak_rss": peak, "retained": retained, "held": held}), flush=True)


def main() -> None:
    args = sys.argv[1:]
    if len(args) == 4 and args[0] == "speed":
        speed(args[1], int(args[2]), args[3])
    elif len(args) == 3 and args[0] == "speed-native":
        speed_native(args[1], int(args[2]))
    elif len(args) == 4 and args[0] == "mem":
        mem(args[1], args[2])
    else:
        raise SystemExit("usage: bench.py speed DIR ROUNDS MODELS | speed-native DIR ROUNDS | mem DIR ours|hand MODELS")
    _ = acp_terminal


if __name__ == "__main__":
    main()
