//! The serde round trip with upstream's crate `agent-client-protocol-schema` 1.20
//! (feature `unstable_protocol_v2`), both ways, over every valid v2 decode vector whose
//! type upstream also defines.
//!
//! - upstream -> ours -> upstream: whatever upstream reads, our types carry whole: the
//!   JSON upstream writes after the trip through our types equals what it wrote before.
//! - ours -> upstream -> ours: what we write, upstream reads; where upstream's types can
//!   carry the value (nothing upstream drops or does not know), we get the same value
//!   back. Every case of upstream's own examples (the RFD and the ACP Rust tests) must
//!   make the full trip.

use acp_terminal::{v2, wire};
use agent_client_protocol_schema::v2 as up;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(Default)]
struct Tally {
    cases: usize,
    upstream_reads: usize,
    upstream_keeps_what_we_drop: usize,
    upstream_checked: usize,
    upstream_round_trips: usize,
    ours_exact_through_upstream: usize,
    failures: Vec<String>,
}

fn trip<O, U>(text: &str, must_be_exact: bool, t: &mut Tally, id: &str)
where
    O: wire::Decode + wire::Encode + Serialize + DeserializeOwned,
    U: Serialize + DeserializeOwned,
{
    t.cases += 1;
    let Ok(ours) = wire::from_str::<O>(text) else { return };
    let canonical = wire::to_string(&ours.value);

    // upstream -> ours -> upstream.
    if let Ok(u) = serde_json::from_str::<U>(text) {
        t.upstream_reads += 1;
        let before = doubles(serde_json::to_value(&u).expect("upstream writes"));
        let text1 = serde_json::to_string(&u).expect("upstream writes");
        // Upstream keeps what the wire rules drop (bad base64, relative paths, out of
        // range numbers): that is a lenient member's warning here, not a value to carry.
        if wire::from_str::<O>(&text1).is_ok_and(|p| !p.warnings.is_empty()) {
            t.upstream_keeps_what_we_drop += 1;
        } else {
            t.upstream_checked += 1;
            match serde_json::from_str::<O>(&text1) {
                Err(e) => t.failures.push(format!("{id}: we reject what upstream wrote ({text1}): {e}")),
                Ok(o) => {
                    let ours_text = serde_json::to_string(&o).expect("we write");
                    match serde_json::from_str::<U>(&ours_text) {
                        Err(e) => t.failures.push(format!("{id}: upstream rejects what we wrote ({ours_text}): {e}")),
                        Ok(u2) => {
                            let after = doubles(serde_json::to_value(&u2).expect("upstream writes"));
                            if after == before {
                                t.upstream_round_trips += 1;
                            } else {
                                t.failures.push(format!("{id}: upstream's value changed through our types\n    before {before}\n    after  {after}"));
                            }
                        }
                    }
                }
            }
        }
    }

    // ours -> upstream -> ours.
    let ours_text = serde_json::to_string(&ours.value).expect("we write");
    assert_eq!(ours_text, canonical, "{id}: serde_json::to_string is not the canonical text");
    let exact = match serde_json::from_str::<U>(&ours_text) {
        Err(_) => false,
        Ok(u) => {
            let back = serde_json::to_string(&u).expect("upstream writes");
            match serde_json::from_str::<O>(&back) {
                Err(e) => {
                    t.failures.push(format!("{id}: we reject what upstream wrote ({back}): {e}"));
                    false
                }
                Ok(o) => wire::to_string(&o) == canonical,
            }
        }
    };
    if exact {
        t.ours_exact_through_upstream += 1;
    } else if must_be_exact {
        t.failures.push(format!("{id}: upstream's own example does not make the full trip: {canonical}"));
    }
}

macro_rules! dispatch {
    ($ty:expr, $text:expr, $exact:expr, $t:expr, $id:expr; $($name:ident),* $(,)?) => {
        match $ty {
            $( stringify!($name) => trip::<v2::$name, up::$name>($text, $exact, $t, $id), )*
            _ => {}
        }
    };
}

fn run(dir: &Path, must_be_exact: bool, t: &mut Tally) {
    for f in acp_terminal_conformance_files(dir) {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&f).expect("read")).expect("vector JSON");
        for c in doc["cases"].as_array().expect("cases") {
            if c["kind"] != "decode" || c.get("schema").and_then(Value::as_str).unwrap_or("v2") != "v2" {
                continue;
            }
            if c.get("expect").and_then(|e| e.get("error")).is_some() {
                continue;
            }
            let text = match (c.get("inputText"), c.get("input")) {
                (Some(Value::String(s)), _) => s.clone(),
                (_, Some(v)) => serde_json::to_string(v).expect("input"),
                _ => continue,
            };
            let id = format!("{} :: {}", f.display(), c["name"]);
            let ty = c["type"].as_str().unwrap_or_default();
            dispatch!(ty, &text, must_be_exact, t, &id;
                SessionUpdate, UpdateSessionNotification, TerminalUpdate, TerminalOutputChunk, TerminalOutput,
                TerminalExitStatus, Terminal, ToolCallUpdate, ToolCallContent, ContentBlock, RequestPermissionRequest,
                RequestPermissionResponse, RequestPermissionOutcome, RequestPermissionSubject, ToolKind, ToolCallStatus,
                ToolCallLocation, Diff, Annotations, ResourceLink, TextContent, ImageContent, AudioContent,
                EmbeddedResource, PermissionOption, PermissionOptionKind);
        }
    }
}

/// Every number as the double it denotes: `1.0` and `1` are one JSON number in every
/// binding (and written `1` canonically).
fn doubles(v: Value) -> Value {
    match v {
        Value::Number(n) => n.as_f64().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number),
        Value::Array(a) => Value::Array(a.into_iter().map(doubles).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, doubles(v))).collect()),
        other => other,
    }
}

fn acp_terminal_conformance_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir).expect("vector dir").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    out.sort();
    out
}

#[test]
fn vectors_round_trip_through_upstreams_crate_both_ways() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../vectors");
    let mut t = Tally::default();
    run(&root.join("upstream"), true, &mut t);
    run(&root.join("decode"), false, &mut t);
    println!(
        "{} valid cases; upstream reads {} ({} hold what our lenient members drop); {} of the other {} survive our types; {} of ours make the full trip through upstream",
        t.cases, t.upstream_reads, t.upstream_keeps_what_we_drop, t.upstream_round_trips, t.upstream_checked, t.ours_exact_through_upstream
    );
    assert!(t.failures.is_empty(), "{} failures:\n{}", t.failures.len(), t.failures.join("\n"));
    assert!(t.upstream_reads >= 100, "upstream read only {} cases", t.upstream_reads);
    assert_eq!(t.upstream_round_trips, t.upstream_checked);
    assert!(t.ours_exact_through_upstream >= 300, "only {} of ours made the full trip", t.ours_exact_through_upstream);
}
