// The browser Client (examples/browser) in headless Chromium, driven by playwright-core
// with Debian's /usr/bin/chromium (never a downloaded browser).
//
//   node browser.test.mjs WEB_DIR ARTIFACT_DIR
//
// For each recording of the terminal Client (`--record`: both directions of a real
// session; v2 live chunks, the v2 --replay snapshot, and v1 through the Bridge with the
// `_meta` convention) it loads the page, waits for the replay, and checks: no page error
// or console error; the protocol version the recording negotiated; the terminal's
// command, exit status and transcript against the recorded session's expected values;
// the rendered xterm.js buffer against @xterm/headless fed the same bytes in Node;
// colours really rendered (cell foreground palette indexes); and that every path shows
// the same buffer and transcript; and the tool call's title, status and terminals, which
// the page reads from the generated session state (v2) against the same reducer in Node. Screenshots go to ARTIFACT_DIR/browser-*.png.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import headless from "@xterm/headless";
import { serve } from "./serve.mjs";

const [webDir = "../../target/e2e/web", artifacts = "../../target/e2e"] = process.argv.slice(2);
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

// What the recorded command (xtask/src/e2e.rs RECORDED) shows: bold, a cyan progress bar
// redrawn with CR, green and red words, a euro sign and an invalid byte, exit code 1.
const EXPECTED_TRANSCRIPT = "Building acp-terminal\n[=====] 5/5\nok   3 passed\nFAIL 1 failed: expected \u20ac 10, got \ufffd\n";
const EXPECTED_EXIT = { exitCode: 1, signal: null };
const SESSIONS = ["session.jsonl", "session-replay.jsonl", "session-v1.jsonl"];
const VERSIONS = { "session.jsonl": 2, "session-replay.jsonl": 2, "session-v1.jsonl": 1 };

/** The session's updates applied in Node with the same binding, and the bytes fed to @xterm/headless. */
async function expected(file) {
  const { TerminalStore, ingestV1 } = await import(pathToFileURL(resolve(webDir, "generated/typescript/src/index.js")).href);
  const { sessionState } = await import(pathToFileURL(resolve(webDir, "generated/typescript/src/registry.js")).href);
  const state = sessionState("v2");
  let title = null;
  const text = await readFile(join(webDir, file), "utf8");
  const store = new TerminalStore();
  let chunks = 0;
  let snapshots = 0;
  let convention = 0;
  let version = 2;
  let size = { cols: 80, rows: 24 };
  let command = null;
  const sides = new Set();
  for (const line of text.split("\n").filter((l) => l.trim())) {
    const recorded = JSON.parse(line);
    sides.add(recorded.from);
    const m = JSON.parse(recorded.line);
    if (recorded.from === "agent" && typeof m.result?.protocolVersion === "number") version = m.result.protocolVersion;
    if (recorded.from !== "agent" || m.method !== "session/update") continue;
    const u = m.params.update;
    if (u.sessionUpdate === "terminal_output_chunk") chunks++;
    if (u.sessionUpdate === "terminal_update" && "output" in u) snapshots++;
    if (u._meta?.terminal_output) convention++;
    if (u.size) size = u.size;
    if (typeof u.rawInput?.command === "string") command = u.rawInput.command;
    if (typeof u.title === "string") title = u.title;
    if (version === 2) assert.ok(state.apply("SessionUpdate", JSON.stringify(u)).ok, `${file}: the session state applies ${u.sessionUpdate}`);
    const r = version === 1 ? ingestV1(store, JSON.stringify(u)) : store.applyNotificationText(JSON.stringify(m.params));
    assert.ok(r.ok, `${file}: ${JSON.stringify(r)}`);
  }
  assert.deepEqual([...sides].sort(), ["agent", "client"], `${file}: the recording keeps both directions`);
  const [[, t]] = [...store.terminals()];
  const term = new headless.Terminal({ cols: size.cols, rows: size.rows, scrollback: 5000, allowProposedApi: true });
  await new Promise((ok) => term.write(t.output.toBytes(), ok));
  const b = term.buffer.active;
  const buffer = [];
  for (let y = 0; y < b.length; y++) buffer.push(b.getLine(y).translateToString(true));
  while (buffer.length && buffer.at(-1) === "") buffer.pop();
  const call = version === 2 ? state.get("toolCall", "call_1") : null;
  return { transcript: t.transcript, command: t.command ?? command, buffer, chunks, snapshots, convention, version, size, title, call };
}

const server = await serve(webDir);
const base = `http://127.0.0.1:${server.address().port}/`;
const profile = await mkdtemp(join(tmpdir(), "acp-e2e-chromium-"));
const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 700 } });
const results = {};
try {
  for (const file of SESSIONS) {
    const want = await expected(file);
    assert.equal(want.version, VERSIONS[file], `${file}: the negotiated protocol version`);
    if (file === "session.jsonl") assert.ok(want.chunks > 1 && want.snapshots === 0, `${file} should be live chunks (${want.chunks} chunks, ${want.snapshots} snapshots)`);
    else if (file === "session-replay.jsonl") assert.ok(want.chunks === 0 && want.snapshots === 1, `${file} should be one snapshot (${want.chunks} chunks, ${want.snapshots} snapshots)`);
    else assert.ok(want.chunks === 0 && want.snapshots === 0 && want.convention >= 1, `${file} should carry the output in the _meta convention (${want.convention} updates)`);
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => { if (m.type() === "error") problems.push(`console error: ${m.text()}`); });
    page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
    page.on("response", (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
    await page.goto(`${base}index.html?session=${file}&delay=0`);
    await page.waitForFunction(() => window.acpReplay?.done === true, null, { timeout: 30000 });
    const report = await page.evaluate(() => ({ ...window.acpReplay }));
    const shot = join(artifacts, `browser-${file.replace(".jsonl", "")}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    assert.equal(report.error, null, `${file}: the page reported an error`);
    assert.equal(report.version, want.version, `${file}: the page read the version the recording negotiated`);
    assert.deepEqual(problems, [], `${file}: problems while loading the page`);
    assert.equal(report.terminals.length, 1, `${file}: one terminal`);
    const [t] = report.terminals;
    assert.equal(t.id, "term_1");
    assert.equal(t.command, want.command);
    assert.ok(t.command.startsWith("printf '\\033[1mBuilding"), `${file}: command ${t.command}`);
    assert.deepEqual(t.exitStatus, EXPECTED_EXIT, `${file}: exit status`);
    assert.equal(t.transcript, EXPECTED_TRANSCRIPT, `${file}: transcript in the browser`);
    assert.equal(want.transcript, EXPECTED_TRANSCRIPT, `${file}: transcript in Node`);
    assert.deepEqual([t.cols, t.rows], [want.size.cols, want.size.rows], `${file}: terminal size from the recorded terminal_update`);
    assert.deepEqual(t.buffer, want.buffer, `${file}: rendered xterm buffer vs @xterm/headless`);
    assert.equal(t.buffer[1], "[=====] 5/5", `${file}: the progress bar was redrawn in place`);
    // Colours were interpreted, not printed: "ok" green (2), "FAIL" red (1), "[" cyan (6), text default.
    const cell = (row, col) => page.evaluate(([r, c]) => window.acpReplay.cellColour(0, r, c), [row, col]);
    assert.deepEqual(await cell(2, 0), { char: "o", fg: 2 }, `${file}: "ok" is green`);
    assert.deepEqual(await cell(3, 0), { char: "F", fg: 1 }, `${file}: "FAIL" is red`);
    assert.deepEqual(await cell(1, 0), { char: "[", fg: 6 }, `${file}: the bar is cyan`);
    assert.deepEqual(await cell(0, 9), { char: "a", fg: -1 }, `${file}: plain text has the default colour`);
    const html = await page.locator("pre.transcript").textContent();
    assert.equal(html, EXPECTED_TRANSCRIPT, `${file}: the transcript shown beside the terminal`);
    // The tool call: the recorded command exits 1, so it failed; at v2 its content shows the terminal.
    assert.deepEqual(report.toolCalls, [{ id: "call_1", title: want.title, status: "failed", terminals: want.version === 2 ? ["term_1"] : [] }], `${file}: the tool calls`);
    assert.ok(want.title.startsWith("Run `printf"), `${file}: the tool call's title ${want.title}`);
    if (want.version === 2) {
      assert.equal(want.call.status, "failed", `${file}: the tool call's status in Node's session state`);
      assert.equal(want.call.title, want.title, `${file}: the tool call's title in Node's session state`);
    }
    const item = await page.locator("#tool-calls li").allTextContents();
    assert.equal(item.length, 1, `${file}: one tool call listed`);
    assert.ok(item[0].startsWith("call_1: Run `printf") && item[0].endsWith(" — failed"), `${file}: the tool call listed as ${item[0]}`);
    results[file] = t;
    console.log(`browser: ${file}: ${t.buffer.length} buffer lines and the transcript match; screenshot ${shot}`);
    await page.close();
  }
  const [live, replay, v1] = SESSIONS.map((f) => results[f]);
  assert.deepEqual(replay.buffer, live.buffer, "the snapshot and the live chunks render the same buffer");
  assert.equal(replay.transcript, live.transcript, "the snapshot and the live chunks give the same transcript");
  // The convention carries text: the Bridge turned the invalid byte into U+FFFD, which
  // xterm.js draws, while it draws nothing for the raw byte. Everything else is the same.
  assert.deepEqual(v1.buffer.slice(0, -1), live.buffer.slice(0, -1), "v1 (the _meta convention) and v2 render the same buffer");
  assert.equal(v1.buffer.at(-1), `${live.buffer.at(-1)}\ufffd`, "v1 shows the invalid byte as U+FFFD (the convention carries text)");
  assert.equal(v1.transcript, live.transcript, "v1 (the _meta convention) and v2 give the same transcript");
  console.log("browser: the v2 snapshot-only, v2 live-chunk and v1 replays give the same display");
} finally {
  await context.close();
  server.close();
  await rm(profile, { recursive: true, force: true });
}
