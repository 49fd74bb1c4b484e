"""Tests of the hand-written example types: the wire rules as schema/tests/wire_rules.rs checks them in Rust."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import pytest
from pydantic import MISSING

from runtime.errors import Parsed, ParseError
from runtime.model import UnknownVariant, is_unknown_variant
from runtime_example import (
    SessionUpdateTerminalUpdate,
    TerminalExitStatus,
    TerminalOutput,
    TerminalUpdate,
    ToolCallUpdate,
    parse_session_update,
    parse_terminal_update,
    parse_tool_call_update,
    serialize_session_update,
    serialize_terminal_update,
    serialize_tool_call_update,
)

Kind = Literal["TerminalUpdate", "ToolCallUpdate", "SessionUpdate"]

CODECS: dict[Kind, tuple[Callable[[str], Parsed[Any]], Callable[[Any], str]]] = {
    "TerminalUpdate": (parse_terminal_update, serialize_terminal_update),
    "ToolCallUpdate": (parse_tool_call_update, serialize_tool_call_update),
    "SessionUpdate": (parse_session_update, serialize_session_update),
}


def ok(kind: Kind, text: str) -> tuple[str, list[tuple[str, str]]]:
    """Parses and writes back: canonical text and (kind, path) warnings."""
    parse, serialize = CODECS[kind]
    parsed = parse(text)
    return serialize(parsed.value), [(w.kind, w.path) for w in parsed.warnings]


def err(kind: Kind, text: str) -> tuple[str, str]:
    with pytest.raises(ParseError) as e:
        CODECS[kind][0](text)
    return (e.value.kind, e.value.path)


def roundtrip(kind: Kind, text: str) -> None:
    out, warnings = ok(kind, text)
    assert out == text
    assert warnings == []
    assert ok(kind, out)[0] == out, "fixpoint"


# --- terminal_update: omitted = unchanged, null = clear, value = replace ---


def test_an_omitted_patch_field_leaves_the_previous_value_unchanged() -> None:
    v = parse_terminal_update('{"terminalId":"t"}').value
    assert v.terminal_id == "t"
    for name in ["command", "cwd", "output", "exit_status", "meta"]:
        assert getattr(v, name) is MISSING
    assert v.model_dump() == {"terminalId": "t"}
    roundtrip("TerminalUpdate", '{"terminalId":"t"}')


def test_null_clears_its_previous_value() -> None:
    text = '{"terminalId":"t","command":null,"cwd":null,"output":null,"exitStatus":null,"_meta":null}'
    v = parse_terminal_update(text).value
    for name in ["command", "cwd", "output", "exit_status", "meta"]:
        assert getattr(v, name) is None
    roundtrip("TerminalUpdate", text)


def test_a_concrete_value_replaces_its_previous_value() -> None:
    text = (
        '{"terminalId":"term_001","command":"cargo test","cwd":"/workspace/project",'
        '"output":{"data":"cnVubmluZyAxMjMgdGVzdHMNCg=="},"exitStatus":{"exitCode":0},"_meta":{"k":1}}'
    )
    v = parse_terminal_update(text).value
    assert v.command == "cargo test"
    assert isinstance(v.output, TerminalOutput)
    assert v.output.data == b"running 123 tests\r\n"
    assert isinstance(v.exit_status, TerminalExitStatus)
    assert v.exit_status.exit_code == 0
    roundtrip("TerminalUpdate", text)


def test_exit_status_details_are_optional_and_null_equals_omitted() -> None:
    assert ok("TerminalUpdate", '{"terminalId":"t","exitStatus":{"exitCode":null,"signal":null,"_meta":null}}')[0] == (
        '{"terminalId":"t","exitStatus":{}}'
    )
    roundtrip("TerminalUpdate", '{"terminalId":"t","exitStatus":{"signal":"SIGTERM"}}')


# --- leniency: dropped, never silently ---


def test_a_malformed_lenient_field_is_dropped_and_reported() -> None:
    assert ok("TerminalUpdate", '{"terminalId":"t","command":42,"exitStatus":{"exitCode":-1}}') == (
        '{"terminalId":"t","exitStatus":{}}',
        [("wrong_type", "/command"), ("out_of_range", "/exitStatus/exitCode")],
    )


def test_the_nearest_lenient_value_containing_the_problem_is_dropped_output_stays_unchanged() -> None:
    assert ok("TerminalUpdate", '{"terminalId":"t","output":{"data":"YR=="}}') == (
        '{"terminalId":"t"}',
        [("invalid_base64", "/output/data")],
    )
    assert parse_terminal_update('{"terminalId":"t","output":{"data":"YR=="}}').value.output is MISSING


def test_a_relative_cwd_in_an_update_is_dropped_with_a_warning() -> None:
    assert ok("TerminalUpdate", '{"terminalId":"t","cwd":"build","command":"make"}') == (
        '{"terminalId":"t","command":"make"}',
        [("relative_path", "/cwd")],
    )


def test_malformed_items_are_skipped_with_a_warning_each() -> None:
    text = (
        '{"toolCallId":"tc_1","locations":[{"path":"/ok","line":3},{"line":4},{"path":"rel"},{"path":"/b","line":1.5}]}'
    )
    assert ok("ToolCallUpdate", text) == (
        '{"toolCallId":"tc_1","locations":[{"path":"/ok","line":3},{"path":"/b"}]}',
        [
            ("missing_field", "/locations/1/path"),
            ("relative_path", "/locations/2/path"),
            ("wrong_type", "/locations/3/line"),
        ],
    )


def test_a_locations_value_that_is_not_an_array_is_dropped_as_a_whole() -> None:
    assert ok("ToolCallUpdate", '{"toolCallId":"c","locations":{"path":"/a"}}') == (
        '{"toolCallId":"c"}',
        [("wrong_type", "/locations")],
    )


def test_an_item_dropped_after_an_inner_warning_keeps_both_warnings_in_document_order() -> None:
    assert ok("ToolCallUpdate", '{"toolCallId":"c","locations":[{"line":"x"}]}') == (
        '{"toolCallId":"c","locations":[]}',
        [("wrong_type", "/locations/0/line"), ("missing_field", "/locations/0/path")],
    )


def test_required_fields_stay_strict() -> None:
    assert err("TerminalUpdate", '{"terminalId":5}') == ("wrong_type", "/terminalId")
    assert err("TerminalUpdate", '{"command":"ls"}') == ("missing_field", "/terminalId")
    assert err("TerminalUpdate", '{"terminalId":null}') == ("wrong_type", "/terminalId")


def test_leniency_never_absorbs_a_repeated_member() -> None:
    assert err("TerminalUpdate", '{"terminalId":"a","command":7,"command":8}') == ("duplicate_key", "/command")
    assert err("TerminalUpdate", '{"terminalId":"a","output":{"data":"","data":""}}') == (
        "duplicate_key",
        "/output/data",
    )


# --- which problem wins ---


def test_the_first_problem_in_input_order() -> None:
    assert err("ToolCallUpdate", '{"locations":[{"path":"/a"}],"toolCallId":5,"title":1}') == (
        "wrong_type",
        "/toolCallId",
    )
    assert err("TerminalUpdate", '{"output":{"data":1},"terminalId":2}') == ("wrong_type", "/terminalId")


def test_missing_required_members_come_after_every_present_member() -> None:
    assert err("SessionUpdate", '{"sessionUpdate":"terminal_update","output":{"data":1}}') == (
        "missing_field",
        "/terminalId",
    )
    assert err("SessionUpdate", '{"sessionUpdate":"terminal_update","_meta":[],"x":{"data":"!"}}') == (
        "missing_field",
        "/terminalId",
    )


def test_warnings_are_in_document_order() -> None:
    assert ok("TerminalUpdate", '{"_meta":1,"cwd":"a","terminalId":"t","command":false}')[1] == [
        ("wrong_type", "/_meta"),
        ("relative_path", "/cwd"),
        ("wrong_type", "/command"),
    ]


# --- unknown members and unknown variants ---


def test_unknown_fields_are_kept_in_input_order_after_the_known_ones() -> None:
    text = '{"zeta":1,"command":"ls","terminalId":"t","alpha":{"y":1,"x":2}}'
    assert ok("TerminalUpdate", text)[0] == '{"terminalId":"t","command":"ls","zeta":1,"alpha":{"y":1,"x":2}}'
    v = parse_terminal_update(text).value
    assert v.__pydantic_extra__ == {"zeta": 1, "alpha": {"y": 1, "x": 2}}
    assert list(v.__pydantic_extra__) == ["zeta", "alpha"]


def test_integer_like_unknown_members_keep_their_place() -> None:
    assert ok("TerminalUpdate", '{"2":0,"terminalId":"t","1":0}')[0] == '{"terminalId":"t","2":0,"1":0}'


def test_meta_keeps_its_key_order_at_every_depth() -> None:
    roundtrip("TerminalUpdate", '{"terminalId":"t","_meta":{"z":{"b":1,"a":2},"a":[{"y":0,"x":1}],"m":null}}')


def test_free_json_patch_members_keep_order_and_null() -> None:
    roundtrip(
        "ToolCallUpdate",
        '{"toolCallId":"c","title":"Run","kind":"execute","locations":[{"path":"/a","line":3}],'
        '"rawInput":{"b":1,"a":[null]},"rawOutput":"x","_meta":{}}',
    )
    roundtrip(
        "ToolCallUpdate",
        '{"toolCallId":"c","title":null,"kind":null,"locations":null,"rawInput":null,"rawOutput":null,"_meta":null}',
    )


def test_an_empty_collection_is_kept_apart_from_null() -> None:
    assert ok("ToolCallUpdate", '{"toolCallId":"c","locations":[],"title":null}')[0] == (
        '{"toolCallId":"c","title":null,"locations":[]}'
    )


def test_a_tagged_variant_is_written_tag_first() -> None:
    assert ok("SessionUpdate", '{"terminalId":"t","x":1,"sessionUpdate":"terminal_update","command":"ls"}')[0] == (
        '{"sessionUpdate":"terminal_update","terminalId":"t","command":"ls","x":1}'
    )


def test_an_unknown_variant_keeps_its_tag_and_whole_payload_tag_first() -> None:
    roundtrip("SessionUpdate", '{"sessionUpdate":"_status_badge","label":"Indexing","progress":0.5,"n":{"z":1,"a":2}}')
    assert ok("SessionUpdate", '{"title":"Tests","sessionUpdate":"_chart","data":[1,2,3]}')[0] == (
        '{"sessionUpdate":"_chart","title":"Tests","data":[1,2,3]}'
    )
    v = parse_session_update('{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}').value
    assert is_unknown_variant(v)
    assert v == UnknownVariant("agent_message_chunk", {"content": {"type": "text", "text": "hi"}})


def test_a_known_tag_with_a_bad_payload_is_an_error_never_unknown() -> None:
    assert err("SessionUpdate", '{"sessionUpdate":"terminal_update"}') == ("missing_field", "/terminalId")
    assert err("SessionUpdate", '{"sessionUpdate":"tool_call_update","toolCallId":1}') == ("wrong_type", "/toolCallId")


def test_the_tag_is_read_first_missing_or_not_a_string() -> None:
    assert err("SessionUpdate", '{"terminalId":5}') == ("missing_field", "/sessionUpdate")
    assert err("SessionUpdate", '{"terminalId":5,"sessionUpdate":1}') == ("wrong_type", "/sessionUpdate")
    assert err("SessionUpdate", "[]") == ("wrong_type", "")


def test_a_known_variant_is_its_class() -> None:
    v = parse_session_update('{"sessionUpdate":"terminal_update","terminalId":"t","cwd":"/w"}').value
    assert isinstance(v, SessionUpdateTerminalUpdate)
    assert v.session_update == "terminal_update"
    assert v.cwd == "/w"
    assert v.__pydantic_extra__ == {}


# --- building values by hand ---


def test_omitted_null_and_set_patch_members_write_as_such() -> None:
    assert serialize_terminal_update(TerminalUpdate(terminal_id="t")) == '{"terminalId":"t"}'
    assert serialize_terminal_update(TerminalUpdate(terminal_id="t", command=None)) == (
        '{"terminalId":"t","command":null}'
    )
    built = TerminalUpdate(terminal_id="t", output=TerminalOutput(data=b"hi"), meta={"1": 1})
    assert serialize_terminal_update(built) == '{"terminalId":"t","output":{"data":"aGk="},"_meta":{"1":1}}'
    # Wire names work too, and unknown members are kept.
    by_alias = TerminalUpdate.model_validate({"terminalId": "t", "exitStatus": {"exitCode": 3}, "x": [1]})
    assert serialize_terminal_update(by_alias) == '{"terminalId":"t","exitStatus":{"exitCode":3},"x":[1]}'


def test_a_known_variant_built_by_hand_writes_its_tag() -> None:
    v = SessionUpdateTerminalUpdate(terminal_id="t")
    assert serialize_session_update(v) == '{"sessionUpdate":"terminal_update","terminalId":"t"}'
    u = UnknownVariant("_x", {"a": 1})
    assert serialize_session_update(u) == '{"sessionUpdate":"_x","a":1}'


def test_decoded_models_dump_like_validated_ones() -> None:
    text = '{"toolCallId":"c","title":null,"locations":[{"path":"/a","line":3}],"rawInput":{"b":1},"z":0}'
    decoded = parse_tool_call_update(text).value
    validated = ToolCallUpdate.model_validate_json(text)
    assert decoded.model_dump() == validated.model_dump()
    assert decoded == validated
    assert decoded.model_dump(exclude_unset=True) == validated.model_dump(exclude_unset=True)


# --- text and values ---


def test_text_that_is_not_json_is_invalid_json_at_the_root() -> None:
    assert err("TerminalUpdate", '{"terminalId":"t"') == ("invalid_json", "")
    assert err("TerminalUpdate", '{"terminalId":"\\ud800"}') == ("invalid_json", "")
    assert err("TerminalUpdate", '{"terminalId":"t"} x') == ("invalid_json", "")


def test_canonical_output_uses_ecmascript_numbers_and_strings() -> None:
    out = ok(
        "TerminalUpdate",
        '{"terminalId":"\\u00e9\\/\\u001f\\u007f","_meta":{"a":1.0,"b":1e21,"c":-0,"d":0.1,"e":1E2,"f":12345678901234567890}}',
    )[0]
    assert (
        out
        == '{"terminalId":"é/\\u001f\u007f","_meta":{"a":1,"b":1e+21,"c":0,"d":0.1,"e":100,"f":12345678901234567000}}'
    )


def test_integers_accept_whole_numbers_within_their_format() -> None:
    assert ok("TerminalUpdate", '{"terminalId":"t","exitStatus":{"exitCode":4294967295}}')[0] == (
        '{"terminalId":"t","exitStatus":{"exitCode":4294967295}}'
    )
    assert ok("TerminalUpdate", '{"terminalId":"t","exitStatus":{"exitCode":2.0}}')[0] == (
        '{"terminalId":"t","exitStatus":{"exitCode":2}}'
    )
    assert ok("TerminalUpdate", '{"terminalId":"t","exitStatus":{"exitCode":4294967296}}')[1] == [
        ("out_of_range", "/exitStatus/exitCode")
    ]
    assert ok("TerminalUpdate", '{"terminalId":"t","exitStatus":{"exitCode":1.5}}')[1] == [
        ("wrong_type", "/exitStatus/exitCode")
    ]


def test_already_parsed_values_decode_too() -> None:
    parsed = parse_terminal_update({"terminalId": "t", "command": 1})
    assert parsed.value.command is MISSING
    assert [(w.kind, w.path) for w in parsed.warnings] == [("wrong_type", "/command")]
    with pytest.raises(ParseError):
        parse_tool_call_update({"toolCallId": 1})
    update = ToolCallUpdate(tool_call_id="c")
    assert serialize_tool_call_update(update) == '{"toolCallId":"c"}'
