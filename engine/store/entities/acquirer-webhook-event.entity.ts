/** An acquirer's webhook event as it was verified and kept: the inbox that makes a replay change nothing. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/**
 * Table acquirer_webhook_event (018; by month of received_at since 022, primary key (id, received_at)): one row
 * per (merchant, account, the acquirer's event id), which acquirer_webhook_event_key's primary key ensures across
 * months.
 */
export const AcquirerWebhookEventEntity = defineEntity({
  name: "AcquirerWebhookEvent",
  tableName: "acquirer_webhook_event",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id"),
    account: p.text(),
    eventId: p.text(),
    eventType: p.text(),
    body: p.blob(),
    receivedAt: p.datetime().defaultRaw("now()"),
    appliedAt: p.datetime().nullable(),
    traceId: p.bigint("number").nullable(),
    outcome: p.text().nullable(),
  },
});
