//! `cargo xtask gen`: writes every generated file, or checks that the committed ones
//! are current.

use acp_terminal_schema::emit::{Version, schema_text};
use std::fmt::Write as _;

/// Writes `contents` to `rel` (relative to the root) when it differs; in check mode,
/// returns an error with a diff instead.
fn ensure_file(rel: &str, contents: &str, check: bool, stale: &mut Vec<String>) -> Result<(), String> {
    let path = super::root().join(rel);
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    if old == contents {
        return Ok(());
    }
    if check {
        stale.push(format!("{rel} is stale:\n{}", diff(&old, contents)));
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(&path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!("wrote {rel}");
    Ok(())
}

/// A short line diff: the first differing lines with a little context.
fn diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let mut out = String::new();
    let from = first.saturating_sub(2);
    for l in &a[from..a.len().min(first + 8)] {
        let _ = writeln!(out, "- {l}");
    }
    for l in &b[from..b.len().min(first + 8)] {
        let _ = writeln!(out, "+ {l}");
    }
    let _ = writeln!(out, "(first difference at line {}; committed {} lines, generated {} lines)", first + 1, a.len(), b.len());
    out
}

/// Runs every generator.
pub fn generate(check: bool) -> Result<(), String> {
    let mut stale = Vec::new();
    for v in [Version::V2, Version::V1] {
        ensure_file(&format!("schema/json/{}/schema.json", v.as_str()), &schema_text(v), check, &mut stale)?;
    }
    if stale.is_empty() {
        if check {
            eprintln!("gen --check: every generated file is current");
        }
        Ok(())
    } else {
        Err(format!("{}\nrun `cargo xtask gen` and commit the result", stale.join("\n")))
    }
}
