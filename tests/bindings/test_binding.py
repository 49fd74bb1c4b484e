"""Unit tests of the generated Python package, one behaviour each, named after the RFD
sentence (or wire rule) they check."""

from __future__ import annotations

import pytest

from acp_terminal import MISSING, ParseError, TerminalStore, UnknownVariant, v1, v2


def test_an_omitted_patch_field_is_missing_null_clears_a_value_replaces() -> None:
    omitted = v2.parse_terminal_update('{"terminalId":"t"}').value
    assert omitted.command is MISSING
    cleared = v2.parse_terminal_update('{"terminalId":"t","command":null}').value
    assert cleared.command is None
    assert v2.serialize_terminal_update(cleared) == '{"terminalId":"t","command":null}'
    assert v2.parse_terminal_update('{"terminalId":"t","command":"ls"}').value.command == "ls"


def test_chunk_data_is_decoded_to_bytes_and_written_back_canonically() -> None:
    u = v2.parse_session_update('{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"cGFzc2VkDQo="}').value
    assert isinstance(u, v2.SessionUpdateTerminalOutputChunk)
    assert u.data == b"passed\r\n"
    assert v2.serialize_session_update(u) == '{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"cGFzc2VkDQo="}'


def test_non_canonical_trailing_bits_are_rejected_with_kind_and_pointer() -> None:
    with pytest.raises(ParseError) as e:
        v2.parse_terminal_output('{"data":"aGVsbG9="}')
    assert (e.value.kind, e.value.path) == ("invalid_base64", "/data")


def test_an_unknown_variant_keeps_its_tag_and_whole_payload() -> None:
    u = v2.parse_tool_call_content('{"title":"Tests","type":"_chart","2":1,"1":2}').value
    assert isinstance(u, UnknownVariant)
    assert u.tag == "_chart"
    assert v2.serialize_tool_call_content(u) == '{"type":"_chart","title":"Tests","2":1,"1":2}'


def test_a_known_tag_with_a_bad_payload_is_an_error_never_unknown() -> None:
    with pytest.raises(ParseError) as e:
        v2.parse_session_update('{"sessionUpdate":"terminal_update"}')
    assert (e.value.kind, e.value.path) == ("missing_field", "/terminalId")


def test_unknown_members_are_kept_in_input_order_after_the_known_ones() -> None:
    t = v2.parse_terminal('{"b":1,"terminalId":"t","a":2}').value
    assert list((t.__pydantic_extra__ or {}).keys()) == ["b", "a"]
    assert v2.serialize_terminal(t) == '{"terminalId":"t","b":1,"a":2}'


def test_lenient_members_are_dropped_with_a_warning_never_silently() -> None:
    p = v2.parse_terminal_update('{"terminalId":"t","cwd":"build","exitStatus":{"exitCode":9007199254740992}}')
    assert [(w.kind, w.path) for w in p.warnings] == [("relative_path", "/cwd"), ("out_of_range", "/exitStatus/exitCode")]
    assert v2.serialize_terminal_update(p.value) == '{"terminalId":"t","exitStatus":{}}'


def test_an_unknown_permission_outcome_is_never_treated_as_approval() -> None:
    r = v2.parse_request_permission_response('{"outcome":{"outcome":"_auto","optionId":"allow"}}').value
    assert isinstance(r.outcome, UnknownVariant)
    selected = v2.parse_request_permission_outcome('{"outcome":"selected","optionId":"allow"}').value
    assert isinstance(selected, v2.RequestPermissionOutcomeSelected)
    assert selected.option_id == "allow"


def test_parse_accepts_an_already_parsed_value() -> None:
    r = v2.parse_command_permission_subject({"command": "cargo test", "cwd": "/workspace/project"}).value
    assert r.cwd == "/workspace/project"


def test_absolute_path_checks_its_argument() -> None:
    assert v2.check_absolute_path("C:\\work") == "C:\\work"
    with pytest.raises(ValueError):
        v2.check_absolute_path("src")


def test_v1_unions_stay_closed() -> None:
    with pytest.raises(ParseError) as e:
        v1.parse_tool_call_content('{"type":"_chart"}')
    assert (e.value.kind, e.value.path) == ("unknown_variant", "/type")


def test_the_store_keeps_output_from_chunks_that_arrive_before_the_reference() -> None:
    store = TerminalStore()
    store.apply_text('{"sessionUpdate":"terminal_output_chunk","terminalId":"term_001","data":"cGFzc2VkDQo="}')
    store.apply_text('{"sessionUpdate":"tool_call_update","toolCallId":"call_1","content":[{"type":"terminal","terminalId":"term_001"}]}')
    t = store.terminal("term_001")
    assert t is not None
    assert t.output.to_bytes() == b"passed\r\n"
    assert t.transcript == "passed\n"
    assert t.sorted_tool_calls() == ["call_1"]


def test_pydantic_validation_uses_a_callable_discriminator_with_an_unknown_fallback() -> None:
    from pydantic import TypeAdapter, ValidationError

    adapter: TypeAdapter[v2.SessionUpdate] = TypeAdapter(v2.SessionUpdate)
    known = adapter.validate_python({"sessionUpdate": "terminal_update", "terminalId": "t", "command": None})
    assert isinstance(known, v2.SessionUpdateTerminalUpdate)
    assert known.command is None and known.cwd is MISSING
    unknown = adapter.validate_python({"sessionUpdate": "_badge", "label": "x"})
    assert isinstance(unknown, UnknownVariant)
    assert (unknown.tag, unknown.members) == ("_badge", {"label": "x"})
    with pytest.raises(ValidationError):
        adapter.validate_python({"sessionUpdate": "terminal_update"})  # a known tag with a bad payload
    with pytest.raises(ValidationError):
        adapter.validate_python({"label": "no tag"})
    closed: TypeAdapter[v1.ToolCallContent] = TypeAdapter(v1.ToolCallContent)
    with pytest.raises(ValidationError):
        closed.validate_python({"type": "_chart"})
    outcome: TypeAdapter[v2.RequestPermissionOutcome] = TypeAdapter(v2.RequestPermissionOutcome)
    assert isinstance(outcome.validate_python({"outcome": "_auto", "optionId": "allow"}), UnknownVariant)
