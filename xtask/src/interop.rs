//! Interop with programs this project did not write (`cargo xtask test`, step
//! `interop`). Each is pinned (`tests/package-lock.json`,
//! `tests/requirements-dev.txt`), installed into ignored folders, and runs as
//! itself against the example Agent or the terminal Client:
//!
//! - acpx 0.19.1 (npm, a headless v1 Client) drives the example Agent with `exec`
//!   (`tests/interop/acpx.test.ts`);
//! - the official TypeScript SDK 2.4.0 drives it as a Client at v1 (the stable root
//!   entry's `client()`) and at v2 (`client()` of `experimental/v2`), its session-update
//!   callback feeding our TypeScript `TerminalStore` (`tests/interop/sdk_client.test.ts`);
//! - an Agent written on that SDK alone (`tests/interop/sdk_agent.ts`: v2 `agent()` of
//!   `experimental/v2`, and v1 with the `_meta` convention) streams a terminal to our
//!   Python terminal Client (below);
//! - the official Python SDK 0.12.1's client connection drives the example Agent at v1
//!   (`tests/interop/test_python_sdk.py`).
//!
//! Every one checks output text, exit status and the refusal path.
//! `ACP_INTEROP_VERBOSE=1` prints the sessions.

use crate::e2e::{self, check_stderr, run_client};
use crate::{node, pyenv, root, run};
use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

const DIR: &str = "tests/interop";

pub fn test() -> Result<(), String> {
    let agent = e2e::build_agent()?;
    node::install()?;
    let dir = root().join(DIR);
    // Strict, with Node's types.
    run(Command::new(node::tsc_path()).args(["-p", "tsconfig.json"]).current_dir(&dir))?;
    eprintln!("interop: acpx and the official TypeScript SDK against the example Agent");
    run(Command::new("node").args(["--test", "dist/tests/interop/"]).current_dir(&dir).env("ACP_EXAMPLE_AGENT", &agent))?;
    pyenv::install()?;
    let py = pyenv::python();
    let with_package = |c: &mut Command| {
        c.env("PYTHONPATH", root().join("generated/python/src")).env("PYTHONDONTWRITEBYTECODE", "1");
    };
    run(Command::new(&py).args(["-m", "ruff", "check", "--quiet", DIR]))?;
    run(Command::new(&py).args(["-m", "ruff", "format", "--check", "--quiet", DIR, "examples/terminal-client"]))?;
    let mut mypy = Command::new(&py);
    mypy.args(["-m", "mypy", "--strict", "--no-error-summary", DIR]);
    with_package(&mut mypy);
    run(&mut mypy)?;
    eprintln!("interop: the official Python SDK's client connection against the example Agent");
    let mut pytest = Command::new(&py);
    pytest.args(["-m", "pytest", "-q", "-p", "no:cacheprovider", DIR]).env("ACP_EXAMPLE_AGENT", &agent);
    with_package(&mut pytest);
    run(&mut pytest)?;
    eprintln!("interop: the terminal Client against an Agent written on the official TypeScript SDK (v2 and v1)");
    let sdk_agent = dir.join("dist/tests/interop/sdk_agent.js");
    for version in ["2", "1"] {
        client_and_sdk_agent(&sdk_agent, version)?;
    }
    Ok(())
}

/// The terminal Client (Python, on the generated package) and the SDK-written Agent.
fn client_and_sdk_agent(sdk_agent: &Path, version: &str) -> Result<(), String> {
    let argv: Vec<&OsStr> = vec![OsStr::new("node"), sdk_agent.as_os_str(), OsStr::new("--protocol"), OsStr::new(version)];
    let speaks = format!("client: ACP v{version} with acp-terminal-interop-sdk-agent");
    let verbose = std::env::var_os("ACP_INTEROP_VERBOSE").is_some_and(|v| v == "1");
    let show = |what: &str, ran: &e2e::Ran| {
        if verbose {
            eprintln!("--- the terminal Client, v{version}, {what}: stdout:\n{}--- stderr:\n{}--- exit status {:?}", ran.stdout, ran.stderr, ran.code);
        }
    };
    let fail = |what: &str, problem: String, ran: &e2e::Ran| Err(format!("interop: the terminal Client and the SDK Agent at v{version}, {what}: {problem}\n--- client stderr:\n{}", ran.stderr));

    // Output: colours interpreted, an invalid byte, a character split across writes, an exit code.
    let command = r"printf 'hello \033[32msdk\033[0m\n'; printf 'bad \377 byte\n'; printf '\342\202'; sleep 0.1; printf '\254 euro\n'; exit 3";
    let ran = run_client(&["--answer", "allow", "--prompt", command], &argv)?;
    show("output", &ran);
    if ran.stdout != "hello sdk\nbad \u{FFFD} byte\n\u{20AC} euro\n" {
        return fail("output", format!("transcript {:?}", ran.stdout), &ran);
    }
    if ran.code != Some(3) {
        return fail("output", format!("client exit status {:?}, expected 3", ran.code), &ran);
    }
    let header = format!("--- sdk_term_2: $ {command}");
    check_stderr(&ran, &[&speaks, &header, "--- sdk_term_2: exited with code 3", "client: the turn ended: end_turn"]).or_else(|e| fail("output", e, &ran))?;

    // A signal.
    let ran = run_client(&["--answer", "allow", "--prompt", "echo 'about to go'; kill -TERM $$"], &argv)?;
    if ran.stdout != "about to go\n" || ran.code != Some(128 + 15) {
        return fail("a signal", format!("transcript {:?}, exit status {:?} (expected 143)", ran.stdout, ran.code), &ran);
    }
    check_stderr(&ran, &["--- sdk_term_2: killed by SIGTERM"]).or_else(|e| fail("a signal", e, &ran))?;

    // The refusal path: nothing runs.
    std::fs::create_dir_all(root().join("target/interop")).map_err(|e| e.to_string())?;
    let marker = root().join(format!("target/interop/refused-v{version}"));
    let _ = std::fs::remove_file(&marker);
    let prompt = format!("touch {}", marker.display());
    let ran = run_client(&["--answer", "reject", "--prompt", &prompt], &argv)?;
    show("refusal", &ran);
    if marker.exists() {
        return fail("refusal", "the refused command ran".into(), &ran);
    }
    if ran.code != Some(126) || !ran.stdout.is_empty() {
        return fail("refusal", format!("exit status {:?} (expected 126), transcript {:?} (expected none)", ran.code, ran.stdout), &ran);
    }
    check_stderr(&ran, &["client: the command was not run: Not allowed: nothing ran.", "client: the turn ended: end_turn"]).or_else(|e| fail("refusal", e, &ran))?;

    // session/cancel from the Client ends the SDK Agent's command.
    let ran = run_client(&["--answer", "allow", "--cancel-on", "ready", "--prompt", "echo ready; sleep 600"], &argv)?;
    if ran.stdout != "ready\n" || ran.code != Some(128 + 15) {
        return fail("cancel", format!("transcript {:?}, exit status {:?} (expected 143)", ran.stdout, ran.code), &ran);
    }
    check_stderr(&ran, &["client: the turn ended: cancelled"]).or_else(|e| fail("cancel", e, &ran))
}
