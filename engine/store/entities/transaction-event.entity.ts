/** One recorded status change: from, to, why and when. Append-only. */
import { defineEntity, p } from "@mikro-orm/core";

export const TransactionEventEntity = defineEntity({
  name: "TransactionEvent",
  tableName: "transaction_event",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    traceId: p.integer(),
    fromStatus: p.text().nullable(),
    toStatus: p.text(),
    payoutLetter: p.string().length(1).nullable(),
    cause: p.text(),
    at: p.datetime().onCreate(() => new Date()),
  },
});
