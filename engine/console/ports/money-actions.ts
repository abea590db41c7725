/**
 * What the Backoffice's money actions keep of their own (docs/backoffice-operations.md, Money actions): holds on
 * payouts waiting for a decision, and the first of a refund's two approvals above the merchant's four-eyes amount.
 * Part of the Backoffice's records (BackofficeRecords extends it), so that every console use case has them.
 */
import type { Tx } from "./transactions.ts";

/** An operator's hold on a payout waiting for a decision. */
export interface PayoutHold {
  traceId: number;
  login: string;
  reason: string;
  heldAt: Date;
}

/** The first approval of a refund above the merchant's four-eyes amount: one per sale. */
export interface RefundFirstApproval {
  saleTraceId: number;
  /** The form's key: the refund, once a second operator approves it, is order bo-refund-<requestId>. */
  requestId: string;
  amountMinor: number;
  currency: string;
  login: string;
  reason: string;
  approvedAt: Date;
}

/** Whether a hold was put: put, already held (by anyone), or the payout is not waiting for a decision. */
export type HoldOutcome = "held" | "already-held" | "not-waiting";

export interface MoneyActionRecords {
  /** The holds standing on these payouts. */
  holds(traceIds: number[], tx?: Tx): Promise<Map<number, PayoutHold>>;
  /**
   * Holds a payout, only while it waits in requested for an operator (its card sealed): under the payout row's lock,
   * so that an approval committing at the same moment either comes first (the payout is no longer waiting) or
   * reads the hold.
   */
  hold(h: Omit<PayoutHold, "heldAt"> & { at: Date }, tx: Tx): Promise<HoldOutcome>;
  /** Ends the hold; the hold that stood, or undefined when there was none. */
  release(traceId: number, tx: Tx): Promise<PayoutHold | undefined>;
  /** Payouts waiting for an operator and on hold, oldest first, after `afterTraceId`. */
  heldQueue(merchants: readonly string[] | undefined, afterTraceId: number | undefined, limit: number): Promise<number[]>;
  /** What remains refundable of a sale: its amount less its approved and pending refunds. */
  refundRemaining(saleTraceId: number): Promise<number>;
  refundFirstApproval(saleTraceId: number, tx?: Tx): Promise<RefundFirstApproval | undefined>;
  /** Records it; false when the sale has one already. */
  recordRefundFirstApproval(a: Omit<RefundFirstApproval, "approvedAt"> & { at: Date }, tx: Tx): Promise<boolean>;
  /** Forgets the sale's waiting refund approval, or only `login`'s (whether there was one to forget). */
  forgetRefundFirstApproval(saleTraceId: number, login?: string, tx?: Tx): Promise<boolean>;
}
