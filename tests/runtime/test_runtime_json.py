"""Tests of the strict JSON parser: RFC 8259 only, lone surrogates, overflow, depth, duplicate keys, member order."""

from __future__ import annotations

import json as stdjson
import math
import random

import pytest

from runtime.errors import DecodeError
from runtime.json import MAX_DEPTH, Json, parse_json, to_json
from runtime.writer import write_json
from runtime_support import json, json_error

INVALID: list[tuple[str, str]] = [
    ("empty text", ""),
    ("only whitespace", " \n\t\r "),
    ("unclosed object", "{"),
    ("unclosed array", "[1,2"),
    ("trailing comma in an array", "[1,]"),
    ("trailing comma in an object", '{"a":1,}'),
    ("leading comma", "[,1]"),
    ("missing comma", "[1 2]"),
    ("missing colon", '{"a" 1}'),
    ("missing comma between members", '{"a":1 "b":2}'),
    ("unquoted member name", "{a:1}"),
    ("single-quoted string", "'a'"),
    ("number member name", "{1:1}"),
    ("line comment", "// c\n1"),
    ("block comment", "/* c */ 1"),
    ("comment after a value", "[1 /* c */]"),
    ("leading zero", "01"),
    ("leading zero in an array", "[00]"),
    ("negative leading zero", "-01"),
    ("lone minus", "-"),
    ("plus sign", "+1"),
    ("fraction without digits", "1."),
    ("fraction without a whole part", ".5"),
    ("exponent without digits", "1e"),
    ("exponent sign without digits", "1e+"),
    ("hex number", "0x10"),
    ("NaN", "NaN"),
    ("Infinity", "Infinity"),
    ("-Infinity", "-Infinity"),
    ("NaN inside a structure", '{"a":[NaN]}'),
    ("truncated true", "tru"),
    ("truncated null", "nul"),
    ("capitalised literal", "True"),
    ("undefined", "undefined"),
    ("unterminated string", '"abc'),
    ("unterminated long string", '"' + "x" * 200),
    ("invalid escape", '"\\x"'),
    ("single-quote escape", '"\\\'"'),
    ("short \\u escape", '"\\u12"'),
    ("non-hex \\u escape", '"\\u12G4"'),
    ("raw control character", '"a\u0001b"'),
    ("raw tab in a string", '"a\tb"'),
    ("raw newline in a string", '"a\nb"'),
    ("raw control in a long string", '"' + "x" * 100 + '\u001f"'),
    ("invalid escape in a long string", '"' + "x" * 100 + '\\q"'),
    ("no-break space as whitespace", "\u00a01"),
    ("byte order mark", "\ufeff1"),
    ("vertical tab as whitespace", "\u000b1"),
    ("form feed as whitespace", "\u000c1"),
    ("two values", "1 2"),
    ("trailing garbage after an object", '{"terminalId":"t"} x'),
    ("two objects", "{} {}"),
    ("trailing garbage after a literal", "nullx"),
    ("trailing comma at the end", "[1],"),
    ("lone high surrogate escape", '"\\ud800"'),
    ("lone low surrogate escape", '"\\udc00"'),
    ("upper-case lone surrogate escape", '"\\uDBFF"'),
    ("surrogate escapes in the wrong order", '"\\udc00\\ud800"'),
    ("high surrogate escape then a letter", '"\\ud800x"'),
    ("high surrogate escape then a non-surrogate escape", '"\\ud800\\u0041"'),
    ("two high surrogate escapes", '"\\ud800\\ud800"'),
    ("high surrogate escape at the end of a member name", '{"\\ud83d":1}'),
    ("lone surrogate escape in a long string", '"' + "x" * 100 + '\\ud800"'),
    ("lone low surrogate escape in a long string", '"' + "x" * 100 + "\\udfff" + "y" * 10 + '"'),
    ("lone surrogate escape after an escaped backslash", '"\\\\\\ud800"'),
    ("raw lone high surrogate", '"\ud800"'),
    ("raw lone low surrogate", '"\udc00"'),
    ("raw surrogates in the wrong order", '"\udc00\ud800"'),
    ("raw surrogate code points of a pair (not one character)", '"\ud83d\ude00"'),
    ("escaped high surrogate then raw low surrogate", '"\\ud800\udc00"'),
    ("raw surrogate outside a string", "[1]\ud800"),
    ("number too large for a double", "1e400"),
    ("negative number too large for a double", "-1e400"),
    ("long integer too large for a double", "1" + "0" * 400),
    ("integer just past the largest double", str(2**1024 - 2**970)),
    ("integer past Python's digit limit", "1" * 5000),
    ("long fraction too large for a double", "1" + "0" * 400 + ".5"),
    ("too large inside a structure", '{"a":[1,2,1e999]}'),
]


@pytest.mark.parametrize(("name", "text"), INVALID, ids=[n for n, _ in INVALID])
def test_text_that_is_not_json_is_invalid_json_at_the_root(name: str, text: str) -> None:
    assert json_error(text) == ("invalid_json", "")


def test_the_message_says_what_is_wrong_and_where() -> None:
    with pytest.raises(DecodeError) as e:
        parse_json("[1,]")
    assert "not valid JSON: " in e.value.problem.message
    assert e.value.problem.message.endswith("at offset 3")
    assert str(e.value).startswith("invalid_json at the document root: the text is not valid JSON")


VALID: list[tuple[str, Json]] = [
    ("0", 0),
    ("-0", 0),
    ("1.5e3", 1500.0),
    ("1E2", 100.0),
    ("1e-400", 0.0),
    ("true", True),
    ("false", False),
    ("null", None),
    ('""', ""),
    (' \t\r\n[ 1 , { } , [ ] , "x" ] \n', [1, {}, [], "x"]),
    ('"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"\\/\b\f\n\r\t'),
    ('"\\u00e9\\u00E9\\u20ac"', "éé€"),
    ('"\\ud83d\\ude00"', "😀"),
    ('"\\uD83D\\uDE00"', "😀"),
    ('"😀 raw pair"', "😀 raw pair"),
    ('"\u007f"', "\u007f"),
    ('"\u2028\u2029"', "\u2028\u2029"),
    ('"\\\\ud800"', "\\ud800"),
    ('{"a":{"b":[null]}}', {"a": {"b": [None]}}),
    ("1" + "0" * 308, 10**308),
    ("-" + "1" + "0" * 308, -(10**308)),
]


@pytest.mark.parametrize(("text", "value"), VALID, ids=[repr(t)[:40] for t, _ in VALID])
def test_rfc_8259_text_parses(text: str, value: Json) -> None:
    got = parse_json(text)
    assert got == value
    assert type(got) is type(value)


def test_negative_zero() -> None:
    x = parse_json("-0.0")
    assert isinstance(x, float)
    assert math.copysign(1.0, x) == -1.0


def test_integers_stay_integers_and_other_numbers_are_floats() -> None:
    assert parse_json("[3, 3.0, 3e0, 12345678901234567890]") == [3, 3.0, 3.0, 12345678901234567890]
    assert [type(x) for x in parse_json("[3, 3.0, 3e0]")] == [int, float, float]  # type: ignore[union-attr]


def test_long_strings_with_and_without_escapes_parse_as_json_loads_does() -> None:
    for body in [
        "x" * 1000,
        "a" * 70 + '\\"' + "b" * 70,
        "a" * 70 + "\\\\",
        "a" * 70 + '\\\\\\"q',
        "\\n" + "é" * 100 + "\\u00e9\\ud83d\\ude00",
        "😀" * 50 + "\\t",
        "\\\\" * 100,
    ]:
        text = f'["{body}","next"]'
        assert parse_json(text) == stdjson.loads(text), body[:20]


def test_the_largest_and_smallest_doubles_parse() -> None:
    assert parse_json("1.7976931348623157e308") == 1.7976931348623157e308
    assert parse_json("5e-324") == 5e-324
    assert parse_json(str(2**1024 - 2**970 - 1)) == 2**1024 - 2**970 - 1


# --- nesting depth ---


def nest(n: int, open_: str, close: str) -> str:
    return open_ * n + close * n


def mixed(n: int) -> str:
    s = "1"
    for i in range(n):
        s = f"[{s}]" if i % 2 == 0 else f'{{"k":{s}}}'
    return s


def test_the_limit_is_serde_jsons_127_levels() -> None:
    assert MAX_DEPTH == 127


def test_127_nested_arrays_or_objects_parse() -> None:
    assert json_error(nest(MAX_DEPTH, "[", "]")) is None
    assert json_error(nest(MAX_DEPTH, '{"a":', "}").replace(":}", ":1}", 1)) is None
    assert json_error(mixed(MAX_DEPTH)) is None
    # Long texts take the other bracket count.
    assert json_error(nest(MAX_DEPTH, "[", "]").replace("[]", '["' + "x" * 20000 + '"]')) is None


def test_128_nested_arrays_or_objects_are_invalid_json() -> None:
    assert json_error(nest(MAX_DEPTH + 1, "[", "]")) == ("invalid_json", "")
    assert json_error(nest(MAX_DEPTH + 1, '{"a":', "}").replace(":}", ":1}", 1)) == ("invalid_json", "")
    assert json_error(mixed(MAX_DEPTH + 1)) == ("invalid_json", "")
    assert json_error(nest(MAX_DEPTH + 1, "[", "]").replace("[]", '["' + "x" * 20000 + '"]')) == ("invalid_json", "")
    assert json_error(nest(1000, "[", "]")) == ("invalid_json", "")
    assert json_error(nest(100000, "[", "]")) == ("invalid_json", "")


def test_depth_is_counted_along_one_path_not_in_total() -> None:
    wide = "[" + ",".join(["[[]]"] * 300) + "]"
    assert json_error(wide) is None
    assert json_error("[" + ",".join(["[[]]"] * 30000) + "]") is None


def test_brackets_inside_strings_do_not_count() -> None:
    text = '["' + "[" * 200 + '", "' + "{" * 200 + '"]'
    assert parse_json(text) == ["[" * 200, "{" * 200]


def test_depth_is_checked_before_a_repeated_name_is_reported() -> None:
    deep = nest(MAX_DEPTH + 1, "[", "]")
    assert json_error('{"a":1,"a":' + deep + "}") == ("invalid_json", "")


# --- repeated member names ---

DUPLICATES: list[tuple[str, str, str]] = [
    ("at the top", '{"a":1,"a":2}', "/a"),
    ("nested", '{"a":{"b":1,"b":2}}', "/a/b"),
    ("inside an array", '[{"x":1},{"y":1,"y":2}]', "/1/y"),
    ("deep inside arrays and objects", '{"a":[0,[{"b":{"c":1,"d":2,"c":3}}]]}', "/a/1/0/b/c"),
    ("`/` escaped as ~1", '{"x/y":1,"x/y":2}', "/x~1y"),
    ("`~` escaped as ~0", '{"a":{"~":1,"~":2}}', "/a/~0"),
    ("both escapes", '{"~/":{"/~":1,"/~":2}}', "/~0~1/~1~0"),
    ("the empty name", '{"":1,"":2}', "/"),
    ("names equal after escapes", '{"a":1,"\\u0061":2}', "/a"),
    ("__proto__", '{"__proto__":1,"__proto__":2}', "/__proto__"),
    ("not adjacent", '{"a":1,"b":2,"c":3,"a":4}', "/a"),
    ("with null values", '{"a":null,"a":null}', "/a"),
    ("in free JSON under _meta", '{"terminalId":"a","_meta":{"x/y":1,"x/y":2}}', "/_meta/x~1y"),
    ("the first one in document order wins", '{"a":{"b":1,"b":2},"a":3}', "/a/b"),
    ("an outer repeat before an inner one wins", '{"a":1,"a":{"b":1,"b":2}}', "/a"),
    ("an earlier object's repeat wins over a later one", '[{"p":1,"p":2},{"q":1,"q":2}]', "/0/p"),
    ("three times: the second one", '{"a":1,"b":{"a":0},"a":2,"a":3}', "/a"),
    ("inside the value of a repeated member", '{"a":1,"a":{"b":1,"b":2}}', "/a"),
    ("a later sibling's inner repeat", '{"a":{"x":1},"b":{"x":1,"x":2},"a":0}', "/b/x"),
]


@pytest.mark.parametrize(("name", "text", "path"), DUPLICATES, ids=[n for n, _, _ in DUPLICATES])
def test_a_repeated_member_name_is_duplicate_key_at_the_second_occurrence(name: str, text: str, path: str) -> None:
    assert json_error(text) == ("duplicate_key", path)


def test_the_message_names_the_member() -> None:
    with pytest.raises(DecodeError, match="`command` appears twice"):
        parse_json('{"command":7,"command":8}')
    with pytest.raises(DecodeError, match="`x/y` appears twice"):
        parse_json('{"x/y":7,"x/y":8}')


def test_equal_names_in_different_objects_are_not_repeats() -> None:
    assert json_error('{"a":{"a":1},"b":{"a":2},"c":[{"a":3},{"a":4}]}') is None


def test_text_that_is_not_json_wins_over_a_repeated_name() -> None:
    assert json_error('{"a":1,"a":2') == ("invalid_json", "")
    assert json_error('{"a":1,"a":2} x') == ("invalid_json", "")
    assert json_error('{"a":1,"a":"\\ud800"}') == ("invalid_json", "")
    assert json_error('{"a":1,"a":1e400}') == ("invalid_json", "")
    assert json_error('{"a":1,"a":NaN}') == ("invalid_json", "")
    assert json_error('{"a":1,"a":2,"b":"\ud800"}') == ("invalid_json", "")


# --- member order ---


def test_integer_like_keys_stay_where_they_were() -> None:
    v = json('{"b":1,"2":2,"a":3,"1":4,"0":5}')
    assert isinstance(v, dict)
    assert list(v) == ["b", "2", "a", "1", "0"]
    assert write_json(v) == '{"b":1,"2":2,"a":3,"1":4,"0":5}'


def test_order_at_every_depth() -> None:
    text = '{"z":{"b":1,"a":2},"a":[{"y":0,"x":1}],"m":null,"10":{"9":[],"1":{}}}'
    assert write_json(json(text)) == text


def test_proto_and_constructor_are_ordinary_members() -> None:
    v = json('{"__proto__":{"x":1},"constructor":2}')
    assert isinstance(v, dict)
    assert list(v) == ["__proto__", "constructor"]


def test_parsed_objects_are_plain_dicts_and_lists() -> None:
    v = json('{"a":[{"b":1}]}')
    assert type(v) is dict
    assert type(v["a"]) is list
    assert type(v["a"][0]) is dict


def test_to_json_checks_and_converts_plain_python_values() -> None:
    assert to_json({"b": 1, "a": (True, None, {"c": "x"}), "f": 1.5}) == {
        "b": 1,
        "a": [True, None, {"c": "x"}],
        "f": 1.5,
    }
    for bad in [{1: 2}, float("nan"), float("inf"), {"a": object()}, b"x"]:
        with pytest.raises(TypeError):
            to_json(bad)


# --- differential tests against the standard library's json.loads ---

PIECES = [
    '"', "\\", "\\u", "d8", "dc", "00", "{", "}", "[", "]", ",", ":", " ", "1", "0", "-", ".", "e", "+", "E",
    "true", "null", "a", "é", "\ud83d", "\ude00", "\u0001", "\t", "\n", "/", "NaN", "9" * 320,
]  # fmt: skip


def random_value(r: random.Random, depth: int) -> object:
    k = r.randrange(4 if depth > 3 else 7)
    if k == 0:
        return None
    if k == 1:
        return r.random() < 0.5
    if k == 2:
        forms: list[object] = [0, -0.0, 1, -1, 0.5, 1e21, 1e-7, 123456789.125, -2.5e-300, 9007199254740993]
        forms.append(r.randrange(1000000))
        return r.choice(forms)
    if k == 3:
        n = r.randrange(150 if r.random() < 0.1 else 8)
        return "".join(r.choice(["a", "é", "😀", "\n", '"', "\\", "/", "\u0000", "\u2028", "~", "z"]) for _ in range(n))
    if k in (4, 5):
        return [random_value(r, depth + 1) for _ in range(r.randrange(4))]
    return {f"k{r.randrange(100)}": random_value(r, depth + 1) for _ in range(r.randrange(4))}


def as_doubles(v: Json) -> Json:
    """``v`` with every integer rounded to the nearest double, as JavaScript reads it."""
    if isinstance(v, bool) or not isinstance(v, (int, list, dict)):
        return v
    if isinstance(v, int):
        return int(float(v))
    if isinstance(v, list):
        return [as_doubles(x) for x in v]
    return {k: as_doubles(x) for k, x in v.items()}


def has_lone_surrogate(v: object) -> bool:
    if isinstance(v, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in v)
    if isinstance(v, list):
        return any(has_lone_surrogate(x) for x in v)
    if isinstance(v, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(x) for k, x in v.items())
    return False


def has_non_finite(v: object) -> bool:
    """NaN, an infinity, or an integer that would be one as a double."""
    if isinstance(v, float):
        return not math.isfinite(v)
    if isinstance(v, int):
        return abs(v) >= 2**1024 - 2**970
    if isinstance(v, list):
        return any(has_non_finite(x) for x in v)
    if isinstance(v, dict):
        return any(has_non_finite(x) for x in v.values())
    return False


def has_repeat(text: str) -> bool:
    found = False

    def pairs(p: list[tuple[str, object]]) -> dict[str, object]:
        nonlocal found
        if len({k for k, _ in p}) != len(p):
            found = True
        return dict(p)

    stdjson.loads(text, object_pairs_hook=pairs)
    return found


def test_agrees_with_json_loads_on_3000_random_documents() -> None:
    r = random.Random(1)
    for i in range(3000):
        doc = random_value(r, 0)
        text = stdjson.dumps(doc, ensure_ascii=i % 2 == 0, indent=1 if i % 3 == 0 else None)
        mine = parse_json(text)
        assert mine == stdjson.loads(text), text
        # The canonical text parses back to the same value (as doubles), and is a fixpoint.
        canonical = write_json(mine)
        assert parse_json(canonical) == as_doubles(mine)
        assert write_json(parse_json(canonical)) == canonical


def test_agrees_with_json_loads_on_20000_mutated_documents() -> None:
    """Rejected exactly when json.loads rejects, or for a lone surrogate, a raw
    surrogate, NaN/Infinity, overflow or a repeated name."""
    r = random.Random(2)
    seen = {"invalid": 0, "repeated": 0, "valid": 0, "reference_accepts": 0}
    for _ in range(20000):
        text = stdjson.dumps(random_value(r, 0), ensure_ascii=False)
        for _ in range(1 + r.randrange(3)):
            at = r.randrange(len(text) + 1)
            what = r.random()
            if what < 0.4:
                text = text[:at] + text[at + 1 :]
            else:
                text = text[:at] + r.choice(PIECES) + text[at + (1 if what < 0.7 else 0) :]
        reference: object = None
        reference_ok = True
        try:
            reference = stdjson.loads(text)
        except (ValueError, RecursionError):
            reference_ok = False
        mine = json_error(text)
        raw_surrogate = any(0xD800 <= ord(c) <= 0xDFFF for c in text)
        if not reference_ok or raw_surrogate or has_lone_surrogate(reference) or has_non_finite(reference):
            assert mine == ("invalid_json", ""), text
            seen["invalid"] += 1
            if reference_ok:
                seen["reference_accepts"] += 1
        elif mine is not None:
            assert mine[0] == "duplicate_key", text
            assert has_repeat(text), text
            seen["repeated"] += 1
        else:
            assert not has_repeat(text), text
            assert parse_json(text) == reference, text
            seen["valid"] += 1
    assert seen["invalid"] > 5000, seen
    assert seen["valid"] > 2000, seen
    assert seen["repeated"] > 0, seen
    assert seen["reference_accepts"] > 50, seen
