// The Rust runner of the construct vectors and generated values (xtask/src/construct_vectors.rs):
// reads a JSON array of cases on stdin and prints one result per case. It is compiled as
// an example of a generated package, whose crate the including file names `package`
// (`use <crate> as package; include!(...)`), so it serves any package.
use std::io::Read as _;

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).expect("cases");
    let out: Vec<serde_json::Value> = cases.iter().map(result).collect();
    println!("{}", serde_json::Value::Array(out));
}

fn result(c: &serde_json::Value) -> serde_json::Value {
    let (m, t, input) = (c["module"].as_str().unwrap_or(""), c["type"].as_str().unwrap_or(""), c["text"].as_str().unwrap_or(""));
    let method = c["method"].as_str();
    let decoded = match method {
        Some(method) => package::registry::decode_result(m, t, method, input),
        None => package::registry::decode(m, t, input),
    };
    match decoded {
        None => serde_json::json!({ "missing": true }),
        Some(Ok((text, warnings))) => {
            let warnings: Vec<_> = warnings.iter().map(|w| serde_json::json!([w.kind.as_str(), w.path])).collect();
            // A method's result has no defaults of its own: its value again.
            let defaults = if method.is_some() { Some(text.clone()) } else { package::registry::with_defaults(m, t, input).and_then(Result::ok).map(|(d, _)| d) };
            serde_json::json!({ "output": text, "warnings": warnings, "defaults": defaults })
        }
        Some(Err(e)) => serde_json::json!({ "error": [e.kind.as_str(), e.path] }),
    }
}
