//! Behaviour of the generator's constructs, in the three languages: each construct
//! schema under `xtask/tests/schemas/` may have `<stem>.vectors.json`, decode cases run
//! through the packages generated from those schemas (not through acp-terminal's own),
//! so a construct is checked by what its code does, not only by compiling.
//!
//! A vectors file is a JSON array of cases:
//! `{"type": "Hello", "input": <JSON value> | "text": "<JSON text>", "output": <JSON value>
//! (default: the input again), "warnings": [[kind, pointer], ...] (default none),
//! "defaults": <JSON value> (the value with its schema defaults applied, `with_defaults`;
//! default: the output)}`, or with `"error": [kind, pointer]` instead of an output. Every language must give the
//! expected result, byte for byte. A case with `"method": "<name>"` names a response
//! with a method table (`AgentResponse`): its input is a `result` value, decoded as the
//! result type of that method (`decode_result`) and written back.

use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Stdio};

/// The runners, one per language, files of their own (linted and type-checked with the
/// tests): each reads a JSON array of cases on stdin and prints one result per case.
const RUNNERS: &str = "tests/runners";

/// One case with its expected result, in the runners' result form.
struct Case {
    at: String,
    input: Value,
    expected: Value,
}

fn load(dir: &Path) -> Result<Vec<Case>, String> {
    let mut paths: Vec<_> = std::fs::read_dir(dir).map_err(|e| e.to_string())?.flatten().map(|e| e.path()).collect();
    paths.sort();
    let mut cases = Vec::new();
    for p in paths {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let Some(stem) = name.strip_suffix(".vectors.json") else { continue };
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{name}: {e}"))?;
        let list: Vec<Value> = serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
        for (i, c) in list.iter().enumerate() {
            let at = format!("{name} case {i}");
            let ty = c.get("type").and_then(Value::as_str).ok_or_else(|| format!("{at}: no `type`"))?;
            let input_text = match (c.get("text").and_then(Value::as_str), c.get("input")) {
                (Some(t), None) => t.to_owned(),
                (None, Some(v)) => v.to_string(),
                _ => return Err(format!("{at}: give exactly one of `input` (a JSON value) and `text` (JSON text)")),
            };
            let expected = match (c.get("error"), c.get("output").or(c.get("input"))) {
                (Some(e), _) => json!({ "error": e }),
                (None, Some(out)) => json!({
                    "output": out.to_string(),
                    "warnings": c.get("warnings").cloned().unwrap_or_else(|| json!([])),
                    "defaults": c.get("defaults").unwrap_or(out).to_string(),
                }),
                (None, None) => return Err(format!("{at}: a `text` case needs `output` or `error`")),
            };
            let mut input = json!({ "module": stem, "type": ty, "text": input_text });
            if let Some(m) = c.get("method") {
                let m = m.as_str().ok_or_else(|| format!("{at}: `method` must be a string"))?;
                input["method"] = Value::from(m);
            }
            cases.push(Case { at, input, expected });
        }
    }
    Ok(cases)
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
    if !runner.exists() || !registry.exists() {
        std::fs::create_dir_all(rust.join("examples")).map_err(|e| e.to_string())?;
        // The Rust runner as an example of the package, which it names `package`.
        let source = crate::root().join(RUNNERS).join("vectors.rs");
        std::fs::write(rust.join("examples/vectors.rs"), format!("use {pkg} as package;\ninclude!({:?});\n", source.display().to_string())).map_err(|e| e.to_string())?;
        crate::node::build_tests()?;
        let target = crate::root().join(crate::goldens::TARGET);
        crate::run(&mut crate::goldens::goldens_cargo(&["build", "--example", "vectors"], &rust.join("Cargo.toml")))?;
        let built = target.join("debug/examples").join(if cfg!(windows) { "vectors.exe" } else { "vectors" });
        std::fs::copy(&built, &runner).map_err(|e| format!("{}: {e}", built.display()))?;
        crate::run(Command::new(tsc).arg("-p").arg(dir.join("typescript/tsconfig.json")))?;
    }
    let mut by_lang = vec![("rust", results(&mut Command::new(&runner), &input)?)];
    let ts_runner = crate::root().join("tests/typescript/dist").join(RUNNERS).join("vectors.js");
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
/// `all/typescript`, `all/python`, named `goldens`), and checks each language's result.
///
/// # Errors
/// Every case a language gets wrong, with what it gave.
pub fn run(out: &Path, tsc: &Path, python: &Path) -> Result<(), String> {
    let cases = load(&crate::root().join("xtask/tests/schemas"))?;
    let inputs: Vec<Value> = cases.iter().map(|c| c.input.clone()).collect();
    let by_lang = results_in(&out.join("all"), "goldens", tsc, python, &inputs)?;
    let mut wrong = Vec::new();
    for (lang, got) in &by_lang {
        for (c, g) in cases.iter().zip(got) {
            if *g != c.expected {
                wrong.push(format!("{lang}: {}: expected {}, got {g}", c.at, c.expected));
            }
        }
    }
    if wrong.is_empty() {
        eprintln!("construct vectors: {} cases pass in rust, typescript and python with the same bytes", cases.len());
        Ok(())
    } else {
        Err(format!("construct vectors: {} wrong results:\n{}", wrong.len(), wrong.join("\n")))
    }
}

/// Upstream's own test literals (`tests/upstream/vectors/<set>/`, each with the type its
/// `manifest.json` gives) through the package generated from upstream's full schemas
/// (`dir`, named `acp_upstream`, module `module`). A case's `outcome` (`accept` or
/// `reject`) says what must happen; without one, a file whose name starts with
/// `invalid_` must be rejected and any other accepted. A case with a `method` is a whole
/// JSON-RPC response (`AgentResponse`, `ClientResponse`): the envelope is decoded, and its
/// `result` member as that method's result (`decode_result`); it is rejected if either
/// is. The three languages must give the same bytes, or the same error kind and pointer.
/// Every definition of upstream's schemas generates, so a literal whose type the package
/// does not have is an error (a misspelt type in the manifest).
///
/// # Errors
/// Each literal judged wrongly or differently, with what each language gave.
pub fn run_upstream(dir: &Path, tsc: &Path, python: &Path, module: &str, set: &str, generated: &[String]) -> Result<(), String> {
    let vectors = crate::root().join("tests/upstream/vectors").join(set);
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(vectors.join("manifest.json")).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
    let mut runnable = Vec::new();
    for c in manifest["cases"].as_array().ok_or("manifest.json: no cases")? {
        let (file, ty) = (c["file"].as_str().unwrap_or_default(), c["type"].as_str().unwrap_or_default());
        if !generated.iter().any(|g| g == ty) {
            return Err(format!("{set}/manifest.json: {file}: the package of upstream's {module} schema has no definition `{ty}`"));
        }
        let text = std::fs::read_to_string(vectors.join(file)).map_err(|e| format!("{file}: {e}"))?;
        // Upstream's serializer writes `options: []`, which the schema's `minItems: 1`
        // rejects; the schema is the contract (the manifest notes the divergence).
        let reject = match c["outcome"].as_str() {
            Some("reject") => true,
            Some("accept") => false,
            Some(other) => return Err(format!("{set}/manifest.json: {file}: outcome `{other}` is neither accept nor reject")),
            None => file.starts_with("invalid_") || file == "request_permission_request_tool_call_subject.json",
        };
        let mut inputs = vec![json!({ "module": module, "type": ty, "text": text })];
        if let Some(method) = c.get("method") {
            let method = method.as_str().ok_or_else(|| format!("{set}/manifest.json: {file}: `method` must be a string"))?;
            let message: Value = serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
            let result = message.get("result").ok_or_else(|| format!("{set}/manifest.json: {file}: a case with a `method` is a response with a `result`"))?;
            inputs.push(json!({ "module": module, "type": ty, "method": method, "text": result.to_string() }));
        }
        runnable.push((file.to_owned(), reject, inputs));
    }
    let inputs: Vec<Value> = runnable.iter().flat_map(|(_, _, i)| i.iter().cloned()).collect();
    let by_lang = results_in(dir, "acp_upstream", tsc, python, &inputs)?;
    let mut wrong = Vec::new();
    let mut at = 0;
    for (file, reject, case_inputs) in &runnable {
        for (k, _) in case_inputs.iter().enumerate() {
            let got: Vec<&Value> = by_lang.iter().map(|(_, r)| &r[at + k]).collect();
            let what = if k == 0 { String::new() } else { " (its result, by method)".to_owned() };
            if got.iter().any(|g| g.get("missing").is_some()) {
                wrong.push(format!("{file}{what}: not in the package: rust {}, typescript {}, python {}", got[0], got[1], got[2]));
            } else if got.iter().any(|g| **g != *got[0]) {
                wrong.push(format!("{file}{what}: the languages differ: rust {}, typescript {}, python {}", got[0], got[1], got[2]));
            }
        }
        let rejected = |lang: usize| case_inputs.iter().enumerate().any(|(k, _)| by_lang[lang].1[at + k].get("error").is_some());
        if (0..by_lang.len()).any(|l| rejected(l) != *reject) {
            let all: Vec<String> = by_lang.iter().map(|(lang, r)| format!("{lang} {}", Value::Array(r[at..at + case_inputs.len()].to_vec()))).collect();
            wrong.push(format!("{file}: expected {}, got {}", if *reject { "a rejection" } else { "acceptance" }, all.join(", ")));
        }
        at += case_inputs.len();
    }
    if wrong.is_empty() {
        eprintln!(
            "upstream's {module} test literals ({set}): {} through the package of upstream's full {module} schema ({} accepted, {} rejected), judged as the manifest says and identical in rust, typescript and python",
            runnable.len(),
            runnable.iter().filter(|(_, reject, _)| !reject).count(),
            runnable.iter().filter(|(_, reject, _)| *reject).count(),
        );
        Ok(())
    } else {
        Err(format!("upstream's {module} test literals ({set}): {} wrong:\n{}", wrong.len(), wrong.join("\n")))
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
    let mut labels = Vec::new();
    for name in &names {
        for i in 0..per_def {
            let mut value = generator.value(name, &mut rng, 0);
            let valid = i < valid_per_def;
            let text = if valid {
                value.to_string()
            } else if i % 2 == 0 {
                crate::values::mutate_value(&mut value, &mut rng);
                value.to_string()
            } else {
                crate::values::mutate_text(&value.to_string(), &mut rng)
            };
            labels.push((*name, valid));
            cases.push(json!({ "module": module, "type": name, "text": text }));
        }
    }
    let by_lang = results_in(dir, "acp_upstream", tsc, python, &cases)?;
    let mut wrong = Vec::new();
    let mut again = Vec::new();
    let mut again_at = Vec::new();
    let mut accepted = 0;
    for (i, ((name, valid), case)) in labels.iter().zip(&cases).enumerate() {
        let got: Vec<&Value> = by_lang.iter().map(|(_, r)| &r[i]).collect();
        if got.iter().any(|g| **g != *got[0]) {
            wrong.push(format!("{name} {}: the languages differ: rust {}, typescript {}, python {}", case["text"], got[0], got[1], got[2]));
        } else if got[0].get("missing").is_some() {
            wrong.push(format!("{name}: no codec in the registries"));
        } else if let Some(output) = got[0].get("output").and_then(Value::as_str) {
            accepted += 1;
            again.push(json!({ "module": module, "type": name, "text": output }));
            again_at.push(i);
        } else if *valid {
            wrong.push(format!("{name}: a valid value is rejected ({}): {}", got[0]["error"], case["text"]));
        }
    }
    let by_lang_again = results_in(dir, "acp_upstream", tsc, python, &again)?;
    for (j, i) in again_at.iter().enumerate() {
        let first = by_lang[0].1[*i]["output"].as_str().unwrap_or_default();
        for (lang, r) in &by_lang_again {
            if r[j]["output"].as_str() != Some(first) || r[j]["warnings"].as_array().is_some_and(|w| !w.is_empty()) {
                wrong.push(format!("{} {lang}: the canonical text {first} does not read back as itself: {}", labels[*i].0, r[j]));
            }
        }
    }
    if wrong.is_empty() {
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
