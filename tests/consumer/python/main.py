"""The Python consumer of `cargo xtask test` (step packages): run in a fresh virtual
environment with the generated distribution pip-installed, as a downstream user would."""

from acp_terminal import MISSING, ParseError, TerminalStore, v2

text = '{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"term_001","command":null,"output":{"data":"cnVubmluZyAxMjMgdGVzdHMNCg=="}}}'
parsed = v2.parse_update_session_notification(text)
u = parsed.value.update
assert isinstance(u, v2.SessionUpdateTerminalUpdate)
assert u.command is None and u.cwd is MISSING
assert u.output is not None and u.output is not MISSING and u.output.data == b"running 123 tests\r\n"
assert v2.serialize_update_session_notification(parsed.value) == text
try:
    v2.parse_terminal_output('{"data":"aGVsbG9="}')
    raise SystemExit("non-canonical base64 accepted")
except ParseError as e:
    assert (e.kind, e.path) == ("invalid_base64", "/data")
store = TerminalStore()
store.apply_notification_text(text)
terminal = store.terminal("term_001")
assert terminal is not None and terminal.transcript == "running 123 tests\n"
print("python consumer: ok")
