//! The Rust conformance runner's library: what the generated crate does with each case of
//! a vector file (format: docs/CONFORMANCE.md), as a result value. It judges nothing:
//! `cargo xtask conformance` compares the results with the cases' expectations and across
//! languages (xtask/src/judge.rs).

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub mod hostile;

/// What a decoder returns: canonical text and warnings `(kind, path)`, or an error
/// `(kind, path, message)`; `None` when it does not know the type.
pub type DecodeOutcome = Option<Result<(String, Vec<(String, String)>), (String, String, String)>>;

/// Every `.json` file under `paths` (files are taken as they are), sorted.
#[must_use]
pub fn vector_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for p in entries.flatten().map(|e| e.path()) {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "json") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() { walk(p, &mut out) } else { out.push(p.clone()) }
    }
    out.sort();
    out
}

/// The raw input text of a decode or convert case.
///
/// # Errors
/// When the case has neither `input` nor `inputText`.
pub fn input_text(case: &Value) -> Result<String, String> {
    match (case.get("inputText"), case.get("input")) {
        (Some(Value::String(t)), _) => Ok(t.clone()),
        (_, Some(input)) => serde_json::to_string(input).map_err(|e| e.to_string()),
        _ => Err("the case has neither `input` nor `inputText`".into()),
    }
}

/// A case this runner cannot evaluate, and why.
fn unsupported(why: impl Into<String>) -> Value {
    json!({ "unsupported": why.into() })
}

fn error(kind: &str, path: &str, message: &str) -> Value {
    json!({ "error": { "kind": kind, "path": path }, "message": message })
}

fn problems<'a>(ws: impl IntoIterator<Item = (&'a str, String)>) -> Value {
    Value::Array(ws.into_iter().map(|(kind, path)| json!({ "kind": kind, "path": path })).collect())
}

fn decoded(got: DecodeOutcome) -> Value {
    match got {
        None => unsupported("the type vanished"),
        Some(Ok((output, ws))) => json!({ "output": output, "warnings": problems(ws.iter().map(|(k, p)| (k.as_str(), p.clone()))) }),
        Some(Err((kind, path, message))) => error(&kind, &path, &message),
    }
}

/// The result of one `decode` case with `decode(schema, type, text)`: the output, its
/// warnings and what decoding the output again gives (`again`), or the error.
pub fn decode_result(case: &Value, decode: &dyn Fn(&str, &str, &str) -> DecodeOutcome) -> Value {
    let schema = case.get("schema").and_then(Value::as_str).unwrap_or("v2");
    let Some(ty) = case.get("type").and_then(Value::as_str) else { return unsupported("the case has no `type`") };
    let text = match input_text(case) {
        Ok(t) => t,
        Err(e) => return unsupported(e),
    };
    let Some(got) = decode(schema, ty, &text) else { return unsupported(format!("`{ty}` is not a definition of schema {schema:?}")) };
    let mut result = decoded(Some(got));
    if let Some(out) = result.get("output").and_then(Value::as_str).map(str::to_owned) {
        result["again"] = decoded(decode(schema, ty, &out));
    }
    result
}

/// The generated crate as a decoder.
#[must_use]
pub fn generated_decoder(schema: &str, ty: &str, text: &str) -> DecodeOutcome {
    acp_terminal::registry::decode(schema, ty, text)
        .map(|r| r.map(|(out, ws)| (out, ws.into_iter().map(|w| (w.kind.as_str().to_owned(), w.path)).collect())).map_err(|e| (e.kind.as_str().to_owned(), e.path, e.message)))
}

/// The result of one `transcript` case: every chunk pushed, in order, into a fresh
/// transcript; its text.
#[must_use]
pub fn transcript_result(case: &Value) -> Value {
    let Some(chunks) = case.get("chunks").and_then(Value::as_array) else { return unsupported("the case has no `chunks` array") };
    let mut t = acp_terminal::Transcript::new();
    for (i, c) in chunks.iter().enumerate() {
        let Some(text) = c.as_str() else { return unsupported(format!("chunk {i} is not a string")) };
        match acp_terminal::wire::decode_base64(text) {
            Ok(bytes) => t.push(&bytes),
            Err(e) => return unsupported(format!("chunk {i} is not strict base64: {e}")),
        }
    }
    json!({ "text": t.text() })
}

/// The limits of a replay case (`limits`, members optional; defaults otherwise).
///
/// # Errors
/// When a member is not a whole number.
pub fn replay_limits(case: &Value) -> Result<acp_terminal::store::Limits, String> {
    let mut limits = acp_terminal::store::Limits::default();
    let Some(l) = case.get("limits") else { return Ok(limits) };
    if !l.is_object() {
        return Err("limits is not an object".to_owned());
    }
    for (name, slot) in [
        ("maxTerminals", &mut limits.max_terminals),
        ("maxRetainedBytes", &mut limits.max_retained_bytes),
        ("maxTotalBytes", &mut limits.max_total_bytes),
        ("maxWarnings", &mut limits.max_warnings),
        ("maxLineLength", &mut limits.max_line_length),
        ("maxTextLength", &mut limits.max_text_length),
        ("maxMembers", &mut limits.max_members),
    ] {
        if let Some(v) = l.get(name) {
            *slot = v.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(|| format!("limits.{name} is not a whole number"))?;
        }
    }
    Ok(limits)
}

/// The result of one `replay` case: the `updates` (or `notifications`) applied in order,
/// as text, to an empty store with the case's `limits`, up to the first that fails; the
/// store's view, counters, events, that error, and any broken invariant.
#[must_use]
pub fn replay_result(case: &Value) -> Value {
    let (member, items) = match (case.get("updates"), case.get("notifications")) {
        (Some(Value::Array(u)), None) => ("updates", u),
        (None, Some(Value::Array(n))) => ("notifications", n),
        _ => return unsupported("the case needs one `updates` or `notifications` array"),
    };
    let limits = match replay_limits(case) {
        Ok(l) => l,
        Err(e) => return unsupported(e),
    };
    let mut store = acp_terminal::store::TerminalStore::with_limits(limits);
    let mut out = json!({});
    let mut events = Vec::new();
    for (i, u) in items.iter().enumerate() {
        let text = u.to_string();
        let r = if member == "updates" { store.apply_text(&text) } else { store.apply_notification_text(&text) };
        events.extend(store.take_events().iter().map(|e| Value::from(&e.to_json())));
        if let Err(e) = r {
            out = error(e.kind.as_str(), &format!("/{member}/{i}{}", e.path), &e.message);
            break;
        }
        if let Err(e) = store.check_invariants() {
            out["invariant"] = format!("after update {i}: {e}").into();
            break;
        }
    }
    out["terminals"] = Value::from(&store.snapshot());
    out["events"] = Value::Array(events);
    if let Some(c) = store.counters().to_json() {
        out["counters"] = Value::from(&c);
    }
    out
}

/// The result of one `convert` case with the generated adapters: output and warnings, or
/// the error.
#[must_use]
pub fn convert_result(case: &Value) -> Value {
    use acp_terminal::adapters::{Direction, convert};
    let (Some(from), Some(to), Some(ty)) = (case.get("from").and_then(Value::as_str), case.get("to").and_then(Value::as_str), case.get("type").and_then(Value::as_str)) else {
        return unsupported("the case needs `from`, `to` and `type`");
    };
    let Some(direction) = Direction::between(from, to) else { return unsupported("`from`/`to` must be v1/v2 or v2/v1") };
    let text = match input_text(case) {
        Ok(t) => t,
        Err(e) => return unsupported(e),
    };
    match convert(direction, ty, case.get("toType").and_then(Value::as_str), &text) {
        Ok(c) => json!({ "output": c.text, "warnings": problems(c.warnings.iter().map(|w| (w.kind.as_str(), w.path.clone()))) }),
        Err(e) => error(e.kind.as_str(), &e.path, &e.message),
    }
}

/// The result of one `bridge` case: the steps fed in order to a new bridge; per step, the
/// v1 updates it returned (texts) or its error.
#[must_use]
pub fn bridge_result(case: &Value) -> Value {
    use acp_terminal::adapters::{Bridge, BridgeOptions};
    let options = case.get("options");
    let cap = options.and_then(|o| o.get("cap")).and_then(Value::as_u64).map(|c| usize::try_from(c).unwrap_or(usize::MAX));
    let meta = options.and_then(|o| o.get("meta")).and_then(Value::as_bool).unwrap_or(false);
    let mut bridge = Bridge::new(BridgeOptions { cap, meta });
    let Some(steps) = case.get("steps").and_then(Value::as_array) else { return unsupported("the case has no `steps` array") };
    let mut out = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let result = if let Some(u) = step.get("update") {
            bridge.push(&u.to_string())
        } else if step.get("flush").is_some() {
            bridge.flush()
        } else {
            return unsupported(format!("step {i} has neither `update` nor `flush`"));
        };
        out.push(match result {
            Ok(updates) => json!(updates),
            Err(e) => error(e.kind.as_str(), &format!("/steps/{i}/update{}", e.path), &e.message),
        });
    }
    json!({ "steps": out })
}

/// The result of one `ingest` case: v1 updates (through the `_meta` convention) and v2
/// updates applied in order to one store, up to the first that fails.
#[must_use]
pub fn ingest_result(case: &Value) -> Value {
    let Some(updates) = case.get("updates").and_then(Value::as_array) else { return unsupported("the case has no `updates` array") };
    let mut store = acp_terminal::store::TerminalStore::new();
    let mut out = json!({});
    let mut warnings = Vec::new();
    for (i, u) in updates.iter().enumerate() {
        let Some(update) = u.get("update") else { return unsupported(format!("update {i} has no `update`")) };
        let text = update.to_string();
        let prefix = format!("/updates/{i}/update");
        let result = if u.get("schema").and_then(Value::as_str) == Some("v1") { acp_terminal::adapters::ingest_v1(&mut store, &text) } else { store.apply_text(&text) };
        match result {
            Ok(ws) => warnings.extend(ws.iter().map(|w| json!({ "kind": w.kind.as_str(), "path": format!("{prefix}{}", w.path) }))),
            Err(e) => {
                out = error(e.kind.as_str(), &format!("{prefix}{}", e.path), &e.message);
                break;
            }
        }
    }
    out["terminals"] = Value::from(&store.snapshot());
    out["warnings"] = Value::Array(warnings);
    out
}

/// The result of one `state` case: the messages applied in order to a new session state of
/// the generated crate (from `initial`, when given), up to the first that fails.
#[must_use]
pub fn state_result(case: &Value) -> Value {
    let Some(state) = acp_terminal::registry::session_state("v2") else { return unsupported("the crate's v2 schema has no x-state") };
    let given = case.get("limits").map_or_else(|| "{}".to_owned(), Value::to_string);
    let limits = match acp_terminal::wire::parse_value(&given).and_then(|v| acp_terminal::wire::StateLimits::from_json(&v)) {
        Ok(l) => l,
        Err(e) => return unsupported(format!("limits at {:?}: {e}", e.path)),
    };
    let mut state = state.with_limits(limits);
    let mut out = json!({});
    let mut warnings = Vec::new();
    let mut messages = case.get("messages").and_then(Value::as_array).cloned().unwrap_or_default();
    if let Some(initial) = case.get("initial")
        && let Err(e) = state.restore(&acp_terminal::wire::Json::from(initial))
    {
        out = error(e.kind.as_str(), &format!("/initial{}", e.path), &e.message);
        messages.clear();
    }
    for (i, m) in messages.iter().enumerate() {
        let prefix = format!("/messages/{i}/message");
        match state.apply(m["type"].as_str().unwrap_or_default(), &m["message"].to_string()) {
            Ok(ws) => warnings.extend(ws.iter().map(|w| json!({ "kind": w.kind.as_str(), "path": format!("{prefix}{}", w.path) }))),
            Err(e) => {
                out = error(e.kind.as_str(), &format!("{prefix}{}", e.path), &e.message);
                break;
            }
        }
    }
    // The state is typed: every target decodes as its definition and writes back as itself.
    if let Err(why) = state.check_invariants() {
        out["invariant"] = why.into();
    }
    out["state"] = acp_terminal::wire::to_string(&state.snapshot()).into();
    out["warnings"] = Value::Array(warnings);
    // What the limits dropped, when they dropped anything (as the store's counters).
    if state.counters() != acp_terminal::wire::StateCounters::default() {
        out["counters"] = serde_json::from_str(&acp_terminal::wire::to_string(&state.counters().to_json())).unwrap_or_default();
    }
    out
}

/// The result of any case, by its `kind`.
#[must_use]
pub fn result(case: &Value) -> Value {
    match case.get("kind").and_then(Value::as_str).unwrap_or_default() {
        "decode" => decode_result(case, &generated_decoder),
        "transcript" => transcript_result(case),
        "replay" => replay_result(case),
        "convert" => convert_result(case),
        "bridge" => bridge_result(case),
        "ingest" => ingest_result(case),
        "state" => state_result(case),
        other => unsupported(format!("this runner cannot evaluate cases of kind {other:?}")),
    }
}

/// Every case of every file with its result, as the lines the runner prints:
/// `{"file", "name", "result"}` (a file that cannot be read gives one line named `(file)`).
#[must_use]
pub fn run_files(files: &[PathBuf]) -> Vec<Value> {
    let mut out = Vec::new();
    for f in files {
        let file = f.display().to_string();
        let doc: Result<Value, String> = std::fs::read_to_string(f).map_err(|e| e.to_string()).and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()));
        match doc.as_ref().map(|d| d.get("cases").and_then(Value::as_array)) {
            Ok(Some(cases)) => {
                for case in cases {
                    out.push(json!({ "file": file, "name": case.get("name").cloned().unwrap_or(Value::Null), "result": result(case) }));
                }
            }
            Ok(None) => out.push(json!({ "file": file, "name": "(file)", "result": unsupported("no `cases` array") })),
            Err(e) => out.push(json!({ "file": file, "name": "(file)", "result": unsupported(format!("cannot read the vector file: {e}")) })),
        }
    }
    out
}
