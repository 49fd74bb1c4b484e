//! The bench binary refuses what it cannot run with its usage and exit status 2, never a
//! panic. (Having an integration test also makes `cargo test --workspace` build the
//! binary itself, which the smoke run of `cargo xtask test` then runs as it is.)

use std::process::Command;

#[test]
fn a_missing_or_unknown_command_prints_the_usage() {
    for args in [&[][..], &["fast"], &["speed", "dir"], &["mem", "dir", "ours", "extra"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_acp-terminal-bench")).args(args).output().expect("the bench binary runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("usage: acp-terminal-bench speed DIR ROUNDS | mem DIR ours|hand"), "{args:?}: {stderr}");
    }
}
