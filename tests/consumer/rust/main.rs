// The Rust consumer of `cargo xtask test` (step packages): built in a fresh crate that
// depends on generated/rust by path, as a downstream user's would, and run.
use acp_terminal::{v2, wire};

fn main() {
    let text = r#"{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"term_001","command":null,"output":{"data":"cnVubmluZyAxMjMgdGVzdHMNCg=="}}}"#;
    let parsed = wire::from_str::<v2::UpdateSessionNotification>(text).expect("parses");
    let v2::SessionUpdate::TerminalUpdate(u) = &parsed.value.update else { panic!("not a terminal update") };
    assert_eq!(u.command, wire::Patch::Clear);
    assert!(u.cwd.is_keep());
    assert_eq!(u.output.as_set().map(|o| &o.data[..]), Some(&b"running 123 tests\r\n"[..]));
    assert_eq!(wire::to_string(&parsed.value), text);
    let err = wire::from_str::<v2::TerminalOutput>(r#"{"data":"aGVsbG9="}"#).expect_err("non-canonical base64");
    assert_eq!((err.kind.as_str(), err.path.as_str()), ("invalid_base64", "/data"));
    // The serde route applies the same rules and writes the same bytes.
    let via_serde: v2::UpdateSessionNotification = serde_json::from_str(text).expect("serde parses");
    assert_eq!(serde_json::to_string(&via_serde).expect("serde writes"), text);
    let err = serde_json::from_str::<v2::TerminalOutput>(r#"{"data":"aGVsbG9="}"#).expect_err("non-canonical base64").to_string();
    assert!(err.starts_with("invalid_base64 at /data"), "{err}");
    // Depending on acp-terminal switches on no serde_json feature here: plain maps still sort.
    assert_eq!(serde_json::json!({"b": 1, "a": 2}).to_string(), r#"{"a":2,"b":1}"#);
    // ... and the adapters keep member order all the same (unknown members and `_meta`
    // in input order, as TypeScript and Python write them), without serde_json's
    // `preserve_order`.
    let v1 = r#"{"toolCallId":"c","zeta":{"y":1,"b":[true]},"alpha":0,"title":"Run","_meta":{"z":1,"a":{"d":null,"c":"x"}}}"#;
    let v2 = acp_terminal::adapters::convert(acp_terminal::adapters::Direction::V1ToV2, "ToolCallUpdate", None, v1).expect("converts");
    assert_eq!(v2.text, r#"{"toolCallId":"c","title":"Run","_meta":{"z":1,"a":{"d":null,"c":"x"}},"zeta":{"y":1,"b":[true]},"alpha":0}"#);
    println!("rust consumer: ok");
}
