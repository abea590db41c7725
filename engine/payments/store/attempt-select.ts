/**
 * The columns of an attempt as the engine reads it: the transaction row with
 * its order's columns (aliases t and o). One list serves both the typed query
 * (cold reads: GetTransaction, ListTransactions, repeats) and the hot path's
 * hand-written statements (hot-statements.ts), so the two cannot select
 * different things, and `AttemptRow`, the type of what both return, is
 * inferred from the query, not written by hand.
 */
import type { Kysely } from "@mikro-orm/postgresql";
import type { ExpressionBuilder, InferResult } from "kysely";
import type { CashierDb } from "../../store/typed-db.ts";

const TRANSACTION_COLUMNS = [
  "trace_id",
  "order_ref",
  "attempt",
  "processor",
  "status",
  "payout_letter",
  "deposit_state",
  "transaction_id",
  "error_code",
  "error_details",
  "redirect_url",
  "created_at",
  "updated_at",
  "processor_code",
  "submitted",
  "challenge_expires_at",
  "completing_until",
  "replied",
  "acquirer_redirect_url",
] as const satisfies readonly (keyof CashierDb["transaction"])[];

const ORDER_COLUMNS = [
  "notification_url",
  "return_url",
  "order_id",
  "merchant_id",
  "type",
  "amount_minor",
  "currency",
  "card_masked",
  "card_brand",
  "card_expiry",
  "pin",
  "frontend",
  "reference_trace_id",
  "created_by",
  "session_ref",
  "sc_order_id",
  "udef1",
  "udef2",
  "routing_cascade",
  "routing_rule",
] as const satisfies readonly (keyof CashierDb["payment_order"])[];

/**
 * The plain columns as references, the transaction under `t` (a select) or
 * under its own name (an update's returning list: MikroORM converts the
 * result values of an update's target only when it has no alias), the order
 * under `o`.
 */
export function attemptRefs<T extends "t" | "transaction">(t: T) {
  return [...TRANSACTION_COLUMNS.map((c) => `${t}.${c}` as const), ...ORDER_COLUMNS.map((c) => `o.${c}` as const)];
}

/** The computed columns: the customer's IP address, and whether the order still holds the sealed card. */
export function attemptExtras(eb: ExpressionBuilder<CashierDb & { o: CashierDb["payment_order"] }, "o">) {
  return [eb.ref("o.customer", "->>").key("requester_ip").as("requester_ip"), eb("o.card_sealed", "is not", null).as("card_held")];
}

/** Attempts joined with their orders, every attempt column selected; add where, order and limit. */
export function selectAttempts(db: Kysely<CashierDb>) {
  return db.selectFrom("transaction as t").innerJoin("payment_order as o", "o.id", "t.order_ref").select(attemptRefs("t")).select(attemptExtras);
}

/** One attempt row: bigint columns as numbers, timestamptz as Dates, enumerated columns as the domain's unions. */
export type AttemptRow = InferResult<ReturnType<typeof selectAttempts>>[number];

/** The same select list as SQL text, for hand-written statements over `t` (transaction) and `o` (payment_order). */
export const ATTEMPT_COLUMNS_SQL = [
  ...TRANSACTION_COLUMNS.map((c) => `t.${c}`),
  ...ORDER_COLUMNS.map((c) => `o.${c}`),
  "o.customer->>'requester_ip' as requester_ip",
  "(o.card_sealed is not null) as card_held",
].join(", ");
