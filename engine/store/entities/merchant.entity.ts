/** A merchant API client and its platform's addresses; the secret only sealed. */
import { defineEntity, p } from "@mikro-orm/core";

export const MerchantEntity = defineEntity({
  name: "Merchant",
  tableName: "merchant",
  properties: {
    id: p.string().primary(),
    secretSealed: p.text(),
    previousSecretSealed: p.text().nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
    siteId: p.integer().nullable(),
    platformUrl: p.text().nullable(),
    validationUrl: p.text().nullable(),
    updatePayoutUrl: p.text().nullable(),
    updatePayoutStatuses: p.text(),
    payoutApproval: p.text(),
    processors: p.json<string[]>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
