//! Every vector under `tests/vectors/`: the generated crate passes it, and the
//! source-of-truth crate gives exactly the same result (output bytes, warnings, error).

use acp_terminal_conformance::{DecodeOutcome, decode_case, generated_decoder, input_text, vector_files};
use serde_json::Value;
use std::path::PathBuf;

fn truth_decoder(schema: &str, ty: &str, text: &str) -> DecodeOutcome {
    use acp_terminal_schema::emit::Version;
    let version = match schema {
        "v2" => Version::V2,
        "v1" => Version::V1,
        _ => return None,
    };
    acp_terminal_schema::registry::decode(version, ty, text)
        .map(|r| r.map(|(out, ws)| (out, ws.into_iter().map(|w| (w.kind.as_str().to_owned(), w.path)).collect())).map_err(|e| (e.kind.as_str().to_owned(), e.path, e.message)))
}

fn cases() -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../vectors");
    let mut out = Vec::new();
    for f in vector_files(&[dir]) {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&f).expect("read")).expect("vector JSON");
        for c in doc["cases"].as_array().expect("cases") {
            out.push((format!("{} :: {}", f.display(), c["name"]), c.clone()));
        }
    }
    out
}

#[test]
fn the_source_of_truth_types_pass_every_decode_vector() {
    let mut failed = Vec::new();
    let mut n = 0;
    for (id, c) in cases().iter().filter(|(_, c)| c["kind"] == "decode") {
        n += 1;
        if let Err(e) = decode_case(c, &truth_decoder) {
            failed.push(format!("{id}: {e}"));
        }
    }
    assert!(n > 0, "no decode vectors found");
    assert!(failed.is_empty(), "{} of {n} failed:\n{}", failed.len(), failed.join("\n"));
}

#[test]
fn the_generated_crate_and_the_source_of_truth_agree_on_every_input() {
    let mut n = 0;
    for (id, c) in cases().iter().filter(|(_, c)| c["kind"] == "decode") {
        let schema = c.get("schema").and_then(Value::as_str).unwrap_or("v2");
        let ty = c["type"].as_str().unwrap_or_default();
        let text = input_text(c).expect("input");
        let ours = generated_decoder(schema, ty, &text);
        let truth = truth_decoder(schema, ty, &text);
        assert_eq!(ours, truth, "{id}");
        n += 1;
    }
    assert!(n > 0);
}
