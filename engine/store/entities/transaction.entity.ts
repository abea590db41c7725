/** One processing attempt of an order; trace_id comes from the database sequence. */
import { defineEntity, p } from "@mikro-orm/core";

export const TransactionEntity = defineEntity({
  name: "Transaction",
  tableName: "transaction",
  properties: {
    traceId: p.integer().primary().autoincrement(),
    orderRef: p.bigint("number"),
    attempt: p.smallint(),
    processor: p.text(),
    status: p.text(),
    payoutLetter: p.string().length(1).nullable(),
    depositState: p.string().length(1).nullable(),
    transactionId: p.text().nullable(),
    errorCode: p.integer().nullable(),
    errorDetails: p.text().nullable(),
    redirectUrl: p.text().nullable(),
    version: p.integer().version(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
