/**
 * The audit log's hash chain: each row's hash covers the previous row's hash
 * and the row's canonical content (a JSON array of its fields in a fixed
 * order, the time as ISO 8601 with milliseconds). Ids are gapless, so a
 * removed row breaks the chain as surely as a changed one. Pure: the store
 * writes and reads rows, this decides what their hashes must be.
 *
 * The hash is keyed: "k1:" and HMAC-SHA256 under a key derived from the
 * master key, so that whoever can write the database but does not hold the
 * master key (its superuser can switch the append-only triggers off) cannot
 * compute the hashes of rows they rewrite. Every row must be keyed: a chain
 * that accepted plain SHA-256 rows at its beginning (an older version's)
 * could be rewritten whole as plain rows, keyed rows added after, and still
 * check out.
 */
import { createHmac, type KeyObject } from "node:crypto";

/** The chain's start: the "previous hash" of row 1. */
export const GENESIS_HASH = "0".repeat(64);

export interface AuditContent {
  id: number;
  at: Date;
  actor: string;
  action: string;
  outcome: "success" | "failure";
  merchantId: string;
  target: string;
  clientAddress: string;
  beforeJson: string;
  afterJson: string;
  detail: string;
}

export interface AuditRow extends AuditContent {
  prevHash: string;
  hash: string;
}

export function canonicalAudit(c: AuditContent): string {
  return JSON.stringify([c.id, c.at.toISOString(), c.actor, c.action, c.outcome, c.merchantId, c.target, c.clientAddress, c.beforeJson, c.afterJson, c.detail]);
}

const KEYED = "k1:";

/** A row's hash: "k1:" and the HMAC-SHA256 of the previous hash, a newline and the row's canonical content. */
export function auditHash(prevHash: string, c: AuditContent, key: KeyObject): string {
  return KEYED + createHmac("sha256", key).update(prevHash, "utf8").update("\n", "utf8").update(canonicalAudit(c), "utf8").digest("hex");
}

export type ChainVerdict = { intact: true; checked: number } | { intact: false; checked: number; firstBrokenId: number; problem: string };

/**
 * Walks rows in id order, carrying the previous hash and the expected id
 * between calls (`state`), so a chain of any length is checked in batches.
 */
export interface ChainWalk {
  expectedId: number;
  prevHash: string;
  checked: number;
}

export const startWalk = (): ChainWalk => ({ expectedId: 1, prevHash: GENESIS_HASH, checked: 0 });

/** Checks the next rows; returns the first problem found, or undefined. */
export function walkChain(walk: ChainWalk, rows: readonly AuditRow[], key: KeyObject): { id: number; problem: string } | undefined {
  for (const row of rows) {
    if (row.id !== walk.expectedId) return { id: walk.expectedId, problem: `row ${walk.expectedId} is missing (the next row is ${row.id})` };
    if (row.prevHash !== walk.prevHash) return { id: row.id, problem: "its previous hash is not the hash of the row before it" };
    if (!row.hash.startsWith(KEYED))
      return { id: row.id, problem: "its hash is not keyed (rewritten without the key, or written by a version before keyed hashes)" };
    if (auditHash(row.prevHash, row, key) !== row.hash) return { id: row.id, problem: "its content does not match its hash (the row was changed)" };
    walk.prevHash = row.hash;
    walk.expectedId += 1;
    walk.checked += 1;
  }
  return undefined;
}

/**
 * A value for before/after: canonical JSON (keys sorted), so that the same
 * values always read the same; undefined values dropped.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "";
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object" && !(v instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortKeys(x);
    }
    return out;
  }
  if (typeof v === "bigint") return v.toString();
  return v;
}
