// The official TypeScript SDK, in process: an `@agentclientprotocol/sdk` (experimental v2) agent sends
// terminal updates over an ndJSON stream, the SDK client hands each `session/update` to our parser
// as the plain value it parsed, and our store applies it. No casts anywhere.

import assert from "node:assert/strict";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";
import { TerminalStore, type Problem } from "../../generated/typescript/src/index.js";
import * as v2 from "../../generated/typescript/src/v2.js";

const SESSION = "sess_1";
const b64 = (s: string): string => Buffer.from(s, "utf8").toString("base64");

/** What the agent sends, in order (typed by the SDK: a mistake here fails to compile). */
const UPDATES: acp.SessionUpdate[] = [
  { sessionUpdate: "tool_call_update", toolCallId: "call_1", title: "Run tests", content: [{ type: "terminal", terminalId: "term_1" }] },
  { sessionUpdate: "terminal_update", terminalId: "term_1", command: "cargo test", cwd: "/work/project", output: { data: b64("running 2 tests\r\n") } },
  { sessionUpdate: "terminal_output_chunk", terminalId: "term_1", data: b64("\u001b[32mtest a ... ok\u001b[0m\r\n") },
  { sessionUpdate: "terminal_output_chunk", terminalId: "term_1", data: b64("test b ... 50%\rtest b ... ok \r\n") },
  { sessionUpdate: "terminal_update", terminalId: "term_1", exitStatus: { exitCode: 0 }, _meta: { "acme/run": { attempt: 1 } } },
];

/** Two in-process byte pipes joined into one SDK stream per side; the agent-to-client bytes are recorded. */
function pipes(): { agent: acp.Stream; client: acp.Stream; wire: string[] } {
  const wire: string[] = [];
  const decoder = new TextDecoder();
  const toClient = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, out) {
      wire.push(decoder.decode(chunk, { stream: true }));
      out.enqueue(chunk);
    },
  });
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  return {
    agent: acp.ndJsonStream(toClient.writable, toAgent.readable),
    client: acp.ndJsonStream(toAgent.writable, toClient.readable),
    wire,
  };
}

function agentApp(updates: readonly acp.SessionUpdate[]): acp.AgentApp {
  return acp
    .agent({ name: "acp-terminal-test-agent" })
    .onRequest(acp.methods.agent.initialize, ({ params }) => ({
      protocolVersion: params.protocolVersion,
      info: { name: "acp-terminal-test-agent", version: "0.0.0" },
    }))
    .onRequest("_acp_terminal/run", (params: unknown) => params, async ({ client }) => {
      for (const update of updates) await client.notify(acp.methods.client.session.update, { sessionId: SESSION, update });
      return {};
    });
}

interface Received {
  store: TerminalStore;
  errors: Problem[];
  warnings: Problem[];
  wire: string[];
}

async function run(updates: readonly acp.SessionUpdate[]): Promise<Received> {
  const store = new TerminalStore();
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  const { agent, client, wire } = pipes();
  agentApp(updates).connect(agent);
  await acp
    .client({ name: "acp-terminal-test-client" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      // `params` is the SDK's `UpdateSessionNotification`, as its own parser left it.
      const r = v2.parseUpdateSessionNotification(params);
      if (!r.ok) {
        errors.push(r.error);
        return;
      }
      warnings.push(...r.warnings);
      store.apply(r.value.update);
    })
    .connectWith(client, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, info: { name: "acp-terminal-test-client", version: "0.0.0" } });
      await ctx.request("_acp_terminal/run", {});
    });
  return { store, errors, warnings, wire };
}

test("SDK session/update notifications are parsed from the SDK's values and applied by the store", async () => {
  const got = await run(UPDATES);
  assert.deepEqual(got.errors, []);
  assert.deepEqual(got.warnings, []);
  const t = got.store.terminal("term_1");
  assert.ok(t !== undefined, "the store has the terminal");
  assert.equal(t.command, "cargo test");
  assert.equal(t.cwd, "/work/project");
  assert.deepEqual(t.exitStatus, { exitCode: 0 });
  assert.deepEqual(t.meta, { "acme/run": { attempt: 1 } });
  assert.deepEqual(t.sortedToolCalls(), ["call_1"]);
  assert.equal(t.transcript, "running 2 tests\ntest a ... ok\ntest b ... ok\n");
  assert.equal(Buffer.from(t.output.toBytes()).toString("utf8"), "running 2 tests\r\n\u001b[32mtest a ... ok\u001b[0m\r\ntest b ... 50%\rtest b ... ok \r\n");
});

test("the value route and the text route agree: the same notifications, read as the JSON-RPC bytes on the wire", async () => {
  const got = await run(UPDATES);
  const fromText = new TerminalStore();
  let n = 0;
  for (const line of got.wire.join("").split("\n")) {
    if (line === "") continue;
    const message: unknown = JSON.parse(line);
    if (typeof message !== "object" || message === null || !("method" in message) || message.method !== "session/update" || !("params" in message)) continue;
    // The text of the params, exactly as the agent wrote them.
    const params = JSON.stringify(message.params);
    const r = fromText.applyNotificationText(params);
    assert.ok(r.ok, JSON.stringify(r));
    n++;
  }
  assert.equal(n, UPDATES.length);
  const view = (s: TerminalStore) => [...s.terminals()].map(([id, t]) => [id, t.command, t.cwd, t.exitStatus, t.meta, t.transcript, [...t.output.toBytes()], t.sortedToolCalls()]);
  assert.deepEqual(view(fromText), view(got.store));
});

test("our wire rules still apply to what the SDK lets through: non-canonical base64 and a relative path", async () => {
  const got = await run([
    { sessionUpdate: "terminal_output_chunk", terminalId: "term_1", data: "aGVsbG9=" },
    { sessionUpdate: "terminal_update", terminalId: "term_1", cwd: "relative/dir" },
  ]);
  assert.deepEqual(got.errors.map((e) => [e.kind, e.path]), [["invalid_base64", "/update/data"]]);
  assert.deepEqual(got.warnings.map((w) => [w.kind, w.path]), [["relative_path", "/update/cwd"]]);
  assert.equal(got.store.terminal("term_1")?.cwd, null);
});
