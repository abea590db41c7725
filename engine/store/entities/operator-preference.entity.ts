/** How one operator sees the Backoffice's lists: its columns and page size, kept by the engine so they follow the operator. */
import { defineEntity, p } from "@mikro-orm/core";
import { OperatorEntity } from "./operator.entity.ts";

/** Table operator_preference (024). */
export const OperatorPreferenceEntity = defineEntity({
  name: "OperatorPreference",
  tableName: "operator_preference",
  properties: {
    operator: () => p.oneToOne(OperatorEntity).owner().fieldName("login").primary().deleteRule("cascade"),
    /** The transaction list's columns, in order (the console's names); empty: the console's default. */
    transactionColumns: p.json<string[]>().defaultRaw(`'[]'`),
    /** Rows per page; 0: the console's default. */
    pageSize: p.integer().default(0),
    updatedAt: p.datetime().defaultRaw("now()"),
  },
});
