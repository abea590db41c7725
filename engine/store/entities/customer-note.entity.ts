/** An operator's note on a customer (a merchant's pin), kept as written. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/** Table customer_note (026): append-only for the service role. */
export const CustomerNoteEntity = defineEntity({
  name: "CustomerNote",
  tableName: "customer_note",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id").deleteRule("cascade"),
    pin: p.text(),
    body: p.text(),
    createdBy: p.text(),
    createdAt: p.datetime().defaultRaw("now()"),
  },
});
