/** A merchant's risk rule, applied by the Process call after the blocks and before Validation and any processor. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/** Table risk_rule (030): the rule's parameters as the console's fields, checked at save and at load. */
export const RiskRuleEntity = defineEntity({
  name: "RiskRule",
  tableName: "risk_rule",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id").deleteRule("cascade"),
    kind: p.enum(["velocity", "country_mismatch", "deposit_limit"] as const),
    name: p.text(),
    params: p.json<Record<string, string | number>>(),
    createdBy: p.text(),
    createdAt: p.datetime().defaultRaw("now()"),
    updatedBy: p.text(),
    updatedAt: p.datetime().defaultRaw("now()"),
    /** Who owns the rule (031): `console` (admins change it there) or `file` (the merchants file, replaced at every start). */
    source: p.enum(["console", "file"] as const).default("console"),
  },
});
