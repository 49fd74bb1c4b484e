// Unit tests of the generated TypeScript package, one behaviour each, named after the
// RFD sentence (or wire rule) they check.

import assert from "node:assert/strict";
import { test } from "node:test";
import { EXTRA, isUnknownVariant, keysOf } from "../../generated/typescript/src/index.js";
import * as v2 from "../../generated/typescript/src/v2.js";
import * as v1 from "../../generated/typescript/src/v1.js";

function ok<T>(r: { ok: true; value: T; warnings: unknown[] } | { ok: false; error: { kind: string; path: string; message: string } }): T {
  if (!r.ok) assert.fail(`unexpected error ${r.error.kind} at ${r.error.path}: ${r.error.message}`);
  return r.value;
}

test("an omitted patch field leaves the previous value unchanged; null clears; a value replaces", () => {
  const omitted = ok(v2.parseTerminalUpdate('{"terminalId":"t"}'));
  assert.equal("command" in omitted, false);
  const cleared = ok(v2.parseTerminalUpdate('{"terminalId":"t","command":null,"cwd":null,"output":null,"exitStatus":null,"_meta":null}'));
  assert.equal(cleared.command, null);
  assert.equal(cleared.output, null);
  assert.equal(v2.serializeTerminalUpdate(cleared), '{"terminalId":"t","command":null,"cwd":null,"output":null,"exitStatus":null,"_meta":null}');
  const set = ok(v2.parseTerminalUpdate('{"terminalId":"t","command":"cargo test"}'));
  assert.equal(set.command, "cargo test");
});

test("chunk data is decoded to bytes, and written back as canonical base64", () => {
  const u = ok(v2.parseSessionUpdate('{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"cGFzc2VkDQo="}'));
  assert.ok(v2.isKnownSessionUpdate(u));
  if (u.sessionUpdate !== "terminal_output_chunk") assert.fail("wrong variant");
  assert.deepEqual(u.data, new TextEncoder().encode("passed\r\n"));
  assert.equal(v2.serializeSessionUpdate(u), '{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"cGFzc2VkDQo="}');
});

test("non-canonical trailing bits are rejected with a pointer", () => {
  const r = v2.parseTerminalOutput('{"data":"aGVsbG9="}');
  assert.equal(r.ok, false);
  if (!r.ok) assert.deepEqual([r.error.kind, r.error.path], ["invalid_base64", "/data"]);
});

test("an unknown variant keeps its tag and whole payload, and a type guard narrows it", () => {
  const u = ok(v2.parseToolCallContent('{"title":"Tests","type":"_chart","2":1,"1":2}'));
  assert.ok(isUnknownVariant(u));
  assert.equal(v2.isKnownToolCallContent(u), false);
  if (isUnknownVariant(u)) assert.equal(u.tag, "_chart");
  assert.equal(v2.serializeToolCallContent(u), '{"type":"_chart","title":"Tests","2":1,"1":2}');
});

test("a known tag with a bad payload is an error, never unknown", () => {
  const r = v2.parseSessionUpdate('{"sessionUpdate":"terminal_update"}');
  assert.equal(r.ok, false);
  if (!r.ok) assert.deepEqual([r.error.kind, r.error.path], ["missing_field", "/terminalId"]);
});

test("unknown members are kept in input order after the known ones", () => {
  const t = ok(v2.parseTerminal('{"b":1,"terminalId":"t","a":2}'));
  assert.deepEqual(t[EXTRA], { b: 1, a: 2 });
  assert.deepEqual(keysOf(t[EXTRA] ?? {}), ["b", "a"]);
  assert.equal(v2.serializeTerminal(t), '{"terminalId":"t","b":1,"a":2}');
});

test("lenient members are dropped with a warning, never silently", () => {
  const r = v2.parseTerminalUpdate('{"terminalId":"t","cwd":"build","exitStatus":{"exitCode":9007199254740992}}');
  assert.ok(r.ok);
  if (r.ok) {
    assert.deepEqual(r.warnings.map((w) => [w.kind, w.path]), [["relative_path", "/cwd"], ["out_of_range", "/exitStatus/exitCode"]]);
    assert.equal(v2.serializeTerminalUpdate(r.value), '{"terminalId":"t","exitStatus":{}}');
  }
});

test("an unknown permission outcome is never treated as approval", () => {
  const r = ok(v2.parseRequestPermissionResponse('{"outcome":{"outcome":"_auto","optionId":"allow"}}'));
  assert.ok(isUnknownVariant(r.outcome));
  const selected = ok(v2.parseRequestPermissionOutcome('{"outcome":"selected","optionId":"allow"}'));
  assert.ok(!isUnknownVariant(selected) && selected.outcome === "selected" && selected.optionId === "allow");
});

test("parse accepts an already parsed value as well as text", () => {
  const r = ok(v2.parseCommandPermissionSubject({ command: "cargo test", cwd: "/workspace/project" }));
  assert.equal(r.cwd, "/workspace/project");
});

test("AbsolutePath checks its argument", () => {
  assert.equal(v2.AbsolutePath("C:\\work"), "C:\\work");
  assert.throws(() => v2.AbsolutePath("src"), RangeError);
});

test("v1 unions stay closed", () => {
  const r = v1.parseToolCallContent('{"type":"_chart"}');
  assert.equal(r.ok, false);
  if (!r.ok) assert.deepEqual([r.error.kind, r.error.path], ["unknown_variant", "/type"]);
});

test("the package entry and its v1/v2 modules export the user API; the codec is in acp-terminal/internal", async () => {
  const entry = await import("../../generated/typescript/src/index.js");
  const internal = await import("../../generated/typescript/src/internal.js");
  for (const [name, m] of [["index", entry], ["v2", v2], ["v1", v1], ["entry.v2", entry.v2]] as const) {
    const codec = Object.keys(m).filter((k) => /^(decode|encode)[A-Z]/.test(k) && k !== "decodeBase64" && k !== "encodeBase64");
    assert.deepEqual(codec, [], `${name} exports codec internals`);
  }
  for (const k of ["parseSessionUpdate", "serializeSessionUpdate", "isKnownSessionUpdate", "SESSION_UPDATE_TAGS", "TerminalId", "AbsolutePath", "EXTRA", "isUnknownVariant"]) {
    assert.ok(k in v2, `v2 lacks ${k}`);
  }
  for (const k of ["TerminalStore", "Transcript", "v1", "v2", "keysOf", "ORDER", "EXTRA", "isUnknownVariant", "describeProblem"]) assert.ok(k in entry, `the entry lacks ${k}`);
  for (const k of ["Cx", "Writer", "parseJson", "writeJson", "decodeText", "decodeValue", "CODECS"]) assert.ok(k in internal, `internal lacks ${k}`);
  assert.equal(typeof internal.v2.decodeSessionUpdate, "function");
  assert.equal(typeof internal.v2.encodeSessionUpdate, "function");
});
