"""The terminal store: applies session updates of the display-only terminal surface
(upserts, replacement snapshots, appended chunks, either-order arrival), with a safe
transcript per terminal.

Costs (docs/CLIENTS.md, "The store's guarantees"): applying an update takes time proportional to
its size, plus amortized constant time per terminal and per reference. Memory is the
retained bytes plus a small constant per terminal; the transcript is built only for
terminals whose text is asked for, incrementally. Every limit is visible when hit.

A long session never stops showing output: past ``max_terminals`` the store evicts the
least recently updated exited terminal (a live one only when all are live) and reports it
(``take_events``); past ``max_total_bytes`` it drops the oldest bytes of the least
recently updated exited terminals first."""

from __future__ import annotations

import copy
import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from pydantic import JsonValue

from ._runtime.base64 import Base64Error, decode_base64, encode_base64
from ._runtime.errors import ParseError, Problem
from ._runtime.json import Json, parse_json
from ._runtime.limits import DEFAULT_MAX_STATE_MEMBERS, DEFAULT_MAX_WARNINGS, check_limits
from ._runtime.model import MISSING, UnknownVariant
from ._runtime.state import SessionState
from .limits import DEFAULT_MAX_RETAINED_BYTES, DEFAULT_MAX_TERMINALS, DEFAULT_MAX_TOTAL_BYTES
from .transcript import MAX_LINE_LENGTH, MAX_TEXT_LENGTH, Transcript
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
    parse_terminal_capabilities,
    parse_terminal_exit_status,
    parse_terminal_size,
    parse_update_session_notification,
    serialize_session_update,
)

__all__ = [
    "ApplyError",
    "ByteLog",
    "Counters",
    "Limits",
    "StoreEvent",
    "TerminalEvicted",
    "TerminalRestarted",
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

    max_terminals: int = DEFAULT_MAX_TERMINALS
    """At most this many terminals. An update or reference that would create one more
    first evicts the least recently updated terminal that has exited, or, when every
    terminal is live, the least recently updated live one: counted in
    ``Counters.terminals_evicted`` and reported by ``TerminalStore.take_events()``. An
    update for an evicted id starts a fresh terminal (``TerminalRestarted``,
    ``TerminalState.restarted``). With 0, no terminal is kept (each is counted in
    ``Counters.terminals_refused``)."""
    max_retained_bytes: int = DEFAULT_MAX_RETAINED_BYTES
    """At most this many output bytes retained per terminal. Past it the store keeps the
    most recent bytes and counts the rest in ``TerminalState.dropped_bytes``. The
    transcript still renders every byte (it reads bytes before they go)."""
    max_total_bytes: int = DEFAULT_MAX_TOTAL_BYTES
    """At most this many output bytes retained by all terminals together. Past it the
    store drops the oldest bytes of the least recently updated exited terminals first
    (then of live ones, least recently updated first), counted in
    ``Counters.bytes_evicted`` and in each terminal's ``dropped_bytes``. A transcript
    already built reads the bytes before they go; one built later starts at the first
    byte kept."""
    max_warnings: int = DEFAULT_MAX_WARNINGS
    """At most this many warnings returned per applied message; the rest are counted in
    ``Counters.warnings_dropped``."""
    max_line_length: int = MAX_LINE_LENGTH
    """The line length limit, in cells, of every transcript the store creates: a longer
    line wraps, counted in the transcript's ``wrapped_lines``."""
    max_text_length: int = MAX_TEXT_LENGTH
    """The text length limit, in code points of finished lines, of every transcript the
    store creates: past it the oldest lines are left out, counted in ``dropped_lines``
    and ``dropped_chars``."""
    max_members: int = DEFAULT_MAX_STATE_MEMBERS
    """At most this many members per terminal beyond those ``TerminalUpdate`` names (which
    are always kept), and keys in its ``_meta``: what a ``terminal_update`` sets is kept as
    the session state keeps it (unknown members and ``_meta`` merged key by key), so
    without a bound an Agent could grow a terminal with every update. A member or key new to the terminal past it is not kept, counted in
    ``Counters.members_dropped``; one it has is still replaced or cleared."""

    def __post_init__(self) -> None:
        check_limits(self)


@dataclass
class Counters:
    """What the store dropped because a limit was hit."""

    terminals_refused: int = 0
    """Updates and references ignored because ``Limits.max_terminals`` is 0."""
    warnings_dropped: int = 0
    """Warnings not returned because a message had more than ``Limits.max_warnings``."""
    terminals_evicted: int = 0
    """Terminals evicted to make room for a new one (``Limits.max_terminals``)."""
    bytes_evicted: int = 0
    """Output bytes dropped to keep the store within ``Limits.max_total_bytes``."""
    events_dropped: int = 0
    """Events not kept because more were waiting than the store keeps
    (``Limits.max_terminals``, at least 64) before ``take_events()`` took them: the oldest
    go first."""
    members_dropped: int = 0
    """Members and ``_meta`` keys a ``terminal_update`` set that were not kept, past
    ``Limits.max_members``."""


@dataclass(frozen=True, slots=True)
class TerminalEvicted:
    """The terminal was evicted to make room for a new one (``Limits.max_terminals``): its
    output and state are no longer kept ("output no longer kept")."""

    terminal_id: TerminalId
    exited: bool
    """Whether it had exited (a live terminal is evicted only when every terminal is live)."""

    def to_json(self) -> dict[str, JsonValue]:
        """The event as JSON, as ``replay`` vectors list events."""
        return {"kind": "evicted", "terminalId": self.terminal_id, "exited": self.exited}


@dataclass(frozen=True, slots=True)
class TerminalRestarted:
    """An update named a terminal the store had evicted: it starts fresh, without what it
    held before (``TerminalState.restarted``)."""

    terminal_id: TerminalId

    def to_json(self) -> dict[str, JsonValue]:
        """The event as JSON, as ``replay`` vectors list events."""
        return {"kind": "restarted", "terminalId": self.terminal_id}


StoreEvent: TypeAlias = TerminalEvicted | TerminalRestarted
"""What the store did on its own that a display may want to show (``TerminalStore.take_events()``)."""


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


_RULES: list[SessionState] = []


def _session_rules() -> SessionState:
    """The package's session-state table, read once: the store applies its upserts to its
    terminals (``SessionState.upsert_into``)."""
    if not _RULES:
        from .registry import session_state

        rules = session_state("v2")
        if rules is None:
            raise RuntimeError("cargo xtask gen writes the v2 session-state table of this package")
        _RULES.append(rules)
    return _RULES[0]


@dataclass(slots=True)
class TerminalState:
    """What the store knows about one terminal."""

    _kept: dict[str, Json] = field(default_factory=dict)
    """The terminal as the session state keeps it (``terminalId``, ``command``, ``cwd``,
    ``exitStatus`` ...), changed only by the session state's upsert (docs/SESSIONS.md); its
    output is kept in ``output`` instead. The properties read from it, each read costing
    the member's size."""
    output: ByteLog = field(default_factory=ByteLog)
    """The retained output bytes: the last snapshot plus every chunk since, less what
    ``Limits.max_retained_bytes`` dropped."""
    tool_calls: set[ToolCallId] = field(default_factory=set)
    restarted: bool = False
    """``True`` when the store had evicted a terminal of this id (``Limits.max_terminals``)
    and this one started fresh on a later update: what came before is no longer kept."""
    _renderer: Transcript | None = None
    _rendered: int = 0
    _max_line_length: int = MAX_LINE_LENGTH
    _max_text_length: int = MAX_TEXT_LENGTH

    @property
    def command(self) -> str | None:
        """The command line, when known (``None``: unknown or cleared)."""
        v = self._kept.get("command")
        return v if isinstance(v, str) else None

    @property
    def cwd(self) -> AbsolutePath | None:
        """The absolute working directory, when known."""
        v = self._kept.get("cwd")
        return AbsolutePath(v) if isinstance(v, str) else None

    @property
    def exit_status(self) -> TerminalExitStatus | None:
        """The exit status; not ``None`` means the process exited."""
        v = self._kept.get("exitStatus")
        return None if v is None else parse_terminal_exit_status(v).value

    @property
    def exited(self) -> bool:
        """Whether the process exited (it has an exit status)."""
        return self._kept.get("exitStatus") is not None

    @property
    def size(self) -> TerminalSize | None:
        """The terminal size the command runs with, when known: render the output at this
        width so that column layouts and progress bars look as the program wrote them."""
        v = self._kept.get("size")
        return None if v is None else parse_terminal_size(v).value

    @property
    def capabilities(self) -> TerminalCapabilities | None:
        """What the Client may ask the Agent to do with this terminal right now, as last
        replaced (``None``: never said, or cleared). The store only records it: a display may
        offer it to its user, and nothing is sent unless the user asks."""
        v = self._kept.get("capabilities")
        return None if v is None else parse_terminal_capabilities(v).value

    @property
    def meta(self) -> dict[str, JsonValue] | None:
        """Terminal-scoped extension data, patched key by key as the session state does
        (upstream's meta-patch rule, docs/WIRE.md): a key set to ``null`` is removed. A copy:
        the store patches its own in place, and an edit of the copy changes nothing kept."""
        v = self._kept.get("_meta")
        return copy.deepcopy(v) if isinstance(v, dict) else None

    @property
    def can_cancel(self) -> bool:
        """Whether the terminal currently offers ``terminal/cancel``, so a display may show
        a cancel control. The store never sends one."""
        c = self._kept.get("capabilities")
        return isinstance(c, dict) and c.get("cancel") is not None

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

    def snapshot(self) -> dict[str, JsonValue]:
        """This terminal as JSON, the view that ``replay`` vectors compare (docs/CLIENTS.md,
        "A store's snapshot"): ``command``, ``cwd``, ``output`` (the retained bytes, base64),
        ``exitStatus`` (``{exitCode, signal}`` or ``None``), ``transcript`` and
        ``toolCallIds``; then ``size`` when known, ``capabilities`` (``{cancel}``) when the
        Agent gave them, and ``droppedBytes``, ``wrappedLines``, ``droppedLines`` with
        ``droppedChars``, and ``restarted`` only when they are not zero or false. For a
        debugger view or a test."""
        e = self.exit_status
        r = self._catch_up()
        view: dict[str, JsonValue] = {
            "command": self.command,
            "cwd": self.cwd,
            "output": encode_base64(self.output.to_bytes()),
            "exitStatus": None if e is None else {"exitCode": e.exit_code, "signal": e.signal},
            "transcript": r.text,
            "toolCallIds": list(self.sorted_tool_calls()),
        }
        if self.size is not None:
            view["size"] = {"cols": self.size.cols, "rows": self.size.rows}
        if self.capabilities is not None:
            view["capabilities"] = {"cancel": self.can_cancel}
        if self.dropped_bytes > 0:
            view["droppedBytes"] = self.dropped_bytes
        if r.wrapped_lines > 0:
            view["wrappedLines"] = r.wrapped_lines
        if r.dropped_lines > 0:
            view["droppedLines"] = r.dropped_lines
            view["droppedChars"] = r.dropped_chars
        if self.restarted:
            view["restarted"] = True
        return view

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

    def _evict_bytes(self, n: int) -> None:
        """Drops the first ``n`` retained bytes for the store's total limit: a transcript
        already built reads them first; otherwise they go unread."""
        if self._renderer is not None:
            self._catch_up()
        self.output.drop_front(n)

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
    the caller's session.

    A long session keeps showing output: past ``Limits.max_terminals`` the least recently
    updated exited terminal is evicted (a live one only when all are live), and past
    ``Limits.max_total_bytes`` the oldest bytes of the least recently updated exited
    terminals go first. What was evicted is reported by ``take_events()``."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits: Limits = limits if limits is not None else Limits()
        """The limits in force."""
        self.counters: Counters = Counters()
        """What the limits made the store drop so far."""
        self._states: dict[TerminalId, TerminalState] = {}
        """Every terminal, in first-seen order (started again after an eviction: new)."""
        self._exited: dict[TerminalId, TerminalState] = {}
        """The exited terminals, least recently updated first (the eviction order)."""
        self._live: dict[TerminalId, TerminalState] = {}
        self._exited_bytes: dict[TerminalId, TerminalState] = {}
        """The same, for the terminals that retain bytes (the total limit's victims)."""
        self._live_bytes: dict[TerminalId, TerminalState] = {}
        self._links: dict[ToolCallId, set[TerminalId]] = {}
        """The terminals each tool call's current content references, each once."""
        self._evicted: dict[TerminalId, None] = {}
        """Ids evicted lately (at most ``max_terminals``, at least 64), oldest first, to report a restart."""
        self._events: deque[StoreEvent] = deque()
        self._total_bytes = 0
        self._work = 0
        self._session: SessionId | None = None

    @property
    def session_id(self) -> SessionId | None:
        """The session the store is bound to, once a notification has been applied."""
        return self._session

    def terminal(self, terminal_id: str) -> TerminalState | None:
        """The state of ``terminal_id``, if the store holds it."""
        return self._states.get(TerminalId(terminal_id))

    def terminals(self) -> Iterator[tuple[TerminalId, TerminalState]]:
        """Every terminal, in first-seen order (a terminal started again after an eviction
        counts as new)."""
        return iter(self._states.items())

    def snapshot(self) -> dict[str, JsonValue]:
        """Every terminal's ``TerminalState.snapshot()``, by id in the store's order (what
        ``terminals()`` iterates)."""
        return {terminal_id: t.snapshot() for terminal_id, t in self._states.items()}

    def counters_snapshot(self) -> dict[str, JsonValue] | None:
        """The counters as JSON, as ``replay`` vectors compare them: ``None`` when all are
        zero; else ``terminalsRefused`` and ``warningsDropped``, and each of
        ``terminalsEvicted``, ``bytesEvicted``, ``eventsDropped`` and ``membersDropped``
        above zero."""
        c = self.counters
        if c == Counters():
            return None
        more = (
            ("terminalsEvicted", c.terminals_evicted),
            ("bytesEvicted", c.bytes_evicted),
            ("eventsDropped", c.events_dropped),
            ("membersDropped", c.members_dropped),
        )
        return {
            "terminalsRefused": c.terminals_refused,
            "warningsDropped": c.warnings_dropped,
            **{k: n for k, n in more if n > 0},
        }

    @property
    def total_bytes(self) -> int:
        """The output bytes all terminals retain (``Limits.max_total_bytes`` bounds it)."""
        return self._total_bytes

    def take_events(self) -> list[StoreEvent]:
        """What happened since the last call, oldest first: terminals evicted
        (``TerminalEvicted``) and terminals started again after an eviction
        (``TerminalRestarted``). A display calls it after applying updates, to say "output
        no longer kept". The store keeps at most ``max_terminals`` (at least 64) events;
        older ones are counted in ``Counters.events_dropped``."""
        out = list(self._events)
        self._events.clear()
        return out

    @property
    def work(self) -> int:
        """Elementary steps done so far (references visited, terminals and tool calls
        touched, bytes copied or dropped, evictions): the work counter the tests read to
        check that it grows linearly with the input, without a clock."""
        return self._work

    def _event(self, e: StoreEvent) -> None:
        if len(self._events) >= max(self.limits.max_terminals, 64):
            self._events.popleft()
            self.counters.events_dropped += 1
        self._events.append(e)

    def _entry(self, terminal_id: TerminalId) -> TerminalState | None:
        """The state of ``terminal_id``, created when new (evicting a terminal when the
        store is full); ``None`` (counted) when ``max_terminals`` is 0."""
        state = self._states.get(terminal_id)
        if state is not None:
            return state
        limits = self.limits
        if limits.max_terminals == 0:
            self.counters.terminals_refused += 1
            return None
        # Known as evicted before this eviction can push it out of the memory of ids.
        restarted = self._evicted.pop(terminal_id, False) is None
        while len(self._states) >= limits.max_terminals and self._evict_one():
            pass
        state = TerminalState(_max_line_length=limits.max_line_length, _max_text_length=limits.max_text_length)
        self._states[terminal_id] = state
        self._live[terminal_id] = state
        self._work += 1
        if restarted:
            state.restarted = True
            self._event(TerminalRestarted(terminal_id))
        return state

    def _evict_one(self) -> bool:
        """Evicts the least recently updated exited terminal, else the least recently
        updated live one: every trace of it goes at once (its references, its bytes)."""
        source = self._exited if self._exited else self._live
        if not source:
            return False
        terminal_id = next(iter(source))
        t = source.pop(terminal_id)
        self._exited_bytes.pop(terminal_id, None)
        self._live_bytes.pop(terminal_id, None)
        del self._states[terminal_id]
        for call in t.tool_calls:
            self._work += 1
            linked = self._links.get(call)
            if linked is not None:
                linked.discard(terminal_id)
                if not linked:
                    del self._links[call]
        self._total_bytes -= len(t.output)
        self.counters.terminals_evicted += 1
        self._work += 1
        self._evicted.pop(terminal_id, None)
        self._evicted[terminal_id] = None
        if len(self._evicted) > max(self.limits.max_terminals, 64):
            del self._evicted[next(iter(self._evicted))]
        self._event(TerminalEvicted(terminal_id, source is self._exited))
        return True

    def _updated(self, terminal_id: TerminalId, t: TerminalState, before: int) -> None:
        """After an update of ``t`` (which held ``before`` bytes): it becomes the most
        recently updated, in the exited or live order as its exit status says, and the
        total limit is applied."""
        done = t.exited
        (self._exited if done else self._live)[terminal_id] = t
        if len(t.output) > 0:
            (self._exited_bytes if done else self._live_bytes)[terminal_id] = t
        self._total_bytes += len(t.output) - before
        self._work += 1
        self._enforce_total()

    def _detach(self, terminal_id: TerminalId) -> None:
        """Takes ``terminal_id`` out of the eviction orders, before an update."""
        self._exited.pop(terminal_id, None)
        self._live.pop(terminal_id, None)
        self._exited_bytes.pop(terminal_id, None)
        self._live_bytes.pop(terminal_id, None)

    def _enforce_total(self) -> None:
        """Drops the oldest bytes of the least recently updated exited terminals (then
        live ones) until the store is within ``max_total_bytes``."""
        limit = self.limits.max_total_bytes
        while self._total_bytes > limit:
            source = self._exited_bytes if self._exited_bytes else self._live_bytes
            if not source:
                return
            terminal_id = next(iter(source))
            t = source[terminal_id]
            n = min(len(t.output), self._total_bytes - limit)
            t._evict_bytes(n)
            self._total_bytes -= n
            self.counters.bytes_evicted += n
            self._work += 1
            if len(t.output) == 0:
                del source[terminal_id]

    def _link(self, tool_call: ToolCallId, terminal_id: TerminalId) -> None:
        self._work += 1
        t = self._entry(terminal_id)
        if t is None or tool_call in t.tool_calls:
            return
        t.tool_calls.add(tool_call)
        self._links.setdefault(tool_call, set()).add(terminal_id)

    def _unlink_all(self, tool_call: ToolCallId) -> None:
        for terminal_id in self._links.pop(tool_call, ()):
            self._work += 1
            t = self._states.get(terminal_id)
            if t is not None:
                t.tool_calls.discard(tool_call)

    def _relink(self, tool_call: ToolCallId, content: list[ToolCallContent]) -> None:
        self._unlink_all(tool_call)
        for c in content:
            self._work += 1
            if isinstance(c, ToolCallContentTerminal):
                self._link(tool_call, c.terminal_id)

    def apply(self, update: SessionUpdate) -> None:
        """Applies one parsed update. Updates outside the terminal surface are ignored.
        What it evicted is reported by ``take_events()``."""
        limit = self.limits.max_retained_bytes
        if isinstance(update, SessionUpdateTerminalUpdate):
            terminal_id = update.terminal_id
            t = self._entry(terminal_id)
            if t is None:
                return
            before = len(t.output)
            self._detach(terminal_id)
            try:
                # The output first: it is the only step that allocates much, so a failure
                # there leaves the other members unchanged too.
                if update.output is None:
                    t._replace_output(b"", limit)
                elif update.output is not MISSING:
                    self._work += len(update.output.data)
                    t._replace_output(update.output.data, limit)
                # Every member but the output changes as the session state's upsert
                # changes it (the package's x-state table): the store has no patch rule of
                # its own.
                message = parse_json(serialize_session_update(update.model_copy(update={"output": MISSING})))
                self.counters.members_dropped += _session_rules().upsert_into(
                    "SessionUpdate", message, "terminal", t._kept, self.limits.max_members
                )
            finally:
                self._updated(terminal_id, t, before)
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
        t = self._entry(terminal_id)
        if t is None:
            return
        before = len(t.output)
        self._work += len(data)
        self._detach(terminal_id)
        try:
            t._append_output(data, self.limits.max_retained_bytes)
        finally:
            self._updated(terminal_id, t, before)

    def check_invariants(self) -> None:
        """Checks that every structure of the store agrees (for the fuzzers and tests): no
        terminal is ever half-evicted. Raises ``AssertionError`` with the first disagreement."""

        def fail(why: str) -> None:
            raise AssertionError(f"store invariant: {why}")

        if len(self._exited) + len(self._live) != len(self._states):
            fail(f"{len(self._states)} terminals, {len(self._exited) + len(self._live)} in the eviction order")
        if self.limits.max_terminals > 0 and len(self._states) > self.limits.max_terminals:
            fail(f"{len(self._states)} terminals past the limit")
        total = 0
        for terminal_id, t in self._states.items():
            done = t.exited
            if (self._exited if done else self._live).get(terminal_id) is not t:
                fail(f"{terminal_id} is not in the eviction order")
            in_bytes = (self._exited_bytes if done else self._live_bytes).get(terminal_id) is t
            if in_bytes != (len(t.output) > 0):
                fail(f"{terminal_id}: the byte order does not match its bytes")
            if terminal_id in self._evicted:
                fail(f"{terminal_id} is held and remembered as evicted")
            for call in t.tool_calls:
                if terminal_id not in self._links.get(call, ()):
                    fail(f"{terminal_id} names tool call {call}, which does not reference it")
            total += len(t.output)
        for call, linked in self._links.items():
            for terminal_id in linked:
                held = self._states.get(terminal_id)
                if held is None or call not in held.tool_calls:
                    fail(f"tool call {call} references a terminal the store does not hold (half-evicted)")
        if len(self._exited_bytes) + len(self._live_bytes) > len(self._states) or total != self._total_bytes:
            fail(f"{self._total_bytes} bytes counted, {total} held")
        if total > self.limits.max_total_bytes:
            fail(f"{total} bytes past the limit")
        if len(self._evicted) > max(self.limits.max_terminals, 64):
            fail(f"{len(self._evicted)} evicted ids remembered")

    def _bind(self, session: SessionId) -> None:
        """Binds the store to ``session``, or raises ``session_mismatch`` when it holds another."""
        if self._session is not None and self._session != session:
            message = (
                f"this store holds session {_quote(self._session)}, not {_quote(session)}; use one store per session"
            )
            raise ParseError(Problem("session_mismatch", "/sessionId", message))
        self._session = session

    def _keep(self, warnings: tuple[Problem, ...] = (), dropped: int = 0) -> tuple[Problem, ...]:
        """The warnings the decoder kept (within ``max_warnings``); counts the ones it dropped."""
        self.counters.warnings_dropped += dropped
        return warnings

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
                return self._keep()
        parsed = parse_session_update(text, max_warnings=self.limits.max_warnings)
        self.apply(parsed.value)
        return self._keep(parsed.warnings, parsed.warnings_dropped)

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
                return self._keep()
        parsed = parse_update_session_notification(text, max_warnings=self.limits.max_warnings)
        self.apply_notification(parsed.value)
        return self._keep(parsed.warnings, parsed.warnings_dropped)

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
