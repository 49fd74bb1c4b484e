//! The Rust crates as they are published: `cargo publish --dry-run` packages each one
//! alone (only the files inside its folder) and builds the packaged copy, so a source
//! file reaching outside the crate, a missing README or licence, or a placeholder URL
//! shows up here rather than at release time.

use crate::{root, run};
use std::process::Command;

/// The crates that are published, by package name, with their folder and the files its
/// package must hold besides README.md, LICENSE and Cargo.toml. The wire runtime is a crate
/// of its own, which the schema crate depends on; the generated crate vendors it as `wire`.
const CRATES: &[(&str, &str, &[&str])] = &[
    ("acp-terminal-wire", "templates/rust/runtime", &["lib.rs", "mod.rs", "decode.rs"]),
    ("acp-terminal-schema", "schema", &["src/lib.rs", "src/emit.rs"]),
    ("acp-terminal", "generated/rust", &["src/lib.rs", "src/wire/mod.rs", "src/transcript.rs"]),
];

/// `cargo publish --dry-run` for the crates together (so the schema crate resolves the wire
/// crate as it will be published), then checks what each package holds.
pub fn publish_dry_run() -> Result<(), String> {
    let cargo = crate::cargo();
    let mut publish = Command::new(&cargo);
    // `--allow-dirty`: the check runs on work in progress too; what is packaged is still
    // only what `cargo package --list` shows (the committed layout).
    publish.args(["publish", "--dry-run", "--allow-dirty", "--quiet"]);
    for (name, dir, _) in CRATES {
        check_manifest(name, dir)?;
        publish.args(["-p", name]);
    }
    run(&mut publish)?;
    for (name, _, files) in CRATES {
        let out = Command::new(&cargo).args(["package", "--list", "--allow-dirty", "-p", name]).current_dir(root()).output().map_err(|e| format!("could not run cargo package --list: {e}"))?;
        let list = String::from_utf8_lossy(&out.stdout);
        for needed in ["README.md", "LICENSE", "Cargo.toml"].iter().chain(files.iter()) {
            if !list.lines().any(|l| l == *needed) {
                return Err(format!("the {name} package has no {needed}; `cargo package --list -p {name}` shows:\n{list}"));
            }
        }
    }
    Ok(())
}

/// The manifest fields a registry page needs, and no placeholder URL.
fn check_manifest(name: &str, dir: &str) -> Result<(), String> {
    let path = root().join(dir).join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let workspace = std::fs::read_to_string(root().join("Cargo.toml")).map_err(|e| format!("Cargo.toml: {e}"))?;
    for field in ["description", "license", "readme"] {
        if !text.lines().any(|l| l.starts_with(field)) {
            return Err(format!("{dir}/Cargo.toml ({name}) has no `{field}`; add it so the registry page is complete"));
        }
    }
    for t in [&text, &workspace] {
        if let Some(l) = t.lines().find(|l| l.contains(".invalid") || l.contains("example.com")) {
            return Err(format!("a placeholder URL would be published with {name}: `{l}`; remove it or give the real one"));
        }
    }
    Ok(())
}
