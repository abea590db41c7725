/** A search an operator named and kept: the console's query string, applied again as a link. */
import { defineEntity, p } from "@mikro-orm/core";
import { OperatorEntity } from "./operator.entity.ts";

/** Table operator_saved_search (024). */
export const OperatorSavedSearchEntity = defineEntity({
  name: "OperatorSavedSearch",
  tableName: "operator_saved_search",
  properties: {
    id: p.text().primary(),
    operator: () => p.manyToOne(OperatorEntity).fieldName("login").deleteRule("cascade"),
    name: p.text(),
    /** The search's query string, without "?" (at most 2,000 characters). */
    query: p.text(),
    createdAt: p.datetime().defaultRaw("now()"),
  },
});
