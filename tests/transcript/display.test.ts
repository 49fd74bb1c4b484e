// safeDisplay (templates/typescript/runtime/display.ts) against the shared hostile corpus
// tests/display/corpus.json: the same expected output as Rust and Python.

import { strict as assert } from "node:assert";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { safeDisplay } from "../../templates/typescript/runtime/display.js";

interface Corpus {
  cases: { name: string; input: string; expect: string }[];
  lone_surrogates: { name: string; units: number[]; expect: string }[];
}

/** tests/display/corpus.json, found by walking up from this file (source or dist). */
function corpus(): Corpus {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "tests", "display", "corpus.json");
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, "utf8")) as Corpus;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("tests/display/corpus.json not found");
    dir = parent;
  }
}

test("safeDisplay: the hostile corpus", () => {
  const { cases } = corpus();
  assert.ok(cases.length >= 40, `only ${cases.length} cases`);
  for (const c of cases) assert.equal(safeDisplay(c.input), c.expect, c.name);
});

test("safeDisplay: lone surrogates become escapes, pairs stay", () => {
  const { lone_surrogates: cases } = corpus();
  assert.ok(cases.length >= 4);
  for (const c of cases) assert.equal(safeDisplay(String.fromCharCode(...c.units)), c.expect, c.name);
});

test("safeDisplay: the output is one line without controls, separators or invisible formatting characters", () => {
  const bad = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00a0\u2000-\u200a\u202f\u205f\u3000]/u;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const out = safeDisplay(`a${String.fromCodePoint(cp)}b`);
    assert.ok(out.startsWith("a") && out.endsWith("b"));
    if (bad.test(out)) assert.fail(`U+${cp.toString(16)} gives ${JSON.stringify(out)}`);
  }
});
