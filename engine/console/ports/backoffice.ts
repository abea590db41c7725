/**
 * The Backoffice's own reads and records: four-eyes amounts and first
 * approvals, the payout queue, a customer's history at a merchant, stuck
 * work, the cascade and refunds of a transaction, "check now", and the
 * dashboard's aggregates. Reads return trace_ids and callback ids; the
 * engine's own ports turn them into attempts and callbacks, so one mapping
 * serves every caller. `merchants` undefined is every merchant; otherwise the
 * operator's scope.
 */
import type { MoneyActionRecords } from "./money-actions.ts";
import type { Tx } from "./transactions.ts";

/** A merchant's four-eyes amount for a currency: an approval above it needs two operators. */
export interface Threshold {
  currency: string;
  amountMinor: number;
}

/** The first of a payout's two approvals. */
export interface FirstApproval {
  traceId: number;
  login: string;
  reason: string;
  note: string;
  approvedAt: Date;
}

/** A customer's approved deposits and payouts at a merchant, in one currency. */
export interface CustomerTotals {
  currency: string;
  depositsMinor: number;
  deposits: number;
  payoutsMinor: number;
  payouts: number;
}

/** The dashboard's figures over a period. */
export interface DashboardFigures {
  volume: { hour: Date; processor: string; currency: string; attempts: number; approved: number; approvedMinor: number }[];
  declines: { errorCode: number; errorDetails: string; count: number }[];
  waiting: { count: number; oldest: Date | null; under1h: number; under4h: number; under24h: number; over24h: number };
  callbacks: { kind: string; attempts: number; failedAttempts: number; givenUp: number }[];
}

/** What the Backoffice reads and records beyond the engine's own ports (the money actions' records among them). */
export interface BackofficeRecords extends MoneyActionRecords {
  thresholds(merchantId: string): Promise<Threshold[]>;
  /** The merchant's amounts are exactly these. */
  setThresholds(merchantId: string, list: Threshold[], tx: Tx): Promise<void>;
  firstApprovals(traceIds: number[], tx?: Tx): Promise<Map<number, FirstApproval>>;
  /** Records the first approval; false when one is already recorded. */
  recordFirstApproval(a: Omit<FirstApproval, "approvedAt"> & { at: Date }, tx: Tx): Promise<boolean>;
  /** Forgets the payout's first approval, or only `login`'s (whether there was one to forget). */
  forgetFirstApproval(traceId: number, login?: string, tx?: Tx): Promise<boolean>;
  /**
   * Payouts waiting in requested for an operator (their card sealed for the approval: not those whose Process call
   * is still asking the platform's Validation), oldest first, after `afterTraceId`.
   */
  payoutQueue(merchants: readonly string[] | undefined, afterTraceId: number | undefined, limit: number): Promise<number[]>;
  /** A customer's latest attempts of one type at a merchant (final attempts of each order only), newest first. */
  customerHistory(merchantId: string, pin: string, type: "sale" | "payout", exceptTraceId: number, limit: number): Promise<number[]>;
  /** A customer's approved totals at a merchant, by currency. */
  customerTotals(merchantId: string, pin: string): Promise<CustomerTotals[]>;
  /** Every attempt of the order of `traceId`, by attempt number. */
  cascade(traceId: number): Promise<number[]>;
  /** The refunds of a sale, oldest first. */
  refundsOf(traceId: number): Promise<number[]>;
  /** Callbacks given up, or pending after 3 or more attempts; oldest first. */
  failingCallbacks(merchants: readonly string[] | undefined, limit: number): Promise<number[]>;
  /** Attempts left non-final (not waiting for an operator) longer than `olderThan`; oldest first. */
  stuckTransactions(merchants: readonly string[] | undefined, olderThan: Date, limit: number): Promise<number[]>;
  /**
   * An operator's "check now": the attempt's next check becomes the
   * database's now, under the row's lock and only while it is still in
   * `status` (and payout `letter`), and the follow-up workers of the other engines are woken at
   * commit. The due time before and after; undefined when the attempt has left `status` meanwhile.
   */
  checkNow(traceId: number, status: string, letter: string | null, tx: Tx): Promise<{ before: Date | null; after: Date } | undefined>;
  dashboard(merchants: readonly string[] | undefined, start: Date, end: Date, now: Date): Promise<DashboardFigures>;
}
