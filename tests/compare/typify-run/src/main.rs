//! `cargo xtask compare`'s typify runner: reads a JSON Schema (draft 2020-12, `$defs`),
//! gives it to typify as the draft-07 form typify reads (`definitions`), and prints
//! what typify makes of it as JSON: the whole document at once, then each definition
//! alone with the definitions it refers to. A panic is caught and reported with its
//! message and place.

use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

fn to_draft7(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get_mut("$ref") {
                *r = r.replace("#/$defs/", "#/definitions/");
            }
            for x in m.values_mut() {
                to_draft7(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(to_draft7),
        _ => {}
    }
}

fn refs(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                if let Some(name) = r.strip_prefix("#/definitions/") {
                    out.insert(name.to_owned());
                }
            }
            m.values().for_each(|x| refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

/// typify on one root schema: the number of types it made, or why it made none.
fn attempt(root: Value, last_panic: &Arc<Mutex<String>>) -> Result<usize, String> {
    let root: schemars::schema::RootSchema = serde_json::from_value(root).map_err(|e| format!("not a schema typify reads: {e}"))?;
    let result = std::panic::catch_unwind(move || {
        let mut space = typify::TypeSpace::new(typify::TypeSpaceSettings::default().with_struct_builder(false));
        space.add_root_schema(root).map_err(|e| format!("error: {e}"))?;
        // The code too: a type that adds but does not print is no type.
        let _ = space.to_stream().to_string();
        Ok(space.iter_types().count())
    });
    match result {
        Ok(r) => r,
        Err(_) => Err(format!("panic: {}", last_panic.lock().map(|s| s.clone()).unwrap_or_default())),
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: typify-run SCHEMA.json [--emit TYPES.rs]");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut doc: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    to_draft7(&mut doc);
    let defs = doc.as_object_mut().and_then(|m| m.remove("$defs")).and_then(|d| d.as_object().cloned()).unwrap_or_default();
    if let Some(m) = doc.as_object_mut() {
        m.insert("definitions".into(), Value::Object(defs.clone()));
        m.remove("$schema");
    }
    let last_panic = Arc::new(Mutex::new(String::new()));
    {
        let last_panic = Arc::clone(&last_panic);
        std::panic::set_hook(Box::new(move |info| {
            let msg = info.payload().downcast_ref::<&str>().map(|s| (*s).to_owned()).or_else(|| info.payload().downcast_ref::<String>().cloned()).unwrap_or_default();
            // The first line only: typify's `todo!`s print whole schemas.
            let msg: String = msg.lines().next().unwrap_or("").trim_end_matches(['{', ' ', ':']).chars().take(100).collect();
            let at = info.location().map(|l| format!(" at {}:{}", l.file().rsplit("/src/").next().unwrap_or(l.file()), l.line())).unwrap_or_default();
            let crate_name = info.location().and_then(|l| l.file().split('/').find(|p| p.starts_with("typify-"))).unwrap_or("");
            if let Ok(mut s) = last_panic.lock() {
                *s = format!("{}{crate_name}{at}", if msg.is_empty() { String::new() } else { format!("{msg} ") });
            }
        }));
    }
    let whole = attempt(doc.clone(), &last_panic);
    let mut each = BTreeMap::new();
    for name in defs.keys() {
        // The definition and, transitively, every definition it refers to.
        let mut keep = BTreeSet::from([name.clone()]);
        let mut todo = vec![name.clone()];
        while let Some(n) = todo.pop() {
            let mut found = BTreeSet::new();
            if let Some(d) = defs.get(&n) {
                refs(d, &mut found);
            }
            for f in found {
                if keep.insert(f.clone()) {
                    todo.push(f);
                }
            }
        }
        let sub: serde_json::Map<String, Value> = defs.iter().filter(|(k, _)| keep.contains(*k)).map(|(k, v)| (k.clone(), v.clone())).collect();
        let root = json!({ "$ref": format!("#/definitions/{name}"), "definitions": sub });
        each.insert(name.clone(), match attempt(root, &last_panic) {
            Ok(_) => Value::Null,
            Err(e) => Value::String(e),
        });
    }
    // With `--emit FILE`: the code typify makes for every definition that does not
    // need one it fails on alone, and `probe(name, text)`, which reads a JSON text into
    // the type of that `$defs` name with serde_json and writes it back.
    let mut emitted = Value::Null;
    if let Some(file) = std::env::args().nth(2).filter(|a| a == "--emit").and(std::env::args().nth(3)) {
        let failed: BTreeSet<&String> = each.iter().filter(|(_, v)| !v.is_null()).map(|(k, _)| k).collect();
        let keep: serde_json::Map<String, Value> = defs
            .iter()
            .filter(|(name, _)| {
                let mut seen = BTreeSet::from([(*name).clone()]);
                let mut todo = vec![(*name).clone()];
                while let Some(n) = todo.pop() {
                    if failed.contains(&n) {
                        return false;
                    }
                    let mut found = BTreeSet::new();
                    if let Some(d) = defs.get(&n) {
                        refs(d, &mut found);
                    }
                    todo.extend(found.into_iter().filter(|f| seen.insert(f.clone())));
                }
                true
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let lp = Arc::clone(&last_panic);
        let made = std::panic::catch_unwind(move || -> Result<(String, Vec<String>), String> {
            let mut space = typify::TypeSpace::new(typify::TypeSpaceSettings::default().with_struct_builder(false));
            let schemas: Vec<(String, schemars::schema::Schema)> = keep.into_iter().map(|(k, v)| serde_json::from_value(v).map(|s| (k, s))).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
            space.add_ref_types(schemas.clone()).map_err(|e| format!("error: {e}"))?;
            let types: BTreeSet<String> = space.iter_types().map(|t| t.name()).collect();
            let named: Vec<String> = schemas.into_iter().map(|(k, _)| k).filter(|k| types.contains(k)).collect();
            let arms: String = named.iter().map(|n| format!("        \"{n}\" => Some(run::<{n}>(text)),\n")).collect();
            let code = format!(
                "{}\n\n/// Reads `text` into the type named `name` and writes it back.\npub fn probe(name: &str, text: &str) -> Option<Result<String, String>> {{\n    fn run<T: ::serde::de::DeserializeOwned + ::serde::Serialize>(text: &str) -> Result<String, String> {{\n        let v: T = ::serde_json::from_str(text).map_err(|e| e.to_string())?;\n        ::serde_json::to_string(&v).map_err(|e| format!(\"read, but not written back: {{e}}\"))\n    }}\n    match name {{\n{arms}        _ => None,\n    }}\n}}\n",
                space.to_stream()
            );
            Ok((code, named))
        });
        emitted = match made {
            Ok(Ok((code, named))) => {
                std::fs::write(&file, code).unwrap_or_else(|e| panic!("{file}: {e}"));
                json!({ "defined": named })
            }
            Ok(Err(e)) => json!({ "failed": e }),
            Err(_) => json!({ "failed": format!("panic: {}", lp.lock().map(|s| s.clone()).unwrap_or_default()) }),
        };
    }
    let out = json!({
        "whole": match whole { Ok(n) => json!({ "types": n }), Err(e) => json!({ "failed": e }) },
        "each": each,
        "emitted": emitted,
    });
    println!("{out}");
}
