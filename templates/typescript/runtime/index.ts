// The runtime's public surface: result and problem types, JSON values and their member order, strict base64 and path checks.

export { Base64Error, decodeBase64, encodeBase64 } from "./base64.js";
export { DEFAULT_MAX_WARNINGS, describeProblem } from "./errors.js";
export type { ErrorKind, ParseOptions, ParseResult, Problem } from "./errors.js";
export { keysOf, ORDER } from "./json.js";
export type { Json, JsonObject } from "./json.js";
export { isAbsolutePath } from "./path.js";
