//! The Python side of `cargo xtask test`: a virtual environment in the ignored `.venv`
//! with the pinned dev requirements, then mypy --strict, ruff, pytest, and the Python
//! conformance runner on the generated package.

use crate::{root, run};
use std::path::PathBuf;
use std::process::Command;

const REQUIREMENTS: &str = "tests/python/requirements-dev.txt";

fn venv() -> PathBuf {
    root().join(".venv")
}

/// The virtual environment's interpreter.
pub fn python() -> PathBuf {
    if cfg!(windows) { venv().join("Scripts/python.exe") } else { venv().join("bin/python") }
}

fn python3() -> &'static str {
    if cfg!(windows) { "python" } else { "python3" }
}

/// Creates `.venv` when missing and installs the pinned requirements when they changed.
pub fn install() -> Result<(), String> {
    if !python().exists() {
        run(Command::new(python3()).args(["-m", "venv"]).arg(venv()))?;
    }
    let marker = venv().join(".requirements-installed");
    let wanted = std::fs::read_to_string(root().join(REQUIREMENTS)).map_err(|e| format!("{REQUIREMENTS}: {e}"))?;
    if std::fs::read_to_string(&marker).ok().as_deref() == Some(wanted.as_str()) {
        return Ok(());
    }
    run(Command::new(python()).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", REQUIREMENTS]))?;
    std::fs::write(&marker, wanted).map_err(|e| e.to_string())
}

fn with_package(cmd: &mut Command) -> &mut Command {
    cmd.env("PYTHONPATH", root().join("generated/python/src")).env("PYTHONDONTWRITEBYTECODE", "1")
}

/// ruff and mypy --strict on the generated package and the Python tests, then pytest.
pub fn test() -> Result<(), String> {
    install()?;
    let py = python();
    run(with_package(Command::new(&py).args(["-m", "ruff", "check", "--quiet", "generated/python/src", "tests/python", "tests/python-runtime", "tests/transcript"])))?;
    run(with_package(Command::new(&py).args(["-m", "mypy", "--strict", "--no-error-summary", "generated/python/src/acp_terminal", "tests/python"])))?;
    run(with_package(Command::new(&py).args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/python", "tests/python-runtime", "tests/transcript"])))
}

/// The Python conformance runner command (for `xtask conformance`).
pub fn runner() -> Result<Vec<String>, String> {
    install()?;
    Ok(vec![python().display().to_string(), root().join("tests/python/conformance.py").display().to_string()])
}

/// The PYTHONPATH the runner needs.
pub fn runner_env() -> (String, String) {
    ("PYTHONPATH".into(), root().join("generated/python/src").display().to_string())
}
