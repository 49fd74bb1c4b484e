//! Consumer tests: each generated package installed the way a downstream user would,
//! in a fresh temporary project, and used from there.

use crate::{node, root, run};
use std::path::{Path, PathBuf};
use std::process::Command;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Result<Self, String> {
        let p = std::env::temp_dir().join(format!("acp-terminal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        Ok(Self(p))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write(dir: &Path, rel: &str, text: &str) -> Result<(), String> {
    let p = dir.join(rel);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
}

/// The consumer programs, one per language: real files, formatted and linted like the rest.
const CONSUMERS: &str = "tests/consumer";

fn read(rel: &str) -> Result<String, String> {
    std::fs::read_to_string(root().join(CONSUMERS).join(rel)).map_err(|e| format!("{CONSUMERS}/{rel}: {e}"))
}

/// The Rust crate as a path dependency of a new crate.
pub fn rust() -> Result<(), String> {
    let dir = TempDir::new("rust-consumer")?;
    let generated = root().join("generated/rust");
    write(
        &dir.0,
        "Cargo.toml",
        &format!(
            "[package]\nname = \"consumer\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[dependencies]\nacp-terminal = {{ path = {:?} }}\nserde_json = \"1\"\n\n[workspace]\n",
            generated.display().to_string()
        ),
    )?;
    // Laid out as the workspace's crates are (it is in none, so `cargo fmt` does not see it).
    run(Command::new("rustfmt").args(["--check", "--edition", "2024", "--config-path", "rustfmt.toml"]).arg(Path::new(CONSUMERS).join("rust/main.rs")))?;
    write(&dir.0, "src/main.rs", &read("rust/main.rs")?)?;
    // Warnings denied: the program is the example a user copies.
    run(Command::new(crate::cargo()).args(["run", "--quiet"]).current_dir(&dir.0).env("CARGO_TARGET_DIR", root().join("target/consumer")).env("RUSTFLAGS", "-D warnings"))
}

/// The npm package as users get it: see `node::consumer`.
pub fn typescript() -> Result<(), String> {
    node::consumer()
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for e in std::fs::read_dir(from).map_err(|e| e.to_string())?.flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()))?;
        } else {
            std::fs::copy(&p, to.join(e.file_name())).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// The Python distribution installed with pip into a fresh virtual environment, as a
/// downstream user would, and used from there.
pub fn python() -> Result<(), String> {
    let dir = TempDir::new("py-consumer")?;
    let venv = dir.0.join("venv");
    run(Command::new(if cfg!(windows) { "python" } else { "python3" }).args(["-m", "venv"]).arg(&venv))?;
    let py = if cfg!(windows) { venv.join("Scripts/python.exe") } else { venv.join("bin/python") };
    // Build from a copy so no build artefacts land in generated/.
    let src = dir.0.join("acp-terminal");
    copy_dir(&root().join("generated/python"), &src)?;
    run(Command::new(&py).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).arg(&src))?;
    write(&dir.0, "main.py", &read("python/main.py")?)?;
    run(Command::new(&py).arg("main.py").current_dir(&dir.0))
}
