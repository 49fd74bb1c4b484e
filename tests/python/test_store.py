"""The store's guarantees (README, "The store's guarantees"): ingest and linking grow
linearly (the time for 8n against n, in one run, as a ratio), memory stays close to the
bytes retained, limits hold, and the transcript is built only when asked for."""

from __future__ import annotations

import base64
import time
from collections.abc import Callable

import pytest

from acp_terminal import ByteLog, Limits, ParseError, TerminalStore, Transcript

UNLIMITED = Limits(max_terminals=1 << 62, max_retained_bytes=1 << 62, max_warnings=1 << 62)


def _best(n: int, f: Callable[[int], None]) -> float:
    times = []
    for _ in range(3):
        t = time.perf_counter()
        f(n)
        times.append(time.perf_counter() - t)
    return min(times)


def assert_linear(what: str, n: int, f: Callable[[int], None]) -> None:
    """Linear work gives about 8; quadratic work gives about 64. The bound leaves room for
    a loaded machine, which can slow one measurement: quadratic work never gets under it."""
    f(n)  # warm up
    ratios = []
    for _ in range(3):
        ratio = _best(8 * n, f) / max(_best(n, f), 1e-9)
        if ratio < 24:
            return
        ratios.append(f"{ratio:.1f}")
    pytest.fail(f"{what}: 8n took {'x, '.join(ratios)}x the time of n (linear is about 8x)")


def chunk(terminal_id: str, data: bytes) -> str:
    b64 = base64.b64encode(data).decode()
    return f'{{"sessionUpdate":"terminal_output_chunk","terminalId":"{terminal_id}","data":"{b64}"}}'


def link_chunk(call: str, terminal_id: str) -> str:
    return (
        f'{{"sessionUpdate":"tool_call_content_chunk","toolCallId":"{call}",'
        f'"content":{{"type":"terminal","terminalId":"{terminal_id}"}}}}'
    )


def test_one_byte_chunks_to_n_terminals_is_linear() -> None:
    def run(n: int) -> None:
        texts = [chunk(f"t{i}", b"x") for i in range(n)]
        store = TerminalStore(UNLIMITED)
        for t in texts:
            store.apply_text(t)
        assert sum(1 for _ in store.terminals()) == n

    assert_linear("one-byte chunks to n terminals", 500, run)


def test_n_chunks_to_one_terminal_is_linear() -> None:
    def run(n: int) -> None:
        text = chunk("t", b"line of output\r\n")
        store = TerminalStore(UNLIMITED)
        for _ in range(n):
            store.apply_text(text)
        t = store.terminal("t")
        assert t is not None and len(t.output) == 16 * n

    assert_linear("n chunks to one terminal", 1000, run)


def test_content_chunks_linking_one_tool_call_are_linear() -> None:
    def run(n: int) -> None:
        texts = [link_chunk("call", f"t{i}") for i in range(n)]
        store = TerminalStore(UNLIMITED)
        for t in texts:
            store.apply_text(t)
        assert all(len(s.tool_calls) == 1 for _, s in store.terminals())

    assert_linear("n content chunks to one tool call", 500, run)


def test_one_tool_call_update_with_many_references_is_linear() -> None:
    def run(n: int) -> None:
        items = ",".join(f'{{"type":"terminal","terminalId":"t{i % n}"}}' for i in range(2 * n))
        text = f'{{"sessionUpdate":"tool_call_update","toolCallId":"call","content":[{items}]}}'
        store = TerminalStore(UNLIMITED)
        store.apply_text(text)
        store.apply_text(text)
        assert sum(1 for _ in store.terminals()) == n

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


def test_meta_is_replaced_whole_and_size_is_exposed() -> None:
    store = TerminalStore()
    store.apply_text(
        '{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"a":1,"b":2},"size":{"cols":80,"rows":24}}'
    )
    store.apply_text('{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"b":null,"c":3}}')
    t = store.terminal("t")
    assert t is not None and t.meta == {"b": None, "c": 3}
    assert t.size is not None and (t.size.cols, t.size.rows) == (80, 24)
