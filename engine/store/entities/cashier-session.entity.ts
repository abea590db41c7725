/** A hosted cashier session of an order: only a keyed hash of its auth_token is kept. */
import { defineEntity, p } from "@mikro-orm/core";
import { PaymentOrderEntity } from "./payment-order.entity.ts";

/** Table cashier_session (002): at most one per order, keyed by the order. */
export const CashierSessionEntity = defineEntity({
  name: "CashierSession",
  tableName: "cashier_session",
  properties: {
    order: () => p.oneToOne(PaymentOrderEntity).owner().primary().fieldName("order_ref"),
    tokenHash: p.text().unique(),
    createdAt: p.datetime().defaultRaw("now()"),
  },
});
