/** An operator's block of a customer, a card, an e-mail or a BIN at a merchant, enforced by the Process call. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/** Table customer_block (026): at most one held block per (merchant, kind, value). */
export const CustomerBlockEntity = defineEntity({
  name: "CustomerBlock",
  tableName: "customer_block",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id").deleteRule("cascade"),
    kind: p.enum(["customer", "card", "email", "bin"] as const),
    /** The pin, the card's keyed fingerprint, the e-mail lower-cased, or the BIN's digits. */
    value: p.text(),
    /** What an operator sees of the value: never the fingerprint. */
    label: p.text(),
    reason: p.text(),
    /** The customer's page it was made from. */
    pin: p.text(),
    createdBy: p.text(),
    createdAt: p.datetime().defaultRaw("now()"),
    liftedBy: p.text().nullable(),
    liftedAt: p.datetime().nullable(),
    liftReason: p.text().nullable(),
  },
});
