// The TypeScript runner of `decode` cases for any generated package (construct vectors,
// upstream's literals, the probes, generated values): `node vectors.js REGISTRY` with a
// package's compiled `registry.js`; reads a JSON array of cases on stdin (`schema` the
// package's module, `type`, `inputText`, optional `method`) and prints one result per
// case (docs/CONFORMANCE.md, "Runners and the judge"). Built with the TypeScript tests.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

type Issue = { kind: string; path: string; message?: string };
type Outcome = { ok: true; value: unknown; warnings: Issue[] } | { ok: false; error: Issue };
type Codec = { parse(text: string): Outcome; serialize(value: unknown): string };
type Results = { decode(method: string, value: unknown): Outcome; serialize(method: string, value: unknown): string };
type Registry = {
  CODECS: Map<string, Map<string, Codec>>;
  DEFAULTS: Map<string, Map<string, (value: unknown) => unknown>>;
  RESULTS: Map<string, Map<string, Results>>;
};
type Case = { schema: string; type: string; inputText: string; method?: string };
type Result = { [k: string]: unknown };

const registryPath = process.argv[2];
if (registryPath === undefined) throw new Error("usage: vectors.js REGISTRY < cases.json");
const { CODECS, DEFAULTS, RESULTS } = (await import(pathToFileURL(registryPath).href)) as Registry;

function outcome(r: Outcome, serialize: (v: unknown) => string): Result {
  if (!r.ok) return { error: { kind: r.error.kind, path: r.error.path }, message: r.error.message ?? "" };
  return { output: serialize(r.value), warnings: r.warnings.map((w) => ({ kind: w.kind, path: w.path })) };
}

function result(c: Case): Result {
  const method = c.method;
  const table = RESULTS.get(c.schema)?.get(c.type);
  const codec = CODECS.get(c.schema)?.get(c.type);
  if (method !== undefined ? !table : !codec) return { unsupported: `the package has no codec for ${c.type} in ${c.schema}` };
  const decode = (text: string): Result =>
    method !== undefined && table
      ? outcome(table.decode(method, JSON.parse(text)), (v) => table.serialize(method, v))
      : outcome((codec as Codec).parse(text), (v) => (codec as Codec).serialize(v));
  const r = decode(c.inputText);
  if (typeof r["output"] === "string") {
    if (method !== undefined) r["defaults"] = r["output"];
    else {
      const parsed = (codec as Codec).parse(c.inputText);
      const withDefaults = DEFAULTS.get(c.schema)?.get(c.type) ?? ((v: unknown) => v);
      if (parsed.ok) r["defaults"] = (codec as Codec).serialize(withDefaults(parsed.value));
    }
    r["again"] = decode(r["output"]);
  }
  return r;
}

const cases = JSON.parse(readFileSync(0, "utf8")) as Case[];
process.stdout.write(JSON.stringify(cases.map(result)));
