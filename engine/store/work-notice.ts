/**
 * The notice an engine sends when it commits work that a worker should pick up
 * now (a callback became due, a cascade's next attempt was created): NOTIFY on
 * one channel, with the payload "<kind> <origin>", origin naming the sending
 * engine. The sender has already woken its own workers (deps.wake), so its
 * listener skips its own notices; every other engine's listener wakes the
 * worker of that kind (work-listener.ts).
 *
 * How it is sent: pg_notify inside the statement that writes the work (a CTE
 * over the rows it inserted or updated), because
 * - Postgres delivers a notice only when its transaction commits, so no engine
 *   is woken for work that was rolled back or is not visible yet;
 * - it adds no round trip to Process, and nothing at all when the statement
 *   wrote no such work (the CTE selects from zero rows);
 * - a statement-level trigger would cost a function call (and a transition
 *   table) on every insert, work or not, a migration, and would not know the
 *   origin without a set_config round trip.
 * Notifying transactions take a short lock at commit (the notify queue's), which
 * is why only work due now notifies: work due later is found by the poll.
 */
import { randomBytes } from "node:crypto";

export const WORK_CHANNEL = "cashier_work";

/** Which worker a notice is for: the delivery worker or the follow-up worker. */
export type WorkKind = "callback" | "follow-up";

/** A new name for this engine in notices (one per process start). */
export function newOrigin(): string {
  return randomBytes(6).toString("hex");
}

/** SQL calling pg_notify, for a CTE: `kind` and `origin` are SQL text expressions (a literal, a column, a `?::text`). */
export function notifyWorkSql(kind: string, origin: string): string {
  return `pg_notify('${WORK_CHANNEL}', ${kind} || ' ' || ${origin})`;
}

/** A notice's payload read back; an unknown kind is undefined (then every worker is woken). */
export function readWorkNotice(payload: string | undefined): { kind: WorkKind | undefined; origin: string } {
  const [kind = "", origin = ""] = (payload ?? "").split(" ");
  return { kind: kind === "callback" || kind === "follow-up" ? kind : undefined, origin };
}
