// `node hostile_message.js parse|store FILE`: decodes one `SessionUpdate` message, the way a
// Client would, for `cargo xtask fuzz --only message` (which runs it under `/usr/bin/time -v`
// to read its peak memory and time). Prints what it kept and counted as one JSON line.

import { readFileSync } from "node:fs";
import { TerminalStore } from "../../generated/typescript/src/store.js";
import { parseSessionUpdate } from "../../generated/typescript/src/v2.js";

function main(argv: string[]): number {
  const [route, file] = argv;
  if (file === undefined) {
    console.error("usage: node hostile_message.js parse|store FILE");
    return 2;
  }
  const text = readFileSync(file, "utf8");
  let warnings: number;
  let dropped: number;
  if (route === "parse") {
    const r = parseSessionUpdate(text);
    if (!r.ok) {
      console.error(`${r.error.kind} at ${r.error.path}: ${r.error.message}`);
      return 1;
    }
    warnings = r.warnings.length;
    dropped = r.warningsDropped;
  } else if (route === "store") {
    const store = new TerminalStore();
    const r = store.applyText(text);
    if (!r.ok) {
      console.error(`${r.error.kind} at ${r.error.path}: ${r.error.message}`);
      return 1;
    }
    warnings = r.warnings.length;
    dropped = store.counters.warningsDropped;
  } else {
    console.error(`unknown route ${JSON.stringify(route)}: parse or store`);
    return 2;
  }
  console.log(JSON.stringify({ warnings, warningsDropped: dropped }));
  return 0;
}

process.exitCode = main(process.argv.slice(2));
