/**
 * The values the schema's check constraints allow in each enumerated column,
 * as lists the entities declare (`p.enum`). The compile-time checks below keep
 * each list equal to the domain's type, so a row read through an entity is
 * already a domain value and the mappers need no cast.
 */
import type { AttemptOutcome, CallbackKind, CallbackState } from "../../shared/callbacks.ts";
import type { DepositState, PayoutLetter, TransactionStatus, TransactionType } from "../../shared/transaction.ts";

/** Fails to compile unless `List` holds every member of `Union`, and nothing else. */
type Exactly<Union, List extends readonly unknown[]> = [Union] extends [List[number]] ? ([List[number]] extends [Union] ? List : never) : never;

const exactly =
  <Union>() =>
  <const List extends readonly Union[]>(list: Exactly<Union, List>): List =>
    list;

/** payment_order.type */
export const TRANSACTION_TYPES = exactly<TransactionType>()(["sale", "payout", "refund"]);
/** transaction.status */
export const TRANSACTION_STATUSES = exactly<TransactionStatus>()([
  "pending",
  "approved",
  "declined_retry",
  "declined",
  "cancelled",
  "pending_async",
  "requested",
]);
/** transaction.payout_letter */
export const PAYOUT_LETTERS = exactly<PayoutLetter>()(["A", "P", "Y", "J", "C"]);
/** transaction.deposit_state */
export const DEPOSIT_STATES = exactly<DepositState>()(["N", "E"]);
/** callback.kind */
export const CALLBACK_KINDS = exactly<CallbackKind>()(["validation", "notification", "update_payout", "record_failed_deposit"]);
/** callback.state */
export const CALLBACK_STATES = exactly<CallbackState>()(["pending", "delivered", "refused", "failed"]);
/** callback_attempt.outcome (no check constraint: the domain's outcomes). */
export const ATTEMPT_OUTCOMES = exactly<AttemptOutcome>()(["delivered", "refused", "retry", "failed", "refused-address"]);
/** merchant.payout_approval */
export const PAYOUT_APPROVALS = ["auto", "manual"] as const;
/** retention_watermark.name: the tables the retention purge reads by id (the monthly ones go by month, 022). */
export const RETENTION_TABLES = ["callback", "hosted_session"] as const;
