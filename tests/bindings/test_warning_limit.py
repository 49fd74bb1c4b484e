"""Warnings cost nothing past the limit (issue 22): a parse keeps at most ``max_warnings``
warnings (64 by default, the store's), only counts the others in ``warnings_dropped``, and
builds no pointer, message or exception for them. Checked by counting the problems the
decoder built, not by a clock."""

from __future__ import annotations

import json

import pytest

from acp_terminal import Limits, ParseError, TerminalStore
from acp_terminal._runtime.decode import DEFAULT_MAX_WARNINGS, Cx, decode_text
from acp_terminal._runtime.json import parse_json
from acp_terminal.v2 import (
    decode_SessionUpdate,
    parse_session_update,
    parse_update_session_notification,
    serialize_session_update,
)


def update_with(item: str, n: int) -> str:
    return '{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[' + ",".join([item] * n) + "]}"


# Items each a lenient skip of another kind, and where its warning points inside the item.
BAD_ITEMS = [
    ("1", ""),
    ("{}", "/type"),
    ('{"type":"terminal"}', "/terminalId"),
    ('{"type":"content","content":{"type":"image","data":"!","mimeType":"image/png"}}', "/content/data"),
    ('{"terminalId":5,"type":"terminal"}', "/terminalId"),
]


@pytest.mark.parametrize(("item", "at"), BAD_ITEMS)
@pytest.mark.parametrize("n", [10, 64, 65, 1000, 8000])
def test_the_default_keeps_64_and_counts_the_rest_building_nothing_for_them(item: str, at: str, n: int) -> None:
    assert DEFAULT_MAX_WARNINGS == Limits().max_warnings == 64
    text = update_with(item, n)
    p = parse_session_update(text)
    kept = min(n, 64)
    assert (len(p.warnings), p.warnings_dropped) == (kept, n - kept)
    assert p.warnings[0].path == f"/content/0{at}"
    # Work: one problem built per kept warning, none for the dropped ones.
    cx = Cx(64)
    decode_SessionUpdate(parse_json(text), cx)
    assert (cx.problems_built, cx.warnings_dropped) == (kept, n - kept)


def test_the_limit_is_an_option_and_all_stays_possible() -> None:
    text = update_with("1", 500)
    everything = parse_session_update(text, max_warnings=None)
    assert (len(everything.warnings), everything.warnings_dropped, everything.warnings[499].path) == (500, 0, "/content/499")
    none = parse_session_update(text, max_warnings=0)
    assert (len(none.warnings), none.warnings_dropped) == (0, 500)
    three = parse_session_update(text, max_warnings=3)
    assert [w.path for w in three.warnings] == ["/content/0", "/content/1", "/content/2"]
    assert three.warnings_dropped == 497
    with pytest.raises(ValueError, match="max_warnings"):
        decode_text(text, decode_SessionUpdate, max_warnings=-1)
    value = parse_session_update(json.loads(text), max_warnings=5)
    assert (len(value.warnings), value.warnings_dropped) == (5, 495)


def test_valid_items_among_dropped_ones_are_kept_in_order() -> None:
    items = [f'{{"type":"terminal","terminalId":"t{i}"}}' if i % 3 == 0 else "1" for i in range(300)]
    text = '{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[' + ",".join(items) + "]}"
    p = parse_session_update(text)
    assert (len(p.warnings), p.warnings_dropped) == (64, 200 - 64)
    out = serialize_session_update(p.value)
    assert out.count("terminalId") == 100
    assert '"t0"' in out and '"t297"' in out


def test_an_error_past_the_limit_is_still_the_error_with_its_pointer() -> None:
    items = ",".join(["1"] * 200)
    for text in (
        '{"sessionUpdate":"tool_call_update","toolCallId":5,"content":[' + items + "]}",
        '{"sessionUpdate":"tool_call_update","content":[' + items + '],"toolCallId":5}',
    ):
        with pytest.raises(ParseError) as e:
            parse_session_update(text)
        assert (e.value.kind, e.value.path) == ("wrong_type", "/toolCallId")
        assert "expected a string" in e.value.message
    dup = update_with("1", 100).replace("]}", ',{"type":"terminal","terminalId":"a","terminalId":"b"}]}')
    with pytest.raises(ParseError) as e:
        parse_session_update(dup)
    assert (e.value.kind, e.value.path) == ("duplicate_key", "/content/100/terminalId")


def test_the_store_applies_its_limit_while_decoding() -> None:
    text = update_with("1", 100_000)
    store = TerminalStore()
    assert len(store.apply_text(text)) == 64
    assert store.counters.warnings_dropped == 100_000 - 64
    small = TerminalStore(Limits(max_warnings=2))
    assert len(small.apply_text(text)) == 2
    assert len(small.apply_notification_text('{"sessionId":"s","update":' + text + "}")) == 2
    assert small.counters.warnings_dropped == 2 * (100_000 - 2)
    parsed = parse_update_session_notification('{"sessionId":"s","update":' + text + "}", max_warnings=1)
    assert parsed.warnings_dropped == 100_000 - 1
