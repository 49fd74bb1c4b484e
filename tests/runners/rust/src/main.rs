//! The Rust conformance runner: `acp-terminal-conformance PATH...` prints, for every case
//! of every vector file under the paths, one JSON line `{"file", "name", "result"}`
//! (docs/CONFORMANCE.md, "Runners and the judge"); `cargo xtask conformance` judges them.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        eprintln!("usage: acp-terminal-conformance PATH...");
        return ExitCode::from(2);
    }
    let mut text = String::new();
    for line in acp_terminal_conformance::run_files(&acp_terminal_conformance::vector_files(&paths)) {
        text.push_str(&line.to_string());
        text.push('\n');
    }
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cannot write the results: {e}");
            ExitCode::from(2)
        }
    }
}
