/** A merchant API client and its platform's addresses; the secret only sealed. */
import { defineEntity, p } from "@mikro-orm/core";
import { PAYOUT_APPROVALS } from "./column-values.ts";
import { FrontendEntity } from "./frontend.entity.ts";

/** Table merchant (001, 003). */
export const MerchantEntity = defineEntity({
  name: "Merchant",
  tableName: "merchant",
  properties: {
    id: p.text().primary(),
    secretSealed: p.text(),
    previousSecretSealed: p.text().nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
    siteId: p.integer().nullable(),
    platformUrl: p.text().nullable(),
    validationUrl: p.text().nullable(),
    updatePayoutUrl: p.text().nullable(),
    updatePayoutStatuses: p.text().default("CAPYJ"),
    payoutApproval: p.enum(PAYOUT_APPROVALS).default("auto"),
    processors: p.json<string[]>().defaultRaw(`'["sim-a", "sim-b"]'`),
    createdAt: p
      .datetime()
      .defaultRaw("now()")
      .onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .defaultRaw("now()")
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    frontends: () => p.oneToMany(FrontendEntity).mappedBy("merchant"),
  },
});
