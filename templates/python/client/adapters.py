"""Version adapters (docs/ADAPTERS.md): stateless v1 <-> v2 converters that refuse
terminals, a stateful v2 -> v1 ``Bridge`` for Clients that only speak v1, and
``ingest_v1``, which reads the v1 ``_meta`` terminal convention into a ``TerminalStore``.
The same rules as the Rust and TypeScript adapters, checked by the same vectors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from . import adapter_rules as rules
from ._runtime.base64 import encode_base64
from ._runtime.errors import ErrorKind, ParseError, Problem, push_token
from ._runtime.json import Json, JsonObject, parse_json
from ._runtime.path import is_absolute_path
from ._runtime.writer import write_json
from .registry import CODECS
from .store import TerminalStore
from .transcript import Transcript
from .v2 import parse_session_update, serialize_session_update

__all__ = [
    "Bridge",
    "Converted",
    "ProtocolVersion",
    "cap_text",
    "convert",
    "ingest_v1",
]

ProtocolVersion = Literal["v1", "v2"]


@dataclass(frozen=True, slots=True)
class Converted:
    """A converted value: the target definition, its canonical JSON text, and the
    warnings from parsing the input."""

    type: str
    text: str
    warnings: tuple[Problem, ...]


def _refused(path: str, message: str) -> ParseError:
    return ParseError(Problem("not_representable", path, message))


def _obj(v: Json | None) -> JsonObject:
    return dict(v) if isinstance(v, dict) else {}


def _tag(v: Json | None, name: str) -> str:
    t = v.get(name) if isinstance(v, dict) else None
    return t if isinstance(t, str) else ""


def convert(
    source: ProtocolVersion, target: ProtocolVersion, type_name: str, value: str | Json, to_type: str | None = None
) -> Converted:
    """Converts ``value`` (JSON text or value), of definition ``type_name`` in version
    ``source``, to version ``target``; ``to_type`` picks the target definition when there
    is a choice (a v2 ``ToolCallUpdate`` to a v1 ``ToolCall``). Raises ``ParseError``:
    the input's own parse error as it is, or ``not_representable`` at the item at fault."""
    pair = next(
        (
            p
            for p in rules.PAIRS
            if p[0] == source and source != target and p[1] == type_name and (to_type is None or p[2] == to_type)
        ),
        None,
    )
    if pair is None:
        raise _refused("", rules.no_pair(target, source, type_name))
    parse, serialize = CODECS[source][type_name]
    parsed = parse(value)
    goal = pair[2]
    if goal is None:
        raise _refused("", rules.refusal(source, type_name) or rules.SUBJECT_ALONE)

    def back(p: str) -> str:
        return _map_back(source, type_name, p)

    out = _Converter(source).value(type_name, goal, parse_json(serialize(parsed.value)), "")
    parse_target, serialize_target = CODECS[target][goal]
    try:
        result = parse_target(write_json(out))
    except ParseError as e:
        raise _refused(back(e.path), rules.not_accepted(target, e.message)) from None
    if result.warnings:
        w = result.warnings[0]
        raise _refused(back(w.path), rules.would_drop(target, w.message))
    text = serialize_target(result.value)
    p = _first_difference(out, parse_json(text), "")
    if p is not None:
        raise _refused(back(p), rules.not_kept(target))
    return Converted(goal, text, parsed.warnings)


def _map_back(source: str, type_name: str, path: str) -> str:
    if type_name != "RequestPermissionRequest":
        return path
    if source == "v1":
        if path.startswith("/subject/toolCall"):
            return "/toolCall" + path[len("/subject/toolCall") :]
        if path == "/title":
            return "/toolCall/title"
        if path.startswith("/subject"):
            return "/toolCall"
        return path
    return "/subject/toolCall" + path[len("/toolCall") :] if path.startswith("/toolCall") else path


def _first_difference(a: Json, b: Json, path: str) -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k, v in a.items():
            if k not in b:
                return push_token(path, k)
            p = _first_difference(v, b[k], push_token(path, k))
            if p is not None:
                return p
        return next((push_token(path, k) for k in b if k not in a), None)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return path
        for i, (v, w) in enumerate(zip(a, b, strict=True)):
            p = _first_difference(v, w, push_token(path, i))
            if p is not None:
                return p
        return None
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, (dict, list)) or isinstance(b, (dict, list)):
        return None if type(a) is type(b) and a == b else path
    return None if a == b else path


# The patch members of v2 ToolCallUpdate (a null there clears; an unknown member's null is just a value).
_PATCH_MEMBERS = ("title", "kind", "status", "content", "locations", "rawInput", "rawOutput", "_meta")


class _Converter:
    def __init__(self, source: str) -> None:
        self.source = source

    def value(self, type_name: str, goal: str, v: Json, p: str) -> Json:
        if type_name in ("SessionNotification", "UpdateSessionNotification"):
            o = _obj(v)
            if "update" in o:
                o["update"] = self.session_update(o["update"], push_token(p, "update"))
            return o
        if type_name == "SessionUpdate":
            return self.session_update(v, p)
        if type_name in ("ToolCall", "ToolCallUpdate"):
            return self.tool_call_update(v, p, goal == "ToolCall")
        if type_name == "ToolCallContent":
            return self.tool_call_content(v, p)
        if type_name == "Content":
            return self.content(v, p)
        if type_name == "ContentBlock":
            return self.content_block(v, p)
        if type_name == "Diff":
            raise _refused(p, self.diff_message())
        if type_name == "Terminal":
            raise _refused(p, rules.TERMINAL)
        if type_name == "RequestPermissionRequest":
            return self.permission_request_to_v2(v, p) if self.source == "v1" else self.permission_request_to_v1(v, p)
        return v

    def diff_message(self) -> str:
        return rules.DIFF_FROM_V1 if self.source == "v1" else rules.DIFF_FROM_V2

    def session_update(self, v: Json, p: str) -> Json:
        tag = _tag(v, "sessionUpdate")
        if self.source == "v1" and tag in ("tool_call", "tool_call_update"):
            o = _obj(self.tool_call_update(v, p, False))
            o["sessionUpdate"] = "tool_call_update"
            return o
        if self.source == "v2":
            if tag == "tool_call_update":
                return self.tool_call_update(v, p, False)
            if tag in ("terminal_update", "terminal_output_chunk"):
                raise _refused(p, rules.TERMINAL_UPDATE)
            if tag == "tool_call_content_chunk":
                raise _refused(p, rules.CHUNK)
        raise _refused(p, rules.not_tool_call_update(self.source, tag))

    def tool_call_update(self, v: Json, p: str, needs_title: bool) -> Json:
        o = _obj(v)
        if self.source == "v2":
            for k, x in _obj(v).items():
                if x is not None or k not in _PATCH_MEMBERS:
                    continue
                if k in ("content", "locations"):
                    o[k] = []
                else:
                    raise _refused(push_token(p, k), rules.cannot_clear(k))
        items = v.get("content") if isinstance(v, dict) else None
        if isinstance(items, list):
            base = push_token(p, "content")
            o["content"] = [self.tool_call_content(item, push_token(base, i)) for i, item in enumerate(items)]
        if needs_title and not (isinstance(v, dict) and isinstance(v.get("title"), str)):
            raise _refused(push_token(p, "title"), rules.NEEDS_TITLE)
        return o

    def tool_call_content(self, v: Json, p: str) -> Json:
        tag = _tag(v, "type")
        if tag == "content":
            return self.content(v, p)
        if tag == "terminal":
            raise _refused(p, rules.TERMINAL)
        if tag == "diff":
            raise _refused(p, self.diff_message())
        raise _refused(p, rules.tool_call_content_type(tag))

    def content(self, v: Json, p: str) -> Json:
        o = _obj(v)
        if "content" in o:
            o["content"] = self.content_block(o["content"], push_token(p, "content"))
        return o

    def content_block(self, v: Json, p: str) -> Json:
        tag = _tag(v, "type")
        if tag not in ("text", "image", "audio", "resource_link", "resource"):
            raise _refused(p, rules.content_type(tag))
        if tag == "resource_link" and isinstance(v, dict) and "icons" in v:
            why = rules.ICONS_FROM_V2 if self.source == "v2" else rules.ICONS_FROM_V1
            raise _refused(push_token(p, "icons"), why)
        return v

    def permission_request_to_v2(self, v: Json, p: str) -> Json:
        src = _obj(v)
        for k in ("title", "description", "subject"):
            if k in src:
                raise _refused(push_token(p, k), rules.v2_member_in_v1(k))
        tool_call = src.get("toolCall")
        title = tool_call.get("title") if isinstance(tool_call, dict) else None
        if not isinstance(title, str):
            raise _refused(push_token(push_token(p, "toolCall"), "title"), rules.PERMISSION_NEEDS_TITLE)
        converted = self.tool_call_update(tool_call, push_token(p, "toolCall"), False)
        out: JsonObject = {}
        for k, x in src.items():
            if k == "toolCall":
                out["title"] = title
                out["subject"] = {"type": "tool_call", "toolCall": converted}
            else:
                out[k] = x
        return out

    def permission_request_to_v1(self, v: Json, p: str) -> Json:
        src = _obj(v)
        if "toolCall" in src:
            raise _refused(push_token(p, "toolCall"), rules.TOOL_CALL_MEMBER_IN_V2)
        if "description" in src:
            raise _refused(push_token(p, "description"), rules.NO_DESCRIPTION)
        if "subject" not in src:
            raise _refused(push_token(p, "subject"), rules.NO_SUBJECT)
        subject = _obj(src["subject"])
        sp = push_token(p, "subject")
        kind = _tag(subject, "type")
        if kind == "command":
            raise _refused(sp, rules.COMMAND_SUBJECT)
        if kind != "tool_call":
            raise _refused(sp, rules.subject_kind(kind))
        for k in subject:
            if k not in ("type", "toolCall"):
                raise _refused(push_token(sp, k), rules.subject_member(k))
        tool_call = subject.get("toolCall")
        title = tool_call.get("title") if isinstance(tool_call, dict) else None
        if title != src.get("title"):
            raise _refused(push_token(p, "title"), rules.TITLE_DIFFERS)
        converted = self.tool_call_update(tool_call, push_token(sp, "toolCall"), False)
        out: JsonObject = {}
        for k, x in src.items():
            if k == "title":
                continue
            out["toolCall" if k == "subject" else k] = converted if k == "subject" else x
        return out


# ---------------------------------------------------------------------------------
# The v2 -> v1 bridge


@dataclass
class _CallState:
    content: list[Json] | None = None
    sent: bool = False


@dataclass
class _MetaSent:
    info: bool = False
    offset: int = 0
    exit: bool = False


class Bridge:
    """Feeds v2 ``SessionUpdate``s to a Client that only speaks v1. Terminal output
    reaches it as text content (the safe transcript, with the command and exit status) in
    place of the terminal item in every tool call that references the terminal; text is
    made only on ``flush()``, on exit, and when a tool call's content is set. It never
    emits a v1 terminal item.

    ``cap``: keep at most this many characters of each transcript (head and tail, with a
    marker); ``meta``: also emit the ``_meta`` terminal convention."""

    def __init__(self, cap: int | None = None, meta: bool = False) -> None:
        self.store = TerminalStore()
        self._cap = cap
        self._meta = meta
        self._calls: dict[str, _CallState] = {}
        self._dirty: list[str] = []
        self._sent: dict[tuple[str, str], _MetaSent] = {}

    def _call(self, call_id: str) -> _CallState:
        return self._calls.setdefault(call_id, _CallState())

    def _mark_dirty(self, terminal_id: str) -> None:
        if terminal_id not in self._dirty:
            self._dirty.append(terminal_id)

    def push(self, text: str) -> list[str]:
        """Applies one v2 ``SessionUpdate`` (JSON text); returns the v1 updates to send
        (canonical JSON texts). Raises ``ParseError``: its parse error (nothing applied),
        or ``not_representable`` for what v1 cannot show (applied to the store all the same)."""
        parsed = parse_session_update(text)
        v = _obj(parse_json(serialize_session_update(parsed.value)))
        self.store.apply(parsed.value)
        tag = _tag(v, "sessionUpdate")
        if tag == "terminal_output_chunk":
            self._mark_dirty(_tag(v, "terminalId"))
            return []
        if tag == "terminal_update":
            terminal_id = _tag(v, "terminalId")
            if "output" in v:
                for (_, t), s in self._sent.items():
                    if t == terminal_id:
                        s.offset = 0
            self._mark_dirty(terminal_id)
            return self._emit_terminal(terminal_id) if isinstance(v.get("exitStatus"), dict) else []
        if tag == "tool_call_update":
            call_id = _tag(v, "toolCallId")
            update = dict(v)
            del update["sessionUpdate"]
            content = v.get("content")
            if isinstance(content, list):
                self._call(call_id).content = list(content)
            elif "content" in v:
                self._call(call_id).content = []
                update["content"] = []
            first = not self._call(call_id).sent
            out = self._emit(call_id, update, "content" in v, first)
            self._call(call_id).sent = True
            return out
        if tag == "tool_call_content_chunk":
            call_id = _tag(v, "toolCallId")
            call = self._call(call_id)
            call.content = [*(call.content or []), v.get("content")]
            out = self._emit(call_id, {"toolCallId": call_id}, True, False)
            call.sent = True
            return out
        raise _refused("", rules.bridge_only(tag))

    def flush(self) -> list[str]:
        """Sends the current text of every terminal that changed since the last flush to
        every tool call that references it."""
        dirty, self._dirty = self._dirty, []
        out: list[str] = []
        for call_id in list(self._calls):
            if any(t in dirty for t in self._references(call_id)):
                out.extend(self._emit(call_id, {"toolCallId": call_id}, True, False))
        return out

    def _emit_terminal(self, terminal_id: str) -> list[str]:
        self._dirty = [d for d in self._dirty if d != terminal_id]
        out: list[str] = []
        for call_id in list(self._calls):
            if terminal_id in self._references(call_id):
                out.extend(self._emit(call_id, {"toolCallId": call_id}, True, False))
        return out

    def _references(self, call_id: str) -> list[str]:
        out: list[str] = []
        call = self._calls.get(call_id)
        for item in (call.content if call is not None else None) or []:
            if _tag(item, "type") == "terminal":
                t = _tag(item, "terminalId")
                if t not in out:
                    out.append(t)
        return out

    def _emit(self, call_id: str, update: JsonObject, with_content: bool, first: bool) -> list[str]:
        terminals = self._references(call_id)
        if with_content:
            update["content"] = [self._render_item(item) for item in (self._calls[call_id].content or [])]
        extra: list[JsonObject] = []
        if self._meta and with_content:
            for n, t in enumerate(terminals):
                members = self._convention(call_id, t)
                if not members:
                    continue
                if n == 0:
                    meta = _obj(update.get("_meta"))
                    meta.update(members)
                    update["_meta"] = meta
                else:
                    extra.append({"toolCallId": call_id, "_meta": members})
        create = first and isinstance(update.get("title"), str)
        return [_to_v1(update, create), *(_to_v1(u, False) for u in extra)]

    def _render_item(self, item: Json) -> Json:
        if _tag(item, "type") != "terminal":
            return item
        o: JsonObject = {"type": "content", "content": {"type": "text", "text": self.render(_tag(item, "terminalId"))}}
        if isinstance(item, dict) and "_meta" in item:
            o["_meta"] = item["_meta"]
        return o

    def render(self, terminal_id: str) -> str:
        """The text shown for a terminal: ``$ command``, the (capped) transcript, the exit status."""
        t = self.store.terminal(terminal_id)
        if t is None:
            return ""
        s = f"$ {_one_line(t.command)}\n" if t.command is not None else ""
        s += cap_text(t.transcript, self._cap)
        e = t.exit_status
        if e is not None:
            if s and not s.endswith("\n"):
                s += "\n"
            s += _exit_text(e.exit_code, e.signal)
        return s

    def _convention(self, call_id: str, terminal_id: str) -> JsonObject:
        out: JsonObject = {}
        t = self.store.terminal(terminal_id)
        if t is None:
            return out
        sent = self._sent.setdefault((call_id, terminal_id), _MetaSent())
        if not sent.info:
            out["terminal_info"] = {"terminal_id": terminal_id, "cwd": t.cwd}
            sent.info = True
        # `sent.offset` is a position in the output since the last snapshot, dropped bytes
        # included: the store keeps only the most recent `max_retained_bytes`, so a position
        # in the retained bytes would stop moving once the first ones go.
        dropped = t.dropped_bytes
        data = t.output.to_bytes()
        if dropped + len(data) < sent.offset:
            sent.offset = 0
        # Bytes the store dropped before a flush sent them are gone: go on from the oldest kept.
        start = min(max(sent.offset - dropped, 0), len(data))
        fresh = data[start:]
        exited = t.exit_status
        end = len(fresh) if exited is not None else len(fresh) - _incomplete_tail(fresh)
        if end > 0:
            out["terminal_output"] = {"terminal_id": terminal_id, "data": fresh[:end].decode("utf-8", "replace")}
            sent.offset = dropped + start + end
        if exited is not None and not sent.exit:
            out["terminal_exit"] = {"terminal_id": terminal_id, "exit_code": exited.exit_code, "signal": exited.signal}
            sent.exit = True
        return out


def _to_v1(update: JsonObject, create: bool) -> str:
    converted = convert("v2", "v1", "ToolCallUpdate", update, "ToolCall" if create else "ToolCallUpdate")
    tagged = {"sessionUpdate": "tool_call" if create else "tool_call_update", **_obj(parse_json(converted.text))}
    parse, serialize = CODECS["v1"]["SessionUpdate"]
    return serialize(parse(tagged).value)


def _incomplete_tail(b: bytes) -> int:
    """How many bytes at the end of ``b`` start a UTF-8 sequence that is not complete yet."""
    n = len(b)
    for back in range(1, min(n, 3) + 1):
        x = b[n - back]
        if x & 0xC0 == 0x80:
            continue
        need = 2 if 0xC2 <= x <= 0xDF else 3 if 0xE0 <= x <= 0xEF else 4 if 0xF0 <= x <= 0xF4 else 0
        return back if back < need else 0
    return 0


def _one_line(text: str) -> str:
    t = Transcript()
    t.push(text.encode("utf-8"))
    return t.text.replace("\n", " ")


def cap_text(text: str, cap: int | None) -> str:
    """The head and tail of ``text`` when it has more than ``cap`` characters."""
    if cap is None or len(text) <= cap:
        return text
    head = cap // 2
    tail = cap - head
    return f"{text[:head]}\n[... {len(text) - cap} characters left out ...]\n{text[len(text) - tail :]}"


def _exit_text(code: int | None, signal: str | None) -> str:
    if code is not None and signal is None:
        return f"[exit code {code}]"
    if code is None and signal is not None:
        return f"[signal {_one_line(signal)}]"
    if code is not None and signal is not None:
        return f"[exit code {code}, signal {_one_line(signal)}]"
    return "[exited]"


# ---------------------------------------------------------------------------------
# Ingest of the v1 `_meta` terminal convention


def ingest_v1(store: TerminalStore, text: str) -> list[Problem]:
    """Applies one v1 ``SessionUpdate`` (JSON text) to ``store``: the ``_meta`` terminal
    convention of ``tool_call`` / ``tool_call_update`` (``terminal_info`` {terminal_id,
    cwd}, ``terminal_output`` {terminal_id, data}, ``terminal_exit`` {terminal_id,
    exit_code, signal}) becomes terminal state, output bytes (the UTF-8 of ``data``) and a
    link from the tool call. Returns the warnings (parse warnings, then one per malformed
    convention member, which is skipped). Raises ``ParseError`` (nothing applied) when the
    update does not parse."""
    parse, serialize = CODECS["v1"]["SessionUpdate"]
    parsed = parse(text)
    warnings = list(parsed.warnings)
    v = _obj(parse_json(serialize(parsed.value)))
    meta = v.get("_meta")
    if _tag(v, "sessionUpdate") not in ("tool_call", "tool_call_update") or not isinstance(meta, dict):
        return warnings
    call_id = _tag(v, "toolCallId")

    def warn(kind: ErrorKind, path: str, message: str) -> None:
        warnings.append(Problem(kind, path, message))

    updates: list[JsonObject] = []
    linked: list[str] = []
    for key in ("terminal_info", "terminal_output", "terminal_exit"):
        if key not in meta:
            continue
        m = meta[key]
        p = f"/_meta/{key}"
        if not isinstance(m, dict):
            warn("wrong_type", p, rules.convention_not_object(key))
            continue
        terminal_id = m.get("terminal_id")
        if "terminal_id" not in m:
            warn("missing_field", f"{p}/terminal_id", rules.convention_no_id(key))
            continue
        if not isinstance(terminal_id, str):
            warn("wrong_type", f"{p}/terminal_id", rules.convention_id_type(key))
            continue
        if terminal_id not in linked:
            linked.append(terminal_id)
        u: JsonObject
        if key == "terminal_info":
            u = {"sessionUpdate": "terminal_update", "terminalId": terminal_id}
            cwd = m.get("cwd")
            if isinstance(cwd, str):
                if is_absolute_path(cwd):
                    u["cwd"] = cwd
                else:
                    warn("relative_path", f"{p}/cwd", rules.CWD_RELATIVE)
            elif cwd is not None:
                warn("wrong_type", f"{p}/cwd", rules.CWD_TYPE)
        elif key == "terminal_output":
            data = m.get("data")
            if not isinstance(data, str):
                if "data" not in m:
                    warn("missing_field", f"{p}/data", rules.OUTPUT_NO_DATA)
                else:
                    warn("wrong_type", f"{p}/data", rules.OUTPUT_DATA_TYPE)
                continue
            u = {
                "sessionUpdate": "terminal_output_chunk",
                "terminalId": terminal_id,
                "data": encode_base64(data.encode("utf-8")),
            }
        else:
            status: JsonObject = {}
            code = m.get("exit_code")
            if isinstance(code, (int, float)) and not isinstance(code, bool):
                if isinstance(code, float) and not code.is_integer():
                    warn("wrong_type", f"{p}/exit_code", rules.EXIT_CODE_TYPE)
                elif not 0 <= code <= 4294967295:
                    warn("out_of_range", f"{p}/exit_code", rules.EXIT_CODE_RANGE)
                else:
                    status["exitCode"] = int(code)
            elif code is not None:
                warn("wrong_type", f"{p}/exit_code", rules.EXIT_CODE_TYPE)
            signal = m.get("signal")
            if isinstance(signal, str):
                status["signal"] = signal
            elif signal is not None:
                warn("wrong_type", f"{p}/signal", rules.SIGNAL_TYPE)
            u = {"sessionUpdate": "terminal_update", "terminalId": terminal_id, "exitStatus": status}
        updates.append(u)
    if linked:
        refs = [str(t) for t, state in store.terminals() if call_id in state.tool_calls]
        refs += [t for t in linked if t not in refs]
        content: list[Json] = [{"type": "terminal", "terminalId": t} for t in refs]
        updates.insert(0, {"sessionUpdate": "tool_call_update", "toolCallId": call_id, "content": content})
    for u in updates:
        store.apply_text(write_json(u))
    return warnings
