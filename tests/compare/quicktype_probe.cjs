// cargo xtask compare: what quicktype's JavaScript converters do.
//
// Usage: node quicktype_probe.cjs CONVERTERS.js SCHEMA.json PROBES.json
//
// quicktype was given every `$defs` entry as a top-level source (`SCHEMA#/$defs/Name`),
// with its default runtime type checks. Prints JSON: `defined`, the `$defs` names with a
// `toName` converter (quicktype's spelling counts: `toRequestID` for `RequestId`), and `results`, one per probe: `{"output": text}` when `toName`
// reads the probe's text and `nameToJson` writes it back, `{"error": message}` when it
// throws, or `{"missing": true}` when there is no converter.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const [converters, schemaPath, probesPath] = process.argv.slice(2);
const mod = require(path.resolve(converters));
const names = Object.keys(JSON.parse(fs.readFileSync(schemaPath, "utf8")).$defs);
// quicktype's own spelling of a name: its converters, looked up case-insensitively.
const byLowerCase = new Map(Object.keys(mod).map((k) => [k.toLowerCase(), k]));
const reader = (n) => byLowerCase.get(`to${n}`.toLowerCase());
const writer = (n) => byLowerCase.get(`${n}ToJson`.toLowerCase());
const defined = names.filter((n) => reader(n) !== undefined && writer(n) !== undefined);
const results = JSON.parse(fs.readFileSync(probesPath, "utf8")).cases.map((p) => {
  if (!defined.includes(p.type)) return { missing: true };
  let value;
  try {
    value = mod[reader(p.type)](p.inputText);
  } catch (e) {
    return { error: String(e && e.message ? e.message : e).split("\n")[0] };
  }
  try {
    return { output: JSON.stringify(JSON.parse(mod[writer(p.type)](value))) };
  } catch (e) {
    return { error: `read, but not written back: ${String(e && e.message ? e.message : e).split("\n")[0]}` };
  }
});
process.stdout.write(JSON.stringify({ defined, results }));
