// The TypeScript runner of the construct vectors and generated values
// (xtask/src/construct_vectors.rs): `node vectors.js REGISTRY` with a generated package's
// compiled `registry.js`; reads a JSON array of cases on stdin and prints one result per
// case. Built with the TypeScript tests (tests/typescript/tsconfig.json).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

type Issue = { kind: string; path: string };
type Outcome = { ok: true; value: unknown; warnings: Issue[] } | { ok: false; error: Issue };
type Codec = { parse(text: string): Outcome; serialize(value: unknown): string };
type Results = { decode(method: string, value: unknown): Outcome; serialize(method: string, value: unknown): string };
type Registry = {
  CODECS: Map<string, Map<string, Codec>>;
  DEFAULTS: Map<string, Map<string, (value: unknown) => unknown>>;
  RESULTS: Map<string, Map<string, Results>>;
};
type Case = { module: string; type: string; text: string; method?: string };

const registryPath = process.argv[2];
if (registryPath === undefined) throw new Error("usage: vectors.js REGISTRY < cases.json");
const { CODECS, DEFAULTS, RESULTS } = (await import(pathToFileURL(registryPath).href)) as Registry;
const issues = (list: Issue[]): string[][] => list.map((w) => [w.kind, w.path]);

function result(c: Case): unknown {
  if (c.method !== undefined) {
    const table = RESULTS.get(c.module)?.get(c.type);
    if (!table) return { missing: true };
    const r = table.decode(c.method, JSON.parse(c.text));
    if (!r.ok) return { error: [r.error.kind, r.error.path] };
    const text = table.serialize(c.method, r.value);
    return { output: text, warnings: issues(r.warnings), defaults: text };
  }
  const codec = CODECS.get(c.module)?.get(c.type);
  if (!codec) return { missing: true };
  const r = codec.parse(c.text);
  if (!r.ok) return { error: [r.error.kind, r.error.path] };
  const withDefaults = DEFAULTS.get(c.module)?.get(c.type) ?? ((v: unknown) => v);
  return { output: codec.serialize(r.value), warnings: issues(r.warnings), defaults: codec.serialize(withDefaults(r.value)) };
}

const cases = JSON.parse(readFileSync(0, "utf8")) as Case[];
process.stdout.write(JSON.stringify(cases.map(result)));
