/**
 * One attempt at an order on one processor, keyed by trace_id (an integer
 * sequence), with what the follow-up worker needs: when it is next due, whether
 * a cascade attempt was submitted, a 3-D Secure challenge's expiry and claim.
 */
import { defineEntity, p } from "@mikro-orm/core";
import { CallbackEntity } from "./callback.entity.ts";
import { DEPOSIT_STATES, PAYOUT_LETTERS, TRANSACTION_STATUSES } from "./column-values.ts";
import { PaymentOrderEntity } from "./payment-order.entity.ts";
import { TransactionEventEntity } from "./transaction-event.entity.ts";

/** Table transaction (001, 002, 004); status changes are guarded by triggers. */
export const TransactionEntity = defineEntity({
  name: "Transaction",
  tableName: "transaction",
  properties: {
    traceId: p.integer().primary().autoincrement(),
    order: () => p.manyToOne(PaymentOrderEntity).fieldName("order_ref"),
    attempt: p.smallint(),
    processor: p.text(),
    status: p.enum(TRANSACTION_STATUSES),
    payoutLetter: p.enum(PAYOUT_LETTERS).columnType("char(1)").nullable(),
    depositState: p.enum(DEPOSIT_STATES).columnType("char(1)").nullable(),
    transactionId: p.text().nullable(),
    errorCode: p.integer().nullable(),
    errorDetails: p.text().nullable(),
    redirectUrl: p.text().nullable(),
    version: p.integer().default(1),
    createdAt: p.datetime().defaultRaw("now()"),
    updatedAt: p.datetime().defaultRaw("now()"),
    nextCheckAt: p.datetime().nullable(),
    submitted: p.boolean().default(true),
    challengeExpiresAt: p.datetime().nullable(),
    processorCode: p.text().nullable(),
    replied: p.boolean().default(false),
    completingUntil: p.datetime().nullable(),
    /** A real acquirer's own 3-D Secure page (019), where Cashier's challenge page sends the customer on. */
    acquirerRedirectUrl: p.text().nullable(),
    events: () => p.oneToMany(TransactionEventEntity).mappedBy("transaction"),
    callbacks: () => p.oneToMany(CallbackEntity).mappedBy("transaction"),
  },
});
