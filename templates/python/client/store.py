"""The terminal store: applies session updates of the display-only terminal surface
(upserts, replacement snapshots, appended chunks, either-order arrival), with a safe
transcript per terminal."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from pydantic import JsonValue

from ._runtime.errors import ParseError, Problem
from ._runtime.model import MISSING, UnknownVariant
from ._runtime.transcript import Transcript
from .v2 import (
    AbsolutePath,
    SessionUpdate,
    SessionUpdateTerminalOutputChunk,
    SessionUpdateTerminalUpdate,
    SessionUpdateToolCallContentChunk,
    SessionUpdateToolCallUpdate,
    TerminalExitStatus,
    TerminalId,
    ToolCallContent,
    ToolCallContentTerminal,
    ToolCallId,
    parse_session_update,
    parse_update_session_notification,
)

_BLOCK = 64 * 1024


class ByteLog:
    """Output bytes kept as a list of blocks: appending never copies what is stored,
    and at most one partly filled block is spare capacity."""

    __slots__ = ("_blocks", "_fill", "_len")

    def __init__(self) -> None:
        self._blocks: list[bytearray | bytes] = []
        self._fill = 0
        self._len = 0

    def replace(self, data: bytes) -> None:
        """Replaces everything with ``data`` (kept without a copy)."""
        self._blocks = [data] if data else []
        self._fill = len(data)
        self._len = len(data)

    def append(self, data: bytes) -> None:
        """Appends ``data``."""
        n = len(data)
        self._len += n
        view = memoryview(data)
        offset = 0
        while offset < n:
            last = self._blocks[-1] if self._blocks else None
            if last is None or not isinstance(last, bytearray) or self._fill == len(last):
                last = bytearray(max(_BLOCK, min(n - offset, 16 * _BLOCK)))
                self._blocks.append(last)
                self._fill = 0
            take = min(n - offset, len(last) - self._fill)
            memoryview(last)[self._fill : self._fill + take] = view[offset : offset + take]
            self._fill += take
            offset += take

    def __len__(self) -> int:
        return self._len

    def chunks(self) -> Iterator[bytes | bytearray | memoryview]:
        """The retained bytes, block by block."""
        last = len(self._blocks) - 1
        for i, b in enumerate(self._blocks):
            yield memoryview(b)[: self._fill] if i == last else b

    def to_bytes(self) -> bytes:
        """The retained bytes as one ``bytes`` (a copy)."""
        return b"".join(self.chunks())

    @property
    def capacity(self) -> int:
        """The memory the blocks hold, spare capacity included."""
        return sum(len(b) for b in self._blocks)


@dataclass
class TerminalState:
    """What the store knows about one terminal."""

    command: str | None = None
    cwd: AbsolutePath | None = None
    exit_status: TerminalExitStatus | None = None
    meta: dict[str, JsonValue] | None = None
    output: ByteLog = field(default_factory=ByteLog)
    tool_calls: set[ToolCallId] = field(default_factory=set)
    _renderer: Transcript = field(default_factory=Transcript)

    @property
    def transcript(self) -> str:
        """The safe transcript of the retained output (docs/TRANSCRIPT.md)."""
        return self._renderer.text

    def sorted_tool_calls(self) -> list[ToolCallId]:
        """The tool calls whose current content references this terminal, sorted."""
        return sorted(self.tool_calls)

    def _replace_output(self, data: bytes) -> None:
        self._renderer.reset()
        self._renderer.push(data)
        self.output.replace(data)

    def _append_output(self, data: bytes) -> None:
        self._renderer.push(data)
        self.output.append(data)


@dataclass
class ApplyError(Exception):
    """An update that failed to parse, with its index in the sequence applied."""

    index: int
    error: ParseError

    def __str__(self) -> str:
        return f"update {self.index}: {self.error}"


class TerminalStore:
    """Applies session updates and keeps every terminal's state, in first-seen order."""

    def __init__(self) -> None:
        self._states: dict[TerminalId, TerminalState] = {}
        self._links: dict[ToolCallId, list[TerminalId]] = {}

    def terminal(self, terminal_id: str) -> TerminalState | None:
        """The state of ``terminal_id``, if the store has seen it."""
        return self._states.get(TerminalId(terminal_id))

    def terminals(self) -> Iterator[tuple[TerminalId, TerminalState]]:
        """Every terminal, in first-seen order."""
        return iter(self._states.items())

    def _entry(self, terminal_id: TerminalId) -> TerminalState:
        state = self._states.get(terminal_id)
        if state is None:
            state = self._states[terminal_id] = TerminalState()
        return state

    def _link(self, tool_call: ToolCallId, terminals: list[TerminalId]) -> None:
        for t in self._links.pop(tool_call, []):
            self._entry(t).tool_calls.discard(tool_call)
        for t in terminals:
            self._entry(t).tool_calls.add(tool_call)
        if terminals:
            self._links[tool_call] = terminals

    @staticmethod
    def _referenced(content: list[ToolCallContent]) -> list[TerminalId]:
        out: list[TerminalId] = []
        for c in content:
            if isinstance(c, ToolCallContentTerminal) and c.terminal_id not in out:
                out.append(c.terminal_id)
        return out

    def apply(self, update: SessionUpdate) -> None:
        """Applies one parsed update. Updates outside the terminal surface are ignored."""
        if isinstance(update, SessionUpdateTerminalUpdate):
            t = self._entry(update.terminal_id)
            if update.command is not MISSING:
                t.command = update.command
            if update.cwd is not MISSING:
                t.cwd = update.cwd
            if update.exit_status is not MISSING:
                t.exit_status = update.exit_status
            if update.meta is not MISSING:
                t.meta = update.meta
            if update.output is None:
                t._replace_output(b"")
            elif update.output is not MISSING:
                t._replace_output(update.output.data)
        elif isinstance(update, SessionUpdateTerminalOutputChunk):
            self._entry(update.terminal_id)._append_output(update.data)
        elif isinstance(update, SessionUpdateToolCallUpdate):
            if update.content is None:
                self._link(update.tool_call_id, [])
            elif update.content is not MISSING:
                self._link(update.tool_call_id, self._referenced(update.content))
        elif isinstance(update, SessionUpdateToolCallContentChunk):
            c = update.content
            if isinstance(c, ToolCallContentTerminal):
                current = list(self._links.get(update.tool_call_id, []))
                if c.terminal_id not in current:
                    current.append(c.terminal_id)
                self._link(update.tool_call_id, current)
        elif isinstance(update, UnknownVariant):
            return

    def apply_text(self, text: str) -> tuple[Problem, ...]:
        """Parses one ``SessionUpdate`` (JSON text) and applies it; returns the warnings.
        Raises ``ParseError`` (nothing applied) when it does not parse."""
        parsed = parse_session_update(text)
        self.apply(parsed.value)
        return parsed.warnings

    def apply_notification_text(self, text: str) -> tuple[Problem, ...]:
        """Parses one ``session/update`` notification's params and applies its update."""
        parsed = parse_update_session_notification(text)
        self.apply(parsed.value.update)
        return parsed.warnings

    def apply_all(self, texts: Iterable[str]) -> list[Problem]:
        """Applies updates in order, stopping at the first that fails to parse (raised as
        ``ApplyError``); everything applied before it stays applied."""
        warnings: list[Problem] = []
        for index, text in enumerate(texts):
            try:
                warnings.extend(self.apply_text(text))
            except ParseError as e:
                raise ApplyError(index, e) from e
        return warnings
