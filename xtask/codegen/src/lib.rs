//! The generator of acp-terminal, as a library: a JSON Schema document (draft 2020-12,
//! `$defs`) becomes an IR ([`ir`]), each language a view of it ([`rust`], [`typescript`],
//! [`python`]), and the templates under `templates/` render the packages ([`package`]),
//! with the hand-written runtimes vendored beside them and the rules' data
//! ([`error_kinds`], [`limits`], [`transcript_table`], [`adapter_rules`]) compiled from their one source each.
//!
//! It reads only JSON: it never sees the Rust types the project's own schema is emitted
//! from, so it runs on any schema in the supported subset. It depends on no test or
//! harness code; `cargo xtask` (the commands, the test steps) is built on top of it.

pub mod adapter_rules;
pub mod dynamic;
pub mod error_kinds;
pub mod ir;
pub mod limits;
pub mod package;
pub mod pattern;
pub mod python;
pub mod rust;
pub mod rustfmt;
pub mod state;
pub mod transcript_table;
pub mod typescript;

#[cfg(test)]
mod golden;

pub use package::{Files, FromOptions, Input, Package, apply_overlay, diff, files_from, generate, generate_from, python_package, runtime_data, rust_crate, sync, typescript_package};

use std::path::{Path, PathBuf};

/// The repository root (two folders above this crate's `xtask/codegen/`): where
/// `templates/`, `rustfmt.toml` and `gen`'s outputs are.
#[must_use]
pub fn root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().and_then(Path::parent).map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}
