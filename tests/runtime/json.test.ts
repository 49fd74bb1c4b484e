// Tests of the strict JSON parser: RFC 8259 only, lone surrogates, overflow, depth, duplicate keys, member order.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { addMember, isIndexKey, type Json, type JsonObject, keysOf, MAX_DEPTH, ORDER, ObjectBuilder, objectOf, parseJson } from "../../templates/typescript/runtime/json.js";
import { writeJson } from "../../templates/typescript/runtime/writer.js";
import { json, jsonError } from "./helpers.js";

const INVALID: [string, string][] = [
  ["empty text", ""],
  ["only whitespace", " \n\t\r "],
  ["unclosed object", "{"],
  ["unclosed array", "[1,2"],
  ["trailing comma in an array", "[1,]"],
  ["trailing comma in an object", '{"a":1,}'],
  ["leading comma", "[,1]"],
  ["missing comma", "[1 2]"],
  ["missing colon", '{"a" 1}'],
  ["missing comma between members", '{"a":1 "b":2}'],
  ["unquoted member name", "{a:1}"],
  ["single-quoted string", "'a'"],
  ["number member name", "{1:1}"],
  ["line comment", "// c\n1"],
  ["block comment", "/* c */ 1"],
  ["comment after a value", "[1 /* c */]"],
  ["leading zero", "01"],
  ["leading zero in an array", "[00]"],
  ["negative leading zero", "-01"],
  ["lone minus", "-"],
  ["plus sign", "+1"],
  ["fraction without digits", "1."],
  ["fraction without a whole part", ".5"],
  ["exponent without digits", "1e"],
  ["exponent sign without digits", "1e+"],
  ["hex number", "0x10"],
  ["NaN", "NaN"],
  ["Infinity", "Infinity"],
  ["-Infinity", "-Infinity"],
  ["truncated true", "tru"],
  ["truncated null", "nul"],
  ["capitalised literal", "True"],
  ["undefined", "undefined"],
  ["unterminated string", '"abc'],
  ["unterminated long string", `"${"x".repeat(200)}`],
  ["invalid escape", '"\\x"'],
  ["single-quote escape", '"\\\'"'],
  ["short \\u escape", '"\\u12"'],
  ["non-hex \\u escape", '"\\u12G4"'],
  ["raw control character", '"a\u0001b"'],
  ["raw tab in a string", '"a\tb"'],
  ["raw newline in a string", '"a\nb"'],
  ["raw control in a long string", `"${"x".repeat(100)}\u001f"`],
  ["invalid escape in a long string", `"${"x".repeat(100)}\\q"`],
  ["no-break space as whitespace", "\u00a01"],
  ["byte order mark", "\ufeff1"],
  ["vertical tab as whitespace", "\u000b1"],
  ["two values", "1 2"],
  ["trailing garbage after an object", '{"terminalId":"t"} x'],
  ["two objects", "{} {}"],
  ["trailing garbage after a literal", "nullx"],
  ["trailing comma at the end", "[1],"],
  ["lone high surrogate escape", '"\\ud800"'],
  ["lone low surrogate escape", '"\\udc00"'],
  ["surrogate escapes in the wrong order", '"\\udc00\\ud800"'],
  ["high surrogate escape then a letter", '"\\ud800x"'],
  ["high surrogate escape then a non-surrogate escape", '"\\ud800\\u0041"'],
  ["two high surrogate escapes", '"\\ud800\\ud800"'],
  ["high surrogate escape at the end of a member name", '{"\\ud83d":1}'],
  ["lone surrogate escape in a long string", `"${"x".repeat(100)}\\ud800"`],
  ["lone low surrogate escape in a long string", `"${"x".repeat(100)}\\udfff${"y".repeat(10)}"`],
  ["raw lone high surrogate", '"\ud800"'],
  ["raw lone low surrogate", '"\udc00"'],
  ["raw surrogates in the wrong order", '"\udc00\ud800"'],
  ["escaped high surrogate then raw low surrogate", '"\\ud800\udc00"'],
  ["number too large for a double", "1e400"],
  ["negative number too large for a double", "-1e400"],
  ["long integer too large for a double", "1" + "0".repeat(400)],
  ["too large inside a structure", '{"a":[1,2,1e999]}'],
];

describe("text that is not JSON is invalid_json at the root", () => {
  for (const [name, text] of INVALID) {
    test(name, () => {
      assert.deepEqual(jsonError(text), ["invalid_json", ""]);
    });
  }

  test("the message says what is wrong and where", () => {
    try {
      parseJson("[1,]");
      assert.fail("expected an error");
    } catch (e) {
      assert.match(String((e as Error).message), /not valid JSON: .* at offset 3/);
    }
  });
});

describe("RFC 8259 text parses", () => {
  const cases: [string, Json][] = [
    ["0", 0],
    ["-0", -0],
    ["1.5e3", 1500],
    ["1E2", 100],
    ["1e-400", 0],
    ["true", true],
    ["false", false],
    ["null", null],
    ['""', ""],
    [' \t\r\n[ 1 , { } , [ ] , "x" ] \n', [1, {}, [], "x"]],
    ['"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"\\/\b\f\n\r\t'],
    ['"\\u00e9\\u00E9\\u20ac"', "éé€"],
    ['"\\ud83d\\ude00"', "😀"],
    ['"😀 raw pair"', "😀 raw pair"],
    ['"\u007f"', "\u007f"],
    ['"\u2028\u2029"', "\u2028\u2029"],
    ['{"a":{"b":[null]}}', { a: { b: [null] } }],
  ];
  for (const [text, value] of cases) {
    test(JSON.stringify(text), () => {
      assert.deepEqual(parseJson(text), value);
    });
  }

  test("-0 parses to negative zero", () => {
    assert.ok(Object.is(parseJson("-0"), -0));
    assert.ok(Object.is(parseJson("-0.0"), -0));
  });

  test("long strings, with and without escapes, parse as JSON.parse does", () => {
    for (const body of [
      "x".repeat(1000),
      `${"a".repeat(70)}\\"${"b".repeat(70)}`,
      `${"a".repeat(70)}\\\\`,
      `${"a".repeat(70)}\\\\\\"q`,
      `\\n${"é".repeat(100)}\\u00e9\\ud83d\\ude00`,
      `${"😀".repeat(50)}\\t`,
      "\\\\".repeat(100),
    ]) {
      const text = `["${body}","next"]`;
      assert.deepEqual(parseJson(text), JSON.parse(text), body.slice(0, 20));
    }
  });

  test("a huge integer is the nearest double", () => {
    assert.equal(parseJson("12345678901234567890"), 12345678901234567000);
    assert.equal(parseJson("9007199254740993"), 9007199254740992);
    assert.equal(parseJson("123456789012345"), 123456789012345);
    assert.equal(parseJson("-123456789012345"), -123456789012345);
  });

  test("the largest and smallest doubles parse", () => {
    assert.equal(parseJson("1.7976931348623157e308"), Number.MAX_VALUE);
    assert.equal(parseJson("5e-324"), Number.MIN_VALUE);
  });
});

describe("nesting depth", () => {
  const nest = (n: number, open: string, close: string) => open.repeat(n) + close.repeat(n);
  const mixed = (n: number) => {
    let s = "1";
    for (let i = 0; i < n; i++) s = i % 2 === 0 ? `[${s}]` : `{"k":${s}}`;
    return s;
  };

  test("the limit is serde_json's: 127 levels", () => {
    assert.equal(MAX_DEPTH, 127);
  });

  test(`${MAX_DEPTH} nested arrays or objects parse`, () => {
    assert.equal(jsonError(nest(MAX_DEPTH, "[", "]")), undefined);
    assert.equal(jsonError(nest(MAX_DEPTH, '{"a":', "}").replace(/:}/, ":1}")), undefined);
    assert.equal(jsonError(mixed(MAX_DEPTH)), undefined);
  });

  test(`${MAX_DEPTH + 1} nested arrays or objects are invalid_json`, () => {
    assert.deepEqual(jsonError(nest(MAX_DEPTH + 1, "[", "]")), ["invalid_json", ""]);
    assert.deepEqual(jsonError(mixed(MAX_DEPTH + 1)), ["invalid_json", ""]);
    assert.deepEqual(jsonError(nest(100000, "[", "]")), ["invalid_json", ""]);
  });

  test("depth is counted along one path, not in total", () => {
    const wide = `[${Array.from({ length: 300 }, () => "[[]]").join(",")}]`;
    assert.equal(jsonError(wide), undefined);
  });
});

describe("a repeated member name is duplicate_key at the second occurrence", () => {
  const cases: [string, string, string][] = [
    ["at the top", '{"a":1,"a":2}', "/a"],
    ["nested", '{"a":{"b":1,"b":2}}', "/a/b"],
    ["inside an array", '[{"x":1},{"y":1,"y":2}]', "/1/y"],
    ["deep inside arrays and objects", '{"a":[0,[{"b":{"c":1,"d":2,"c":3}}]]}', "/a/1/0/b/c"],
    ["`/` escaped as ~1", '{"x/y":1,"x/y":2}', "/x~1y"],
    ["`~` escaped as ~0", '{"a":{"~":1,"~":2}}', "/a/~0"],
    ["both escapes", '{"~/":{"/~":1,"/~":2}}', "/~0~1/~1~0"],
    ["the empty name", '{"":1,"":2}', "/"],
    ["names equal after escapes", '{"a":1,"\\u0061":2}', "/a"],
    ["__proto__", '{"__proto__":1,"__proto__":2}', "/__proto__"],
    ["not adjacent", '{"a":1,"b":2,"c":3,"a":4}', "/a"],
    ["with null values", '{"a":null,"a":null}', "/a"],
    ["in free JSON under _meta", '{"terminalId":"a","_meta":{"x/y":1,"x/y":2}}', "/_meta/x~1y"],
    ["the first one in document order wins", '{"a":{"b":1,"b":2},"a":3}', "/a/b"],
    ["an earlier object's repeat wins over a later one", '[{"p":1,"p":2},{"q":1,"q":2}]', "/0/p"],
  ];
  for (const [name, text, path] of cases) {
    test(name, () => {
      assert.deepEqual(jsonError(text), ["duplicate_key", path]);
    });
  }

  test("the message names the member", () => {
    assert.throws(() => parseJson('{"command":7,"command":8}'), /`command` appears twice/);
  });

  test("equal names in different objects are not repeats", () => {
    assert.equal(jsonError('{"a":{"a":1},"b":{"a":2},"c":[{"a":3},{"a":4}]}'), undefined);
  });

  test("text that is not JSON is invalid_json even after a repeated name (WIRE.md rule 1 before rule 2)", () => {
    assert.deepEqual(jsonError('{"a":1,"a":2'), ["invalid_json", ""]);
    assert.deepEqual(jsonError('{"a":1,"a":2} x'), ["invalid_json", ""]);
    assert.deepEqual(jsonError('{"a":1,"a":"\\ud800"}'), ["invalid_json", ""]);
    assert.deepEqual(jsonError('{"a":1,"a":1e400}'), ["invalid_json", ""]);
  });
});

describe("objects are plain objects that keep their input order", () => {
  test("integer-like keys stay where they were, through a hidden order record", () => {
    const v = json('{"b":1,"2":2,"a":3,"1":4,"0":5}') as JsonObject;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(Object.keys(v), ["0", "1", "2", "b", "a"]);
    assert.deepEqual(keysOf(v), ["b", "2", "a", "1", "0"]);
    assert.equal(Object.getOwnPropertyDescriptor(v, ORDER)?.enumerable, false);
    assert.equal(writeJson(v), '{"b":1,"2":2,"a":3,"1":4,"0":5}');
  });

  test("no record when JavaScript's order is the input order", () => {
    for (const text of ['{"a":1,"b":2}', '{"0":1,"1":2,"a":3}', '{"4294967295":1,"a":2}', '{"01":1,"a":2}', "{}"]) {
      assert.deepEqual(Object.getOwnPropertySymbols(json(text) as object), [], text);
    }
    // 4294967294 is the largest array index: JavaScript lists it first.
    assert.deepEqual(keysOf(json('{"a":1,"4294967294":2}') as JsonObject), ["a", "4294967294"]);
  });

  test("isIndexKey is JavaScript's array-index rule", () => {
    for (const k of ["0", "7", "10", "4294967294"]) assert.ok(isIndexKey(k), k);
    for (const k of ["", "01", "-1", "1.5", "4294967295", "99999999999", "a", " 1", "1e3"]) assert.ok(!isIndexKey(k), k);
    // Checked against the engine: an index key is listed before a non-index key added earlier.
    for (const k of ["0", "10", "4294967294", "4294967295", "01", "-1"]) {
      const o: Record<string, number> = { a: 1 };
      o[k] = 2;
      assert.equal(Object.keys(o)[0] === k, isIndexKey(k), k);
    }
  });

  test("at every depth", () => {
    const text = '{"z":{"b":1,"a":2},"a":[{"y":0,"x":1}],"m":null,"10":{"9":[],"1":{}}}';
    assert.equal(writeJson(json(text)), text);
  });

  test("__proto__ and constructor are ordinary members", () => {
    const v = json('{"__proto__":{"x":1},"constructor":2}') as JsonObject;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(Object.keys(v), ["__proto__", "constructor"]);
    assert.deepEqual(v["__proto__"], { x: 1 });
    assert.equal(writeJson(v), '{"__proto__":{"x":1},"constructor":2}');
  });

  test("objectOf and addMember build objects that write in insertion order", () => {
    const o = objectOf([["b", 1], ["3", [true, null]], ["__proto__", "p"], ["1", {}]]);
    assert.equal(writeJson(o), '{"b":1,"3":[true,null],"__proto__":"p","1":{}}');
    addMember(o, "0", 0);
    assert.equal(writeJson(o), '{"b":1,"3":[true,null],"__proto__":"p","1":{},"0":0}');
  });

  test("keysOf after edits: removed names go, added ones follow in Object.keys order", () => {
    const o = json('{"b":1,"2":2,"a":3}') as JsonObject;
    delete o["2"];
    o["z"] = 4;
    o["0"] = 5;
    assert.deepEqual(keysOf(o), ["b", "a", "0", "z"]);
  });

  test("the writer leaves out members set to undefined and refuses what JSON cannot hold", () => {
    assert.equal(writeJson({ a: 1, b: undefined as unknown as Json }), '{"a":1}');
    assert.throws(() => writeJson(Number.NaN), RangeError);
    assert.throws(() => writeJson((() => 1) as unknown as Json), TypeError);
  });
});

// --- differential tests against the engine's JSON.parse ---

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['"', "\\", "\\u", "d8", "dc", "00", "{", "}", "[", "]", ",", ":", " ", "1", "0", "-", ".", "e", "+", "E", "true", "null", "a", "é", "\ud83d", "\ude00", "\u0001", "\t", "\n", "/"];

function randomValue(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 3 ? 4 : 7));
  switch (k) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2: {
      const forms = [0, -0, 1, -1, 0.5, 1e21, 1e-7, 123456789.125, -2.5e-300, 9007199254740993, Math.floor(r() * 1e6)];
      return forms[Math.floor(r() * forms.length)];
    }
    case 3: {
      let s = "";
      const n = Math.floor(r() * (r() < 0.1 ? 150 : 8));
      for (let i = 0; i < n; i++) s += ["a", "é", "😀", "\n", '"', "\\", "/", "\u0000", "\u2028", "~", "z"][Math.floor(r() * 11)];
      return s;
    }
    case 4:
    case 5:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      const n = Math.floor(r() * 4);
      for (let i = 0; i < n; i++) o[`k${Math.floor(r() * 100)}`] = randomValue(r, depth + 1);
      return o;
    }
  }
}

function hasLoneSurrogate(v: unknown): boolean {
  if (typeof v === "string") return /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/.test(v);
  if (Array.isArray(v)) return v.some(hasLoneSurrogate);
  if (v !== null && typeof v === "object") return Object.entries(v).some(([k, x]) => hasLoneSurrogate(k) || hasLoneSurrogate(x));
  return false;
}

function hasInfinity(v: unknown): boolean {
  if (typeof v === "number") return !Number.isFinite(v);
  if (Array.isArray(v)) return v.some(hasInfinity);
  if (v !== null && typeof v === "object") return Object.values(v).some(hasInfinity);
  return false;
}

describe("agrees with JSON.parse", () => {
  test("on 3000 random documents: same values, canonical text equals JSON.stringify", () => {
    const r = rng(1);
    for (let i = 0; i < 3000; i++) {
      const text = JSON.stringify(randomValue(r, 0), null, i % 3 === 0 ? 1 : undefined);
      const mine = parseJson(text);
      assert.deepEqual(mine, JSON.parse(text), text);
      // Keys like "k12" are not integer-like, so JSON.stringify keeps their order too.
      assert.equal(writeJson(mine), JSON.stringify(JSON.parse(text)), text);
    }
  });

  test("on 20000 mutated documents: rejected exactly when JSON.parse rejects, or for a lone surrogate, overflow or a repeat", () => {
    const r = rng(2);
    const seen = { invalid: 0, repeated: 0, valid: 0, engineAccepts: 0 };
    for (let i = 0; i < 20000; i++) {
      let text = JSON.stringify(randomValue(r, 0));
      const edits = 1 + Math.floor(r() * 3);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(r() * (text.length + 1));
        const what = r();
        if (what < 0.4) text = text.slice(0, at) + text.slice(at + 1);
        else text = text.slice(0, at) + (PIECES[Math.floor(r() * PIECES.length)] as string) + text.slice(at + (what < 0.7 ? 1 : 0));
      }
      let reference: unknown;
      let referenceOk = true;
      try {
        reference = JSON.parse(text);
      } catch {
        referenceOk = false;
      }
      const mine = jsonError(text);
      if (!referenceOk || hasLoneSurrogate(reference) || hasInfinity(reference) || hasLoneSurrogate(text)) {
        assert.deepEqual(mine, ["invalid_json", ""], text);
        seen.invalid++;
        if (referenceOk) seen.engineAccepts++;
      } else if (mine !== undefined) {
        assert.equal(mine[0], "duplicate_key", text);
        seen.repeated++;
      } else {
        assert.deepEqual(parseJson(text), reference, text);
        seen.valid++;
      }
    }
    // Every branch is exercised.
    assert.ok(seen.invalid > 5000 && seen.valid > 2000 && seen.repeated > 0 && seen.engineAccepts > 50, JSON.stringify(seen));
  });
});

describe("integer-like keys cost linear time", () => {
  /** Runs `f`, counting the calls to `Object.keys` (the one whole-object pass the order record needs). */
  const keysCalls = (f: () => void): number => {
    const original = Object.keys;
    let calls = 0;
    Object.keys = ((o: object) => {
      calls++;
      return original(o);
    }) as typeof Object.keys;
    try {
      f();
    } finally {
      Object.keys = original;
    }
    return calls;
  };
  const object = (n: number, reversed: boolean): string => {
    const keys = Array.from({ length: n }, (_, i) => (reversed ? n - i : i));
    return `{"name":0,${keys.map((k) => `"${k}":${k}`).join(",")}}`;
  };

  for (const reversed of [false, true]) {
    test(`parsing n or 8n integer-like keys (${reversed ? "descending" : "ascending"}) takes one pass over the object's keys`, () => {
      for (const n of [100, 800]) {
        const text = object(n, reversed);
        let v: Json = null;
        assert.equal(keysCalls(() => (v = parseJson(text))), 1, `parse, n = ${n}`);
        assert.equal(keysCalls(() => writeJson(v)), 1, `write, n = ${n}`);
        assert.equal(writeJson(v), text);
      }
    });
  }

  test("ObjectBuilder: one pass over the keys, however many integer-like keys come out of order", () => {
    for (const n of [100, 800]) {
      const calls = keysCalls(() => {
        const b = new ObjectBuilder().add("name", 0);
        for (let i = n; i > 0; i--) b.add(String(i), i);
        b.finish();
      });
      assert.equal(calls, 1, `n = ${n}`);
    }
    assert.equal(keysCalls(() => objectOf([["0", 0], ["1", 1], ["2", 2]])), 0);
  });
});
