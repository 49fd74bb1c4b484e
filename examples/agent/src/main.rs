//! `acp-example-agent`: an ACP Agent over stdio that runs shell commands in a real
//! pseudo-terminal and shows their output to the Client through the display-only
//! terminal surface, at protocol version 2, or at version 1 through the Bridge.
//!
//! The JSON-RPC plumbing and the lifecycle messages (`initialize`, `session/new`,
//! `session/prompt`, `session/cancel`) are the official Rust SDK's
//! (`agent-client-protocol`, its protocol router picking v1 or v2 from the Client's
//! `initialize`); every message of the terminal surface (`session/update` of tool calls
//! and terminals, `session/request_permission`) is built as JSON, checked by the
//! generated crate (`acp-terminal`) and written by its canonical encoder.
//!
//! A turn: the prompt's text is the shell command (unless `--command` fixes one). The
//! Agent creates a tool call, asks `session/request_permission` (v2: a `command`
//! subject; v1: the v1 `toolCall` form); only a `selected` outcome naming its allow
//! option runs the command, in a PTY, streaming its output; `session/cancel` ends the
//! process (SIGTERM to its process group, SIGKILL a few seconds later) and the exit
//! status reports the signal. v1: `session/prompt` answers with the `stopReason`. v2: the
//! response acknowledges the inserted user message and the stop reason ends the turn in
//! a `state_update` (`idle`), as v2 defines it.
//!
//! In v1 every terminal update goes through `acp_terminal::adapters::Bridge`: the capped
//! transcript as text content always, plus the `_meta` convention (`terminal_info`,
//! `terminal_output`, `terminal_exit`) when the Client advertises
//! `clientCapabilities._meta.terminal_output: true`. It never sends a v1
//! `{"type":"terminal"}` item: those name terminals a v1 Client owns.

mod pty;
mod turn;

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::schema as s1;
use agent_client_protocol::v2::schema as s2;
use agent_client_protocol::{Agent, Client, ConnectTo, Error, Stdio, UntypedMessage, on_receive_notification, on_receive_request};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use turn::{Answer, Bridged, Control, Out, Turn, Version};

const NAME: &str = "acp-example-agent";
const USAGE: &str = "usage: acp-example-agent [--command COMMAND] [--replay] [--cols N] [--rows N] [--protocol 1|2] [--cap N]
An ACP Agent on stdin/stdout. Each prompt's text is a shell command (or every prompt runs
--command); after the Client allows it, it runs with /bin/sh -c in a pseudo-terminal of
--cols x --rows (80 x 24) in the session's cwd, and its output is shown as a terminal.
  --replay       send the output as one snapshot at the end instead of live chunks
  --protocol N   the highest ACP version to speak (default 2; 1 serves every Client at v1)
  --cap N        v1: keep at most N characters of each transcript in text content (65536)";

struct Options {
    command: Option<String>,
    replay: bool,
    cols: u16,
    rows: u16,
    protocol: u16,
    cap: usize,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options { command: None, replay: false, cols: 80, rows: 24, protocol: 2, cap: 65_536 };
    let mut i = 0;
    let value = |i: &mut usize, name: &str| -> Result<String, String> {
        *i += 1;
        args.get(*i).cloned().ok_or_else(|| format!("{name} needs a value"))
    };
    let number =
        |text: String, name: &str| -> Result<u16, String> { text.parse::<u16>().ok().filter(|n| *n > 0).ok_or_else(|| format!("{name} must be a whole number from 1 to 65535, not {text:?}")) };
    while i < args.len() {
        match args[i].as_str() {
            "--command" => o.command = Some(value(&mut i, "--command")?).filter(|c| !c.trim().is_empty()),
            "--replay" => o.replay = true,
            "--cols" => o.cols = number(value(&mut i, "--cols")?, "--cols")?,
            "--rows" => o.rows = number(value(&mut i, "--rows")?, "--rows")?,
            "--protocol" => {
                o.protocol = match value(&mut i, "--protocol")?.as_str() {
                    "1" => 1,
                    "2" => 2,
                    other => return Err(format!("--protocol must be 1 or 2, not {other:?}")),
                }
            }
            "--cap" => {
                let text = value(&mut i, "--cap")?;
                o.cap = text.parse::<usize>().ok().filter(|n| *n > 0).ok_or_else(|| format!("--cap must be a whole number of characters above 0, not {text:?}"))?;
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?} (the command to run is the prompt's text, or --command COMMAND)")),
        }
        i += 1;
    }
    Ok(o)
}

/// A JSON-RPC error whose message is a sentence the Client can act on.
fn error(code: i32, message: impl Into<String>, data: Option<Value>) -> Error {
    let e = Error::new(code, message);
    match data {
        Some(d) => e.data(d),
        None => e,
    }
}

fn invalid_params(message: impl Into<String>) -> Error {
    error(-32602, message, None)
}

struct Session {
    id: String,
    cwd: String,
    /// Prompts run one at a time; a prompt sent while another runs waits here.
    queue: futures::lock::Mutex<()>,
    state: Mutex<SessionState>,
}

#[derive(Default)]
struct SessionState {
    /// Counts `session/cancel`s: a held prompt from before the last one is cancelled.
    epoch: u64,
    current: Option<Arc<Control>>,
}

impl Session {
    fn lock(&self) -> std::sync::MutexGuard<'_, SessionState> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn epoch(&self) -> u64 {
        self.lock().epoch
    }

    /// Starts the turn of a prompt received at `epoch`, unless a cancel came since.
    fn begin(&self, epoch: u64) -> Option<Arc<Control>> {
        let mut s = self.lock();
        if s.epoch != epoch {
            return None;
        }
        let control = Arc::new(Control::default());
        s.current = Some(control.clone());
        Some(control)
    }

    fn end(&self) {
        self.lock().current = None;
    }

    fn cancel(&self) {
        let mut s = self.lock();
        s.epoch += 1;
        if let Some(c) = &s.current {
            c.cancel();
        }
    }
}

/// What the Agent numbers: `sess_N`, `call_N` / `term_N`, `msg_N`.
#[derive(Clone, Copy)]
enum Counter {
    Session,
    Turn,
    Message,
}

/// The Agent's state, shared by the v1 and v2 handlers.
struct State {
    options: Options,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    /// The last session, turn and message numbers given out.
    counters: [AtomicU64; 3],
    /// v1: the Client advertised `clientCapabilities._meta.terminal_output: true`.
    meta: AtomicBool,
}

impl State {
    fn next(&self, counter: Counter) -> u64 {
        self.counters[counter as usize].fetch_add(1, Ordering::Relaxed) + 1
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.sessions.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `session/new`: the cwd must be an absolute path to a directory.
    fn new_session(&self, cwd: &std::path::Path) -> Result<String, Error> {
        if !cwd.is_absolute() {
            return Err(invalid_params(format!("session/new: cwd {:?} is not an absolute path; send the absolute path of the working directory", cwd.display().to_string())));
        }
        if !cwd.is_dir() {
            return Err(invalid_params(format!("session/new: cwd {:?} is not a directory this Agent can see; send an existing directory", cwd.display().to_string())));
        }
        let Some(text) = cwd.to_str() else {
            return Err(invalid_params("session/new: cwd is not valid UTF-8; this Agent shows it in terminal updates, which need UTF-8"));
        };
        let id = format!("sess_{}", self.next(Counter::Session));
        let session = Session { id: id.clone(), cwd: text.to_owned(), queue: futures::lock::Mutex::new(()), state: Mutex::new(SessionState::default()) };
        self.sessions().insert(id.clone(), Arc::new(session));
        Ok(id)
    }

    fn session(&self, id: &str) -> Result<Arc<Session>, Error> {
        self.sessions().get(id).cloned().ok_or_else(|| error(-32002, format!("no session {id:?}: create one with session/new first"), Some(json!({ "sessionId": id }))))
    }

    /// The command a prompt runs: `--command`, else the prompt's text.
    fn command(&self, texts: &[&str]) -> Result<String, Error> {
        if let Some(c) = &self.options.command {
            return Ok(c.clone());
        }
        let text = texts.join("\n");
        if text.trim().is_empty() {
            return Err(invalid_params("session/prompt: the prompt has no text; send the shell command to run as a text block"));
        }
        Ok(text.trim().to_owned())
    }

    fn turn(&self, version: Version, session: &Session, command: String) -> Turn {
        let n = self.next(Counter::Turn);
        Turn {
            version,
            tool_call: format!("call_{n}"),
            terminal: format!("term_{n}"),
            command,
            cwd: session.cwd.clone(),
            cols: self.options.cols,
            rows: self.options.rows,
            replay: self.options.replay,
        }
    }

    fn cancel(&self, id: &str) {
        match self.sessions().get(id) {
            Some(s) => s.cancel(),
            None => eprintln!("{NAME}: session/cancel for unknown session {id:?} ignored"),
        }
    }

    fn cancel_all(&self) {
        for s in self.sessions().values() {
            s.cancel();
        }
    }
}

/// Runs the command on a thread of its own (the PTY is read with blocking calls).
async fn run_command(turn: Arc<Turn>, out: Arc<dyn Out>, control: Arc<Control>) -> Result<turn::Ran, String> {
    let (tx, rx) = futures::channel::oneshot::channel();
    std::thread::Builder::new()
        .name("pty".into())
        .spawn(move || {
            let _ = tx.send(turn.run(&*out, &control));
        })
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    rx.await.map_err(|_| "the command's thread ended without a result".to_owned())?
}

/// How a turn ended, in the words both versions share.
enum Stop {
    EndTurn,
    Cancelled,
    /// The command could not be run or followed (the tool call says why).
    Failed(String),
}

/// The part of a turn both versions share: the tool call, the question, the command.
/// `ask` sends `session/request_permission` with the given params.
async fn play<A, F>(turn: Arc<Turn>, out: Arc<dyn Out>, control: Arc<Control>, params: Value, ask: A) -> Stop
where
    A: FnOnce(Value) -> F,
    F: Future<Output = Result<Value, String>>,
{
    let fail = |out: &Arc<dyn Out>, turn: &Turn, e: String| {
        eprintln!("{NAME}: {e}");
        let _ = out.update(turn.failed(&e));
        Stop::Failed(e)
    };
    if let Err(e) = out.update(turn.pending()) {
        return fail(&out, &turn, e);
    }
    let answer = turn::read_answer(turn.version, ask(params).await);
    let answer = match answer {
        Answer::Allow if control.is_cancelled() => Answer::Refuse { why: "the turn was cancelled".into(), cancelled: true },
        a => a,
    };
    if let Answer::Refuse { why, cancelled } = answer {
        eprintln!("{NAME}: not running the command: {why}");
        if let Err(e) = out.update(turn.not_run(&why)) {
            return fail(&out, &turn, e);
        }
        return if cancelled || control.is_cancelled() { Stop::Cancelled } else { Stop::EndTurn };
    }
    match run_command(turn.clone(), out.clone(), control).await {
        Ok(ran) if ran.cancelled => Stop::Cancelled,
        Ok(_) => Stop::EndTurn,
        Err(e) => fail(&out, &turn, e),
    }
}

fn prompt_texts_v1(prompt: &[s1::ContentBlock]) -> Vec<&str> {
    prompt.iter().filter_map(|b| if let s1::ContentBlock::Text(t) = b { Some(t.text.as_str()) } else { None }).collect()
}

fn prompt_texts_v2(prompt: &[s2::ContentBlock]) -> Vec<&str> {
    prompt.iter().filter_map(|b| if let s2::ContentBlock::Text(t) = b { Some(t.text.as_str()) } else { None }).collect()
}

fn implementation_v1() -> s1::Implementation {
    s1::Implementation::new(NAME, env!("CARGO_PKG_VERSION"))
}

/// The v1 Agent: every turn through the Bridge.
fn v1_agent(state: Arc<State>) -> impl ConnectTo<Client> {
    let (s_init, s_new, s_prompt, s_cancel) = (state.clone(), state.clone(), state.clone(), state);
    Agent
        .v1()
        .name(NAME)
        .on_receive_request(
            async move |req: s1::InitializeRequest, responder: agent_client_protocol::v1::Responder<s1::InitializeResponse>, _cx| {
                let meta = req.client_capabilities.meta.as_ref().and_then(|m| m.get("terminal_output")) == Some(&Value::Bool(true));
                s_init.meta.store(meta, Ordering::Relaxed);
                eprintln!("{NAME}: speaking ACP v1; the _meta terminal convention: {}", if meta { "on" } else { "off" });
                responder.respond(s1::InitializeResponse::new(ProtocolVersion::V1).agent_capabilities(s1::AgentCapabilities::new()).agent_info(implementation_v1()))
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: s1::NewSessionRequest, responder: agent_client_protocol::v1::Responder<s1::NewSessionResponse>, _cx| match s_new.new_session(&req.cwd) {
                Ok(id) => responder.respond(s1::NewSessionResponse::new(s1::SessionId::new(id))),
                Err(e) => responder.respond_with_error(e),
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: s1::PromptRequest, responder: agent_client_protocol::v1::Responder<s1::PromptResponse>, cx: agent_client_protocol::v1::ConnectionTo<Client>| {
                let state = s_prompt.clone();
                let prepared = state.session(&req.session_id.to_string()).and_then(|s| state.command(&prompt_texts_v1(&req.prompt)).map(|c| (s, c)));
                let (session, command) = match prepared {
                    Ok(p) => p,
                    Err(e) => return responder.respond_with_error(e),
                };
                let epoch = session.epoch();
                cx.clone().spawn(async move {
                    let _held = session.queue.lock().await;
                    let Some(control) = session.begin(epoch) else {
                        return responder.respond(s1::PromptResponse::new(s1::StopReason::Cancelled));
                    };
                    let turn = Arc::new(state.turn(Version::V1, &session, command));
                    let sender = cx.clone();
                    let out: Arc<dyn Out> = Arc::new(Bridged::new(&session.id, state.options.cap, state.meta.load(Ordering::Relaxed), move |params| {
                        UntypedMessage::new("session/update", params).and_then(|m| sender.send_notification(m)).map_err(|e| format!("cannot send to the Client: {e}"))
                    }));
                    let params = match turn.v1_permission(&session.id) {
                        Ok(p) => p,
                        Err(e) => {
                            session.end();
                            return responder.respond_with_error(error(-32603, e, None));
                        }
                    };
                    let asker = cx.clone();
                    let stop = play(turn, out, control, params, async move |p| match UntypedMessage::new("session/request_permission", p) {
                        Ok(m) => asker.send_request(m).block_task().await.map_err(|e| e.to_string()),
                        Err(e) => Err(e.to_string()),
                    })
                    .await;
                    session.end();
                    responder.respond(s1::PromptResponse::new(match stop {
                        Stop::EndTurn | Stop::Failed(_) => s1::StopReason::EndTurn,
                        Stop::Cancelled => s1::StopReason::Cancelled,
                    }))
                })
            },
            on_receive_request!(),
        )
        .on_receive_notification(
            async move |n: s1::CancelNotification, _cx| {
                s_cancel.cancel(&n.session_id.to_string());
                Ok(())
            },
            on_receive_notification!(),
        )
}

/// Sends a v2 update built with the SDK's types (the lifecycle updates outside the
/// terminal surface: the user message, the session's state).
fn send_v2(cx: &agent_client_protocol::v2::ConnectionTo<Client>, session: &str, update: s2::SessionUpdate) {
    if let Err(e) = cx.send_notification(s2::UpdateSessionNotification::new(s2::SessionId::new(session), update)) {
        eprintln!("{NAME}: cannot send to the Client: {e}");
    }
}

/// The v2 Agent: the terminal surface as it is.
fn v2_agent(state: Arc<State>) -> impl ConnectTo<Client> {
    let (s_new, s_prompt, s_cancel) = (state.clone(), state.clone(), state);
    Agent
        .v2()
        .name(NAME)
        .on_receive_request(
            async move |req: s2::InitializeRequest, responder: agent_client_protocol::v2::Responder<s2::InitializeResponse>, _cx| {
                eprintln!("{NAME}: speaking ACP v2 (the Client offered {})", req.protocol_version);
                responder.respond(s2::InitializeResponse::new(ProtocolVersion::V2, s2::Implementation::new(NAME, env!("CARGO_PKG_VERSION"))))
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: s2::NewSessionRequest, responder: agent_client_protocol::v2::Responder<s2::NewSessionResponse>, _cx| match s_new.new_session(req.cwd.as_ref()) {
                Ok(id) => responder.respond(s2::NewSessionResponse::new(s2::SessionId::new(id))),
                Err(e) => responder.respond_with_error(e),
            },
            on_receive_request!(),
        )
        .on_receive_request(
            async move |req: s2::PromptRequest, responder: agent_client_protocol::v2::Responder<s2::PromptResponse>, cx: agent_client_protocol::v2::ConnectionTo<Client>| {
                let state = s_prompt.clone();
                let prepared = state.session(&req.session_id.to_string()).and_then(|s| state.command(&prompt_texts_v2(&req.prompt)).map(|c| (s, c)));
                let (session, command) = match prepared {
                    Ok(p) => p,
                    Err(e) => return responder.respond_with_error(e),
                };
                let epoch = session.epoch();
                cx.clone().spawn(async move {
                    // A prompt sent while another runs is held, then inserted (v2 forbids
                    // rejecting it for that reason); a cancel before then withdraws it.
                    let _held = session.queue.lock().await;
                    let Some(control) = session.begin(epoch) else {
                        return responder.respond_with_error(Error::request_cancelled());
                    };
                    let turn = Arc::new(state.turn(Version::V2, &session, command));
                    let message_id = format!("msg_{}", state.next(Counter::Message));
                    let params = match turn.v2_permission(&session.id) {
                        Ok(p) => p,
                        Err(e) => {
                            session.end();
                            return responder.respond_with_error(error(-32603, e, None));
                        }
                    };
                    responder.respond(s2::PromptResponse::new(s2::MessageId::new(message_id.clone())))?;
                    let sid = session.id.clone();
                    send_v2(&cx, &sid, s2::SessionUpdate::UserMessage(s2::UserMessage::new(s2::MessageId::new(message_id)).content(req.prompt)));
                    send_v2(&cx, &sid, s2::SessionUpdate::StateUpdate(s2::StateUpdate::Running(s2::RunningStateUpdate::new())));
                    let sender = cx.clone();
                    let out: Arc<dyn Out> = Arc::new(V2Out {
                        session_id: sid.clone(),
                        send: Box::new(move |params| UntypedMessage::new("session/update", params).and_then(|m| sender.send_notification(m)).map_err(|e| format!("cannot send to the Client: {e}"))),
                    });
                    let asker = cx.clone();
                    let (ask_sid, ask_cx) = (sid.clone(), cx.clone());
                    let stop = play(turn, out, control, params, async move |p| {
                        send_v2(&ask_cx, &ask_sid, s2::SessionUpdate::StateUpdate(s2::StateUpdate::RequiresAction(s2::RequiresActionStateUpdate::new())));
                        let answer = match UntypedMessage::new("session/request_permission", p) {
                            Ok(m) => asker.send_request(m).block_task().await.map_err(|e| e.to_string()),
                            Err(e) => Err(e.to_string()),
                        };
                        send_v2(&ask_cx, &ask_sid, s2::SessionUpdate::StateUpdate(s2::StateUpdate::Running(s2::RunningStateUpdate::new())));
                        answer
                    })
                    .await;
                    session.end();
                    let reason = match stop {
                        Stop::EndTurn => s2::StopReason::EndTurn,
                        Stop::Cancelled => s2::StopReason::Cancelled,
                        Stop::Failed(e) => s2::StopReason::Error(s2::ErrorStopReason::new().error(s2::Error::new(-32603, e))),
                    };
                    send_v2(&cx, &sid, s2::SessionUpdate::StateUpdate(s2::StateUpdate::Idle(s2::IdleStateUpdate::new().stop_reason(reason))));
                    Ok(())
                })
            },
            on_receive_request!(),
        )
        .on_receive_notification(
            async move |n: s2::CancelSessionNotification, _cx| {
                s_cancel.cancel(&n.session_id.to_string());
                Ok(())
            },
            on_receive_notification!(),
        )
}

/// v2: the terminal surface's updates as they are, each checked by the generated crate.
struct V2Out {
    session_id: String,
    send: Box<dyn Fn(Value) -> Result<(), String> + Send + Sync>,
}

impl Out for V2Out {
    fn update(&self, update: Value) -> Result<(), String> {
        (self.send)(turn::v2_notification(&self.session_id, update)?)
    }

    fn flush(&self) -> Result<(), String> {
        Ok(())
    }

    fn holds_back(&self) -> bool {
        false
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse_args(&args) {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("{NAME}: {e}");
            }
            eprintln!("{USAGE}");
            return if e.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    let protocol = options.protocol;
    let state = Arc::new(State { options, sessions: Mutex::new(HashMap::new()), counters: Default::default(), meta: AtomicBool::new(false) });
    let router = Agent.protocol_router().with_v1(v1_agent(state.clone()));
    let router = if protocol >= 2 { router.with_v2(v2_agent(state.clone())) } else { router };
    let result = futures::executor::block_on(router.connect_to(Stdio::new()));
    // The Client is gone: nothing started for it may outlive the connection.
    state.cancel_all();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{NAME}: the connection failed: {e}");
            ExitCode::from(1)
        }
    }
}
