// Tests of the decoding context: pointers, type checks, integers, bytes, paths, arrays, member helpers, entry points.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  Cx,
  type Decoder,
  MAX_SAFE_INTEGER,
  decodeAbsolutePath,
  decodeArray,
  decodeBoolean,
  decodeBytes,
  decodeInt32,
  decodeInt64,
  decodeJson,
  decodeNumber,
  decodeObject,
  decodeString,
  decodeText,
  decodeUint16,
  decodeUint32,
  decodeUint64,
  decodeUint8,
  decodeValue,
  describe as describeValue,
  encodeText,
  membersExcept,
} from "../../templates/typescript/runtime/decode.js";
import { DecodeError, ERROR_KINDS, pointer } from "../../templates/typescript/runtime/errors.js";
import { type Json, type JsonObject, keysOf } from "../../templates/typescript/runtime/json.js";
import { encodeJson } from "../../templates/typescript/runtime/writer.js";
import { errorOf, json, okOf } from "./helpers.js";

/** Decodes `text` with `decoder`; returns [kind, path] of the error. */
const err = <T>(decoder: Decoder<T>, text: string) => errorOf(decodeText(text, decoder));
const ok = <T>(decoder: Decoder<T>, text: string) => okOf(decodeText(text, decoder));

describe("errors", () => {
  test("the kinds are the ones of the one list, in its order", () => {
    // templates/rules/error_kinds.txt is the one hand-written list; gen writes ERROR_KINDS from it.
    // dist/tests/runtime/ -> the project root is five levels up.
    const source = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "..", "templates", "rules", "error_kinds.txt");
    const listed = readFileSync(source, "utf8")
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map((l) => l.split(":")[0]);
    assert.ok(listed.length >= 12);
    assert.deepEqual(ERROR_KINDS, listed);
    for (const k of ["invalid_json", "duplicate_key", "session_mismatch"] as const) assert.ok(ERROR_KINDS.includes(k), k);
  });

  test("pointers escape ~ and / and write indexes", () => {
    assert.equal(pointer([]), "");
    assert.equal(pointer(["a", 0, "x/y", "~", ""]), "/a/0/x~1y/~0/");
    assert.equal(pointer(["~1"]), "/~01");
  });

  test("a DecodeError carries its problem and captures no stack (warnings stay cheap)", () => {
    const e = new DecodeError({ kind: "wrong_type", path: "/a", message: "expected a string, got a number" });
    assert.ok(!(e instanceof Error));
    assert.equal("stack" in e, false);
    assert.equal(String(e), "DecodeError: wrong_type at /a: expected a string, got a number");
    assert.equal(e.message, "wrong_type at /a: expected a string, got a number");
    assert.equal(new DecodeError({ kind: "invalid_json", path: "", message: "m" }).message, "invalid_json at the document root: m");
  });
});

describe("the context tracks the pointer", () => {
  test("at and index go one level deeper and come back, also on failure", () => {
    const cx = new Cx();
    assert.equal(cx.path, "");
    cx.at("a/b", (c) => c.index(3, (d) => assert.equal(d.path, "/a~1b/3")));
    assert.equal(cx.path, "");
    assert.throws(() => cx.at("x", (c) => c.fail("wrong_type", "no")), DecodeError);
    assert.equal(cx.path, "");
  });

  test("fail, wrongType and missing report at the current pointer", () => {
    const cx = new Cx();
    const problem = (f: () => void) => {
      try {
        f();
      } catch (e) {
        if (e instanceof DecodeError) return e.problem;
      }
      return assert.fail("no DecodeError");
    };
    assert.deepEqual(
      problem(() => cx.at("update", (c) => c.missing("terminalId"))),
      { kind: "missing_field", path: "/update/terminalId", message: "required member `terminalId` is missing; add it" },
    );
    assert.deepEqual(
      problem(() => cx.at("n", (c) => c.wrongType("a string", 5))),
      { kind: "wrong_type", path: "/n", message: "expected a string, got a number" },
    );
    assert.equal(problem(() => cx.missingOneOf(["text", "blob"])).path, "/text");
    assert.equal(problem(() => cx.unknownValue("system", "Role", ["assistant", "user"])).path, "");
    assert.deepEqual(problem(() => cx.unknownTag("type", "_chart", "ToolCallContent", ["content"])), {
      kind: "unknown_variant",
      path: "/type",
      message: "`_chart` is not a known ToolCallContent variant; use one of: content",
    });
  });

  test("describe names each JSON type", () => {
    const values: Json[] = [null, true, 1, "s", [], {}];
    assert.deepEqual(values.map(describeValue), ["null", "a boolean", "a number", "a string", "an array", "an object"]);
    const others: unknown[] = [new Map(), new Uint8Array(1), new (class Foo {})(), Number.NaN, undefined, 1n, Object.create(null)];
    assert.deepEqual(others.map(describeValue), ["a Map", "a Uint8Array (binary data, not JSON)", "an instance of class Foo", "NaN", "undefined", "a bigint", "an object"]);
  });
});

describe("values", () => {
  test("strings, booleans, numbers, objects: anything else is wrong_type", () => {
    assert.equal(ok(decodeString, '"x"')[0], "x");
    assert.equal(ok(decodeBoolean, "false")[0], false);
    assert.equal(ok(decodeNumber, "1.5")[0], 1.5);
    assert.deepEqual(ok(decodeObject, '{"b":1}')[0], { b: 1 });
    for (const [d, text] of [
      [decodeString, "1"],
      [decodeString, "null"],
      [decodeBoolean, '"true"'],
      [decodeNumber, '"1"'],
      [decodeObject, "[]"],
      [decodeObject, "null"],
    ] as [Decoder<unknown>, string][]) {
      assert.deepEqual(err(d, text), ["wrong_type", ""], text);
    }
  });

  test("free JSON is kept as is", () => {
    const [v] = ok(decodeJson, '{"z":[1,{"b":null,"a":2}],"1":"x"}');
    assert.equal(encodeText(v, encodeJson), '{"z":[1,{"b":null,"a":2}],"1":"x"}');
  });

  test("bytes: strict base64 or invalid_base64 with the reason", () => {
    assert.deepEqual(ok(decodeBytes, '"aGVsbG8="')[0], new TextEncoder().encode("hello"));
    assert.deepEqual(err(decodeBytes, '"aGVsbG9="'), ["invalid_base64", ""]);
    assert.deepEqual(err(decodeBytes, "5"), ["wrong_type", ""]);
    const r = decodeText('"YW-j"', decodeBytes);
    assert.ok(!r.ok && /^not strict base64: .*URL-safe/.test(r.error.message));
  });

  test("absolute paths: relative_path otherwise", () => {
    assert.equal(ok(decodeAbsolutePath, '"C:\\\\w"')[0], "C:\\w");
    assert.deepEqual(err(decodeAbsolutePath, '"src"'), ["relative_path", ""]);
    assert.deepEqual(err(decodeAbsolutePath, "null"), ["wrong_type", ""]);
  });
});

describe("integers accept whole numbers within their format", () => {
  test("3, 3.0 and 3e0 are all 3", () => {
    for (const text of ["3", "3.0", "3e0", "0.03e2", "30e-1"]) assert.equal(ok(decodeUint32, text)[0], 3, text);
  });

  test("-0 is 0", () => {
    assert.ok(Object.is(ok(decodeInt64, "-0")[0], 0));
  });

  test("a fraction is wrong_type, and so is a non-number", () => {
    assert.deepEqual(err(decodeUint32, "1.5"), ["wrong_type", ""]);
    assert.deepEqual(err(decodeUint32, "1e-1"), ["wrong_type", ""]);
    assert.deepEqual(err(decodeUint32, '"1"'), ["wrong_type", ""]);
  });

  test("each format's bounds", () => {
    const bounds: [Decoder<number>, number, number][] = [
      [decodeUint8, 0, 255],
      [decodeUint16, 0, 65535],
      [decodeUint32, 0, 4294967295],
      [decodeInt32, -2147483648, 2147483647],
      [decodeUint64, 0, MAX_SAFE_INTEGER],
      [decodeInt64, -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER],
    ];
    for (const [d, min, max] of bounds) {
      assert.equal(ok(d, String(min))[0], min);
      assert.equal(ok(d, String(max))[0], max);
      assert.deepEqual(err(d, String(min - 1)), ["out_of_range", ""], `${min} - 1`);
      assert.deepEqual(err(d, String(max + 1)), ["out_of_range", ""], `${max} + 1`);
    }
  });

  test("64-bit formats stop at 2^53 - 1", () => {
    assert.equal(MAX_SAFE_INTEGER, 2 ** 53 - 1);
    assert.deepEqual(err(decodeUint64, "9007199254740992"), ["out_of_range", ""]);
    assert.deepEqual(err(decodeInt64, "-9007199254740992"), ["out_of_range", ""]);
    assert.deepEqual(err(decodeUint64, "1e300"), ["out_of_range", ""]);
  });

  test("the messages say what was expected", () => {
    const r = decodeText("1.5", decodeUint32);
    assert.ok(!r.ok && r.error.message === "expected a whole number from 0 to 4294967295, got 1.5, which has a fraction");
    const s = decodeText("-1", decodeUint32);
    assert.ok(!s.ok && /-1 is outside the range of a whole number from 0 to 4294967295/.test(s.error.message));
  });
});

describe("arrays", () => {
  const strings = decodeArray(decodeString);

  test("each item is decoded at its index", () => {
    assert.deepEqual(ok(strings, '["a","b"]')[0], ["a", "b"]);
    assert.deepEqual(err(strings, '["a",1]'), ["wrong_type", "/1"]);
    assert.deepEqual(err(strings, '{"0":"a"}'), ["wrong_type", ""]);
  });

  test("with skipInvalidItems, bad items are dropped with a warning each, in document order", () => {
    const [v, ws] = okOf(decodeValue(json('["a",1,"b",null,"c"]'), (x, cx) => cx.array(x, decodeString, true)));
    assert.deepEqual(v, ["a", "b", "c"]);
    assert.deepEqual(ws, [
      ["wrong_type", "/1"],
      ["wrong_type", "/3"],
    ]);
  });

  test("skipping does not reach nested arrays", () => {
    const nested: Decoder<string[][]> = (x, cx) => cx.array(x, strings, true);
    const [v, ws] = ok(nested, '[["a"],["b",2],["c"]]');
    assert.deepEqual(v, [["a"], ["c"]]);
    assert.deepEqual(ws, [["wrong_type", "/1/1"]]);
  });

  test("an array that is not an array is still an error when skipping", () => {
    assert.deepEqual(err((x, cx) => cx.array(x, decodeString, true), "5"), ["wrong_type", ""]);
  });
});

describe("member helpers", () => {
  const LENIENT = { lenient: true } as const;
  /** Decodes `{ "m": ... }` with one member helper and returns the member's outcome and the warnings. */
  function member<T>(text: string, read: (cx: Cx, v: Json) => T): [T | "omitted", [string, string][]] {
    return okOf(
      decodeText(text, (v, cx) => {
        const obj = cx.expectObject(v);
        const m = obj["m"];
        return m === undefined ? ("omitted" as const) : read(cx, m);
      }),
    );
  }

  test("required: the value, or its error under the member's name", () => {
    assert.deepEqual(member('{"m":"x"}', (cx, v) => cx.required("m", v, decodeString)), ["x", []]);
    assert.deepEqual(err((v, cx) => cx.required("m", (v as JsonObject)["m"] ?? null, decodeString), '{"m":null}'), ["wrong_type", "/m"]);
  });

  test("required is never lenient", () => {
    assert.deepEqual(err((v, cx) => cx.required("m", v, decodeString, LENIENT), "1"), ["wrong_type", "/m"]);
  });

  test("optional: null is omitted; a problem is an error unless lenient", () => {
    assert.deepEqual(member('{"m":null}', (cx, v) => cx.optional("m", v, decodeString)), [undefined, []]);
    assert.deepEqual(member('{"m":"x"}', (cx, v) => cx.optional("m", v, decodeString)), ["x", []]);
    assert.deepEqual(err((v, cx) => cx.optional("m", v, decodeString), "1"), ["wrong_type", "/m"]);
    assert.deepEqual(member('{"m":1}', (cx, v) => cx.optional("m", v, decodeString, LENIENT)), [undefined, [["wrong_type", "/m"]]]);
  });

  test("maybe (declared non-nullable, not required): null is still omitted; other problems as optional", () => {
    assert.deepEqual(member('{"m":null}', (cx, v) => cx.maybe("m", v, decodeString)), [undefined, []]);
    assert.deepEqual(member('{"m":null}', (cx, v) => cx.maybe("m", v, decodeString, LENIENT)), [undefined, []]);
    assert.deepEqual(err((v, cx) => cx.maybe("m", v, decodeString), "1"), ["wrong_type", "/m"]);
    assert.deepEqual(member('{"m":1}', (cx, v) => cx.maybe("m", v, decodeString, LENIENT)), [undefined, [["wrong_type", "/m"]]]);
  });

  test("patch: null clears, a value sets, a lenient problem leaves it unchanged", () => {
    assert.deepEqual(member('{"m":null}', (cx, v) => cx.patch("m", v, decodeString, LENIENT)), [null, []]);
    assert.deepEqual(member('{"m":"x"}', (cx, v) => cx.patch("m", v, decodeString, LENIENT)), ["x", []]);
    assert.deepEqual(member('{"m":7}', (cx, v) => cx.patch("m", v, decodeString, LENIENT)), [undefined, [["wrong_type", "/m"]]]);
    assert.deepEqual(err((v, cx) => cx.patch("m", v, decodeString), "7"), ["wrong_type", "/m"]);
  });

  test("patch keeps free-JSON null as clear", () => {
    assert.deepEqual(member('{"m":null}', (cx, v) => cx.patch("m", v, decodeJson)), [null, []]);
  });

  test("range: out_of_range at the member, checked before the type", () => {
    const range = { range: [0, 1] } as const;
    assert.deepEqual(member('{"m":0.5}', (cx, v) => cx.required("m", v, decodeNumber, range)), [0.5, []]);
    assert.deepEqual(err((v, cx) => cx.required("m", v, decodeNumber, range), "1.5"), ["out_of_range", "/m"]);
    assert.deepEqual(err((v, cx) => cx.required("m", v, decodeUint8, range), "2.5"), ["out_of_range", "/m"]);
    assert.deepEqual(err((v, cx) => cx.required("m", v, decodeNumber, range), '"x"'), ["wrong_type", "/m"]);
  });

  test("minItems: out_of_range at the array, before its items", () => {
    const options = { minItems: 1 } as const;
    const strings = decodeArray(decodeString);
    assert.deepEqual(err((v, cx) => cx.required("options", v, strings, options), "[]"), ["out_of_range", "/options"]);
    assert.deepEqual(member('{"m":["a"]}', (cx, v) => cx.required("m", v, strings, options)), [["a"], []]);
    const r = decodeText("[]", (v, cx) => cx.required("options", v, strings, options));
    assert.ok(!r.ok && r.error.message === "the array has 0 items; at least 1 required");
  });

  test("skipItems reaches the member's own array, not later ones", () => {
    const strings = decodeArray(decodeString);
    const both = decodeText('{"a":["x",1],"b":["y",2]}', (v, cx) => {
      const obj = cx.expectObject(v);
      const a = cx.optional("a", obj["a"] ?? null, strings, { lenient: true, skipItems: true });
      const b = cx.optional("b", obj["b"] ?? null, strings, LENIENT);
      return [a, b];
    });
    assert.deepEqual(okOf(both), [[["x"], undefined], [["wrong_type", "/a/1"], ["wrong_type", "/b/1"]]]);
  });

  test("a skipItems member whose value is not an array does not leak the flag", () => {
    const strings = decodeArray(decodeString);
    const r = decodeText('{"a":"not an array","b":["y",2]}', (v, cx) => {
      const obj = cx.expectObject(v);
      cx.optional("a", obj["a"] ?? null, decodeString, { skipItems: true });
      return cx.optional("b", obj["b"] ?? null, strings);
    });
    assert.deepEqual(errorOf(r), ["wrong_type", "/b/1"]);
  });

  test("absorb turns a problem into a warning and restores the pointer", () => {
    const cx = new Cx();
    const got = cx.at("a", (c) => c.absorb((d) => d.at("b", (e) => e.fail("out_of_range", "too big"))));
    assert.equal(got, undefined);
    assert.equal(cx.path, "");
    assert.deepEqual(cx.warnings.map((w) => [w.kind, w.path]), [["out_of_range", "/a/b"]]);
  });

  test("only decoding problems are absorbed; bugs propagate", () => {
    const boom: Decoder<string> = () => {
      throw new TypeError("bug");
    };
    assert.throws(() => decodeText('{"m":1}', (v, cx) => cx.optional("m", v, boom, LENIENT)), TypeError);
    assert.throws(() => decodeText("[1]", (v, cx) => cx.array(v, boom, true)), TypeError);
  });
});

describe("tags and unknown members", () => {
  test("readTag: missing_field at the tag, wrong_type at the tag, or the tag", () => {
    const tag: Decoder<string> = (v, cx) => cx.readTag(cx.expectObject(v), "type");
    assert.equal(ok(tag, '{"x":1,"type":"diff"}')[0], "diff");
    assert.deepEqual(err(tag, '{"x":1}'), ["missing_field", "/type"]);
    assert.deepEqual(err(tag, '{"type":1}'), ["wrong_type", "/type"]);
    assert.deepEqual(err(tag, '{"type":null}'), ["wrong_type", "/type"]);
  });

  test("membersExcept keeps the others in input order", () => {
    const obj = json('{"b":1,"type":"x","1":2,"a":3}') as JsonObject;
    assert.deepEqual(keysOf(membersExcept(obj, ["type"], new Cx())), ["b", "1", "a"]);
  });
});

describe("entry points", () => {
  test("decodeText: invalid_json first, then duplicate_key, then type problems", () => {
    assert.deepEqual(err(decodeString, '{"a":1,"a":2'), ["invalid_json", ""]);
    assert.deepEqual(err(decodeString, '{"a":1,"a":2}'), ["duplicate_key", "/a"]);
    assert.deepEqual(err(decodeString, '{"a":1}'), ["wrong_type", ""]);
  });

  test("decodeValue on an already parsed value, with warnings", () => {
    const r = decodeValue(json('["a",2]'), (v, cx) => cx.array(v, decodeString, true));
    assert.deepEqual(okOf(r), [["a"], [["wrong_type", "/1"]]]);
  });

  test("a fresh context per parse: warnings do not carry over", () => {
    const skipping: Decoder<string[]> = (v, cx) => cx.array(v, decodeString, true);
    assert.equal(okOf(decodeText("[1]", skipping))[1].length, 1);
    assert.equal(okOf(decodeText("[1]", skipping))[1].length, 1);
  });
});
