// JSON text out: the canonical writer (compact; ECMAScript number and string forms; objects in their member order).

import { encodeBase64 } from "./base64.js";
import { type Json, type JsonObject, keysOf } from "./json.js";

/**
 * Writes canonical JSON: no insignificant whitespace, strings as `JSON.stringify`
 * writes them, numbers as ECMAScript's Number-to-String (`1.0` -> `1`, `1e21` ->
 * `1e+21`, `-0` -> `0`), object members in the order they are written.
 *
 * Commas are placed automatically: call `key` before each member value and `item`
 * before each array item.
 */
export class Writer {
  private out = "";
  private first = true;

  /** The text written so far. */
  finish(): string {
    return this.out;
  }

  /** Starts an object. */
  beginObject(): void {
    this.out += "{";
    this.first = true;
  }

  /** Ends an object. */
  endObject(): void {
    this.out += "}";
    this.first = false;
  }

  /** Starts an array. */
  beginArray(): void {
    this.out += "[";
    this.first = true;
  }

  /** Ends an array. */
  endArray(): void {
    this.out += "]";
    this.first = false;
  }

  /** Writes the comma before an array item when needed. */
  item(): void {
    if (!this.first) this.out += ",";
    this.first = true;
  }

  /** Writes a member name (and the comma before it when needed). */
  key(name: string): void {
    this.out += this.first ? `${JSON.stringify(name)}:` : `,${JSON.stringify(name)}:`;
    this.first = true;
  }

  /** Writes a string with `JSON.stringify`'s escapes. */
  string(s: string): void {
    this.out += JSON.stringify(s);
    this.first = false;
  }

  /**
   * Writes a number as ECMAScript's Number-to-String does. Throws a `RangeError` for
   * `NaN` and the infinities, which JSON cannot write.
   */
  number(n: number): void {
    if (!Number.isFinite(n)) throw new RangeError(`${n} cannot be written as JSON`);
    this.out += String(n); // String(-0) is "0"
    this.first = false;
  }

  /** Writes `true` or `false`. */
  bool(v: boolean): void {
    this.out += v ? "true" : "false";
    this.first = false;
  }

  /** Writes `null`. */
  null(): void {
    this.out += "null";
    this.first = false;
  }

  /** Writes bytes as canonical padded standard base64. */
  bytes(b: Uint8Array): void {
    this.out += `"${encodeBase64(b)}"`;
    this.first = false;
  }

  /** Writes raw text that is already a canonical JSON value. */
  raw(text: string): void {
    this.out += text;
    this.first = false;
  }

  /** Writes any JSON value, keeping object member order at every depth. */
  value(v: Json): void {
    if (v === null) this.null();
    else if (typeof v === "string") this.string(v);
    else if (typeof v === "number") this.number(v);
    else if (typeof v === "boolean") this.bool(v);
    else if (Array.isArray(v)) {
      this.beginArray();
      for (const x of v) {
        this.item();
        this.value(x);
      }
      this.endArray();
    } else if (typeof v === "object") {
      this.beginObject();
      this.members(v);
      this.endObject();
    } else {
      throw new TypeError(`${typeof v} cannot be written as JSON`);
    }
  }

  /**
   * Writes every member of `o`, in its member order (`keysOf`), into the object being
   * written. A member set to `undefined` is left out, as `JSON.stringify` does.
   */
  members(o: JsonObject): void {
    for (const k of keysOf(o)) {
      const v = o[k];
      if (v === undefined) continue;
      this.key(k);
      this.value(v);
    }
  }

  /** Writes an object, each member's value with `write`, in its member order (`keysOf`). */
  map<T>(members: { readonly [key: string]: T }, write: Encoder<T>): void {
    this.beginObject();
    for (const k of keysOf(members as unknown as JsonObject)) {
      this.key(k);
      write(this, members[k] as T);
    }
    this.endObject();
  }

  /** Writes an array, each item with `write`. */
  array<T>(items: readonly T[], write: Encoder<T>): void {
    this.beginArray();
    for (const x of items) {
      this.item();
      write(this, x);
    }
    this.endArray();
  }

  /** Writes a required member. */
  put<T>(name: string, v: T, write: Encoder<T>): void {
    this.key(name);
    write(this, v);
  }

  /** Writes an optional member when present (`undefined` is omitted). */
  putOptional<T>(name: string, v: T | undefined, write: Encoder<T>): void {
    if (v === undefined) return;
    this.key(name);
    write(this, v);
  }

  /** Writes a patch member exactly as set: `undefined` omitted, `null` written, or the value. */
  putPatch<T>(name: string, v: T | null | undefined, write: Encoder<T>): void {
    if (v === undefined) return;
    this.key(name);
    if (v === null) this.null();
    else write(this, v);
  }
}

/** Writes a `T` in its canonical form. */
export type Encoder<T> = (w: Writer, v: T) => void;

/** A string. */
export const encodeString: Encoder<string> = (w, v) => w.string(v);
/** `true` or `false`. */
export const encodeBoolean: Encoder<boolean> = (w, v) => w.bool(v);
/** Any finite number, integers included. */
export const encodeNumber: Encoder<number> = (w, v) => w.number(v);
/** Bytes as canonical base64. */
export const encodeBytes: Encoder<Uint8Array> = (w, v) => w.bytes(v);
/** Any JSON value, in its order. */
export const encodeJson: Encoder<Json> = (w, v) => w.value(v);
/** A free-form object, in its order. */
export const encodeObject: Encoder<JsonObject> = (w, v) => {
  w.beginObject();
  w.members(v);
  w.endObject();
};

/** An array of `item`s (hoist the result to module scope: it allocates a closure). */
export function encodeArray<T>(item: Encoder<T>): Encoder<readonly T[]> {
  return (w, v) => w.array(v, item);
}

/** The canonical text of any JSON value. */
export function writeJson(v: Json): string {
  const w = new Writer();
  w.value(v);
  return w.finish();
}
