// Strict canonical base64 (RFC 4648, standard alphabet, padding required) on Uint8Array.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const PAD = 0x3d; // "="

/** Set in a decoded group when one of its four characters is not in the alphabet. */
const BAD = 0x1000000;

/**
 * One table per position in a group of four: the symbol's bits already shifted into
 * place, or `BAD` for any char code outside the standard alphabet, so a group decodes
 * with four loads and three ORs, and one test catches every bad character.
 */
const D0 = new Uint32Array(256).fill(BAD);
const D1 = new Uint32Array(256).fill(BAD);
const D2 = new Uint32Array(256).fill(BAD);
const D3 = new Uint32Array(256).fill(BAD);
/** ASCII code of each 6-bit symbol. */
const ENCODE = new Uint8Array(64);
for (let i = 0; i < 64; i++) {
  const c = ALPHABET.charCodeAt(i);
  D0[c] = i << 18;
  D1[c] = i << 12;
  D2[c] = i << 6;
  D3[c] = i;
  ENCODE[i] = c;
}

/** Two symbols per 12 bits, as the UTF-16 unit whose bytes in memory are their ASCII codes. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const PAIRS = new Uint16Array(4096);
for (let i = 0; i < 4096; i++) {
  const a = ENCODE[i >> 6] as number;
  const b = ENCODE[i & 0x3f] as number;
  PAIRS[i] = LITTLE_ENDIAN ? a | (b << 8) : (a << 8) | b;
}

// Browsers and Node both have these; looked up on `globalThis` so the runtime needs no DOM or Node types.
interface TextCodecs {
  readonly TextDecoder?: new () => { decode(bytes: Uint8Array): string };
  readonly TextEncoder?: new () => { encodeInto(text: string, into: Uint8Array): { read: number; written: number } };
}
const codecs = globalThis as unknown as TextCodecs;
const asciiDecoder = codecs.TextDecoder === undefined ? undefined : new codecs.TextDecoder();
const asciiEncoder = codecs.TextEncoder === undefined ? undefined : new codecs.TextEncoder();

/** Node's `Buffer`, when the runtime runs on Node: its native base64 decoder is the fastest there is. */
interface NodeBuffers {
  readonly Buffer?: {
    allocUnsafeSlow(size: number): {
      readonly buffer: ArrayBuffer;
      readonly byteOffset: number;
      write(text: string, offset: number, length: number, encoding: "base64"): number;
    };
  };
}
const nodeBuffer = (globalThis as unknown as NodeBuffers).Buffer;

/**
 * Reused memory for texts up to 64 KiB: encoding writes UTF-16 units and reads them as
 * ASCII bytes, and a fresh `ArrayBuffer` (or `.buffer` of a small typed array) costs
 * more than encoding a short text; bulk decoding copies the text into it.
 */
const SCRATCH_UNITS = 0x8000;
const scratchBuffer = new ArrayBuffer(SCRATCH_UNITS * 2);
const scratchUnits = new Uint16Array(scratchBuffer);
const scratchBytes = new Uint8Array(scratchBuffer);

/** Above this many characters, copying the text into bytes first is faster than `charCodeAt`. */
const BULK = 256;

/** Thrown by `decodeBase64`; the message says what is wrong and what to change. */
export class Base64Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Base64Error";
  }
}

/**
 * Decodes strict canonical base64: standard alphabet (`A-Z a-z 0-9 + /`), length a
 * multiple of 4, `=` padding only at the end and only as needed, no whitespace, and
 * the unused low bits of the last symbol zero. So every accepted text is exactly what
 * `encodeBase64` writes for the bytes. The empty string is zero bytes.
 *
 * Throws a `Base64Error` whose message describes the first problem.
 */
export function decodeBase64(text: string): Uint8Array {
  const n = text.length;
  if (n === 0) return new Uint8Array(0);
  if ((n & 3) !== 0) throw new Base64Error(explain(text));
  const pad = text.charCodeAt(n - 1) !== PAD ? 0 : text.charCodeAt(n - 2) !== PAD ? 1 : 2;
  const size = (n >> 2) * 3 - pad;
  const full = pad === 0 ? n : n - 4;
  let out: Uint8Array | undefined;
  if (n > BULK && nodeBuffer !== undefined && asciiEncoder !== undefined) {
    out = decodeNative(text, size);
  } else {
    out = new Uint8Array(size);
    const ok = n <= BULK || asciiEncoder === undefined ? decodeShort(text, full, out) : decodeBulk(text, full, out);
    if (!ok) out = undefined;
  }
  if (out === undefined) throw new Base64Error(explain(text));
  if (pad !== 0) {
    const a = text.charCodeAt(full);
    const b = text.charCodeAt(full + 1);
    const c = pad === 1 ? text.charCodeAt(full + 2) : 0x41; // "A": symbol 0
    if ((a | b | c) > 0xff) throw new Base64Error(explain(text));
    const x = (D0[a] as number) | (D1[b] as number) | (D2[c] as number);
    // The bits past the last whole byte must be zero: 12 bits hold one byte, 18 bits two.
    if ((x & BAD) !== 0 || (x & (pad === 2 ? 0xffff : 0xff)) !== 0) throw new Base64Error(explain(text));
    const o = out.length - (3 - pad);
    out[o] = x >> 16;
    if (pad === 1) out[o + 1] = x >> 8;
  }
  return out;
}

/** Decodes the first `full` characters (whole groups) with `charCodeAt`; false on a bad character. */
function decodeShort(text: string, full: number, out: Uint8Array): boolean {
  let o = 0;
  for (let i = 0; i < full; i += 4) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const c = text.charCodeAt(i + 2);
    const d = text.charCodeAt(i + 3);
    if ((a | b | c | d) > 0xff) return false;
    const x = (D0[a] as number) | (D1[b] as number) | (D2[c] as number) | (D3[d] as number);
    if ((x & BAD) !== 0) return false;
    out[o] = x >> 16;
    out[o + 1] = x >> 8;
    out[o + 2] = x;
    o += 3;
  }
  return true;
}

/** As `decodeShort`, after copying the text into bytes in one native call. */
function decodeBulk(text: string, full: number, out: Uint8Array): boolean {
  const src = text.length <= scratchBytes.length ? scratchBytes : new Uint8Array(text.length);
  const r = (asciiEncoder as NonNullable<typeof asciiEncoder>).encodeInto(text, src);
  // Any character outside ASCII takes more than one byte, so the copy falls short.
  if (r.read !== text.length || r.written !== text.length) return false;
  let o = 0;
  for (let i = 0; i < full; i += 4) {
    const x =
      (D0[src[i] as number] as number) |
      (D1[src[i + 1] as number] as number) |
      (D2[src[i + 2] as number] as number) |
      (D3[src[i + 3] as number] as number);
    if ((x & BAD) !== 0) return false;
    out[o] = x >> 16;
    out[o + 1] = x >> 8;
    out[o + 2] = x;
    o += 3;
  }
  return true;
}

/**
 * Decodes with Node's native decoder after cheap checks that make it strict: `Buffer`
 * skips characters outside its alphabet and stops at `=`, so any such character makes
 * the output shorter than `size`; it also takes the URL-safe `-` and `_`, and reads a
 * character above U+00FF by its low byte, so those are ruled out first (every character
 * ASCII: the text copies into as many bytes as it has characters). The padding and the
 * last group's unused bits are checked by the caller. The memory is not zeroed first:
 * the bytes are returned only when every one of them was written. Undefined when the
 * text is not valid.
 */
function decodeNative(text: string, size: number): Uint8Array | undefined {
  const n = text.length;
  const src = n <= scratchBytes.length ? scratchBytes : new Uint8Array(n);
  const r = (asciiEncoder as NonNullable<typeof asciiEncoder>).encodeInto(text, src);
  if (r.read !== n || r.written !== n) return undefined;
  if (text.indexOf("-") >= 0 || text.indexOf("_") >= 0) return undefined;
  const into = (nodeBuffer as NonNullable<typeof nodeBuffer>).allocUnsafeSlow(size);
  if (into.write(text, 0, size, "base64") !== size) return undefined;
  // A plain Uint8Array over the whole (unpooled) memory: same type as on every other path.
  return new Uint8Array(into.buffer, into.byteOffset, size);
}

/** Says why `text` is not strict canonical base64 (called only once decoding failed). */
function explain(text: string): string {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === PAD || (c <= 0xff && D3[c] !== BAD)) continue;
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c || c === 0x0b) {
      return `whitespace at offset ${i}; base64 here must be one unbroken line`;
    }
    if (c === 0x2d || c === 0x5f) {
      return `\`${String.fromCharCode(c)}\` at offset ${i} belongs to the URL-safe alphabet; use the standard one (\`+\`, \`/\`)`;
    }
    const shown = c >= 0x21 && c < 0x7f ? `\`${String.fromCharCode(c)}\`` : `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
    return `${shown} at offset ${i} is not in the standard base64 alphabet`;
  }
  const firstPad = text.indexOf("=");
  if (firstPad >= 0) {
    for (let i = firstPad; i < n; i++) {
      if (text.charCodeAt(i) !== PAD) return `padding \`=\` at offset ${firstPad} is not at the end of the text`;
    }
    if (n - firstPad > 2) return `there are ${n - firstPad} padding characters; a group needs at most 2`;
    if (firstPad % 4 < 2) return `padding \`=\` at offset ${firstPad} comes before the group's second symbol`;
  }
  if ((n & 3) !== 0) {
    if ((n - (firstPad >= 0 ? n - firstPad : 0)) % 4 === 1) {
      return `length ${n} cannot be base64: the last group has a single symbol`;
    }
    return `length ${n} is not a multiple of 4; pad the last group with \`=\``;
  }
  const last = firstPad >= 0 ? firstPad - 1 : n - 1;
  return `the symbol at offset ${last} has non-zero unused bits; the canonical encoding of these bytes differs`;
}

/** Encodes bytes as canonical padded standard base64. */
export function encodeBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const whole = n - (n % 3);
  // Two UTF-16 units (four ASCII bytes) per three input bytes.
  const units = Math.ceil(n / 3) * 2;
  const buffer = units <= SCRATCH_UNITS ? scratchBuffer : new ArrayBuffer(units * 2);
  const out = buffer === scratchBuffer ? scratchUnits : new Uint16Array(buffer);
  const pairs = PAIRS;
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const x = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out[o] = pairs[x >> 12] as number;
    out[o + 1] = pairs[x & 0xfff] as number;
    o += 2;
  }
  const rest = n - whole;
  if (rest !== 0) {
    const x = ((bytes[whole] as number) << 16) | (rest === 2 ? (bytes[whole + 1] as number) << 8 : 0);
    out[o] = pairs[x >> 12] as number;
    const c = rest === 2 ? (ENCODE[(x >> 6) & 0x3f] as number) : PAD;
    out[o + 1] = LITTLE_ENDIAN ? c | (PAD << 8) : (c << 8) | PAD;
  }
  const ascii = buffer === scratchBuffer ? scratchBytes.subarray(0, units * 2) : new Uint8Array(buffer);
  return asciiDecoder === undefined ? fromCodes(ascii) : asciiDecoder.decode(ascii);
}

/** Turns ASCII codes into a string without `TextDecoder`, in slices within `fromCharCode`'s argument limit. */
function fromCodes(codes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < codes.length; i += 0x2000) {
    s += String.fromCharCode.apply(null, codes.subarray(i, i + 0x2000) as unknown as number[]);
  }
  return s;
}
