"""The wheel check of `cargo xtask test` (step packages): run in a fresh virtual environment
with the built wheel pip-installed, and checked there with mypy --strict (the package must
ship py.typed and its metadata)."""

from importlib.metadata import files, metadata

from pydantic import TypeAdapter

from acp_terminal import MISSING, Parsed, ParseError, TerminalStore, Transcript, v2

meta = metadata("acp-terminal")
assert meta["License-Expression"] == "Apache-2.0", meta["License-Expression"]
assert "Checked, lossless Python types" in (meta["Description"] or ""), "the README is the long description"
assert any(f.name == "LICENSE" for f in files("acp-terminal") or []), "the wheel carries the licence"

text = '{"sessionUpdate":"terminal_update","terminalId":"term_001","command":null,"output":{"data":"aGk="}}'
parsed: Parsed[v2.SessionUpdate] = v2.parse_session_update(text)
u = parsed.value
assert isinstance(u, v2.SessionUpdateTerminalUpdate)
assert u.command is None and u.cwd is MISSING
assert u.output is not None and u.output is not MISSING and u.output.data == b"hi"
assert v2.serialize_session_update(u) == text
assert TypeAdapter(v2.SessionUpdate).validate_json(text) == u
try:
    v2.parse_terminal_output({"data": "aGk"})
    raise SystemExit("non-canonical base64 accepted")
except ParseError as e:
    assert (e.kind, e.path) == ("invalid_base64", "/data")
store = TerminalStore()
store.apply_text(text)
t = Transcript()
t.push(b"hi")
assert t.text == "hi"
print("python package: ok")
