/** A merchant API client and its platform's addresses; the secret only sealed. */
import { defineEntity, p } from "@mikro-orm/core";
import { PAYOUT_APPROVALS } from "./column-values.ts";
import { FrontendEntity } from "./frontend.entity.ts";

/**
 * A routing rule as the column keeps it: the shape of payments' RoutingRule (domain/routing.ts), written here
 * so that the platform's entities name no module; the two are one type to the compiler, member for member.
 */
export interface RoutingRuleRecord {
  name?: string;
  when: {
    transactionType?: ("sale" | "payout" | "refund")[];
    currency?: string[];
    country?: string[];
    cardBrand?: string[];
    bin?: string[];
    amountMin?: number;
    amountMax?: number;
  };
  processors?: string[];
  split?: Record<string, number>;
}

/** Table merchant (001, 003, 019). */
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
    /** The routing rules (019) as domain/routing.ts reads them; [] for none. */
    routingRules: p.json<RoutingRuleRecord[]>().defaultRaw(`'[]'`),
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
