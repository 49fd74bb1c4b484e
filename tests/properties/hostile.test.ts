// The hostile corpus (tests/hostile/corpus.json) in TypeScript: every entry survives, and the work
// it costs grows linearly (work(8n) / work(n) at most the corpus's `maxWorkRatio`). Counted, never
// timed: `cargo xtask fuzz` times the corpus (hostile_clock.ts) at many times these sizes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { corpus, expand, run, size } from "./hostile.js";

test("every hostile input is survived in linear work", () => {
  const failures: string[] = [];
  for (const e of corpus.entries) {
    const small = expand(e, e.n);
    const large = expand(e, 8 * e.n);
    const a = run(small);
    const b = run(large);
    const ratio = b / a;
    if (ratio > corpus.maxWorkRatio || a < size(small)) {
      failures.push(`${e.name}: work(8n)/work(n) = ${ratio.toFixed(2)} (n: ${a} for ${size(small)} units, 8n: ${b})`);
    }
  }
  assert.deepEqual(failures, []);
});
