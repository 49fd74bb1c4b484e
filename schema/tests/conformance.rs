//! Every `decode` vector under `tests/vectors/` (format: docs/CONFORMANCE.md), run
//! through the source-of-truth types. The generated bindings run the same files
//! through their own runners; this test keeps the types and the vectors in step.

use acp_terminal_schema::emit::Version;
use acp_terminal_schema::registry;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn vector_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            vector_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

fn problems(v: Option<&Value>) -> Vec<(String, String)> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|w| (w["kind"].as_str().unwrap_or("?").to_owned(), w["path"].as_str().unwrap_or("?").to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// Evaluates one decode case; `Err` describes the failure.
fn run_case(case: &Value) -> Result<(), String> {
    let version = match case["schema"].as_str().unwrap_or("v2") {
        "v2" => Version::V2,
        "v1" => Version::V1,
        other => return Err(format!("unknown schema {other:?}")),
    };
    let ty = case["type"].as_str().ok_or("case has no type")?;
    let text = match (&case["inputText"], &case["input"]) {
        (Value::String(t), _) => t.clone(),
        (_, input) if case.get("input").is_some() => serde_json::to_string(input).map_err(|e| e.to_string())?,
        _ => return Err("case has neither input nor inputText".into()),
    };
    let expect = &case["expect"];
    let got = registry::decode(version, ty, &text).ok_or_else(|| format!("{ty} is not a {} definition", version.as_str()))?;
    match (got, expect.get("error")) {
        (Err(e), Some(want)) => {
            let want = (want["kind"].as_str().unwrap_or("?"), want["path"].as_str().unwrap_or("?"));
            if (e.kind.as_str(), e.path.as_str()) == want { Ok(()) } else { Err(format!("expected error {want:?}, got {} at {:?} ({})", e.kind, e.path, e.message)) }
        }
        (Err(e), None) => Err(format!("unexpected error {e}")),
        (Ok((out, _)), Some(want)) => Err(format!("expected error {want}, got output {out}")),
        (Ok((out, warnings)), None) => {
            let want_output = expect.get("output").or_else(|| case.get("input")).ok_or("no expected output")?;
            let got_value: Value = serde_json::from_str(&out).map_err(|e| e.to_string())?;
            if &got_value != want_output || serde_json::to_string(&got_value).ok() != serde_json::to_string(want_output).ok() {
                return Err(format!("output differs\n  expected {}\n  got      {out}", serde_json::to_string(want_output).unwrap_or_default()));
            }
            let got_w: Vec<(String, String)> = warnings.iter().map(|w| (w.kind.as_str().to_owned(), w.path.clone())).collect();
            let want_w = problems(expect.get("warnings"));
            if got_w != want_w {
                return Err(format!("warnings differ: expected {want_w:?}, got {got_w:?}"));
            }
            // Fixpoint: the canonical output parses and writes back to the same bytes.
            match registry::decode(version, ty, &out) {
                Some(Ok((again, _))) if again == out => Ok(()),
                Some(Ok((again, _))) => Err(format!("not a fixpoint: {out} -> {again}")),
                Some(Err(e)) => Err(format!("canonical output does not parse again: {e}")),
                None => Err("type vanished".into()),
            }
        }
    }
}

#[test]
fn every_decode_vector_passes_through_the_source_of_truth_types() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors");
    let mut files = Vec::new();
    vector_files(&root, &mut files);
    assert!(!files.is_empty(), "no vector files under {}", root.display());
    let (mut passed, mut failed) = (0, Vec::new());
    for f in &files {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(f).expect("read")).expect("vector file is JSON");
        for case in doc["cases"].as_array().expect("cases") {
            if case["kind"] != "decode" {
                continue;
            }
            match run_case(case) {
                Ok(()) => passed += 1,
                Err(why) => failed.push(format!("{} :: {}: {why}", f.strip_prefix(&root).unwrap_or(f).display(), case["name"])),
            }
        }
    }
    for f in &failed {
        eprintln!("FAIL {f}");
    }
    eprintln!("{passed} passed, {} failed", failed.len());
    assert!(failed.is_empty(), "{} decode vectors failed", failed.len());
    assert!(passed >= 1, "no decode vectors ran");
}
