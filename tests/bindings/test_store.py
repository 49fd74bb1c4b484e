"""The store's guarantees (docs/CLIENTS.md, "The store's guarantees"): ingest and linking grow
linearly (the work for 8n against n, counted, never timed), memory stays close to the
bytes retained, limits hold, and the transcript is built only when asked for."""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import acp_terminal.store as store_module
from acp_terminal import ByteLog, Limits, Parsed, ParseError, Problem, TerminalState, TerminalStore, Transcript, v2
from acp_terminal.transcript import MAX_LINE_LENGTH, MAX_TEXT_LENGTH
from acp_terminal.v2 import parse_session_update, parse_update_session_notification

UNLIMITED = Limits(max_terminals=1 << 62, max_retained_bytes=1 << 62, max_total_bytes=1 << 62, max_warnings=1 << 62)


def assert_linear(what: str, n: int, f: Callable[[int], int]) -> None:
    """``f(n)`` returns the work a run costs: the text it decoded plus the store's work
    counter (and what it read). Linear work gives 8 for 8n against n (a little more where a
    buffer threshold is crossed a whole number of times); quadratic work 64. Counted, never
    timed (``cargo xtask bench`` times the store), so the bound is tight and a loaded machine
    cannot fail it."""
    small, large = f(n), f(8 * n)
    ratio = large / small
    assert 7 <= ratio <= 10, f"{what}: 8n took {ratio:.2f}x the work of n ({small} then {large}; linear is 8x)"


def apply_all(store: TerminalStore, texts: list[str]) -> int:
    """Applies every text to ``store``; returns the text decoded plus the store's work."""
    decoded = 0
    for t in texts:
        decoded += len(t)
        store.apply_text(t)
    return decoded + store.work


def chunk(terminal_id: str, data: bytes) -> str:
    b64 = base64.b64encode(data).decode()
    return f'{{"sessionUpdate":"terminal_output_chunk","terminalId":"{terminal_id}","data":"{b64}"}}'


def link_chunk(call: str, terminal_id: str) -> str:
    return (
        f'{{"sessionUpdate":"tool_call_content_chunk","toolCallId":"{call}",'
        f'"content":{{"type":"terminal","terminalId":"{terminal_id}"}}}}'
    )


def test_one_byte_chunks_to_n_terminals_is_linear() -> None:
    def run(n: int) -> int:
        texts = [chunk(f"t{i}", b"x") for i in range(n)]
        store = TerminalStore(UNLIMITED)
        work = apply_all(store, texts)
        assert sum(1 for _ in store.terminals()) == n
        return work

    assert_linear("one-byte chunks to n terminals", 500, run)


def test_n_chunks_to_one_terminal_is_linear() -> None:
    def run(n: int) -> int:
        store = TerminalStore(UNLIMITED)
        work = apply_all(store, [chunk("t", b"line of output\r\n")] * n)
        t = store.terminal("t")
        assert t is not None and len(t.output) == 16 * n
        return work

    assert_linear("n chunks to one terminal", 1000, run)


def test_content_chunks_linking_one_tool_call_are_linear() -> None:
    def run(n: int) -> int:
        texts = [link_chunk("call", f"t{i}") for i in range(n)]
        store = TerminalStore(UNLIMITED)
        work = apply_all(store, texts)
        assert all(len(s.tool_calls) == 1 for _, s in store.terminals())
        return work

    assert_linear("n content chunks to one tool call", 500, run)


def test_one_tool_call_update_with_many_references_is_linear() -> None:
    def run(n: int) -> int:
        items = ",".join(f'{{"type":"terminal","terminalId":"t{i % n}"}}' for i in range(2 * n))
        text = f'{{"sessionUpdate":"tool_call_update","toolCallId":"call","content":[{items}]}}'
        store = TerminalStore(UNLIMITED)
        work = apply_all(store, [text, text])  # the second relinks: unlinks n, links n
        assert sum(1 for _ in store.terminals()) == n
        return work

    assert_linear("one tool_call_update with n references", 500, run)


def test_tiny_chunks_cost_little_more_than_their_bytes() -> None:
    log = ByteLog()
    for i in range(200_000):
        log.append(bytes((i % 251,)))
    assert len(log) == 200_000
    assert log.capacity <= 1.05 * len(log), log.capacity
    store = TerminalStore()
    for i in range(1000):
        store.apply_text(chunk(f"t{i}", b"x"))
    held = sum(t.output.capacity for _, t in store.terminals())
    assert held <= 1000 * 64, f"1000 one-byte terminals hold {held} bytes of blocks"


def test_the_byte_limit_keeps_the_tail_and_bounded_memory() -> None:
    store = TerminalStore(Limits(max_retained_bytes=10_000))
    everything = bytearray()
    for i in range(2000):
        data = bytes(97 + (i + j) % 26 for j in range(i % 97 + 1))
        everything += data
        store.apply_text(chunk("t", data))
        t = store.terminal("t")
        assert t is not None and len(t.output) <= 10_000
        assert t.output.capacity <= 10_000 + 2 * 4096 + 1024, t.output.capacity
    t = store.terminal("t")
    assert t is not None
    assert t.output.to_bytes() == bytes(everything[-10_000:])
    assert t.dropped_bytes == len(everything) - 10_000
    # The transcript covers every byte, not only the retained tail (lines wrap at the
    # transcript's line length limit).
    whole = Transcript()
    whole.push(bytes(everything))
    assert t.transcript == whole.text
    store.apply_text(chunk("t", b"z" * (1 << 20)))
    assert len(t.output) == 10_000
    assert t.output.capacity <= 10_000 + 2 * 4096 + 1024, t.output.capacity


def test_the_transcript_read_between_chunks_equals_one_rendering() -> None:
    store = TerminalStore()
    eager = Transcript()
    pieces = [b"a\x1b[3", b"1mred\x1b[0m\r\n", b"\xe4\xb8", b"\xad\rX", b"\x1b]0;t\x1b\\done\n"]
    for i in range(200):
        p = pieces[i % len(pieces)]
        store.apply_text(chunk("t", p))
        eager.push(p)
        if i % 7 == 0:
            t = store.terminal("t")
            assert t is not None and t.transcript == eager.text
    t = store.terminal("t")
    assert t is not None and t.transcript == eager.text


def test_sessions_bind_on_the_first_applied_notification() -> None:
    def note(session: str, data: str) -> str:
        update = f'{{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"{data}"}}'
        return f'{{"sessionId":"{session}","update":{update}}}'

    store = TerminalStore()
    with pytest.raises(ParseError):
        store.apply_notification_text(note("s1", "!"))
    assert store.session_id is None
    store.apply_notification_text(note("s2", "YQ=="))
    assert store.session_id == "s2"
    with pytest.raises(ParseError) as e:
        store.apply_notification_text(note("s1", "YQ=="))
    assert (e.value.kind, e.value.path) == ("session_mismatch", "/sessionId")
    assert "one store per session" in str(e.value)
    t = store.terminal("t")
    assert t is not None and t.output.to_bytes() == b"a"


def test_many_invalid_lenient_items_are_counted_not_all_kept() -> None:
    items = ",".join(["5"] * 100_000)
    store = TerminalStore()
    kept = store.apply_text(f'{{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[{items}]}}')
    assert len(kept) == Limits().max_warnings
    assert store.counters.warnings_dropped == 100_000 - Limits().max_warnings


def test_meta_is_patched_by_key_and_the_other_members_replaced() -> None:
    store = TerminalStore()
    store.apply_text(
        '{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"a":1,"b":2},"size":{"cols":80,"rows":24},"cwd":"/a"}'
    )
    store.apply_text('{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"b":null,"c":3},"cwd":null}')
    t = store.terminal("t")
    # The session state's rule (upstream's meta-patch rule, docs/WIRE.md): by key, null removes.
    assert t is not None and t.meta == {"a": 1, "c": 3}
    assert t.size is not None and (t.size.cols, t.size.rows) == (80, 24), "omitted: unchanged"
    assert t.cwd is None, "null: cleared"
    store.apply_text('{"sessionUpdate":"terminal_update","terminalId":"t","_meta":null}')
    assert t.meta is None, "null clears the whole _meta"


def test_meta_read_is_a_copy_that_later_updates_and_edits_leave_alone() -> None:
    store = TerminalStore()
    store.apply_text('{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"a":{"x":1}}}')
    t = store.terminal("t")
    assert t is not None
    held = t.meta
    assert held == {"a": {"x": 1}}
    store.apply_text('{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"b":2}}')
    assert held == {"a": {"x": 1}}, "a read is not changed by a later patch"
    inner = held["a"]
    assert isinstance(inner, dict)
    inner["x"] = 9
    held["c"] = 3
    assert t.meta == {"a": {"x": 1}, "b": 2}, "an edit of a read does not change the store"


def test_meta_keys_past_max_members_are_counted_not_kept() -> None:
    store = TerminalStore(Limits(max_members=3))
    for i in range(10):
        store.apply_text(f'{{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{{"k{i}":{i}}}}}')
    t = store.terminal("t")
    assert t is not None and t.meta == {"k0": 0, "k1": 1, "k2": 2}
    assert store.counters.members_dropped == 7


# --- the fast path of a plain terminal_output_chunk -----------------------------------
#
# `apply_notification_text` and `apply_text` read a `terminal_output_chunk` written as
# senders write it without the generic decoder. Every outcome must be the generic path's:
# the reference below parses with the generated parsers, applies with `apply` and checks
# the session itself, never touching the fast path.


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


Outcome = tuple[object, ...]


def _outcome(f: Callable[[str], tuple[Problem, ...]], text: str) -> Outcome:
    try:
        return ("ok", f(text))
    except ParseError as e:
        return ("error", e.kind, e.path, e.message)


def _keep(store: TerminalStore, parsed: Parsed[Any]) -> tuple[Problem, ...]:
    store.counters.warnings_dropped += parsed.warnings_dropped
    return parsed.warnings


class _Reference:
    """The generic route: generated parser, ``apply``, the session check done here."""

    def __init__(self, limits: Limits) -> None:
        self.store = TerminalStore(limits)
        self.session: str | None = None

    def notification(self, text: str) -> tuple[Problem, ...]:
        parsed = parse_update_session_notification(text, max_warnings=self.store.limits.max_warnings)
        session = parsed.value.session_id
        if self.session is not None and self.session != session:
            message = (
                f"this store holds session {_quote(self.session)}, not {_quote(session)}; use one store per session"
            )
            raise ParseError(Problem("session_mismatch", "/sessionId", message))
        self.session = session
        self.store.apply(parsed.value.update)
        return _keep(self.store, parsed)

    def update(self, text: str) -> tuple[Problem, ...]:
        parsed = parse_session_update(text, max_warnings=self.store.limits.max_warnings)
        self.store.apply(parsed.value)
        return _keep(self.store, parsed)


def _state(store: TerminalStore) -> object:
    return (
        store.counters,
        [
            (
                tid,
                t.output.to_bytes(),
                t.dropped_bytes,
                t.command,
                t.cwd,
                t.exit_status,
                t.size,
                t.meta,
                t.sorted_tool_calls(),
            )
            for tid, t in store.terminals()
        ],
    )


# Terminal and session ids as JSON text: plain ones (the fast path's), escaped ones (the
# same strings written another way, or strings the fast path cannot slice), non-BMP and
# other non-ASCII characters, invalid JSON (a raw control character, a lone surrogate),
# and values of the wrong type.
_IDS = [
    '"term_0"', '"term_0"', '"term_1"', '"t2"', '""', '"é"', '"中文"', '"😀"', '"a b"', '"x/y"', '"\x7f"',
    '"term_\\u0030"', '"t\\"q"', '"back\\\\slash"', '"\\n"', '"\\ud83d\\ude00"', '"\\ud800"',
    '"t\x01"', '"\ud800"', "5", "null", "{}", '"t2"',
]  # fmt: skip
_SESSIONS = ['"sess_1"'] * 6 + ['"sess_2"', '"sess_\\u0031"', '"s\\"1"', '"é"', "7"]
_BAD_DATA = [
    '"!"', '"YQ"', '"YR=="', '"YQ="', '"Y==="', '"YWJj===="', '"YW Jj"', '"YW-_"', '"YWJj\\n"',
    '"\\u0059Q=="', '"YQ\\u003d\\u003d"', '"\\/w=="', '"YQ==\\"}}"', '"é"', '"YQ==YQ=="', "5", "null", "[]",
]  # fmt: skip


def _data(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.15:
        return rng.choice(_BAD_DATA)
    if r < 0.2:
        # Long data the slice would take whole: another member after it, escapes in it.
        a, b = (base64.b64encode(rng.randbytes(300)).decode() for _ in range(2))
        return rng.choice([f'"{a}","x":"{b}A"', f'"{a}\\"{b}"', f'"{a}\\u0041AAA{b}"', f'"{a}\\/{b}"'])
    n = rng.choice([0, 1, 2, 3, 5, 16, 100, 700, 5000])
    return '"' + base64.b64encode(rng.randbytes(n)).decode() + '"'


def _update(rng: random.Random) -> str:
    """One update's JSON text: mostly plain chunks, then every way to differ from one."""
    t, d = rng.choice(_IDS), _data(rng)
    plain = f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t},"data":{d}}}'
    r = rng.random()
    if r < 0.55:
        return plain
    return rng.choice(
        [
            f'{{"sessionUpdate": "terminal_output_chunk", "terminalId": {t}, "data": {d}}}',
            f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t},"data":{d} }}',
            f'{{"terminalId":{t},"sessionUpdate":"terminal_output_chunk","data":{d}}}',
            f'{{"sessionUpdate":"terminal_output_chunk","data":{d},"terminalId":{t}}}',
            f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t},"data":{d},"extra":1}}',
            f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t},"data":{d},"_meta":{{"a":1}}}}',
            f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t},"data":{d},"_meta":5}}',
            f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t},"data":{d},"data":{d}}}',
            f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t},"terminalId":{t},"data":{d}}}',
            f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t}}}',
            f'{{"sessionUpdate":"terminal_output_chunk","data":{d}}}',
            f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t},"data":"}}',
            f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t},"data":{d}',
            f'{{"sessionUpdate":"terminal_output_chunk","terminalId":{t},"data":{d}}}}}',
            f'{{"sessionUpdate":"Terminal_output_chunk","terminalId":{t},"data":{d}}}',
            f'{{"sessionUpdate":"terminal_update","terminalId":{t},"command":"make","output":{{"data":{d}}}}}',
            f'{{"sessionUpdate":"terminal_update","terminalId":{t},"output":null,"exitStatus":{{"exitCode":0}}}}',
            f'{{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c1","content":{{"type":"terminal","terminalId":{t}}}}}',
            '{"sessionUpdate":"tool_call_update","toolCallId":"c2","content":[5,5,5]}',
            '{"sessionUpdate":"tool_call_update","toolCallId":"c1","content":null}',
            '{"sessionUpdate":"something_new","terminalId":"term_0"}',
            plain + "\n",
            " " + plain,
            plain[:-1],
            "[]",
        ]
    )


def _notification(rng: random.Random) -> str:
    s, u = rng.choice(_SESSIONS), _update(rng)
    r = rng.random()
    if r < 0.75:
        return f'{{"sessionId":{s},"update":{u}}}'
    return rng.choice(
        [
            f'{{"update":{u},"sessionId":{s}}}',
            f'{{"sessionId": {s}, "update": {u}}}',
            f'{{"sessionId":{s},"update":{u},"_meta":{{"k":[1]}}}}',
            f'{{"sessionId":{s},"update":{u},"extra":true}}',
            f'{{"sessionId":{s},"sessionId":{s},"update":{u}}}',
            f'{{"sessionId":{s}}}',
            f'{{"sessionId":{s},"update":{u}}}\n',
            f'{{"sessionId":{s},"update":{u}}} x',
        ]
    )


_LIMITS = [
    Limits(),
    Limits(max_terminals=3, max_retained_bytes=64, max_warnings=1),
    Limits(max_terminals=0, max_retained_bytes=0, max_warnings=0),
    Limits(max_terminals=2, max_retained_bytes=1000, max_warnings=2),
]


@pytest.mark.parametrize("limits", _LIMITS, ids=lambda lim: f"{lim.max_terminals}-{lim.max_retained_bytes}")
def test_fast_path_matches_the_generic_path(limits: Limits) -> None:
    rng = random.Random(20240611 + limits.max_terminals)
    fast, reference = TerminalStore(limits), _Reference(limits)
    fast_updates, reference_updates = TerminalStore(limits), _Reference(limits)
    kinds: set[Outcome] = set()
    for step in range(2500):
        text = _notification(rng)
        got = _outcome(fast.apply_notification_text, text)
        want = _outcome(reference.notification, text)
        assert got == want, f"step {step}: {text[:200]!r}"
        assert fast.session_id == reference.session
        kinds.add(got[:2])
        text = _update(rng)
        got = _outcome(fast_updates.apply_text, text)
        want = _outcome(reference_updates.update, text)
        assert got == want, f"step {step}: {text[:200]!r}"
        kinds.add(got[:2])
        if step % 10 == 0:
            assert _state(fast) == _state(reference.store), f"step {step}"
            assert _state(fast_updates) == _state(reference_updates.store), f"step {step}"
    assert _state(fast) == _state(reference.store)
    assert _state(fast_updates) == _state(reference_updates.store)
    for a, b in ((fast, reference.store), (fast_updates, reference_updates.store)):
        assert [t.transcript for _, t in a.terminals()] == [t.transcript for _, t in b.terminals()]
    # The generator reached what it is for: successes, base64 errors, sessions, JSON errors.
    seen = {k[1] for k in kinds}
    assert {"invalid_base64", "session_mismatch", "invalid_json", "wrong_type", "duplicate_key"} <= seen, seen


def test_a_plain_chunk_skips_the_generic_decoder(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def spy(real: Callable[..., object]) -> Callable[..., object]:
        def f(text: str, **options: Any) -> object:
            calls.append(text)
            return real(text, **options)

        return f

    monkeypatch.setattr(store_module, "parse_update_session_notification", spy(parse_update_session_notification))
    monkeypatch.setattr(store_module, "parse_session_update", spy(parse_session_update))
    store = TerminalStore()
    line = '{"sessionId":"sess_1","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"term_0","data":"aGVsbG8="}}'
    assert store.apply_notification_text(line) == ()
    assert store.apply_text('{"sessionUpdate":"terminal_output_chunk","terminalId":"term_0","data":"IQ=="}') == ()
    assert calls == []
    t = store.terminal("term_0")
    assert t is not None and t.output.to_bytes() == b"hello!" and store.session_id == "sess_1"
    # The spies see what the fast path leaves to the generic one.
    store.apply_notification_text(line.replace(":", ": "))
    with pytest.raises(ParseError):
        store.apply_text('{"sessionUpdate":"terminal_output_chunk","terminalId":"term_0","data":"IR=="}')
    assert len(calls) == 2


class _Reader:
    """Reads what is new in a terminal (finished lines, then the current line), as a display
    does after every chunk."""

    def __init__(self) -> None:
        self.pos = 0
        self.shown: list[str] = []
        self.line = ""

    def read(self, t: TerminalState | None) -> None:
        assert t is not None
        r = t.read_transcript()
        self.shown.append(r.finished_since(self.pos))
        self.pos = r.finished_length
        self.line = r.current_line

    def text(self) -> str:
        return "".join(self.shown) + self.line


def test_reading_what_is_new_after_every_chunk_through_the_store_is_linear() -> None:
    def run(n: int) -> int:
        texts = [chunk("t", f"line {i}\r\nprogress {i}%\r".encode()) for i in range(n)]
        store = TerminalStore()
        reader = _Reader()
        read = 0
        for text in texts:
            store.apply_text(text)
            reader.read(store.terminal("t"))
            read += len(text) + len(reader.line)
        t = store.terminal("t")
        assert t is not None and reader.text() == t.transcript
        return read + len(reader.text()) + store.work + t.read_transcript().work

    assert_linear("reading what is new after every chunk", 1000, run)


def test_the_store_limits_set_every_transcript_limit_snapshots_included() -> None:
    assert (Limits().max_line_length, Limits().max_text_length) == (MAX_LINE_LENGTH, MAX_TEXT_LENGTH)
    store = TerminalStore(Limits(max_line_length=4, max_text_length=8))
    store.apply_text(chunk("t", b"abcdefghij\n"))
    t = store.terminal("t")
    assert t is not None
    # "abcd\n" and "efgh\n" wrapped, then "ij\n" pushed the text past 8 code points.
    assert t.transcript == "efgh\nij\n"
    r = t.read_transcript()
    assert (r.wrapped_lines, r.dropped_lines, r.dropped_chars) == (2, 1, 5)
    assert t.output.to_bytes() == b"abcdefghij\n", "the bytes are all retained"
    store.apply_text('{"sessionUpdate":"terminal_update","terminalId":"t","output":{"data":"MTIzNDU2"}}')
    t = store.terminal("t")
    assert t is not None and t.transcript == "1234\n56"
    assert t.read_transcript() is not r, "a snapshot starts a new transcript"
    assert (t.read_transcript().wrapped_lines, t.read_transcript().dropped_lines) == (1, 0)


def test_reading_what_is_new_rebuilds_the_text_when_old_lines_are_left_out() -> None:
    store = TerminalStore(Limits(max_text_length=100))
    reader = _Reader()
    pieces = [f"out {i}\n{'par' if i % 3 == 0 else ''}".encode() for i in range(200)]
    for p in pieces:
        store.apply_text(chunk("t", p))
        reader.read(store.terminal("t"))
    eager = Transcript()
    eager.push(b"".join(pieces))
    t = store.terminal("t")
    assert t is not None and t.read_transcript().dropped_lines > 100
    assert reader.text() == eager.text, "every line was shown once, in order, before it was left out"


def test_apply_notification_binds_and_checks_the_session_of_a_parsed_value() -> None:
    one = '{"sessionId":"s1","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"YQ=="}}'
    other = one.replace("s1", "s2")
    store = TerminalStore()
    store.apply_notification(v2.parse_update_session_notification(one).value)
    assert store.session_id == "s1"
    store.apply_notification(v2.parse_update_session_notification(json.loads(one)).value)
    with pytest.raises(ParseError) as by_value:
        store.apply_notification(v2.parse_update_session_notification(other).value)
    assert (by_value.value.kind, by_value.value.path) == ("session_mismatch", "/sessionId")
    # The value route and the text route give the same error, and neither applies it.
    with pytest.raises(ParseError) as by_text:
        store.apply_notification_text(other)
    assert str(by_text.value) == str(by_value.value)
    t = store.terminal("t")
    assert t is not None and t.output.to_bytes() == b"aa"


def test_a_memory_error_while_appending_leaves_the_terminal_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """No runtime error leaves the store half-updated: a failed append changes nothing,
    and the store goes on afterwards."""
    store = TerminalStore()
    line = '{"sessionId":"s","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"%s"}}'
    store.apply_notification_text(line % base64.b64encode(b"before\n").decode())

    def fail(self: ByteLog) -> None:
        raise MemoryError

    big = b"x" * 5000  # a block of its own: the tail is sealed first
    monkeypatch.setattr(ByteLog, "_seal", fail)
    with pytest.raises(MemoryError):
        store.apply_notification_text(line % base64.b64encode(big).decode())
    monkeypatch.undo()
    t = store.terminal("t")
    assert t is not None
    assert len(t.output) == 7 and t.output.to_bytes() == b"before\n"
    store.apply_notification_text(line % base64.b64encode(b"after").decode())
    assert t.output.to_bytes() == b"before\nafter"
    assert t.transcript == "before\nafter"
