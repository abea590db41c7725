/**
 * The customer's records on Postgres (ports/customers.ts): reads of the
 * orders, attempts, saved cards and hosted sessions of one merchant's pin (the
 * indexes on payment_order (merchant_id, pin) serve them), and the operators'
 * notes and blocks (migration 026), written in the caller's transaction so
 * that each commits with its audit row.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { sql } from "kysely";
import type { Tx } from "../../store/tx.ts";
import type { BlockKind } from "../../payments/index.ts";
import type { TransactionStatus, TransactionType } from "../../shared/transaction.ts";
import type { BlockRecord, CustomerCardRow, CustomerRecords, CustomerSessionRow, CustomerTotalRow, NewBlock, NoteRecord } from "../ports/customers.ts";
import { consoleDb } from "./console-db.ts";

type BlockRow = {
  id: number;
  merchant_id: string;
  kind: BlockKind;
  value: string;
  label: string;
  reason: string;
  pin: string;
  created_by: string;
  created_at: Date;
  lifted_by: string | null;
  lifted_at: Date | null;
  lift_reason: string | null;
};

const blockOf = (r: BlockRow): BlockRecord => ({
  id: r.id,
  merchantId: r.merchant_id,
  kind: r.kind,
  value: r.value,
  label: r.label,
  reason: r.reason,
  pin: r.pin,
  createdBy: r.created_by,
  createdAt: r.created_at,
  liftedBy: r.lifted_by,
  liftedAt: r.lifted_at,
  liftReason: r.lift_reason,
});

type CardRow = { trace_id: number; card_masked: string; card_brand: string; card_expiry: string; card_fingerprint: string; saved: boolean; allowed: boolean };

const cardOf = (r: CardRow): CustomerCardRow => ({
  traceId: Number(r.trace_id),
  masked: r.card_masked,
  brand: r.card_brand,
  expiry: r.card_expiry,
  fingerprint: r.card_fingerprint,
  saved: r.saved,
  withdrawalsAllowed: r.allowed,
});

/** Postgres's unique_violation. */
const UNIQUE_VIOLATION = "23505";

export class PgCustomerStore implements CustomerRecords {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  #db(tx?: Tx) {
    return consoleDb(this.#orm, tx);
  }

  async totals(merchantId: string, pin: string): Promise<CustomerTotalRow[]> {
    const rows = await sql<{ type: TransactionType; status: TransactionStatus; currency: string; n: string; total: string }>`
      select o.type, t.status, o.currency, count(*) as n, coalesce(sum(o.amount_minor), 0) as total
      from transaction t join payment_order o on o.id = t.order_ref
      where o.merchant_id = ${merchantId} and o.pin = ${pin}
      group by o.type, t.status, o.currency order by o.type, t.status, o.currency`.execute(this.#db());
    return rows.rows.map((r) => ({ type: r.type, status: r.status, currency: r.currency, count: Number(r.n), amountMinor: Number(r.total) }));
  }

  async cards(merchantId: string, pin: string, limit: number): Promise<CustomerCardRow[]> {
    // Each card once (by its keyed fingerprint), with its latest attempt; saved cards that no recent attempt used too.
    const rows = await sql<CardRow>`
      with recent as (
        select t.trace_id, o.card_masked, o.card_brand, o.card_expiry, o.card_fingerprint
        from payment_order o join transaction t on t.order_ref = o.id
        where o.merchant_id = ${merchantId} and o.pin = ${pin} and o.card_fingerprint <> ''
        order by t.trace_id desc limit ${limit}
      ), cards as (
        select distinct on (card_fingerprint) * from recent order by card_fingerprint, trace_id desc
      ), saved as (
        select sc.card_fingerprint, sc.card_masked, sc.card_brand, sc.card_expiry, o.id as order_ref
        from saved_card sc join payment_order o on o.id = sc.order_ref
        where sc.merchant_id = ${merchantId} and sc.pin = ${pin}
      ), every_card as (
        select c.trace_id, c.card_masked, c.card_brand, c.card_expiry, c.card_fingerprint from cards c
        union all
        select (select max(t.trace_id) from transaction t where t.order_ref = s.order_ref), s.card_masked, s.card_brand, s.card_expiry, s.card_fingerprint
        from saved s where s.card_fingerprint not in (select card_fingerprint from cards)
      )
      select e.*,
        exists (select 1 from saved s where s.card_fingerprint = e.card_fingerprint) as saved,
        exists (select 1 from payment_order o join transaction t on t.order_ref = o.id
                where o.merchant_id = ${merchantId} and o.pin = ${pin} and o.type = 'sale'
                  and o.card_fingerprint = e.card_fingerprint and t.status = 'approved') as allowed
      from every_card e where e.trace_id is not null order by e.trace_id desc`.execute(this.#db());
    return rows.rows.map(cardOf);
  }

  async cardOf(merchantId: string, pin: string, traceId: number): Promise<CustomerCardRow | undefined> {
    const rows = await sql<CardRow>`
      select t.trace_id, o.card_masked, o.card_brand, o.card_expiry, o.card_fingerprint, false as saved, false as allowed
      from transaction t join payment_order o on o.id = t.order_ref
      where t.trace_id = ${traceId} and o.merchant_id = ${merchantId} and o.pin = ${pin} and o.card_fingerprint <> ''`.execute(this.#db());
    return rows.rows[0] && cardOf(rows.rows[0]);
  }

  async sessions(merchantId: string, pin: string, limit: number): Promise<CustomerSessionRow[]> {
    const rows = await this.#db()
      .selectFrom("hosted_session")
      .select(["id", "intent", "frontend", "currency", "autologin_used_at", "created_at", "expires_at"])
      .where("merchant_id", "=", merchantId)
      .where("pin", "=", pin)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      intent: r.intent,
      frontend: r.frontend,
      currency: r.currency,
      autologinUsed: r.autologin_used_at !== null,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
    }));
  }

  async emails(merchantId: string, pin: string, limit: number): Promise<string[]> {
    const rows = await sql<{ email: string }>`
      select email from (
        select lower(trim(o.customer ->> 'email')) as email, max(o.id) as latest
        from (select customer, id from payment_order where merchant_id = ${merchantId} and pin = ${pin} order by id desc limit 200) o
        group by 1
      ) e where email <> '' order by latest desc limit ${limit}`.execute(this.#db());
    return rows.rows.map((r) => r.email);
  }

  async notes(merchantId: string, pin: string, limit: number): Promise<NoteRecord[]> {
    const rows = await this.#db()
      .selectFrom("customer_note")
      .selectAll()
      .where("merchant_id", "=", merchantId)
      .where("pin", "=", pin)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, merchantId: r.merchant_id, pin: r.pin, text: r.body, createdBy: r.created_by, createdAt: r.created_at }));
  }

  async addNote(n: Omit<NoteRecord, "id" | "createdAt">, tx: Tx): Promise<NoteRecord> {
    const r = await this.#db(tx)
      .insertInto("customer_note")
      .values({ merchant_id: n.merchantId, pin: n.pin, body: n.text, created_by: n.createdBy })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { id: r.id, merchantId: r.merchant_id, pin: r.pin, text: r.body, createdBy: r.created_by, createdAt: r.created_at };
  }

  async blocksOf(merchantId: string, pin: string, liftedLimit: number): Promise<BlockRecord[]> {
    const base = () => this.#db().selectFrom("customer_block").selectAll().where("merchant_id", "=", merchantId).where("pin", "=", pin);
    const [held, lifted] = await Promise.all([
      base().where("lifted_at", "is", null).orderBy("id", "desc").execute(),
      base().where("lifted_at", "is not", null).orderBy("lifted_at", "desc").limit(liftedLimit).execute(),
    ]);
    return [...held, ...lifted].map((r) => blockOf(r as BlockRow));
  }

  async heldAmong(merchantId: string, keys: readonly { kind: BlockKind; value: string }[]): Promise<BlockRecord[]> {
    if (keys.length === 0) return [];
    const rows = await this.#db()
      .selectFrom("customer_block")
      .selectAll()
      .where("merchant_id", "=", merchantId)
      .where("lifted_at", "is", null)
      .where((eb) => eb.or(keys.map((k) => eb.and([eb("kind", "=", k.kind), eb("value", "=", k.value)]))))
      .execute();
    return rows.map((r) => blockOf(r as BlockRow));
  }

  async block(id: number, tx?: Tx): Promise<BlockRecord | undefined> {
    const r = await this.#db(tx).selectFrom("customer_block").selectAll().where("id", "=", id).executeTakeFirst();
    return r && blockOf(r as BlockRow);
  }

  async createBlock(b: NewBlock, tx: Tx): Promise<{ created: BlockRecord } | { heldBy: BlockRecord }> {
    // The partial unique index decides between two operators blocking the same value at once: the second finds the first's.
    const r = await this.#db(tx)
      .insertInto("customer_block")
      .values({ merchant_id: b.merchantId, kind: b.kind, value: b.value, label: b.label, reason: b.reason, pin: b.pin, created_by: b.createdBy })
      .onConflict((oc) => oc.columns(["merchant_id", "kind", "value"]).where("lifted_at", "is", null).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (r) return { created: blockOf(r as BlockRow) };
    const [held] = await this.heldAmong(b.merchantId, [{ kind: b.kind, value: b.value }]);
    if (!held) throw Object.assign(new Error("customer_block: a conflicting held block vanished"), { code: UNIQUE_VIOLATION });
    return { heldBy: held };
  }

  async liftBlock(id: number, by: string, reason: string, tx: Tx): Promise<BlockRecord | undefined> {
    const r = await this.#db(tx)
      .updateTable("customer_block")
      .set({ lifted_by: by, lifted_at: sql<Date>`now()`, lift_reason: reason })
      .where("id", "=", id)
      .where("lifted_at", "is", null)
      .returningAll()
      .executeTakeFirst();
    return r && blockOf(r as BlockRow);
  }
}
