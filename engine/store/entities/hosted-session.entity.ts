/** A hosted Cashier session (CONTRACT 9): what the platform's signed start asked for, and keyed hashes of its tokens. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/** Table hosted_session (009): one per (merchant_id, idempotency_key). */
export const HostedSessionEntity = defineEntity({
  name: "HostedSession",
  tableName: "hosted_session",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id"),
    intent: p.enum(["deposit", "withdrawal", "fields"] as const),
    /** `w:<order_id>` for a withdrawal, `d:<parameters' keyed fingerprint>` for a deposit. */
    idempotencyKey: p.text(),
    /** Keyed fingerprint of the start's parameters (all but timestamp and signature). */
    fingerprint: p.text(),
    /** Random; the autologin token and auth_token are derived from it with keys of the master key. */
    nonce: p.text(),
    autologinHash: p.text().unique("hosted_session_autologin_unique"),
    autologinUsedAt: p.datetime().nullable(),
    sessionHash: p.text().nullable().unique("hosted_session_session_unique"),
    frontend: p.text(),
    currency: p.character().length(3),
    amountMinor: p.bigint("number").nullable(),
    balanceMinor: p.bigint("number").nullable(),
    pin: p.text(),
    customer: p.json<Record<string, string>>(),
    locale: p.text().default(""),
    returnUrl: p.text(),
    notificationUrl: p.text().nullable(),
    orderId: p.text().nullable(),
    scOrderId: p.text().nullable(),
    udef1: p.text().nullable(),
    udef2: p.text().nullable(),
    expiresAt: p.datetime(),
    createdAt: p.datetime().defaultRaw("now()"),
  },
  uniques: [{ name: "hosted_session_idempotency_unique", properties: ["merchant", "idempotencyKey"] }],
});
