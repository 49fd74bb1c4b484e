// Tests of the canonical writer: ECMAScript number and string forms, compact output, member order, commas.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Json, objectOf } from "../../templates/typescript/runtime/json.js";
import { Writer, encodeNumber, encodeString, writeJson } from "../../templates/typescript/runtime/writer.js";
import { json } from "./helpers.js";

const canonical = (text: string) => writeJson(json(text));

describe("numbers are written as ECMAScript's Number-to-String", () => {
  const cases: [string, string][] = [
    ["1.0", "1"],
    ["1e21", "1e+21"],
    ["1e20", "100000000000000000000"],
    ["-0", "0"],
    ["-0.0", "0"],
    ["-1e-400", "0"],
    ["1E2", "100"],
    ["0.1", "0.1"],
    ["12345678901234567890", "12345678901234567000"],
    ["1e-7", "1e-7"],
    ["0.000001", "0.000001"],
    ["123e-20", "1.23e-18"],
    ["-1.50", "-1.5"],
    ["3e0", "3"],
    ["5e-324", "5e-324"],
    ["1.7976931348623157e308", "1.7976931348623157e+308"],
    ["0.30000000000000004", "0.30000000000000004"],
    ["9007199254740993", "9007199254740992"],
  ];
  for (const [input, output] of cases) {
    test(`${input} -> ${output}`, () => {
      assert.equal(canonical(input), output);
      assert.equal(canonical(`[${input}]`), `[${output}]`);
    });
  }

  test("NaN and the infinities cannot be written", () => {
    for (const n of [NaN, Infinity, -Infinity]) {
      assert.throws(() => writeJson(n), RangeError);
    }
  });
});

describe("strings are written as JSON.stringify writes them", () => {
  test("escapes: \\u00e9 as é, \\/ as /, controls short or as lowercase \\u00XX, DEL raw", () => {
    assert.equal(canonical('"\\u00e9\\/\\u001f\\u007f"'), '"é/\\u001f\u007f"');
    assert.equal(canonical('"\\b\\f\\n\\r\\t\\u0000\\u000B\\u001F"'), '"\\b\\f\\n\\r\\t\\u0000\\u000b\\u001f"');
    assert.equal(canonical('"\\"\\\\"'), '"\\"\\\\"');
  });

  test("non-ASCII characters are written as themselves", () => {
    assert.equal(canonical('"\\ud83d\\ude00 \\u2028\\u2029 \\u20ac"'), '"😀 \u2028\u2029 €"');
  });

  test("every UTF-16 code unit outside the surrogates, and surrogate pairs, match JSON.stringify", () => {
    let all = "";
    for (let c = 0; c < 0xd800; c++) all += String.fromCharCode(c);
    for (let c = 0xe000; c <= 0xffff; c++) all += String.fromCharCode(c);
    all += "\ud800\udc00\udbff\udfff";
    const w = new Writer();
    w.string(all);
    assert.equal(w.finish(), JSON.stringify(all));
    assert.equal(canonical(JSON.stringify(all)), JSON.stringify(all));
  });

  test("member names are escaped the same way", () => {
    assert.equal(canonical('{"a\\nb":1,"\\u00e9":2}'), '{"a\\nb":1,"é":2}');
  });
});

describe("compact output in the value's order", () => {
  test("insignificant whitespace goes", () => {
    assert.equal(canonical(' { "a" : [ 1 , 2 , { } , [ ] ] , "b" : { "c" : null } } '), '{"a":[1,2,{},[]],"b":{"c":null}}');
  });

  test("canonical text is a fixpoint", () => {
    for (const text of ['{"b":{"z":1,"a":[true,false,null]},"a":"x"}', "[]", "{}", '[[],[[]],{"":""}]', '"s"', "0"]) {
      assert.equal(canonical(text), text);
    }
  });

  test("objects are written in their member order, integer-like keys included", () => {
    const v: Json = objectOf([["b", 1], ["1", 2], ["a", objectOf([["0", 0], ["z", 0]])]]);
    assert.equal(writeJson(v), '{"b":1,"1":2,"a":{"0":0,"z":0}}');
    // A plain object literal has JavaScript's order: integer-like keys first.
    assert.equal(writeJson({ b: 1, 1: 2 }), '{"1":2,"b":1}');
  });
});

describe("the writer places commas itself", () => {
  test("objects, arrays and members nest", () => {
    const w = new Writer();
    w.beginObject();
    w.key("a");
    w.beginArray();
    w.item();
    w.number(1);
    w.item();
    w.beginObject();
    w.endObject();
    w.item();
    w.beginArray();
    w.endArray();
    w.item();
    w.null();
    w.endArray();
    w.key("b");
    w.bool(true);
    w.key("c");
    w.bytes(new Uint8Array([104, 105]));
    w.key("d");
    w.raw('{"x":1}');
    w.key("e");
    w.value({ y: [1, "2"] });
    w.endObject();
    assert.equal(w.finish(), '{"a":[1,{},[],null],"b":true,"c":"aGk=","d":{"x":1},"e":{"y":[1,"2"]}}');
  });

  test("put, putOptional and putPatch write required, optional and patch members", () => {
    const w = new Writer();
    w.beginObject();
    w.put("id", "t", encodeString);
    w.putOptional("absent", undefined, encodeString);
    w.putOptional("present", 3, encodeNumber);
    w.putPatch("keep", undefined, encodeString);
    w.putPatch("clear", null, encodeString);
    w.putPatch("set", "v", encodeString);
    w.endObject();
    assert.equal(w.finish(), '{"id":"t","present":3,"clear":null,"set":"v"}');
  });

  test("array writes each item with its encoder", () => {
    const w = new Writer();
    w.array(["a", "b"], encodeString);
    assert.equal(w.finish(), '["a","b"]');
  });
});
