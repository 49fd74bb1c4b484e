//! `cargo xtask`: the project's commands (see README.md).

mod codegen;
mod conformance;
mod consumer;
mod crates;
#[cfg(test)]
mod golden;
mod ir;
mod node;
mod pyenv;
mod python;
mod rust;
mod typescript;

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "acp-terminal: generate and test")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Emit the JSON Schema documents (and, as they are added, the bindings).
    Gen {
        /// Write nothing; fail with a diff when a committed file is stale.
        #[arg(long)]
        check: bool,
        /// Run the generator on another JSON Schema document (draft 2020-12, `$defs`).
        #[arg(long, requires = "out")]
        schema: Option<PathBuf>,
        /// Where `--schema` writes its bindings.
        #[arg(long, requires = "schema")]
        out: Option<PathBuf>,
    },
    /// Run every test: the generated-files check, the Rust tests, the conformance suite.
    Test,
    /// Run the conformance vectors under DIR... (default `tests/vectors`) in every
    /// language and compare their bytes.
    Conformance {
        /// Directories (or files) of vectors in the docs/CONFORMANCE.md format.
        dirs: Vec<PathBuf>,
    },
}

/// The workspace root (the folder above `xtask/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

pub fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("$ {}", format!("{cmd:?}").replace('"', ""));
    if cmd.get_current_dir().is_none() {
        cmd.current_dir(root());
    }
    let status = cmd.status().map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{cmd:?} failed ({status})")) }
}

fn test() -> Result<(), String> {
    codegen::generate(true)?;
    node::install()?;
    pyenv::install()?;
    codegen::compile_goldens(&node::tsc_path(), &pyenv::python())?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(Command::new(&cargo).args(["test", "--workspace", "--locked", "--no-fail-fast"]))?;
    run(Command::new(&cargo).args(["clippy", "--workspace", "--locked", "--quiet", "--", "-D", "warnings"]))?;
    node::build_tests()?;
    run(Command::new("node").args(["--test", "tests/typescript/dist/tests/typescript/"]))?;
    node::runtime_tests()?;
    node::transcript_tests()?;
    pyenv::test()?;
    conformance::conformance(&[])?;
    consumer::rust()?;
    crates::publish_dry_run()?;
    consumer::typescript()?;
    consumer::python()?;
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Gen { check, schema: Some(schema), out: Some(out) } => codegen::generate_from(&schema, &out, check),
        Cmd::Gen { check, .. } => codegen::generate(check),
        Cmd::Test => test(),
        Cmd::Conformance { dirs } => conformance::conformance(&dirs),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
