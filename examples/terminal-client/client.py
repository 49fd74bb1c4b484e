"""A terminal Client for the example Agent (``examples/agent``), written against the
generated Python binding ``acp_terminal``.

It spawns the Agent, answers its ``session/request_permission`` (showing the command's
safe display string), applies every ``session/update`` to a ``TerminalStore`` through
the text entry point ``apply_notification_text``, prints each terminal's safe
transcript live, reading only what is new after each message (on stdout; headers and
the question on stderr), and exits with the
command's status: its exit code, 128 + the signal number when a signal ended it, or
126 when the command was not run.

    python client.py [--agent PATH] [--answer ask|allow|reject|cancelled|OUTCOME]
                     [--record FILE] [--] AGENT-ARGUMENTS...

``--answer`` decides the permission question: ``ask`` (the default) asks on the
terminal, ``allow`` selects the allow option, ``reject`` the reject option,
``cancelled`` answers the ``cancelled`` outcome, and any other word is sent as an
outcome the Agent does not know (which it must treat as a refusal). ``--record`` saves
every line the Agent sent, as JSON lines, for the browser Client to replay.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from acp_terminal import ParseError, TerminalStore, Transcript, safe_display, v2

ROOT = Path(__file__).resolve().parents[2]
NOT_RUN = 126


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


class Shown:
    """What of one terminal's transcript is on the screen: the finished lines up to
    ``pos`` (a ``finished_length``), then ``partial`` characters of the current line."""

    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript
        self.pos = 0
        self.partial = 0


class Client:
    def __init__(self, answer: str, out: IO[str], err: IO[str]) -> None:
        self.answer = answer
        self.store = TerminalStore()
        self.out = out
        self.err = err
        self.shown: dict[str, Shown] = {}
        self.announced: set[str] = set()
        self.not_run: str | None = None

    def choose(self, request: v2.RequestPermissionRequest) -> dict[str, Any]:
        subject = request.subject
        what = safe_display(subject.command) if isinstance(subject, v2.CommandPermissionSubject) else safe_display(request.title)
        where = f" in {safe_display(str(subject.cwd))}" if isinstance(subject, v2.CommandPermissionSubject) else ""
        self.err.write(f"The Agent asks to run: {what}{where}\n")
        for o in request.options:
            self.err.write(f"  [{safe_display(str(o.option_id))}] {safe_display(o.name)} ({safe_display(str(o.kind))})\n")
        allow = [str(o.option_id) for o in request.options if str(o.kind) in ("allow_once", "allow_always")]
        reject = [str(o.option_id) for o in request.options if str(o.kind) in ("reject_once", "reject_always")]
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

    def show(self, final: bool = False) -> None:
        """Prints what each terminal's transcript gained: whole lines while it runs,
        the current line too once it has exited (or at the end). It reads only what is
        new (``finished_since`` and ``current_line``), never the whole text, so it costs
        the new output whatever the transcript holds."""
        for tid, t in self.store.terminals():
            key = str(tid)
            if key not in self.announced and t.command is not None:
                self.announced.add(key)
                self.err.write(f"--- {key}: $ {safe_display(t.command)}\n")
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

    def handle(self, line: str, agent_in: IO[str]) -> None:
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            self.err.write(f"client: the Agent sent a line that is not JSON: {line[:200]!r}\n")
            return
        if not isinstance(message, dict):
            self.err.write("client: the Agent sent JSON that is not an object\n")
            return
        method = message.get("method")
        params = message.get("params")
        if method == "session/update" and "id" not in message:
            try:
                for w in self.store.apply_notification_text(json.dumps(params)):
                    self.err.write(f"client: warning: {w}\n")
            except ParseError as e:
                self.err.write(f"client: ignoring a session/update that does not parse: {e}\n")
                return
            update = params.get("update") if isinstance(params, dict) else None
            if isinstance(update, dict) and update.get("status") == "failed" and update.get("content"):
                for c in update["content"]:
                    if isinstance(c, dict) and c.get("type") == "content" and isinstance(c.get("content"), dict):
                        self.not_run = str(c["content"].get("text", ""))
            self.show()
        elif method == "session/request_permission" and "id" in message:
            try:
                request = v2.parse_request_permission_request(json.dumps(params)).value
                result: dict[str, Any] = self.choose(request)
                v2.parse_request_permission_response(json.dumps(result))  # what we send is valid
                reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"], "result": result}
            except ParseError as e:
                self.err.write(f"client: the permission request does not parse: {e}\n")
                reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32602, "message": str(e)}}
            agent_in.write(json.dumps(reply) + "\n")
            agent_in.flush()
        elif "id" in message and method is not None:
            reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": f"method not found: {method}"}}
            agent_in.write(json.dumps(reply) + "\n")
            agent_in.flush()


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--agent", default=str(ROOT / "target" / "debug" / "acp-example-agent"), help="the Agent executable")
    p.add_argument("--answer", default="ask", help="ask, allow, reject, cancelled, or an unknown outcome to send")
    p.add_argument("--record", type=Path, help="save every line the Agent sent to this JSON-lines file")
    p.add_argument("agent_args", nargs=argparse.REMAINDER, help="arguments for the Agent (its command)")
    a = p.parse_args(argv)
    args = a.agent_args[1:] if a.agent_args[:1] == ["--"] else a.agent_args
    if not args:
        p.error("give the Agent a command, e.g. -- 'ls --color=always'")
    if not os.access(a.agent, os.X_OK):
        sys.stderr.write(f"client: the Agent {a.agent} is not an executable file; build it with `cargo build -p acp-terminal-example-agent`\n")
        return 2
    client = Client(a.answer, sys.stdout, sys.stderr)
    record = a.record.open("w", encoding="utf-8") if a.record else None
    agent = subprocess.Popen([a.agent, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
    assert agent.stdin is not None and agent.stdout is not None
    try:
        for line in agent.stdout:
            if record:
                record.write(line if line.endswith("\n") else line + "\n")
            client.handle(line, agent.stdin)
    finally:
        if record:
            record.close()
        agent.stdin.close()
    agent_status = agent.wait()
    client.show(final=True)
    code = status_code(client.store)
    if agent_status != 0:
        sys.stderr.write(f"client: the Agent failed (status {agent_status})\n")
        return code if code is not None else 1
    if code is None:
        sys.stderr.write(f"client: the command was not run: {safe_display(client.not_run or 'no exit status reported')}\n")
        return NOT_RUN
    for tid, t in client.store.terminals():
        e = t.exit_status
        if e is not None:
            how = f"killed by {safe_display(e.signal)}" if e.signal else f"exited with code {e.exit_code}"
            sys.stderr.write(f"--- {tid}: {how}\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
