//! The hostile corpus (`tests/hostile/corpus.json`): its entries expanded at size n, run
//! through the transcript or the store, and the work they cost counted (the test,
//! `tests/hostile.rs`) or timed (`hostile_clock`, run by `cargo xtask fuzz` only).

use acp_terminal::Transcript;
use acp_terminal::store::TerminalStore;
use serde_json::Value;

/// The corpus.
///
/// # Panics
/// When `tests/hostile/corpus.json` is missing or not JSON.
#[must_use]
pub fn corpus() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../hostile/corpus.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("tests/hostile/corpus.json")).expect("the corpus is JSON")
}

fn count(v: &Value, n: usize) -> usize {
    if v.as_str() == Some("n") { n } else { usize::try_from(v.as_u64().expect("times is a number or \"n\"")).expect("fits") }
}

fn piece(p: &Value, n: usize) -> String {
    let text = p["text"].as_str().expect("a piece has text");
    let sep = p.get("separator").and_then(Value::as_str).unwrap_or("");
    let times = count(&p["times"], n);
    let mut out = String::with_capacity(times * (text.len() + sep.len()));
    for i in 0..times {
        if i > 0 {
            out.push_str(sep);
        }
        if text.contains("{i}") { out.push_str(&text.replace("{i}", &i.to_string())) } else { out.push_str(text) }
    }
    out
}

/// One entry expanded at a size.
pub enum Input {
    /// Bytes pushed into a transcript in chunks, read after every chunk or not.
    Bytes {
        /// The bytes.
        data: Vec<u8>,
        /// The chunk size.
        chunk: usize,
        /// Read what is new after every chunk, as a display does.
        read_each: bool,
    },
    /// Lines applied to a store with `apply_text`.
    Lines(Vec<String>),
    /// Lines applied to the v2 session state (each a `SessionUpdate`), with its limits as
    /// JSON (`"n"` as the size).
    State(Vec<String>, String),
}

impl Input {
    /// The input's size in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            Self::Bytes { data, .. } => data.len(),
            Self::Lines(lines) | Self::State(lines, _) => lines.iter().map(String::len).sum(),
        }
    }

    /// `true` when the input is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Expands `entry` at size `n`.
///
/// # Panics
/// On an entry that is not in the corpus format.
#[must_use]
pub fn expand(entry: &Value, n: usize) -> Input {
    match entry["target"].as_str() {
        Some("transcript") => Input::Bytes {
            data: entry["parts"].as_array().expect("parts").iter().map(|p| piece(p, n)).collect::<String>().into_bytes(),
            chunk: usize::try_from(entry["chunk"].as_u64().unwrap_or(4096)).expect("fits").max(1),
            read_each: entry.get("readEachChunk").and_then(Value::as_bool).unwrap_or(false),
        },
        Some(target @ ("store" | "state")) => {
            let mut lines = Vec::new();
            for l in entry["lines"].as_array().expect("lines") {
                let text: String = l["pieces"].as_array().expect("pieces").iter().map(|p| piece(p, n)).collect();
                for i in 0..count(&l["times"], n) {
                    lines.push(if text.contains("{line}") { text.replace("{line}", &i.to_string()) } else { text.clone() });
                }
            }
            if target == "store" {
                return Input::Lines(lines);
            }
            let limits: serde_json::Map<String, Value> = entry["limits"].as_object().expect("a state entry has limits").iter().map(|(k, v)| (k.clone(), Value::from(count(v, n)))).collect();
            Input::State(lines, Value::Object(limits).to_string())
        }
        other => panic!("unknown target {other:?}"),
    }
}

/// Runs `input` and returns the work it cost: for bytes, the transcript's work counter
/// plus the length of everything read; for lines, the bytes of text decoded, the
/// store's work counter, and every transcript's work and text. Checks that the store
/// still works after the input and that its structures agree.
///
/// # Panics
/// When the store refuses a valid update afterwards, or its structures disagree.
#[must_use]
pub fn run(input: &Input) -> u64 {
    match input {
        Input::Bytes { data, chunk, read_each } => {
            let mut t = Transcript::new();
            let (mut shown, mut read) = (0u64, 0usize);
            for c in data.chunks(*chunk) {
                t.push(c);
                if *read_each {
                    // What a display does after every chunk: read only what is new.
                    let (a, b) = t.finished_since(shown);
                    read += a.len() + b.len();
                    shown = t.finished_len();
                    read += t.current_line().len();
                }
            }
            read += t.text().len();
            t.work() + read as u64
        }
        Input::Lines(lines) => {
            let mut store = TerminalStore::new();
            let mut decoded = 0;
            for l in lines {
                decoded += l.len();
                let _ = store.apply_text(l);
            }
            // The store still works after whatever came before, and holds the new terminal.
            let ok = store.apply_text(r#"{"sessionUpdate":"terminal_output_chunk","terminalId":"after","data":"b2s="}"#);
            assert!(ok.is_ok(), "the store refused a valid update after the hostile input: {ok:?}");
            assert_eq!(store.terminal("after").map(|t| t.output().to_vec()), Some(b"ok".to_vec()));
            store.check_invariants().expect("the store's structures agree");
            let mut work = decoded as u64 + store.work();
            for (_, t) in store.terminals() {
                work += t.with_transcript(|r| r.work() + r.text().len() as u64);
            }
            work
        }
        Input::State(lines, limits) => {
            let limits = acp_terminal::wire::parse_value(limits).and_then(|v| acp_terminal::wire::StateLimits::from_json(&v)).expect("the entry's limits");
            let mut state = acp_terminal::registry::session_state("v2").expect("the v2 schema has x-state").with_limits(limits);
            let mut decoded = 0;
            for l in lines {
                decoded += l.len();
                let _ = state.apply("SessionUpdate", l);
            }
            // The state still takes a new target afterwards, and its targets still decode.
            state.apply("SessionUpdate", r#"{"sessionUpdate":"terminal_output_chunk","terminalId":"after","data":"b2s="}"#).expect("a valid update after the hostile input");
            assert!(state.get("terminal", Some("after")).is_some(), "the state holds the new terminal");
            state.check_invariants().expect("the state's targets decode");
            decoded as u64 + state.work() + acp_terminal::wire::to_string(&state.snapshot()).len() as u64
        }
    }
}
