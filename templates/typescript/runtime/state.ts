// The session-state reducer: the one TypeScript interpreter of a schema's `x-state` table.

// The generator writes the annotations as a table (`STATE_RULES` of the registry); this
// applies it with the same rules as the Rust and Python runtimes'. Each message is first decoded by the
// package's own types, so what is applied is the canonical value. `upsert` merges (omitted
// unchanged, `null` stored as `null`, a value replaces; a top-level `_meta` patched key by
// key), `append` adds items, text or decoded bytes, `replace` sets, `remove` drops. An action
// whose id or value member the message lacks does nothing. What an Agent can make the state
// hold is bounded (`StateLimits`): past a limit the oldest go first (the first-seen target of
// its kind, the first items, bytes or code points of an appended member), counted in
// `StateCounters`.

import { decodeBase64, encodeBase64 } from "./base64.js";
import { type ParseResult, type Problem, pointer, pushToken } from "./errors.js";
import { getMember, type Json, type JsonObject, keysOf, objectOf, parseJson } from "./json.js";
import { writeJson } from "./writer.js";
import { DEFAULT_MAX_STATE_BYTES, DEFAULT_MAX_STATE_ITEMS, DEFAULT_MAX_STATE_MEMBERS, DEFAULT_MAX_STATE_TARGETS, DEFAULT_MAX_STATE_TEXT } from "./limits.js";

/** What a session state keeps at most; the same in the three languages. */
export interface StateLimits {
  /** Targets of one kind (of one owner) kept by id: a new one past it drops the first seen. */
  readonly maxTargets: number;
  /** Items an appended array member keeps: past it the first go. */
  readonly maxItems: number;
  /** Decoded bytes an appended bytes member keeps: past it the first go. */
  readonly maxBytes: number;
  /** Code points an appended text member keeps: past it the first go. */
  readonly maxText: number;
  /**
   * Members an upsert lets a target have beyond those its definitions name (which are always
   * kept), and keys its top-level `_meta`: a member (or key) new to the target past it is not
   * kept (counted); one it has is still replaced or cleared.
   */
  readonly maxMembers: number;
}

/** The default limits (`templates/rules/limits.txt`), safe for an interactive Client. */
export const DEFAULT_STATE_LIMITS: StateLimits = Object.freeze({
  maxTargets: DEFAULT_MAX_STATE_TARGETS,
  maxItems: DEFAULT_MAX_STATE_ITEMS,
  maxBytes: DEFAULT_MAX_STATE_BYTES,
  maxText: DEFAULT_MAX_STATE_TEXT,
  maxMembers: DEFAULT_MAX_STATE_MEMBERS,
});

/**
 * The limits a JSON object gives (`{"maxTargets": 100, "maxBytes": 0}`, as a `state` fixture or a
 * Client's settings write them); a limit it leaves out is the default. An error result for a
 * value that is not an object (`wrong_type`), a member that is no limit (`forbidden_member`), or a
 * limit that is not a whole number from 0 to 2^53 - 1 (`wrong_type`, `out_of_range`), at its
 * pointer.
 */
export function stateLimitsFromJson(v: Json): { ok: true; limits: StateLimits } | { ok: false; error: Problem } {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return { ok: false, error: { kind: "wrong_type", path: "", message: "limits are an object of maxTargets, maxItems, maxBytes, maxText and maxMembers" } };
  const out: { -readonly [K in keyof StateLimits]: number } = { ...DEFAULT_STATE_LIMITS };
  for (const name of keysOf(v)) {
    const n = getMember(v, name);
    const path = pointer([name]);
    if (name !== "maxTargets" && name !== "maxItems" && name !== "maxBytes" && name !== "maxText" && name !== "maxMembers") {
      return { ok: false, error: { kind: "forbidden_member", path, message: "the limits are maxTargets, maxItems, maxBytes, maxText and maxMembers" } };
    }
    if (typeof n !== "number" || !Number.isInteger(n)) return { ok: false, error: { kind: "wrong_type", path, message: "a limit is a whole number" } };
    // The same range in the three languages: what a JSON number holds exactly.
    if (n < 0 || n > Number.MAX_SAFE_INTEGER) return { ok: false, error: { kind: "out_of_range", path, message: "a limit is a whole number from 0 to 9007199254740991 (2^53 - 1)" } };
    out[name] = n;
  }
  return { ok: true, limits: out };
}

/** What a session state dropped because a limit was hit (the JSON `state` fixtures compare). */
export interface StateCounters {
  targetsDropped: number;
  itemsDropped: number;
  bytesDropped: number;
  /** In code points. */
  textDropped: number;
  /** Members and `_meta` keys an upsert did not keep (`StateLimits.maxMembers`). */
  membersDropped: number;
}

/** The number of code points of `s` (a lone surrogate counts as one). */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) i++;
    }
  }
  return n;
}

/**
 * Decoded bytes of one appended member: `buf[start..end)`. The first bytes past `maxBytes` are
 * dropped by moving `start`, and the buffer is compacted once what it has dropped is as long as
 * what it keeps, so an append costs its chunk (amortised), not the limit.
 */
interface HeldBytes {
  readonly kind: "bytes";
  readonly path: readonly string[];
  buf: Uint8Array;
  start: number;
  end: number;
}

/**
 * The text of one appended text member, kept in parts: `parts[head]` from UTF-16 unit `off`, then
 * the parts after it, `points` code points in all. A part is merged into the one before it once
 * it is at least half as long, so there are few parts; the first code points past `maxText` are
 * dropped by moving `head` and `off`. So an append costs its chunk (amortised), not the limit
 * (where counting the whole text did).
 */
interface HeldText {
  readonly kind: "text";
  readonly path: readonly string[];
  parts: string[];
  head: number;
  off: number;
  points: number;
}

/**
 * The items of one appended array member: `items[head..]`. The first past `maxItems` are dropped
 * by moving `head`, and the array is compacted once what it dropped is as long as what it keeps.
 */
interface HeldItems {
  readonly kind: "items";
  readonly path: readonly string[];
  items: V[];
  head: number;
}

/** What an appended member holds beside the state (which holds "" or [] there). */
type Held = HeldBytes | HeldText | HeldItems;

function isHigh(u: number): boolean {
  return u >= 0xd800 && u < 0xdc00;
}

function isLow(u: number): boolean {
  return u >= 0xdc00 && u < 0xe000;
}

/** Appends `chunk` to `held`, keeping its last `max` code points: how many it dropped, and the units it copied. */
function pushText(held: HeldText, chunk: string, max: number): { dropped: number; copied: number } {
  const parts = held.parts;
  let copied = chunk.length;
  if (chunk.length > 0) {
    // Whole code points: the JSON parser refuses a lone surrogate, so no pair is split.
    parts.push(chunk);
    held.points += codePoints(chunk);
    while (parts.length - held.head >= 2 && 2 * (parts[parts.length - 1] as string).length >= (parts[parts.length - 2] as string).length) {
      const tail = parts.pop() as string;
      parts[parts.length - 1] += tail;
      copied += (parts[parts.length - 1] as string).length;
    }
  }
  let cut = held.points - max;
  const dropped = Math.max(cut, 0);
  while (cut > 0) {
    const first = parts[held.head] as string;
    // Past whole code points of the first part, as far as `cut` goes.
    let i = held.off;
    while (cut > 0 && i < first.length) {
      i += isHigh(first.charCodeAt(i)) && isLow(first.charCodeAt(i + 1)) ? 2 : 1;
      cut--;
    }
    copied += i - held.off;
    if (i >= first.length) {
      held.head++;
      held.off = 0;
    } else {
      held.off = i;
    }
  }
  held.points -= dropped;
  if (held.head > 16 && 2 * held.head > parts.length) {
    copied += parts.length - held.head;
    held.parts = parts.slice(held.head);
    held.head = 0;
  }
  return { dropped, copied };
}

function heldText(held: HeldText): string {
  const parts = held.parts;
  if (held.head >= parts.length) return "";
  return (parts[held.head] as string).slice(held.off) + parts.slice(held.head + 1).join("");
}

/** Appends `chunk` to `held`, keeping its last `max` bytes: how many it dropped, and the bytes it copied. */
function pushHeld(held: HeldBytes, chunk: Uint8Array, max: number): { dropped: number; copied: number } {
  const kept = held.end - held.start;
  if (chunk.length >= max) {
    // The chunk alone fills the limit: its last bytes are all that is kept.
    held.buf = chunk.slice(chunk.length - max);
    held.start = 0;
    held.end = max;
    return { dropped: kept + chunk.length - max, copied: max };
  }
  let copied = chunk.length;
  if (held.end + chunk.length > held.buf.length) {
    const bigger = new Uint8Array(Math.max(2 * (kept + chunk.length), 256));
    bigger.set(held.buf.subarray(held.start, held.end));
    copied += kept;
    held.buf = bigger;
    held.start = 0;
    held.end = kept;
  }
  held.buf.set(chunk, held.end);
  held.end += chunk.length;
  const dropped = Math.max(0, held.end - held.start - max);
  held.start += dropped;
  if (held.start > 0 && held.start >= held.end - held.start) {
    held.buf.copyWithin(0, held.start, held.end);
    copied += held.end - held.start;
    held.end -= held.start;
    held.start = 0;
  }
  return { dropped, copied };
}

/** How the reducer decodes a message of a definition (the registry's codecs). */
export interface StateCodec {
  parse(input: string): ParseResult<unknown>;
  serialize(value: unknown): string;
}

/** A value of the state: JSON, with objects as ordered maps. */
type V = null | boolean | number | string | V[] | Map<string, V>;

interface Rule {
  readonly owner: string;
  readonly message: string;
  readonly tag: readonly [string, string] | null;
  readonly action: string;
  readonly target: string;
  readonly keyed: boolean;
  readonly id: readonly string[] | null;
  readonly field: readonly string[] | null;
  readonly value: readonly string[] | null;
  readonly appends: string | null;
  /** The members the target's definitions name: always kept, where `maxMembers` bounds the others. */
  readonly known: ReadonlySet<string>;
  /** Tag members the message must have one of the given tags at (a value taken from a variant the package does not know changes nothing). */
  readonly when: readonly (readonly [readonly string[], ReadonlySet<string>])[];
}

function toV(j: Json): V {
  if (Array.isArray(j)) return j.map(toV);
  if (j !== null && typeof j === "object") return new Map(keysOf(j).map((k) => [k, toV(getMember(j, k) ?? null)]));
  return j;
}

function toJson(v: V): Json {
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof Map) return objectOf([...v].map(([k, x]) => [k, toJson(x)] as const));
  return v;
}

function get(v: V | undefined, path: readonly string[]): V | undefined {
  for (const name of path) v = v instanceof Map ? v.get(name) : undefined;
  return v;
}

/** The object holding the member at `path` (objects made on the way), and its name. */
function slot(parent: Map<string, V>, path: readonly string[]): [Map<string, V>, string] {
  for (const name of path.slice(0, -1)) {
    let next = parent.get(name);
    if (!(next instanceof Map)) {
      next = new Map();
      parent.set(name, next);
    }
    parent = next;
  }
  const last = path[path.length - 1] ?? "";
  if (!parent.has(last)) parent.set(last, null);
  return [parent, last];
}

function object(holder: Map<string, V>, key: string): Map<string, V> {
  let o = holder.get(key);
  if (!(o instanceof Map)) {
    o = new Map();
    holder.set(key, o);
  }
  return o;
}

/**
 * Merges an upsert's `value` into `into`. A member of `known` is always kept; of the others, and
 * of the keys of `_meta`, at most `cap` (a new one past it is not kept). Returns how many it did
 * not keep.
 */
function merge(into: Map<string, V>, value: Map<string, V>, skip: string | null, cap: number, known: ReadonlySet<string>): number {
  let dropped = 0;
  // The members kept that the definitions do not name, counted when first needed.
  let others = -1;
  for (const [name, v] of value) {
    if (name === skip) continue;
    if (!into.has(name) && !known.has(name)) {
      if (others < 0) {
        others = 0;
        for (const k of into.keys()) if (!known.has(k)) others++;
      }
      if (others >= cap) {
        dropped++;
        continue;
      }
      others++;
    }
    if (name === "_meta" && v instanceof Map) {
      // In place (the stored `_meta` is always a map of its own, made here), so that a
      // patch costs its own size, not the size of what is kept.
      const old = into.get(name);
      const meta = old instanceof Map ? old : new Map<string, V>();
      for (const [k, x] of v) {
        if (x === null) meta.delete(k);
        else if (meta.size < cap || meta.has(k)) meta.set(k, x);
        else dropped++;
      }
      into.set(name, meta);
    } else into.set(name, v);
  }
  return dropped;
}

/**
 * What rule `r` takes from `message`: the id (`null` for a singleton), the value and the tag
 * member to leave out; `null` when its guards or paths do not hold.
 */
function resolve(r: Rule, message: V): { id: string | null; value: V; skip: string | null } | null {
  for (const [path, tags] of r.when) {
    const got = get(message, path);
    if (typeof got !== "string" || !tags.has(got)) return null;
  }
  let id: string | null = null;
  if (r.id !== null) {
    const got = get(message, r.id);
    if (typeof got !== "string") return null;
    id = got;
  }
  const value = r.value === null ? message : get(message, r.value);
  if (value === undefined) return null;
  return { id, value, skip: r.value === null && r.tag !== null ? r.tag[0] : null };
}

/** One target a caller keeps itself, changed by `SessionState.upsertInto`. */
export class KeptTarget {
  /** @internal The members, in the state's own form. */
  readonly members = new Map<string, V>();

  /** The member `name` as JSON; `undefined` when absent (a cleared member is `null`). */
  member(name: string): Json | undefined {
    const v = this.members.get(name);
    return v === undefined ? undefined : toJson(v);
  }

  /** Whether member `name` holds a value (neither absent nor `null`). */
  holds(name: string): boolean {
    const v = this.members.get(name);
    return v !== undefined && v !== null;
  }
}

/** Whether two values are the same JSON value, member order aside. */
function same(a: V, b: V): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i] ?? null));
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, x] of a) {
      const y = b.get(k);
      if (y === undefined || !same(x, y)) return false;
    }
    return true;
  }
  return a === b;
}

const strings = (v: Json | undefined): string[] | null => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : null);
const str = (v: Json | undefined): string | null => (typeof v === "string" ? v : null);

/** The state of one session, as the schema's `x-state` annotations define it. */
export class SessionState {
  private readonly rules: Rule[] = [];
  /** The definition each target of the `session` owner is (`typeOf`), and those kept by id. */
  private readonly types = new Map<string, string>();
  private readonly keyedSession = new Set<string>();
  private state = new Map<string, V>();
  /** What appends added to appended members (decoded bytes, text, items), by target (owner, target, id) and member path. */
  private held = new Map<string, { at: string[]; members: Map<string, Held> }>();
  private readonly limits: StateLimits;
  private readonly dropped: StateCounters = { targetsDropped: 0, itemsDropped: 0, bytesDropped: 0, textDropped: 0, membersDropped: 0 };
  /** What appends to the held bytes and text members copied (`work`). */
  private copied = 0;

  /**
   * An empty state with the table `rules` (`STATE_RULES.get(version)`), decoding each message
   * with `codecs` (`CODECS.get(version)`), keeping at most `limits`.
   */
  constructor(
    rules: string,
    private readonly codecs: ReadonlyMap<string, StateCodec>,
    limits: Partial<StateLimits> = {},
  ) {
    const given = Object.fromEntries(Object.entries(limits).filter(([, n]) => n !== undefined)) as Partial<StateLimits>;
    this.limits = { ...DEFAULT_STATE_LIMITS, ...given };
    for (const [name, n] of Object.entries(this.limits)) {
      if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`the limit ${name} must be a whole number from 0 up; got ${String(n)}`);
    }
    const table = parseJson(rules) as JsonObject;
    for (const owner of keysOf(table)) {
      // Every owner is there from the start, empty (`{"session": {}}`).
      this.state.set(owner, new Map());
      const o = getMember(table, owner) as JsonObject;
      const all = getMember(o, "targets") as JsonObject[];
      const targets = all.filter((t) => getMember(t, "keyed") === true).map((t) => getMember(t, "name"));
      const known = new Map(all.map((t) => [getMember(t, "name"), new Set(strings(getMember(t, "members")) ?? [])] as const));
      if (owner === "session") {
        for (const t of all) {
          const [name, type] = [str(getMember(t, "name")), str(getMember(t, "type"))];
          if (name !== null && type !== null) this.types.set(name, type);
          if (name !== null && getMember(t, "keyed") === true) this.keyedSession.add(name);
        }
      }
      for (const r of getMember(o, "rules") as JsonObject[]) {
        const [tag, member] = [str(getMember(r, "tag")), str(getMember(r, "tagMember"))];
        const target = str(getMember(r, "target")) ?? "";
        this.rules.push({
          owner,
          message: str(getMember(r, "union")) ?? str(getMember(r, "message")) ?? "",
          tag: tag !== null && member !== null ? [member, tag] : null,
          action: str(getMember(r, "action")) ?? "",
          target,
          keyed: targets.includes(target),
          known: known.get(target) ?? new Set(),
          id: strings(getMember(r, "id")),
          field: strings(getMember(r, "field")),
          value: strings(getMember(r, "value")),
          appends: str(getMember(r, "appends")),
          when: ((getMember(r, "when") ?? []) as JsonObject[]).map((g) => [strings(getMember(g, "path")) ?? [], new Set(strings(getMember(g, "in")) ?? [])] as const),
        });
      }
    }
  }

  /** The limits in force. */
  get stateLimits(): StateLimits {
    return this.limits;
  }

  /**
   * What appends to bytes and text members have copied so far (bytes, UTF-16 units): each
   * chunk, and what dropping the first bytes or code points past `maxBytes` and `maxText`, and
   * merging the parts of a text, moved. The work counter tests read to check, without a clock,
   * that an append costs its chunk and not the limit.
   */
  get work(): number {
    return this.copied;
  }

  /** What the limits dropped so far. */
  counters(): StateCounters {
    return { ...this.dropped };
  }

  /**
   * Replaces the whole state with `snapshot` (what `snapshot()` gave, kept elsewhere). The
   * limits apply to what comes after, not to the snapshot. An error (the state unchanged)
   * when it is not an object of owners, a bytes member holds anything but strict base64 or
   * `null`, or a target does not decode as its definition (`typeOf`) without a warning: the
   * problem's kind and pointer.
   */
  restore(snapshot: Json): { ok: true } | { ok: false; error: Problem } {
    const v = toV(snapshot);
    const fail = (kind: Problem["kind"], at: readonly string[], message: string) => ({ ok: false as const, error: { kind, path: at.reduce(pushToken, ""), message } });
    if (!(v instanceof Map)) return fail("wrong_type", [], "a session-state snapshot is an object of owners");
    for (const [owner, targets] of v) if (!(targets instanceof Map)) return fail("wrong_type", [owner], "each owner of a snapshot is an object");
    for (const r of this.rules) {
      if (r.appends !== "bytes") continue;
      const at = get(v, [r.owner, r.target]);
      const entities: [string | null, V | undefined][] = r.keyed ? (at instanceof Map ? [...at] : []) : [[null, at]];
      for (const [id, entity] of entities) {
        const x = get(entity, r.field ?? []);
        const where = [r.owner, r.target, ...(id === null ? [] : [id]), ...(r.field ?? [])];
        if (typeof x === "string") {
          try {
            decodeBase64(x);
          } catch (e) {
            return fail("invalid_base64", where, e instanceof Error ? e.message : String(e));
          }
        } else if (x !== undefined && x !== null) return fail("wrong_type", where, "a bytes member is base64 text");
      }
    }
    // Each target of a definition must be one the package would have made: it decodes as its
    // definition without an error or a warning.
    const session = v.get("session");
    for (const [target, name] of this.types) {
      const at = session instanceof Map ? session.get(target) : undefined;
      const codec = this.codecs.get(name);
      if (at === undefined || codec === undefined) continue;
      const entities: [string | null, V][] = this.keyedSession.has(target) && at instanceof Map ? [...at] : [[null, at]];
      for (const [id, entity] of entities) {
        const base = ["session", target, ...(id === null ? [] : [id])].reduce(pushToken, "");
        const r = codec.parse(writeJson(toJson(entity)));
        if (!r.ok) return { ok: false, error: { ...r.error, path: base + r.error.path } };
        const w = r.warnings[0];
        if (w !== undefined) return { ok: false, error: { ...w, path: base + w.path, message: `not what the package keeps: ${w.message}` } };
      }
    }
    this.state = v;
    this.held.clear();
    return { ok: true };
  }

  /**
   * Decodes `text` as the definition `name` and applies what its annotations say. The result
   * is the warnings, or the decoding error (the state unchanged); a definition the package
   * does not have is an `unknown_variant` error at the root.
   */
  apply(name: string, text: string): { ok: true; warnings: Problem[] } | { ok: false; error: Problem } {
    const codec = this.codecs.get(name);
    if (codec === undefined) return { ok: false, error: { kind: "unknown_variant", path: "", message: `the package has no definition \`${name}\`` } };
    const parsed = codec.parse(text);
    if (!parsed.ok) return parsed;
    const message = toV(parseJson(codec.serialize(parsed.value)));
    for (const r of this.rulesOf(name, message)) this.act(r, message);
    return { ok: true, warnings: parsed.warnings };
  }

  /** The rules of a message of definition `name` (its union's tag read from `message`). */
  private rulesOf(name: string, message: V): Rule[] {
    return this.rules.filter((r) => r.message === name && (r.tag === null || (message instanceof Map && message.get(r.tag[0]) === r.tag[1])));
  }

  /**
   * Applies the upserts that `message` (of definition `name`, already decoded by the package:
   * its canonical JSON) makes to a target of kind `target`, to `kept`: one such target kept by
   * the caller instead of this state. The terminal store keeps its terminals so, beside their
   * bytes: an upsert changes `kept` exactly as it changes a target of this state (omitted
   * unchanged, `null` kept as `null`, a value replacing, `_meta` key by key, at most `maxMembers`
   * members and `_meta` keys as `StateLimits.maxMembers` says). Appends are not applied: the
   * caller keeps what is appended. Returns how many members and keys it did not keep.
   */
  upsertInto(name: string, message: Json, target: string, kept: KeptTarget, maxMembers: number): number {
    const m = toV(message);
    let dropped = 0;
    for (const r of this.rulesOf(name, m)) {
      if (r.target !== target || r.action !== "upsert") continue;
      const got = resolve(r, m);
      if (got !== null && got.value instanceof Map) dropped += merge(kept.members, got.value, got.skip, maxMembers, r.known);
    }
    return dropped;
  }

  private act(r: Rule, message: V): void {
    const got = resolve(r, message);
    if (got === null) return;
    const { id, value, skip } = got;
    const owner = object(this.state, r.owner);
    if (r.action === "remove") {
      const byId = owner.get(r.target);
      if (byId instanceof Map && id !== null) byId.delete(id);
      this.dropHeld(r, id, []);
      return;
    }
    const [holder, key] = r.keyed ? [object(owner, r.target), id ?? ""] : [owner, r.target];
    const fresh = r.keyed && !holder.has(key);
    if (!holder.has(key)) holder.set(key, null);
    this.change(r, id, value, skip, holder, key);
    // Past the limit, the first-seen targets of this kind go (after the action, so that
    // with a limit of 0 the new one goes too).
    const cut = fresh ? holder.size - this.limits.maxTargets : 0;
    if (cut > 0) {
      // In one pass: a restored snapshot past the limit may drop many at once.
      const gone: string[] = [];
      for (const k of holder.keys()) {
        if (gone.length === cut) break;
        gone.push(k);
      }
      for (const k of gone) {
        holder.delete(k);
        this.dropHeld(r, k, []);
      }
      this.dropped.targetsDropped += cut;
    }
  }

  private change(r: Rule, id: string | null, value: V, skip: string | null, holder: Map<string, V>, key: string): void {
    if (r.action === "upsert") {
      if (value instanceof Map) {
        this.dropped.membersDropped += merge(object(holder, key), value, skip, this.limits.maxMembers, r.known);
        for (const name of value.keys()) this.dropHeld(r, id, [name]);
      }
    } else if (r.action === "replace") {
      let v = value;
      if (v instanceof Map && skip !== null) {
        v = new Map(v);
        v.delete(skip);
      }
      if (r.field !== null) {
        const [parent, name] = slot(object(holder, key), r.field);
        parent.set(name, v);
      } else holder.set(key, v);
      this.dropHeld(r, id, r.field ?? []);
    } else if (r.action === "append") {
      const field = r.field ?? [];
      let entity = holder.get(key);
      if (!(entity instanceof Map)) {
        entity = new Map();
        const idName = r.id?.[r.id.length - 1];
        if (r.keyed && idName !== undefined && id !== null) entity.set(idName, id);
        holder.set(key, entity);
      }
      const [parent, name] = slot(entity, field);
      const at = parent.get(name) ?? null;
      // Beside the state (which holds "", or [] for items, there): an append costs its chunk,
      // not what the member holds.
      const kind = r.appends === "bytes" ? "bytes" : r.appends === "text" ? "text" : "items";
      const k = JSON.stringify([r.owner, r.target, id]);
      let entry = this.held.get(k);
      if (entry === undefined) {
        entry = { at: [r.owner, r.target, ...(id === null ? [] : [id])], members: new Map() };
        this.held.set(k, entry);
      }
      let held = entry.members.get(JSON.stringify(field));
      if (held === undefined || held.kind !== kind) {
        if (kind === "bytes") {
          const first = typeof at === "string" ? decodeBase64(at) : new Uint8Array();
          held = { kind, path: field, buf: first, start: 0, end: first.length };
        } else if (kind === "text") {
          const first = typeof at === "string" ? at : "";
          held = { kind, path: field, parts: first === "" ? [] : [first], head: 0, off: 0, points: codePoints(first) };
        } else {
          held = { kind, path: field, items: Array.isArray(at) ? at : [], head: 0 };
        }
        entry.members.set(JSON.stringify(field), held);
      }
      if (held.kind === "bytes") {
        const { dropped, copied } = pushHeld(held, typeof value === "string" ? decodeBase64(value) : new Uint8Array(), this.limits.maxBytes);
        this.dropped.bytesDropped += dropped;
        this.copied += copied;
        parent.set(name, "");
      } else if (held.kind === "text") {
        const { dropped, copied } = pushText(held, typeof value === "string" ? value : "", this.limits.maxText);
        this.dropped.textDropped += dropped;
        this.copied += copied;
        parent.set(name, "");
      } else {
        const items = held.items;
        const before = items.length;
        if (r.appends === "items" && Array.isArray(value)) for (const v of value) items.push(v);
        else items.push(value);
        this.copied += items.length - before;
        const cut = Math.max(0, items.length - held.head - this.limits.maxItems);
        held.head += cut;
        this.dropped.itemsDropped += cut;
        if (held.head > 16 && 2 * held.head > items.length) {
          this.copied += items.length - held.head;
          held.items = items.slice(held.head);
          held.head = 0;
        }
        parent.set(name, []);
      }
    }
  }

  private dropHeld(r: Rule, id: string | null, prefix: readonly string[]): void {
    const k = JSON.stringify([r.owner, r.target, id]);
    const entry = this.held.get(k);
    if (entry === undefined) return;
    for (const [p, held] of [...entry.members]) if (prefix.every((x, i) => held.path[i] === x)) entry.members.delete(p);
    if (entry.members.size === 0) this.held.delete(k);
  }

  /** A copy of the target `key`, `entity`, with what its appended members hold written in (bytes as base64). */
  private withHeld(key: string, entity: V): V {
    let out = toV(toJson(entity));
    for (const held of this.held.get(key)?.members.values() ?? []) {
      if (!(out instanceof Map)) out = new Map();
      const [parent, name] = slot(out, held.path);
      parent.set(name, held.kind === "bytes" ? encodeBase64(held.buf.subarray(held.start, held.end)) : held.kind === "text" ? heldText(held) : held.items.slice(held.head));
    }
    return out;
  }

  /**
   * One target of the `session` state as JSON, bytes members as base64: the singleton
   * `target` (no `id`), or the one of id `id`; `undefined` when the state has none.
   */
  get(target: string, id?: string): Json | undefined {
    const session = this.state.get("session");
    let at = session instanceof Map ? session.get(target) : undefined;
    if (id !== undefined) at = at instanceof Map ? at.get(id) : undefined;
    return at === undefined ? undefined : toJson(this.withHeld(JSON.stringify(["session", target, id ?? null]), at));
  }

  /**
   * The definition a target of the `session` state is: the one its upserts and replaces merge
   * (`ToolCallUpdate` for `toolCall`); `undefined` for one without (a list replaced whole).
   */
  typeOf(target: string): string | undefined {
    return this.types.get(target);
  }

  /**
   * One target (as `get`) decoded as its definition (`typeOf`): the package's own model of it,
   * unknown members kept; `undefined` when the state has none or the target has no
   * definition, an error result when what the state holds does not decode (a restored
   * snapshot that was never the package's).
   */
  typed(target: string, id?: string): ParseResult<unknown> | undefined {
    const name = this.types.get(target);
    const codec = name === undefined ? undefined : this.codecs.get(name);
    const value = this.get(target, id);
    return codec === undefined || value === undefined ? undefined : codec.parse(writeJson(value));
  }

  /**
   * Checks that the state is typed (for the fuzzers and tests): every target of the `session`
   * state that has a definition decodes as it and writes back as the same value. Throws an
   * `Error` with the first that does not.
   */
  checkInvariants(): void {
    const session = this.state.get("session");
    for (const [target, name] of this.types) {
      const at = session instanceof Map ? session.get(target) : undefined;
      if (at === undefined) continue;
      const ids = this.keyedSession.has(target) && at instanceof Map ? [...at.keys()] : [undefined];
      for (const id of ids) {
        const where = id === undefined ? target : `${target} ${JSON.stringify(id)}`;
        const got = this.typed(target, id);
        if (got === undefined) continue;
        if (!got.ok) throw new Error(`${where} does not decode as ${name}: ${got.error.kind} at ${got.error.path}`);
        const back = this.codecs.get(name)?.serialize(got.value) ?? "";
        if (!same(toV(parseJson(back)), toV(this.get(target, id) ?? null))) throw new Error(`${where} does not write back as itself through ${name}`);
      }
    }
  }

  /**
   * The whole state as JSON: `{owner: {target: value}}`, a keyed target as an object of its
   * ids in first-seen order, bytes members as base64.
   */
  snapshot(): JsonObject {
    const out = toV(toJson(this.state)) as Map<string, V>;
    for (const [k, entry] of this.held) {
      const [parent, name] = slot(out, entry.at);
      parent.set(name, this.withHeld(k, parent.get(name) ?? null));
    }
    return toJson(out) as JsonObject;
  }
}
