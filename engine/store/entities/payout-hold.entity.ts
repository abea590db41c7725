/** An operator's hold on a payout waiting for a decision: no approval is taken while it stands. */
import { defineEntity, p } from "@mikro-orm/core";
import { TransactionEntity } from "./transaction.entity.ts";

/** Table payout_hold (027). */
export const PayoutHoldEntity = defineEntity({
  name: "PayoutHold",
  tableName: "payout_hold",
  properties: {
    transaction: () => p.oneToOne(TransactionEntity).owner().fieldName("trace_id").primary().deleteRule("cascade"),
    login: p.text(),
    reason: p.text(),
    heldAt: p.datetime().defaultRaw("now()"),
  },
});
