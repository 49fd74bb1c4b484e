// JSON text in: a strict RFC 8259 parser into plain objects that keep member order, rejecting repeated member names.

import { DecodeError, pointer } from "./errors.js";

/**
 * Any JSON value, as `JSON.parse` gives it: objects are plain JavaScript objects.
 *
 * JavaScript lists integer-like keys (`"0"`, `"42"`) before the others, in ascending
 * order, whatever order they were written in. Where that differs from the input, the
 * parser attaches the input order to the object as a hidden record (a non-enumerable
 * `ORDER` symbol, invisible to `Object.keys`, spread, `JSON.stringify` and
 * `structuredClone`), and the writer follows it, so a parsed value serializes to the
 * same bytes. A copy of the object does not carry the record.
 */
export type Json = null | boolean | number | string | Json[] | JsonObject;

/** A JSON object: a plain object (member order: see `Json`). */
export interface JsonObject {
  [key: string]: Json;
}

/**
 * The hidden record of an object's member order, kept only where JavaScript's own key
 * order differs from the input's (integer-like keys after other keys, or out of order).
 */
export const ORDER: unique symbol = Symbol.for("acp-terminal.order");

interface Ordered {
  [ORDER]?: string[];
}

/** Whether `key` is one JavaScript lists first, in numeric order (an array index: `0` to `2^32 - 2`). */
export function isIndexKey(key: string): boolean {
  const n = key.length;
  if (n === 0 || n > 10) return false;
  const c = key.charCodeAt(0);
  if (c < 0x30 || c > 0x39 || (c === 0x30 && n > 1)) return false;
  for (let i = 1; i < n; i++) {
    const d = key.charCodeAt(i);
    if (d < 0x30 || d > 0x39) return false;
  }
  return n < 10 || Number(key) < 4294967295;
}

/**
 * The member names of `o` in their JSON order: the hidden order record where there is
 * one (names no longer present are skipped, names added since come after, in
 * `Object.keys` order), else `Object.keys`.
 */
export function keysOf(o: JsonObject): readonly string[] {
  const order = (o as Ordered)[ORDER];
  const keys = Object.keys(o);
  if (order === undefined) return keys;
  const out: string[] = [];
  for (const k of order) if (Object.hasOwn(o, k)) out.push(k);
  if (out.length === keys.length) return out;
  const seen = new Set(out);
  for (const k of keys) if (!seen.has(k)) out.push(k);
  return out;
}

/** The own member `key` of `o` (never an inherited property such as `toString`). */
export function getMember(o: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/**
 * Appends member `key` to an existing object `o` (`key` must be new): a member named
 * `__proto__` stays an ordinary member, and an integer-like key that JavaScript would
 * list out of place starts or extends the hidden order record. Each integer-like key
 * costs a pass over `o`'s keys: to build an object, use `ObjectBuilder`.
 */
export function addMember(o: JsonObject, key: string, value: Json): void {
  if (key === "__proto__") Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
  const ordered = o as Ordered;
  const order = ordered[ORDER];
  if (order !== undefined) order.push(key);
  else if (isIndexKey(key)) {
    const keys = Object.keys(o);
    // `keys` is the insertion order until now; `key` sits where JavaScript puts it.
    if (keys[keys.length - 1] !== key) {
      const prior = keys.filter((k) => k !== key);
      prior.push(key);
      Object.defineProperty(o, ORDER, { value: prior, enumerable: false, writable: true, configurable: true });
    }
  }
}

/**
 * Builds a plain object member by member in linear time: members are added in order
 * (each name once), and `finish` attaches the order record when JavaScript's order
 * differs (an integer-like name after another name, or after a larger integer-like one).
 */
export class ObjectBuilder {
  private readonly o: JsonObject = {};
  private order: string[] | undefined;
  private sawName = false;
  private lastIndex = -1;

  /** Adds member `key` (a name not added before). */
  add(key: string, value: Json): this {
    const o = this.o;
    if (this.order === undefined) {
      if (!isIndexKey(key)) this.sawName = true;
      else {
        const index = Number(key);
        if (this.sawName || index < this.lastIndex) this.order = Object.keys(o);
        else this.lastIndex = index;
      }
    }
    if (key === "__proto__") Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
    else o[key] = value;
    this.order?.push(key);
    return this;
  }

  /** The object, with its order record when it needs one. */
  finish(): JsonObject {
    if (this.order !== undefined) Object.defineProperty(this.o, ORDER, { value: this.order, enumerable: false, writable: true, configurable: true });
    return this.o;
  }
}

/** A new plain object with `entries`, in their order. */
export function objectOf(entries: Iterable<readonly [string, Json]>): JsonObject {
  const b = new ObjectBuilder();
  for (const [k, v] of entries) b.add(k, v);
  return b.finish();
}

/**
 * The deepest nesting of arrays and objects accepted. The Rust binding parses with
 * `serde_json`, whose recursion limit accepts 127 nested arrays/objects and rejects
 * the 128th; every binding must agree.
 */
export const MAX_DEPTH = 127;

/**
 * Parses JSON text into a value whose objects keep their member order.
 *
 * Throws a `DecodeError` with `invalid_json` at `""` when the text is not JSON (also
 * for a lone surrogate, a number too large for a double, or nesting deeper than
 * `MAX_DEPTH`), else `duplicate_key` at the first repeated member (the second
 * occurrence) when an object repeats a name. Text that is not JSON is `invalid_json`
 * even when a repeated name comes before the syntax error.
 */
export function parseJson(text: string): Json {
  const p = new Parser(text);
  if (!wellFormed(text)) p.fail("the text contains a lone surrogate", 0);
  p.skipWhitespace();
  const value = p.value();
  p.skipWhitespace();
  if (p.pos < text.length) p.fail("there is more text after the JSON value");
  if (p.duplicate !== undefined) {
    const name = p.duplicateName;
    throw new DecodeError({
      kind: "duplicate_key",
      path: p.duplicate,
      message: `member \`${name}\` appears twice in one object; send it once`,
    });
  }
  return value;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Strings longer than this are checked and decoded by the engine's `JSON.parse`. */
const LONG_STRING = 64;

const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
/** A lone surrogate: a high one not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `s` is well-formed UTF-16 (every surrogate paired): `String.prototype.isWellFormed` where the engine has it. */
export function wellFormed(s: string): boolean {
  return nativeIsWellFormed !== undefined ? nativeIsWellFormed.call(s) : !LONE_SURROGATE.test(s);
}

/** Value of a hex digit's char code, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

class Parser {
  pos = 0;
  private depth = 0;
  /** The offset after the escape `escape` decoded last. */
  private next = 0;
  /** The reference tokens of the member or item being parsed at each depth. */
  private readonly tokens: (string | number)[] = [];
  /** The pointer to the first repeated member, once one is seen. */
  duplicate: string | undefined = undefined;
  duplicateName = "";

  constructor(private readonly text: string) {}

  fail(reason: string, at: number = this.pos): never {
    const where = at >= this.text.length ? "at the end of the text" : `at offset ${at}`;
    throw new DecodeError({ kind: "invalid_json", path: "", message: `the text is not valid JSON: ${reason} ${where}` });
  }

  skipWhitespace(): void {
    const t = this.text;
    let i = this.pos;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.pos = i;
  }

  value(): Json {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b:
        return this.object();
      case 0x5b:
        return this.array();
      case QUOTE:
        return this.string();
      case 0x74:
        return this.literal("true", true);
      case 0x66:
        return this.literal("false", false);
      case 0x6e:
        return this.literal("null", null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        return this.fail(this.pos >= this.text.length ? "a value is missing" : "expected a value");
    }
  }

  private literal<T extends Json>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail("expected a value");
    this.pos += word.length;
    return value;
  }

  private enter(): number {
    const depth = ++this.depth;
    if (depth > MAX_DEPTH) this.fail(`arrays and objects are nested more than ${MAX_DEPTH} deep`);
    this.pos++;
    this.skipWhitespace();
    return depth;
  }

  private object(): JsonObject {
    const t = this.text;
    const depth = this.enter();
    const out: JsonObject = {};
    if (t.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      this.depth--;
      return out;
    }
    // The input order, once an integer-like key makes JavaScript's order differ from it:
    // one comes after a non-integer-like key, or after a larger integer-like key.
    let order: string[] | undefined;
    let sawName = false;
    let lastIndex = -1;
    for (;;) {
      if (t.charCodeAt(this.pos) !== QUOTE) this.fail("expected a member name in double quotes");
      const key = this.string();
      this.tokens[depth - 1] = key;
      const repeated = Object.hasOwn(out, key);
      if (this.duplicate === undefined && repeated) {
        this.duplicate = pointer(this.tokens, depth);
        this.duplicateName = key;
      }
      this.skipWhitespace();
      if (t.charCodeAt(this.pos) !== 0x3a) this.fail("expected `:` after a member name");
      this.pos++;
      this.skipWhitespace();
      const value = this.value();
      if (!repeated) {
        if (order === undefined) {
          if (!isIndexKey(key)) sawName = true;
          else {
            const index = Number(key);
            // Until now JavaScript's order is the input order, so `Object.keys` is that order.
            if (sawName || index < lastIndex) order = Object.keys(out);
            else lastIndex = index;
          }
        }
        if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        else out[key] = value;
        if (order !== undefined) order.push(key);
      }
      this.skipWhitespace();
      const c = t.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === 0x7d) {
        this.pos++;
        this.depth--;
        if (order !== undefined) Object.defineProperty(out, ORDER, { value: order, enumerable: false, writable: true, configurable: true });
        return out;
      } else {
        this.fail("expected `,` or `}` after a member");
      }
    }
  }

  private array(): Json[] {
    const t = this.text;
    const depth = this.enter();
    const out: Json[] = [];
    if (t.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      this.depth--;
      return out;
    }
    for (let i = 0; ; i++) {
      this.tokens[depth - 1] = i;
      out.push(this.value());
      this.skipWhitespace();
      const c = t.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === 0x5d) {
        this.pos++;
        this.depth--;
        return out;
      } else {
        this.fail("expected `,` or `]` after an array item");
      }
    }
  }

  private number(): number {
    const t = this.text;
    const start = this.pos;
    let i = start;
    let c = t.charCodeAt(i);
    const negative = c === 0x2d;
    if (negative) c = t.charCodeAt(++i);
    let whole = 0;
    if (c === 0x30) {
      c = t.charCodeAt(++i);
      if (c >= 0x30 && c <= 0x39) this.fail("a number has a leading zero", i - 1);
    } else if (c >= 0x31 && c <= 0x39) {
      do {
        whole = whole * 10 + (c - 0x30);
        c = t.charCodeAt(++i);
      } while (c >= 0x30 && c <= 0x39);
    } else {
      this.fail("expected a digit", i);
    }
    let simple = true;
    if (c === 0x2e) {
      simple = false;
      c = t.charCodeAt(++i);
      if (!(c >= 0x30 && c <= 0x39)) this.fail("expected a digit after the decimal point", i);
      do c = t.charCodeAt(++i);
      while (c >= 0x30 && c <= 0x39);
    }
    if (c === 0x65 || c === 0x45) {
      simple = false;
      c = t.charCodeAt(++i);
      if (c === 0x2b || c === 0x2d) c = t.charCodeAt(++i);
      if (!(c >= 0x30 && c <= 0x39)) this.fail("expected a digit in the exponent", i);
      do c = t.charCodeAt(++i);
      while (c >= 0x30 && c <= 0x39);
    }
    this.pos = i;
    // Up to 15 digits the running total is exact; otherwise let the engine round once.
    if (simple && i - start <= 15) return negative ? -whole : whole;
    const n = Number(t.slice(start, i));
    if (!Number.isFinite(n)) this.fail("a number is too large for a double", start);
    return n;
  }

  private string(): string {
    const t = this.text;
    const start = this.pos + 1;
    const stop = start + LONG_STRING;
    let i = start;
    // Fast path: a short string without escapes or controls is one slice.
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === QUOTE) {
        this.pos = i + 1;
        return t.slice(start, i);
      }
      if (c === BACKSLASH || c < 0x20 || c !== c) break;
      if (++i === stop) return this.longString(start);
    }
    return this.slowString(start, i);
  }

  /** A short string with escapes (or an error): decoded piece by piece. */
  private slowString(start: number, from: number, stop: number = start + LONG_STRING): string {
    const t = this.text;
    let out = "";
    let chunk = start;
    let i = from;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === QUOTE) {
        this.pos = i + 1;
        return out + t.slice(chunk, i);
      }
      if (i >= stop) return this.longString(start);
      if (c === BACKSLASH) {
        out += t.slice(chunk, i) + this.escape(i);
        i = this.next;
        chunk = i;
      } else if (c >= 0x20) {
        i++;
      } else if (c < 0x20) {
        this.fail("a control character in a string must be escaped", i);
      } else {
        this.fail("a string is not closed", i);
      }
    }
  }

  /**
   * A long string: finds the closing quote (the first one after an even run of
   * backslashes) with `indexOf`, then lets the engine's `JSON.parse`, whose string
   * grammar is RFC 8259's, check and decode the token natively. Lone surrogates are
   * the one thing it lets through: raw ones were ruled out for the whole text, escaped
   * ones are checked here.
   */
  private longString(start: number): string {
    const t = this.text;
    let end = start;
    for (;;) {
      end = t.indexOf('"', end);
      if (end < 0) this.fail("a string is not closed", t.length);
      let k = end - 1;
      while (t.charCodeAt(k) === BACKSLASH) k--;
      if ((end - 1 - k) % 2 === 0) break;
      end++;
    }
    let s: unknown;
    try {
      s = JSON.parse(t.slice(start - 1, end + 1));
    } catch {
      // Find the precise problem (and its offset) the slow way.
      return this.slowString(start, start, Infinity);
    }
    if (typeof s !== "string") return this.fail("a string is not valid", start - 1);
    if (!wellFormed(s)) this.fail("a `\\u` escape is a lone surrogate", start - 1);
    this.pos = end + 1;
    return s;
  }

  /** Decodes the escape whose backslash is at `i`; sets `next` to the offset after it. */
  private escape(i: number): string {
    const t = this.text;
    this.next = i + 2;
    switch (t.charCodeAt(i + 1)) {
      case QUOTE:
        return '"';
      case BACKSLASH:
        return "\\";
      case 0x2f:
        return "/";
      case 0x62:
        return "\b";
      case 0x66:
        return "\f";
      case 0x6e:
        return "\n";
      case 0x72:
        return "\r";
      case 0x74:
        return "\t";
      case 0x75: {
        const u = this.hex4(i + 2);
        this.next = i + 6;
        if (u < 0xd800 || u > 0xdfff) return String.fromCharCode(u);
        if (u >= 0xdc00) return this.fail("a `\\u` escape is a lone low surrogate", i);
        if (t.charCodeAt(i + 6) !== BACKSLASH || t.charCodeAt(i + 7) !== 0x75) {
          return this.fail("a `\\u` escape is a lone high surrogate", i);
        }
        const low = this.hex4(i + 8);
        if (low < 0xdc00 || low > 0xdfff) return this.fail("a `\\u` escape is a lone high surrogate", i);
        this.next = i + 12;
        return String.fromCharCode(u, low);
      }
      default:
        return this.fail("a string has an invalid escape", i);
    }
  }

  private hex4(i: number): number {
    const t = this.text;
    const a = hexValue(t.charCodeAt(i));
    const b = hexValue(t.charCodeAt(i + 1));
    const c = hexValue(t.charCodeAt(i + 2));
    const d = hexValue(t.charCodeAt(i + 3));
    if ((a | b | c | d) < 0) this.fail("a `\\u` escape needs four hex digits", i - 2);
    return (a << 12) | (b << 8) | (c << 4) | d;
  }
}
