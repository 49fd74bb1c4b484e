//! Every decode vector under `tests/vectors/`: the source-of-truth crate gives exactly the
//! result the generated crate gives (output bytes, warnings, error and its message, the
//! output decoded again). `cargo xtask conformance` judges the generated crate's results
//! against the vectors' expectations, so the truth types meet them too.

use acp_terminal_conformance::{DecodeOutcome, decode_result, generated_decoder, vector_files};
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
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors");
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
fn the_generated_crate_and_the_source_of_truth_agree_on_every_decode_vector() {
    let mut n = 0;
    for (id, c) in cases().iter().filter(|(_, c)| c["kind"] == "decode") {
        let ours = decode_result(c, &generated_decoder);
        assert!(ours.get("unsupported").is_none(), "{id}: {ours}");
        assert_eq!(decode_result(c, &truth_decoder), ours, "{id}");
        n += 1;
    }
    assert!(n > 0, "no decode vectors found");
}
