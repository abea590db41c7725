/**
 * The checkout connector's status tables: one per flow (the sale and payout
 * answers of `POST /payments`, a refund's answers, and the lookups:
 * `GET /payments/{id}`, `GET /payments?reference=` and the webhooks), each an
 * exhaustive switch over Checkout.com's payment status enum, so that a status
 * added to the enum does not compile until every flow has a row for it. A
 * `by-code` row defers to the response-code table (codes.ts).
 */

/** Checkout.com's payment statuses (its SDKs' PaymentStatus enum; test/contracts/checkout/SOURCE.md). */
export const PAYMENT_STATUSES = [
  "Active",
  "Pending",
  "Authorized",
  "Card Verified",
  "Voided",
  "Partially Captured",
  "Captured",
  "Partially Refunded",
  "Refunded",
  "Declined",
  "Canceled",
  "Expired",
  "Requested",
  "Paid",
  "Returned",
  "Retry Scheduled",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A refund's states: accepted (202), then approved or declined (its action, its webhook). */
export const REFUND_STATUSES = ["Accepted", "Pending", "Approved", "Declined"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The flows whose answers are read: the three writes and the lookups. */
export type Flow = "sale" | "payout" | "refund" | "lookup";

/** What a status says before the response code is read: `by-code` defers to the code table. */
export type Verdict = "approved" | "pending" | "challenge" | "declined" | "by-code" | "unknown";

/** The exhaustive switches' default: unreachable while every status has its row. */
export const never = (s: never): never => {
  throw new Error(`no row for ${String(s)}`);
};

/** The answer to a card sale (201, or 202 with a 3-D Secure redirect). */
function saleVerdict(s: PaymentStatus): Verdict {
  switch (s) {
    case "Authorized":
    case "Captured":
      return "approved";
    case "Pending":
      return "challenge"; // with Checkout's redirect link; without one, pending
    case "Active":
    case "Requested":
    case "Retry Scheduled":
      return "pending";
    case "Declined":
      return "by-code";
    case "Voided":
    case "Canceled":
    case "Expired":
      return "declined"; // nothing was captured
    case "Card Verified": // a verification, not a sale
    case "Partially Captured":
    case "Partially Refunded":
    case "Refunded":
    case "Paid":
    case "Returned":
      return "unknown"; // not an answer to a new sale
    default:
      return never(s);
  }
}

/** The answer to a card payout. */
function payoutVerdict(s: PaymentStatus): Verdict {
  switch (s) {
    case "Paid":
      return "approved";
    case "Pending":
    case "Active":
    case "Requested":
    case "Retry Scheduled":
      return "pending";
    case "Declined":
      return "by-code";
    case "Returned": // the recipient's bank sent it back
    case "Canceled":
    case "Expired":
    case "Voided":
      return "declined";
    case "Authorized":
    case "Card Verified":
    case "Captured":
    case "Partially Captured":
    case "Partially Refunded":
    case "Refunded":
      return "unknown"; // not a payout's status
    default:
      return never(s);
  }
}

/** A payment as a lookup finds it, sale or payout: what it came to, whatever happened after. */
function lookupVerdict(s: PaymentStatus): Verdict {
  switch (s) {
    case "Authorized":
    case "Captured":
    case "Partially Captured":
    case "Partially Refunded": // refunds are attempts of their own
    case "Refunded":
    case "Paid":
      return "approved";
    case "Pending": // the customer may still be at the 3-D Secure page: its verdict comes later
    case "Active":
    case "Requested":
    case "Retry Scheduled":
      return "pending";
    case "Declined":
      return "by-code";
    case "Voided":
    case "Canceled":
    case "Expired":
    case "Returned":
      return "declined";
    case "Card Verified":
      return "unknown";
    default:
      return never(s);
  }
}

/** A refund's own answer. */
function refundVerdict(s: RefundStatus): Verdict {
  switch (s) {
    case "Accepted": // Checkout processes card refunds asynchronously: 202 is not yet the verdict
    case "Pending":
      return "pending";
    case "Approved":
      return "approved";
    case "Declined":
      return "by-code";
    default:
      return never(s);
  }
}

const PAYMENT_VERDICT = { sale: saleVerdict, payout: payoutVerdict, lookup: lookupVerdict } as const;

/** The verdict of one (flow, status) pair. */
export function verdictOf(flow: "sale" | "payout" | "lookup", status: PaymentStatus): Verdict;
export function verdictOf(flow: "refund", status: RefundStatus): Verdict;
export function verdictOf(flow: Flow, status: PaymentStatus | RefundStatus): Verdict {
  return flow === "refund" ? refundVerdict(status as RefundStatus) : PAYMENT_VERDICT[flow](status as PaymentStatus);
}

const tableOf = <S extends string>(all: readonly S[], verdict: (s: S) => Verdict) =>
  Object.fromEntries(all.map((s) => [s, verdict(s)])) as Readonly<Record<S, Verdict>>;

/** Every (flow, status) pair and its verdict: the tables as data, enumerated by the tests. */
export const STATUS_TABLE = {
  sale: tableOf(PAYMENT_STATUSES, saleVerdict),
  payout: tableOf(PAYMENT_STATUSES, payoutVerdict),
  lookup: tableOf(PAYMENT_STATUSES, lookupVerdict),
  refund: tableOf(REFUND_STATUSES, refundVerdict),
} as const satisfies Record<Flow, unknown>;
