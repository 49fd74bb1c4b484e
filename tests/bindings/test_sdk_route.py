"""Using acp-terminal with the official ACP Python SDK (``agent-client-protocol``, v1 only).

The SDK's client router validates every ``session/update`` against its v1 schema, so it
rejects the v2 ``terminal_update`` and ``terminal_output_chunk`` updates before a handler
sees them. The route: keep the SDK connection for everything else and read
``session/update`` notifications below its router, from the raw JSON-RPC stream, with a
stream observer (``observers=[...]``, which sees every incoming message as a plain dict
before routing); hand their ``params`` to ``parse_update_session_notification`` or to a
``TerminalStore``. A bare ``acp.connection.Connection`` with a method handler works the
same way.

Here an Agent-side SDK connection sends the notifications over a real socket pair, in
NDJSON frames, as it would over stdio.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

from acp import connect_to_agent
from acp.connection import Connection, StreamDirection, StreamEvent

from acp_terminal import ParseError, TerminalStore, v2

SESSION = "sess_1"
UPDATES: list[dict[str, Any]] = [
    {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "Running the tests"}},
    {
        "sessionUpdate": "terminal_update",
        "terminalId": "term_001",
        "command": "cargo test",
        "cwd": "/work",
        "output": {"data": "cnVubmluZyAxMjMgdGVzdHMNCg=="},
    },
    {"sessionUpdate": "terminal_output_chunk", "terminalId": "term_001", "data": "b2s="},
    {"sessionUpdate": "terminal_update", "terminalId": "term_001", "exitStatus": {"exitCode": 0}},
]


class V1Client:
    """The SDK's v1 ``Client`` callbacks this example uses: ``session_update`` only."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.seen.append(str(getattr(update, "session_update", "?")))


class TerminalTap:
    """Reads v2 terminal updates from the raw stream, below the SDK's router."""

    def __init__(self) -> None:
        self.store = TerminalStore()
        self.problems: list[str] = []

    def __call__(self, event: StreamEvent) -> None:
        message = event.message
        if event.direction is not StreamDirection.INCOMING or message.get("method") != "session/update":
            return
        try:
            parsed = v2.parse_update_session_notification(message.get("params"))
        except ParseError as e:
            self.problems.append(str(e))
            return
        self.problems.extend(str(w) for w in parsed.warnings)
        self.store.apply(parsed.value.update)


async def noop(method: str, params: Any, is_notification: bool) -> None:
    return None


async def streams() -> tuple[
    tuple[asyncio.StreamReader, asyncio.StreamWriter], tuple[asyncio.StreamReader, asyncio.StreamWriter]
]:
    a, b = socket.socketpair()
    return await asyncio.open_connection(sock=a), await asyncio.open_connection(sock=b)


async def close(*writers: asyncio.StreamWriter) -> None:
    """Closes the sockets (the SDK's ``Connection.close`` leaves a stdio stream open)."""
    for w in writers:
        w.close()
    for w in writers:
        with contextlib.suppress(OSError):
            await w.wait_closed()


async def until(condition: Any) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out waiting for the notifications")


async def sdk_client_with_a_tap() -> tuple[V1Client, TerminalTap]:
    (client_reader, client_writer), (agent_reader, agent_writer) = await streams()
    client, tap = V1Client(), TerminalTap()
    conn = connect_to_agent(client, client_writer, client_reader, observers=[tap])  # type: ignore[arg-type]
    agent = Connection(noop, agent_writer, agent_reader)
    for update in UPDATES:
        await agent.send_notification("session/update", {"sessionId": SESSION, "update": update})
    await until(lambda: tap.store.terminal("term_001") is not None and len(tap.problems) == 0 and client.seen)
    await until(lambda: (t := tap.store.terminal("term_001")) is not None and t.exit_status is not None)
    await asyncio.sleep(0.05)  # let the router finish with every notification
    await agent.close()
    await conn.close()
    await close(client_writer, agent_writer)
    return client, tap


def test_the_sdk_client_keeps_its_v1_updates_and_the_tap_reads_the_v2_terminal_updates() -> None:
    client, tap = asyncio.run(sdk_client_with_a_tap())
    # The SDK's router passes the v1 update on and drops the v2 ones (the reason for the tap).
    assert client.seen == ["agent_message_chunk"]
    # The tap saw everything, below the router: the store holds the terminal.
    assert tap.problems == []
    term = tap.store.terminal("term_001")
    assert term is not None
    assert term.command == "cargo test"
    assert term.cwd == "/work"
    assert term.output.to_bytes() == b"running 123 tests\r\nok"
    assert term.exit_status is not None and term.exit_status.exit_code == 0


async def bare_connection() -> list[v2.UpdateSessionNotification]:
    (client_reader, client_writer), (agent_reader, agent_writer) = await streams()
    got: list[v2.UpdateSessionNotification] = []

    async def handler(method: str, params: Any, is_notification: bool) -> None:
        if method == "session/update":
            got.append(v2.parse_update_session_notification(params).value)

    conn = Connection(handler, client_writer, client_reader)
    agent = Connection(noop, agent_writer, agent_reader)
    for update in UPDATES:
        await agent.send_notification("session/update", {"sessionId": SESSION, "update": update})
    await until(lambda: len(got) == len(UPDATES))
    await agent.close()
    await conn.close()
    await close(client_writer, agent_writer)
    return got


def test_a_bare_sdk_connection_hands_raw_params_to_the_parser() -> None:
    got = asyncio.run(bare_connection())
    assert [n.session_id for n in got] == [SESSION] * len(UPDATES)
    chunk = got[2].update
    assert isinstance(chunk, v2.SessionUpdateTerminalOutputChunk) and chunk.data == b"ok"
    # What came over the SDK's transport writes back as the canonical bytes.
    assert (
        v2.serialize_session_update(chunk)
        == '{"sessionUpdate":"terminal_output_chunk","terminalId":"term_001","data":"b2s="}'
    )
