// cargo xtask bench, the Node side: every row of BENCHMARKS.md, ours (the generated
// package, compiled by xtask into DIST) against the baselines in the same process,
// interleaved rounds after a warm-up, median. Prints `RESULT {json}` lines for xtask.
//
// Usage: node bench.mjs speed DIST DIR ROUNDS | node bench.mjs mem DIST DIR ours|hand

import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { Buffer } from "node:buffer";
import stripAnsi from "strip-ansi";

const CHUNK = 4096;
const [mode, dist, dir, arg] = process.argv.slice(2);
if (mode === undefined || dist === undefined || dir === undefined || arg === undefined) {
  console.error("usage: node bench.mjs speed DIST DIR ROUNDS | mem DIST DIR ours|hand");
  process.exit(2);
}
const acp = await import(pathToFileURL(`${dist}/index.js`).href);
// The store's limits for every row: the hand-written client keeps every byte, so ours
// must too (the default 1 MiB per terminal would drop bytes, and render them into the
// transcript before they go: other work than the baseline's).
const KEEP_ALL = { maxRetainedBytes: 2 ** 30 };
// Upstream's v2 zod schemas: the SDK validates every incoming message with them.
const zod = await import(new URL("./node_modules/@agentclientprotocol/sdk/dist/v2/schema/zod.gen.js", import.meta.url).href);
const zNotification = zod.zUpdateSessionNotification;
if (zNotification === undefined) throw new Error("@agentclientprotocol/sdk has no zUpdateSessionNotification");

function version(pkg) {
  const url = new URL(`./node_modules/${pkg}/package.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")).version;
}

/** Reads a transcript's text whether it is a getter or a method. */
function textOf(t) {
  return typeof t.text === "function" ? t.text() : t.text;
}

function median(v) {
  const s = [...v].sort((x, y) => x - y);
  return s[s.length >> 1];
}

/** Times a and b alternately after one warm-up each; median seconds of each. */
function duel(rounds, a, b) {
  a();
  b();
  const ta = [];
  const tb = [];
  for (let i = 0; i < rounds; i++) {
    let t = process.hrtime.bigint();
    a();
    ta.push(Number(process.hrtime.bigint() - t) / 1e9);
    t = process.hrtime.bigint();
    b();
    tb.push(Number(process.hrtime.bigint() - t) / 1e9);
  }
  return [median(ta), median(tb)];
}

function report(row, bytes, [a, b], baseline) {
  const mib = bytes / (1024 * 1024);
  console.log(`RESULT ${JSON.stringify({ row, unit: "MiB/s", ours: mib / a, base: mib / b, baseline })}`);
}

// ------------------------------------------------------------ clients

/** A byte buffer that grows by doubling: what a hand-written client appends into. */
class Growable {
  constructor() {
    this.buf = new Uint8Array(0);
    this.len = 0;
  }
  append(bytes) {
    if (this.len + bytes.length > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + bytes.length, 4096));
      next.set(this.buf.subarray(0, this.len));
      this.buf = next;
    }
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }
  replace(bytes) {
    this.buf = new Uint8Array(bytes);
    this.len = bytes.length;
  }
  bytes() {
    return this.buf.subarray(0, this.len);
  }
}

function decode(b64) {
  return Buffer.from(b64, "base64");
}

/** Applies one parsed notification to plain state; returns [id, bytes, replaced] for output. */
function applyPlain(terminals, n) {
  const u = n.update;
  if (u.sessionUpdate === "terminal_output_chunk") {
    const bytes = decode(u.data);
    let t = terminals.get(u.terminalId);
    if (t === undefined) terminals.set(u.terminalId, (t = { out: new Growable(), command: null, cwd: null, exit: null }));
    t.out.append(bytes);
    return [u.terminalId, bytes, false];
  }
  if (u.sessionUpdate === "terminal_update") {
    let t = terminals.get(u.terminalId);
    if (t === undefined) terminals.set(u.terminalId, (t = { out: new Growable(), command: null, cwd: null, exit: null }));
    if (u.command !== undefined) t.command = u.command;
    if (u.cwd !== undefined) t.cwd = u.cwd;
    if (u.exitStatus !== undefined) t.exit = u.exitStatus;
    if (u.output !== undefined && u.output !== null) {
      const bytes = decode(u.output.data);
      t.out.replace(bytes);
      return [u.terminalId, bytes, true];
    }
  }
  return undefined;
}

function ours(lines) {
  const store = new acp.TerminalStore(KEEP_ALL);
  for (const l of lines) {
    const r = store.applyNotificationText(l);
    if (!r.ok) throw new Error(`ours: ${JSON.stringify(r.error)}`);
  }
  return store;
}

/** Hand-written: JSON.parse into plain objects, Buffer.from base64, append. */
function hand(lines, onOutput) {
  const terminals = new Map();
  for (const l of lines) {
    const r = applyPlain(terminals, JSON.parse(l));
    if (onOutput !== undefined && r !== undefined) onOutput(r);
  }
  return terminals;
}

/** Upstream's own bindings: JSON.parse, then the SDK's zod schema, then the same state. */
function peer(lines) {
  const terminals = new Map();
  for (const l of lines) applyPlain(terminals, zNotification.parse(JSON.parse(l)));
  return terminals;
}

/**
 * strip-ansi made stateful: a streaming TextDecoder (code points split across chunks
 * survive) and a carried-over tail when the text ends inside an escape sequence.
 */
class StripAnsiStream {
  constructor() {
    this.decoder = new TextDecoder("utf-8", { fatal: false });
    this.carry = "";
    this.parts = [];
  }
  push(bytes) {
    const s = this.carry + this.decoder.decode(bytes, { stream: true });
    const esc = s.lastIndexOf("\x1b");
    if (esc >= 0 && s.length - esc < 512 && stripAnsi(s.slice(esc)) === s.slice(esc)) {
      // The text ends in a sequence that is not complete yet: keep it for the next chunk.
      this.carry = s.slice(esc);
      this.parts.push(stripAnsi(s.slice(0, esc)));
    } else {
      this.carry = "";
      this.parts.push(stripAnsi(s));
    }
  }
  text() {
    return this.parts.join("") + stripAnsi(this.carry + this.decoder.decode());
  }
}

function chunksOf(bytes) {
  const out = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}

// ------------------------------------------------------------ modes

function speed() {
  const rounds = Number(arg);
  console.log(`VERSION node ${process.version}, @agentclientprotocol/sdk ${version("@agentclientprotocol/sdk")}, zod ${version("zod")}, strip-ansi ${version("strip-ansi")}`);
  const pty = new Uint8Array(readFileSync(`${dir}/pty.bin`));
  const jsonl = readFileSync(`${dir}/updates.jsonl`, "utf8");
  const lines = jsonl.split("\n").filter((l) => l.length > 0);
  const n = Buffer.byteLength(jsonl);

  // Same results first: the comparison is only fair if both sides did the work.
  const check = ours(lines);
  const h = hand(lines);
  const p = peer(lines);
  for (const [id, t] of check.terminals()) {
    const want = h.get(id).out.bytes();
    if (Buffer.compare(Buffer.from(t.output.toBytes()), Buffer.from(want)) !== 0) throw new Error(`ours and hand-written differ on ${id}`);
    if (Buffer.compare(Buffer.from(p.get(id).out.bytes()), Buffer.from(want)) !== 0) throw new Error(`upstream and hand-written differ on ${id}`);
  }

  report("ingest", n, duel(rounds, () => ours(lines), () => hand(lines)), "JSON.parse + Buffer.from + append");
  report("peer", n, duel(rounds, () => ours(lines), () => peer(lines)), "@agentclientprotocol/sdk v2 zod schema + Buffer.from");

  const chunks = chunksOf(pty);
  const transcript = () => {
    const t = new acp.Transcript();
    for (const c of chunks) t.push(c);
    return textOf(t);
  };
  const strip = () => {
    const s = new StripAnsiStream();
    for (const c of chunks) s.push(c);
    return s.text();
  };
  report("transcript", pty.length, duel(rounds, transcript, strip), "TextDecoder stream + strip-ansi with carry-over");
  const decodeAll = () => {
    const d = new TextDecoder();
    const parts = [];
    for (const c of chunks) parts.push(d.decode(c, { stream: true }));
    parts.push(d.decode());
    return parts.join("");
  };
  report("decode", pty.length, duel(rounds, transcript, decodeAll), "TextDecoder stream over the same chunks");

  const oursText = () => {
    const store = ours(lines);
    const texts = [];
    for (const [, t] of store.terminals()) texts.push(t.transcript);
    return texts;
  };
  const handText = () => {
    const strippers = new Map();
    hand(lines, ([id, bytes, replaced]) => {
      let s = strippers.get(id);
      if (s === undefined || replaced) strippers.set(id, (s = new StripAnsiStream()));
      s.push(bytes);
    });
    return [...strippers.values()].map((s) => s.text());
  };
  report("equal", n, duel(rounds, oursText, handText), "hand-written ingest + strip-ansi stream");

  const texts = chunks.map((c) => Buffer.from(c).toString("base64"));
  let b64 = 0;
  for (let i = 0; i < texts.length; i++) {
    b64 += texts[i].length;
    if (Buffer.compare(Buffer.from(acp.decodeBase64(texts[i])), Buffer.from(chunks[i])) !== 0) throw new Error("decodeBase64 is wrong");
  }
  let sink = 0;
  report(
    "base64",
    b64,
    duel(
      rounds,
      () => {
        for (const t of texts) sink += acp.decodeBase64(t).length;
      },
      () => {
        for (const t of texts) sink += Buffer.from(t, "base64").length;
      },
    ),
    "Buffer.from(text, 'base64')",
  );
  if (sink === 0) throw new Error("nothing decoded");
}

async function mem() {
  const lines = createInterface({ input: createReadStream(`${dir}/updates.jsonl`, { encoding: "utf8" }), crlfDelay: Infinity });
  let retained = 0;
  let held = 0;
  if (arg === "ours") {
    const store = new acp.TerminalStore(KEEP_ALL);
    for await (const l of lines) {
      const r = store.applyNotificationText(l);
      if (!r.ok) throw new Error(`ours: ${JSON.stringify(r.error)}`);
    }
    for (const [, t] of store.terminals()) {
      retained += t.output.length;
      held += t.output.capacity ?? t.output.length;
    }
  } else if (arg === "hand") {
    const terminals = new Map();
    for await (const l of lines) applyPlain(terminals, JSON.parse(l));
    for (const t of terminals.values()) {
      retained += t.out.len;
      held += t.out.buf.length;
    }
  } else {
    throw new Error(`mem: unknown client ${arg} (ours or hand)`);
  }
  console.log(`RESULT ${JSON.stringify({ mem: arg, peak_rss: process.resourceUsage().maxRSS * 1024, retained, held })}`);
}

if (mode === "speed") speed();
else if (mode === "mem") await mem();
else throw new Error(`unknown mode ${mode}`);
