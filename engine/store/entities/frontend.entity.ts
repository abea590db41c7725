/** A Cashier front end (site) of a merchant, tied to one base currency. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/** Table frontend (001): unique per (merchant_id, name), removed with its merchant. */
export const FrontendEntity = defineEntity({
  name: "Frontend",
  tableName: "frontend",
  properties: {
    id: p.integer().primary().autoincrement(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id").deleteRule("cascade"),
    name: p.text(),
    baseCurrency: p.character().length(3),
    currencies: p.json<string[]>(),
  },
});
