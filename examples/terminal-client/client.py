"""A terminal Client for any ACP Agent, written against the generated Python binding
``acp_terminal``.

    python client.py [--prompt TEXT] [--answer ask|allow|reject|cancelled|OUTCOME]
                     [--cwd DIR] [--record FILE] [--cancel-on TEXT] -- AGENT [ARGS...]

It starts the Agent (a command line), speaks ACP JSON-RPC with it over stdio and runs
one prompt turn:

1. ``initialize`` offering protocol version 2, with ``_meta.terminal_output: true`` and
   ``terminal: false`` in its capabilities (in the v2 member ``capabilities`` and the v1
   member ``clientCapabilities``, so that an Agent that reads only v1 sees them too: the
   Client does not know the Agent's version yet). If the Agent answers 1, the rest of
   the session is v1.
2. ``session/new`` with ``--cwd`` (default: the current directory, made absolute).
3. ``session/prompt`` with the ``--prompt`` text (default: standard input).
4. It answers ``session/request_permission`` (showing the command or the tool call's
   title as a safe display string): ``ask`` (the default) asks on the terminal,
   ``allow`` selects an allow option, ``reject`` a reject option, ``cancelled``
   answers the ``cancelled`` outcome, and any other word is sent as an outcome the
   Agent does not know (which it must treat as a refusal).
5. v2: every ``session/update`` goes to a ``TerminalStore``
   (``apply_notification_text``) for the terminals, and to the package's session state
   (``registry.session_state("v2")``, the reducer generated from the schema's
   ``x-state``) for the tool calls: their title, ``rawInput.command``, status and
   content are read back from it, never kept by hand; v1: the ``_meta`` terminal convention
   (``terminal_info`` / ``terminal_output`` / ``terminal_exit``) goes to the same store
   through ``ingest_v1``, and the text content of tool calls without a terminal is
   shown as text. Each terminal's safe transcript is printed live on stdout, reading
   only what is new after each message; headers, questions, text content and messages
   go to stderr, and so does each tool call's status when it changes.
6. The turn ends with the prompt's response (v1: its ``stopReason``) or, in v2, with
   the ``idle`` state update that follows it. Ctrl-C (or ``--cancel-on TEXT``, once a
   transcript shows TEXT) sends ``session/cancel``.

It exits with the last terminal's status: its exit code, 128 + the signal number when a
signal ended it, or 126 when no command ran (2 for a usage error, 1 when the Agent
failed). ``--record FILE`` keeps every line of both directions, one JSON object per
line: ``{"from": "agent"|"client", "line": "<the JSON-RPC text as sent>"}``; the
browser Client replays such a recording.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from acp_terminal import ParseError, TerminalState, TerminalStore, Transcript, ingest_v1, safe_display, v1, v2
from acp_terminal.registry import StateLimits, session_state

NOT_RUN = 126
CLIENT_INFO = {"name": "acp-terminal-client", "title": "acp-terminal example terminal Client", "version": "0.0.0"}
CANCEL = object()  # put on the queue by Ctrl-C


def status_code(store: TerminalStore) -> int | None:
    """The exit status of the last terminal that ended, shell style."""
    code: int | None = None
    for _, t in store.terminals():
        e = t.exit_status
        if e is None:
            continue
        if e.signal:
            try:
                code = 128 + int(signal.Signals[e.signal])
            except KeyError:
                code = 128
        else:
            code = e.exit_code if e.exit_code is not None else 0
    return code


def plain(text: str) -> str:
    """``text`` made safe to print: its safe transcript (controls interpreted and dropped)."""
    t = Transcript()
    t.push(text.encode("utf-8", "replace"))
    return t.text


class Shown:
    """What of one terminal's transcript is on the screen: the finished lines up to
    ``pos`` (a ``finished_length``), then ``partial`` characters of the current line."""

    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript
        self.pos = 0
        self.partial = 0


class Peer:
    """The Agent process: one JSON-RPC message per line each way, every line recorded."""

    def __init__(self, argv: list[str], record: IO[str] | None) -> None:
        self.record = record
        self.lock = threading.Lock()
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        self.lines: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._keep("agent", line)
            self.lines.put(line)
        self.lines.put(None)

    def _keep(self, side: str, line: str) -> None:
        if self.record:
            with self.lock:
                self.record.write(json.dumps({"from": side, "line": line.rstrip("\n")}) + "\n")
                self.record.flush()

    def send(self, message: dict[str, Any]) -> None:
        line = json.dumps(message)
        self._keep("client", line)
        with self.lock:
            assert self.proc.stdin is not None
            # The Agent may be gone already; its end of output ends the session.
            with contextlib.suppress(BrokenPipeError, ValueError):
                self.proc.stdin.write(line + "\n")
                self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def close(self) -> int:
        with self.lock:
            if self.proc.stdin:
                with contextlib.suppress(BrokenPipeError):
                    self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


class AgentError(Exception):
    """The Agent answered one of our requests with an error, or broke the protocol."""


class Client:
    def __init__(self, peer: Peer, answer: str, cancel_on: str | None, out: IO[str], err: IO[str]) -> None:
        self.peer = peer
        self.answer = answer
        self.cancel_on = cancel_on
        self.version = 2
        self.session_id: str | None = None
        self.store = TerminalStore()
        self.out = out
        self.err = err
        self.shown: dict[str, Shown] = {}
        self.announced: set[str] = set()
        # v2: the tool calls, as the schema's x-state defines them. The terminals' output is
        # the store's to keep (its limits, its transcript): the session state keeps none of it.
        session = session_state("v2", StateLimits(max_bytes=0))
        if session is None:
            raise RuntimeError("the acp_terminal package's v2 schema has no x-state annotations")
        self.session = session
        self.v1_calls: dict[str, dict[str, Any]] = {}  # v1 (no x-state): each tool call's members, as last sent
        self.texts: dict[str, str] = {}  # non-terminal text content shown per tool call
        self.statuses: dict[str, str] = {}  # the status last shown per tool call
        self.not_run: str | None = None
        self.cancel_sent = False
        self.running = False  # v2: the Agent reported foreground work since the prompt
        self.idle = False
        self.stop_reason: str | None = None

    # -- the session ------------------------------------------------------------------

    def wait_for(self, request_id: int) -> dict[str, Any]:
        """Handles what the Agent sends until the response to ``request_id``; returns it."""
        while True:
            message = self.next_message()
            if message is None:
                raise AgentError("the Agent closed its output before answering")
            if message.get("id") == request_id and "method" not in message:
                return message

    def next_message(self) -> dict[str, Any] | None:
        """Reads and handles one message (or a Ctrl-C); ``None`` at the end of the Agent's output."""
        while True:
            item = self.peer.lines.get()
            if item is None:
                return None
            if item is CANCEL:
                self.err.write("\nclient: cancelling the turn (session/cancel)\n")
                self.cancel()
                continue
            line = str(item)
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                self.err.write(f"client: the Agent sent a line that is not JSON: {safe_display(line[:200])}\n")
                continue
            if not isinstance(message, dict):
                self.err.write("client: the Agent sent JSON that is not an object\n")
                continue
            self.handle(message)
            return message

    def cancel(self) -> None:
        if self.session_id is not None and not self.cancel_sent:
            self.cancel_sent = True
            self.peer.send({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": self.session_id}})

    def initialize(self) -> None:
        capabilities_meta = {"terminal_output": True}
        params = {
            "protocolVersion": 2,
            # v2 members
            "info": CLIENT_INFO,
            "capabilities": {"_meta": capabilities_meta},
            # the same in v1 members, for Agents that read only v1
            "clientInfo": CLIENT_INFO,
            "clientCapabilities": {
                "fs": {"readTextFile": False, "writeTextFile": False},
                "terminal": False,
                "_meta": capabilities_meta,
            },
        }
        reply = self.wait_for(self.peer.request("initialize", params))
        result = self.result_of("initialize", reply)
        version = result.get("protocolVersion")
        if version not in (1, 2):
            raise AgentError(
                f"the Agent answered initialize with protocol version {safe_display(json.dumps(version))}; this Client speaks 1 and 2"
            )
        self.version = int(version)
        info = result.get("info" if self.version == 2 else "agentInfo")
        name = info.get("name") if isinstance(info, dict) else None
        self.err.write(f"client: ACP v{self.version} with {safe_display(str(name)) if name else 'an unnamed Agent'}\n")

    def result_of(self, method: str, reply: dict[str, Any]) -> dict[str, Any]:
        if "error" in reply:
            raise AgentError(f"the Agent answered {method} with an error: {safe_display(json.dumps(reply['error']))}")
        result = reply.get("result")
        if not isinstance(result, dict):
            raise AgentError(f"the Agent's answer to {method} has no result object")
        return result

    def new_session(self, cwd: str) -> None:
        reply = self.wait_for(self.peer.request("session/new", {"cwd": cwd, "mcpServers": []}))
        session = self.result_of("session/new", reply).get("sessionId")
        if not isinstance(session, str):
            raise AgentError("the Agent's answer to session/new has no sessionId")
        self.session_id = session

    def prompt(self, text: str) -> None:
        """Sends the prompt and handles everything until the turn ends."""
        self.running = self.idle = False
        request_id = self.peer.request(
            "session/prompt", {"sessionId": self.session_id, "prompt": [{"type": "text", "text": text}]}
        )
        reply = self.wait_for(request_id)
        result = self.result_of("session/prompt", reply)
        if self.version == 1:
            self.stop_reason = str(result.get("stopReason"))
            return
        while not self.idle:  # v2: the response only says the prompt was inserted
            if self.next_message() is None:
                return

    # -- what the Agent sends ---------------------------------------------------------

    def handle(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        params = message.get("params")
        if method == "session/update" and "id" not in message:
            self.update(params)
        elif method == "session/request_permission" and "id" in message:
            self.permission(message["id"], params)
        elif "id" in message and method is not None:
            # fs/* and terminal/* are not offered (capabilities false); nothing else is known.
            self.reply(message["id"], error={"code": -32601, "message": f"method not found: {method}"})

    def reply(self, request_id: object, result: object = None, error: object = None) -> None:
        m: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        if error is not None:
            m["error"] = error
        else:
            m["result"] = result
        self.peer.send(m)

    def update(self, params: object) -> None:
        update = params.get("update") if isinstance(params, dict) else None
        if not isinstance(update, dict):
            self.err.write("client: ignoring a session/update without an update object\n")
            return
        kind = update.get("sessionUpdate")
        try:
            if self.version == 2:
                warnings = list(self.store.apply_notification_text(json.dumps(params)))
                self.session.apply("SessionUpdate", json.dumps(update))
            else:
                warnings = ingest_v1(self.store, json.dumps(update))
        except ParseError as e:
            self.err.write(f"client: ignoring a session/update that does not parse: {e}\n")
            return
        for w in warnings:
            self.err.write(f"client: warning: {w}\n")
        if kind == "state_update":
            state = update.get("state")
            if state in ("running", "requires_action"):
                self.running = True
            elif state == "idle" and (self.running or update.get("stopReason") is not None):
                self.idle = True
                self.stop_reason = str(update.get("stopReason"))
        elif kind in ("agent_message_chunk", "agent_thought_chunk"):
            content = update.get("content")
            if isinstance(content, dict) and content.get("type") == "text":
                self.err.write(f"agent: {plain(str(content.get('text', '')))}\n")
        elif kind in ("tool_call", "tool_call_update", "tool_call_content_chunk"):
            self.tool_call(update)
        self.show()

    def call(self, call: str) -> dict[str, Any]:
        """What is known of a tool call: at v2 its target in the session state (the
        reducer applied the update already), at v1 its members as last sent."""
        if self.version == 2:
            got = self.session.get("toolCall", call)
            return got if isinstance(got, dict) else {}
        return self.v1_calls.get(call, {})

    def calls(self) -> list[str]:
        """The tool calls seen, first seen first."""
        if self.version == 2:
            by_id = self.session.snapshot()["session"]
            calls = by_id.get("toolCall") if isinstance(by_id, dict) else None
            return list(calls) if isinstance(calls, dict) else []
        return list(self.v1_calls)

    def tool_call(self, update: dict[str, Any]) -> None:
        call = str(update.get("toolCallId"))
        if self.version == 1:
            # v1 has no x-state: a member sent replaces the one held (patch by member).
            self.v1_calls.setdefault(call, {}).update({k: v for k, v in update.items() if k != "sessionUpdate"})
        state = self.call(call)
        status = state.get("status")
        if isinstance(status, str) and self.statuses.get(call) != status:
            self.statuses[call] = status
            self.err.write(f"--- {safe_display(call)}: {safe_display(self.title(state))} ({safe_display(status)})\n")
        content = state.get("content")
        if not isinstance(content, list):
            return
        texts = [
            str(c["content"].get("text", ""))
            for c in content
            if isinstance(c, dict)
            and c.get("type") == "content"
            and isinstance(c.get("content"), dict)
            and c["content"].get("type") == "text"
        ]
        if not texts:
            return
        text = "\n".join(texts)
        if status == "failed":
            self.not_run = text
        # A tool call that shows a terminal (v2 item, or the v1 convention) is printed from
        # the store; its text content (the v1 Bridge's copy of the transcript) is not.
        if any(call in {str(c) for c in t.tool_calls} for _, t in self.store.terminals()):
            return
        before = self.texts.get(call, "")
        self.texts[call] = text
        shown = plain(text)
        if before and shown.startswith(plain(before)):
            new = shown[len(plain(before)) :]
        else:
            new = shown
            self.err.write(f"--- {safe_display(call)}: {safe_display(self.title(state))}\n")
        if new:
            self.err.write(new if new.endswith("\n") else new + "\n")

    @staticmethod
    def title(state: dict[str, Any]) -> str:
        title = state.get("title")
        return title if isinstance(title, str) else "tool call"

    @staticmethod
    def command(state: dict[str, Any]) -> str | None:
        raw = state.get("rawInput")
        command = raw.get("command") if isinstance(raw, dict) else None
        return command if isinstance(command, str) else None

    def permission(self, request_id: object, params: object) -> None:
        try:
            if self.version == 2:
                request = v2.parse_request_permission_request(json.dumps(params)).value
                self.session.apply("RequestPermissionRequest", json.dumps(params))  # its tool call, if it names one
                result = self.choose_v2(request)
                v2.parse_request_permission_response(json.dumps(result))  # what we send is valid
            else:
                result = self.choose_v1(v1.parse_request_permission_request(json.dumps(params)).value)
        except ParseError as e:
            self.err.write(f"client: the permission request does not parse: {e}\n")
            self.reply(request_id, error={"code": -32602, "message": str(e)})
            return
        self.reply(request_id, result=result)

    def choose_v2(self, request: v2.RequestPermissionRequest) -> dict[str, Any]:
        subject = request.subject
        if isinstance(subject, v2.CommandPermissionSubject):
            self.err.write(
                f"The Agent asks to run: {safe_display(subject.command)} in {safe_display(str(subject.cwd))}\n"
            )
        else:
            self.err.write(f"The Agent asks: {safe_display(request.title)}\n")
        return self.choose([(str(o.option_id), o.name, str(o.kind)) for o in request.options])

    def choose_v1(self, request: v1.RequestPermissionRequest) -> dict[str, Any]:
        call = request.tool_call
        raw = call.raw_input
        command = raw.get("command") if isinstance(raw, dict) else None
        cwd = raw.get("cwd") if isinstance(raw, dict) else None
        if isinstance(command, str):
            where = f" in {safe_display(cwd)}" if isinstance(cwd, str) else ""
            self.err.write(f"The Agent asks to run: {safe_display(command)}{where}\n")
        else:
            known = self.call(str(call.tool_call_id)).get("title")
            self.err.write(
                f"The Agent asks: {safe_display(call.title or (known if isinstance(known, str) else 'a tool call'))}\n"
            )
        return self.choose([(str(o.option_id), o.name, str(o.kind)) for o in request.options])

    def choose(self, options: list[tuple[str, str, str]]) -> dict[str, Any]:
        for option_id, name, kind in options:
            self.err.write(f"  [{safe_display(option_id)}] {safe_display(name)} ({safe_display(kind)})\n")
        allow = [o for o, _, k in options if k in ("allow_once", "allow_always")]
        reject = [o for o, _, k in options if k in ("reject_once", "reject_always")]
        answer = self.answer
        if answer == "ask":
            try:
                with open("/dev/tty") as tty:
                    self.err.write("Allow? [y/N] ")
                    self.err.flush()
                    answer = "allow" if tty.readline().strip().lower() in ("y", "yes") else "reject"
            except OSError:
                self.err.write("(no terminal to ask on: refusing)\n")
                answer = "reject"
        self.err.write(f"Answer: {answer}\n")
        if answer == "allow" and allow:
            return {"outcome": {"outcome": "selected", "optionId": allow[0]}}
        if answer == "reject" and reject:
            return {"outcome": {"outcome": "selected", "optionId": reject[0]}}
        if answer in ("allow", "reject", "cancelled"):
            return {"outcome": {"outcome": "cancelled"}}
        return {"outcome": {"outcome": answer}}

    # -- the screen -------------------------------------------------------------------

    def show(self, final: bool = False) -> None:
        """Prints what each terminal's transcript gained: whole lines while it runs,
        the current line too once it has exited (or at the end). It reads only what is
        new (``finished_since`` and ``current_line``), never the whole text, so it costs
        the new output whatever the transcript holds."""
        for tid, t in self.store.terminals():
            key = str(tid)
            if key not in self.announced:
                self.announced.add(key)
                what = self.what(t)
                self.err.write(f"--- {safe_display(key)}: {what}\n")
            r = t.read_transcript()
            shown = self.shown.get(key)
            if shown is None or shown.transcript is not r:
                # A replacement snapshot starts a new transcript: show it from its start.
                shown = self.shown[key] = Shown(r)
            new = r.finished_since(shown.pos)
            shown.pos = r.finished_length
            if shown.partial and new:
                # The first new line starts with the part of it already printed.
                new = new[min(shown.partial, new.index("\n")) :]
                shown.partial = 0
            self.out.write(new)
            if final or t.exit_status is not None:
                line = r.current_line
                self.out.write(line[shown.partial :])
                shown.partial = max(shown.partial, len(line))
            self.out.flush()
            if self.cancel_on is not None and not self.cancel_sent and self.cancel_on in t.transcript:
                self.err.write(
                    f"client: the transcript shows {safe_display(self.cancel_on)}: cancelling the turn (session/cancel)\n"
                )
                self.cancel()

    def what(self, t: TerminalState) -> str:
        """A terminal's header: its command; for the v1 convention, which has none, the
        ``rawInput.command`` or the title of a tool call that shows it."""
        if t.command is not None:
            return f"$ {safe_display(t.command)}"
        calls = [self.call(str(c)) for c in t.sorted_tool_calls()]
        commands = [c for c in map(self.command, calls) if c is not None]
        if commands:
            return f"$ {safe_display(commands[0])}"
        titles = [c["title"] for c in calls if isinstance(c.get("title"), str)]
        return safe_display(titles[0]) if titles else "(command not known)"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--prompt", help="the prompt's text (default: read from standard input)")
    p.add_argument("--answer", default="ask", help="ask, allow, reject, cancelled, or an unknown outcome to send")
    p.add_argument("--cwd", default=os.getcwd(), help="the session's working directory (default: the current one)")
    p.add_argument("--record", type=Path, help="save every line of both directions to this JSON-lines file")
    p.add_argument("--cancel-on", help="send session/cancel once a terminal's transcript contains this text")
    p.add_argument("agent", nargs=argparse.REMAINDER, help="the Agent's command line, after --")
    a = p.parse_args(argv)
    agent = a.agent[1:] if a.agent[:1] == ["--"] else a.agent
    if not agent:
        p.error("give the Agent's command line after --, e.g. -- acp-example-agent")
    text = a.prompt if a.prompt is not None else sys.stdin.read()
    if not text.strip():
        p.error("the prompt is empty: give --prompt TEXT or write it to standard input")
    cwd = os.path.abspath(a.cwd)
    record = a.record.open("w", encoding="utf-8") if a.record else None
    try:
        peer = Peer(agent, record)
    except OSError as e:
        sys.stderr.write(f"client: cannot start the Agent {safe_display(agent[0])}: {e}\n")
        return 2
    client = Client(peer, a.answer, a.cancel_on, sys.stdout, sys.stderr)
    signal.signal(signal.SIGINT, lambda *_: peer.lines.put(CANCEL))
    failed: str | None = None
    try:
        client.initialize()
        client.new_session(cwd)
        client.prompt(text)
    except AgentError as problem:
        failed = str(problem)
    finally:
        agent_status = peer.close()
        if record:
            record.close()
    client.show(final=True)
    code = status_code(client.store)
    for call in client.calls():
        status = client.call(call).get("status")
        how = f"ended {safe_display(status)}" if isinstance(status, str) else "has no status"
        sys.stderr.write(f"--- {safe_display(call)}: {how}\n")
    if failed is not None:
        sys.stderr.write(f"client: {failed}\n")
        return code if code is not None else 1
    if agent_status != 0:
        sys.stderr.write(f"client: the Agent failed (status {agent_status})\n")
        return code if code is not None else 1
    sys.stderr.write(f"client: the turn ended: {safe_display(client.stop_reason or 'no stop reason')}\n")
    if code is None:
        sys.stderr.write(
            f"client: the command was not run: {safe_display(client.not_run or 'no exit status reported')}\n"
        )
        return NOT_RUN
    for tid, t in client.store.terminals():
        ended = t.exit_status
        if ended is not None:
            how = f"killed by {safe_display(ended.signal)}" if ended.signal else f"exited with code {ended.exit_code}"
            sys.stderr.write(f"--- {safe_display(str(tid))}: {how}\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
