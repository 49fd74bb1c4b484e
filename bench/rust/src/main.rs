//! `cargo xtask bench`, the Rust side: every row of BENCHMARKS.md, ours against the
//! baselines in the same process, interleaved rounds, median. Prints one JSON object
//! per result line (prefixed `RESULT `) for xtask to tabulate.
//!
//! Usage: `acp-terminal-bench speed DIR ROUNDS` or `acp-terminal-bench mem DIR ours|hand`.

use acp_terminal::store::{Limits, TerminalStore};

/// The store's limits for every benchmark row: the hand-written client keeps every
/// byte, so ours must too (the default 1 MiB per terminal would drop bytes, and render
/// them into the transcript before they go: other work than the baseline's).
const KEEP_ALL: Limits = Limits { max_retained_bytes: 1 << 30, ..Limits::DEFAULT };
use acp_terminal::Transcript;
use acp_terminal::wire::decode_base64;
use std::collections::HashMap;
use std::hint::black_box;
use std::io::{BufRead, Write};
use std::time::Instant;

const CHUNK: usize = 4096;

/// Times `a` and `b` alternately (after one warm-up run each) and returns the median
/// seconds of each over `rounds` rounds.
fn duel(rounds: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> (f64, f64) {
    a();
    b();
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        a();
        ta.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        b();
        tb.push(t.elapsed().as_secs_f64());
    }
    (median(ta), median(tb))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Prints one row: throughputs in MiB/s of `bytes` of input.
fn report(row: &str, bytes: usize, ours: f64, base: f64, baseline: &str) {
    let mib = bytes as f64 / (1024.0 * 1024.0);
    println!("RESULT {{\"row\":\"{row}\",\"unit\":\"MiB/s\",\"ours\":{:.3},\"base\":{:.3},\"baseline\":\"{baseline}\"}}", mib / ours, mib / base);
    std::io::stdout().flush().ok();
}

// ---------------------------------------------------------------- hand-written ingest

/// Plain types for the hand-written baseline: what a user writes with serde alone.
mod plain {
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct Notification {
        pub update: SessionUpdate,
    }

    #[derive(Deserialize)]
    #[serde(tag = "sessionUpdate", rename_all = "snake_case")]
    pub enum SessionUpdate {
        TerminalOutputChunk {
            #[serde(rename = "terminalId")]
            terminal_id: String,
            data: String,
        },
        TerminalUpdate {
            #[serde(rename = "terminalId")]
            terminal_id: String,
            #[serde(default)]
            command: Option<String>,
            #[serde(default)]
            cwd: Option<String>,
            #[serde(default)]
            output: Option<Output>,
            #[serde(default, rename = "exitStatus")]
            exit_status: Option<serde_json::Value>,
        },
        #[serde(other)]
        Other,
    }

    #[derive(Deserialize)]
    pub struct Output {
        pub data: String,
    }
}

/// Command, cwd and exit status, as last updated.
type Meta = (Option<String>, Option<String>, Option<serde_json::Value>);

/// The hand-written client: std JSON into plain types, fast base64, one byte buffer
/// per terminal.
#[derive(Default)]
struct Hand {
    terminals: HashMap<String, Vec<u8>>,
    meta: HashMap<String, Meta>,
}

impl Hand {
    fn apply(&mut self, line: &str) -> Option<(String, Vec<u8>, bool)> {
        let n: plain::Notification = serde_json::from_str(line).expect("hand-written: bad line");
        match n.update {
            plain::SessionUpdate::TerminalOutputChunk { terminal_id, data } => {
                let bytes = base64_simd::STANDARD.decode_to_vec(data.as_bytes()).expect("hand-written: bad base64");
                self.terminals.entry(terminal_id.clone()).or_default().extend_from_slice(&bytes);
                Some((terminal_id, bytes, false))
            }
            plain::SessionUpdate::TerminalUpdate { terminal_id, command, cwd, output, exit_status } => {
                self.meta.insert(terminal_id.clone(), (command, cwd, exit_status));
                let o = output?;
                let bytes = base64_simd::STANDARD.decode_to_vec(o.data.as_bytes()).expect("hand-written: bad base64");
                self.terminals.insert(terminal_id.clone(), bytes.clone());
                Some((terminal_id, bytes, true))
            }
            plain::SessionUpdate::Other => None,
        }
    }

    fn retained(&self) -> (usize, usize) {
        self.terminals.values().fold((0, 0), |(l, c), v| (l + v.len(), c + v.capacity()))
    }
}

fn ours(lines: &[&str]) -> TerminalStore {
    let mut store = TerminalStore::with_limits(KEEP_ALL);
    for l in lines {
        store.apply_notification_text(l).expect("ours: bad line");
    }
    store
}

fn hand(lines: &[&str]) -> Hand {
    let mut h = Hand::default();
    for l in lines {
        black_box(h.apply(l));
    }
    h
}

/// Upstream's own bindings (`agent-client-protocol-schema` with `unstable_protocol_v2`)
/// plus the base64 decode they leave to the caller.
fn peer(lines: &[&str]) -> HashMap<String, Vec<u8>> {
    use agent_client_protocol_schema::MaybeUndefined;
    use agent_client_protocol_schema::v2::{SessionUpdate, UpdateSessionNotification};
    let mut terminals: HashMap<String, Vec<u8>> = HashMap::new();
    for l in lines {
        let n: UpdateSessionNotification = serde_json::from_str(l).expect("upstream: bad line");
        match n.update {
            SessionUpdate::TerminalOutputChunk(c) => {
                let bytes = base64_simd::STANDARD.decode_to_vec(c.data.as_bytes()).expect("upstream: bad base64");
                terminals.entry(c.terminal_id.to_string()).or_default().extend_from_slice(&bytes);
            }
            SessionUpdate::TerminalUpdate(u) => {
                if let MaybeUndefined::Value(o) = u.output {
                    let bytes = base64_simd::STANDARD.decode_to_vec(o.data.as_bytes()).expect("upstream: bad base64");
                    terminals.insert(u.terminal_id.to_string(), bytes);
                }
            }
            _ => {}
        }
    }
    terminals
}

// ---------------------------------------------------------------- stateful strippers

/// A stripper fed chunk by chunk, keeping its state between chunks.
trait Stripper: Default {
    fn push(&mut self, bytes: &[u8]);
    fn text(&mut self) -> String;
}

/// `vte`'s parser with a performer that keeps printed characters, LF and TAB.
#[derive(Default)]
struct VteStrip {
    parser: vte::Parser,
    out: VteOut,
}

#[derive(Default)]
struct VteOut(String);

impl vte::Perform for VteOut {
    fn print(&mut self, c: char) {
        self.0.push(c);
    }
    fn execute(&mut self, byte: u8) {
        if byte == b'\n' || byte == b'\t' {
            self.0.push(byte as char);
        }
    }
}

impl Stripper for VteStrip {
    fn push(&mut self, bytes: &[u8]) {
        self.parser.advance(&mut self.out, bytes);
    }
    fn text(&mut self) -> String {
        self.out.0.clone()
    }
}

/// `strip-ansi-escapes`' `Writer`, which keeps its parser state between writes; the
/// bytes it keeps become text once, at the end (so code points split across chunks
/// survive).
struct SaeStrip(strip_ansi_escapes::Writer<Vec<u8>>);

impl Default for SaeStrip {
    fn default() -> Self {
        Self(strip_ansi_escapes::Writer::new(Vec::new()))
    }
}

impl Stripper for SaeStrip {
    fn push(&mut self, bytes: &[u8]) {
        self.0.write_all(bytes).expect("writing to a Vec");
    }
    fn text(&mut self) -> String {
        let inner = std::mem::replace(&mut self.0, strip_ansi_escapes::Writer::new(Vec::new())).into_inner().expect("flush");
        let s = String::from_utf8_lossy(&inner).into_owned();
        self.0 = strip_ansi_escapes::Writer::new(inner);
        s
    }
}

fn strip_all<S: Stripper>(pty: &[u8]) -> String {
    let mut s = S::default();
    for c in pty.chunks(CHUNK) {
        s.push(c);
    }
    s.text()
}

fn transcript_all(pty: &[u8]) -> String {
    let mut t = Transcript::new();
    for c in pty.chunks(CHUNK) {
        t.push(c);
    }
    t.text()
}

/// The bound: the same chunks through the standard library's UTF-8 decoder (one U+FFFD per
/// maximal invalid subsequence, as the transcript), the decoded text kept.
fn decode_all(pty: &[u8]) -> String {
    let mut s = String::new();
    for c in pty.chunks(CHUNK) {
        s.push_str(&String::from_utf8_lossy(c));
    }
    s
}

/// Hand-written ingest plus a stateful stripper per terminal, then every terminal's text.
fn hand_with<S: Stripper>(lines: &[&str]) -> Vec<String> {
    let mut h = Hand::default();
    let mut strippers: HashMap<String, S> = HashMap::new();
    for l in lines {
        if let Some((id, bytes, replace)) = h.apply(l) {
            let s = strippers.entry(id).or_default();
            if replace {
                *s = S::default();
            }
            s.push(&bytes);
        }
    }
    strippers.values_mut().map(Stripper::text).collect()
}

fn ours_with_text(lines: &[&str]) -> Vec<String> {
    let store = ours(lines);
    store.terminals().map(|(_, t)| t.transcript()).collect()
}

// ---------------------------------------------------------------- main

fn read(dir: &str, name: &str) -> Vec<u8> {
    let p = format!("{dir}/{name}");
    std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e} (run `cargo xtask bench`, which writes the inputs)"))
}

fn speed(dir: &str, rounds: usize) {
    let pty = read(dir, "pty.bin");
    let jsonl = String::from_utf8(read(dir, "updates.jsonl")).expect("updates.jsonl is UTF-8");
    let lines: Vec<&str> = jsonl.lines().collect();
    let n = jsonl.len();

    // Same results first: the comparisons are only fair if both sides did the work.
    let check = ours(&lines);
    let h = hand(&lines);
    for (id, t) in check.terminals() {
        assert_eq!(t.output().to_vec(), h.terminals[id.as_str()], "ours and hand-written retain different bytes");
    }
    let p = peer(&lines);
    assert_eq!(p, h.terminals, "upstream and hand-written retain different bytes");
    drop((check, h, p));

    let (a, b) = duel(rounds, || drop(black_box(ours(&lines))), || drop(black_box(hand(&lines))));
    report("ingest", n, a, b, "serde_json typed + base64-simd + Vec append");
    let (a, b) = duel(rounds, || drop(black_box(ours(&lines))), || drop(black_box(peer(&lines))));
    report("peer", n, a, b, "agent-client-protocol-schema 1.20 (unstable_protocol_v2) + base64-simd");

    let t = pty.len();
    let (a, b) = duel(rounds, || drop(black_box(transcript_all(&pty))), || drop(black_box(strip_all::<VteStrip>(&pty))));
    report("transcript", t, a, b, "vte 0.15 Parser, stateful");
    let vte = b;
    let (a, b) = duel(rounds, || drop(black_box(transcript_all(&pty))), || drop(black_box(strip_all::<SaeStrip>(&pty))));
    report("transcript-alt", t, a, b, "strip-ansi-escapes 0.2 Writer, stateful");
    let sae = b;
    let (a, b) = duel(rounds, || drop(black_box(transcript_all(&pty))), || drop(black_box(decode_all(&pty))));
    report("decode", t, a, b, "String::from_utf8_lossy over the same chunks");

    let (a, b) = if vte <= sae {
        let r = duel(rounds, || drop(black_box(ours_with_text(&lines))), || drop(black_box(hand_with::<VteStrip>(&lines))));
        (r, "hand-written ingest + vte")
    } else {
        let r = duel(rounds, || drop(black_box(ours_with_text(&lines))), || drop(black_box(hand_with::<SaeStrip>(&lines))));
        (r, "hand-written ingest + strip-ansi-escapes")
    };
    report("equal", n, a.0, a.1, b);

    let texts: Vec<String> = pty.chunks(CHUNK).map(acp_terminal::wire::encode_base64).collect();
    let b64: usize = texts.iter().map(String::len).sum();
    for (t, c) in texts.iter().zip(pty.chunks(CHUNK)) {
        assert_eq!(decode_base64(t).expect("strict decode"), c);
    }
    let (a, b) = duel(
        rounds,
        || {
            for s in &texts {
                black_box(decode_base64(s).expect("strict decode"));
            }
        },
        || {
            for s in &texts {
                black_box(base64_simd::STANDARD.decode_to_vec(s.as_bytes()).expect("base64-simd decode"));
            }
        },
    );
    report("base64", b64, a, b, "base64-simd 0.8 decode_to_vec");
}

/// Peak resident set size of this process, in bytes (Linux `VmHWM`; 0 elsewhere).
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok()).map_or(0, |kb| kb * 1024)
}

/// Streams the notifications from the file (one line in memory at a time) into one
/// client and reports its peak RSS and what it retains.
fn mem(dir: &str, which: &str) {
    let path = format!("{dir}/updates.jsonl");
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
    let mut line = String::new();
    let (retained, held) = match which {
        "ours" => {
            let mut store = TerminalStore::with_limits(KEEP_ALL);
            while reader.read_line(&mut line).expect("read") > 0 {
                store.apply_notification_text(line.trim_end()).expect("ours: bad line");
                line.clear();
            }
            let r = store.terminals().fold((0, 0), |(l, c), (_, t)| (l + t.output().len(), c + t.output().capacity()));
            black_box(&store);
            r
        }
        "hand" => {
            let mut h = Hand::default();
            while reader.read_line(&mut line).expect("read") > 0 {
                black_box(h.apply(line.trim_end()));
                line.clear();
            }
            let r = h.retained();
            black_box(&h);
            r
        }
        other => panic!("mem: unknown client {other} (ours or hand)"),
    };
    println!("RESULT {{\"mem\":\"{which}\",\"peak_rss\":{},\"retained\":{retained},\"held\":{held}}}", peak_rss());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("speed") if args.len() == 4 => speed(&args[2], args[3].parse().expect("ROUNDS is a number")),
        Some("mem") if args.len() == 4 => mem(&args[2], &args[3]),
        _ => {
            eprintln!("usage: acp-terminal-bench speed DIR ROUNDS | mem DIR ours|hand");
            std::process::exit(2);
        }
    }
}
