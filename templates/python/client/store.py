"""The terminal store: applies session updates of the display-only terminal surface
(upserts, replacement snapshots, appended chunks, either-order arrival), with a safe
transcript per terminal.

Costs (README, "The store's guarantees"): applying an update takes time proportional to
its size, plus amortized constant time per terminal and per reference. Memory is the
retained bytes plus a small constant per terminal; the transcript is built only for
terminals whose text is asked for, incrementally. Every limit is visible when hit and
never loses what was applied."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from pydantic import JsonValue

from ._runtime.base64 import Base64Error, decode_base64
from ._runtime.errors import ParseError, Problem
from ._runtime.model import MISSING, UnknownVariant
from ._runtime.transcript import MAX_LINE_LENGTH, MAX_TEXT_LENGTH, Transcript
from .v2 import (
    AbsolutePath,
    SessionId,
    SessionUpdate,
    SessionUpdateTerminalOutputChunk,
    SessionUpdateTerminalUpdate,
    SessionUpdateToolCallContentChunk,
    SessionUpdateToolCallUpdate,
    TerminalCapabilities,
    TerminalExitStatus,
    TerminalId,
    TerminalSize,
    ToolCallContent,
    ToolCallContentTerminal,
    ToolCallId,
    UpdateSessionNotification,
    parse_session_update,
    parse_update_session_notification,
)

__all__ = [
    "ApplyError",
    "ByteLog",
    "Counters",
    "Limits",
    "TerminalState",
    "TerminalStore",
]

_SMALL = 4096
"""The largest block small chunks are gathered into."""

# The fast path of the most common message, one `terminal_output_chunk`, written as
# senders write it: canonical member order, no whitespace, ids with nothing to unescape
# (no backslash, no `"`, no control character, no surrogate) and data in the base64
# alphabet. Such a text is JSON the generic decoder reads as exactly these strings, so
# slicing them out gives the same values; any other text takes the generic path. The
# expressions match the text up to the data; the data is what is left before the closing
# `"}}` (`"}` for a bare update), and `decode_base64`, which accepts only
# `[A-Za-z0-9+/]*={0,2}` (never a `"`, `\` or `}`), checks it: scanning it with the
# expression too would cost more than the rest of the fast path.
_ID: Final = r'"([^"\\\x00-\x1f\ud800-\udfff]*)"'
_CHUNK_HEAD: Final = r'"sessionUpdate":"terminal_output_chunk","terminalId":' + _ID + r',"data":"'
_FAST_NOTIFICATION: Final = re.compile(r'\{"sessionId":' + _ID + r',"update":\{' + _CHUNK_HEAD)
"""A ``session/update`` notification's params carrying one plain ``terminal_output_chunk``,
up to its data (then ``"}}``)."""
_FAST_UPDATE: Final = re.compile(r"\{" + _CHUNK_HEAD)
"""A plain ``terminal_output_chunk`` update, up to its data (then ``"}``)."""


@dataclass(frozen=True)
class Limits:
    """Limits a Client sets on what an Agent can make it hold; the same in the three
    languages. The defaults are safe for an interactive Client."""

    max_terminals: int = 1024
    """At most this many terminals. An update or reference that would create one more is
    ignored and counted in ``Counters.terminals_refused``; known terminals keep working."""
    max_retained_bytes: int = 1 << 20
    """At most this many output bytes retained per terminal. Past it the store keeps the
    most recent bytes and counts the rest in ``TerminalState.dropped_bytes``. The
    transcript still renders every byte (it reads bytes before they go)."""
    max_warnings: int = 64
    """At most this many warnings returned per applied message; the rest are counted in
    ``Counters.warnings_dropped``."""
    max_line_length: int = MAX_LINE_LENGTH
    """The line length limit, in cells, of every transcript the store creates: a longer
    line wraps, counted in the transcript's ``wrapped_lines``."""
    max_text_length: int = MAX_TEXT_LENGTH
    """The text length limit, in code points of finished lines, of every transcript the
    store creates: past it the oldest lines are left out, counted in ``dropped_lines``
    and ``dropped_chars``."""


@dataclass
class Counters:
    """What the store ignored because a limit was hit."""

    terminals_refused: int = 0
    """Updates and references ignored because they would have created a terminal past
    ``Limits.max_terminals``."""
    warnings_dropped: int = 0
    """Warnings not returned because a message had more than ``Limits.max_warnings``."""


class ByteLog:
    """Output bytes kept as a list of blocks. Chunks of 4 KiB or more are kept as they
    came; smaller ones are gathered into a block of at most 4 KiB. Appending never copies
    what is stored, and the only spare capacity is in that last small block, so the
    memory held stays close to the bytes retained."""

    __slots__ = ("_blocks", "_dropped", "_head", "_len", "_start", "_tail")

    def __init__(self) -> None:
        self._blocks: list[bytes] = []
        self._start = 0
        """Index of the first live block."""
        self._tail = bytearray()
        self._head = 0
        self._len = 0
        self._dropped = 0

    def replace(self, data: bytes, keep: int | None = None) -> None:
        """Replaces everything with ``data`` (kept without a copy), or with its last
        ``keep`` bytes, counting the rest as dropped."""
        cut = 0 if keep is None else max(0, len(data) - keep)
        kept = data[cut:] if cut else data
        self._blocks = [bytes(kept)] if kept else []
        self._start = 0
        self._tail = bytearray()
        self._head = 0
        self._len = len(kept)
        self._dropped = cut

    def _seal(self) -> None:
        if self._tail:
            self._blocks.append(bytes(self._tail))
            self._tail = bytearray()

    def append(self, data: bytes, keep: int | None = None) -> None:
        """Appends ``data``, then keeps at most the last ``keep`` bytes, counting the
        rest as dropped."""
        # Whatever allocates comes before the counts change, so a failure (MemoryError)
        # leaves the log as it was.
        n = len(data)
        if keep is not None and n > keep:
            kept = data[n - keep :]
            self.drop_front(self._len)
            self._dropped += n - keep
            data, n = kept, keep
        if n == 0:
            return
        if len(self._tail) + n <= _SMALL and n < _SMALL:
            self._tail += data
        else:
            self._seal()
            if n >= _SMALL:
                self._blocks.append(bytes(data))
            else:
                self._tail += data
        self._len += n
        if keep is not None and self._len > keep:
            self.drop_front(self._len - keep)

    def drop_front(self, count: int) -> None:
        """Drops the first ``count`` retained bytes (all of them when it is larger)."""
        n = min(count, self._len)
        self._len -= n
        self._dropped += n
        blocks = self._blocks
        while n > 0 and self._start < len(blocks):
            front = blocks[self._start]
            live = len(front) - self._head
            if n >= live:
                n -= live
                self._head = 0
                blocks[self._start] = b""
                self._start += 1
            else:
                self._head += n
                n = 0
                # A large block more than half dead is copied down, so the dead part
                # never exceeds what is retained.
                if self._head > len(front) // 2 and len(front) > _SMALL:
                    blocks[self._start] = front[self._head :]
                    self._head = 0
        if self._start > 32 and 2 * self._start > len(blocks):
            del blocks[: self._start]
            self._start = 0
        if n > 0:
            del self._tail[:n]

    def __len__(self) -> int:
        return self._len

    @property
    def dropped(self) -> int:
        """How many bytes before the retained ones were dropped by
        ``Limits.max_retained_bytes`` since the last snapshot."""
        return self._dropped

    def chunks(self) -> Iterator[bytes | bytearray | memoryview]:
        """The retained bytes, block by block."""
        for i in range(self._start, len(self._blocks)):
            b = self._blocks[i]
            yield memoryview(b)[self._head :] if i == self._start and self._head else b
        if self._tail:
            yield self._tail

    def chunks_from(self, offset: int) -> Iterator[bytes | bytearray | memoryview]:
        """The retained bytes from ``offset`` (counted from the first retained byte) on."""
        for c in self.chunks():
            if offset >= len(c):
                offset -= len(c)
                continue
            yield memoryview(c)[offset:] if offset else c
            offset = 0

    def to_bytes(self) -> bytes:
        """The retained bytes as one ``bytes`` (a copy)."""
        return b"".join(self.chunks())

    @property
    def capacity(self) -> int:
        """The memory the blocks hold, spare capacity and dropped bytes not yet released
        included."""
        return sum(len(b) for b in self._blocks[self._start :]) + self._tail.__alloc__()


@dataclass(slots=True)
class TerminalState:
    """What the store knows about one terminal."""

    command: str | None = None
    cwd: AbsolutePath | None = None
    exit_status: TerminalExitStatus | None = None
    size: TerminalSize | None = None
    """The terminal size the command runs with, when known: render the output at this
    width so that column layouts and progress bars look as the program wrote them."""
    capabilities: TerminalCapabilities | None = None
    """What the Client may ask the Agent to do with this terminal right now, as last
    replaced (``None``: never said, or cleared). The store only records it: a display may
    offer it to its user, and nothing is sent unless the user asks."""
    meta: dict[str, JsonValue] | None = None
    """Terminal-scoped extension data, as last replaced (RFD semantics, docs/WIRE.md)."""
    output: ByteLog = field(default_factory=ByteLog)
    """The retained output bytes: the last snapshot plus every chunk since, less what
    ``Limits.max_retained_bytes`` dropped."""
    tool_calls: set[ToolCallId] = field(default_factory=set)
    _renderer: Transcript | None = None
    _rendered: int = 0
    _max_line_length: int = MAX_LINE_LENGTH
    _max_text_length: int = MAX_TEXT_LENGTH

    @property
    def can_cancel(self) -> bool:
        """Whether the terminal currently offers ``terminal/cancel``, so a display may show
        a cancel control. The store never sends one."""
        return self.capabilities is not None and self.capabilities.cancel is not None

    @property
    def dropped_bytes(self) -> int:
        """How many output bytes since the last snapshot are no longer retained because
        of ``Limits.max_retained_bytes``."""
        return self.output.dropped

    @property
    def transcript(self) -> str:
        """The safe transcript of every output byte since the last snapshot
        (docs/TRANSCRIPT.md). Built on the first read, then only the bytes that arrived
        since the previous read are rendered, so reading once per frame is cheap."""
        return self._catch_up().text

    def read_transcript(self) -> Transcript:
        """This terminal's ``Transcript``, caught up with every output byte since the last
        snapshot, without copying its text: a display that reads after every chunk reads
        only what is new with ``finished_length``, ``finished_since(position)`` and
        ``current_line``, and the limits' counters (``wrapped_lines``,
        ``dropped_lines``, ``dropped_chars``). It has the store's ``max_line_length``
        and ``max_text_length``.

        The object belongs to the store: only read it (never ``push`` or ``reset``). A
        replacement snapshot (a ``terminal_update`` with ``output``) starts a new
        transcript, so a display that keeps a position starts over when this returns
        another object than last time."""
        return self._catch_up()

    def sorted_tool_calls(self) -> list[ToolCallId]:
        """The tool calls whose current content references this terminal, sorted."""
        return sorted(self.tool_calls)

    def _new_transcript(self) -> Transcript:
        return Transcript(self._max_line_length, self._max_text_length)

    def _catch_up(self) -> Transcript:
        r = self._renderer
        if r is None:
            r = self._renderer = self._new_transcript()
            self._rendered = self.output.dropped
        end = self.output.dropped + len(self.output)
        if self._rendered < end:
            try:
                for c in self.output.chunks_from(self._rendered - self.output.dropped):
                    r.push(bytes(c))
            except BaseException:
                self._renderer = None  # restarts from the retained bytes next time
                raise
            self._rendered = end
        return r

    def _replace_output(self, data: bytes, limit: int) -> None:
        if len(data) > limit:
            # Every byte is read by the transcript before it goes.
            r = self._new_transcript()
            r.push(data)
            self.output.replace(data, limit)
            self._renderer, self._rendered = r, len(data)
            return
        self.output.replace(data, limit)
        self._renderer, self._rendered = None, 0

    def _append_output(self, data: bytes, limit: int) -> None:
        if len(self.output) + len(data) > limit:
            # Every byte is read by the transcript before it goes.
            r = self._catch_up()
            try:
                r.push(data)
            except BaseException:
                self._renderer = None
                raise
            self._rendered += len(data)
        self.output.append(data, limit)


@dataclass
class ApplyError(Exception):
    """An update that failed to parse, with its index in the sequence applied."""

    index: int
    error: ParseError

    def __str__(self) -> str:
        return f"update {self.index}: {self.error}"


class TerminalStore:
    """Applies session updates and keeps every terminal's state, in first-seen order.

    A store holds one session: the first ``session/update`` notification binds it, and a
    notification of another session is rejected (``session_mismatch``) without effect.
    Updates applied without their notification (``apply``, ``apply_text``) are taken as
    the caller's session."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits: Limits = limits if limits is not None else Limits()
        """The limits in force."""
        self.counters: Counters = Counters()
        """What the limits made the store ignore so far."""
        self._states: dict[TerminalId, TerminalState] = {}
        self._links: dict[ToolCallId, list[TerminalState]] = {}
        self._session: SessionId | None = None

    @property
    def session_id(self) -> SessionId | None:
        """The session the store is bound to, once a notification has been applied."""
        return self._session

    def terminal(self, terminal_id: str) -> TerminalState | None:
        """The state of ``terminal_id``, if the store has seen it."""
        return self._states.get(TerminalId(terminal_id))

    def terminals(self) -> Iterator[tuple[TerminalId, TerminalState]]:
        """Every terminal, in first-seen order."""
        return iter(self._states.items())

    def _entry(self, terminal_id: TerminalId) -> TerminalState | None:
        state = self._states.get(terminal_id)
        if state is None:
            if len(self._states) >= self.limits.max_terminals:
                self.counters.terminals_refused += 1
                return None
            limits = self.limits
            state = TerminalState(_max_line_length=limits.max_line_length, _max_text_length=limits.max_text_length)
            self._states[terminal_id] = state
        return state

    def _link(self, tool_call: ToolCallId, terminal_id: TerminalId) -> None:
        t = self._entry(terminal_id)
        if t is None or tool_call in t.tool_calls:
            return
        t.tool_calls.add(tool_call)
        self._links.setdefault(tool_call, []).append(t)

    def _unlink_all(self, tool_call: ToolCallId) -> None:
        for t in self._links.pop(tool_call, []):
            t.tool_calls.discard(tool_call)

    def _relink(self, tool_call: ToolCallId, content: list[ToolCallContent]) -> None:
        self._unlink_all(tool_call)
        for c in content:
            if isinstance(c, ToolCallContentTerminal):
                self._link(tool_call, c.terminal_id)

    def apply(self, update: SessionUpdate) -> None:
        """Applies one parsed update. Updates outside the terminal surface are ignored."""
        limit = self.limits.max_retained_bytes
        if isinstance(update, SessionUpdateTerminalUpdate):
            t = self._entry(update.terminal_id)
            if t is None:
                return
            # The output first: it is the only step that allocates much, so a failure
            # there leaves the other members unchanged too.
            if update.output is None:
                t._replace_output(b"", limit)
            elif update.output is not MISSING:
                t._replace_output(update.output.data, limit)
            if update.command is not MISSING:
                t.command = update.command
            if update.cwd is not MISSING:
                t.cwd = update.cwd
            if update.exit_status is not MISSING:
                t.exit_status = update.exit_status
            if update.size is not MISSING:
                t.size = update.size
            if update.capabilities is not MISSING:
                t.capabilities = update.capabilities
            if update.meta is not MISSING:
                t.meta = update.meta
        elif isinstance(update, SessionUpdateTerminalOutputChunk):
            self._append_chunk(update.terminal_id, update.data)
        elif isinstance(update, SessionUpdateToolCallUpdate):
            if update.content is None:
                self._unlink_all(update.tool_call_id)
            elif update.content is not MISSING:
                self._relink(update.tool_call_id, update.content)
        elif isinstance(update, SessionUpdateToolCallContentChunk):
            c = update.content
            if isinstance(c, ToolCallContentTerminal):
                self._link(update.tool_call_id, c.terminal_id)
        elif isinstance(update, UnknownVariant):
            return

    def _append_chunk(self, terminal_id: TerminalId, data: bytes) -> None:
        """Applies a ``terminal_output_chunk``: the generic path (``apply``) and the fast one."""
        s = self._entry(terminal_id)
        if s is not None:
            s._append_output(data, self.limits.max_retained_bytes)

    def _bind(self, session: SessionId) -> None:
        """Binds the store to ``session``, or raises ``session_mismatch`` when it holds another."""
        if self._session is not None and self._session != session:
            message = (
                f"this store holds session {_quote(self._session)}, not {_quote(session)}; use one store per session"
            )
            raise ParseError(Problem("session_mismatch", "/sessionId", message))
        self._session = session

    def _keep(self, warnings: tuple[Problem, ...]) -> tuple[Problem, ...]:
        extra = len(warnings) - self.limits.max_warnings
        if extra <= 0:
            return warnings
        self.counters.warnings_dropped += extra
        return warnings[: self.limits.max_warnings]

    def apply_text(self, text: str) -> tuple[Problem, ...]:
        """Parses one ``SessionUpdate`` (JSON text) and applies it; returns the warnings
        (at most ``Limits.max_warnings``). Raises ``ParseError`` (nothing applied) when it
        does not parse. A ``terminal_output_chunk`` written as senders write it skips the
        generic decoder, with the same result."""
        m = _FAST_UPDATE.match(text) if isinstance(text, str) else None
        if m is not None and text.endswith('"}', m.end()):
            try:
                data = decode_base64(text[m.end() : -2])
            except Base64Error:
                pass  # the generic path reports it
            else:
                self._append_chunk(TerminalId(m.group(1)), data)
                return self._keep(())
        parsed = parse_session_update(text)
        self.apply(parsed.value)
        return self._keep(parsed.warnings)

    def apply_notification_text(self, text: str) -> tuple[Problem, ...]:
        """Parses one ``session/update`` notification's params and applies its update.
        The first notification binds the store to its session; one of another session
        raises ``ParseError`` with ``session_mismatch`` at ``/sessionId`` (nothing
        applied). One ``terminal_output_chunk`` written as senders write it (canonical
        member order, no whitespace, ids without escapes) skips the generic decoder, with
        the same result."""
        m = _FAST_NOTIFICATION.match(text) if isinstance(text, str) else None
        if m is not None and text.endswith('"}}', m.end()):
            try:
                data = decode_base64(text[m.end() : -3])
            except Base64Error:
                pass  # the generic path reports it
            else:
                self._bind(SessionId(m.group(1)))
                self._append_chunk(TerminalId(m.group(2)), data)
                return self._keep(())
        parsed = parse_update_session_notification(text)
        self.apply_notification(parsed.value)
        return self._keep(parsed.warnings)

    def apply_notification(self, notification: UpdateSessionNotification) -> None:
        """Applies one parsed ``session/update`` notification's update, keeping its
        session: the first notification binds the store to its session; one of another
        session raises ``ParseError`` with ``session_mismatch`` at ``/sessionId``
        (nothing applied). Use it when the notification is already parsed
        (``parse_update_session_notification(params).value``): ``apply`` of its
        ``update`` alone would not check the session."""
        self._bind(notification.session_id)
        self.apply(notification.update)

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


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
