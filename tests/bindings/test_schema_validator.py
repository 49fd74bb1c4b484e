"""A standard JSON Schema validator (the `jsonschema` package, draft 2020-12) accepts
well-formed messages against the emitted schema (schema/json/, which `cargo xtask gen
--check` keeps equal to what the source-of-truth types emit), accepts unknown union
variants through the catch-all branches, and rejects malformed known variants.

What a schema validator cannot see (strict base64, absolute paths) the types check:
schema/tests/wire_rules.rs and the vectors."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]


@cache
def schema(version: str) -> dict[str, Any]:
    text = (ROOT / "schema" / "json" / version / "schema.json").read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


def valid(definition: str, instance: Any, version: str = "v2") -> bool:
    doc = dict(schema(version))
    doc["$ref"] = f"#/$defs/{definition}"
    return Draft202012Validator(doc).is_valid(instance)


def test_the_emitted_schemas_are_valid_draft_2020_12() -> None:
    for version in ("v2", "v1"):
        Draft202012Validator.check_schema(schema(version))


VALID: list[tuple[str, str, Any]] = [
    # The RFD's examples.
    ("v2", "ToolCallContent", {"type": "terminal", "terminalId": "term_001"}),
    (
        "v2",
        "SessionUpdate",
        {
            "sessionUpdate": "terminal_update",
            "terminalId": "term_001",
            "command": "cargo test",
            "cwd": "/workspace/project",
            "output": {"data": "cnVubmluZyAxMjMgdGVzdHMNCg=="},
            "exitStatus": {"exitCode": 0, "signal": None},
        },
    ),
    (
        "v2",
        "SessionUpdate",
        {"sessionUpdate": "terminal_output_chunk", "terminalId": "term_001", "data": "cGFzc2VkDQo="},
    ),
    ("v2", "TerminalExitStatus", {"signal": "SIGTERM"}),
    (
        "v2",
        "RequestPermissionSubject",
        {
            "type": "command",
            "command": "cargo test",
            "cwd": "/workspace/project",
            "toolCallId": "call_001",
            "terminalId": "term_001",
        },
    ),
    # Whole messages.
    (
        "v2",
        "UpdateSessionNotification",
        {
            "sessionId": "s",
            "update": {
                "sessionUpdate": "tool_call_update",
                "toolCallId": "c",
                "status": "completed",
                "content": [
                    {"type": "terminal", "terminalId": "t"},
                    {"type": "content", "content": {"type": "text", "text": "ok"}},
                ],
            },
        },
    ),
    (
        "v2",
        "RequestPermissionRequest",
        {
            "sessionId": "s",
            "title": "Run?",
            "subject": {"type": "command", "command": "ls", "cwd": "/w"},
            "options": [{"optionId": "a", "name": "Allow", "kind": "allow_once"}],
        },
    ),
    ("v2", "RequestPermissionResponse", {"outcome": {"outcome": "selected", "optionId": "a"}}),
    ("v1", "ToolCallContent", {"type": "terminal", "terminalId": "term_001"}),
    ("v1", "CreateTerminalRequest", {"sessionId": "s", "command": "ls", "args": ["-l"]}),
    # Unknown variants pass through the catch-all branches.
    ("v2", "SessionUpdate", {"sessionUpdate": "_status_badge", "label": "Indexing"}),
    ("v2", "ToolCallContent", {"type": "_chart", "data": [1, 2, 3]}),
    ("v2", "RequestPermissionSubject", {"type": "_review", "reason": "x"}),
    ("v2", "RequestPermissionOutcome", {"outcome": "_deferred"}),
    ("v2", "DiffChange", {"operation": "_chmod", "path": "/a"}),
    ("v2", "ToolKind", "_deploy"),
    # Beyond JSON Schema: the validator accepts these, the types reject them.
    ("v2", "TerminalOutput", {"data": "aGVsbG9="}),
    ("v2", "CommandPermissionSubject", {"command": "ls", "cwd": "relative"}),
]

INVALID: list[tuple[str, str, Any]] = [
    ("v2", "SessionUpdate", {"sessionUpdate": "terminal_update"}),
    ("v2", "SessionUpdate", {"sessionUpdate": "terminal_output_chunk", "terminalId": "t"}),
    ("v2", "ToolCallContent", {"type": "terminal"}),
    ("v2", "ToolCallContent", {"type": "diff"}),
    ("v2", "RequestPermissionSubject", {"type": "command", "cwd": "/w"}),
    ("v2", "RequestPermissionSubject", {"type": 1}),
    ("v2", "DiffChange", {"operation": "move", "path": "/b"}),
    ("v1", "ToolCallContent", {"type": "_chart"}),
]


@pytest.mark.parametrize(("version", "definition", "instance"), VALID)
def test_a_valid_message_validates(version: str, definition: str, instance: Any) -> None:
    assert valid(definition, instance, version)


@pytest.mark.parametrize(("version", "definition", "instance"), INVALID)
def test_a_malformed_known_variant_is_rejected(version: str, definition: str, instance: Any) -> None:
    assert not valid(definition, instance, version)
