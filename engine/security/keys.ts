/**
 * The master key and the keys derived from it. One 32-byte secret
 * (CASHIER_MASTER_KEY) encrypts merchant secrets and card numbers at rest and,
 * through HKDF, keys the fingerprints; a dev key is generated on first start so
 * that `npm start` works with no setup, and refused nowhere but logged as such.
 */
import { createHash, createSecretKey, hkdfSync, randomBytes, type KeyObject } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Keys are KeyObjects, not Buffers: on Node 24 an HMAC keyed with a Buffer
 * costs about 20 us (key-type probing), with a KeyObject about 4 us.
 */
export interface Keys {
  /** AES-256-GCM key for secrets and card numbers at rest. */
  encryption: KeyObject;
  /** HMAC key for card fingerprints (same card -> same fingerprint, irreversible). */
  cardFingerprint: KeyObject;
  /** HMAC key for order-parameter fingerprints (idempotency). */
  orderFingerprint: KeyObject;
  /** HMAC key for stored bearer/session token hashes. */
  tokenHash: KeyObject;
  /** HMAC key of the audit log's hash chain (domain/audit-chain.ts). */
  auditChain: KeyObject;
  /** Short public id of the master key, to tell keys apart in logs. */
  keyId: string;
}

export class MasterKeyError extends Error {}

/** Accepts 64 hex characters or base64 of 32 bytes. */
export function parseMasterKey(raw: string): Buffer {
  const text = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, "hex");
  const b = Buffer.from(text, "base64");
  if (b.length === 32 && /^[A-Za-z0-9+/=_-]+$/.test(text)) return b;
  throw new MasterKeyError("CASHIER_MASTER_KEY must be 32 bytes: 64 hex characters or base64");
}

export function deriveKeys(master: Buffer): Keys {
  const derive = (info: string) => createSecretKey(Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), `cashier/${info}`, 32)));
  return {
    encryption: derive("encryption/v1"),
    cardFingerprint: derive("card-fingerprint/v1"),
    orderFingerprint: derive("order-fingerprint/v1"),
    tokenHash: derive("token-hash/v1"),
    auditChain: derive("audit-chain/v1"),
    keyId: createHash("sha256").update(master).digest("hex").slice(0, 8),
  };
}

/** Reads CASHIER_MASTER_KEY, or the dev key in dataDir (creating it once). */
export async function loadMasterKey(setting: string | undefined, dataDir: string): Promise<{ key: Buffer; generated: boolean }> {
  if (setting) return { key: parseMasterKey(setting), generated: false };
  const file = join(dataDir, "dev-master.key");
  try {
    return { key: parseMasterKey(await readFile(file, "utf8")), generated: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  await writeFile(file, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  return { key, generated: true };
}
