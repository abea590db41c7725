/**
 * Checkout.com's identifiers: a prefix and 26 characters of lowercase base32
 * (pay_, sid_, act_, evt_), which its API checks with `^(pay|sid)_(\w{26})$`.
 */
import { randomBytes } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

export function ckoId(prefix: "pay" | "sid" | "act" | "evt"): string {
  const bytes = randomBytes(26);
  let out = "";
  for (const b of bytes) out += ALPHABET[b & 31];
  return `${prefix}_${out}`;
}

/** A six-digit authorization code, as an issuer gives. */
export function authCode(): string {
  return String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, "0");
}
