//! The Rust conformance testee: `acp-terminal-conformance [--emit FILE] PATH...`.
//! Prints one line per failed case and ends with `N passed, N failed`. With `--emit`,
//! writes the canonical output of every passing decode case as JSON lines
//! (`{"file","name","output"}`) for the cross-language byte comparison.

use acp_terminal_conformance::{run_files, vector_files};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut emit: Option<PathBuf> = None;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--emit" {
            emit = args.next().map(PathBuf::from);
        } else {
            paths.push(PathBuf::from(a));
        }
    }
    if paths.is_empty() {
        eprintln!("usage: acp-terminal-conformance [--emit FILE] PATH...");
        return ExitCode::from(2);
    }
    let files = vector_files(&paths);
    let outcomes = run_files(&files);
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut lines = String::new();
    for o in &outcomes {
        match &o.result {
            Ok(output) => {
                passed += 1;
                if let Some(out) = output {
                    let line = serde_json::json!({ "file": o.file, "name": o.name, "output": out });
                    lines.push_str(&line.to_string());
                    lines.push('\n');
                }
            }
            Err(why) => {
                failed += 1;
                println!("FAIL {} :: {} [{}]: {why}", o.file, o.name, o.kind);
            }
        }
    }
    if let Some(path) = emit
        && let Err(e) = std::fs::File::create(&path).and_then(|mut f| f.write_all(lines.as_bytes()))
    {
        eprintln!("cannot write {}: {e}", path.display());
        return ExitCode::from(2);
    }
    println!("rust: {passed} passed, {failed} failed");
    if failed == 0 && passed > 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
