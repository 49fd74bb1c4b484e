//! The store's guarantees (docs/CLIENTS.md, "The store's guarantees"): ingest and linking grow
//! linearly (the work for 8n against n, counted, never timed: `cargo xtask bench` times
//! the store), memory stays close to the bytes retained, limits hold, and the transcript
//! is built only when asked for.

use acp_terminal::Transcript;
use acp_terminal::store::{ByteLog, Limits, TerminalStore};
use acp_terminal::wire::encode_base64;

/// `f(n)` returns the work a run costs: the bytes of text it decoded plus the store's
/// work counter (and what it read). Linear work gives 8 for 8n against n (a little more
/// where a buffer threshold is crossed a whole number of times); quadratic work 64.
/// Counted, so the bound is tight and a loaded machine cannot fail it.
fn assert_linear(what: &str, n: usize, f: &dyn Fn(usize) -> u64) {
    let (small, large) = (f(n), f(8 * n));
    #[allow(clippy::cast_precision_loss)]
    let ratio = large as f64 / small as f64;
    assert!((7.0..=10.0).contains(&ratio), "{what}: 8n took {ratio:.2}x the work of n ({small} then {large}; linear is 8x)");
}

/// Applies every text to `store`; returns the bytes decoded plus the store's work.
fn apply_all(store: &mut TerminalStore, texts: &[String]) -> u64 {
    let mut decoded = 0;
    for t in texts {
        decoded += t.len() as u64;
        store.apply_text(t).expect("valid");
    }
    decoded + store.work()
}

fn chunk(id: &str, data: &[u8]) -> String {
    format!(r#"{{"sessionUpdate":"terminal_output_chunk","terminalId":"{id}","data":"{}"}}"#, encode_base64(data))
}

fn link_chunk(call: &str, id: &str) -> String {
    format!(r#"{{"sessionUpdate":"tool_call_content_chunk","toolCallId":"{call}","content":{{"type":"terminal","terminalId":"{id}"}}}}"#)
}

fn unlimited() -> Limits {
    Limits { max_terminals: usize::MAX, max_retained_bytes: usize::MAX, max_total_bytes: usize::MAX, max_warnings: usize::MAX, ..Limits::DEFAULT }
}

#[test]
fn ingest_into_many_terminals_is_linear() {
    assert_linear("one-byte chunks to n terminals", 2_000, &|n| {
        let texts: Vec<String> = (0..n).map(|i| chunk(&format!("t{i}"), b"x")).collect();
        let mut store = TerminalStore::with_limits(unlimited());
        let work = apply_all(&mut store, &texts);
        assert_eq!(store.terminals().count(), n);
        work
    });
}

#[test]
fn ingest_of_many_chunks_into_one_terminal_is_linear() {
    assert_linear("n chunks to one terminal", 5_000, &|n| {
        let texts = vec![chunk("t", b"line of output\r\n"); n];
        let mut store = TerminalStore::with_limits(unlimited());
        let work = apply_all(&mut store, &texts);
        assert_eq!(store.terminal("t").map(|t| t.output().len()), Some(16 * n));
        work
    });
}

#[test]
fn content_chunks_linking_one_tool_call_are_linear() {
    assert_linear("n content chunks to one tool call", 2_000, &|n| {
        let texts: Vec<String> = (0..n).map(|i| link_chunk("call", &format!("t{i}"))).collect();
        let mut store = TerminalStore::with_limits(unlimited());
        let work = apply_all(&mut store, &texts);
        assert!(store.terminals().all(|(_, t)| t.tool_calls().count() == 1));
        work
    });
}

#[test]
fn one_tool_call_update_with_many_references_is_linear() {
    assert_linear("one tool_call_update with n references (each twice)", 2_000, &|n| {
        let items: Vec<String> = (0..2 * n).map(|i| format!(r#"{{"type":"terminal","terminalId":"t{}"}}"#, i % n)).collect();
        let text = format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":"call","content":[{}]}}"#, items.join(","));
        let mut store = TerminalStore::with_limits(unlimited());
        // The second relinks: unlinks n, links n.
        let work = apply_all(&mut store, &[text.clone(), text]);
        assert_eq!(store.terminals().count(), n);
        work
    });
}

#[test]
fn tiny_chunks_cost_little_more_than_their_bytes() {
    let mut log = ByteLog::default();
    for i in 0..1_000_000u32 {
        log.append(&[(i % 251) as u8]);
    }
    assert_eq!(log.len(), 1_000_000);
    assert!(log.capacity() as f64 <= 1.05 * log.len() as f64, "capacity {} for {} bytes", log.capacity(), log.len());
    let mut one = ByteLog::default();
    one.append(b"x");
    assert!(one.capacity() <= 16, "one byte holds {} bytes", one.capacity());
}

#[test]
fn a_terminal_with_one_byte_holds_no_large_block() {
    let mut store = TerminalStore::new();
    for i in 0..1000 {
        store.apply_text(&chunk(&format!("t{i}"), b"x")).expect("valid");
    }
    let held: usize = store.terminals().map(|(_, t)| t.output().capacity()).sum();
    assert!(held <= 1000 * 16, "1000 one-byte terminals hold {held} bytes of blocks");
}

#[test]
fn the_byte_limit_keeps_the_tail_and_bounded_memory() {
    let limits = Limits { max_retained_bytes: 10_000, ..Limits::default() };
    let mut store = TerminalStore::with_limits(limits);
    let mut all = Vec::new();
    for i in 0..2_000u32 {
        let data: Vec<u8> = (0..(i % 97 + 1)).map(|j| b'a' + ((i + j) % 26) as u8).collect();
        all.extend_from_slice(&data);
        store.apply_text(&chunk("t", &data)).expect("valid");
        let t = store.terminal("t").expect("terminal");
        assert!(t.output().len() <= 10_000);
        assert!(t.output().capacity() <= 10_000 + 2 * ByteLog::SMALL, "capacity {}", t.output().capacity());
    }
    let t = store.terminal("t").expect("terminal");
    assert_eq!(t.output().to_vec(), all[all.len() - 10_000..]);
    assert_eq!(t.dropped_bytes(), (all.len() - 10_000) as u64);
    // The transcript covers every byte, not only the retained tail (lines wrap at the
    // transcript's line length limit).
    let mut whole = Transcript::new();
    whole.push(&all);
    assert_eq!(t.transcript(), whole.text());
    // One chunk far larger than the limit keeps only its tail.
    let big = vec![b'z'; 1 << 20];
    store.apply_text(&chunk("t", &big)).expect("valid");
    let t = store.terminal("t").expect("terminal");
    assert_eq!(t.output().len(), 10_000);
    assert!(t.output().capacity() <= 10_000 + 2 * ByteLog::SMALL, "capacity {}", t.output().capacity());
}

#[test]
fn the_transcript_is_incremental_and_equal_to_one_rendering() {
    let mut store = TerminalStore::new();
    let mut eager = acp_terminal::Transcript::new();
    let pieces: [&[u8]; 5] = [b"a\x1b[3", b"1mred\x1b[0m\r\n", b"\xe4\xb8", b"\xad\rX", b"\x1b]0;t\x1b\\done\n"];
    for (i, p) in pieces.iter().cycle().take(200).enumerate() {
        store.apply_text(&chunk("t", p)).expect("valid");
        eager.push(p);
        if i % 7 == 0 {
            assert_eq!(store.terminal("t").expect("terminal").transcript(), eager.text());
        }
    }
    assert_eq!(store.terminal("t").expect("terminal").transcript(), eager.text());
}

#[test]
fn a_rejected_notification_does_not_bind_the_session() {
    let mut store = TerminalStore::new();
    let bad = r#"{"sessionId":"s1","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"!"}}"#;
    assert!(store.apply_notification_text(bad).is_err());
    assert_eq!(store.session_id(), None);
    let ok = r#"{"sessionId":"s2","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"YQ=="}}"#;
    store.apply_notification_text(ok).expect("binds s2");
    assert_eq!(store.session_id().map(|s| s.as_str()), Some("s2"));
    let other = r#"{"sessionId":"s1","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"YQ=="}}"#;
    let e = store.apply_notification_text(other).expect_err("another session");
    assert_eq!((e.kind.as_str(), e.path.as_str()), ("session_mismatch", "/sessionId"));
    assert!(e.message.contains("one store per session"), "{}", e.message);
    assert_eq!(store.terminal("t").map(|t| t.output().to_vec()), Some(b"a".to_vec()));
}

#[test]
fn many_invalid_lenient_items_are_counted_not_kept() {
    let items = vec!["5"; 100_000].join(",");
    let text = format!(r#"{{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[{items}]}}"#);
    let mut store = TerminalStore::new();
    let kept = store.apply_text(&text).expect("lenient");
    assert_eq!(kept.len(), Limits::DEFAULT.max_warnings);
    assert_eq!(store.counters().warnings_dropped, (100_000 - Limits::DEFAULT.max_warnings) as u64);
}

#[test]
fn the_store_can_be_shared_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<TerminalStore>();
}

#[test]
fn meta_is_patched_by_key_and_the_other_members_replaced() {
    let mut store = TerminalStore::new();
    store.apply_text(r#"{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"a":1,"b":2},"size":{"cols":80,"rows":24},"cwd":"/a"}"#).expect("valid");
    store.apply_text(r#"{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"b":null,"c":3},"cwd":null}"#).expect("valid");
    let t = store.terminal("t").expect("terminal");
    let meta: Vec<(&str, String)> = t.meta().expect("meta").iter().map(|(k, v)| (k.as_str(), acp_terminal::wire::to_string(v))).collect();
    // The session state's rule (upstream's meta-patch rule, docs/WIRE.md): by key, `null` removes.
    assert_eq!(meta, [("a", "1".to_owned()), ("c", "3".to_owned())]);
    assert_eq!(t.size().map(|s| (s.cols, s.rows)), Some((80, 24)), "omitted: unchanged");
    assert_eq!(t.cwd(), None, "null: cleared");
    store.apply_text(r#"{"sessionUpdate":"terminal_update","terminalId":"t","_meta":null}"#).expect("valid");
    assert!(store.terminal("t").expect("terminal").meta().is_none(), "null clears the whole _meta");
}

#[test]
fn an_agent_cannot_grow_a_terminal_with_new_members_or_meta_keys() {
    // Each update adds a member or a `_meta` key the terminal does not have: the store keeps
    // them as the session state does, so only `max_members` bounds what one terminal holds.
    let mut store = TerminalStore::with_limits(Limits { max_members: 8, ..Limits::default() });
    for i in 0..2_000 {
        store.apply_text(&format!(r#"{{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{{"k{i}":{i}}},"x{i}":{i}}}"#)).expect("valid");
    }
    store.apply_text(r#"{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"k0":null,"late":1}}"#).expect("valid");
    let t = store.terminal("t").expect("terminal");
    let keys: Vec<&str> = t.meta().expect("meta").iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "late"], "the first keys stay; a key cleared frees its place");
    // Eight unknown members, then nothing new.
    assert_eq!(store.counters().members_dropped, (2_000 - 8) * 2);
}

#[test]
fn a_terminal_state_is_small_until_its_text_is_asked_for() {
    let size = std::mem::size_of::<acp_terminal::store::TerminalState>();
    // Its members are inline (exit status, size, extension data); the transcript and
    // the bytes are not.
    assert!(size <= 1024, "a TerminalState is {size} bytes inline");
}

/// Reads what is new in `t` since `pos` (finished lines, then the current line), as a
/// display does after every chunk; appends the finished lines to `shown`.
fn read_new(t: &acp_terminal::store::TerminalState, pos: &mut u64, shown: &mut String) -> String {
    t.with_transcript(|r| {
        let (a, b) = r.finished_since(*pos);
        shown.push_str(a);
        shown.push_str(b);
        *pos = r.finished_len();
        r.current_line()
    })
}

#[test]
fn reading_what_is_new_after_every_chunk_through_the_store_is_linear() {
    assert_linear("reading what is new after every chunk", 4_000, &|n| {
        let texts: Vec<String> = (0..n).map(|i| chunk("t", format!("line {i}\r\nprogress {i}%\r").as_bytes())).collect();
        let mut store = TerminalStore::new();
        let (mut pos, mut shown, mut line) = (0, String::new(), String::new());
        let (mut decoded, mut read) = (0, 0);
        for text in &texts {
            decoded += text.len() as u64;
            store.apply_text(text).expect("valid");
            line = read_new(store.terminal("t").expect("terminal"), &mut pos, &mut shown);
            read += line.len() as u64;
        }
        shown.push_str(&line);
        let t = store.terminal("t").expect("terminal");
        assert_eq!(shown, t.transcript());
        decoded + store.work() + t.with_transcript(Transcript::work) + read + shown.len() as u64
    });
}

#[test]
fn the_store_limits_set_every_transcript_limit() {
    assert_eq!((Limits::DEFAULT.max_line_length, Limits::DEFAULT.max_text_length), (4096, 1 << 24));
    let limits = Limits { max_line_length: 4, max_text_length: 8, ..Limits::default() };
    let mut store = TerminalStore::with_limits(limits);
    store.apply_text(&chunk("t", b"abcdefghij\n")).expect("valid");
    let t = store.terminal("t").expect("terminal");
    // "abcd\n" and "efgh\n" wrapped, then "ij\n" pushed the text past 8 code points.
    assert_eq!(t.transcript(), "efgh\nij\n");
    assert_eq!(t.with_transcript(|r| (r.wrapped_lines(), r.dropped_lines(), r.dropped_chars())), (2, 1, 5));
    assert_eq!(t.output().to_vec(), b"abcdefghij\n", "the bytes are all retained");
    // A snapshot starts a new transcript with the same limits.
    store.apply_text(r#"{"sessionUpdate":"terminal_update","terminalId":"t","output":{"data":"MTIzNDU2"}}"#).expect("valid");
    let t = store.terminal("t").expect("terminal");
    assert_eq!(t.transcript(), "1234\n56");
    assert_eq!(t.with_transcript(|r| (r.wrapped_lines(), r.dropped_lines())), (1, 0));
}

#[test]
fn reading_what_is_new_rebuilds_the_text_when_old_lines_are_left_out() {
    let limits = Limits { max_text_length: 100, ..Limits::default() };
    let mut store = TerminalStore::with_limits(limits);
    let (mut pos, mut shown, mut line) = (0, String::new(), String::new());
    let mut all = String::new();
    for i in 0..200 {
        let piece = format!("out {i}\n{}", if i % 3 == 0 { "par" } else { "" });
        all.push_str(&piece);
        store.apply_text(&chunk("t", piece.as_bytes())).expect("valid");
        line = read_new(store.terminal("t").expect("terminal"), &mut pos, &mut shown);
    }
    let mut eager = Transcript::new();
    eager.push(all.as_bytes());
    let t = store.terminal("t").expect("terminal");
    assert!(t.with_transcript(Transcript::dropped_lines) > 100);
    assert_eq!(shown + &line, eager.text(), "every line was shown once, in order, before it was left out");
    assert!(t.transcript().len() <= 100 + line.len());
}

#[test]
fn apply_notification_binds_and_checks_the_session_of_a_parsed_value() {
    use acp_terminal::v2::UpdateSessionNotification;
    let parse = |s: &str| acp_terminal::wire::from_str::<UpdateSessionNotification>(s).expect("valid").value;
    let one = r#"{"sessionId":"s1","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"YQ=="}}"#;
    let mut store = TerminalStore::new();
    store.apply_notification(parse(one)).expect("binds s1");
    assert_eq!(store.session_id().map(|s| s.as_str()), Some("s1"));
    store.apply_notification(parse(one)).expect("the same session");
    let other = one.replace("s1", "s2");
    let e = store.apply_notification(parse(&other)).expect_err("another session");
    assert_eq!((e.kind.as_str(), e.path.as_str()), ("session_mismatch", "/sessionId"));
    // The value route and the text route give the same error, and neither applies it.
    assert_eq!(store.apply_notification_text(&other).expect_err("another session"), e);
    assert_eq!(store.terminal("t").map(|t| t.output().to_vec()), Some(b"aa".to_vec()));
}
