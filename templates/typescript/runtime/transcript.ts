// The safe transcript renderer of docs/TRANSCRIPT.md: terminal bytes in, text that any UI can show out.

/*
 * UTF-8 is decoded incrementally (one U+FFFD per maximal invalid subsequence), escape and
 * control sequences are removed with the DEC / ECMA-48 parser state machine, and a one-line
 * discipline (CR, BS, LF, TAB, CSI G/D/C/K) makes redrawn progress lines show their last
 * state. Work per chunk is proportional to the chunk: the bytes are scanned once, and text is
 * kept as UTF-16 code units in a growing buffer that becomes a string in large blocks.
 *
 * Details TRANSCRIPT.md leaves open are decided as in the Rust and Python bindings
 * (tests/vectors/transcript/README.md): BEL ends an OSC string but not DCS/SOS/PM/APC; C0
 * controls inside escape and CSI sequences are executed; `:` makes a CSI sequence ignored;
 * numeric parameters saturate at 65535; CSI C and CSI G never move the cursor right of
 * column 1023; CSI K with another parameter than 0, 1 or 2 has no effect; an incomplete
 * character at the end is not shown yet.
 */

const MAX_PARAM = 65535;
const MAX_MOVE_COL = 1023;
/** Finished lines become a string in blocks of this many UTF-16 units. */
const FLUSH = 1 << 16;

/** The default longest line, in cells: a longer line wraps (see `TranscriptLimits`). */
export const MAX_LINE_LENGTH = 4096;
/**
 * The default longest text of finished lines, in code points (line ends included): past it,
 * the oldest lines are left out (see `TranscriptLimits`). At two UTF-16 units per code point at
 * most, the text stays far below the longest string JavaScript engines allow (2^29 - 24 units
 * in V8).
 */
export const MAX_TEXT_LENGTH = 1 << 24;

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

/** Code points in `s[from..to)`: UTF-16 units minus the low halves of surrogate pairs. */
function codePoints(s: string, from: number, to: number): number {
  let n = to - from;
  for (let i = from; i < to; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xdc00 && u <= 0xdfff && i > from && (s.charCodeAt(i - 1) & 0xfc00) === 0xd800) n--;
  }
  return n;
}

// Parser states (vt100.net's DEC parser). The DCS states and SOS/PM/APC share STR: none of
// them has a visible effect and all of them end the same way.
const GROUND = 0;
const ESCAPE = 1;
const ESC_INTER = 2;
const CSI_ENTRY = 3;
const CSI_PARAM = 4;
const CSI_INTER = 5;
const CSI_IGNORE = 6;
const OSC = 7;
const STR = 8;

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

function isBidi(cp: number): boolean {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
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
  /** Cursor column (0-based); may be past the end of the line. */
  #col = 0;
  #state = GROUND;
  /** The first CSI parameter so far. */
  #param = 0;
  /** Still reading the first CSI parameter. */
  #first = true;
  /** The CSI sequence has a private marker. */
  #private = false;
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
    const n = bytes.length;
    this.#work += n;
    if (n > 0) this.#cache = null;
    let i = this.#pendLen > 0 ? this.#resume(bytes) : 0;
    while (i < n) {
      const state = this.#state;
      if (state === GROUND) i = this.#ground(bytes, i);
      else if (state === CSI_ENTRY || state === CSI_PARAM) i = this.#csiParams(bytes, i);
      else if (state === OSC || state === STR) i = this.#string(bytes, i);
      else i = this.#step(bytes, i);
    }
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
    return cells;
  }

  #putWide(cp: number): void {
    if (this.#col >= this.#maxLine) this.#wrap();
    const cells = this.#wide();
    this.#work += Math.max(0, this.#col - cells.length) + 1;
    while (cells.length < this.#col) cells.push(0x20);
    cells[this.#col++] = cp;
  }

  /** A character goes at the line length limit or further right: the line is finished first. */
  #wrap(): void {
    this.#wrapped++;
    this.#finishLine();
  }

  /** Prints `bytes[from..to)`, printable ASCII or TAB, wrapping at the line length limit. */
  #putAscii(bytes: Uint8Array, from: number, to: number): void {
    while (from < to) {
      if (this.#col >= this.#maxLine) this.#wrap();
      const end = Math.min(to, from + (this.#maxLine - this.#col));
      this.#putAsciiInLine(bytes, from, end);
      from = end;
    }
  }

  /** Prints `bytes[from..to)` without passing the line length limit. */
  #putAsciiInLine(bytes: Uint8Array, from: number, to: number): void {
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

  /** Prints one cell holding a code point of U+00A0 or more. */
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
      }
    } else if (mode === 1) {
      this.#work += col + 1;
      if (simple) this.#buf.fill(0x20, this.#lineStart, this.#lineStart + col + 1);
      else this.#wide().fill(0x20, 0, col + 1);
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
    if (this.#chars > this.#maxChars) this.#dropOldest();
    if (this.#lineStart >= FLUSH) {
      if (this.#lineStart > this.#bufHead) {
        this.#work += this.#lineStart - this.#bufHead;
        const block = unitsToString(buf, this.#bufHead, this.#lineStart);
        this.#blocks.push(block);
        this.#blockUnits += block.length;
        if (this.#joined !== null) this.#joined += block;
      }
      this.#len = this.#lineStart = this.#bufHead = 0;
    }
  }

  /**
   * Leaves out the oldest finished lines until the rest fits the text length limit. Each line is
   * looked at once when it goes, and the block list is compacted only when more than half of it
   * is gone, so the work is proportional to what goes.
   */
  #dropOldest(): void {
    const blocks = this.#blocks;
    if (this.#firstBlock < blocks.length) this.#joined = null;
    while (this.#chars > this.#maxChars && this.#firstBlock < blocks.length) {
      const block = blocks[this.#firstBlock] as string;
      const end = block.indexOf("\n", this.#head) + 1;
      this.#work += end - this.#head;
      const count = codePoints(block, this.#head, end);
      this.#blockUnits -= end - this.#head;
      this.#chars -= count;
      this.#droppedChars += count;
      this.#droppedLines++;
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
   * The ground state: runs of printable cells, CR, LF and complete CSI sequences without
   * leaving this loop. Returns where another state starts, or the end.
   */
  #ground(bytes: Uint8Array, i: number): number {
    const n = bytes.length;
    while (i < n) {
      let b = bytes[i] as number;
      if (this.#cells === null && this.#col === this.#n && this.#col < this.#maxLine) {
        // The usual case, the cursor at the end of the line: copy while scanning, up to the
        // line length limit (a printable byte there goes to #step, which wraps). A character
        // never takes more UTF-16 units than UTF-8 bytes.
        const buf = this.#reserve(n - i);
        const stop = Math.min(n, i + (this.#maxLine - this.#col));
        let len = this.#len;
        const start = len;
        while (b >= 0x20 ? b < 0x7f : b === 0x09) {
          buf[len++] = b;
          if (++i === stop) break;
          b = bytes[i] as number;
        }
        this.#len = len;
        this.#n = this.#col = this.#n + (len - start);
        if (i === n) return n;
      } else {
        let j = i;
        while (b >= 0x20 ? b < 0x7f : b === 0x09) {
          if (++j === n) break;
          b = bytes[j] as number;
        }
        if (j > i) this.#putAscii(bytes, i, j);
        if (j === n) return n;
        i = j;
      }
      if (b >= 0xc2) {
        const d = decode(bytes, i, n);
        if (d > 0x200000) {
          const cp = d & 0x1fffff;
          if (cp >= 0xa0) {
            if (!isBidi(cp)) this.#putCp(cp);
            i += d >>> 21;
            continue;
          }
        }
        i = this.#step(bytes, i);
      } else if (b === 0x0d) {
        this.#col = 0;
        i++;
      } else if (b === 0x0a) {
        this.#finishLine();
        i++;
      } else if (b === 0x1b && bytes[i + 1] === 0x5b) {
        const next = this.#inlineCsi(bytes, i + 2);
        if (next < 0) {
          this.#state = this.#csi();
          return i + 2;
        }
        i = next;
      } else {
        i = this.#step(bytes, i);
      }
      if (this.#state !== GROUND) return i;
    }
    return i;
  }

  /**
   * A CSI sequence whose parameters and final byte are all in `bytes[i..]` and hold nothing
   * unusual: applied, and the index after it returned. Otherwise -1.
   */
  #inlineCsi(bytes: Uint8Array, i: number): number {
    const n = bytes.length;
    let b = bytes[i];
    const priv = b !== undefined && b >= 0x3c && b <= 0x3f;
    if (priv) i++;
    let param = 0;
    let first = true;
    for (; i < n; i++) {
      b = bytes[i] as number;
      if (b >= 0x30 && b <= 0x39) {
        if (first) param = Math.min(param * 10 + (b - 0x30), MAX_PARAM);
      } else if (b === 0x3b) {
        first = false;
      } else if (b >= 0x40 && b <= 0x7e) {
        if (!priv) {
          this.#param = param;
          this.#private = false;
          this.#dispatch(b);
        }
        return i + 1;
      } else {
        return -1;
      }
    }
    return -1;
  }

  /** The CSI entry and parameter states: digits, `;` and the final byte. */
  #csiParams(bytes: Uint8Array, i: number): number {
    const n = bytes.length;
    for (; i < n; i++) {
      const b = bytes[i] as number;
      if (b >= 0x30 && b <= 0x39) {
        if (this.#first) this.#param = Math.min(this.#param * 10 + (b - 0x30), MAX_PARAM);
      } else if (b === 0x3b) {
        this.#first = false;
      } else if (b >= 0x40 && b <= 0x7e) {
        this.#dispatch(b);
        this.#state = GROUND;
        return i + 1;
      } else {
        return this.#step(bytes, i);
      }
      this.#state = CSI_PARAM;
    }
    return n;
  }

  /** OSC, DCS, SOS, PM and APC strings: skips the payload up to what ends it. */
  #string(bytes: Uint8Array, i: number): number {
    const n = bytes.length;
    const osc = this.#state === OSC;
    for (; i < n; i++) {
      const b = bytes[i] as number;
      if (b === 0x1b || b === 0x18 || b === 0x1a || (b === 0x07 && osc)) {
        this.#asciiByte(b);
        return i + 1;
      }
      if (b === 0xc2) {
        if (i + 1 === n) {
          this.#stash(bytes, i, n);
          return n;
        }
        const c = bytes[i + 1] as number;
        if (c >= 0x80 && c <= 0x9f) {
          this.#c1(c);
          return i + 2;
        }
        // Payload: U+00A0..U+00BF, or U+FFFD followed by a byte looked at again.
      }
    }
    return n;
  }

  /** Handles the code point starting at `bytes[i]`; returns the next index. */
  #step(bytes: Uint8Array, i: number): number {
    const b = bytes[i] as number;
    if (b < 0x80) {
      this.#asciiByte(b);
      return i + 1;
    }
    const d = decode(bytes, i, bytes.length);
    if (d > 0) {
      this.#codePoint(d & 0x1fffff);
      return i + (d >>> 21);
    }
    if (d < 0) {
      this.#codePoint(0xfffd);
      return i - d;
    }
    this.#stash(bytes, i, bytes.length);
    return bytes.length;
  }

  #stash(bytes: Uint8Array, from: number, to: number): void {
    this.#pend.set(bytes.subarray(from, to));
    this.#pendLen = to - from;
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
      this.#codePoint(d & 0x1fffff);
      return (d >>> 21) - p;
    }
    if (d < 0) {
      this.#codePoint(0xfffd);
      return -d - p;
    }
    this.#pendLen = p + take;
    return bytes.length;
  }

  /** A decoded code point at or above U+0080 (U+FFFD included). */
  #codePoint(cp: number): void {
    if (cp <= 0x9f) {
      this.#c1(cp);
    } else if (this.#state !== OSC && this.#state !== STR) {
      this.#state = GROUND;
      if (!isBidi(cp)) this.#putCp(cp);
    }
  }

  /** A C1 control, from any state: the same as its 7-bit equivalent ESC Fe. */
  #c1(cp: number): void {
    this.#state =
      cp === 0x9b ? this.#csi() : cp === 0x9d ? OSC : cp === 0x90 || cp === 0x98 || cp === 0x9e || cp === 0x9f ? STR : GROUND;
  }

  #csi(): number {
    this.#param = 0;
    this.#first = true;
    this.#private = false;
    return CSI_ENTRY;
  }

  /** A C0 control executed in the ground, escape and CSI states. */
  #execute(c: number): void {
    if (c === 0x08) {
      if (this.#col > 0) this.#col--;
    } else if (c === 0x09) {
      this.#putAscii(TAB, 0, 1);
    } else if (c === 0x0a) {
      this.#finishLine();
    } else if (c === 0x0d) {
      this.#col = 0;
    }
  }

  /** A CSI final byte without intermediates, outside CSI ignore. */
  #dispatch(fin: number): void {
    if (this.#private) return;
    const n = this.#param;
    if (fin === 0x47) {
      this.#col = Math.min(Math.max(n, 1) - 1, MAX_MOVE_COL);
    } else if (fin === 0x44) {
      this.#col = Math.max(this.#col - Math.max(n, 1), 0);
    } else if (fin === 0x43) {
      if (this.#col < MAX_MOVE_COL) this.#col = Math.min(this.#col + Math.max(n, 1), MAX_MOVE_COL);
    } else if (fin === 0x4b) {
      this.#erase(n);
    }
  }

  /** One byte below 0x80 in the current state. */
  #asciiByte(c: number): void {
    if (c === 0x1b) {
      this.#state = ESCAPE;
      return;
    }
    if (c === 0x18 || c === 0x1a) {
      this.#state = GROUND;
      return;
    }
    const state = this.#state;
    if (state === OSC) {
      if (c === 0x07) this.#state = GROUND;
      return;
    }
    if (state === STR || c === 0x7f) return;
    if (c < 0x20) {
      this.#execute(c);
      return;
    }
    switch (state) {
      case GROUND:
        this.#putAscii(Uint8Array.of(c), 0, 1);
        return;
      case ESCAPE:
        this.#state =
          c < 0x30 ? ESC_INTER : c === 0x5b ? this.#csi() : c === 0x5d ? OSC : c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f ? STR : GROUND;
        return;
      case ESC_INTER:
        if (c >= 0x30) this.#state = GROUND;
        return;
      case CSI_ENTRY:
      case CSI_PARAM:
        if (c >= 0x30 && c <= 0x39) {
          if (this.#first) this.#param = Math.min(this.#param * 10 + (c - 0x30), MAX_PARAM);
          this.#state = CSI_PARAM;
        } else if (c === 0x3b) {
          this.#first = false;
          this.#state = CSI_PARAM;
        } else if (c >= 0x3c && c <= 0x3f && state === CSI_ENTRY) {
          this.#private = true;
          this.#state = CSI_PARAM;
        } else if (c < 0x30) {
          this.#state = CSI_INTER;
        } else if (c >= 0x40) {
          this.#dispatch(c);
          this.#state = GROUND;
        } else {
          this.#state = CSI_IGNORE;
        }
        return;
      case CSI_INTER:
        if (c >= 0x40) this.#state = GROUND;
        else if (c >= 0x30) this.#state = CSI_IGNORE;
        return;
      default:
        // CSI_IGNORE
        if (c >= 0x40) this.#state = GROUND;
        return;
    }
  }
}

const TAB = Uint8Array.of(0x09);
