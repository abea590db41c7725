/**
 * Which due callbacks a claim takes: the fair-share rule of the delivery
 * slots, as the one select that the claim's update locks (callback-store.ts).
 * Kept apart from the store because the rule is the whole of it.
 *
 * The rule, with `slots` the claiming engine's calls in flight at most
 * (CASHIER_CALLBACK_CONCURRENCY), `free` its slots free now (the claim's
 * limit), and `owed` the merchants that are owed something (a callback due
 * now, or one in flight over all engines: claimed, lease running):
 *
 * - share = max(1, floor(slots / (owed + 1))): an equal share of the slots
 *   with one share kept for a merchant not yet owed;
 * - a merchant holds at most min(perMerchant, share) calls in flight, its
 *   calls in flight over all engines counted against it: a slow platform's
 *   calls that are still open are its share used, not slots it gets again;
 * - the candidates go round the merchants by how many each would then have in
 *   flight (its k-th call, k = in flight + turn), then oldest due: a merchant
 *   with none in flight comes before every merchant's second call;
 * - a merchant's first call in flight may take any free slot; a further call
 *   only leaves `share` of this engine's free slots unclaimed, so that a
 *   merchant owed something next finds a slot at once, whatever the slow
 *   platforms already hold and however they came to hold it.
 *
 * Per merchant it reads its first due callbacks and its in-flight count
 * through one index (callback_merchant_due_idx): the statement grows with
 * the number of merchants, not with the backlog.
 */
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { CashierDb } from "../../store/typed-db.ts";
import type { FairShare } from "../ports/callbacks.ts";

/** The ids of the due callbacks a claim takes now, by the fair-share rule (the select only: the caller locks and leases). */
export function fairDue(db: Kysely<CashierDb>, f: FairShare) {
  const owed = db
    .selectFrom("merchant as m")
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("callback as d")
          .select(["d.id", "d.next_attempt_at"])
          .whereRef("d.merchant_id", "=", "m.id")
          .where("d.state", "=", "pending")
          .where("d.next_attempt_at", "<=", eb.fn<Date>("now"))
          // Per transaction and kind, in the order owed: a later one waits for an earlier one.
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom("callback as e")
                  .select("e.id")
                  .whereRef("e.trace_id", "=", "d.trace_id")
                  .whereRef("e.kind", "=", "d.kind")
                  .where("e.state", "=", "pending")
                  .whereRef("e.id", "<", "d.id"),
              ),
            ),
          )
          .orderBy("d.next_attempt_at")
          .limit(f.perMerchant)
          .as("due"),
      (join) => join.onTrue(),
    )
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom("callback as b")
          .select((eb) => eb.fn.countAll<number>().as("busy"))
          .whereRef("b.merchant_id", "=", "m.id")
          .where("b.state", "=", "pending")
          .where("b.claim", "is not", null)
          .where("b.next_attempt_at", ">", eb.fn<Date>("now"))
          .as("inflight"),
      (join) => join.onTrue(),
    )
    // Owed something: a callback due now, or a call still in flight (its share is in use).
    .where((eb) => eb.or([eb("due.id", "is not", null), eb("inflight.busy", ">", 0)]))
    .select([
      "due.id",
      "due.next_attempt_at",
      "inflight.busy",
      sql<number>`row_number() over (partition by m.id order by due.next_attempt_at, due.id)`.as("turn"),
    ]);
  // Each merchant owed has exactly one first row (turn 1), due callback or not.
  const counted = db
    .selectFrom(owed.as("o"))
    .select(["o.id", "o.next_attempt_at", "o.busy", "o.turn", sql<number>`count(*) filter (where o.turn = 1) over ()`.as("owed")]);
  const share = sql<number>`greatest(1, ${f.slots}::int / (c.owed + 1))`;
  const ranked = db
    .selectFrom(counted.as("c"))
    .where("c.id", "is not", null)
    .where(sql<boolean>`c.busy + c.turn <= least(${f.perMerchant}::int, ${share})`)
    .select([
      "c.id",
      sql<number>`c.busy + c.turn`.as("k"),
      share.as("share"),
      sql<number>`row_number() over (order by c.busy + c.turn, c.next_attempt_at, c.id)`.as("r"),
    ]);
  return db
    .selectFrom(ranked.as("q"))
    .select("q.id")
    .where("q.r", "<=", f.limit)
    .where((eb) => eb.or([eb("q.k", "=", 1), eb("q.r", "<=", sql<number>`${f.limit}::int - q.share`)]));
}
