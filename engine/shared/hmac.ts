/**
 * HMAC-SHA384 signatures of CONTRACT section 2: lowercase hex, 96 characters,
 * compared in constant time in either hex case. A signature of the wrong length
 * or alphabet is simply "not equal", never an exception.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";

export type HmacKey = string | Buffer | KeyObject;

/** A merchant secret as a reusable key (HMAC with a KeyObject is several times cheaper). */
export function hmacKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, "utf8"));
}

export function hmacHex(secret: HmacKey, message: string): string {
  return createHmac("sha384", secret).update(message, "utf8").digest("hex");
}

const HEX96 = /^[0-9a-fA-F]{96}$/;

export function verifyHmac(secret: HmacKey, message: string, signature: string): boolean {
  const expected = createHmac("sha384", secret).update(message, "utf8").digest();
  const given = HEX96.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(expected.length);
  // Compare even when the shape is wrong, so timing tells nothing about why.
  return timingSafeEqual(expected, given) && HEX96.test(signature);
}

/** Keyed fingerprint (hex HMAC-SHA256) for values that must match but never be recoverable. */
export function fingerprint(key: HmacKey, value: string | Uint8Array): string {
  return createHmac("sha256", key).update(value).digest("hex");
}
