/**
 * A callback a transaction owes its platform (the outbox), and where its
 * delivery stands: state, attempts so far, when it is next due and which
 * worker holds it (claim, a lease until next_attempt_at).
 */
import { defineEntity, p } from "@mikro-orm/core";
import { CallbackAttemptEntity } from "./callback-attempt.entity.ts";
import { CALLBACK_KINDS, CALLBACK_STATES } from "./column-values.ts";
import { MerchantEntity } from "./merchant.entity.ts";
import { TransactionEntity } from "./transaction.entity.ts";

/** Table callback (002). */
export const CallbackEntity = defineEntity({
  name: "Callback",
  tableName: "callback",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    eventId: p.uuid().unique(),
    kind: p.enum(CALLBACK_KINDS),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id"),
    transaction: () => p.manyToOne(TransactionEntity).fieldName("trace_id"),
    url: p.text(),
    body: p.text(),
    state: p.enum(CALLBACK_STATES).default("pending"),
    /** How many attempts were made (reset by a redelivery); the attempts themselves are `sent`. */
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().defaultRaw("now()"),
    claim: p.uuid().nullable(),
    createdAt: p.datetime().defaultRaw("now()"),
    updatedAt: p.datetime().defaultRaw("now()"),
    sent: () => p.oneToMany(CallbackAttemptEntity).mappedBy("callback"),
  },
});
