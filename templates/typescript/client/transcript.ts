// The safe transcript renderer of docs/TRANSCRIPT.md: terminal bytes in, text that any UI can show out.

/*
 * UTF-8 is decoded incrementally (one U+FFFD per maximal invalid subsequence), escape and
 * control sequences are removed with the DEC / ECMA-48 parser state machine, and a one-line
 * discipline (CR, BS, LF, TAB, CSI G/D/C/K) makes redrawn progress lines show their last
 * state. Work per chunk is proportional to the chunk.
 *
 * The state machine is data: ./transcript_table.js, generated from the one hand-written
 * source templates/transcript/transitions.txt (which also says what each action is); this
 * file interprets it. The bytes are read once: in the ground state runs of printable ASCII are
 * copied into a growing buffer of UTF-16 units while they are scanned (other characters are
 * decoded one by one), and inside a sequence a step that keeps the state (a parameter digit,
 * string payload) is one table load and one comparison. The buffer becomes a string in large
 * blocks, natively.
 *
 * Decisions TRANSCRIPT.md leaves open are rows of the table; the others: an incomplete
 * character at the end is not shown yet, and erasing never makes the line longer.
 */

import * as table from "./transcript_table.js";

const { CLASSES, CLASS_BIDI, CLASS_TEXT, GROUND, IGNORE, TABLE } = table;

/** Finished lines become a string in blocks of this many UTF-16 units. */
const FLUSH = 1 << 16;

/** The default longest line, in cells: a longer line wraps (see `TranscriptLimits`). */
export const MAX_LINE_LENGTH: number = table.MAX_LINE_LENGTH;
/**
 * The default longest text of finished lines, in code points (line ends included): past it,
 * the oldest lines are left out (see `TranscriptLimits`). At two UTF-16 units per code point at
 * most, the text stays far below the longest string JavaScript engines allow (2^29 - 24 units
 * in V8).
 */
export const MAX_TEXT_LENGTH: number = table.MAX_TEXT_LENGTH;

/** The limits of a `Transcript` (docs/TRANSCRIPT.md, "Limits"); the same defaults in every binding. */
export interface TranscriptLimits {
  /**
   * Cells per line (0 counts as 1; default `MAX_LINE_LENGTH`): a character printed at that column
   * or further right first finishes the line, as a terminal that wide wraps; `wrappedLines`
   * counts it.
   */
  maxLineLength?: number;
  /**
   * Code points of finished lines, each with its "\n" (default `MAX_TEXT_LENGTH`): past it the
   * oldest whole lines are left out, and `droppedLines` and `droppedChars` say how much. The
   * current line is always kept.
   */
  maxTextLength?: number;
}

/** A limit as given, or a RangeError that says what is wrong with it. */
function limit(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`Transcript: ${name} must be a whole number, 0 or more (got ${String(value)})`);
  }
  return value;
}

/** Any high surrogate: a text without one has one code point per unit. */
const ASTRAL = /[\ud800-\udbff]/;

/** Line feeds in `s[from..to)`. */
function lineFeeds(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf("\n", from); i >= 0 && i < to; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/** Code points in `s[from..to)`: UTF-16 units minus the low halves of surrogate pairs. */
function codePoints(s: string, from: number, to: number): number {
  let n = to - from;
  for (let i = from; i < to; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xdc00 && u <= 0xdfff && i > from && (s.charCodeAt(i - 1) & 0xfc00) === 0xd800) n--;
  }
  return n;
}

/** The table's entry for "print it, stay in the ground state". */
const PLAIN_ENTRY = (table.PRINT << 4) | GROUND;
/** Whether a character from U+00A0 up (not a bidi control) prints as one cell in the ground state. */
const TEXT_PRINTS = TABLE[GROUND * CLASSES + CLASS_TEXT] === PLAIN_ENTRY;
/**
 * The longest range of ASCII bytes from the space up that the ground state prints (the table's
 * `20-7E`): one comparison tells most bytes of a run; every other byte is looked up.
 */
const PLAIN_LO = 0x20;
const PLAIN_SPAN = plainSpan(PLAIN_LO);

function plainSpan(lo: number): number {
  let hi = lo;
  while (hi < 0x80 && TABLE[GROUND * CLASSES + hi] === PLAIN_ENTRY) hi++;
  return hi - lo - 1;
}
/** The range the bidi controls of the table lie in: a unit outside it is none. */
const BIDI_LO = Math.min(...table.BIDI.map(([lo]) => lo));
const BIDI_HI = Math.max(...table.BIDI.map(([, hi]) => hi));

function isBidi(cp: number): boolean {
  for (const [lo, hi] of table.BIDI) if (cp >= lo && cp <= hi) return true;
  return false;
}

/** The table's input for a code point. */
function inputOf(cp: number): number {
  return cp < 0xa0 ? cp : cp >= BIDI_LO && cp <= BIDI_HI && isBidi(cp) ? CLASS_BIDI : CLASS_TEXT;
}

/** `decode` result for a valid prefix that needs more bytes. */
const SHORT = 0;

/**
 * Decodes the UTF-8 sequence at `b[i]` (a byte of 0x80 or more, `i < end`): a character as
 * `cp + len * 0x200000`, a maximal invalid subsequence of `len` bytes as `-len`, or SHORT.
 */
function decode(b: Uint8Array, i: number, end: number): number {
  const b0 = b[i] as number;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    need = 1;
  } else if (b0 >= 0xe0 && b0 <= 0xef) {
    need = 2;
    if (b0 === 0xe0) lo = 0xa0;
    else if (b0 === 0xed) hi = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    need = 3;
    if (b0 === 0xf0) lo = 0x90;
    else if (b0 === 0xf4) hi = 0x8f;
  } else {
    return -1;
  }
  if (i + 1 >= end) return SHORT;
  const b1 = b[i + 1] as number;
  if (b1 < lo || b1 > hi) return -1;
  let cp = ((b0 & (0x7f >> (need + 1))) << 6) | (b1 & 0x3f);
  for (let k = 2; k <= need; k++) {
    if (i + k >= end) return SHORT;
    const bk = b[i + k] as number;
    if ((bk & 0xc0) !== 0x80) return -k;
    cp = (cp << 6) | (bk & 0x3f);
  }
  return cp + (need + 1) * 0x200000;
}

/** Copies `src[from..to)` to `dst` at `at` (a loop for short runs: `subarray` allocates). */
function copy(src: Uint8Array, from: number, to: number, dst: Uint16Array, at: number): void {
  if (to - from > 64) {
    dst.set(src.subarray(from, to), at);
  } else {
    for (let i = from; i < to; i++) dst[at++] = src[i] as number;
  }
}

/** The parts of the WHATWG `TextDecoder` used here, when the platform has it. */
interface Utf16Decoder {
  decode(input: Uint8Array): string;
}
type Utf16DecoderClass = new (label: string, options: { ignoreBOM: boolean }) => Utf16Decoder;
const utf16: Utf16Decoder | undefined = (() => {
  const ctor = (globalThis as unknown as { TextDecoder?: Utf16DecoderClass }).TextDecoder;
  try {
    return ctor === undefined ? undefined : new ctor("utf-16le", { ignoreBOM: true });
  } catch {
    return undefined;
  }
})();
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** `units[from..to)` as a string. */
function unitsToString(units: Uint16Array, from: number, to: number): string {
  if (utf16 !== undefined && LITTLE_ENDIAN && to - from > 64) {
    return utf16.decode(new Uint8Array(units.buffer, units.byteOffset + from * 2, (to - from) * 2));
  }
  let s = "";
  for (let i = from; i < to; i += 8192) {
    s += String.fromCharCode.apply(null, units.subarray(i, Math.min(i + 8192, to)) as unknown as number[]);
  }
  return s;
}

/**
 * The incremental safe transcript renderer of docs/TRANSCRIPT.md. Push the terminal's bytes
 * in chunks of any size; `text` is the same whatever the chunking. A replacement snapshot
 * starts over with `reset()`.
 *
 * The current line is a sequence of cells and a cursor column. While the cursor stays at or
 * past its end, or each of its cells is one UTF-16 unit, its cells are the last units of the
 * output buffer (printing appends, finishing it appends "\n"); a write inside a line with
 * other cells moves it to one code point per cell until the line is finished or cleared.
 * Trailing spaces look the same as missing cells in the output, so erasing to the end
 * truncates.
 */
export class Transcript {
  /** Finished lines, each followed by "\n", already made strings; the text starts at `blocks[firstBlock]`, unit `head`. */
  #blocks: string[] = [];
  /** For each block, whether it holds a surrogate pair (else a unit is a code point). */
  #astral: boolean[] = [];
  #firstBlock = 0;
  #head = 0;
  /** UTF-16 units in the blocks kept (from `head` in the first). */
  #blockUnits = 0;
  /** UTF-16 units of every line finished since the start or the last reset. */
  #total = 0;
  /** Finished lines not yet in `blocks` (from `bufHead`), then (from `lineStart`) the narrow current line. */
  #buf: Uint16Array = new Uint16Array(1024);
  #bufHead = 0;
  #len = 0;
  #lineStart = 0;
  /** Code points of the finished lines kept. */
  #chars = 0;
  readonly #maxLine: number;
  readonly #maxChars: number;
  #wrapped = 0;
  #droppedLines = 0;
  #droppedChars = 0;
  /** The blocks kept, as one string (null after lines were left out: rebuilt when read). */
  #joined: string | null = "";
  /** The text as last read, until the next push or reset. */
  #cache: string | null = null;
  /** Number of cells of the narrow current line. */
  #n = 0;
  /** The current line's cells as code points, when it is wide. */
  #cells: number[] | null = null;
  /** Leading cells of a wide line known to be spaces. */
  #blank = 0;
  /** Cursor column (0-based); may be past the end of the line. */
  #col = 0;
  #state = GROUND;
  /** The first CSI parameter so far. */
  #param = 0;
  /** An incomplete UTF-8 sequence waiting for the next chunk. */
  #pend = new Uint8Array(8);
  #pendLen = 0;
  /** Bytes and cells looked at or moved so far (see `work`). */
  #work = 0;

  /** An empty transcript with these limits (defaults: `MAX_LINE_LENGTH`, `MAX_TEXT_LENGTH`). */
  constructor(limits: TranscriptLimits = {}) {
    this.#maxLine = Math.max(1, limit("maxLineLength", limits.maxLineLength ?? MAX_LINE_LENGTH));
    this.#maxChars = limit("maxTextLength", limits.maxTextLength ?? MAX_TEXT_LENGTH);
  }

  /**
   * @internal Bytes and cells looked at, written or moved so far by `push` (each byte pushed, each
   * cell printed, padded, erased, re-encoded or copied, each unit of a line left out or flushed):
   * the work counter the tests read to check, without a clock, that the work grows linearly with
   * the input whatever the sequences. The readers cost what they return.
   */
  get work(): number {
    return this.#work;
  }

  /** Lines the line length limit broke (each one is a "\n" the bytes did not have). */
  get wrappedLines(): number {
    return this.#wrapped;
  }

  /** Finished lines left out from the start of the text by the text length limit. */
  get droppedLines(): number {
    return this.#droppedLines;
  }

  /** Code points (line ends included) left out from the start of the text by the text length limit. */
  get droppedChars(): number {
    return this.#droppedChars;
  }

  /**
   * The transcript so far: every finished line followed by "\n", then the current line,
   * trailing spaces removed. An unfinished sequence or character at the end shows nothing yet.
   * Reading it again before the next push costs nothing; otherwise it costs one string
   * concatenation per block of 64 Ki units, not a copy of the text.
   */
  get text(): string {
    if (this.#cache !== null) return this.#cache;
    const buf = this.#buf;
    let line: string;
    const cells = this.#cells;
    if (cells === null) {
      let end = this.#len;
      while (end > this.#lineStart && buf[end - 1] === 0x20) end--;
      line = unitsToString(buf, this.#lineStart, end);
    } else {
      let end = cells.length;
      while (end > 0 && cells[end - 1] === 0x20) end--;
      line = "";
      for (let i = 0; i < end; i += 4096) line += String.fromCodePoint(...cells.slice(i, Math.min(i + 4096, end)));
    }
    let head = this.#joined;
    if (head === null) {
      const blocks = this.#blocks;
      head = "";
      for (let b = this.#firstBlock; b < blocks.length; b++) {
        const block = blocks[b] as string;
        head += b === this.#firstBlock && this.#head > 0 ? block.slice(this.#head) : block;
      }
      this.#joined = head;
    }
    this.#cache = head + unitsToString(buf, this.#bufHead, this.#lineStart) + line;
    return this.#cache;
  }

  /**
   * Where the finished lines end so far: a position in UTF-16 units of every line finished since
   * the start or the last `reset()` (left-out lines included). Keep it, and pass it to
   * `finishedSince` on the next read.
   */
  get finishedLength(): number {
    return this.#total;
  }

  /**
   * The lines finished since position `start` (an earlier `finishedLength`), each with its "\n":
   * a display that keeps the finished lines reads only what is new, then `currentLine`. Lines
   * already left out by the text length limit are skipped; a position inside a surrogate pair
   * moves to the next character.
   */
  finishedSince(start: number): string {
    const buf = this.#buf;
    const bufUnits = this.#lineStart - this.#bufHead;
    let skip = Math.max(0, start - (this.#total - this.#blockUnits - bufUnits));
    if (skip >= this.#blockUnits) {
      let at = Math.min(this.#bufHead + (skip - this.#blockUnits), this.#lineStart);
      if (at > this.#bufHead && at < this.#lineStart && ((buf[at] as number) & 0xfc00) === 0xdc00) at++;
      return unitsToString(buf, at, this.#lineStart);
    }
    let tail = unitsToString(buf, this.#bufHead, this.#lineStart);
    const blocks = this.#blocks;
    let end = this.#blockUnits;
    for (let b = blocks.length - 1; ; b--) {
      const block = blocks[b] as string;
      const from = b === this.#firstBlock ? this.#head : 0;
      const begin = end - (block.length - from);
      if (begin <= skip) {
        skip = from + (skip - begin);
        if (skip > 0 && (block.charCodeAt(skip) & 0xfc00) === 0xdc00) skip++;
        return (skip > 0 ? block.slice(skip) : block) + tail;
      }
      tail = block + tail;
      end = begin;
    }
  }

  /** The current line, trailing spaces removed (the end of `text`). */
  get currentLine(): string {
    const cells = this.#cells;
    if (cells === null) {
      let end = this.#len;
      while (end > this.#lineStart && this.#buf[end - 1] === 0x20) end--;
      return unitsToString(this.#buf, this.#lineStart, end);
    }
    let end = cells.length;
    while (end > 0 && cells[end - 1] === 0x20) end--;
    let line = "";
    for (let i = 0; i < end; i += 4096) line += String.fromCodePoint(...cells.slice(i, Math.min(i + 4096, end)));
    return line;
  }

  /** Forgets everything (text, current line, pending sequence or character). */
  reset(): void {
    this.#blocks = [];
    this.#astral = [];
    this.#joined = "";
    this.#firstBlock = this.#head = this.#bufHead = this.#chars = this.#blockUnits = this.#total = 0;
    this.#wrapped = this.#droppedLines = this.#droppedChars = 0;
    this.#cache = null;
    this.#len = 0;
    this.#lineStart = 0;
    this.#n = 0;
    this.#cells = null;
    this.#col = 0;
    this.#state = GROUND;
    this.#pendLen = 0;
  }

  /** Continues the transcript with the next chunk of terminal bytes. */
  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#work += bytes.length;
    this.#cache = null;
    this.#run(bytes, this.#pendLen > 0 ? this.#resume(bytes) : 0);
    if (this.#chars > this.#maxChars) this.#dropOldest();
  }

  // ---- the current line

  #reserve(extra: number): Uint16Array {
    let buf = this.#buf;
    if (this.#len + extra > buf.length) {
      this.#work += this.#len;
      const bigger = new Uint16Array(Math.max(buf.length * 2, this.#len + extra));
      bigger.set(buf.subarray(0, this.#len));
      this.#buf = buf = bigger;
    }
    return buf;
  }

  #clearLine(): void {
    this.#len = this.#lineStart;
    this.#n = 0;
    this.#cells = null;
  }

  /** Moves the narrow line to one code point per cell. */
  #wide(): number[] {
    let cells = this.#cells;
    if (cells !== null) return cells;
    cells = [];
    const buf = this.#buf;
    this.#work += this.#len - this.#lineStart;
    for (let i = this.#lineStart; i < this.#len; i++) {
      const u = buf[i] as number;
      if (u >= 0xd800 && u <= 0xdbff) {
        cells.push(((u - 0xd800) << 10) + ((buf[++i] as number) - 0xdc00) + 0x10000);
      } else {
        cells.push(u);
      }
    }
    this.#len = this.#lineStart;
    this.#n = 0;
    this.#cells = cells;
    this.#blank = 0;
    return cells;
  }

  #putWide(cp: number): void {
    if (this.#col >= this.#maxLine) this.#wrap();
    const cells = this.#wide();
    this.#work += Math.max(0, this.#col - cells.length) + 1;
    while (cells.length < this.#col) cells.push(0x20);
    if (this.#col < this.#blank) this.#blank = this.#col;
    cells[this.#col++] = cp;
  }

  /** A character goes at the line length limit or further right: the line is finished first. */
  #wrap(): void {
    this.#wrapped++;
    this.#finishLine();
  }

  /** Prints `bytes[from..to)`, printable ASCII or TAB, wrapping at the line length limit. */
  #putBytes(bytes: Uint8Array, from: number, to: number): void {
    while (from < to) {
      if (this.#col >= this.#maxLine) this.#wrap();
      const end = Math.min(to, from + (this.#maxLine - this.#col));
      this.#putBytesInLine(bytes, from, end);
      from = end;
    }
  }

  /** Prints `bytes[from..to)` without passing the line length limit. */
  #putBytesInLine(bytes: Uint8Array, from: number, to: number): void {
    const k = to - from;
    const col = this.#col;
    const n = this.#n;
    if (this.#cells === null) {
      this.#work += k + Math.max(0, col - n);
      if (col >= n) {
        const buf = this.#reserve(col - n + k);
        if (col > n) {
          buf.fill(0x20, this.#len, this.#len + col - n);
          this.#len += col - n;
        }
        copy(bytes, from, to, buf, this.#len);
        this.#len += k;
        this.#n = this.#col = col + k;
        return;
      }
      if (this.#len - this.#lineStart === n) {
        const buf = this.#reserve(k);
        copy(bytes, from, to, buf, this.#lineStart + col);
        if (col + k > n) {
          this.#n = col + k;
          this.#len = this.#lineStart + col + k;
        }
        this.#col = col + k;
        return;
      }
    }
    for (let i = from; i < to; i++) this.#putWide(bytes[i] as number);
  }

  /** Prints one cell holding a code point. */
  #putCp(cp: number): void {
    if (this.#col >= this.#maxLine) this.#wrap();
    const col = this.#col;
    const n = this.#n;
    if (this.#cells === null && col >= n) {
      this.#work += col - n + 1;
      const buf = this.#reserve(col - n + 2);
      if (col > n) {
        buf.fill(0x20, this.#len, this.#len + col - n);
        this.#len += col - n;
      }
      if (cp < 0x10000) {
        buf[this.#len++] = cp;
      } else {
        buf[this.#len++] = 0xd800 + ((cp - 0x10000) >> 10);
        buf[this.#len++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      }
      this.#n = this.#col = col + 1;
      return;
    }
    this.#putWide(cp);
  }

  /** CSI K with its first parameter. */
  #erase(mode: number): void {
    const col = this.#col;
    const cells = this.#cells;
    const len = cells === null ? this.#n : cells.length;
    const simple = cells === null && this.#len - this.#lineStart === this.#n;
    if (mode === 2 || (mode === 0 && col === 0) || (mode === 1 && col + 1 >= len)) {
      this.#clearLine();
    } else if (mode === 0 && col < len) {
      if (simple) {
        this.#len = this.#lineStart + col;
        this.#n = col;
      } else {
        this.#wide().length = col;
        if (this.#blank > col) this.#blank = col;
      }
    } else if (mode === 1) {
      if (simple) {
        this.#work += col + 1;
        this.#buf.fill(0x20, this.#lineStart, this.#lineStart + col + 1);
      } else if (col + 1 > this.#blank) {
        // Only the cells past the blank prefix: repeating it costs nothing more.
        const cells = this.#wide();
        this.#work += col + 1 - this.#blank;
        cells.fill(0x20, this.#blank, col + 1);
        this.#blank = col + 1;
      }
    }
  }

  /** LF: the line is finished and an empty one starts at column 0. */
  #finishLine(): void {
    const cells = this.#cells;
    let buf = this.#buf;
    let count: number;
    this.#work += (cells === null ? this.#len - this.#lineStart : cells.length) + 1;
    if (cells === null) {
      let end = this.#len;
      while (end > this.#lineStart && buf[end - 1] === 0x20) end--;
      count = this.#n - (this.#len - end);
      this.#len = end;
      buf = this.#reserve(1);
    } else {
      let end = cells.length;
      while (end > 0 && cells[end - 1] === 0x20) end--;
      buf = this.#reserve(end * 2 + 1);
      let len = this.#len;
      for (let i = 0; i < end; i++) {
        const cp = cells[i] as number;
        if (cp < 0x10000) {
          buf[len++] = cp;
        } else {
          buf[len++] = 0xd800 + ((cp - 0x10000) >> 10);
          buf[len++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
        }
      }
      this.#len = len;
      this.#cells = null;
      count = end;
    }
    buf[this.#len++] = 0x0a;
    this.#total += this.#len - this.#lineStart;
    this.#lineStart = this.#len;
    this.#n = 0;
    this.#col = 0;
    this.#chars += count + 1;
    if (this.#lineStart >= FLUSH) {
      if (this.#lineStart > this.#bufHead) {
        this.#work += this.#lineStart - this.#bufHead;
        const block = unitsToString(buf, this.#bufHead, this.#lineStart);
        this.#blocks.push(block);
        this.#astral.push(ASTRAL.test(block));
        this.#blockUnits += block.length;
        if (this.#joined !== null) this.#joined += block;
      }
      this.#len = this.#lineStart = this.#bufHead = 0;
    }
  }

  /**
   * Leaves out the oldest finished lines until the rest fits the text length limit (once per
   * push: the lines kept are the same as if each line had been checked as it was finished). At
   * least as many units as code points over the limit must go, so the cut is made after the line
   * end at or past that many units and what went is counted in bulk; the block list is compacted
   * only when more than half of it is gone. The work is proportional to what goes.
   */
  #dropOldest(): void {
    const blocks = this.#blocks;
    if (this.#firstBlock < blocks.length) this.#joined = null;
    while (this.#chars > this.#maxChars && this.#firstBlock < blocks.length) {
      const block = blocks[this.#firstBlock] as string;
      const head = this.#head;
      const from = Math.min(head + (this.#chars - this.#maxChars) - 1, block.length - 1);
      const end = block.indexOf("\n", from) + 1;
      this.#work += end - head;
      const count = this.#astral[this.#firstBlock] === true ? codePoints(block, head, end) : end - head;
      this.#blockUnits -= end - head;
      this.#chars -= count;
      this.#droppedChars += count;
      this.#droppedLines += lineFeeds(block, head, end);
      if (end === block.length) {
        this.#firstBlock++;
        this.#head = 0;
      } else {
        this.#head = end;
      }
    }
    if (this.#firstBlock > 16 && this.#firstBlock * 2 > blocks.length) {
      this.#work += blocks.length;
      this.#blocks = blocks.slice(this.#firstBlock);
      this.#astral = this.#astral.slice(this.#firstBlock);
      this.#firstBlock = 0;
    }
    const buf = this.#buf;
    let at = this.#bufHead;
    while (this.#chars > this.#maxChars) {
      let count = 1;
      const from = at;
      while (buf[at] !== 0x0a) {
        if (((buf[at] as number) & 0xfc00) !== 0xdc00) count++;
        at++;
      }
      at++;
      this.#work += at - from;
      this.#chars -= count;
      this.#droppedChars += count;
      this.#droppedLines++;
    }
    this.#bufHead = at;
  }

  // ---- the parser

  /**
   * Runs the table over `bytes[i..]`. In the ground state, runs of printable ASCII are copied
   * into the line while they are scanned (when the cursor is at its end; else scanned, then
   * printed), a character from U+00A0 up is decoded and printed, and every other input goes
   * through the table. In any other state a step that keeps the state is one load and one
   * comparison.
   */
  #run(bytes: Uint8Array, i: number): void {
    const n = bytes.length;
    let state = this.#state;
    while (i < n) {
      if (state === GROUND) {
        let b = bytes[i] as number;
        if (this.#cells === null && this.#col === this.#n && this.#col < this.#maxLine) {
          // The usual case, the cursor at the end of the line: copy while scanning, up to the
          // line length limit (a printable byte there goes through the table, and wraps).
          // A byte makes at most one UTF-16 unit (four make two), and a cell takes a byte or
          // more, so stopping at `stop` bytes never passes the limit.
          const buf = this.#reserve(n - i);
          const stop = Math.min(n, i + (this.#maxLine - this.#col));
          let len = this.#len;
          const start = len;
          let astral = 0; // cells of two units
          for (;;) {
            if (b - PLAIN_LO >>> 0 <= PLAIN_SPAN) {
              buf[len++] = b;
              if (++i === stop) break;
            } else if (b < 0x80) {
              if (TABLE[b] !== PLAIN_ENTRY) break;
              buf[len++] = b;
              if (++i === stop) break;
            } else {
              // A whole character that prints as one cell (the table's `text` input in the
              // ground state) is decoded in place; anything else (C1, bidi, invalid, cut off
              // at `stop`) goes through the table below.
              const d = TEXT_PRINTS && b >= 0xc2 ? decode(bytes, i, stop) : -1;
              if (d <= 0) break;
              const cp = d & 0x1fffff;
              if (inputOf(cp) !== CLASS_TEXT) break;
              if (cp < 0x10000) {
                buf[len++] = cp;
              } else {
                buf[len++] = 0xd800 + ((cp - 0x10000) >> 10);
                buf[len++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
                astral++;
              }
              i += d >>> 21;
              if (i === stop) break;
            }
            b = bytes[i] as number;
          }
          this.#len = len;
          this.#n = this.#col = this.#n + (len - start - astral);
          if (i === n) break;
          b = bytes[i] as number;
          if (i === stop && b < 0x80 && TABLE[b] === PLAIN_ENTRY) {
            this.#putBytes(bytes, i, i + 1);
            i++;
            continue;
          }
        } else {
          let j = i;
          while (b < 0x80 && TABLE[b] === PLAIN_ENTRY) {
            if (++j === n) break;
            b = bytes[j] as number;
          }
          if (j > i) this.#putBytes(bytes, i, j);
          if (j === n) break;
          i = j;
        }
        if (b === 0x1b && table.INLINE_CSI && bytes[i + 1] === 0x5b) {
          // ESC [ with its parameters and final byte in this chunk: the table's steps
          // through the plain CSI states without leaving this loop (see table.INLINE_CSI).
          const next = this.#inlineCsi(bytes, i + 2);
          if (next > 0) {
            i = next;
            continue;
          }
        }
        if (b < 0x80) {
          const e = TABLE[b] as number;
          i++;
          switch (e >> 4) {
            case IGNORE:
              break;
            case table.LINE_FEED:
              this.#finishLine();
              break;
            case table.CARRIAGE_RETURN:
              this.#col = 0;
              break;
            default:
              this.#act(e >> 4, b);
          }
          state = e & 15;
        } else {
          this.#state = state;
          i = this.#step(bytes, i);
          state = this.#state;
        }
        continue;
      }
      let row = state * CLASSES;
      let stay = (IGNORE << 4) | state;
      while (i < n) {
        const b = bytes[i] as number;
        if (b >= 0x80) {
          this.#state = state;
          i = this.#step(bytes, i);
          state = this.#state;
          break;
        }
        const e = TABLE[row + b] as number;
        i++;
        if (e === stay) continue;
        const action = e >> 4;
        if (action === table.PARAM) {
          // The generator allows `param` only on the digits 0-9.
          this.#param = Math.min(this.#param * 10 + (b - 0x30), table.MAX_PARAM);
        } else if (action === table.CSI_START) {
          this.#param = 0;
        } else if (action !== IGNORE) {
          this.#act(action, b);
        }
        if ((e & 15) !== state) {
          state = e & 15;
          if (state === GROUND) break;
          row = state * CLASSES;
          stay = (IGNORE << 4) | state;
        }
      }
    }
    this.#state = state;
  }

  /**
   * A CSI sequence from its first parameter byte at `bytes[i]`: when digits, `;` and a final byte
   * (the plain CSI states, as table.INLINE_CSI, which the generator computes from the table,
   * says) reach its end within `bytes`, the final byte's action is carried out with the first
   * parameter and the index after it returned; otherwise -1, nothing done (the table takes it
   * from the ESC).
   */
  #inlineCsi(bytes: Uint8Array, i: number): number {
    const n = bytes.length;
    let state = table.CSI_ENTRY;
    let param = 0;
    for (; i < n; i++) {
      const b = bytes[i] as number;
      if (b - 0x30 >>> 0 <= 9) {
        if (state !== table.CSI_PARAM_REST) {
          param = Math.min(param * 10 + (b - 0x30), table.MAX_PARAM);
          state = table.CSI_PARAM;
        }
      } else if (b === 0x3b) {
        state = table.CSI_PARAM_REST;
      } else if (b - 0x40 >>> 0 <= 0x3e) {
        const action = (TABLE[state * CLASSES + b] as number) >> 4;
        if (action !== IGNORE) {
          this.#param = param;
          this.#act(action, b);
        }
        return i + 1;
      } else {
        return -1;
      }
    }
    return -1;
  }

  /** The code point starting at the non-ASCII byte `bytes[i]`, through the table; returns the next index. */
  #step(bytes: Uint8Array, i: number): number {
    const d = decode(bytes, i, bytes.length);
    if (d > 0) {
      this.#input(d & 0x1fffff);
      return i + (d >>> 21);
    }
    if (d < 0) {
      this.#input(0xfffd);
      return i - d;
    }
    this.#pend.set(bytes.subarray(i));
    this.#pendLen = bytes.length - i;
    return bytes.length;
  }

  /** Completes the pending UTF-8 sequence with the start of `bytes`; returns the bytes used. */
  #resume(bytes: Uint8Array): number {
    const p = this.#pendLen;
    const take = Math.min(4 - p, bytes.length);
    const tmp = this.#pend;
    tmp.set(bytes.subarray(0, take), p);
    this.#pendLen = 0;
    const d = decode(tmp, 0, p + take);
    if (d > 0) {
      this.#input(d & 0x1fffff);
      return (d >>> 21) - p;
    }
    if (d < 0) {
      this.#input(0xfffd);
      return -d - p;
    }
    this.#pendLen = p + take;
    return bytes.length;
  }

  /** One code point through the table. */
  #input(cp: number): void {
    const e = TABLE[this.#state * CLASSES + inputOf(cp)] as number;
    this.#state = e & 15;
    if (e >> 4 !== IGNORE) this.#act(e >> 4, cp);
  }

  /** Carries out one action of the table (transitions.txt says what each one is). */
  #act(action: number, cp: number): void {
    switch (action) {
      case table.PRINT:
        this.#putCp(cp);
        return;
      case table.BACKSPACE:
        if (this.#col > 0) this.#col--;
        return;
      case table.CARRIAGE_RETURN:
        this.#col = 0;
        return;
      case table.LINE_FEED:
        this.#finishLine();
        return;
      case table.CSI_START:
        this.#param = 0;
        return;
      case table.PARAM:
        // The generator allows `param` only on the digits 0-9.
        this.#param = Math.min(this.#param * 10 + (cp - 0x30), table.MAX_PARAM);
        return;
      case table.CURSOR_COLUMN:
        this.#col = Math.min(Math.max(this.#param, 1) - 1, table.MAX_MOVE_COLUMN);
        return;
      case table.CURSOR_LEFT:
        this.#col = Math.max(this.#col - Math.max(this.#param, 1), 0);
        return;
      case table.CURSOR_RIGHT:
        // A cursor already right of the limit (by printing) stays where it is.
        if (this.#col < table.MAX_MOVE_COLUMN) this.#col = Math.min(this.#col + Math.max(this.#param, 1), table.MAX_MOVE_COLUMN);
        return;
      case table.ERASE_IN_LINE:
        this.#erase(this.#param);
        return;
      default:
        return;
    }
  }
}
