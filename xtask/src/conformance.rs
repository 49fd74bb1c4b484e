//! `cargo xtask conformance [DIR...]`: runs every vector file under the given
//! directories in each language's runner, prints each runner's `N passed, N failed`,
//! and compares across languages what every passing case produced (canonical output or
//! error of a decode, convert and bridge case, a transcript's text, a replay or ingest
//! case's store view): a directory of any kinds of vectors passes when its cases pass,
//! and fails only when no case ran at all.

use crate::root;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A language's conformance runner: how to build it and the command that runs it
/// (it takes `--emit FILE` and the vector paths).
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
        Runner { language: "typescript", command: vec!["node".into(), root().join("tests/typescript/dist/tests/typescript/conformance.js").display().to_string()], env: vec![] },
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

fn read_emitted(path: &Path) -> BTreeMap<(String, String), String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| Some(((v["file"].as_str()?.to_owned(), v["name"].as_str()?.to_owned()), v["output"].as_str()?.to_owned())))
        .collect()
}

/// Runs the suite; `Err` when any case failed in any language or bytes differ.
pub fn conformance(dirs: &[PathBuf]) -> Result<(), String> {
    let dirs: Vec<PathBuf> = if dirs.is_empty() { vec![root().join("tests/vectors")] } else { dirs.iter().map(|d| std::path::absolute(d).unwrap_or_else(|_| d.clone())).collect() };
    for d in &dirs {
        if !d.exists() {
            return Err(format!("{} does not exist", d.display()));
        }
    }
    // A folder of this run's own: runs at the same time (the fuzzers, another terminal)
    // never read each other's outputs.
    let out_dir = root().join(format!("target/conformance/run-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    let mut failures = Vec::new();
    let mut emitted = Vec::new();
    for r in runners()? {
        let emit = out_dir.join(format!("{}.jsonl", r.language));
        let _ = std::fs::remove_file(&emit);
        let (program, args) = r.command.split_first().ok_or("empty runner command")?;
        let status = Command::new(program)
            .args(args)
            .envs(r.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .arg("--emit")
            .arg(&emit)
            .args(&dirs)
            .current_dir(root())
            .status()
            .map_err(|e| format!("cannot start the {} runner: {e}", r.language))?;
        if !status.success() {
            failures.push(format!("the {} runner reported failures", r.language));
        }
        emitted.push((r.language, read_emitted(&emit)));
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    // Every output any language emitted must be emitted, with the same bytes, by all
    // of them: a case one language leaves out counts as a difference, so a runner that
    // stops emitting (or names its cases differently) cannot pass unnoticed.
    let mut keys: Vec<&(String, String)> = emitted.iter().flat_map(|(_, m)| m.keys()).collect();
    keys.sort();
    keys.dedup();
    let (mut same, mut differ, mut missing) = (0usize, 0usize, 0usize);
    for key in &keys {
        let outputs: Vec<(&str, Option<&String>)> = emitted.iter().map(|(lang, m)| (*lang, m.get(*key))).collect();
        let present: Vec<&String> = outputs.iter().filter_map(|(_, b)| *b).collect();
        if present.len() < outputs.len() {
            missing += 1;
            let absent: Vec<&str> = outputs.iter().filter(|(_, b)| b.is_none()).map(|(l, _)| *l).collect();
            println!("OUTPUT MISSING {} :: {} (not emitted by {})", key.0, key.1, absent.join(", "));
        } else if present.iter().all(|b| *b == present[0]) {
            same += 1;
        } else {
            differ += 1;
            println!("BYTES DIFFER {} :: {}", key.0, key.1);
            for (lang, b) in &outputs {
                println!("    {lang}: {}", b.map_or("", String::as_str));
            }
        }
    }
    println!("cross-language: {} outputs compared across {} languages: {same} identical, {differ} differ, {missing} missing in some language", keys.len(), emitted.len());
    // Every case that passes reports what it produced: nothing reported means no case ran.
    if keys.is_empty() {
        failures.push("no case ran in any language (no vector file with cases under the given paths?)".to_owned());
    }
    if differ > 0 {
        failures.push(format!("{differ} cases serialize differently across languages"));
    }
    if missing > 0 {
        failures.push(format!("{missing} cases are missing from some language's output"));
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("; ")) }
}
