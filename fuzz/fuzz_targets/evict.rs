//! Eviction under random interleavings of updates: the store with small limits
//! (`max_terminals` 1 to 4, `max_total_bytes` 0 to 63) is driven by a program of
//! updates, and after every update a terminal is never half-evicted
//! (`check_invariants`: every structure agrees, no tool call references a terminal the
//! store no longer holds, the byte total is right and within the limit), and the store
//! matches a plain model of the policy of docs/WIRE.md ("The store's limits"): which
//! terminals it holds and in which order, their bytes, exit status, tool calls and
//! restart flag, the counters and the events.
#![no_main]

use acp_terminal::store::{Limits, StoreEvent, TerminalStore};
use acp_terminal::wire::encode_base64;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Term {
    id: String,
    bytes: Vec<u8>,
    exited: bool,
    calls: BTreeSet<String>,
    restarted: bool,
    touched: u64,
}

/// The policy, written plainly (linear scans, no indexes).
#[derive(Default)]
struct Model {
    max_terminals: usize,
    max_total: usize,
    held: Vec<Term>,
    clock: u64,
    evicted: Vec<String>,
    events: Vec<String>,
    terminals_evicted: u64,
    bytes_evicted: u64,
}

impl Model {
    fn find(&self, id: &str) -> Option<usize> {
        self.held.iter().position(|t| t.id == id)
    }

    fn entry(&mut self, id: &str) -> usize {
        if let Some(i) = self.find(id) {
            return i;
        }
        let restarted = if let Some(p) = self.evicted.iter().position(|e| e == id) {
            self.evicted.remove(p);
            true
        } else {
            false
        };
        while self.held.len() >= self.max_terminals {
            let exited = self.held.iter().enumerate().filter(|(_, t)| t.exited).min_by_key(|(_, t)| t.touched).map(|(i, _)| i);
            let victim = exited.or_else(|| self.held.iter().enumerate().min_by_key(|(_, t)| t.touched).map(|(i, _)| i)).expect("a terminal");
            let t = self.held.remove(victim);
            self.terminals_evicted += 1;
            self.evicted.retain(|e| *e != t.id);
            self.evicted.push(t.id.clone());
            let keep = self.max_terminals.max(64);
            if self.evicted.len() > keep {
                self.evicted.remove(0);
            }
            self.events.push(format!("evicted {} {}", t.id, t.exited));
        }
        self.clock += 1;
        self.held.push(Term { id: id.to_owned(), bytes: Vec::new(), exited: false, calls: BTreeSet::new(), restarted, touched: self.clock });
        if restarted {
            self.events.push(format!("restarted {id}"));
        }
        self.held.len() - 1
    }

    fn update(&mut self, id: &str, f: impl FnOnce(&mut Term)) {
        let i = self.entry(id);
        self.clock += 1;
        let t = &mut self.held[i];
        f(t);
        t.touched = self.clock;
        self.enforce_total();
    }

    fn enforce_total(&mut self) {
        loop {
            let total: usize = self.held.iter().map(|t| t.bytes.len()).sum();
            if total <= self.max_total {
                return;
            }
            let with = |exited: bool| self.held.iter().enumerate().filter(|(_, t)| !t.bytes.is_empty() && (!exited || t.exited)).min_by_key(|(_, t)| t.touched).map(|(i, _)| i);
            let Some(v) = with(true).or_else(|| with(false)) else { return };
            let n = self.held[v].bytes.len().min(total - self.max_total);
            self.held[v].bytes.drain(..n);
            self.bytes_evicted += n as u64;
        }
    }

    fn link(&mut self, call: &str, id: &str) {
        let i = self.entry(id);
        self.held[i].calls.insert(call.to_owned());
    }

    fn unlink_all(&mut self, call: &str) {
        for t in &mut self.held {
            t.calls.remove(call);
        }
    }
}

fn view(store: &TerminalStore) -> Vec<Term> {
    store
        .terminals()
        .map(|(id, t)| Term {
            id: id.as_str().to_owned(),
            bytes: t.output().to_vec(),
            exited: t.exit_status().is_some(),
            calls: t.tool_calls().map(|c| c.as_str().to_owned()).collect(),
            restarted: t.restarted(),
            touched: 0,
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&limits, program)) = data.split_first() else { return };
    let max_terminals = usize::from(limits % 4) + 1;
    let max_total = usize::from(limits >> 2);
    let mut store = TerminalStore::with_limits(Limits { max_terminals, max_total_bytes: max_total, max_retained_bytes: 48, ..Limits::DEFAULT });
    let mut model = Model { max_terminals, max_total, ..Model::default() };
    let mut events = Vec::new();
    // At most 256 updates: the store is checked whole after each one.
    for step in program.chunks(2).take(256) {
        let (op, arg) = (step[0], step.get(1).copied().unwrap_or(0));
        let id = format!("t{}", arg % 6);
        let call = format!("c{}", (arg >> 3) % 3);
        let bytes: Vec<u8> = (0..(arg >> 4)).map(|k| b'a' + u8::try_from((usize::from(k) + usize::from(op)) % 26).unwrap_or(0)).collect();
        let line = match op % 7 {
            0 => {
                model.update(&id, |t| {
                    t.bytes.extend_from_slice(&bytes);
                    let over = t.bytes.len().saturating_sub(48);
                    t.bytes.drain(..over);
                });
                format!(r#"{{"sessionUpdate":"terminal_output_chunk","terminalId":"{id}","data":"{}"}}"#, encode_base64(&bytes))
            }
            1 => {
                model.update(&id, |t| t.exited = true);
                format!(r#"{{"sessionUpdate":"terminal_update","terminalId":"{id}","exitStatus":{{"exitCode":0}}}}"#)
            }
            2 => {
                model.update(&id, |t| t.exited = false);
                format!(r#"{{"sessionUpdate":"terminal_update","terminalId":"{id}","exitStatus":null}}"#)
            }
            3 => {
                model.update(&id, |t| t.bytes.clone_from(&bytes));
                format!(r#"{{"sessionUpdate":"terminal_update","terminalId":"{id}","output":{{"data":"{}"}}}}"#, encode_base64(&bytes))
            }
            4 => {
                model.link(&call, &id);
                format!(r#"{{"sessionUpdate":"tool_call_content_chunk","toolCallId":"{call}","content":{{"type":"terminal","terminalId":"{id}"}}}}"#)
            }
            5 => {
                let other = format!("t{}", (arg / 7) % 6);
                model.unlink_all(&call);
                model.link(&call, &id);
                model.link(&call, &other);
                format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":"{call}","content":[{{"type":"terminal","terminalId":"{id}"}},{{"type":"terminal","terminalId":"{other}"}}]}}"#)
            }
            _ => {
                model.unlink_all(&call);
                format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":"{call}","content":null}}"#)
            }
        };
        store.apply_text(&line).expect("a valid update");
        if let Err(e) = store.check_invariants() {
            panic!("half-evicted after {line}: {e}");
        }
        for e in store.take_events() {
            events.push(match e {
                StoreEvent::Evicted { terminal_id, exited } => format!("evicted {} {exited}", terminal_id.as_str()),
                StoreEvent::Restarted { terminal_id } => format!("restarted {}", terminal_id.as_str()),
                _ => "unknown".to_owned(),
            });
        }
        let mut want = model.held.clone();
        for t in &mut want {
            t.touched = 0;
        }
        assert_eq!(view(&store), want, "after {line}");
        assert_eq!(events, model.events, "events after {line}");
        let c = store.counters();
        assert_eq!((c.terminals_evicted, c.bytes_evicted), (model.terminals_evicted, model.bytes_evicted), "counters after {line}");
    }
});
