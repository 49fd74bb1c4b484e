// Errors and warnings: a kind, an RFC 6901 JSON pointer and a sentence a user can act on.

import type { ErrorKind } from "./error_kinds.js";

export type { ErrorKind } from "./error_kinds.js";
export { ERROR_KINDS } from "./error_kinds.js";

/**
 * A parse error, or a problem a lenient member absorbed (a warning: the member or
 * array item was dropped). A warning has the kind and pointer the error would have had.
 */
export interface Problem {
  /** What kind of problem. */
  readonly kind: ErrorKind;
  /**
   * RFC 6901 pointer into the input: the offending value, or where a missing member
   * should be, or the repeated member. `""` is the document root.
   */
  readonly path: string;
  /** A sentence saying what was expected and what to change. */
  readonly message: string;
}

/** A parsed value and the warnings for what lenient members absorbed, or one error. */
export type ParseResult<T> =
  | {
      readonly ok: true;
      readonly value: T;
      /** What lenient members absorbed, in document order: at most `ParseOptions.maxWarnings`. */
      readonly warnings: Problem[];
      /** How many more problems lenient members absorbed past `maxWarnings`: counted, never built. */
      readonly warningsDropped: number;
    }
  | { readonly ok: false; readonly error: Problem };

export { DEFAULT_MAX_WARNINGS } from "./limits.js";

/** How a parse reports what lenient members absorb. */
export interface ParseOptions {
  /**
   * At most this many warnings are kept (default `DEFAULT_MAX_WARNINGS`); every further
   * absorbed problem is only counted, in `warningsDropped`, and costs no memory: no pointer,
   * message or error object is made for it. `Infinity` keeps them all.
   */
  readonly maxWarnings?: number;
}

/**
 * Thrown inside the runtime and generated decoders; the entry points catch it and
 * return it as a `ParseResult` error. Never escapes a `parse...` function.
 *
 * Deliberately not an `Error`: a lenient member turns each one into a warning, so a
 * throw must cost no stack trace.
 */
export class DecodeError {
  /** The problem, with its kind and pointer. */
  readonly problem: Problem;

  constructor(problem: Problem) {
    this.problem = problem;
  }

  /** `kind at pointer: message`. */
  get message(): string {
    return describeProblem(this.problem);
  }

  toString(): string {
    return `DecodeError: ${this.message}`;
  }
}

/** A problem as one line: `kind at /pointer: message` (`the document root` for `""`). */
export function describeProblem(p: Problem): string {
  return `${p.kind} at ${p.path === "" ? "the document root" : p.path}: ${p.message}`;
}

/** Throws a `DecodeError` for `kind` at `path`. */
export function raise(kind: ErrorKind, path: string, message: string): never {
  throw new DecodeError({ kind, path, message });
}

/** Appends one RFC 6901 reference token (`~` -> `~0`, `/` -> `~1`) to `path`. */
export function pushToken(path: string, token: string | number): string {
  if (typeof token === "number") return `${path}/${token}`;
  if (token.indexOf("~") < 0 && token.indexOf("/") < 0) return `${path}/${token}`;
  return `${path}/${token.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** Builds an RFC 6901 pointer from reference tokens (member names and array indexes). */
export function pointer(tokens: readonly (string | number)[], length: number = tokens.length): string {
  let path = "";
  for (let i = 0; i < length; i++) path = pushToken(path, tokens[i] as string | number);
  return path;
}
