// The Rust runner of `decode` cases for any generated package (construct vectors,
// upstream's literals, the probes, generated values): reads a JSON array of cases on
// stdin (`schema` the package's module, `type`, `inputText`, optional `method`) and
// prints one result per case (docs/CONFORMANCE.md, "Runners and the judge"); the judge
// is xtask/src/judge.rs. It is compiled as an example of a generated package, whose
// crate the including file names `package` (`use <crate> as package; include!(...)`).
use serde_json::{Value, json};
use std::io::Read as _;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("cases");
    println!("{}", Value::Array(cases.iter().map(result).collect()));
}

/// Decodes `text` (as the result of `method` when there is one).
fn decoded(m: &str, t: &str, method: Option<&str>, text: &str) -> Value {
    let got = match method {
        Some(method) => package::registry::decode_result(m, t, method, text),
        None => package::registry::decode(m, t, text),
    };
    match got {
        None => json!({ "unsupported": format!("the package has no codec for {t} in {m}") }),
        Some(Ok((output, warnings))) => json!({ "output": output, "warnings": warnings.iter().map(|w| json!({ "kind": w.kind.as_str(), "path": w.path })).collect::<Vec<_>>() }),
        Some(Err(e)) => json!({ "error": { "kind": e.kind.as_str(), "path": e.path }, "message": e.message }),
    }
}

/// A `state` case: the messages applied in order to a new session state (from the
/// case's `initial` state, when it has one), up to the first that fails.
fn state_result(c: &Value) -> Value {
    let m = c["schema"].as_str().unwrap_or("");
    let Some(version) = package::registry::VERSIONS.iter().find(|v| **v == m) else { return json!({ "unsupported": format!("no schema {m}") }) };
    let Some(state) = package::registry::session_state(version) else { return json!({ "unsupported": format!("schema {m} has no x-state") }) };
    // Only a case without `limits` takes the defaults (`"limits": null` is bad limits).
    let given = c.get("limits").map_or_else(|| "{}".to_owned(), Value::to_string);
    let limits = match package::wire::parse_value(&given).and_then(|v| package::wire::StateLimits::from_json(&v)) {
        Ok(l) => l,
        Err(e) => return json!({ "unsupported": format!("limits at {:?}: {e}", e.path) }),
    };
    let mut state = state.with_limits(limits);
    let mut out = json!({});
    let mut warnings = Vec::new();
    let mut messages = c["messages"].as_array().cloned().unwrap_or_default();
    if let Some(initial) = c["initialText"].as_str() {
        let v = match package::wire::parse_value(initial) {
            Ok(v) => v,
            Err(e) => return json!({ "unsupported": format!("initial state: {e}") }),
        };
        if let Err(e) = state.restore(&v) {
            out["error"] = json!({ "kind": e.kind.as_str(), "path": format!("/initial{}", e.path) });
            messages.clear();
        }
    }
    for (i, msg) in messages.iter().enumerate() {
        match state.apply(msg["type"].as_str().unwrap_or(""), msg["inputText"].as_str().unwrap_or("")) {
            Ok(ws) => warnings.extend(ws.iter().map(|w| json!({ "kind": w.kind.as_str(), "path": format!("/messages/{i}/message{}", w.path) }))),
            Err(e) => {
                out["error"] = json!({ "kind": e.kind.as_str(), "path": format!("/messages/{i}/message{}", e.path) });
                break;
            }
        }
    }
    // The state is typed: every target decodes as its definition and writes back as itself.
    if let Err(why) = state.check_invariants() {
        out["invariant"] = why.into();
    }
    out["state"] = Value::from(package::wire::to_string(&state.snapshot()));
    out["warnings"] = Value::Array(warnings);
    // What the limits dropped, when they dropped anything (as the store's counters).
    if state.counters() != package::wire::StateCounters::default() {
        out["counters"] = serde_json::from_str(&package::wire::to_string(&state.counters().to_json())).unwrap_or_default();
    }
    out
}

fn result(c: &Value) -> Value {
    if c["kind"] == "state" {
        return state_result(c);
    }
    let (m, t, input, method) = (c["schema"].as_str().unwrap_or(""), c["type"].as_str().unwrap_or(""), c["inputText"].as_str().unwrap_or(""), c["method"].as_str());
    let mut r = decoded(m, t, method, input);
    if let Some(output) = r.get("output").and_then(Value::as_str).map(str::to_owned) {
        // A method's result has no defaults of its own: its value again.
        r["defaults"] = if method.is_some() { Value::from(output.as_str()) } else { json!(package::registry::with_defaults(m, t, input).and_then(Result::ok).map(|(d, _)| d)) };
        r["again"] = decoded(m, t, method, &output);
    }
    r
}
