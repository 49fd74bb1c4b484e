// Warnings cost nothing past the limit (issue 22): a parse keeps at most `maxWarnings` warnings
// (64 by default, the store's), only counts the others in `warningsDropped`, and builds no pointer,
// message or error object for them. Checked by counting the problems the decoder built, not by a clock.

import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeSessionUpdate } from "../../generated/typescript/src/internal/v2.js";
import { Cx, decodeText } from "../../generated/typescript/src/runtime/decode.js";
import { DEFAULT_MAX_WARNINGS } from "../../generated/typescript/src/runtime/errors.js";
import { parseJson } from "../../generated/typescript/src/runtime/json.js";
import { DEFAULT_LIMITS, TerminalStore } from "../../generated/typescript/src/store.js";
import { parseSessionUpdate, parseUpdateSessionNotification, serializeSessionUpdate } from "../../generated/typescript/src/v2.js";

const updateWith = (item: string, n: number): string =>
  `{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[${Array.from({ length: n }, () => item).join(",")}]}`;

/** Items each a lenient skip of another kind, and where its warning points inside the item. */
const BAD_ITEMS: [string, string][] = [
  ["1", ""],
  ["{}", "/type"],
  ['{"type":"terminal"}', "/terminalId"],
  ['{"type":"content","content":{"type":"image","data":"!","mimeType":"image/png"}}', "/content/data"],
  ['{"terminalId":5,"type":"terminal"}', "/terminalId"],
];

test("the default keeps 64 warnings and counts the rest, building nothing for them", () => {
  assert.equal(DEFAULT_MAX_WARNINGS, 64);
  assert.equal(DEFAULT_LIMITS.maxWarnings, DEFAULT_MAX_WARNINGS);
  for (const [item, at] of BAD_ITEMS) {
    for (const n of [10, 64, 65, 1000, 8000]) {
      const text = updateWith(item, n);
      const r = parseSessionUpdate(text);
      assert.ok(r.ok, `${item} x ${n}`);
      const kept = Math.min(n, 64);
      assert.deepEqual([r.warnings.length, r.warningsDropped], [kept, n - kept], `${item} x ${n}`);
      assert.equal(r.warnings[0]?.path, `/content/0${at}`);
      // Work: one problem built per kept warning, none for the dropped ones.
      const cx = new Cx(false, 64);
      decodeSessionUpdate(parseJson(text), cx);
      assert.equal(cx.problemsBuilt, kept, `${item} x ${n}: problems built`);
      assert.equal(cx.warningsDropped, n - kept);
    }
  }
});

test("the limit is an option, and all warnings stay possible", () => {
  const text = updateWith("1", 500);
  const all = parseSessionUpdate(text, { maxWarnings: Infinity });
  assert.ok(all.ok);
  assert.deepEqual([all.warnings.length, all.warningsDropped, all.warnings[499]?.path], [500, 0, "/content/499"]);
  const none = parseSessionUpdate(text, { maxWarnings: 0 });
  assert.ok(none.ok);
  assert.deepEqual([none.warnings.length, none.warningsDropped], [0, 500]);
  const three = parseSessionUpdate(text, { maxWarnings: 3 });
  assert.ok(three.ok);
  assert.deepEqual([three.warnings.map((w) => w.path), three.warningsDropped], [["/content/0", "/content/1", "/content/2"], 497]);
  assert.throws(() => decodeText(text, decodeSessionUpdate, { maxWarnings: -1 }), RangeError);
  // The value route keeps the same limit.
  const value = parseSessionUpdate(JSON.parse(text), { maxWarnings: 5 });
  assert.ok(value.ok);
  assert.deepEqual([value.warnings.length, value.warningsDropped], [5, 495]);
});

test("valid items among dropped ones are kept, in order", () => {
  const items = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? `{"type":"terminal","terminalId":"t${i}"}` : "1"));
  const r = parseSessionUpdate(`{"sessionUpdate":"tool_call_update","toolCallId":"c","content":[${items.join(",")}]}`);
  assert.ok(r.ok);
  assert.deepEqual([r.warnings.length, r.warningsDropped], [64, 200 - 64]);
  const out = serializeSessionUpdate(r.value);
  assert.equal(out.match(/terminalId/g)?.length, 100);
  assert.ok(out.includes('"t0"') && out.includes('"t297"'));
});

test("an error past the limit is still the error, with its pointer and message", () => {
  const items = Array.from({ length: 200 }, () => "1").join(",");
  for (const text of [
    `{"sessionUpdate":"tool_call_update","toolCallId":5,"content":[${items}]}`,
    `{"sessionUpdate":"tool_call_update","content":[${items}],"toolCallId":5}`,
  ]) {
    const r = parseSessionUpdate(text);
    assert.ok(!r.ok);
    assert.deepEqual([r.error.kind, r.error.path], ["wrong_type", "/toolCallId"]);
    assert.match(r.error.message, /expected a string/);
  }
  const dup = parseSessionUpdate(updateWith("1", 100).replace("]}", ',{"type":"terminal","terminalId":"a","terminalId":"b"}]}'));
  assert.ok(!dup.ok);
  assert.deepEqual([dup.error.kind, dup.error.path], ["duplicate_key", "/content/100/terminalId"]);
});

test("the store applies its limit while decoding", () => {
  const text = updateWith("1", 100000);
  const store = new TerminalStore();
  const r = store.applyText(text);
  assert.ok(r.ok);
  assert.equal(r.warnings.length, 64);
  assert.equal(store.counters.warningsDropped, 100000 - 64);
  const small = new TerminalStore({ maxWarnings: 2 });
  const a = small.applyText(text);
  const b = small.applyNotificationText(`{"sessionId":"s","update":${text}}`);
  assert.ok(a.ok && b.ok);
  assert.deepEqual([a.warnings.length, b.warnings.length, small.counters.warningsDropped], [2, 2, 2 * (100000 - 2)]);
  const parsed = parseUpdateSessionNotification(`{"sessionId":"s","update":${text}}`, { maxWarnings: 1 });
  assert.ok(parsed.ok);
  assert.equal(parsed.warningsDropped, 100000 - 1);
});
