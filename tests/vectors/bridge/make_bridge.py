"""Writes bridge.json and ingest.json (kinds `bridge` and `ingest`, docs/CONFORMANCE.md).

Run from the repository root: python3 tests/vectors/bridge/make_bridge.py
The expected v1 updates and store states are written by hand from docs/ADAPTERS.md
(text layout, cap marker, `_meta` convention) and docs/TRANSCRIPT.md; base64 is the only
thing computed here.
"""

import base64
import json


def b64(data):
    return base64.b64encode(data.encode() if isinstance(data, str) else data).decode()


def tcu(call, **members):
    return {"update": {"sessionUpdate": "tool_call_update", "toolCallId": call, **members}}


def tu(term, **members):
    return {"update": {"sessionUpdate": "terminal_update", "terminalId": term, **members}}


def chunk(term, data):
    return {"update": {"sessionUpdate": "terminal_output_chunk", "terminalId": term, "data": b64(data)}}


FLUSH = {"flush": True}
REF = {"type": "terminal", "terminalId": "t1"}
REF2 = {"type": "terminal", "terminalId": "t2"}


def text_item(text):
    return {"type": "content", "content": {"type": "text", "text": text}}


def v1(tag, call, **members):
    return {"sessionUpdate": tag, "toolCallId": call, **members}


def err(kind, path):
    return {"error": {"kind": kind, "path": path}}


bridge = []


def case(name, steps, outputs, cap=None, meta=False):
    c = {"name": name, "kind": "bridge"}
    if cap is not None or meta:
        c["options"] = {"cap": cap, "meta": meta}
    c["steps"] = steps
    c["expect"] = {"output": outputs}
    assert len(steps) == len(outputs), name
    bridge.append(c)


EXIT0 = {"exitCode": 0}
case("tool call first, then output, flush, exit",
     [tcu("c1", title="Run tests", kind="execute", content=[REF]), tu("t1", command="cargo test"), chunk("t1", "running\r\n"), FLUSH, tu("t1", exitStatus=EXIT0), FLUSH],
     [[v1("tool_call", "c1", title="Run tests", kind="execute", content=[text_item("")])], [], [],
      [v1("tool_call_update", "c1", content=[text_item("$ cargo test\nrunning\n")])],
      [v1("tool_call_update", "c1", content=[text_item("$ cargo test\nrunning\n[exit code 0]")])], []])
case("terminal first, then the tool call shows what is known",
     [tu("t1", command="make", output={"data": b64("a\n")}), chunk("t1", "b\n"), tcu("c1", title="Build", status="in_progress", content=[REF])],
     [[], [], [v1("tool_call", "c1", title="Build", status="in_progress", content=[text_item("$ make\na\nb\n")])]])
case("other content items stay where they were",
     [tu("t1", command="ls"), chunk("t1", "x\n"), tcu("c1", title="T", content=[text_item("before"), REF, text_item("after")]), chunk("t1", "y\n"), FLUSH],
     [[], [], [v1("tool_call", "c1", title="T", content=[text_item("before"), text_item("$ ls\nx\n"), text_item("after")])], [],
      [v1("tool_call_update", "c1", content=[text_item("before"), text_item("$ ls\nx\ny\n"), text_item("after")])]])
case("flush with nothing new sends nothing", [tcu("c1", title="T", content=[REF]), FLUSH], [[v1("tool_call", "c1", title="T", content=[text_item("")])], []])
case("a second flush without new output sends nothing",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "a"), FLUSH, FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [v1("tool_call_update", "c1", content=[text_item("a")])], []])
case("chunks are not sent one by one: one flush for three chunks",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "1\n"), chunk("t1", "2\n"), chunk("t1", "3\n"), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [], [], [v1("tool_call_update", "c1", content=[text_item("1\n2\n3\n")])]])
case("two tool calls that reference one terminal both get the text, in first-seen order",
     [tcu("c2", title="B", content=[REF]), tcu("c1", title="A", content=[REF]), chunk("t1", "z"), FLUSH],
     [[v1("tool_call", "c2", title="B", content=[text_item("")])], [v1("tool_call", "c1", title="A", content=[text_item("")])], [],
      [v1("tool_call_update", "c2", content=[text_item("z")]), v1("tool_call_update", "c1", content=[text_item("z")])]])
case("one tool call with two terminals",
     [tu("t1", command="a"), tu("t2", command="b"), tcu("c1", title="T", content=[REF, REF2]), chunk("t2", "2"), FLUSH],
     [[], [], [v1("tool_call", "c1", title="T", content=[text_item("$ a\n"), text_item("$ b\n")])], [],
      [v1("tool_call_update", "c1", content=[text_item("$ a\n"), text_item("$ b\n2")])]])
case("a first update without a title is sent as tool_call_update",
     [tcu("c1", status="pending", content=[REF])], [[v1("tool_call_update", "c1", status="pending", content=[text_item("")])]])
case("a later update with a title is a tool_call_update",
     [tcu("c1", title="A"), tcu("c1", title="B")], [[v1("tool_call", "c1", title="A")], [v1("tool_call_update", "c1", title="B")]])
case("a status change without content carries no text",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "out"), tcu("c1", status="completed")],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [v1("tool_call_update", "c1", status="completed")]])
case("cancelled status is refused at the member",
     [tcu("c1", title="T"), tcu("c1", status="cancelled")],
     [[v1("tool_call", "c1", title="T")], err("not_representable", "/steps/1/update/status")])
case("a diff item is refused at the item",
     [tcu("c1", title="T", content=[text_item("x"), {"type": "diff", "changes": [{"operation": "modify", "path": "/w/a.rs"}]}])],
     [err("not_representable", "/steps/0/update/content/1")])
case("an update outside the tool-call and terminal surface is refused",
     [{"update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}}}],
     [err("not_representable", "/steps/0/update")])
case("an update that does not parse is its parse error",
     [{"update": {"sessionUpdate": "terminal_output_chunk", "data": "AA=="}}], [err("missing_field", "/steps/0/update/terminalId")])
case("bad base64 in a chunk is its parse error",
     [{"update": {"sessionUpdate": "terminal_output_chunk", "terminalId": "t1", "data": "AA"}}], [err("invalid_base64", "/steps/0/update/data")])
case("a content chunk with a terminal sends the whole content so far",
     [tcu("c1", title="T", content=[text_item("a")]), {"update": {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "c1", "content": REF}}, chunk("t1", "o"), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("a")])], [v1("tool_call_update", "c1", content=[text_item("a"), text_item("")])], [],
      [v1("tool_call_update", "c1", content=[text_item("a"), text_item("o")])]])
case("a content chunk before any content starts the list",
     [{"update": {"sessionUpdate": "tool_call_content_chunk", "toolCallId": "c1", "content": text_item("first")}}],
     [[v1("tool_call_update", "c1", content=[text_item("first")])]])
case("cap keeps the head and the tail with a marker",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "abcdefghij"), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [v1("tool_call_update", "c1", content=[text_item("ab\n[... 6 characters left out ...]\nij")])]], cap=4)
case("cap with an odd count keeps the extra character at the tail",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "abcdefghij"), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [v1("tool_call_update", "c1", content=[text_item("a\n[... 7 characters left out ...]\nij")])]], cap=3)
case("cap larger than the transcript changes nothing",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "short\n"), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [v1("tool_call_update", "c1", content=[text_item("short\n")])]], cap=100)
case("cap counts characters, not bytes",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "\u00e9\u00e9\u00e9\u00e9\u00e9"), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [v1("tool_call_update", "c1", content=[text_item("\u00e9\n[... 3 characters left out ...]\n\u00e9")])]], cap=2)
case("cap applies to the transcript, not the command line or exit status",
     [tu("t1", command="seq 100"), tcu("c1", title="T", content=[REF]), chunk("t1", "1\n2\n3\n4\n5\n"), tu("t1", exitStatus={"exitCode": 1})],
     [[], [v1("tool_call", "c1", title="T", content=[text_item("$ seq 100\n")])], [],
      [v1("tool_call_update", "c1", content=[text_item("$ seq 100\n1\n\n[... 6 characters left out ...]\n5\n[exit code 1]")])]], cap=4)
case("escape sequences are removed from the text",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "\x1b[32mok\x1b[0m\r\n"), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [v1("tool_call_update", "c1", content=[text_item("ok\n")])]])
case("carriage-return progress shows its last state",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "10%\r50%\r100%\n"), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [v1("tool_call_update", "c1", content=[text_item("100%\n")])]])
case("exit by signal",
     [tcu("c1", title="T", content=[REF]), tu("t1", exitStatus={"signal": "SIGKILL"})],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [v1("tool_call_update", "c1", content=[text_item("[signal SIGKILL]")])]])
case("exit code and signal",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "x"), tu("t1", exitStatus={"exitCode": 137, "signal": "SIGKILL"})],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [v1("tool_call_update", "c1", content=[text_item("x\n[exit code 137, signal SIGKILL]")])]])
case("exit with neither code nor signal",
     [tcu("c1", title="T", content=[REF]), tu("t1", exitStatus={})],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [v1("tool_call_update", "c1", content=[text_item("[exited]")])]])
case("exit of a terminal no tool call references sends nothing",
     [tu("t1", command="x", exitStatus=EXIT0)], [[]])
case("a snapshot replaces what was shown",
     [tcu("c1", title="T", content=[REF]), chunk("t1", "old\n"), FLUSH, tu("t1", output={"data": b64("new\n")}), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [], [v1("tool_call_update", "c1", content=[text_item("old\n")])], [],
      [v1("tool_call_update", "c1", content=[text_item("new\n")])]])
case("a tool call whose content no longer references the terminal gets nothing on flush",
     [tcu("c1", title="T", content=[REF]), tcu("c1", content=[text_item("done")]), chunk("t1", "late"), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [v1("tool_call_update", "c1", content=[text_item("done")])], [], []])
case("content null clears as an empty list",
     [tcu("c1", title="T", content=[REF]), tcu("c1", content=None), chunk("t1", "x"), FLUSH],
     [[v1("tool_call", "c1", title="T", content=[text_item("")])], [v1("tool_call_update", "c1", content=[])], [], []])
case("the terminal item's _meta moves to the text item",
     [tcu("c1", title="T", content=[{"type": "terminal", "terminalId": "t1", "_meta": {"pane": 2}}])],
     [[v1("tool_call", "c1", title="T", content=[{"type": "content", "content": {"type": "text", "text": ""}, "_meta": {"pane": 2}}])]])
case("the tool call's own _meta and unknown members travel",
     [tcu("c1", title="T", _meta={"a": 1}, extra=True)], [[v1("tool_call", "c1", title="T", _meta={"a": 1}, extra=True)]])
case("exit before the tool call references the terminal",
     [tu("t1", command="true", exitStatus=EXIT0), tcu("c1", title="T", content=[REF])],
     [[], [v1("tool_call", "c1", title="T", content=[text_item("$ true\n[exit code 0]")])]])
case("output of an unreferenced terminal is kept until a tool call references it",
     [chunk("t1", "early\n"), FLUSH, tcu("c1", title="T", content=[REF])],
     [[], [], [v1("tool_call", "c1", title="T", content=[text_item("early\n")])]])
case("the command line is shown safely on one line",
     [tu("t1", command="echo \x1b[31mred\nnext"), tcu("c1", title="T", content=[REF])],
     [[], [v1("tool_call", "c1", title="T", content=[text_item("$ echo red next\n")])]])
case("meta: info on the first update that shows the terminal, then only new output per flush, exit once",
     [tcu("c1", title="T", content=[REF]), tu("t1", command="cat", cwd="/w"), chunk("t1", "hello\n"), FLUSH, chunk("t1", "more\n"), FLUSH, tu("t1", exitStatus=EXIT0)],
     [[v1("tool_call", "c1", title="T", content=[text_item("")], _meta={"terminal_info": {"terminal_id": "t1", "cwd": None}})], [], [],
      [v1("tool_call_update", "c1", content=[text_item("$ cat\nhello\n")], _meta={"terminal_output": {"terminal_id": "t1", "data": "hello\n"}})], [],
      [v1("tool_call_update", "c1", content=[text_item("$ cat\nhello\nmore\n")], _meta={"terminal_output": {"terminal_id": "t1", "data": "more\n"}})],
      [v1("tool_call_update", "c1", content=[text_item("$ cat\nhello\nmore\n[exit code 0]")], _meta={"terminal_exit": {"terminal_id": "t1", "exit_code": 0, "signal": None}})]], meta=True)
case("meta: the data keeps the raw output, the text is safe",
     [tu("t1"), tcu("c1", title="T", content=[REF]), chunk("t1", "\x1b[1mhi\x1b[0m"), FLUSH],
     [[], [v1("tool_call", "c1", title="T", content=[text_item("")], _meta={"terminal_info": {"terminal_id": "t1", "cwd": None}})], [],
      [v1("tool_call_update", "c1", content=[text_item("hi")], _meta={"terminal_output": {"terminal_id": "t1", "data": "\x1b[1mhi\x1b[0m"}})]], meta=True)
case("meta: a UTF-8 sequence split across flushes is sent whole",
     [tu("t1"), tcu("c1", title="T", content=[REF]), chunk("t1", b"caf\xc3"), FLUSH, chunk("t1", b"\xa9\n"), FLUSH],
     [[], [v1("tool_call", "c1", title="T", content=[text_item("")], _meta={"terminal_info": {"terminal_id": "t1", "cwd": None}})], [],
      [v1("tool_call_update", "c1", content=[text_item("caf")], _meta={"terminal_output": {"terminal_id": "t1", "data": "caf"}})], [],
      [v1("tool_call_update", "c1", content=[text_item("caf\u00e9\n")], _meta={"terminal_output": {"terminal_id": "t1", "data": "\u00e9\n"}})]], meta=True)
case("meta: invalid UTF-8 becomes U+FFFD in the data",
     [tu("t1"), tcu("c1", title="T", content=[REF]), chunk("t1", b"a\xffb"), FLUSH],
     [[], [v1("tool_call", "c1", title="T", content=[text_item("")], _meta={"terminal_info": {"terminal_id": "t1", "cwd": None}})], [],
      [v1("tool_call_update", "c1", content=[text_item("a\ufffdb")], _meta={"terminal_output": {"terminal_id": "t1", "data": "a\ufffdb"}})]], meta=True)
case("meta: a second terminal's convention goes in its own update",
     [tu("t1"), tu("t2"), tcu("c1", title="T", content=[REF, REF2])],
     [[], [], [v1("tool_call", "c1", title="T", content=[text_item(""), text_item("")], _meta={"terminal_info": {"terminal_id": "t1", "cwd": None}}),
               v1("tool_call_update", "c1", _meta={"terminal_info": {"terminal_id": "t2", "cwd": None}})]], meta=True)
case("meta: the tool call's own _meta comes first",
     [tu("t1", cwd="/a"), tcu("c1", title="T", content=[REF], _meta={"mine": 1})],
     [[], [v1("tool_call", "c1", title="T", content=[text_item("")], _meta={"mine": 1, "terminal_info": {"terminal_id": "t1", "cwd": "/a"}})]], meta=True)
case("meta: never a v1 terminal item, even with the convention on",
     [tu("t1", command="x"), chunk("t1", "o"), tu("t1", exitStatus={"exitCode": 2}), tcu("c1", title="T", content=[REF])],
     [[], [], [], [v1("tool_call", "c1", title="T", content=[text_item("$ x\no\n[exit code 2]")], _meta={"terminal_info": {"terminal_id": "t1", "cwd": None}, "terminal_output": {"terminal_id": "t1", "data": "o"}, "terminal_exit": {"terminal_id": "t1", "exit_code": 2, "signal": None}})]], meta=True)

# ---- ingest -------------------------------------------------------------------------------
ingest = []


def term(command=None, cwd=None, output=b"", exit=None, transcript="", calls=()):
    return {"command": command, "cwd": cwd, "output": base64.b64encode(output).decode(), "exitStatus": exit, "transcript": transcript, "toolCallIds": list(calls)}


def icase(name, updates, terminals, warnings=(), error=None):
    expect = {}
    if error:
        expect["error"] = {"kind": error[0], "path": error[1]}
    if warnings:
        expect["warnings"] = [{"kind": k, "path": p} for k, p in warnings]
    expect["terminals"] = terminals
    ingest.append({"name": name, "kind": "ingest", "updates": updates, "expect": expect})


def one(update, schema="v1"):
    return {"schema": schema, "update": update}


def call1(tag="tool_call_update", call="c1", **meta):
    u = {"sessionUpdate": tag, "toolCallId": call}
    if tag == "tool_call":
        u["title"] = "T"
    u["_meta"] = meta
    return one(u)


INFO = {"terminal_id": "t1", "cwd": "/w"}
icase("terminal_info creates the terminal and links the tool call", [call1("tool_call", terminal_info=INFO)], {"t1": term(cwd="/w", calls=["c1"])})
icase("terminal_output appends the UTF-8 bytes of its text",
      [call1("tool_call", terminal_info=INFO), call1(terminal_output={"terminal_id": "t1", "data": "hello\n"})],
      {"t1": term(cwd="/w", output=b"hello\n", transcript="hello\n", calls=["c1"])})
icase("terminal_exit sets the exit status",
      [call1("tool_call", terminal_info=INFO), call1(terminal_exit={"terminal_id": "t1", "exit_code": 0, "signal": None})],
      {"t1": term(cwd="/w", exit={"exitCode": 0, "signal": None}, calls=["c1"])})
icase("a whole run: info, two outputs, exit",
      [call1("tool_call", terminal_info=INFO), call1(terminal_output={"terminal_id": "t1", "data": "a\n"}), call1(terminal_output={"terminal_id": "t1", "data": "b\n"}),
       call1(terminal_exit={"terminal_id": "t1", "exit_code": 1, "signal": "SIGTERM"})],
      {"t1": term(cwd="/w", output=b"a\nb\n", transcript="a\nb\n", exit={"exitCode": 1, "signal": "SIGTERM"}, calls=["c1"])})
icase("non-ASCII text becomes its UTF-8 bytes",
      [call1(terminal_output={"terminal_id": "t1", "data": "\u2713 d\u00f6ne\n"})],
      {"t1": term(output="\u2713 d\u00f6ne\n".encode(), transcript="\u2713 d\u00f6ne\n", calls=["c1"])})
icase("escape sequences in the data are kept as bytes and removed from the transcript",
      [call1(terminal_output={"terminal_id": "t1", "data": "\x1b[31merr\x1b[0m\r\n"})],
      {"t1": term(output=b"\x1b[31merr\x1b[0m\r\n", transcript="err\n", calls=["c1"])})
icase("all three keys in one update apply in order",
      [call1(terminal_exit={"terminal_id": "t1", "exit_code": 0}, terminal_output={"terminal_id": "t1", "data": "x"}, terminal_info=INFO)],
      {"t1": term(cwd="/w", output=b"x", transcript="x", exit={"exitCode": 0, "signal": None}, calls=["c1"])})
icase("v1 and v2 agents render through one store",
      [call1("tool_call", terminal_info=INFO), one({"sessionUpdate": "terminal_update", "terminalId": "t2", "command": "ls"}, "v2"),
       call1(terminal_output={"terminal_id": "t1", "data": "v1\n"}), one({"sessionUpdate": "terminal_output_chunk", "terminalId": "t2", "data": b64("v2\n")}, "v2"),
       one({"sessionUpdate": "tool_call_update", "toolCallId": "c2", "content": [REF2]}, "v2")],
      {"t1": term(cwd="/w", output=b"v1\n", transcript="v1\n", calls=["c1"]), "t2": term(command="ls", output=b"v2\n", transcript="v2\n", calls=["c2"])})
icase("the convention and v2 updates reach the same terminal",
      [call1(terminal_output={"terminal_id": "t1", "data": "a"}), one({"sessionUpdate": "terminal_output_chunk", "terminalId": "t1", "data": b64("b")}, "v2")],
      {"t1": term(output=b"ab", transcript="ab", calls=["c1"])})
icase("two tool calls link the same terminal",
      [call1(call="c1", terminal_info=INFO), call1(call="c2", terminal_output={"terminal_id": "t1", "data": ""})],
      {"t1": term(cwd="/w", calls=["c1", "c2"])})
icase("one tool call links a second terminal and keeps the first",
      [call1(terminal_info=INFO), call1(terminal_info={"terminal_id": "t2"})],
      {"t1": term(cwd="/w", calls=["c1"]), "t2": term(calls=["c1"])})
icase("malformed data is a warning; the rest of the update still applies",
      [call1(terminal_info=INFO, terminal_output={"terminal_id": "t1", "data": 5})],
      {"t1": term(cwd="/w", calls=["c1"])}, warnings=[("wrong_type", "/updates/0/update/_meta/terminal_output/data")])
icase("missing data is a warning", [call1(terminal_output={"terminal_id": "t1"})], {"t1": term(calls=["c1"])},
      warnings=[("missing_field", "/updates/0/update/_meta/terminal_output/data")])
icase("a relative cwd is a warning and stays unknown", [call1(terminal_info={"terminal_id": "t1", "cwd": "w"})], {"t1": term(calls=["c1"])},
      warnings=[("relative_path", "/updates/0/update/_meta/terminal_info/cwd")])
icase("a cwd that is not a string is a warning", [call1(terminal_info={"terminal_id": "t1", "cwd": ["/w"]})], {"t1": term(calls=["c1"])},
      warnings=[("wrong_type", "/updates/0/update/_meta/terminal_info/cwd")])
icase("a missing terminal_id skips that key", [call1(terminal_output={"data": "x"}, terminal_info=INFO)], {"t1": term(cwd="/w", calls=["c1"])},
      warnings=[("missing_field", "/updates/0/update/_meta/terminal_output/terminal_id")])
icase("a terminal_id that is not a string skips that key", [call1(terminal_info={"terminal_id": 7})], {},
      warnings=[("wrong_type", "/updates/0/update/_meta/terminal_info/terminal_id")])
icase("a convention key that is not an object is a warning", [call1(terminal_info="t1")], {},
      warnings=[("wrong_type", "/updates/0/update/_meta/terminal_info")])
icase("a negative exit code is a warning; the exit is still recorded", [call1(terminal_exit={"terminal_id": "t1", "exit_code": -1, "signal": "SIGSEGV"})],
      {"t1": term(exit={"exitCode": None, "signal": "SIGSEGV"}, calls=["c1"])}, warnings=[("out_of_range", "/updates/0/update/_meta/terminal_exit/exit_code")])
icase("a fractional exit code is a warning", [call1(terminal_exit={"terminal_id": "t1", "exit_code": 1.5})],
      {"t1": term(exit={"exitCode": None, "signal": None}, calls=["c1"])}, warnings=[("wrong_type", "/updates/0/update/_meta/terminal_exit/exit_code")])
icase("a signal that is not a string is a warning", [call1(terminal_exit={"terminal_id": "t1", "exit_code": 0, "signal": 9})],
      {"t1": term(exit={"exitCode": 0, "signal": None}, calls=["c1"])}, warnings=[("wrong_type", "/updates/0/update/_meta/terminal_exit/signal")])
icase("an update without the convention changes nothing", [one({"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "T", "_meta": {"other": 1}})], {})
icase("a v1 terminal item (Client-owned) is not ingested", [one({"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "T", "content": [REF]})], {})
icase("other v1 updates are ignored", [one({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hi"}, "_meta": {"terminal_info": INFO}})], {})
icase("an update that does not parse stops the sequence",
      [call1(terminal_info=INFO), one({"sessionUpdate": "tool_call", "toolCallId": "c2"}), call1(terminal_output={"terminal_id": "t1", "data": "x"})],
      {"t1": term(cwd="/w", calls=["c1"])}, error=("missing_field", "/updates/1/update/title"))
icase("a lenient member the v1 parse drops is a warning too",
      [one({"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "paused", "_meta": {"terminal_info": INFO}})],
      {"t1": term(cwd="/w", calls=["c1"])}, warnings=[("unknown_variant", "/updates/0/update/status")])

for name, cases, desc in [
    ("bridge.json", bridge, "Kind `bridge`: the stateful v2 -> v1 bridge (docs/ADAPTERS.md): text in place of terminal items, produced on flush and exit, the cap, the `_meta` convention output, refusals. Written by make_bridge.py."),
    ("ingest.json", ingest, "Kind `ingest`: the v1 `_meta` terminal convention (terminal_info, terminal_output, terminal_exit) read into the terminal store next to v2 updates; malformed convention data is a warning. Written by make_bridge.py."),
]:
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), name
    with open(f"tests/vectors/bridge/{name}", "w", encoding="utf-8") as f:
        json.dump({"description": desc, "cases": cases}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(name, len(cases))
