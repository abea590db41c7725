/** A merchant's account at a processor: endpoint, sealed credentials, settings. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/** Table processor_account (008): unique per (merchant_id, processor), removed with its merchant. */
export const ProcessorAccountEntity = defineEntity({
  name: "ProcessorAccount",
  tableName: "processor_account",
  properties: {
    id: p.integer().primary().autoincrement(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id").deleteRule("cascade"),
    processor: p.text(),
    enabled: p.boolean().default(true),
    endpointUrl: p.text(),
    /** The credentials (an API key), sealed with the master key; never returned. */
    credentialsSealed: p.text(),
    settings: p.json<Record<string, unknown>>().defaultRaw(`'{}'`),
    createdAt: p
      .datetime()
      .defaultRaw("now()")
      .onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .defaultRaw("now()")
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
