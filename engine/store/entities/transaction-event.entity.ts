/** One recorded status change: from, to, why and when. Append-only. */
import { defineEntity, p } from "@mikro-orm/core";
import { PAYOUT_LETTERS, TRANSACTION_STATUSES } from "./column-values.ts";
import { TransactionEntity } from "./transaction.entity.ts";

/**
 * Table transaction_event (001; by month since 022): a transaction's history, in id order. Its primary key is
 * (id, at), as a partitioned table's must include the month; ids still come from one sequence.
 */
export const TransactionEventEntity = defineEntity({
  name: "TransactionEvent",
  tableName: "transaction_event",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    transaction: () => p.manyToOne(TransactionEntity).fieldName("trace_id"),
    fromStatus: p.enum(TRANSACTION_STATUSES).nullable(),
    toStatus: p.enum(TRANSACTION_STATUSES),
    payoutLetter: p.enum(PAYOUT_LETTERS).columnType("char(1)").nullable(),
    cause: p.text(),
    at: p
      .datetime()
      .defaultRaw("now()")
      .onCreate(() => new Date()),
  },
});
