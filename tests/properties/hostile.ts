// The hostile corpus (tests/hostile/corpus.json): its entries expanded at size n, run through the
// transcript or the store, and the work they cost counted (hostile.test.ts) or timed
// (hostile_clock.ts, run by `cargo xtask fuzz` only).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Transcript } from "../../generated/typescript/src/transcript.js";
import { TerminalStore } from "../../generated/typescript/src/store.js";
import { sessionState } from "../../generated/typescript/src/registry.js";

interface Piece {
  text: string;
  times: number | "n";
  separator?: string;
}

export interface Entry {
  name: string;
  target: "transcript" | "store" | "state";
  n: number;
  chunk?: number;
  readEachChunk?: boolean;
  parts?: Piece[];
  lines?: { pieces: Piece[]; times: number | "n" }[];
  /** A `state` entry's limits (`"n"` as the size). */
  limits?: Record<string, number | "n">;
}

const corpusPath = fileURLToPath(new URL("../../../../hostile/corpus.json", import.meta.url));
export const corpus = JSON.parse(readFileSync(corpusPath, "utf8")) as { maxRatio: number; maxWorkRatio: number; entries: Entry[] };

const count = (t: number | "n", n: number): number => (t === "n" ? n : t);

function piece(p: Piece, n: number): string {
  const out: string[] = [];
  const times = count(p.times, n);
  for (let i = 0; i < times; i++) out.push(p.text.includes("{i}") ? p.text.replaceAll("{i}", String(i)) : p.text);
  return out.join(p.separator ?? "");
}

export type Input =
  | { kind: "bytes"; data: Uint8Array; chunk: number; readEach: boolean }
  | { kind: "lines"; lines: string[] }
  | { kind: "state"; lines: string[]; limits: Record<string, number> };

/** Expands entry `e` at size `n`. */
export function expand(e: Entry, n: number): Input {
  if (e.target === "transcript") {
    const text = (e.parts ?? []).map((p) => piece(p, n)).join("");
    return { kind: "bytes", data: new TextEncoder().encode(text), chunk: Math.max(1, e.chunk ?? 4096), readEach: e.readEachChunk ?? false };
  }
  const lines: string[] = [];
  for (const l of e.lines ?? []) {
    const text = l.pieces.map((p) => piece(p, n)).join("");
    const times = count(l.times, n);
    for (let i = 0; i < times; i++) lines.push(text.includes("{line}") ? text.replaceAll("{line}", String(i)) : text);
  }
  if (e.target === "state") {
    const limits: Record<string, number> = {};
    for (const [k, v] of Object.entries(e.limits ?? {})) limits[k] = count(v, n);
    return { kind: "state", lines, limits };
  }
  return { kind: "lines", lines };
}

/** The input's size in bytes (UTF-16 units for lines: what the decoder reads). */
export function size(input: Input): number {
  return input.kind === "bytes" ? input.data.length : input.lines.reduce((n, l) => n + l.length, 0);
}

/**
 * Runs `input` and returns the work it cost: for bytes, the transcript's work counter plus the
 * length of everything read; for lines, the text decoded, the store's work counter, and every
 * transcript's work and text. Checks that the store still works after the input and that its
 * structures agree.
 */
export function run(input: Input): number {
  if (input.kind === "bytes") {
    const t = new Transcript();
    let shown = 0;
    let read = 0;
    for (let at = 0; at < input.data.length; at += input.chunk) {
      t.push(input.data.subarray(at, at + input.chunk));
      if (input.readEach) {
        // What a display does after every chunk: read only what is new.
        read += t.finishedSince(shown).length;
        shown = t.finishedLength;
        read += t.currentLine.length;
      }
    }
    read += t.text.length;
    return t.work + read;
  }
  if (input.kind === "state") {
    const state = sessionState("v2", input.limits);
    assert.ok(state !== undefined, "the v2 schema has x-state");
    let decoded = 0;
    for (const l of input.lines) {
      decoded += l.length;
      state.apply("SessionUpdate", l);
    }
    // The state still takes a new target afterwards, and its targets still decode.
    assert.ok(state.apply("SessionUpdate", '{"sessionUpdate":"terminal_output_chunk","terminalId":"after","data":"b2s="}').ok);
    assert.ok(state.get("terminal", "after") !== undefined);
    state.checkInvariants();
    return decoded + state.work + JSON.stringify(state.snapshot()).length;
  }
  const store = new TerminalStore();
  let decoded = 0;
  for (const l of input.lines) {
    decoded += l.length;
    store.applyText(l);
  }
  const after = store.applyText('{"sessionUpdate":"terminal_output_chunk","terminalId":"after","data":"b2s="}');
  assert.ok(after.ok, "the store refused a valid update after the hostile input");
  assert.deepEqual(store.terminal("after")?.output.toBytes(), new TextEncoder().encode("ok"));
  store.checkInvariants();
  let work = decoded + store.work;
  for (const [, t] of store.terminals()) {
    const r = t.readTranscript();
    work += r.work + r.text.length;
  }
  return work;
}
