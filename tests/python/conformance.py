"""The Python conformance testee: ``python conformance.py [--emit FILE] PATH...``.

Prints one line per failed case and ends with ``N passed, N failed``; with ``--emit``,
writes the canonical output of every passing decode case as JSON lines.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

from acp_terminal import ParseError, Transcript
from acp_terminal._runtime.json import parse_json
from acp_terminal._runtime.writer import Writer
from acp_terminal.adapters import Bridge, convert, ingest_v1
from acp_terminal.registry import CODECS
from acp_terminal.store import Counters, Limits, StoreEvent, TerminalEvicted, TerminalStore


class CaseFailure(Exception):
    """Why a case failed."""


def write_json(value: Any) -> str:
    w = Writer()
    w.value(value)
    return w.finish()


def vector_files(paths: list[str]) -> list[str]:
    out: list[str] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(str(f) for f in p.rglob("*.json") if f.is_file())
        else:
            out.append(str(p))
    return sorted(out)


def decode_case(c: dict[str, Any]) -> str | None:
    schema = c.get("schema", "v2")
    type_name = c.get("type")
    if not isinstance(type_name, str):
        raise CaseFailure("the case has no `type`")
    codec = CODECS.get(schema, {}).get(type_name)
    if codec is None:
        raise CaseFailure(f"`{type_name}` is not a definition of schema {schema!r}")
    parse, serialize = codec
    if isinstance(c.get("inputText"), str):
        text = c["inputText"]
    elif "input" in c:
        text = write_json(c["input"])
    else:
        raise CaseFailure("the case has neither `input` nor `inputText`")
    expect = c.get("expect", {})
    if not isinstance(expect, dict):
        raise CaseFailure("`expect` must be an object")
    want_error = expect.get("error")
    try:
        parsed = parse(text)
    except ParseError as e:
        if want_error is None:
            raise CaseFailure(f"unexpected error {e.kind} at {e.path!r}: {e.message}") from e
        if (e.kind, e.path) != (want_error.get("kind"), want_error.get("path")):
            raise CaseFailure(f"expected error {want_error.get('kind')} at {want_error.get('path')!r}, got {e.kind} at {e.path!r} ({e.message})") from e
        return f"error {e.kind} {e.path}"
    out = serialize(parsed.value)
    if want_error is not None:
        raise CaseFailure(f"expected error {want_error}, got output {out}")
    want = expect["output"] if "output" in expect else c.get("input")
    if want is None and "input" not in c and "output" not in expect:
        raise CaseFailure("no expected output (give `expect.output` with `inputText`)")
    want_text = write_json(want)
    if out != want_text:
        raise CaseFailure(f"output differs\n    expected {want_text}\n    got      {out}")
    got_w = [[w.kind, w.path] for w in parsed.warnings]
    want_w = [[w.get("kind"), w.get("path")] for w in expect.get("warnings", [])]
    if got_w != want_w:
        raise CaseFailure(f"warnings differ: expected {want_w}, got {got_w}")
    again = serialize(parse(out).value)
    if again != out:
        raise CaseFailure(f"not a fixpoint: {out} -> {again}")
    return out


def transcript_case(c: dict[str, Any]) -> str:
    chunks = c.get("chunks")
    want = c.get("expect", {}).get("text")
    if not isinstance(chunks, list) or not isinstance(want, str):
        raise CaseFailure("the case needs `chunks` and `expect.text`")
    t = Transcript()
    for chunk in chunks:
        t.push(base64.b64decode(chunk, validate=True))
    if t.text != want:
        raise CaseFailure(f"transcript differs\n    expected {want!r}\n    got      {t.text!r}")
    return t.text


def canonical_sorted(value: Any) -> str:
    """The canonical text of ``value`` with every object's members sorted by code point:
    what the runners emit for store views."""

    def sort(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: sort(x[k]) for k in sorted(x)}
        if isinstance(x, list):
            return [sort(v) for v in x]
        return x

    return write_json(sort(value))


def event_view(e: StoreEvent) -> dict[str, Any]:
    """A store event as replay cases list it."""
    if isinstance(e, TerminalEvicted):
        return {"kind": "evicted", "terminalId": e.terminal_id, "exited": e.exited}
    return {"kind": "restarted", "terminalId": e.terminal_id}


def store_view(store: TerminalStore) -> dict[str, Any]:
    """The view of a store's terminals that replay cases compare; ``size`` only when known, ``droppedBytes`` only
    when a byte was dropped, ``wrappedLines`` only when a line wrapped, ``droppedLines`` and ``droppedChars`` only
    when a line was left out."""
    out: dict[str, Any] = {}
    for terminal_id, t in store.terminals():
        e = t.exit_status
        r = t.read_transcript()
        view: dict[str, Any] = {
            "command": t.command,
            "cwd": t.cwd,
            "output": base64.b64encode(t.output.to_bytes()).decode("ascii"),
            "exitStatus": None if e is None else {"exitCode": e.exit_code, "signal": e.signal},
            "transcript": r.text,
            "toolCallIds": t.sorted_tool_calls(),
        }
        if t.size is not None:
            view["size"] = {"cols": t.size.cols, "rows": t.size.rows}
        if t.capabilities is not None:
            view["capabilities"] = {"cancel": t.can_cancel}
        if t.dropped_bytes > 0:
            view["droppedBytes"] = t.dropped_bytes
        if r.wrapped_lines > 0:
            view["wrappedLines"] = r.wrapped_lines
        if r.dropped_lines > 0:
            view["droppedLines"] = r.dropped_lines
            view["droppedChars"] = r.dropped_chars
        if t.restarted:
            view["restarted"] = True
        out[terminal_id] = view
    return out


def store_counters(store: TerminalStore) -> dict[str, int] | None:
    """The store's counters as replay cases compare them: ``None`` when all are zero; else
    ``terminalsRefused`` and ``warningsDropped``, and each of ``terminalsEvicted``,
    ``bytesEvicted``, ``eventsDropped`` above zero."""
    c = store.counters
    if c == Counters():
        return None
    more = {"terminalsEvicted": c.terminals_evicted, "bytesEvicted": c.bytes_evicted, "eventsDropped": c.events_dropped}
    return {
        "terminalsRefused": c.terminals_refused,
        "warningsDropped": c.warnings_dropped,
        **{name: n for name, n in more.items() if n > 0},
    }


def replay_limits(c: dict[str, Any]) -> Limits:
    """The limits of a replay case (``limits``, members optional)."""
    given = c.get("limits", {})
    names = {
        "maxTerminals": "max_terminals",
        "maxRetainedBytes": "max_retained_bytes",
        "maxTotalBytes": "max_total_bytes",
        "maxWarnings": "max_warnings",
        "maxLineLength": "max_line_length",
        "maxTextLength": "max_text_length",
    }
    values: dict[str, int] = {}
    for wire, name in names.items():
        v = given.get(wire)
        if v is None:
            continue
        if type(v) is not int or v < 0:
            raise CaseFailure(f"limits.{wire} is not a whole number")
        values[name] = v
    return dataclasses.replace(Limits(), **values)


def replay_case(c: dict[str, Any]) -> str:
    updates = c.get("updates")
    notifications = c.get("notifications")
    expect = c.get("expect")
    member = "updates" if updates is not None else "notifications"
    items = updates if updates is not None else notifications
    if not isinstance(items, list) or (updates is not None and notifications is not None) or not isinstance(expect, dict):
        raise CaseFailure("the case needs one `updates` or `notifications` array, and `expect`")
    store = TerminalStore(replay_limits(c))
    error: tuple[str, str] | None = None
    events: list[dict[str, Any]] = []
    for i, u in enumerate(items):
        text = write_json(u)
        try:
            if member == "updates":
                store.apply_text(text)
            else:
                store.apply_notification_text(text)
        except ParseError as e:
            error = (e.kind, f"/{member}/{i}{e.path}")
            break
        finally:
            events.extend(event_view(ev) for ev in store.take_events())
        store.check_invariants()
    want_error_value = expect.get("error")
    want_error = None if want_error_value is None else (want_error_value.get("kind"), want_error_value.get("path"))
    if error != want_error:
        raise CaseFailure(f"expected error {want_error}, got {error}")
    got = store_view(store)
    if got != expect.get("terminals"):
        raise CaseFailure(f"terminals differ\n    expected {json.dumps(expect.get('terminals'))}\n    got      {json.dumps(got)}")
    counters = store_counters(store)
    if counters != expect.get("counters"):
        raise CaseFailure(f"counters differ: expected {expect.get('counters')}, got {counters}")
    if events != expect.get("events", []):
        raise CaseFailure(f"events differ\n    expected {json.dumps(expect.get('events', []))}\n    got      {json.dumps(events)}")
    out: dict[str, Any] = {"terminals": got, "events": events}
    if error is not None:
        out["error"] = {"kind": error[0], "path": error[1]}
    if counters is not None:
        out["counters"] = counters
    return canonical_sorted(out)


def case_input(c: dict[str, Any]) -> str:
    if isinstance(c.get("inputText"), str):
        return str(c["inputText"])
    if "input" in c:
        return write_json(c["input"])
    raise CaseFailure("the case has neither `input` nor `inputText`")


def convert_case(c: dict[str, Any]) -> str:
    expect = c.get("expect")
    if not isinstance(expect, dict):
        raise CaseFailure("the case has no `expect`")
    source, target, type_name = c.get("from"), c.get("to"), c.get("type")
    if source not in ("v1", "v2") or target not in ("v1", "v2") or not isinstance(type_name, str):
        raise CaseFailure("the case needs `from`, `to` and `type`")
    want_error = expect.get("error")
    try:
        got = convert(source, target, type_name, case_input(c), c.get("toType"))
    except ParseError as e:
        if want_error is None:
            raise CaseFailure(f"unexpected error {e.kind} at {e.path!r}: {e.message}") from None
        if (e.kind, e.path) != (want_error.get("kind"), want_error.get("path")):
            raise CaseFailure(f"expected error {want_error}, got {e.kind} at {e.path!r} ({e.message})") from None
        return f"error {e.kind} {e.path}"
    if want_error is not None:
        raise CaseFailure(f"expected error {want_error}, got output {got.text}")
    want = write_json(expect.get("output"))
    if got.text != want:
        raise CaseFailure(f"output differs\n    expected {want}\n    got      {got.text}")
    got_w = [[w.kind, w.path] for w in got.warnings]
    want_w = [[w.get("kind"), w.get("path")] for w in expect.get("warnings", [])]
    if got_w != want_w:
        raise CaseFailure(f"warnings differ: expected {want_w}, got {got_w}")
    return got.text


def bridge_case(c: dict[str, Any]) -> str:
    options = c.get("options") or {}
    bridge = Bridge(cap=options.get("cap"), meta=options.get("meta") is True)
    steps = c.get("steps")
    want = (c.get("expect") or {}).get("output")
    if not isinstance(steps, list) or not isinstance(want, list):
        raise CaseFailure("the case needs `steps` and `expect.output` arrays")
    if len(steps) != len(want):
        raise CaseFailure(f"`expect.output` has {len(want)} entries for {len(steps)} steps")
    transcript = ""
    for i, (step, w) in enumerate(zip(steps, want, strict=True)):
        want_error = w.get("error") if isinstance(w, dict) else None
        try:
            if "update" in step:
                out = bridge.push(write_json(step["update"]))
            elif "flush" in step:
                out = bridge.flush()
            else:
                raise CaseFailure(f"step {i} has neither `update` nor `flush`")
        except ParseError as e:
            path = f"/steps/{i}/update{e.path}"
            if want_error is None:
                raise CaseFailure(f"step {i}: unexpected error {e.kind} at {e.path!r}: {e.message}") from None
            if (e.kind, path) != (want_error.get("kind"), want_error.get("path")):
                raise CaseFailure(f"step {i}: expected error {want_error}, got {e.kind} at {path!r} ({e.message})") from None
            transcript += f"error {e.kind} {path}\n"
            continue
        if want_error is not None:
            raise CaseFailure(f"step {i}: expected error {want_error}, got {out}")
        got = "[" + ",".join(out) + "]"
        expected = write_json(w)
        if got != expected:
            raise CaseFailure(f"step {i}: output differs\n    expected {expected}\n    got      {got}")
        transcript += "".join(u + "\n" for u in out)
    return transcript


def ingest_case(c: dict[str, Any]) -> str:
    updates = c.get("updates")
    expect = c.get("expect")
    if not isinstance(updates, list) or not isinstance(expect, dict):
        raise CaseFailure("the case needs `updates` and `expect`")
    store = TerminalStore()
    error: tuple[str, str] | None = None
    warnings: list[list[str]] = []
    for i, u in enumerate(updates):
        prefix = f"/updates/{i}/update"
        text = write_json(u.get("update"))
        try:
            ws = ingest_v1(store, text) if u.get("schema") == "v1" else store.apply_text(text)
        except ParseError as e:
            error = (e.kind, f"{prefix}{e.path}")
            break
        warnings.extend([w.kind, f"{prefix}{w.path}"] for w in ws)
    want_error_value = expect.get("error")
    want_error = None if want_error_value is None else (want_error_value.get("kind"), want_error_value.get("path"))
    if error != want_error:
        raise CaseFailure(f"expected error {want_error}, got {error}")
    want_w = [[w.get("kind"), w.get("path")] for w in expect.get("warnings", [])]
    if warnings != want_w:
        raise CaseFailure(f"warnings differ: expected {want_w}, got {warnings}")
    got = store_view(store)
    if got != expect.get("terminals"):
        raise CaseFailure(f"terminals differ\n    expected {json.dumps(expect.get('terminals'))}\n    got      {json.dumps(got)}")
    out: dict[str, Any] = {"terminals": got, "warnings": [{"kind": k, "path": p} for k, p in warnings]}
    if error is not None:
        out["error"] = {"kind": error[0], "path": error[1]}
    return canonical_sorted(out)


def main(argv: list[str]) -> int:
    if os.environ.get("ACP_TERMINAL_EXPECT_NATIVE"):
        from acp_terminal._runtime import native

        if not native.NATIVE:
            raise SystemExit("ACP_TERMINAL_EXPECT_NATIVE is set but the native path is not in use")
    emit: str | None = None
    paths: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] == "--emit":
            i += 1
            emit = argv[i] if i < len(argv) else None
        else:
            paths.append(argv[i])
        i += 1
    if not paths:
        print("usage: python conformance.py [--emit FILE] PATH...", file=sys.stderr)
        return 2
    passed = failed = 0
    lines: list[str] = []
    for file in vector_files(paths):
        try:
            doc = parse_json(Path(file).read_text(encoding="utf-8"))
            cases = doc["cases"] if isinstance(doc, dict) else None
            if not isinstance(cases, list):
                raise CaseFailure("no `cases` array")
        except Exception as e:
            failed += 1
            print(f"FAIL {file} :: (file): cannot read the vector file: {e}")
            continue
        for c in cases:
            name = c.get("name", "(unnamed)") if isinstance(c, dict) else "(unnamed)"
            kind = c.get("kind", "") if isinstance(c, dict) else ""
            try:
                if not isinstance(c, dict):
                    raise CaseFailure("a case must be an object")
                if kind == "decode":
                    out = decode_case(c)
                    if out is not None:
                        lines.append(json.dumps({"file": file, "name": name, "output": out}, ensure_ascii=False))
                elif kind == "transcript":
                    lines.append(json.dumps({"file": file, "name": name, "output": transcript_case(c)}, ensure_ascii=False))
                elif kind == "replay":
                    lines.append(json.dumps({"file": file, "name": name, "output": replay_case(c)}, ensure_ascii=False))
                elif kind == "convert":
                    lines.append(json.dumps({"file": file, "name": name, "output": convert_case(c)}, ensure_ascii=False))
                elif kind == "bridge":
                    lines.append(json.dumps({"file": file, "name": name, "output": bridge_case(c)}, ensure_ascii=False))
                elif kind == "ingest":
                    lines.append(json.dumps({"file": file, "name": name, "output": ingest_case(c)}, ensure_ascii=False))
                else:
                    raise CaseFailure(f"this runner cannot evaluate cases of kind {kind!r}")
                passed += 1
            except Exception as e:
                failed += 1
                print(f"FAIL {file} :: {name} [{kind}]: {e}")
    if emit is not None:
        Path(emit).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    print(f"python: {passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
