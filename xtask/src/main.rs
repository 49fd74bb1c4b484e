//! `cargo xtask`: the project's commands (see README.md).

mod codegen;

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
    },
    /// Run every test: Rust tests and the generated-files check.
    Test,
}

/// The workspace root (the folder above `xtask/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("$ {}", format!("{cmd:?}").replace('"', ""));
    let status = cmd.current_dir(root()).status().map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{cmd:?} failed ({status})")) }
}

fn test() -> Result<(), String> {
    codegen::generate(true)?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(Command::new(&cargo).args(["test", "--workspace", "--locked"]))?;
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Gen { check } => codegen::generate(check),
        Cmd::Test => test(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
