//! Generated Rust is laid out by rustfmt, with the project's `rustfmt.toml`.

use std::io::Write as _;
use std::process::{Command, Stdio};

/// Formats Rust source with rustfmt (part of the Rust toolchain), with the project's
/// `rustfmt.toml` wherever gen runs from, so that the output is what `cargo fmt` keeps.
pub fn rustfmt(src: &str) -> Result<String, String> {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout", "--quiet", "--config-path"])
        .arg(crate::root().join("rustfmt.toml"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run rustfmt (install it with `rustup component add rustfmt`): {e}"))?;
    child.stdin.take().ok_or("rustfmt stdin")?.write_all(src.as_bytes()).map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("rustfmt rejected generated code:\n{}\n--- source ---\n{src}", String::from_utf8_lossy(&out.stderr)));
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}
