// The TypeScript conformance testee: `node conformance.js [--emit FILE] PATH...`.
// Prints one line per failed case and ends with `N passed, N failed`; with `--emit`,
// writes the canonical output of every passing decode case as JSON lines.

import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Codec, CODECS } from "../../generated/typescript/src/registry.js";
import type { Problem } from "../../generated/typescript/src/runtime/errors.js";
import { getMember, type Json, type JsonObject, objectOf, parseJson } from "../../generated/typescript/src/runtime/json.js";
import { writeJson } from "../../generated/typescript/src/runtime/writer.js";
import { decodeBase64, encodeBase64 } from "../../generated/typescript/src/runtime/base64.js";
import { Transcript } from "../../generated/typescript/src/transcript.js";
import { type Limits, type StoreEvent, TerminalStore } from "../../generated/typescript/src/store.js";
import { Bridge, type ProtocolVersion, convert, ingestV1 } from "../../generated/typescript/src/adapters.js";

function vectorFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string): void => {
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p)) walk(join(p, name));
    } else if (p.endsWith(".json")) {
      out.push(p);
    }
  };
  for (const p of paths) {
    if (statSync(p).isDirectory()) walk(p);
    else out.push(p);
  }
  return out.sort();
}

const isObject = (o: Json | undefined): o is JsonObject => typeof o === "object" && o !== null && !Array.isArray(o);
const get = (o: Json | undefined, k: string): Json | undefined => (isObject(o) ? getMember(o, k) : undefined);
const str = (o: Json | undefined): string | undefined => (typeof o === "string" ? o : undefined);

function problems(v: Json | undefined): [string, string][] {
  return Array.isArray(v) ? v.map((w) => [str(get(w, "kind")) ?? "?", str(get(w, "path")) ?? "?"]) : [];
}

/** Evaluates one decode case: the canonical output when it passes, else throws the reason. */
export function decodeCase(c: JsonObject): string | undefined {
  const schema = str(get(c, "schema")) ?? "v2";
  const type = str(get(c, "type"));
  if (type === undefined) throw new Error("the case has no `type`");
  const codec = CODECS.get(schema)?.get(type);
  if (codec === undefined) throw new Error(`\`${type}\` is not a definition of schema ${JSON.stringify(schema)}`);
  const inputText = str(get(c, "inputText"));
  const input = get(c, "input");
  let text: string;
  if (inputText !== undefined) text = inputText;
  else if (input !== undefined) text = writeJson(input);
  else throw new Error("the case has neither `input` nor `inputText`");
  const expectValue = get(c, "expect") ?? {};
  if (!isObject(expectValue)) throw new Error("`expect` must be an object");
  const expect: JsonObject = expectValue;
  const got = codec.parse(text);
  const wantError = get(expect, "error");
  if (wantError !== undefined) {
    const want = [str(get(wantError, "kind")), str(get(wantError, "path"))];
    if (got.ok) throw new Error(`expected error ${JSON.stringify(want)}, got output ${codec.serialize(got.value)}`);
    if (got.error.kind !== want[0] || got.error.path !== want[1]) {
      throw new Error(`expected error ${want[0]} at ${JSON.stringify(want[1])}, got ${got.error.kind} at ${JSON.stringify(got.error.path)} (${got.error.message})`);
    }
    if (input !== undefined && inputText === undefined) valueRoutes(codec, text, input, { error: [got.error.kind, got.error.path] });
    return `error ${got.error.kind} ${got.error.path}`;
  }
  if (!got.ok) throw new Error(`unexpected error ${got.error.kind} at ${JSON.stringify(got.error.path)}: ${got.error.message}`);
  const out = codec.serialize(got.value);
  const wantOutput = get(expect, "output") ?? input;
  if (wantOutput === undefined) throw new Error("no expected output (give `expect.output` with `inputText`)");
  const wantText = writeJson(wantOutput);
  if (out !== wantText) throw new Error(`output differs\n    expected ${wantText}\n    got      ${out}`);
  const gotW = got.warnings.map((w: Problem) => [w.kind, w.path]);
  const wantW = problems(get(expect, "warnings"));
  if (JSON.stringify(gotW) !== JSON.stringify(wantW)) throw new Error(`warnings differ: expected ${JSON.stringify(wantW)}, got ${JSON.stringify(gotW)}`);
  if (input !== undefined && inputText === undefined) valueRoutes(codec, text, input, { out, warnings: gotW });
  const again = codec.parse(out);
  if (!again.ok) throw new Error(`the canonical output does not parse again: ${again.error.kind} at ${again.error.path}`);
  const out2 = codec.serialize(again.value);
  if (out2 !== out) throw new Error(`not a fixpoint: ${out} -> ${out2}`);
  return out;
}

/**
 * The same case given as an already parsed value, as `JSON.parse` or an SDK hands it
 * over: our parser's value (with its hidden member order) must give the identical
 * result, bytes included; `JSON.parse`'s value the same outcome and warnings, and the
 * same bytes unless an object has integer-like keys, whose order `JSON.parse` loses.
 * (Not for a string: given to `parse`, a string is JSON text.)
 */
function valueRoutes(codec: Codec, text: string, input: Json, want: { error: string[] } | { out: string; warnings: string[][] }): void {
  if (typeof input === "string") return; // a string given to `parse` is always JSON text
  const orderLost = /"(?:0|[1-9][0-9]*)":/.test(text);
  const routes: [string, unknown][] = [["our parser's value", input], ["JSON.parse's value", JSON.parse(text)]];
  for (const [route, value] of routes) {
    const viaJsonParse = route.startsWith("JSON");
    const r = codec.parse(value);
    if ("error" in want) {
      if (r.ok) throw new Error(`${route}: accepted what the text route rejects (${want.error.join(" at ")})`);
      const got = [r.error.kind, r.error.path];
      if (JSON.stringify(got) !== JSON.stringify(want.error) && !(viaJsonParse && orderLost)) {
        throw new Error(`${route}: expected error ${JSON.stringify(want.error)}, got ${JSON.stringify(got)} (${r.error.message})`);
      }
      continue;
    }
    if (!r.ok) throw new Error(`${route}: unexpected error ${r.error.kind} at ${JSON.stringify(r.error.path)}: ${r.error.message}`);
    const w = JSON.stringify(r.warnings.map((p: Problem) => [p.kind, p.path]));
    if (w !== JSON.stringify(want.warnings)) throw new Error(`${route}: warnings differ: ${w}`);
    const bytes = codec.serialize(r.value);
    if (bytes !== want.out && !(viaJsonParse && orderLost)) throw new Error(`${route}: output differs\n    expected ${want.out}\n    got      ${bytes}`);
  }
}

/** Evaluates one transcript case: its text when it passes; throws the reason when it fails. */
export function transcriptCase(c: JsonObject): string {
  const chunks = get(c, "chunks");
  const want = str(get(get(c, "expect"), "text"));
  if (!Array.isArray(chunks)) throw new Error("the case has no `chunks` array");
  if (want === undefined) throw new Error("the case has no `expect.text`");
  const t = new Transcript();
  chunks.forEach((chunk, i) => {
    if (typeof chunk !== "string") throw new Error(`chunk ${i} is not a string`);
    t.push(decodeBase64(chunk));
  });
  if (t.text !== want) throw new Error(`transcript differs\n    expected ${JSON.stringify(want)}\n    got      ${JSON.stringify(t.text)}`);
  return t.text;
}

/** Orders strings by Unicode code point (as Rust and Python do), not by UTF-16 unit. */
function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The canonical text of `v` with every object's members sorted by code point: what the runners emit for store views. */
function canonicalSorted(v: Json): string {
  const sort = (x: Json): Json =>
    isObject(x) ? objectOf(Object.keys(x).sort(byCodePoint).map((k) => [k, sort(x[k] as Json)] as const)) : Array.isArray(x) ? x.map(sort) : x;
  return writeJson(sort(v));
}

/** A store event as replay cases list it. */
function eventView(e: StoreEvent): Json {
  return e.kind === "evicted" ? { kind: "evicted", terminalId: e.terminalId, exited: e.exited } : { kind: "restarted", terminalId: e.terminalId };
}

/**
 * The view of a store's terminals that replay cases compare; `size` only when known, `droppedBytes` only when a
 * byte was dropped, `wrappedLines` only when a line wrapped, `droppedLines` and `droppedChars` only when a line was left out.
 */
export function storeView(store: TerminalStore): JsonObject {
  const out: [string, Json][] = [];
  for (const [id, t] of store.terminals()) {
    const e = t.exitStatus;
    const r = t.readTranscript();
    const view: [string, Json][] = [
      ["command", t.command],
      ["cwd", t.cwd],
      ["output", encodeBase64(t.output.toBytes())],
      ["exitStatus", e === null ? null : { exitCode: e.exitCode ?? null, signal: e.signal ?? null }],
      ["transcript", r.text],
      ["toolCallIds", t.sortedToolCalls()],
    ];
    if (t.size !== null) view.push(["size", { cols: t.size.cols, rows: t.size.rows }]);
    if (t.capabilities !== null) view.push(["capabilities", { cancel: t.canCancel }]);
    if (t.droppedBytes > 0) view.push(["droppedBytes", t.droppedBytes]);
    if (r.wrappedLines > 0) view.push(["wrappedLines", r.wrappedLines]);
    if (r.droppedLines > 0) view.push(["droppedLines", r.droppedLines], ["droppedChars", r.droppedChars]);
    if (t.restarted) view.push(["restarted", true]);
    out.push([id, objectOf(view)]);
  }
  return objectOf(out);
}

/**
 * The store's counters as replay cases compare them: `undefined` when all are zero; else
 * `terminalsRefused` and `warningsDropped`, and each of `terminalsEvicted`, `bytesEvicted`,
 * `eventsDropped` above zero.
 */
function storeCounters(store: TerminalStore): JsonObject | undefined {
  const c = store.counters;
  if (Object.values(c).every((n) => n === 0)) return undefined;
  const out: JsonObject = { terminalsRefused: c.terminalsRefused, warningsDropped: c.warningsDropped };
  if (c.terminalsEvicted > 0) out["terminalsEvicted"] = c.terminalsEvicted;
  if (c.bytesEvicted > 0) out["bytesEvicted"] = c.bytesEvicted;
  if (c.eventsDropped > 0) out["eventsDropped"] = c.eventsDropped;
  return out;
}

/** The limits of a replay case (`limits`, members optional). */
function replayLimits(c: JsonObject): Partial<Limits> {
  const l = get(c, "limits");
  const out: { -readonly [K in keyof Limits]?: number } = {};
  if (l === undefined) return out;
  for (const name of ["maxTerminals", "maxRetainedBytes", "maxTotalBytes", "maxWarnings", "maxLineLength", "maxTextLength"] as const) {
    const v = get(l, name);
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new Error(`limits.${name} is not a whole number`);
    out[name] = v;
  }
  return out;
}

/** JSON text with every object's members sorted, for order-insensitive comparison. */
function sortedText(v: Json | undefined): string {
  const sort = (x: Json): Json =>
    isObject(x) ? objectOf(Object.keys(x).sort().map((k) => [k, sort(x[k] as Json)] as const)) : Array.isArray(x) ? x.map(sort) : x;
  return v === undefined ? "undefined" : writeJson(sort(v));
}

/** Evaluates one replay case (`updates` or `notifications` applied as text): the sorted view when it passes; throws the reason when it fails. */
export function replayCase(c: JsonObject): string {
  const updates = get(c, "updates");
  const notifications = get(c, "notifications");
  const expect = get(c, "expect");
  const member = updates !== undefined ? "updates" : "notifications";
  const items = updates ?? notifications;
  if (!Array.isArray(items) || (updates !== undefined && notifications !== undefined)) throw new Error("the case needs one `updates` or `notifications` array");
  if (!isObject(expect)) throw new Error("the case has no `expect`");
  const store = new TerminalStore(replayLimits(c));
  let error: [string, string] | undefined;
  const events: Json[] = [];
  for (let i = 0; i < items.length; i++) {
    const text = writeJson(items[i] as Json);
    const r = member === "updates" ? store.applyText(text) : store.applyNotificationText(text);
    for (const e of store.takeEvents()) events.push(eventView(e));
    if (!r.ok) {
      error = [r.error.kind, `/${member}/${i}${r.error.path}`];
      break;
    }
    store.checkInvariants();
  }
  const wantErrorValue = get(expect, "error");
  const wantError = wantErrorValue === undefined ? undefined : [str(get(wantErrorValue, "kind")), str(get(wantErrorValue, "path"))];
  if (JSON.stringify(error) !== JSON.stringify(wantError)) throw new Error(`expected error ${JSON.stringify(wantError)}, got ${JSON.stringify(error)}`);
  const got = sortedText(storeView(store));
  const want = sortedText(get(expect, "terminals"));
  if (got !== want) throw new Error(`terminals differ\n    expected ${want}\n    got      ${got}`);
  const counters = storeCounters(store);
  const gotCounters = sortedText(counters);
  const wantCounters = sortedText(get(expect, "counters"));
  if (gotCounters !== wantCounters) throw new Error(`counters differ: expected ${wantCounters}, got ${gotCounters}`);
  const gotEvents = writeJson(events);
  const wantEvents = writeJson(get(expect, "events") ?? []);
  if (gotEvents !== wantEvents) throw new Error(`events differ\n    expected ${wantEvents}\n    got      ${gotEvents}`);
  const out: JsonObject = { terminals: storeView(store), events };
  if (error !== undefined) out["error"] = { kind: error[0], path: error[1] };
  if (counters !== undefined) out["counters"] = counters;
  return canonicalSorted(out);
}

function caseInput(c: JsonObject): string {
  const inputText = str(get(c, "inputText"));
  const input = get(c, "input");
  if (inputText !== undefined) return inputText;
  if (input !== undefined) return writeJson(input);
  throw new Error("the case has neither `input` nor `inputText`");
}

/** Evaluates one convert case: the canonical output (or error line) when it passes, else throws. */
export function convertCase(c: JsonObject): string {
  const from = str(get(c, "from"));
  const to = str(get(c, "to"));
  const type = str(get(c, "type"));
  if ((from !== "v1" && from !== "v2") || (to !== "v1" && to !== "v2") || type === undefined) throw new Error("the case needs `from`, `to` and `type`");
  const expect = get(c, "expect");
  if (!isObject(expect)) throw new Error("the case has no `expect`");
  const got = convert(from as ProtocolVersion, to as ProtocolVersion, type, caseInput(c), str(get(c, "toType")));
  const wantError = get(expect, "error");
  if (wantError !== undefined) {
    const want = [str(get(wantError, "kind")), str(get(wantError, "path"))];
    if (got.ok) throw new Error(`expected error ${JSON.stringify(want)}, got output ${got.text}`);
    if (got.error.kind !== want[0] || got.error.path !== want[1]) {
      throw new Error(`expected error ${want[0]} at ${JSON.stringify(want[1])}, got ${got.error.kind} at ${JSON.stringify(got.error.path)} (${got.error.message})`);
    }
    return `error ${got.error.kind} ${got.error.path}`;
  }
  if (!got.ok) throw new Error(`unexpected error ${got.error.kind} at ${JSON.stringify(got.error.path)}: ${got.error.message}`);
  const want = writeJson(get(expect, "output") ?? null);
  if (got.text !== want) throw new Error(`output differs\n    expected ${want}\n    got      ${got.text}`);
  const gotW = got.warnings.map((w: Problem) => [w.kind, w.path]);
  const wantW = problems(get(expect, "warnings"));
  if (JSON.stringify(gotW) !== JSON.stringify(wantW)) throw new Error(`warnings differ: expected ${JSON.stringify(wantW)}, got ${JSON.stringify(gotW)}`);
  return got.text;
}

/** Evaluates one bridge case: every emitted update (and error line), one per line, when it passes. */
export function bridgeCase(c: JsonObject): string {
  const options = get(c, "options");
  const cap = get(options, "cap");
  const bridge = new Bridge({ cap: typeof cap === "number" ? cap : null, meta: get(options, "meta") === true });
  const steps = get(c, "steps");
  const want = get(get(c, "expect"), "output");
  if (!Array.isArray(steps) || !Array.isArray(want)) throw new Error("the case needs `steps` and `expect.output` arrays");
  if (steps.length !== want.length) throw new Error(`\`expect.output\` has ${want.length} entries for ${steps.length} steps`);
  let transcript = "";
  steps.forEach((step, i) => {
    const update = get(step, "update");
    let r;
    if (update !== undefined) r = bridge.push(writeJson(update));
    else if (get(step, "flush") !== undefined) r = bridge.flush();
    else throw new Error(`step ${i} has neither \`update\` nor \`flush\``);
    const w = want[i];
    const wantError = get(w, "error");
    if (r.ok) {
      if (wantError !== undefined) throw new Error(`step ${i}: expected error ${writeJson(wantError)}, got ${JSON.stringify(r.updates)}`);
      const got = `[${r.updates.join(",")}]`;
      const expected = writeJson(w ?? null);
      if (got !== expected) throw new Error(`step ${i}: output differs\n    expected ${expected}\n    got      ${got}`);
      for (const u of r.updates) transcript += `${u}\n`;
    } else {
      const path = `/steps/${i}/update${r.error.path}`;
      if (wantError === undefined) throw new Error(`step ${i}: unexpected error ${r.error.kind} at ${JSON.stringify(r.error.path)}: ${r.error.message}`);
      if (r.error.kind !== str(get(wantError, "kind")) || path !== str(get(wantError, "path"))) {
        throw new Error(`step ${i}: expected error ${writeJson(wantError)}, got ${r.error.kind} at ${JSON.stringify(path)} (${r.error.message})`);
      }
      transcript += `error ${r.error.kind} ${path}\n`;
    }
  });
  return transcript;
}

/** Evaluates one ingest case: the sorted view when it passes; throws the reason when it fails. */
export function ingestCase(c: JsonObject): string {
  const updates = get(c, "updates");
  const expect = get(c, "expect");
  if (!Array.isArray(updates)) throw new Error("the case has no `updates` array");
  if (!isObject(expect)) throw new Error("the case has no `expect`");
  const store = new TerminalStore();
  let error: [string, string] | undefined;
  const warnings: [string, string][] = [];
  for (let i = 0; i < updates.length; i++) {
    const u = updates[i] as Json;
    const text = writeJson(get(u, "update") ?? null);
    const prefix = `/updates/${i}/update`;
    const r = str(get(u, "schema")) === "v1" ? ingestV1(store, text) : store.applyText(text);
    if (!r.ok) {
      error = [r.error.kind, `${prefix}${r.error.path}`];
      break;
    }
    for (const w of r.warnings) warnings.push([w.kind, `${prefix}${w.path}`]);
  }
  const wantErrorValue = get(expect, "error");
  const wantError = wantErrorValue === undefined ? undefined : [str(get(wantErrorValue, "kind")), str(get(wantErrorValue, "path"))];
  if (JSON.stringify(error) !== JSON.stringify(wantError)) throw new Error(`expected error ${JSON.stringify(wantError)}, got ${JSON.stringify(error)}`);
  const wantW = problems(get(expect, "warnings"));
  if (JSON.stringify(warnings) !== JSON.stringify(wantW)) throw new Error(`warnings differ: expected ${JSON.stringify(wantW)}, got ${JSON.stringify(warnings)}`);
  const got = sortedText(storeView(store));
  const want = sortedText(get(expect, "terminals"));
  if (got !== want) throw new Error(`terminals differ\n    expected ${want}\n    got      ${got}`);
  const out: JsonObject = { terminals: storeView(store), warnings: warnings.map(([kind, path]) => ({ kind, path })) };
  if (error !== undefined) out["error"] = { kind: error[0], path: error[1] };
  return canonicalSorted(out);
}

function main(argv: string[]): number {
  let emit: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--emit") emit = argv[++i];
    else paths.push(a);
  }
  if (paths.length === 0) {
    console.error("usage: node conformance.js [--emit FILE] PATH...");
    return 2;
  }
  let passed = 0;
  let failed = 0;
  const lines: string[] = [];
  for (const file of vectorFiles(paths)) {
    let doc: Json;
    try {
      doc = parseJson(readFileSync(file, "utf8"));
    } catch (e) {
      failed++;
      console.log(`FAIL ${file} :: (file): cannot read the vector file: ${String(e)}`);
      continue;
    }
    const cases = get(doc, "cases");
    if (!Array.isArray(cases)) {
      failed++;
      console.log(`FAIL ${file} :: (file): no \`cases\` array`);
      continue;
    }
    for (const c of cases) {
      const name = str(get(c, "name")) ?? "(unnamed)";
      const kind = str(get(c, "kind")) ?? "";
      try {
        if (!isObject(c)) throw new Error("a case must be an object");
        if (kind === "decode") {
          const out = decodeCase(c);
          if (out !== undefined) lines.push(JSON.stringify({ file, name, output: out }));
        } else if (kind === "transcript") {
          lines.push(JSON.stringify({ file, name, output: transcriptCase(c) }));
        } else if (kind === "replay") {
          lines.push(JSON.stringify({ file, name, output: replayCase(c) }));
        } else if (kind === "convert") {
          lines.push(JSON.stringify({ file, name, output: convertCase(c) }));
        } else if (kind === "bridge") {
          lines.push(JSON.stringify({ file, name, output: bridgeCase(c) }));
        } else if (kind === "ingest") {
          lines.push(JSON.stringify({ file, name, output: ingestCase(c) }));
        } else {
          throw new Error(`this runner cannot evaluate cases of kind ${JSON.stringify(kind)}`);
        }
        passed++;
      } catch (e) {
        failed++;
        console.log(`FAIL ${file} :: ${name} [${kind}]: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  if (emit !== undefined) writeFileSync(emit, lines.length > 0 ? `${lines.join("\n")}\n` : "");
  console.log(`typescript: ${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

if (process.argv[1]?.endsWith("conformance.js")) process.exitCode = main(process.argv.slice(2));
