// Tests of strict canonical base64: every accepted text is what encodeBase64 writes; each other form is rejected with a reason.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Base64Error, decodeBase64, encodeBase64 } from "../../templates/typescript/runtime/base64.js";

const bytes = (s: string) => new TextEncoder().encode(s);

// On Node the bulk path decodes with `Buffer` after strictness checks; elsewhere (no
// `Buffer`) it decodes in JavaScript. A second instance of the module, loaded while
// `Buffer` is hidden, runs the pure path, and both must agree on every text. (Loaded
// before any test is declared: the runner starts tests at the first `await`.)
const modulePath = "../../templates/typescript/runtime/base64.js";
const savedBuffer = Object.getOwnPropertyDescriptor(globalThis, "Buffer");
Reflect.deleteProperty(globalThis, "Buffer");
const pure = (await import(`${modulePath}?without-buffer`)) as typeof import("../../templates/typescript/runtime/base64.js");
if (savedBuffer !== undefined) Object.defineProperty(globalThis, "Buffer", savedBuffer);

/** The reason `text` is rejected; fails the test when it is accepted. */
function reason(text: string): string {
  try {
    decodeBase64(text);
  } catch (e) {
    assert.ok(e instanceof Base64Error, `a Base64Error for ${JSON.stringify(text)}`);
    assert.ok(e.message.length > 0);
    return e.message;
  }
  assert.fail(`${JSON.stringify(text)} was accepted`);
}

describe("canonical base64 decodes and encodes", () => {
  test("every tail length round-trips", () => {
    const cases: [string, string][] = [
      ["", ""],
      ["a", "YQ=="],
      ["ab", "YWI="],
      ["abc", "YWJj"],
      ["abcd", "YWJjZA=="],
      ["abcde", "YWJjZGU="],
      ["abcdef", "YWJjZGVm"],
      ["hello", "aGVsbG8="],
    ];
    for (const [plain, b64] of cases) {
      assert.equal(encodeBase64(bytes(plain)), b64);
      assert.deepEqual(decodeBase64(b64), bytes(plain));
    }
  });

  test("the empty string is zero bytes", () => {
    assert.equal(decodeBase64("").length, 0);
  });

  test("all 256 byte values round-trip (invalid UTF-8 included)", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = encodeBase64(all);
    assert.equal(text, Buffer.from(all).toString("base64"));
    assert.deepEqual(decodeBase64(text), all);
  });

  test("every length from 0 to 300 and large inputs match Node's encoder, both ways", () => {
    const lengths = [...Array.from({ length: 301 }, (_, i) => i), 4095, 49151, 49152, 49153, 65536, 200001];
    for (const n of lengths) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 7919 + n) & 0xff);
      const text = encodeBase64(data);
      assert.equal(text, Buffer.from(data).toString("base64"), `length ${n}`);
      assert.deepEqual(decodeBase64(text), data, `length ${n}`);
    }
  });

  test("a subarray view encodes only its own bytes", () => {
    const whole = Uint8Array.from([0, 1, 2, 3, 4, 5, 6]);
    assert.equal(encodeBase64(whole.subarray(2, 5)), Buffer.from([2, 3, 4]).toString("base64"));
  });

  test("decoded bytes do not share memory between calls", () => {
    const a = decodeBase64("YWJj");
    const b = decodeBase64("eHl6");
    assert.deepEqual([...a], [97, 98, 99]);
    assert.deepEqual([...b], [120, 121, 122]);
    const big1 = decodeBase64(encodeBase64(new Uint8Array(3000).fill(1)));
    decodeBase64(encodeBase64(new Uint8Array(3000).fill(2)));
    assert.ok(big1.every((x) => x === 1));
  });
});

describe("every other form is rejected", () => {
  const invalid: [string, string, RegExp][] = [
    ["non-zero trailing bits with one pad", "aGVsbG9=", /unused bits/],
    ["non-zero trailing bits with two pads", "YR==", /unused bits/],
    ["non-zero trailing bits, last bit", "YWJ=", /unused bits/],
    ["missing padding (two symbols)", "YQ", /multiple of 4/],
    ["missing padding (three symbols)", "YWJ", /multiple of 4/],
    ["one pad where two are needed", "YQ=", /multiple of 4/],
    ["a single symbol", "Y", /single symbol/],
    ["five symbols", "YWJjZ", /single symbol/],
    ["extra padding", "YQ===", /padding characters/],
    ["three pads in a group", "Y===", /padding characters/],
    ["only padding", "====", /padding characters/],
    ["a lone pad", "=", /second symbol/],
    ["a pad after one symbol", "Y=", /second symbol/],
    ["padding in the middle", "YQ==YQ==", /not at the end/],
    ["a pad inside a group", "YW=j", /not at the end/],
    ["a pad at the start", "=YWJ", /not at the end/],
    ["URL-safe minus", "YW-j", /URL-safe/],
    ["URL-safe underscore", "YW_j", /URL-safe/],
    ["a space", "YW Jj", /whitespace at offset 2/],
    ["a trailing newline", "YWJj\n", /whitespace at offset 4/],
    ["CRLF line break", "YWJj\r\nYWJj", /whitespace/],
    ["a tab", "\tYWJj", /whitespace at offset 0/],
    ["a star", "YWJj*", /`\*` at offset 4/],
    ["a non-ASCII letter", "é", /U\+00E9/],
    ["a non-ASCII letter in a whole group", "YWéj", /U\+00E9 at offset 2/],
    ["a character past U+00FF in a whole group", "YW\u0141j", /U\+0141/],
    ["a character that aliases a letter modulo 256", "YW\u0161j", /U\+0161/],
    ["a NUL", "YW\u0000j", /U\+0000/],
    ["a dot", "YW.j", /`\.`/],
  ];
  for (const [name, text, why] of invalid) {
    test(`${name}: ${JSON.stringify(text)}`, () => {
      assert.match(reason(text), why);
    });
  }

  test("a bad character deep inside a long text is found on the bulk path, with its offset", () => {
    const good = encodeBase64(new Uint8Array(6000).fill(7));
    assert.match(reason(`${good.slice(0, 5000)}-${good.slice(5001)}`), /`-` at offset 5000 belongs to the URL-safe alphabet/);
    assert.match(reason(`${good.slice(0, 5000)}\u0141${good.slice(5001)}`), /U\+0141 at offset 5000/);
    assert.match(reason(`${good.slice(0, 5000)}é${good.slice(5001)}`), /U\+00E9 at offset 5000/);
    assert.match(reason(`${good.slice(0, 400)}==${good.slice(402)}`), /padding `=` at offset 400/);
    assert.match(reason(`${good}\n`), /whitespace at offset 8000/);
  });

  test("what Node's Buffer and atob accept is rejected here", () => {
    // Buffer.from never throws; atob accepts whitespace and missing padding.
    for (const text of ["YQ", "YW Jj", "YW-j", "aGVsbG9=", "YR=="]) {
      assert.throws(() => decodeBase64(text), Base64Error);
    }
  });

  test("accepted exactly when the text is the canonical encoding of its bytes (random texts)", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n";
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    let accepted = 0;
    for (let i = 0; i < 20000; i++) {
      const n = next() % 13;
      let text = "";
      for (let j = 0; j < n; j++) text += alphabet[next() % (next() % 4 === 0 ? alphabet.length : 65)];
      const lenientBytes = Buffer.from(text, "base64");
      const isCanonical = Buffer.from(lenientBytes).toString("base64") === text;
      let ok: Uint8Array | undefined;
      try {
        ok = decodeBase64(text);
      } catch (e) {
        assert.ok(e instanceof Base64Error);
      }
      assert.equal(ok !== undefined, isCanonical, JSON.stringify(text));
      if (ok !== undefined) {
        accepted++;
        assert.deepEqual(ok, new Uint8Array(lenientBytes));
      }
    }
    assert.ok(accepted > 1000, `${accepted} accepted`);
  });
});

describe("long texts: the Buffer path and the pure path agree", () => {
  test("the pure instance really ran without Buffer, and both decode valid texts alike", () => {
    assert.notEqual(pure.decodeBase64, decodeBase64);
    for (const n of [193, 194, 195, 4096, 49152, 100001]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff);
      const text = encodeBase64(data);
      assert.deepEqual(decodeBase64(text), data, `length ${n}`);
      assert.deepEqual(pure.decodeBase64(text), data, `length ${n}`);
    }
  });

  test("one changed character anywhere in a long text: accepted exactly when canonical, same message on both paths", () => {
    const swaps = ["-", "_", " ", "\n", "=", "é", "\u0141", "\u0161", "\u00ff", "\u0000", "*", "A", "/", "+", "\ud800", "😀"];
    let seed = 11;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    let rejected = 0;
    for (let i = 0; i < 3000; i++) {
      const n = 193 + (next() % 3000);
      const data = Uint8Array.from({ length: n }, () => next() & 0xff);
      const good = encodeBase64(data);
      const at = next() % good.length;
      const swap = swaps[next() % swaps.length] as string;
      const text = good.slice(0, at) + swap + good.slice(at + 1);
      const outcome = (decode: (t: string) => Uint8Array): Uint8Array | string => {
        try {
          return decode(text);
        } catch (e) {
          assert.ok(e instanceof Error && e.name === "Base64Error", String(e));
          return e.message;
        }
      };
      const native = outcome(decodeBase64);
      const js = outcome(pure.decodeBase64);
      assert.deepEqual(native, js, JSON.stringify({ at, swap }));
      const canonical = Buffer.from(Buffer.from(text, "base64")).toString("base64") === text;
      assert.equal(typeof native !== "string", canonical, JSON.stringify({ at, swap }));
      if (typeof native === "string") rejected++;
    }
    assert.ok(rejected > 1500, `${rejected} rejected`);
  });
});
