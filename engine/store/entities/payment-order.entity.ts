/**
 * What a merchant asked for once (merchant_id, order_id): the amount, the
 * customer and the card as far as it is kept (masked, brand, expiry, keyed
 * fingerprint; the full number only sealed, and only while it may be needed).
 */
import { defineEntity, p } from "@mikro-orm/core";
import { TRANSACTION_TYPES } from "./column-values.ts";
import { HostedSessionEntity } from "./hosted-session.entity.ts";
import { MerchantEntity } from "./merchant.entity.ts";
import { TransactionEntity } from "./transaction.entity.ts";

/** Table payment_order (001): its attempts are the transactions. */
export const PaymentOrderEntity = defineEntity({
  name: "PaymentOrder",
  tableName: "payment_order",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id"),
    orderId: p.text(),
    type: p.enum(TRANSACTION_TYPES),
    fingerprint: p.text(),
    amountMinor: p.bigint("number"),
    currency: p.character().length(3),
    frontend: p.text(),
    pin: p.text(),
    customer: p.json<Record<string, string>>(),
    cardMasked: p.text(),
    cardBrand: p.text(),
    cardExpiry: p.text(),
    cardFingerprint: p.text(),
    cardSealed: p.text().nullable(),
    returnUrl: p.text(),
    notificationUrl: p.text().nullable(),
    /** A refund's sale: the sale's attempt. */
    reference: () => p.manyToOne(TransactionEntity).fieldName("reference_trace_id").nullable(),
    createdAt: p.datetime().defaultRaw("now()"),
    /** Who made the order: `api` (Process) or `customer` (the hosted Cashier). */
    createdBy: p.text().default("api"),
    /** The hosted Cashier session the order was made in. */
    session: () => p.manyToOne(HostedSessionEntity).fieldName("session_ref").nullable(),
    /** The session's SCOrderID, Udef1 and Udef2, for RecordFailedDeposit. */
    scOrderId: p.text().nullable(),
    udef1: p.text().nullable(),
    udef2: p.text().nullable(),
    /** The cascade a routing rule picked (019); null: the merchant's processors. */
    routingCascade: p.json<string[]>().nullable(),
    /** That rule's place in the merchant's list (0-based) and its label as the detail shows it. */
    routingRuleIndex: p.integer().nullable(),
    routingRule: p.text().nullable(),
    attempts: () => p.oneToMany(TransactionEntity).mappedBy("order"),
  },
});
