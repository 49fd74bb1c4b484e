//! `evict_cases SEED COUNT FILE`: random interleavings of updates on a store with small
//! limits, written as `replay` vectors (docs/CONFORMANCE.md) whose expectations are what
//! the Rust store did (its terminals, counters and events), for `cargo xtask fuzz`: run in
//! every language, each runner checks after every update that no terminal is
//! half-evicted (`check_invariants`) and must reach the same store, counters and events.
//! (The Rust store itself is checked against a model of the policy by `fuzz_evict`.)

use acp_terminal::store::{Limits, TerminalStore};
use acp_terminal::wire::encode_base64;
use serde_json::{Value, json};
use std::process::ExitCode;

/// splitmix64: the same seed gives the same cases everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn update(rng: &mut Rng) -> Value {
    let id = format!("t{}", rng.below(6));
    let call = format!("c{}", rng.below(3));
    let len = rng.below(12);
    let bytes: Vec<u8> = (0..len).map(|k| if rng.below(8) == 0 { b'\n' } else { b'a' + u8::try_from((k + rng.below(26)) % 26).unwrap_or(0) }).collect();
    match rng.below(8) {
        0 | 1 => json!({ "sessionUpdate": "terminal_output_chunk", "terminalId": id, "data": encode_base64(&bytes) }),
        2 => json!({ "sessionUpdate": "terminal_update", "terminalId": id, "exitStatus": { "exitCode": rng.below(3) } }),
        3 => json!({ "sessionUpdate": "terminal_update", "terminalId": id, "exitStatus": null, "command": format!("cmd {}", rng.below(9)) }),
        4 => json!({ "sessionUpdate": "terminal_update", "terminalId": id, "output": { "data": encode_base64(&bytes) } }),
        5 => json!({ "sessionUpdate": "tool_call_content_chunk", "toolCallId": call, "content": { "type": "terminal", "terminalId": id } }),
        6 => {
            let other = format!("t{}", rng.below(6));
            json!({ "sessionUpdate": "tool_call_update", "toolCallId": call, "content": [
                { "type": "terminal", "terminalId": id }, { "type": "terminal", "terminalId": other } ] })
        }
        _ => json!({ "sessionUpdate": "tool_call_update", "toolCallId": call, "content": null }),
    }
}

fn case(rng: &mut Rng, name: String) -> Result<Value, String> {
    let limits = json!({ "maxTerminals": 1 + rng.below(4), "maxRetainedBytes": 8 + rng.below(40), "maxTotalBytes": rng.below(64) });
    let l = |k: &str| usize::try_from(limits[k].as_u64().unwrap_or(0)).unwrap_or(0);
    let mut store = TerminalStore::with_limits(Limits { max_terminals: l("maxTerminals"), max_retained_bytes: l("maxRetainedBytes"), max_total_bytes: l("maxTotalBytes"), ..Limits::DEFAULT });
    let updates: Vec<Value> = (0..10 + rng.below(50)).map(|_| update(rng)).collect();
    let mut events = Vec::new();
    for (i, u) in updates.iter().enumerate() {
        store.apply_text(&u.to_string()).map_err(|e| format!("update {i} of {name}: {e}"))?;
        store.check_invariants().map_err(|e| format!("update {i} of {name}: half-evicted: {e}"))?;
        events.extend(store.take_events().iter().map(|e| serde_json::Value::from(&e.to_json())));
    }
    let mut expect = json!({ "terminals": serde_json::Value::from(&store.snapshot()) });
    if let Some(c) = store.counters().to_json().as_ref().map(serde_json::Value::from) {
        expect["counters"] = c;
    }
    if !events.is_empty() {
        expect["events"] = Value::Array(events);
    }
    Ok(json!({ "name": name, "kind": "replay", "limits": limits, "updates": updates, "expect": expect }))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(seed), Some(count), Some(file)) = (args.first().and_then(|s| s.parse::<u64>().ok()), args.get(1).and_then(|s| s.parse::<u64>().ok()), args.get(2)) else {
        eprintln!("usage: evict_cases SEED COUNT FILE");
        return ExitCode::from(2);
    };
    let mut rng = Rng(seed ^ 0x5EED_0022);
    let mut cases = Vec::new();
    for i in 0..count {
        match case(&mut rng, format!("seed {seed} eviction case {i}")) {
            Ok(c) => cases.push(c),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let doc = json!({ "description": format!("eviction under random interleavings of updates, seed {seed} (cargo xtask fuzz)"), "cases": cases });
    if let Err(e) = std::fs::write(file, doc.to_string()) {
        eprintln!("{file}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
