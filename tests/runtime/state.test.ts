// The session state's limits on what appends and new ids add (`StateLimits`), with a table
// written here: upstream's schema has no text append, so the fixtures cannot pin `maxText`.
// The same cases are in test_runtime_state.py and in the Rust runtime's unit tests.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ParseResult } from "../../templates/typescript/runtime/errors.js";
import { parseJson } from "../../templates/typescript/runtime/json.js";
import { SessionState, type StateCodec, type StateLimits, stateLimitsFromJson } from "../../templates/typescript/runtime/state.js";
import { writeJson } from "../../templates/typescript/runtime/writer.js";

// One keyed target `note` with a text member, an array member and a bytes member, each appended.
const RULES = JSON.stringify({
  session: {
    targets: [{ name: "note", keyed: true }],
    rules: [
      { message: "Text", action: "append", target: "note", id: ["id"], field: ["text"], value: ["text"], appends: "text" },
      { message: "Item", action: "append", target: "note", id: ["id"], field: ["items"], value: ["item"], appends: "item" },
      { message: "Bytes", action: "append", target: "note", id: ["id"], field: ["data"], value: ["data"], appends: "bytes" },
    ],
  },
});

const identity: StateCodec = {
  parse: (input: string): ParseResult<unknown> => ({ ok: true, value: parseJson(input), warnings: [], warningsDropped: 0 }),
  serialize: (value: unknown) => writeJson(value as never),
};
const CODECS = new Map(["Text", "Item", "Bytes"].map((n) => [n, identity] as const));

function state(limits: Partial<StateLimits>): SessionState {
  return new SessionState(RULES, CODECS, limits);
}

function apply(s: SessionState, name: string, message: object): void {
  assert.ok(s.apply(name, JSON.stringify(message)).ok);
}

describe("session state limits", () => {
  test("text keeps the last code points", () => {
    const s = state({ maxText: 4 });
    for (const part of ["ab", "cd\u00e9", "f\u{1f600}g"]) apply(s, "Text", { id: "n1", text: part });
    assert.deepEqual(s.get("note", "n1"), { id: "n1", text: "\u00e9f\u{1f600}g" });
    assert.deepEqual(s.counters(), { targetsDropped: 0, itemsDropped: 0, bytesDropped: 0, textDropped: 4, membersDropped: 0 });
  });

  test("items, bytes and targets keep the last", () => {
    const s = state({ maxTargets: 2, maxItems: 2, maxBytes: 3 });
    for (let i = 0; i < 3; i++) apply(s, "Item", { id: "n1", item: i });
    apply(s, "Bytes", { id: "n1", data: "AQIDBA==" }); // 01 02 03 04
    assert.deepEqual(s.get("note", "n1"), { id: "n1", items: [1, 2], data: "AgME" });
    for (const n of ["n2", "n3"]) apply(s, "Item", { id: n, item: n });
    assert.deepEqual(s.snapshot(), { session: { note: { n2: { id: "n2", items: ["n2"] }, n3: { id: "n3", items: ["n3"] } } } });
    assert.deepEqual(s.counters(), { targetsDropped: 1, itemsDropped: 1, bytesDropped: 1, textDropped: 0, membersDropped: 0 });
  });

  test("bytes dropped across many chunks keep the last ones", () => {
    const s = state({ maxBytes: 5 });
    for (const data of ["AQ==", "AgM=", "BAUG", "Bw=="]) apply(s, "Bytes", { id: "n1", data }); // 01 | 02 03 | 04 05 06 | 07
    assert.deepEqual(s.get("note", "n1"), { id: "n1", data: "AwQFBgc=" }); // 03 04 05 06 07
    assert.equal(s.counters().bytesDropped, 2);
  });

  test("an append at the bytes limit costs its chunk, not the limit (counted, not timed)", () => {
    // 20,000 appends of 3 bytes past a limit of 4,096: dropping the first bytes never moves
    // what is kept on every append (that would be 4,096 bytes each, 82 MB here).
    const s = state({ maxBytes: 4096 });
    const all: number[] = [];
    for (let i = 0; i < 20000; i++) {
      const chunk = [i % 251, i % 241, i % 239];
      all.push(...chunk);
      apply(s, "Bytes", { id: "n1", data: Buffer.from(chunk).toString("base64") });
    }
    assert.ok(s.work <= 4 * all.length, `work ${s.work} for ${all.length} bytes appended`);
    assert.deepEqual(s.get("note", "n1"), { id: "n1", data: Buffer.from(all.slice(-4096)).toString("base64") });
    assert.equal(s.counters().bytesDropped, all.length - 4096);
  });

  test("an append at the text limit costs its chunk, not the limit (counted, not timed)", () => {
    // 20,000 appends of 2 or 3 code points past a limit of 4,096: counting the whole text on
    // every append would go over about 82 million units here.
    const s = state({ maxText: 4096 });
    let all = "";
    for (let i = 0; i < 20000; i++) {
      const part = i % 7 === 0 ? "\u00e9\u{1f600}c" : "ab";
      all += part;
      apply(s, "Text", { id: "n1", text: part });
    }
    assert.ok(s.work <= 32 * all.length, `work ${s.work} for ${all.length} units appended`);
    const points = [...all];
    assert.deepEqual(s.get("note", "n1"), { id: "n1", text: points.slice(-4096).join("") });
    assert.equal(s.counters().textDropped, points.length - 4096);
  });

  test("many item appends at the limit keep the last items, and a restore goes on the same", () => {
    const s = state({ maxItems: 64 });
    for (let i = 0; i < 20000; i++) apply(s, "Item", { id: "n1", item: i });
    const kept = Array.from({ length: 64 }, (_, k) => 20000 - 64 + k);
    assert.deepEqual(s.get("note", "n1"), { id: "n1", items: kept });
    assert.equal(s.counters().itemsDropped, 20000 - 64);
    assert.ok(s.work <= 4 * 20000, `work ${s.work} for 20000 items appended`);
    const again = state({ maxItems: 64 });
    assert.deepEqual(again.restore(s.snapshot()), { ok: true });
    for (const x of [s, again]) apply(x, "Item", { id: "n1", item: "last" });
    assert.deepEqual(again.get("note", "n1"), s.get("note", "n1"));
  });

  test("a chunk longer than the bytes limit keeps its last bytes", () => {
    const s = state({ maxBytes: 2 });
    apply(s, "Bytes", { id: "n1", data: "AQ==" }); // 01
    apply(s, "Bytes", { id: "n1", data: "AgMEBQ==" }); // 02 03 04 05
    assert.deepEqual(s.get("note", "n1"), { id: "n1", data: "BAU=" }); // 04 05
    assert.equal(s.counters().bytesDropped, 3);
    apply(s, "Bytes", { id: "n1", data: "Bg==" }); // 06
    assert.deepEqual(s.get("note", "n1"), { id: "n1", data: "BQY=" }); // 05 06
  });

  test("a limit of zero keeps nothing", () => {
    const s = state({ maxTargets: 0 });
    apply(s, "Text", { id: "n1", text: "a" });
    assert.deepEqual(s.snapshot(), { session: { note: {} } });
    assert.equal(s.counters().targetsDropped, 1);
  });

  test("a limit that is not a whole number is refused", () => {
    for (const bad of [-1, 1.5, Number.NaN]) assert.throws(() => state({ maxItems: bad }), /maxItems must be a whole number/);
  });
});

test("limits from JSON take the defaults and name what is wrong", () => {
  const got = stateLimitsFromJson(parseJson('{"maxBytes":0,"maxItems":7}'));
  assert.ok(got.ok);
  assert.deepEqual({ ...got.limits }, { maxTargets: 4096, maxItems: 7, maxBytes: 0, maxText: 1048576, maxMembers: 256 });
  const top = stateLimitsFromJson(parseJson('{"maxMembers":9007199254740991}'));
  assert.ok(top.ok && top.limits.maxMembers === Number.MAX_SAFE_INTEGER);
  for (const [text, kind, path] of [
    ["[]", "wrong_type", ""],
    ['{"maxBites":1}', "forbidden_member", "/maxBites"], ['{"maxText":1.5}', "wrong_type", "/maxText"], ['{"maxTargets":-1}', "out_of_range", "/maxTargets"],
    // Past 2^53 - 1 in all three languages: the SessionState constructor would refuse it.
    ['{"maxMembers":9007199254740992}', "out_of_range", "/maxMembers"],
    ['{"maxMembers":1e20}', "out_of_range", "/maxMembers"],
  ] as const) {
    const r = stateLimitsFromJson(parseJson(text));
    assert.ok(!r.ok, text);
    assert.deepEqual([r.error.kind, r.error.path], [kind, path], text);
  }
});
