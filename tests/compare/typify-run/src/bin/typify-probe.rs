//! `cargo xtask compare`: typify's types (serde derives) on the probes.
//!
//! Usage: typify-probe PROBES.json. Prints a JSON list, one result per probe:
//! `{"output": text}` when `serde_json::from_str` reads the probe's text into the type
//! and `serde_json::to_string` writes it back, `{"error": message}`, or
//! `{"missing": true}` when typify made no type of that name.

#[allow(warnings, clippy::all)]
mod types {
    include!(concat!(env!("OUT_DIR"), "/types.rs"));
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: typify-probe PROBES.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let results: Vec<serde_json::Value> = doc["cases"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|p| match types::probe(p["type"].as_str().unwrap_or(""), p["inputText"].as_str().unwrap_or("")) {
            None => serde_json::json!({ "missing": true }),
            Some(Ok(output)) => serde_json::json!({ "output": output }),
            Some(Err(e)) => serde_json::json!({ "error": e }),
        })
        .collect();
    println!("{}", serde_json::Value::Array(results));
}
