//! `cargo xtask conformance [DIR...]`: runs every vector file under the given
//! directories in each language's runner, which prints what its package did with each
//! case; the judge (`judge.rs`) checks each result against the case's `expect` and the
//! languages against each other (every member but error messages, byte for byte). A
//! directory of any kinds of vectors passes when its cases pass, and fails only when no
//! case ran at all.

use crate::root;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A language's conformance runner: how to build it and the command that runs it
/// (it takes the vector files and prints one JSON line per case: `{"file", "name", "result"}`).
struct Runner {
    language: &'static str,
    command: Vec<String>,
    env: Vec<(String, String)>,
}

fn runners() -> Result<Vec<Runner>, String> {
    let exe = crate::workspace_bin("acp-terminal-conformance")?;
    crate::node::build_tests()?;
    Ok(vec![
        Runner { language: "rust", command: vec![exe.display().to_string()], env: vec![] },
        Runner { language: "typescript", command: vec!["node".into(), root().join("tests/bindings/dist/tests/runners/conformance.js").display().to_string()], env: vec![] },
        Runner { language: "python", command: crate::pyenv::runner()?, env: vec![crate::pyenv::runner_env(), crate::pyenv::pure_env()] },
        // The same runner on the native path (the wheel is built and installed first): the
        // vectors must give identical results on both.
        Runner {
            language: "python-native",
            command: {
                crate::native::install()?;
                crate::pyenv::runner()?
            },
            env: vec![crate::pyenv::runner_env(), ("ACP_TERMINAL_EXPECT_NATIVE".into(), "1".into())],
        },
    ])
}

/// Every `.json` file under `paths` (files taken as they are), sorted.
fn vector_files(paths: &[PathBuf]) -> Vec<PathBuf> {
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

/// A case's key: its file and name.
type Key = (String, String);

/// The cases of the files, by `(file, name)`, in file order; a file that is not a vector
/// file (no `cases` array, a case without a name, a name twice) is an error.
fn load(files: &[PathBuf]) -> Result<Vec<(Key, Value)>, String> {
    let mut cases = Vec::new();
    for f in files {
        let file = f.display().to_string();
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(f).map_err(|e| format!("{file}: {e}"))?).map_err(|e| format!("{file}: not JSON: {e}"))?;
        let list = doc.get("cases").and_then(Value::as_array).ok_or_else(|| format!("{file}: no `cases` array (docs/CONFORMANCE.md)"))?;
        let mut names = std::collections::BTreeSet::new();
        for (i, c) in list.iter().enumerate() {
            let name = c.get("name").and_then(Value::as_str).ok_or_else(|| format!("{file}: case {i} has no `name`"))?;
            if !names.insert(name) {
                return Err(format!("{file}: two cases are named {name:?}"));
            }
            cases.push(((file.clone(), name.to_owned()), c.clone()));
        }
    }
    Ok(cases)
}

/// What a runner printed: its result per `(file, name)`.
fn results(r: &Runner, files: &[PathBuf]) -> Result<BTreeMap<Key, Value>, String> {
    let (program, args) = r.command.split_first().ok_or("empty runner command")?;
    let out = Command::new(program)
        .args(args)
        .envs(r.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .args(files)
        .current_dir(root())
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot start the {} runner: {e}", r.language))?;
    if !out.status.success() {
        return Err(format!("the {} runner failed ({})", r.language, out.status));
    }
    let mut got = BTreeMap::new();
    for (i, line) in String::from_utf8_lossy(&out.stdout).lines().enumerate() {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("the {} runner's line {} is not JSON: {e}: {line}", r.language, i + 1))?;
        let key = (v["file"].as_str().unwrap_or_default().to_owned(), v["name"].as_str().unwrap_or_default().to_owned());
        got.insert(key, v.get("result").cloned().unwrap_or(Value::Null));
    }
    Ok(got)
}

/// Which `state` fixtures apply to this package: those whose every message is one our v2
/// schema annotates with `x-state`, or one upstream's does not annotate either (an
/// unknown variant). The others apply messages only upstream's schema has.
fn state_applies() -> Result<impl Fn(&Value) -> bool, String> {
    let annotated = |path: &str| -> Result<std::collections::BTreeSet<(String, Option<String>)>, String> {
        let text = std::fs::read_to_string(root().join(path)).map_err(|e| format!("{path}: {e}"))?;
        let ir = acp_terminal_codegen::ir::build(&serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?).map_err(|e| format!("{path}: {e:?}"))?;
        let m = acp_terminal_codegen::state::model(&ir).map_err(|e| format!("{path}: {}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")))?;
        Ok(m.owners.iter().flat_map(|o| o.rules.iter().map(|r| (r.union.clone().unwrap_or_else(|| r.message.clone()), r.tag.clone()))).chain(m.inert.iter().cloned()).collect())
    };
    let (ours, upstream) = (annotated("schema/json/v2/schema.json")?, annotated("tests/upstream/acp-v2-schema.json")?);
    Ok(move |case: &Value| {
        case["messages"].as_array().into_iter().flatten().all(|m| {
            let key = (m["type"].as_str().unwrap_or_default().to_owned(), m["message"]["sessionUpdate"].as_str().map(str::to_owned));
            ours.contains(&key) || !upstream.contains(&key)
        })
    })
}

/// Runs the suite; `Err` when any case failed in any language or the languages differ.
pub fn conformance(dirs: &[PathBuf]) -> Result<(), String> {
    let dirs: Vec<PathBuf> =
        if dirs.is_empty() { vec![root().join("tests/vectors"), root().join("tests/state")] } else { dirs.iter().map(|d| std::path::absolute(d).unwrap_or_else(|_| d.clone())).collect() };
    for d in &dirs {
        if !d.exists() {
            return Err(format!("{} does not exist", d.display()));
        }
    }
    let files = vector_files(&dirs);
    let mut cases = load(&files)?;
    let all = cases.len();
    let applies = state_applies()?;
    cases.retain(|(_, c)| c["kind"] != "state" || applies(c));
    if cases.len() < all {
        println!(
            "session state: {} of the fixtures apply to this package's v2 schema (the others apply messages it does not annotate; the goldens step runs them all on upstream's)",
            cases.iter().filter(|(_, c)| c["kind"] == "state").count()
        );
    }
    if cases.is_empty() {
        return Err("no case to run (no vector file with cases under the given paths?)".to_owned());
    }
    let mut by_lang = Vec::new();
    for r in runners()? {
        by_lang.push((r.language, results(&r, &files)?));
    }
    let mut failures = Vec::new();
    let mut differ = 0usize;
    for (lang, got) in &by_lang {
        let mut failed = 0usize;
        for (key, case) in &cases {
            let why = match got.get(key) {
                None => Err("the runner printed no result for it".to_owned()),
                Some(result) => crate::judge::judge(case, result),
            };
            if let Err(why) = why {
                failed += 1;
                println!("FAIL {lang}: {} :: {} [{}]: {why}", key.0, key.1, case["kind"].as_str().unwrap_or_default());
            }
        }
        println!("{lang}: {} passed, {failed} failed", cases.len() - failed);
        if failed > 0 {
            failures.push(format!("{failed} cases failed in {lang}"));
        }
    }
    for (key, _) in &cases {
        let results: Vec<(&str, &Value)> = by_lang.iter().filter_map(|(lang, got)| Some((*lang, got.get(key)?))).collect();
        if results.len() == by_lang.len()
            && let Some(report) = crate::judge::disagreement(&results)
        {
            differ += 1;
            println!("LANGUAGES DIFFER {} :: {}\n{report}", key.0, key.1);
        }
    }
    println!("cross-language: {} cases compared across {} languages: {} identical, {differ} differ", cases.len(), by_lang.len(), cases.len() - differ);
    if differ > 0 {
        failures.push(format!("{differ} cases give different results across languages"));
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("; ")) }
}
