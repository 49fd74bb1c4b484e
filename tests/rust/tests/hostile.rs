//! The hostile corpus (tests/hostile/corpus.json) in Rust: every entry survives, and
//! its time grows linearly (t(8n) / t(n) below the corpus's `maxRatio`).

use acp_terminal::store::TerminalStore;
use acp_terminal::wire::Transcript;
use serde_json::Value;
use std::time::{Duration, Instant};

fn corpus() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../hostile/corpus.json");
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

enum Input {
    Bytes { data: Vec<u8>, chunk: usize, read_each: bool },
    Lines(Vec<String>),
}

fn expand(entry: &Value, n: usize) -> Input {
    match entry["target"].as_str() {
        Some("transcript") => Input::Bytes {
            data: entry["parts"].as_array().expect("parts").iter().map(|p| piece(p, n)).collect::<String>().into_bytes(),
            chunk: usize::try_from(entry["chunk"].as_u64().unwrap_or(4096)).expect("fits"),
            read_each: entry.get("readEachChunk").and_then(Value::as_bool).unwrap_or(false),
        },
        Some("store") => {
            let mut lines = Vec::new();
            for l in entry["lines"].as_array().expect("lines") {
                let text: String = l["pieces"].as_array().expect("pieces").iter().map(|p| piece(p, n)).collect();
                for i in 0..count(&l["times"], n) {
                    lines.push(if text.contains("{line}") { text.replace("{line}", &i.to_string()) } else { text.clone() });
                }
            }
            Input::Lines(lines)
        }
        other => panic!("unknown target {other:?}"),
    }
}

fn run(input: &Input) -> Duration {
    let start = Instant::now();
    match input {
        Input::Bytes { data, chunk, read_each } => {
            let mut t = Transcript::new();
            let mut shown = 0u64;
            for c in data.chunks((*chunk).max(1)) {
                t.push(c);
                if *read_each {
                    // What a display does after every chunk: read only what is new.
                    std::hint::black_box(t.finished_since(shown));
                    shown = t.finished_len();
                    std::hint::black_box(t.current_line());
                }
            }
            std::hint::black_box(t.text());
        }
        Input::Lines(lines) => {
            let mut store = TerminalStore::new();
            for l in lines {
                let _ = std::hint::black_box(store.apply_text(l));
            }
            // The store still works after whatever came before.
            let ok = store.apply_text(r#"{"sessionUpdate":"terminal_output_chunk","terminalId":"after","data":"b2s="}"#);
            assert!(ok.is_ok(), "the store refused a valid update after the hostile input: {ok:?}");
            // Past the terminal limit the new terminal is refused and counted; otherwise it is there.
            if let Some(t) = store.terminal("after") {
                assert_eq!(t.output().to_vec(), b"ok");
            }
            for (_, t) in store.terminals() {
                std::hint::black_box(t.transcript());
            }
        }
    }
    start.elapsed()
}

/// How long a measurement runs at least: short inputs are run again and again.
const MIN_TIME: Duration = Duration::from_millis(20);

/// The time of one run of `input`, averaged over enough runs to last `MIN_TIME`.
fn per_run(input: &Input) -> f64 {
    let mut reps = 1u32;
    loop {
        let total: Duration = (0..reps).map(|_| run(input)).sum();
        if total >= MIN_TIME || reps >= 1024 {
            return total.as_secs_f64() / f64::from(reps);
        }
        reps *= 2;
    }
}

fn best_of_three(input: &Input) -> f64 {
    (0..3).map(|_| per_run(input)).fold(f64::INFINITY, f64::min)
}

/// `cargo xtask fuzz` sets `ACP_HOSTILE_SCALE` (16) to run every entry at many megabytes
/// and millions of chunks; `cargo xtask test` runs the committed sizes (scale 1).
fn scale() -> usize {
    std::env::var("ACP_HOSTILE_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1)
}

#[test]
fn every_hostile_input_is_survived_in_linear_time() {
    let corpus = corpus();
    let max_ratio = corpus["maxRatio"].as_f64().expect("maxRatio");
    let mut failures = Vec::new();
    for entry in corpus["entries"].as_array().expect("entries") {
        let name = entry["name"].as_str().unwrap_or("?");
        let n = usize::try_from(entry["n"].as_u64().expect("n")).expect("fits") * scale();
        let (small, large) = (expand(entry, n), expand(entry, 8 * n));
        let t1 = best_of_three(&small);
        let ratio_of = |t8: f64| t8 / t1.max(1e-9);
        // 8n once; again (best of three) when it looks slow (past half the bound), to rule out noise.
        let mut t8 = per_run(&large);
        if ratio_of(t8) > max_ratio / 2.0 {
            t8 = t8.min(best_of_three(&large));
        }
        let ratio = ratio_of(t8);
        eprintln!("{name}: n = {n}: {:.3} ms, 8n: {:.3} ms, ratio {ratio:.1}", t1 * 1e3, t8 * 1e3);
        if ratio > max_ratio {
            failures.push(format!("{name}: t(8n)/t(n) = {ratio:.1} (n: {:.3} ms, 8n: {:.3} ms)", t1 * 1e3, t8 * 1e3));
        }
    }
    assert!(failures.is_empty(), "grows faster than linear:\n{}", failures.join("\n"));
}
