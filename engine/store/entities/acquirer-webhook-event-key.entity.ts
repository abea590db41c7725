/** The key of each kept acquirer webhook event: what makes a replay a replay whichever month it comes in. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/**
 * Table acquirer_webhook_event_key (022): one row per (merchant, account, the acquirer's event id), written in one
 * statement with the event; the inbox, being partitioned by month, cannot hold that key unique itself. Deleted once
 * received before the oldest month of events kept.
 */
export const AcquirerWebhookEventKeyEntity = defineEntity({
  name: "AcquirerWebhookEventKey",
  tableName: "acquirer_webhook_event_key",
  properties: {
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id").primary(),
    account: p.text().primary(),
    eventId: p.text().primary(),
    receivedAt: p.datetime().defaultRaw("now()"),
  },
});
