"""Writes eviction.json (kind `replay`, docs/CONFORMANCE.md): the store's eviction policy.

Run from the repository root: python3 tests/vectors/replay/make_eviction.py

The expectations come from the small model below, written from the policy as docs/WIRE.md
("The store's limits") and the README's limits table state it, not from any binding:

- past `maxTerminals`, a new terminal first evicts the least recently updated terminal that
  has exited; only when every held terminal is live, the least recently updated live one.
  An eviction removes the terminal whole (its state, its bytes, every tool call's reference
  to it), counts it (`terminalsEvicted`) and reports it (an `evicted` event);
- an update for an evicted id starts a fresh terminal (`restarted` in its view, a
  `restarted` event; the store remembers the last `maxTerminals`, at least 64, evicted
  ids); "updated" means a `terminal_update` or `terminal_output_chunk` naming
  it (creating it by a reference counts as its first update, later references do not);
- past `maxTotalBytes` (all terminals' retained bytes), the oldest bytes of the least
  recently updated exited terminal that retains bytes go first, then those of live ones in
  the same order, counted in `bytesEvicted` and in each terminal's `droppedBytes`; a
  transcript not built yet starts at the first byte kept (replay runners read transcripts
  only at the end).

Outputs are printable ASCII and LF only, so the transcript is the rendered bytes as text.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def b64(data: str) -> str:
    return base64.b64encode(data.encode()).decode()


class Model:
    def __init__(self, max_terminals: int = 1024, max_total: int = 256 << 20) -> None:
        self.max_terminals = max_terminals
        self.max_total = max_total
        self.held: dict[str, dict] = {}  # insertion order = creation order
        self.clock = 0
        self.evicted: list[str] = []  # remembered evicted ids, oldest first
        self.events: list[dict] = []
        self.counters = {"terminalsRefused": 0, "warningsDropped": 0, "terminalsEvicted": 0, "bytesEvicted": 0}
        self.links: dict[str, set[str]] = {}

    def touch(self, t: dict) -> None:
        self.clock += 1
        t["touched"] = self.clock

    def entry(self, tid: str) -> dict:
        if tid in self.held:
            return self.held[tid]
        restarted = tid in self.evicted
        if restarted:
            self.evicted.remove(tid)
        while len(self.held) >= self.max_terminals:
            exited = [t for t in self.held.values() if t["exit"] is not None]
            pool = exited or list(self.held.values())
            victim = min(pool, key=lambda t: t["touched"])
            del self.held[victim["id"]]
            for call in victim["calls"]:
                self.links[call].discard(victim["id"])
            self.counters["terminalsEvicted"] += 1
            if victim["id"] in self.evicted:
                self.evicted.remove(victim["id"])
            self.evicted.append(victim["id"])
            self.evicted = self.evicted[-max(self.max_terminals, 64) :]
            self.events.append({"kind": "evicted", "terminalId": victim["id"], "exited": victim["exit"] is not None})
        t = {
            "id": tid,
            "command": None,
            "output": "",
            "rendered": "",
            "dropped": 0,
            "exit": None,
            "calls": set(),
            "restarted": False,
        }
        self.touch(t)
        if restarted:
            t["restarted"] = True
            self.events.append({"kind": "restarted", "terminalId": tid})
        self.held[tid] = t
        return t

    def enforce_total(self) -> None:
        while sum(len(t["output"]) for t in self.held.values()) > self.max_total:
            total = sum(len(t["output"]) for t in self.held.values())
            with_bytes = [t for t in self.held.values() if t["output"]]
            exited = [t for t in with_bytes if t["exit"] is not None]
            victim = min(exited or with_bytes, key=lambda t: t["touched"])
            n = min(len(victim["output"]), total - self.max_total)
            victim["output"] = victim["output"][n:]
            victim["dropped"] += n
            # The transcript (not built before the end) starts at the first byte kept.
            victim["rendered"] = victim["output"]
            self.counters["bytesEvicted"] += n

    def update(self, u: dict) -> None:
        kind = u["sessionUpdate"]
        if kind in ("terminal_update", "terminal_output_chunk"):
            t = self.entry(u["terminalId"])
            self.touch(t)
            if kind == "terminal_output_chunk":
                data = base64.b64decode(u["data"]).decode()
                t["output"] += data
                t["rendered"] += data
            else:
                if "command" in u:
                    t["command"] = u["command"]
                if "exitStatus" in u:
                    t["exit"] = u["exitStatus"]
                if "output" in u:
                    data = "" if u["output"] is None else base64.b64decode(u["output"]["data"]).decode()
                    t["output"] = t["rendered"] = data
                    t["dropped"] = 0
            self.enforce_total()
        elif kind == "tool_call_update":
            call = u["toolCallId"]
            for tid in self.links.pop(call, set()):
                if tid in self.held:
                    self.held[tid]["calls"].discard(call)
            for c in u.get("content") or []:
                if c.get("type") == "terminal":
                    self.link(call, c["terminalId"])
        elif kind == "tool_call_content_chunk":
            c = u["content"]
            if c.get("type") == "terminal":
                self.link(u["toolCallId"], c["terminalId"])

    def link(self, call: str, tid: str) -> None:
        t = self.entry(tid)
        t["calls"].add(call)
        self.links.setdefault(call, set()).add(tid)

    def view(self) -> dict:
        out = {}
        for tid, t in self.held.items():
            e = t["exit"]
            v = {
                "command": t["command"],
                "cwd": None,
                "output": b64(t["output"]),
                "exitStatus": None if e is None else {"exitCode": e.get("exitCode"), "signal": e.get("signal")},
                "transcript": t["rendered"],
                "toolCallIds": sorted(t["calls"]),
            }
            if t["dropped"]:
                v["droppedBytes"] = t["dropped"]
            if t["restarted"]:
                v["restarted"] = True
            out[tid] = v
        return out

    def expect(self) -> dict:
        out: dict = {"terminals": self.view()}
        if any(self.counters.values()):
            c = {"terminalsRefused": self.counters["terminalsRefused"], "warningsDropped": self.counters["warningsDropped"]}
            c.update({k: self.counters[k] for k in ("terminalsEvicted", "bytesEvicted") if self.counters[k]})
            out["counters"] = c
        if self.events:
            out["events"] = self.events
        return out


def tu(tid: str, **members: object) -> dict:
    return {"sessionUpdate": "terminal_update", "terminalId": tid, **members}


def chunk(tid: str, text: str) -> dict:
    return {"sessionUpdate": "terminal_output_chunk", "terminalId": tid, "data": b64(text)}


def ref(call: str, *tids: str) -> dict:
    return {
        "sessionUpdate": "tool_call_update",
        "toolCallId": call,
        "content": [{"type": "terminal", "terminalId": t} for t in tids],
    }


def ref_chunk(call: str, tid: str) -> dict:
    return {"sessionUpdate": "tool_call_content_chunk", "toolCallId": call, "content": {"type": "terminal", "terminalId": tid}}


EXIT0 = {"exitCode": 0, "signal": None}


def case(name: str, updates: list[dict], **limits: int) -> dict:
    m = Model(limits.get("maxTerminals", 1024), limits.get("maxTotalBytes", 256 << 20))
    for u in updates:
        m.update(u)
    c: dict = {"name": name, "kind": "replay"}
    if limits:
        c["limits"] = limits
    c["updates"] = updates
    c["expect"] = m.expect()
    return c


def long_session() -> dict:
    """2,000 commands in one session, each exited, then a 2,001st whose output is kept in full."""
    updates = [
        tu(f"cmd_{i:04}", command=f"echo {i}", output={"data": b64(f"{i}\n")}, exitStatus=EXIT0) for i in range(2000)
    ]
    updates += [
        tu("cmd_2000", command="make"),
        chunk("cmd_2000", "compiling 1 of 3\n"),
        chunk("cmd_2000", "compiling 2 of 3\n"),
        chunk("cmd_2000", "compiling 3 of 3\n"),
    ]
    return case("2,000 commands, each exited, then a 2,001st: its output is kept in full (default limits)", updates)


CASES = [
    case(
        "past maxTerminals the least recently updated exited terminal is evicted",
        [tu("t1", command="a", exitStatus=EXIT0), tu("t2", command="b", exitStatus=EXIT0), chunk("t3", "x\n")],
        maxTerminals=2,
    ),
    case(
        "an exited terminal goes before a live one, even one updated less recently",
        [chunk("t1", "live\n"), tu("t2", command="b", exitStatus=EXIT0), chunk("t3", "x\n")],
        maxTerminals=2,
    ),
    case(
        "when every terminal is live, the least recently updated live one goes",
        [chunk("t1", "a"), chunk("t2", "b"), chunk("t1", "c"), chunk("t3", "d")],
        maxTerminals=2,
    ),
    case(
        "an update of an exited terminal makes it the most recently updated",
        [
            tu("t1", command="a", exitStatus=EXIT0),
            tu("t2", command="b", exitStatus=EXIT0),
            chunk("t1", "late\n"),
            chunk("t3", "x"),
        ],
        maxTerminals=2,
    ),
    case(
        "clearing the exit status makes a terminal live again",
        [tu("t1", exitStatus=EXIT0), tu("t2", exitStatus=EXIT0), tu("t1", exitStatus=None), chunk("t3", "x")],
        maxTerminals=2,
    ),
    case(
        "an update for an evicted id starts a fresh terminal and says so",
        [tu("t1", command="a"), chunk("t1", "old\n"), chunk("t2", "x"), chunk("t1", "new\n")],
        maxTerminals=1,
    ),
    case(
        "an evicted terminal's references go with it",
        [ref("call_1", "t1", "t2"), ref_chunk("call_2", "t1"), chunk("t3", "x"), ref("call_1", "t2", "t3")],
        maxTerminals=2,
    ),
    case(
        "a reference that creates a terminal past the limit evicts one too",
        [chunk("t1", "x"), ref_chunk("call_1", "t2")],
        maxTerminals=1,
    ),
    case(
        "references in one update: each new terminal evicts the least recently updated",
        [ref("call_1", "t1", "t2", "t3")],
        maxTerminals=2,
    ),
    case(
        "a later reference does not count as an update",
        [chunk("t1", "a"), chunk("t2", "b"), ref_chunk("call_1", "t1"), chunk("t3", "c")],
        maxTerminals=2,
    ),
    case(
        "an id evicted twice restarts each time",
        [chunk("t1", "a"), chunk("t2", "b"), chunk("t1", "c"), chunk("t2", "d")],
        maxTerminals=1,
    ),
    case(
        "an id evicted again and again is remembered once: 80 evictions of two ids, then the first returns",
        [chunk("t3", "a")] + [chunk(t, "b") for _ in range(40) for t in ("t0", "t1")] + [chunk("t3", "c")],
        maxTerminals=1,
    ),
    case(
        "past maxTotalBytes the oldest bytes of the least recently updated exited terminal go first",
        [chunk("t1", "abcd"), tu("t1", exitStatus=EXIT0), chunk("t2", "efgh")],
        maxTotalBytes=6,
    ),
    case(
        "then the oldest bytes of live terminals, least recently updated first",
        [chunk("t1", "abc"), chunk("t2", "def")],
        maxTotalBytes=4,
    ),
    case(
        "exited terminals go first even when a live one is older",
        [chunk("t1", "abc"), chunk("t2", "de"), tu("t2", exitStatus=EXIT0), chunk("t3", "fg")],
        maxTotalBytes=5,
    ),
    case(
        "a terminal alone past maxTotalBytes keeps its most recent bytes",
        [chunk("t1", "abcdef")],
        maxTotalBytes=3,
    ),
    case(
        "several exited terminals are emptied in order, and keep their state",
        [
            tu("t1", command="a", output={"data": b64("ab")}, exitStatus=EXIT0),
            tu("t2", command="b", output={"data": b64("cd")}, exitStatus=EXIT0),
            chunk("t3", "efg"),
        ],
        maxTotalBytes=3,
    ),
    case(
        "a snapshot retains bytes under maxTotalBytes too",
        [chunk("t1", "abcd"), tu("t1", exitStatus=EXIT0), tu("t2", output={"data": b64("efghij")})],
        maxTotalBytes=8,
    ),
    case(
        "maxTotalBytes 0 keeps no byte at all",
        [chunk("t1", "ab"), tu("t1", exitStatus=EXIT0), chunk("t2", "c")],
        maxTotalBytes=0,
    ),
    case(
        "both limits together: evicted terminals free their bytes",
        [
            tu("t1", output={"data": b64("aaaa")}, exitStatus=EXIT0),
            tu("t2", output={"data": b64("bbbb")}, exitStatus=EXIT0),
            chunk("t3", "cccc"),
            chunk("t4", "dd"),
        ],
        maxTerminals=3,
        maxTotalBytes=10,
    ),
    long_session(),
]

# The cases of limits.json that once showed a terminal refused past maxTerminals, with the
# eviction that replaced the refusal (issue 22).
LIMITS_CASES = {
    "maxTerminals refuses an update that would create one more terminal and counts it": case(
        "maxTerminals evicts the least recently updated terminal to make room for a new one, and counts it",
        [tu("term_001", command="a"), chunk("term_002", "x"), tu("term_003", command="c"), chunk("term_001", "y")],
        maxTerminals=1,
    ),
    "references past the terminal limit link nothing and are counted": case(
        "references past the terminal limit evict the least recently updated terminal",
        [
            ref("call_001", "term_001", "term_002", "term_001"),
            ref_chunk("call_002", "term_003"),
            ref_chunk("call_002", "term_001"),
        ],
        maxTerminals=1,
    ),
}


def main() -> None:
    doc = {
        "description": (
            "The store's eviction policy (issue 22): past maxTerminals the least recently updated exited "
            "terminal is evicted (a live one only when all are live), whole, counted (terminalsEvicted) and "
            "reported (an evicted event); an update for an evicted id starts fresh (restarted); past "
            "maxTotalBytes the oldest bytes of the least recently updated exited terminals go first "
            "(bytesEvicted, droppedBytes). Expectations from make_eviction.py's model of docs/WIRE.md."
        ),
        "cases": CASES,
    }
    lines = ",\n".join("    " + json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in CASES)
    text = '{\n  "description": ' + json.dumps(doc["description"]) + ',\n  "cases": [\n' + lines + "\n  ]\n}\n"
    (HERE / "eviction.json").write_text(text, encoding="utf-8")
    limits_path = HERE / "limits.json"
    limits = json.loads(limits_path.read_text(encoding="utf-8"))
    replaced = 0
    for i, c in enumerate(limits["cases"]):
        new = LIMITS_CASES.get(c["name"]) or next((v for v in LIMITS_CASES.values() if v["name"] == c["name"]), None)
        if new is not None:
            limits["cases"][i] = new
            replaced += 1
    if replaced != len(LIMITS_CASES):
        raise SystemExit(f"limits.json: replaced {replaced} of {len(LIMITS_CASES)} cases")
    limits["description"] = limits["description"].replace(
        "an update or reference that would create a terminal past maxTerminals is ignored and counted (terminalsRefused)",
        "an update or reference that would create a terminal past maxTerminals first evicts the least recently "
        "updated one, exited first (terminalsEvicted, evicted events; eviction.json covers the policy)",
    )
    limits_path.write_text(json.dumps(limits, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"eviction.json: {len(CASES)} cases; limits.json: {replaced} cases replaced")


if __name__ == "__main__":
    main()
