// fast-check properties of the TypeScript binding: strict base64, canonical output,
// the transcript and the store. `FC_RUNS` and `FC_SEED` set the number of runs and the
// seed (cargo xtask test: a short seeded pass; cargo xtask fuzz: longer).

import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeBase64, encodeBase64 } from "../../generated/typescript/src/runtime/base64.js";
import { Transcript } from "../../generated/typescript/src/transcript.js";
import { TerminalStore } from "../../generated/typescript/src/store.js";
import { CODECS } from "../../generated/typescript/src/registry.js";

const runs = Number(process.env["FC_RUNS"] ?? "300");
const seed = Number(process.env["FC_SEED"] ?? "1");
const opts = { numRuns: runs, seed };

const bytes = fc.uint8Array({ maxLength: 200 });
/** Bytes that look like terminal output: escapes, controls, UTF-8 pieces. */
const ptyBytes = fc
  .array(
    fc.oneof(
      fc.uint8Array({ maxLength: 12 }),
      fc.constantFrom(
        ...["\x1b[31m", "\x1b[1K", "\x1b[2J", "\r", "\r\n", "\b", "\t", "\x1b]0;title\x07", "\x1b]8;;http://x\x1b\\", "\x1bP", "\x9b", "é", "日", "🦀", "\u202e"].map(
          (s) => new TextEncoder().encode(s),
        ),
        new Uint8Array([0xe6, 0x97]),
        new Uint8Array([0xff]),
      ),
    ),
    { maxLength: 40 },
  )
  .map((parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  });

function cuts(data: Uint8Array, points: number[]): Uint8Array[] {
  const sorted = [...new Set(points.map((p) => p % (data.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let last = 0;
  for (const p of sorted) {
    out.push(data.subarray(last, p));
    last = p;
  }
  out.push(data.subarray(last));
  return out;
}

test("base64: every byte string round-trips through the canonical text", () => {
  fc.assert(
    fc.property(bytes, (b) => {
      assert.deepEqual(decodeBase64(encodeBase64(b)), b);
    }),
    opts,
  );
});

test("base64: whatever text decodes re-encodes to the same text (strict, canonical)", () => {
  let accepted = 0;
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n";
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet.split("")), { maxLength: 24 }), (chars) => {
      const text = chars.join("");
      let decoded: Uint8Array;
      try {
        decoded = decodeBase64(text);
      } catch {
        return;
      }
      accepted += 1;
      assert.equal(encodeBase64(decoded), text);
    }),
    opts,
  );
  assert.ok(accepted > 0, "no generated text was valid base64");
});

test("transcript: any chunking gives the text of one push, and the text is safe", () => {
  fc.assert(
    fc.property(ptyBytes, fc.array(fc.nat(), { maxLength: 8 }), (data, points) => {
      const whole = new Transcript();
      whole.push(data);
      const cut = new Transcript();
      for (const c of cuts(data, points)) cut.push(c);
      const text = whole.text;
      assert.equal(cut.text, text);
      for (const ch of text) {
        const u = ch.codePointAt(0) ?? 0;
        const control = (u < 0x20 && u !== 0x0a && u !== 0x09) || (u >= 0x7f && u <= 0x9f);
        const bidi = (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069);
        assert.ok(!control && !bidi, `unsafe U+${u.toString(16)} in ${JSON.stringify(text)}`);
      }
    }),
    opts,
  );
});

test("store: chunks cut anywhere give the same bytes and transcript as one chunk", () => {
  fc.assert(
    fc.property(ptyBytes, fc.array(fc.nat(), { maxLength: 8 }), (data, points) => {
      const one = new TerminalStore();
      const many = new TerminalStore();
      const line = (b: Uint8Array): string =>
        JSON.stringify({ sessionUpdate: "terminal_output_chunk", terminalId: "t", data: encodeBase64(b) });
      assert.ok(one.applyText(line(data)).ok);
      for (const c of cuts(data, points)) assert.ok(many.applyText(line(c)).ok);
      const a = one.terminal("t");
      const b = many.terminal("t");
      assert.ok(a !== undefined && b !== undefined);
      assert.deepEqual(b.output.toBytes(), a.output.toBytes());
      assert.equal(b.transcript, a.transcript);
    }),
    opts,
  );
});

test("canonical output is a fixed point for any JSON in _meta and unknown members", () => {
  const codec = CODECS.get("v2")?.get("SessionUpdate");
  assert.ok(codec !== undefined);
  let parsed = 0;
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 3 }), (meta, extra) => {
      const text = JSON.stringify({ sessionUpdate: "terminal_update", terminalId: "t", command: "ls", _meta: { m: meta }, zz: extra });
      const first = codec.parse(text);
      if (!first.ok) return; // numbers outside the safe range are refused, as in every language
      parsed += 1;
      const canonical = codec.serialize(first.value);
      const again = codec.parse(canonical);
      assert.ok(again.ok, canonical);
      assert.equal(codec.serialize(again.value), canonical);
    }),
    opts,
  );
  assert.ok(parsed > runs / 2, `only ${parsed} of ${runs} generated messages parsed`);
});
