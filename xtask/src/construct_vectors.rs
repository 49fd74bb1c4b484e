//! Behaviour of the generator's constructs and of packages generated from upstream's
//! schemas, in the three languages, through the package-generic runners
//! (`tests/runners/vectors.{rs,ts,py}`), judged by the one judge (`judge.rs`):
//!
//! - construct vectors: each construct schema under `xtask/tests/schemas/` may have
//!   `<stem>.vectors.json`, `decode` cases (docs/CONFORMANCE.md, `schema` the stem) run
//!   through the package generated from those schemas, so a construct is checked by what
//!   its code does, not only by compiling;
//! - upstream's literals (`tests/upstream/vectors/*.json`, and upstream's Rust test
//!   literals in `tests/vectors/upstream/v2_acp_rust_tests.json`) through the package of
//!   upstream's full schemas;
//! - values made from upstream's schemas (`run_generated`).
//!
//! A case with `"method": "<name>"` names a response with a method table
//! (`AgentResponse`): its input is a `result` value, decoded as the result type of that
//! method (`decode_result`) and written back.

use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Stdio};

/// The runners, one per language, files of their own (linted and type-checked with the
/// tests): each reads a JSON array of cases on stdin and prints one result per case.
const RUNNERS: &str = "tests/runners";

/// The cases of one case file (docs/CONFORMANCE.md), each with its input as `inputText`
/// (what the runners read), and the file's own name for reports.
///
/// # Errors
/// A file that cannot be read, or a case with no name, or with both or neither of
/// `input` and `inputText`.
pub fn load_file(path: &Path) -> Result<Vec<Value>, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
    let list = doc.get("cases").and_then(Value::as_array).ok_or_else(|| format!("{name}: no `cases` array (docs/CONFORMANCE.md)"))?;
    let mut cases = Vec::new();
    for (i, c) in list.iter().enumerate() {
        let at = format!("{name} case {i}");
        c.get("name").and_then(Value::as_str).ok_or_else(|| format!("{at}: no `name`"))?;
        if c.get("kind").and_then(Value::as_str) != Some("decode") {
            return Err(format!("{at}: these sets hold `decode` cases only"));
        }
        let mut c = c.clone();
        match (c.get("inputText").and_then(Value::as_str).is_some(), c.get("input").cloned()) {
            (true, None) => {}
            (false, Some(v)) => c["inputText"] = Value::from(v.to_string()),
            _ => return Err(format!("{at}: give exactly one of `input` (a JSON value) and `inputText` (JSON text)")),
        }
        cases.push(c);
    }
    Ok(cases)
}

fn load(dir: &Path) -> Result<Vec<Value>, String> {
    let mut paths: Vec<_> = std::fs::read_dir(dir).map_err(|e| e.to_string())?.flatten().map(|e| e.path()).collect();
    paths.sort();
    let mut cases = Vec::new();
    for p in paths.iter().filter(|p| p.to_string_lossy().ends_with(".vectors.json")) {
        cases.extend(load_file(p)?);
    }
    Ok(cases)
}

/// Every case judged in every language, and the languages against each other: a line
/// per case that fails.
fn judged(cases: &[Value], by_lang: &[(&'static str, Vec<Value>)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let name = c["name"].as_str().unwrap_or_default();
        for (lang, got) in by_lang {
            if let Err(why) = crate::judge::judge(c, &got[i]) {
                wrong.push(format!("{lang}: {}/{name}: {why}", c["schema"].as_str().unwrap_or_default()));
            }
        }
        let results: Vec<(&str, &Value)> = by_lang.iter().map(|(lang, got)| (*lang, &got[i])).collect();
        if let Some(report) = crate::judge::disagreement(&results) {
            wrong.push(format!("{}/{name}: the languages differ:\n{report}", c["schema"].as_str().unwrap_or_default()));
        }
    }
    wrong
}

fn results(cmd: &mut Command, input: &str) -> Result<Vec<Value>, String> {
    use std::io::Write as _;
    eprintln!("$ {}", format!("{cmd:?}").replace('"', ""));
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    child.stdin.take().ok_or("stdin")?.write_all(input.as_bytes()).map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed ({})", out.status));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("{cmd:?} printed no result list: {e}"))
}

/// The results of `cases` (runner inputs) in the three packages under `dir`
/// (`rust`, `typescript`, `python`) of the package `pkg` (crate and import name).
///
/// Each runner is built once per package folder: the first call writes the runners,
/// builds the Rust one (kept as `rust/vectors-runner`, since every package shares the
/// `target/goldens` folder and its example name) and compiles the TypeScript package;
/// later calls on the same folder only run them. The folder's package does not change
/// while it exists (the goldens step and the fuzz rounds write it once and remove it).
pub fn results_in(dir: &Path, pkg: &str, tsc: &Path, python: &Path, cases: &[Value]) -> Result<Vec<(&'static str, Vec<Value>)>, String> {
    let input = Value::Array(cases.to_vec()).to_string();
    let rust = dir.join("rust");
    let runner = rust.join(if cfg!(windows) { "vectors-runner.exe" } else { "vectors-runner" });
    let registry = dir.join("typescript/dist/registry.js");
    if !runner.exists() {
        std::fs::create_dir_all(rust.join("examples")).map_err(|e| e.to_string())?;
        // The Rust runner as an example of the package, which it names `package`.
        let source = crate::root().join(RUNNERS).join("vectors.rs");
        std::fs::write(rust.join("examples/vectors.rs"), format!("use {pkg} as package;\ninclude!({:?});\n", source.display().to_string())).map_err(|e| e.to_string())?;
        crate::node::build_tests()?;
        let target = crate::root().join(crate::goldens::TARGET);
        crate::run(&mut crate::goldens::goldens_cargo(&["build", "--example", "vectors"], &rust.join("Cargo.toml")))?;
        let built = target.join("debug/examples").join(if cfg!(windows) { "vectors.exe" } else { "vectors" });
        std::fs::copy(&built, &runner).map_err(|e| format!("{}: {e}", built.display()))?;
    }
    if !registry.exists() {
        crate::run(Command::new(tsc).arg("-p").arg(dir.join("typescript/tsconfig.json")))?;
    }
    let mut by_lang = vec![("rust", results(&mut Command::new(&runner), &input)?)];
    let ts_runner = crate::root().join("tests/bindings/dist").join(RUNNERS).join("vectors.js");
    by_lang.push(("typescript", results(Command::new("node").arg(ts_runner).arg(&registry), &input)?));
    by_lang.push(("python", results(Command::new(python).arg(crate::root().join(RUNNERS).join("vectors.py")).arg(pkg).env("PYTHONPATH", dir.join("python/src")), &input)?));
    for (lang, got) in &by_lang {
        if got.len() != cases.len() {
            return Err(format!("{lang}: {} results for {} cases", got.len(), cases.len()));
        }
    }
    Ok(by_lang)
}

/// Runs every construct vector in the packages built under `out` (`all/rust`,
/// `all/typescript`, `all/python`, named `goldens`), and judges each language's result.
///
/// # Errors
/// Every case a language gets wrong, with what it gave.
pub fn run(out: &Path, tsc: &Path, python: &Path) -> Result<(), String> {
    let cases = load(&crate::root().join("xtask/tests/schemas"))?;
    let by_lang = results_in(&out.join("all"), "goldens", tsc, python, &cases)?;
    let wrong = judged(&cases, &by_lang);
    if wrong.is_empty() {
        eprintln!("construct vectors: {} cases pass in rust, typescript and python with the same results", cases.len());
        Ok(())
    } else {
        Err(format!("construct vectors: {} wrong results:\n{}", wrong.len(), wrong.join("\n")))
    }
}

/// Upstream's own literals (a case file, `set`, relative to the repository) through the
/// package generated from upstream's full schemas (`dir`, named `acp_upstream`, module
/// `module`: every case's `schema` is read as that module), each judged by its `expect`
/// (a case file holds the expectations that hold for this package). Every definition of
/// upstream's schemas generates, so a literal whose type the package does not have is an
/// error (a misspelt type).
///
/// # Errors
/// Each literal judged wrongly or differently, with what each language gave.
pub fn run_upstream(dir: &Path, tsc: &Path, python: &Path, module: &str, set: &str, generated: &[String]) -> Result<(), String> {
    let mut cases = load_file(&crate::root().join(set))?;
    for c in &mut cases {
        let (name, ty) = (c["name"].as_str().unwrap_or_default().to_owned(), c["type"].as_str().unwrap_or_default());
        if !generated.iter().any(|g| g == ty) {
            return Err(format!("{set}: {name}: the package of upstream's {module} schema has no definition `{ty}`"));
        }
        c["schema"] = Value::from(module);
    }
    let by_lang = results_in(dir, "acp_upstream", tsc, python, &cases)?;
    let wrong = judged(&cases, &by_lang);
    if wrong.is_empty() {
        let rejected = by_lang[0].1.iter().filter(|r| r.get("error").is_some()).count();
        eprintln!(
            "upstream's literals ({set}): {} cases through the package of upstream's full {module} schema ({} accepted, {rejected} rejected), judged and identical in rust, typescript and python",
            cases.len(),
            cases.len() - rejected,
        );
        Ok(())
    } else {
        Err(format!("upstream's literals ({set}): {} wrong:\n{}", wrong.len(), wrong.join("\n")))
    }
}

/// Every definition of a package generated from upstream's full schema (`module` of
/// `ir`), exercised with values made from the schema (`values::Gen`, seeded, so every run
/// and machine makes the same ones): `per_def` per definition, the first two thirds valid,
/// then near misses (one value changed, or the text itself). In Rust, TypeScript and
/// Python each value must give the same result (bytes and warnings, or error kind and
/// pointer); every valid value must be accepted; and what a language writes must read
/// back as itself (the canonical form is a fixed point).
///
/// # Errors
/// Each value judged wrongly, differently, or not written back as itself.
pub fn run_generated(dir: &Path, tsc: &Path, python: &Path, module: &str, ir: &acp_terminal_codegen::ir::Ir, per_def: usize, seed: u64) -> Result<(), String> {
    let generator = crate::values::Gen::new(ir);
    let mut rng = crate::values::Rng::new(seed);
    let names = generator.names();
    let valid_per_def = per_def * 2 / 3;
    let mut cases = Vec::new();
    for name in &names {
        for i in 0..per_def {
            let mut value = generator.value(name, &mut rng, 0);
            // A valid value must be accepted; a near miss may go either way, and only
            // the languages' agreement and the fixed point are judged.
            let (text, expect) = if i < valid_per_def {
                (value.to_string(), json!({ "accepted": true }))
            } else if i % 2 == 0 {
                crate::values::mutate_value(&mut value, &mut rng);
                (value.to_string(), Value::Null)
            } else {
                (crate::values::mutate_text(&value.to_string(), &mut rng), Value::Null)
            };
            cases.push(json!({ "name": format!("{name} {i}"), "kind": "decode", "schema": module, "type": name, "inputText": text, "expect": expect }));
        }
    }
    let by_lang = results_in(dir, "acp_upstream", tsc, python, &cases)?;
    let mut wrong = judged(&cases, &by_lang);
    if wrong.is_empty() {
        let accepted = by_lang[0].1.iter().filter(|r| r.get("output").is_some()).count();
        eprintln!(
            "every definition of upstream's full {module} schema ({}), {per_def} generated values each (seed {seed}): {} values, {accepted} accepted, each the same in rust, typescript and python and written back as itself",
            names.len(),
            cases.len()
        );
        Ok(())
    } else {
        wrong.truncate(40);
        Err(format!("generated values of upstream's {module} definitions: wrong:\n{}", wrong.join("\n")))
    }
}

/// The session-state fixtures (`tests/state/fixtures.json`, docs/CONFORMANCE.md kind
/// `state`) through the package of upstream's full v2 schema (`dir`, module `v2`), in
/// the three languages: each language's state, warnings and error must be the fixture's,
/// byte for byte (the state as canonical JSON text, so member order counts). Every
/// message that `ir`'s `x-state` annotates, and every one it marks inert, must have a
/// fixture.
///
/// # Errors
/// Each fixture a language gets wrong, and each annotated message without a fixture.
pub fn run_state(dir: &Path, tsc: &Path, python: &Path, ir: &acp_terminal_codegen::ir::Ir) -> Result<(), String> {
    const SET: &str = "tests/state/fixtures.json";
    let text = std::fs::read_to_string(crate::root().join(SET)).map_err(|e| format!("{SET}: {e}"))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{SET}: {e}"))?;
    let fixtures = doc["cases"].as_array().cloned().unwrap_or_default();
    if let Some(f) = fixtures.iter().find(|f| f["kind"] != "state" || !f["name"].is_string() || !f["messages"].is_array() || !f["expect"]["state"].is_object()) {
        return Err(format!("{SET}: every case is of kind `state` with a `name`, `messages` and `expect.state` (docs/CONFORMANCE.md): {f}"));
    }
    let mut cases = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for f in &fixtures {
        let messages: Vec<Value> = f["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| {
                let ty = m["type"].as_str().unwrap_or_default();
                seen.insert((ty.to_owned(), m["message"]["sessionUpdate"].as_str().map(str::to_owned)));
                json!({ "type": ty, "inputText": m["message"].to_string() })
            })
            .collect();
        let mut c = json!({ "kind": "state", "schema": f["schema"], "messages": messages });
        if let Some(initial) = f.get("initial") {
            c["initialText"] = initial.to_string().into();
        }
        if let Some(limits) = f.get("limits") {
            c["limits"] = limits.clone();
        }
        cases.push(c);
    }
    let model = acp_terminal_codegen::state::model(ir).map_err(|e| e.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))?;
    let mut wrong = Vec::new();
    let annotated = model.owners.iter().flat_map(|o| o.rules.iter().map(|r| (r.union.clone().unwrap_or_else(|| r.message.clone()), r.tag.clone()))).chain(model.inert.iter().cloned());
    for (ty, tag) in annotated.collect::<std::collections::BTreeSet<_>>() {
        let key = (ty.clone(), if ty == "SessionUpdate" { tag.clone() } else { None });
        if !seen.contains(&key) {
            wrong.push(format!("{SET}: no fixture applies {ty}{}, which upstream's v2 schema annotates with x-state", tag.map(|t| format!(" `{t}`")).unwrap_or_default()));
        }
    }
    let by_lang = results_in(dir, "acp_upstream", tsc, python, &cases)?;
    for (i, f) in fixtures.iter().enumerate() {
        let name = f["name"].as_str().unwrap_or_default();
        for (lang, results) in &by_lang {
            if let Err(why) = crate::judge::judge(f, &results[i]) {
                wrong.push(format!("{SET}: {name}: {lang}: {why}"));
            }
        }
    }
    if wrong.is_empty() {
        eprintln!("session state: {} fixtures ({SET}) through the package of upstream's full v2 schema, each the same in rust, typescript and python; every x-state message has one", fixtures.len());
        Ok(())
    } else {
        Err(format!("session state: {} wrong:\n{}", wrong.len(), wrong.join("\n")))
    }
}
