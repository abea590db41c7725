/** A Cashier front end (site) of a merchant, tied to one base currency. */
import { defineEntity, p } from "@mikro-orm/core";

export const FrontendEntity = defineEntity({
  name: "Frontend",
  tableName: "frontend",
  properties: {
    id: p.integer().primary().autoincrement(),
    merchantId: p.string(),
    name: p.text(),
    baseCurrency: p.string().length(3),
    currencies: p.json<string[]>(),
  },
});
