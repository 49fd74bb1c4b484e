// The official TypeScript SDK (@agentclientprotocol/sdk 2.4.0) drives the example Agent
// (examples/agent, the real binary over stdio) as a Client: at v1 through the root entry
// (the stable v1 `client()` app: 2.4.0 removed `ClientSideConnection`, the app is its
// replacement), and at v2 through `client()` / `ClientApp` of `experimental/v2`. The SDK
// parses every message; its session-update callback feeds our TypeScript `TerminalStore`
// (v1: `ingestV1`, the `_meta` convention; v2: the parsed `UpdateSessionNotification`),
// and the transcript, exit status, stop reason and refusal path are checked.
//
//   ACP_EXAMPLE_AGENT=target/agent/debug/acp-example-agent node --test dist/tests/interop/

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { after, test } from "node:test";
import * as v1 from "@agentclientprotocol/sdk";
import * as v2sdk from "@agentclientprotocol/sdk/experimental/v2";
import { TerminalStore, ingestV1, type Problem } from "../../generated/typescript/src/index.js";
import * as v2 from "../../generated/typescript/src/v2.js";

const AGENT = process.env["ACP_EXAMPLE_AGENT"] ?? "";
const CWD = mkdtempSync(join(tmpdir(), "acp-interop-sdk-"));
after(() => rmSync(CWD, { recursive: true, force: true }));

/** Prints what the SDK exchanged with the Agent (the interop report quotes it). */
const VERBOSE = process.env["ACP_INTEROP_VERBOSE"] === "1";

/** The Agent as a child process, its stdio as an SDK byte stream pair. */
function start(args: string[] = []): { output: WritableStream<Uint8Array>; input: ReadableStream<Uint8Array>; done: Promise<number | null> } {
  assert.ok(AGENT !== "" && existsSync(AGENT), `ACP_EXAMPLE_AGENT must name the built example Agent (got ${JSON.stringify(AGENT)})`);
  const child = spawn(AGENT, args, { stdio: ["pipe", "pipe", "inherit"] });
  const done = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    output: Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    input: Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    done,
  };
}

type Answer = "allow" | "reject" | "cancelled";

function outcome(answer: Answer, options: readonly { optionId: string; kind: string }[]) {
  const pick = (kind: string) => options.find((o) => o.kind === kind)?.optionId;
  const id = answer === "allow" ? pick("allow_once") : answer === "reject" ? pick("reject_once") : undefined;
  return id === undefined ? { outcome: { outcome: "cancelled" as const } } : { outcome: { outcome: "selected" as const, optionId: id } };
}

/** The text of a tool call's `content` items (`{type: "content", content: {type: "text"}}`). */
function textOf(content: unknown[]): string {
  return content
    .map((c) => {
      const inner: unknown = typeof c === "object" && c !== null && "content" in c ? c.content : null;
      return typeof inner === "object" && inner !== null && "text" in inner && typeof inner.text === "string" ? inner.text : "";
    })
    .join("");
}

interface Session {
  store: TerminalStore;
  problems: Problem[];
  stopReason: string;
  /** The text content of each tool call, as last sent. */
  texts: Map<string, string>;
  /** The permission request as the SDK parsed it. */
  permission: unknown;
}

/** v1 through the SDK's stable root entry. */
async function runV1(prompt: string, answer: Answer, meta: boolean, cancelOn?: string): Promise<Session> {
  const store = new TerminalStore();
  const problems: Problem[] = [];
  const texts = new Map<string, string>();
  let permission: unknown = null;
  let cancel: (() => void) | null = null;
  const agent = start();
  const stopReason = await v1
    .client({ name: "acp-terminal-interop-v1" })
    .onRequest(v1.methods.client.session.requestPermission, ({ params }) => {
      permission = params;
      return outcome(answer, params.options);
    })
    .onNotification(v1.methods.client.session.update, ({ params }) => {
      if (VERBOSE) console.log(`v1 session/update ${JSON.stringify(params.update)}`);
      const r = ingestV1(store, JSON.stringify(params.update));
      if (!r.ok) problems.push(r.error);
      else problems.push(...r.warnings);
      const u: Record<string, unknown> = { ...params.update };
      if ((u["sessionUpdate"] === "tool_call" || u["sessionUpdate"] === "tool_call_update") && Array.isArray(u["content"])) texts.set(String(u["toolCallId"]), textOf(u["content"]));
      if (cancelOn !== undefined && cancel && [...store.terminals()].some(([, t]) => t.transcript.includes(cancelOn))) {
        cancel();
        cancel = null;
      }
    })
    .connectWith(v1.ndJsonStream(agent.output, agent.input), async (ctx) => {
      const init = await ctx.request(v1.methods.agent.initialize, {
        protocolVersion: 1,
        clientInfo: { name: "acp-terminal-interop-v1", version: "0.0.0" },
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, ...(meta ? { _meta: { terminal_output: true } } : {}) },
      });
      assert.equal(init.protocolVersion, 1);
      const session = await ctx.request(v1.methods.agent.session.new, { cwd: CWD, mcpServers: [] });
      cancel = () => void ctx.notify(v1.methods.agent.session.cancel, { sessionId: session.sessionId });
      const response = await ctx.request(v1.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: "text", text: prompt }] });
      return response.stopReason;
    });
  await agent.output.close().catch(() => undefined);
  assert.equal(await agent.done, 0, "the Agent exits cleanly when the Client closes");
  return { store, problems, stopReason, texts, permission };
}

/** v2 through the SDK's `experimental/v2` entry. */
async function runV2(prompt: string, answer: Answer): Promise<Session & { messageId: string }> {
  const store = new TerminalStore();
  const problems: Problem[] = [];
  const texts = new Map<string, string>();
  let permission: unknown = null;
  let running = false;
  let ended: (reason: string) => void = () => undefined;
  const idle = new Promise<string>((resolve) => (ended = resolve));
  const agent = start();
  const [messageId, stopReason] = await v2sdk
    .client({ name: "acp-terminal-interop-v2" })
    .onRequest(v2sdk.methods.client.session.requestPermission, ({ params }) => {
      permission = params;
      return outcome(answer, params.options);
    })
    .onNotification(v2sdk.methods.client.session.update, ({ params }) => {
      if (VERBOSE) console.log(`v2 session/update ${JSON.stringify(params.update)}`);
      // `params` is the SDK's parsed `UpdateSessionNotification`: our parser reads it as it is.
      const r = v2.parseUpdateSessionNotification(params);
      if (!r.ok) {
        problems.push(r.error);
        return;
      }
      problems.push(...r.warnings);
      store.apply(r.value.update);
      const u: Record<string, unknown> = { ...params.update };
      if (u["sessionUpdate"] === "state_update") {
        if (u["state"] === "running" || u["state"] === "requires_action") running = true;
        if (u["state"] === "idle" && running) ended(String(u["stopReason"] ?? ""));
      }
      if (u["sessionUpdate"] === "tool_call_update" && Array.isArray(u["content"])) texts.set(String(u["toolCallId"]), textOf(u["content"]));
    })
    .connectWith(v2sdk.ndJsonStream(agent.output, agent.input), async (ctx) => {
      const init = await ctx.request(v2sdk.methods.agent.initialize, { protocolVersion: 2, info: { name: "acp-terminal-interop-v2", version: "0.0.0" } });
      assert.equal(init.protocolVersion, 2);
      const session = await ctx.request(v2sdk.methods.agent.session.new, { cwd: CWD });
      const response = await ctx.request(v2sdk.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: "text", text: prompt }] });
      return [response.messageId, await idle] as const;
    });
  await agent.output.close().catch(() => undefined);
  assert.equal(await agent.done, 0, "the Agent exits cleanly when the Client closes");
  return { store, problems, stopReason, texts, permission, messageId };
}

const COMMAND = String.raw`printf 'hello \033[32msdk\033[0m\n'; printf 'bad \377 byte\n'; exit 3`;
const TRANSCRIPT = "hello sdk\nbad \ufffd byte\n";

function only(store: TerminalStore) {
  const all = [...store.terminals()];
  assert.equal(all.length, 1, "one terminal");
  const [id, t] = all[0] ?? assert.fail("no terminal");
  return { id, t };
}

test("v1 with the _meta convention: the SDK's updates, through ingestV1, give the transcript and the exit status", async () => {
  const s = await runV1(COMMAND, "allow", true);
  assert.deepEqual(s.problems, []);
  assert.equal(s.stopReason, "end_turn");
  const { t } = only(s.store);
  assert.equal(t.transcript, TRANSCRIPT);
  assert.deepEqual(t.exitStatus, { exitCode: 3 });
  assert.equal(t.cwd, CWD);
  assert.ok([...s.texts.values()].some((x) => x.includes("hello sdk") && x.endsWith("[exit code 3]")), "the text content carries the capped transcript too");
  const p = s.permission as { toolCall?: { toolCallId?: string; rawInput?: { command?: string } } };
  assert.equal(p.toolCall?.rawInput?.command, COMMAND, "v1 asks with the toolCall form");
});

test("v1 without the convention: text content only, and nothing for the store", async () => {
  const s = await runV1(COMMAND, "allow", false);
  assert.equal(s.stopReason, "end_turn");
  assert.equal([...s.store.terminals()].length, 0, "no _meta convention when the Client does not advertise it");
  const text = [...s.texts.values()].find((x) => x.includes("hello sdk"));
  assert.equal(text, `$ ${COMMAND}\n${TRANSCRIPT}[exit code 3]`);
});

test("v1 refusal: the command does not run", async () => {
  const marker = join(CWD, "v1-refused");
  const s = await runV1(`touch ${marker}`, "reject", true);
  assert.equal(existsSync(marker), false, "the refused command did not run");
  assert.equal(s.stopReason, "end_turn");
  assert.equal([...s.store.terminals()].length, 0);
  assert.ok([...s.texts.values()].some((x) => x.startsWith("Permission refused (the user chose \"reject\")")));
});

test("v1 cancel: session/cancel ends the command and the prompt answers cancelled", async () => {
  const s = await runV1("echo ready; sleep 600", "allow", true, "ready");
  assert.equal(s.stopReason, "cancelled");
  assert.deepEqual(only(s.store).t.exitStatus, { signal: "SIGTERM" });
});

test("v2: the SDK's parsed updates go to the store; the stop reason ends the turn in a state update", async () => {
  const s = await runV2(COMMAND, "allow");
  assert.deepEqual(s.problems, []);
  assert.equal(s.stopReason, "end_turn");
  assert.match(s.messageId, /^msg_/, "the prompt's response acknowledges the inserted user message");
  const { id, t } = only(s.store);
  assert.equal(t.command, COMMAND);
  assert.equal(t.cwd, CWD);
  assert.deepEqual(t.size, { cols: 80, rows: 24 });
  assert.equal(t.transcript, TRANSCRIPT);
  assert.deepEqual(t.exitStatus, { exitCode: 3 });
  const p = s.permission as { subject?: { type?: string; command?: string; terminalId?: string } };
  assert.deepEqual([p.subject?.type, p.subject?.command, p.subject?.terminalId], ["command", COMMAND, id], "v2 asks with a command subject");
});

test("v2 refusal: the command does not run", async () => {
  const marker = join(CWD, "v2-refused");
  const s = await runV2(`touch ${marker}`, "reject");
  assert.equal(existsSync(marker), false, "the refused command did not run");
  assert.equal(s.stopReason, "end_turn");
  assert.equal([...s.store.terminals()].length, 0);
  assert.ok([...s.texts.values()].some((x) => x.startsWith("Permission refused (the user chose \"reject\")")));
  const c = await runV2(`touch ${marker}`, "cancelled");
  assert.equal(existsSync(marker), false);
  assert.equal(c.stopReason, "cancelled");
});

// v2 `session/cancel` is not run here: the stable v2 `ClientContext` of SDK 2.4.0 has no
// way to send a notification (the v2 cancel is checked with the terminal Client, in
// e2e.rs, and in examples/agent/tests/protocol.rs).
