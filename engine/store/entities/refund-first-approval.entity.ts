/** The first of the two approvals a Backoffice refund above the merchant's four-eyes amount needs. */
import { defineEntity, p } from "@mikro-orm/core";
import { TransactionEntity } from "./transaction.entity.ts";

/** Table refund_first_approval (027). */
export const RefundFirstApprovalEntity = defineEntity({
  name: "RefundFirstApproval",
  tableName: "refund_first_approval",
  properties: {
    sale: () => p.oneToOne(TransactionEntity).owner().fieldName("sale_trace_id").primary().deleteRule("cascade"),
    requestId: p.text(),
    amountMinor: p.bigint("number"),
    currency: p.character().length(3),
    login: p.text(),
    reason: p.text(),
    approvedAt: p.datetime().defaultRaw("now()"),
  },
});
