//! Evaluating conformance vectors (format: docs/CONFORMANCE.md) against any decoder.

use serde_json::Value;
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

/// The raw input text of a decode case.
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

fn expected_problems(v: Option<&Value>) -> Vec<(String, String)> {
    v.and_then(Value::as_array).map(|a| a.iter().map(|w| (w["kind"].as_str().unwrap_or("?").to_owned(), w["path"].as_str().unwrap_or("?").to_owned())).collect()).unwrap_or_default()
}

/// The result of one case: `Ok(canonical output or None)` when it passed.
pub type CaseResult = Result<Option<String>, String>;

/// Evaluates one `decode` case with `decode(schema, type, text)`.
pub fn decode_case(case: &Value, decode: &dyn Fn(&str, &str, &str) -> DecodeOutcome) -> CaseResult {
    let schema = case.get("schema").and_then(Value::as_str).unwrap_or("v2");
    let ty = case.get("type").and_then(Value::as_str).ok_or("the case has no `type`")?;
    let text = input_text(case)?;
    let no_expectations = Value::Object(serde_json::Map::new());
    let expect = case.get("expect").unwrap_or(&no_expectations);
    let got = decode(schema, ty, &text).ok_or_else(|| format!("`{ty}` is not a definition of schema {schema:?}"))?;
    match (got, expect.get("error")) {
        (Err((kind, path, message)), Some(want)) => {
            let want = (want["kind"].as_str().unwrap_or("?"), want["path"].as_str().unwrap_or("?"));
            if (kind.as_str(), path.as_str()) == want {
                Ok(Some(format!("error {kind} {path}")))
            } else {
                Err(format!("expected error {} at {:?}, got {kind} at {path:?} ({message})", want.0, want.1))
            }
        }
        (Err((kind, path, message)), None) => Err(format!("unexpected error {kind} at {path:?}: {message}")),
        (Ok((out, _)), Some(want)) => Err(format!("expected error {want}, got output {out}")),
        (Ok((out, warnings)), None) => {
            let want = expect.get("output").or_else(|| case.get("input")).ok_or("no expected output (give `expect.output` with `inputText`)")?;
            let want_text = serde_json::to_string(want).map_err(|e| e.to_string())?;
            let got_value: Value = serde_json::from_str(&out).map_err(|e| format!("output is not JSON: {e}: {out}"))?;
            // Compared as JSON values including member order (preserve_order keeps it).
            if got_value != *want || serde_json::to_string(&got_value).ok().as_deref() != Some(want_text.as_str()) {
                return Err(format!("output differs\n    expected {want_text}\n    got      {out}"));
            }
            let want_w = expected_problems(expect.get("warnings"));
            if warnings != want_w {
                return Err(format!("warnings differ: expected {want_w:?}, got {warnings:?}"));
            }
            match decode(schema, ty, &out) {
                Some(Ok((again, _))) if again == out => Ok(Some(out)),
                Some(Ok((again, _))) => Err(format!("not a fixpoint: {out} -> {again}")),
                Some(Err((k, p, m))) => Err(format!("the canonical output does not parse again: {k} at {p:?}: {m}")),
                None => Err("the type vanished".into()),
            }
        }
    }
}

/// The generated crate as a decoder.
#[must_use]
pub fn generated_decoder(schema: &str, ty: &str, text: &str) -> DecodeOutcome {
    acp_terminal::registry::decode(schema, ty, text)
        .map(|r| r.map(|(out, ws)| (out, ws.into_iter().map(|w| (w.kind.as_str().to_owned(), w.path)).collect())).map_err(|e| (e.kind.as_str().to_owned(), e.path, e.message)))
}

/// Evaluates one `transcript` case: every chunk pushed, in order, into a fresh transcript.
pub fn transcript_case(case: &Value) -> CaseResult {
    let chunks = case.get("chunks").and_then(Value::as_array).ok_or("the case has no `chunks` array")?;
    let want = case.get("expect").and_then(|e| e.get("text")).and_then(Value::as_str).ok_or("the case has no `expect.text`")?;
    let mut t = acp_terminal::Transcript::new();
    for (i, c) in chunks.iter().enumerate() {
        let text = c.as_str().ok_or_else(|| format!("chunk {i} is not a string"))?;
        let bytes = acp_terminal::wire::decode_base64(text).map_err(|e| format!("chunk {i} is not strict base64: {e}"))?;
        t.push(&bytes);
    }
    let got = t.text();
    if got == want { Ok(Some(got)) } else { Err(format!("transcript differs\n    expected {want:?}\n    got      {got:?}")) }
}

/// `v` with the members of every object sorted by name (code point order), as the
/// canonical text the runners emit for the cross-language comparison of store views.
#[must_use]
pub fn sorted_text(v: &Value) -> String {
    fn sort(v: &Value) -> acp_terminal::wire::Json {
        use acp_terminal::wire::Json;
        match v {
            Value::Object(m) => {
                let sorted: std::collections::BTreeMap<&str, &Value> = m.iter().map(|(k, v)| (k.as_str(), v)).collect();
                Json::Object(sorted.into_iter().map(|(k, v)| (k.to_owned(), sort(v))).collect())
            }
            Value::Array(a) => Json::Array(a.iter().map(sort).collect()),
            other => Json::from(other),
        }
    }
    acp_terminal::wire::to_string(&sort(v))
}

/// A store event as replay cases list it.
#[must_use]
pub fn event_view(e: &acp_terminal::store::StoreEvent) -> Value {
    use acp_terminal::store::StoreEvent;
    match e {
        StoreEvent::Evicted { terminal_id, exited } => serde_json::json!({ "kind": "evicted", "terminalId": terminal_id.as_str(), "exited": exited }),
        StoreEvent::Restarted { terminal_id } => serde_json::json!({ "kind": "restarted", "terminalId": terminal_id.as_str() }),
        _ => serde_json::json!({ "kind": "unknown" }),
    }
}

/// The view of a store's terminals that `replay` cases compare. `size` is there only
/// when known, `capabilities` (`{"cancel": bool}`) only when the Agent gave them, `droppedBytes` only when a byte was dropped, `wrappedLines` only when
/// the transcript wrapped a line, `droppedLines` and `droppedChars` only when it left
/// out a line.
#[must_use]
pub fn store_view(store: &acp_terminal::store::TerminalStore) -> Value {
    let mut out = serde_json::Map::new();
    for (id, t) in store.terminals() {
        let (transcript, wrapped, dropped_lines, dropped_chars) = t.with_transcript(|r| (r.text(), r.wrapped_lines(), r.dropped_lines(), r.dropped_chars()));
        let exit = t.exit_status().map_or(Value::Null, |e| serde_json::json!({ "exitCode": e.exit_code, "signal": e.signal }));
        let tool_calls: Vec<&str> = t.tool_calls().map(|c| c.as_str()).collect();
        let mut view = serde_json::json!({
            "command": t.command(),
            "cwd": t.cwd().map(|c| c.as_str()),
            "output": acp_terminal::wire::encode_base64(&t.output().to_vec()),
            "exitStatus": exit,
            "transcript": transcript,
            "toolCallIds": tool_calls,
        });
        if let Some(size) = t.size() {
            view["size"] = serde_json::json!({ "cols": size.cols, "rows": size.rows });
        }
        if t.capabilities().is_some() {
            view["capabilities"] = serde_json::json!({ "cancel": t.can_cancel() });
        }
        if t.dropped_bytes() > 0 {
            view["droppedBytes"] = t.dropped_bytes().into();
        }
        if wrapped > 0 {
            view["wrappedLines"] = wrapped.into();
        }
        if dropped_lines > 0 {
            view["droppedLines"] = dropped_lines.into();
            view["droppedChars"] = dropped_chars.into();
        }
        if t.restarted() {
            view["restarted"] = true.into();
        }
        out.insert(id.as_str().to_owned(), view);
    }
    Value::Object(out)
}

/// The store's counters as replay cases compare them: `None` when all are zero; else
/// `terminalsRefused` and `warningsDropped`, and each of `terminalsEvicted`,
/// `bytesEvicted`, `eventsDropped` above zero.
#[must_use]
pub fn store_counters(store: &acp_terminal::store::TerminalStore) -> Option<Value> {
    let c = store.counters();
    if c == acp_terminal::store::Counters::default() {
        return None;
    }
    let mut v = serde_json::json!({ "terminalsRefused": c.terminals_refused, "warningsDropped": c.warnings_dropped });
    for (name, n) in [("terminalsEvicted", c.terminals_evicted), ("bytesEvicted", c.bytes_evicted), ("eventsDropped", c.events_dropped)] {
        if n > 0 {
            v[name] = n.into();
        }
    }
    Some(v)
}

/// The limits of a replay case (`limits`, members optional; defaults otherwise).
///
/// # Errors
/// When a member is not a whole number.
pub fn replay_limits(case: &Value) -> Result<acp_terminal::store::Limits, String> {
    let mut limits = acp_terminal::store::Limits::default();
    let Some(l) = case.get("limits") else { return Ok(limits) };
    for (name, slot) in [
        ("maxTerminals", &mut limits.max_terminals),
        ("maxRetainedBytes", &mut limits.max_retained_bytes),
        ("maxTotalBytes", &mut limits.max_total_bytes),
        ("maxWarnings", &mut limits.max_warnings),
        ("maxLineLength", &mut limits.max_line_length),
        ("maxTextLength", &mut limits.max_text_length),
    ] {
        if let Some(v) = l.get(name) {
            *slot = v.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(|| format!("limits.{name} is not a whole number"))?;
        }
    }
    Ok(limits)
}

/// Evaluates one `replay` case: the `updates` (or `notifications`) applied in order,
/// as text, to an empty store with the case's `limits`.
pub fn replay_case(case: &Value) -> CaseResult {
    let (member, items) = match (case.get("updates"), case.get("notifications")) {
        (Some(Value::Array(u)), None) => ("updates", u),
        (None, Some(Value::Array(n))) => ("notifications", n),
        _ => return Err("the case needs one `updates` or `notifications` array".into()),
    };
    let expect = case.get("expect").ok_or("the case has no `expect`")?;
    let mut store = acp_terminal::store::TerminalStore::with_limits(replay_limits(case)?);
    let mut error: Option<(String, String)> = None;
    let mut events = Vec::new();
    for (i, u) in items.iter().enumerate() {
        let text = serde_json::to_string(u).map_err(|e| e.to_string())?;
        let r = if member == "updates" { store.apply_text(&text) } else { store.apply_notification_text(&text) };
        events.extend(store.take_events().iter().map(event_view));
        if let Err(e) = r {
            error = Some((e.kind.as_str().to_owned(), format!("/{member}/{i}{}", e.path)));
            break;
        }
        store.check_invariants().map_err(|e| format!("after update {i}: {e}"))?;
    }
    let want_error = expect.get("error").map(|e| (e["kind"].as_str().unwrap_or("?").to_owned(), e["path"].as_str().unwrap_or("?").to_owned()));
    if error != want_error {
        return Err(format!("expected error {want_error:?}, got {error:?}"));
    }
    let got = store_view(&store);
    let want = expect.get("terminals").ok_or("the case has no `expect.terminals`")?;
    if &got != want {
        return Err(format!("terminals differ\n    expected {want}\n    got      {got}"));
    }
    let counters = store_counters(&store);
    if counters.as_ref() != expect.get("counters") {
        return Err(format!("counters differ: expected {:?}, got {counters:?}", expect.get("counters")));
    }
    let want_events = expect.get("events").cloned().unwrap_or(Value::Array(Vec::new()));
    if Value::Array(events.clone()) != want_events {
        return Err(format!("events differ\n    expected {want_events}\n    got      {}", Value::Array(events)));
    }
    let mut out = serde_json::json!({ "terminals": got, "events": events });
    if let Some((kind, path)) = error {
        out["error"] = serde_json::json!({ "kind": kind, "path": path });
    }
    if let Some(c) = counters {
        out["counters"] = c;
    }
    Ok(Some(sorted_text(&out)))
}

fn problems(ws: &[acp_terminal::wire::Warning], prefix: &str) -> Vec<(String, String)> {
    ws.iter().map(|w| (w.kind.as_str().to_owned(), format!("{prefix}{}", w.path))).collect()
}

fn same_json(got: &str, want: &Value) -> Result<(), String> {
    let want_text = serde_json::to_string(want).map_err(|e| e.to_string())?;
    let got_value: Value = serde_json::from_str(got).map_err(|e| format!("output is not JSON: {e}: {got}"))?;
    if got_value != *want || serde_json::to_string(&got_value).ok().as_deref() != Some(want_text.as_str()) {
        return Err(format!("output differs\n    expected {want_text}\n    got      {got}"));
    }
    Ok(())
}

/// Evaluates one `convert` case (docs/CONFORMANCE.md) with the generated adapters.
pub fn convert_case(case: &Value) -> CaseResult {
    use acp_terminal::adapters::{Direction, convert};
    let from = case.get("from").and_then(Value::as_str).ok_or("the case has no `from`")?;
    let to = case.get("to").and_then(Value::as_str).ok_or("the case has no `to`")?;
    let direction = Direction::between(from, to).ok_or("`from`/`to` must be v1/v2 or v2/v1")?;
    let ty = case.get("type").and_then(Value::as_str).ok_or("the case has no `type`")?;
    let to_type = case.get("toType").and_then(Value::as_str);
    let text = input_text(case)?;
    let expect = case.get("expect").ok_or("the case has no `expect`")?;
    match (convert(direction, ty, to_type, &text), expect.get("error")) {
        (Err(e), Some(want)) => {
            let want = (want["kind"].as_str().unwrap_or("?"), want["path"].as_str().unwrap_or("?"));
            if (e.kind.as_str(), e.path.as_str()) == want {
                Ok(Some(format!("error {} {}", e.kind.as_str(), e.path)))
            } else {
                Err(format!("expected error {} at {:?}, got {} at {:?} ({})", want.0, want.1, e.kind.as_str(), e.path, e.message))
            }
        }
        (Err(e), None) => Err(format!("unexpected error {} at {:?}: {}", e.kind.as_str(), e.path, e.message)),
        (Ok(c), Some(want)) => Err(format!("expected error {want}, got output {}", c.text)),
        (Ok(c), None) => {
            let want = expect.get("output").ok_or("no `expect.output`")?;
            same_json(&c.text, want)?;
            let got_w = problems(&c.warnings, "");
            let want_w = expected_problems(expect.get("warnings"));
            if got_w != want_w {
                return Err(format!("warnings differ: expected {want_w:?}, got {got_w:?}"));
            }
            Ok(Some(c.text))
        }
    }
}

/// Evaluates one `bridge` case: the steps fed in order to a new bridge.
pub fn bridge_case(case: &Value) -> CaseResult {
    use acp_terminal::adapters::{Bridge, BridgeOptions};
    let options = case.get("options");
    let cap = options.and_then(|o| o.get("cap")).and_then(Value::as_u64).map(|c| usize::try_from(c).unwrap_or(usize::MAX));
    let meta = options.and_then(|o| o.get("meta")).and_then(Value::as_bool).unwrap_or(false);
    let mut bridge = Bridge::new(BridgeOptions { cap, meta });
    let steps = case.get("steps").and_then(Value::as_array).ok_or("the case has no `steps` array")?;
    let want = case.get("expect").and_then(|e| e.get("output")).and_then(Value::as_array).ok_or("the case has no `expect.output` array")?;
    if want.len() != steps.len() {
        return Err(format!("`expect.output` has {} entries for {} steps", want.len(), steps.len()));
    }
    let mut transcript = String::new();
    for (i, (step, want)) in steps.iter().zip(want).enumerate() {
        let result = if let Some(u) = step.get("update") {
            bridge.push(&serde_json::to_string(u).map_err(|e| e.to_string())?)
        } else if step.get("flush").is_some() {
            bridge.flush()
        } else {
            return Err(format!("step {i} has neither `update` nor `flush`"));
        };
        match (result, want.get("error")) {
            (Ok(out), None) => {
                let want = want.as_array().ok_or_else(|| format!("expected output of step {i} is not an array"))?;
                let got: Vec<Value> = out.iter().map(|t| serde_json::from_str(t).unwrap_or(Value::Null)).collect();
                if &got != want || serde_json::to_string(&got).ok() != serde_json::to_string(want).ok() {
                    return Err(format!("step {i}: output differs\n    expected {}\n    got      {}", Value::Array(want.clone()), Value::Array(got)));
                }
                for t in out {
                    transcript.push_str(&t);
                    transcript.push('\n');
                }
            }
            (Err(e), Some(w)) => {
                let path = format!("/steps/{i}/update{}", e.path);
                if (e.kind.as_str(), path.as_str()) != (w["kind"].as_str().unwrap_or("?"), w["path"].as_str().unwrap_or("?")) {
                    return Err(format!("step {i}: expected error {w}, got {} at {path:?} ({})", e.kind.as_str(), e.message));
                }
                transcript.push_str(&format!("error {} {path}\n", e.kind.as_str()));
            }
            (Err(e), None) => return Err(format!("step {i}: unexpected error {} at {:?}: {}", e.kind.as_str(), e.path, e.message)),
            (Ok(out), Some(w)) => return Err(format!("step {i}: expected error {w}, got {out:?}")),
        }
    }
    Ok(Some(transcript))
}

/// Evaluates one `ingest` case: v1 updates (through the `_meta` convention) and v2
/// updates applied in order to one store.
pub fn ingest_case(case: &Value) -> CaseResult {
    let updates = case.get("updates").and_then(Value::as_array).ok_or("the case has no `updates` array")?;
    let expect = case.get("expect").ok_or("the case has no `expect`")?;
    let mut store = acp_terminal::store::TerminalStore::new();
    let mut error: Option<(String, String)> = None;
    let mut warnings = Vec::new();
    for (i, u) in updates.iter().enumerate() {
        let schema = u.get("schema").and_then(Value::as_str).unwrap_or("v2");
        let text = serde_json::to_string(u.get("update").ok_or_else(|| format!("update {i} has no `update`"))?).map_err(|e| e.to_string())?;
        let prefix = format!("/updates/{i}/update");
        let result = if schema == "v1" { acp_terminal::adapters::ingest_v1(&mut store, &text) } else { store.apply_text(&text) };
        match result {
            Ok(ws) => warnings.extend(problems(&ws, &prefix)),
            Err(e) => {
                error = Some((e.kind.as_str().to_owned(), format!("{prefix}{}", e.path)));
                break;
            }
        }
    }
    let want_error = expect.get("error").map(|e| (e["kind"].as_str().unwrap_or("?").to_owned(), e["path"].as_str().unwrap_or("?").to_owned()));
    if error != want_error {
        return Err(format!("expected error {want_error:?}, got {error:?}"));
    }
    let want_w = expected_problems(expect.get("warnings"));
    if warnings != want_w {
        return Err(format!("warnings differ: expected {want_w:?}, got {warnings:?}"));
    }
    let got = store_view(&store);
    let want = expect.get("terminals").ok_or("the case has no `expect.terminals`")?;
    if &got != want {
        return Err(format!("terminals differ\n    expected {want}\n    got      {got}"));
    }
    let mut out = serde_json::json!({ "terminals": got, "warnings": warnings.iter().map(|(k, p)| serde_json::json!({ "kind": k, "path": p })).collect::<Vec<_>>() });
    if let Some((kind, path)) = error {
        out["error"] = serde_json::json!({ "kind": kind, "path": path });
    }
    Ok(Some(sorted_text(&out)))
}

/// One evaluated case.
pub struct Outcome {
    /// File, relative to where it was found.
    pub file: String,
    /// Case name.
    pub name: String,
    /// Case kind.
    pub kind: String,
    /// Pass (with canonical output of a decode case) or the failure.
    pub result: CaseResult,
}

/// Runs every case of every file with the generated crate.
#[must_use]
pub fn run_files(files: &[PathBuf]) -> Vec<Outcome> {
    let mut out = Vec::new();
    for f in files {
        let file = f.display().to_string();
        let doc: Value = match std::fs::read_to_string(f).map_err(|e| e.to_string()).and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string())) {
            Ok(d) => d,
            Err(e) => {
                out.push(Outcome { file, name: "(file)".into(), kind: "file".into(), result: Err(format!("cannot read the vector file: {e}")) });
                continue;
            }
        };
        let Some(cases) = doc.get("cases").and_then(Value::as_array) else {
            out.push(Outcome { file, name: "(file)".into(), kind: "file".into(), result: Err("no `cases` array".into()) });
            continue;
        };
        for case in cases {
            let name = case.get("name").and_then(Value::as_str).unwrap_or("(unnamed)").to_owned();
            let kind = case.get("kind").and_then(Value::as_str).unwrap_or("").to_owned();
            let result = match kind.as_str() {
                "decode" => decode_case(case, &generated_decoder),
                "transcript" => transcript_case(case),
                "replay" => replay_case(case),
                "convert" => convert_case(case),
                "bridge" => bridge_case(case),
                "ingest" => ingest_case(case),
                other => Err(format!("this runner cannot evaluate cases of kind {other:?} yet")),
            };
            out.push(Outcome { file: file.clone(), name, kind, result });
        }
    }
    out
}
