//! The Agent over its real stdio, as a Client sees it: version negotiation, the
//! lifecycle, and bad input answered with JSON-RPC errors (never a crash: a good turn
//! still works afterwards).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// A hang guard only: every answer comes in milliseconds.
const HANG: Duration = Duration::from_secs(60);

struct Agent {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    seen: Vec<Value>,
}

impl Agent {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_acp-example-agent")).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("the Agent starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self { child, stdin, lines, seen: Vec::new() }
    }

    fn send_line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the Agent reads");
        self.stdin.flush().expect("flush");
    }

    fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    fn next(&mut self) -> Value {
        let line = self.lines.recv_timeout(HANG).expect("the Agent answers (and has not exited)");
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("the Agent wrote a line that is not JSON ({e}): {line}"));
        self.seen.push(v.clone());
        v
    }

    /// Reads until the response with `id`; answers permission requests with `answer`.
    fn response(&mut self, id: &Value, answer: &Value) -> Value {
        loop {
            let m = self.next();
            if m["method"] == "session/request_permission" {
                let reply = json!({ "jsonrpc": "2.0", "id": m["id"], "result": answer });
                self.send(&reply);
                continue;
            }
            if m.get("method").is_none() && &m["id"] == id {
                return m;
            }
        }
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.response(&json!(id), &allow())
    }

    /// v2: reads until the `idle` state update that ends the turn.
    fn idle(&mut self, answer: &Value) -> Value {
        loop {
            let m = self.next();
            if m["method"] == "session/request_permission" {
                let reply = json!({ "jsonrpc": "2.0", "id": m["id"], "result": answer });
                self.send(&reply);
                continue;
            }
            if m["params"]["update"]["sessionUpdate"] == "state_update" && m["params"]["update"]["state"] == "idle" {
                return m["params"]["update"].clone();
            }
        }
    }

    fn updates(&self) -> Vec<&Value> {
        self.seen.iter().filter(|m| m["method"] == "session/update").map(|m| &m["params"]["update"]).collect()
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn allow() -> Value {
    json!({ "outcome": { "outcome": "selected", "optionId": "allow" } })
}

fn offer(version: u64, meta: bool) -> Value {
    let caps = if meta { json!({ "_meta": { "terminal_output": true } }) } else { json!({}) };
    json!({
        "protocolVersion": version,
        "info": { "name": "test", "version": "0" }, "capabilities": caps,
        "clientInfo": { "name": "test", "version": "0" }, "clientCapabilities": { "fs": { "readTextFile": false, "writeTextFile": false }, "terminal": false, "_meta": caps.get("_meta") },
    })
}

fn tmp() -> String {
    std::env::temp_dir().canonicalize().expect("a temp dir").display().to_string()
}

#[test]
fn it_answers_2_to_a_client_offering_2_and_1_otherwise() {
    for (args, offered, answered) in [(&[][..], 2, 2), (&[][..], 7, 2), (&[][..], 1, 1), (&["--protocol", "1"][..], 2, 1)] {
        let mut a = Agent::start(args);
        let r = a.request(0, "initialize", offer(offered, true));
        assert_eq!(r["result"]["protocolVersion"], answered, "{args:?} offered {offered}: {r}");
    }
}

#[test]
fn before_initialize_a_request_is_refused_and_the_connection_stays_open() {
    let mut a = Agent::start(&[]);
    let r = a.request(1, "session/new", json!({ "cwd": tmp() }));
    assert_eq!(r["error"]["code"], -32600, "{r}");
    a.send_line("[not, json");
    let r = a.next();
    assert_eq!((r["id"].clone(), r["error"]["code"].clone()), (Value::Null, json!(-32700)), "{r}");
    // The SDK's router hands a connection whose first message is not an `initialize`
    // to the v1 implementation, so this one goes on at v1.
    assert_eq!(a.request(2, "initialize", offer(2, false))["result"]["protocolVersion"], 1);
}

#[test]
fn bad_input_gets_json_rpc_errors_and_a_good_turn_still_runs_afterwards() {
    let mut a = Agent::start(&[]);
    assert_eq!(a.request(2, "initialize", offer(2, false))["result"]["protocolVersion"], 2);
    // Not JSON: a parse error with a null id.
    a.send_line("this is not JSON");
    let r = a.next();
    assert_eq!((r["id"].clone(), r["error"]["code"].clone()), (Value::Null, json!(-32700)), "{r}");
    let cases = [
        ("a method nobody knows", "vendor/unknown", json!({}), -32601),
        ("session/new without cwd", "session/new", json!({}), -32602),
        ("a cwd that is not a string", "session/new", json!({ "cwd": 42 }), -32602),
        ("a relative cwd", "session/new", json!({ "cwd": "relative/dir" }), -32602),
        ("a cwd that does not exist", "session/new", json!({ "cwd": "/no/such/dir/acp-example" }), -32602),
        ("params that are not an object", "session/prompt", json!([1, 2]), -32602),
        ("an unknown session", "session/prompt", json!({ "sessionId": "sess_404", "prompt": [{ "type": "text", "text": "true" }] }), -32002),
    ];
    for (i, (what, method, params, code)) in cases.into_iter().enumerate() {
        let r = a.request(10 + i as u64, method, params);
        assert_eq!(r["error"]["code"], code, "{what}: {r}");
        assert!(r["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{what}: an error says why: {r}");
    }
    a.send(&json!({ "jsonrpc": "2.0", "method": "vendor/notice", "params": {} })); // an unknown notification: ignored
    let session = a.request(30, "session/new", json!({ "cwd": tmp(), "mcpServers": [] }))["result"]["sessionId"].clone();
    let r = a.request(31, "session/prompt", json!({ "sessionId": session, "prompt": [{ "type": "text", "text": "   " }] }));
    assert_eq!(r["error"]["code"], -32602, "a prompt without a command: {r}");
    // A permission answer that is not a RequestPermissionResponse is a refusal.
    a.send(&json!({ "jsonrpc": "2.0", "id": 32, "method": "session/prompt", "params": { "sessionId": session, "prompt": [{ "type": "text", "text": "echo ran" }] } }));
    assert!(a.response(&json!(32), &json!(42))["result"]["messageId"].is_string());
    assert_eq!(a.idle(&json!(42))["stopReason"], "end_turn");
    assert!(!a.updates().iter().any(|u| u["sessionUpdate"] == "terminal_update"), "the command did not run");
    // And a good turn.
    a.send(&json!({ "jsonrpc": "2.0", "id": 33, "method": "session/prompt", "params": { "sessionId": session, "prompt": [{ "type": "text", "text": "printf 'ok\\n'; exit 4" }] } }));
    assert!(a.response(&json!(33), &allow())["result"]["messageId"].is_string());
    assert_eq!(a.idle(&allow())["stopReason"], "end_turn");
    let exit = a.updates().iter().find_map(|u| u.get("exitStatus").cloned()).expect("an exit status");
    assert_eq!(exit, json!({ "exitCode": 4 }));
}

#[test]
fn v2_streams_the_terminal_and_v1_never_sends_a_terminal_item() {
    // v2: the terminal surface as it is.
    let mut a = Agent::start(&[]);
    a.request(0, "initialize", offer(2, false));
    let session = a.request(1, "session/new", json!({ "cwd": tmp() }))["result"]["sessionId"].clone();
    a.send(&json!({ "jsonrpc": "2.0", "id": 2, "method": "session/prompt", "params": { "sessionId": session, "prompt": [{ "type": "text", "text": "echo hi" }] } }));
    a.response(&json!(2), &allow());
    a.idle(&allow());
    let kinds: Vec<&str> = a.updates().iter().filter_map(|u| u["sessionUpdate"].as_str()).collect();
    for k in ["user_message", "state_update", "tool_call_update", "terminal_update", "terminal_output_chunk"] {
        assert!(kinds.contains(&k), "v2 sends {k}: {kinds:?}");
    }
    let permission = a.seen.iter().find(|m| m["method"] == "session/request_permission").expect("asked");
    assert_eq!(permission["params"]["subject"]["type"], "command");
    // v1, with and without the `_meta` convention.
    for meta in [true, false] {
        let mut a = Agent::start(&[]);
        assert_eq!(a.request(0, "initialize", offer(1, meta))["result"]["protocolVersion"], 1);
        let session = a.request(1, "session/new", json!({ "cwd": tmp(), "mcpServers": [] }))["result"]["sessionId"].clone();
        let r = a.request(2, "session/prompt", json!({ "sessionId": session, "prompt": [{ "type": "text", "text": "printf 'hello v1\\n'" }] }));
        assert_eq!(r["result"]["stopReason"], "end_turn", "{r}");
        let permission = a.seen.iter().find(|m| m["method"] == "session/request_permission").expect("asked");
        assert!(permission["params"]["toolCall"]["toolCallId"].is_string(), "the v1 toolCall form: {permission}");
        let text = a.seen.iter().map(Value::to_string).collect::<String>();
        assert!(!text.contains(r#""type":"terminal""#), "no v1 terminal item: {text}");
        assert!(!text.contains("terminal_update") && !text.contains("terminal_output_chunk"), "no v2 update at v1: {text}");
        let shown = a.updates().iter().filter_map(|u| u["content"][0]["content"]["text"].as_str()).any(|t| t.contains("hello v1") && t.contains("[exit code 0]"));
        assert!(shown, "the transcript as text content: {text}");
        assert_eq!(text.contains("terminal_output"), meta, "the _meta convention only when advertised (meta {meta}): {text}");
    }
}

#[test]
fn a_cancel_ends_the_running_command_and_withdraws_a_held_prompt() {
    let mut a = Agent::start(&[]);
    a.request(0, "initialize", offer(2, false));
    let session = a.request(1, "session/new", json!({ "cwd": tmp() }))["result"]["sessionId"].clone();
    let prompt = |id: u64, text: &str| json!({ "jsonrpc": "2.0", "id": id, "method": "session/prompt", "params": { "sessionId": session, "prompt": [{ "type": "text", "text": text }] } });
    a.send(&prompt(2, "echo started; sleep 600"));
    a.response(&json!(2), &allow());
    // Wait until the command runs (its output arrives), then hold a second prompt and cancel.
    loop {
        let m = a.next();
        if m["method"] == "session/request_permission" {
            a.send(&json!({ "jsonrpc": "2.0", "id": m["id"], "result": allow() }));
        }
        if m["params"]["update"]["sessionUpdate"] == "terminal_output_chunk" {
            break;
        }
    }
    a.send(&prompt(3, "echo held"));
    a.send(&json!({ "jsonrpc": "2.0", "method": "session/cancel", "params": { "sessionId": session } }));
    assert_eq!(a.idle(&allow())["stopReason"], "cancelled");
    let exit = a.updates().iter().find_map(|u| u.get("exitStatus").cloned()).expect("an exit status");
    assert_eq!(exit, json!({ "signal": "SIGTERM" }));
    let held = a.response(&json!(3), &allow());
    assert_eq!(held["error"]["code"], -32800, "the held prompt is withdrawn: {held}");
}
