//! typify, an independent JSON Schema consumer, accepts our emitted schema (the crate
//! builds) and its types parse every valid `decode` vector (every case that expects
//! neither an error nor a warning), except the cases listed with their typify
//! limitation in `known_failures.txt`; a listed case that starts to pass fails the test
//! too, so the list cannot go stale.

use serde_json::Value;
use std::path::{Path, PathBuf};

macro_rules! parse_with {
    ($module:ident, $ty:expr, $text:expr, $($name:ident),* $(,)?) => {
        match $ty {
            $( stringify!($name) => Some(serde_json::from_str::<acp_terminal_typify_check::$module::$name>($text).map(|_| ()).map_err(|e| e.to_string())), )*
            _ => None,
        }
    };
}

fn parse(schema: &str, ty: &str, text: &str) -> Option<Result<(), String>> {
    match schema {
        "v2" => parse_with!(
            v2,
            ty,
            text,
            AbsolutePath,
            Annotations,
            AudioContent,
            BlobResourceContents,
            CommandPermissionSubject,
            Content,
            ContentBlock,
            Diff,
            DiffChange,
            DiffFileType,
            DiffPatch,
            DiffPatchFormat,
            DiffPathChange,
            DiffPathPairChange,
            EmbeddedResource,
            EmbeddedResourceResource,
            Icon,
            IconTheme,
            ImageContent,
            MediaType,
            PermissionOption,
            PermissionOptionId,
            PermissionOptionKind,
            RequestPermissionOutcome,
            RequestPermissionRequest,
            RequestPermissionResponse,
            RequestPermissionSubject,
            ResourceLink,
            Role,
            SelectedPermissionOutcome,
            SessionId,
            SessionUpdate,
            Terminal,
            TerminalExitStatus,
            TerminalId,
            TerminalOutput,
            TerminalOutputChunk,
            TerminalSize,
            TerminalUpdate,
            TextContent,
            TextResourceContents,
            ToolCallContent,
            ToolCallContentChunk,
            ToolCallId,
            ToolCallLocation,
            ToolCallPermissionSubject,
            ToolCallStatus,
            ToolCallUpdate,
            ToolKind,
            UpdateSessionNotification,
        ),
        "v1" => parse_with!(
            v1,
            ty,
            text,
            Annotations,
            AudioContent,
            BlobResourceContents,
            Content,
            ContentBlock,
            CreateTerminalRequest,
            CreateTerminalResponse,
            Diff,
            EmbeddedResource,
            EmbeddedResourceResource,
            EnvVariable,
            ImageContent,
            KillTerminalRequest,
            KillTerminalResponse,
            ReleaseTerminalRequest,
            ReleaseTerminalResponse,
            PermissionOption,
            PermissionOptionId,
            PermissionOptionKind,
            RequestPermissionOutcome,
            RequestPermissionRequest,
            RequestPermissionResponse,
            ResourceLink,
            Role,
            SelectedPermissionOutcome,
            SessionId,
            SessionNotification,
            SessionUpdate,
            Terminal,
            TerminalExitStatus,
            TerminalId,
            TerminalOutputRequest,
            TerminalOutputResponse,
            TextContent,
            TextResourceContents,
            ToolCall,
            ToolCallContent,
            ToolCallId,
            ToolCallLocation,
            ToolCallStatus,
            ToolCallUpdate,
            ToolKind,
            WaitForTerminalExitRequest,
            WaitForTerminalExitResponse,
        ),
        _ => None,
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for p in std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()) {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

#[test]
fn typify_types_parse_every_valid_decode_vector() {
    let mut all: Vec<PathBuf> = Vec::new();
    files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors"), &mut all);
    all.sort();
    let known: std::collections::BTreeSet<String> = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("known_failures.txt"))
        .expect("known_failures.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split("  # ").next().unwrap_or(l).to_owned())
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors");
    let (mut n, mut failed, mut stale, mut expected_failures) = (0, Vec::new(), Vec::new(), 0);
    for f in &all {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(f).expect("read")).expect("JSON");
        for c in doc["cases"].as_array().expect("cases") {
            let expect = &c["expect"];
            let warned = expect.get("warnings").and_then(Value::as_array).is_some_and(|w| !w.is_empty());
            if c["kind"] != "decode" || expect.get("error").is_some() || warned || c.get("input").is_none() {
                continue;
            }
            let schema = c.get("schema").and_then(Value::as_str).unwrap_or("v2");
            let ty = c["type"].as_str().unwrap_or_default();
            let text = serde_json::to_string(&c["input"]).expect("text");
            n += 1;
            let id = format!("{} :: {}", f.strip_prefix(&root).unwrap_or(f).display(), c["name"].as_str().unwrap_or_default());
            let listed = known.contains(&id);
            match parse(schema, ty, &text) {
                Some(Ok(())) if listed => stale.push(id),
                Some(Ok(())) => {}
                Some(Err(_)) if listed => expected_failures += 1,
                Some(Err(e)) => failed.push(format!("{id}: {e}")),
                None => failed.push(format!("{id}: typify has no type {schema} {ty}")),
            }
        }
    }
    assert!(n > 0, "no valid decode vectors found");
    assert!(failed.is_empty(), "{} of {n} valid vectors fail in typify's types and are not listed:\n{}", failed.len(), failed.join("\n"));
    assert!(stale.is_empty(), "listed in known_failures.txt but typify parses them now (remove them):\n{}", stale.join("\n"));
    assert_eq!(expected_failures, known.len(), "every listed case must still exist and fail");
    eprintln!("typify: {} of {n} valid decode vectors parse; {expected_failures} are known typify limitations", n - expected_failures);
}
