//! The Python side of `cargo xtask test`: a virtual environment in the ignored `.venv`
//! with the pinned dev requirements, then mypy --strict, ruff, pytest, and the Python
//! conformance runner on the generated package; and the distribution checked as it is
//! published (`package`: build, twine check, a fresh venv, mypy --strict).

use crate::{root, run};
use std::path::PathBuf;
use std::process::Command;

const REQUIREMENTS: &str = "tests/requirements-dev.txt";

fn venv() -> PathBuf {
    root().join(".venv")
}

/// The virtual environment's interpreter.
pub fn python() -> PathBuf {
    interpreter(&venv())
}

fn interpreter(dir: &std::path::Path) -> PathBuf {
    if cfg!(windows) { dir.join("Scripts/python.exe") } else { dir.join("bin/python") }
}

fn python3() -> &'static str {
    if cfg!(windows) { "python" } else { "python3" }
}

/// Creates `.venv` when missing and installs the pinned requirements when they changed.
pub fn install() -> Result<(), String> {
    install_venv(&venv(), REQUIREMENTS).map(drop)
}

/// A virtual environment at `dir` (created when missing) with the pinned requirements of
/// the file `requirements` (relative to the root), installed again only when the file
/// changed. Returns its interpreter.
pub fn install_venv(dir: &std::path::Path, requirements: &str) -> Result<PathBuf, String> {
    let python = interpreter(dir);
    if !python.exists() {
        run(Command::new(python3()).args(["-m", "venv"]).arg(dir))?;
    }
    let marker = dir.join(".requirements-installed");
    let wanted = std::fs::read_to_string(root().join(requirements)).map_err(|e| format!("{requirements}: {e}"))?;
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(wanted.as_str()) {
        run(Command::new(&python).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements]))?;
        std::fs::write(&marker, wanted).map_err(|e| e.to_string())?;
    }
    Ok(python)
}

/// The package from the checkout, pure Python even when the native wheel is installed (the
/// native path has its own step: `xtask/src/native.rs`).
fn with_package(cmd: &mut Command) -> &mut Command {
    cmd.env("PYTHONPATH", root().join("generated/python/src")).env("PYTHONDONTWRITEBYTECODE", "1").env("ACP_TERMINAL_PURE", "1")
}

/// ruff check, mypy --strict and ruff format --check on the generated package (and
/// the Python tests), then pytest.
pub fn test() -> Result<(), String> {
    install()?;
    let py = python();
    let linted = ["generated/python/src", "tests/bindings", "tests/runtime", "tests/transcript", "tests/consumer", "tests/runners"];
    run(with_package(Command::new(&py).args(["-m", "ruff", "check", "--quiet"]).args(linted)))?;
    let typed = ["generated/python/src/acp_terminal", "tests/bindings", "tests/consumer/python/main.py", "tests/runners/vectors.py", "tests/runners/conformance.py"];
    run(with_package(Command::new(&py).args(["-m", "mypy", "--strict", "--no-error-summary"]).args(typed)))?;
    // The generator lays Python out as ruff format does (gen itself needs only Rust): the
    // package, and the golden outputs of every construct schema.
    run(with_package(Command::new(&py).args(["-m", "ruff", "format", "--check", "--quiet", "generated/python/src", "xtask/tests/schemas", "tests/consumer", "tests/runners"])))?;
    run(with_package(Command::new(&py).args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/bindings", "tests/transcript"])))?;
    runtime_tests(&py)
}

/// The static runtime's own tests (`tests/runtime`, the runtime imported from
/// `templates/python` as the package `runtime`), with their own configuration
/// (`tests/runtime/pyproject.toml`): mypy --strict with `warn_unreachable` and the
/// pydantic plugin over the runtime and its tests, ruff's rules and layout, and pytest
/// with every warning an error. What `tests/runtime/check.sh` runs.
fn runtime_tests(py: &std::path::Path) -> Result<(), String> {
    let config = "tests/runtime/pyproject.toml";
    // Pure, as every run of this step (the native step runs the base64 tests on the wheel).
    let quiet = |c: &mut Command| {
        c.env("PYTHONDONTWRITEBYTECODE", "1").env("ACP_TERMINAL_PURE", "1");
    };
    let mut mypy = Command::new(py);
    mypy.args(["-m", "mypy", "--no-error-summary", "--config-file", config]);
    quiet(&mut mypy);
    run(&mut mypy)?;
    for check in [&["check", "--quiet"][..], &["format", "--check", "--quiet"]] {
        run(Command::new(py).args(["-m", "ruff"]).args(check).args(["--config", config, "templates/python/runtime", "tests/runtime"]))?;
    }
    let mut pytest = Command::new(py);
    pytest.args(["-m", "pytest", "-c", config, "tests/runtime"]);
    quiet(&mut pytest);
    run(&mut pytest)
}

/// The Python conformance runner command (for `xtask conformance`).
pub fn runner() -> Result<Vec<String>, String> {
    install()?;
    Ok(vec![python().display().to_string(), root().join("tests/runners/conformance.py").display().to_string()])
}

/// The PYTHONPATH the runner needs.
pub fn runner_env() -> (String, String) {
    ("PYTHONPATH".into(), root().join("generated/python/src").display().to_string())
}

/// The environment of the pure-Python runner (even when the native wheel is installed).
pub fn pure_env() -> (String, String) {
    ("ACP_TERMINAL_PURE".into(), "1".into())
}

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What `git status` says about the checkout (`None` outside a git checkout).
fn git_status() -> Option<String> {
    let out = Command::new("git").args(["status", "--porcelain", "--untracked-files=all"]).current_dir(root()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A typed program using the installed distribution: run in the fresh environment and
/// checked there with `mypy --strict` (the package must ship `py.typed` and its metadata).
const PACKAGE_CHECK: &str = "tests/consumer/python/package.py";

/// The Python distribution checked the way it is published and installed: `python -m
/// build` (sdist and wheel, from the checkout), `twine check --strict`, the wheel
/// installed into a fresh virtual environment, a program that imports it run there and
/// checked with `mypy --strict` against that environment; building from the checkout
/// leaves `git status` unchanged.
pub fn package() -> Result<(), String> {
    install()?;
    let py = python();
    let before = git_status();
    let dir = Scratch(std::env::temp_dir().join(format!("acp-terminal-py-package-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&dir.0);
    std::fs::create_dir_all(&dir.0).map_err(|e| format!("{}: {e}", dir.0.display()))?;
    let dist = dir.0.join("dist");
    run(Command::new(&py).args(["-m", "build", "--quiet", "--no-isolation", "--outdir"]).arg(&dist).arg(root().join("generated/python")))?;
    let mut built: Vec<PathBuf> = std::fs::read_dir(&dist).map_err(|e| e.to_string())?.flatten().map(|e| e.path()).collect();
    built.sort();
    let wheel = built.iter().find(|p| p.extension().is_some_and(|e| e == "whl")).ok_or("python -m build made no wheel")?.clone();
    if !built.iter().any(|p| p.to_string_lossy().ends_with(".tar.gz")) {
        return Err("python -m build made no sdist".into());
    }
    run(Command::new(&py).args(["-m", "twine", "check", "--strict"]).args(&built))?;
    let after = git_status();
    if before != after {
        return Err(format!("building the Python package changed `git status`:\nbefore:\n{}\nafter:\n{}", before.unwrap_or_default(), after.unwrap_or_default()));
    }
    let venv = dir.0.join("venv");
    run(Command::new(python3()).args(["-m", "venv"]).arg(&venv))?;
    let vpy = if cfg!(windows) { venv.join("Scripts/python.exe") } else { venv.join("bin/python") };
    run(Command::new(&vpy).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).arg(&wheel))?;
    let main = dir.0.join("main.py");
    std::fs::copy(root().join(PACKAGE_CHECK), &main).map_err(|e| format!("{PACKAGE_CHECK}: {e}"))?;
    run(Command::new(&vpy).arg(&main).current_dir(&dir.0))?;
    run(Command::new(&py)
        .args(["-m", "mypy", "--strict", "--no-error-summary", "--cache-dir"])
        .arg(dir.0.join("mypy-cache"))
        .arg("--python-executable")
        .arg(&vpy)
        .arg(&main)
        .current_dir(&dir.0)
        .env_remove("PYTHONPATH"))
}
