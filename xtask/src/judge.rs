//! The one judge of every case set (docs/CONFORMANCE.md): project vectors, construct
//! vectors, upstream's literals, the comparison's probes, generated values and fuzz
//! cases. The runners of the three languages only print what their package did with a
//! case (a result); this module decides whether that result meets the case's `expect`,
//! and whether the languages agree.

use serde_json::{Value, json};

/// `result` with what may differ between languages taken out: error messages (every
/// `message` member) and the runner's own extra routes (`routes`).
#[must_use]
pub fn comparable(result: &Value) -> Value {
    match result {
        Value::Object(m) => Value::Object(m.iter().filter(|(k, _)| *k != "message" && *k != "routes").map(|(k, v)| (k.clone(), comparable(v))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(comparable).collect()),
        other => other.clone(),
    }
}

/// The canonical text of a JSON value with its member order (serde_json keeps it and
/// writes the same string escapes as the canonical form).
fn text(v: &Value) -> String {
    v.to_string()
}

/// `got` (JSON text a runner wrote) is `want`, member order included.
fn same_text(got: &str, want: &Value) -> Result<(), String> {
    let want_text = text(want);
    let parsed: Value = serde_json::from_str(got).map_err(|e| format!("the output is not JSON ({e}): {got}"))?;
    if parsed != *want || text(&parsed) != want_text {
        return Err(format!("output differs\n    expected {want_text}\n    got      {got}"));
    }
    Ok(())
}

fn error_of(v: &Value) -> Option<(&str, &str)> {
    let e = v.get("error")?;
    Some((e.get("kind")?.as_str()?, e.get("path")?.as_str()?))
}

/// The error a result holds (kind and pointer) must be the expected one, or there must
/// be none when none is expected.
fn same_error(want: Option<&Value>, got: &Value) -> Result<(), String> {
    let want = want.map(|w| (w.get("kind").and_then(Value::as_str).unwrap_or("?"), w.get("path").and_then(Value::as_str).unwrap_or("?")));
    let message = got.get("message").and_then(Value::as_str).unwrap_or_default();
    match (want, error_of(got)) {
        (None, None) => Ok(()),
        (Some(w), Some(g)) if w == g => Ok(()),
        (Some(w), Some(g)) => Err(format!("expected error {} at {:?}, got {} at {:?} ({message})", w.0, w.1, g.0, g.1)),
        (Some(w), None) => Err(format!("expected error {} at {:?}, got none", w.0, w.1)),
        (None, Some(g)) => Err(format!("unexpected error {} at {:?}: {message}", g.0, g.1)),
    }
}

fn warnings(v: Option<&Value>) -> Value {
    v.cloned().unwrap_or_else(|| json!([]))
}

fn same_warnings(want: Option<&Value>, got: &Value) -> Result<(), String> {
    let (want, got) = (warnings(want), warnings(got.get("warnings")));
    if want == got { Ok(()) } else { Err(format!("warnings differ: expected {want}, got {got}")) }
}

/// A `decode` case (or a `convert` case: no `again`, no `defaults`).
///
/// `expect` may be `null` (no expectation: only the languages' agreement and the fixed
/// point are judged), hold `error`, `accepted` (`true` or `false` when only that is
/// known), `value` (accepted, and the output is that JSON value, member order aside), or
/// the `output` (default: the input), `warnings` (default none) and `defaults` (default:
/// the output).
fn decode(case: &Value, result: &Value, convert: bool) -> Result<(), String> {
    let no_expectations = json!({});
    let expect = match case.get("expect") {
        Some(Value::Null) => None,
        Some(e) => Some(e),
        None => Some(&no_expectations),
    };
    if let Some(expect) = expect {
        match (expect.get("error"), expect.get("accepted").and_then(Value::as_bool)) {
            (Some(want), _) => same_error(Some(want), result)?,
            (None, Some(false)) if result.get("error").is_none() => return Err(format!("expected a rejection, got output {}", result["output"])),
            (None, Some(false)) => {}
            (None, _) if expect.get("value").is_some() => {
                same_error(None, result)?;
                let got = result.get("output").and_then(Value::as_str).ok_or("the result has no `output`")?;
                if serde_json::from_str::<Value>(got).ok().as_ref() != expect.get("value") {
                    return Err(format!("expected the value {}, got {got}", expect["value"]));
                }
            }
            (None, Some(true)) => {
                same_error(None, result)?;
                if expect.get("warnings").is_some() {
                    same_warnings(expect.get("warnings"), result)?;
                }
            }
            (None, None) => {
                same_error(None, result)?;
                let want = expect.get("output").or(if convert { None } else { case.get("input") }).ok_or("no expected output (give `expect.output` with `inputText`)")?;
                let got = result.get("output").and_then(Value::as_str).ok_or("the result has no `output`")?;
                same_text(got, want)?;
                same_warnings(expect.get("warnings"), result)?;
                if let Some(defaults) = result.get("defaults").and_then(Value::as_str) {
                    same_text(defaults, expect.get("defaults").unwrap_or(want)).map_err(|e| format!("with defaults: {e}"))?;
                }
            }
        }
    }
    // The canonical form is a fixed point: the output reads back as itself, with no
    // warnings.
    if let (Some(out), Some(again)) = (result.get("output"), result.get("again"))
        && comparable(again) != json!({ "output": out, "warnings": [] })
    {
        return Err(format!("the output does not read back as itself: {out} -> {again}"));
    }
    // Other routes of the runner's language to the same input (a value already parsed):
    // the same result, except the bytes of a route whose object member order is lost.
    for r in result.get("routes").and_then(Value::as_array).into_iter().flatten() {
        let route = r.get("route").and_then(Value::as_str).unwrap_or("another route");
        let got = r.get("result").ok_or_else(|| format!("{route}: no result"))?;
        let main = comparable(&json!({ "output": result.get("output"), "warnings": result.get("warnings"), "error": result.get("error") }));
        let this = comparable(&json!({ "output": got.get("output"), "warnings": got.get("warnings"), "error": got.get("error") }));
        if r.get("orderLost").and_then(Value::as_bool) == Some(true) {
            if main["error"].is_null() != this["error"].is_null() || (main["error"].is_null() && main["warnings"] != this["warnings"]) {
                return Err(format!("{route}: expected {main}, got {this}"));
            }
        } else if main != this {
            return Err(format!("{route}: expected {main}, got {this} ({})", got.get("message").and_then(Value::as_str).unwrap_or_default()));
        }
    }
    Ok(())
}

fn expect_of(case: &Value) -> Result<&Value, String> {
    case.get("expect").filter(|e| e.is_object()).ok_or_else(|| "the case has no `expect` object".to_owned())
}

/// A store view (`terminals`), compared as JSON values.
fn same_member(name: &str, want: Option<&Value>, got: Option<&Value>) -> Result<(), String> {
    if want == got {
        Ok(())
    } else {
        let show = |v: Option<&Value>| v.map_or_else(|| "(none)".to_owned(), text);
        Err(format!("{name} differ\n    expected {}\n    got      {}", show(want), show(got)))
    }
}

fn replay(case: &Value, result: &Value) -> Result<(), String> {
    let expect = expect_of(case)?;
    if let Some(why) = result.get("invariant") {
        return Err(format!("the store broke an invariant {why}"));
    }
    same_error(expect.get("error"), result)?;
    same_member("terminals", Some(expect.get("terminals").ok_or("the case has no `expect.terminals`")?), result.get("terminals"))?;
    same_member("counters", expect.get("counters"), result.get("counters"))?;
    same_member("events", Some(&warnings(expect.get("events"))), result.get("events"))
}

fn ingest(case: &Value, result: &Value) -> Result<(), String> {
    let expect = expect_of(case)?;
    same_error(expect.get("error"), result)?;
    same_warnings(expect.get("warnings"), result)?;
    same_member("terminals", Some(expect.get("terminals").ok_or("the case has no `expect.terminals`")?), result.get("terminals"))
}

/// A `state` case: the state typed (each target decodes as its definition and writes back
/// as itself), the error, the warnings, what the limits dropped (no `counters`:
/// nothing), and the state as canonical JSON text (member order counts: a keyed target's
/// ids are in first-seen order).
fn state(case: &Value, result: &Value) -> Result<(), String> {
    let expect = expect_of(case)?;
    if let Some(why) = result.get("invariant") {
        return Err(format!("the session state is not typed: {}", why.as_str().unwrap_or_default()));
    }
    same_error(expect.get("error"), result)?;
    same_warnings(expect.get("warnings"), result)?;
    same_member("counters", expect.get("counters"), result.get("counters"))?;
    let got = result.get("state").and_then(Value::as_str).ok_or("the result has no `state` text")?;
    same_text(got, expect.get("state").ok_or("the case has no `expect.state`")?).map_err(|e| format!("state: {e}"))
}

fn transcript(case: &Value, result: &Value) -> Result<(), String> {
    let want = expect_of(case)?.get("text").and_then(Value::as_str).ok_or("the case has no `expect.text`")?;
    let got = result.get("text").and_then(Value::as_str).ok_or("the result has no `text`")?;
    if want == got { Ok(()) } else { Err(format!("transcript differs\n    expected {want:?}\n    got      {got:?}")) }
}

fn bridge(case: &Value, result: &Value) -> Result<(), String> {
    let want = expect_of(case)?.get("output").and_then(Value::as_array).ok_or("the case has no `expect.output` array")?;
    let got = result.get("steps").and_then(Value::as_array).ok_or("the result has no `steps` array")?;
    if want.len() != got.len() {
        return Err(format!("`expect.output` has {} entries for {} steps", want.len(), got.len()));
    }
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        if w.get("error").is_some() || g.get("error").is_some() {
            same_error(w.get("error"), g).map_err(|e| format!("step {i}: {e}"))?;
            continue;
        }
        let w = w.as_array().ok_or_else(|| format!("step {i}: the expected output is not an array"))?;
        let g = g.as_array().ok_or_else(|| format!("step {i}: the result is not an array"))?;
        if w.len() != g.len() {
            return Err(format!("step {i}: expected {} updates, got {}: {}", w.len(), g.len(), Value::Array(g.clone())));
        }
        for (want, got) in w.iter().zip(g) {
            same_text(got.as_str().ok_or_else(|| format!("step {i}: an update is not JSON text"))?, want).map_err(|e| format!("step {i}: {e}"))?;
        }
    }
    Ok(())
}

/// The members `expect` may have, by kind.
const EXPECT_MEMBERS: &[(&str, &[&str])] = &[
    ("decode", &["output", "warnings", "error", "defaults", "accepted", "value"]),
    ("convert", &["output", "warnings", "error"]),
    ("replay", &["terminals", "error", "counters", "events"]),
    ("ingest", &["terminals", "warnings", "error"]),
    ("transcript", &["text"]),
    ("bridge", &["output"]),
    ("state", &["state", "warnings", "error", "counters"]),
];

/// Whether `result` (what a runner printed for `case`) meets the case's expectation.
///
/// # Errors
/// Why not, in a sentence with what was expected and what came.
pub fn judge(case: &Value, result: &Value) -> Result<(), String> {
    if let Some(why) = result.get("unsupported") {
        return Err(format!("the runner cannot evaluate this case: {}", why.as_str().unwrap_or_default()));
    }
    let kind = case.get("kind").and_then(Value::as_str).unwrap_or_default();
    // A misspelt expectation would pin nothing: every member of `expect` must be one the
    // kind names.
    if let (Some(Value::Object(expect)), Some((_, members))) = (case.get("expect"), EXPECT_MEMBERS.iter().find(|(k, _)| *k == kind))
        && let Some(unknown) = expect.keys().find(|m| !members.contains(&m.as_str()))
    {
        return Err(format!("`expect.{unknown}` is not an expectation of a {kind} case (it takes {}; docs/CONFORMANCE.md)", members.join(", ")));
    }
    match kind {
        "decode" => decode(case, result, false),
        "convert" => decode(case, result, true),
        "replay" => replay(case, result),
        "ingest" => ingest(case, result),
        "transcript" => transcript(case, result),
        "bridge" => bridge(case, result),
        "state" => state(case, result),
        other => Err(format!("no case kind {other:?} (docs/CONFORMANCE.md lists them)")),
    }
}

/// The results of one case in every language, checked for agreement: `None` when they
/// are identical once [`comparable`] (as JSON values: strings, such as canonical outputs
/// and transcripts, byte for byte), else a report with each language's result.
#[must_use]
pub fn disagreement(by_lang: &[(&str, &Value)]) -> Option<String> {
    let first = comparable(by_lang.first()?.1);
    if by_lang.iter().all(|(_, r)| comparable(r) == first) {
        return None;
    }
    Some(by_lang.iter().map(|(lang, r)| format!("    {lang}: {}", text(r))).collect::<Vec<_>>().join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decode_output_is_compared_with_its_member_order() {
        let case = json!({ "kind": "decode", "type": "T", "input": { "a": 1, "b": 2 } });
        let again = json!({ "output": "{\"a\":1,\"b\":2}", "warnings": [] });
        assert!(judge(&case, &json!({ "output": "{\"a\":1,\"b\":2}", "warnings": [], "again": again })).is_ok());
        assert!(judge(&case, &json!({ "output": "{\"b\":2,\"a\":1}", "warnings": [] })).unwrap_err().contains("output differs"));
        assert!(judge(&case, &json!({ "output": "{\"a\":1,\"b\":2}", "warnings": [{ "kind": "wrong_type", "path": "/a" }] })).unwrap_err().contains("warnings differ"));
        assert!(judge(&case, &json!({ "error": { "kind": "wrong_type", "path": "/a" }, "message": "m" })).unwrap_err().contains("unexpected error wrong_type"));
    }

    #[test]
    fn errors_match_by_kind_and_pointer_and_messages_are_not_compared() {
        let case = json!({ "kind": "decode", "type": "T", "inputText": "{", "expect": { "error": { "kind": "invalid_json", "path": "" } } });
        assert!(judge(&case, &json!({ "error": { "kind": "invalid_json", "path": "" }, "message": "any" })).is_ok());
        assert!(judge(&case, &json!({ "error": { "kind": "wrong_type", "path": "" } })).is_err());
        assert!(judge(&case, &json!({ "output": "{}", "warnings": [] })).is_err());
        let a = json!({ "error": { "kind": "k", "path": "" }, "message": "one" });
        let b = json!({ "error": { "kind": "k", "path": "" }, "message": "two" });
        assert_eq!(disagreement(&[("rust", &a), ("python", &b)]), None);
        assert!(disagreement(&[("rust", &a), ("python", &json!({ "error": { "kind": "k", "path": "/x" } }))]).is_some());
    }

    #[test]
    fn a_fixed_point_and_the_other_routes_are_judged() {
        let case = json!({ "kind": "decode", "type": "T", "expect": null, "inputText": "1" });
        assert!(judge(&case, &json!({ "output": "1", "warnings": [], "again": { "output": "2", "warnings": [] } })).unwrap_err().contains("read back"));
        let route = |result: Value, lost: bool| json!({ "output": "{\"1\":0,\"a\":0}", "warnings": [], "routes": [{ "route": "JSON.parse", "orderLost": lost, "result": result }] });
        assert!(judge(&case, &route(json!({ "output": "{\"a\":0,\"1\":0}", "warnings": [] }), true)).is_ok());
        assert!(judge(&case, &route(json!({ "output": "{\"a\":0,\"1\":0}", "warnings": [] }), false)).is_err());
        assert!(judge(&case, &route(json!({ "error": { "kind": "k", "path": "" } }), true)).is_err());
    }

    #[test]
    fn a_misspelt_expectation_is_an_error() {
        let case = json!({ "kind": "decode", "type": "T", "input": 1, "expect": { "outptu": 2 } });
        assert!(judge(&case, &json!({ "output": "1", "warnings": [] })).unwrap_err().contains("`expect.outptu`"));
        let case = json!({ "kind": "transcript", "chunks": [], "expect": { "text": "", "warnings": [] } });
        assert!(judge(&case, &json!({ "text": "" })).unwrap_err().contains("`expect.warnings`"));
    }

    #[test]
    fn accepted_alone_pins_only_acceptance() {
        let case = json!({ "kind": "decode", "type": "T", "inputText": "{}", "expect": { "accepted": false } });
        assert!(judge(&case, &json!({ "error": { "kind": "missing_field", "path": "/a" } })).is_ok());
        assert!(judge(&case, &json!({ "output": "{}", "warnings": [] })).is_err());
        let case = json!({ "kind": "decode", "type": "T", "inputText": "{}", "expect": { "accepted": true } });
        assert!(judge(&case, &json!({ "output": "{\"x\":1}", "warnings": [] })).is_ok());
        assert!(judge(&case, &json!({ "unsupported": "no such type" })).is_err());
    }

    #[test]
    fn store_views_counters_and_events_are_judged() {
        let case = json!({ "kind": "replay", "updates": [], "expect": { "terminals": { "t": { "command": null } } } });
        assert!(judge(&case, &json!({ "terminals": { "t": { "command": null } }, "events": [] })).is_ok());
        assert!(judge(&case, &json!({ "terminals": {}, "events": [] })).unwrap_err().contains("terminals differ"));
        assert!(judge(&case, &json!({ "terminals": { "t": { "command": null } }, "events": [], "counters": { "terminalsRefused": 1 } })).unwrap_err().contains("counters"));
        assert!(judge(&case, &json!({ "terminals": { "t": { "command": null } }, "events": [{ "kind": "evicted" }] })).unwrap_err().contains("events"));
        assert!(judge(&case, &json!({ "terminals": {}, "events": [], "invariant": "after update 0: half" })).unwrap_err().contains("invariant"));
    }

    #[test]
    fn bridge_steps_are_judged_one_by_one() {
        let case = json!({ "kind": "bridge", "steps": [{}, {}], "expect": { "output": [[{ "a": 1 }], { "error": { "kind": "k", "path": "/steps/1/update" } }] } });
        assert!(judge(&case, &json!({ "steps": [["{\"a\":1}"], { "error": { "kind": "k", "path": "/steps/1/update" }, "message": "m" }] })).is_ok());
        assert!(judge(&case, &json!({ "steps": [["{\"a\":2}"], { "error": { "kind": "k", "path": "/steps/1/update" } }] })).unwrap_err().contains("step 0"));
        assert!(judge(&case, &json!({ "steps": [["{\"a\":1}"], []] })).unwrap_err().contains("step 1"));
    }
}
