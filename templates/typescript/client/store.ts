// The terminal store: applies session updates of the display-only terminal surface (upserts,
// replacement snapshots, appended chunks, either-order arrival) with a safe transcript per terminal.
//
// Costs (docs/CLIENTS.md, "The store's guarantees"): applying an update takes time proportional to its
// size, plus amortized constant time per terminal and per reference. Memory is the retained
// bytes plus a small constant per terminal; the transcript is built only for terminals whose
// text is asked for, incrementally. Every limit is visible when hit.
//
// A long session never stops showing output: past `maxTerminals` the store evicts the least
// recently updated exited terminal (a live one only when all are live) and reports it
// (`takeEvents`); past `maxTotalBytes` it drops the oldest bytes of the least recently updated
// exited terminals first.

import { decodeBase64, encodeBase64 } from "./runtime/base64.js";
import { DEFAULT_MAX_WARNINGS, type ParseOptions, type Problem } from "./runtime/errors.js";
import { DEFAULT_MAX_RETAINED_BYTES, DEFAULT_MAX_TERMINALS, DEFAULT_MAX_TOTAL_BYTES } from "./limits.js";
import { DEFAULT_MAX_STATE_MEMBERS } from "./runtime/limits.js";
import { type Json, type JsonObject, objectOf, parseJson } from "./runtime/json.js";
import { isUnknownVariant } from "./runtime/model.js";
import { KeptTarget, type SessionState } from "./runtime/state.js";
import { sessionState } from "./registry.js";
import { MAX_LINE_LENGTH, MAX_TEXT_LENGTH, Transcript, type TranscriptLimits } from "./transcript.js";
import {
  type AbsolutePath,
  type SessionId,
  type SessionUpdate,
  type TerminalCapabilities,
  type TerminalExitStatus,
  type TerminalId,
  type TerminalSize,
  type ToolCallContent,
  type ToolCallId,
  type UpdateSessionNotification,
  parseSessionUpdate,
  parseTerminalCapabilities,
  parseTerminalExitStatus,
  parseTerminalSize,
  parseUpdateSessionNotification,
  serializeSessionUpdate,
} from "./v2.js";

let rules: SessionState | undefined;

/** The package's session-state table, read once: the store applies its upserts to its terminals (`SessionState.upsertInto`). */
function sessionRules(): SessionState {
  rules ??= sessionState("v2");
  if (rules === undefined) throw new Error("cargo xtask gen writes the v2 session-state table of this package");
  return rules;
}

/** Member `name` of `kept` decoded with `parse`; what is kept was decoded once already, so this cannot fail. */
function typed<T>(kept: KeptTarget, name: string, parse: (input: unknown) => { ok: true; value: T } | { ok: false }): T | null {
  if (!kept.holds(name)) return null;
  const got = parse(kept.member(name));
  return got.ok ? got.value : null;
}

/** The largest block small chunks are gathered into. */
const SMALL = 4096;

// The fast path of the most common message, one `terminal_output_chunk`, written as senders
// write it: canonical member order, no whitespace, ids with nothing to unescape (no backslash,
// no `"`, no control character, no surrogate code unit) and data in the base64 alphabet. Such
// a text is JSON the generic decoder reads as exactly these strings, so slicing them out gives
// the same values; any other text takes the generic path. The expressions match the text up to
// the data; the data is what is left before the closing `"}}` (`"}` for a bare update), and
// `decodeBase64`, which accepts only `[A-Za-z0-9+/]*={0,2}` (never a `"`, `\` or `}`), checks
// it: scanning it with the expression too would cost more than the rest of the fast path.
const ID = String.raw`"([^"\\\x00-\x1f\ud800-\udfff]*)"`;
const CHUNK_HEAD = String.raw`"sessionUpdate":"terminal_output_chunk","terminalId":${ID},"data":"`;
/** A `session/update` notification's params carrying one plain `terminal_output_chunk`, up to its data (then `"}}`). */
const FAST_NOTIFICATION = new RegExp(String.raw`^\{"sessionId":${ID},"update":\{${CHUNK_HEAD}`);
/** A plain `terminal_output_chunk` update, up to its data (then `"}`). */
const FAST_UPDATE = new RegExp(String.raw`^\{${CHUNK_HEAD}`);

/** Limits a Client sets on what an Agent can make it hold; the same in the three languages. */
export interface Limits {
  /**
   * At most this many terminals. An update or reference that would create one more first
   * evicts the least recently updated terminal that has exited, or, when every terminal is
   * live, the least recently updated live one: counted in `counters.terminalsEvicted` and
   * reported by `takeEvents()`. An update for an evicted id starts a fresh terminal (a
   * `restarted` event, `TerminalState.restarted`). With 0, no terminal is kept (each is
   * counted in `counters.terminalsRefused`).
   */
  readonly maxTerminals: number;
  /**
   * At most this many output bytes retained per terminal. Past it the store keeps the most
   * recent bytes and counts the rest in `droppedBytes`. The transcript still renders every
   * byte (it reads bytes before they go).
   */
  readonly maxRetainedBytes: number;
  /**
   * At most this many output bytes retained by all terminals together. Past it the store drops
   * the oldest bytes of the least recently updated exited terminals first (then of live ones,
   * least recently updated first), counted in `counters.bytesEvicted` and in each terminal's
   * `droppedBytes`. A transcript already built reads the bytes before they go; one built later
   * starts at the first byte kept.
   */
  readonly maxTotalBytes: number;
  /** At most this many warnings returned per applied message; the rest are counted in `counters.warningsDropped`. */
  readonly maxWarnings: number;
  /**
   * The line length limit, in cells, of every transcript the store creates: a longer line
   * wraps, counted in the transcript's `wrappedLines`.
   */
  readonly maxLineLength: number;
  /**
   * The text length limit, in code points of finished lines, of every transcript the store
   * creates: past it the oldest lines are left out, counted in `droppedLines` and `droppedChars`.
   */
  readonly maxTextLength: number;
  /**
   * At most this many members per terminal beyond those `TerminalUpdate` names (which are
   * always kept), and keys in its `_meta`: what a `terminal_update` sets is kept as the session
   * state keeps it (unknown members and `_meta` merged key by key), so without a bound an Agent
   * could grow a terminal with every update. A member or key new
   * to the terminal past it is not kept, counted in `counters.membersDropped`; one it has is
   * still replaced or cleared.
   */
  readonly maxMembers: number;
}

/**
 * The default limits: 1024 terminals, 1 MiB per terminal, 256 MiB in all, 64 warnings per
 * message, 256 unknown members and `_meta` keys per terminal, and the transcript's own defaults (`MAX_LINE_LENGTH` cells per line,
 * `MAX_TEXT_LENGTH` code points).
 */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxTerminals: DEFAULT_MAX_TERMINALS,
  maxRetainedBytes: DEFAULT_MAX_RETAINED_BYTES,
  maxTotalBytes: DEFAULT_MAX_TOTAL_BYTES,
  maxWarnings: DEFAULT_MAX_WARNINGS,
  maxLineLength: MAX_LINE_LENGTH,
  maxTextLength: MAX_TEXT_LENGTH,
  maxMembers: DEFAULT_MAX_STATE_MEMBERS,
});

/** What the store dropped because a limit was hit. */
export interface Counters {
  /** Updates and references ignored because `maxTerminals` is 0. */
  terminalsRefused: number;
  /** Warnings not returned because a message had more than `maxWarnings`. */
  warningsDropped: number;
  /** Terminals evicted to make room for a new one (`maxTerminals`). */
  terminalsEvicted: number;
  /** Output bytes dropped to keep the store within `maxTotalBytes`. */
  bytesEvicted: number;
  /**
   * Events not kept because more were waiting than the store keeps (`maxTerminals`, at least
   * 64) before `takeEvents()` took them: the oldest go first.
   */
  eventsDropped: number;
  /** Members and `_meta` keys of `terminal_update`s not kept, past `maxMembers`. */
  membersDropped: number;
}

/**
 * What the store did on its own that a display may want to show (`takeEvents()`): a terminal
 * evicted to make room for a new one (its output and state are no longer kept; `exited` says
 * whether it had exited: a live one goes only when all are live), or a terminal started again
 * after its eviction (`TerminalState.restarted`).
 */
export type StoreEvent =
  | { readonly kind: "evicted"; readonly terminalId: TerminalId; readonly exited: boolean }
  | { readonly kind: "restarted"; readonly terminalId: TerminalId };

/** Orders strings by Unicode code point (as Rust and Python do), not by UTF-16 unit. */
function byCodePoint(a: string, b: string): number {
  const x = a[Symbol.iterator]();
  const y = b[Symbol.iterator]();
  for (;;) {
    const p = x.next();
    const q = y.next();
    if (p.done === true || q.done === true) return (p.done === true ? 0 : 1) - (q.done === true ? 0 : 1);
    const d = (p.value.codePointAt(0) ?? 0) - (q.value.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
}

/** `bytes` as an array that holds no memory beyond its own bytes. */
function own(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

/**
 * Output bytes kept as a list of blocks. Chunks of 4 KiB or more are kept as they came;
 * smaller ones are gathered into blocks of at most 4 KiB that grow as they fill. Appending
 * never copies what is stored, and the only spare capacity is in the last, partly filled
 * small block, so the memory held stays close to the bytes retained.
 */
export class ByteLog {
  private blocks: Uint8Array[] = [];
  /** Index of the first live block. */
  private start = 0;
  /** Bytes at the start of the first live block that were dropped. */
  private head = 0;
  /** Bytes used in the last block when it is a growing small block (else its length). */
  private fill = 0;
  private length_ = 0;
  private dropped_ = 0;

  /**
   * Replaces everything with `bytes` (kept without a copy when they own their memory), or
   * with their last `keep` bytes, counting the rest as dropped.
   */
  replace(bytes: Uint8Array, keep: number = Infinity): void {
    const cut = Math.max(0, bytes.length - keep);
    const b = own(cut > 0 ? bytes.subarray(cut) : bytes);
    this.blocks = b.length > 0 ? [b] : [];
    this.start = 0;
    this.head = 0;
    this.fill = b.length;
    this.length_ = b.length;
    this.dropped_ = cut;
  }

  private seal(): void {
    const i = this.blocks.length - 1;
    const last = this.blocks[i];
    if (last !== undefined && i >= this.start && this.fill < last.length) {
      this.blocks[i] = last.slice(0, this.fill);
    }
  }

  /** Appends `bytes`, then keeps at most the last `keep` bytes, counting the rest as dropped. */
  append(bytes: Uint8Array, keep: number = Infinity): void {
    if (bytes.length > keep) {
      this.dropFront(this.length_);
      this.dropped_ += bytes.length - keep;
      this.push(bytes.subarray(bytes.length - keep));
    } else {
      this.push(bytes);
      if (this.length_ > keep) this.dropFront(this.length_ - keep);
    }
  }

  private push(bytes: Uint8Array): void {
    const n = bytes.length;
    if (n === 0) return;
    const last = this.blocks.length > this.start ? this.blocks[this.blocks.length - 1] : undefined;
    if (last !== undefined && this.fill < SMALL && this.fill + n <= SMALL) {
      let block = last;
      if (this.fill + n > last.length) {
        block = new Uint8Array(Math.min(SMALL, Math.max(this.fill + n, 2 * last.length)));
        block.set(last.subarray(0, this.fill));
      }
      block.set(bytes, this.fill);
      this.blocks[this.blocks.length - 1] = block;
      this.fill += n;
      this.length_ += n;
      return;
    }
    const block = n >= SMALL ? own(bytes) : bytes.slice();
    this.seal();
    this.blocks.push(block);
    this.fill = n;
    this.length_ += n;
  }

  /** Drops the first `n` retained bytes (all of them when `n` is larger). */
  dropFront(count: number): void {
    let n = Math.min(count, this.length_);
    this.length_ -= n;
    this.dropped_ += n;
    while (n > 0 && this.start < this.blocks.length) {
      const front = this.blocks[this.start] as Uint8Array;
      const end = this.start === this.blocks.length - 1 ? this.fill : front.length;
      const live = end - this.head;
      if (n >= live) {
        n -= live;
        this.head = 0;
        this.blocks[this.start] = new Uint8Array(0);
        this.start++;
      } else {
        this.head += n;
        n = 0;
        // A large block more than half dead is copied down, so the dead part never
        // exceeds what is retained.
        if (this.head > front.length / 2 && front.length > SMALL) {
          this.blocks[this.start] = front.slice(this.head, end);
          if (this.start === this.blocks.length - 1) this.fill -= this.head;
          this.head = 0;
        }
      }
    }
    if (this.start === this.blocks.length) {
      this.blocks = [];
      this.start = 0;
      this.fill = 0;
    } else if (this.start > 32 && this.start * 2 > this.blocks.length) {
      this.blocks = this.blocks.slice(this.start);
      this.start = 0;
    }
  }

  /** How many bytes are retained. */
  get length(): number {
    return this.length_;
  }

  /** How many bytes before the retained ones were dropped by `maxRetainedBytes` since the last snapshot. */
  get dropped(): number {
    return this.dropped_;
  }

  /** The retained bytes, block by block. */
  *chunks(): IterableIterator<Uint8Array> {
    const last = this.blocks.length - 1;
    for (let i = this.start; i <= last; i++) {
      const b = this.blocks[i] as Uint8Array;
      const from = i === this.start ? this.head : 0;
      const to = i === last ? this.fill : b.length;
      yield from === 0 && to === b.length ? b : b.subarray(from, to);
    }
  }

  /** The retained bytes from `offset` (counted from the first retained byte) on. */
  *chunksFrom(offset: number): IterableIterator<Uint8Array> {
    let skip = offset;
    for (const c of this.chunks()) {
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      yield skip === 0 ? c : c.subarray(skip);
      skip = 0;
    }
  }

  /** The retained bytes as one array (a copy). */
  toBytes(): Uint8Array {
    const out = new Uint8Array(this.length_);
    let at = 0;
    for (const c of this.chunks()) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }

  /** The memory the blocks hold, spare capacity and dropped bytes not yet released included. */
  get capacity(): number {
    let n = 0;
    for (let i = this.start; i < this.blocks.length; i++) n += (this.blocks[i] as Uint8Array).length;
    return n;
  }
}

/** What the store knows about one terminal. */
export class TerminalState {
  /**
   * @internal The terminal as the session state keeps it (`terminalId`, `command`, `cwd`,
   * `exitStatus` ...), changed only by the session state's upsert (docs/SESSIONS.md); its
   * output is kept in `output` instead. The members below are read from it, each read costing
   * the member's size.
   */
  readonly kept = new KeptTarget();
  /** The command line, when known (`null`: unknown or cleared). */
  get command(): string | null {
    const v = this.kept.member("command");
    return typeof v === "string" ? v : null;
  }
  /** The absolute working directory, when known. */
  get cwd(): AbsolutePath | null {
    const v = this.kept.member("cwd");
    return typeof v === "string" ? (v as AbsolutePath) : null;
  }
  /** The exit status; not `null` means the process exited. */
  get exitStatus(): TerminalExitStatus | null {
    return typed(this.kept, "exitStatus", parseTerminalExitStatus);
  }
  /** Whether the process exited (it has an exit status). */
  get exited(): boolean {
    return this.kept.holds("exitStatus");
  }
  /**
   * The terminal size the command runs with, when known: render the output at this width so
   * that column layouts and progress bars look as the program wrote them.
   */
  get size(): TerminalSize | null {
    return typed(this.kept, "size", parseTerminalSize);
  }
  /**
   * What the Client may ask the Agent to do with this terminal right now, as last replaced
   * (`null`: never said, or cleared). The store only records it: a display may offer it to
   * its user, and nothing is sent unless the user asks.
   */
  get capabilities(): TerminalCapabilities | null {
    return typed(this.kept, "capabilities", parseTerminalCapabilities);
  }
  /**
   * Terminal-scoped extension data, patched key by key as the session state does (upstream's
   * meta-patch rule, docs/WIRE.md): a key set to `null` is removed.
   */
  get meta(): JsonObject | null {
    const v = this.kept.member("_meta");
    return v !== null && typeof v === "object" && !Array.isArray(v) ? v : null;
  }
  /** The retained output bytes: the last snapshot plus every chunk since, less what `maxRetainedBytes` dropped. */
  readonly output = new ByteLog();

  /** Whether the terminal currently offers `terminal/cancel`, so a display may show a cancel control. The store never sends one. */
  get canCancel(): boolean {
    const c = this.kept.member("capabilities");
    // Offered when present and not `null`, as in Rust and Python.
    return c !== null && typeof c === "object" && !Array.isArray(c) && Object.hasOwn(c, "cancel") && c["cancel"] !== null;
  }
  /** The tool calls whose current content references this terminal. */
  readonly toolCalls = new Set<ToolCallId>();
  /**
   * `true` when the store had evicted a terminal of this id (`maxTerminals`) and this one
   * started fresh on a later update: what came before is no longer kept.
   */
  restarted = false;
  /** The transcript, created when first needed. */
  private renderer: Transcript | null = null;
  /** How many bytes since the last snapshot the renderer has read. */
  private rendered = 0;
  /** The limits of every transcript this terminal creates. */
  private readonly transcriptLimits: TranscriptLimits;

  /** A terminal whose transcripts have `limits` (the store passes its `maxLineLength` and `maxTextLength`). */
  constructor(limits: TranscriptLimits = {}) {
    this.transcriptLimits = limits;
  }

  /** How many output bytes since the last snapshot are no longer retained because of `maxRetainedBytes`. */
  get droppedBytes(): number {
    return this.output.dropped;
  }

  /**
   * The safe transcript of every output byte since the last snapshot (docs/TRANSCRIPT.md).
   * Built on the first read, then only the bytes that arrived since the previous read are
   * rendered, so reading once per frame is cheap.
   */
  get transcript(): string {
    return this.catchUp().text;
  }

  /**
   * This terminal's `Transcript`, caught up with every output byte since the last snapshot,
   * without copying its text: a display that reads after every chunk reads only what is new
   * with `finishedLength`, `finishedSince(position)` and `currentLine`, and the limits'
   * counters (`wrappedLines`, `droppedLines`, `droppedChars`). It has the store's
   * `maxLineLength` and `maxTextLength`.
   *
   * The object belongs to the store: only read it (never `push` or `reset`). A replacement
   * snapshot (a `terminal_update` with `output`) starts a new transcript, so a display that
   * keeps a position starts over when this returns another object than last time.
   */
  readTranscript(): Transcript {
    return this.catchUp();
  }

  /** The tool calls whose current content references this terminal, sorted by code point. */
  sortedToolCalls(): ToolCallId[] {
    return [...this.toolCalls].sort(byCodePoint);
  }

  /**
   * This terminal as JSON, the view that `replay` vectors compare (docs/CLIENTS.md, "A store's
   * snapshot"): `command`, `cwd`, `output` (the retained bytes, base64), `exitStatus`
   * (`{exitCode, signal}` or `null`), `transcript` and `toolCallIds`; then `size` when known,
   * `capabilities` (`{cancel}`) when the Agent gave them, and `droppedBytes`, `wrappedLines`,
   * `droppedLines` with `droppedChars`, and `restarted` only when they are not zero or false.
   * For a debugger view or a test.
   */
  snapshot(): JsonObject {
    const e = this.exitStatus;
    const r = this.catchUp();
    const view: [string, Json][] = [
      ["command", this.command],
      ["cwd", this.cwd],
      ["output", encodeBase64(this.output.toBytes())],
      ["exitStatus", e === null ? null : { exitCode: e.exitCode ?? null, signal: e.signal ?? null }],
      ["transcript", r.text],
      ["toolCallIds", this.sortedToolCalls()],
    ];
    if (this.size !== null) view.push(["size", { cols: this.size.cols, rows: this.size.rows }]);
    if (this.capabilities !== null) view.push(["capabilities", { cancel: this.canCancel }]);
    if (this.droppedBytes > 0) view.push(["droppedBytes", this.droppedBytes]);
    if (r.wrappedLines > 0) view.push(["wrappedLines", r.wrappedLines]);
    if (r.droppedLines > 0) view.push(["droppedLines", r.droppedLines], ["droppedChars", r.droppedChars]);
    if (this.restarted) view.push(["restarted", true]);
    return objectOf(view);
  }

  private catchUp(): Transcript {
    let r = this.renderer;
    if (r === null) {
      r = new Transcript(this.transcriptLimits);
      this.renderer = r;
      this.rendered = this.output.dropped;
    }
    const end = this.output.dropped + this.output.length;
    if (this.rendered < end) {
      try {
        for (const c of this.output.chunksFrom(this.rendered - this.output.dropped)) r.push(c);
      } catch (e) {
        // The renderer failed part way: it restarts from the retained bytes next time.
        this.renderer = null;
        throw e;
      }
      this.rendered = end;
    }
    return r;
  }

  /** @internal */
  replaceOutput(bytes: Uint8Array, limit: number): void {
    if (bytes.length > limit) {
      // Every byte is read by the transcript before it goes.
      const r = new Transcript(this.transcriptLimits);
      r.push(bytes);
      this.output.replace(bytes, limit);
      this.renderer = r;
      this.rendered = bytes.length;
      return;
    }
    this.output.replace(bytes, limit);
    this.renderer = null;
    this.rendered = 0;
  }

  /** @internal Drops the first `n` retained bytes for the store's total limit: a transcript already built reads them first. */
  evictBytes(n: number): void {
    if (this.renderer !== null) this.catchUp();
    this.output.dropFront(n);
  }

  /** @internal */
  appendOutput(bytes: Uint8Array, limit: number): void {
    if (this.output.length + bytes.length > limit) {
      // Every byte is read by the transcript before it goes.
      const r = this.catchUp();
      try {
        r.push(bytes);
      } catch (e) {
        this.renderer = null;
        throw e;
      }
      this.rendered += bytes.length;
    }
    this.output.append(bytes, limit);
  }
}

/** The error result of a runtime failure (memory, string length) while applying an update. */
function failed(e: unknown): ApplyResult {
  const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return { ok: false, error: { kind: "out_of_range", path: "", message: `the store could not apply this update (${why}); lower the store's limits` } };
}

/** The fast path's data decoded, or `undefined` when it is not strict base64 (the generic path then reports it). */
function fastBytes(data: string): Uint8Array | undefined {
  try {
    return decodeBase64(data);
  } catch {
    return undefined;
  }
}

/** The outcome of applying parsed text: the warnings, or the error (nothing applied). */
export type ApplyResult = { ok: true; warnings: Problem[] } | { ok: false; error: Problem };

/**
 * Applies session updates and keeps every terminal's state, in first-seen order.
 *
 * A store holds one session: the first `session/update` notification binds it, and a
 * notification of another session is rejected (`session_mismatch`) without effect. Updates
 * applied without their notification (`apply`, `applyText`) are taken as the caller's session.
 */
export class TerminalStore {
  /** The limits in force. */
  readonly limits: Limits;
  /** What the limits made the store drop so far. */
  readonly counters: Counters = { terminalsRefused: 0, warningsDropped: 0, terminalsEvicted: 0, bytesEvicted: 0, eventsDropped: 0, membersDropped: 0 };
  /** Every terminal, in first-seen order (a terminal started again after an eviction counts as new). */
  private readonly states = new Map<TerminalId, TerminalState>();
  /** The exited and the live terminals, least recently updated first (the eviction order). */
  private readonly exited = new Map<TerminalId, TerminalState>();
  private readonly live = new Map<TerminalId, TerminalState>();
  /** The same, for the terminals that retain bytes (the total limit's victims). */
  private readonly exitedBytes = new Map<TerminalId, TerminalState>();
  private readonly liveBytes = new Map<TerminalId, TerminalState>();
  /** The terminals each tool call's current content references, each once. */
  private readonly links = new Map<ToolCallId, Set<TerminalState>>();
  /** Ids evicted lately (at most `maxTerminals`, at least 64), oldest first, to report a restart. */
  private readonly evicted = new Set<TerminalId>();
  /** Events not taken yet: `events[eventsHead..]`. */
  private events: StoreEvent[] = [];
  private eventsHead = 0;
  /** Bytes retained by all terminals. */
  private totalBytes_ = 0;
  private work_ = 0;
  private session: SessionId | null = null;
  /** The limits of every transcript the store creates. */
  private readonly transcriptLimits: TranscriptLimits;

  /**
   * An empty store; `limits` overrides some of `DEFAULT_LIMITS`. Throws a `RangeError` when a
   * limit is not a whole number from 0 up (or `Infinity`).
   */
  constructor(limits: Partial<Limits> = {}) {
    const all: Limits = { ...DEFAULT_LIMITS, ...limits };
    for (const [name, value] of Object.entries(all)) {
      if (typeof value !== "number" || !(value === Infinity || (Number.isInteger(value) && value >= 0))) {
        throw new RangeError(`the limit ${name} must be a whole number from 0 up, or Infinity; got ${String(value)}`);
      }
    }
    this.limits = Object.freeze(all);
    this.transcriptLimits = Object.freeze({ maxLineLength: this.limits.maxLineLength, maxTextLength: this.limits.maxTextLength });
  }

  /** The session the store is bound to, once a notification has been applied. */
  get sessionId(): SessionId | null {
    return this.session;
  }

  /** The state of `id`, if the store holds it. */
  terminal(id: string): TerminalState | undefined {
    return this.states.get(id as TerminalId);
  }

  /** Every terminal, in first-seen order (a terminal started again after an eviction counts as new). */
  terminals(): IterableIterator<[TerminalId, TerminalState]> {
    return this.states.entries();
  }

  /** Every terminal's `snapshot()`, by id in the store's order (what `terminals()` iterates). */
  snapshot(): JsonObject {
    return objectOf([...this.states].map(([id, t]) => [id, t.snapshot()] as const));
  }

  /**
   * The counters as JSON, as `replay` vectors compare them: `null` when all are zero; else
   * `terminalsRefused` and `warningsDropped`, and each of `terminalsEvicted`, `bytesEvicted`
   * `eventsDropped` and `membersDropped` above zero.
   */
  countersSnapshot(): JsonObject | null {
    const c = this.counters;
    if (Object.values(c).every((n) => n === 0)) return null;
    const out: [string, Json][] = [["terminalsRefused", c.terminalsRefused], ["warningsDropped", c.warningsDropped]];
    for (const k of ["terminalsEvicted", "bytesEvicted", "eventsDropped", "membersDropped"] as const) if (c[k] > 0) out.push([k, c[k]]);
    return objectOf(out);
  }

  /** The output bytes all terminals retain (`maxTotalBytes` bounds it). */
  get totalBytes(): number {
    return this.totalBytes_;
  }

  /**
   * What happened since the last call, oldest first: terminals evicted and terminals started
   * again after an eviction. A display calls it after applying updates, to say "output no longer
   * kept". The store keeps at most `maxTerminals` (at least 64) events; older ones are counted
   * in `counters.eventsDropped`.
   */
  takeEvents(): StoreEvent[] {
    const out = this.events.slice(this.eventsHead);
    this.events = [];
    this.eventsHead = 0;
    return out;
  }

  /**
   * @internal Elementary steps done so far (references visited, terminals and tool calls
   * touched, bytes copied or dropped, evictions): the work counter the tests read.
   */
  get work(): number {
    return this.work_;
  }

  private event(e: StoreEvent): void {
    if (this.events.length - this.eventsHead >= Math.max(this.limits.maxTerminals, 64)) {
      this.eventsHead++;
      this.counters.eventsDropped++;
      if (this.eventsHead > 1024 && this.eventsHead * 2 > this.events.length) {
        this.events = this.events.slice(this.eventsHead);
        this.eventsHead = 0;
      }
    }
    this.events.push(e);
  }

  /** The state of `id`, created when new (evicting a terminal when the store is full); `undefined` (counted) when `maxTerminals` is 0. */
  private entry(id: TerminalId): TerminalState | undefined {
    let t = this.states.get(id);
    if (t !== undefined) return t;
    if (this.limits.maxTerminals === 0) {
      this.counters.terminalsRefused++;
      return undefined;
    }
    // Known as evicted before this eviction can push it out of the memory of ids.
    const restarted = this.evicted.delete(id);
    while (this.states.size >= this.limits.maxTerminals && this.evictOne());
    t = new TerminalState(this.transcriptLimits);
    this.states.set(id, t);
    this.live.set(id, t);
    this.work_++;
    if (restarted) {
      t.restarted = true;
      this.event({ kind: "restarted", terminalId: id });
    }
    return t;
  }

  /**
   * Evicts the least recently updated exited terminal, else the least recently updated live
   * one: every trace of it goes at once (its references, its bytes).
   */
  private evictOne(): boolean {
    let from = this.exited;
    let next = from.entries().next();
    if (next.done === true) {
      from = this.live;
      next = from.entries().next();
    }
    if (next.done === true) return false;
    const [id, t] = next.value;
    from.delete(id);
    this.exitedBytes.delete(id);
    this.liveBytes.delete(id);
    this.states.delete(id);
    for (const call of t.toolCalls) {
      this.work_++;
      const set = this.links.get(call);
      if (set !== undefined) {
        set.delete(t);
        if (set.size === 0) this.links.delete(call);
      }
    }
    this.totalBytes_ -= t.output.length;
    this.counters.terminalsEvicted++;
    this.work_++;
    this.evicted.delete(id);
    this.evicted.add(id);
    if (this.evicted.size > Math.max(this.limits.maxTerminals, 64)) {
      const oldest = this.evicted.values().next();
      if (oldest.done !== true) this.evicted.delete(oldest.value);
    }
    this.event({ kind: "evicted", terminalId: id, exited: from === this.exited });
    return true;
  }

  /**
   * Runs `f` on terminal `t` as one update: it becomes the most recently updated, moves
   * between exited and live as its exit status says, and the total limit is applied after.
   */
  private update(id: TerminalId, t: TerminalState, f: () => void): void {
    const before = t.output.length;
    this.exited.delete(id);
    this.live.delete(id);
    this.exitedBytes.delete(id);
    this.liveBytes.delete(id);
    try {
      f();
    } finally {
      const done = t.exited;
      (done ? this.exited : this.live).set(id, t);
      if (t.output.length > 0) (done ? this.exitedBytes : this.liveBytes).set(id, t);
      this.totalBytes_ += t.output.length - before;
      this.work_++;
      this.enforceTotal();
    }
  }

  /** Drops the oldest bytes of the least recently updated exited terminals (then live ones) until the store is within `maxTotalBytes`. */
  private enforceTotal(): void {
    while (this.totalBytes_ > this.limits.maxTotalBytes) {
      let from = this.exitedBytes;
      let next = from.entries().next();
      if (next.done === true) {
        from = this.liveBytes;
        next = from.entries().next();
      }
      if (next.done === true) return;
      const [id, t] = next.value;
      const n = Math.min(t.output.length, this.totalBytes_ - this.limits.maxTotalBytes);
      t.evictBytes(n);
      this.totalBytes_ -= n;
      this.counters.bytesEvicted += n;
      this.work_++;
      if (t.output.length === 0) from.delete(id);
    }
  }

  /** Adds `terminal` to `toolCall`'s references unless it is there already. */
  private link(toolCall: ToolCallId, terminal: TerminalId): void {
    this.work_++;
    const t = this.entry(terminal);
    if (t === undefined || t.toolCalls.has(toolCall)) return;
    t.toolCalls.add(toolCall);
    const set = this.links.get(toolCall);
    if (set === undefined) this.links.set(toolCall, new Set([t]));
    else set.add(t);
  }

  private unlinkAll(toolCall: ToolCallId): void {
    for (const t of this.links.get(toolCall) ?? []) {
      this.work_++;
      t.toolCalls.delete(toolCall);
    }
    this.links.delete(toolCall);
  }

  private relink(toolCall: ToolCallId, content: readonly ToolCallContent[]): void {
    this.unlinkAll(toolCall);
    for (const c of content) {
      this.work_++;
      if (!isUnknownVariant(c) && c.type === "terminal") this.link(toolCall, c.terminalId);
    }
  }

  /** Applies one parsed update. Updates outside the terminal surface are ignored. What it evicted is reported by `takeEvents()`. */
  apply(update: SessionUpdate): void {
    if (isUnknownVariant(update)) return;
    const limit = this.limits.maxRetainedBytes;
    switch (update.sessionUpdate) {
      case "terminal_update": {
        const t = this.entry(update.terminalId);
        if (t === undefined) return;
        this.work_ += update.output?.data.length ?? 0;
        // Every member but the output changes as the session state's upsert changes it (the
        // package's x-state table): the store has no patch rule of its own.
        const { output, ...members } = update;
        const message = parseJson(serializeSessionUpdate(members));
        this.update(update.terminalId, t, () => {
          // The output first: it is the only step that allocates much, so a failure there
          // leaves the other members unchanged too.
          if (output === null) t.replaceOutput(new Uint8Array(0), limit);
          else if (output !== undefined) t.replaceOutput(output.data, limit);
          this.counters.membersDropped += sessionRules().upsertInto("SessionUpdate", message, "terminal", t.kept, this.limits.maxMembers);
        });
        break;
      }
      case "terminal_output_chunk":
        this.appendChunk(update.terminalId, update.data);
        break;
      case "tool_call_update":
        if (update.content === null) this.unlinkAll(update.toolCallId);
        else if (update.content !== undefined) this.relink(update.toolCallId, update.content);
        break;
      case "tool_call_content_chunk": {
        const c = update.content;
        if (!isUnknownVariant(c) && c.type === "terminal") this.link(update.toolCallId, c.terminalId);
        break;
      }
    }
  }

  /** Applies a `terminal_output_chunk`: the generic path (`apply`) and the fast one. */
  private appendChunk(id: TerminalId, bytes: Uint8Array): void {
    const t = this.entry(id);
    if (t === undefined) return;
    this.work_ += bytes.length;
    this.update(id, t, () => t.appendOutput(bytes, this.limits.maxRetainedBytes));
  }

  /** @internal Checks that every structure of the store agrees (for the fuzzers and tests): no terminal is ever half-evicted. Throws the first disagreement. */
  checkInvariants(): void {
    const fail = (why: string): never => {
      throw new Error(`store invariant: ${why}`);
    };
    if (this.exited.size + this.live.size !== this.states.size) fail(`${this.states.size} terminals, ${this.exited.size + this.live.size} in the eviction order`);
    if (this.limits.maxTerminals > 0 && this.states.size > this.limits.maxTerminals) fail(`${this.states.size} terminals past the limit`);
    let total = 0;
    for (const [id, t] of this.states) {
      const done = t.exited;
      if ((done ? this.exited : this.live).get(id) !== t) fail(`${id} is not in the eviction order`);
      if (((done ? this.exitedBytes : this.liveBytes).get(id) === t) !== t.output.length > 0) fail(`${id}: the byte order does not match its bytes`);
      if (this.evicted.has(id)) fail(`${id} is held and remembered as evicted`);
      for (const call of t.toolCalls) if (this.links.get(call)?.has(t) !== true) fail(`${id} names tool call ${call}, which does not reference it`);
      total += t.output.length;
    }
    const held = new Set(this.states.values());
    for (const [call, set] of this.links) {
      for (const t of set) if (!t.toolCalls.has(call) || !held.has(t)) fail(`tool call ${call} references a terminal the store does not hold (half-evicted)`);
    }
    if (this.exitedBytes.size + this.liveBytes.size > this.states.size || total !== this.totalBytes_) fail(`${this.totalBytes_} bytes counted, ${total} held`);
    if (total > this.limits.maxTotalBytes) fail(`${total} bytes past the limit`);
    if (this.evicted.size > Math.max(this.limits.maxTerminals, 64)) fail(`${this.evicted.size} evicted ids remembered`);
  }

  /** The parse options of the `apply*Text` entry points: the store's warning limit, applied while decoding. */
  private get parseOptions(): ParseOptions {
    return { maxWarnings: this.limits.maxWarnings };
  }

  /** Counts what the decoder dropped past `maxWarnings`; the warnings it kept are within the limit. */
  private keep(warnings: Problem[], dropped: number = 0): Problem[] {
    this.counters.warningsDropped += dropped;
    return warnings;
  }

  /** Runs `apply`; a runtime failure (memory, string length) becomes an error result. */
  private guarded(update: SessionUpdate, warnings: Problem[], dropped: number = 0): ApplyResult {
    try {
      this.apply(update);
    } catch (e) {
      return failed(e);
    }
    return { ok: true, warnings: this.keep(warnings, dropped) };
  }

  /** `guarded` for a plain chunk read by the fast path (it has no warnings). */
  private guardedChunk(id: string, bytes: Uint8Array): ApplyResult {
    try {
      this.appendChunk(id as TerminalId, bytes);
    } catch (e) {
      return failed(e);
    }
    return { ok: true, warnings: this.keep([]) };
  }

  /**
   * Parses one `SessionUpdate` (JSON text) and applies it. Never throws. A
   * `terminal_output_chunk` written as senders write it skips the generic decoder, with the
   * same result.
   */
  applyText(text: string): ApplyResult {
    const m = typeof text === "string" ? FAST_UPDATE.exec(text) : null;
    if (m !== null && text.length - 2 >= m[0].length && text.endsWith('"}')) {
      const bytes = fastBytes(text.slice(m[0].length, -2));
      if (bytes !== undefined) return this.guardedChunk(m[1] as string, bytes);
    }
    const r = parseSessionUpdate(text, this.parseOptions);
    if (!r.ok) return r;
    return this.guarded(r.value, r.warnings, r.warningsDropped);
  }

  /**
   * Parses one `session/update` notification's params (JSON text) and applies its update.
   * The first notification binds the store to its session; another session's gives
   * `session_mismatch` at `/sessionId`. Never throws. One `terminal_output_chunk` written as
   * senders write it (canonical member order, no whitespace, ids without escapes) skips the
   * generic decoder, with the same result.
   */
  applyNotificationText(text: string): ApplyResult {
    const m = typeof text === "string" ? FAST_NOTIFICATION.exec(text) : null;
    if (m !== null && text.length - 3 >= m[0].length && text.endsWith('"}}')) {
      const bytes = fastBytes(text.slice(m[0].length, -3));
      if (bytes !== undefined) {
        const mismatch = this.bind(m[1] as SessionId);
        if (mismatch !== undefined) return mismatch;
        return this.guardedChunk(m[2] as string, bytes);
      }
    }
    const r = parseUpdateSessionNotification(text, this.parseOptions);
    if (!r.ok) return r;
    return this.notification(r.value, r.warnings, r.warningsDropped);
  }

  /**
   * Applies one parsed `session/update` notification's update, keeping its session: the
   * first notification binds the store to its session; another session's gives
   * `session_mismatch` at `/sessionId` (nothing applied). Use it when an SDK already parsed
   * the notification (`parseUpdateSessionNotification(params)`): `apply(n.update)` alone
   * would not check the session. Never throws; the warnings are empty.
   */
  applyNotification(n: UpdateSessionNotification): ApplyResult {
    return this.notification(n, []);
  }

  /** Checks the notification's session, binding the store on the first, then applies its update. */
  private notification(n: UpdateSessionNotification, warnings: Problem[], dropped: number = 0): ApplyResult {
    const mismatch = this.bind(n.sessionId);
    if (mismatch !== undefined) return mismatch;
    return this.guarded(n.update, warnings, dropped);
  }

  /** Binds the store to `id`, or gives the `session_mismatch` error when it holds another. */
  private bind(id: SessionId): ApplyResult | undefined {
    if (this.session !== null && this.session !== id) {
      return {
        ok: false,
        error: {
          kind: "session_mismatch",
          path: "/sessionId",
          message: `this store holds session ${JSON.stringify(this.session)}, not ${JSON.stringify(id)}; use one store per session`,
        },
      };
    }
    this.session = id;
    return undefined;
  }

  /**
   * Applies updates in order, stopping at the first that fails to parse; everything
   * applied before it stays applied.
   */
  applyAll(texts: Iterable<string>): { ok: true; warnings: Problem[] } | { ok: false; index: number; error: Problem; warnings: Problem[] } {
    const warnings: Problem[] = [];
    let index = 0;
    for (const text of texts) {
      const r = this.applyText(text);
      if (!r.ok) return { ok: false, index, error: r.error, warnings };
      for (const w of r.warnings) warnings.push(w);
      index++;
    }
    return { ok: true, warnings };
  }
}
