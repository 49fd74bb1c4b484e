// Tests of the hand-written example types: the wire rules as schema/tests/wire_rules.rs checks them in Rust.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ParseResult } from "../../templates/typescript/runtime/errors.js";
import type { UnknownVariant } from "../../templates/typescript/runtime/model.js";
import {
  type SessionUpdate,
  isKnownSessionUpdate,
  parseSessionUpdate,
  parseTerminalUpdate,
  parseToolCallUpdate,
  stringifySessionUpdate,
  stringifyTerminalUpdate,
  stringifyToolCallUpdate,
} from "./example.js";
import { errorOf, okOf } from "./helpers.js";

type Kind = "TerminalUpdate" | "ToolCallUpdate" | "SessionUpdate";

function parse(kind: Kind, text: string): ParseResult<unknown> {
  return kind === "TerminalUpdate" ? parseTerminalUpdate(text) : kind === "ToolCallUpdate" ? parseToolCallUpdate(text) : parseSessionUpdate(text);
}

/** Parses and writes back: canonical text and [kind, path] warnings. */
function ok(kind: Kind, text: string): [string, [string, string][]] {
  switch (kind) {
    case "TerminalUpdate": {
      const [v, ws] = okOf(parseTerminalUpdate(text));
      return [stringifyTerminalUpdate(v), ws];
    }
    case "ToolCallUpdate": {
      const [v, ws] = okOf(parseToolCallUpdate(text));
      return [stringifyToolCallUpdate(v), ws];
    }
    case "SessionUpdate": {
      const [v, ws] = okOf(parseSessionUpdate(text));
      return [stringifySessionUpdate(v), ws];
    }
  }
}

const err = (kind: Kind, text: string) => errorOf(parse(kind, text));

function roundtrip(kind: Kind, text: string): void {
  const [out, ws] = ok(kind, text);
  assert.equal(out, text, `${kind} round trip`);
  assert.deepEqual(ws, [], `${kind}: unexpected warnings`);
  assert.equal(ok(kind, out)[0], out, "fixpoint");
}

describe("terminal_update: omitted = unchanged, null = clear, value = replace", () => {
  test("an omitted patch field leaves the previous value unchanged", () => {
    const [v] = okOf(parseTerminalUpdate('{"terminalId":"t"}'));
    assert.deepEqual(v, { terminalId: "t" });
    assert.ok(!("command" in v) && !("cwd" in v) && !("output" in v) && !("exitStatus" in v) && !("_meta" in v));
    roundtrip("TerminalUpdate", '{"terminalId":"t"}');
  });

  test("null clears its previous value", () => {
    const text = '{"terminalId":"t","command":null,"cwd":null,"output":null,"exitStatus":null,"_meta":null}';
    const [v] = okOf(parseTerminalUpdate(text));
    assert.deepEqual(v, { terminalId: "t", command: null, cwd: null, output: null, exitStatus: null, _meta: null });
    roundtrip("TerminalUpdate", text);
  });

  test("a concrete value replaces its previous value", () => {
    const text =
      '{"terminalId":"term_001","command":"cargo test","cwd":"/workspace/project","output":{"data":"cnVubmluZyAxMjMgdGVzdHMNCg=="},"exitStatus":{"exitCode":0},"_meta":{"k":1}}';
    const [v] = okOf(parseTerminalUpdate(text));
    assert.equal(v.command, "cargo test");
    assert.equal(new TextDecoder().decode(v.output?.data), "running 123 tests\r\n");
    assert.equal(v.exitStatus?.exitCode, 0);
    roundtrip("TerminalUpdate", text);
  });

  test("exit status details are optional and null equals omitted", () => {
    assert.equal(ok("TerminalUpdate", '{"terminalId":"t","exitStatus":{"exitCode":null,"signal":null,"_meta":null}}')[0], '{"terminalId":"t","exitStatus":{}}');
    roundtrip("TerminalUpdate", '{"terminalId":"t","exitStatus":{"signal":"SIGTERM"}}');
  });
});

describe("leniency: dropped, never silently", () => {
  test("a malformed lenient field is dropped and reported", () => {
    assert.deepEqual(ok("TerminalUpdate", '{"terminalId":"t","command":42,"exitStatus":{"exitCode":-1}}'), [
      '{"terminalId":"t","exitStatus":{}}',
      [
        ["wrong_type", "/command"],
        ["out_of_range", "/exitStatus/exitCode"],
      ],
    ]);
  });

  test("the nearest lenient value containing the problem is dropped: output stays unchanged, not cleared", () => {
    assert.deepEqual(ok("TerminalUpdate", '{"terminalId":"t","output":{"data":"YR=="}}'), ['{"terminalId":"t"}', [["invalid_base64", "/output/data"]]]);
  });

  test("a relative cwd in an update is dropped with a warning", () => {
    assert.deepEqual(ok("TerminalUpdate", '{"terminalId":"t","cwd":"build","command":"make"}'), ['{"terminalId":"t","command":"make"}', [["relative_path", "/cwd"]]]);
  });

  test("malformed items are skipped with a warning each", () => {
    const text = '{"toolCallId":"tc_1","locations":[{"path":"/ok","line":3},{"line":4},{"path":"rel"},{"path":"/b","line":1.5}]}';
    assert.deepEqual(ok("ToolCallUpdate", text), [
      '{"toolCallId":"tc_1","locations":[{"path":"/ok","line":3},{"path":"/b"}]}',
      [
        ["missing_field", "/locations/1/path"],
        ["relative_path", "/locations/2/path"],
        ["wrong_type", "/locations/3/line"],
      ],
    ]);
  });

  test("a locations value that is not an array is dropped as a whole", () => {
    assert.deepEqual(ok("ToolCallUpdate", '{"toolCallId":"c","locations":{"path":"/a"}}'), ['{"toolCallId":"c"}', [["wrong_type", "/locations"]]]);
  });

  test("an item dropped after an inner warning keeps both warnings, in document order (as the Rust runtime does)", () => {
    assert.deepEqual(ok("ToolCallUpdate", '{"toolCallId":"c","locations":[{"line":"x"}]}'), [
      '{"toolCallId":"c","locations":[]}',
      [
        ["wrong_type", "/locations/0/line"],
        ["missing_field", "/locations/0/path"],
      ],
    ]);
  });

  test("required fields stay strict", () => {
    assert.deepEqual(err("TerminalUpdate", '{"terminalId":5}'), ["wrong_type", "/terminalId"]);
    assert.deepEqual(err("TerminalUpdate", '{"command":"ls"}'), ["missing_field", "/terminalId"]);
    assert.deepEqual(err("TerminalUpdate", '{"terminalId":null}'), ["wrong_type", "/terminalId"]);
  });

  test("leniency never absorbs a repeated member", () => {
    assert.deepEqual(err("TerminalUpdate", '{"terminalId":"a","command":7,"command":8}'), ["duplicate_key", "/command"]);
  });
});

describe("which problem wins", () => {
  test("the first problem in input order", () => {
    assert.deepEqual(err("ToolCallUpdate", '{"locations":[{"path":"/a"}],"toolCallId":5,"title":1}'), ["wrong_type", "/toolCallId"]);
    assert.deepEqual(err("TerminalUpdate", '{"output":{"data":1},"terminalId":2}'), ["wrong_type", "/terminalId"]);
  });

  test("missing required members come after every present member", () => {
    assert.deepEqual(err("SessionUpdate", '{"sessionUpdate":"terminal_update","output":{"data":1}}'), ["missing_field", "/terminalId"]);
    assert.deepEqual(err("SessionUpdate", '{"sessionUpdate":"terminal_update","_meta":[],"x":{"data":"!"}}'), ["missing_field", "/terminalId"]);
  });

  test("warnings are in document order", () => {
    assert.deepEqual(ok("TerminalUpdate", '{"_meta":1,"cwd":"a","terminalId":"t","command":false}')[1], [
      ["wrong_type", "/_meta"],
      ["relative_path", "/cwd"],
      ["wrong_type", "/command"],
    ]);
  });
});

describe("unknown members and unknown variants", () => {
  test("unknown fields are kept in input order after the known ones", () => {
    assert.equal(
      ok("TerminalUpdate", '{"zeta":1,"command":"ls","terminalId":"t","alpha":{"y":1,"x":2}}')[0],
      '{"terminalId":"t","command":"ls","zeta":1,"alpha":{"y":1,"x":2}}',
    );
  });

  test("integer-like unknown members keep their place", () => {
    assert.equal(ok("TerminalUpdate", '{"2":0,"terminalId":"t","1":0}')[0], '{"terminalId":"t","2":0,"1":0}');
  });

  test("meta keeps its key order at every depth", () => {
    roundtrip("TerminalUpdate", '{"terminalId":"t","_meta":{"z":{"b":1,"a":2},"a":[{"y":0,"x":1}],"m":null}}');
  });

  test("free JSON patch members keep order and null", () => {
    roundtrip("ToolCallUpdate", '{"toolCallId":"c","title":"Run","kind":"execute","locations":[{"path":"/a","line":3}],"rawInput":{"b":1,"a":[null]},"rawOutput":"x","_meta":{}}');
    roundtrip("ToolCallUpdate", '{"toolCallId":"c","title":null,"kind":null,"locations":null,"rawInput":null,"rawOutput":null,"_meta":null}');
  });

  test("an empty collection is kept apart from null", () => {
    assert.equal(ok("ToolCallUpdate", '{"toolCallId":"c","locations":[],"title":null}')[0], '{"toolCallId":"c","title":null,"locations":[]}');
  });

  test("a tagged variant is written tag first", () => {
    assert.equal(
      ok("SessionUpdate", '{"terminalId":"t","x":1,"sessionUpdate":"terminal_update","command":"ls"}')[0],
      '{"sessionUpdate":"terminal_update","terminalId":"t","command":"ls","x":1}',
    );
  });

  test("an unknown variant keeps its tag and whole payload, tag first", () => {
    roundtrip("SessionUpdate", '{"sessionUpdate":"_status_badge","label":"Indexing","progress":0.5,"n":{"z":1,"a":2}}');
    assert.equal(ok("SessionUpdate", '{"title":"Tests","sessionUpdate":"_chart","data":[1,2,3]}')[0], '{"sessionUpdate":"_chart","title":"Tests","data":[1,2,3]}');
    const [v] = okOf(parseSessionUpdate('{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}'));
    assert.ok(!isKnownSessionUpdate(v));
  });

  test("a known tag with a bad payload is an error, never unknown", () => {
    assert.deepEqual(err("SessionUpdate", '{"sessionUpdate":"terminal_update"}'), ["missing_field", "/terminalId"]);
    assert.deepEqual(err("SessionUpdate", '{"sessionUpdate":"tool_call_update","toolCallId":1}'), ["wrong_type", "/toolCallId"]);
  });

  test("the tag is read first: missing, or not a string", () => {
    assert.deepEqual(err("SessionUpdate", '{"terminalId":5}'), ["missing_field", "/sessionUpdate"]);
    assert.deepEqual(err("SessionUpdate", '{"terminalId":5,"sessionUpdate":1}'), ["wrong_type", "/sessionUpdate"]);
    assert.deepEqual(err("SessionUpdate", "[]"), ["wrong_type", ""]);
  });

  test("a known variant narrows by its tag", () => {
    const [v] = okOf(parseSessionUpdate('{"sessionUpdate":"terminal_update","terminalId":"t","cwd":"/w"}'));
    const u: SessionUpdate | UnknownVariant = v;
    assert.ok(isKnownSessionUpdate(u) && u.sessionUpdate === "terminal_update" && u.cwd === "/w");
  });
});

describe("building values by hand", () => {
  test("omitted, null and set patch members write as such", () => {
    assert.equal(stringifyTerminalUpdate({ terminalId: "t" }), '{"terminalId":"t"}');
    assert.equal(stringifyTerminalUpdate({ terminalId: "t", command: null }), '{"terminalId":"t","command":null}');
    assert.equal(
      stringifyTerminalUpdate({ terminalId: "t", output: { data: new Uint8Array([104, 105]) }, _meta: { "1": 1 } }),
      '{"terminalId":"t","output":{"data":"aGk="},"_meta":{"1":1}}',
    );
  });
});

describe("text and values", () => {
  test("text that is not JSON is invalid_json at the root", () => {
    assert.deepEqual(err("TerminalUpdate", '{"terminalId":"t"'), ["invalid_json", ""]);
    assert.deepEqual(err("TerminalUpdate", '{"terminalId":"\\ud800"}'), ["invalid_json", ""]);
    assert.deepEqual(err("TerminalUpdate", '{"terminalId":"t"} x'), ["invalid_json", ""]);
  });

  test("canonical output uses ECMAScript numbers and strings", () => {
    const [out] = ok("TerminalUpdate", '{"terminalId":"\\u00e9\\/\\u001f\\u007f","_meta":{"a":1.0,"b":1e21,"c":-0,"d":0.1,"e":1E2,"f":12345678901234567890}}');
    assert.equal(out, '{"terminalId":"é/\\u001f\u007f","_meta":{"a":1,"b":1e+21,"c":0,"d":0.1,"e":100,"f":12345678901234567000}}');
  });

  test("integers accept whole numbers within their format", () => {
    assert.equal(ok("TerminalUpdate", '{"terminalId":"t","exitStatus":{"exitCode":4294967295}}')[0], '{"terminalId":"t","exitStatus":{"exitCode":4294967295}}');
    assert.equal(ok("TerminalUpdate", '{"terminalId":"t","exitStatus":{"exitCode":2.0}}')[0], '{"terminalId":"t","exitStatus":{"exitCode":2}}');
    assert.deepEqual(ok("TerminalUpdate", '{"terminalId":"t","exitStatus":{"exitCode":4294967296}}')[1], [["out_of_range", "/exitStatus/exitCode"]]);
    assert.deepEqual(ok("TerminalUpdate", '{"terminalId":"t","exitStatus":{"exitCode":1.5}}')[1], [["wrong_type", "/exitStatus/exitCode"]]);
  });
});
