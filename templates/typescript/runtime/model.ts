// What generated types share: the symbols that hold unknown members and mark unknown variants.

import { addExtra, type Cx, membersExcept } from "./decode.js";
import { type Json, type JsonObject, keysOf, type ObjectBuilder } from "./json.js";

/** The key of a known object's unknown members (kept in input order, written after the known ones). */
export const EXTRA: unique symbol = Symbol.for("acp-terminal.extra");

/** Marks a variant this version does not know. */
export const UNKNOWN_VARIANT: unique symbol = Symbol.for("acp-terminal.unknown-variant");

/** Marks a value a union with an unconstrained branch kept as it came. */
export const RAW_VALUE: unique symbol = Symbol.for("acp-terminal.raw-value");

/**
 * A value of a union with an unconstrained branch (upstream's `ErrorData`) that none of
 * its typed alternatives took, or that its alternative rejected: kept as it came and
 * written back unchanged.
 */
export interface RawValue {
  readonly [RAW_VALUE]: true;
  /** The value as it came. */
  readonly value: Json;
}

/** Wraps a value a union keeps as it came. */
export function rawValue(value: Json): RawValue {
  return { [RAW_VALUE]: true, value };
}

/** Whether a union value was kept as it came. */
export function isRawValue(v: unknown): v is RawValue {
  return typeof v === "object" && v !== null && (v as Partial<RawValue>)[RAW_VALUE] === true;
}

/** Unknown members of a known object, if any. */
export interface WithExtra {
  /** Members this version does not know, in input order. */
  [EXTRA]?: JsonObject;
}

/**
 * A union variant this version does not know: its tag and every other member, in input
 * order, written back unchanged (tag first).
 */
export interface UnknownVariant {
  readonly [UNKNOWN_VARIANT]: true;
  /** The tag value. */
  readonly tag: string;
  /** Every member except the tag, in input order. */
  readonly members: JsonObject;
}

/** Builds an unknown variant from an object, leaving out its tag member. */
export function unknownVariant(tag: string, obj: JsonObject, tagName: string, cx: Cx): UnknownVariant {
  return { [UNKNOWN_VARIANT]: true, tag, members: membersExcept(obj, [tagName], cx) };
}

/**
 * Builds an unknown variant of a union another union's variant carries, leaving out the
 * members named in `skip` (both tags).
 */
export function unknownVariantExcept(tag: string, obj: JsonObject, skip: readonly string[], cx: Cx): UnknownVariant {
  return { [UNKNOWN_VARIANT]: true, tag, members: membersExcept(obj, skip, cx) };
}

/** Whether a union value is a variant this version does not know. */
export function isUnknownVariant(v: object): v is UnknownVariant {
  return (v as Partial<UnknownVariant>)[UNKNOWN_VARIANT] === true;
}

/**
 * The payload of a tag-only variant of a tagged object: its unknown members, all but
 * those named in `skip` (the tag and the common members, which are decoded on their own).
 */
export function noPayloadExcept(obj: JsonObject, skip: readonly string[], cx: Cx): WithExtra {
  let extra: ObjectBuilder | undefined;
  for (const k of keysOf(obj)) {
    const v = obj[k];
    if (v !== undefined && !skip.includes(k)) extra = addExtra(extra, k, v, cx);
  }
  return extra === undefined ? {} : { [EXTRA]: extra.finish() };
}

/** The payload of a tag-only variant: just its unknown members (all but the tag). */
export function noPayload(obj: JsonObject, tagName: string, cx: Cx): WithExtra {
  return noPayloadExcept(obj, [tagName], cx);
}
