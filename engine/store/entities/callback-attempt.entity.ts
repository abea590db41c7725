/** One try at delivering a callback: when, how long, and what came back. Every one is kept. */
import { defineEntity, p } from "@mikro-orm/core";
import { CallbackEntity } from "./callback.entity.ts";
import { ATTEMPT_OUTCOMES } from "./column-values.ts";

/** Table callback_attempt (002). */
export const CallbackAttemptEntity = defineEntity({
  name: "CallbackAttempt",
  tableName: "callback_attempt",
  properties: {
    id: p.bigint("number").primary().autoincrement(),
    callback: () => p.manyToOne(CallbackEntity).fieldName("callback_id"),
    at: p.datetime(),
    durationMs: p.integer(),
    httpStatus: p.integer().default(0),
    responseBody: p.text().default(""),
    outcome: p.enum(ATTEMPT_OUTCOMES),
    error: p.text().default(""),
  },
});
