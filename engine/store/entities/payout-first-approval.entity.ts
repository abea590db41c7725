/** The first of the two approvals a four-eyes payout needs. */
import { defineEntity, p } from "@mikro-orm/core";
import { TransactionEntity } from "./transaction.entity.ts";

/** Table payout_first_approval (013). */
export const PayoutFirstApprovalEntity = defineEntity({
  name: "PayoutFirstApproval",
  tableName: "payout_first_approval",
  properties: {
    transaction: () => p.oneToOne(TransactionEntity).owner().fieldName("trace_id").primary().deleteRule("cascade"),
    login: p.text(),
    reason: p.text(),
    note: p.text().default(""),
    approvedAt: p.datetime().defaultRaw("now()"),
  },
});
