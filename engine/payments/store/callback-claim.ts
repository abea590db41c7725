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
 *
 * Hand-written and prepared, as the hot path's writes are (hot-statements.ts):
 * a fast platform is claimed for as often as its deliveries come back, and
 * building this statement with the query builder and mapping its rows through
 * the ORM's plugin cost more CPU than the delivery itself (docs/operations.md,
 * Fair delivery). The claim is one statement in a transaction of its own
 * (runAlone, not the write batch: its lease starts when it runs, and its locks
 * and scan stay out of the sales' commits): the rows chosen are locked (SKIP
 * LOCKED: another engine's claim is not waited for), checked again as they are
 * when locked, and leased.
 */
import type { CallbackKind } from "../../shared/callbacks.ts";
import { preparedStatement } from "../../store/prepared-statement.ts";

export type ClaimParams = {
  /** This claim's id, kept on the rows it leases. */
  claim: string;
  leaseMs: number;
  /** This engine's free slots: the most the claim takes. */
  limit: number;
  /** Calls in flight at most to one merchant, over all engines. */
  perMerchant: number;
  /** This engine's calls in flight at most: what the shares divide. */
  slots: number;
};

/** A claimed row as the statement returns it. */
export interface ClaimedRow {
  id: number;
  event_id: string;
  kind: CallbackKind;
  merchant_id: string;
  trace_id: number;
  url: string;
  body: string;
  attempts: number;
}

export const CLAIM_DUE = preparedStatement<ClaimParams, ClaimedRow>(
  "cashier-claim-callbacks",
  { claim: true, leaseMs: true, limit: true, perMerchant: true, slots: true },
  (p) => `with owed as (
    -- Each merchant owed something: its first due callbacks (one transaction and kind at a time, in the order owed)
    -- and its calls in flight over all engines (claimed, lease running).
    select due.id, due.next_attempt_at, inflight.busy,
      row_number() over (partition by m.id order by due.next_attempt_at, due.id) as turn
    from merchant m
    left join lateral (
      select d.id, d.next_attempt_at from callback d
      where d.merchant_id = m.id and d.state = 'pending' and d.next_attempt_at <= now()
        and not exists (select 1 from callback e
                        where e.trace_id = d.trace_id and e.kind = d.kind and e.state = 'pending' and e.id < d.id)
      order by d.next_attempt_at
      limit ${p.perMerchant}::int) due on true
    inner join lateral (
      select count(*) as busy from callback b
      where b.merchant_id = m.id and b.state = 'pending' and b.claim is not null and b.next_attempt_at > now()) inflight on true
    where due.id is not null or inflight.busy > 0),
  counted as (
    -- Each merchant owed has exactly one first row (turn 1), due callback or not.
    select o.*, count(*) filter (where o.turn = 1) over () as owed from owed o),
  ranked as (
    select c.id, c.busy + c.turn as k, greatest(1, ${p.slots}::int / (c.owed + 1)) as share,
      row_number() over (order by c.busy + c.turn, c.next_attempt_at, c.id) as r
    from counted c
    where c.id is not null and c.busy + c.turn <= least(${p.perMerchant}::int, greatest(1, ${p.slots}::int / (c.owed + 1)))),
  chosen as (
    select l.id from callback l
    where l.id in (select q.id from ranked q where q.r <= ${p.limit}::int and (q.k = 1 or q.r <= ${p.limit}::int - q.share))
      and l.state = 'pending' and l.next_attempt_at <= now()
    for update skip locked)
  update callback set claim = ${p.claim}::uuid, attempts = attempts + 1, updated_at = now(),
    next_attempt_at = now() + make_interval(secs => ${p.leaseMs}::int / 1000.0)
  where id in (select id from chosen)
  returning id, event_id, kind, merchant_id, trace_id, url, body, attempts`,
  () => "callback-claim",
);
