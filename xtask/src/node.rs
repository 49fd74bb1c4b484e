//! The TypeScript side of `cargo xtask test`: installs the test project's npm packages
//! into its own ignored `node_modules` (from the committed lock file), type-checks the
//! generated package on its own, and builds the tests and the conformance runner.

use crate::{root, run};
use std::process::Command;

fn npm() -> &'static str {
    if cfg!(windows) { "npm.cmd" } else { "npm" }
}

fn tsc() -> String {
    tsc_path().display().to_string()
}

/// The TypeScript compiler the test project installs.
pub fn tsc_path() -> std::path::PathBuf {
    root().join("tests/typescript/node_modules/.bin/tsc")
}

/// `npm ci` in `tests/typescript` when its packages are missing or stale.
pub fn install() -> Result<(), String> {
    install_in("tests/typescript")
}

/// `npm ci` in `rel` when its packages are missing or older than its lock file.
pub fn install_in(rel: &str) -> Result<(), String> {
    let dir = root().join(rel);
    let marker = dir.join("node_modules/.package-lock.json");
    let lock = dir.join("package-lock.json");
    let fresh = match (std::fs::metadata(&marker).and_then(|m| m.modified()), std::fs::metadata(&lock).and_then(|m| m.modified())) {
        (Ok(installed), Ok(locked)) => installed >= locked,
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    run(Command::new(npm()).args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]).current_dir(&dir))
}

/// Installs, checks the generated package with its own strict `tsconfig.json`, and
/// compiles the tests (with the generated sources) into `tests/typescript/dist`.
pub fn build_tests() -> Result<(), String> {
    install()?;
    run(Command::new(tsc()).args(["-p", "generated/typescript/tsconfig.json", "--noEmit"]))?;
    run(Command::new(tsc()).args(["-p", "tests/typescript/tsconfig.json"]))
}

/// The runtime's own tests (`tests/typescript-runtime`): type-checks the runtime alone,
/// with no Node or DOM types, then runs its unit tests.
pub fn runtime_tests() -> Result<(), String> {
    install_in("tests/typescript-runtime")?;
    run(Command::new(npm()).args(["test", "--silent"]).current_dir(root().join("tests/typescript-runtime")))
}

/// The transcript's own tests (`tests/transcript`): its vectors, whole and byte by
/// byte, the re-chunking property and the safety test, with the test project's `tsc`.
pub fn transcript_tests() -> Result<(), String> {
    install()?;
    run(Command::new(npm()).args(["test", "--silent"]).current_dir(root().join("tests/transcript")))
}
