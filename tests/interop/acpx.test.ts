// acpx 0.19.1 (npm; a published headless ACP Client, v1) drives the example Agent with
// `exec`: acpx starts the Agent, initializes (v1, no `_meta.terminal_output`), opens a
// session and sends the prompt; the Agent shows the command's output through the Bridge
// as text content, which acpx prints. A refused permission runs nothing.
//
//   ACP_EXAMPLE_AGENT=target/agent/debug/acp-example-agent node --test dist/tests/interop/

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const AGENT = process.env["ACP_EXAMPLE_AGENT"] ?? "";
// dist/tests/interop/ -> tests/, the test project whose node_modules holds acpx.
const TESTS = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const ACPX = join(TESTS, "node_modules/acpx/dist/cli.js");
// acpx keeps sessions and settings under HOME: a fresh one per run, removed afterwards.
const HOME = mkdtempSync(join(tmpdir(), "acp-interop-acpx-home-"));
const CWD = mkdtempSync(join(tmpdir(), "acp-interop-acpx-"));
after(() => {
  rmSync(HOME, { recursive: true, force: true });
  rmSync(CWD, { recursive: true, force: true });
});

function acpx(...args: string[]): { stdout: string; stderr: string; status: number | null } {
  assert.ok(AGENT !== "" && existsSync(AGENT), `ACP_EXAMPLE_AGENT must name the built example Agent (got ${JSON.stringify(AGENT)})`);
  assert.ok(existsSync(ACPX), `acpx is not installed at ${ACPX}`);
  const r = spawnSync(process.execPath, [ACPX, "--cwd", CWD, "--agent", AGENT, ...args], {
    env: { ...process.env, HOME, NO_COLOR: "1" },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (process.env["ACP_INTEROP_VERBOSE"] === "1") console.log(`$ acpx --agent acp-example-agent ${args.map((a) => JSON.stringify(a)).join(" ")}\n${r.stdout}${r.stderr}(exit status ${r.status})`);
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

test("acpx exec: the command's output text and exit status appear in acpx's output", () => {
  const r = acpx("--approve-all", "exec", String.raw`printf 'hello from acpx\n'; printf '\033[31mred\033[0m words\n'; exit 3`);
  assert.equal(r.status, 0, `acpx ends the turn normally\n${r.stdout}${r.stderr}`);
  const out = r.stdout;
  assert.match(out, /\[client\] session\/request_permission/, "acpx was asked for permission");
  assert.match(out, /^ {4}hello from acpx$/m, out);
  assert.match(out, /^ {4}red words$/m, "the colours were interpreted by the safe transcript, not printed");
  assert.match(out, /^ {4}\[exit code 3\]$/m, "the exit status is in the text");
  assert.match(out, /\[done\] end_turn/);
  assert.ok(!out.includes("\u001b"), "no raw escape sequence reaches acpx's output");
});

test("acpx exec: a signal is reported", () => {
  const r = acpx("--approve-all", "exec", "echo 'about to go'; kill -TERM $$");
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /^ {4}about to go$/m);
  assert.match(r.stdout, /^ {4}\[signal SIGTERM\]$/m);
});

test("acpx exec --deny-all: the refused command runs nothing", () => {
  const marker = join(CWD, "refused");
  const r = acpx("--deny-all", "exec", `touch ${marker}`);
  assert.equal(existsSync(marker), false, "the refused command did not run");
  assert.match(r.stdout, /Permission refused \(the user chose "reject"\): the command was not run\./, r.stdout);
  assert.match(r.stdout, /\[done\] end_turn/);
  assert.equal(r.status, 5, "acpx's exit status for a denied permission (PERMISSION_DENIED)");
});
