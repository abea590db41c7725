/**
 * Orders and their attempts on Postgres. The Process call's two writes
 * (creating a sale's or payout's order with its first attempt, and a status
 * change with everything it owes) are hand-written named prepared statements
 * (hot-statements.ts; why: docs/decisions/0003-raw-sql-on-hot-path.md).
 * Everything else is typed queries over the entities (typed-db.ts) or the
 * entity manager. The unique (merchant_id, order_id) constraint is what makes
 * a repeat a repeat, also when duplicates arrive at the same moment.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type {
  Alongside,
  ApplyExtras,
  ApplyResult,
  CreateOrderResult,
  ExistingOrder,
  ListQuery,
  ListResult,
  OrderDraft,
  OrderStore,
  RefundableSale,
  StuckQuery,
} from "../ports/orders.ts";
import type { Decision } from "../domain/outcome.ts";
import type { Attempt, CustomerInput, StatusChange } from "../../shared/transaction.ts";
import type { State } from "../domain/transitions.ts";
import { type AttemptRow, selectAttempts } from "./attempt-select.ts";
import { TransactionEventEntity } from "../../store/entities/transaction-event.entity.ts";
import { APPLY, type ApplyParams, CREATE_ORDER, type OutboxRow } from "./hot-statements.ts";
import { attemptFromRow, changeFromEntity } from "./mappers.ts";
import { customerFromRecord, customerRecord } from "./customer-record.ts";
import { ruleLabel } from "../domain/routing.ts";
import { createRefund } from "./refund-order.ts";
import { afterOrder, searchEdge, searchPage, stuckAttempts } from "./transaction-search.ts";
import { typedDb } from "../../store/typed-db.ts";
import { txOf } from "../../store/tx.ts";
import { causes } from "../../shared/runtime/error-causes.ts";

/** How far before an attempt's creation its history is read from: clocks of engine and database may differ a little. */
const HISTORY_CLOCK_MARGIN_MS = 24 * 60 * 60 * 1000;

/** Raised by cashier_order_id_unclaimed (migration 016): the order_id is a hosted Cashier withdrawal session's. */
const ORDER_ID_CLAIMED = "CW409";

/** Whether `err` is that refusal, as pg raised it or as the ORM wrapped it. */
const orderIdClaimed = (err: unknown): boolean => [...causes(err)].some((e) => e.code === ORDER_ID_CLAIMED);

export class PgOrderStore implements OrderStore {
  readonly #orm: MikroORM;
  /** This engine's name in the work notices it sends (work-notice.ts). */
  readonly #origin: string;

  constructor(orm: MikroORM, origin = "") {
    this.#orm = orm;
    this.#origin = origin;
  }

  #db() {
    return typedDb(this.#orm.em.fork());
  }

  async createOrder(d: OrderDraft, alongside?: Alongside): Promise<CreateOrderResult> {
    try {
      return await this.#createOrder(d, alongside);
    } catch (err) {
      if (orderIdClaimed(err)) return { created: false, withdrawalSession: true };
      throw err;
    }
  }

  async #createOrder(d: OrderDraft, alongside?: Alongside): Promise<CreateOrderResult> {
    let created: AttemptRow | undefined;
    if (d.referenceTraceId === null) {
      [created] = await CREATE_ORDER.run(this.#orm, {
        merchantId: d.merchantId,
        orderId: d.orderId,
        type: d.type,
        fingerprint: d.fingerprint,
        amountMinor: d.amountMinor,
        currency: d.currency,
        frontend: d.frontend,
        pin: d.pin,
        customer: JSON.stringify(customerRecord(d.customer)),
        cardMasked: d.cardMasked,
        cardBrand: d.cardBrand,
        cardExpiry: d.cardExpiry,
        cardFingerprint: d.cardFingerprint,
        returnUrl: d.returnUrl,
        notificationUrl: d.notificationUrl,
        processor: d.processor,
        status: d.initial.status,
        letter: d.initial.letter ?? null,
        createdBy: d.origin?.createdBy ?? "api",
        sessionRef: d.origin?.sessionRef ?? null,
        scOrderId: d.origin?.scOrderId ?? null,
        udef1: d.origin?.udef1 ?? null,
        udef2: d.origin?.udef2 ?? null,
        routingCascade: d.routing?.rule ? JSON.stringify(d.routing.cascade) : null,
        routingRuleIndex: d.routing?.rule?.index ?? null,
        routingRule: d.routing?.rule ? ruleLabel(d.routing.rule) : null,
      });
    } else {
      created = await createRefund(this.#orm.em.fork(), d, d.referenceTraceId, alongside);
    }
    if (created) return { created: true, attempt: attemptFromRow(created) };
    const existing = await this.existingOrder(d.merchantId, d.orderId);
    if (!existing) throw new Error("order vanished between conflict and read");
    return existing;
  }

  async existingOrder(merchantId: string, orderId: string): Promise<ExistingOrder | undefined> {
    // The order's attempts, latest first (a cascade's few).
    const attempts = await selectAttempts(this.#db())
      .select("o.fingerprint")
      .where("o.merchant_id", "=", merchantId)
      .where("o.order_id", "=", orderId)
      .orderBy("t.attempt", "desc")
      .execute();
    const [latest] = attempts;
    if (!latest) return undefined;
    return { created: false, fingerprint: latest.fingerprint, attempt: attemptFromRow(latest), first: attemptFromRow(attempts[attempts.length - 1]) };
  }

  async findSale(merchantId: string, referenceId: string): Promise<RefundableSale | undefined> {
    // A trace_id as Cashier writes it: no leading zero. "0205" is an order_id (a platform's zero-padded one), not 205.
    const byTrace = /^[1-9]\d{0,9}$/.test(referenceId) && Number(referenceId) < 2 ** 31 ? Number(referenceId) : undefined;
    // A trace_id match wins over an order_id match; within an order, its approved attempt.
    const r = await this.#db()
      .selectFrom("transaction as t")
      .innerJoin("payment_order as o", "o.id", "t.order_ref")
      .select(["t.trace_id", "t.status", "t.processor", "t.transaction_id", "o.currency", "o.amount_minor", "o.card_fingerprint"])
      .where("o.merchant_id", "=", merchantId)
      .where("o.type", "=", "sale")
      .where((eb) => (byTrace === undefined ? eb("o.order_id", "=", referenceId) : eb.or([eb("t.trace_id", "=", byTrace), eb("o.order_id", "=", referenceId)])))
      .$if(byTrace !== undefined, (q) => q.orderBy((eb) => eb("t.trace_id", "=", byTrace!), "desc"))
      .orderBy((eb) => eb("t.status", "=", "approved"), "desc")
      .orderBy("t.attempt", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!r) return undefined;
    return {
      traceId: r.trace_id,
      status: r.status,
      currency: r.currency,
      amountMinor: r.amount_minor,
      processor: r.processor,
      transactionId: r.transaction_id,
      cardFingerprint: r.card_fingerprint,
    };
  }

  async applyDecision(traceId: number, from: State, d: Decision, x: ApplyExtras): Promise<ApplyResult> {
    const to = d.to ?? from;
    const callbacks: OutboxRow[] = x.callbacks.map((c) => ({
      event_id: c.eventId,
      kind: c.kind,
      merchant_id: c.merchantId,
      url: c.url,
      body: c.body,
      if_replied: c.ifReplied ?? false,
    }));
    const params: ApplyParams = {
      traceId,
      fromStatus: from.status,
      fromLetter: from.letter ?? null,
      toStatus: to.status,
      toLetter: to.letter ?? null,
      depositState: d.depositState,
      transactionId: d.transactionId,
      errorCode: d.errorCode,
      errorDetails: d.errorDetails,
      redirectUrl: d.redirectUrl ?? null,
      acquirerRedirectUrl: d.acquirerRedirectUrl ?? null,
      processorCode: d.processorCode ?? null,
      nextCheckAt: x.nextCheckAt,
      challengeExpiresAt: x.challengeExpiresAt ?? null,
      submitted: x.submitted ?? null,
      changed: d.to !== undefined,
      cause: d.cause,
      callbacks: JSON.stringify(callbacks),
      writeCard: x.card !== undefined,
      cardSealed: x.card ? x.card.sealed : null,
      cascadeProcessor: x.cascadeProcessor ?? null,
      origin: this.#origin,
    };
    if (x.alongside) return this.#applyAlongside(params, x.alongside);
    const [row] = await APPLY.run(this.#orm, params);
    if (row) {
      // The statement's join sees the order row as it was before its own update.
      const attempt = attemptFromRow(row);
      return { applied: true, attempt: x.card ? { ...attempt, cardHeld: x.card.sealed !== null } : attempt, nextTraceId: row.next_trace_id };
    }
    const current = await this.get(traceId);
    if (!current) throw new Error(`transaction ${traceId} not found`);
    return { applied: false, attempt: current, nextTraceId: null };
  }

  /**
   * The change and `alongside` in one database transaction: the change first
   * (its row locks), then `alongside` with the attempt read back as the change
   * left it, then the commit. A lost race writes nothing and runs nothing.
   */
  async #applyAlongside(params: ApplyParams, alongside: Alongside): Promise<ApplyResult> {
    const result = await this.#orm.em.fork().transactional(async (tx) => {
      const [row] = await APPLY.runIn(tx, params);
      if (!row) return undefined;
      const after = await selectAttempts(typedDb(tx)).where("t.trace_id", "=", params.traceId).executeTakeFirstOrThrow();
      const attempt = attemptFromRow(after);
      await alongside(txOf(tx), attempt);
      return { applied: true, attempt, nextTraceId: row.next_trace_id === null ? null : Number(row.next_trace_id) };
    });
    if (result) return result;
    const current = await this.get(params.traceId);
    if (!current) throw new Error(`transaction ${params.traceId} not found`);
    return { applied: false, attempt: current, nextTraceId: null };
  }

  /** The order's sealed card number, while it is held. */
  async sealedCard(orderRef: number): Promise<string | null> {
    const row = await this.#db().selectFrom("payment_order").select("card_sealed").where("id", "=", orderRef).executeTakeFirst();
    return row?.card_sealed ?? null;
  }

  async customer(orderRef: number): Promise<CustomerInput | undefined> {
    const row = await this.#db().selectFrom("payment_order").select("customer").where("id", "=", orderRef).executeTakeFirst();
    return row ? customerFromRecord(row.customer) : undefined;
  }

  /** Keeps a keyed hash of the cashier session's auth_token. */
  async saveSession(orderRef: number, tokenHash: string): Promise<void> {
    await this.#db()
      .insertInto("cashier_session")
      .values({ order_ref: orderRef, token_hash: tokenHash })
      .onConflict((oc) => oc.column("order_ref").doNothing())
      .execute();
  }

  async get(traceId: number): Promise<Attempt | undefined> {
    const row = await selectAttempts(this.#db()).where("t.trace_id", "=", traceId).executeTakeFirst();
    return row ? attemptFromRow(row) : undefined;
  }

  async findByProcessorId(merchantId: string, processor: string, transactionId: string): Promise<Attempt | undefined> {
    // transaction_processor_id_idx (011) finds the few rows with this id; the merchant and account are checked on them.
    const row = await selectAttempts(this.#db())
      .where("t.transaction_id", "=", transactionId)
      .where("t.processor", "=", processor)
      .where("o.merchant_id", "=", merchantId)
      .orderBy("t.trace_id", "desc")
      .limit(1)
      .executeTakeFirst();
    return row ? attemptFromRow(row) : undefined;
  }

  /**
   * The attempt's history. transaction_event is by month (022): bounded below by the attempt's creation, less a
   * day for the clocks (a change's time is the engine's, the attempt's the database's), the read plans and probes
   * the months since, not every month kept (with 61 months, 35 to 49 ms of planning against about 13).
   */
  async history(traceId: number): Promise<StatusChange[]> {
    const created = await this.#db().selectFrom("transaction").select("created_at").where("trace_id", "=", traceId).executeTakeFirst();
    if (!created) return [];
    const since = new Date(new Date(created.created_at).getTime() - HISTORY_CLOCK_MARGIN_MS);
    const events = await this.#orm.em.fork().find(TransactionEventEntity, { transaction: traceId, at: { $gte: since } }, { orderBy: { id: "asc" } });
    return events.map(changeFromEntity);
  }

  /** The operators' search; its SQL is transaction-search.ts's (bounded reads, explained by the plan test). */
  async list(q: ListQuery): Promise<ListResult> {
    const db = this.#db();
    const rows = await searchPage(db, q).execute();
    const listed = rows.map((r) => ({ attempt: attemptFromRow(r), key: { orderCreatedAt: r.order_created_at, orderRef: r.order_ref, attempt: r.attempt } }));
    if (rows.length >= q.limit) return { rows: listed };
    const edge = await searchEdge(db, q).executeTakeFirst();
    return { rows: listed, scannedTo: edge ? afterOrder(edge.order_created_at, Number(edge.id)) : undefined };
  }

  async stuck(q: StuckQuery): Promise<Attempt[]> {
    return (await stuckAttempts(this.#db(), q).execute()).map(attemptFromRow);
  }
}
