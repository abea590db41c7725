/**
 * CONTRACT section 2 as a platform would write it, independently of the
 * engine's code, for every test that signs or checks a signature: the
 * canonical string, the HMAC-SHA384 hex, the `signature` member and the
 * X-Cashier-Signature header.
 */
import { createHmac, createSecretKey, type KeyObject } from "node:crypto";

export type Body = Record<string, unknown>;

/**
 * Members but `signature`, nulls dropped, sorted by code unit, `name=value`
 * joined with `&`. An object or array member makes a body unsignable: `throw`
 * says so; `stringify` signs it anyway, to build bodies the service must refuse.
 */
export function canonical(body: Body, objects: "throw" | "stringify" = "throw"): string {
  return Object.keys(body)
    .filter((name) => name !== "signature" && body[name] !== null && body[name] !== undefined)
    .sort()
    .map((name) => {
      const value = body[name];
      if (objects === "throw" && typeof value === "object") {
        throw new Error(`member ${name} is ${Array.isArray(value) ? "an array" : "an object"}`);
      }
      return `${name}=${String(value)}`;
    })
    .join("&");
}

// A KeyObject per secret: on Node 24 an HMAC keyed by a string is several times slower.
const keys = new Map<string, KeyObject>();

/** Lowercase hex HMAC-SHA384 with the secret (UTF-8) as key. */
export function hmacHex(secret: string, message: string | Buffer): string {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, "utf8"))));
  return createHmac("sha384", key).update(message).digest("hex");
}

/** The `signature` member a body should carry. */
export const signatureOf = (body: Body, secret: string, objects: "throw" | "stringify" = "throw") => hmacHex(secret, canonical(body, objects));

/** The X-Cashier-Signature header for a raw body signed at `t`. */
export function headerSignature(raw: string, secret: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${hmacHex(secret, Buffer.concat([Buffer.from(`${t}.`), Buffer.from(raw, "utf8")]))}`;
}
