// The runtime's public surface: result and problem types, JSON values, strict base64 and path checks.

export { Base64Error, decodeBase64, encodeBase64 } from "./base64.js";
export type { ErrorKind, ParseResult, Problem } from "./errors.js";
export { fromJson, toJson } from "./json.js";
export type { Json, JsonObject, PlainJson } from "./json.js";
export { isAbsolutePath } from "./path.js";
