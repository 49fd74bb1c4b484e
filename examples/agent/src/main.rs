//! `acp-example-agent`: an example ACP v2 Agent that runs one command in a real
//! pseudo-terminal and shows its output to the Client through the display-only
//! terminal surface.
//!
//! It speaks newline-delimited JSON-RPC 2.0 over stdio, as ACP does:
//!
//! 1. `session/update` `tool_call_update` (pending) for the tool call;
//! 2. `session/request_permission` with a `command` subject, then waits for the answer
//!    on stdin. Only a `selected` outcome naming one of its allow options runs the
//!    command; anything else (reject, `cancelled`, an unknown outcome, an unknown
//!    option, an error, end of input) is a refusal;
//! 3. `tool_call_update` (in progress, with the terminal reference), `terminal_update`
//!    with command, cwd and `size`, a `terminal_output_chunk` per read from the PTY,
//!    then a `terminal_update` with the exit status (exit code or signal name) and a
//!    last `tool_call_update` (completed or failed).
//!
//! With `--replay` it sends no chunks: the final `terminal_update` carries every byte
//! as one replacement `output` snapshot, which is how an Agent replays a terminal
//! without its history of chunks.
//!
//! Every message is built as JSON, checked by the generated crate's decoder
//! (`wire::from_value`) and written by its canonical encoder (`wire::to_string`).

use acp_terminal::{v2, wire};
use serde_json::{Value, json};
use std::io::{BufRead, Read, Write};
use std::os::fd::{BorrowedFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitCode, Stdio};

const USAGE: &str = "usage: acp-example-agent [--replay] [--cwd DIR] [--cols N] [--rows N] [--session ID] [--] COMMAND...
Runs COMMAND (a shell command line, joined from the remaining arguments) with /bin/sh -c in
a pseudo-terminal after the Client allows it, speaking ACP v2 JSON-RPC on stdin/stdout.";

const TOOL_CALL: &str = "call_1";
const TERMINAL: &str = "term_1";
const ALLOW: &str = "allow";
const REJECT: &str = "reject";

struct Options {
    replay: bool,
    cwd: String,
    cols: u16,
    rows: u16,
    session: String,
    command: String,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let mut o = Options { replay: false, cwd: cwd.display().to_string(), cols: 80, rows: 24, session: "sess_example".into(), command: String::new() };
    let mut i = 0;
    let value = |i: &mut usize, name: &str| -> Result<String, String> {
        *i += 1;
        args.get(*i).cloned().ok_or_else(|| format!("{name} needs a value"))
    };
    let number =
        |text: String, name: &str| -> Result<u16, String> { text.parse::<u16>().ok().filter(|n| *n > 0).ok_or_else(|| format!("{name} must be a whole number from 1 to 65535, not {text:?}")) };
    while i < args.len() {
        match args[i].as_str() {
            "--replay" => o.replay = true,
            "--cwd" => o.cwd = value(&mut i, "--cwd")?,
            "--cols" => o.cols = number(value(&mut i, "--cols")?, "--cols")?,
            "--rows" => o.rows = number(value(&mut i, "--rows")?, "--rows")?,
            "--session" => o.session = value(&mut i, "--session")?,
            "-h" | "--help" => return Err(String::new()),
            "--" => {
                i += 1;
                break;
            }
            a if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ => break,
        }
        i += 1;
    }
    o.command = args[i..].join(" ");
    if o.command.is_empty() {
        return Err("no command given".into());
    }
    Ok(o)
}

/// Writes JSON-RPC messages, one per line, to stdout.
struct Out {
    stdout: std::io::Stdout,
    session: String,
}

impl Out {
    fn line(&mut self, text: &str) -> Result<(), String> {
        let mut w = self.stdout.lock();
        w.write_all(text.as_bytes()).and_then(|()| w.write_all(b"\n")).and_then(|()| w.flush()).map_err(|e| format!("cannot write to the Client: {e}"))
    }

    /// A `session/update` notification; `update` is checked by the generated decoder.
    fn update(&mut self, update: Value) -> Result<(), String> {
        let params = json!({ "sessionId": self.session, "update": update });
        let parsed = wire::from_value::<v2::UpdateSessionNotification>(&params).map_err(|e| format!("internal error: the Agent built an invalid update: {e}"))?;
        self.line(&format!(r#"{{"jsonrpc":"2.0","method":"session/update","params":{}}}"#, wire::to_string(&parsed.value)))
    }
}

/// What the Client answered.
enum Answer {
    Allow,
    Refuse(String),
}

fn ask_permission(out: &mut Out, o: &Options, input: &mut impl BufRead) -> Result<Answer, String> {
    let params = json!({
        "sessionId": o.session,
        "title": format!("Run `{}`?", o.command),
        "subject": { "type": "command", "command": o.command, "cwd": o.cwd, "toolCallId": TOOL_CALL, "terminalId": TERMINAL },
        "options": [
            { "optionId": ALLOW, "name": "Run it", "kind": "allow_once" },
            { "optionId": REJECT, "name": "Do not run it", "kind": "reject_once" },
        ],
    });
    let request = wire::from_value::<v2::RequestPermissionRequest>(&params).map_err(|e| format!("internal error: the Agent built an invalid request: {e}"))?;
    out.line(&format!(r#"{{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}}"#, wire::to_string(&request.value)))?;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line).map_err(|e| format!("cannot read from the Client: {e}"))? == 0 {
            return Ok(Answer::Refuse("the Client closed its input without answering".into()));
        }
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            eprintln!("acp-example-agent: ignoring a line that is not JSON: {:?}", line.trim_end());
            continue;
        };
        if message.get("id") != Some(&json!(1)) || message.get("method").is_some() {
            continue; // not the answer to our request
        }
        if let Some(error) = message.get("error") {
            return Ok(Answer::Refuse(format!("the Client answered with an error: {error}")));
        }
        let Some(result) = message.get("result") else {
            return Ok(Answer::Refuse("the answer has neither `result` nor `error`".into()));
        };
        let response = match wire::from_value::<v2::RequestPermissionResponse>(result) {
            Ok(r) => r.value,
            Err(e) => return Ok(Answer::Refuse(format!("the answer is not a RequestPermissionResponse: {e}"))),
        };
        return Ok(match response.outcome {
            v2::RequestPermissionOutcome::Selected(s) if s.option_id.0 == ALLOW => Answer::Allow,
            v2::RequestPermissionOutcome::Selected(s) => Answer::Refuse(format!("the user chose {:?}", s.option_id.0)),
            v2::RequestPermissionOutcome::Cancelled(_) => Answer::Refuse("the request was cancelled".into()),
            // An outcome this version does not know is never an approval.
            v2::RequestPermissionOutcome::Unknown(u) => Answer::Refuse(format!("unknown outcome {:?}", u.tag)),
            // The enum is non-exhaustive: a variant added later is not an approval either.
            _ => Answer::Refuse("an outcome this Agent does not know".into()),
        });
    }
}

/// A pseudo-terminal: the master side for us, the slave side for the child.
fn open_pty(cols: u16, rows: u16) -> Result<(OwnedFd, OwnedFd), String> {
    use rustix::fs::{Mode, OFlags};
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    let err = |what: &str, e: rustix::io::Errno| format!("cannot open a pseudo-terminal ({what}): {e}");
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).map_err(|e| err("posix_openpt", e))?;
    grantpt(&master).map_err(|e| err("grantpt", e))?;
    unlockpt(&master).map_err(|e| err("unlockpt", e))?;
    let name = ptsname(&master, Vec::new()).map_err(|e| err("ptsname", e))?;
    let slave = rustix::fs::open(name.as_c_str(), OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC, Mode::empty()).map_err(|e| err("open slave", e))?;
    let size = rustix::termios::Winsize { ws_row: rows, ws_col: cols, ws_xpixel: 0, ws_ypixel: 0 };
    rustix::termios::tcsetwinsize(&slave, size).map_err(|e| err("set window size", e))?;
    Ok((master, slave))
}

/// Runs the command in the PTY, sending its bytes (or keeping them, for `--replay`);
/// returns every byte read and how the process ended.
fn run_command(out: &mut Out, o: &Options) -> Result<(Vec<u8>, std::process::ExitStatus), String> {
    let (master, slave) = open_pty(o.cols, o.rows)?;
    let mut child = {
        let stdio = |fd: &OwnedFd| fd.try_clone().map(Stdio::from).map_err(|e| format!("cannot duplicate the terminal: {e}"));
        let mut cmd = Command::new("/bin/sh");
        cmd.arg("-c").arg(&o.command).current_dir(&o.cwd).env("TERM", "xterm-256color").env("COLUMNS", o.cols.to_string()).env("LINES", o.rows.to_string());
        cmd.stdin(stdio(&slave)?).stdout(stdio(&slave)?).stderr(stdio(&slave)?);
        // SAFETY: only async-signal-safe system calls between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                rustix::process::setsid()?;
                rustix::process::ioctl_tiocsctty(BorrowedFd::borrow_raw(0))?;
                Ok(())
            });
        }
        cmd.spawn().map_err(|e| format!("cannot start /bin/sh in {}: {e}", o.cwd))?
        // `cmd` and its copies of the slave side are dropped here.
    };
    drop(slave); // the master reads EOF (EIO) once the child and its children close theirs
    let mut master = std::fs::File::from(master);
    let mut all = Vec::new();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match master.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                all.extend_from_slice(&buf[..n]);
                if !o.replay {
                    let data = wire::encode_base64(&buf[..n]);
                    out.update(json!({ "sessionUpdate": "terminal_output_chunk", "terminalId": TERMINAL, "data": data }))?;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.raw_os_error() == Some(rustix::io::Errno::IO.raw_os_error()) => break, // Linux: every slave fd closed
            Err(e) => return Err(format!("cannot read the terminal: {e}")),
        }
    }
    let status = child.wait().map_err(|e| format!("cannot wait for the command: {e}"))?;
    Ok((all, status))
}

fn signal_name(n: i32) -> String {
    const NAMES: [&str; 32] = [
        "",
        "SIGHUP",
        "SIGINT",
        "SIGQUIT",
        "SIGILL",
        "SIGTRAP",
        "SIGABRT",
        "SIGBUS",
        "SIGFPE",
        "SIGKILL",
        "SIGUSR1",
        "SIGSEGV",
        "SIGUSR2",
        "SIGPIPE",
        "SIGALRM",
        "SIGTERM",
        "SIGSTKFLT",
        "SIGCHLD",
        "SIGCONT",
        "SIGSTOP",
        "SIGTSTP",
        "SIGTTIN",
        "SIGTTOU",
        "SIGURG",
        "SIGXCPU",
        "SIGXFSZ",
        "SIGVTALRM",
        "SIGPROF",
        "SIGWINCH",
        "SIGIO",
        "SIGPWR",
        "SIGSYS",
    ];
    usize::try_from(n).ok().and_then(|i| NAMES.get(i)).filter(|s| !s.is_empty()).map_or_else(|| format!("SIG{n}"), |s| (*s).to_string())
}

fn agent(o: &Options) -> Result<(), String> {
    let mut out = Out { stdout: std::io::stdout(), session: o.session.clone() };
    let mut input = std::io::stdin().lock();
    out.update(json!({ "sessionUpdate": "tool_call_update", "toolCallId": TOOL_CALL, "title": format!("Run `{}`", o.command), "kind": "execute", "status": "pending" }))?;
    if let Answer::Refuse(why) = ask_permission(&mut out, o, &mut input)? {
        eprintln!("acp-example-agent: not running the command: {why}");
        let text = format!("Permission refused ({why}): the command was not run.");
        return out.update(json!({
            "sessionUpdate": "tool_call_update", "toolCallId": TOOL_CALL, "status": "failed",
            "content": [{ "type": "content", "content": { "type": "text", "text": text } }],
        }));
    }
    out.update(json!({ "sessionUpdate": "tool_call_update", "toolCallId": TOOL_CALL, "status": "in_progress", "content": [{ "type": "terminal", "terminalId": TERMINAL }] }))?;
    out.update(json!({ "sessionUpdate": "terminal_update", "terminalId": TERMINAL, "command": o.command, "cwd": o.cwd, "size": { "cols": o.cols, "rows": o.rows } }))?;
    let (bytes, status) = run_command(&mut out, o)?;
    let exit = match (status.code(), status.signal()) {
        (Some(code), _) => json!({ "exitCode": code }),
        (None, Some(sig)) => json!({ "signal": signal_name(sig) }),
        (None, None) => json!({}),
    };
    let mut last = json!({ "sessionUpdate": "terminal_update", "terminalId": TERMINAL, "exitStatus": exit });
    if o.replay {
        last["output"] = json!({ "data": wire::encode_base64(&bytes) });
    }
    out.update(last)?;
    let done = if status.success() { "completed" } else { "failed" };
    out.update(json!({ "sessionUpdate": "tool_call_update", "toolCallId": TOOL_CALL, "status": done }))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let o = match parse_args(&args) {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("acp-example-agent: {e}");
            }
            eprintln!("{USAGE}");
            return if e.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    match agent(&o) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("acp-example-agent: {e}");
            ExitCode::from(1)
        }
    }
}
