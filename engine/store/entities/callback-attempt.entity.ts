/** One try at delivering a callback: when, how long, and what came back. Every one is kept. */
import { defineEntity, p } from "@mikro-orm/core";
import { CallbackEntity } from "./callback.entity.ts";
import { ATTEMPT_OUTCOMES } from "./column-values.ts";

/**
 * Table callback_attempt (002; by month since 022, primary key (id, at)). The callback is a relation without a
 * foreign key: a callback's attempts go with their month, after the callback itself.
 */
export const CallbackAttemptEntity = defineEntity({
  name: "CallbackAttempt",
  tableName: "callback_attempt",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    callback: () => p.manyToOne(CallbackEntity).fieldName("callback_id").createForeignKeyConstraint(false),
    at: p.datetime(),
    durationMs: p.integer(),
    httpStatus: p.integer().default(0),
    responseBody: p.text().default(""),
    outcome: p.enum(ATTEMPT_OUTCOMES),
    error: p.text().default(""),
  },
});
