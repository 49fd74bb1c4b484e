//! The optional native path of the Python package (`native/python`, a PyO3 extension module):
//! `cargo xtask test` builds its wheel with the pinned maturin, installs it into the project's
//! `.venv`, and runs the Python transcript and base64 tests, the store's tests and the
//! conformance vectors against it (`ACP_TERMINAL_PURE` unset); every other Python run sets
//! `ACP_TERMINAL_PURE=1`, so the pure path is tested as it is vendored.

use crate::{pyenv, root, run};
use std::path::PathBuf;
use std::process::Command;

const REQUIREMENTS: &str = "native/python/requirements.txt";

/// Builds the wheel (`--locked`, into `target/wheels`; release, or the quick `wheel-check`
/// profile in `cargo xtask test`) and installs it into `.venv`;
/// returns the wheel.
/// Once per process: the conformance and fuzz steps ask again, and nothing they test
/// changes the wheel's sources.
pub fn install() -> Result<PathBuf, String> {
    static WHEEL: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    if let Some(wheel) = WHEEL.get() {
        return Ok(wheel.clone());
    }
    let wheel = build_and_install()?;
    Ok(WHEEL.get_or_init(|| wheel).clone())
}

fn build_and_install() -> Result<PathBuf, String> {
    pyenv::install()?;
    let py = pyenv::python();
    let marker = root().join(".venv/.native-requirements-installed");
    let wanted = std::fs::read_to_string(root().join(REQUIREMENTS)).map_err(|e| format!("{REQUIREMENTS}: {e}"))?;
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(wanted.as_str()) {
        run(Command::new(&py).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", REQUIREMENTS]))?;
        std::fs::write(&marker, wanted).map_err(|e| e.to_string())?;
    }
    let out = root().join("target/wheels");
    let _ = std::fs::remove_dir_all(&out);
    let maturin = py.with_file_name(if cfg!(windows) { "maturin.exe" } else { "maturin" });
    // The test command needs a wheel that works, not a fast one: the `wheel-check` profile
    // (unoptimised, no debug info) builds in about a third of the release build's time
    // (thin LTO, one codegen unit), which `cargo xtask bench` measures.
    let profile = if crate::in_test_command() { ["--profile", "wheel-check"] } else { ["--profile", "release"] };
    run(Command::new(maturin)
        .arg("build")
        .args(profile)
        .args(["--locked", "--quiet", "-m", "native/python/Cargo.toml", "--interpreter"])
        .arg(&py)
        .arg("-o")
        .arg(&out)
        .env("CARGO_TARGET_DIR", root().join("target/native")))?;
    let wheel =
        std::fs::read_dir(&out).map_err(|e| format!("{}: {e}", out.display()))?.flatten().map(|e| e.path()).find(|p| p.extension().is_some_and(|x| x == "whl")).ok_or("maturin built no wheel")?;
    run(Command::new(&py).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--force-reinstall", "--no-deps"]).arg(&wheel))?;
    Ok(wheel)
}

/// The test step: the wheel, then the Python tests that exercise the transcript, base64 and
/// the store with the native path in use (they check that it is), then the conformance
/// vectors with the native runner beside the others.
pub fn test() -> Result<(), String> {
    install()?;
    let py = pyenv::python();
    // The extension crate is held to the workspace's lints too (its own workspace, so the
    // cargo step's clippy does not see it); PyO3's build script asks the test venv's Python.
    // (In `cargo xtask test` the wheel's build above went through clippy already.)
    if !crate::compiles_are_linted() {
        run(Command::new(crate::cargo())
            .args(["clippy", "--locked", "--quiet", "--all-targets", "--manifest-path", "native/python/Cargo.toml", "--", "-D", "warnings"])
            .env("CARGO_TARGET_DIR", root().join("target/native"))
            .env("PYO3_PYTHON", &py))?;
    }
    run(Command::new(&py)
        .args(["-c", "import acp_terminal, acp_terminal._runtime.native as n; assert n.NATIVE, 'the native path is not in use'; print('native path:', acp_terminal.Transcript)"])
        .env("PYTHONPATH", root().join("generated/python/src")))?;
    run(Command::new(&py)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/transcript", "tests/bindings/test_store.py", "tests/runtime/test_runtime_base64.py", "tests/bindings/test_binding.py"])
        .env("PYTHONPATH", root().join("generated/python/src"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("ACP_TERMINAL_EXPECT_NATIVE", "1")
        .env_remove("ACP_TERMINAL_PURE"))
}
