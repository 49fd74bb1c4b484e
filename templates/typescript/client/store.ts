// The terminal store: applies session updates of the display-only terminal surface (upserts,
// replacement snapshots, appended chunks, either-order arrival) with a safe transcript per terminal.

import type { Problem } from "./runtime/errors.js";
import type { JsonObject } from "./runtime/json.js";
import { isUnknownVariant } from "./runtime/model.js";
import { Transcript } from "./runtime/transcript.js";
import {
  type AbsolutePath,
  type SessionUpdate,
  type TerminalExitStatus,
  type TerminalId,
  type ToolCallContent,
  type ToolCallId,
  parseSessionUpdate,
  parseUpdateSessionNotification,
} from "./v2.js";

const BLOCK = 64 * 1024;

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

/**
 * Output bytes kept as a list of blocks: appending never copies what is stored, and at
 * most one partly filled block is spare capacity.
 */
export class ByteLog {
  private blocks: Uint8Array[] = [];
  private fill = 0;
  private length_ = 0;

  /** Replaces everything with `bytes` (kept without a copy). */
  replace(bytes: Uint8Array): void {
    this.blocks = bytes.length > 0 ? [bytes] : [];
    this.fill = bytes.length;
    this.length_ = bytes.length;
  }

  /** Appends `bytes`. */
  append(bytes: Uint8Array): void {
    this.length_ += bytes.length;
    let offset = 0;
    while (offset < bytes.length) {
      let last = this.blocks[this.blocks.length - 1];
      if (last === undefined || this.fill === last.length) {
        last = new Uint8Array(Math.max(BLOCK, Math.min(bytes.length - offset, 16 * BLOCK)));
        this.blocks.push(last);
        this.fill = 0;
      }
      const n = Math.min(bytes.length - offset, last.length - this.fill);
      last.set(bytes.subarray(offset, offset + n), this.fill);
      this.fill += n;
      offset += n;
    }
  }

  /** How many bytes are retained. */
  get length(): number {
    return this.length_;
  }

  /** The retained bytes, block by block. */
  *chunks(): IterableIterator<Uint8Array> {
    const last = this.blocks.length - 1;
    for (let i = 0; i <= last; i++) {
      const b = this.blocks[i] as Uint8Array;
      yield i === last ? b.subarray(0, this.fill) : b;
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

  /** The memory the blocks hold, spare capacity included. */
  get capacity(): number {
    return this.blocks.reduce((n, b) => n + b.length, 0);
  }
}

/** What the store knows about one terminal. */
export class TerminalState {
  /** The command line, when known (`null`: unknown or cleared). */
  command: string | null = null;
  /** The absolute working directory, when known. */
  cwd: AbsolutePath | null = null;
  /** The exit status; not `null` means the process exited. */
  exitStatus: TerminalExitStatus | null = null;
  /** Terminal-scoped extension data, as last patched. */
  meta: JsonObject | null = null;
  /** Every retained output byte: the last snapshot plus every chunk since. */
  readonly output = new ByteLog();
  /** The tool calls whose current content references this terminal. */
  readonly toolCalls = new Set<ToolCallId>();
  private readonly renderer = new Transcript();

  /** The safe transcript of the retained output (docs/TRANSCRIPT.md). */
  get transcript(): string {
    return this.renderer.text;
  }

  /** The tool calls whose current content references this terminal, sorted by code point. */
  sortedToolCalls(): ToolCallId[] {
    return [...this.toolCalls].sort(byCodePoint);
  }

  /** @internal */
  replaceOutput(bytes: Uint8Array): void {
    this.renderer.reset();
    this.renderer.push(bytes);
    this.output.replace(bytes);
  }

  /** @internal */
  appendOutput(bytes: Uint8Array): void {
    this.renderer.push(bytes);
    this.output.append(bytes);
  }
}

/** The outcome of applying parsed text: the warnings, or the error (nothing applied). */
export type ApplyResult = { ok: true; warnings: Problem[] } | { ok: false; error: Problem };

/** Applies session updates and keeps every terminal's state, in first-seen order. */
export class TerminalStore {
  private readonly states = new Map<TerminalId, TerminalState>();
  private readonly links = new Map<ToolCallId, TerminalId[]>();

  /** The state of `id`, if the store has seen it. */
  terminal(id: string): TerminalState | undefined {
    return this.states.get(id as TerminalId);
  }

  /** Every terminal, in first-seen order. */
  terminals(): IterableIterator<[TerminalId, TerminalState]> {
    return this.states.entries();
  }

  private entry(id: TerminalId): TerminalState {
    let t = this.states.get(id);
    if (t === undefined) {
      t = new TerminalState();
      this.states.set(id, t);
    }
    return t;
  }

  private link(toolCall: ToolCallId, terminals: TerminalId[]): void {
    for (const t of this.links.get(toolCall) ?? []) this.entry(t).toolCalls.delete(toolCall);
    this.links.delete(toolCall);
    for (const t of terminals) this.entry(t).toolCalls.add(toolCall);
    if (terminals.length > 0) this.links.set(toolCall, terminals);
  }

  private static referenced(content: readonly ToolCallContent[]): TerminalId[] {
    const out: TerminalId[] = [];
    for (const c of content) {
      if (!isUnknownVariant(c) && c.type === "terminal" && !out.includes(c.terminalId)) out.push(c.terminalId);
    }
    return out;
  }

  /** Applies one parsed update. Updates outside the terminal surface are ignored. */
  apply(update: SessionUpdate): void {
    if (isUnknownVariant(update)) return;
    switch (update.sessionUpdate) {
      case "terminal_update": {
        const t = this.entry(update.terminalId);
        if (update.command !== undefined) t.command = update.command;
        if (update.cwd !== undefined) t.cwd = update.cwd;
        if (update.exitStatus !== undefined) t.exitStatus = update.exitStatus;
        if (update._meta !== undefined) t.meta = update._meta;
        if (update.output === null) t.replaceOutput(new Uint8Array(0));
        else if (update.output !== undefined) t.replaceOutput(update.output.data);
        break;
      }
      case "terminal_output_chunk":
        this.entry(update.terminalId).appendOutput(update.data);
        break;
      case "tool_call_update":
        if (update.content === null) this.link(update.toolCallId, []);
        else if (update.content !== undefined) this.link(update.toolCallId, TerminalStore.referenced(update.content));
        break;
      case "tool_call_content_chunk": {
        const c = update.content;
        if (!isUnknownVariant(c) && c.type === "terminal") {
          const current = [...(this.links.get(update.toolCallId) ?? [])];
          if (!current.includes(c.terminalId)) current.push(c.terminalId);
          this.link(update.toolCallId, current);
        }
        break;
      }
    }
  }

  /** Parses one `SessionUpdate` (JSON text) and applies it. */
  applyText(text: string): ApplyResult {
    const r = parseSessionUpdate(text);
    if (!r.ok) return r;
    this.apply(r.value);
    return { ok: true, warnings: r.warnings };
  }

  /** Parses one `session/update` notification's params (JSON text) and applies its update. */
  applyNotificationText(text: string): ApplyResult {
    const r = parseUpdateSessionNotification(text);
    if (!r.ok) return r;
    this.apply(r.value.update);
    return { ok: true, warnings: r.warnings };
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
      warnings.push(...r.warnings);
      index++;
    }
    return { ok: true, warnings };
  }
}
