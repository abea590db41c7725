/**
 * The work notice of work-notice.ts ("<kind> <origin>" on WORK_CHANNEL) for a
 * typed query: pg_notify in the statement that makes the work due, so other
 * engines are woken at its commit and only then, with no extra round trip.
 */
import type { ExpressionBuilder } from "kysely";
import { WORK_CHANNEL, type WorkKind } from "./work-notice.ts";

/** `pg_notify(channel, '<kind> <origin>')`, to select in a CTE over the rows that made work due. */
export function notifyWork<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, kind: WorkKind, origin: string) {
  return eb.fn("pg_notify", [eb.val(WORK_CHANNEL), eb.val(`${kind} ${origin}`)]);
}
