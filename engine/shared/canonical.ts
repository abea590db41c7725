/**
 * The canonical string of a flat JSON object (CONTRACT section 2): every member
 * but `signature`, nulls dropped, sorted by name in code-unit order,
 * `name=value` joined with `&`. Used by the engine to sign what it sends (Process
 * replies, notifications) and by the edge to hand the engine what it received.
 */
import { hmacHex, type HmacKey } from "./hmac.ts";

export type Scalar = string | number | boolean | null | undefined;

/** The seed's `description` is varchar(256). */
export const MAX_DESCRIPTION = 256;

/** Unicode's control characters (Cc: C0, DEL and C1). */
const CONTROL = /\p{Cc}/gu;

/**
 * Text as it may stand in a signed reply's description: no control
 * characters, no `&` or `=` (the canonical string has no escaping, so those
 * would let a description pose as other members), at most 256 characters.
 */
export function signableText(text: string): string {
  const clean = text.replace(CONTROL, " ").replace(/&/g, "and").replace(/=/g, ":");
  const chars = [...clean];
  return chars.length <= MAX_DESCRIPTION ? clean : `${chars.slice(0, MAX_DESCRIPTION - 3).join("")}...`;
}

export function canonicalString(obj: Record<string, Scalar>): string {
  const names = Object.keys(obj).filter((k) => k !== "signature" && obj[k] !== null && obj[k] !== undefined);
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((k) => `${k}=${String(obj[k])}`).join("&");
}

/** The `signature` member of a flat body (CONTRACT section 2): HMAC-SHA384 hex of its canonical string. */
export function signBody(key: HmacKey, body: Record<string, Scalar>): string {
  return hmacHex(key, canonicalString(body));
}
