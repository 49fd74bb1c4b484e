"""The session state's limits on what appends and new ids add (``StateLimits``), with a
table written here: upstream's schema has no text append, so the fixtures cannot pin
``max_text``; the same cases are in state.test.ts and in the Rust runtime's unit tests."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from runtime.errors import Parsed, ParseError
from runtime.state import SessionState, StateLimits, _same
from runtime.writer import write_json

# One keyed target `note` with a text member, an array member and a bytes member, each appended.
RULES = json.dumps(
    {
        "session": {
            "targets": [{"name": "note", "keyed": True}],
            "rules": [
                {
                    "message": "Text",
                    "action": "append",
                    "target": "note",
                    "id": ["id"],
                    "field": ["text"],
                    "value": ["text"],
                    "appends": "text",
                },
                {
                    "message": "Item",
                    "action": "append",
                    "target": "note",
                    "id": ["id"],
                    "field": ["items"],
                    "value": ["item"],
                    "appends": "item",
                },
                {
                    "message": "Bytes",
                    "action": "append",
                    "target": "note",
                    "id": ["id"],
                    "field": ["data"],
                    "value": ["data"],
                    "appends": "bytes",
                },
            ],
        }
    }
)


def identity(v: Any) -> Parsed[Any]:
    return Parsed(json.loads(v) if isinstance(v, str) else v)


CODECS = dict.fromkeys(("Text", "Item", "Bytes"), (identity, write_json))


def apply(state: SessionState, name: str, message: dict[str, Any]) -> None:
    state.apply(name, json.dumps(message))


def test_text_keeps_the_last_code_points() -> None:
    state = SessionState(RULES, CODECS, StateLimits(max_text=4))
    for part in ("ab", "cd\u00e9", "f\U0001f600g"):
        apply(state, "Text", {"id": "n1", "text": part})
    assert state.get("note", "n1") == {"id": "n1", "text": "\u00e9f\U0001f600g"}
    assert state.counters.to_json() == {
        "targetsDropped": 0,
        "itemsDropped": 0,
        "bytesDropped": 0,
        "textDropped": 4,
        "membersDropped": 0,
    }


def test_items_bytes_and_targets_keep_the_last() -> None:
    state = SessionState(RULES, CODECS, StateLimits(max_targets=2, max_items=2, max_bytes=3))
    for i in range(3):
        apply(state, "Item", {"id": "n1", "item": i})
    apply(state, "Bytes", {"id": "n1", "data": "AQIDBA=="})  # 01 02 03 04
    assert state.get("note", "n1") == {"id": "n1", "items": [1, 2], "data": "AgME"}
    for n in ("n2", "n3"):
        apply(state, "Item", {"id": n, "item": n})
    assert state.snapshot() == {
        "session": {"note": {"n2": {"id": "n2", "items": ["n2"]}, "n3": {"id": "n3", "items": ["n3"]}}}
    }
    assert state.counters.to_json() == {
        "targetsDropped": 1,
        "itemsDropped": 1,
        "bytesDropped": 1,
        "textDropped": 0,
        "membersDropped": 0,
    }


def test_bytes_dropped_across_many_chunks_keep_the_last_ones() -> None:
    state = SessionState(RULES, CODECS, StateLimits(max_bytes=5))
    for data in ("AQ==", "AgM=", "BAUG", "Bw=="):  # 01 | 02 03 | 04 05 06 | 07
        apply(state, "Bytes", {"id": "n1", "data": data})
    assert state.get("note", "n1") == {"id": "n1", "data": "AwQFBgc="}  # 03 04 05 06 07
    assert state.counters.bytes_dropped == 2


def test_many_appends_at_the_bytes_limit_keep_the_last_bytes() -> None:
    # 20,000 appends of 3 bytes past a limit of 4,096. The work counts each chunk once: a
    # bytearray deleted from the front moves only its start (the Rust and TypeScript tests
    # check the same bound, where the runtimes do it by hand).
    state = SessionState(RULES, CODECS, StateLimits(max_bytes=4096))
    everything = bytearray()
    for i in range(20_000):
        chunk = bytes((i % 251, i % 241, i % 239))
        everything += chunk
        apply(state, "Bytes", {"id": "n1", "data": base64.b64encode(chunk).decode()})
    assert state.work <= 4 * len(everything)
    assert state.get("note", "n1") == {"id": "n1", "data": base64.b64encode(everything[-4096:]).decode()}
    assert state.counters.bytes_dropped == len(everything) - 4096


def test_an_append_at_the_text_limit_costs_its_chunk_not_the_limit() -> None:
    # 20,000 appends of 2 or 3 code points past a limit of 4,096: keeping the text as one string
    # copied all of it on every append (about 82 million code points here).
    state = SessionState(RULES, CODECS, StateLimits(max_text=4096))
    everything = []
    for i in range(20_000):
        part = "ab" if i % 7 else "é\U0001f600c"
        everything.append(part)
        apply(state, "Text", {"id": "n1", "text": part})
    text = "".join(everything)
    assert state.work <= 32 * len(text), f"work {state.work} for {len(text)} code points appended"
    assert state.get("note", "n1") == {"id": "n1", "text": text[-4096:]}
    assert state.counters.text_dropped == len(text) - 4096
    # An upsert-free restore of what it shows, then more text: the same as never restored.
    again = SessionState(RULES, CODECS, StateLimits(max_text=4096))
    again.restore(state.snapshot())
    apply(again, "Text", {"id": "n1", "text": "xyz"})
    apply(state, "Text", {"id": "n1", "text": "xyz"})
    assert again.get("note", "n1") == state.get("note", "n1")


def test_many_item_appends_at_the_limit_keep_the_last_items() -> None:
    state = SessionState(RULES, CODECS, StateLimits(max_items=64))
    for i in range(20_000):
        apply(state, "Item", {"id": "n1", "item": i})
    assert state.get("note", "n1") == {"id": "n1", "items": list(range(20_000 - 64, 20_000))}
    assert state.counters.items_dropped == 20_000 - 64
    got = state.get("note", "n1")
    assert isinstance(got, dict) and isinstance(got["items"], list)
    got["items"].clear()  # a copy: the state keeps its items
    again = SessionState(RULES, CODECS, StateLimits(max_items=64))
    again.restore(state.snapshot())
    for s in (state, again):
        apply(s, "Item", {"id": "n1", "item": "last"})
    assert again.get("note", "n1") == state.get("note", "n1")


def test_a_chunk_longer_than_the_bytes_limit_keeps_its_last_bytes() -> None:
    state = SessionState(RULES, CODECS, StateLimits(max_bytes=2))
    apply(state, "Bytes", {"id": "n1", "data": "AQ=="})  # 01
    apply(state, "Bytes", {"id": "n1", "data": "AgMEBQ=="})  # 02 03 04 05
    assert state.get("note", "n1") == {"id": "n1", "data": "BAU="}  # 04 05
    assert state.counters.bytes_dropped == 3
    apply(state, "Bytes", {"id": "n1", "data": "Bg=="})  # 06
    assert state.get("note", "n1") == {"id": "n1", "data": "BQY="}  # 05 06


def test_a_limit_of_zero_keeps_nothing() -> None:
    state = SessionState(RULES, CODECS, StateLimits(max_targets=0))
    apply(state, "Text", {"id": "n1", "text": "a"})
    assert state.snapshot() == {"session": {"note": {}}}
    assert state.counters.targets_dropped == 1


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_a_limit_that_is_not_a_whole_number_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="max_items must be a whole number"):
        StateLimits(max_items=bad)  # type: ignore[arg-type]


def test_the_invariant_check_tells_true_from_one() -> None:
    # `check_invariants` compares what a target writes back with what is kept: as JSON,
    # where `true` is not `1`, although Python's `==` says they are equal.
    assert not _same(True, 1) and not _same({"a": [False]}, {"a": [0]})
    assert _same(1, 1.0) and _same({"a": 1, "b": [True]}, {"b": [True], "a": 1})


def test_limits_from_json_take_the_defaults_and_name_what_is_wrong() -> None:
    assert StateLimits.from_json({"maxBytes": 0, "maxItems": 7}) == StateLimits(max_bytes=0, max_items=7)
    assert StateLimits.from_json({"maxMembers": 2**53 - 1}).max_members == 2**53 - 1
    cases: list[tuple[Any, str, str]] = [
        ([], "wrong_type", ""),
        ({"maxBites": 1}, "forbidden_member", "/maxBites"),
        ({"maxText": 1.5}, "wrong_type", "/maxText"),
        ({"maxTargets": -1}, "out_of_range", "/maxTargets"),
        ({"maxText": True}, "wrong_type", "/maxText"),
        # Past 2^53 - 1 in all three languages, where TypeScript's numbers stop being exact.
        ({"maxMembers": 2**53}, "out_of_range", "/maxMembers"),
        ({"maxMembers": 1e20}, "out_of_range", "/maxMembers"),
    ]
    for given, kind, path in cases:
        with pytest.raises(ParseError) as e:
            StateLimits.from_json(given)
        assert (e.value.kind, e.value.path) == (kind, path), given
