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
  STATE_RULES: Map<string, string>;
  CODECS: Map<string, Map<string, Codec>>;
  DEFAULTS: Map<string, Map<string, (value: unknown) => unknown>>;
  RESULTS: Map<string, Map<string, Results>>;
};
type Case = { kind?: string; schema: string; type: string; inputText: string; method?: string; initialText?: string; limits?: unknown; messages?: { type: string; inputText: string }[] };
type State = {
  restore(snapshot: unknown): { ok: true } | { ok: false; error: Issue };
  counters(): { [k: string]: number };
  checkInvariants(): void;
  apply(name: string, text: string): { ok: true; warnings: Issue[] } | { ok: false; error: Issue };
  snapshot(): unknown;
};
type Result = { [k: string]: unknown };

const registryPath = process.argv[2];
if (registryPath === undefined) throw new Error("usage: vectors.js REGISTRY < cases.json");
const { CODECS, DEFAULTS, RESULTS, STATE_RULES } = (await import(pathToFileURL(registryPath).href)) as Registry;
const runtime = new URL("runtime/", pathToFileURL(registryPath));
type LimitsResult = { ok: true; limits: { [k: string]: number } } | { ok: false; error: { path: string; message: string } };
const { SessionState, stateLimitsFromJson } = (await import(new URL("state.js", runtime).href)) as {
  SessionState: new (rules: string, codecs: Map<string, Codec>, limits?: { [k: string]: number }) => State;
  stateLimitsFromJson(v: unknown): LimitsResult;
};
const { writeJson } = (await import(new URL("writer.js", runtime).href)) as { writeJson(v: unknown): string };
const { parseJson } = (await import(new URL("json.js", runtime).href)) as { parseJson(t: string): unknown };

/** A `state` case: the messages applied in order to a new session state (from `initialText`
 * when given), up to the first that fails. */
function stateResult(c: Case): Result {
  const rules = STATE_RULES.get(c.schema);
  const codecs = CODECS.get(c.schema);
  if (rules === undefined || codecs === undefined) return { unsupported: `schema ${c.schema} has no x-state` };
  // Only a case without `limits` takes the defaults (`"limits": null` is bad limits).
  const limits = stateLimitsFromJson(c.limits === undefined ? {} : c.limits);
  if (!limits.ok) return { unsupported: `limits at ${JSON.stringify(limits.error.path)}: ${limits.error.message}` };
  const state = new SessionState(rules, codecs, limits.limits);
  const out: Result = {};
  const warnings: Issue[] = [];
  const restored = c.initialText === undefined ? { ok: true as const } : state.restore(parseJson(c.initialText));
  if (!restored.ok) out["error"] = { kind: restored.error.kind, path: `/initial${restored.error.path}` };
  for (const [i, m] of (restored.ok ? (c.messages ?? []) : []).entries()) {
    const r = state.apply(m.type, m.inputText);
    if (!r.ok) {
      out["error"] = { kind: r.error.kind, path: `/messages/${i}/message${r.error.path}` };
      break;
    }
    warnings.push(...r.warnings.map((w) => ({ kind: w.kind, path: `/messages/${i}/message${w.path}` })));
  }
  // The state is typed: every target decodes as its definition and writes back as itself.
  try {
    state.checkInvariants();
  } catch (e) {
    out["invariant"] = e instanceof Error ? e.message : String(e);
  }
  out["state"] = writeJson(state.snapshot());
  out["warnings"] = warnings;
  // What the limits dropped, when they dropped anything (as the store's counters).
  const counters = state.counters();
  if (Object.values(counters).some((n) => n > 0)) out["counters"] = counters;
  return out;
}

function outcome(r: Outcome, serialize: (v: unknown) => string): Result {
  if (!r.ok) return { error: { kind: r.error.kind, path: r.error.path }, message: r.error.message ?? "" };
  return { output: serialize(r.value), warnings: r.warnings.map((w) => ({ kind: w.kind, path: w.path })) };
}

function result(c: Case): Result {
  if (c.kind === "state") return stateResult(c);
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
