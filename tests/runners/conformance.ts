// The TypeScript conformance runner: `node conformance.js FILE...` prints, for every case
// of the vector files, one JSON line `{"file", "name", "result"}`: what the generated
// package did with the case (docs/CONFORMANCE.md, "Runners and the judge"). It judges
// nothing; `cargo xtask conformance` does. Built with the TypeScript tests.

import { readFileSync } from "node:fs";
import { CODECS, STATE_RULES } from "../../generated/typescript/src/registry.js";
import { SessionState, stateLimitsFromJson } from "../../generated/typescript/src/runtime/state.js";
import type { Problem } from "../../generated/typescript/src/runtime/errors.js";
import { getMember, type Json, type JsonObject, parseJson } from "../../generated/typescript/src/runtime/json.js";
import { writeJson } from "../../generated/typescript/src/runtime/writer.js";
import { decodeBase64 } from "../../generated/typescript/src/runtime/base64.js";
import { Transcript } from "../../generated/typescript/src/transcript.js";
import { type Limits, TerminalStore } from "../../generated/typescript/src/store.js";
import { Bridge, type ProtocolVersion, convert, ingestV1 } from "../../generated/typescript/src/adapters.js";

type Result = { [k: string]: unknown };
type Parsed = { ok: true; value: unknown; warnings: Problem[] } | { ok: false; error: Problem & { message: string } };

const isObject = (o: Json | undefined): o is JsonObject => typeof o === "object" && o !== null && !Array.isArray(o);
const get = (o: Json | undefined, k: string): Json | undefined => (isObject(o) ? getMember(o, k) : undefined);
const str = (o: Json | undefined): string | undefined => (typeof o === "string" ? o : undefined);
const unsupported = (why: string): Result => ({ unsupported: why });
const problems = (ws: Problem[], prefix = ""): Result[] => ws.map((w) => ({ kind: w.kind, path: `${prefix}${w.path}` }));
const failure = (e: { kind: string; path: string; message: string }, path = e.path): Result => ({ error: { kind: e.kind, path }, message: e.message });

function inputText(c: JsonObject): string | undefined {
  const input = get(c, "input");
  return str(get(c, "inputText")) ?? (input === undefined ? undefined : writeJson(input));
}

function parsed(r: Parsed, serialize: (v: unknown) => string): Result {
  return r.ok ? { output: serialize(r.value), warnings: problems(r.warnings) } : failure(r.error);
}

/** A decode case: the output, its warnings and `again`; for an `input` that is not a string,
 * the same input as a parsed value, ours and `JSON.parse`'s (`routes`). */
function decodeResult(c: JsonObject): Result {
  const schema = str(get(c, "schema")) ?? "v2";
  const type = str(get(c, "type")) ?? "";
  const codec = CODECS.get(schema)?.get(type);
  if (codec === undefined) return unsupported(`\`${type}\` is not a definition of schema ${JSON.stringify(schema)}`);
  const text = inputText(c);
  if (text === undefined) return unsupported("the case has neither `input` nor `inputText`");
  const serialize = (v: unknown): string => codec.serialize(v as never);
  const result = parsed(codec.parse(text), serialize);
  if (typeof result["output"] === "string") result["again"] = parsed(codec.parse(result["output"]), serialize);
  const input = get(c, "input");
  if (input !== undefined && get(c, "inputText") === undefined && typeof input !== "string") {
    // JSON.parse loses the order of integer-like keys, so only its bytes may differ.
    const orderLost = /"(?:0|[1-9][0-9]*)":/.test(text);
    result["routes"] = [
      { route: "our parser's value", result: parsed(codec.parse(input), serialize) },
      { route: "JSON.parse's value", orderLost, result: parsed(codec.parse(JSON.parse(text)), serialize) },
    ];
  }
  return result;
}

function transcriptResult(c: JsonObject): Result {
  const chunks = get(c, "chunks");
  if (!Array.isArray(chunks) || !chunks.every((x) => typeof x === "string")) return unsupported("the case has no `chunks` array of strings");
  const t = new Transcript();
  for (const chunk of chunks) t.push(decodeBase64(chunk as string));
  return { text: t.text };
}

function replayLimits(c: JsonObject): Partial<Limits> | string {
  const l = get(c, "limits");
  if (l !== undefined && (l === null || typeof l !== "object" || Array.isArray(l))) return "limits is not an object";
  const out: { -readonly [K in keyof Limits]?: number } = {};
  for (const name of ["maxTerminals", "maxRetainedBytes", "maxTotalBytes", "maxWarnings", "maxLineLength", "maxTextLength", "maxMembers"] as const) {
    const v = get(l, name);
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) return `limits.${name} is not a whole number`;
    out[name] = v;
  }
  return out;
}

function replayResult(c: JsonObject): Result {
  const updates = get(c, "updates");
  const notifications = get(c, "notifications");
  const member = updates !== undefined ? "updates" : "notifications";
  const items = updates ?? notifications;
  if (!Array.isArray(items) || (updates !== undefined && notifications !== undefined)) return unsupported("the case needs one `updates` or `notifications` array");
  const limits = replayLimits(c);
  if (typeof limits === "string") return unsupported(limits);
  const store = new TerminalStore(limits);
  let out: Result = {};
  const events: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const text = writeJson(items[i] as Json);
    const r = member === "updates" ? store.applyText(text) : store.applyNotificationText(text);
    events.push(...store.takeEvents());
    if (!r.ok) {
      out = failure(r.error, `/${member}/${i}${r.error.path}`);
      break;
    }
    try {
      store.checkInvariants();
    } catch (e) {
      out["invariant"] = `after update ${i}: ${String(e)}`;
      break;
    }
  }
  out["terminals"] = store.snapshot();
  out["events"] = events;
  const counters = store.countersSnapshot();
  if (counters !== null) out["counters"] = counters;
  return out;
}

function convertResult(c: JsonObject): Result {
  const [from, to, type] = [str(get(c, "from")), str(get(c, "to")), str(get(c, "type"))];
  if ((from !== "v1" && from !== "v2") || (to !== "v1" && to !== "v2") || type === undefined) return unsupported("the case needs `from`, `to` and `type`");
  const text = inputText(c);
  if (text === undefined) return unsupported("the case has neither `input` nor `inputText`");
  const r = convert(from as ProtocolVersion, to as ProtocolVersion, type, text, str(get(c, "toType")));
  return r.ok ? { output: r.text, warnings: problems(r.warnings) } : failure(r.error);
}

function bridgeResult(c: JsonObject): Result {
  const options = get(c, "options");
  const cap = get(options, "cap");
  const bridge = new Bridge({ cap: typeof cap === "number" ? cap : null, meta: get(options, "meta") === true });
  const steps = get(c, "steps");
  if (!Array.isArray(steps)) return unsupported("the case has no `steps` array");
  const out: unknown[] = [];
  for (const [i, step] of steps.entries()) {
    const update = get(step, "update");
    if (update === undefined && get(step, "flush") === undefined) return unsupported(`step ${i} has neither \`update\` nor \`flush\``);
    const r = update !== undefined ? bridge.push(writeJson(update)) : bridge.flush();
    out.push(r.ok ? r.updates : failure(r.error, `/steps/${i}/update${r.error.path}`));
  }
  return { steps: out };
}

function ingestResult(c: JsonObject): Result {
  const updates = get(c, "updates");
  if (!Array.isArray(updates)) return unsupported("the case has no `updates` array");
  const store = new TerminalStore();
  let out: Result = {};
  const warnings: Result[] = [];
  for (const [i, u] of updates.entries()) {
    const text = writeJson(get(u, "update") ?? null);
    const prefix = `/updates/${i}/update`;
    const r = str(get(u, "schema")) === "v1" ? ingestV1(store, text) : store.applyText(text);
    if (!r.ok) {
      out = failure(r.error, `${prefix}${r.error.path}`);
      break;
    }
    warnings.push(...problems(r.warnings, prefix));
  }
  out["terminals"] = store.snapshot();
  out["warnings"] = warnings;
  return out;
}

function stateResult(c: JsonObject): Result {
  const [rules, codecs] = [STATE_RULES.get("v2"), CODECS.get("v2")];
  if (rules === undefined || codecs === undefined) return unsupported("the package's v2 schema has no x-state");
  // Only a case without `limits` takes the defaults (`"limits": null` is bad limits).
  const given = get(c, "limits");
  const limits = stateLimitsFromJson(given === undefined ? {} : given);
  if (!limits.ok) return unsupported(`limits at ${JSON.stringify(limits.error.path)}: ${limits.error.message}`);
  const state = new SessionState(rules, codecs, limits.limits);
  const initial = get(c, "initial");
  let out: Result = {};
  const warnings: Result[] = [];
  const restored = initial === undefined ? { ok: true as const } : state.restore(initial);
  if (!restored.ok) out = failure(restored.error, `/initial${restored.error.path}`);
  const messages = restored.ok ? get(c, "messages") : [];
  for (const [i, m] of (Array.isArray(messages) ? messages : []).entries()) {
    const r = state.apply(str(get(m, "type")) ?? "", writeJson(get(m, "message") ?? null));
    if (!r.ok) {
      out = failure(r.error, `/messages/${i}/message${r.error.path}`);
      break;
    }
    warnings.push(...problems(r.warnings, `/messages/${i}/message`));
  }
  // The state is typed: every target decodes as its definition and writes back as itself.
  try {
    state.checkInvariants();
  } catch (e) {
    out["invariant"] = e instanceof Error ? e.message : String(e);
  }
  out["state"] = writeJson(state.snapshot());
  out["warnings"] = warnings;
  // What the limits dropped, when they dropped anything (as the store's counters).
  const counters = state.counters();
  if (Object.values(counters).some((n) => n > 0)) out["counters"] = { ...counters };
  return out;
}

const KINDS: { [kind: string]: (c: JsonObject) => Result } = {
  decode: decodeResult,
  transcript: transcriptResult,
  replay: replayResult,
  convert: convertResult,
  bridge: bridgeResult,
  ingest: ingestResult,
  state: stateResult,
};

function caseResult(c: Json): Result {
  const run = KINDS[str(get(c, "kind")) ?? ""];
  if (!isObject(c) || run === undefined) return unsupported(`this runner cannot evaluate cases of kind ${JSON.stringify(get(c, "kind") ?? null)}`);
  try {
    return run(c);
  } catch (e) {
    return unsupported(`the runner failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const lines: string[] = [];
for (const file of process.argv.slice(2)) {
  let cases: Json | undefined;
  try {
    cases = get(parseJson(readFileSync(file, "utf8")), "cases");
  } catch (e) {
    lines.push(JSON.stringify({ file, name: "(file)", result: unsupported(`cannot read the vector file: ${String(e)}`) }));
    continue;
  }
  if (!Array.isArray(cases)) lines.push(JSON.stringify({ file, name: "(file)", result: unsupported("no `cases` array") }));
  else for (const c of cases) lines.push(JSON.stringify({ file, name: get(c, "name") ?? null, result: caseResult(c) }));
}
process.stdout.write(lines.length > 0 ? `${lines.join("\n")}\n` : "");
