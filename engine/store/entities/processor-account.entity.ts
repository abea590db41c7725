/** A merchant's account at an acquirer (CONTRACT 11): its name, connector, endpoint, sealed credentials, settings. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/** Table processor_account (008, 017): unique per (merchant_id, account name), removed with its merchant. */
export const ProcessorAccountEntity = defineEntity({
  name: "ProcessorAccount",
  tableName: "processor_account",
  properties: {
    id: p.integer().primary().autoincrement(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id").deleteRule("cascade"),
    /** The account's name (column `processor`, from when an account was named after its processor). */
    name: p.text().fieldName("processor"),
    /** The connector it uses (017). */
    connector: p.text(),
    enabled: p.boolean().default(true),
    endpointUrl: p.text(),
    /** The credentials, sealed with the master key; never returned. */
    credentialsSealed: p.text(),
    /** "json": one sealed JSON object of credentials; "api_key": one sealed API key, written before 017. */
    credentialsForm: p.text().$type<"api_key" | "json">().default("api_key"),
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
