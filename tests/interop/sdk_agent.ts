// An ACP Agent written on the official TypeScript SDK (@agentclientprotocol/sdk 2.4.0)
// alone: it does not use this project's packages, so the Python terminal Client meets a
// terminal producer it did not grow up with.
//
//   node dist/tests/interop/sdk_agent.js --protocol 2   # agent() / AgentApp of experimental/v2
//   node dist/tests/interop/sdk_agent.js --protocol 1   # agent() of the stable v1 root entry
//
// Each prompt's text is a shell command. The Agent asks permission (v2: a `command`
// subject; v1: the `toolCall` form), runs the command with /bin/sh -c (pipes, no PTY),
// and streams it: v2 as a `terminal_update` (command, cwd), `terminal_output_chunk`s
// (base64) and a final `terminal_update` with the exit status; v1 through the `_meta`
// terminal convention (`terminal_info`, `terminal_output` with the text since the last
// update, `terminal_exit`) when the Client advertises `_meta.terminal_output`, and the
// whole output as text content at the end. `session/cancel` ends the command (SIGTERM to its process group).

import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as v1 from "@agentclientprotocol/sdk";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2";

const NAME = "acp-terminal-interop-sdk-agent";
const version = process.argv[process.argv.indexOf("--protocol") + 1] === "1" ? 1 : 2;
const output = Writable.toWeb(process.stdout) as WritableStream<Uint8Array>;
const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;

/** The running command of each session, for `session/cancel`. */
const running = new Map<string, ChildProcess>();

/** `session/cancel`: SIGTERM to the command's process group. */
function cancel(sessionId: string): void {
  const pid = running.get(sessionId)?.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // already gone
  }
}
let counter = 0;

interface Exit {
  exitCode?: number;
  signal?: string;
}

/** Runs `command` in `cwd`; `onData` gets each chunk of stdout and stderr, in order. */
function run(sessionId: string, command: string, cwd: string, onData: (chunk: Buffer) => void): Promise<Exit> {
  return new Promise((resolve) => {
    // Its own process group, so that a cancel reaches what the shell started too.
    const child = spawn("/bin/sh", ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    running.set(sessionId, child);
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", () => resolve({ exitCode: 127 }));
    child.on("close", (code, signal) => {
      running.delete(sessionId);
      resolve(signal !== null ? { signal } : { exitCode: code ?? 0 });
    });
  });
}

function promptText(prompt: readonly { type: string }[]): string {
  return prompt.map((b) => ("text" in b && typeof b.text === "string" ? b.text : "")).join("\n").trim();
}

const OPTIONS = [
  { optionId: "allow", name: "Run it", kind: "allow_once" as const },
  { optionId: "reject", name: "Do not run it", kind: "reject_once" as const },
];

/** The answer, as "allow", "cancelled" or "refused". */
function decision(outcome: { outcome: string; optionId?: string }): "allow" | "cancelled" | "refused" {
  if (outcome.outcome === "selected" && outcome.optionId === "allow") return "allow";
  return outcome.outcome === "cancelled" ? "cancelled" : "refused";
}

if (version === 2) {
  const sessions = new Map<string, string>();
  const app = v2
    .agent({ name: NAME })
    .onRequest(v2.methods.agent.initialize, () => ({ protocolVersion: 2, info: { name: NAME, version: "0.0.0" } }))
    .onRequest(v2.methods.agent.session.new, ({ params }) => {
      const sessionId = `sdk_sess_${++counter}`;
      sessions.set(sessionId, params.cwd);
      return { sessionId };
    })
    .onNotification(v2.methods.agent.session.cancel, ({ params }) => {
      cancel(params.sessionId);
    })
    .onRequest(v2.methods.agent.session.prompt, ({ params, client }) => {
      const cwd = sessions.get(params.sessionId);
      if (cwd === undefined) throw v2.RequestError.invalidParams({ sessionId: params.sessionId }, `no session ${params.sessionId}`);
      const n = ++counter;
      const messageId = `sdk_msg_${n}`;
      const toolCallId = `sdk_call_${n}`;
      const terminalId = `sdk_term_${n}`;
      const command = promptText(params.prompt);
      const update = (u: v2.SessionUpdate) => client.notify(v2.methods.client.session.update, { sessionId: params.sessionId, update: u });
      const turn = async (): Promise<"end_turn" | "cancelled"> => {
        await update({ sessionUpdate: "user_message", messageId, content: params.prompt });
        await update({ sessionUpdate: "state_update", state: "running" });
        await update({ sessionUpdate: "tool_call_update", toolCallId, title: `Run ${command}`, kind: "execute", status: "pending" });
        await update({ sessionUpdate: "state_update", state: "requires_action" });
        const answer = await client.request(v2.methods.client.session.requestPermission, {
          sessionId: params.sessionId,
          title: `Run ${command}?`,
          subject: { type: "command", command, cwd, toolCallId, terminalId },
          options: OPTIONS,
        });
        await update({ sessionUpdate: "state_update", state: "running" });
        const d = decision(answer.outcome);
        if (d !== "allow") {
          await update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed", content: [{ type: "content", content: { type: "text", text: "Not allowed: nothing ran." } }] });
          return d === "cancelled" ? "cancelled" : "end_turn";
        }
        await update({ sessionUpdate: "terminal_update", terminalId, command, cwd });
        await update({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress", content: [{ type: "terminal", terminalId }] });
        let sent = Promise.resolve();
        const exit = await run(params.sessionId, command, cwd, (chunk) => {
          const data = chunk.toString("base64");
          sent = sent.then(() => update({ sessionUpdate: "terminal_output_chunk", terminalId, data }));
        });
        await sent;
        await update({ sessionUpdate: "terminal_update", terminalId, exitStatus: exit });
        await update({ sessionUpdate: "tool_call_update", toolCallId, status: exit.exitCode === 0 ? "completed" : exit.signal ? "cancelled" : "failed" });
        return exit.signal ? "cancelled" : "end_turn";
      };
      // The response acknowledges the inserted prompt; the turn goes on and ends with `idle`.
      setImmediate(() => {
        void turn().then(
          (stopReason) => update(stopReason === "cancelled" ? { sessionUpdate: "state_update", state: "idle", stopReason: "cancelled" } : { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" }),
          (e: unknown) => {
            process.stderr.write(`${NAME}: ${String(e)}\n`);
            return update({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
          },
        );
      });
      return { messageId };
    });
  await app.connect(v2.ndJsonStream(output, input)).closed;
} else {
  const sessions = new Map<string, string>();
  let meta = false;
  const app = v1
    .agent({ name: NAME })
    .onRequest(v1.methods.agent.initialize, ({ params }) => {
      const m: unknown = params.clientCapabilities?._meta?.["terminal_output"];
      meta = m === true;
      return { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: NAME, version: "0.0.0" } };
    })
    .onRequest(v1.methods.agent.session.new, ({ params }) => {
      const sessionId = `sdk_sess_${++counter}`;
      sessions.set(sessionId, params.cwd);
      return { sessionId };
    })
    .onNotification(v1.methods.agent.session.cancel, ({ params }) => {
      cancel(params.sessionId);
    })
    .onRequest(v1.methods.agent.session.prompt, async ({ params, client }) => {
      const cwd = sessions.get(params.sessionId);
      if (cwd === undefined) throw v1.RequestError.invalidParams({ sessionId: params.sessionId }, `no session ${params.sessionId}`);
      const n = ++counter;
      const toolCallId = `sdk_call_${n}`;
      const terminalId = `sdk_term_${n}`;
      const command = promptText(params.prompt);
      const update = (u: v1.SessionUpdate) => client.notify(v1.methods.client.session.update, { sessionId: params.sessionId, update: u });
      await update({ sessionUpdate: "tool_call", toolCallId, title: `Run ${command}`, kind: "execute", status: "pending", rawInput: { command, cwd } });
      const question: v1.RequestPermissionRequest = {
        sessionId: params.sessionId,
        toolCall: { toolCallId, title: `Run ${command}`, kind: "execute", status: "pending", rawInput: { command, cwd } },
        options: OPTIONS,
      };
      const answer = await client.request(v1.methods.client.session.requestPermission, question);
      const d = decision(answer.outcome);
      if (d !== "allow") {
        await update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed", content: [{ type: "content", content: { type: "text", text: "Not allowed: nothing ran." } }] });
        return { stopReason: d === "cancelled" ? "cancelled" : "end_turn" };
      }
      await update({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress", ...(meta ? { _meta: { terminal_info: { terminal_id: terminalId, cwd } } } : {}) });
      const decoder = new TextDecoder(); // a character split across chunks waits for its end
      let all = "";
      let sent = Promise.resolve();
      const exit = await run(params.sessionId, command, cwd, (chunk) => {
        const data = decoder.decode(chunk, { stream: true });
        all += data;
        if (meta && data !== "") sent = sent.then(() => update({ sessionUpdate: "tool_call_update", toolCallId, _meta: { terminal_output: { terminal_id: terminalId, data } } }));
      });
      const tail = decoder.decode();
      all += tail;
      await sent;
      const exitMeta = { terminal_exit: { terminal_id: terminalId, exit_code: exit.exitCode ?? null, signal: exit.signal ?? null } };
      await update({
        sessionUpdate: "tool_call_update",
        toolCallId,
        status: exit.exitCode === 0 ? "completed" : "failed",
        content: [{ type: "content", content: { type: "text", text: all } }],
        ...(meta ? { _meta: tail === "" ? exitMeta : { terminal_output: { terminal_id: terminalId, data: tail }, ...exitMeta } } : {}),
      });
      return { stopReason: exit.signal ? "cancelled" : "end_turn" };
    });
  await app.connect(v1.ndJsonStream(output, input)).closed;
}
