// Checked decoding from parsed JSON (pointer, warnings, lenient/optional/patch members) and the parse/encode entry points.

import { Base64Error, decodeBase64 } from "./base64.js";
import { DEFAULT_MAX_WARNINGS, DecodeError, type ErrorKind, type ParseOptions, type ParseResult, type Problem, pointer, pushToken } from "./errors.js";
import { getMember, type Json, type JsonObject, keysOf, MAX_DEPTH, ObjectBuilder, parseJson, wellFormed } from "./json.js";
import { isAbsolutePath, whyNotAbsolute } from "./path.js";
import { matchesPattern, type Pattern } from "./pattern.js";
import { type Encoder, Writer } from "./writer.js";

/** Checks a JSON value and builds a `T`, reporting problems at `cx`'s pointer. */
export type Decoder<T> = (v: Json, cx: Cx) => T;

/** The constraints of one member, checked by the member helpers (`required` ...). */
export interface MemberOptions {
  /** `x-deserialize-default-on-error`: a problem inside the member drops the member and adds a warning. */
  readonly lenient?: boolean;
  /** `x-deserialize-skip-invalid-items`: a problem inside an array item drops the item and adds a warning. */
  readonly skipItems?: boolean;
  /** `minimum`/`maximum`: a number member must lie in `[min, max]` (else `out_of_range`). */
  readonly range?: readonly [min: number, max: number];
  /** `minItems`: an array member needs at least this many items (else `out_of_range` at the array). */
  readonly minItems?: number;
  /** `pattern`: a string member must match it (else `pattern_mismatch`). */
  readonly pattern?: Pattern;
}

/** The largest integer every binding reads exactly (2^53 - 1); the bound of the 64-bit formats. */
export const MAX_SAFE_INTEGER = 9007199254740991;

/**
 * Describes what a value is, for messages: a JSON type (`an object`), or, for what
 * JSON cannot hold, exactly what it is (`a Uint8Array`, `a Map`, `an instance of class
 * Foo`, `NaN`, `undefined`).
 */
export function describe(v: unknown): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return "a boolean";
    case "number":
      return Number.isFinite(v) ? "a number" : String(v);
    case "string":
      return "a string";
    case "undefined":
      return "undefined";
    case "bigint":
      return "a bigint";
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
    default: {
      if (Array.isArray(v)) return "an array";
      if (isPlainObject(v)) return "an object";
      const proto: unknown = Object.getPrototypeOf(v);
      const ctor: unknown = (proto as { constructor?: unknown }).constructor;
      const name = typeof ctor === "function" && ctor.name !== "" ? ctor.name : "";
      if (name === "") return "an object with a prototype (not a plain object)";
      if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return `a ${name} (binary data, not JSON)`;
      if (v instanceof Map || v instanceof Set || v instanceof Date || v instanceof RegExp) return `a ${name}`;
      return `an instance of class ${name}`;
    }
  }
}

/** Whether `v` has a JSON type at its top: `null`, a boolean, a finite number, a string, an array or a plain object. */
function isJsonType(v: unknown): boolean {
  switch (typeof v) {
    case "boolean":
    case "string":
      return true;
    case "number":
      return Number.isFinite(v);
    case "object":
      return v === null || Array.isArray(v) || isPlainObject(v);
    default:
      return false;
  }
}

/**
 * Whether `v` is a plain object (`{}` or `Object.create(null)`): what `JSON.parse`
 * makes, in this realm or another one (a `vm` context, an iframe).
 */
export function isPlainObject(v: unknown): v is JsonObject {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || (typeof proto === "object" && Object.getPrototypeOf(proto) === null);
}

/**
 * What is thrown for a problem that will be absorbed past the warning limit: one shared
 * object, so such a problem makes no pointer, no message and no error object.
 */
const QUIET = new DecodeError({ kind: "wrong_type", path: "", message: "" });

/** Where `objectsOnly` records what a decoder needs first. */
const SHAPE: unique symbol = Symbol("acp-terminal.shape");

interface Shaped {
  [SHAPE]?: string | true;
}

/**
 * Marks a generated decoder whose first step is `cx.expectObject` (and, with `tag`,
 * `cx.readTag(obj, tag)`): an array past its warning limit counts an item that is not such
 * an object as dropped without calling the decoder, so the item costs no throw either.
 */
export function objectsOnly<T>(decode: Decoder<T>, tag?: string): Decoder<T> {
  (decode as Shaped)[SHAPE] = tag ?? true;
  return decode;
}

/** Whether `x` can pass the first step of a decoder marked `shape` (see `objectsOnly`). */
function fitsShape(x: Json, shape: string | true): boolean {
  if (typeof x !== "object" || x === null || Array.isArray(x)) return false;
  return shape === true || typeof getMember(x, shape) === "string";
}

/**
 * Where decoding is (an RFC 6901 pointer, built only when a problem needs it) and
 * what lenient members absorbed so far. One per parse; generated decoders take it as
 * their second argument and report every problem through it.
 *
 * At most `maxWarnings` warnings are kept; past that, a problem that a lenient member
 * or a skipped item absorbs is only counted (`warningsDropped`): nothing is built for it.
 */
export class Cx {
  /** Reference tokens from the root to the value being decoded. */
  private readonly tokens: (string | number)[] = [];
  /** Problems lenient members and skipped items absorbed, in document order (at most `maxWarnings`). */
  readonly warnings: Problem[] = [];
  /** Absorbed problems not kept, past `maxWarnings`. */
  warningsDropped = 0;
  /** How many problems had their pointer and message built: the work counter the tests read. */
  problemsBuilt = 0;
  /** Set by a member with `skipItems`; taken by the next `array` call. */
  private skipItemsNext = false;
  /** A problem thrown now is absorbed (a lenient member or a skipped item is being read). */
  private absorbing = false;

  /**
   * @param fromValue the input is an already parsed value (not our parser's output), so
   * the text rules are checked here: plain objects and arrays only, finite numbers,
   * well-formed strings, nesting at most `MAX_DEPTH` deep.
   * @param maxWarnings how many warnings to keep (`Infinity`: all).
   */
  constructor(
    readonly fromValue: boolean = false,
    readonly maxWarnings: number = DEFAULT_MAX_WARNINGS,
  ) {}

  /** Whether a problem raised now would be absorbed past the warning limit (then nothing is built for it). */
  get silent(): boolean {
    return this.absorbing && this.warnings.length >= this.maxWarnings;
  }

  /** Keeps an absorbed problem, or only counts it past the limit. */
  private keep(e: DecodeError): void {
    if (e === QUIET || this.warnings.length >= this.maxWarnings) this.warningsDropped++;
    else this.warnings.push(e.problem);
  }

  /** The current JSON pointer (`""` at the root). */
  get path(): string {
    return pointer(this.tokens);
  }

  /** Runs `fn` one member deeper. */
  at<T>(token: string, fn: (cx: Cx) => T): T {
    const tokens = this.tokens;
    const depth = tokens.length;
    tokens.push(token);
    try {
      return fn(this);
    } finally {
      tokens.length = depth;
    }
  }

  /** Runs `fn` one array item deeper. */
  index<T>(i: number, fn: (cx: Cx) => T): T {
    const tokens = this.tokens;
    const depth = tokens.length;
    tokens.push(i);
    try {
      return fn(this);
    } finally {
      tokens.length = depth;
    }
  }

  /** A problem at the current pointer. */
  problem(kind: ErrorKind, message: string): Problem {
    this.problemsBuilt++;
    return { kind, path: this.path, message };
  }

  /** Fails with `kind` at the current pointer. */
  fail(kind: ErrorKind, message: string): never {
    if (kind !== "invalid_json" && this.silent) throw QUIET;
    throw new DecodeError(this.problem(kind, message));
  }

  /** Fails with `wrong_type` at the current pointer. */
  wrongType(expected: string, got: unknown): never {
    if (this.fromValue && !isJsonType(got)) {
      // Only a value input can hold this; JSON text cannot, so it is never absorbed as a warning.
      return this.fail("invalid_json", `expected ${expected}, got ${describe(got)}, which JSON cannot hold; pass plain JSON values`);
    }
    if (this.silent) throw QUIET;
    return this.fail("wrong_type", `expected ${expected}, got ${describe(got)}`);
  }

  /** Fails with `missing_field` for member `name` of the object at the current pointer. */
  missing(name: string): never {
    if (this.silent) throw QUIET;
    this.problemsBuilt++;
    throw new DecodeError({
      kind: "missing_field",
      path: pushToken(this.path, name),
      message: `required member \`${name}\` is missing; add it`,
    });
  }

  /**
   * Fails with `missing_field` for an object that has none of the members that select
   * a shape union's alternatives; the pointer names the first of them.
   */
  missingOneOf(names: readonly string[]): never {
    if (this.silent) throw QUIET;
    this.problemsBuilt++;
    const list = names.map((n) => `\`${n}\``).join(" or ");
    throw new DecodeError({
      kind: "missing_field",
      path: pushToken(this.path, names[0] ?? ""),
      message: `the object needs one of the members ${list}; add the one that fits`,
    });
  }

  /** Fails with `unknown_variant` at the current pointer: a closed enum got `value`. */
  unknownValue(value: string, typeName: string, known: readonly string[]): never {
    if (this.silent) throw QUIET;
    return this.fail("unknown_variant", `\`${value}\` is not a known ${typeName} value; use one of: ${known.join(", ")}`);
  }

  /** Fails with `unknown_variant` at the tag member: a closed union got the tag `tag`. */
  unknownTag(tagName: string, tag: string, typeName: string, known: readonly string[]): never {
    if (this.silent) throw QUIET;
    return this.at(tagName, (cx) =>
      cx.fail("unknown_variant", `\`${tag}\` is not a known ${typeName} variant; use one of: ${known.join(", ")}`),
    );
  }

  /** Records an absorbed problem (only counted past the warning limit). */
  warn(p: Problem): void {
    if (this.warnings.length < this.maxWarnings) this.warnings.push(p);
    else this.warningsDropped++;
  }

  /**
   * Runs `fn`; when it fails with a decoding problem, records the problem as a warning
   * and returns `undefined` (the lenient value is dropped).
   */
  absorb<T>(fn: (cx: Cx) => T): T | undefined {
    const depth = this.tokens.length;
    const absorbing = this.absorbing;
    this.absorbing = true;
    try {
      return fn(this);
    } catch (e) {
      if (!absorbable(e)) throw e;
      this.tokens.length = depth;
      this.skipItemsNext = false;
      this.keep(e);
      return undefined;
    } finally {
      this.absorbing = absorbing;
    }
  }

  // --- values ---

  /** Expects an object (a plain one, when decoding a value). */
  expectObject(v: Json): JsonObject {
    if (!this.fromValue) return typeof v === "object" && v !== null && !Array.isArray(v) ? v : this.wrongType("an object", v);
    if (!isPlainObject(v)) return this.wrongType("an object", v);
    this.checkDepth();
    return v;
  }

  /** Expects an object whose member values are all decoded by `value`, in input order. */
  map<T>(v: Json, value: Decoder<T>): { [key: string]: T } {
    const obj = this.expectObject(v);
    const out = new ObjectBuilder();
    const tokens = this.tokens;
    const depth = tokens.length;
    tokens.push("");
    try {
      for (const k of keysOf(obj)) {
        tokens[depth] = k;
        out.add(k, value(getMember(obj, k) as Json, this) as unknown as Json);
      }
    } finally {
      tokens.length = depth;
    }
    return out.finish() as unknown as { [key: string]: T };
  }

  /** Reads the string tag of a tagged union: `missing_field` when absent, `wrong_type` when not a string. */
  readTag(obj: JsonObject, tagName: string): string {
    const tag = getMember(obj, tagName);
    if (tag === undefined) return this.missing(tagName);
    if (typeof tag !== "string") return this.at(tagName, (cx) => cx.wrongType("a string tag", tag));
    if (this.fromValue) this.at(tagName, (cx) => cx.checkString(tag));
    return tag;
  }

  /** Expects a string. */
  str(v: Json): string {
    if (typeof v !== "string") return this.wrongType("a string", v);
    if (this.fromValue) this.checkString(v);
    return v;
  }

  /** Fails when a value nested here would be deeper than `MAX_DEPTH` (value input only). */
  private checkDepth(): void {
    if (this.tokens.length >= MAX_DEPTH) {
      this.fail("invalid_json", `arrays and objects are nested more than ${MAX_DEPTH} deep; JSON text this deep is rejected too`);
    }
  }

  /** Fails on a lone surrogate (value input only: JSON text cannot hold one). */
  checkString(s: string): void {
    if (!wellFormed(s)) this.fail("invalid_json", "the string contains a lone surrogate, which JSON text cannot carry; fix the string's encoding");
  }

  /** Fails on `NaN` or an infinity (value input only: JSON text cannot hold them). */
  private checkNumber(n: number): void {
    if (!Number.isFinite(n)) this.fail("invalid_json", `${n} is not a JSON number; send a finite number`);
  }

  /**
   * Checks free JSON from a value input, at any depth: only `null`, booleans, finite
   * numbers, well-formed strings, arrays and plain objects, nested at most `MAX_DEPTH`
   * deep. A member whose value is `undefined` counts as absent (as for
   * `JSON.stringify`).
   */
  checkJson(v: unknown): Json {
    switch (typeof v) {
      case "boolean":
        return v;
      case "number":
        this.checkNumber(v);
        return v;
      case "string":
        this.checkString(v);
        return v;
      case "object": {
        if (v === null) return null;
        if (Array.isArray(v)) {
          this.checkDepth();
          const items: unknown[] = v;
          for (let i = 0; i < items.length; i++) {
            const x = items[i];
            this.index(i, (cx) => (x === undefined ? cx.wrongType("a JSON value", x) : cx.checkJson(x)));
          }
          return v as Json[];
        }
        if (!isPlainObject(v)) return this.wrongType("a JSON value", v);
        this.checkDepth();
        for (const k of Object.keys(v)) {
          const x: unknown = v[k];
          if (x === undefined) continue;
          this.at(k, (cx) => {
            cx.checkString(k);
            return cx.checkJson(x);
          });
        }
        return v;
      }
      default:
        return this.wrongType("a JSON value", v);
    }
  }

  /** Expects a boolean. */
  bool(v: Json): boolean {
    return typeof v === "boolean" ? v : this.wrongType("a boolean", v);
  }

  /** Expects a number (`format: double`). */
  num(v: Json): number {
    if (typeof v !== "number") return this.wrongType("a number", v);
    if (this.fromValue) this.checkNumber(v);
    return v;
  }

  /**
   * Expects a whole number in `[min, max]`: `3`, `3.0` and `3e0` are all 3. A fraction
   * is `wrong_type`; a whole number outside the range is `out_of_range`. `what` names
   * the format for messages ("a whole number from 0 to 4294967295").
   */
  int(v: Json, min: number, max: number, what: string): number {
    if (typeof v !== "number") return this.wrongType(what, v);
    if (this.fromValue) this.checkNumber(v);
    if (!Number.isInteger(v)) return this.fail("wrong_type", `expected ${what}, got ${v}, which has a fraction`);
    if (v < min || v > max) return this.fail("out_of_range", `${v} is outside the range of ${what} (${min} to ${max})`);
    return v + 0; // -0 -> 0
  }

  /** `format: uint8`. */
  uint8(v: Json): number {
    return this.int(v, 0, 255, "a whole number from 0 to 255");
  }

  /** `format: uint16`. */
  uint16(v: Json): number {
    return this.int(v, 0, 65535, "a whole number from 0 to 65535");
  }

  /** `format: uint32`. */
  uint32(v: Json): number {
    return this.int(v, 0, 4294967295, "a whole number from 0 to 4294967295");
  }

  /** `format: int32`. */
  int32(v: Json): number {
    return this.int(v, -2147483648, 2147483647, "a whole number from -2147483648 to 2147483647");
  }

  /** `format: uint64`, limited to the safe range. */
  uint64(v: Json): number {
    return this.int(v, 0, MAX_SAFE_INTEGER, "a whole number from 0 to 9007199254740991");
  }

  /** `format: int64`, limited to the safe range. */
  int64(v: Json): number {
    return this.int(v, -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER, "a whole number from -9007199254740991 to 9007199254740991");
  }

  /** Expects strict canonical base64 (`format: byte`) and decodes it: `invalid_base64` otherwise. */
  bytes(v: Json): Uint8Array {
    if (typeof v !== "string") return this.wrongType("a base64 string", v);
    try {
      return decodeBase64(v);
    } catch (e) {
      if (e instanceof Base64Error) return this.fail("invalid_base64", `not strict base64: ${e.message}`);
      throw e;
    }
  }

  /** Expects an absolute path string (`AbsolutePath`): `relative_path` otherwise. */
  absolutePath(v: Json): string {
    if (typeof v !== "string") return this.wrongType("an absolute path string", v);
    if (this.fromValue) this.checkString(v);
    return isAbsolutePath(v) ? v : this.fail("relative_path", whyNotAbsolute(v));
  }

  /**
   * Expects an array and decodes each item with `item`. With `skipInvalidItems` (or
   * when the member being decoded has `skipItems`), an item with a problem is dropped
   * and the problem becomes a warning.
   */
  array<T>(v: Json, item: Decoder<T>, skipInvalidItems?: boolean): T[] {
    const skip = skipInvalidItems ?? this.skipItemsNext;
    this.skipItemsNext = false;
    if (!Array.isArray(v)) return this.wrongType("an array", v);
    if (this.fromValue) this.checkDepth();
    const n = v.length;
    const out: T[] = [];
    const tokens = this.tokens;
    const depth = tokens.length;
    tokens.push(0);
    const absorbing = this.absorbing;
    try {
      if (!skip) {
        for (let i = 0; i < n; i++) {
          tokens[depth] = i;
          out.push(item(v[i] as Json, this));
        }
        return out;
      }
      this.absorbing = true;
      // Value input may hold what JSON cannot (an error, not a warning): the decoder decides.
      const shape = this.fromValue ? undefined : (item as Shaped)[SHAPE];
      for (let i = 0; i < n; i++) {
        const x = v[i] as Json;
        if (shape !== undefined && this.warnings.length >= this.maxWarnings && !fitsShape(x, shape)) {
          // Past the warning limit: dropped and counted as the decoder would, with nothing built or thrown.
          this.warningsDropped++;
          continue;
        }
        tokens[depth] = i;
        try {
          out.push(item(x, this));
        } catch (e) {
          if (!absorbable(e)) throw e;
          tokens.length = depth + 1;
          this.skipItemsNext = false;
          this.keep(e);
        }
      }
    } finally {
      tokens.length = depth;
      this.absorbing = absorbing;
    }
    return out;
  }

  // --- members ---

  /** Decodes a required member's value (`null` is `wrong_type` unless the type allows it). */
  required<T>(name: string, v: Json, decode: Decoder<T>, opts?: MemberOptions): T {
    const tokens = this.tokens;
    const depth = tokens.length;
    tokens.push(name);
    try {
      return this.checked(v, decode, opts);
    } finally {
      tokens.length = depth;
    }
  }

  /** Decodes an optional member's value: `null` is the same as omitted (`undefined`). */
  optional<T>(name: string, v: Json, decode: Decoder<T>, opts?: MemberOptions): T | undefined {
    return v === null ? undefined : this.maybe(name, v, decode, opts);
  }

  /**
   * Decodes an optional member that upstream declares non-nullable but not required:
   * `null` is still the same as omitted, as for every optional member.
   */
  maybe<T>(name: string, v: Json, decode: Decoder<T>, opts?: MemberOptions): T | undefined {
    if (v === null) return undefined;
    const tokens = this.tokens;
    const depth = tokens.length;
    tokens.push(name);
    try {
      if (opts?.lenient !== true) return this.checked(v, decode, opts);
      const absorbing = this.absorbing;
      this.absorbing = true;
      try {
        return this.checked(v, decode, opts);
      } catch (e) {
        if (!absorbable(e)) throw e;
        this.keep(e);
        return undefined;
      } finally {
        this.absorbing = absorbing;
      }
    } finally {
      tokens.length = depth;
    }
  }

  /**
   * Decodes a patch member's value: `null` clears (`null`); a lenient member that
   * fails is dropped (`undefined`, "unchanged"). An omitted member is `undefined`.
   */
  patch<T>(name: string, v: Json, decode: Decoder<T>, opts?: MemberOptions): T | null | undefined {
    return v === null ? null : this.maybe(name, v, decode, opts);
  }

  private checked<T>(v: Json, decode: Decoder<T>, opts: MemberOptions | undefined): T {
    if (opts === undefined) return decode(v, this);
    const range = opts.range;
    if (range !== undefined && typeof v === "number" && (v < range[0] || v > range[1])) {
      this.fail("out_of_range", `${v} is outside the allowed range ${range[0]} to ${range[1]}`);
    }
    const minItems = opts.minItems;
    if (minItems !== undefined && Array.isArray(v) && v.length < minItems) {
      this.fail("out_of_range", `the array has ${v.length} items; at least ${minItems} required`);
    }
    const pattern = opts.pattern;
    if (pattern !== undefined) {
      const out = decode(v, this);
      if (typeof out === "string" && !matchesPattern(pattern, out)) {
        this.fail("pattern_mismatch", `the string does not match the pattern \`${pattern.source}\``);
      }
      return out;
    }
    if (opts.skipItems !== true) return decode(v, this);
    this.skipItemsNext = true;
    try {
      return decode(v, this);
    } finally {
      this.skipItemsNext = false;
    }
  }
}

/**
 * Whether a lenient member or item may absorb `e` as a warning: a decoding problem,
 * but not `invalid_json` (a value input breaking a text rule, such as `NaN`), which
 * the text route rejects outright.
 */
function absorbable(e: unknown): e is DecodeError {
  return e instanceof DecodeError && e.problem.kind !== "invalid_json";
}

// --- ready-made decoders, for passing to `array` and the member helpers ---

/** Any string. */
export const decodeString: Decoder<string> = (v, cx) => cx.str(v);
/** `true` or `false`. */
export const decodeBoolean: Decoder<boolean> = (v, cx) => cx.bool(v);
/** Any number (`format: double`). */
export const decodeNumber: Decoder<number> = (v, cx) => cx.num(v);
/** `format: uint8`. */
export const decodeUint8: Decoder<number> = (v, cx) => cx.uint8(v);
/** `format: uint16`. */
export const decodeUint16: Decoder<number> = (v, cx) => cx.uint16(v);
/** `format: uint32`. */
export const decodeUint32: Decoder<number> = (v, cx) => cx.uint32(v);
/** `format: int32`. */
export const decodeInt32: Decoder<number> = (v, cx) => cx.int32(v);
/** `format: uint64` (safe range). */
export const decodeUint64: Decoder<number> = (v, cx) => cx.uint64(v);
/** `format: int64` (safe range). */
export const decodeInt64: Decoder<number> = (v, cx) => cx.int64(v);
/** Strict base64 to bytes (`format: byte`). */
export const decodeBytes: Decoder<Uint8Array> = (v, cx) => cx.bytes(v);
/** An absolute path (`AbsolutePath`). */
export const decodeAbsolutePath: Decoder<string> = (v, cx) => cx.absolutePath(v);
/** Free JSON (`rawInput`, `rawOutput`): any value, kept as is (checked when the input is a value). */
export const decodeJson: Decoder<Json> = (v, cx) => (cx.fromValue ? cx.checkJson(v) : v);
/** A free-form object (`_meta`): any object, kept as is (checked when the input is a value). */
export const decodeObject: Decoder<JsonObject> = (v, cx) => {
  const o = cx.expectObject(v);
  if (cx.fromValue) cx.checkJson(o);
  return o;
};

/** An array of `item`s (hoist the result to module scope: it allocates a closure). */
export function decodeArray<T>(item: Decoder<T>): Decoder<T[]> {
  return (v, cx) => cx.array(v, item);
}

/**
 * The members of `obj` other than those named in `names`, in input order (an unknown
 * variant's payload), checked as free JSON when the input is a value.
 */
export function membersExcept(obj: JsonObject, names: readonly string[], cx: Cx): JsonObject {
  const out = new ObjectBuilder();
  for (const k of keysOf(obj)) {
    const v = obj[k];
    if (v !== undefined && !names.includes(k)) out.add(k, cx.fromValue ? cx.at(k, (c) => c.checkJson(v)) : v);
  }
  return out.finish();
}

/**
 * Collects an unknown member `k` of a known object into `extra` (created on first
 * use; `finish()` it at the end), checked as free JSON when the input is a value.
 */
export function addExtra(extra: ObjectBuilder | undefined, k: string, v: Json, cx: Cx): ObjectBuilder {
  const out = extra ?? new ObjectBuilder();
  return out.add(
    k,
    cx.fromValue
      ? cx.at(k, (c) => {
          c.checkString(k);
          return c.checkJson(v);
        })
      : v,
  );
}

// --- entry points ---

/**
 * Parses JSON text as a `T`: the value and the warnings for what lenient members
 * absorbed, or the first problem (`invalid_json`, `duplicate_key`, then type problems
 * in input order).
 */
export function decodeText<T>(text: string, decode: Decoder<T>, options?: ParseOptions): ParseResult<T> {
  let value: Json;
  try {
    value = parseJson(text);
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.problem };
    throw e;
  }
  // Our parser's output already meets the text rules: no second check.
  return run(value, decode, new Cx(false, maxWarnings(options)));
}

/**
 * Checks an already parsed value (from `JSON.parse`, an SDK, or built by hand) as a
 * `T`, with the rules JSON text has: plain objects and arrays only, finite numbers,
 * well-formed strings, nesting at most `MAX_DEPTH` deep; a member set to `undefined`
 * counts as absent. Repeated member names can no longer be seen here: use
 * `decodeText` on untrusted text.
 */
export function decodeValue<T>(value: unknown, decode: Decoder<T>, options?: ParseOptions): ParseResult<T> {
  if (typeof value === "object" && value !== null && (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)) {
    return {
      ok: false,
      error: {
        kind: "invalid_json",
        path: "",
        message: `expected JSON text (a string) or a parsed JSON value, got ${describe(value)}; decode the bytes as UTF-8 text first (new TextDecoder().decode(bytes))`,
      },
    };
  }
  return run(value as Json, decode, new Cx(true, maxWarnings(options)));
}

/** The warning limit of `options`: a whole number, `Infinity`, or the default. */
function maxWarnings(options: ParseOptions | undefined): number {
  const max = options?.maxWarnings;
  if (max === undefined) return DEFAULT_MAX_WARNINGS;
  if (max === Infinity || (Number.isInteger(max) && max >= 0)) return max;
  throw new RangeError(`maxWarnings must be a whole number from 0 up, or Infinity; got ${String(max)}`);
}

/** Decodes `value` with `cx` into a result. */
function run<T>(value: Json, decode: Decoder<T>, cx: Cx): ParseResult<T> {
  try {
    const out = decode(value, cx);
    return { ok: true, value: out, warnings: cx.warnings, warningsDropped: cx.warningsDropped };
  } catch (e) {
    if (e instanceof DecodeError) return { ok: false, error: e.problem };
    throw e;
  }
}

/** Parses `input` as a `T`: a string is JSON text (`decodeText`), anything else a parsed value (`decodeValue`). */
export function decodeInput<T>(input: unknown, decode: Decoder<T>, options?: ParseOptions): ParseResult<T> {
  return typeof input === "string" ? decodeText(input, decode, options) : decodeValue(input, decode, options);
}

/** Writes the canonical JSON text of `value`. */
export function encodeText<T>(value: T, encode: Encoder<T>): string {
  const w = new Writer();
  encode(w, value);
  return w.finish();
}
