/**
 * The audit log as the use cases write and read it: a hash chain of rows
 * (domain/audit-chain.ts), appended in the transaction of the action it
 * records, as that transaction's last statement (the chain's lock is then held
 * only until the commit).
 */
import type { AuditCheckpoint, AuditContent, AuditRow, ChainVerdict } from "../domain/audit-chain.ts";
import type { Tx } from "./transactions.ts";

/** What a caller records; the id, the hashes and (unless given) the time are the store's. */
export type AuditRecord = Omit<AuditContent, "id" | "at" | "merchantId" | "target" | "clientAddress" | "beforeJson" | "afterJson" | "detail"> &
  Partial<Pick<AuditContent, "merchantId" | "target" | "clientAddress" | "beforeJson" | "afterJson" | "detail">> & { at?: Date };

/** The operators' search of the log: every filter given must hold. */
export interface AuditFilter {
  actor?: string;
  /** Exact, or a prefix when it ends with '.'. */
  action?: string;
  merchantId?: string;
  /** Only rows of these merchants (a scoped admin's view). */
  merchantIds?: readonly string[];
  startTime?: Date;
  endTime?: Date;
  beforeId?: number;
  limit: number;
}

/** The append-only, chained log of operator actions. */
export interface AuditLog {
  /** Appends one row, in `tx` when given (as its last statement), else in a transaction of its own. */
  append(record: AuditRecord, tx?: Tx): Promise<AuditRow>;
  /** Newest first. */
  list(f: AuditFilter): Promise<AuditRow[]>;
  /** Checks the whole chain in batches of `batch` rows, and that no signed checkpoint names a row it lacks. */
  verify(batch?: number): Promise<ChainVerdict>;
  /** Signs the chain's head as it stands into the checkpoints (an engine's start); the caller logs it too. */
  checkpointHead(): Promise<AuditCheckpoint & { mac: string }>;
}
