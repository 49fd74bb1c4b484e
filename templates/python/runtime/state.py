"""The session-state reducer: the one Python interpreter of a schema's ``x-state`` table.

The generator writes the annotations as a table (``registry.STATE_RULES``); this applies
it with the same rules as the Rust and TypeScript runtimes'. Each message is first decoded
by the package's own types, so what is applied is the canonical value. ``upsert`` merges
(omitted unchanged, ``None`` stored as ``None``, a value replaces; a top-level ``_meta``
patched key by key), ``append`` adds items, text or decoded bytes, ``replace`` sets,
``remove`` drops. An action whose id or value member the message lacks does nothing.

What an Agent can make the state hold is bounded (``StateLimits``): past a limit the oldest
go first (the first-seen target of its kind, the first items, bytes or code points of an
appended member), counted in ``StateCounters``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from .base64 import Base64Error, decode_base64, encode_base64
from .errors import Parsed, ParseError, Problem, pointer
from .json import Json, JsonObject, parse_json
from .limits import (
    DEFAULT_MAX_STATE_BYTES,
    DEFAULT_MAX_STATE_ITEMS,
    DEFAULT_MAX_STATE_MEMBERS,
    DEFAULT_MAX_STATE_TARGETS,
    DEFAULT_MAX_STATE_TEXT,
    check_limits,
)

__all__ = ["Codec", "SessionState", "StateCounters", "StateLimits"]


@dataclass(frozen=True)
class StateLimits:
    """What a session state keeps at most; the same in the three languages. The defaults
    (``templates/rules/limits.txt``) are safe for an interactive Client."""

    max_targets: int = DEFAULT_MAX_STATE_TARGETS
    """Targets of one kind (of one owner) kept by id: a new one past it drops the first seen."""
    max_items: int = DEFAULT_MAX_STATE_ITEMS
    """Items an appended array member keeps: past it the first go."""
    max_bytes: int = DEFAULT_MAX_STATE_BYTES
    """Decoded bytes an appended bytes member keeps: past it the first go."""
    max_text: int = DEFAULT_MAX_STATE_TEXT
    """Code points an appended text member keeps: past it the first go."""
    max_members: int = DEFAULT_MAX_STATE_MEMBERS
    """Members an upsert lets a target have beyond those its definitions name (which are always
    kept), and keys its top-level ``_meta``: a member (or key) new to the target past it is not
    kept (counted); one it has is still replaced or cleared."""

    def __post_init__(self) -> None:
        check_limits(self)

    @classmethod
    def from_json(cls, v: Json) -> StateLimits:
        """The limits a JSON object gives (``{"maxTargets": 100, "maxBytes": 0}``, as a
        ``state`` fixture or a Client's settings write them); a limit it leaves out is the
        default. Raises ``ParseError`` for a value that is not an object (``wrong_type``), a
        member that is no limit (``forbidden_member``), or a limit that is not a whole number
        from 0 to 2^53 - 1 (``wrong_type``, ``out_of_range``), at its pointer."""
        if not isinstance(v, dict):
            raise ParseError(
                Problem(
                    "wrong_type", "", "limits are an object of maxTargets, maxItems, maxBytes, maxText and maxMembers"
                )
            )
        names = {
            "maxTargets": "max_targets",
            "maxItems": "max_items",
            "maxBytes": "max_bytes",
            "maxText": "max_text",
            "maxMembers": "max_members",
        }
        given: dict[str, int] = {}
        for name, n in v.items():
            at = pointer((name,))
            if name not in names:
                raise ParseError(
                    Problem(
                        "forbidden_member", at, "the limits are maxTargets, maxItems, maxBytes, maxText and maxMembers"
                    )
                )
            if isinstance(n, float) and n.is_integer():
                n = int(n)
            if type(n) is not int:
                raise ParseError(Problem("wrong_type", at, "a limit is a whole number"))
            # The same range in the three languages: what a JSON number holds exactly.
            if not 0 <= n <= _MAX_SAFE_INTEGER:
                raise ParseError(
                    Problem("out_of_range", at, "a limit is a whole number from 0 to 9007199254740991 (2^53 - 1)")
                )
            given[names[name]] = n
        return cls(**given)


@dataclass
class StateCounters:
    """What a session state dropped because a ``StateLimits`` limit was hit."""

    targets_dropped: int = 0
    items_dropped: int = 0
    bytes_dropped: int = 0
    text_dropped: int = 0
    """In code points."""
    members_dropped: int = 0
    """Members and ``_meta`` keys an upsert did not keep (``StateLimits.max_members``)."""

    def to_json(self) -> JsonObject:
        """The counters as JSON, as ``state`` fixtures compare them."""
        return {
            "targetsDropped": self.targets_dropped,
            "itemsDropped": self.items_dropped,
            "bytesDropped": self.bytes_dropped,
            "textDropped": self.text_dropped,
            "membersDropped": self.members_dropped,
        }


Codec = tuple[Callable[[Any], Parsed[Any]], Callable[[Any], str]]


@dataclass(frozen=True, slots=True)
class _Rule:
    owner: str
    message: str
    tag: tuple[str, str] | None
    action: str
    target: str
    keyed: bool
    id: tuple[str, ...] | None
    field: tuple[str, ...] | None
    value: tuple[str, ...] | None
    appends: str | None
    known: frozenset[str]
    """The members the target's definitions name: always kept, where ``max_members`` bounds the others."""
    when: tuple[tuple[tuple[str, ...], frozenset[str]], ...] = ()
    """Tag members the message must have one of the given tags at (a value taken from a
    variant the package does not know changes nothing)."""


_MISSING = object()


class _Text:
    """The text of one appended text member, kept in parts: ``parts[head]`` from code point
    ``off``, then the parts after it, ``points`` code points in all. A part is merged into the
    one before it once it is at least half as long, so there are few parts and each code point
    is copied a logarithmic number of times; the first code points past the limit are dropped by
    moving ``head`` and ``off``. So an append costs its chunk (amortised), not the limit, where
    ``text + chunk`` copied the whole text on every append."""

    __slots__ = ("head", "off", "parts", "points")

    def __init__(self, first: str) -> None:
        self.parts = [first] if first else []
        self.head = 0
        self.off = 0
        self.points = len(first)

    def push(self, chunk: str, limit: int) -> tuple[int, int]:
        """Appends ``chunk`` and keeps the last ``limit`` code points: how many it dropped, and
        the code points it copied (the chunk, and each merge)."""
        parts = self.parts
        copied = len(chunk)
        if chunk:
            parts.append(chunk)
            self.points += len(chunk)
            while len(parts) - self.head >= 2 and 2 * len(parts[-1]) >= len(parts[-2]):
                last = parts.pop()
                parts[-1] += last
                copied += len(parts[-1])
        cut = self.points - limit
        dropped = max(cut, 0)
        while cut > 0:
            rest = len(parts[self.head]) - self.off
            if rest <= cut:
                cut -= rest
                self.head += 1
                self.off = 0
            else:
                self.off += cut
                cut = 0
        self.points -= dropped
        if self.head > 16 and 2 * self.head > len(parts):
            copied += len(parts) - self.head
            del parts[: self.head]
            self.head = 0
        return dropped, copied

    def text(self) -> str:
        parts = self.parts
        if self.head >= len(parts):
            return ""
        return parts[self.head][self.off :] + "".join(parts[self.head + 1 :])


_MAX_SAFE_INTEGER = 2**53 - 1


def _get(v: object, path: tuple[str, ...]) -> object:
    for name in path:
        if not isinstance(v, dict) or name not in v:
            return _MISSING
        v = v[name]
    return v


def _slot(parent: dict[str, Json], path: tuple[str, ...]) -> tuple[dict[str, Json], str]:
    """The object holding the member at ``path`` (objects made on the way), and its name."""
    for name in path[:-1]:
        nxt = parent.get(name)
        if not isinstance(nxt, dict):
            nxt = {}
            parent[name] = nxt
        parent = nxt
    if path[-1] not in parent:
        parent[path[-1]] = None
    return parent, path[-1]


def _merge(into: dict[str, Json], value: JsonObject, skip: str | None, cap: int, known: frozenset[str]) -> int:
    """Merges an upsert's ``value`` into ``into``. A member of ``known`` is always kept; of the
    others, and of the keys of ``_meta``, at most ``cap`` (a new one past it is not kept).
    Returns how many it did not keep."""
    dropped = 0
    # The members kept that the definitions do not name, counted when first needed.
    others = -1
    for name, v in value.items():
        if name == skip:
            continue
        if name not in into and name not in known:
            if others < 0:
                others = sum(1 for k in into if k not in known)
            if others >= cap:
                dropped += 1
                continue
            others += 1
        old = into.get(name)
        if name == "_meta" and isinstance(v, dict):
            # In place (the stored ``_meta`` is always a dict of its own, made here), so that
            # a patch costs its own size, not the size of what is kept.
            meta = old if isinstance(old, dict) else {}
            for k, x in v.items():
                if x is None:
                    meta.pop(k, None)
                elif len(meta) < cap or k in meta:
                    meta[k] = x
                else:
                    dropped += 1
            into[name] = meta
        else:
            into[name] = v
    return dropped


def _same(a: object, b: object) -> bool:
    """Whether two values are the same JSON value, member order aside: unlike ``==``, ``true``
    is not ``1`` (numbers compare by value, as in Rust and TypeScript: ``1`` is ``1.0``)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(x, b[k]) for k, x in a.items())
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def _resolve(r: _Rule, message: Json) -> tuple[str | None, Any, str | None] | None:
    """What rule ``r`` takes from ``message``: the id (``None`` for a singleton), the value
    and the tag member to leave out; ``None`` when its guards or paths do not hold."""
    for path, tags in r.when:
        got = _get(message, path)
        if not isinstance(got, str) or got not in tags:
            return None
    ident: str | None = None
    if r.id is not None:
        got = _get(message, r.id)
        if not isinstance(got, str):
            return None
        ident = got
    value: Any = message
    if r.value is not None:
        value = _get(message, r.value)
        if value is _MISSING:
            return None
    return ident, value, r.tag[0] if r.value is None and r.tag is not None else None


class SessionState:
    """The state of one session, as the schema's ``x-state`` annotations define it."""

    def __init__(self, rules: str, codecs: Mapping[str, Codec], limits: StateLimits | None = None) -> None:
        """An empty state with the table ``rules`` (``registry.STATE_RULES[version]``),
        decoding each message with ``codecs`` (``registry.CODECS[version]``), keeping at
        most ``limits``."""
        self._codecs = codecs
        self.limits = limits or StateLimits()
        self.counters = StateCounters()
        """What the limits dropped so far."""
        self.work = 0
        """What appends to bytes and text members have copied so far: each decoded chunk (dropping
        the first bytes past ``max_bytes`` moves nothing: a ``bytearray`` deleted from the front
        only moves its start, as the Rust and TypeScript runtimes do by hand), each text chunk and
        what merging the parts of a text copied. The work counter tests read."""
        self._rules: list[_Rule] = []
        table = json.loads(rules)
        # The definition each target of the ``session`` owner is (``type_of``).
        session_targets = table.get("session", {}).get("targets", [])
        self._types: dict[str, str] = {t["name"]: t["type"] for t in session_targets if "type" in t}
        self._keyed = {t["name"] for t in session_targets if t["keyed"]}
        for owner, o in table.items():
            keyed = {t["name"] for t in o["targets"] if t["keyed"]}
            known = {t["name"]: frozenset(t.get("members", ())) for t in o["targets"]}
            for r in o["rules"]:
                tag = (
                    (r["tagMember"], r["tag"]) if r.get("tag") is not None and r.get("tagMember") is not None else None
                )
                id_, field, value = (tuple(r[k]) if r.get(k) is not None else None for k in ("id", "field", "value"))
                message = r.get("union") or r["message"]
                keyed_ = r["target"] in keyed
                when = tuple((tuple(g["path"]), frozenset(g["in"])) for g in r.get("when", ()))
                self._rules.append(
                    _Rule(
                        owner,
                        message,
                        tag,
                        r["action"],
                        r["target"],
                        keyed_,
                        id_,
                        field,
                        value,
                        r.get("appends"),
                        known.get(r["target"], frozenset()),
                        when,
                    )
                )
        # Every owner is there from the start, empty (``{"session": {}}``).
        self._state: dict[str, Json] = {owner: {} for owner in table}
        # What appends added to appended members (decoded bytes, text, items), by target (owner,
        # target, id) and member path (the state holds "" or [] there).
        self._held: dict[tuple[str, str, str | None], dict[tuple[str, ...], bytearray | _Text | deque[Json]]] = {}

    def restore(self, snapshot: Json) -> None:
        """Replaces the whole state with ``snapshot`` (what ``snapshot()`` gave, kept
        elsewhere). The limits apply to what comes after, not to the snapshot. Raises
        ``ParseError`` (the state unchanged) when it is not an object of owners, a bytes
        member holds anything but strict base64 or ``null``, or a target does not decode as
        its definition (``type_of``) without a warning: the problem's kind and pointer."""
        if not isinstance(snapshot, dict):
            raise ParseError(Problem("wrong_type", "", "a session-state snapshot is an object of owners"))
        for owner, targets in snapshot.items():
            if not isinstance(targets, dict):
                raise ParseError(Problem("wrong_type", pointer([owner]), "each owner of a snapshot is an object"))
        for r in self._rules:
            if r.appends != "bytes":
                continue
            held = snapshot.get(r.owner)
            at = held.get(r.target) if isinstance(held, dict) else None
            keyed = at.items() if r.keyed and isinstance(at, dict) else ()
            for ident, entity in keyed if r.keyed else ((None, at),):
                v = _get(entity, r.field or ())
                where = [r.owner, r.target, *([] if ident is None else [ident]), *(r.field or ())]
                if isinstance(v, str):
                    try:
                        decode_base64(v)
                    except Base64Error as e:
                        raise ParseError(Problem("invalid_base64", pointer(where), str(e))) from None
                elif v is not _MISSING and v is not None:
                    raise ParseError(Problem("wrong_type", pointer(where), "a bytes member is base64 text"))
        # Each target of a definition must be one the package would have made: it decodes
        # as its definition without an error or a warning.
        session = snapshot.get("session")
        for target, name in self._types.items():
            got: object = session.get(target, _MISSING) if isinstance(session, dict) else _MISSING
            if got is _MISSING:
                continue
            for ident, kept in got.items() if target in self._keyed and isinstance(got, dict) else ((None, got),):
                base = pointer(["session", target, *([] if ident is None else [ident])])
                try:
                    parsed = self._codecs[name][0](kept)
                except ParseError as e:
                    raise ParseError(Problem(e.kind, base + e.path, e.message)) from None
                if parsed.warnings:
                    w = parsed.warnings[0]
                    raise ParseError(Problem(w.kind, base + w.path, f"not what the package keeps: {w.message}"))
        self._state = json.loads(json.dumps(snapshot))
        self._held.clear()

    def apply(self, name: str, text: str) -> tuple[Problem, ...]:
        """Decodes ``text`` as the definition ``name`` and applies what its annotations say;
        the warnings. Raises ``ParseError`` (the state unchanged) when it does not decode;
        a definition the package does not have is an ``unknown_variant`` error at the root."""
        codec = self._codecs.get(name)
        if codec is None:
            raise ParseError(Problem("unknown_variant", "", f"the package has no definition `{name}`"))
        parse, serialize = codec
        parsed = parse(text)
        message = parse_json(serialize(parsed.value))
        for r in self._rules_of(name, message):
            self._act(r, message)
        return parsed.warnings

    def _rules_of(self, name: str, message: Json) -> list[_Rule]:
        """The rules of a message of definition ``name`` (its union's tag read from ``message``)."""
        return [
            r
            for r in self._rules
            if r.message == name
            and (r.tag is None or (isinstance(message, dict) and message.get(r.tag[0]) == r.tag[1]))
        ]

    def upsert_into(self, name: str, message: Json, target: str, kept: dict[str, Json], max_members: int) -> int:
        """Applies the upserts that ``message`` (of definition ``name``, already decoded by
        the package: its canonical JSON) makes to a target of kind ``target``, to ``kept``:
        one such target kept by the caller instead of this state. The terminal store keeps
        its terminals so, beside their bytes: an upsert changes ``kept`` exactly as it
        changes a target of this state (omitted unchanged, ``null`` kept as ``None``, a
        value replacing, ``_meta`` key by key, at most ``max_members`` members and ``_meta``
        keys as ``StateLimits.max_members`` says). Appends are not applied: the caller keeps
        what is appended. Returns how many members and keys it did not keep."""
        dropped = 0
        for r in self._rules_of(name, message):
            if r.target != target or r.action != "upsert":
                continue
            got = _resolve(r, message)
            if got is None or not isinstance(got[1], dict):
                continue
            _, value, skip = got
            dropped += _merge(kept, value, skip, max_members, r.known)
        return dropped

    def _act(self, r: _Rule, message: Json) -> None:
        got = _resolve(r, message)
        if got is None:
            return
        ident, value, skip = got
        owner = self._state.setdefault(r.owner, {})
        assert isinstance(owner, dict)
        if r.action == "remove":
            by_id = owner.get(r.target)
            if isinstance(by_id, dict) and ident is not None:
                by_id.pop(ident, None)
            self._drop_held(r, ident, ())
            return
        if r.keyed:
            holder = owner.get(r.target)
            if not isinstance(holder, dict):
                holder = {}
                owner[r.target] = holder
            key = ident or ""
        else:
            holder, key = owner, r.target
        fresh = r.keyed and key not in holder
        if key not in holder:
            holder[key] = None
        self._change(r, ident, value, skip, holder, key)
        # Past the limit, the first-seen targets of this kind go (after the action, so that
        # with a limit of 0 the new one goes too).
        cut = len(holder) - self.limits.max_targets if fresh else 0
        if cut > 0:
            # In one pass: a restored snapshot past the limit may drop many at once.
            for first in list(islice(holder, cut)):
                del holder[first]
                self._drop_held(r, first, ())
            self.counters.targets_dropped += cut

    def _change(
        self, r: _Rule, ident: str | None, value: Any, skip: str | None, holder: dict[str, Json], key: str
    ) -> None:
        if r.action == "upsert":
            if isinstance(value, dict):
                entity = holder[key]
                if not isinstance(entity, dict):
                    entity = {}
                    holder[key] = entity
                self.counters.members_dropped += _merge(entity, value, skip, self.limits.max_members, r.known)
                for name in value:
                    self._drop_held(r, ident, (name,))
        elif r.action == "replace":
            v = {k: x for k, x in value.items() if k != skip} if isinstance(value, dict) and skip is not None else value
            if r.field is not None:
                entity = holder[key]
                if not isinstance(entity, dict):
                    entity = {}
                    holder[key] = entity
                parent, name = _slot(entity, r.field)
                parent[name] = v
            else:
                holder[key] = v
            self._drop_held(r, ident, r.field or ())
        elif r.action == "append":
            field = r.field or ()
            entity = holder[key]
            if not isinstance(entity, dict):
                entity = {}
                if r.keyed and r.id is not None and ident is not None:
                    entity[r.id[-1]] = ident
                holder[key] = entity
            parent, name = _slot(entity, field)
            at = parent[name]
            if r.appends == "bytes":
                chunk = decode_base64(value) if isinstance(value, str) else b""
                members = self._held.setdefault((r.owner, r.target, ident), {})
                held = members.get(field)
                if not isinstance(held, bytearray):
                    held = bytearray(decode_base64(at) if isinstance(at, str) else b"")
                    members[field] = held
                held += chunk
                self.work += len(chunk)
                cut = len(held) - self.limits.max_bytes
                if cut > 0:
                    del held[:cut]
                    self.counters.bytes_dropped += cut
                parent[name] = ""
            elif r.appends == "text":
                members = self._held.setdefault((r.owner, r.target, ident), {})
                text = members.get(field)
                if not isinstance(text, _Text):
                    text = _Text(at if isinstance(at, str) else "")
                    members[field] = text
                dropped, copied = text.push(value if isinstance(value, str) else "", self.limits.max_text)
                self.counters.text_dropped += dropped
                self.work += copied
                parent[name] = ""
            else:
                # Beside the state too: the first items past the limit leave the front of a deque.
                members = self._held.setdefault((r.owner, r.target, ident), {})
                items = members.get(field)
                excess = 0
                if not isinstance(items, deque):
                    first = at if isinstance(at, list) else []
                    excess = max(0, len(first) - self.limits.max_items)
                    items = deque(first, maxlen=self.limits.max_items)
                    members[field] = items
                more = value if r.appends == "items" and isinstance(value, list) else [value]
                self.counters.items_dropped += excess + max(0, len(items) + len(more) - self.limits.max_items)
                items.extend(more)
                self.work += len(more)
                parent[name] = []

    def _drop_held(self, r: _Rule, ident: str | None, prefix: tuple[str, ...]) -> None:
        members = self._held.get((r.owner, r.target, ident))
        if members is None:
            return
        for path in [p for p in members if p[: len(prefix)] == prefix]:
            del members[path]
        if not members:
            del self._held[(r.owner, r.target, ident)]

    def _with_held(self, key: tuple[str, str, str | None], entity: Json) -> Json:
        """A copy of the target ``key``, ``entity``, with what its appended members hold written in
        (bytes as base64)."""
        entity = json.loads(json.dumps(entity))
        for path, held in self._held.get(key, {}).items():
            if not isinstance(entity, dict):
                entity = {}
            parent, name = _slot(entity, path)
            if isinstance(held, _Text):
                parent[name] = held.text()
            elif isinstance(held, deque):
                parent[name] = json.loads(json.dumps(list(held)))
            else:
                parent[name] = encode_base64(bytes(held))
        return entity

    def get(self, target: str, ident: str | None = None) -> Json | None:
        """One target of the ``session`` state as JSON, bytes members as base64: the
        singleton ``target`` (no ``ident``), or the one of id ``ident``; ``None`` when the
        state has none."""
        session = self._state.get("session")
        at = session.get(target) if isinstance(session, dict) else None
        if ident is not None:
            at = at.get(ident) if isinstance(at, dict) else None
        return None if at is None else self._with_held(("session", target, ident), at)

    def has(self, target: str, ident: str | None = None) -> bool:
        """Whether the ``session`` state has the singleton ``target`` (no ``ident``), or the
        one of id ``ident``: unlike ``get``, ``True`` for one held as ``null``."""
        session = self._state.get("session")
        at = session.get(target, _MISSING) if isinstance(session, dict) else _MISSING
        if ident is not None:
            at = at.get(ident, _MISSING) if isinstance(at, dict) else _MISSING
        return at is not _MISSING

    def type_of(self, target: str) -> str | None:
        """The definition a target of the ``session`` state is: the one its upserts and
        replaces merge (``ToolCallUpdate`` for ``toolCall``), ``None`` for one without (a
        list replaced whole)."""
        return self._types.get(target)

    def typed(self, target: str, ident: str | None = None) -> Parsed[Any] | None:
        """One target (as ``get``) decoded as its definition (``type_of``): the package's
        own model of it, unknown members kept; ``None`` when the state has none or the
        target has no definition. Raises ``ParseError`` when what the state holds does not
        decode (a ``restore``d snapshot that was never the package's)."""
        name = self._types.get(target)
        if name is None or not self._has(target, ident):
            return None
        return self._codecs[name][0](self.get(target, ident))

    def _has(self, target: str, ident: str | None) -> bool:
        """Whether the ``session`` state holds the target (``null`` included)."""
        at = _get(self._state, ("session", target))
        return at is not _MISSING and (ident is None or (isinstance(at, dict) and ident in at))

    def check_invariants(self) -> None:
        """Checks that the state is typed (for the fuzzers and tests): every target of the
        ``session`` state that has a definition decodes as it and writes back as the same
        value. Raises ``AssertionError`` with the first that does not."""
        session = self._state.get("session")
        for target, name in self._types.items():
            at = session.get(target, _MISSING) if isinstance(session, dict) else _MISSING
            if at is _MISSING:
                continue
            for ident in list(at) if target in self._keyed and isinstance(at, dict) else [None]:
                where = target if ident is None else f"{target} {ident!r}"
                try:
                    got = self.typed(target, ident)
                except ParseError as e:
                    raise AssertionError(f"{where} does not decode as {name}: {e}") from None
                if got is not None and not _same(parse_json(self._codecs[name][1](got.value)), self.get(target, ident)):
                    raise AssertionError(f"{where} does not write back as itself through {name}")

    def snapshot(self) -> JsonObject:
        """The whole state as JSON: ``{owner: {target: value}}``, a keyed target as an
        object of its ids in first-seen order, bytes members as base64."""
        out: JsonObject = json.loads(json.dumps(self._state))
        for key in self._held:
            owner, target, ident = key
            parent, name = _slot(out, (owner, target) if ident is None else (owner, target, ident))
            parent[name] = self._with_held(key, parent[name])
        return out
