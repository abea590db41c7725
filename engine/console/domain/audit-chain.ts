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
 *
 * The chain alone cannot tell that rows were cut from its end: what is left is
 * a shorter chain, intact. So its head is anchored apart: a checkpoint (the
 * last row's id and hash, signed with the same key under its own label) is
 * written to audit_checkpoint with each row and at each engine start, and a
 * check fails when a checkpoint names a row the chain no longer has, or a
 * hash the chain's row no longer carries.
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

export type ChainVerdict =
  | { intact: true; checked: number; anchor?: { rowId: number; at: Date } }
  | { intact: false; checked: number; firstBrokenId: number; problem: string };

/** A signed checkpoint of the chain's head (table audit_checkpoint). */
export interface AuditCheckpoint {
  at: Date;
  /** The chain's last row then; 0 for an empty chain, whose "hash" is GENESIS_HASH. */
  rowId: number;
  rowHash: string;
  /** "row": written with that row; "start": an engine's start. */
  reason: "row" | "start";
}

const CHECKPOINT_KEYED = "c1:";

/**
 * A checkpoint's signature: "c1:" and the HMAC-SHA256, under the chain's key, of a label no row's hash input can
 * begin with (a row's starts with a previous hash) and the checkpoint's fields.
 */
export function checkpointMac(c: AuditCheckpoint, key: KeyObject): string {
  const text = ["audit-checkpoint/v1", String(c.rowId), c.rowHash, c.at.toISOString(), c.reason].join("\n");
  return CHECKPOINT_KEYED + createHmac("sha256", key).update(text, "utf8").digest("hex");
}

/**
 * What is wrong between a checked chain (its last row `lastId`, and the stored hash of a row by id) and
 * checkpoints of it, in the order given, or undefined. A checkpoint whose signature fails is named as forged; a
 * signed one beyond the chain's end means rows were cut from the end; one naming another hash than its row's,
 * that the chain was cut there and written on (the ids taken again).
 */
export function judgeCheckpoints(
  lastId: number,
  hashOf: (rowId: number) => string | undefined,
  checkpoints: readonly (AuditCheckpoint & { mac: string })[],
  key: KeyObject,
): { id: number; problem: string } | undefined {
  for (const c of checkpoints) {
    if (checkpointMac(c, key) !== c.mac)
      return { id: c.rowId, problem: `the checkpoint of row ${c.rowId} (${c.at.toISOString()}) is not signed with the chain's key (forged or changed)` };
    if (c.rowId > lastId)
      return {
        id: lastId + 1,
        problem: `the chain ends at row ${lastId}, but a checkpoint signed at ${c.at.toISOString()} names row ${c.rowId}: rows ${lastId + 1} to ${c.rowId} were removed from its end`,
      };
    const hash = c.rowId === 0 ? GENESIS_HASH : hashOf(c.rowId);
    if (hash !== c.rowHash)
      return {
        id: c.rowId,
        problem: `its hash is not the one a checkpoint signed at ${c.at.toISOString()} names (the chain was cut and written again from here)`,
      };
  }
  return undefined;
}

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
