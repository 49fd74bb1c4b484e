"""The Python package fits the way Python users work: parsed values get the rules of
JSON text, errors read well, names are exported on purpose, field docs are visible,
and building models by hand cannot smuggle in undecoded base64 or relative paths."""

from __future__ import annotations

import importlib
import json
import pkgutil
import pydoc
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

import acp_terminal
from acp_terminal import ParseError, Problem, v1, v2
from acp_terminal._runtime.model import WireModel

# --- parse_* on already parsed values: the rules of JSON text ---

NOT_JSON_VALUES: list[tuple[str, Any, str, str]] = [
    ("NaN", {"terminalId": "t", "_meta": {"v": float("nan")}}, "invalid_json", "/_meta/v"),
    ("Infinity", {"terminalId": "t", "_meta": {"v": float("inf")}}, "invalid_json", "/_meta/v"),
    ("-Infinity", {"terminalId": "t", "_meta": {"v": [float("-inf")]}}, "invalid_json", "/_meta/v/0"),
    ("1e400 from json.loads", json.loads('{"terminalId":"t","_meta":{"v":1e400}}'), "invalid_json", "/_meta/v"),
    ("an int past the largest double", {"terminalId": "t", "_meta": {"v": 2**1024}}, "invalid_json", "/_meta/v"),
    ("a lone surrogate in a string", {"terminalId": "t\ud800"}, "invalid_json", "/terminalId"),
    ("a lone surrogate in a member name", {"terminalId": "t", "_meta": {"\udc00": 1}}, "invalid_json", "/_meta"),
    ("bytes", {"terminalId": "t", "_meta": {"v": b"x"}}, "wrong_type", "/_meta/v"),
    ("a tuple", {"terminalId": "t", "_meta": {"v": (1, 2)}}, "wrong_type", "/_meta/v"),
    ("a set", {"terminalId": "t", "_meta": {"v": {1}}}, "wrong_type", "/_meta/v"),
    ("a non-string member name", {"terminalId": "t", "_meta": {1: 2}}, "wrong_type", "/_meta"),
]


@pytest.mark.parametrize(("why", "value", "kind", "path"), NOT_JSON_VALUES, ids=[c[0] for c in NOT_JSON_VALUES])
def test_a_parsed_value_json_text_cannot_hold_is_a_parse_error(why: str, value: Any, kind: str, path: str) -> None:
    with pytest.raises(ParseError) as e:
        v2.parse_terminal_update(value)
    assert (e.value.kind, e.value.path) == (kind, path), why


def nested(depth: int) -> Any:
    v: Any = []
    for _ in range(depth - 1):
        v = [v]
    return v


def test_parsed_values_have_the_same_depth_limit_as_text() -> None:
    ok: dict[str, Any] = {"terminalId": "t", "_meta": {"v": nested(125)}}  # 127 deep with the two objects
    assert v2.parse_terminal_update(ok).value.terminal_id == "t"
    text = json.dumps(ok, separators=(",", ":"))
    assert v2.parse_terminal_update(text).value == v2.parse_terminal_update(ok).value
    too_deep: dict[str, Any] = {"terminalId": "t", "_meta": {"v": nested(126)}}
    with pytest.raises(ParseError) as e:
        v2.parse_terminal_update(too_deep)
    assert e.value.kind == "invalid_json"
    with pytest.raises(ParseError) as t:
        v2.parse_terminal_update(json.dumps(too_deep))
    assert t.value.kind == "invalid_json"


def test_every_parse_failure_is_a_parse_error_and_what_parses_serializes() -> None:
    hostile: list[Any] = [object(), b"{}", bytearray(b"{}"), {"terminalId": object()}, [1j], {"a": float("nan")}]
    for value in hostile:
        with pytest.raises(ParseError):
            v2.parse_terminal_update(value)
    # A huge exact int that still fits a double parses and writes back without a bare ValueError.
    p = v2.parse_terminal_update({"terminalId": "t", "_meta": {"v": 2**1000}})
    assert v2.serialize_terminal_update(p.value).startswith('{"terminalId":"t","_meta":{"v":1.0715086071862673e+301')


# --- readable errors ---


def test_problem_and_parse_error_read_as_kind_pointer_and_sentence() -> None:
    with pytest.raises(ParseError) as e:
        v2.parse_terminal_output('{"data":"aGVsbG9="}')
    assert str(e.value).startswith("invalid_base64 at /data: not strict base64")
    assert str(e.value.problem) == str(e.value)
    root = Problem("invalid_json", "", "the text is not valid JSON")
    assert str(root) == "invalid_json at the document root: the text is not valid JSON"


def test_pydantic_errors_carry_the_kind_the_pointer_and_the_sentence() -> None:
    with pytest.raises(ValidationError) as e:
        v2.UpdateSessionNotification.model_validate(
            {"sessionId": "s", "update": {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": "aGk"}}
        )
    (err,) = e.value.errors()
    assert err["type"] == "invalid_base64"
    assert err["loc"] == ("update", "data")
    assert err["msg"].startswith("not strict base64") and err["msg"].endswith("(at /update/data)")
    assert err["ctx"] == {"kind": "invalid_base64", "pointer": "/update/data", "message": err["ctx"]["message"]}


def test_a_lenient_member_is_dropped_by_pydantic_as_by_parse() -> None:
    data: dict[str, Any] = {"sessionUpdate": "terminal_update", "terminalId": "t", "cwd": "build"}
    by_pydantic = TypeAdapter(v2.SessionUpdate).validate_python(data)
    assert by_pydantic == v2.parse_session_update(data).value
    assert by_pydantic.cwd is acp_terminal.MISSING  # type: ignore[union-attr]


def test_a_strict_member_error_names_its_pointer_in_pydantic() -> None:
    with pytest.raises(ValidationError) as e:
        v2.ToolCallLocation.model_validate({"path": "rel"})
    (err,) = e.value.errors()
    assert (err["type"], err["loc"]) == ("relative_path", ("path",))


# --- building by hand ---


def test_building_a_model_takes_bytes_never_a_base64_string() -> None:
    assert v2.TerminalOutput(data=b"hi").data == b"hi"
    with pytest.raises(ValidationError):
        v2.TerminalOutput(data="aGk=")  # type: ignore[arg-type]
    # Wire values go through model_validate, which decodes them.
    assert v2.TerminalOutput.model_validate({"data": "aGk="}).data == b"hi"


def test_building_a_model_checks_absolute_paths() -> None:
    assert v2.TerminalUpdate(terminalId=v2.TerminalId("t"), cwd=v2.AbsolutePath("/w")).cwd == "/w"
    with pytest.raises(ValidationError) as e:
        v2.TerminalUpdate(terminalId=v2.TerminalId("t"), cwd=v2.AbsolutePath("build"))
    assert e.value.errors()[0]["type"] == "relative_path"


def test_a_variant_class_validates_only_its_own_tag() -> None:
    u = v2.SessionUpdateTerminalUpdate.model_validate({"sessionUpdate": "terminal_update", "terminalId": "t"})
    assert u.terminal_id == "t"
    with pytest.raises(ValidationError) as e:
        v2.SessionUpdateTerminalUpdate.model_validate(
            {"sessionUpdate": "terminal_output_chunk", "terminalId": "t", "data": ""}
        )
    assert e.value.errors()[0]["type"] == "wrong_type"


# --- exports and docs ---


def modules() -> list[str]:
    return ["acp_terminal", *(m.name for m in pkgutil.walk_packages(acp_terminal.__path__, "acp_terminal."))]


@pytest.mark.parametrize("name", modules())
def test_every_module_says_what_it_exports(name: str) -> None:
    m = importlib.import_module(name)
    assert m.__doc__, f"{name} has no docstring"
    exported = m.__all__
    assert len(exported) == len(set(exported))
    for n in exported:
        assert hasattr(m, n), f"{name}.__all__ names {n}, which does not exist"


def test_the_type_modules_export_types_and_entry_points_not_codec_internals() -> None:
    for m in (v1, v2):
        assert not [n for n in m.__all__ if n.startswith(("decode_", "encode_", "_"))]
        assert "parse_session_update" in v2.__all__ and "SessionUpdateTerminalUpdate" in v2.__all__
        for n in dir(m):
            if n.startswith(("parse_", "serialize_")):
                assert n in m.__all__, n


def test_the_package_docstring_names_the_store_and_the_transcript() -> None:
    doc = acp_terminal.__doc__ or ""
    assert "TerminalStore" in doc and "Transcript" in doc and "model_validate" in doc


def test_field_descriptions_reach_pydantic_and_help() -> None:
    field = v2.TerminalUpdate.model_fields["exit_status"]
    assert field.description and "exit" in field.description.lower()
    page = pydoc.plain(pydoc.render_doc(v2.TerminalUpdate))
    assert "Attributes:" in page and "exit_status:" in page and "cwd:" in page
    # Every member of every model has a description.
    for m in (v1, v2):
        for n in m.__all__:
            cls = getattr(m, n)
            if isinstance(cls, type) and issubclass(cls, WireModel):
                for fname, f in cls.model_fields.items():
                    if fname not in {"session_update", "type_", "type", "outcome", "operation"}:
                        assert f.description, f"{m.__name__}.{n}.{fname} has no description"
