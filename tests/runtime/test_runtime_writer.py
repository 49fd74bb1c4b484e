"""Tests of the canonical writer: ECMAScript number and string forms (as Node writes them), order, commas."""

from __future__ import annotations

import json as stdjson
import random
import struct
from pathlib import Path

import pytest
from pydantic import MISSING

from runtime.writer import (
    Writer,
    encode_array,
    encode_boolean,
    encode_bytes,
    encode_json,
    encode_number,
    encode_object,
    encode_string,
    format_number,
    format_string,
    write_json,
)
from runtime_support import json

DATA = Path(__file__).resolve().parent / "data"


def canonical(text: str) -> str:
    return write_json(json(text))


NUMBERS: list[tuple[str, str]] = [
    ("1.0", "1"),
    ("1e21", "1e+21"),
    ("1e20", "100000000000000000000"),
    ("-0", "0"),
    ("-0.0", "0"),
    ("-1e-400", "0"),
    ("1E2", "100"),
    ("0.1", "0.1"),
    ("12345678901234567890", "12345678901234567000"),
    ("1e-7", "1e-7"),
    ("1.5e-7", "1.5e-7"),
    ("0.000001", "0.000001"),
    ("0.0000015", "0.0000015"),
    ("123e-20", "1.23e-18"),
    ("-1.50", "-1.5"),
    ("3e0", "3"),
    ("100.0", "100"),
    ("5e-324", "5e-324"),
    ("1.7976931348623157e308", "1.7976931348623157e+308"),
    ("0.30000000000000004", "0.30000000000000004"),
    ("9007199254740993", "9007199254740992"),
    ("1152921504606846976", "1152921504606847000"),
    ("123456789012345680000", "123456789012345680000"),
    ("1234567890123456800000", "1.2345678901234568e+21"),
    ("-1e21", "-1e+21"),
    ("1.5e300", "1.5e+300"),
]


@pytest.mark.parametrize(("text", "output"), NUMBERS, ids=[f"{t}->{o}" for t, o in NUMBERS])
def test_numbers_are_written_as_ecmascript_number_to_string(text: str, output: str) -> None:
    assert canonical(text) == output
    assert canonical(f"[{text}]") == f"[{output}]"


def _double(bits: str) -> float:
    x: float = struct.unpack("<d", struct.pack("<Q", int(bits, 16)))[0]
    return x


def test_every_double_in_the_node_table_is_written_as_node_writes_it() -> None:
    """data/ecmascript_numbers.json: String(x) from Node for powers of ten around the
    form thresholds, their neighbours, subnormals, whole numbers and random doubles."""
    table = stdjson.loads((DATA / "ecmascript_numbers.json").read_text(encoding="utf-8"))
    doubles: list[list[str]] = table["doubles"]
    assert len(doubles) > 5000
    for bits, expected in doubles:
        assert format_number(_double(bits)) == expected, bits
    for text, expected in table["integers"]:
        assert format_number(int(text)) == expected, text


def test_the_forms_switch_at_ecmascripts_thresholds() -> None:
    assert format_number(1e20) == "100000000000000000000"
    assert format_number(1e21) == "1e+21"
    assert format_number(123456789012345678901.0) == "123456789012345680000"
    assert format_number(0.000001) == "0.000001"
    assert format_number(0.0000001) == "1e-7"
    assert format_number(0.00000123) == "0.00000123"
    assert format_number(0.000000123) == "1.23e-7"
    assert format_number(10**21) == "1e+21"
    assert format_number(2**53) == "9007199254740992"
    assert format_number(-(2**53) - 1) == "-9007199254740992"


def test_nan_and_the_infinities_cannot_be_written() -> None:
    for x in [float("nan"), float("inf"), float("-inf"), 10**400]:
        with pytest.raises(ValueError, match="cannot be written as JSON"):
            write_json(x)


def test_booleans_are_not_numbers() -> None:
    with pytest.raises(TypeError):
        format_number(True)
    assert write_json([True, False, 1, 0]) == "[true,false,1,0]"


def test_random_doubles_round_trip_through_their_text() -> None:
    r = random.Random(3)
    for _ in range(20000):
        x = _double(f"0x{r.getrandbits(64):016x}")
        if x != x or x in (float("inf"), float("-inf")):
            continue
        text = format_number(x)
        assert float(text) == x or (x == 0 and text == "0"), text


# --- strings ---


def test_escapes_as_json_stringify_writes_them() -> None:
    assert canonical('"\\u00e9\\/\\u001f\\u007f"') == '"é/\\u001f\u007f"'
    assert canonical('"\\b\\f\\n\\r\\t\\u0000\\u000B\\u001F"') == '"\\b\\f\\n\\r\\t\\u0000\\u000b\\u001f"'
    assert canonical('"\\"\\\\"') == '"\\"\\\\"'


def test_non_ascii_characters_are_written_as_themselves() -> None:
    assert canonical('"\\ud83d\\ude00 \\u2028\\u2029 \\u20ac"') == '"😀 \u2028\u2029 €"'


def test_every_code_unit_and_surrogate_pairs_match_json_stringify() -> None:
    """data/stringify.json: what Node's JSON.stringify writes for each UTF-16 code unit
    that it does not write as itself (escapes, lone surrogates), and a few strings."""
    table = stdjson.loads((DATA / "stringify.json").read_text(encoding="utf-8"))
    special = {int(k): v for k, v in table["special"].items()}
    assert len(special) == 32 + 2 + 2048  # controls, `"` and `\`, surrogates
    whole = []
    expected = []
    for c in range(0x10000):
        s = chr(c)
        out = special.get(c, f'"{s}"')
        assert format_string(s) == out, hex(c)
        if not 0xD800 <= c <= 0xDFFF:
            whole.append(s)
            expected.append(out[1:-1])
    all_units = "".join(whole) + "\U00010000\U0010ffff"
    w = Writer()
    w.string(all_units)
    assert w.finish() == '"' + "".join(expected) + "\U00010000\U0010ffff" + '"'
    assert canonical(w.finish()) == w.finish()
    for code_points, out in table["strings"]:
        assert format_string("".join(map(chr, code_points))) == out


def test_member_names_are_escaped_the_same_way() -> None:
    assert canonical('{"a\\nb":1,"\\u00e9":2}') == '{"a\\nb":1,"é":2}'
    w = Writer()
    w.begin_object()
    w.key("\ud800")
    w.null()
    w.end_object()
    assert w.finish() == '{"\\ud800":null}'


# --- compact output, order, commas ---


def test_insignificant_whitespace_goes() -> None:
    text = ' { "a" : [ 1 , 2 , { } , [ ] ] , "b" : { "c" : null } } '
    assert canonical(text) == '{"a":[1,2,{},[]],"b":{"c":null}}'


@pytest.mark.parametrize(
    "text", ['{"b":{"z":1,"a":[true,false,null]},"a":"x"}', "[]", "{}", '[[],[[]],{"":""}]', '"s"', "0"]
)
def test_canonical_text_is_a_fixpoint(text: str) -> None:
    assert canonical(text) == text


def test_dicts_are_written_in_their_order_integer_like_keys_included() -> None:
    assert write_json({"b": 1, "1": 2, "a": {"0": 0, "z": 0}}) == '{"b":1,"1":2,"a":{"0":0,"z":0}}'


def test_objects_arrays_and_members_nest_with_commas_placed_by_the_writer() -> None:
    w = Writer()
    w.begin_object()
    w.key("a")
    w.begin_array()
    w.item()
    w.number(1)
    w.item()
    w.begin_object()
    w.end_object()
    w.item()
    w.begin_array()
    w.end_array()
    w.item()
    w.null()
    w.end_array()
    w.key("b")
    w.bool(True)
    w.key("c")
    w.bytes(b"hi")
    w.key("d")
    w.raw('{"x":1}')
    w.key("e")
    w.value({"y": [1, "2"]})
    w.end_object()
    assert w.finish() == '{"a":[1,{},[],null],"b":true,"c":"aGk=","d":{"x":1},"e":{"y":[1,"2"]}}'


def test_put_put_optional_and_put_patch_write_required_optional_and_patch_members() -> None:
    w = Writer()
    w.begin_object()
    w.put("id", "t", encode_string)
    w.put_optional("absent", None, encode_string)
    w.put_optional("present", 3, encode_number)
    w.put_patch("keep", MISSING, encode_string)
    w.put_patch("clear", None, encode_string)
    w.put_patch("set", "v", encode_string)
    w.put_optional("flag", False, encode_boolean)
    w.end_object()
    assert w.finish() == '{"id":"t","present":3,"clear":null,"set":"v","flag":false}'


def test_put_optional_and_put_patch_take_union_typed_members() -> None:
    """mypy checks these calls item by item (the overloads); a join to `object` would reject them."""

    def encode_either(w: Writer, v: int | str) -> None:
        if isinstance(v, int):
            w.number(v)
        else:
            w.string(v)

    either: int | str | None = 1
    patched: int | str | None | MISSING = "x"
    free: dict[str, object] | list[object] | None | MISSING = MISSING
    w = Writer()
    w.begin_object()
    w.put("r", either if either is not None else 0, encode_either)
    w.put_optional("e", either, encode_either)
    w.put_patch("p", patched, encode_either)
    w.put_patch("f", free, encode_json)  # type: ignore[arg-type]  # dict[str, object] is not Json
    w.end_object()
    assert w.finish() == '{"r":1,"e":1,"p":"x"}'


def test_array_writes_each_item_with_its_encoder() -> None:
    w = Writer()
    w.array(["a", "b"], encode_string)
    assert w.finish() == '["a","b"]'
    strings = encode_array(encode_string)
    w = Writer()
    strings(w, [])
    assert w.finish() == "[]"


def test_ready_made_encoders() -> None:
    def text(write: object, v: object) -> str:
        w = Writer()
        write(w, v)  # type: ignore[operator]
        return w.finish()

    assert text(encode_bytes, b"\x00\xff") == '"AP8="'
    assert text(encode_bytes, bytearray(b"")) == '""'
    assert text(encode_json, {"z": [1.5, None], "a": "x"}) == '{"z":[1.5,null],"a":"x"}'
    assert text(encode_object, {"b": {}, "a": []}) == '{"b":{},"a":[]}'
    assert text(encode_number, 2.0) == "2"


def test_values_that_are_not_json_are_refused() -> None:
    with pytest.raises(TypeError):
        write_json({"a": object()})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        write_json((1, 2))  # type: ignore[arg-type]
