//! The end-to-end loop: the example Agent (`examples/agent`, Rust, a real ACP Agent with
//! a real PTY) through the terminal Client (`examples/terminal-client`, Python, a real
//! ACP Client), at protocol v2 and at v1, and the browser Client (`examples/browser`,
//! TypeScript binding + xterm.js) replaying recorded sessions in headless Chromium.
//!
//! `cargo xtask e2e run -- [AGENT OPTIONS] COMMAND` watches the Agent in the terminal
//! Client; `cargo xtask e2e browser` serves the browser page; `cargo xtask e2e record`
//! re-records the sessions the page replays. `cargo xtask test` calls [`terminal`],
//! [`browser`] and [`readme_snippets`]; the interop with programs we did not write is
//! in `interop.rs`.

use crate::{pyenv, root, run};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

#[derive(clap::Subcommand)]
pub enum Cmd {
    /// Build the Agent and run COMMAND through the terminal Client (asks before running).
    Run {
        /// Agent options (`--replay`, `--cols N`, `--protocol 1`, ...) then the shell command line (the prompt).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
        args: Vec<String>,
    },
    /// Build the browser page into target/e2e/web and serve it on http://127.0.0.1:PORT/.
    Browser {
        #[arg(long, default_value_t = 8080)]
        port: u16,
    },
    /// Re-record examples/browser/session*.jsonl from the Agent (v2 live chunks, v2 --replay, v1).
    Record,
    /// Compile and run every ```rust, ```ts and ```python block of README.md.
    Readme,
    /// Run the end-to-end tests only (terminal Client, browser, README snippets).
    Test,
}

pub fn cli(cmd: Cmd) -> Result<(), String> {
    match cmd {
        Cmd::Run { args } => {
            let agent = build_agent()?;
            pyenv::install()?;
            let (command, options) = args.split_last().ok_or("give the command to run")?;
            let mut c = client();
            c.args(["--answer", "ask", "--prompt", command, "--"]).arg(&agent).args(options);
            let status = c.status().map_err(|e| format!("could not start the terminal Client: {e}"))?;
            if status.success() { Ok(()) } else { Err(format!("the command ended with {status}")) }
        }
        Cmd::Browser { port } => {
            build_web()?;
            run(Command::new("node").arg(format!("{E2E_DIR}/serve.mjs")).arg(root().join(WEB)).arg(port.to_string()))
        }
        Cmd::Record => record(),
        Cmd::Readme => readme_snippets(),
        Cmd::Test => {
            terminal()?;
            browser()?;
            readme_snippets()
        }
    }
}

const E2E_DIR: &str = "tests/e2e";
const WEB: &str = "target/e2e/web";
const CLIENT: &str = "examples/terminal-client/client.py";

/// The example Agent's own Cargo workspace (its lock file pins the official SDK).
pub const AGENT_MANIFEST: &str = "examples/agent/Cargo.toml";

/// Where the Agent's workspace builds: `target/agent` (or under `CARGO_TARGET_DIR`).
fn agent_target() -> PathBuf {
    crate::target_dir().join("agent")
}

/// Builds the example Agent; returns its path.
pub fn build_agent() -> Result<PathBuf, String> {
    run(Command::new(crate::cargo()).args(["build", "--quiet", "--locked", "--manifest-path", AGENT_MANIFEST]).env("CARGO_TARGET_DIR", agent_target()))?;
    Ok(agent_target().join("debug/acp-example-agent"))
}

/// The Agent's own checks: clippy with warnings denied, and its protocol tests (bad
/// input gets JSON-RPC errors, never a crash).
fn check_agent() -> Result<(), String> {
    let target = agent_target();
    // (In `cargo xtask test` the builds go through clippy already: `cargo test` lints all it compiles.)
    if !crate::compiles_are_linted() {
        run(Command::new(crate::cargo()).args(["clippy", "--quiet", "--locked", "--all-targets", "--manifest-path", AGENT_MANIFEST, "--", "-D", "warnings"]).env("CARGO_TARGET_DIR", &target))?;
    }
    run(Command::new(crate::cargo()).args(["test", "--quiet", "--locked", "--manifest-path", AGENT_MANIFEST]).env("CARGO_TARGET_DIR", &target))
}

/// The terminal Client command (`client.py`), with the generated Python package on its path.
pub fn client() -> Command {
    let mut c = Command::new(pyenv::python());
    c.arg(root().join(CLIENT)).env("PYTHONPATH", root().join("generated/python/src")).env("PYTHONDONTWRITEBYTECODE", "1").current_dir(root());
    c
}

/// One run of the Agent through the terminal Client, and what must come out.
struct Case {
    name: &'static str,
    /// Agent options before the command.
    agent: &'static [&'static str],
    command: &'static str,
    answer: &'static str,
    /// The Client's stdout: the terminal's safe transcript.
    transcript: &'static str,
    /// The Client's exit status: the command's (128 + signal number for a signal).
    code: i32,
    /// Beginnings of lines the Client's stderr must contain.
    stderr: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "colours",
        agent: &[],
        command: r"printf '\033[1;31mred\033[0m \033[38;5;42mgreen\033[0m \033[4munderlined\033[24m\n'",
        answer: "allow",
        transcript: "red green underlined\n",
        code: 0,
        stderr: &["--- term_1: exited with code 0"],
    },
    Case {
        name: "carriage-return progress bar",
        agent: &[],
        command: r#"for b in '#   ' '##  ' '### ' '####'; do printf '\r[%s] working' "$b"; sleep 0.05; done; printf '\r[####] done   \n'"#,
        answer: "allow",
        transcript: "[####] done\n", // the redraw resolved; trailing blanks dropped (docs/TRANSCRIPT.md)
        code: 0,
        stderr: &[],
    },
    Case {
        name: "invalid UTF-8, and a character split across writes",
        agent: &[],
        command: r"printf 'bad \377\376 end\n'; printf '\342\202'; sleep 0.05; printf '\254 euro\n'",
        answer: "allow",
        transcript: "bad \u{FFFD}\u{FFFD} end\n\u{20AC} euro\n",
        code: 0,
        stderr: &[],
    },
    Case {
        name: "non-zero exit",
        agent: &[],
        command: "echo 'running 3 tests'; echo 'test failed' >&2; exit 3",
        answer: "allow",
        transcript: "running 3 tests\ntest failed\n",
        code: 3,
        stderr: &["--- term_1: exited with code 3"],
    },
    Case {
        name: "a signal",
        agent: &[],
        command: "echo 'about to be killed'; kill -TERM $$; echo 'never printed'",
        answer: "allow",
        transcript: "about to be killed\n",
        code: 128 + 15,
        stderr: &["--- term_1: killed by SIGTERM"],
    },
    Case {
        name: "a real terminal of the requested size",
        agent: &["--cols", "100", "--rows", "30"],
        command: "stty size; test -t 0 && test -t 1 && echo 'stdin and stdout are terminals'",
        answer: "allow",
        transcript: "30 100\nstdin and stdout are terminals\n",
        code: 0,
        stderr: &[],
    },
    Case {
        name: "a hostile command line is shown as its safe display string",
        agent: &[],
        command: "echo safe; : '\x1b[2K\rcargo test'",
        answer: "allow",
        transcript: "safe\n",
        code: 0,
        stderr: &[r"The Agent asks to run: echo safe; : '\u{1B}[2K\rcargo test' in /", r"--- term_1: $ echo safe; : '\u{1B}[2K\rcargo test'"],
    },
];

/// The versions and output paths every case runs with: the Agent's options for each.
const MODES: &[(&str, &[&str])] = &[
    ("v2, live chunks", &[]),
    ("v2, snapshot (--replay)", &["--replay"]),
    ("v1, the Bridge and the _meta convention", &["--protocol", "1"]),
    ("v1, snapshot (--replay)", &["--protocol", "1", "--replay"]),
];

/// Refusals: the command (which would create the marker file) must not run. The answer,
/// and the reason the Agent gives at v2 and at v1 (v1's outcomes are a closed set: an
/// unknown one does not parse).
const REFUSALS: &[(&str, &str, &str)] = &[
    ("reject", "the user chose \"reject\"", "the user chose \"reject\""),
    ("cancelled", "the request was cancelled", "the request was cancelled"),
    ("maybe_later", "unknown outcome \"maybe_later\"", "the answer is not a v1 RequestPermissionResponse: unknown_variant at /outcome/outcome"),
];

fn output(cmd: &mut Command) -> Result<Output, String> {
    cmd.stdin(Stdio::null()).output().map_err(|e| format!("could not start {cmd:?}: {e}"))
}

/// A hang guard for one session (each takes a second or two): past it, the session's
/// whole process group is killed and the run fails, rather than the test run hanging.
const HANG: std::time::Duration = std::time::Duration::from_secs(180);

/// Runs `cmd` (in a process group of its own) to the end, or fails after [`HANG`].
fn output_guarded(cmd: &mut Command) -> Result<Output, String> {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0).spawn().map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(child.stdout.take().map(|r| Box::new(r) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|r| Box::new(r) as Box<dyn Read + Send>));
    let began = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if began.elapsed() > HANG {
            // The group: the Client and the Agent it started.
            let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status();
            let _ = child.wait();
            return Err(format!("{cmd:?} hung: killed after {} s", HANG.as_secs()));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Ok(Output { status, stdout: out.join().unwrap_or_default(), stderr: err.join().unwrap_or_default() })
}

/// What the terminal Client printed: its stdout (the transcripts), stderr and status.
pub struct Ran {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
}

/// Runs the terminal Client with `options` against the Agent command line `agent`.
pub fn run_client(options: &[&str], agent: &[&std::ffi::OsStr]) -> Result<Ran, String> {
    let out = output_guarded(client().args(options).arg("--").args(agent))?;
    Ok(Ran { stdout: String::from_utf8_lossy(&out.stdout).into_owned(), stderr: String::from_utf8_lossy(&out.stderr).into_owned(), code: out.status.code() })
}

/// The checks every session through the terminal Client shares: its stderr has the
/// given line beginnings, no raw control character and no complaint about the Agent.
pub fn check_stderr(ran: &Ran, lines: &[&str]) -> Result<(), String> {
    for want in lines {
        if !ran.stderr.lines().any(|l| l.starts_with(*want)) {
            return Err(format!("stderr lacks the line {want:?}"));
        }
    }
    if ran.stderr.contains(['\x1b', '\r']) {
        return Err("the Client printed a raw control character (strings must go through safe_display)".into());
    }
    if ran.stderr.contains("warning") || ran.stderr.contains("ignoring") || ran.stderr.contains("does not parse") {
        return Err("the Client reported a problem with the Agent's messages".into());
    }
    Ok(())
}

fn check_case(agent: &Path, case: &Case, mode: &str, agent_options: &[&str]) -> Result<(), String> {
    let mut argv: Vec<&std::ffi::OsStr> = vec![agent.as_os_str()];
    argv.extend(case.agent.iter().chain(agent_options).map(std::ffi::OsStr::new));
    let ran = run_client(&["--answer", case.answer, "--prompt", case.command], &argv)?;
    let fail = |what: String| Err(format!("e2e {} ({mode}): {what}\n--- client stderr:\n{}", case.name, ran.stderr));
    if ran.stdout != case.transcript {
        return fail(format!("transcript {:?}, expected {:?}", ran.stdout, case.transcript));
    }
    if ran.code != Some(case.code) {
        return fail(format!("client exit status {:?}, expected {}", ran.code, case.code));
    }
    let mut lines = case.stderr.to_vec();
    lines.push("client: the turn ended: end_turn");
    // The tool call's status, which the Client reads back from the session state (v2) or
    // from the members it was sent (v1).
    lines.push(if case.code == 0 { "--- call_1: ended completed" } else { "--- call_1: ended failed" });
    check_stderr(&ran, &lines).or_else(fail)
}

fn check_refusal(agent: &Path, answer: &str, why: &str, v1: bool) -> Result<(), String> {
    let marker = root().join(format!("target/e2e/refused-{answer}"));
    let _ = std::fs::remove_file(&marker);
    std::fs::create_dir_all(root().join("target/e2e")).map_err(|e| e.to_string())?;
    let prompt = format!("touch {}", marker.display());
    let mut argv = vec![agent.as_os_str()];
    if v1 {
        argv.extend([std::ffi::OsStr::new("--protocol"), std::ffi::OsStr::new("1")]);
    }
    let ran = run_client(&["--answer", answer, "--prompt", &prompt], &argv)?;
    let version = if v1 { "v1" } else { "v2" };
    let fail = |what: &str| Err(format!("e2e refusal by {answer:?} ({version}): {what}\n--- client stderr:\n{}", ran.stderr));
    if marker.exists() {
        return fail("the command ran");
    }
    if ran.code != Some(126) {
        return fail(&format!("client exit status {:?}, expected 126 (not run)", ran.code));
    }
    if !ran.stdout.is_empty() {
        return fail(&format!("a transcript was printed: {:?}", ran.stdout));
    }
    if !ran.stderr.contains(&format!("Permission refused ({why}")) {
        return fail(&format!("stderr does not give the reason {why:?}"));
    }
    if !ran.stderr.lines().any(|l| l == "--- call_1: ended failed") {
        return fail("the tool call's status (read back from the session state at v2) is not shown as failed");
    }
    let stop = if answer == "cancelled" { "cancelled" } else { "end_turn" };
    if !ran.stderr.contains(&format!("client: the turn ended: {stop}")) {
        return fail(&format!("the turn did not end with the stop reason {stop}"));
    }
    Ok(())
}

/// `session/cancel` while the command runs: the Agent ends it (SIGTERM to its process
/// group), reports the signal, and the turn ends `cancelled`.
fn check_cancel(agent: &Path, v1: bool) -> Result<(), String> {
    let mut argv = vec![agent.as_os_str()];
    if v1 {
        argv.extend([std::ffi::OsStr::new("--protocol"), std::ffi::OsStr::new("1")]);
    }
    let ran = run_client(&["--answer", "allow", "--cancel-on", "ready", "--prompt", "echo ready; sleep 600; echo never"], &argv)?;
    let version = if v1 { "v1" } else { "v2" };
    let fail = |what: String| Err(format!("e2e cancel ({version}): {what}\n--- client stderr:\n{}", ran.stderr));
    if ran.stdout != "ready\n" {
        return fail(format!("transcript {:?}, expected \"ready\\n\"", ran.stdout));
    }
    if ran.code != Some(128 + 15) {
        return fail(format!("client exit status {:?}, expected 143 (SIGTERM)", ran.code));
    }
    // v1 has no `cancelled` status: the Agent reports the tool call failed.
    let status = if v1 { "--- call_1: ended failed" } else { "--- call_1: ended cancelled" };
    check_stderr(&ran, &["client: the turn ended: cancelled", "--- term_1: killed by SIGTERM", status]).or_else(fail)
}

/// The Agent through the terminal Client on real commands, at v2 and v1, live and
/// replayed; refusals; a cancel.
pub fn terminal() -> Result<(), String> {
    let agent = build_agent()?;
    check_agent()?;
    pyenv::install()?;
    let py = pyenv::python();
    run(Command::new(&py).args(["-m", "ruff", "check", "--quiet", "examples/terminal-client"]))?;
    run(Command::new(&py).args(["-m", "mypy", "--strict", "--no-error-summary", "examples/terminal-client"]).env("PYTHONPATH", root().join("generated/python/src")))?;
    eprintln!("e2e: the Agent through the terminal Client ({} commands in {} modes; {} refusals and a cancel at v2 and v1)", CASES.len(), MODES.len(), REFUSALS.len());
    for case in CASES {
        for (mode, options) in MODES {
            check_case(&agent, case, mode, options)?;
        }
    }
    for (answer, v2_why, v1_why) in REFUSALS {
        check_refusal(&agent, answer, v2_why, false)?;
        check_refusal(&agent, answer, v1_why, true)?;
    }
    check_cancel(&agent, false)?;
    check_cancel(&agent, true)
}

/// The command recorded for the browser page: colours, a progress bar, a wide line, a
/// non-zero exit.
pub const RECORDED: &str = r#"printf '\033[1mBuilding\033[0m acp-terminal\n'; for i in 1 2 3 4 5; do printf '\r\033[36m[%-5s]\033[0m %d/5' "$(printf '%*s' $i '' | tr ' ' '=')" $i; sleep 0.05; done; printf '\n\033[32mok\033[0m   3 passed\n\033[31mFAIL\033[0m 1 failed: expected \342\202\254 10, got \377\n'; exit 1"#;

/// The recordings the browser page replays, and the Agent options that make each.
const RECORDINGS: &[(&str, &[&str])] =
    &[("examples/browser/session.jsonl", &[]), ("examples/browser/session-replay.jsonl", &["--replay"]), ("examples/browser/session-v1.jsonl", &["--protocol", "1"])];

fn record() -> Result<(), String> {
    let agent = build_agent()?;
    pyenv::install()?;
    for (file, options) in RECORDINGS {
        let mut argv = vec![agent.as_os_str()];
        argv.extend(options.iter().map(std::ffi::OsStr::new));
        let ran = run_client(&["--answer", "allow", "--cwd", "/tmp", "--record", file, "--prompt", RECORDED], &argv)?;
        if ran.code != Some(1) {
            return Err(format!("recording {file}: expected exit status 1, got {:?}: {}", ran.code, ran.stderr));
        }
        eprintln!("e2e: recorded {file}");
    }
    Ok(())
}

/// Builds the static page into `target/e2e/web`: the page, the TypeScript binding and
/// the page script compiled by `tsc` (ES modules, no bundler; DOM library only, no Node
/// types), xterm.js from npm, and the recorded sessions.
pub fn build_web() -> Result<(), String> {
    crate::node::install()?;
    let web = root().join(WEB);
    let _ = std::fs::remove_dir_all(&web);
    run(Command::new(crate::node::tsc_path()).args(["-p", "examples/browser/tsconfig.json"]))?;
    let copy = |from: &str, to: &str| {
        let to = web.join(to);
        std::fs::create_dir_all(to.parent().unwrap_or(&web)).map_err(|e| e.to_string())?;
        std::fs::copy(root().join(from), &to).map(drop).map_err(|e| format!("copying {from} to {}: {e}", to.display()))
    };
    for f in ["index.html", "session.jsonl", "session-replay.jsonl", "session-v1.jsonl"] {
        copy(&format!("examples/browser/{f}"), f)?;
    }
    copy("tests/node_modules/@xterm/xterm/lib/xterm.mjs", "xterm/xterm.mjs")?;
    copy("tests/node_modules/@xterm/xterm/css/xterm.css", "xterm/xterm.css")
}

const CHROMIUM: &str = "/usr/bin/chromium";

/// Debian's `chromium`, installed with apt-get when missing (as root, as CI runs);
/// never a downloaded browser.
fn ensure_chromium() -> Result<(), String> {
    if Path::new(CHROMIUM).exists() {
        return Ok(());
    }
    let root_user = Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root_user {
        return Err(format!("{CHROMIUM} is missing: install Debian's chromium package (`sudo apt-get install -y chromium`) and run the tests again"));
    }
    eprintln!("e2e: {CHROMIUM} is missing; installing Debian's chromium package");
    run(Command::new("apt-get").arg("update").env("DEBIAN_FRONTEND", "noninteractive"))?;
    run(Command::new("apt-get").args(["install", "-y", "--no-install-recommends", "chromium"]).env("DEBIAN_FRONTEND", "noninteractive"))
}

/// The browser Client in headless Chromium (`tests/e2e/browser.test.mjs`); screenshots
/// are kept in `target/e2e/`.
pub fn browser() -> Result<(), String> {
    ensure_chromium()?;
    build_web()?;
    run(Command::new("node").arg("browser.test.mjs").arg(root().join(WEB)).arg(root().join("target/e2e")).current_dir(root().join(E2E_DIR)).env("CHROMIUM", CHROMIUM))
}

/// A fenced block of a Markdown file (README.md or one of docs/).
struct Snippet {
    lang: String,
    /// The file it is in, from the repository's root.
    file: String,
    line: usize,
    code: String,
}

impl Snippet {
    /// A name for its program: the file (`readme`, `docs_clients`) and the line.
    fn stem(&self) -> String {
        let file = self.file.trim_end_matches(".md").replace(['/', '.', '-'], "_").to_lowercase();
        format!("{file}_{}", self.line)
    }
}

/// The fenced blocks of a Markdown text. Every fence must name its language; only
/// `rust`, `ts` and `python` blocks are programs, the rest must say `sh`, `text`, `json`
/// or `jsonl`.
fn snippets(markdown: &str, file: &str) -> Result<Vec<Snippet>, String> {
    let mut out = Vec::new();
    let mut open: Option<Snippet> = None;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(lang)) => {
                let lang = lang.trim().to_string();
                if !["rust", "ts", "python", "sh", "text", "json", "jsonl"].contains(&lang.as_str()) {
                    return Err(format!(
                        "{file}:{}: a code block fenced as {:?}: fence programs as ```rust, ```ts or ```python (each a complete program that `cargo xtask test` compiles and runs) and anything else as ```sh, ```text, ```json or ```jsonl",
                        i + 1,
                        format!("```{lang}")
                    ));
                }
                open = Some(Snippet { lang, file: file.to_owned(), line: i + 1, code: String::new() });
            }
            (Some(_), Some(rest)) if rest.trim().is_empty() => out.extend(open.take()),
            (Some(s), _) => {
                s.code.push_str(line);
                s.code.push('\n');
            }
            (None, None) => {}
        }
    }
    if let Some(s) = open {
        return Err(format!("{file}:{}: the ```{} block is never closed", s.line, s.lang));
    }
    Ok(out)
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs one compiled snippet; a failure names its file and line.
fn run_snippet(s: &Snippet, cmd: &mut Command) -> Result<(), String> {
    let out = output(cmd)?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!("{}:{}: the ```{} block failed ({}):\n{}{}", s.file, s.line, s.lang, out.status, String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// The Markdown files whose code blocks are programs: README.md and every docs/*.md.
pub fn documents() -> Result<Vec<String>, String> {
    let mut files = vec!["README.md".to_owned()];
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .map_err(|e| format!("docs/: {e}"))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    files.extend(docs);
    Ok(files)
}

/// Every ```rust, ```ts and ```python block of README.md and docs/*.md is a complete program: it is
/// compiled and run, and must succeed. Rust: `tests/readme` (each block a module and a
/// test, with the generated crate and the schema crate); TS: `tsc` strict against the
/// npm package's layout, then node; Python: the test virtual environment.
pub fn readme_snippets() -> Result<(), String> {
    let mut all = Vec::new();
    for file in documents()? {
        let text = std::fs::read_to_string(root().join(&file)).map_err(|e| format!("{file}: {e}"))?;
        all.extend(snippets(&text, &file)?);
    }
    let of = |lang: &str| all.iter().filter(|s| s.lang == lang).collect::<Vec<_>>();
    let (rust, ts, python) = (of("rust"), of("ts"), of("python"));
    eprintln!("e2e: README.md and docs/*.md snippets: {} rust, {} ts, {} python", rust.len(), ts.len(), python.len());
    let dir = root().join("target/e2e/readme");
    let _ = std::fs::remove_dir_all(&dir);
    if !rust.is_empty() {
        // tests/readme's build.rs makes each block a module with a test, which `cargo test
        // --workspace` runs: in `cargo xtask test` its cargo step does; otherwise the
        // workspace's lib tests run here with the snippets' filter (`--workspace`, not
        // `-p`, so nothing is compiled a second time with other features).
        if crate::in_test_command() {
            eprintln!("e2e: the Rust snippets are tests of the cargo step (tests/readme)");
        } else {
            run(Command::new(crate::cargo()).args(["test", "--quiet", "--locked", "--workspace", "--lib", "--", "_line_"]))?;
        }
    }
    if !ts.is_empty() {
        crate::node::install()?;
        let app = dir.join("ts");
        write_file(&app.join("package.json"), r#"{ "name": "readme-snippets", "private": true, "type": "module" }"#)?;
        // The SDK (pinned as in tests/package.json) for the SDK route's example; first, as
        // npm removes packages it did not install.
        run(Command::new(crate::node::npm()).args(["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", crate::node::SDK]).current_dir(&app))?;
        let pkg = app.join("node_modules/acp-terminal");
        run(Command::new(crate::node::tsc_path()).args(["-p", "generated/typescript/tsconfig.json", "--outDir"]).arg(pkg.join("dist")))?;
        std::fs::copy(root().join("generated/typescript/package.json"), pkg.join("package.json")).map_err(|e| e.to_string())?;
        write_file(
            &app.join("tsconfig.json"),
            r#"{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true,
                 "exactOptionalPropertyTypes": true, "noUncheckedIndexedAccess": true, "types": [], "lib": ["ES2022", "DOM", "ESNext.Disposable"], "outDir": "dist" },
               "include": ["*.ts"] }"#,
        )?;
        for s in &ts {
            write_file(&app.join(format!("{}.ts", s.stem())), &format!("// {} line {}\n{}", s.file, s.line, s.code))?;
        }
        run(Command::new(crate::node::tsc_path()).args(["-p", "tsconfig.json"]).current_dir(&app))?;
        for s in &ts {
            run_snippet(s, Command::new("node").arg(format!("dist/{}.js", s.stem())).current_dir(&app))?;
        }
    }
    if !python.is_empty() {
        pyenv::install()?;
        for s in &python {
            let file = dir.join(format!("python/{}.py", s.stem()));
            write_file(&file, &format!("# {} line {}\n{}", s.file, s.line, s.code))?;
            run_snippet(s, Command::new(pyenv::python()).arg(&file).env("PYTHONPATH", root().join("generated/python/src")).env("PYTHONDONTWRITEBYTECODE", "1"))?;
        }
    }
    // The Python package's own README (its Rust and TypeScript peers run as doctests
    // and in the npm consumer test).
    let package_readme = "generated/python/README.md";
    let text = std::fs::read_to_string(root().join(package_readme)).map_err(|e| format!("{package_readme}: {e}"))?;
    let package: Vec<Snippet> = snippets(&text, package_readme)?.into_iter().filter(|s| s.lang == "python").collect();
    eprintln!("e2e: {package_readme} snippets: {} python", package.len());
    for s in &package {
        let file = dir.join(format!("python/package_readme_{}.py", s.line));
        write_file(&file, &format!("# {package_readme} line {}\n{}", s.line, s.code))?;
        run_snippet(s, Command::new(pyenv::python()).arg(&file).env("PYTHONPATH", root().join("generated/python/src")).env("PYTHONDONTWRITEBYTECODE", "1"))
            .map_err(|e| format!("{package_readme} (the generated copy of templates/python/README.md): {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::snippets;

    #[test]
    fn fences_are_extracted_with_their_line() {
        let md = "# t\n```rust\nfn main() {}\n```\ntext\n```sh\nls\n```\n```python\nprint(1)\n```\n";
        let s = snippets(md, "x.md").unwrap();
        let got: Vec<(&str, usize, &str)> = s.iter().map(|s| (s.lang.as_str(), s.line, s.code.as_str())).collect();
        assert_eq!(got, [("rust", 2, "fn main() {}\n"), ("sh", 6, "ls\n"), ("python", 9, "print(1)\n")]);
    }

    #[test]
    fn a_fence_without_a_known_language_is_an_error() {
        let e = snippets("a\n```\nschema/\n```\n", "x.md").err().unwrap();
        assert!(e.starts_with("x.md:2: a code block fenced as \"```\""), "{e}");
        let e = snippets("```js\nx\n```\n", "x.md").err().unwrap();
        assert!(e.contains("```rust, ```ts or ```python"), "{e}");
        let e = snippets("```ts\nx\n", "x.md").err().unwrap();
        assert_eq!(e, "x.md:1: the ```ts block is never closed");
    }
}
