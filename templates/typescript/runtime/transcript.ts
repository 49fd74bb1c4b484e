// The safe transcript (docs/TRANSCRIPT.md): terminal bytes in, text that any UI can show out.

// UTF-8 is decoded incrementally (one U+FFFD per maximal invalid subsequence, by the WHATWG
// decoder), escape and control sequences are removed with the DEC / ECMA-48 parser state
// machine, and a one-line discipline (CR, BS, LF, TAB, CSI G/D/C/K) makes redrawn progress
// lines show their last state. Work per chunk is proportional to the chunk.
//
// Details TRANSCRIPT.md leaves open are decided as in the Rust and Python bindings
// (tests/vectors/transcript/README.md): BEL ends an OSC string but not DCS/SOS/PM/APC; C0
// controls inside escape and CSI sequences are executed; `:` makes a CSI sequence ignored;
// numeric parameters saturate at 65535; CSI C and CSI G never move the cursor right of
// column 1023; CSI K with another parameter than 0, 1 or 2 has no effect; an incomplete
// character at the end is not shown yet.

/** The parts of the WHATWG `TextDecoder` used here (a global in browsers, Node, Deno and Bun). */
interface Utf8Decoder {
  decode(input: Uint8Array, options: { stream: boolean }): string;
}
type Utf8DecoderClass = new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => Utf8Decoder;

function utf8Decoder(): Utf8Decoder {
  const ctor = (globalThis as unknown as { TextDecoder?: Utf8DecoderClass }).TextDecoder;
  if (ctor === undefined) throw new Error("Transcript needs the global TextDecoder");
  return new ctor("utf-8", { fatal: false, ignoreBOM: true });
}

const MAX_PARAM = 65535;
const MAX_MOVE_COL = 1023;

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

/** Cells of `s` from `from` to `to` (UTF-16 units), one per code point. */
function pushCells(cells: string[], s: string, from: number, to: number, col: number): number {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    let ch: string;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      ch = s.slice(i, i + 2);
      i++;
    } else {
      ch = s[i] as string;
    }
    while (cells.length < col) cells.push(" ");
    cells[col++] = ch;
  }
  return col;
}

/** `s` without trailing U+0020. */
function trimEnd(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x20) end--;
  return end === s.length ? s : s.slice(0, end);
}

/**
 * The current line: cells and a cursor column. While the cursor is at or past the end the
 * cells are one string (appending is cheap); a write inside the line switches to one array
 * entry per cell until the line is finished or cleared. Trailing spaces and missing cells
 * look the same in the output, so erasing to the end truncates.
 */
class Line {
  /** The cells, when `cells` is null. */
  text = "";
  /** Number of cells in `text`. */
  n = 0;
  /** One string per cell, when not null. */
  cells: string[] | null = null;
  /** Cursor column (0-based), may be past the end. */
  col = 0;

  get length(): number {
    return this.cells === null ? this.n : this.cells.length;
  }

  clear(): void {
    this.text = "";
    this.n = 0;
    this.cells = null;
  }

  private wide(): string[] {
    if (this.cells !== null) return this.cells;
    const cells: string[] = [];
    pushCells(cells, this.text, 0, this.text.length, 0);
    this.text = "";
    this.n = 0;
    this.cells = cells;
    return cells;
  }

  /** Prints `s.slice(from, to)`, which holds `count` code points and no controls. */
  put(s: string, from: number, to: number, count: number): void {
    if (this.cells === null && this.col >= this.n) {
      if (this.col > this.n) this.text += " ".repeat(this.col - this.n);
      this.text += from === 0 && to === s.length ? s : s.slice(from, to);
      this.n = this.col + count;
      this.col = this.n;
      return;
    }
    this.col = pushCells(this.wide(), s, from, to, this.col);
  }

  /** CSI K with its first parameter. */
  erase(mode: number): void {
    const len = this.length;
    if (mode === 2 || (mode === 0 && this.col === 0) || (mode === 1 && this.col + 1 >= len)) {
      this.clear();
    } else if (mode === 0) {
      if (this.col < len) this.wide().length = this.col;
    } else if (mode === 1) {
      this.wide().fill(" ", 0, this.col + 1);
    }
  }

  /** The cells without trailing spaces. */
  toString(): string {
    return trimEnd(this.cells === null ? this.text : this.cells.join(""));
  }
}

/**
 * The incremental safe transcript renderer of docs/TRANSCRIPT.md. Push the terminal's bytes
 * in chunks of any size; `text` is the same whatever the chunking. A replacement snapshot
 * starts over with `reset()`.
 */
export class Transcript {
  #decoder: Utf8Decoder = utf8Decoder();
  /** Every finished line, each followed by "\n". */
  #out = "";
  #line = new Line();
  #state = GROUND;
  /** The first CSI parameter so far. */
  #param = 0;
  /** Still reading the first CSI parameter. */
  #first = true;
  /** The CSI sequence has a private marker. */
  #private = false;

  /**
   * The transcript so far: every finished line followed by "\n", then the current line,
   * trailing spaces removed. An unfinished sequence or character at the end shows nothing yet.
   */
  get text(): string {
    const cur = this.#line.toString();
    return cur === "" ? this.#out : this.#out + cur;
  }

  /** Forgets everything (text, current line, pending sequence or character). */
  reset(): void {
    this.#decoder = utf8Decoder();
    this.#out = "";
    this.#line = new Line();
    this.#state = GROUND;
  }

  /** Continues the transcript with the next chunk of terminal bytes. */
  push(bytes: Uint8Array): void {
    const s = this.#decoder.decode(bytes, { stream: true });
    const n = s.length;
    let i = 0;
    while (i < n) {
      const state = this.#state;
      if (state === GROUND) {
        let j = i;
        let pairs = 0;
        for (; j < n; j++) {
          const c = s.charCodeAt(j);
          if (c >= 0x20 && c < 0x7f) continue;
          if (c < 0xa0) {
            if (c === 0x09) continue;
            break;
          }
          if (c >= 0x202a && (c <= 0x202e || (c >= 0x2066 && c <= 0x2069))) break;
          if (c >= 0xdc00 && c <= 0xdfff) pairs++;
        }
        if (j > i) this.#line.put(s, i, j, j - i - pairs);
        if (j < n) this.#unit(s.charCodeAt(j));
        i = j + 1;
      } else if (state === OSC || state === STR) {
        let j = i;
        for (; j < n; j++) {
          const c = s.charCodeAt(j);
          if (c === 0x1b || c === 0x18 || c === 0x1a || (c >= 0x80 && c <= 0x9f) || (c === 0x07 && state === OSC)) break;
        }
        if (j < n) this.#unit(s.charCodeAt(j));
        i = j + 1;
      } else {
        const c = s.charCodeAt(i);
        if (c >= 0xa0) {
          // Cancels the sequence; the character is then handled in the ground state.
          this.#state = GROUND;
        } else {
          this.#unit(c);
          i++;
        }
      }
    }
  }

  #csi(): number {
    this.#param = 0;
    this.#first = true;
    this.#private = false;
    return CSI_ENTRY;
  }

  /** A C0 control executed in the ground, escape and CSI states. */
  #execute(c: number): void {
    const line = this.#line;
    if (c === 0x08) {
      if (line.col > 0) line.col--;
    } else if (c === 0x09) {
      line.put("\t", 0, 1, 1);
    } else if (c === 0x0a) {
      this.#out += line.toString() + "\n";
      line.clear();
      line.col = 0;
    } else if (c === 0x0d) {
      line.col = 0;
    }
  }

  #dispatch(fin: number): void {
    if (this.#private) return;
    const line = this.#line;
    const n = this.#param;
    if (fin === 0x47) {
      line.col = Math.min(Math.max(n, 1) - 1, MAX_MOVE_COL);
    } else if (fin === 0x44) {
      line.col = Math.max(line.col - Math.max(n, 1), 0);
    } else if (fin === 0x43) {
      if (line.col < MAX_MOVE_COL) line.col = Math.min(line.col + Math.max(n, 1), MAX_MOVE_COL);
    } else if (fin === 0x4b) {
      line.erase(n);
    }
  }

  /**
   * One UTF-16 unit below U+00A0 in any state, or at or above it in the ground state (a bidi
   * control) and in strings (payload). Printable runs in the ground state never get here.
   */
  #unit(c: number): void {
    if (c === 0x1b) {
      this.#state = ESCAPE;
      return;
    }
    if (c === 0x18 || c === 0x1a) {
      this.#state = GROUND;
      return;
    }
    if (c >= 0x80 && c <= 0x9f) {
      this.#state =
        c === 0x9b ? this.#csi() : c === 0x9d ? OSC : c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f ? STR : GROUND;
      return;
    }
    const state = this.#state;
    if (state === OSC) {
      if (c === 0x07) this.#state = GROUND;
      return;
    }
    if (state === STR || c === 0x7f || c >= 0xa0) return;
    if (c < 0x20) {
      this.#execute(c);
      return;
    }
    switch (state) {
      case GROUND:
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
      case CSI_IGNORE:
        if (c >= 0x40) this.#state = GROUND;
        return;
      default:
        return;
    }
  }
}
