// The browser Client: replays a recorded ACP session through the TypeScript binding's
// TerminalStore into xterm.js, with the safe transcript beside each terminal. Compiled by
// tsc with the DOM library only (no Node types), loaded as plain ES modules through the
// page's import map.
//
// A recording is JSON lines. The terminal Client's `--record` writes both directions,
// `{"from": "agent"|"client", "line": "<JSON-RPC text>"}`; a file of bare JSON-RPC
// lines is read as what the Agent sent. The protocol version is the one the Agent's
// `initialize` answer names (2 when there is none): v2 `session/update`s go to
// `applyNotificationText`, v1 ones to `ingestV1` (the `_meta` terminal convention).
//
// The terminals come from the store; the tool calls (title, status, the terminals they
// show) from the package's session state, the reducer generated from the schema's
// `x-state` (`sessionState("v2")`). v1 has no `x-state`: there the page keeps each tool
// call's members as last sent.
//
// Query parameters: `session` (a JSON-lines file next to the page, default
// `session.jsonl`), `delay` (milliseconds between messages, default 15; 0 replays at once).
//
// For tests the page publishes `window.acpReplay`: `done`, `error`, and per terminal its
// command, exit status, transcript and the rendered buffer's lines, and per tool call its
// title and status.

import { TerminalStore, ingestV1, safeDisplay, type Json } from "acp-terminal";
import { sessionState } from "acp-terminal/registry";
import { Terminal } from "@xterm/xterm";

interface TerminalReport {
  id: string;
  command: string | null;
  exitStatus: { exitCode?: number | null; signal?: string | null } | null;
  transcript: string;
  cols: number;
  rows: number;
  buffer: string[];
}

interface ToolCallReport {
  id: string;
  title: string | null;
  status: string | null;
  /** The terminals its content shows, in order. */
  terminals: string[];
}

interface ReplayReport {
  done: boolean;
  error: string | null;
  /** The protocol version of the recorded session. */
  version: number;
  messages: number;
  terminals: TerminalReport[];
  toolCalls: ToolCallReport[];
  /** The foreground colour of a cell: palette index (0-255), or -1 for the default. */
  cellColour(terminal: number, row: number, col: number): { char: string; fg: number } | null;
}

declare global {
  interface Window {
    acpReplay: ReplayReport;
  }
}

/** One terminal on the page: an xterm.js instance and its transcript panel. */
class View {
  readonly term: Terminal;
  readonly heading: HTMLElement;
  readonly transcript: HTMLPreElement;
  written = 0;

  constructor(readonly id: string, cols: number, rows: number) {
    const section = document.createElement("section");
    section.className = "terminal-view";
    this.heading = document.createElement("h2");
    const host = document.createElement("div");
    host.className = "xterm-host";
    const side = document.createElement("div");
    const label = document.createElement("div");
    label.className = "label";
    label.textContent = "Safe transcript";
    this.transcript = document.createElement("pre");
    this.transcript.className = "transcript";
    side.append(label, this.transcript);
    section.append(this.heading, host, side);
    document.getElementById("terminals")?.append(section);
    this.term = new Terminal({ cols, rows, convertEol: false, scrollback: 5000, disableStdin: true, fontSize: 13 });
    this.term.open(host);
  }

  write(bytes: Uint8Array): Promise<void> {
    return new Promise((resolve) => this.term.write(bytes, resolve));
  }

  lines(): string[] {
    const b = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < b.length; y++) out.push(b.getLine(y)?.translateToString(true) ?? "");
    while (out.length > 0 && out[out.length - 1] === "") out.pop();
    return out;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const report: ReplayReport = {
  done: false,
  error: null,
  version: 2,
  messages: 0,
  terminals: [],
  toolCalls: [],
  cellColour(terminal, row, col) {
    const view = [...views.values()][terminal];
    const cell = view?.term.buffer.active.getLine(row)?.getCell(col);
    if (!view || !cell) return null;
    return { char: cell.getChars(), fg: cell.isFgDefault() ? -1 : cell.getFgColor() };
  },
};
window.acpReplay = report;
const views = new Map<string, View>();
const status = document.getElementById("status");

/** What the page knows of the session's tool calls. */
class ToolCalls {
  /** v2: the session state; v1 (no `x-state`): each tool call's members as last sent. */
  /** The terminals' output is the store's to keep: the session state keeps none of it. */
  private readonly state = sessionState("v2", { maxBytes: 0 });
  private readonly v1 = new Map<string, Map<string, unknown>>();
  /** The tool call ids seen, first seen first (read without a snapshot of the whole state). */
  private readonly seen = new Set<string>();
  readonly list: HTMLUListElement;

  constructor(private readonly version: () => number) {
    let list = document.getElementById("tool-calls");
    if (!(list instanceof HTMLUListElement)) {
      list = document.createElement("ul");
      list.id = "tool-calls";
      document.getElementById("terminals")?.before(list);
    }
    this.list = list as HTMLUListElement;
    this.list.textContent = "";
  }

  /** Applies one message the Agent sent (a `SessionUpdate`, or a `RequestPermissionRequest`'s params); a problem as its message. */
  apply(name: "SessionUpdate" | "RequestPermissionRequest", message: Record<string, unknown>): string | null {
    if (this.version() === 1) {
      const id = message.toolCallId;
      if (name === "SessionUpdate" && typeof id === "string" && typeof message.sessionUpdate === "string" && message.sessionUpdate.startsWith("tool_call")) {
        const held = this.v1.get(id) ?? new Map<string, unknown>();
        for (const [k, v] of Object.entries(message)) if (k !== "sessionUpdate") held.set(k, v);
        this.v1.set(id, held);
      }
      return null;
    }
    if (this.state === undefined) return "the package's v2 schema has no x-state";
    const r = this.state.apply(name, JSON.stringify(message));
    if (!r.ok) return `${r.error.kind} at ${r.error.path}: ${r.error.message}`;
    const subject = message.subject;
    const id = name === "SessionUpdate" ? message.toolCallId : isObject(subject) && isObject(subject.toolCall) ? subject.toolCall.toolCallId : undefined;
    if (typeof id === "string" && this.state.get("toolCall", id) !== undefined) this.seen.add(id);
    return null;
  }

  /** One tool call's members: its session-state target (v2), or what was sent (v1). */
  get(id: string): Record<string, unknown> {
    if (this.version() === 1) return Object.fromEntries(this.v1.get(id) ?? []);
    const v: Json | undefined = this.state?.get("toolCall", id);
    return isObject(v) ? v : {};
  }

  ids(): string[] {
    if (this.version() === 1) return [...this.v1.keys()];
    // The ones the state dropped (its limits) go from the list too.
    for (const id of this.seen) if (this.state?.get("toolCall", id) === undefined) this.seen.delete(id);
    return [...this.seen];
  }

  /** The command a tool call shows: its `rawInput.command` (the v1 `_meta` terminal
   * convention does not carry the command; many v1 Agents put it there). */
  commandOf(toolCalls: readonly string[]): string | null {
    for (const c of toolCalls) {
      const raw = this.get(c).rawInput;
      if (isObject(raw) && typeof raw.command === "string") return raw.command;
    }
    return null;
  }

  describe(): void {
    report.toolCalls = [];
    this.list.textContent = "";
    for (const id of this.ids()) {
      const c = this.get(id);
      const title = typeof c.title === "string" ? c.title : null;
      const status = typeof c.status === "string" ? c.status : null;
      const content = Array.isArray(c.content) ? c.content : [];
      const terminals = content.flatMap((x) => (isObject(x) && x.type === "terminal" && typeof x.terminalId === "string" ? [x.terminalId] : []));
      report.toolCalls.push({ id, title, status, terminals });
      const item = document.createElement("li");
      item.className = `tool-call status-${status ?? "unknown"}`;
      item.textContent = `${safeDisplay(id)}: ${safeDisplay(title ?? "tool call")} — ${safeDisplay(status ?? "no status")}`; // one safe line
      this.list.append(item);
    }
  }
}

function describe(store: TerminalStore, calls: ToolCalls): void {
  report.terminals = [];
  for (const [id, t] of store.terminals()) {
    const view = views.get(id);
    if (!view) continue;
    const e = t.exitStatus;
    const exit = e === null ? "running" : e.signal ? `killed by ${safeDisplay(e.signal)}` : `exit code ${e.exitCode ?? "?"}`;
    const command = t.command ?? calls.commandOf(t.sortedToolCalls());
    view.heading.textContent = `${safeDisplay(id)}: $ ${command === null ? "(unknown command)" : safeDisplay(command)} — ${exit}`; // one safe line
    view.transcript.textContent = t.transcript;
    report.terminals.push({
      id,
      command,
      exitStatus: e === null ? null : { exitCode: e.exitCode ?? null, signal: e.signal ?? null },
      transcript: t.transcript,
      cols: view.term.cols,
      rows: view.term.rows,
      buffer: view.lines(),
    });
  }
  calls.describe();
}

/** One recorded JSON-RPC message and who sent it. */
interface Recorded {
  from: "agent" | "client";
  message: unknown;
  line: number;
}

function parseRecording(text: string): Recorded[] {
  const out: Recorded[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${index + 1} is not JSON`);
    }
    if (isObject(value) && (value.from === "agent" || value.from === "client") && typeof value.line === "string") {
      let message: unknown;
      try {
        message = JSON.parse(value.line);
      } catch {
        throw new Error(`line ${index + 1}: the recorded message is not JSON`);
      }
      out.push({ from: value.from, message, line: index + 1 });
    } else {
      out.push({ from: "agent", message: value, line: index + 1 }); // a recording of the Agent's lines only
    }
  }
  return out;
}

/** Applies every `session/update` the Agent sent, mirroring each terminal's bytes into
 * its xterm: chunks are appended, a replacement snapshot resets the emulator first. */
async function replay(text: string, delay: number): Promise<void> {
  const store = new TerminalStore();
  report.version = 2;
  const calls = new ToolCalls(() => report.version);
  for (const { from, message, line } of parseRecording(text)) {
    if (from !== "agent" || !isObject(message)) continue;
    const result = message.result;
    if (isObject(result) && typeof result.protocolVersion === "number" && !("method" in message)) report.version = result.protocolVersion;
    if (message.method === "session/request_permission" && "id" in message && isObject(message.params)) {
      const problem = calls.apply("RequestPermissionRequest", message.params); // its tool call, if it names one
      if (problem !== null) throw new Error(`line ${line}: the session state: ${problem}`);
      continue;
    }
    if (message.method !== "session/update" || "id" in message) continue; // other requests and answers
    const params = message.params;
    const update = isObject(params) && isObject(params.update) ? params.update : {};
    const r = report.version === 1 ? ingestV1(store, JSON.stringify(update)) : store.applyNotificationText(JSON.stringify(params));
    if (!r.ok) throw new Error(`line ${line}: ${r.error.kind} at ${r.error.path}: ${r.error.message}`);
    const problem = calls.apply("SessionUpdate", update);
    if (problem !== null) throw new Error(`line ${line}: the session state: ${problem}`);
    report.messages++;
    for (const [id, state] of store.terminals()) {
      let view = views.get(id);
      if (!view) {
        view = new View(id, state.size?.cols ?? 80, state.size?.rows ?? 24);
        views.set(id, view);
      }
      const bytes = state.output.toBytes();
      if (update.sessionUpdate === "terminal_update" && update.terminalId === id && "output" in update) {
        view.term.reset(); // a snapshot replaces everything shown so far
        view.written = 0;
      }
      if (bytes.length > view.written) {
        await view.write(bytes.subarray(view.written));
        view.written = bytes.length;
      }
    }
    describe(store, calls);
    if (delay > 0) await sleep(delay);
  }
  describe(store, calls);
}

async function main(): Promise<void> {
  const q = new URLSearchParams(location.search);
  const session = q.get("session") ?? "session.jsonl";
  const delay = Number(q.get("delay") ?? "15");
  const file = document.getElementById("file");
  if (file instanceof HTMLInputElement) {
    file.addEventListener("change", () => {
      const f = file.files?.[0];
      if (!f) return;
      for (const v of views.values()) v.term.dispose();
      views.clear();
      const host = document.getElementById("terminals");
      if (host) host.textContent = "";
      void f.text().then((t) => run(f.name, () => replay(t, delay)));
    });
  }
  const res = await fetch(session);
  if (!res.ok) throw new Error(`cannot load ${session}: HTTP ${res.status}`);
  const text = await res.text();
  await run(session, () => replay(text, Number.isFinite(delay) ? delay : 0));
}

async function run(name: string, f: () => Promise<void>): Promise<void> {
  report.done = false;
  if (status) status.textContent = `replaying ${name}…`;
  try {
    await f();
    if (status) status.textContent = `${name}: ${report.messages} updates applied`;
  } catch (e) {
    report.error = e instanceof Error ? e.message : String(e);
    if (status) {
      status.textContent = `${name}: ${report.error}`;
      status.className = "error";
    }
  }
  report.done = true;
}

main().catch((e: unknown) => {
  report.error = e instanceof Error ? e.message : String(e);
  report.done = true;
  if (status) {
    status.textContent = report.error;
    status.className = "error";
  }
});
