//! `cargo xtask upstream [--check]`: upstream's JSON Schemas, derived from the pinned
//! published crate `agent-client-protocol-schema` by the small crate
//! `tests/upstream-schema/` (a workspace of its own with a committed lock file), written
//! to `tests/upstream/`. With `--check` (a step of `cargo xtask test`) nothing is
//! written and a committed file that differs from what the crate gives fails, with a
//! diff.
//!
//! Updating to a new crate version is one bump of the version in
//! `tests/upstream-schema/Cargo.toml` and one `cargo xtask upstream` (docs/MAINTAINING.md).

use crate::root;
use acp_terminal_codegen::{Files, Input, Package, apply_overlay, python_package, rust_crate, typescript_package};
use std::process::Command;

const MANIFEST: &str = "tests/upstream-schema/Cargo.toml";

/// One derived file: the protocol version, whether upstream's `unstable` features are on,
/// and where it goes.
pub struct Derived {
    pub version: &'static str,
    pub unstable: bool,
    pub file: &'static str,
}

/// The derived files. "Upstream" for our own schema is `acp-v2-schema.json`: the crate
/// with `unstable_protocol_v2` alone, v2 as upstream ships it without opting into
/// anything else. `acp-v2-unstable-schema.json` adds the crate's `unstable` umbrella
/// (every other `unstable_*` feature; it does not include `unstable_protocol_v2`), the
/// widest input for the generator. v1 is the crate's stable v1 module (`unstable_*`
/// features off): what a v1 peer speaks.
pub const DERIVED: [Derived; 3] = [
    Derived { version: "v2", unstable: false, file: "tests/upstream/acp-v2-schema.json" },
    Derived { version: "v2", unstable: true, file: "tests/upstream/acp-v2-unstable-schema.json" },
    Derived { version: "v1", unstable: false, file: "tests/upstream/acp-v1-schema.json" },
];

/// The upstream crate's name and version as the lock file of `tests/upstream-schema/`
/// resolved them (`agent-client-protocol-schema 1.20.0`).
fn crate_version() -> Result<String, String> {
    let lock_path = root().join("tests/upstream-schema/Cargo.lock");
    let lock = std::fs::read_to_string(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"agent-client-protocol-schema\""
            && let Some(v) = lines.next().and_then(|l| l.trim().strip_prefix("version = \"")).and_then(|v| v.strip_suffix('"'))
        {
            return Ok(format!("agent-client-protocol-schema {v}"));
        }
    }
    Err(format!("{}: no agent-client-protocol-schema package", lock_path.display()))
}

/// The schema text the pinned crate gives for `d`.
fn derive_one(d: &Derived, locked: bool, krate: &str) -> Result<String, String> {
    let cargo = crate::cargo();
    let mut cmd = Command::new(cargo);
    cmd.args(["run", "--quiet", "--manifest-path", MANIFEST]);
    if locked {
        cmd.arg("--locked");
    }
    if d.unstable {
        cmd.args(["--features", "unstable"]);
    }
    cmd.args(["--", d.version, krate]).env("CARGO_TARGET_DIR", root().join("target/upstream-schema")).current_dir(root());
    eprintln!("$ {}", format!("{cmd:?}").replace('"', ""));
    let out = cmd.output().map_err(|e| format!("could not run cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!("deriving {} failed:\n{}", d.file, String::from_utf8_lossy(&out.stderr).trim_end()));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("{}: not UTF-8: {e}", d.file))
}

/// Derives every file of [`DERIVED`]; writes the ones that changed, or with `check`
/// fails on any committed file that differs.
pub fn derive(check: bool) -> Result<(), String> {
    // Writing resolves a bumped version into the lock file first (no `--locked`); the
    // check holds the committed lock file to the manifest.
    if !check {
        let cargo = crate::cargo();
        crate::run(Command::new(cargo).args(["metadata", "--format-version", "1", "--manifest-path", MANIFEST]).stdout(std::process::Stdio::null()))?;
    }
    let krate = crate_version()?;
    let mut stale = Vec::new();
    for d in &DERIVED {
        let text = derive_one(d, check, &krate)?;
        let path = root().join(d.file);
        let old = std::fs::read_to_string(&path).ok();
        let count = serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| v.get("$defs").and_then(serde_json::Value::as_object).map(serde_json::Map::len)).unwrap_or(0);
        if old.as_deref() == Some(text.as_str()) {
            eprintln!("upstream: {} is what {krate} gives ({count} definitions)", d.file);
            continue;
        }
        if check {
            stale.push(match old {
                Some(old) => format!("{} differs from what {krate} gives:\n{}", d.file, crate::codegen::diff(&old, &text)),
                None => format!("{} is missing", d.file),
            });
        } else {
            std::fs::write(&path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("upstream: wrote {} from {krate} ({count} definitions)", d.file);
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}\nthe committed copies are upstream's schemas exactly as the pinned crate derives them: never edit them; run `cargo xtask upstream` and commit the result (docs/MAINTAINING.md)",
            stale.join("\n")
        ))
    }
}

/// Upstream's full schemas as the crate derives them (`tests/upstream/`, `cargo xtask
/// upstream`), with their overlays, as the modules `v2` (feature `unstable_protocol_v2`),
/// `v2_unstable` (and `unstable`) and `v1`.
///
/// # Errors
/// A file that does not read, or a definition that does not generate (a problem fails:
/// these are never partial).
pub fn inputs() -> Result<Vec<Input>, String> {
    let mut upstream = Vec::new();
    for (module, file, overlay) in
        [("v2", "acp-v2-schema.json", "acp-v2-overlay.json"), ("v2_unstable", "acp-v2-unstable-schema.json", "acp-v2-unstable-overlay.json"), ("v1", "acp-v1-schema.json", "acp-v1-overlay.json")]
    {
        let dir = root().join("tests/upstream");
        let read = |f: &str| -> Result<serde_json::Value, String> { serde_json::from_str(&std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"))?).map_err(|e| format!("{f}: {e}")) };
        let mut doc = read(file)?;
        apply_overlay(&mut doc, &read(overlay)?)?;
        let input = Input::new(module, file, serde_json::to_string(&doc).map_err(|e| e.to_string())?, false);
        let ir = input.ir()?;
        // Upstream's own definitions (not the objects the generator synthesizes).
        let named = doc.get("$defs").and_then(serde_json::Value::as_object);
        let n = ir.defs.iter().filter(|d| named.is_some_and(|m| m.contains_key(d.name()))).count();
        let all = named.map_or(0, serde_json::Map::len);
        if n != all {
            return Err(format!("{file}: {n} of its {all} definitions generate"));
        }
        upstream.push(input);
    }
    Ok(upstream)
}

/// The package `acp-upstream` of those inputs, under `upstream/` in `files`.
pub fn package(upstream: &[Input], files: &mut Files) -> Result<(), String> {
    let up = Package::neutral("acp-upstream", "Upstream ACP's full v2 and v1 schemas")?;
    rust_crate(upstream, "upstream/rust", &up, files)?;
    typescript_package(upstream, "upstream/typescript", &up, files)?;
    python_package(upstream, "upstream/python", &up, files)
}
