//! Properties of the version adapters: for random valid v1 values that convert,
//! v1 -> v2 -> v1 gives back the original canonical bytes, and v2 -> v1 -> v2 gives back
//! the v2 bytes; a value with a terminal item anywhere is refused at exactly that item,
//! never converted to a shorter list. Values generated as v2 (with v2-only clears,
//! enum values and items) come back to their v2 bytes or are refused at a member of the
//! input.

use acp_terminal::adapters::{Direction, convert};
use acp_terminal::{registry, wire};
use serde_json::{Map, Value, json};

/// A small deterministic PRNG (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const TEXTS: &[&str] = &["", "ok", "h\u{e9}llo", "\u{2713} done\n", "tab\there", "quote \" and \\", "\u{1F600}", "\u{1}"];

fn text(r: &mut Rng) -> String {
    (0..r.below(3)).map(|_| r.pick(TEXTS)).collect()
}

fn free_json(r: &mut Rng, depth: usize) -> Value {
    match r.below(if depth > 1 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => Value::Bool(r.chance(50)),
        2 => json!(r.below(1000)),
        3 => json!(0.5),
        4 => Value::String(text(r)),
        5 => Value::Array((0..r.below(3)).map(|_| free_json(r, depth + 1)).collect()),
        _ => Value::Object(meta(r, depth + 1)),
    }
}

fn meta(r: &mut Rng, depth: usize) -> Map<String, Value> {
    (0..r.below(3)).map(|i| (format!("{}{i}", r.pick(&["k", "z", "1", "a b"])), free_json(r, depth))).collect()
}

fn base64(r: &mut Rng) -> String {
    let bytes: Vec<u8> = (0..r.below(7)).map(|_| u8::try_from(r.below(256)).unwrap_or(0)).collect();
    wire::encode_base64(&bytes)
}

fn annotations(r: &mut Rng) -> Value {
    let mut o = Map::new();
    if r.chance(50) {
        o.insert("audience".into(), json!([r.pick(&["user", "assistant"])]));
    }
    if r.chance(50) {
        o.insert("priority".into(), json!(r.pick(&["0", "0.25", "1"]).parse::<f64>().unwrap_or(0.0)));
    }
    Value::Object(o)
}

fn block(r: &mut Rng) -> Value {
    let mut b = match r.below(5) {
        0 => json!({ "type": "text", "text": text(r) }),
        1 => json!({ "type": "image", "data": base64(r), "mimeType": "image/png" }),
        2 => json!({ "type": "audio", "data": base64(r), "mimeType": "audio/wav" }),
        3 => json!({ "type": "resource_link", "name": text(r), "uri": "file:///x", "size": r.below(99) }),
        _ => {
            let resource = if r.chance(50) { json!({ "text": text(r), "uri": "file:///t" }) } else { json!({ "blob": base64(r), "uri": "file:///b" }) };
            json!({ "type": "resource", "resource": resource })
        }
    };
    if r.chance(30) {
        b["annotations"] = annotations(r);
    }
    if r.chance(30) {
        b["_meta"] = Value::Object(meta(r, 1));
    }
    b
}

fn item(r: &mut Rng) -> Value {
    let mut i = json!({ "type": "content", "content": block(r) });
    if r.chance(20) {
        i["_meta"] = Value::Object(meta(r, 1));
    }
    i
}

const KINDS: &[&str] = &["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"];
const STATUSES: &[&str] = &["pending", "in_progress", "completed", "failed"];

/// A random v1 tool call (`title` required when `creation`).
fn tool_call(r: &mut Rng, creation: bool) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("toolCallId".into(), Value::String(format!("call_{}", r.below(100))));
    if creation || r.chance(60) {
        o.insert("title".into(), Value::String(text(r)));
    }
    if r.chance(50) {
        o.insert("kind".into(), Value::String(r.pick(KINDS).into()));
    }
    if r.chance(50) {
        o.insert("status".into(), Value::String(r.pick(STATUSES).into()));
    }
    if r.chance(70) {
        o.insert("content".into(), Value::Array((0..r.below(4)).map(|_| item(r)).collect()));
    }
    if r.chance(40) {
        // Lines from 1: v1's line 0 has no v2 form (v2 lines start at 1; the convert
        // vectors check that it is `not_representable`).
        let locations: Vec<Value> = (0..r.below(3)).map(|_| json!({ "path": r.pick(&["/w/a.rs", "C:\\w\\b.rs"]), "line": 1 + r.below(49) })).collect();
        o.insert("locations".into(), Value::Array(locations));
    }
    if r.chance(30) {
        o.insert("rawInput".into(), json!({ "cmd": text(r) }));
    }
    if r.chance(30) {
        // Not `null`: that would be a v2 patch clear, a refusal of its own.
        let raw = free_json(r, 1);
        o.insert("rawOutput".into(), if raw.is_null() { json!(0) } else { raw });
    }
    if r.chance(30) {
        o.insert("_meta".into(), Value::Object(meta(r, 1)));
    }
    if r.chance(20) {
        o.insert("x-unknown".into(), free_json(r, 1));
    }
    o
}

/// A random v1 value of one of the converted definitions: `(v1 type, v2 type, JSON)`.
fn v1_value(r: &mut Rng) -> (&'static str, &'static str, Value) {
    match r.below(6) {
        0 => ("ToolCallUpdate", "ToolCallUpdate", Value::Object(tool_call(r, false))),
        1 => ("ToolCall", "ToolCallUpdate", Value::Object(tool_call(r, true))),
        2 => ("ToolCallContent", "ToolCallContent", item(r)),
        3 => {
            let mut u = Map::new();
            u.insert("sessionUpdate".into(), json!("tool_call_update"));
            u.extend(tool_call(r, false));
            ("SessionNotification", "UpdateSessionNotification", json!({ "sessionId": "s", "update": u }))
        }
        4 => {
            let options: Vec<Value> =
                (0..=r.below(3)).map(|i| json!({ "optionId": format!("o{i}"), "name": text(r), "kind": r.pick(&["allow_once", "allow_always", "reject_once", "reject_always"]) })).collect();
            ("RequestPermissionRequest", "RequestPermissionRequest", json!({ "sessionId": "s", "toolCall": tool_call(r, true), "options": options }))
        }
        _ => {
            let outcome = if r.chance(50) { json!({ "outcome": "cancelled" }) } else { json!({ "outcome": "selected", "optionId": "o1" }) };
            ("RequestPermissionResponse", "RequestPermissionResponse", json!({ "outcome": outcome }))
        }
    }
}

fn canonical(version: &str, ty: &str, v: &Value) -> String {
    let (text, warnings) = registry::decode(version, ty, &v.to_string()).expect("known type").expect("a valid generated value");
    assert!(warnings.is_empty(), "generated value has warnings: {v}");
    text
}

#[test]
fn v1_to_v2_to_v1_returns_the_original_bytes() {
    let mut r = Rng(0x5eed_1234_abcd_0001);
    for _ in 0..2000 {
        let (t1, t2, v) = v1_value(&mut r);
        let original = canonical("v1", t1, &v);
        let there = convert(Direction::V1ToV2, t1, Some(t2), &original).unwrap_or_else(|e| panic!("{original} did not convert: {e}"));
        let back = convert(Direction::V2ToV1, t2, Some(t1), &there.text).unwrap_or_else(|e| panic!("{} did not convert back: {e}", there.text));
        assert_eq!(back.text, original, "via {}", there.text);
        let again = convert(Direction::V1ToV2, t1, Some(t2), &back.text).expect("again");
        assert_eq!(again.text, there.text, "v2 -> v1 -> v2 is exact too");
    }
}

/// A random v2 `ToolCallUpdate` (JSON), starting from the shapes both versions share and
/// adding what only v2 can say: `null` clears, `status: cancelled`, unknown enum values,
/// diff and terminal items, icons. Returns the value and whether it holds one of the two
/// documented one-way mappings (`content: null`, `locations: null` become `[]`).
fn v2_tool_call_update(r: &mut Rng) -> (Value, bool) {
    let mut o = tool_call(r, false);
    let mut one_way = false;
    for member in ["title", "kind", "status", "rawInput", "rawOutput", "_meta"] {
        if r.chance(4) {
            o.insert(member.into(), Value::Null);
        }
    }
    for member in ["content", "locations"] {
        if r.chance(4) {
            o.insert(member.into(), Value::Null);
            one_way = true;
        }
    }
    if r.chance(5) {
        o.insert("status".into(), json!(r.pick(&["cancelled", "paused_by_user"])));
    }
    if r.chance(5) {
        o.insert("kind".into(), json!("teleport"));
    }
    if let Some(Value::Array(items)) = o.get_mut("content") {
        if r.chance(8) {
            let at = r.below(items.len() + 1);
            items.insert(at, json!({ "type": "diff", "changes": [{ "operation": "add", "path": "/w/new.rs", "content": text(r) }] }));
        }
        if r.chance(8) {
            let at = r.below(items.len() + 1);
            items.insert(at, json!({ "type": "terminal", "terminalId": "term_1" }));
        }
        if r.chance(5) {
            let at = r.below(items.len() + 1);
            items.insert(at, json!({ "type": "content", "content": { "type": "resource_link", "name": "n", "uri": "file:///x", "icons": [] } }));
        }
    }
    (Value::Object(o), one_way)
}

/// The other direction of the round trip, on values generated as v2: what converts to v1
/// comes back to the very same v2 bytes (but for the two documented one-way mappings,
/// which must still convert), and what does not is a `not_representable` error whose
/// pointer names a member or item of the input.
#[test]
fn v2_to_v1_to_v2_returns_the_original_bytes_or_refuses_at_a_member_of_the_input() {
    let mut r = Rng(0x5eed_0000_0002_0002);
    let (mut exact, mut refused) = (0, 0);
    for _ in 0..3000 {
        let (v, one_way) = v2_tool_call_update(&mut r);
        let Some(Ok((original, _))) = registry::decode("v2", "ToolCallUpdate", &v.to_string()) else {
            continue; // a generated shape v2 itself rejects (its decoder is tested elsewhere)
        };
        match convert(Direction::V2ToV1, "ToolCallUpdate", None, &original) {
            Ok(there) => {
                let back = convert(Direction::V1ToV2, "ToolCallUpdate", None, &there.text).unwrap_or_else(|e| panic!("{} did not convert back: {e}", there.text));
                if !one_way {
                    assert_eq!(back.text, original, "via {}", there.text);
                }
                exact += 1;
            }
            Err(e) => {
                assert_eq!(e.kind.as_str(), "not_representable", "{original}: {e}");
                let parsed: Value = serde_json::from_str(&original).expect("canonical JSON");
                assert!(parsed.pointer(&e.path).is_some(), "{original}: the pointer {:?} names nothing in the input", e.path);
                refused += 1;
            }
        }
    }
    assert!(exact > 300 && refused > 300, "the generator covers both outcomes: {exact} exact, {refused} refused");
}

#[test]
fn a_terminal_item_anywhere_is_refused_at_that_item_in_both_directions() {
    let mut r = Rng(0x7e57_0000_0000_0002);
    for _ in 0..500 {
        let mut call = tool_call(&mut r, false);
        let mut items: Vec<Value> = (0..r.below(4)).map(|_| item(&mut r)).collect();
        let at = r.below(items.len() + 1);
        items.insert(at, json!({ "type": "terminal", "terminalId": "term_1" }));
        call.insert("content".into(), Value::Array(items));
        let text = Value::Object(call).to_string();
        for d in [Direction::V1ToV2, Direction::V2ToV1] {
            let e = convert(d, "ToolCallUpdate", None, &text).expect_err("a terminal item never converts");
            assert_eq!((e.kind.as_str(), e.path.as_str()), ("not_representable", format!("/content/{at}").as_str()), "{text}");
        }
    }
}

/// The bridge's output size for a long command (figures in docs/ADAPTERS.md): 16 MiB of
/// output in 4 KiB chunks with a flush every 64 chunks, without and with the cap, and
/// with the `_meta` convention. Run with
/// `cargo test --release -p acp-terminal-conformance --test adapter_properties -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check: prints the bridge's output size"]
fn bridge_output_size_for_16_mib_in_4_kib_chunks() {
    use acp_terminal::adapters::{Bridge, BridgeOptions};
    let mut output = Vec::with_capacity(16 << 20);
    let mut n = 0;
    while output.len() < 16 << 20 {
        output.extend_from_slice(format!("test module_{n:06}::case ... ok (compiled, ran, checked {n} assertions)\n").as_bytes());
        n += 1;
    }
    output.truncate(16 << 20);
    for options in [BridgeOptions { cap: None, meta: false }, BridgeOptions { cap: Some(64 * 1024), meta: false }, BridgeOptions { cap: Some(64 * 1024), meta: true }] {
        let mut bridge = Bridge::new(options);
        let mut emitted = 0usize;
        let mut updates = 0usize;
        let mut count = |out: Vec<String>| {
            updates += out.len();
            emitted += out.iter().map(String::len).sum::<usize>();
        };
        count(bridge.push(r#"{"sessionUpdate":"tool_call_update","toolCallId":"c","title":"cargo test","content":[{"type":"terminal","terminalId":"t"}]}"#).expect("tool call"));
        for (i, chunk) in output.chunks(4096).enumerate() {
            let text = format!(r#"{{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"{}"}}"#, wire::encode_base64(chunk));
            count(bridge.push(&text).expect("chunk"));
            if (i + 1) % 64 == 0 {
                count(bridge.flush().expect("flush"));
            }
        }
        count(bridge.push(r#"{"sessionUpdate":"terminal_update","terminalId":"t","exitStatus":{"exitCode":0}}"#).expect("exit"));
        #[allow(clippy::cast_precision_loss)]
        let ratio = emitted as f64 / output.len() as f64;
        println!("cap {:?}, meta {}: {updates} v1 updates, {emitted} bytes of v1 JSON for {} bytes of output: {ratio:.3}x", options.cap, options.meta, output.len());
    }
}

/// With the `_meta` convention, every output byte reaches the v1 Client exactly once, in
/// order, also past the store's byte limit (the bridge's store keeps 1 MiB per terminal:
/// the convention's position counts the dropped bytes too).
#[test]
fn the_meta_convention_sends_every_byte_once_past_the_byte_limit() {
    use acp_terminal::adapters::{Bridge, BridgeOptions};
    let mut output = Vec::new();
    let mut n = 0;
    while output.len() < 3 << 20 {
        output.extend_from_slice(format!("line {n:07}\n").as_bytes());
        n += 1;
    }
    let mut bridge = Bridge::new(BridgeOptions { cap: Some(4096), meta: true });
    let mut sent = String::new();
    let mut collect = |updates: Vec<String>| {
        for u in updates {
            let v: Value = serde_json::from_str(&u).expect("JSON");
            if let Some(d) = v.pointer("/_meta/terminal_output/data").and_then(Value::as_str) {
                sent.push_str(d);
            }
        }
    };
    collect(bridge.push(r#"{"sessionUpdate":"tool_call_update","toolCallId":"c","title":"t","content":[{"type":"terminal","terminalId":"t"}]}"#).expect("tool call"));
    for (i, chunk) in output.chunks(4096).enumerate() {
        collect(bridge.push(&format!(r#"{{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"{}"}}"#, wire::encode_base64(chunk))).expect("chunk"));
        if (i + 1) % 64 == 0 {
            collect(bridge.flush().expect("flush"));
        }
    }
    collect(bridge.push(r#"{"sessionUpdate":"terminal_update","terminalId":"t","exitStatus":{"exitCode":0}}"#).expect("exit"));
    assert_eq!(sent.len(), output.len(), "bytes sent through _meta/terminal_output");
    assert!(sent.as_bytes() == output.as_slice(), "the convention's text is the output, in order");
}
