// `node hostile_clock.js [SCALE]`: the hostile corpus timed, for `cargo xtask fuzz` only (never a
// test: a loaded machine slows one measurement). Every entry at SCALE times its size, n and 8n,
// best of three: t(8n) / t(n) must stay below the corpus's `maxRatio` (linear work gives about 8,
// quadratic 64).

import { corpus, expand, type Input, run } from "./hostile.js";

/** How long a measurement runs at least, in milliseconds: short inputs are run again and again. */
const MIN_MS = 20;
let sink = 0;

/** The time of one run of `input`, averaged over enough runs to last `MIN_MS`. */
function perRun(input: Input): number {
  for (let reps = 1; ; reps *= 2) {
    const start = performance.now();
    for (let i = 0; i < reps; i++) sink += run(input);
    const total = performance.now() - start;
    if (total >= MIN_MS || reps >= 1024) return total / reps;
  }
}

const bestOfThree = (input: Input): number => Math.min(perRun(input), perRun(input), perRun(input));

const scale = Number(process.argv[2] ?? "1");
const failures: string[] = [];
for (const e of corpus.entries) {
  const n = e.n * scale;
  const small = expand(e, n);
  const large = expand(e, 8 * n);
  const t1 = bestOfThree(small);
  // 8n once; again (best of three) when it looks slow (past half the bound), to rule out noise.
  let t8 = perRun(large);
  if (t8 / t1 > corpus.maxRatio / 2) t8 = Math.min(t8, bestOfThree(large));
  const ratio = t8 / Math.max(t1, 1e-6);
  console.log(`typescript ${e.name}: n = ${n}: ${t1.toFixed(1)} ms, 8n ${t8.toFixed(1)} ms, ratio ${ratio.toFixed(1)}`);
  if (ratio > corpus.maxRatio) failures.push(`${e.name}: t(8n)/t(n) = ${ratio.toFixed(1)}`);
}
if (sink < 0 || failures.length > 0) {
  console.error(`hostile corpus, TypeScript: grows faster than linear:\n${failures.join("\n")}`);
  process.exitCode = 1;
}
