// The store's guarantees (docs/CLIENTS.md, "The store's guarantees"): ingest and linking grow linearly
// (the work for 8n against n, counted, never timed), memory stays close to the bytes retained,
// limits hold, applyText never throws, and the transcript is built only when asked for.

import assert from "node:assert/strict";
import { test } from "node:test";
import { encodeBase64 } from "../../generated/typescript/src/runtime/base64.js";
import type { Problem } from "../../generated/typescript/src/runtime/errors.js";
import { MAX_LINE_LENGTH, MAX_TEXT_LENGTH, Transcript } from "../../generated/typescript/src/transcript.js";
import { type ApplyResult, ByteLog, DEFAULT_LIMITS, type Limits, type TerminalState, TerminalStore } from "../../generated/typescript/src/store.js";
import { type UpdateSessionNotification, parseSessionUpdate, parseUpdateSessionNotification } from "../../generated/typescript/src/v2.js";

const unlimited = { maxTerminals: Infinity, maxRetainedBytes: Infinity, maxTotalBytes: Infinity, maxWarnings: Infinity };

/**
 * `f(n)` returns the work a run costs: the text it decoded plus the store's work counter (and what
 * it read). Linear work gives 8 for 8n against n (a little more where a buffer threshold is crossed
 * a whole number of times); quadratic work 64. Counted, never timed (`cargo xtask bench` times the
 * store), so the bound is tight and a loaded machine cannot fail it.
 */
function assertLinear(what: string, n: number, f: (n: number) => number): void {
  const small = f(n);
  const large = f(8 * n);
  const ratio = large / small;
  assert.ok(ratio >= 7 && ratio <= 10, `${what}: 8n took ${ratio.toFixed(2)}x the work of n (${small} then ${large}; linear is 8x)`);
}

/** Applies every text to `store`; returns the text decoded plus the store's work. */
function applyAll(store: TerminalStore, texts: readonly string[]): number {
  let decoded = 0;
  for (const t of texts) {
    decoded += t.length;
    assert.ok(store.applyText(t).ok);
  }
  return decoded + store.work;
}

const chunk = (id: string, data: Uint8Array): string =>
  `{"sessionUpdate":"terminal_output_chunk","terminalId":"${id}","data":"${encodeBase64(data)}"}`;
const linkChunk = (call: string, id: string): string =>
  `{"sessionUpdate":"tool_call_content_chunk","toolCallId":"${call}","content":{"type":"terminal","terminalId":"${id}"}}`;
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

test("one-byte chunks to n terminals: linear", () => {
  assertLinear("one-byte chunks to n terminals", 2000, (n) => {
    const texts = Array.from({ length: n }, (_, i) => chunk(`t${i}`, bytes("x")));
    const store = new TerminalStore(unlimited);
    const work = applyAll(store, texts);
    assert.equal([...store.terminals()].length, n);
    return work;
  });
});

test("n chunks to one terminal: linear", () => {
  assertLinear("n chunks to one terminal", 5000, (n) => {
    const texts = Array.from({ length: n }, () => chunk("t", bytes("line of output\r\n")));
    const store = new TerminalStore(unlimited);
    const work = applyAll(store, texts);
    assert.equal(store.terminal("t")?.output.length, 16 * n);
    return work;
  });
});

test("n content chunks linking one tool call: linear", () => {
  assertLinear("n content chunks to one tool call", 2000, (n) => {
    const texts = Array.from({ length: n }, (_, i) => linkChunk("call", `t${i}`));
    const store = new TerminalStore(unlimited);
    const work = applyAll(store, texts);
    for (const [, t] of store.terminals()) assert.equal(t.toolCalls.size, 1);
    return work;
  });
});

test("one tool_call_update with n references (each twice): linear", () => {
  assertLinear("one tool_call_update with n references", 2000, (n) => {
    const items = Array.from({ length: 2 * n }, (_, i) => `{"type":"terminal","terminalId":"t${i % n}"}`);
    const text = `{"sessionUpdate":"tool_call_update","toolCallId":"call","content":[${items.join(",")}]}`;
    const store = new TerminalStore(unlimited);
    // The second relinks: unlinks n, links n.
    const work = applyAll(store, [text, text]);
    assert.equal([...store.terminals()].length, n);
    return work;
  });
});

test("tiny chunks cost little more than their bytes; one byte holds no large block", () => {
  const log = new ByteLog();
  const one = new Uint8Array(1);
  for (let i = 0; i < 1_000_000; i++) {
    one[0] = i % 251;
    log.append(one);
  }
  assert.equal(log.length, 1_000_000);
  assert.ok(log.capacity <= 1.05 * log.length, `capacity ${log.capacity}`);
  const store = new TerminalStore();
  for (let i = 0; i < 1000; i++) store.applyText(chunk(`t${i}`, bytes("x")));
  let held = 0;
  for (const [, t] of store.terminals()) held += t.output.capacity;
  assert.ok(held <= 1000 * 16, `1000 one-byte terminals hold ${held} bytes of blocks`);
});

test("the byte limit keeps the tail, counts the rest, bounds memory, and the transcript sees every byte", () => {
  const store = new TerminalStore({ maxRetainedBytes: 10_000 });
  const all: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const data = Uint8Array.from({ length: (i % 97) + 1 }, (_, j) => 97 + ((i + j) % 26));
    all.push(...data);
    assert.ok(store.applyText(chunk("t", data)).ok);
    const t = store.terminal("t");
    assert.ok(t !== undefined && t.output.length <= 10_000 && t.output.capacity <= 10_000 + 2 * 4096);
  }
  const t = store.terminal("t");
  assert.ok(t !== undefined);
  assert.deepEqual([...t.output.toBytes()], all.slice(all.length - 10_000));
  assert.equal(t.droppedBytes, all.length - 10_000);
  // The transcript covers every byte, not only the retained tail (lines wrap at the
  // transcript's line length limit).
  const whole = new Transcript();
  whole.push(Uint8Array.from(all));
  assert.equal(t.transcript, whole.text);
  assert.ok(store.applyText(chunk("t", new Uint8Array(1 << 20).fill(122))).ok);
  assert.equal(t.output.length, 10_000);
  assert.ok(t.output.capacity <= 10_000 + 2 * 4096, `capacity ${t.output.capacity}`);
});

test("the transcript read between chunks equals one rendering of every byte", () => {
  const store = new TerminalStore();
  const eager = new Transcript();
  const pieces = ["a\x1b[3", "1mred\x1b[0m\r\n", "\u4e2d", "\rX", "\x1b]0;t\x1b\\done\n"].map(bytes);
  for (let i = 0; i < 200; i++) {
    const p = pieces[i % pieces.length] as Uint8Array;
    store.applyText(chunk("t", p));
    eager.push(p);
    if (i % 7 === 0) assert.equal(store.terminal("t")?.transcript, eager.text);
  }
  assert.equal(store.terminal("t")?.transcript, eager.text);
});

test("applyText never throws: a runtime failure is an error result, and later calls work", () => {
  const store = new TerminalStore({ maxRetainedBytes: 4 });
  assert.ok(store.applyText(chunk("t", bytes("abc"))).ok);
  const push = Transcript.prototype.push;
  Transcript.prototype.push = () => {
    throw new RangeError("Invalid string length");
  };
  try {
    const r = store.applyText(chunk("t", bytes("defgh")));
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.error.message, /Invalid string length/);
    // Nothing of the failed update was applied.
    assert.deepEqual(store.terminal("t")?.output.toBytes(), bytes("abc"));
  } finally {
    Transcript.prototype.push = push;
  }
  assert.ok(store.applyText(chunk("t", bytes("de"))).ok);
  assert.deepEqual(store.terminal("t")?.output.toBytes(), bytes("bcde"));
  assert.equal(typeof store.terminal("t")?.transcript, "string");
});

test("sessions: the first notification binds; another session is rejected; a failed one does not bind", () => {
  const store = new TerminalStore();
  const note = (s: string, data: string): string =>
    `{"sessionId":"${s}","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"${data}"}}`;
  assert.equal(store.applyNotificationText(note("s1", "!")).ok, false);
  assert.equal(store.sessionId, null);
  assert.ok(store.applyNotificationText(note("s2", "YQ==")).ok);
  assert.equal(store.sessionId, "s2");
  const r = store.applyNotificationText(note("s1", "YQ=="));
  assert.ok(!r.ok && r.error.kind === "session_mismatch" && r.error.path === "/sessionId");
  if (!r.ok) assert.match(r.error.message, /one store per session/);
  assert.deepEqual(store.terminal("t")?.output.toBytes(), bytes("a"));
});

test("many invalid lenient items are counted, not all kept", () => {
  const items = Array.from({ length: 100_000 }, () => "5").join(",");
  const store = new TerminalStore();
  const r = store.applyText(`{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[${items}]}`);
  assert.ok(r.ok);
  if (r.ok) assert.equal(r.warnings.length, DEFAULT_LIMITS.maxWarnings);
  assert.equal(store.counters.warningsDropped, 100_000 - DEFAULT_LIMITS.maxWarnings);
});

test("_meta is patched by key (the session state's rule), the other members replaced", () => {
  const store = new TerminalStore();
  store.applyText('{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"a":1,"b":2},"size":{"cols":80,"rows":24},"cwd":"/a"}');
  store.applyText('{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"b":null,"c":3},"cwd":null}');
  const t = store.terminal("t");
  const meta: unknown = t?.meta;
  // JSON objects are Maps or plain objects, depending on the package version.
  const entries = meta instanceof Map ? [...meta.entries()] : Object.entries(meta ?? {});
  // Upstream's meta-patch rule (docs/WIRE.md): by key, null removes.
  assert.deepEqual(entries, [["a", 1], ["c", 3]]);
  assert.deepEqual([t?.size?.cols, t?.size?.rows], [80, 24], "omitted: unchanged");
  assert.equal(t?.cwd, null, "null: cleared");
  store.applyText('{"sessionUpdate":"terminal_update","terminalId":"t","_meta":null}');
  assert.equal(store.terminal("t")?.meta, null, "null clears the whole _meta");
});

test("an Agent cannot grow a terminal with new members or _meta keys past maxMembers", () => {
  const store = new TerminalStore({ maxMembers: 8 });
  for (let i = 0; i < 2000; i++) store.applyText(`{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"k${i}":${i}},"x${i}":${i}}`);
  store.applyText('{"sessionUpdate":"terminal_update","terminalId":"t","_meta":{"k0":null,"late":1}}');
  const meta: unknown = store.terminal("t")?.meta;
  const keys = meta instanceof Map ? [...meta.keys()] : Object.keys(meta ?? {});
  assert.deepEqual(keys, ["k1", "k2", "k3", "k4", "k5", "k6", "k7", "late"], "the first keys stay; a key cleared frees its place");
  // Eight unknown members, then nothing new.
  assert.equal(store.counters.membersDropped, (2000 - 8) * 2);
});

// --- the fast path of a plain terminal_output_chunk ---------------------------------------
//
// `applyNotificationText` and `applyText` read a `terminal_output_chunk` written as senders
// write it without the generic decoder. Every outcome must be the generic path's: the
// reference below parses with the generated parsers, applies with `apply` and checks the
// session itself, never touching the fast path.

function keepWarnings(store: TerminalStore, r: { warnings: Problem[]; warningsDropped: number }): Problem[] {
  store.counters.warningsDropped += r.warningsDropped;
  return r.warnings;
}

/** The generic route: generated parser, `apply`, the session check done here. */
class Reference {
  readonly store: TerminalStore;
  session: string | null = null;

  constructor(limits: Partial<Limits>) {
    this.store = new TerminalStore(limits);
  }

  notification(text: string): ApplyResult {
    const r = parseUpdateSessionNotification(text, { maxWarnings: this.store.limits.maxWarnings });
    if (!r.ok) return r;
    const id = r.value.sessionId;
    if (this.session !== null && this.session !== id) {
      const message = `this store holds session ${JSON.stringify(this.session)}, not ${JSON.stringify(id)}; use one store per session`;
      return { ok: false, error: { kind: "session_mismatch", path: "/sessionId", message } };
    }
    this.session = id;
    this.store.apply(r.value.update);
    return { ok: true, warnings: keepWarnings(this.store, r) };
  }

  update(text: string): ApplyResult {
    const r = parseSessionUpdate(text, { maxWarnings: this.store.limits.maxWarnings });
    if (!r.ok) return r;
    this.store.apply(r.value);
    return { ok: true, warnings: keepWarnings(this.store, r) };
  }
}

function state(store: TerminalStore): unknown {
  return {
    counters: { ...store.counters },
    terminals: [...store.terminals()].map(([id, t]) => [
      id,
      Buffer.from(t.output.toBytes()).toString("hex"),
      t.droppedBytes,
      t.command,
      t.cwd,
      t.exitStatus,
      t.size,
      t.meta,
      t.sortedToolCalls(),
    ]),
  };
}

/** A seeded generator (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Terminal and session ids as JSON text: plain ones (the fast path's), escaped ones (the same
// strings written another way, or strings the fast path cannot slice), non-ASCII and non-BMP
// characters (a surrogate pair: not for the fast path), invalid JSON (a raw control character,
// a lone surrogate), and values of the wrong type.
const IDS = [
  '"term_0"', '"term_0"', '"term_1"', '"t2"', '""', '"é"', '"中文"', '"😀"', '"a b"', '"x/y"', '"\x7f"',
  '"term_\\u0030"', '"t\\"q"', '"back\\\\slash"', '"\\n"', '"\\ud83d\\ude00"', '"\\ud800"',
  '"t\x01"', '"\ud800"', "5", "null", "{}", '"t2"',
];
const SESSIONS = ['"sess_1"', '"sess_1"', '"sess_1"', '"sess_1"', '"sess_1"', '"sess_1"', '"sess_2"', '"sess_\\u0031"', '"s\\"1"', '"é"', "7"];
const BAD_DATA = [
  '"!"', '"YQ"', '"YR=="', '"YQ="', '"Y==="', '"YWJj===="', '"YW Jj"', '"YW-_"', '"YWJj\\n"',
  '"\\u0059Q=="', '"YQ\\u003d\\u003d"', '"\\/w=="', '"YQ==\\"}}"', '"é"', '"YQ==YQ=="', "5", "null", "[]",
];

function generator(seed: number): { notification(): string; update(): string } {
  const random = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const randomBytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
  const data = (): string => {
    const r = random();
    if (r < 0.15) return pick(BAD_DATA);
    if (r < 0.2) {
      // Long data the slice would take whole: another member after it, escapes in it.
      const a = encodeBase64(randomBytes(300));
      const b = encodeBase64(randomBytes(300));
      return pick([`"${a}","x":"${b}A"`, `"${a}\\"${b}"`, `"${a}\\u0041AAA${b}"`, `"${a}\\/${b}"`]);
    }
    return `"${encodeBase64(randomBytes(pick([0, 1, 2, 3, 5, 16, 100, 700, 5000])))}"`;
  };
  const update = (): string => {
    const t = pick(IDS);
    const d = data();
    const plain = `{"sessionUpdate":"terminal_output_chunk","terminalId":${t},"data":${d}}`;
    if (random() < 0.55) return plain;
    return pick([
      `{"sessionUpdate": "terminal_output_chunk", "terminalId": ${t}, "data": ${d}}`,
      `{"sessionUpdate":"terminal_output_chunk","terminalId":${t},"data":${d} }`,
      `{"terminalId":${t},"sessionUpdate":"terminal_output_chunk","data":${d}}`,
      `{"sessionUpdate":"terminal_output_chunk","data":${d},"terminalId":${t}}`,
      `{"sessionUpdate":"terminal_output_chunk","terminalId":${t},"data":${d},"extra":1}`,
      `{"sessionUpdate":"terminal_output_chunk","terminalId":${t},"data":${d},"_meta":{"a":1}}`,
      `{"sessionUpdate":"terminal_output_chunk","terminalId":${t},"data":${d},"_meta":5}`,
      `{"sessionUpdate":"terminal_output_chunk","terminalId":${t},"data":${d},"data":${d}}`,
      `{"sessionUpdate":"terminal_output_chunk","terminalId":${t},"terminalId":${t},"data":${d}}`,
      `{"sessionUpdate":"terminal_output_chunk","terminalId":${t}}`,
      `{"sessionUpdate":"terminal_output_chunk","data":${d}}`,
      `{"sessionUpdate":"terminal_output_chunk","terminalId":${t},"data":"}`,
      `{"sessionUpdate":"terminal_output_chunk","terminalId":${t},"data":${d}`,
      `{"sessionUpdate":"terminal_output_chunk","terminalId":${t},"data":${d}}}`,
      `{"sessionUpdate":"Terminal_output_chunk","terminalId":${t},"data":${d}}`,
      `{"sessionUpdate":"terminal_update","terminalId":${t},"command":"make","output":{"data":${d}}}`,
      `{"sessionUpdate":"terminal_update","terminalId":${t},"output":null,"exitStatus":{"exitCode":0}}`,
      `{"sessionUpdate":"tool_call_content_chunk","toolCallId":"c1","content":{"type":"terminal","terminalId":${t}}}`,
      '{"sessionUpdate":"tool_call_update","toolCallId":"c2","content":[5,5,5]}',
      '{"sessionUpdate":"tool_call_update","toolCallId":"c1","content":null}',
      '{"sessionUpdate":"something_new","terminalId":"term_0"}',
      `${plain}\n`,
      ` ${plain}`,
      plain.slice(0, -1),
      "[]",
    ]);
  };
  const notification = (): string => {
    const s = pick(SESSIONS);
    const u = update();
    if (random() < 0.75) return `{"sessionId":${s},"update":${u}}`;
    return pick([
      `{"update":${u},"sessionId":${s}}`,
      `{"sessionId": ${s}, "update": ${u}}`,
      `{"sessionId":${s},"update":${u},"_meta":{"k":[1]}}`,
      `{"sessionId":${s},"update":${u},"extra":true}`,
      `{"sessionId":${s},"sessionId":${s},"update":${u}}`,
      `{"sessionId":${s}}`,
      `{"sessionId":${s},"update":${u}}\n`,
      `{"sessionId":${s},"update":${u}} x`,
    ]);
  };
  return { notification, update };
}

const outcome = (r: ApplyResult): unknown => (r.ok ? ["ok", r.warnings] : ["error", r.error.kind, r.error.path, r.error.message]);

for (const limits of [
  {},
  { maxTerminals: 3, maxRetainedBytes: 64, maxWarnings: 1 },
  { maxTerminals: 0, maxRetainedBytes: 0, maxWarnings: 0 },
  { maxTerminals: 2, maxRetainedBytes: 1000, maxWarnings: 2 },
]) {
  test(`the fast path gives the generic path's outcome for every text (limits ${JSON.stringify(limits)})`, () => {
    const gen = generator(20240611 + (limits.maxTerminals ?? 1024));
    const fast = new TerminalStore(limits);
    const reference = new Reference(limits);
    const fastUpdates = new TerminalStore(limits);
    const referenceUpdates = new Reference(limits);
    const seen = new Set<string>();
    for (let step = 0; step < 2500; step++) {
      let text = gen.notification();
      const got = fast.applyNotificationText(text);
      assert.deepStrictEqual(outcome(got), outcome(reference.notification(text)), `step ${step}: ${text.slice(0, 200)}`);
      assert.equal(fast.sessionId, reference.session);
      seen.add(got.ok ? "ok" : got.error.kind);
      text = gen.update();
      const gotUpdate = fastUpdates.applyText(text);
      assert.deepStrictEqual(outcome(gotUpdate), outcome(referenceUpdates.update(text)), `step ${step}: ${text.slice(0, 200)}`);
      seen.add(gotUpdate.ok ? "ok" : gotUpdate.error.kind);
      if (step % 10 === 0) {
        assert.deepStrictEqual(state(fast), state(reference.store), `step ${step}`);
        assert.deepStrictEqual(state(fastUpdates), state(referenceUpdates.store), `step ${step}`);
      }
    }
    assert.deepStrictEqual(state(fast), state(reference.store));
    assert.deepStrictEqual(state(fastUpdates), state(referenceUpdates.store));
    for (const [a, b] of [[fast, reference.store], [fastUpdates, referenceUpdates.store]] as const) {
      assert.deepStrictEqual([...a.terminals()].map(([, t]) => t.transcript), [...b.terminals()].map(([, t]) => t.transcript));
    }
    // The generator reached what it is for: successes, base64 errors, sessions, JSON errors.
    for (const k of ["ok", "invalid_base64", "session_mismatch", "invalid_json", "wrong_type", "duplicate_key"]) {
      assert.ok(seen.has(k), `no ${k} in ${[...seen].join(", ")}`);
    }
  });
}

test("a plain chunk skips the generic decoder", () => {
  const store = new TerminalStore();
  let applied = 0;
  const apply = store.apply.bind(store);
  store.apply = (u) => {
    applied++;
    apply(u);
  };
  // The generic decoder hands strings of 64 characters or more to JSON.parse.
  const parse = JSON.parse;
  let parsed = 0;
  JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
    parsed++;
    return parse(...args);
  };
  const data = new Uint8Array(100).fill(0x61);
  const line = `{"sessionId":"sess_1","update":${chunk("term_0", data)}}`;
  try {
    assert.deepStrictEqual(store.applyNotificationText(line), { ok: true, warnings: [] });
    assert.deepStrictEqual(store.applyText(chunk("term_0", bytes("!"))), { ok: true, warnings: [] });
    assert.equal(applied, 0);
    assert.equal(parsed, 0);
    // The spies see what the fast path leaves to the generic one.
    assert.ok(store.applyNotificationText(line.replaceAll(":", ": ")).ok);
    assert.equal(store.applyText('{"sessionUpdate":"terminal_output_chunk","terminalId":"term_0","data":"IR=="}').ok, false);
    assert.equal(applied, 1);
    assert.ok(parsed > 0);
  } finally {
    JSON.parse = parse;
  }
  assert.equal(store.sessionId, "sess_1");
  assert.equal(store.terminal("term_0")?.output.length, 201);
});

/** Reads what is new since `at.pos` (finished lines, then the current line), as a display does after every chunk. */
function readNew(t: TerminalState, at: { pos: number; shown: string[] }): string {
  const r = t.readTranscript();
  at.shown.push(r.finishedSince(at.pos));
  at.pos = r.finishedLength;
  return r.currentLine;
}

test("reading what is new after every chunk through the store: linear", () => {
  assertLinear("reading what is new after every chunk", 4000, (n) => {
    const texts = Array.from({ length: n }, (_, i) => chunk("t", bytes(`line ${i}\r\nprogress ${i}%\r`)));
    const store = new TerminalStore();
    const at = { pos: 0, shown: [] as string[] };
    let line = "";
    let read = 0;
    for (const text of texts) {
      assert.ok(store.applyText(text).ok);
      line = readNew(store.terminal("t") as TerminalState, at);
      read += text.length + line.length;
    }
    const t = store.terminal("t") as TerminalState;
    const shown = at.shown.join("");
    assert.equal(shown + line, t.transcript);
    return read + shown.length + store.work + t.readTranscript().work;
  });
});

test("the store's limits set every transcript's limits, snapshots included", () => {
  assert.deepEqual([DEFAULT_LIMITS.maxLineLength, DEFAULT_LIMITS.maxTextLength], [MAX_LINE_LENGTH, MAX_TEXT_LENGTH]);
  const store = new TerminalStore({ maxLineLength: 4, maxTextLength: 8 });
  assert.ok(store.applyText(chunk("t", bytes("abcdefghij\n"))).ok);
  let t = store.terminal("t") as TerminalState;
  // "abcd\n" and "efgh\n" wrapped, then "ij\n" pushed the text past 8 code points.
  assert.equal(t.transcript, "efgh\nij\n");
  const r = t.readTranscript();
  assert.deepEqual([r.wrappedLines, r.droppedLines, r.droppedChars], [2, 1, 5]);
  assert.deepEqual(t.output.toBytes(), bytes("abcdefghij\n"), "the bytes are all retained");
  assert.ok(store.applyText('{"sessionUpdate":"terminal_update","terminalId":"t","output":{"data":"MTIzNDU2"}}').ok);
  t = store.terminal("t") as TerminalState;
  assert.equal(t.transcript, "1234\n56");
  assert.notEqual(t.readTranscript(), r, "a snapshot starts a new transcript");
  assert.deepEqual([t.readTranscript().wrappedLines, t.readTranscript().droppedLines], [1, 0]);
});

test("reading what is new rebuilds the text when old lines are left out", () => {
  const store = new TerminalStore({ maxTextLength: 100 });
  const at = { pos: 0, shown: [] as string[] };
  let line = "";
  let all = "";
  for (let i = 0; i < 200; i++) {
    const piece = `out ${i}\n${i % 3 === 0 ? "par" : ""}`;
    all += piece;
    assert.ok(store.applyText(chunk("t", bytes(piece))).ok);
    line = readNew(store.terminal("t") as TerminalState, at);
  }
  const eager = new Transcript();
  eager.push(bytes(all));
  const t = store.terminal("t") as TerminalState;
  assert.ok(t.readTranscript().droppedLines > 100);
  assert.equal(at.shown.join("") + line, eager.text, "every line was shown once, in order, before it was left out");
});

test("applyNotification binds and checks the session of a parsed value", () => {
  const one = '{"sessionId":"s1","update":{"sessionUpdate":"terminal_output_chunk","terminalId":"t","data":"YQ=="}}';
  const parse = (s: string): UpdateSessionNotification => {
    const r = parseUpdateSessionNotification(JSON.parse(s));
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  const store = new TerminalStore();
  assert.ok(store.applyNotification(parse(one)).ok);
  assert.equal(store.sessionId, "s1");
  assert.ok(store.applyNotification(parse(one)).ok);
  const other = one.replace("s1", "s2");
  const r = store.applyNotification(parse(other));
  assert.ok(!r.ok && r.error.kind === "session_mismatch" && r.error.path === "/sessionId");
  // The value route and the text route give the same error, and neither applies it.
  assert.deepEqual(store.applyNotificationText(other), r);
  assert.deepEqual(store.terminal("t")?.output.toBytes(), bytes("aa"));
});
