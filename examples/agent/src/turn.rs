//! One prompt turn, the same in both protocol versions: the tool call, the command in
//! its PTY, the terminal's output and exit status. Everything is said as ACP v2
//! `SessionUpdate`s of the display-only terminal surface, built as JSON and checked by
//! the generated crate; an [`Out`] sends them as they are (v2) or through the Bridge
//! (v1).

use crate::pty;
use acp_terminal::adapters::{Bridge, BridgeOptions};
use acp_terminal::{v1, v2, wire};
use serde_json::{Value, json};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The protocol version a connection negotiated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
}

/// Where the v2 updates of a turn go.
pub trait Out: Send + Sync {
    /// Sends (or adapts) one v2 `SessionUpdate`.
    ///
    /// # Errors
    /// The update is not valid, or the Client cannot be reached.
    fn update(&self, update: Value) -> Result<(), String>;
    /// Sends what the adapter holds back (v1: the terminal text since the last flush).
    ///
    /// # Errors
    /// The Client cannot be reached.
    fn flush(&self) -> Result<(), String>;
    /// Whether [`Out::flush`] does anything (then the output is flushed every
    /// [`FLUSH_EVERY`] while it streams).
    fn holds_back(&self) -> bool;
}

/// How often a v1 Client is sent the terminal's text while output streams.
pub const FLUSH_EVERY: Duration = Duration::from_millis(100);
/// How long a cancelled command has between SIGTERM and SIGKILL.
const KILL_AFTER: Duration = Duration::from_secs(3);

/// The v2 `session/update` params for `update`, checked by the generated decoder and
/// written by its canonical encoder.
///
/// # Errors
/// The update is not a valid v2 `SessionUpdate` (a bug in this Agent).
pub fn v2_notification(session_id: &str, update: Value) -> Result<Value, String> {
    let params = json!({ "sessionId": session_id, "update": update });
    let parsed = wire::from_value::<v2::UpdateSessionNotification>(&params).map_err(|e| format!("internal error: the Agent built an invalid v2 update: {e}"))?;
    serde_json::from_str(&wire::to_string(&parsed.value)).map_err(|e| format!("internal error: {e}"))
}

/// v1 through the Bridge: the capped transcript as text content, and the `_meta`
/// convention when the Client asked for it. Never a v1 terminal item.
pub struct Bridged<F> {
    bridge: Mutex<Bridge>,
    session_id: String,
    send: F,
}

impl<F: Fn(Value) -> Result<(), String> + Send + Sync> Bridged<F> {
    /// `send` gets the params of each v1 `session/update` notification.
    pub fn new(session_id: &str, cap: usize, meta: bool, send: F) -> Self {
        Self { bridge: Mutex::new(Bridge::new(BridgeOptions { cap: Some(cap), meta })), session_id: session_id.to_owned(), send }
    }

    fn send_all(&self, emitted: Vec<String>) -> Result<(), String> {
        for text in emitted {
            let update: Value = serde_json::from_str(&text).map_err(|e| format!("internal error: the Bridge wrote invalid JSON: {e}"))?;
            let params = json!({ "sessionId": self.session_id, "update": update });
            // Checked once more as the whole v1 notification a v1 Client reads.
            wire::from_value::<v1::SessionNotification>(&params).map_err(|e| format!("internal error: the Bridge made an invalid v1 notification: {e}"))?;
            (self.send)(params)?;
        }
        Ok(())
    }
}

impl<F: Fn(Value) -> Result<(), String> + Send + Sync> Out for Bridged<F> {
    fn update(&self, update: Value) -> Result<(), String> {
        let text = update.to_string();
        let emitted =
            self.bridge.lock().map_err(|_| "internal error: the Bridge lock is poisoned".to_owned())?.push(&text).map_err(|e| format!("internal error: the Bridge refused an update: {e}"))?;
        self.send_all(emitted)
    }

    fn flush(&self) -> Result<(), String> {
        let emitted = self.bridge.lock().map_err(|_| "internal error: the Bridge lock is poisoned".to_owned())?.flush().map_err(|e| format!("internal error: the Bridge refused to flush: {e}"))?;
        self.send_all(emitted)
    }

    fn holds_back(&self) -> bool {
        true
    }
}

/// What `session/cancel` can reach of a running turn.
#[derive(Default)]
pub struct Control {
    state: Mutex<ControlState>,
}

#[derive(Default)]
struct ControlState {
    cancelled: Option<Instant>,
    pid: Option<u32>,
    /// The command's output ended; its process is about to be reaped (its pid must not
    /// be signalled any more).
    done: bool,
    killed: bool,
}

impl Control {
    fn lock(&self) -> std::sync::MutexGuard<'_, ControlState> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Cancels the turn: a command not started yet will not start; a running one gets
    /// SIGTERM (its whole process group), then SIGKILL if it is still there after a
    /// few seconds.
    pub fn cancel(&self) {
        let mut s = self.lock();
        if s.cancelled.is_none() {
            s.cancelled = Some(Instant::now());
        }
        if let (Some(pid), false) = (s.pid, s.done) {
            pty::kill_group(pid, rustix::process::Signal::TERM);
        }
    }

    /// Whether the turn was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.lock().cancelled.is_some()
    }

    fn started(&self, pid: u32) {
        let mut s = self.lock();
        s.pid = Some(pid);
        if s.cancelled.is_some() {
            pty::kill_group(pid, rustix::process::Signal::TERM);
        }
    }

    /// How long to wait for output before SIGKILL is due, and sends it when it is.
    fn escalate(&self) -> Option<Duration> {
        let mut s = self.lock();
        let (Some(at), Some(pid), false, false) = (s.cancelled, s.pid, s.done, s.killed) else { return None };
        let left = KILL_AFTER.saturating_sub(at.elapsed());
        if left.is_zero() {
            pty::kill_group(pid, rustix::process::Signal::KILL);
            s.killed = true;
            return None;
        }
        Some(left)
    }

    fn finished(&self) {
        self.lock().done = true;
    }
}

/// How a turn's command ended.
pub struct Ran {
    /// The turn was cancelled while it ran.
    pub cancelled: bool,
}

/// The turn: one tool call that runs one command.
pub struct Turn {
    pub version: Version,
    pub tool_call: String,
    pub terminal: String,
    pub command: String,
    pub cwd: String,
    pub cols: u16,
    pub rows: u16,
    pub replay: bool,
}

impl Turn {
    /// The tool call, pending while the Client is asked.
    pub fn pending(&self) -> Value {
        json!({
            "sessionUpdate": "tool_call_update", "toolCallId": self.tool_call, "title": format!("Run `{}`", self.command),
            "kind": "execute", "status": "pending", "rawInput": { "command": self.command, "cwd": self.cwd },
        })
    }

    /// The tool call, failed with the reason it did not run.
    pub fn not_run(&self, why: &str) -> Value {
        json!({
            "sessionUpdate": "tool_call_update", "toolCallId": self.tool_call, "status": "failed",
            "content": [{ "type": "content", "content": { "type": "text", "text": format!("Permission refused ({why}): the command was not run.") } }],
        })
    }

    /// A failure to start or follow the command, as the tool call's result.
    pub fn failed(&self, why: &str) -> Value {
        json!({
            "sessionUpdate": "tool_call_update", "toolCallId": self.tool_call, "status": "failed",
            "content": [{ "type": "content", "content": { "type": "text", "text": format!("The command could not run: {why}") } }],
        })
    }

    /// Runs the command in a PTY and shows it: the terminal's command, cwd and size, the
    /// tool call in progress with the terminal, its output (chunks, or one
    /// snapshot with `--replay`), its exit status, and the tool call's end.
    ///
    /// # Errors
    /// The PTY or the process could not be started or followed, or the Client is gone.
    pub fn run(&self, out: &dyn Out, control: &Control) -> Result<Ran, String> {
        let mut running = pty::spawn(&self.command, &self.cwd, self.cols, self.rows)?;
        control.started(running.child.id());
        // The terminal first, so that whatever shows it (here, the v1 Bridge's text and
        // `terminal_info`) already knows its command and cwd.
        out.update(json!({ "sessionUpdate": "terminal_update", "terminalId": self.terminal, "command": self.command, "cwd": self.cwd, "size": { "cols": self.cols, "rows": self.rows } }))?;
        out.update(json!({ "sessionUpdate": "tool_call_update", "toolCallId": self.tool_call, "status": "in_progress", "content": [{ "type": "terminal", "terminalId": self.terminal }] }))?;
        let mut all = Vec::new();
        let mut buf = vec![0u8; 16 * 1024];
        let mut last_flush = Instant::now();
        let mut pending = false;
        let result = loop {
            let flush_in = (pending && out.holds_back()).then(|| FLUSH_EVERY.saturating_sub(last_flush.elapsed()));
            let wait = match (flush_in, control.escalate()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let read = pty::read(&mut running.master, &mut buf, wait.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)));
            match read {
                Ok(pty::Read::Data(n)) => {
                    if self.replay {
                        all.extend_from_slice(&buf[..n]);
                    } else {
                        out.update(json!({ "sessionUpdate": "terminal_output_chunk", "terminalId": self.terminal, "data": wire::encode_base64(&buf[..n]) }))?;
                        pending = true;
                    }
                }
                Ok(pty::Read::Idle) => {}
                Ok(pty::Read::End) => break Ok(()),
                Err(e) => break Err(e),
            }
            if pending && out.holds_back() && last_flush.elapsed() >= FLUSH_EVERY {
                out.flush()?;
                last_flush = Instant::now();
                pending = false;
            }
        };
        control.finished();
        if let Err(e) = result {
            pty::kill_group(running.child.id(), rustix::process::Signal::KILL);
            let _ = running.child.wait();
            return Err(e);
        }
        let status = running.child.wait().map_err(|e| format!("cannot wait for the command: {e}"))?;
        let exit = {
            use std::os::unix::process::ExitStatusExt;
            match (status.code(), status.signal()) {
                (Some(code), _) => json!({ "exitCode": code }),
                (None, Some(sig)) => json!({ "signal": pty::signal_name(sig) }),
                (None, None) => json!({}),
            }
        };
        let mut last = json!({ "sessionUpdate": "terminal_update", "terminalId": self.terminal, "exitStatus": exit });
        if self.replay {
            last["output"] = json!({ "data": wire::encode_base64(&all) });
        }
        out.update(last)?;
        let cancelled = control.is_cancelled();
        let done = match (status.success(), cancelled, self.version) {
            (_, true, Version::V2) => "cancelled",
            (true, false, _) => "completed",
            _ => "failed", // v1 has no `cancelled` status
        };
        out.update(json!({ "sessionUpdate": "tool_call_update", "toolCallId": self.tool_call, "status": done }))?;
        Ok(Ran { cancelled })
    }
}

/// What the Client answered to the permission question.
pub enum Answer {
    Allow,
    /// Not allowed, and why; `cancelled` when the outcome was `cancelled`.
    Refuse {
        why: String,
        cancelled: bool,
    },
}

pub const ALLOW: &str = "allow";
pub const REJECT: &str = "reject";

fn options() -> Value {
    json!([
        { "optionId": ALLOW, "name": "Run it", "kind": "allow_once" },
        { "optionId": REJECT, "name": "Do not run it", "kind": "reject_once" },
    ])
}

impl Turn {
    /// The v2 `session/request_permission` params: a `command` subject.
    ///
    /// # Errors
    /// The request is not valid (a bug in this Agent).
    pub fn v2_permission(&self, session_id: &str) -> Result<Value, String> {
        let params = json!({
            "sessionId": session_id,
            "title": format!("Run `{}`?", self.command),
            "subject": { "type": "command", "command": self.command, "cwd": self.cwd, "toolCallId": self.tool_call, "terminalId": self.terminal },
            "options": options(),
        });
        let parsed = wire::from_value::<v2::RequestPermissionRequest>(&params).map_err(|e| format!("internal error: the Agent built an invalid request: {e}"))?;
        serde_json::from_str(&wire::to_string(&parsed.value)).map_err(|e| format!("internal error: {e}"))
    }

    /// The v1 `session/request_permission` params: the v1 `toolCall` form.
    ///
    /// # Errors
    /// The request is not valid (a bug in this Agent).
    pub fn v1_permission(&self, session_id: &str) -> Result<Value, String> {
        let params = json!({
            "sessionId": session_id,
            "toolCall": {
                "toolCallId": self.tool_call, "title": format!("Run `{}`", self.command), "kind": "execute", "status": "pending",
                "rawInput": { "command": self.command, "cwd": self.cwd },
            },
            "options": options(),
        });
        let parsed = wire::from_value::<v1::RequestPermissionRequest>(&params).map_err(|e| format!("internal error: the Agent built an invalid request: {e}"))?;
        serde_json::from_str(&wire::to_string(&parsed.value)).map_err(|e| format!("internal error: {e}"))
    }
}

/// Reads the Client's answer (the `result` of `session/request_permission`, or the
/// error it sent). Only a `selected` outcome naming the allow option allows; anything
/// else (reject, `cancelled`, an unknown outcome or option, an error, a malformed
/// answer) refuses.
pub fn read_answer(version: Version, answer: Result<Value, String>) -> Answer {
    let refuse = |why: String| Answer::Refuse { why, cancelled: false };
    let result = match answer {
        Ok(v) => v,
        Err(e) => return refuse(format!("the Client answered with an error: {e}")),
    };
    match version {
        Version::V2 => match wire::from_value::<v2::RequestPermissionResponse>(&result) {
            Ok(r) => match r.value.outcome {
                v2::RequestPermissionOutcome::Selected(s) if s.option_id.0 == ALLOW => Answer::Allow,
                v2::RequestPermissionOutcome::Selected(s) => refuse(format!("the user chose {:?}", s.option_id.0)),
                v2::RequestPermissionOutcome::Cancelled(_) => Answer::Refuse { why: "the request was cancelled".into(), cancelled: true },
                // An outcome this version does not know is never an approval.
                v2::RequestPermissionOutcome::Unknown(u) => refuse(format!("unknown outcome {:?}", u.tag)),
                // The enum is non-exhaustive: a variant added later is not an approval either.
                _ => refuse("an outcome this Agent does not know".into()),
            },
            Err(e) => refuse(format!("the answer is not a RequestPermissionResponse: {e}")),
        },
        Version::V1 => match wire::from_value::<v1::RequestPermissionResponse>(&result) {
            Ok(r) => match r.value.outcome {
                v1::RequestPermissionOutcome::Selected(s) if s.option_id.0 == ALLOW => Answer::Allow,
                v1::RequestPermissionOutcome::Selected(s) => refuse(format!("the user chose {:?}", s.option_id.0)),
                v1::RequestPermissionOutcome::Cancelled(_) => Answer::Refuse { why: "the request was cancelled".into(), cancelled: true },
                // Closed today; should a later schema open it, a new variant is not an approval.
                #[allow(unreachable_patterns)]
                _ => refuse("an outcome this Agent does not know".into()),
            },
            // v1's outcomes are a closed set: an unknown one does not parse.
            Err(e) => refuse(format!("the answer is not a v1 RequestPermissionResponse: {e}")),
        },
    }
}
