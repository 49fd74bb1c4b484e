//! The RFD's wire rules, one behaviour per test, through the source-of-truth types.

use acp_terminal_schema::emit::Version;
use acp_terminal_schema::registry;
use acp_terminal_schema::v2::{self, SessionUpdate, TerminalUpdate, ToolCallUpdate};
use acp_terminal_schema::wire::{self, ErrorKind, Patch};

type Problem = (&'static str, String);

fn kinds(ws: &[wire::Warning]) -> Vec<Problem> {
    ws.iter().map(|w| (w.kind.as_str(), w.path.clone())).collect()
}

/// Parses `text` as `name` (v2) and returns the canonical text and warnings.
fn ok(name: &str, text: &str) -> (String, Vec<Problem>) {
    match registry::decode(Version::V2, name, text).expect("known type") {
        Ok((out, ws)) => (out, kinds(&ws)),
        Err(e) => panic!("{name} {text}: unexpected error {e}"),
    }
}

fn err(name: &str, text: &str) -> Problem {
    match registry::decode(Version::V2, name, text).expect("known type") {
        Ok((out, _)) => panic!("{name} {text}: expected an error, got {out}"),
        Err(e) => {
            assert!(!e.message.is_empty(), "an error carries a sentence");
            (e.kind.as_str(), e.path)
        }
    }
}

fn roundtrip(name: &str, text: &str) {
    let (out, ws) = ok(name, text);
    assert_eq!(out, text, "{name} round trip");
    assert!(ws.is_empty(), "{name}: unexpected warnings {ws:?}");
}

// --- terminal_update: omitted = unchanged, null = clear, value = replace ---

#[test]
fn an_omitted_patch_field_leaves_the_previous_value_unchanged() {
    let p = wire::from_str::<TerminalUpdate>(r#"{"terminalId":"t"}"#).unwrap().value;
    assert!(p.command.is_keep() && p.cwd.is_keep() && p.output.is_keep() && p.exit_status.is_keep() && p.meta.is_keep());
    roundtrip("TerminalUpdate", r#"{"terminalId":"t"}"#);
}

#[test]
fn null_clears_its_previous_value() {
    let text = r#"{"terminalId":"t","command":null,"cwd":null,"output":null,"exitStatus":null,"_meta":null}"#;
    let p = wire::from_str::<TerminalUpdate>(text).unwrap().value;
    assert_eq!(p.command, Patch::Clear);
    assert_eq!(p.cwd, Patch::Clear);
    assert_eq!(p.output, Patch::Clear);
    assert_eq!(p.exit_status, Patch::Clear);
    assert_eq!(p.meta, Patch::Clear);
    roundtrip("TerminalUpdate", text);
}

#[test]
fn a_concrete_value_replaces_its_previous_value() {
    let text = r#"{"terminalId":"term_001","command":"cargo test","cwd":"/workspace/project","output":{"data":"cnVubmluZyAxMjMgdGVzdHMNCg=="},"exitStatus":{"exitCode":0},"_meta":{"k":1}}"#;
    let p = wire::from_str::<TerminalUpdate>(text).unwrap().value;
    assert_eq!(p.command, Patch::Set("cargo test".into()));
    assert_eq!(p.output.as_set().map(|o| &o.data[..]), Some(&b"running 123 tests\r\n"[..]));
    roundtrip("TerminalUpdate", text);
}

#[test]
fn every_patch_field_of_tool_call_update_keeps_omitted_null_and_value_apart() {
    let nulls = r#"{"toolCallId":"c","title":null,"kind":null,"status":null,"content":null,"locations":null,"rawInput":null,"rawOutput":null,"_meta":null}"#;
    let p = wire::from_str::<ToolCallUpdate>(nulls).unwrap().value;
    assert!(matches!(
        (&p.title, &p.kind, &p.status, &p.content, &p.locations, &p.raw_input, &p.raw_output, &p.meta),
        (Patch::Clear, Patch::Clear, Patch::Clear, Patch::Clear, Patch::Clear, Patch::Clear, Patch::Clear, Patch::Clear)
    ));
    roundtrip("ToolCallUpdate", nulls);
    roundtrip("ToolCallUpdate", r#"{"toolCallId":"c"}"#);
    roundtrip(
        "ToolCallUpdate",
        r#"{"toolCallId":"c","title":"Run","kind":"execute","status":"in_progress","content":[],"locations":[{"path":"/a","line":3}],"rawInput":{"b":1,"a":[null]},"rawOutput":"x","_meta":{}}"#,
    );
}

#[test]
fn an_empty_collection_is_kept_apart_from_null() {
    let (out, _) = ok("ToolCallUpdate", r#"{"toolCallId":"c","content":[],"locations":null}"#);
    assert_eq!(out, r#"{"toolCallId":"c","content":[],"locations":null}"#);
}

#[test]
fn exit_status_details_are_optional_and_null_equals_omitted() {
    let (out, _) = ok("TerminalExitStatus", r#"{"exitCode":null,"signal":null,"_meta":null}"#);
    assert_eq!(out, "{}");
    roundtrip("TerminalExitStatus", r#"{"signal":"SIGTERM"}"#);
}

// --- base64: RFC 4648, strict and canonical ---

#[test]
fn chunk_data_is_decoded_to_bytes() {
    let p = wire::from_str::<SessionUpdate>(r#"{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"cGFzc2VkDQo="}"#).unwrap().value;
    let SessionUpdate::TerminalOutputChunk(c) = p else { panic!("not a chunk") };
    assert_eq!(&c.data[..], b"passed\r\n");
}

#[test]
fn every_tail_length_round_trips() {
    for data in ["", "YQ==", "YWI=", "YWJj", "YWJjZA=="] {
        roundtrip("TerminalOutput", &format!(r#"{{"data":"{data}"}}"#));
    }
}

#[test]
fn all_256_byte_values_and_invalid_utf8_survive_as_bytes() {
    let bytes: Vec<u8> = (0..=255).collect();
    let text = format!(r#"{{"data":"{}"}}"#, wire::encode_base64(&bytes));
    let p = wire::from_str::<v2::TerminalOutput>(&text).unwrap().value;
    assert_eq!(&p.data[..], &bytes[..]);
    roundtrip("TerminalOutput", &text);
}

#[test]
fn non_canonical_trailing_bits_are_rejected() {
    assert_eq!(err("TerminalOutput", r#"{"data":"aGVsbG9="}"#), ("invalid_base64", "/data".into()));
    assert_eq!(err("TerminalOutput", r#"{"data":"YR=="}"#), ("invalid_base64", "/data".into()));
    assert_eq!(ok("TerminalOutput", r#"{"data":"aGVsbG8="}"#).0, r#"{"data":"aGVsbG8="}"#);
}

#[test]
fn each_kind_of_invalid_base64_is_rejected() {
    for bad in ["YQ", "YQ=", "YWJ", "Y===", "YQ==YQ==", "YW=j", "YW Jj", "YWJj\n", "YW-j", "YW_j", "YWJj*", "=", "YQ===", "é"] {
        assert_eq!(err("TerminalOutput", &format!(r#"{{"data":"{}"}}"#, bad.replace('\n', "\\n"))), ("invalid_base64", "/data".into()), "{bad:?}");
    }
}

#[test]
fn base64_errors_say_what_to_change() {
    let e = wire::from_str::<v2::TerminalOutput>(r#"{"data":"YW-j"}"#).unwrap_err();
    assert!(e.message.contains("URL-safe"), "{}", e.message);
    let e = wire::from_str::<v2::TerminalOutput>(r#"{"data":"aGVsbG9="}"#).unwrap_err();
    assert!(e.message.contains("unused bits"), "{}", e.message);
}

#[test]
fn all_five_base64_fields_are_strict() {
    assert_eq!(err("TerminalOutputChunk", r#"{"terminalId":"t","data":"YR=="}"#).0, "invalid_base64");
    assert_eq!(err("ImageContent", r#"{"data":"YR==","mimeType":"image/png"}"#), ("invalid_base64", "/data".into()));
    assert_eq!(err("AudioContent", r#"{"data":"YR==","mimeType":"audio/wav"}"#), ("invalid_base64", "/data".into()));
    assert_eq!(err("BlobResourceContents", r#"{"blob":"YR==","uri":"file:///a"}"#), ("invalid_base64", "/blob".into()));
}

// --- absolute paths ---

#[test]
fn every_supplied_cwd_must_be_absolute_in_posix_or_windows_form() {
    for good in ["/", "/workspace/project", "C:\\work", "c:/work", "\\\\server\\share", "\\\\server\\share\\dir", "//net/x"] {
        let text = format!(r#"{{"type":"command","command":"ls","cwd":{}}}"#, serde_json::to_string(good).unwrap());
        assert!(registry::decode(Version::V2, "CommandPermissionSubject", &text).unwrap().is_ok(), "{good}");
    }
    for bad in ["", "src", "./src", "C:", "C:src", "\\src", "\\\\server", "\\\\server\\", "~/x", "1:\\x"] {
        let text = format!(r#"{{"command":"ls","cwd":{}}}"#, serde_json::to_string(bad).unwrap());
        assert_eq!(err("CommandPermissionSubject", &text), ("relative_path", "/cwd".into()), "{bad:?}");
    }
}

#[test]
fn a_relative_cwd_in_an_update_is_dropped_with_a_warning() {
    let (out, ws) = ok("TerminalUpdate", r#"{"terminalId":"t","cwd":"build","command":"make"}"#);
    assert_eq!(out, r#"{"terminalId":"t","command":"make"}"#);
    assert_eq!(ws, [("relative_path", "/cwd".into())]);
}

#[test]
fn diff_and_location_paths_are_checked_too() {
    assert_eq!(err("ToolCallLocation", r#"{"path":"a.rs"}"#), ("relative_path", "/path".into()));
    assert_eq!(err("DiffChange", r#"{"operation":"move","oldPath":"a","path":"/b"}"#), ("relative_path", "/oldPath".into()));
}

// --- open unions and enums ---

#[test]
fn an_unknown_session_update_keeps_its_tag_and_whole_payload() {
    roundtrip("SessionUpdate", r#"{"sessionUpdate":"_status_badge","label":"Indexing","progress":0.5,"n":{"z":1,"a":2}}"#);
    roundtrip("SessionUpdate", r#"{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}"#);
}

#[test]
fn an_unknown_variant_is_written_tag_first() {
    let (out, _) = ok("ToolCallContent", r#"{"title":"Tests","type":"_chart","data":[1,2,3]}"#);
    assert_eq!(out, r#"{"type":"_chart","title":"Tests","data":[1,2,3]}"#);
}

#[test]
fn a_known_tag_with_a_bad_payload_is_an_error_never_unknown() {
    assert_eq!(err("SessionUpdate", r#"{"sessionUpdate":"terminal_update"}"#), ("missing_field", "/terminalId".into()));
    assert_eq!(err("SessionUpdate", r#"{"sessionUpdate":"terminal_output_chunk","terminalId":"t"}"#), ("missing_field", "/data".into()));
    assert_eq!(err("ToolCallContent", r#"{"type":"terminal"}"#), ("missing_field", "/terminalId".into()));
    assert_eq!(err("ToolCallContent", r#"{"type":"diff"}"#), ("missing_field", "/changes".into()));
    assert_eq!(err("RequestPermissionSubject", r#"{"type":"command","command":"x","cwd":null}"#), ("wrong_type", "/cwd".into()));
    assert_eq!(err("RequestPermissionSubject", r#"{"type":1}"#), ("wrong_type", "/type".into()));
    assert_eq!(err("RequestPermissionSubject", r#"{"command":"x"}"#), ("missing_field", "/type".into()));
}

#[test]
fn an_unknown_permission_outcome_is_never_treated_as_approval() {
    let p = wire::from_str::<v2::RequestPermissionResponse>(r#"{"outcome":{"outcome":"_approved_by_policy","optionId":"allow"}}"#).unwrap().value;
    assert!(matches!(p.outcome, v2::RequestPermissionOutcome::Unknown(_)));
    assert_eq!(p.outcome.selected_option(), None);
    let p = wire::from_str::<v2::RequestPermissionOutcome>(r#"{"outcome":"selected","optionId":"allow"}"#).unwrap().value;
    assert_eq!(p.selected_option().map(v2::PermissionOptionId::as_str), Some("allow"));
    let p = wire::from_str::<v2::RequestPermissionOutcome>(r#"{"outcome":"cancelled"}"#).unwrap().value;
    assert_eq!(p.selected_option(), None);
}

#[test]
fn unknown_enum_values_keep_their_string() {
    for (name, value) in [
        ("ToolKind", "_deploy"),
        ("ToolCallStatus", "paused"),
        ("Role", "system"),
        ("PermissionOptionKind", "allow_session"),
        ("DiffFileType", "socket"),
        ("DiffPatchFormat", "unified"),
        ("IconTheme", "high_contrast"),
    ] {
        roundtrip(name, &format!("\"{value}\""));
    }
    let p = wire::from_str::<v2::ToolKind>("\"other\"").unwrap().value;
    assert_eq!(p, v2::ToolKind::Other, "`other` is a known ToolKind, not the catch-all");
}

#[test]
fn v1_unions_and_role_stay_closed() {
    let e = registry::decode(Version::V1, "ToolCallContent", r#"{"type":"_chart"}"#).unwrap().unwrap_err();
    assert_eq!((e.kind, e.path.as_str()), (ErrorKind::UnknownVariant, "/type"));
    let e = registry::decode(Version::V1, "Role", r#""system""#).unwrap().unwrap_err();
    assert_eq!((e.kind, e.path.as_str()), (ErrorKind::UnknownVariant, ""));
}

// --- unknown fields and _meta order ---

#[test]
fn unknown_fields_are_kept_in_input_order_after_the_known_ones() {
    let (out, _) = ok("TerminalUpdate", r#"{"zeta":1,"command":"ls","terminalId":"t","alpha":{"y":1,"x":2}}"#);
    assert_eq!(out, r#"{"terminalId":"t","command":"ls","zeta":1,"alpha":{"y":1,"x":2}}"#);
}

#[test]
fn meta_keeps_its_key_order_at_every_depth() {
    roundtrip("Terminal", r#"{"terminalId":"t","_meta":{"z":{"b":1,"a":2},"a":[{"y":0,"x":1}],"m":null}}"#);
}

// --- leniency: dropped, never silently ---

#[test]
fn a_malformed_lenient_field_is_dropped_and_reported() {
    let (out, ws) = ok("TerminalUpdate", r#"{"terminalId":"t","command":42,"exitStatus":{"exitCode":-1}}"#);
    assert_eq!(out, r#"{"terminalId":"t","exitStatus":{}}"#);
    assert_eq!(ws, [("wrong_type", "/command".into()), ("out_of_range", "/exitStatus/exitCode".into())]);
}

#[test]
fn the_nearest_lenient_value_containing_the_problem_is_dropped() {
    let (out, ws) = ok("TerminalUpdate", r#"{"terminalId":"t","output":{"data":"YR=="}}"#);
    assert_eq!(out, r#"{"terminalId":"t"}"#, "output stays unchanged, not cleared");
    assert_eq!(ws, [("invalid_base64", "/output/data".into())]);
}

#[test]
fn malformed_items_are_skipped_with_a_warning_each() {
    let text = r#"{"toolCallId":"tc_1","content":[{"type":"content","content":{"type":"text","text":"ok"}},{"type":"diff","path":"/bad"}],"locations":[{"path":"/ok","line":3},{"line":4}]}"#;
    let (out, ws) = ok("ToolCallUpdate", text);
    assert_eq!(out, r#"{"toolCallId":"tc_1","content":[{"type":"content","content":{"type":"text","text":"ok"}}],"locations":[{"path":"/ok","line":3}]}"#);
    assert_eq!(ws, [("missing_field", "/content/1/changes".into()), ("missing_field", "/locations/1/path".into())]);
}

#[test]
fn required_fields_stay_strict() {
    assert_eq!(err("TerminalOutputChunk", r#"{"terminalId":5,"data":""}"#), ("wrong_type", "/terminalId".into()));
    assert_eq!(err("UpdateSessionNotification", r#"{"sessionId":"s"}"#), ("missing_field", "/update".into()));
    assert_eq!(err("UpdateSessionNotification", r#"{"sessionId":"s","update":{"sessionUpdate":"terminal_update"}}"#), ("missing_field", "/update/terminalId".into()));
}

// --- errors: kind, pointer, sentence ---

#[test]
fn text_that_is_not_json_is_invalid_json_at_the_root() {
    assert_eq!(err("Terminal", r#"{"terminalId":"t""#), ("invalid_json", String::new()));
    assert_eq!(err("Terminal", r#"{"terminalId":"\ud800"}"#), ("invalid_json", String::new()));
    assert_eq!(err("Terminal", r#"{"terminalId":"t"} x"#), ("invalid_json", String::new()));
}

#[test]
fn a_repeated_member_is_a_duplicate_key_error_at_the_second_one() {
    assert_eq!(err("Terminal", r#"{"terminalId":"a","terminalId":"b"}"#), ("duplicate_key", "/terminalId".into()));
    assert_eq!(err("Terminal", r#"{"terminalId":"a","_meta":{"x/y":1,"x/y":2}}"#), ("duplicate_key", "/_meta/x~1y".into()));
    assert_eq!(err("TerminalUpdate", r#"{"terminalId":"a","command":7,"command":8}"#).0, "duplicate_key", "leniency never absorbs it");
}

#[test]
fn integers_accept_whole_numbers_within_their_format() {
    assert_eq!(ok("TerminalExitStatus", r#"{"exitCode":4294967295}"#).0, r#"{"exitCode":4294967295}"#);
    assert_eq!(ok("TerminalExitStatus", r#"{"exitCode":2.0}"#).0, r#"{"exitCode":2}"#);
    assert_eq!(ok("TerminalExitStatus", r#"{"exitCode":4294967296}"#).1, [("out_of_range", "/exitCode".into())]);
    assert_eq!(ok("TerminalExitStatus", r#"{"exitCode":1.5}"#).1, [("wrong_type", "/exitCode".into())]);
    assert_eq!(ok("ResourceLink", r#"{"name":"n","uri":"u","size":9007199254740991}"#).1, []);
    assert_eq!(ok("ResourceLink", r#"{"name":"n","uri":"u","size":9007199254740992}"#).1, [("out_of_range", "/size".into())]);
}

#[test]
fn options_need_at_least_one_choice() {
    assert_eq!(err("RequestPermissionRequest", r#"{"sessionId":"s","title":"t","options":[]}"#), ("out_of_range", "/options".into()));
}

#[test]
fn canonical_output_uses_ecmascript_numbers_and_strings() {
    let (out, _) = ok("Terminal", r#"{"terminalId":"\u00e9\/\u001f\u007f","_meta":{"a":1.0,"b":1e21,"c":-0,"d":0.1,"e":1E2,"f":12345678901234567890}}"#);
    assert_eq!(out, "{\"terminalId\":\"é/\\u001f\u{7f}\",\"_meta\":{\"a\":1,\"b\":1e+21,\"c\":0,\"d\":0.1,\"e\":100,\"f\":12345678901234567000}}");
}
