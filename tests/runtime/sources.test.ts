// Hygiene of the runtime sources the generator copies verbatim: header line, ESM `.js` imports, no Node-only or lenient APIs, no `any`.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

// dist/tests/runtime/ -> ../../../../../templates/typescript/runtime (the project root is five levels up)
const here = dirname(fileURLToPath(import.meta.url));
const runtime = join(here, "..", "..", "..", "..", "..", "templates", "typescript", "runtime");
const files = readdirSync(runtime).filter((f) => f.endsWith(".ts"));
const source = (f: string) => readFileSync(join(runtime, f), "utf8");
/** The source without comments and string contents, for token checks. */
const code = (f: string) =>
  source(f)
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""');

test("the runtime has its files", () => {
  for (const f of ["base64.ts", "decode.ts", "errors.ts", "index.ts", "json.ts", "model.ts", "path.ts", "pattern.ts", "writer.ts"]) {
    assert.ok(files.includes(f), `${f} is missing`);
  }
  // What only a Client needs lives in templates/typescript/client/, so a neutral package never carries it.
  const client = readdirSync(join(runtime, "..", "client"));
  for (const f of ["transcript.ts", "transcript_table.ts", "store.ts", "adapters.ts", "adapter_rules.ts"]) {
    assert.ok(!files.includes(f), `${f} is client-only`);
    assert.ok(client.includes(f), `client/${f} is missing`);
  }
});

test("each file starts with a one-line comment saying what it is", () => {
  for (const f of files) {
    const [first, second] = source(f).split("\n");
    assert.match(first ?? "", /^\/\/ \S.+$/, f);
    assert.doesNotMatch(second ?? "", /^\/\//, `${f}: the header is one line`);
  }
});

test("relative imports are ESM with .js extensions; no other imports", () => {
  for (const f of files) {
    for (const m of source(f).matchAll(/^(?:import|export)\b[^;]*?from\s+"([^"]+)"/gm)) {
      assert.match(m[1] ?? "", /^\.\/[a-z0-9_]+\.js$/, `${f}: ${m[0]}`);
    }
    assert.doesNotMatch(source(f), /\brequire\(/, f);
  }
});

test("no Node-only APIs, no lenient decoders, no any", () => {
  for (const f of files) {
    const c = code(f);
    for (const banned of [/\bBuffer\b/, /\batob\b/, /\bbtoa\b/, /\bprocess\./, /\bnode:/, /\bany\b/, /@ts-ignore/, /\beval\(/]) {
      // base64.ts alone may use Node's native decoder, found on `globalThis` when present, behind its
      // strictness checks (base64.test.ts runs every rejection through both of its paths).
      if (f === "base64.ts" && banned.source === "\\bBuffer\\b") continue;
      assert.doesNotMatch(c, banned, `${f}: ${banned}`);
    }
  }
});
