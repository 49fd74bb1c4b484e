//! A standard JSON Schema validator (the `jsonschema` crate, draft 2020-12) accepts
//! well-formed messages against the emitted schema, accepts unknown union variants
//! through the catch-all branches, and rejects malformed known variants.

use acp_terminal_schema::emit::{Version, schema};
use serde_json::{Value, json};

fn validator_for(version: Version, def: &str) -> jsonschema::Validator {
    let mut doc = schema(version);
    doc["$ref"] = Value::from(format!("#/$defs/{def}"));
    jsonschema::draft202012::new(&doc).expect("the emitted schema compiles")
}

fn valid(def: &str, instance: &Value) -> bool {
    validator_for(Version::V2, def).is_valid(instance)
}

#[test]
fn the_rfd_examples_validate() {
    assert!(valid("ToolCallContent", &json!({"type": "terminal", "terminalId": "term_001"})));
    assert!(valid(
        "SessionUpdate",
        &json!({
            "sessionUpdate": "terminal_update", "terminalId": "term_001", "command": "cargo test",
            "cwd": "/workspace/project", "output": {"data": "cnVubmluZyAxMjMgdGVzdHMNCg=="},
            "exitStatus": {"exitCode": 0, "signal": null}
        })
    ));
    assert!(valid("SessionUpdate", &json!({"sessionUpdate": "terminal_output_chunk", "terminalId": "term_001", "data": "cGFzc2VkDQo="})));
    assert!(valid("TerminalExitStatus", &json!({"signal": "SIGTERM"})));
    assert!(valid("RequestPermissionSubject", &json!({"type": "command", "command": "cargo test", "cwd": "/workspace/project", "toolCallId": "call_001", "terminalId": "term_001"})));
}

#[test]
fn whole_messages_validate() {
    assert!(valid(
        "UpdateSessionNotification",
        &json!({"sessionId": "s", "update": {"sessionUpdate": "tool_call_update", "toolCallId": "c", "status": "completed",
            "content": [{"type": "terminal", "terminalId": "t"}, {"type": "content", "content": {"type": "text", "text": "ok"}}]}})
    ));
    assert!(valid(
        "RequestPermissionRequest",
        &json!({"sessionId": "s", "title": "Run?", "subject": {"type": "command", "command": "ls", "cwd": "/w"},
            "options": [{"optionId": "a", "name": "Allow", "kind": "allow_once"}]})
    ));
    assert!(valid("RequestPermissionResponse", &json!({"outcome": {"outcome": "selected", "optionId": "a"}})));
    assert!(validator_for(Version::V1, "ToolCallContent").is_valid(&json!({"type": "terminal", "terminalId": "term_001"})));
    assert!(validator_for(Version::V1, "CreateTerminalRequest").is_valid(&json!({"sessionId": "s", "command": "ls", "args": ["-l"]})));
}

#[test]
fn unknown_variants_pass_through_the_catch_all() {
    assert!(valid("SessionUpdate", &json!({"sessionUpdate": "_status_badge", "label": "Indexing"})));
    assert!(valid("ToolCallContent", &json!({"type": "_chart", "data": [1, 2, 3]})));
    assert!(valid("RequestPermissionSubject", &json!({"type": "_review", "reason": "x"})));
    assert!(valid("RequestPermissionOutcome", &json!({"outcome": "_deferred"})));
    assert!(valid("DiffChange", &json!({"operation": "_chmod", "path": "/a"})));
    assert!(valid("ToolKind", &json!("_deploy")));
}

#[test]
fn malformed_known_variants_are_rejected() {
    assert!(!valid("SessionUpdate", &json!({"sessionUpdate": "terminal_update"})));
    assert!(!valid("SessionUpdate", &json!({"sessionUpdate": "terminal_output_chunk", "terminalId": "t"})));
    assert!(!valid("ToolCallContent", &json!({"type": "terminal"})));
    assert!(!valid("ToolCallContent", &json!({"type": "diff"})));
    assert!(!valid("RequestPermissionSubject", &json!({"type": "command", "cwd": "/w"})));
    assert!(!valid("RequestPermissionSubject", &json!({"type": 1})));
    assert!(!valid("DiffChange", &json!({"operation": "move", "path": "/b"})));
    assert!(!validator_for(Version::V1, "ToolCallContent").is_valid(&json!({"type": "_chart"})));
}

#[test]
fn what_a_schema_validator_cannot_see_is_checked_by_the_types() {
    // Strict base64 and absolute paths are beyond JSON Schema: the validator accepts
    // these, the types reject them (see wire_rules.rs).
    assert!(valid("TerminalOutput", &json!({"data": "aGVsbG9="})));
    assert!(valid("CommandPermissionSubject", &json!({"command": "ls", "cwd": "relative"})));
    let parsed = acp_terminal_schema::wire::from_str::<acp_terminal_schema::v2::TerminalOutput>(r#"{"data":"aGVsbG9="}"#);
    assert!(parsed.is_err());
}
