// Properties of the version adapters: for random valid v1 values that convert, v1 -> v2 -> v1
// gives back the original canonical bytes (and v2 -> v1 -> v2 the v2 bytes); a terminal item
// anywhere is refused at exactly that item. Plus the bridge's text-only-on-flush rule.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Bridge, type ProtocolVersion, convert, encodeBase64 } from "../../generated/typescript/src/index.js";
import { CODECS } from "../../generated/typescript/src/registry.js";

/** A small deterministic PRNG (xorshift32), so failures reproduce. */
class Rng {
  constructor(private s: number) {}
  next(): number {
    this.s ^= this.s << 13;
    this.s ^= this.s >>> 17;
    this.s ^= this.s << 5;
    return this.s >>> 0;
  }
  below(n: number): number {
    return this.next() % n;
  }
  chance(percent: number): boolean {
    return this.below(100) < percent;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)] as T;
  }
}

type Plain = null | boolean | number | string | Plain[] | { [k: string]: Plain };

const TEXTS = ["", "ok", "h\u00e9llo", "\u2713 done\n", "tab\there", 'quote " and \\', "\u{1F600}", "\u0001"];
const KINDS = ["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "switch_mode", "other"];
const STATUSES = ["pending", "in_progress", "completed", "failed"];

const text = (r: Rng): string => Array.from({ length: r.below(3) }, () => r.pick(TEXTS)).join("");

function freeJson(r: Rng, depth: number): Plain {
  switch (r.below(depth > 1 ? 5 : 7)) {
    case 0:
      return null;
    case 1:
      return r.chance(50);
    case 2:
      return r.below(1000);
    case 3:
      return 0.5;
    case 4:
      return text(r);
    case 5:
      return Array.from({ length: r.below(3) }, () => freeJson(r, depth + 1));
    default:
      return meta(r, depth + 1);
  }
}

function meta(r: Rng, depth: number): { [k: string]: Plain } {
  const o: { [k: string]: Plain } = {};
  for (let i = 0, n = r.below(3); i < n; i++) o[`${r.pick(["k", "z", "a b"])}${i}`] = freeJson(r, depth);
  return o;
}

const base64 = (r: Rng): string => encodeBase64(Uint8Array.from({ length: r.below(7) }, () => r.below(256)));

function block(r: Rng): Plain {
  let b: { [k: string]: Plain };
  switch (r.below(5)) {
    case 0:
      b = { type: "text", text: text(r) };
      break;
    case 1:
      b = { type: "image", data: base64(r), mimeType: "image/png" };
      break;
    case 2:
      b = { type: "audio", data: base64(r), mimeType: "audio/wav" };
      break;
    case 3:
      b = { type: "resource_link", name: text(r), uri: "file:///x", size: r.below(99) };
      break;
    default:
      b = { type: "resource", resource: r.chance(50) ? { text: text(r), uri: "file:///t" } : { blob: base64(r), uri: "file:///b" } };
  }
  if (r.chance(30)) b["annotations"] = { audience: [r.pick(["user", "assistant"])], priority: r.pick([0, 0.25, 1]) };
  if (r.chance(30)) b["_meta"] = meta(r, 1);
  return b;
}

function item(r: Rng): Plain {
  const i: { [k: string]: Plain } = { type: "content", content: block(r) };
  if (r.chance(20)) i["_meta"] = meta(r, 1);
  return i;
}

function toolCall(r: Rng, creation: boolean): { [k: string]: Plain } {
  const o: { [k: string]: Plain } = { toolCallId: `call_${r.below(100)}` };
  if (creation || r.chance(60)) o["title"] = text(r);
  if (r.chance(50)) o["kind"] = r.pick(KINDS);
  if (r.chance(50)) o["status"] = r.pick(STATUSES);
  if (r.chance(70)) o["content"] = Array.from({ length: r.below(4) }, () => item(r));
  // Lines from 1: v1's line 0 has no v2 form (the convert vectors check `not_representable`).
  if (r.chance(40)) o["locations"] = Array.from({ length: r.below(3) }, () => ({ path: r.pick(["/w/a.rs", "C:\\w\\b.rs"]), line: 1 + r.below(49) }));
  if (r.chance(30)) o["rawInput"] = { cmd: text(r) };
  if (r.chance(30)) o["rawOutput"] = freeJson(r, 1) ?? 0;
  if (r.chance(30)) o["_meta"] = meta(r, 1);
  if (r.chance(20)) o["x-unknown"] = freeJson(r, 1);
  return o;
}

function v1Value(r: Rng): [string, string, Plain] {
  switch (r.below(6)) {
    case 0:
      return ["ToolCallUpdate", "ToolCallUpdate", toolCall(r, false)];
    case 1:
      return ["ToolCall", "ToolCallUpdate", toolCall(r, true)];
    case 2:
      return ["ToolCallContent", "ToolCallContent", item(r)];
    case 3:
      return ["SessionNotification", "UpdateSessionNotification", { sessionId: "s", update: { sessionUpdate: "tool_call_update", ...toolCall(r, false) } }];
    case 4: {
      const options = Array.from({ length: 1 + r.below(3) }, (_, i) => ({ optionId: `o${i}`, name: text(r), kind: r.pick(["allow_once", "allow_always", "reject_once", "reject_always"]) }));
      return ["RequestPermissionRequest", "RequestPermissionRequest", { sessionId: "s", toolCall: toolCall(r, true), options }];
    }
    default:
      return ["RequestPermissionResponse", "RequestPermissionResponse", { outcome: r.chance(50) ? { outcome: "cancelled" } : { outcome: "selected", optionId: "o1" } }];
  }
}

function canonical(version: ProtocolVersion, type: string, v: Plain): string {
  const codec = CODECS.get(version)?.get(type);
  assert.ok(codec !== undefined);
  const r = codec.parse(JSON.stringify(v));
  if (!r.ok) assert.fail(`generated value does not parse: ${r.error.kind} at ${r.error.path}`);
  assert.deepEqual(r.warnings, []);
  return codec.serialize(r.value);
}

test("v1 -> v2 -> v1 returns the original bytes for random values that convert", () => {
  const r = new Rng(0x1234abcd);
  for (let n = 0; n < 800; n++) {
    const [t1, t2, v] = v1Value(r);
    const original = canonical("v1", t1, v);
    const there = convert("v1", "v2", t1, original, t2);
    if (!there.ok) assert.fail(`${original} did not convert: ${there.error.kind} at ${there.error.path}: ${there.error.message}`);
    const back = convert("v2", "v1", t2, there.text, t1);
    if (!back.ok) assert.fail(`${there.text} did not convert back: ${back.error.message}`);
    assert.equal(back.text, original);
    const again = convert("v1", "v2", t1, back.text, t2);
    assert.ok(again.ok && again.text === there.text, "v2 -> v1 -> v2 is exact too");
  }
});

test("a terminal item anywhere is refused at that item, both ways", () => {
  const r = new Rng(0x7e570002);
  for (let n = 0; n < 200; n++) {
    const call = toolCall(r, false);
    const items = Array.from({ length: r.below(4) }, () => item(r));
    const at = r.below(items.length + 1);
    items.splice(at, 0, { type: "terminal", terminalId: "term_1" });
    call["content"] = items;
    for (const [from, to] of [["v1", "v2"], ["v2", "v1"]] as const) {
      const got = convert(from, to, "ToolCallUpdate", JSON.stringify(call));
      assert.ok(!got.ok, "a terminal item never converts");
      if (!got.ok) assert.deepEqual([got.error.kind, got.error.path], ["not_representable", `/content/${at}`]);
    }
  }
});

test("the bridge makes no text per chunk: 1000 chunks and one flush give one update", () => {
  const bridge = new Bridge({ cap: 64 });
  const first = bridge.push('{"sessionUpdate":"tool_call_update","toolCallId":"c","title":"T","content":[{"type":"terminal","terminalId":"t"}]}');
  assert.ok(first.ok && first.updates.length === 1);
  for (let i = 0; i < 1000; i++) {
    const r = bridge.push(`{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"${encodeBase64(new TextEncoder().encode(`line ${i}\n`))}"}`);
    assert.ok(r.ok && r.updates.length === 0);
  }
  const flushed = bridge.flush();
  assert.ok(flushed.ok && flushed.updates.length === 1);
  assert.match(flushed.updates[0] ?? "", /line 0\\n.*\[\.\.\. \d+ characters left out \.\.\.\].*line 999\\n/);
});

test("plain objects: integer-like member names and __proto__ keep their input order through convert and the bridge", () => {
  // Outputs checked against the Rust and Python adapters. JavaScript lists integer-like keys
  // first, so these exercise the hidden order record through every copy and edit.
  const update = '{"toolCallId":"c","title":"T","2":"b","1":"a","_meta":{"z":1,"10":2,"9":3},"__proto__":{"7":0,"x":1}}';
  const v1 = convert("v2", "v1", "ToolCallUpdate", update, "ToolCall");
  assert.ok(v1.ok);
  assert.equal(v1.text, '{"toolCallId":"c","title":"T","_meta":{"z":1,"10":2,"9":3},"2":"b","1":"a","__proto__":{"7":0,"x":1}}');
  const v2 = convert("v1", "v2", "ToolCall", v1.text, "ToolCallUpdate");
  // The canonical v2 form: known members first, then the unknown ones in their input order.
  assert.ok(v2.ok);
  assert.equal(v2.text, v1.text);
  const note = '{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"T","5":1,"content":[{"type":"content","content":{"type":"text","text":"hi","3":0,"a":1}}]},"1":true}';
  const n = convert("v1", "v2", "SessionNotification", note);
  assert.ok(n.ok);
  assert.equal(n.text, '{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c","title":"T","content":[{"type":"content","content":{"type":"text","text":"hi","3":0,"a":1}}],"5":1},"1":true}');
  const request = '{"sessionId":"s","9":1,"toolCall":{"toolCallId":"c","title":"T"},"1":2,"options":[{"optionId":"o","name":"Allow","kind":"allow_once"}]}';
  const q = convert("v1", "v2", "RequestPermissionRequest", request);
  assert.ok(q.ok);
  assert.equal(q.text, '{"sessionId":"s","title":"T","subject":{"type":"tool_call","toolCall":{"toolCallId":"c","title":"T"}},"options":[{"optionId":"o","name":"Allow","kind":"allow_once"}],"9":1,"1":2}');

  const bridge = new Bridge({ meta: true });
  const first = bridge.push('{"sessionUpdate":"tool_call_update","toolCallId":"c","title":"T","9":"x","content":[{"type":"terminal","terminalId":"t","_meta":{"2":0,"b":1}}],"_meta":{"5":1,"a":2},"__proto__":3}');
  assert.ok(first.ok);
  assert.deepEqual(first.updates, [
    '{"sessionUpdate":"tool_call","toolCallId":"c","title":"T","content":[{"type":"content","content":{"type":"text","text":""},"_meta":{"2":0,"b":1}}],"_meta":{"5":1,"a":2,"terminal_info":{"terminal_id":"t","cwd":null}},"9":"x","__proto__":3}',
  ]);
  const chunk = bridge.push(`{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"${encodeBase64(new TextEncoder().encode("hello\n"))}"}`);
  assert.ok(chunk.ok && chunk.updates.length === 0);
  const exit = bridge.push('{"sessionUpdate":"terminal_update","terminalId":"t","exitStatus":{"exitCode":0}}');
  assert.ok(exit.ok);
  assert.deepEqual(exit.updates, [
    '{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[{"type":"content","content":{"type":"text","text":"hello\\n[exit code 0]"},"_meta":{"2":0,"b":1}}],"_meta":{"terminal_output":{"terminal_id":"t","data":"hello\\n"},"terminal_exit":{"terminal_id":"t","exit_code":0,"signal":null}}}',
  ]);
});

test("convert takes a plain value (as JSON.parse gives it) as well as text", () => {
  const text = '{"toolCallId":"c","title":"T","content":[{"type":"content","content":{"type":"text","text":"hi"}}],"rawInput":{"cmd":"ls","n":[1,{"k":null}]},"x-unknown":{"a":1}}';
  const fromText = convert("v1", "v2", "ToolCall", text, "ToolCallUpdate");
  const fromValue = convert("v1", "v2", "ToolCall", JSON.parse(text), "ToolCallUpdate");
  assert.ok(fromText.ok && fromValue.ok);
  assert.equal(fromValue.text, fromText.text);
  const refused = convert("v2", "v1", "ToolCallUpdate", { toolCallId: "c", content: [{ type: "terminal", terminalId: "t" }] });
  assert.ok(!refused.ok);
  if (!refused.ok) assert.deepEqual([refused.error.kind, refused.error.path], ["not_representable", "/content/0"]);
});
