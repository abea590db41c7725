/**
 * What the follow-up worker and the hosted page claim on attempts, each claim
 * a conditional update that exactly one caller wins: due attempts (SKIP LOCKED,
 * with a lease), the sweep for attempts whose engine died mid-way, a cascade
 * attempt's submission, a challenge's completion; and the flag a repeated
 * request sets when it has told the platform a non-final state.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { FollowUpStore } from "../app/ports.ts";
import type { Attempt } from "../domain/transaction.ts";
import { ATTEMPT_COLUMNS, attemptFromRow, type Row } from "./mappers.ts";

export class PgFollowUpStore implements FollowUpStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  #em() {
    return this.#orm.em.fork();
  }

  /** Attempts whose next check is due, claimed for `leaseMs` (SKIP LOCKED: one engine each). */
  async claimDue(limit: number, leaseMs: number): Promise<number[]> {
    const rows = await this.#em().execute<Row[]>(
      `update transaction set next_check_at = now() + (? * interval '1 millisecond')
       where trace_id in (select trace_id from transaction where next_check_at <= now()
                          order by next_check_at limit ? for update skip locked)
       returning trace_id`,
      [leaseMs, limit],
    );
    return rows.map((r) => Number(r.trace_id));
  }

  /**
   * Marks due the attempts created since the last sweep, at least `graceSeconds`
   * ago, that are still pending with no check planned: their engine died
   * mid-way. One engine sweeps at a time (the watermark row is locked, others skip).
   */
  async sweepStuck(graceSeconds: number): Promise<number> {
    const [row] = await this.#em().execute<Row[]>(
      `with w as (select scanned_to from recovery_watermark where id = 1 for update skip locked),
            upto as (select now() - (? * interval '1 second') as t),
            stuck as (update transaction t set next_check_at = now()
                      from w, upto
                      where t.created_at > w.scanned_to and t.created_at <= upto.t
                        and t.status in ('pending', 'requested') and t.next_check_at is null
                      returning t.trace_id),
            moved as (update recovery_watermark set scanned_to = (select t from upto)
                      where id = 1 and exists (select 1 from w) and (select t from upto) > (select scanned_to from w))
       select count(*)::int as n from stuck`,
      [graceSeconds],
    );
    return Number(row?.n ?? 0);
  }

  /**
   * A repeated request is about to tell the platform this attempt's state: the
   * flag is set under the row's lock and the attempt read back in the same
   * statement, so a change committing meanwhile is either seen here or, being
   * after the flag, notified.
   */
  async markReplied(traceId: number): Promise<Attempt | undefined> {
    const rows = await this.#em().execute<Row[]>(
      `update transaction t set replied = true from payment_order o
       where o.id = t.order_ref and t.trace_id = ? returning ${ATTEMPT_COLUMNS}`,
      [traceId],
    );
    return rows[0] ? attemptFromRow(rows[0]) : undefined;
  }

  /**
   * Claims an open challenge for the customer's answer: true for exactly one
   * caller, and only while it has not expired.
   */
  async claimChallenge(traceId: number, ms: number): Promise<boolean> {
    const rows = await this.#em().execute<Row[]>(
      `update transaction set completing_until = now() + (? * interval '1 millisecond')
       where trace_id = ? and status = 'pending_async' and challenge_expires_at > now()
         and (completing_until is null or completing_until < now()) returning trace_id`,
      [ms, traceId],
    );
    return rows.length > 0;
  }

  /** Claims a cascade attempt's submission: true for exactly one caller. */
  async claimSubmit(traceId: number, leaseMs: number): Promise<boolean> {
    const rows = await this.#em().execute<Row[]>(
      `update transaction set submitted = true, next_check_at = now() + (? * interval '1 millisecond')
       where trace_id = ? and submitted = false returning trace_id`,
      [leaseMs, traceId],
    );
    return rows.length > 0;
  }

  /** Nothing more to look at on this attempt. */
  async clearCheck(traceId: number): Promise<void> {
    await this.#em().execute(`update transaction set next_check_at = null where trace_id = ?`, [traceId]);
  }
}
