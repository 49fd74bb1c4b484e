// Version adapters (docs/ADAPTERS.md): stateless v1 <-> v2 converters that refuse terminals,
// a stateful v2 -> v1 Bridge for Clients that only speak v1, and ingestV1, which reads the
// v1 `_meta` terminal convention into a TerminalStore. The same rules as the Rust and
// Python adapters, checked by the same vectors.

import * as rules from "./adapter_rules.js";
import { CODECS } from "./registry.js";
import { encodeBase64 } from "./runtime/base64.js";
import { type Problem, pushToken } from "./runtime/errors.js";
import { addMember, getMember, type Json, type JsonObject, keysOf, ObjectBuilder, parseJson } from "./runtime/json.js";
import { isAbsolutePath } from "./runtime/path.js";
import { Transcript } from "./transcript.js";
import { writeJson } from "./runtime/writer.js";
import { type ApplyResult, TerminalStore } from "./store.js";
import { parseSessionUpdate, serializeSessionUpdate } from "./v2.js";

/** A protocol version the adapters convert between. */
export type ProtocolVersion = "v1" | "v2";

/** A converted value, or the reason it cannot be converted. */
export type ConvertResult =
  | { readonly ok: true; readonly type: string; readonly text: string; readonly warnings: Problem[] }
  | { readonly ok: false; readonly error: Problem };

class Refused extends Error {
  readonly problem: Problem;
  constructor(path: string, message: string) {
    super(message);
    this.problem = { kind: "not_representable", path, message };
  }
}

const at = (path: string, token: string | number): string => pushToken(path, token);
const isObject = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
/** Member `name` of `v` when `v` is an object that has it. */
const member = (v: Json | undefined, name: string): Json | undefined => (isObject(v) ? getMember(v, name) : undefined);
/** The members of `o` in their JSON order. */
const entries = (o: JsonObject): [string, Json][] => keysOf(o).map((k) => [k, getMember(o, k) as Json]);
/** A new object with the members of `v` in their order (a shallow copy), or an empty one when `v` is not an object. */
const obj = (v: Json | undefined): JsonObject => {
  const b = new ObjectBuilder();
  if (isObject(v)) for (const [k, x] of entries(v)) b.add(k, x);
  return b.finish();
};
/** Sets member `key` of `o`: in its place when `o` has it, else last. */
const set = (o: JsonObject, key: string, value: Json): void => {
  if (!Object.hasOwn(o, key)) addMember(o, key, value);
  else if (key === "__proto__") Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
};
const tagOf = (v: Json | undefined, name: string): string => {
  const t = member(v, name);
  return typeof t === "string" ? t : "";
};

/**
 * Converts `input` (JSON text or value), a value of definition `type` in version `from`,
 * to the other version; `toType` picks the target definition when there is a choice
 * (a v2 `ToolCallUpdate` to a v1 `ToolCall`). The input's own parse error comes back as
 * it is; what the other version cannot say exactly is a `not_representable` error at the
 * item at fault.
 */
export function convert(from: ProtocolVersion, to: ProtocolVersion, type: string, input: string | Json, toType?: string): ConvertResult {
  const pair = rules.PAIRS.find(([f, t, target]) => f === from && from !== to && t === type && (toType === undefined || target === toType));
  if (pair === undefined) {
    return refusedResult("", rules.noPair(to, from, type));
  }
  const source = CODECS.get(from)?.get(type);
  if (source === undefined) return refusedResult("", rules.notADefinition(type, from));
  const parsed = source.parse(input);
  if (!parsed.ok) return parsed;
  const target = pair[2];
  if (target === null) return refusedResult("", rules.refusal(from, type) ?? rules.SUBJECT_ALONE);
  const back = (p: string): string => mapBack(from, type, p);
  try {
    const value = parseJson(source.serialize(parsed.value));
    const out = new Converter(from).value(type, target, value, "");
    const codec = CODECS.get(to)?.get(target);
    if (codec === undefined) return refusedResult("", rules.notADefinition(target, to));
    const result = codec.parse(writeJson(out));
    if (!result.ok) return refusedResult(back(result.error.path), rules.notAccepted(to, result.error.message));
    const w = result.warnings[0];
    if (w !== undefined) return refusedResult(back(w.path), rules.wouldDrop(to, w.message));
    const text = codec.serialize(result.value);
    const p = firstDifference(out, parseJson(text), "");
    if (p !== undefined) return refusedResult(back(p), rules.notKept(to));
    return { ok: true, type: target, text, warnings: parsed.warnings };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, error: e.problem };
    throw e;
  }
}

function refusedResult(path: string, message: string): ConvertResult {
  return { ok: false, error: { kind: "not_representable", path, message } };
}

function mapBack(from: ProtocolVersion, type: string, path: string): string {
  if (type !== "RequestPermissionRequest") return path;
  if (from === "v1") {
    if (path.startsWith("/subject/toolCall")) return `/toolCall${path.slice("/subject/toolCall".length)}`;
    if (path === "/title") return "/toolCall/title";
    if (path.startsWith("/subject")) return "/toolCall";
    return path;
  }
  return path.startsWith("/toolCall") ? `/subject/toolCall${path.slice("/toolCall".length)}` : path;
}

function firstDifference(a: Json, b: Json, path: string): string | undefined {
  if (isObject(a) && isObject(b)) {
    for (const [k, v] of entries(a)) {
      const w = getMember(b, k);
      if (w === undefined) return at(path, k);
      const p = firstDifference(v, w, at(path, k));
      if (p !== undefined) return p;
    }
    for (const k of keysOf(b)) if (!Object.hasOwn(a, k)) return at(path, k);
    return undefined;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return path;
    for (let i = 0; i < a.length; i++) {
      const p = firstDifference(a[i] as Json, b[i] as Json, at(path, i));
      if (p !== undefined) return p;
    }
    return undefined;
  }
  if (isObject(a) || isObject(b) || Array.isArray(a) || Array.isArray(b)) return path;
  return a === b ? undefined : path;
}

/** The patch members of v2 ToolCallUpdate (a `null` there clears; an unknown member's `null` is just a value). */
const PATCH_MEMBERS = ["title", "kind", "status", "content", "locations", "rawInput", "rawOutput", "_meta"];

class Converter {
  constructor(private readonly from: ProtocolVersion) {}

  value(type: string, target: string, v: Json, p: string): Json {
    switch (type) {
      case "SessionNotification":
      case "UpdateSessionNotification": {
        const o = obj(v);
        const u = getMember(o, "update");
        if (u !== undefined) set(o, "update", this.sessionUpdate(u, at(p, "update")));
        return o;
      }
      case "SessionUpdate":
        return this.sessionUpdate(v, p);
      case "ToolCall":
      case "ToolCallUpdate":
        return this.toolCallUpdate(v, p, target === "ToolCall");
      case "ToolCallContent":
        return this.toolCallContent(v, p);
      case "Content":
        return this.content(v, p);
      case "ContentBlock":
        return this.contentBlock(v, p);
      case "Diff":
        throw new Refused(p, this.diffMessage());
      case "Terminal":
        throw new Refused(p, rules.TERMINAL);
      case "RequestPermissionRequest":
        return this.from === "v1" ? this.permissionRequestToV2(v, p) : this.permissionRequestToV1(v, p);
      default:
        return v;
    }
  }

  diffMessage(): string {
    return this.from === "v1" ? rules.DIFF_FROM_V1 : rules.DIFF_FROM_V2;
  }

  sessionUpdate(v: Json, p: string): Json {
    const tag = tagOf(v, "sessionUpdate");
    if (this.from === "v1" && (tag === "tool_call" || tag === "tool_call_update")) {
      const o = obj(this.toolCallUpdate(v, p, false));
      set(o, "sessionUpdate", "tool_call_update");
      return o;
    }
    if (this.from === "v2") {
      if (tag === "tool_call_update") return this.toolCallUpdate(v, p, false);
      if (tag === "terminal_update" || tag === "terminal_output_chunk") throw new Refused(p, rules.TERMINAL_UPDATE);
      if (tag === "tool_call_content_chunk") throw new Refused(p, rules.CHUNK);
    }
    throw new Refused(p, rules.notToolCallUpdate(this.from, tag));
  }

  toolCallUpdate(v: Json, p: string, needsTitle: boolean): Json {
    const o = obj(v);
    if (this.from === "v2") {
      for (const [k, x] of entries(obj(v))) {
        if (x !== null || !PATCH_MEMBERS.includes(k)) continue;
        if (k === "content" || k === "locations") set(o, k, []);
        else throw new Refused(at(p, k), rules.cannotClear(k));
      }
    }
    const items = member(v, "content");
    if (Array.isArray(items)) {
      const base = at(p, "content");
      set(o, "content", items.map((item, i) => this.toolCallContent(item, at(base, i))));
    }
    if (needsTitle && typeof member(v, "title") !== "string") {
      throw new Refused(at(p, "title"), rules.NEEDS_TITLE);
    }
    return o;
  }

  toolCallContent(v: Json, p: string): Json {
    const tag = tagOf(v, "type");
    if (tag === "content") return this.content(v, p);
    if (tag === "terminal") throw new Refused(p, rules.TERMINAL);
    if (tag === "diff") throw new Refused(p, this.diffMessage());
    throw new Refused(p, rules.toolCallContentType(tag));
  }

  content(v: Json, p: string): Json {
    const o = obj(v);
    const b = getMember(o, "content");
    if (b !== undefined) set(o, "content", this.contentBlock(b, at(p, "content")));
    return o;
  }

  contentBlock(v: Json, p: string): Json {
    const tag = tagOf(v, "type");
    if (!["text", "image", "audio", "resource_link", "resource"].includes(tag)) {
      throw new Refused(p, rules.contentType(tag));
    }
    if (tag === "resource_link" && isObject(v) && Object.hasOwn(v, "icons")) {
      throw new Refused(
        at(p, "icons"),
        this.from === "v2" ? rules.ICONS_FROM_V2 : rules.ICONS_FROM_V1,
      );
    }
    return v;
  }

  permissionRequestToV2(v: Json, p: string): Json {
    const src = obj(v);
    for (const k of ["title", "description", "subject"]) {
      if (Object.hasOwn(src, k)) throw new Refused(at(p, k), rules.v2MemberInV1(k));
    }
    const toolCall = getMember(src, "toolCall") ?? null;
    const title = member(toolCall, "title");
    if (typeof title !== "string") {
      throw new Refused(
        at(at(p, "toolCall"), "title"),
        rules.PERMISSION_NEEDS_TITLE,
      );
    }
    const converted = this.toolCallUpdate(toolCall, at(p, "toolCall"), false);
    const out = new ObjectBuilder();
    for (const [k, x] of entries(src)) {
      if (k === "toolCall") {
        out.add("title", title);
        out.add("subject", { type: "tool_call", toolCall: converted });
      } else {
        out.add(k, x);
      }
    }
    return out.finish();
  }

  permissionRequestToV1(v: Json, p: string): Json {
    const src = obj(v);
    if (Object.hasOwn(src, "toolCall")) throw new Refused(at(p, "toolCall"), rules.TOOL_CALL_MEMBER_IN_V2);
    if (Object.hasOwn(src, "description")) throw new Refused(at(p, "description"), rules.NO_DESCRIPTION);
    const subject = getMember(src, "subject");
    if (subject === undefined) {
      throw new Refused(at(p, "subject"), rules.NO_SUBJECT);
    }
    const sp = at(p, "subject");
    const kind = tagOf(subject, "type");
    if (kind === "command") throw new Refused(sp, rules.COMMAND_SUBJECT);
    if (kind !== "tool_call") throw new Refused(sp, rules.subjectKind(kind));
    for (const k of keysOf(obj(subject))) {
      if (k !== "type" && k !== "toolCall") throw new Refused(at(sp, k), rules.subjectMember(k));
    }
    const toolCall = member(subject, "toolCall") ?? null;
    const a = member(toolCall, "title");
    if (a !== getMember(src, "title")) {
      throw new Refused(
        at(p, "title"),
        rules.TITLE_DIFFERS,
      );
    }
    const converted = this.toolCallUpdate(toolCall, at(sp, "toolCall"), false);
    const out = new ObjectBuilder();
    for (const [k, x] of entries(src)) {
      if (k === "title") continue;
      if (k === "subject") out.add("toolCall", converted);
      else out.add(k, x);
    }
    return out.finish();
  }
}

// ---------------------------------------------------------------------------------
// The v2 -> v1 bridge

/** What the Bridge does beyond the plain text. */
export interface BridgeOptions {
  /** Keep at most this many characters (code points) of each transcript: head and tail, with a marker. */
  readonly cap?: number | null;
  /** Also emit the `_meta` terminal convention (terminal_info, terminal_output with only new output, terminal_exit). */
  readonly meta?: boolean;
}

/** The v1 updates to send (canonical JSON texts of v1 SessionUpdates), or why not. */
export type BridgeResult = { readonly ok: true; readonly updates: string[] } | { readonly ok: false; readonly error: Problem };

interface CallState {
  content: Json[] | null;
  sent: boolean;
}

interface MetaSent {
  info: boolean;
  offset: number;
  exit: boolean;
}

/**
 * Feeds v2 SessionUpdates to a Client that only speaks v1. Terminal output reaches it as
 * text content (the safe transcript, with the command and exit status) in place of the
 * terminal item in every tool call that references the terminal; text is made only on
 * `flush()`, on exit, and when a tool call's content is set. It never emits a v1
 * terminal item.
 */
export class Bridge {
  /** The store the bridge keeps. */
  readonly store = new TerminalStore();
  readonly #cap: number | null;
  readonly #meta: boolean;
  readonly #calls = new Map<string, CallState>();
  #dirty: string[] = [];
  readonly #sent = new Map<string, MetaSent>();

  constructor(options: BridgeOptions = {}) {
    this.#cap = options.cap ?? null;
    this.#meta = options.meta ?? false;
  }

  #call(id: string): CallState {
    let c = this.#calls.get(id);
    if (c === undefined) {
      c = { content: null, sent: false };
      this.#calls.set(id, c);
    }
    return c;
  }

  #markDirty(id: string): void {
    if (!this.#dirty.includes(id)) this.#dirty.push(id);
  }

  /** Applies one v2 SessionUpdate (JSON text) and returns the v1 updates to send. */
  push(text: string): BridgeResult {
    const parsed = parseSessionUpdate(text);
    if (!parsed.ok) return parsed;
    const v = obj(parseJson(serializeSessionUpdate(parsed.value)));
    this.store.apply(parsed.value);
    try {
      return { ok: true, updates: this.#dispatch(v) };
    } catch (e) {
      if (e instanceof Refused) return { ok: false, error: e.problem };
      throw e;
    }
  }

  #dispatch(v: JsonObject): string[] {
    const tag = tagOf(v, "sessionUpdate");
    if (tag === "terminal_output_chunk") {
      this.#markDirty(tagOf(v, "terminalId"));
      return [];
    }
    if (tag === "terminal_update") {
      const id = tagOf(v, "terminalId");
      if (Object.hasOwn(v, "output")) {
        for (const [key, s] of this.#sent) if (JSON.parse(key)[1] === id) s.offset = 0;
      }
      this.#markDirty(id);
      return isObject(getMember(v, "exitStatus")) ? this.#emitTerminal(id) : [];
    }
    if (tag === "tool_call_update") {
      const id = tagOf(v, "toolCallId");
      const update = obj(v);
      delete update["sessionUpdate"];
      const content = getMember(v, "content");
      if (Array.isArray(content)) this.#call(id).content = [...content];
      else if (content !== undefined) {
        this.#call(id).content = [];
        set(update, "content", []);
      }
      const first = !this.#call(id).sent;
      const out = this.#emit(id, update, content !== undefined, first);
      this.#call(id).sent = true;
      return out;
    }
    if (tag === "tool_call_content_chunk") {
      const id = tagOf(v, "toolCallId");
      const call = this.#call(id);
      call.content = [...(call.content ?? []), getMember(v, "content") ?? null];
      const out = this.#emit(id, { toolCallId: id }, true, false);
      call.sent = true;
      return out;
    }
    throw new Refused("", rules.bridgeOnly(tag));
  }

  /** Sends the current text of every terminal that changed since the last flush to every tool call that references it. */
  flush(): BridgeResult {
    const dirty = this.#dirty;
    this.#dirty = [];
    try {
      const out: string[] = [];
      for (const id of [...this.#calls.keys()]) {
        if (this.#references(id).some((t) => dirty.includes(t))) {
          out.push(...this.#emit(id, { toolCallId: id }, true, false));
        }
      }
      return { ok: true, updates: out };
    } catch (e) {
      if (e instanceof Refused) return { ok: false, error: e.problem };
      throw e;
    }
  }

  #emitTerminal(terminal: string): string[] {
    this.#dirty = this.#dirty.filter((d) => d !== terminal);
    const out: string[] = [];
    for (const id of [...this.#calls.keys()]) {
      if (this.#references(id).includes(terminal)) out.push(...this.#emit(id, { toolCallId: id }, true, false));
    }
    return out;
  }

  #references(call: string): string[] {
    const out: string[] = [];
    for (const item of this.#calls.get(call)?.content ?? []) {
      if (tagOf(item, "type") === "terminal") {
        const t = tagOf(item, "terminalId");
        if (!out.includes(t)) out.push(t);
      }
    }
    return out;
  }

  #emit(id: string, update: JsonObject, withContent: boolean, first: boolean): string[] {
    const terminals = this.#references(id);
    if (withContent) set(update, "content", (this.#calls.get(id)?.content ?? []).map((item) => this.#renderItem(item)));
    const extra: JsonObject[] = [];
    if (this.#meta && withContent) {
      terminals.forEach((t, n) => {
        const members = this.#convention(id, t);
        if (keysOf(members).length === 0) return;
        if (n === 0) {
          const meta = obj(getMember(update, "_meta"));
          for (const [k, x] of entries(members)) set(meta, k, x);
          set(update, "_meta", meta);
        } else {
          extra.push({ toolCallId: id, _meta: members });
        }
      });
    }
    const create = first && typeof getMember(update, "title") === "string";
    return [toV1(update, create), ...extra.map((u) => toV1(u, false))];
  }

  #renderItem(item: Json): Json {
    if (tagOf(item, "type") !== "terminal") return item;
    const o: JsonObject = { type: "content", content: { type: "text", text: this.render(tagOf(item, "terminalId")) } };
    const meta = member(item, "_meta");
    if (meta !== undefined) o["_meta"] = meta;
    return o;
  }

  /** The text shown for `terminal`: `$ command`, the (capped) transcript, the exit status. */
  render(terminal: string): string {
    const t = this.store.terminal(terminal);
    if (t === undefined) return "";
    let s = t.command !== null ? `$ ${oneLine(t.command)}\n` : "";
    s += capText(t.transcript, this.#cap);
    const e = t.exitStatus;
    if (e !== null) {
      if (s !== "" && !s.endsWith("\n")) s += "\n";
      s += exitText(e.exitCode ?? null, e.signal ?? null);
    }
    return s;
  }

  #convention(call: string, terminal: string): JsonObject {
    const out: JsonObject = {};
    const t = this.store.terminal(terminal);
    if (t === undefined) return out;
    const key = JSON.stringify([call, terminal]);
    const sent = this.#sent.get(key) ?? { info: false, offset: 0, exit: false };
    if (!sent.info) {
      out["terminal_info"] = { terminal_id: terminal, cwd: t.cwd };
      sent.info = true;
    }
    // `sent.offset` is a position in the output since the last snapshot, dropped bytes
    // included: the store keeps only the most recent `maxRetainedBytes`, so a position in
    // the retained bytes would stop moving once the first ones go.
    const dropped = t.droppedBytes;
    const bytes = t.output.toBytes();
    if (dropped + bytes.length < sent.offset) sent.offset = 0;
    // Bytes the store dropped before a flush sent them are gone: go on from the oldest kept.
    const from = Math.min(Math.max(sent.offset - dropped, 0), bytes.length);
    const fresh = bytes.subarray(from);
    const exited = t.exitStatus;
    const end = exited !== null ? fresh.length : fresh.length - incompleteTail(fresh);
    if (end > 0) {
      out["terminal_output"] = { terminal_id: terminal, data: lossyUtf8(fresh.subarray(0, end)) };
      sent.offset = dropped + from + end;
    }
    if (exited !== null && !sent.exit) {
      out["terminal_exit"] = { terminal_id: terminal, exit_code: exited.exitCode ?? null, signal: exited.signal ?? null };
      sent.exit = true;
    }
    this.#sent.set(key, sent);
    return out;
  }
}

/** The UTF-8 bytes of `s` (a lone surrogate, which JSON text cannot hold, becomes U+FFFD). */
function utf8(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      c = 0xfffd;
    }
    if (c < 0x80) out[n++] = c;
    else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
    } else if (c < 0x10000) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    } else {
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 0x3f);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    }
  }
  return out.subarray(0, n);
}

/** `b` as text, each maximal invalid subpart replaced by one U+FFFD (the WHATWG and Unicode practice). */
function lossyUtf8(b: Uint8Array): string {
  const parts: string[] = [];
  let units: number[] = [];
  const put = (cp: number): void => {
    if (cp >= 0x10000) units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
    else units.push(cp);
    if (units.length >= 8192) {
      parts.push(String.fromCharCode(...units));
      units = [];
    }
  };
  let i = 0;
  while (i < b.length) {
    const x = b[i] as number;
    if (x < 0x80) {
      put(x);
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (x >= 0xc2 && x <= 0xdf) need = 1;
    else if (x >= 0xe0 && x <= 0xef) {
      need = 2;
      if (x === 0xe0) lo = 0xa0;
      if (x === 0xed) hi = 0x9f;
    } else if (x >= 0xf0 && x <= 0xf4) {
      need = 3;
      if (x === 0xf0) lo = 0x90;
      if (x === 0xf4) hi = 0x8f;
    } else {
      put(0xfffd);
      i++;
      continue;
    }
    let cp = x & (0x3f >> need);
    let j = i + 1;
    let k = 0;
    while (k < need && j < b.length && (b[j] as number) >= lo && (b[j] as number) <= hi) {
      cp = (cp << 6) | ((b[j] as number) & 0x3f);
      lo = 0x80;
      hi = 0xbf;
      j++;
      k++;
    }
    put(k < need ? 0xfffd : cp);
    i = j;
  }
  parts.push(String.fromCharCode(...units));
  return parts.join("");
}

function toV1(update: JsonObject, create: boolean): string {
  const r = convert("v2", "v1", "ToolCallUpdate", update, create ? "ToolCall" : "ToolCallUpdate");
  if (!r.ok) throw new Refused(r.error.path, r.error.message);
  const o: JsonObject = { sessionUpdate: create ? "tool_call" : "tool_call_update" };
  for (const [k, x] of entries(obj(parseJson(r.text)))) set(o, k, x);
  const codec = CODECS.get("v1")?.get("SessionUpdate");
  const parsed = codec?.parse(o);
  return codec !== undefined && parsed !== undefined && parsed.ok ? codec.serialize(parsed.value) : writeJson(o);
}

/** How many bytes at the end of `b` start a UTF-8 sequence that is not complete yet. */
function incompleteTail(b: Uint8Array): number {
  const n = b.length;
  for (let back = 1; back <= Math.min(n, 3); back++) {
    const x = b[n - back] as number;
    if ((x & 0xc0) === 0x80) continue;
    const need = x >= 0xc2 && x <= 0xdf ? 2 : x >= 0xe0 && x <= 0xef ? 3 : x >= 0xf0 && x <= 0xf4 ? 4 : 0;
    return back < need ? back : 0;
  }
  return 0;
}

function oneLine(text: string): string {
  const t = new Transcript();
  t.push(utf8(text));
  return t.text.replaceAll("\n", " ");
}

/** The number of code points of `s`. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff || i === 0 || (s.charCodeAt(i - 1) & 0xfc00) !== 0xd800) n++;
  }
  return n;
}

/** The UTF-16 index of code point `k` of `s`. */
function indexOfCodePoint(s: string, k: number): number {
  let i = 0;
  for (let n = 0; n < k && i < s.length; n++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return i;
}

/** The head and tail of `text` when it has more than `cap` characters (code points). */
export function capText(text: string, cap: number | null): string {
  if (cap === null) return text;
  const n = codePoints(text);
  if (n <= cap) return text;
  const head = Math.floor(cap / 2);
  const tail = cap - head;
  return `${text.slice(0, indexOfCodePoint(text, head))}\n[... ${n - cap} characters left out ...]\n${text.slice(indexOfCodePoint(text, n - tail))}`;
}

function exitText(code: number | null, signal: string | null): string {
  if (code !== null && signal === null) return `[exit code ${code}]`;
  if (code === null && signal !== null) return `[signal ${oneLine(signal)}]`;
  if (code !== null && signal !== null) return `[exit code ${code}, signal ${oneLine(signal)}]`;
  return "[exited]";
}

// ---------------------------------------------------------------------------------
// Ingest of the v1 `_meta` terminal convention

/**
 * Applies one v1 SessionUpdate (JSON text) to `store`: the `_meta` terminal convention of
 * `tool_call` / `tool_call_update` (terminal_info {terminal_id, cwd}, terminal_output
 * {terminal_id, data}, terminal_exit {terminal_id, exit_code, signal}) becomes terminal
 * state, output bytes (the UTF-8 of `data`) and a link from the tool call. Malformed
 * convention data is a warning (that member is skipped); a parse error applies nothing.
 */
export function ingestV1(store: TerminalStore, text: string): ApplyResult {
  const codec = CODECS.get("v1")?.get("SessionUpdate");
  if (codec === undefined) throw new Error("the v1 registry has no SessionUpdate");
  const parsed = codec.parse(text);
  if (!parsed.ok) return parsed;
  const warnings = [...parsed.warnings];
  const v = obj(parseJson(codec.serialize(parsed.value)));
  const tag = tagOf(v, "sessionUpdate");
  const meta = getMember(v, "_meta");
  if ((tag !== "tool_call" && tag !== "tool_call_update") || !isObject(meta)) return { ok: true, warnings };
  const call = tagOf(v, "toolCallId");
  const warn = (kind: Problem["kind"], path: string, message: string): void => {
    warnings.push({ kind, path, message });
  };
  const updates: JsonObject[] = [];
  const linked: string[] = [];
  for (const key of ["terminal_info", "terminal_output", "terminal_exit"]) {
    const m = getMember(meta, key);
    if (m === undefined) continue;
    const p = `/_meta/${key}`;
    if (!isObject(m)) {
      warn("wrong_type", p, rules.conventionNotObject(key));
      continue;
    }
    const id = getMember(m, "terminal_id");
    if (id === undefined) {
      warn("missing_field", `${p}/terminal_id`, rules.conventionNoId(key));
      continue;
    }
    if (typeof id !== "string") {
      warn("wrong_type", `${p}/terminal_id`, rules.conventionIdType(key));
      continue;
    }
    if (!linked.includes(id)) linked.push(id);
    const u: JsonObject = {};
    if (key === "terminal_info") {
      u["sessionUpdate"] = "terminal_update";
      u["terminalId"] = id;
      const cwd = getMember(m, "cwd");
      if (typeof cwd === "string") {
        if (isAbsolutePath(cwd)) u["cwd"] = cwd;
        else warn("relative_path", `${p}/cwd`, rules.CWD_RELATIVE);
      } else if (cwd !== undefined && cwd !== null) {
        warn("wrong_type", `${p}/cwd`, rules.CWD_TYPE);
      }
    } else if (key === "terminal_output") {
      const data = getMember(m, "data");
      if (typeof data !== "string") {
        if (data === undefined) warn("missing_field", `${p}/data`, rules.OUTPUT_NO_DATA);
        else warn("wrong_type", `${p}/data`, rules.OUTPUT_DATA_TYPE);
        continue;
      }
      u["sessionUpdate"] = "terminal_output_chunk";
      u["terminalId"] = id;
      u["data"] = encodeBase64(utf8(data));
    } else {
      const status: JsonObject = {};
      const code = getMember(m, "exit_code");
      if (typeof code === "number") {
        if (!Number.isInteger(code)) warn("wrong_type", `${p}/exit_code`, rules.EXIT_CODE_TYPE);
        else if (code < 0 || code > 4294967295) warn("out_of_range", `${p}/exit_code`, rules.EXIT_CODE_RANGE);
        else status["exitCode"] = code;
      } else if (code !== undefined && code !== null) {
        warn("wrong_type", `${p}/exit_code`, rules.EXIT_CODE_TYPE);
      }
      const signal = getMember(m, "signal");
      if (typeof signal === "string") status["signal"] = signal;
      else if (signal !== undefined && signal !== null) warn("wrong_type", `${p}/signal`, rules.SIGNAL_TYPE);
      u["sessionUpdate"] = "terminal_update";
      u["terminalId"] = id;
      u["exitStatus"] = status;
    }
    updates.push(u);
  }
  if (linked.length > 0) {
    const refs: string[] = [];
    for (const [id, t] of store.terminals()) if ([...t.toolCalls].some((c) => c === call)) refs.push(id);
    for (const id of linked) if (!refs.includes(id)) refs.push(id);
    updates.unshift({
      sessionUpdate: "tool_call_update",
      toolCallId: call,
      content: refs.map((id): Json => ({ type: "terminal", terminalId: id })),
    });
  }
  for (const u of updates) {
    const r = store.applyText(writeJson(u));
    if (!r.ok) return r;
  }
  return { ok: true, warnings };
}
