/**
 * The Backoffice's money actions' own records in Postgres (ports/money-actions.ts): payout holds (payout_hold) and
 * refunds' first approvals (refund_first_approval), both from migration 027. PgBackofficeStore extends this class,
 * so that the console's one records port has them.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { sql } from "kysely";
import type { Tx } from "../../store/tx.ts";
import type { HoldOutcome, MoneyActionRecords, PayoutHold, RefundFirstApproval } from "../ports/money-actions.ts";
import { consoleDb } from "./console-db.ts";

export class PgMoneyActionStore implements MoneyActionRecords {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  #db(tx?: Tx) {
    return consoleDb(this.#orm, tx);
  }

  async holds(traceIds: number[], tx?: Tx): Promise<Map<number, PayoutHold>> {
    if (traceIds.length === 0) return new Map();
    const rows = await this.#db(tx).selectFrom("payout_hold").selectAll().where("trace_id", "in", traceIds).execute();
    return new Map(rows.map((r) => [r.trace_id, { traceId: r.trace_id, login: r.login, reason: r.reason, heldAt: r.held_at }]));
  }

  async hold(h: Omit<PayoutHold, "heldAt"> & { at: Date }, tx: Tx): Promise<HoldOutcome> {
    const db = this.#db(tx);
    // The payout row's lock: an approval (requested -> A) waits for this commit and then reads the hold, or went first.
    const waiting = await sql<{ trace_id: number }>`
      select t.trace_id from transaction t join payment_order o on o.id = t.order_ref
      where t.trace_id = ${h.traceId} and t.status = 'requested' and o.type = 'payout' and o.card_sealed is not null
      for no key update of t`.execute(db);
    if (waiting.rows.length === 0) return "not-waiting";
    const made = await db
      .insertInto("payout_hold")
      .values({ trace_id: h.traceId, login: h.login, reason: h.reason, held_at: h.at })
      .onConflict((oc) => oc.column("trace_id").doNothing())
      .returning("trace_id")
      .execute();
    return made.length > 0 ? "held" : "already-held";
  }

  async release(traceId: number, tx: Tx): Promise<PayoutHold | undefined> {
    const [r] = await this.#db(tx).deleteFrom("payout_hold").where("trace_id", "=", traceId).returningAll().execute();
    return r ? { traceId: r.trace_id, login: r.login, reason: r.reason, heldAt: r.held_at } : undefined;
  }

  async heldQueue(merchants: readonly string[] | undefined, afterTraceId: number | undefined, limit: number): Promise<number[]> {
    const scope = merchants === undefined ? sql`true` : sql`o.merchant_id = any(${[...merchants]}::text[])`;
    const rows = await sql<{ trace_id: number }>`
      select t.trace_id from payout_hold h join transaction t on t.trace_id = h.trace_id join payment_order o on o.id = t.order_ref
      where t.status = 'requested' and ${scope} and t.trace_id > ${afterTraceId ?? 0}
      order by t.trace_id asc limit ${limit}`.execute(this.#db());
    return rows.rows.map((r) => r.trace_id);
  }

  async refundRemaining(saleTraceId: number): Promise<number> {
    // The same sum as the refund's own check (payments/store/refund-order.ts), which decides under the sale's lock.
    const r = await sql<{ remaining: string }>`
      select o.amount_minor - coalesce((
        select sum(ro.amount_minor) from payment_order ro join transaction rt on rt.order_ref = ro.id
        where ro.reference_trace_id = t.trace_id and rt.status in ('pending', 'approved')), 0) as remaining
      from transaction t join payment_order o on o.id = t.order_ref where t.trace_id = ${saleTraceId}`.execute(this.#db());
    return Number(r.rows[0]?.remaining ?? 0);
  }

  async refundFirstApproval(saleTraceId: number, tx?: Tx): Promise<RefundFirstApproval | undefined> {
    const r = await this.#db(tx).selectFrom("refund_first_approval").selectAll().where("sale_trace_id", "=", saleTraceId).executeTakeFirst();
    return r
      ? {
          saleTraceId: r.sale_trace_id,
          requestId: r.request_id,
          amountMinor: r.amount_minor,
          currency: r.currency,
          login: r.login,
          reason: r.reason,
          approvedAt: r.approved_at,
        }
      : undefined;
  }

  async recordRefundFirstApproval(a: Omit<RefundFirstApproval, "approvedAt"> & { at: Date }, tx: Tx): Promise<boolean> {
    const rows = await this.#db(tx)
      .insertInto("refund_first_approval")
      .values({
        sale_trace_id: a.saleTraceId,
        request_id: a.requestId,
        amount_minor: a.amountMinor,
        currency: a.currency,
        login: a.login,
        reason: a.reason,
        approved_at: a.at,
      })
      .onConflict((oc) => oc.column("sale_trace_id").doNothing())
      .returning("sale_trace_id")
      .execute();
    return rows.length > 0;
  }

  async forgetRefundFirstApproval(saleTraceId: number, login?: string, tx?: Tx): Promise<boolean> {
    let q = this.#db(tx).deleteFrom("refund_first_approval").where("sale_trace_id", "=", saleTraceId);
    if (login !== undefined) q = q.where("login", "=", login);
    const [r] = await q.execute();
    return Number(r?.numDeletedRows ?? 0) > 0;
  }
}
