/**
 * One status change the database allows (CONTRACT section 5): the transition
 * trigger refuses any other. States are "status" or "status:letter". Written
 * by the migration only; a test keeps it equal to the domain's TRANSITIONS.
 */
import { defineEntity, p } from "@mikro-orm/core";
import { TRANSACTION_TYPES } from "./column-values.ts";

/** Table allowed_transition (002), keyed by all three columns. */
export const AllowedTransitionEntity = defineEntity({
  name: "AllowedTransition",
  tableName: "allowed_transition",
  properties: {
    type: p.enum(TRANSACTION_TYPES).primary(),
    fromState: p.text().primary(),
    toState: p.text().primary(),
  },
});
