// The TypeScript transcript renderer against every vector in tests/vectors/transcript, and a
// seeded property test: re-chunking a byte stream never changes the text.

import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Transcript } from "../../templates/typescript/runtime/transcript.js";

/** tests/vectors/transcript, found by walking up from this file (source or dist). */
function vectorDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "tests", "vectors", "transcript");
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("tests/vectors/transcript not found");
    dir = parent;
  }
}

function render(chunks: readonly Uint8Array[]): string {
  const t = new Transcript();
  for (const c of chunks) t.push(c);
  return t.text;
}

interface Case {
  name: string;
  kind: string;
  chunks: string[];
  expect: { text: string };
}

test("transcript vectors", () => {
  const dir = vectorDir();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const failures: string[] = [];
  let passed = 0;
  for (const file of files) {
    const doc = JSON.parse(readFileSync(join(dir, file), "utf8")) as { cases: Case[] };
    for (const c of doc.cases) {
      assert.equal(c.kind, "transcript", c.name);
      const chunks = c.chunks.map((b) => new Uint8Array(Buffer.from(b, "base64")));
      const all = new Uint8Array(Buffer.concat(chunks));
      const got = render(chunks);
      const oneChunk = render([all]);
      const bytewise = render(Array.from(all, (b) => Uint8Array.of(b)));
      if (got === c.expect.text && oneChunk === got && bytewise === got) {
        passed++;
      } else {
        failures.push(
          `${file} :: ${c.name}\n    expected ${JSON.stringify(c.expect.text)}\n    got      ${JSON.stringify(got)} (one chunk ${JSON.stringify(oneChunk)}, bytewise ${JSON.stringify(bytewise)})`,
        );
      }
    }
  }
  console.log(`${passed} passed, ${failures.length} failed`);
  assert.deepEqual(failures, []);
  assert.ok(passed >= 80, `only ${passed} transcript vectors`);
});

/** mulberry32: a small seeded generator, so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** Stream pieces, as byte strings (each char code is one byte). */
const PIECES: readonly Uint8Array[] = [
  "hello", "progress 42%", " ", "  ", "\t", "\r", "\n", "\r\n", "\b", "\x07", "\x00", "\x7f",
  "\x1b[31m", "\x1b[0m", "\x1b[38;2;1;2;3m", "\x1b[K", "\x1b[0K", "\x1b[1K", "\x1b[2K", "\x1b[3K",
  "\x1b[1G", "\x1b[5G", "\x1b[G", "\x1b[2D", "\x1b[D", "\x1b[3C", "\x1b[0C", "\x1b[?25l", "\x1b[?2K",
  "\x1b[1$G", "\x1b[1:2G", "\x1b[99999C", "\x1b]0;title\x07", "\x1b]8;;http://x\x1b\\", "\x1b]2;t",
  "\x1bP1$qm\x1b\\", "\x1bPq#0;2;0;0;0\x1b\\", "\x1bX sos \x1b\\", "\x1b^pm\x07x\x1b\\", "\x1b_apc\x1b\\",
  "\x1b(B", "\x1b7", "\x1b8", "\x1b", "\x1b[", "\x1b]", "\x1bP", "\x18", "\x1a", "\xc2\x9b2K",
  "\xc2\x9b", "\xc2\x9d0;x\xc2\x9c", "\xc2\x90q\xc2\x9c", "\xc2\x85", "\xc2\x9c", "\xc2\x80",
  "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xe4\xb8\xad\xe6\x96\x87", "\xe2\x80\xae",
  "\xe2\x81\xa6", "\xef\xbb\xbf", "\xc2\xa0", "\x80", "\xbf", "\xc0\xaf", "\xe0\x80\xaf",
  "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf5", "\xff", "\xe2\x82", "\xf0\x9f\x98", "\xc2", "\xed",
  "\xf4", "0123456789", ";", "[", "]", "\\",
].map(latin1);

test("re-chunking never changes the text", () => {
  const random = rng(0x5eed1234);
  const below = (n: number): number => Math.floor(random() * n);
  for (let round = 0; round < 400; round++) {
    const parts: number[] = [];
    const count = below(60) + 1;
    for (let k = 0; k < count; k++) {
      if (below(8) === 0) parts.push(below(256));
      else parts.push(...(PIECES[below(PIECES.length)] as Uint8Array));
    }
    const stream = Uint8Array.from(parts);
    const want = render([stream]);
    const t = new Transcript();
    let at = 0;
    while (at < stream.length) {
      const end = Math.min(at + below(9), stream.length);
      t.push(stream.subarray(at, end));
      at = end;
      if (below(4) === 0) assert.equal(t.text, render([stream.subarray(0, at)]), `round ${round}: prefix ${at} of ${Array.from(stream)}`);
    }
    assert.equal(t.text, want, `round ${round}: ${Array.from(stream)}`);
    t.reset();
    t.push(stream);
    assert.equal(t.text, want, `round ${round}: after reset`);
  }
});

test("nothing unsafe survives random bytes", () => {
  const random = rng(42);
  for (let round = 0; round < 200; round++) {
    const stream = Uint8Array.from({ length: Math.floor(random() * 400) }, () => Math.floor(random() * 256));
    const text = render([stream]);
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/u.test(text), JSON.stringify(text));
  }
});
