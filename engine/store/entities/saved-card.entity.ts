/** A card a customer kept in the hosted Cashier: masked, fingerprinted, its number only sealed (erased with the row). */
import { defineEntity, p } from "@mikro-orm/core";
import { MerchantEntity } from "./merchant.entity.ts";
import { PaymentOrderEntity } from "./payment-order.entity.ts";

/** Table saved_card (009): one per (merchant, customer, card fingerprint). */
export const SavedCardEntity = defineEntity({
  name: "SavedCard",
  tableName: "saved_card",
  properties: {
    id: p.text().primary(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id"),
    pin: p.text(),
    cardMasked: p.text(),
    cardBrand: p.text(),
    cardExpiry: p.text(),
    cardFingerprint: p.text(),
    /** The full number, sealed (AES-256-GCM) and bound to the card's id. */
    cardSealed: p.text(),
    holder: p.text().default(""),
    /** The deposit whose approval keeps the card; until then it is not offered. */
    order: () => p.manyToOne(PaymentOrderEntity).fieldName("order_ref").nullable(),
    createdAt: p.datetime().defaultRaw("now()"),
  },
  uniques: [{ name: "saved_card_customer_card_unique", properties: ["merchant", "pin", "cardFingerprint"] }],
});
