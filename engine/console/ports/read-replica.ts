/**
 * The Backoffice's reads that may be served by a read replica
 * (DATABASE_READ_URL): the transaction search, its CSV export and the
 * dashboard's figures, which an operator reads and nothing writes after. A
 * transaction's detail, the payout queue, stuck work and everything followed
 * by a write stay on the primary (docs/operations.md, "Read replicas"). Each
 * answer says where it was read and how far behind the primary it may be,
 * for the page to say so.
 */
import type { ProcessDeps } from "../../payments/index.ts";
import type { BackofficeRecords } from "./backoffice.ts";

/** Where a read ran: the replica and its lag, or the primary (no replica, or one that could not be used). */
export interface ReadSource {
  replica: boolean;
  /** At most how far behind the primary the answer may be, in ms; 0 when caught up, and on the primary. */
  lagMs: number;
}

/** The stores a replica read may use: reads only. */
export interface ConsoleReadPorts {
  orders: Pick<ProcessDeps["orders"], "list">;
  backoffice: Pick<BackofficeRecords, "dashboard">;
}

/** Runs a read on the replica when there is one to use, else on the primary; says which. */
export interface ConsoleReads {
  read<T>(fn: (ports: ConsoleReadPorts) => Promise<T>): Promise<{ value: T; source: ReadSource }>;
}
