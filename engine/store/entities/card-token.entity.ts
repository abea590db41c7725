/** A card token of the hosted payment fields (CONTRACT 12): its keyed hash, its binding, the card sealed. */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";

/** Table card_token (028): one per card a fields page took; deleted by the retention sweep once expired. */
export const CardTokenEntity = defineEntity({
  name: "CardToken",
  tableName: "card_token",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    /** Keyed hash of the token (session-tokens.ts): the token itself is never stored. */
    tokenHash: p.text().unique("card_token_hash_unique"),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id"),
    frontend: p.text(),
    pin: p.text(),
    cardMasked: p.text(),
    cardBrand: p.text(),
    cardExpiry: p.text(),
    cardFingerprint: p.text(),
    /** The full number, sealed (AES-256-GCM) and bound to the token's hash. */
    cardSealed: p.text(),
    /** The CVV, sealed the same way until the token's use, which erases it. */
    cvvSealed: p.text().nullable(),
    holder: p.text().default(""),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    /** The order_id of the Process request that used the token. */
    usedOrderId: p.text().nullable(),
    createdAt: p.datetime().defaultRaw("now()"),
  },
});
