"""The official ACP Python SDK (``agent-client-protocol`` 0.12.1, v1) drives the example
Agent (the real binary, spawned by the SDK's ``spawn_agent_process``) at v1: its client
connection initializes with ``clientCapabilities._meta.terminal_output``, opens a
session and prompts; its ``session_update`` callback gets each update as the SDK's own
model, which goes (dumped by alias) to our ``ingest_v1`` and ``TerminalStore``.

    ACP_EXAMPLE_AGENT=target/agent/debug/acp-example-agent pytest tests/interop
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from acp import spawn_agent_process
from acp.schema import (
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    FileSystemCapabilities,
    Implementation,
    PermissionOption,
    RequestPermissionResponse,
    TextContentBlock,
    ToolCallUpdate,
)

from acp_terminal import Problem, TerminalStore, ingest_v1

AGENT = os.environ.get("ACP_EXAMPLE_AGENT", "")
HANG = 60.0  # a hang guard only: every answer comes in milliseconds


class Client:
    """The SDK's v1 ``Client`` callbacks: permission answers and session updates."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.store = TerminalStore()
        self.problems: list[Problem] = []
        self.texts: dict[str, str] = {}
        self.asked: ToolCallUpdate | None = None

    async def request_permission(
        self, options: list[PermissionOption], session_id: str, tool_call: ToolCallUpdate, **kwargs: Any
    ) -> RequestPermissionResponse:
        self.asked = tool_call
        kind = "allow_once" if self.answer == "allow" else "reject_once"
        chosen = [o.option_id for o in options if o.kind == kind]
        if self.answer == "cancelled" or not chosen:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=chosen[0]))

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        # The SDK validated the update as its v1 model; ours reads the same JSON.
        text = update.model_dump_json(by_alias=True, exclude_none=True)
        self.problems.extend(ingest_v1(self.store, text))
        content = getattr(update, "content", None)
        if isinstance(content, list):
            inner = [getattr(getattr(c, "content", None), "text", None) for c in content]
            self.texts[str(update.tool_call_id)] = "".join(t for t in inner if isinstance(t, str))


async def until(condition: Callable[[], bool]) -> None:
    """The SDK may hand a notification to the callback after the prompt's response."""
    loop = asyncio.get_running_loop()
    end = loop.time() + HANG
    while not condition():
        if loop.time() > end:
            raise AssertionError("the expected updates never arrived")
        await asyncio.sleep(0.01)


async def session(prompt: str, answer: str, cwd: str) -> tuple[Client, str]:
    client = Client(answer)
    # The SDK's Client protocol lists every Client method; this one offers only what it
    # advertises (no fs, no terminals), and the SDK answers the rest "method not found".
    async with spawn_agent_process(client, AGENT) as (conn, process):  # type: ignore[arg-type]
        init = await conn.initialize(
            protocol_version=1,
            client_capabilities=ClientCapabilities(
                fs=FileSystemCapabilities(read_text_file=False, write_text_file=False),
                terminal=False,
                field_meta={"terminal_output": True},
            ),
            client_info=Implementation(name="acp-terminal-interop-python-sdk", version="0.0.0"),
        )
        assert init.protocol_version == 1
        new = await conn.new_session(cwd=cwd, mcp_servers=[])
        response = await conn.prompt(session_id=new.session_id, prompt=[TextContentBlock(type="text", text=prompt)])
        await until(
            lambda: (
                any(t.exit_status is not None for _, t in client.store.terminals())
                or any("Permission refused" in t for t in client.texts.values())
            )
        )
    assert process.returncode == 0, "the Agent exits cleanly when the Client closes its input"
    return client, str(response.stop_reason)


@pytest.fixture
def cwd() -> Any:
    if not AGENT or not Path(AGENT).is_file():
        pytest.fail(f"ACP_EXAMPLE_AGENT must name the built example Agent (got {AGENT!r})")
    with tempfile.TemporaryDirectory(prefix="acp-interop-python-sdk-") as d:
        yield str(Path(d).resolve())


def test_the_python_sdk_client_reads_the_terminal_through_the_meta_convention(cwd: str) -> None:
    command = "printf 'hello \\033[1mpython\\033[0m sdk\\n'; printf 'x\\377y\\n'; exit 7"
    client, stop = asyncio.run(session(command, "allow", cwd))
    assert stop == "end_turn"
    assert client.problems == []
    terminals = list(client.store.terminals())
    assert len(terminals) == 1
    _, t = terminals[0]
    assert t.transcript == "hello python sdk\nx\ufffdy\n"
    assert t.exit_status is not None and t.exit_status.exit_code == 7
    assert str(t.cwd) == cwd
    assert (
        client.asked is not None
        and isinstance(client.asked.raw_input, dict)
        and client.asked.raw_input.get("command") == command
    )
    assert any(text.endswith("[exit code 7]") and "hello python sdk" in text for text in client.texts.values())


def test_the_python_sdk_client_refuses_and_nothing_runs(cwd: str) -> None:
    marker = Path(cwd) / "refused"
    for answer, stop_reason in (("reject", "end_turn"), ("cancelled", "cancelled")):
        client, stop = asyncio.run(session(f"touch {marker}", answer, cwd))
        assert not marker.exists(), f"{answer}: the refused command ran"
        assert stop == stop_reason
        assert list(client.store.terminals()) == []
        assert any(text.startswith("Permission refused") for text in client.texts.values())
