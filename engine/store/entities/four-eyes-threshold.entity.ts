/** A merchant's payout amount, per currency, above which an approval needs two operators. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/** Table four_eyes_threshold (013). */
export const FourEyesThresholdEntity = defineEntity({
  name: "FourEyesThreshold",
  tableName: "four_eyes_threshold",
  properties: {
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id").primary().deleteRule("cascade"),
    currency: p.character().length(3).primary(),
    amount: p.bigint("number"),
  },
});
