//! The serde route gives what the `wire` route gives: every decode vector through
//! `serde_json::from_str::<T>` (same accept/reject, an error naming the kind and the
//! JSON pointer) and back through `serde_json::to_string` (the canonical bytes).

use acp_terminal::{v1, v2, wire};
use acp_terminal_conformance::{input_text, vector_files};
use serde_json::Value;
use std::path::PathBuf;

fn check<T>(text: &str) -> Result<(), String>
where
    T: wire::Decode + wire::Encode + serde::Serialize + serde::de::DeserializeOwned,
{
    let ours = wire::from_str::<T>(text);
    let theirs = serde_json::from_str::<T>(text);
    match (ours, theirs) {
        (Ok(a), Ok(b)) => {
            let canonical = wire::to_string(&a.value);
            if wire::to_string(&b) != canonical {
                return Err(format!("serde decoded a different value: {}", wire::to_string(&b)));
            }
            let via_serde = serde_json::to_string(&a.value).map_err(|e| e.to_string())?;
            if via_serde != canonical {
                return Err(format!("serde_json::to_string wrote {via_serde}, canonical is {canonical}"));
            }
            // serde_json::to_value keeps the value (order aside).
            let v = serde_json::to_value(&a.value).map_err(|e| e.to_string())?;
            let again = serde_json::from_value::<T>(v).map_err(|e| format!("from_value: {e}"))?;
            let _ = again;
            Ok(())
        }
        (Err(e), Err(s)) => {
            let want = format!("{} at ", e.kind);
            let got = s.to_string();
            if e.kind == wire::ErrorKind::InvalidJson {
                return Ok(());
            }
            let at = if e.path.is_empty() { "the document root".to_owned() } else { e.path.clone() };
            if got.starts_with(&want) && got.contains(&at) { Ok(()) } else { Err(format!("serde error {got:?} does not name {} at {at}", e.kind)) }
        }
        (Ok(_), Err(s)) => Err(format!("wire accepted, serde rejected: {s}")),
        (Err(e), Ok(_)) => Err(format!("wire rejected ({e}), serde accepted")),
    }
}

macro_rules! dispatch {
    ($schema:expr, $ty:expr, $text:expr; v2: $($t2:ident),*; v1: $($t1:ident),*) => {
        match ($schema, $ty) {
            $( ("v2", stringify!($t2)) => Some(check::<v2::$t2>($text)), )*
            $( ("v1", stringify!($t1)) => Some(check::<v1::$t1>($text)), )*
            _ => None,
        }
    };
}

#[test]
fn every_decode_vector_gives_the_same_result_through_serde() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
    let (mut n, mut failed) = (0, Vec::new());
    for f in vector_files(&[dir]) {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&f).expect("read")).expect("vector JSON");
        for c in doc["cases"].as_array().expect("cases").iter().filter(|c| c["kind"] == "decode") {
            let schema = c.get("schema").and_then(Value::as_str).unwrap_or("v2");
            let ty = c["type"].as_str().unwrap_or_default();
            let text = input_text(c).expect("input");
            let r = dispatch!(schema, ty, &text;
                v2: AbsolutePath, Annotations, AudioContent, BlobResourceContents, CommandPermissionSubject, Content,
                    ContentBlock, Diff, DiffChange, DiffFileType, DiffPatch, DiffPatchFormat, DiffPathChange,
                    DiffPathPairChange, EmbeddedResource, EmbeddedResourceResource, Icon, IconTheme, ImageContent,
                    MediaType, PermissionOption, PermissionOptionId, PermissionOptionKind, RequestPermissionOutcome,
                    RequestPermissionRequest, RequestPermissionResponse, RequestPermissionSubject, ResourceLink, Role,
                    SelectedPermissionOutcome, SessionId, SessionUpdate, Terminal, TerminalExitStatus, TerminalId,
                    TerminalOutput, TerminalOutputChunk, TerminalUpdate, TextContent, TextResourceContents,
                    ToolCallContent, ToolCallId, ToolCallLocation, ToolCallPermissionSubject,
                    ToolCallStatus, ToolCallUpdate, ToolKind, UpdateSessionNotification;
                v1: ToolCallContent, ContentBlock);
            let Some(r) = r else { continue };
            n += 1;
            if let Err(e) = r {
                failed.push(format!("{} :: {}: {e}", f.display(), c["name"]));
            }
        }
    }
    assert!(n > 300, "only {n} cases ran");
    assert!(failed.is_empty(), "{} of {n} failed:\n{}", failed.len(), failed.join("\n"));
}

#[test]
fn wire_types_sit_inside_a_users_serde_structs() {
    #[derive(serde::Deserialize, serde::Serialize)]
    struct Rpc {
        jsonrpc: String,
        method: String,
        params: v2::UpdateSessionNotification,
    }
    let text = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"term_001","data":"aGk="}}}"#;
    let rpc: Rpc = serde_json::from_str(text).expect("parses");
    let v2::SessionUpdate::TerminalOutputChunk(c) = &rpc.params.update else { panic!("not a chunk") };
    assert_eq!(&c.data[..], b"hi");
    assert_eq!(serde_json::to_string(&rpc).expect("writes"), text);

    let bad = text.replace("aGk=", "aGk");
    let e = serde_json::from_str::<Rpc>(&bad).err().expect("rejects").to_string();
    assert!(e.starts_with("invalid_base64 at /update/data"), "{e}");
    let rel = r#"{"sessionUpdate":"terminal_update","terminalId":"t","cwd":"src"}"#;
    // `cwd` is lenient: serde drops it like wire::from_str does, which also says so.
    let u: v2::SessionUpdate = serde_json::from_str(rel).expect("lenient");
    let v2::SessionUpdate::TerminalUpdate(u) = u else { panic!() };
    assert!(u.cwd.is_keep());
    let w = wire::from_str::<v2::SessionUpdate>(rel).expect("lenient").warnings;
    assert_eq!((w[0].kind, w[0].path.as_str()), (wire::ErrorKind::RelativePath, "/cwd"));
    let strict = r#"{"command":"ls","cwd":"src"}"#;
    let e = serde_json::from_str::<v2::CommandPermissionSubject>(strict).expect_err("relative").to_string();
    assert!(e.starts_with("relative_path at /cwd"), "{e}");
}

#[test]
fn values_can_be_built_with_constructors() {
    let mut u = v2::TerminalUpdate::new(v2::TerminalId::from("term_001"));
    u.command = wire::Patch::Set("ls".into());
    u.exit_status = wire::Patch::Set(v2::TerminalExitStatus::new());
    let text = wire::to_string(&v2::SessionUpdate::TerminalUpdate(u));
    assert_eq!(text, r#"{"sessionUpdate":"terminal_update","terminalId":"term_001","command":"ls","exitStatus":{}}"#);
    let chunk = v2::TerminalOutputChunk::new(v2::TerminalId::from("t"), wire::Bytes::from(&b"hi"[..]));
    assert_eq!(serde_json::to_string(&chunk).expect("writes"), r#"{"terminalId":"t","data":"aGk="}"#);
}

#[test]
fn numbers_serialize_as_ecmascript_writes_them() {
    for (input, want) in [
        ("1.0", "1"),
        ("1e21", "1e+21"),
        ("0.0000015", "0.0000015"),
        ("1e-7", "1e-7"),
        ("1e16", "10000000000000000"),
        ("-0", "0"),
        ("0.1", "0.1"),
        ("5e-324", "5e-324"),
        ("1.7976931348623157e308", "1.7976931348623157e+308"),
    ] {
        let j = wire::parse_value(input).expect("number");
        assert_eq!(wire::to_string(&j), want, "{input}");
        assert_eq!(serde_json::to_string(&j).expect("writes"), want, "{input}");
    }
}
