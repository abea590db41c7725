/**
 * The hosted Cashier's sessions and saved cards on Postgres (migration 009),
 * typed queries over the entities. Unique keys decide every race: a repeated
 * session start (merchant_id, idempotency_key), a second redemption of one
 * autologin (the update's where clause), a card saved twice (merchant_id,
 * pin, card_fingerprint).
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { type ExpressionBuilder, type Insertable, type QueryCreator, sql } from "kysely";
import type { NewSavedCard, SavedCardRecord, SessionDraft, SessionRecord, SessionStore } from "../ports/ports.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { customerFromRecord, customerRecord } from "../../payments/store/index.ts";
import { selectAttempts } from "../../payments/store/index.ts";
import { attemptFromRow } from "../../payments/store/index.ts";
import { type CashierDb, typedDb } from "../../store/typed-db.ts";

type Row = {
  id: number;
  merchant_id: string;
  intent: "deposit" | "withdrawal";
  frontend: string;
  currency: string;
  amount_minor: number | null;
  balance_minor: number | null;
  pin: string;
  customer: Record<string, string>;
  locale: string;
  return_url: string;
  notification_url: string | null;
  order_id: string | null;
  sc_order_id: string | null;
  udef1: string | null;
  udef2: string | null;
  nonce: string;
  fingerprint: string;
  expires_at: Date;
  autologin_used_at: Date | null;
};

function sessionOf(r: Row): SessionRecord {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    intent: r.intent,
    frontend: r.frontend,
    currency: r.currency,
    amountMinor: r.amount_minor,
    balanceMinor: r.balance_minor,
    pin: r.pin,
    customer: customerFromRecord(r.customer),
    locale: r.locale,
    returnUrl: r.return_url,
    notificationUrl: r.notification_url,
    orderId: r.order_id,
    scOrderId: r.sc_order_id,
    udef1: r.udef1,
    udef2: r.udef2,
    nonce: r.nonce,
    fingerprint: r.fingerprint,
    expiresAt: r.expires_at,
    autologinUsedAt: r.autologin_used_at,
  };
}

const SESSION_COLUMNS = [
  "id",
  "merchant_id",
  "intent",
  "frontend",
  "currency",
  "amount_minor",
  "balance_minor",
  "pin",
  "customer",
  "locale",
  "return_url",
  "notification_url",
  "order_id",
  "sc_order_id",
  "udef1",
  "udef2",
  "nonce",
  "fingerprint",
  "expires_at",
  "autologin_used_at",
] as const;

const NOT_FINAL = ["pending", "pending_async", "requested"] as const;

/** An autologin token's session that can still be opened: the one rule of a redemption and of a look before it. */
const unusedAutologin = (autologinHash: string, now: Date) => (eb: ExpressionBuilder<CashierDb, "hosted_session">) =>
  eb.and([eb("autologin_hash", "=", autologinHash), eb("autologin_used_at", "is", null), eb("expires_at", ">", now)]);

type Db = ReturnType<typeof typedDb>;

/** The new session's row; undefined when its (merchant_id, idempotency_key) is taken. */
async function insertSession(db: Db, values: Insertable<CashierDb["hosted_session"]>): Promise<Row | undefined> {
  return (await db
    .insertInto("hosted_session")
    .values(values)
    .onConflict((oc) => oc.constraint("hosted_session_idempotency_unique").doNothing())
    .returning(SESSION_COLUMNS)
    .executeTakeFirst()) as Row | undefined;
}

/** The session holding a start's key. */
async function sessionByKey(db: Db, merchantId: string, idempotencyKey: string): Promise<Row | undefined> {
  return (await db
    .selectFrom("hosted_session")
    .select(SESSION_COLUMNS)
    .where("merchant_id", "=", merchantId)
    .where("idempotency_key", "=", idempotencyKey)
    .executeTakeFirst()) as Row | undefined;
}

/** Rolls a withdrawal session back whose order_id an order holds. */
class OrderTaken extends Error {}

export class PgSessionStore implements SessionStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  #db() {
    return typedDb(this.#orm.em.fork());
  }

  async start(d: SessionDraft, now: Date): Promise<{ created: boolean; session: SessionRecord } | { orderTaken: true }> {
    const values = {
      merchant_id: d.merchantId,
      intent: d.intent,
      idempotency_key: d.idempotencyKey,
      fingerprint: d.fingerprint,
      nonce: d.nonce,
      autologin_hash: d.autologinHash,
      frontend: d.frontend,
      currency: d.currency,
      amount_minor: d.amountMinor,
      balance_minor: d.balanceMinor,
      pin: d.pin,
      customer: customerRecord(d.customer, true),
      locale: d.locale,
      return_url: d.returnUrl,
      notification_url: d.notificationUrl,
      order_id: d.orderId,
      sc_order_id: d.scOrderId,
      udef1: d.udef1,
      udef2: d.udef2,
      expires_at: d.expiresAt,
    };
    if (d.intent === "withdrawal" && d.orderId !== null) return this.#startWithdrawal(d.merchantId, d.orderId, values);
    // Two rounds at most: the second after releasing the key of an ended deposit session.
    for (let round = 0; round < 3; round++) {
      const db = this.#db();
      const inserted = await insertSession(db, values);
      if (inserted) return { created: true, session: sessionOf(inserted) };
      const existing = await sessionByKey(db, d.merchantId, d.idempotencyKey);
      if (!existing) continue;
      // A repeat answers the same session while its link is unused: a platform's retry of a lost reply. A deposit
      // session whose link was used (or that ended) is not answered again: its link could only say it cannot be used.
      if (existing.intent === "withdrawal" || (existing.expires_at > now && existing.autologin_used_at === null))
        return { created: false, session: sessionOf(existing) };
      // That deposit session keeps its row under a key no start can repeat; the start makes a new one.
      await db
        .updateTable("hosted_session")
        .set({ idempotency_key: `${d.idempotencyKey}#${existing.id}` })
        .where("id", "=", existing.id)
        .where((eb) => eb.or([eb("expires_at", "<=", now), eb("autologin_used_at", "is not", null)]))
        .execute();
    }
    throw new Error("session start: the idempotency key stayed taken");
  }

  /**
   * A withdrawal session under its order_id, in one transaction holding the order_id's lock (migration 016), which a
   * Process order under the same order_id takes too: whichever comes second sees the first. A session made here is
   * rolled back when an order holds the id; a withdrawal session is never released, so a repeat finds it.
   */
  async #startWithdrawal(merchantId: string, orderId: string, values: Insertable<CashierDb["hosted_session"]>) {
    try {
      return await this.#orm.em.fork().transactional(async (tx) => {
        const db = typedDb(tx);
        await sql`select cashier_order_id_lock(${merchantId}, ${orderId})`.execute(db);
        const inserted = await insertSession(db, values);
        if (inserted) {
          const order = await db
            .selectFrom("payment_order")
            .select("id")
            .where("merchant_id", "=", merchantId)
            .where("order_id", "=", orderId)
            .executeTakeFirst();
          if (order) throw new OrderTaken();
          return { created: true, session: sessionOf(inserted) };
        }
        // Under the lock, the key's holder is there: the insert met it.
        const existing = await sessionByKey(db, merchantId, values.idempotency_key);
        if (!existing) throw new Error("withdrawal session start: its key's session vanished under the lock");
        return { created: false, session: sessionOf(existing) };
      });
    } catch (err) {
      if (err instanceof OrderTaken) return { orderTaken: true as const };
      throw err;
    }
  }

  async redeem(autologinHash: string, sessionHash: string, now: Date): Promise<SessionRecord | undefined> {
    const r = (await this.#db()
      .updateTable("hosted_session")
      .set({ autologin_used_at: now, session_hash: sessionHash })
      .where(unusedAutologin(autologinHash, now))
      .returning(SESSION_COLUMNS)
      .executeTakeFirst()) as Row | undefined;
    return r ? sessionOf(r) : undefined;
  }

  /** The session an autologin token would open, without using it: unused and not expired. */
  async byUnusedAutologin(autologinHash: string, now: Date): Promise<SessionRecord | undefined> {
    const r = (await this.#db().selectFrom("hosted_session").select(SESSION_COLUMNS).where(unusedAutologin(autologinHash, now)).executeTakeFirst()) as
      | Row
      | undefined;
    return r ? sessionOf(r) : undefined;
  }

  async bySessionHash(sessionHash: string, now: Date): Promise<SessionRecord | undefined> {
    const r = (await this.#db()
      .selectFrom("hosted_session")
      .select(SESSION_COLUMNS)
      .where("session_hash", "=", sessionHash)
      .where("expires_at", ">", now)
      .executeTakeFirst()) as Row | undefined;
    return r ? sessionOf(r) : undefined;
  }

  /** The offered cards: confirmed by their deposit's approval (or saved before order tracking). */
  #offered(qc: QueryCreator<CashierDb>, merchantId: string, pin: string) {
    return (
      qc
        .selectFrom("saved_card as sc")
        .where("sc.merchant_id", "=", merchantId)
        .where("sc.pin", "=", pin)
        .where((eb) =>
          eb.or([
            eb("sc.order_ref", "is", null),
            eb.exists(eb.selectFrom("transaction as t").select("t.trace_id").whereRef("t.order_ref", "=", "sc.order_ref").where("t.status", "=", "approved")),
          ]),
        )
        // Aliased: converted by name, a bare "id" would be read as another table's bigint id.
        .select([
          "sc.id as card_id",
          "sc.card_masked",
          "sc.card_brand",
          "sc.card_expiry",
          "sc.card_fingerprint",
          "sc.holder",
          "sc.card_sealed",
          "sc.created_at",
        ])
        .select((eb) =>
          eb
            .exists(
              eb
                .selectFrom("payment_order as o")
                .innerJoin("transaction as t", "t.order_ref", "o.id")
                .select("t.trace_id")
                .whereRef("o.merchant_id", "=", "sc.merchant_id")
                .whereRef("o.pin", "=", "sc.pin")
                .whereRef("o.card_fingerprint", "=", "sc.card_fingerprint")
                .where("o.type", "=", "sale")
                .where("t.status", "=", "approved"),
            )
            .as("deposited_from"),
        )
    );
  }

  async savedCards(merchantId: string, pin: string): Promise<SavedCardRecord[]> {
    const db = this.#db();
    // A card kept for a deposit that ended unapproved is never offered: its sealed number goes now,
    // in the same statement as the read. The read sees the rows as they were before the delete, but
    // a deleted card (its order neither approved nor under way) is one the read does not offer.
    const withDelete = db.with("unconfirmed", (w) =>
      w
        .deleteFrom("saved_card as sc")
        .where("sc.merchant_id", "=", merchantId)
        .where("sc.pin", "=", pin)
        .where("sc.order_ref", "is not", null)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("transaction as t")
                .select("t.trace_id")
                .whereRef("t.order_ref", "=", "sc.order_ref")
                .where("t.status", "in", ["approved", ...NOT_FINAL]),
            ),
          ),
        ),
    );
    // The read never names the deleting CTE, so it is typed as a read of the tables alone.
    const rows = await this.#offered(withDelete as unknown as QueryCreator<CashierDb>, merchantId, pin)
      .orderBy("sc.created_at", "desc")
      .orderBy("sc.id")
      .execute();
    return rows.map((r) => ({
      id: r.card_id,
      cardMasked: r.card_masked,
      cardBrand: r.card_brand,
      cardExpiry: r.card_expiry,
      cardFingerprint: r.card_fingerprint,
      holder: r.holder,
      depositedFrom: Boolean(r.deposited_from),
    }));
  }

  async savedCard(merchantId: string, pin: string, id: string): Promise<(SavedCardRecord & { cardSealed: string }) | undefined> {
    const r = await this.#offered(this.#db(), merchantId, pin).where("sc.id", "=", id).executeTakeFirst();
    if (!r) return undefined;
    return {
      id: r.card_id,
      cardMasked: r.card_masked,
      cardBrand: r.card_brand,
      cardExpiry: r.card_expiry,
      cardFingerprint: r.card_fingerprint,
      holder: r.holder,
      depositedFrom: Boolean(r.deposited_from),
      cardSealed: r.card_sealed,
    };
  }

  async saveCard(c: NewSavedCard): Promise<void> {
    await this.#db()
      .insertInto("saved_card")
      .values({
        id: c.id,
        merchant_id: c.merchantId,
        pin: c.pin,
        card_masked: c.cardMasked,
        card_brand: c.cardBrand,
        card_expiry: c.cardExpiry,
        card_fingerprint: c.cardFingerprint,
        card_sealed: c.cardSealed,
        holder: c.holder,
        order_ref: c.orderRef,
      })
      .onConflict((oc) =>
        oc.constraint("saved_card_customer_card_unique").doUpdateSet({
          card_expiry: (eb) => eb.ref("excluded.card_expiry"),
          holder: (eb) => eb.ref("excluded.holder"),
          card_sealed: (eb) => eb.ref("excluded.card_sealed"),
          // A card already kept stays kept; one still waiting waits for the newest deposit.
          order_ref: sql`case when saved_card.order_ref is null or exists (select 1 from transaction t where t.order_ref = saved_card.order_ref and t.status = 'approved') then saved_card.order_ref else excluded.order_ref end`,
        }),
      )
      .execute();
  }

  async deleteSavedCard(merchantId: string, pin: string, id: string): Promise<boolean> {
    const r = await this.#db().deleteFrom("saved_card").where("id", "=", id).where("merchant_id", "=", merchantId).where("pin", "=", pin).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async depositedFrom(merchantId: string, pin: string, cardFingerprint: string): Promise<boolean> {
    const r = await this.#db()
      .selectFrom("payment_order as o")
      .innerJoin("transaction as t", "t.order_ref", "o.id")
      .select("t.trace_id")
      .where("o.merchant_id", "=", merchantId)
      .where("o.pin", "=", pin)
      .where("o.type", "=", "sale")
      .where("o.card_fingerprint", "=", cardFingerprint)
      .where("t.status", "=", "approved")
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  async sessionTransactions(sessionRef: number): Promise<Attempt[]> {
    const rows = await selectAttempts(this.#db()).where("o.session_ref", "=", sessionRef).orderBy("t.trace_id", "desc").limit(100).execute();
    return rows.map(attemptFromRow);
  }

  async pendingWithdrawals(merchantId: string, frontend: string, pin: string): Promise<Attempt[]> {
    const rows = await selectAttempts(this.#db())
      .where("o.merchant_id", "=", merchantId)
      .where("o.pin", "=", pin)
      .where("o.frontend", "=", frontend)
      .where("o.type", "=", "payout")
      .where("t.status", "in", ["requested", "pending"])
      .orderBy("t.trace_id", "desc")
      .limit(50)
      .execute();
    return rows.map(attemptFromRow);
  }
}
