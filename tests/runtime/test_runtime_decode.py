"""Tests of the decoding context: pointers, type checks, integers, bytes, paths, arrays, members, entry points."""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Literal, TypeVar

import pytest
from pydantic import MISSING

from runtime.decode import (
    MAX_SAFE_INTEGER,
    Cx,
    Decoder,
    MemberOptions,
    decode_absolute_path,
    decode_array,
    decode_boolean,
    decode_bytes,
    decode_int32,
    decode_int64,
    decode_json,
    decode_number,
    decode_object,
    decode_string,
    decode_text,
    decode_uint8,
    decode_uint16,
    decode_uint32,
    decode_uint64,
    decode_value,
    describe,
    encode_text,
)
from runtime.errors import ERROR_KINDS, DecodeError, Parsed, ParseError, Problem, pointer, push_token
from runtime.json import Json
from runtime.model import members_except
from runtime.writer import encode_json
from runtime_support import error_of, json, ok, ok_of

T = TypeVar("T")


def err(decoder: Decoder[T], text: str) -> tuple[str, str]:
    return error_of(text, decoder)


def problem_of(f: Callable[[], object]) -> Problem:
    with pytest.raises(DecodeError) as e:
        f()
    return e.value.problem


# --- errors ---


def test_the_kinds_are_the_ones_of_the_one_list_in_its_order() -> None:
    # templates/rules/error_kinds.txt is the one hand-written list; gen writes ERROR_KINDS from it.
    source = Path(__file__).resolve().parents[2] / "templates" / "rules" / "error_kinds.txt"
    lines = source.read_text(encoding="utf-8").splitlines()
    listed = tuple(line.split(":", 1)[0] for line in lines if line and not line.startswith("#"))
    assert len(listed) >= 12
    assert listed == ERROR_KINDS
    assert {"invalid_json", "duplicate_key", "session_mismatch"} <= set(ERROR_KINDS)


def test_pointers_escape_tilde_and_slash_and_write_indexes() -> None:
    assert pointer([]) == ""
    assert pointer(["a", 0, "x/y", "~", ""]) == "/a/0/x~1y/~0/"
    assert pointer(["~1"]) == "/~01"
    assert push_token("/a", "b~/c") == "/a/b~0~1c"


def test_a_decode_error_carries_its_problem() -> None:
    e = DecodeError(Problem("wrong_type", "/a", "expected a string, got a number"))
    assert isinstance(e, Exception)
    assert str(e) == "wrong_type at /a: expected a string, got a number"
    assert str(DecodeError(Problem("invalid_json", "", "m"))) == "invalid_json at the document root: m"


def test_parse_error_is_a_value_error_with_kind_path_and_message() -> None:
    with pytest.raises(ParseError) as e:
        decode_text('{"a":1}', decode_string)
    error = e.value
    assert isinstance(error, ValueError)
    assert (error.kind, error.path, error.message) == ("wrong_type", "", "expected a string, got an object")
    assert str(error) == "wrong_type at the document root: expected a string, got an object"
    assert error.problem == Problem("wrong_type", "", "expected a string, got an object")
    with pytest.raises(ParseError) as f:
        decode_text('{"m":1}', lambda v, cx: cx.required("m", cx.expect_object(v)["m"], decode_string))
    assert str(f.value) == "wrong_type at /m: expected a string, got a number"
    again = pickle.loads(pickle.dumps(f.value))
    assert isinstance(again, ParseError)
    assert (again.kind, again.path, again.message) == (f.value.kind, f.value.path, f.value.message)


def test_problems_and_parsed_are_frozen() -> None:
    p = Problem("wrong_type", "/a", "m")
    with pytest.raises(AttributeError):
        p.kind = "invalid_json"  # type: ignore[misc]
    parsed = Parsed(1, (p,))
    with pytest.raises(AttributeError):
        parsed.value = 2  # type: ignore[misc]
    assert Parsed("x").warnings == ()


# --- the context tracks the pointer ---


def test_at_and_index_go_one_level_deeper_and_come_back_also_on_failure() -> None:
    cx = Cx()
    assert cx.path == ""
    paths: list[str] = []
    cx.at("a/b", lambda c: c.index(3, lambda d: paths.append(d.path)))
    assert paths == ["/a~1b/3"]
    assert cx.path == ""
    with pytest.raises(DecodeError):
        cx.at("x", lambda c: c.fail("wrong_type", "no"))
    assert cx.path == ""


def test_fail_wrong_type_and_missing_report_at_the_current_pointer() -> None:
    cx = Cx()
    assert problem_of(lambda: cx.at("update", lambda c: c.missing("terminalId"))) == Problem(
        "missing_field", "/update/terminalId", "required member `terminalId` is missing; add it"
    )
    assert problem_of(lambda: cx.at("n", lambda c: c.wrong_type("a string", 5))) == Problem(
        "wrong_type", "/n", "expected a string, got a number"
    )
    assert problem_of(lambda: cx.missing_one_of(("text", "blob"))).path == "/text"
    assert "`text` or `blob`" in problem_of(lambda: cx.missing_one_of(("text", "blob"))).message
    assert problem_of(lambda: cx.unknown_value("system", "Role", ("assistant", "user"))) == Problem(
        "unknown_variant", "", "`system` is not a known Role value; use one of: assistant, user"
    )
    assert problem_of(lambda: cx.unknown_tag("type", "_chart", "ToolCallContent", ("content",))) == Problem(
        "unknown_variant", "/type", "`_chart` is not a known ToolCallContent variant; use one of: content"
    )
    assert cx.problem("out_of_range", "m") == Problem("out_of_range", "", "m")


def test_describe_names_each_json_type() -> None:
    values: list[Json] = [None, True, 1, 1.5, "s", [], {}]
    assert [describe(v) for v in values] == [
        "null",
        "a boolean",
        "a number",
        "a number",
        "a string",
        "an array",
        "an object",
    ]


# --- values ---


def test_strings_booleans_numbers_objects_anything_else_is_wrong_type() -> None:
    assert ok('"x"', decode_string)[0] == "x"
    assert ok("false", decode_boolean)[0] is False
    assert ok("1.5", decode_number)[0] == 1.5
    assert ok('{"b":1}', decode_object)[0] == {"b": 1}
    cases: list[tuple[Decoder[object], str]] = [
        (decode_string, "1"),
        (decode_string, "null"),
        (decode_boolean, '"true"'),
        (decode_boolean, "1"),
        (decode_boolean, "0"),
        (decode_number, '"1"'),
        (decode_number, "true"),
        (decode_object, "[]"),
        (decode_object, "null"),
    ]
    for d, text in cases:
        assert err(d, text) == ("wrong_type", ""), text


def test_a_number_is_a_float_and_a_boolean_is_not_a_number() -> None:
    x = ok("3", decode_number)[0]
    assert x == 3.0
    assert type(x) is float
    assert ok("9007199254740993", decode_number)[0] == 9007199254740992.0
    assert err(decode_uint32, "true") == ("wrong_type", "")
    assert err(decode_int64, "false") == ("wrong_type", "")
    cx = Cx()
    with pytest.raises(DecodeError):
        cx.num(True)


def test_an_integer_past_the_largest_double_built_by_hand_is_rejected_as_its_text_would_be() -> None:
    # decode_value applies the text rules first: the literal 1e400 is not JSON.
    with pytest.raises(ParseError) as e:
        decode_value(10**400, decode_number)
    assert (e.value.kind, e.value.path) == ("invalid_json", "")
    # The decoder's own guard stays for a caller that skips those rules.
    with pytest.raises(DecodeError) as d:
        decode_number(10**400, Cx())
    assert d.value.problem.kind == "out_of_range"


def test_free_json_is_kept_as_is() -> None:
    v, _ = ok('{"z":[1,{"b":null,"a":2}],"1":"x"}', decode_json)
    assert encode_text(v, encode_json) == '{"z":[1,{"b":null,"a":2}],"1":"x"}'


def test_bytes_strict_base64_or_invalid_base64_with_the_reason() -> None:
    assert ok('"aGVsbG8="', decode_bytes)[0] == b"hello"
    assert ok('""', decode_bytes)[0] == b""
    assert err(decode_bytes, '"aGVsbG9="') == ("invalid_base64", "")
    assert err(decode_bytes, "5") == ("wrong_type", "")
    with pytest.raises(ParseError, match=r"^invalid_base64 at the document root: not strict base64: .*URL-safe"):
        decode_text('"YW-j"', decode_bytes)


def test_absolute_paths_relative_path_otherwise() -> None:
    assert ok('"C:\\\\w"', decode_absolute_path)[0] == "C:\\w"
    assert err(decode_absolute_path, '"src"') == ("relative_path", "")
    assert err(decode_absolute_path, "null") == ("wrong_type", "")


# --- integers ---


def test_3_3_0_and_3e0_are_all_the_int_3() -> None:
    for text in ["3", "3.0", "3e0", "0.03e2", "30e-1"]:
        x = ok(text, decode_uint32)[0]
        assert x == 3
        assert type(x) is int, text


def test_negative_zero_is_0() -> None:
    for text in ["-0", "-0.0"]:
        x = ok(text, decode_int64)[0]
        assert x == 0
        assert type(x) is int
        assert math.copysign(1, x) == 1


def test_a_fraction_is_wrong_type_and_so_is_a_non_number() -> None:
    assert err(decode_uint32, "1.5") == ("wrong_type", "")
    assert err(decode_uint32, "1e-1") == ("wrong_type", "")
    assert err(decode_uint32, '"1"') == ("wrong_type", "")
    assert err(decode_uint32, "-0.5") == ("wrong_type", "")


BOUNDS: list[tuple[Decoder[int], int, int]] = [
    (decode_uint8, 0, 255),
    (decode_uint16, 0, 65535),
    (decode_uint32, 0, 4294967295),
    (decode_int32, -2147483648, 2147483647),
    (decode_uint64, 0, MAX_SAFE_INTEGER),
    (decode_int64, -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER),
]


@pytest.mark.parametrize(("d", "lo", "hi"), BOUNDS, ids=[d.__name__ for d, _, _ in BOUNDS])
def test_each_formats_bounds(d: Decoder[int], lo: int, hi: int) -> None:
    assert ok(str(lo), d)[0] == lo
    assert ok(str(hi), d)[0] == hi
    assert ok(f"{hi}.0", d)[0] == hi
    assert err(d, str(lo - 1)) == ("out_of_range", "")
    assert err(d, str(hi + 1)) == ("out_of_range", "")
    assert err(d, f"{hi + 1}.0") == ("out_of_range", "")
    assert err(d, "1e300") == ("out_of_range", "")
    assert err(d, "-1e300") == ("out_of_range", "")


def test_64_bit_formats_stop_at_2_53_minus_1() -> None:
    assert MAX_SAFE_INTEGER == 2**53 - 1
    assert err(decode_uint64, "9007199254740992") == ("out_of_range", "")
    assert err(decode_int64, "-9007199254740992") == ("out_of_range", "")
    assert err(decode_uint64, "18446744073709551615") == ("out_of_range", "")
    assert err(decode_uint64, "1e300") == ("out_of_range", "")


def test_the_messages_say_what_was_expected() -> None:
    with pytest.raises(ParseError) as e:
        decode_text("1.5", decode_uint32)
    assert e.value.message == "expected a whole number from 0 to 4294967295, got 1.5, which has a fraction"
    with pytest.raises(ParseError) as f:
        decode_text("-1", decode_uint32)
    assert "-1 is outside the range of a whole number from 0 to 4294967295" in f.value.message
    with pytest.raises(ParseError) as g:
        decode_text("1e300", decode_uint64)
    assert g.value.message.startswith("1e+300 is outside the range")


# --- arrays ---

strings = decode_array(decode_string)


def test_each_item_is_decoded_at_its_index() -> None:
    assert ok('["a","b"]', strings)[0] == ["a", "b"]
    assert err(strings, '["a",1]') == ("wrong_type", "/1")
    assert err(strings, '{"0":"a"}') == ("wrong_type", "")


def test_with_skip_invalid_items_bad_items_are_dropped_with_a_warning_each_in_document_order() -> None:
    v, ws = ok_of(decode_value(json('["a",1,"b",null,"c"]'), lambda x, cx: cx.array(x, decode_string, True)))
    assert v == ["a", "b", "c"]
    assert ws == [("wrong_type", "/1"), ("wrong_type", "/3")]


def test_skipping_does_not_reach_nested_arrays() -> None:
    def nested(x: Json, cx: Cx) -> list[list[str]]:
        return cx.array(x, strings, True)

    assert ok('[["a"],["b",2],["c"]]', nested) == ([["a"], ["c"]], [("wrong_type", "/1/1")])


def test_an_array_that_is_not_an_array_is_still_an_error_when_skipping() -> None:
    assert err(lambda x, cx: cx.array(x, decode_string, True), "5") == ("wrong_type", "")


def test_skip_invalid_items_false_overrides_the_members_flag() -> None:
    opts = MemberOptions(skip_items=True)

    def decode(v: Json, cx: Cx) -> list[str]:
        return cx.required("m", v, lambda x, c: c.array(x, decode_string, False), opts)

    assert err(decode, '["a",1]') == ("wrong_type", "/m/1")


# --- member helpers ---

LENIENT = MemberOptions(lenient=True)


def member(text: str, read: Callable[[Cx, Json], T]) -> tuple[T | Literal["omitted"], list[tuple[str, str]]]:
    """Decodes ``{"m": ...}`` with one member helper: the member's outcome and the warnings."""

    def decode(v: Json, cx: Cx) -> T | Literal["omitted"]:
        obj = cx.expect_object(v)
        return read(cx, obj["m"]) if "m" in obj else "omitted"

    return ok(text, decode)


def test_required_the_value_or_its_error_under_the_members_name() -> None:
    assert member('{"m":"x"}', lambda cx, v: cx.required("m", v, decode_string)) == ("x", [])
    assert err(lambda v, cx: cx.required("m", cx.expect_object(v)["m"], decode_string), '{"m":null}') == (
        "wrong_type",
        "/m",
    )


def test_required_is_never_lenient() -> None:
    assert err(lambda v, cx: cx.required("m", v, decode_string, LENIENT), "1") == ("wrong_type", "/m")


def test_optional_null_is_omitted_a_problem_is_an_error_unless_lenient() -> None:
    assert member('{"m":null}', lambda cx, v: cx.optional("m", v, decode_string)) == (None, [])
    assert member('{"m":"x"}', lambda cx, v: cx.optional("m", v, decode_string)) == ("x", [])
    assert err(lambda v, cx: cx.optional("m", v, decode_string), "1") == ("wrong_type", "/m")
    assert member('{"m":1}', lambda cx, v: cx.optional("m", v, decode_string, LENIENT)) == (
        None,
        [("wrong_type", "/m")],
    )


def test_maybe_null_is_still_omitted_other_problems_as_optional() -> None:
    assert member('{"m":null}', lambda cx, v: cx.maybe("m", v, decode_string)) == (None, [])
    assert member('{"m":null}', lambda cx, v: cx.maybe("m", v, decode_string, LENIENT)) == (None, [])
    assert err(lambda v, cx: cx.maybe("m", v, decode_string), "1") == ("wrong_type", "/m")
    assert member('{"m":1}', lambda cx, v: cx.maybe("m", v, decode_string, LENIENT)) == (None, [("wrong_type", "/m")])


def test_patch_null_clears_a_value_sets_a_lenient_problem_leaves_it_unchanged() -> None:
    assert member('{"m":null}', lambda cx, v: cx.patch("m", v, decode_string, LENIENT)) == (None, [])
    assert member('{"m":"x"}', lambda cx, v: cx.patch("m", v, decode_string, LENIENT)) == ("x", [])
    got, warnings = member('{"m":7}', lambda cx, v: cx.patch("m", v, decode_string, LENIENT))
    assert got is MISSING
    assert warnings == [("wrong_type", "/m")]
    assert err(lambda v, cx: cx.patch("m", v, decode_string), "7") == ("wrong_type", "/m")
    assert member('{"m":"x"}', lambda cx, v: cx.patch("m", v, decode_string)) == ("x", [])


def test_patch_keeps_free_json_null_as_clear() -> None:
    assert member('{"m":null}', lambda cx, v: cx.patch("m", v, decode_json)) == (None, [])
    assert member('{"m":[null]}', lambda cx, v: cx.patch("m", v, decode_json)) == ([None], [])


def test_range_out_of_range_at_the_member_checked_before_the_type() -> None:
    opts = MemberOptions(range=(0.0, 1.0))
    assert member('{"m":0.5}', lambda cx, v: cx.required("m", v, decode_number, opts)) == (0.5, [])
    assert member('{"m":1}', lambda cx, v: cx.required("m", v, decode_number, opts)) == (1.0, [])
    assert err(lambda v, cx: cx.required("m", v, decode_number, opts), "1.5") == ("out_of_range", "/m")
    assert err(lambda v, cx: cx.required("m", v, decode_number, opts), "-1") == ("out_of_range", "/m")
    assert err(lambda v, cx: cx.required("m", v, decode_uint8, opts), "2.5") == ("out_of_range", "/m")
    assert err(lambda v, cx: cx.required("m", v, decode_number, opts), '"x"') == ("wrong_type", "/m")
    assert err(lambda v, cx: cx.required("m", v, decode_number, opts), "true") == ("wrong_type", "/m")
    with pytest.raises(ParseError) as e:
        decode_text("1.5", lambda v, cx: cx.required("m", v, decode_number, opts))
    assert e.value.message == "1.5 is outside the allowed range 0 to 1"
    half_open = MemberOptions(range=(0.0, math.inf))
    with pytest.raises(ParseError) as f:
        decode_text("-1", lambda v, cx: cx.required("m", v, decode_number, half_open))
    assert f.value.message == "-1 is outside the allowed range 0 to Infinity"


def test_min_items_out_of_range_at_the_array_before_its_items() -> None:
    opts = MemberOptions(min_items=1)
    assert err(lambda v, cx: cx.required("options", v, strings, opts), "[]") == ("out_of_range", "/options")
    assert member('{"m":["a"]}', lambda cx, v: cx.required("m", v, strings, opts)) == (["a"], [])
    with pytest.raises(ParseError) as e:
        decode_text("[]", lambda v, cx: cx.required("options", v, strings, opts))
    assert e.value.message == "the array has 0 items; at least 1 required"
    assert err(lambda v, cx: cx.required("options", v, strings, MemberOptions(min_items=2)), "[1]") == (
        "out_of_range",
        "/options",
    )


def test_skip_items_reaches_the_members_own_array_not_later_ones() -> None:
    def decode(v: Json, cx: Cx) -> tuple[list[str] | None, list[str] | None]:
        obj = cx.expect_object(v)
        a = cx.optional("a", obj.get("a"), strings, MemberOptions(lenient=True, skip_items=True))
        b = cx.optional("b", obj.get("b"), strings, LENIENT)
        return a, b

    assert ok('{"a":["x",1],"b":["y",2]}', decode) == ((["x"], None), [("wrong_type", "/a/1"), ("wrong_type", "/b/1")])


def test_a_skip_items_member_whose_value_is_not_an_array_does_not_leak_the_flag() -> None:
    def decode(v: Json, cx: Cx) -> list[str] | None:
        obj = cx.expect_object(v)
        cx.optional("a", obj.get("a"), decode_string, MemberOptions(skip_items=True))
        return cx.optional("b", obj.get("b"), strings)

    assert err(decode, '{"a":"not an array","b":["y",2]}') == ("wrong_type", "/b/1")


def test_absorb_turns_a_problem_into_a_warning_and_restores_the_pointer() -> None:
    cx = Cx()
    got = cx.at("a", lambda c: c.absorb(lambda d: d.at("b", lambda e: e.fail("out_of_range", "too big"))))
    assert got is None
    assert cx.path == ""
    assert [(w.kind, w.path) for w in cx.warnings] == [("out_of_range", "/a/b")]
    cx.warn(Problem("wrong_type", "/x", "m"))
    assert cx.warnings[-1].path == "/x"


def test_only_decoding_problems_are_absorbed_bugs_propagate() -> None:
    def boom(v: Json, cx: Cx) -> str:
        raise TypeError("bug")

    with pytest.raises(TypeError):
        decode_text('{"m":1}', lambda v, cx: cx.optional("m", v, boom, LENIENT))
    with pytest.raises(TypeError):
        decode_text('{"m":1}', lambda v, cx: cx.patch("m", v, boom, LENIENT))
    with pytest.raises(TypeError):
        decode_text("[1]", lambda v, cx: cx.array(v, boom, True))


def test_the_pointer_is_restored_after_a_lenient_failure_deep_inside() -> None:
    def inner(v: Json, cx: Cx) -> str:
        obj = cx.expect_object(v)
        return cx.required("y", obj.get("y"), lambda x, c: c.required("z", x, decode_string))

    def outer(v: Json, cx: Cx) -> tuple[str | None, str]:
        obj = cx.expect_object(v)
        a = cx.optional("a", obj.get("a"), inner, LENIENT)
        b = cx.required("b", obj.get("b"), decode_string)
        return a, b

    assert ok('{"a":{"y":1},"b":"x"}', outer) == ((None, "x"), [("wrong_type", "/a/y/z")])
    assert err(outer, '{"a":{"y":1},"b":2}') == ("wrong_type", "/b")


# --- tags and unknown members ---


def test_read_tag_missing_field_at_the_tag_wrong_type_at_the_tag_or_the_tag() -> None:
    def tag(v: Json, cx: Cx) -> str:
        return cx.read_tag(cx.expect_object(v), "type")

    assert ok('{"x":1,"type":"diff"}', tag)[0] == "diff"
    assert err(tag, '{"x":1}') == ("missing_field", "/type")
    assert err(tag, '{"type":1}') == ("wrong_type", "/type")
    assert err(tag, '{"type":null}') == ("wrong_type", "/type")
    assert err(tag, "[]") == ("wrong_type", "")


def test_members_except_keeps_the_others_in_input_order() -> None:
    obj = json('{"b":1,"type":"x","1":2,"a":3}')
    assert isinstance(obj, dict)
    assert list(members_except(obj, frozenset(["type"]))) == ["b", "1", "a"]


# --- entry points ---


def test_decode_text_invalid_json_first_then_duplicate_key_then_type_problems() -> None:
    assert err(decode_string, '{"a":1,"a":2') == ("invalid_json", "")
    assert err(decode_string, '{"a":1,"a":2}') == ("duplicate_key", "/a")
    assert err(decode_string, '{"a":1}') == ("wrong_type", "")


def test_decode_value_on_an_already_parsed_value_with_warnings() -> None:
    parsed = decode_value(json('["a",2]'), lambda v, cx: cx.array(v, decode_string, True))
    assert isinstance(parsed, Parsed)
    assert ok_of(parsed) == (["a"], [("wrong_type", "/1")])
    assert isinstance(parsed.warnings, tuple)
    assert parsed.warnings[0].message == "expected a string, got a number"


def test_a_fresh_context_per_parse_warnings_do_not_carry_over() -> None:
    def skipping(v: Json, cx: Cx) -> list[str]:
        return cx.array(v, decode_string, True)

    assert len(decode_text("[1]", skipping).warnings) == 1
    assert len(decode_text("[1]", skipping).warnings) == 1


def test_decode_value_accepts_python_values_built_by_hand() -> None:
    assert decode_value(3, decode_uint8).value == 3
    assert decode_value(3.0, decode_uint8).value == 3
    with pytest.raises(ParseError):
        decode_value(True, decode_uint8)
