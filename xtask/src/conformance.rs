//! `cargo xtask conformance [DIR...]`: runs every vector file under the given
//! directories in each language's runner, prints each runner's `N passed, N failed`,
//! and compares the canonical bytes of every decode case across languages.

use crate::{root, run};
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

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn runners() -> Result<Vec<Runner>, String> {
    run(Command::new(cargo()).args(["build", "--quiet", "--locked", "-p", "acp-terminal-conformance"]))?;
    let target = std::env::var("CARGO_TARGET_DIR").map_or_else(|_| root().join("target"), PathBuf::from);
    let exe = target.join("debug").join(format!("acp-terminal-conformance{}", std::env::consts::EXE_SUFFIX));
    crate::node::build_tests()?;
    Ok(vec![
        Runner { language: "rust", command: vec![exe.display().to_string()], env: vec![] },
        Runner {
            language: "typescript",
            command: vec!["node".into(), root().join("tests/typescript/dist/tests/typescript/conformance.js").display().to_string()],
            env: vec![],
        },
        Runner { language: "python", command: crate::pyenv::runner()?, env: vec![crate::pyenv::runner_env()] },
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
    let out_dir = root().join("target/conformance");
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
    let mut differ = 0;
    if let Some(((first_lang, first), rest)) = emitted.split_first().map(|(f, r)| ((f.0, &f.1), r)) {
        for (lang, other) in rest {
            for (key, bytes) in first {
                match other.get(key) {
                    Some(b) if b == bytes => {}
                    Some(b) => {
                        differ += 1;
                        println!("BYTES DIFFER {} :: {}\n    {first_lang}: {bytes}\n    {lang}: {b}", key.0, key.1);
                    }
                    None => {}
                }
            }
        }
        let compared = first.len();
        println!("cross-language: {} decode outputs compared across {} languages, {differ} differ", compared, emitted.len());
    }
    if differ > 0 {
        failures.push(format!("{differ} decode cases serialize differently across languages"));
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("; ")) }
}
