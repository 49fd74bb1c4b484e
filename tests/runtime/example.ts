// A hand-written stand-in for generated code: TerminalUpdate, ToolCallUpdate (part) and SessionUpdate (part) on the runtime.
//
// It shows the pattern generated decoders and encoders follow:
// - a decoder is a `Decoder<T>`: `(v: Json, cx: Cx) => T`, reporting every problem through `cx`;
// - an object's members are walked once, in input order, with a `switch` on the name;
//   each known member goes through one member helper (`required`, `optional`, `maybe`,
//   `patch`) with its options; anything else is kept under `[EXTRA]`, in input order;
// - required members are checked after the loop, in schema order (`cx.missing`), so the
//   first problem in input order wins and missing members come after all present ones;
// - a tagged union reads its tag first, then decodes the payload's members skipping the tag;
// - an encoder writes the tag, known members in schema order (optional ones only when
//   present, patch members as set), then `[EXTRA]`;
// - an unknown tag of an open union keeps the whole object (`unknownVariant`, model.ts).

import {
  addExtra,
  Cx,
  type Decoder,
  type MemberOptions,
  decodeAbsolutePath,
  decodeBytes,
  decodeJson,
  decodeObject,
  decodeString,
  decodeText,
  decodeUint32,
  encodeText,
} from "../../templates/typescript/runtime/decode.js";
import type { ParseResult } from "../../templates/typescript/runtime/errors.js";
import { type Json, type JsonObject, keysOf, type ObjectBuilder } from "../../templates/typescript/runtime/json.js";
import {
  EXTRA,
  type UnknownVariant,
  type WithExtra,
  isUnknownVariant,
  unknownVariant,
} from "../../templates/typescript/runtime/model.js";
import {
  type Encoder,
  type Writer,
  encodeJson,
  encodeNumber,
  encodeObject,
  encodeString,
} from "../../templates/typescript/runtime/writer.js";

// Options are constants shared by every member that needs them (no allocation per call).
const LENIENT: MemberOptions = { lenient: true };
const LENIENT_SKIP_ITEMS: MemberOptions = { lenient: true, skipItems: true };

// --- TerminalOutput ---

/** A replacement snapshot of a terminal's output. */
export interface TerminalOutput extends WithExtra {
  /** Every retained output byte (base64 on the wire). */
  data: Uint8Array;
  /** Extension data; omitted and `null` mean none. */
  _meta?: JsonObject;
}

export const decodeTerminalOutput: Decoder<TerminalOutput> = (v, cx) => {
  const obj = cx.expectObject(v);
  let data: Uint8Array | undefined;
  let meta: JsonObject | undefined;
  let extra: ObjectBuilder | undefined;
  for (const k of keysOf(obj)) {
    const m = obj[k];
    if (m === undefined) continue;
    switch (k) {
      case "data":
        data = cx.required(k, m, decodeBytes);
        break;
      case "_meta":
        meta = cx.optional(k, m, decodeObject, LENIENT);
        break;
      default:
        extra = addExtra(extra, k, m, cx);
    }
  }
  if (data === undefined) return cx.missing("data");
  const out: TerminalOutput = { data };
  if (meta !== undefined) out._meta = meta;
  if (extra !== undefined) out[EXTRA] = extra.finish();
  return out;
};

export const encodeTerminalOutput: Encoder<TerminalOutput> = (w, x) => {
  w.beginObject();
  w.key("data");
  w.bytes(x.data);
  w.putOptional("_meta", x._meta, encodeObject);
  if (x[EXTRA] !== undefined) w.members(x[EXTRA]);
  w.endObject();
};

// --- TerminalExitStatus ---

/** How the terminal's process ended. */
export interface TerminalExitStatus extends WithExtra {
  exitCode?: number;
  signal?: string;
  _meta?: JsonObject;
}

export const decodeTerminalExitStatus: Decoder<TerminalExitStatus> = (v, cx) => {
  const obj = cx.expectObject(v);
  const out: TerminalExitStatus = {};
  let extra: ObjectBuilder | undefined;
  for (const k of keysOf(obj)) {
    const m = obj[k];
    if (m === undefined) continue;
    switch (k) {
      case "exitCode": {
        const x = cx.optional(k, m, decodeUint32, LENIENT);
        if (x !== undefined) out.exitCode = x;
        break;
      }
      case "signal": {
        const x = cx.optional(k, m, decodeString, LENIENT);
        if (x !== undefined) out.signal = x;
        break;
      }
      case "_meta": {
        const x = cx.optional(k, m, decodeObject, LENIENT);
        if (x !== undefined) out._meta = x;
        break;
      }
      default:
        extra = addExtra(extra, k, m, cx);
    }
  }
  if (extra !== undefined) out[EXTRA] = extra.finish();
  return out;
};

export const encodeTerminalExitStatus: Encoder<TerminalExitStatus> = (w, x) => {
  w.beginObject();
  w.putOptional("exitCode", x.exitCode, encodeNumber);
  w.putOptional("signal", x.signal, encodeString);
  w.putOptional("_meta", x._meta, encodeObject);
  if (x[EXTRA] !== undefined) w.members(x[EXTRA]);
  w.endObject();
};

// --- TerminalUpdate: every member but terminalId is a lenient patch ---

/** Creates or patches a terminal: omitted = unchanged, `null` = clear, a value = replace. */
export interface TerminalUpdate extends WithExtra {
  terminalId: string;
  command?: string | null;
  cwd?: string | null;
  output?: TerminalOutput | null;
  exitStatus?: TerminalExitStatus | null;
  _meta?: JsonObject | null;
}

/** Decodes TerminalUpdate's members from `obj`, skipping the names in `skip` (a union's tag). */
export function decodeTerminalUpdateMembers(obj: JsonObject, cx: Cx, skip: readonly string[]): TerminalUpdate {
  let terminalId: string | undefined;
  let command: string | null | undefined;
  let cwd: string | null | undefined;
  let output: TerminalOutput | null | undefined;
  let exitStatus: TerminalExitStatus | null | undefined;
  let meta: JsonObject | null | undefined;
  let extra: ObjectBuilder | undefined;
  for (const k of keysOf(obj)) {
    const m = obj[k];
    if (m === undefined) continue;
    switch (k) {
      case "terminalId":
        terminalId = cx.required(k, m, decodeString);
        break;
      case "command":
        command = cx.patch(k, m, decodeString, LENIENT);
        break;
      case "cwd":
        cwd = cx.patch(k, m, decodeAbsolutePath, LENIENT);
        break;
      case "output":
        output = cx.patch(k, m, decodeTerminalOutput, LENIENT);
        break;
      case "exitStatus":
        exitStatus = cx.patch(k, m, decodeTerminalExitStatus, LENIENT);
        break;
      case "_meta":
        meta = cx.patch(k, m, decodeObject, LENIENT);
        break;
      default:
        if (!skip.includes(k)) extra = addExtra(extra, k, m, cx);
    }
  }
  if (terminalId === undefined) return cx.missing("terminalId");
  const out: TerminalUpdate = { terminalId };
  if (command !== undefined) out.command = command;
  if (cwd !== undefined) out.cwd = cwd;
  if (output !== undefined) out.output = output;
  if (exitStatus !== undefined) out.exitStatus = exitStatus;
  if (meta !== undefined) out._meta = meta;
  if (extra !== undefined) out[EXTRA] = extra.finish();
  return out;
}

const NO_SKIP: readonly string[] = [];

export const decodeTerminalUpdate: Decoder<TerminalUpdate> = (v, cx) =>
  decodeTerminalUpdateMembers(cx.expectObject(v), cx, NO_SKIP);

/** Writes TerminalUpdate's known members in schema order. */
export function encodeTerminalUpdateKnown(w: Writer, x: TerminalUpdate): void {
  w.key("terminalId");
  w.string(x.terminalId);
  w.putPatch("command", x.command, encodeString);
  w.putPatch("cwd", x.cwd, encodeString);
  w.putPatch("output", x.output, encodeTerminalOutput);
  w.putPatch("exitStatus", x.exitStatus, encodeTerminalExitStatus);
  w.putPatch("_meta", x._meta, encodeObject);
}

export const encodeTerminalUpdate: Encoder<TerminalUpdate> = (w, x) => {
  w.beginObject();
  encodeTerminalUpdateKnown(w, x);
  if (x[EXTRA] !== undefined) w.members(x[EXTRA]);
  w.endObject();
};

// --- ToolCallLocation and (part of) ToolCallUpdate: a skip-invalid-items array ---

export interface ToolCallLocation extends WithExtra {
  path: string;
  line?: number;
  _meta?: JsonObject;
}

export const decodeToolCallLocation: Decoder<ToolCallLocation> = (v, cx) => {
  const obj = cx.expectObject(v);
  let path: string | undefined;
  let line: number | undefined;
  let meta: JsonObject | undefined;
  let extra: ObjectBuilder | undefined;
  for (const k of keysOf(obj)) {
    const m = obj[k];
    if (m === undefined) continue;
    switch (k) {
      case "path":
        path = cx.required(k, m, decodeAbsolutePath);
        break;
      case "line":
        line = cx.optional(k, m, decodeUint32, LENIENT);
        break;
      case "_meta":
        meta = cx.optional(k, m, decodeObject, LENIENT);
        break;
      default:
        extra = addExtra(extra, k, m, cx);
    }
  }
  if (path === undefined) return cx.missing("path");
  const out: ToolCallLocation = { path };
  if (line !== undefined) out.line = line;
  if (meta !== undefined) out._meta = meta;
  if (extra !== undefined) out[EXTRA] = extra.finish();
  return out;
};

export const encodeToolCallLocation: Encoder<ToolCallLocation> = (w, x) => {
  w.beginObject();
  w.key("path");
  w.string(x.path);
  w.putOptional("line", x.line, encodeNumber);
  w.putOptional("_meta", x._meta, encodeObject);
  if (x[EXTRA] !== undefined) w.members(x[EXTRA]);
  w.endObject();
};

/** An open string enum: known values plus any other string, kept as is. */
export type ToolKind = "read" | "edit" | "execute" | "other" | (string & {});

/** ToolCallUpdate without `status` and `content` (their unions are beside the point here). */
export interface ToolCallUpdate extends WithExtra {
  toolCallId: string;
  title?: string | null;
  kind?: ToolKind | null;
  locations?: ToolCallLocation[] | null;
  rawInput?: Json;
  rawOutput?: Json;
  _meta?: JsonObject | null;
}

// `x-deserialize-skip-invalid-items`: the member's option sets the flag, `cx.array` takes it.
const decodeLocations: Decoder<ToolCallLocation[]> = (v, cx) => cx.array(v, decodeToolCallLocation);
const encodeLocations: Encoder<readonly ToolCallLocation[]> = (w, v) => w.array(v, encodeToolCallLocation);

export function decodeToolCallUpdateMembers(obj: JsonObject, cx: Cx, skip: readonly string[]): ToolCallUpdate {
  let toolCallId: string | undefined;
  let title: string | null | undefined;
  let kind: string | null | undefined;
  let locations: ToolCallLocation[] | null | undefined;
  let rawInput: Json | undefined;
  let rawOutput: Json | undefined;
  let meta: JsonObject | null | undefined;
  let extra: ObjectBuilder | undefined;
  for (const k of keysOf(obj)) {
    const m = obj[k];
    if (m === undefined) continue;
    switch (k) {
      case "toolCallId":
        toolCallId = cx.required(k, m, decodeString);
        break;
      case "title":
        title = cx.patch(k, m, decodeString, LENIENT);
        break;
      case "kind":
        kind = cx.patch(k, m, decodeString, LENIENT);
        break;
      case "locations":
        locations = cx.patch(k, m, decodeLocations, LENIENT_SKIP_ITEMS);
        break;
      case "rawInput":
        rawInput = cx.patch(k, m, decodeJson, LENIENT);
        break;
      case "rawOutput":
        rawOutput = cx.patch(k, m, decodeJson, LENIENT);
        break;
      case "_meta":
        meta = cx.patch(k, m, decodeObject, LENIENT);
        break;
      default:
        if (!skip.includes(k)) extra = addExtra(extra, k, m, cx);
    }
  }
  if (toolCallId === undefined) return cx.missing("toolCallId");
  const out: ToolCallUpdate = { toolCallId };
  if (title !== undefined) out.title = title;
  if (kind !== undefined) out.kind = kind;
  if (locations !== undefined) out.locations = locations;
  if (rawInput !== undefined) out.rawInput = rawInput;
  if (rawOutput !== undefined) out.rawOutput = rawOutput;
  if (meta !== undefined) out._meta = meta;
  if (extra !== undefined) out[EXTRA] = extra.finish();
  return out;
}

export const decodeToolCallUpdate: Decoder<ToolCallUpdate> = (v, cx) =>
  decodeToolCallUpdateMembers(cx.expectObject(v), cx, NO_SKIP);

export function encodeToolCallUpdateKnown(w: Writer, x: ToolCallUpdate): void {
  w.key("toolCallId");
  w.string(x.toolCallId);
  w.putPatch("title", x.title, encodeString);
  w.putPatch("kind", x.kind, encodeString);
  w.putPatch("locations", x.locations, encodeLocations);
  // A free-JSON patch member: `null` on the wire is "clear", so it is stored as `null`.
  w.putPatch("rawInput", x.rawInput, encodeJson);
  w.putPatch("rawOutput", x.rawOutput, encodeJson);
  w.putPatch("_meta", x._meta, encodeObject);
}

export const encodeToolCallUpdate: Encoder<ToolCallUpdate> = (w, x) => {
  w.beginObject();
  encodeToolCallUpdateKnown(w, x);
  if (x[EXTRA] !== undefined) w.members(x[EXTRA]);
  w.endObject();
};

// --- SessionUpdate (part): an open union tagged by `sessionUpdate` ---

export type SessionUpdate =
  | ({ sessionUpdate: "terminal_update" } & TerminalUpdate)
  | ({ sessionUpdate: "tool_call_update" } & ToolCallUpdate);

const TAG = "sessionUpdate";
const SKIP_TAG: readonly string[] = [TAG];

export const decodeSessionUpdate: Decoder<SessionUpdate | UnknownVariant> = (v, cx) => {
  const obj = cx.expectObject(v);
  const tag = cx.readTag(obj, TAG);
  switch (tag) {
    case "terminal_update":
      return { sessionUpdate: tag, ...decodeTerminalUpdateMembers(obj, cx, SKIP_TAG) };
    case "tool_call_update":
      return { sessionUpdate: tag, ...decodeToolCallUpdateMembers(obj, cx, SKIP_TAG) };
    default:
      // A closed union would instead: return cx.unknownTag(TAG, tag, "SessionUpdate", KNOWN);
      return unknownVariant(tag, obj, TAG, cx);
  }
};

export function isKnownSessionUpdate(u: SessionUpdate | UnknownVariant): u is SessionUpdate {
  return !isUnknownVariant(u);
}

export const encodeSessionUpdate: Encoder<SessionUpdate | UnknownVariant> = (w, u) => {
  w.beginObject();
  w.key(TAG);
  if (isUnknownVariant(u)) {
    w.string(u.tag);
    w.members(u.members);
  } else if (u.sessionUpdate === "terminal_update") {
    w.string(u.sessionUpdate);
    encodeTerminalUpdateKnown(w, u);
    if (u[EXTRA] !== undefined) w.members(u[EXTRA]);
  } else {
    w.string(u.sessionUpdate);
    encodeToolCallUpdateKnown(w, u);
    if (u[EXTRA] !== undefined) w.members(u[EXTRA]);
  }
  w.endObject();
};

// --- what the generated package exports per type ---

export function parseTerminalUpdate(text: string): ParseResult<TerminalUpdate> {
  return decodeText(text, decodeTerminalUpdate);
}

export function stringifyTerminalUpdate(x: TerminalUpdate): string {
  return encodeText(x, encodeTerminalUpdate);
}

export function parseToolCallUpdate(text: string): ParseResult<ToolCallUpdate> {
  return decodeText(text, decodeToolCallUpdate);
}

export function stringifyToolCallUpdate(x: ToolCallUpdate): string {
  return encodeText(x, encodeToolCallUpdate);
}

export function parseSessionUpdate(text: string): ParseResult<SessionUpdate | UnknownVariant> {
  return decodeText(text, decodeSessionUpdate);
}

export function stringifySessionUpdate(x: SessionUpdate | UnknownVariant): string {
  return encodeText(x, encodeSessionUpdate);
}
