"""A hand-written stand-in for generated code: TerminalUpdate, ToolCallUpdate and SessionUpdate (in part).

It follows the pattern of templates/python/*.jinja, which generated decoders and encoders follow:

- a model is a pydantic ``WireModel``: snake_case fields with the wire name as alias;
  optional members ``T | None = None``; patch members ``T | None | MISSING = MISSING``
  (omitted = unchanged, ``None`` = clear); unknown members in ``__pydantic_extra__``;
- a decoder is a ``Decoder[T]``: ``(v: Json, cx: Cx) -> T``, reporting every problem through ``cx``;
- an object's members are walked once, in input order, with an ``if``/``elif`` chain on
  the name; each known member goes through one member helper (``required``,
  ``optional``, ``maybe``, ``patch``) with its options (module-level constants); anything
  else is kept as an unknown member, in input order;
- required members are checked after the loop, in schema order (``cx.missing``), so the
  first problem in input order wins and missing members come after all present ones;
- a tagged union reads its tag first, then decodes the variant's members skipping the tag;
- an encoder writes the tag, known members in schema order (optional ones only when
  present, patch members as set), then the unknown members;
- an unknown tag of an open union keeps the whole object (``unknown_variant``).
"""

from __future__ import annotations

from typing import Any, Final, Literal, TypeAlias, cast

from pydantic import Field, JsonValue

from runtime.decode import (
    Cx,
    MemberOptions,
    decode_absolute_path,
    decode_bytes,
    decode_json,
    decode_object,
    decode_string,
    decode_text,
    decode_uint32,
    decode_value,
    encode_text,
)
from runtime.errors import Parsed
from runtime.json import Json
from runtime.model import MISSING, UnknownVariant, WireModel, construct, unknown_variant
from runtime.writer import Writer, encode_bytes, encode_json, encode_number, encode_object, encode_string

_ABSENT: Final[Any] = object()
# Options are constants shared by every member that needs them (no allocation per call).
_LENIENT: Final = MemberOptions(lenient=True)
_LENIENT_SKIP_ITEMS: Final = MemberOptions(lenient=True, skip_items=True)
_NO_SKIP: Final[frozenset[str]] = frozenset()
_SKIP_TAG: Final[frozenset[str]] = frozenset(("sessionUpdate",))


# --- models ---


class TerminalOutput(WireModel):
    """A replacement snapshot of a terminal's output."""

    data: bytes = Field(alias="data")
    meta: dict[str, JsonValue] | None = Field(default=None, alias="_meta")


class TerminalExitStatus(WireModel):
    """How the terminal's process ended."""

    exit_code: int | None = Field(default=None, alias="exitCode")
    signal: str | None = Field(default=None, alias="signal")
    meta: dict[str, JsonValue] | None = Field(default=None, alias="_meta")


class TerminalUpdate(WireModel):
    """Creates or patches a terminal: omitted = unchanged, ``None`` = clear, a value = replace."""

    terminal_id: str = Field(alias="terminalId")
    command: str | MISSING | None = Field(default=MISSING, alias="command")
    cwd: str | MISSING | None = Field(default=MISSING, alias="cwd")
    output: TerminalOutput | MISSING | None = Field(default=MISSING, alias="output")
    exit_status: TerminalExitStatus | MISSING | None = Field(default=MISSING, alias="exitStatus")
    meta: dict[str, JsonValue] | MISSING | None = Field(default=MISSING, alias="_meta")


class ToolCallLocation(WireModel):
    path: str = Field(alias="path")
    line: int | None = Field(default=None, alias="line")
    meta: dict[str, JsonValue] | None = Field(default=None, alias="_meta")


class ToolCallUpdate(WireModel):
    """ToolCallUpdate without ``status`` and ``content`` (their unions are beside the point here)."""

    tool_call_id: str = Field(alias="toolCallId")
    title: str | MISSING | None = Field(default=MISSING, alias="title")
    kind: str | MISSING | None = Field(default=MISSING, alias="kind")
    locations: list[ToolCallLocation] | MISSING | None = Field(default=MISSING, alias="locations")
    raw_input: JsonValue | MISSING = Field(default=MISSING, alias="rawInput")
    raw_output: JsonValue | MISSING = Field(default=MISSING, alias="rawOutput")
    meta: dict[str, JsonValue] | MISSING | None = Field(default=MISSING, alias="_meta")


class SessionUpdateTerminalUpdate(TerminalUpdate):
    """The ``terminal_update`` variant of ``SessionUpdate``."""

    session_update: Literal["terminal_update"] = Field(default="terminal_update", alias="sessionUpdate")


class SessionUpdateToolCallUpdate(ToolCallUpdate):
    """The ``tool_call_update`` variant of ``SessionUpdate``."""

    session_update: Literal["tool_call_update"] = Field(default="tool_call_update", alias="sessionUpdate")


SessionUpdate: TypeAlias = SessionUpdateTerminalUpdate | SessionUpdateToolCallUpdate | UnknownVariant


# --- TerminalOutput: a required bytes member and a lenient optional one ---


def decode_TerminalOutput(v: Json, cx: Cx) -> TerminalOutput:
    obj = cx.expect_object(v)
    m0: Any = _ABSENT
    m1: Any = None
    extra: dict[str, Json] | None = None
    for k, x in obj.items():
        if k == "data":
            m0 = cx.required(k, x, decode_bytes)
        elif k == "_meta":
            m1 = cx.optional(k, x, decode_object, _LENIENT)
        else:
            if extra is None:
                extra = {}
            extra[k] = x
    if m0 is _ABSENT:
        cx.missing("data")
    # `construct` (every field by name) is the fast alternative to `model_construct`.
    return construct(TerminalOutput, {"data": m0, "meta": m1}, extra)


def encode_TerminalOutput(w: Writer, v: TerminalOutput) -> None:
    w.begin_object()
    w.put("data", v.data, encode_bytes)
    w.put_optional("_meta", v.meta, encode_object)
    if v.__pydantic_extra__:
        w.members(v.__pydantic_extra__)
    w.end_object()


# --- TerminalExitStatus: every member lenient and optional ---


def decode_TerminalExitStatus(v: Json, cx: Cx) -> TerminalExitStatus:
    obj = cx.expect_object(v)
    m0: Any = None
    m1: Any = None
    m2: Any = None
    extra: dict[str, Json] | None = None
    for k, x in obj.items():
        if k == "exitCode":
            m0 = cx.optional(k, x, decode_uint32, _LENIENT)
        elif k == "signal":
            m1 = cx.optional(k, x, decode_string, _LENIENT)
        elif k == "_meta":
            m2 = cx.optional(k, x, decode_object, _LENIENT)
        else:
            if extra is None:
                extra = {}
            extra[k] = x
    out = TerminalExitStatus.model_construct(exit_code=m0, signal=m1, meta=m2)
    object.__setattr__(out, "__pydantic_extra__", extra if extra is not None else {})
    return out


def encode_TerminalExitStatus(w: Writer, v: TerminalExitStatus) -> None:
    w.begin_object()
    w.put_optional("exitCode", v.exit_code, encode_number)
    w.put_optional("signal", v.signal, encode_string)
    w.put_optional("_meta", v.meta, encode_object)
    if v.__pydantic_extra__:
        w.members(v.__pydantic_extra__)
    w.end_object()


# --- TerminalUpdate: every member but terminalId is a lenient patch ---


def decode_TerminalUpdate_members(
    obj: dict[str, Json], cx: Cx, skip: frozenset[str], cls: type[TerminalUpdate] = TerminalUpdate
) -> TerminalUpdate:
    """Decodes TerminalUpdate's members from ``obj``, skipping the names in ``skip`` (a union's tag)."""
    m0: Any = _ABSENT
    m1: Any = MISSING
    m2: Any = MISSING
    m3: Any = MISSING
    m4: Any = MISSING
    m5: Any = MISSING
    extra: dict[str, Json] | None = None
    for k, x in obj.items():
        if k in skip:
            continue
        if k == "terminalId":
            m0 = cx.required(k, x, decode_string)
        elif k == "command":
            m1 = cx.patch(k, x, decode_string, _LENIENT)
        elif k == "cwd":
            m2 = cx.patch(k, x, decode_absolute_path, _LENIENT)
        elif k == "output":
            m3 = cx.patch(k, x, decode_TerminalOutput, _LENIENT)
        elif k == "exitStatus":
            m4 = cx.patch(k, x, decode_TerminalExitStatus, _LENIENT)
        elif k == "_meta":
            m5 = cx.patch(k, x, decode_object, _LENIENT)
        else:
            if extra is None:
                extra = {}
            extra[k] = x
    if m0 is _ABSENT:
        cx.missing("terminalId")
    out = cls.model_construct(terminal_id=m0, command=m1, cwd=m2, output=m3, exit_status=m4, meta=m5)
    object.__setattr__(out, "__pydantic_extra__", extra if extra is not None else {})
    return out


def decode_TerminalUpdate(v: Json, cx: Cx) -> TerminalUpdate:
    return decode_TerminalUpdate_members(cx.expect_object(v), cx, _NO_SKIP)


def encode_TerminalUpdate_known(w: Writer, v: TerminalUpdate) -> None:
    """Writes TerminalUpdate's known members in schema order."""
    w.put("terminalId", v.terminal_id, encode_string)
    w.put_patch("command", v.command, encode_string)
    w.put_patch("cwd", v.cwd, encode_string)
    w.put_patch("output", v.output, encode_TerminalOutput)
    w.put_patch("exitStatus", v.exit_status, encode_TerminalExitStatus)
    w.put_patch("_meta", v.meta, encode_object)


def encode_TerminalUpdate(w: Writer, v: TerminalUpdate) -> None:
    w.begin_object()
    encode_TerminalUpdate_known(w, v)
    if v.__pydantic_extra__:
        w.members(v.__pydantic_extra__)
    w.end_object()


# --- ToolCallLocation and (part of) ToolCallUpdate: a skip-invalid-items array ---


def decode_ToolCallLocation(v: Json, cx: Cx) -> ToolCallLocation:
    obj = cx.expect_object(v)
    m0: Any = _ABSENT
    m1: Any = None
    m2: Any = None
    extra: dict[str, Json] | None = None
    for k, x in obj.items():
        if k == "path":
            m0 = cx.required(k, x, decode_absolute_path)
        elif k == "line":
            m1 = cx.optional(k, x, decode_uint32, _LENIENT)
        elif k == "_meta":
            m2 = cx.optional(k, x, decode_object, _LENIENT)
        else:
            if extra is None:
                extra = {}
            extra[k] = x
    if m0 is _ABSENT:
        cx.missing("path")
    return construct(ToolCallLocation, {"path": m0, "line": m1, "meta": m2}, extra)


def encode_ToolCallLocation(w: Writer, v: ToolCallLocation) -> None:
    w.begin_object()
    w.put("path", v.path, encode_string)
    w.put_optional("line", v.line, encode_number)
    w.put_optional("_meta", v.meta, encode_object)
    if v.__pydantic_extra__:
        w.members(v.__pydantic_extra__)
    w.end_object()


# `x-deserialize-skip-invalid-items`: the member's option sets the flag, `cx.array` takes it.
def decode_ArrayOfToolCallLocation(v: Json, cx: Cx) -> list[ToolCallLocation]:
    return cx.array(v, decode_ToolCallLocation)


def encode_ArrayOfToolCallLocation(w: Writer, v: list[ToolCallLocation]) -> None:
    w.array(v, encode_ToolCallLocation)


def decode_ToolCallUpdate_members(
    obj: dict[str, Json], cx: Cx, skip: frozenset[str], cls: type[ToolCallUpdate] = ToolCallUpdate
) -> ToolCallUpdate:
    m0: Any = _ABSENT
    m1: Any = MISSING
    m2: Any = MISSING
    m3: Any = MISSING
    m4: Any = MISSING
    m5: Any = MISSING
    m6: Any = MISSING
    extra: dict[str, Json] | None = None
    for k, x in obj.items():
        if k in skip:
            continue
        if k == "toolCallId":
            m0 = cx.required(k, x, decode_string)
        elif k == "title":
            m1 = cx.patch(k, x, decode_string, _LENIENT)
        elif k == "kind":
            m2 = cx.patch(k, x, decode_string, _LENIENT)
        elif k == "locations":
            m3 = cx.patch(k, x, decode_ArrayOfToolCallLocation, _LENIENT_SKIP_ITEMS)
        elif k == "rawInput":
            m4 = cx.patch(k, x, decode_json, _LENIENT)
        elif k == "rawOutput":
            m5 = cx.patch(k, x, decode_json, _LENIENT)
        elif k == "_meta":
            m6 = cx.patch(k, x, decode_object, _LENIENT)
        else:
            if extra is None:
                extra = {}
            extra[k] = x
    if m0 is _ABSENT:
        cx.missing("toolCallId")
    out = cls.model_construct(tool_call_id=m0, title=m1, kind=m2, locations=m3, raw_input=m4, raw_output=m5, meta=m6)
    object.__setattr__(out, "__pydantic_extra__", extra if extra is not None else {})
    return out


def decode_ToolCallUpdate(v: Json, cx: Cx) -> ToolCallUpdate:
    return decode_ToolCallUpdate_members(cx.expect_object(v), cx, _NO_SKIP)


def encode_ToolCallUpdate_known(w: Writer, v: ToolCallUpdate) -> None:
    w.put("toolCallId", v.tool_call_id, encode_string)
    w.put_patch("title", v.title, encode_string)
    w.put_patch("kind", v.kind, encode_string)
    w.put_patch("locations", v.locations, encode_ArrayOfToolCallLocation)
    # A free-JSON patch member: `null` on the wire is "clear", so it is stored as `None`.
    w.put_patch("rawInput", v.raw_input, encode_json)
    w.put_patch("rawOutput", v.raw_output, encode_json)
    w.put_patch("_meta", v.meta, encode_object)


def encode_ToolCallUpdate(w: Writer, v: ToolCallUpdate) -> None:
    w.begin_object()
    encode_ToolCallUpdate_known(w, v)
    if v.__pydantic_extra__:
        w.members(v.__pydantic_extra__)
    w.end_object()


# --- SessionUpdate (part): an open union tagged by `sessionUpdate` ---


def decode_SessionUpdate(v: Json, cx: Cx) -> SessionUpdate:
    obj = cx.expect_object(v)
    tag = cx.read_tag(obj, "sessionUpdate")
    if tag == "terminal_update":
        return cast(
            SessionUpdateTerminalUpdate,
            decode_TerminalUpdate_members(obj, cx, _SKIP_TAG, SessionUpdateTerminalUpdate),
        )
    if tag == "tool_call_update":
        return cast(
            SessionUpdateToolCallUpdate,
            decode_ToolCallUpdate_members(obj, cx, _SKIP_TAG, SessionUpdateToolCallUpdate),
        )
    # A closed union would instead: return cx.unknown_tag("sessionUpdate", tag, "SessionUpdate", KNOWN)
    return unknown_variant(tag, obj, "sessionUpdate")


def encode_SessionUpdate(w: Writer, v: SessionUpdate) -> None:
    w.begin_object()
    w.key("sessionUpdate")
    if isinstance(v, UnknownVariant):
        w.string(v.tag)
        w.members(v.members)
        w.end_object()
        return
    w.string(v.session_update)
    if isinstance(v, SessionUpdateTerminalUpdate):
        encode_TerminalUpdate_known(w, v)
    else:
        encode_ToolCallUpdate_known(w, v)
    if v.__pydantic_extra__:
        w.members(v.__pydantic_extra__)
    w.end_object()


# --- what the generated module exports per type ---


def parse_terminal_update(data: str | Json) -> Parsed[TerminalUpdate]:
    if isinstance(data, str):
        return decode_text(data, decode_TerminalUpdate)
    return decode_value(data, decode_TerminalUpdate)


def serialize_terminal_update(value: TerminalUpdate) -> str:
    return encode_text(value, encode_TerminalUpdate)


def parse_tool_call_update(data: str | Json) -> Parsed[ToolCallUpdate]:
    if isinstance(data, str):
        return decode_text(data, decode_ToolCallUpdate)
    return decode_value(data, decode_ToolCallUpdate)


def serialize_tool_call_update(value: ToolCallUpdate) -> str:
    return encode_text(value, encode_ToolCallUpdate)


def parse_session_update(data: str | Json) -> Parsed[SessionUpdate]:
    if isinstance(data, str):
        return decode_text(data, decode_SessionUpdate)
    return decode_value(data, decode_SessionUpdate)


def serialize_session_update(value: SessionUpdate) -> str:
    return encode_text(value, encode_SessionUpdate)


for _model in (TerminalOutput, TerminalExitStatus, TerminalUpdate, ToolCallLocation, ToolCallUpdate):
    _model.model_rebuild()
