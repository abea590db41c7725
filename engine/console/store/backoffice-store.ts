/**
 * The Backoffice's own reads and records: four-eyes amounts and first
 * approvals, the payout queue, a customer's history at a merchant, stuck
 * work, the cascade and refunds of a transaction, and the dashboard's
 * aggregates. Reads return trace_ids and callback ids; the engine's own
 * stores turn them into attempts and callbacks, so one mapping serves every
 * caller. `merchants` undefined is every merchant; otherwise the operator's scope.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { sql } from "kysely";
import type { Tx } from "../../store/tx.ts";
import { WORK_CHANNEL } from "../../store/work-notice.ts";
import type { BackofficeRecords, CustomerTotals, DashboardFigures, FirstApproval, Threshold } from "../ports/backoffice.ts";
import { consoleDb } from "./console-db.ts";
import { PgMoneyActionStore } from "./money-action-store.ts";

/** A scope as SQL: every merchant, or those listed. */
const scoped = (column: string, merchants: readonly string[] | undefined) =>
  merchants === undefined ? sql`true` : sql`${sql.ref(column)} = any(${[...merchants]}::text[])`;

/** The console's records, the money actions' own (PgMoneyActionStore) among them. */
export class PgBackofficeStore extends PgMoneyActionStore implements BackofficeRecords {
  readonly #orm: MikroORM;
  /** This engine's name in work notices (work-notice.ts); its own listener skips them. */
  readonly #origin: string;

  constructor(orm: MikroORM, origin = "") {
    super(orm);
    this.#orm = orm;
    this.#origin = origin;
  }

  #db(tx?: Tx) {
    return consoleDb(this.#orm, tx);
  }

  async thresholds(merchantId: string): Promise<Threshold[]> {
    const rows = await this.#db()
      .selectFrom("four_eyes_threshold")
      .select(["currency", "amount"])
      .where("merchant_id", "=", merchantId)
      .orderBy("currency")
      .execute();
    return rows.map((r) => ({ currency: r.currency, amountMinor: r.amount }));
  }

  async setThresholds(merchantId: string, list: Threshold[], tx: Tx): Promise<void> {
    const db = this.#db(tx);
    await db.deleteFrom("four_eyes_threshold").where("merchant_id", "=", merchantId).execute();
    if (list.length > 0)
      await db
        .insertInto("four_eyes_threshold")
        .values(list.map((t) => ({ merchant_id: merchantId, currency: t.currency, amount: t.amountMinor })))
        .execute();
  }

  async firstApprovals(traceIds: number[], tx?: Tx): Promise<Map<number, FirstApproval>> {
    if (traceIds.length === 0) return new Map();
    const rows = await this.#db(tx).selectFrom("payout_first_approval").selectAll().where("trace_id", "in", traceIds).execute();
    return new Map(rows.map((r) => [r.trace_id, { traceId: r.trace_id, login: r.login, reason: r.reason, note: r.note, approvedAt: r.approved_at }]));
  }

  /** Records the first approval; false when one is already recorded. */
  async recordFirstApproval(a: Omit<FirstApproval, "approvedAt"> & { at: Date }, tx: Tx): Promise<boolean> {
    const rows = await this.#db(tx)
      .insertInto("payout_first_approval")
      .values({ trace_id: a.traceId, login: a.login, reason: a.reason, note: a.note, approved_at: a.at })
      .onConflict((oc) => oc.column("trace_id").doNothing())
      .returning("trace_id")
      .execute();
    return rows.length === 1;
  }

  /** Forgets the payout's first approval, or only `login`'s (whether there was one to forget). */
  async forgetFirstApproval(traceId: number, login?: string, tx?: Tx): Promise<boolean> {
    let q = this.#db(tx).deleteFrom("payout_first_approval").where("trace_id", "=", traceId);
    if (login !== undefined) q = q.where("login", "=", login);
    const [r] = await q.execute();
    return Number(r?.numDeletedRows ?? 0) > 0;
  }

  /**
   * Payouts waiting in requested for an operator (their card sealed for the approval: not those whose Process call
   * is still asking the platform's Validation), oldest first, after `afterTraceId`. A held payout is not in the
   * queue: it waits apart (heldQueue) until released.
   */
  async payoutQueue(merchants: readonly string[] | undefined, afterTraceId: number | undefined, limit: number): Promise<number[]> {
    const rows = await sql<{ trace_id: number }>`
      select t.trace_id from transaction t join payment_order o on o.id = t.order_ref
      where t.status = 'requested' and o.type = 'payout' and o.card_sealed is not null and ${scoped("o.merchant_id", merchants)}
        and t.trace_id > ${afterTraceId ?? 0} and not exists (select 1 from payout_hold h where h.trace_id = t.trace_id)
      order by t.trace_id asc limit ${limit}`.execute(this.#db());
    return rows.rows.map((r) => r.trace_id);
  }

  /** A customer's latest attempts of one type at a merchant (final attempts of each order only), newest first. */
  async customerHistory(merchantId: string, pin: string, type: "sale" | "payout", exceptTraceId: number, limit: number): Promise<number[]> {
    const rows = await sql<{ trace_id: number }>`
      select t.trace_id from transaction t join payment_order o on o.id = t.order_ref
      where o.merchant_id = ${merchantId} and o.pin = ${pin} and o.type = ${type} and t.trace_id <> ${exceptTraceId}
        and t.status <> 'declined_retry'
      order by t.trace_id desc limit ${limit}`.execute(this.#db());
    return rows.rows.map((r) => r.trace_id);
  }

  async customerTotals(merchantId: string, pin: string): Promise<CustomerTotals[]> {
    const rows = await sql<{ currency: string; type: string; n: string; total: string }>`
      select o.currency, o.type, count(*) as n, coalesce(sum(o.amount_minor), 0) as total
      from transaction t join payment_order o on o.id = t.order_ref
      where o.merchant_id = ${merchantId} and o.pin = ${pin} and t.status = 'approved' and o.type in ('sale', 'payout')
      group by o.currency, o.type order by o.currency`.execute(this.#db());
    const by = new Map<string, CustomerTotals>();
    for (const r of rows.rows) {
      const t = by.get(r.currency) ?? { currency: r.currency, depositsMinor: 0, deposits: 0, payoutsMinor: 0, payouts: 0 };
      if (r.type === "sale") {
        t.depositsMinor = Number(r.total);
        t.deposits = Number(r.n);
      } else {
        t.payoutsMinor = Number(r.total);
        t.payouts = Number(r.n);
      }
      by.set(r.currency, t);
    }
    return [...by.values()];
  }

  /** Every attempt of the order of `traceId`, by attempt number. */
  async cascade(traceId: number): Promise<number[]> {
    const rows = await sql<{ trace_id: number }>`
      select t.trace_id from transaction t
      where t.order_ref = (select order_ref from transaction where trace_id = ${traceId})
      order by t.attempt`.execute(this.#db());
    return rows.rows.map((r) => r.trace_id);
  }

  /** The refunds of a sale, oldest first. */
  async refundsOf(traceId: number): Promise<number[]> {
    const rows = await sql<{ trace_id: number }>`
      select t.trace_id from transaction t join payment_order o on o.id = t.order_ref
      where o.reference_trace_id = ${traceId} order by t.trace_id`.execute(this.#db());
    return rows.rows.map((r) => r.trace_id);
  }

  /** Callbacks given up, or pending after 3 or more attempts; oldest first. */
  async failingCallbacks(merchants: readonly string[] | undefined, limit: number): Promise<number[]> {
    const rows = await sql<{ id: number }>`
      select id from callback
      where (state = 'failed' or (state = 'pending' and attempts >= 3)) and ${scoped("merchant_id", merchants)}
      order by id asc limit ${limit}`.execute(this.#db());
    return rows.rows.map((r) => Number(r.id));
  }

  /** Attempts left non-final (not waiting for an operator) longer than `olderThan`; oldest first. */
  async stuckTransactions(merchants: readonly string[] | undefined, olderThan: Date, limit: number): Promise<number[]> {
    const rows = await sql<{ trace_id: number }>`
      select t.trace_id from transaction t join payment_order o on o.id = t.order_ref
      where t.status in ('pending', 'pending_async') and t.created_at < ${olderThan} and ${scoped("o.merchant_id", merchants)}
      order by t.trace_id asc limit ${limit}`.execute(this.#db());
    return rows.rows.map((r) => r.trace_id);
  }

  /**
   * An operator's "check now": the attempt's next check becomes the
   * database's now, under the row's lock and only while it is still in
   * `status` (and payout `letter`), and the follow-up workers of the other engines are woken at
   * commit (pg_notify in the same statement). The due time before and after;
   * undefined when the attempt has left `status` meanwhile.
   */
  async checkNow(traceId: number, status: string, letter: string | null, tx: Tx): Promise<{ before: Date | null; after: Date } | undefined> {
    const r = await sql<{ before: Date | string | null; after: Date | string }>`
      with old as (select trace_id, next_check_at from transaction where trace_id = ${traceId} and status = ${status}
                   and payout_letter is not distinct from ${letter}::text for update),
      moved as (update transaction t set next_check_at = now() from old where t.trace_id = old.trace_id
                returning old.next_check_at as before, t.next_check_at as after),
      wk as (select pg_notify(${WORK_CHANNEL}, ${`follow-up ${this.#origin}`}) from moved)
      select before, after, (select count(*) from wk) as woken from moved`.execute(this.#db(tx));
    const row = r.rows[0];
    return row ? { before: row.before === null ? null : new Date(row.before), after: new Date(row.after) } : undefined;
  }

  async dashboard(merchants: readonly string[] | undefined, start: Date, end: Date, now: Date): Promise<DashboardFigures> {
    const db = this.#db();
    const volume = await sql<{ hour: Date; processor: string; currency: string; attempts: string; approved: string; approved_minor: string }>`
      select date_trunc('hour', t.created_at) as hour, t.processor, o.currency,
             count(*) as attempts, count(*) filter (where t.status = 'approved') as approved,
             coalesce(sum(o.amount_minor) filter (where t.status = 'approved'), 0) as approved_minor
      from transaction t join payment_order o on o.id = t.order_ref
      where o.type = 'sale' and t.status in ('approved', 'declined', 'declined_retry', 'cancelled')
        and t.created_at >= ${start} and t.created_at < ${end} and ${scoped("o.merchant_id", merchants)}
      group by 1, 2, 3 order by 1, 2, 3`.execute(db);
    const declines = await sql<{ error_code: number | null; error_details: string | null; n: string }>`
      select t.error_code, min(t.error_details) as error_details, count(*) as n
      from transaction t join payment_order o on o.id = t.order_ref
      where o.type = 'sale' and t.status in ('declined', 'declined_retry')
        and t.created_at >= ${start} and t.created_at < ${end} and ${scoped("o.merchant_id", merchants)}
      group by t.error_code order by n desc, t.error_code limit 20`.execute(db);
    const waiting = await sql<{ n: string; oldest: Date | null; h1: string; h4: string; h24: string; older: string }>`
      select count(*) as n, min(t.created_at) as oldest,
             count(*) filter (where t.created_at > ${new Date(now.getTime() - 3_600_000)}) as h1,
             count(*) filter (where t.created_at <= ${new Date(now.getTime() - 3_600_000)} and t.created_at > ${new Date(now.getTime() - 4 * 3_600_000)}) as h4,
             count(*) filter (where t.created_at <= ${new Date(now.getTime() - 4 * 3_600_000)} and t.created_at > ${new Date(now.getTime() - 24 * 3_600_000)}) as h24,
             count(*) filter (where t.created_at <= ${new Date(now.getTime() - 24 * 3_600_000)}) as older
      from transaction t join payment_order o on o.id = t.order_ref
      where t.status = 'requested' and o.type = 'payout' and o.card_sealed is not null and ${scoped("o.merchant_id", merchants)}`.execute(db);
    const callbacks = await sql<{ kind: string; attempts: string; failed: string; given_up: string }>`
      select c.kind,
             count(a.*) as attempts,
             count(a.*) filter (where a.outcome not in ('delivered', 'refused')) as failed,
             (select count(*) from callback g where g.kind = c.kind and g.state = 'failed' and ${scoped("g.merchant_id", merchants)}) as given_up
      from callback c left join callback_attempt a on a.callback_id = c.id and a.at >= ${start} and a.at < ${end}
      where ${scoped("c.merchant_id", merchants)} and c.created_at < ${end}
      group by c.kind order by c.kind`.execute(db);
    const w = waiting.rows[0];
    return {
      volume: volume.rows.map((r) => ({
        hour: new Date(r.hour),
        processor: r.processor,
        currency: r.currency,
        attempts: Number(r.attempts),
        approved: Number(r.approved),
        approvedMinor: Number(r.approved_minor),
      })),
      declines: declines.rows.map((r) => ({ errorCode: r.error_code ?? 0, errorDetails: r.error_details ?? "", count: Number(r.n) })),
      waiting: {
        count: Number(w?.n ?? 0),
        oldest: w?.oldest ? new Date(w.oldest) : null,
        under1h: Number(w?.h1 ?? 0),
        under4h: Number(w?.h4 ?? 0),
        under24h: Number(w?.h24 ?? 0),
        over24h: Number(w?.older ?? 0),
      },
      callbacks: callbacks.rows.map((r) => ({ kind: r.kind, attempts: Number(r.attempts), failedAttempts: Number(r.failed), givenUp: Number(r.given_up) })),
    };
  }
}
