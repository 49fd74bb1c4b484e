// The TypeScript transcript renderer against every vector in tests/vectors/transcript, and a
// seeded property test: re-chunking a byte stream never changes the text.

import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { MAX_LINE_LENGTH, MAX_TEXT_LENGTH, Transcript } from "../../templates/typescript/client/transcript.js";

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

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

test("a line at the length limit wraps and is counted", () => {
  let t = new Transcript({ maxLineLength: 4 });
  t.push(utf8("abcdéfghij\r\n"));
  assert.equal(t.text, "abcd\néfgh\nij\n");
  assert.equal(t.wrappedLines, 2);
  // CR goes back to the start of the wrapped line only, as on a terminal that wide.
  t.push(utf8("0123456\rX\x1b[1K"));
  assert.equal(t.text, "abcd\néfgh\nij\n0123\n  6");
  t = new Transcript({ maxLineLength: 4 });
  t.push(utf8("ab\x1b[9Cc"));
  assert.deepEqual([t.text, t.wrappedLines], ["ab\nc", 1]);
  const line = "x".repeat(MAX_LINE_LENGTH + 5);
  assert.equal(render([utf8(line)]), `${line.slice(0, MAX_LINE_LENGTH)}\nxxxxx`);
  const bytes = utf8(line);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
  assert.equal(render(chunks), render([bytes]));
});

test("a limit that is not a whole number is a RangeError that names it", () => {
  assert.throws(() => new Transcript({ maxLineLength: Number.NaN }), /maxLineLength must be a whole number/);
  assert.throws(() => new Transcript({ maxTextLength: -1 }), /maxTextLength must be a whole number/);
  assert.throws(() => new Transcript({ maxTextLength: 1.5 }), RangeError);
  const t = new Transcript({ maxLineLength: 0, maxTextLength: 0 });
  t.push(utf8("ab\r\nc"));
  assert.deepEqual([t.text, t.wrappedLines, t.droppedLines], ["c", 1, 2]);
});

test("past the text length limit the oldest lines are left out and counted", () => {
  const t = new Transcript({ maxLineLength: 100, maxTextLength: 10 });
  const state = () => [t.text, t.droppedLines, t.droppedChars];
  t.push(utf8("one\ntwo\nthr"));
  assert.deepEqual(state(), ["one\ntwo\nthr", 0, 0]);
  t.push(utf8("ée\n"));
  assert.deepEqual(state(), ["two\nthrée\n", 1, 4]);
  t.push(utf8("four\n"));
  assert.deepEqual(state(), ["four\n", 3, 14]);
  t.push(utf8("a very long line\nnow"));
  assert.deepEqual(state(), ["now", 5, 14 + 5 + 17]);
  t.reset();
  assert.deepEqual([...state(), t.wrappedLines], ["", 0, 0, 0]);
  // Any chunking drops the same lines; a 4-byte character counts as one code point.
  let stream = "";
  for (let i = 0; i < 3000; i++) stream += `line ${i} é😀\r\n`;
  const bytes = utf8(stream);
  const whole = new Transcript({ maxLineLength: 100, maxTextLength: 1000 });
  whole.push(bytes);
  const bytewise = new Transcript({ maxLineLength: 100, maxTextLength: 1000 });
  for (const b of bytes) bytewise.push(Uint8Array.of(b));
  assert.equal(whole.text, bytewise.text);
  assert.equal(whole.droppedLines, bytewise.droppedLines);
  assert.ok([...whole.text].length <= 1000 && whole.text.startsWith("line "));
  assert.equal(whole.droppedChars + [...whole.text].length, [...stream.replaceAll("\r", "")].length);
});

test("the text never reaches the longest string JavaScript allows", () => {
  // The default limits bound the text: finished lines plus the current line, two UTF-16
  // units per code point at most, stay below V8's 2^29 - 24 units.
  assert.ok(2 * (MAX_TEXT_LENGTH + MAX_LINE_LENGTH) < 2 ** 29 - 24);
  // The same mechanism with a limit a test can reach: 8 times the limit of output (the
  // issue's 554 MiB case, scaled down), read after every chunk, never throws and keeps the tail.
  const limit = 1 << 20;
  const t = new Transcript({ maxTextLength: limit });
  const chunk = utf8("0123456789abcdef😀 progress\r\n".repeat(128));
  const lineChars = [..."0123456789abcdef😀 progress\n"].length;
  let pushed = 0;
  while (pushed < 8 * limit) {
    t.push(chunk);
    pushed += 128 * lineChars;
    const text = t.text;
    assert.ok([...text.slice(0, 64)].length > 0 && text.length <= 2 * limit);
  }
  const text = t.text;
  assert.ok(text.endsWith("0123456789abcdef😀 progress\n"));
  assert.ok(text.startsWith("0123456789abcdef😀 progress\n"));
  assert.equal(t.droppedChars + [...text].length, pushed);
  assert.ok([...text].length <= limit && [...text].length > limit - lineChars);
});

test("reading only what is new gives the text", () => {
  let stream = "";
  for (let i = 0; i < 4000; i++) stream += `line ${i} é\x1b[31m😀\x1b[0m\r\nprogress ${i}\r`;
  const bytes = utf8(stream);
  for (const maxTextLength of [MAX_TEXT_LENGTH, 5000]) {
    const t = new Transcript({ maxLineLength: 64, maxTextLength });
    let shown = "";
    let at = 0;
    for (let i = 0; i < bytes.length; i += 333) {
      t.push(bytes.subarray(i, i + 333));
      shown += t.finishedSince(at);
      at = t.finishedLength;
      assert.ok((shown + t.currentLine).endsWith(t.text));
    }
    const kept = t.text;
    if (maxTextLength === MAX_TEXT_LENGTH) assert.equal(shown + t.currentLine, kept);
    assert.equal(t.finishedSince(0) + t.currentLine, kept);
    // The last line is "line 3999 é😀8" ("progress 3998" overwritten up to its "8"); 2 units
    // before the end is "8", 3 is the low half of the emoji: the next character.
    assert.equal(t.finishedSince(t.finishedLength - 3), "8\n");
    assert.equal(t.finishedSince(t.finishedLength - 4), "😀8\n");
  }
});

/**
 * The work to render `stream` in 4 KiB chunks, reading what is new after each one when `read`:
 * the transcript's work counter plus the length of every string read (what reading costs).
 */
function work(stream: Uint8Array, read: boolean): number {
  const t = new Transcript();
  let length = 0;
  let at = 0;
  for (let i = 0; i < stream.length; i += 4096) {
    t.push(stream.subarray(i, i + 4096));
    if (read) {
      length += t.finishedSince(at).length + t.currentLine.length;
      at = t.finishedLength;
    }
  }
  length += t.text.length;
  return t.work + length;
}

const repeat = (s: string, n: number): string => s.repeat(Math.max(1, Math.floor(n)));

test("work is linear in the input whatever the sequence (n against 8n, counted, not timed)", () => {
  // n is large enough that both sizes are past the line length limit, which bounds the cells a
  // print pads or an erase fills (below it that work grows with the line).
  const patterns: [string, (n: number) => string, boolean, number][] = [
    ["a long line then erase-to-start repeated", (n) => repeat("x", n / 2) + "\x1b[2D" + repeat("\x1b[1K", n / 8), false, 1 << 19],
    ["a long line then erase and print repeated", (n) => repeat("x", n / 2) + repeat("\x1b[1Ky", n / 10), false, 1 << 18],
    ["a long non-ASCII line redrawn from its start", (n) => repeat("é", n / 4) + repeat("\x1b[1Gz\x1b[1000G\x1b[1K", n / 32), false, 1 << 20],
    ["CR progress redraws", (n) => repeat("\r\x1b[Kprogress 42% ", n / 18), false, 1 << 22],
    ["unterminated OSC", (n) => "\x1b]0;" + repeat("payload ", n / 8), false, 1 << 22],
    ["lines read after every chunk", (n) => repeat("a line of output\r\n", n / 18), true, 1 << 22],
  ];
  for (const [name, make, read, n] of patterns) {
    const small = utf8(make(n));
    const large = utf8(make(8 * n));
    const a = work(small, read);
    const b = work(large, read);
    const ratio = b / a;
    // Linear work gives 8; n log n about 9.2 at these sizes; quadratic 64. Counted, so the bound is tight.
    assert.ok(ratio >= 7 && ratio <= 9, `${name}: 8x the input (${small.length} bytes) took ${ratio.toFixed(2)}x the work (${a} then ${b})`);
    assert.ok(a >= small.length, `${name}: every byte is counted`);
  }
});
