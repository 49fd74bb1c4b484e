// The TypeScript consumer of `cargo xtask test` (step packages): compiled (strict) and run
// in a fresh npm project that installs the packed acp-terminal tarball, as a downstream user would:
// every entry point, both input routes, the store, and (as type errors that must happen) codec
// internals missing from the public entries.
import { TerminalStore, Transcript, isUnknownVariant, keysOf, v2, type Json, type Problem } from "acp-terminal";
import { TerminalId, isKnownSessionUpdate, parseUpdateSessionNotification, serializeUpdateSessionNotification, type TerminalOutputChunk } from "acp-terminal/v2";
import { CODECS, parseJson, writeJson } from "acp-terminal/internal";

// The codec is not part of the public modules, nor of the package entry (these must be type errors).
// @ts-expect-error: no decoders in acp-terminal/v2
export type NoDecoder = (typeof import("acp-terminal/v2"))["decodeSessionUpdate"];
// @ts-expect-error: no Cx in acp-terminal
export type NoCx = (typeof import("acp-terminal"))["Cx"];
export type Internal = (typeof import("acp-terminal/internal"))["v2"]["decodeSessionUpdate"];

// No DOM or Node types here (the package needs neither); just what this program prints with.
declare const console: { log(message: string): void };
const fail = (what: string): never => {
  throw new Error(what);
};
const text = '{"sessionId":"s","update":{"sessionUpdate":"terminal_update","terminalId":"term_001","command":null,"output":{"data":"cnVubmluZyAxMjMgdGVzdHMNCg=="},"_meta":{"b":1,"2":2}}}';
const inputs: unknown[] = [text, JSON.parse(text)];
for (const input of inputs) {
  const r = parseUpdateSessionNotification(input);
  if (!r.ok) fail(r.error.message);
  else {
    const u = r.value.update;
    if (!isKnownSessionUpdate(u) || u.sessionUpdate !== "terminal_update") fail("not a terminal update");
    else {
      if (u.command !== null || "cwd" in u) fail("patch states lost");
      const bytes: Uint8Array | undefined = u.output?.data;
      if (String.fromCharCode(...(bytes ?? [])) !== "running 123 tests\r\n") fail("bytes");
      const meta: { [key: string]: Json } | null | undefined = u._meta;
      if (meta?.["b"] !== 1) fail("_meta is a plain object");
      if (typeof input === "string" && serializeUpdateSessionNotification(r.value) !== text) fail("not byte-identical");
      if (typeof input === "string" && keysOf(meta ?? {}).join() !== "b,2") fail("member order");
    }
  }
}
const bad = v2.parseTerminalOutput('{"data":"aGVsbG9="}');
if (bad.ok || bad.error.kind !== "invalid_base64" || bad.error.path !== "/data") fail("strict base64");
const binary = v2.parseTerminalOutput(new Uint8Array([123, 125]));
if (binary.ok || !binary.error.message.includes("Uint8Array")) fail("a Uint8Array is named");
const chunk: TerminalOutputChunk = { terminalId: TerminalId("term_002"), data: new Uint8Array([104, 105]), _meta: { z: [true, null] } };
if (v2.serializeTerminalOutputChunk(chunk) !== '{"terminalId":"term_002","data":"aGk=","_meta":{"z":[true,null]}}') fail("serialize by hand");
const store = new TerminalStore();
const applied = store.applyNotificationText(text);
const warnings: Problem[] = applied.ok ? applied.warnings : fail(applied.error.message);
if (warnings.length !== 0 || store.terminal("term_001")?.transcript !== "running 123 tests\n") fail("store");
const t = new Transcript();
t.push(new Uint8Array([27, 91, 51, 49, 109, 120, 27, 91, 48, 109]));
if (t.text !== "x") fail("transcript");
const unknown = v2.parseSessionUpdate('{"sessionUpdate":"_new","x":1}');
if (!unknown.ok || !isUnknownVariant(unknown.value) || v2.serializeSessionUpdate(unknown.value) !== '{"sessionUpdate":"_new","x":1}') fail("open union");
if (CODECS.get("v2")?.get("SessionUpdate") === undefined) fail("registry");
if (writeJson(parseJson('{"2":1,"a":2,"1":3}')) !== '{"2":1,"a":2,"1":3}') fail("internal JSON");
console.log("typescript consumer: ok");
