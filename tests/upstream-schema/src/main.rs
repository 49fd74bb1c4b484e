//! Prints upstream ACP's JSON Schema for one protocol version, as the published crate
//! `agent-client-protocol-schema` derives it with `schemars`: the roots are the
//! crate's JSON-RPC messages (each side's requests, responses and notifications, and the
//! protocol-level notifications either side sends), and `$defs` holds every type they
//! reach, under the crate's own names. Nothing is edited: the only additions are the
//! document's `title` and a `$comment` naming the crate, its version and its features.
//!
//! `cargo xtask upstream` runs it (once per feature set) and writes `tests/upstream/`.

use agent_client_protocol_schema::{rpc, v1, v2};
use schemars::JsonSchema;
use serde_json::Value;

// The v2 message roots (their `$defs` names are the crate's: `AgentRequest` is the
// request envelope whose `params` are the Agent's requests, and so on). Plain comments,
// not doc comments: a doc comment would become the document's `description`.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct RootV2 {
    agent_request: v2::Request<v2::AgentRequest>,
    client_request: v2::Request<v2::ClientRequest>,
    agent_response: v2::Response<v2::AgentResponse>,
    client_response: v2::Response<v2::ClientResponse>,
    agent_notification: rpc::Notification<v2::AgentNotification>,
    client_notification: rpc::Notification<v2::ClientNotification>,
    protocol_level_notification: rpc::Notification<v2::ProtocolLevelNotification>,
}

// The v1 message roots, as `RootV2`.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct RootV1 {
    agent_request: v1::Request<v1::AgentRequest>,
    client_request: v1::Request<v1::ClientRequest>,
    agent_response: v1::Response<v1::AgentResponse>,
    client_response: v1::Response<v1::ClientResponse>,
    agent_notification: rpc::Notification<v1::AgentNotification>,
    client_notification: rpc::Notification<v1::ClientNotification>,
    protocol_level_notification: rpc::Notification<v1::ProtocolLevelNotification>,
}

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let version = args.next().unwrap_or_default();
    // The crate and version as the lock file resolved them (`cargo xtask upstream` reads
    // it), so a bump never needs an edit here.
    let krate = args.next().unwrap_or_else(|| "agent-client-protocol-schema".to_owned());
    let unstable = cfg!(feature = "unstable");
    let features = if unstable { "unstable_protocol_v2 + unstable" } else { "unstable_protocol_v2" };
    let (schema, title) = match version.as_str() {
        "v2" => (schemars::schema_for!(RootV2), "Agent Client Protocol v2"),
        "v1" => (schemars::schema_for!(RootV1), "Agent Client Protocol v1"),
        _ => {
            eprintln!("usage: acp-upstream-schema v2|v1 [CRATE-AND-VERSION]  (prints that version's schema)");
            return std::process::ExitCode::FAILURE;
        }
    };
    let Value::Object(mut doc) = schema.to_value() else {
        eprintln!("schemars gave a schema that is not an object");
        return std::process::ExitCode::FAILURE;
    };
    // A fixed member order: `$schema`, `title`, `$comment`, the roots, `$defs`.
    let mut out = serde_json::Map::new();
    out.insert("$schema".into(), doc.remove("$schema").unwrap_or(Value::Null));
    doc.remove("title");
    out.insert("title".into(), Value::from(title));
    out.insert(
        "$comment".into(),
        Value::from(format!(
            "Derived by `cargo xtask upstream` from the published crate {krate} (crates.io, Apache-2.0), features: {features}; `schemars::schema_for!` on the {version} message roots, nothing edited. Do not edit: rerun the command."
        )),
    );
    let defs = doc.remove("$defs");
    out.extend(doc);
    if let Some(defs) = defs {
        out.insert("$defs".into(), defs);
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(out)).unwrap_or_default();
    text.push('\n');
    print!("{text}");
    std::process::ExitCode::SUCCESS
}
