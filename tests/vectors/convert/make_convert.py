"""Writes convert.json: the `convert` cases (docs/CONFORMANCE.md), expectations by hand.

Run from the repository root: python3 tests/vectors/convert/make_convert.py
Every expected output below was written from the two upstream schemas and the mapping
table in docs/ADAPTERS.md, not produced by an implementation.
"""

import json

cases = []


def add(name, frm, to, ty, inp, output=None, error=None, warnings=None, to_type=None, text=None):
    c = {"name": name, "kind": "convert", "from": frm, "to": to, "type": ty}
    if to_type:
        c["toType"] = to_type
    if text is not None:
        c["inputText"] = text
    else:
        c["input"] = inp
    if error:
        c["expect"] = {"error": {"kind": error[0], "path": error[1]}}
    else:
        c["expect"] = {"output": output}
        if warnings:
            c["expect"]["warnings"] = [{"kind": k, "path": p} for k, p in warnings]
    cases.append(c)


def pair(name, ty, v1, v2, v1_type=None, v2_type=None):
    """An exact mapping: v1 -> v2 and v2 -> v1, each written in its own member order."""
    add(f"{name} (v1 to v2)", "v1", "v2", v1_type or ty, v1, v2, to_type=v2_type)
    add(f"{name} (v2 to v1)", "v2", "v1", v2_type or ty, v2, v1, to_type=v1_type)


def refuse(name, frm, ty, inp, path, to_type=None):
    add(name, frm, "v2" if frm == "v1" else "v1", ty, inp, error=("not_representable", path), to_type=to_type)


TEXT = {"type": "content", "content": {"type": "text", "text": "ok"}}
TERM = {"type": "terminal", "terminalId": "term_001"}
V1DIFF = {"type": "diff", "path": "/w/a.rs", "oldText": "a", "newText": "b"}
V2DIFF = {"type": "diff", "changes": [{"operation": "modify", "path": "/w/a.rs"}]}

# ---- exact mappings, both ways -------------------------------------------------------
pair("text content item", "ToolCallContent", TEXT, TEXT)
pair(
    "text with annotations and _meta (member order differs)",
    "ToolCallContent",
    {"type": "content", "content": {"type": "text", "annotations": {"audience": ["user"], "priority": 0.5}, "text": "hi", "_meta": {"a": 1}}, "_meta": {"z": True}},
    {"type": "content", "content": {"type": "text", "text": "hi", "annotations": {"audience": ["user"], "priority": 0.5}, "_meta": {"a": 1}}, "_meta": {"z": True}},
)
pair(
    "image block",
    "ContentBlock",
    {"type": "image", "annotations": {"priority": 1}, "data": "aGVsbG8=", "mimeType": "image/png", "uri": "file:///a.png"},
    {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png", "uri": "file:///a.png", "annotations": {"priority": 1}},
)
pair("audio block", "ContentBlock", {"type": "audio", "data": "AAEC", "mimeType": "audio/wav"}, {"type": "audio", "data": "AAEC", "mimeType": "audio/wav"})
pair("empty image data", "ContentBlock", {"type": "image", "data": "", "mimeType": "image/png"}, {"type": "image", "data": "", "mimeType": "image/png"})
pair(
    "resource link with every member",
    "ContentBlock",
    {"type": "resource_link", "annotations": {"audience": ["assistant"]}, "description": "d", "mimeType": "text/plain", "name": "n", "size": 12, "title": "t", "uri": "file:///n.txt", "_meta": {"k": "v"}},
    {"type": "resource_link", "name": "n", "uri": "file:///n.txt", "title": "t", "description": "d", "mimeType": "text/plain", "size": 12, "annotations": {"audience": ["assistant"]}, "_meta": {"k": "v"}},
)
pair(
    "embedded text resource",
    "ContentBlock",
    {"type": "resource", "resource": {"mimeType": "text/x-rust", "text": "fn main() {}", "uri": "file:///m.rs"}},
    {"type": "resource", "resource": {"text": "fn main() {}", "uri": "file:///m.rs", "mimeType": "text/x-rust"}},
)
pair(
    "embedded blob resource with annotations",
    "ContentBlock",
    {"type": "resource", "annotations": {"lastModified": "2025-01-01T00:00:00Z"}, "resource": {"blob": "AAECAw==", "mimeType": "application/octet-stream", "uri": "file:///b"}},
    {"type": "resource", "resource": {"blob": "AAECAw==", "uri": "file:///b", "mimeType": "application/octet-stream"}, "annotations": {"lastModified": "2025-01-01T00:00:00Z"}},
)
pair("unknown member of a text block travels", "ContentBlock", {"type": "text", "text": "x", "extra": [1, 2]}, {"type": "text", "text": "x", "extra": [1, 2]})
pair("Content on its own", "Content", {"content": {"type": "text", "text": "a"}, "_meta": {"m": 1}}, {"content": {"type": "text", "text": "a"}, "_meta": {"m": 1}})
pair("non-ASCII and control characters in text", "ToolCallContent",
     {"type": "content", "content": {"type": "text", "text": "h\u00e9llo \u0001 \u2713 \U0001F600"}},
     {"type": "content", "content": {"type": "text", "text": "h\u00e9llo \u0001 \u2713 \U0001F600"}})
pair("minimal tool call update", "ToolCallUpdate", {"toolCallId": "call_001"}, {"toolCallId": "call_001"})
pair(
    "tool call update with every member",
    "ToolCallUpdate",
    {"toolCallId": "c", "kind": "execute", "status": "in_progress", "title": "Run", "content": [TEXT], "locations": [{"path": "/w/a.rs", "line": 3}], "rawInput": {"cmd": "ls"}, "rawOutput": "x", "_meta": {"m": [1]}},
    {"toolCallId": "c", "title": "Run", "kind": "execute", "status": "in_progress", "content": [TEXT], "locations": [{"path": "/w/a.rs", "line": 3}], "rawInput": {"cmd": "ls"}, "rawOutput": "x", "_meta": {"m": [1]}},
)
pair("empty content and locations", "ToolCallUpdate", {"toolCallId": "c", "content": [], "locations": []}, {"toolCallId": "c", "content": [], "locations": []})
for status in ["pending", "in_progress", "completed", "failed"]:
    pair(f"status {status}", "ToolCallUpdate", {"toolCallId": "c", "status": status}, {"toolCallId": "c", "status": status})
for kind in ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"]:
    pair(f"kind {kind}", "ToolCallUpdate", {"toolCallId": "c", "kind": kind}, {"toolCallId": "c", "kind": kind})
pair("unknown member of a tool call update travels", "ToolCallUpdate",
     {"toolCallId": "c", "title": "t", "x-extra": {"b": 2, "a": 1}}, {"toolCallId": "c", "title": "t", "x-extra": {"b": 2, "a": 1}})
pair("an unknown member with a null value travels (it is no patch clear)", "ToolCallUpdate",
     {"toolCallId": "c", "x": None}, {"toolCallId": "c", "x": None})
pair("location with a Windows path, _meta and an unknown member", "ToolCallUpdate",
     {"toolCallId": "c", "locations": [{"path": "C:\\w\\a.rs", "_meta": {"q": 1}, "col": 4}]},
     {"toolCallId": "c", "locations": [{"path": "C:\\w\\a.rs", "_meta": {"q": 1}, "col": 4}]})
pair("ToolCallLocation on its own", "ToolCallLocation", {"path": "/a", "line": 1}, {"path": "/a", "line": 1})
# v1 lines may be 0; v2 lines start at 1 (upstream 1.20.0: minimum 1).
add("v1 ToolCallLocation line 0 has no v2 form", "v1", "v2", "ToolCallLocation", {"path": "/a", "line": 0}, error=("not_representable", "/line"))
add("v2 ToolCallLocation line 0 is dropped on reading, with a warning", "v2", "v1", "ToolCallLocation", {"path": "/a", "line": 0}, output={"path": "/a"}, warnings=[("out_of_range", "/line")])
pair("raw input and output of any JSON", "ToolCallUpdate",
     {"toolCallId": "c", "rawInput": [1, "two", {"3": False, "1": None}], "rawOutput": 0},
     {"toolCallId": "c", "rawInput": [1, "two", {"3": False, "1": None}], "rawOutput": 0})
pair("three content items keep their order", "ToolCallUpdate",
     {"toolCallId": "c", "content": [TEXT, {"type": "content", "content": {"type": "audio", "data": "AA==", "mimeType": "audio/ogg"}}, {"type": "content", "content": {"type": "text", "text": "z"}}]},
     {"toolCallId": "c", "content": [TEXT, {"type": "content", "content": {"type": "audio", "data": "AA==", "mimeType": "audio/ogg"}}, {"type": "content", "content": {"type": "text", "text": "z"}}]})
pair("tool_call_update session update", "SessionUpdate",
     {"sessionUpdate": "tool_call_update", "toolCallId": "c", "status": "completed", "title": "T"},
     {"sessionUpdate": "tool_call_update", "toolCallId": "c", "title": "T", "status": "completed"})
pair("session notification", "SessionNotification",
     {"sessionId": "s", "update": {"sessionUpdate": "tool_call_update", "toolCallId": "c", "content": [TEXT]}, "_meta": {"n": 1}},
     {"sessionId": "s", "update": {"sessionUpdate": "tool_call_update", "toolCallId": "c", "content": [TEXT]}, "_meta": {"n": 1}},
     v1_type="SessionNotification", v2_type="UpdateSessionNotification")
pair("v1 tool_call as a v2 upsert and back", "ToolCall",
     {"toolCallId": "c", "title": "Read", "kind": "read", "status": "pending", "content": [], "locations": [{"path": "/a"}]},
     {"toolCallId": "c", "title": "Read", "kind": "read", "status": "pending", "content": [], "locations": [{"path": "/a"}]},
     v1_type="ToolCall", v2_type="ToolCallUpdate")
pair("v1 tool_call with raw input and _meta", "ToolCall",
     {"toolCallId": "c2", "title": "Edit", "rawInput": {"file": "/a"}, "_meta": {"x": "y"}},
     {"toolCallId": "c2", "title": "Edit", "rawInput": {"file": "/a"}, "_meta": {"x": "y"}},
     v1_type="ToolCall", v2_type="ToolCallUpdate")
OPT = {"optionId": "allow", "name": "Allow", "kind": "allow_once"}
pair("permission request: toolCall becomes a tool_call subject", "RequestPermissionRequest",
     {"sessionId": "s", "toolCall": {"toolCallId": "c", "title": "Run ls"}, "options": [OPT]},
     {"sessionId": "s", "title": "Run ls", "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c", "title": "Run ls"}}, "options": [OPT]})
ALL_OPTS = [{"optionId": k, "name": k, "kind": k} for k in ["allow_once", "allow_always", "reject_once", "reject_always"]]
pair("permission request with every option kind, _meta and an unknown member", "RequestPermissionRequest",
     {"sessionId": "s", "toolCall": {"toolCallId": "c", "kind": "execute", "status": "pending", "title": "Run tests", "content": [TEXT]}, "options": ALL_OPTS, "_meta": {"p": 1}, "x": 2},
     {"sessionId": "s", "title": "Run tests", "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c", "title": "Run tests", "kind": "execute", "status": "pending", "content": [TEXT]}}, "options": ALL_OPTS, "_meta": {"p": 1}, "x": 2})
pair("permission response: selected", "RequestPermissionResponse", {"outcome": {"outcome": "selected", "optionId": "a"}}, {"outcome": {"outcome": "selected", "optionId": "a"}})
pair("permission response: cancelled with _meta", "RequestPermissionResponse", {"outcome": {"outcome": "cancelled"}, "_meta": {"r": 1}}, {"outcome": {"outcome": "cancelled"}, "_meta": {"r": 1}})
pair("permission outcome with _meta", "RequestPermissionOutcome", {"outcome": "selected", "optionId": "x", "_meta": {"k": None}}, {"outcome": "selected", "optionId": "x", "_meta": {"k": None}})
for o in ALL_OPTS:
    pair(f"permission option {o['kind']}", "PermissionOption", o, o)

# ---- one-way exact mappings ------------------------------------------------------------
add("v1 tool_call update becomes a v2 tool_call_update upsert", "v1", "v2", "SessionUpdate",
    {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "T", "kind": "edit"},
    {"sessionUpdate": "tool_call_update", "toolCallId": "c", "title": "T", "kind": "edit"})
add("v1 notification with a tool_call update", "v1", "v2", "SessionNotification",
    {"sessionId": "s", "update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "T", "status": "pending"}},
    {"sessionId": "s", "update": {"sessionUpdate": "tool_call_update", "toolCallId": "c", "title": "T", "status": "pending"}})
add("v2 content null and locations null clear as [] in v1", "v2", "v1", "ToolCallUpdate",
    {"toolCallId": "c", "content": None, "locations": None}, {"toolCallId": "c", "content": [], "locations": []})
add("v1 null members mean unchanged, so they are omitted", "v1", "v2", "ToolCallUpdate",
    {"toolCallId": "c", "title": None, "kind": None, "content": None}, {"toolCallId": "c"})
add("numbers are written as ECMAScript writes them", "v1", "v2", "ToolCallUpdate", None,
    {"toolCallId": "c", "rawInput": {"a": 1e21, "b": 100, "c": 0.5}}, text='{"toolCallId":"c","rawInput":{"a":1e21,"b":1.0E2,"c":5e-1}}')
add("a dropped lenient member of the input is a warning", "v1", "v2", "ToolCallUpdate",
    {"toolCallId": "c", "status": "paused", "title": "t"}, {"toolCallId": "c", "title": "t"}, warnings=[("unknown_variant", "/status")])
add("v2 update chosen as a v1 tool_call", "v2", "v1", "ToolCallUpdate",
    {"toolCallId": "c", "title": "Run", "kind": "execute", "status": "pending"},
    {"toolCallId": "c", "title": "Run", "kind": "execute", "status": "pending"}, to_type="ToolCall")

# ---- errors of the input itself ---------------------------------------------------------
add("input error: missing toolCallId", "v1", "v2", "ToolCallUpdate", {"title": "t"}, error=("missing_field", "/toolCallId"))
add("input error: not JSON", "v2", "v1", "ToolCallUpdate", None, error=("invalid_json", ""), text='{"toolCallId":')
add("input error: v1 tool_call without title", "v1", "v2", "SessionUpdate", {"sessionUpdate": "tool_call", "toolCallId": "c"}, error=("missing_field", "/title"))
add("input error: v2 bad base64", "v2", "v1", "ContentBlock", {"type": "image", "data": "aGVsbG8", "mimeType": "image/png"}, error=("invalid_base64", "/data"))
add("input error: v2 permission request with no options", "v2", "v1", "RequestPermissionRequest",
    {"sessionId": "s", "title": "t", "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c", "title": "t"}}, "options": []}, error=("out_of_range", "/options"))

# ---- refused: terminals (the RFD) ----------------------------------------------------------
refuse("v1 terminal content item", "v1", "ToolCallContent", TERM, "")
refuse("v2 terminal content item", "v2", "ToolCallContent", TERM, "")
refuse("v1 Terminal on its own", "v1", "Terminal", {"terminalId": "t"}, "")
refuse("v2 Terminal on its own", "v2", "Terminal", {"terminalId": "t", "_meta": {}}, "")
refuse("v1 update with one terminal item among others is refused at the item", "v1", "ToolCallUpdate", {"toolCallId": "c", "content": [TEXT, TERM]}, "/content/1")
refuse("v2 update with one terminal item among others is refused at the item", "v2", "ToolCallUpdate", {"toolCallId": "c", "content": [TEXT, TERM, TEXT]}, "/content/1")
refuse("v1 update whose only item is a terminal", "v1", "ToolCallUpdate", {"toolCallId": "c", "content": [TERM]}, "/content/0")
refuse("v2 update whose only item is a terminal", "v2", "ToolCallUpdate", {"toolCallId": "c", "content": [TERM]}, "/content/0")
refuse("v1 tool_call with a terminal", "v1", "ToolCall", {"toolCallId": "c", "title": "t", "content": [TERM]}, "/content/0")
refuse("v1 session update with a terminal at index 2", "v1", "SessionUpdate", {"sessionUpdate": "tool_call_update", "toolCallId": "c", "content": [TEXT, TEXT, TERM]}, "/content/2")
refuse("v2 session update with a terminal", "v2", "SessionUpdate", {"sessionUpdate": "tool_call_update", "toolCallId": "c", "content": [TERM]}, "/content/0")
refuse("v1 notification with a terminal", "v1", "SessionNotification", {"sessionId": "s", "update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "t", "content": [TERM]}}, "/update/content/0")
refuse("v2 notification with a terminal", "v2", "UpdateSessionNotification", {"sessionId": "s", "update": {"sessionUpdate": "tool_call_update", "toolCallId": "c", "content": [TEXT, TERM]}}, "/update/content/1")
refuse("v2 terminal_update session update", "v2", "SessionUpdate", {"sessionUpdate": "terminal_update", "terminalId": "t", "command": "ls"}, "")
refuse("v2 terminal_output_chunk session update", "v2", "SessionUpdate", {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "aGk="}, "")
refuse("v2 notification carrying terminal_update", "v2", "UpdateSessionNotification", {"sessionId": "s", "update": {"sessionUpdate": "terminal_update", "terminalId": "t"}}, "/update")
refuse("v2 notification carrying terminal_output_chunk", "v2", "UpdateSessionNotification", {"sessionId": "s", "update": {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": ""}}, "/update")
refuse("v2 TerminalUpdate on its own", "v2", "TerminalUpdate", {"terminalId": "t"}, "")
refuse("v2 TerminalOutputChunk on its own", "v2", "TerminalOutputChunk", {"terminalId": "t", "data": "AA=="}, "")
refuse("v2 command permission subject", "v2", "CommandPermissionSubject", {"command": "ls", "cwd": "/w"}, "")
PR2 = {"sessionId": "s", "title": "Run ls", "options": [OPT]}
refuse("v2 permission request with a command subject", "v2", "RequestPermissionRequest", {**PR2, "subject": {"type": "command", "command": "ls", "cwd": "/w"}}, "/subject")
refuse("v2 permission request with a terminal in the tool call", "v2", "RequestPermissionRequest",
       {**PR2, "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c", "title": "Run ls", "content": [TERM]}}}, "/subject/toolCall/content/0")
refuse("v1 permission request with a terminal in the tool call", "v1", "RequestPermissionRequest",
       {"sessionId": "s", "toolCall": {"toolCallId": "c", "title": "Run ls", "content": [TERM]}, "options": [OPT]}, "/toolCall/content/0")
refuse("v2 tool_call_content_chunk with a terminal", "v2", "SessionUpdate", {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "c", "content": TERM}, "")

# ---- refused: other loss or invention -------------------------------------------------------
refuse("v2 tool_call_content_chunk with text (needs state)", "v2", "SessionUpdate", {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "c", "content": TEXT}, "")
refuse("v2 ToolCallContentChunk on its own", "v2", "ToolCallContentChunk", {"toolCallId": "c", "content": TEXT}, "")
refuse("v1 diff item (old and new text have no v2 form)", "v1", "ToolCallContent", V1DIFF, "")
refuse("v2 diff item (no old and new text for v1)", "v2", "ToolCallContent", V2DIFF, "")
refuse("v1 Diff on its own", "v1", "Diff", {"path": "/w/a", "newText": "x"}, "")
refuse("v2 Diff on its own", "v2", "Diff", {"changes": [{"operation": "modify", "path": "/w/a.rs"}], "patch": {"format": "git_patch", "text": ""}}, "")
refuse("v1 update with a diff item", "v1", "ToolCallUpdate", {"toolCallId": "c", "content": [TEXT, V1DIFF]}, "/content/1")
refuse("v2 update with a diff item", "v2", "ToolCallUpdate", {"toolCallId": "c", "content": [V2DIFF]}, "/content/0")
refuse("v2 unknown tool-call content type", "v2", "ToolCallContent", {"type": "widget", "x": 1}, "")
refuse("v2 update with an unknown content item", "v2", "ToolCallUpdate", {"toolCallId": "c", "content": [TEXT, {"type": "widget"}]}, "/content/1")
refuse("v2 unknown content block type", "v2", "ContentBlock", {"type": "video", "url": "x"}, "")
refuse("v2 unknown content block inside an item", "v2", "ToolCallContent", {"type": "content", "content": {"type": "video"}}, "/content")
refuse("v1 agent_message_chunk is not a tool-call update", "v1", "SessionUpdate", {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}}, "")
refuse("v1 plan is not a tool-call update", "v1", "SessionUpdate", {"sessionUpdate": "plan", "entries": []}, "")
refuse("v2 agent_message_chunk is not a tool-call update", "v2", "SessionUpdate", {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}}, "")
refuse("v2 state_update is not a tool-call update", "v2", "SessionUpdate", {"sessionUpdate": "state_update", "state": {}}, "")
refuse("v1 notification with a plan", "v1", "SessionNotification", {"sessionId": "s", "update": {"sessionUpdate": "plan", "entries": []}}, "/update")
refuse("v1 image data that is not base64", "v1", "ContentBlock", {"type": "image", "data": "not base64!", "mimeType": "image/png"}, "/data")
refuse("v1 image data with whitespace", "v1", "ContentBlock", {"type": "image", "data": "aGVs bG8=", "mimeType": "image/png"}, "/data")
refuse("v1 audio data with non-zero trailing bits", "v1", "ContentBlock", {"type": "audio", "data": "YR==", "mimeType": "audio/wav"}, "/data")
refuse("v1 image data without padding", "v1", "ContentBlock", {"type": "image", "data": "aGVsbG8", "mimeType": "image/png"}, "/data")
refuse("v1 blob that is not base64", "v1", "ContentBlock", {"type": "resource", "resource": {"blob": "<b64>", "uri": "file:///b"}}, "/resource/blob")
refuse("v1 image data placeholder in a content item", "v1", "ToolCallContent", {"type": "content", "content": {"type": "image", "data": "...AAAB...", "mimeType": "image/png"}}, "/content/data")
refuse("v1 bad image data inside an update (v2 would drop the item)", "v1", "ToolCallUpdate", {"toolCallId": "c", "content": [TEXT, {"type": "content", "content": {"type": "image", "data": "-_", "mimeType": "image/png"}}]}, "/content/1/content/data")
refuse("v1 priority above 1", "v1", "ContentBlock", {"type": "text", "text": "t", "annotations": {"priority": 1.5}}, "/annotations/priority")
refuse("v1 priority below 0", "v1", "ContentBlock", {"type": "text", "text": "t", "annotations": {"priority": -0.5}}, "/annotations/priority")
refuse("v1 relative location path", "v1", "ToolCallLocation", {"path": "src/main.rs"}, "/path")
refuse("v1 relative location path inside an update", "v1", "ToolCallUpdate", {"toolCallId": "c", "locations": [{"path": "/ok"}, {"path": "rel"}]}, "/locations/1/path")
refuse("v1 resource link with an unknown icons member", "v1", "ContentBlock", {"type": "resource_link", "name": "n", "uri": "u", "icons": []}, "/icons")
refuse("v2 resource link with icons", "v2", "ContentBlock", {"type": "resource_link", "name": "n", "uri": "u", "icons": [{"src": "https://x/i.png"}]}, "/icons")
refuse("v2 resource link with icons inside an update", "v2", "ToolCallUpdate", {"toolCallId": "c", "content": [{"type": "content", "content": {"type": "resource_link", "name": "n", "uri": "u", "icons": []}}]}, "/content/0/content/icons")
refuse("v2 unknown role in audience", "v2", "ContentBlock", {"type": "text", "text": "t", "annotations": {"audience": ["assistant", "robot"]}}, "/annotations/audience/1")
refuse("v2 status cancelled (v1 has none)", "v2", "ToolCallUpdate", {"toolCallId": "c", "status": "cancelled"}, "/status")
refuse("v2 unknown status", "v2", "ToolCallUpdate", {"toolCallId": "c", "status": "paused"}, "/status")
refuse("v2 unknown kind", "v2", "ToolCallUpdate", {"toolCallId": "c", "kind": "browse"}, "/kind")
refuse("v2 cancelled inside a session update", "v2", "SessionUpdate", {"sessionUpdate": "tool_call_update", "toolCallId": "c", "status": "cancelled"}, "/status")
for member in ["title", "kind", "status", "rawInput", "rawOutput", "_meta"]:
    refuse(f"v2 {member}: null clears, which v1 cannot say", "v2", "ToolCallUpdate", {"toolCallId": "c", member: None}, f"/{member}")
refuse("v2 update as a v1 tool_call needs a title", "v2", "ToolCallUpdate", {"toolCallId": "c", "status": "pending"}, "/title", to_type="ToolCall")
refuse("v2 update as a v1 tool_call with title null", "v2", "ToolCallUpdate", {"toolCallId": "c", "title": None}, "/title", to_type="ToolCall")
refuse("v2 permission request without subject", "v2", "RequestPermissionRequest", PR2, "/subject")
refuse("v2 permission request with an unknown subject", "v2", "RequestPermissionRequest", {**PR2, "subject": {"type": "mcp_server", "name": "x"}}, "/subject")
refuse("v2 permission request with a description", "v2", "RequestPermissionRequest",
       {**PR2, "description": "why", "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c", "title": "Run ls"}}}, "/description")
refuse("v2 permission request whose title differs from the tool call's", "v2", "RequestPermissionRequest",
       {**PR2, "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c", "title": "ls"}}}, "/title")
refuse("v2 permission request whose tool call has no title", "v2", "RequestPermissionRequest",
       {**PR2, "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c"}}}, "/title")
refuse("v2 permission request with cancelled tool call status", "v2", "RequestPermissionRequest",
       {**PR2, "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c", "title": "Run ls", "status": "cancelled"}}}, "/subject/toolCall/status")
refuse("v2 permission request with an unknown toolCall member", "v2", "RequestPermissionRequest",
       {**PR2, "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c", "title": "Run ls"}}, "toolCall": {}}, "/toolCall")
refuse("v2 permission subject with a member v1 has no place for", "v2", "RequestPermissionRequest",
       {**PR2, "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c", "title": "Run ls"}, "_meta": {"a": 1}}}, "/subject/_meta")
refuse("v2 permission option of an unknown kind", "v2", "RequestPermissionRequest",
       {**PR2, "subject": {"type": "tool_call", "toolCall": {"toolCallId": "c", "title": "Run ls"}}, "options": [{"optionId": "a", "name": "A", "kind": "allow_session"}]}, "/options/0/kind")
refuse("v2 PermissionOption of an unknown kind", "v2", "PermissionOption", {"optionId": "a", "name": "A", "kind": "allow_session"}, "/kind")
refuse("v2 unknown permission outcome", "v2", "RequestPermissionResponse", {"outcome": {"outcome": "deferred"}}, "/outcome/outcome")
refuse("v2 unknown RequestPermissionOutcome", "v2", "RequestPermissionOutcome", {"outcome": "deferred", "until": 3}, "/outcome")
refuse("v2 RequestPermissionSubject on its own", "v2", "RequestPermissionSubject", {"type": "tool_call", "toolCall": {"toolCallId": "c"}}, "")
refuse("v1 permission request whose tool call has no title", "v1", "RequestPermissionRequest", {"sessionId": "s", "toolCall": {"toolCallId": "c"}, "options": [OPT]}, "/toolCall/title")
refuse("v1 permission request with no options", "v1", "RequestPermissionRequest", {"sessionId": "s", "toolCall": {"toolCallId": "c", "title": "t"}, "options": []}, "/options")
refuse("v1 permission request with an unknown title member", "v1", "RequestPermissionRequest", {"sessionId": "s", "toolCall": {"toolCallId": "c", "title": "t"}, "options": [OPT], "title": "x"}, "/title")
refuse("v1 permission request with an unknown subject member", "v1", "RequestPermissionRequest", {"sessionId": "s", "toolCall": {"toolCallId": "c", "title": "t"}, "options": [OPT], "subject": None}, "/subject")
refuse("v1 permission request with bad image data in the tool call", "v1", "RequestPermissionRequest",
       {"sessionId": "s", "toolCall": {"toolCallId": "c", "title": "t", "content": [{"type": "content", "content": {"type": "image", "data": "x", "mimeType": "image/png"}}]}, "options": [OPT]}, "/toolCall/content/0/content/data")
refuse("v1 permission request with a relative location", "v1", "RequestPermissionRequest",
       {"sessionId": "s", "toolCall": {"toolCallId": "c", "title": "t", "locations": [{"path": "a"}]}, "options": [OPT]}, "/toolCall/locations/0/path")

doc = {
    "description": "Kind `convert`: the stateless v1 <-> v2 converters (docs/ADAPTERS.md). Exact mappings both ways in each version's member order; refusals (`not_representable`) at the item at fault; errors of the input itself. Written by make_convert.py.",
    "cases": cases,
}
names = [c["name"] for c in cases]
assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
with open("tests/vectors/convert/convert.json", "w", encoding="utf-8") as f:
    json.dump(doc, f, ensure_ascii=False, indent=1)
    f.write("\n")
print(len(cases), "convert cases")
