// Plain JavaScript values in and out: parse functions take what JSON.parse or an SDK hands over,
// with the text rules checked; free JSON is plain objects whose member order survives a round trip.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { runInNewContext } from "node:vm";
import { EXTRA, isUnknownVariant, keysOf, ORDER, type Json, type JsonObject } from "../../generated/typescript/src/index.js";
import * as v2 from "../../generated/typescript/src/v2.js";
import { MAX_DEPTH } from "../../generated/typescript/src/runtime/json.js";

type Result = ReturnType<typeof v2.parseSessionUpdate>;

function errorOf(r: { ok: boolean } & ({ ok: true } | { ok: false; error: { kind: string; path: string; message: string } })): [string, string, string] {
  if (r.ok) return assert.fail("expected an error");
  return [r.error.kind, r.error.path, r.error.message];
}

function value<T>(r: { ok: true; value: T } | { ok: false; error: { kind: string; path: string; message: string } }): T {
  if (!r.ok) assert.fail(`unexpected error ${r.error.kind} at ${r.error.path}: ${r.error.message}`);
  return r.value;
}

const update = (extra: Record<string, unknown>): unknown => ({ sessionUpdate: "terminal_update", terminalId: "term_001", ...extra });

describe("parse functions take plain values", () => {
  test("a JSON.parse value parses like its text, bytes included", () => {
    const text = '{"sessionUpdate":"terminal_update","terminalId":"term_001","command":null,"output":{"data":"aGk="},"_meta":{"a":[1,{"b":null}]},"z":true}';
    const fromText = value(v2.parseSessionUpdate(text));
    const fromValue = value(v2.parseSessionUpdate(JSON.parse(text)));
    assert.deepEqual(fromValue, fromText);
    assert.equal(v2.serializeSessionUpdate(fromValue), text);
  });

  test("a plain object literal parses, and free JSON comes back as plain objects", () => {
    const u = value(v2.parseSessionUpdate(update({ _meta: { trace: { id: 7 } } })));
    if (isUnknownVariant(u) || u.sessionUpdate !== "terminal_update") return assert.fail("wrong variant");
    assert.deepEqual(u._meta, { trace: { id: 7 } });
    assert.equal(Object.getPrototypeOf(u._meta), Object.prototype);
  });

  test("a plain object from another realm (a vm context) is a plain object", () => {
    const foreign: unknown = runInNewContext('({ terminalId: "t", data: "aGk=", _meta: { a: [1] } })');
    assert.equal(v2.serializeTerminalOutputChunk(value(v2.parseTerminalOutputChunk(foreign))), '{"terminalId":"t","data":"aGk=","_meta":{"a":[1]}}');
  });

  test("a member set to undefined counts as absent, as JSON.stringify has it", () => {
    const u = value(v2.parseSessionUpdate(update({ command: undefined, _meta: { a: undefined, b: 1 } })));
    assert.equal(v2.serializeSessionUpdate(u), '{"sessionUpdate":"terminal_update","terminalId":"term_001","_meta":{"b":1}}');
  });

  const bad: [string, unknown, string, string, RegExp][] = [
    ["a Buffer at the top", Buffer.from("{}"), "invalid_json", "", /got a Buffer \(binary data, not JSON\).*TextDecoder/],
    ["a Uint8Array at the top", new Uint8Array([123, 125]), "invalid_json", "", /got a Uint8Array/],
    ["a Uint8Array for a base64 member", { terminalId: "t", data: new Uint8Array([104, 105]) }, "invalid_json", "/data", /expected a base64 string, got a Uint8Array/],
    ["a Map for an object", new Map([["terminalId", "t"]]), "invalid_json", "", /expected an object, got a Map/],
    ["a class instance", new (class Chunk { terminalId = "t"; data = "aGk=" })(), "invalid_json", "", /expected an object, got an instance of class Chunk/],
    ["a Date inside free JSON", { terminalId: "t", data: "aGk=", _meta: { at: new Date(0) } }, "invalid_json", "/_meta/at", /expected a JSON value, got a Date/],
    ["NaN", { terminalId: "t", data: "aGk=", _meta: { n: Number.NaN } }, "invalid_json", "/_meta/n", /NaN is not a JSON number/],
    ["Infinity in an unknown member", { terminalId: "t", data: "aGk=", _meta: {} , x: [Infinity] }, "invalid_json", "/x/0", /Infinity is not a JSON number/],
    ["1e400 (Infinity)", { terminalId: "t", data: "aGk=", _meta: { n: 1e400 } }, "invalid_json", "/_meta/n", /Infinity/],
    ["a lone surrogate in a known string", { terminalId: "t\ud800", data: "aGk=" }, "invalid_json", "/terminalId", /lone surrogate/],
    ["a lone surrogate in an unknown member's name", { terminalId: "t", data: "aGk=", "k\udc00": 1 }, "invalid_json", "/k\udc00", /lone surrogate/],
    ["a bigint", { terminalId: "t", data: "aGk=", _meta: { n: 1n } }, "invalid_json", "/_meta/n", /got a bigint/],
    ["a function", { terminalId: "t", data: "aGk=", _meta: { f: () => 1 } }, "invalid_json", "/_meta/f", /got a function/],
    ["a hole in an array", { terminalId: "t", data: "aGk=", _meta: { a: [1, , 3] } }, "invalid_json", "/_meta/a/1", /got undefined/],
  ];
  for (const [name, input, kind, path, message] of bad) {
    test(`${name} is ${kind} at ${JSON.stringify(path)}, saying what it got`, () => {
      const [k, p, m] = errorOf(v2.parseTerminalOutputChunk(input));
      assert.deepEqual([k, p], [kind, path]);
      assert.match(m, message);
    });
  }

  test("an integer member holding NaN says so", () => {
    const [k, p, m] = errorOf(v2.parseTerminalExitStatus({ exitCode: Number.NaN }));
    assert.deepEqual([k, p], ["invalid_json", "/exitCode"]);
    assert.match(m, /NaN/);
  });

  test(`nesting: ${MAX_DEPTH} levels pass, ${MAX_DEPTH + 1} fail as for text, and a cycle is an error, not a crash`, () => {
    const nest = (n: number): Json => {
      let v: Json = 1;
      for (let i = 0; i < n; i++) v = [v];
      return v;
    };
    // The chunk object is level 1 and `_meta` level 2: `_meta.a` holds the rest.
    assert.ok(v2.parseTerminalOutputChunk({ terminalId: "t", data: "", _meta: { a: nest(MAX_DEPTH - 2) } }).ok);
    const text = JSON.stringify({ terminalId: "t", data: "", _meta: { a: nest(MAX_DEPTH - 1) } });
    assert.deepEqual(errorOf(v2.parseTerminalOutputChunk(text)).slice(0, 1), ["invalid_json"]);
    assert.deepEqual(errorOf(v2.parseTerminalOutputChunk(JSON.parse(text))).slice(0, 1), ["invalid_json"]);
    const cycle: { [k: string]: unknown } = {};
    cycle["self"] = cycle;
    const [k, p] = errorOf(v2.parseTerminalOutputChunk({ terminalId: "t", data: "", _meta: cycle }));
    assert.equal(k, "invalid_json");
    assert.ok(p.startsWith("/_meta/self/self/"));
  });

  test("the text route still rejects repeated member names; the value route cannot see them", () => {
    assert.deepEqual(errorOf(v2.parseTerminalOutputChunk('{"terminalId":"t","data":"","terminalId":"u"}')).slice(0, 2), ["duplicate_key", "/terminalId"]);
  });
});

describe("free JSON as plain objects keeps its bytes", () => {
  test("integer-like keys keep their input order through a hidden record", () => {
    const text = '{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"b":1,"2":2,"a":{"10":0,"9":1}},"7":"x","z":0}';
    const u = value(v2.parseSessionUpdate(text));
    assert.equal(v2.serializeSessionUpdate(u), text);
    if (isUnknownVariant(u) || u.sessionUpdate !== "terminal_update" || u._meta == null) return assert.fail("wrong variant");
    // JavaScript's own order puts integer-like keys first; the record is not enumerable.
    assert.deepEqual(Object.keys(u._meta), ["2", "b", "a"]);
    assert.deepEqual(keysOf(u._meta), ["b", "2", "a"]);
    assert.deepEqual(Object.getOwnPropertySymbols(u._meta), [ORDER]);
    assert.equal(Object.getOwnPropertyDescriptor(u._meta, ORDER)?.enumerable, false);
    assert.equal(JSON.stringify(u._meta), '{"2":2,"b":1,"a":{"9":1,"10":0}}');
    assert.deepEqual(keysOf(u[EXTRA] ?? {}), ["7", "z"]);
  });

  test("no record where JavaScript's order already is the input order", () => {
    const u = value(v2.parseTerminalOutputChunk('{"terminalId":"t","data":"","_meta":{"1":0,"2":0,"a":0}}'));
    assert.deepEqual(Object.getOwnPropertySymbols(u._meta ?? {}), []);
  });

  test("editing a parsed object: removed members go, added ones are written last", () => {
    const u = value(v2.parseTerminalOutputChunk('{"terminalId":"t","data":"","_meta":{"b":1,"2":2,"a":3}}'));
    const meta = u._meta as JsonObject;
    delete meta["b"];
    meta["c"] = 4;
    meta["1"] = 5;
    assert.equal(v2.serializeTerminalOutputChunk(u), '{"terminalId":"t","data":"","_meta":{"2":2,"a":3,"1":5,"c":4}}');
  });

  test("a copy has no record: its integer-like keys are written in JavaScript's order", () => {
    const u = value(v2.parseTerminalOutputChunk('{"terminalId":"t","data":"","_meta":{"b":1,"2":2}}'));
    const copy = { ...u, _meta: { ...u._meta } };
    assert.equal(v2.serializeTerminalOutputChunk(copy), '{"terminalId":"t","data":"","_meta":{"2":2,"b":1}}');
  });

  test("a member named __proto__ stays an ordinary member", () => {
    const text = '{"terminalId":"t","data":"","_meta":{"__proto__":{"polluted":true}},"__proto__":1}';
    const u = value(v2.parseTerminalOutputChunk(text));
    assert.equal(Object.getPrototypeOf(u._meta), Object.prototype);
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    assert.equal(v2.serializeTerminalOutputChunk(u), text);
    assert.equal(v2.serializeTerminalOutputChunk(value(v2.parseTerminalOutputChunk(JSON.parse(text)))), text);
  });

  test("a tag named like an Object.prototype property is not found on the prototype", () => {
    const r: Result = v2.parseSessionUpdate({ terminalId: "t" });
    assert.deepEqual(errorOf(r).slice(0, 2), ["missing_field", "/sessionUpdate"]);
    assert.deepEqual(errorOf(v2.parseSessionUpdate({ toString: "x" })).slice(0, 2), ["missing_field", "/sessionUpdate"]);
  });

  test("values built by hand serialize in their key order", () => {
    const u: v2.TerminalOutputChunk = { terminalId: v2.TerminalId("t"), data: new Uint8Array([104, 105]), _meta: { z: 1, a: [true, null] } };
    assert.equal(v2.serializeTerminalOutputChunk(u), '{"terminalId":"t","data":"aGk=","_meta":{"z":1,"a":[true,null]}}');
  });
});
