"""The conformance vectors at the JSON level: text-level errors (invalid_json, duplicate_key), canonical output."""

from __future__ import annotations

import json as stdjson
from pathlib import Path
from typing import Any

import pytest

from runtime.errors import DecodeError
from runtime.json import parse_json
from runtime.writer import write_json
from runtime_support import json_error

VECTORS = Path(__file__).resolve().parents[1] / "vectors"


def decode_cases() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(VECTORS.rglob("*.json")):
        doc = stdjson.loads(path.read_text(encoding="utf-8"))
        name = str(path.relative_to(VECTORS))
        out.extend((f"{name}: {case['name']}", case) for case in doc.get("cases", []) if case.get("kind") == "decode")
    return out


CASES = decode_cases()
TEXT_CASES = [(name, case) for name, case in CASES if "inputText" in case]
JSON_LEVEL = ("invalid_json", "duplicate_key")


def test_there_are_vectors() -> None:
    assert len(TEXT_CASES) > 50
    assert len(CASES) > 500


@pytest.mark.parametrize(("name", "case"), TEXT_CASES, ids=[n for n, _ in TEXT_CASES])
def test_text_level_outcomes_match_the_vectors(name: str, case: dict[str, Any]) -> None:
    """A case expecting invalid_json or duplicate_key gets exactly that from the parser;
    any other case's text parses (its problems, if any, are the type's)."""
    error = case["expect"].get("error")
    got = json_error(case["inputText"])
    if error is not None and error["kind"] in JSON_LEVEL:
        assert got == (error["kind"], error["path"])
    else:
        assert got is None


@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_inputs_parse_and_outputs_are_canonical_fixpoints(name: str, case: dict[str, Any]) -> None:
    if "input" in case:
        assert parse_json(stdjson.dumps(case["input"], ensure_ascii=False)) == case["input"]
    output = case["expect"].get("output", case.get("input"))
    if output is None or "error" in case["expect"]:
        return
    text = write_json(output)
    again = parse_json(text)
    assert write_json(again) == text
    # Compact: the standard library writes the same when no number needs ECMAScript's form.
    if "." not in text and "e" not in stdjson.dumps(output):
        assert text == stdjson.dumps(output, ensure_ascii=False, separators=(",", ":"))


def test_the_duplicate_key_message_names_the_member() -> None:
    for _, case in TEXT_CASES:
        error = case["expect"].get("error")
        if error is not None and error["kind"] == "duplicate_key":
            with pytest.raises(DecodeError) as e:
                parse_json(case["inputText"])
            assert "appears twice in one object" in e.value.problem.message
