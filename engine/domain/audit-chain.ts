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
 * compute the hashes of rows they rewrite. Rows written before the key
 * (plain SHA-256, 64 hex characters) are accepted only as the chain's
 * beginning, and counted, so that a chain made unkeyed again shows.
 */
import { createHash, createHmac, type KeyObject } from "node:crypto";

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

/** A row's hash: keyed when `key` is given (every row written now), else the plain SHA-256 of the rows written before keyed hashes. */
export function auditHash(prevHash: string, c: AuditContent, key?: KeyObject): string {
  if (key) return KEYED + createHmac("sha256", key).update(prevHash, "utf8").update("\n", "utf8").update(canonicalAudit(c), "utf8").digest("hex");
  return createHash("sha256").update(prevHash, "utf8").update("\n", "utf8").update(canonicalAudit(c), "utf8").digest("hex");
}

/** `unkeyed`: how many rows, at the chain's beginning, carry plain hashes (written before keyed ones): anyone with the database could rewrite those. */
export type ChainVerdict =
  | { intact: true; checked: number; unkeyed: number }
  | { intact: false; checked: number; unkeyed: number; firstBrokenId: number; problem: string };

/**
 * Walks rows in id order, carrying the previous hash and the expected id
 * between calls (`state`), so a chain of any length is checked in batches.
 */
export interface ChainWalk {
  expectedId: number;
  prevHash: string;
  checked: number;
  /** Rows with plain hashes so far; once a keyed row is seen, no plain one may follow. */
  unkeyed: number;
  keyed: boolean;
}

export const startWalk = (): ChainWalk => ({ expectedId: 1, prevHash: GENESIS_HASH, checked: 0, unkeyed: 0, keyed: false });

/** Checks the next rows; returns the first problem found, or undefined. */
export function walkChain(walk: ChainWalk, rows: readonly AuditRow[], key: KeyObject): { id: number; problem: string } | undefined {
  for (const row of rows) {
    if (row.id !== walk.expectedId) return { id: walk.expectedId, problem: `row ${walk.expectedId} is missing (the next row is ${row.id})` };
    if (row.prevHash !== walk.prevHash) return { id: row.id, problem: "its previous hash is not the hash of the row before it" };
    const keyed = row.hash.startsWith(KEYED);
    if (!keyed && walk.keyed) return { id: row.id, problem: "its hash is unkeyed after keyed rows (the row was rewritten)" };
    if (auditHash(row.prevHash, row, keyed ? key : undefined) !== row.hash)
      return { id: row.id, problem: "its content does not match its hash (the row was changed)" };
    if (keyed) walk.keyed = true;
    else walk.unkeyed += 1;
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
