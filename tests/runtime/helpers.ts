// Shared test helpers: parse outcomes as [kind, path] pairs.

import { DecodeError } from "../../templates/typescript/runtime/errors.js";
import { type Json, parseJson } from "../../templates/typescript/runtime/json.js";
import type { ParseResult } from "../../templates/typescript/runtime/errors.js";

/** The error of parsing `text` as JSON, as `[kind, path]`, or `undefined` when it parses. */
export function jsonError(text: string): [string, string] | undefined {
  try {
    parseJson(text);
    return undefined;
  } catch (e) {
    if (e instanceof DecodeError) return [e.problem.kind, e.problem.path];
    throw e;
  }
}

/** Parses `text`, failing the test with the problem when it does not parse. */
export function json(text: string): Json {
  return parseJson(text);
}

/** `[kind, path]` of a failed result; throws when the result is ok. */
export function errorOf<T>(r: ParseResult<T>): [string, string] {
  if (r.ok) throw new Error("expected an error, got a value");
  if (r.error.message === "") throw new Error("an error carries a sentence");
  return [r.error.kind, r.error.path];
}

/** The value and `[kind, path]` warnings of an ok result; throws with the problem otherwise. */
export function okOf<T>(r: ParseResult<T>): [T, [string, string][]] {
  if (!r.ok) throw new Error(`unexpected error ${r.error.kind} at ${r.error.path}: ${r.error.message}`);
  return [r.value, r.warnings.map((w) => [w.kind, w.path])];
}
