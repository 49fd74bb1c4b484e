"""Properties of the version adapters: for random valid v1 values that convert,
v1 -> v2 -> v1 gives back the original canonical bytes (and v2 -> v1 -> v2 the v2 bytes);
a terminal item anywhere is refused at exactly that item; the bridge makes no text per chunk."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import pytest

from acp_terminal import Bridge, ParseError, convert
from acp_terminal.registry import CODECS

TEXTS = ["", "ok", "h\u00e9llo", "\u2713 done\n", "tab\there", 'quote " and \\', "\U0001f600", "\u0001"]
KINDS = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"]
STATUSES = ["pending", "in_progress", "completed", "failed"]


def text(r: random.Random) -> str:
    return "".join(r.choice(TEXTS) for _ in range(r.randrange(3)))


def free_json(r: random.Random, depth: int) -> Any:
    k = r.randrange(5 if depth > 1 else 7)
    if k == 0:
        return None
    if k == 1:
        return r.random() < 0.5
    if k == 2:
        return r.randrange(1000)
    if k == 3:
        return 0.5
    if k == 4:
        return text(r)
    if k == 5:
        return [free_json(r, depth + 1) for _ in range(r.randrange(3))]
    return meta(r, depth + 1)


def meta(r: random.Random, depth: int) -> dict[str, Any]:
    return {f"{r.choice(['k', 'z', 'a b'])}{i}": free_json(r, depth) for i in range(r.randrange(3))}


def b64(r: random.Random) -> str:
    return base64.b64encode(bytes(r.randrange(256) for _ in range(r.randrange(7)))).decode()


def block(r: random.Random) -> dict[str, Any]:
    k = r.randrange(5)
    b: dict[str, Any]
    if k == 0:
        b = {"type": "text", "text": text(r)}
    elif k == 1:
        b = {"type": "image", "data": b64(r), "mimeType": "image/png"}
    elif k == 2:
        b = {"type": "audio", "data": b64(r), "mimeType": "audio/wav"}
    elif k == 3:
        b = {"type": "resource_link", "name": text(r), "uri": "file:///x", "size": r.randrange(99)}
    else:
        resource = {"text": text(r), "uri": "file:///t"} if r.random() < 0.5 else {"blob": b64(r), "uri": "file:///b"}
        b = {"type": "resource", "resource": resource}
    if r.random() < 0.3:
        b["annotations"] = {"audience": [r.choice(["user", "assistant"])], "priority": r.choice([0, 0.25, 1])}
    if r.random() < 0.3:
        b["_meta"] = meta(r, 1)
    return b


def item(r: random.Random) -> dict[str, Any]:
    i: dict[str, Any] = {"type": "content", "content": block(r)}
    if r.random() < 0.2:
        i["_meta"] = meta(r, 1)
    return i


def tool_call(r: random.Random, creation: bool) -> dict[str, Any]:
    o: dict[str, Any] = {"toolCallId": f"call_{r.randrange(100)}"}
    if creation or r.random() < 0.6:
        o["title"] = text(r)
    if r.random() < 0.5:
        o["kind"] = r.choice(KINDS)
    if r.random() < 0.5:
        o["status"] = r.choice(STATUSES)
    if r.random() < 0.7:
        o["content"] = [item(r) for _ in range(r.randrange(4))]
    if r.random() < 0.4:
        # Lines from 1: v1's line 0 has no v2 form (the convert vectors check not_representable).
        o["locations"] = [{"path": r.choice(["/w/a.rs", "C:\\w\\b.rs"]), "line": 1 + r.randrange(49)} for _ in range(r.randrange(3))]
    if r.random() < 0.3:
        o["rawInput"] = {"cmd": text(r)}
    if r.random() < 0.3:
        raw = free_json(r, 1)
        o["rawOutput"] = 0 if raw is None else raw
    if r.random() < 0.3:
        o["_meta"] = meta(r, 1)
    if r.random() < 0.2:
        o["x-unknown"] = free_json(r, 1)
    return o


def v1_value(r: random.Random) -> tuple[str, str, Any]:
    k = r.randrange(6)
    if k == 0:
        return "ToolCallUpdate", "ToolCallUpdate", tool_call(r, False)
    if k == 1:
        return "ToolCall", "ToolCallUpdate", tool_call(r, True)
    if k == 2:
        return "ToolCallContent", "ToolCallContent", item(r)
    if k == 3:
        return "SessionNotification", "UpdateSessionNotification", {"sessionId": "s", "update": {"sessionUpdate": "tool_call_update", **tool_call(r, False)}}
    if k == 4:
        kinds = ["allow_once", "allow_always", "reject_once", "reject_always"]
        options = [{"optionId": f"o{i}", "name": text(r), "kind": r.choice(kinds)} for i in range(1 + r.randrange(3))]
        return "RequestPermissionRequest", "RequestPermissionRequest", {"sessionId": "s", "toolCall": tool_call(r, True), "options": options}
    outcome = {"outcome": "cancelled"} if r.random() < 0.5 else {"outcome": "selected", "optionId": "o1"}
    return "RequestPermissionResponse", "RequestPermissionResponse", {"outcome": outcome}


def canonical(version: str, type_name: str, v: Any) -> str:
    parse, serialize = CODECS[version][type_name]
    parsed = parse(json.dumps(v))
    assert parsed.warnings == ()
    return serialize(parsed.value)


def test_v1_to_v2_to_v1_returns_the_original_bytes() -> None:
    r = random.Random(0x1234ABCD)
    for _ in range(600):
        t1, t2, v = v1_value(r)
        original = canonical("v1", t1, v)
        there = convert("v1", "v2", t1, original, t2)
        back = convert("v2", "v1", t2, there.text, t1)
        assert back.text == original, there.text
        assert convert("v1", "v2", t1, back.text, t2).text == there.text


def test_a_terminal_item_anywhere_is_refused_at_that_item_both_ways() -> None:
    r = random.Random(0x7E570002)
    for _ in range(200):
        call = tool_call(r, False)
        items = [item(r) for _ in range(r.randrange(4))]
        at = r.randrange(len(items) + 1)
        items.insert(at, {"type": "terminal", "terminalId": "term_1"})
        call["content"] = items
        for source, target in (("v1", "v2"), ("v2", "v1")):
            with pytest.raises(ParseError) as e:
                convert(source, target, "ToolCallUpdate", json.dumps(call))  # type: ignore[arg-type]
            assert (e.value.kind, e.value.path) == ("not_representable", f"/content/{at}")


def test_the_bridge_makes_no_text_per_chunk() -> None:
    bridge = Bridge(cap=64)
    first = bridge.push('{"sessionUpdate":"tool_call_update","toolCallId":"c","title":"T","content":[{"type":"terminal","terminalId":"t"}]}')
    assert len(first) == 1
    for i in range(1000):
        data = base64.b64encode(f"line {i}\n".encode()).decode()
        assert bridge.push(f'{{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"{data}"}}') == []
    flushed = bridge.flush()
    assert len(flushed) == 1
    text = json.loads(flushed[0])["content"][0]["content"]["text"]
    assert text.startswith("line 0\n") and text.endswith("line 999\n") and "characters left out" in text
