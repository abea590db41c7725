/** An order: what the platform asked for under one (merchant_id, order_id). */
import { defineEntity, p } from "@mikro-orm/core";

export const OrderEntity = defineEntity({
  name: "PaymentOrder",
  tableName: "payment_order",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    merchantId: p.string(),
    orderId: p.text(),
    type: p.text(),
    fingerprint: p.text(),
    amountMinor: p.bigint("number"),
    currency: p.string().length(3),
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
    referenceTraceId: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
