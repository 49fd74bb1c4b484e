"""The Python conformance runner: ``python conformance.py FILE...`` prints, for every case
of the vector files, one JSON line ``{"file", "name", "result"}``: what the generated
package did with the case (docs/CONFORMANCE.md, "Runners and the judge"). It judges
nothing; ``cargo xtask conformance`` does. With ``ACP_TERMINAL_EXPECT_NATIVE`` set it
first checks that the native path is in use.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from acp_terminal import ParseError, Transcript
from acp_terminal._runtime.json import parse_json
from acp_terminal._runtime.state import SessionState, StateLimits
from acp_terminal._runtime.writer import Writer
from acp_terminal.adapters import Bridge, convert, ingest_v1
from acp_terminal.registry import CODECS, STATE_RULES
from acp_terminal.store import Limits, TerminalStore

Result = dict[str, Any]


class Unsupported(Exception):
    """A case this runner cannot evaluate."""


def write_json(value: Any) -> str:
    w = Writer()
    w.value(value)
    return w.finish()


def failure(e: ParseError, path: str | None = None) -> Result:
    return {"error": {"kind": e.kind, "path": e.path if path is None else path}, "message": e.message}


def problems(ws: Any, prefix: str = "") -> list[Result]:
    return [{"kind": w.kind, "path": f"{prefix}{w.path}"} for w in ws]


def input_text(c: Result) -> str:
    if isinstance(c.get("inputText"), str):
        return str(c["inputText"])
    if "input" in c:
        return write_json(c["input"])
    raise Unsupported("the case has neither `input` nor `inputText`")


def decode_result(c: Result) -> Result:
    codec = CODECS.get(c.get("schema", "v2"), {}).get(c.get("type", ""))
    if codec is None:
        raise Unsupported(f"`{c.get('type')}` is not a definition of schema {c.get('schema', 'v2')!r}")
    parse, serialize = codec

    def decoded(text: str) -> Result:
        try:
            p = parse(text)
        except ParseError as e:
            return failure(e)
        return {"output": serialize(p.value), "warnings": problems(p.warnings)}

    result = decoded(input_text(c))
    if "output" in result:
        result["again"] = decoded(result["output"])
    return result


def transcript_result(c: Result) -> Result:
    chunks = c.get("chunks")
    if not isinstance(chunks, list):
        raise Unsupported("the case has no `chunks` array")
    t = Transcript()
    for chunk in chunks:
        t.push(base64.b64decode(chunk, validate=True))
    return {"text": t.text}


def replay_limits(c: dict[str, Any]) -> Limits:
    """The limits of a replay case (``limits``, members optional)."""
    given = c.get("limits", {})
    if not isinstance(given, dict):
        raise Unsupported("limits is not an object")
    names = {
        "maxTerminals": "max_terminals",
        "maxRetainedBytes": "max_retained_bytes",
        "maxTotalBytes": "max_total_bytes",
        "maxWarnings": "max_warnings",
        "maxLineLength": "max_line_length",
        "maxTextLength": "max_text_length",
        "maxMembers": "max_members",
    }
    values: dict[str, int] = {}
    for wire, name in names.items():
        v = given.get(wire)
        if v is None:
            continue
        if type(v) is not int or v < 0:
            raise Unsupported(f"limits.{wire} is not a whole number")
        values[name] = v
    return dataclasses.replace(Limits(), **values)


def replay_result(c: Result) -> Result:
    updates, notifications = c.get("updates"), c.get("notifications")
    member = "updates" if updates is not None else "notifications"
    items = updates if updates is not None else notifications
    if not isinstance(items, list) or (updates is not None and notifications is not None):
        raise Unsupported("the case needs one `updates` or `notifications` array")
    store = TerminalStore(replay_limits(c))
    out: Result = {}
    events: list[Result] = []
    for i, u in enumerate(items):
        text = write_json(u)
        try:
            if member == "updates":
                store.apply_text(text)
            else:
                store.apply_notification_text(text)
        except ParseError as e:
            out = failure(e, f"/{member}/{i}{e.path}")
            break
        finally:
            events.extend(ev.to_json() for ev in store.take_events())
        try:
            store.check_invariants()
        except Exception as e:
            out["invariant"] = f"after update {i}: {e}"
            break
    out["terminals"] = store.snapshot()
    out["events"] = events
    counters = store.counters_snapshot()
    if counters is not None:
        out["counters"] = counters
    return out


def convert_result(c: Result) -> Result:
    source, target, type_name = c.get("from"), c.get("to"), c.get("type")
    if source not in ("v1", "v2") or target not in ("v1", "v2") or not isinstance(type_name, str):
        raise Unsupported("the case needs `from`, `to` and `type`")
    try:
        got = convert(source, target, type_name, input_text(c), c.get("toType"))
    except ParseError as e:
        return failure(e)
    return {"output": got.text, "warnings": problems(got.warnings)}


def bridge_result(c: Result) -> Result:
    options = c.get("options", {})
    cap = options.get("cap")
    bridge = Bridge(cap=cap if isinstance(cap, int) else None, meta=options.get("meta") is True)
    steps = c.get("steps")
    if not isinstance(steps, list):
        raise Unsupported("the case has no `steps` array")
    out: list[Any] = []
    for i, step in enumerate(steps):
        if "update" not in step and "flush" not in step:
            raise Unsupported(f"step {i} has neither `update` nor `flush`")
        try:
            out.append(bridge.push(write_json(step["update"])) if "update" in step else bridge.flush())
        except ParseError as e:
            out.append(failure(e, f"/steps/{i}/update{e.path}"))
    return {"steps": out}


def ingest_result(c: Result) -> Result:
    updates = c.get("updates")
    if not isinstance(updates, list):
        raise Unsupported("the case has no `updates` array")
    store = TerminalStore()
    out: Result = {}
    warnings: list[Result] = []
    for i, u in enumerate(updates):
        text = write_json(u.get("update"))
        prefix = f"/updates/{i}/update"
        try:
            ws = ingest_v1(store, text) if u.get("schema") == "v1" else store.apply_text(text)
        except ParseError as e:
            out = failure(e, f"{prefix}{e.path}")
            break
        warnings.extend(problems(ws, prefix))
    out["terminals"] = store.snapshot()
    out["warnings"] = warnings
    return out


def state_result(c: Result) -> Result:
    if "v2" not in STATE_RULES:
        raise Unsupported("the package's v2 schema has no x-state")
    try:
        limits = StateLimits.from_json(c.get("limits", {}))
    except ParseError as e:
        raise Unsupported(f"limits at {e.path!r}: {e}") from None
    state = SessionState(STATE_RULES["v2"], CODECS["v2"], limits)
    out: Result = {}
    warnings: list[Result] = []
    messages = c.get("messages", [])
    if "initial" in c:
        try:
            state.restore(c["initial"])
        except ParseError as e:
            out = failure(e, f"/initial{e.path}")
            messages = []
    for i, m in enumerate(messages):
        prefix = f"/messages/{i}/message"
        try:
            ws = state.apply(m["type"], write_json(m["message"]))
        except ParseError as e:
            out = failure(e, f"{prefix}{e.path}")
            break
        warnings.extend(problems(ws, prefix))
    # The state is typed: every target decodes as its definition and writes back as itself.
    try:
        state.check_invariants()
    except AssertionError as e:
        out["invariant"] = str(e)
    out["state"] = write_json(state.snapshot())
    out["warnings"] = warnings
    # What the limits dropped, when they dropped anything (as the store's counters).
    counters = state.counters.to_json()
    if any(counters.values()):
        out["counters"] = counters
    return out


KINDS: dict[str, Callable[[Result], Result]] = {
    "decode": decode_result,
    "transcript": transcript_result,
    "replay": replay_result,
    "convert": convert_result,
    "bridge": bridge_result,
    "ingest": ingest_result,
    "state": state_result,
}


def case_result(c: Any) -> Result:
    kind = c.get("kind") if isinstance(c, dict) else None
    run = KINDS.get(kind) if isinstance(kind, str) else None
    if run is None:
        return {"unsupported": f"this runner cannot evaluate cases of kind {kind!r}"}
    try:
        return run(c)
    except Unsupported as e:
        return {"unsupported": str(e)}
    except Exception as e:
        return {"unsupported": f"the runner failed: {type(e).__name__}: {e}"}


def main(files: list[str]) -> int:
    if os.environ.get("ACP_TERMINAL_EXPECT_NATIVE"):
        from acp_terminal._runtime import native

        if not native.NATIVE:
            raise SystemExit("ACP_TERMINAL_EXPECT_NATIVE is set but the native path is not in use")
    lines: list[str] = []
    for file in files:
        try:
            doc = parse_json(Path(file).read_text(encoding="utf-8"))
        except Exception as e:
            lines.append(
                json.dumps(
                    {"file": file, "name": "(file)", "result": {"unsupported": f"cannot read the vector file: {e}"}}
                )
            )
            continue
        cases = doc.get("cases") if isinstance(doc, dict) else None
        if not isinstance(cases, list):
            lines.append(json.dumps({"file": file, "name": "(file)", "result": {"unsupported": "no `cases` array"}}))
            continue
        for c in cases:
            name = c.get("name") if isinstance(c, dict) else None
            lines.append(json.dumps({"file": file, "name": name, "result": case_result(c)}, ensure_ascii=False))
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
