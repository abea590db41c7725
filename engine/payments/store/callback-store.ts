/**
 * The callback outbox on Postgres. Queued callbacks are inserted by the
 * statement that changes a transaction (hot-statements.ts), not here, so the
 * change and what it owes commit together; only a Validation call, made while
 * the customer waits, is recorded here after the fact. Workers claim due rows
 * with FOR UPDATE SKIP LOCKED and push next_attempt_at past the call's timeout
 * (a lease): several engines on one database never send one callback at the
 * same moment, and a crashed engine's claim simply falls due again. Per
 * transaction and kind, callbacks go out in the order they were owed (A before
 * P before Y): a later one waits while an earlier one is still pending. Every
 * attempt is kept. Typed queries and the entity manager: a delivery costs a
 * network call, beside which a statement's planning does not count.
 */
import type { AttemptOutcome, CallbackState } from "../../shared/callbacks.ts";
import { maskCardNumbers } from "../../shared/card.ts";
import { randomUUID } from "node:crypto";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { CallbackFilter, CallbackLog, CallbackView, ClaimedCallback, FailingFilter, FairShare, SendResult } from "../ports/callbacks.ts";
import { deliveryEdge, deliveryPage, failingDeliveries } from "./callback-search.ts";
import { CLAIM_DUE } from "./callback-claim.ts";
import { RECORD_DELIVERY } from "./delivery-record.ts";
import type { Verdict } from "../domain/callbacks.ts";
import { type CallbackAttemptRow, type CallbackRow, callbackViewOf } from "./mappers.ts";
import { notifyWork } from "../../store/notify-work.ts";
import { msFromNow, typedDb } from "../../store/typed-db.ts";
import { type Tx, txOf } from "../../store/tx.ts";

/** Reply bodies are kept cut to this many characters. */
export const KEPT_REPLY_CHARS = 2048;

/**
 * A platform's reply as it is kept and shown to operators: a card number in it masked (it was verified on receipt),
 * then cut. A NUL (a binary or compressed reply read as text) becomes U+FFFD: Postgres refuses U+0000 in text, and a
 * record it refused would leave the callback claimed, redelivered after each lease and never recorded.
 */
const cut = (raw: string) => {
  const s = maskCardNumbers(raw).replaceAll("\u0000", "\uFFFD");
  return [...s].length > KEPT_REPLY_CHARS ? [...s].slice(0, KEPT_REPLY_CHARS).join("") : s;
};

export class PgCallbackStore implements CallbackLog {
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

  /**
   * Claims due callbacks for `leaseMs`, at most `share.limit` (this engine's
   * free slots), by the fair-share rule of callback-claim.ts: each merchant
   * owed something holds at most min(perMerchant, max(1, floor(slots /
   * (merchants owed + 1)))) calls in flight over all engines, its open calls
   * counted against it; the merchants with fewer in flight come first, then
   * the oldest due; and a merchant's further calls always leave one share of
   * the free slots for a merchant newly owed. Any number of slow platforms
   * (fewer than the slots) therefore leave the others a slot at once. One
   * statement; two engines claiming at the same moment may together pass a
   * cap by what they claim at once, and the next claims are held back until
   * it is met again.
   */
  async claimDue(leaseMs: number, share: FairShare): Promise<ClaimedCallback[]> {
    const claim = randomUUID();
    const rows = await CLAIM_DUE.runAlone(this.#orm, { claim, leaseMs, limit: share.limit, perMerchant: share.perMerchant, slots: share.slots });
    return rows.flatMap((r) =>
      // Validation calls are recorded delivered or refused, never pending: never claimed.
      r.kind === "validation"
        ? []
        : [
            {
              id: r.id,
              eventId: r.event_id,
              kind: r.kind,
              merchantId: r.merchant_id,
              traceId: r.trace_id,
              url: r.url,
              body: r.body,
              attempt: r.attempts,
              claim,
            },
          ],
    );
  }

  /**
   * Keeps the attempt and, if the claim is still ours, moves the callback on.
   * A lost claim (the lease ran out and another worker took it) keeps only the attempt.
   */
  async recordAttempt(c: ClaimedCallback, r: SendResult, verdict: Verdict): Promise<void> {
    await RECORD_DELIVERY.run(this.#orm, {
      callbackId: c.id,
      claim: c.claim,
      durationMs: Math.round(r.durationMs),
      httpStatus: r.httpStatus,
      responseBody: cut(r.body),
      outcome: verdict.outcome,
      error: verdict.error,
      state: verdict.state,
      retryMs: verdict.retryInSeconds === null ? null : Math.round(verdict.retryInSeconds * 1000),
    });
  }

  /** A Validation call, made synchronously, kept like any callback with its one attempt. */
  async recordValidation(
    v: { merchantId: string; traceId: number; eventId: string; url: string; body: string; state: CallbackState; outcome: AttemptOutcome; error: string },
    r: SendResult,
  ): Promise<void> {
    await this.#db()
      .with("c", (db) =>
        db
          .insertInto("callback")
          .values({
            event_id: v.eventId,
            kind: "validation",
            merchant_id: v.merchantId,
            trace_id: v.traceId,
            url: v.url,
            body: v.body,
            state: v.state,
            attempts: 1,
          })
          .returning("id"),
      )
      .insertInto("callback_attempt")
      .values((eb) => ({
        callback_id: eb.selectFrom("c").select("c.id"),
        at: msFromNow(eb, -r.durationMs),
        duration_ms: r.durationMs,
        http_status: r.httpStatus,
        response_body: cut(r.body),
        outcome: v.outcome,
        error: v.error,
      }))
      .execute();
  }

  /** Newest first, each with every attempt at it (one more query for all the page's attempts); the SQL is callback-search.ts's. */
  async list(f: CallbackFilter): Promise<{ rows: CallbackView[]; scannedTo?: number }> {
    const db = this.#db();
    const callbacks = await deliveryPage(db, f).execute();
    const edge = callbacks.length < f.limit ? await deliveryEdge(db, f).executeTakeFirst() : undefined;
    return { rows: await this.#withAttempts(db, callbacks), scannedTo: edge?.id };
  }

  /** Callbacks failed or refused, or pending after `minAttempts` tries, newest first, each with its attempts. */
  async failing(f: FailingFilter): Promise<CallbackView[]> {
    const db = this.#db();
    return this.#withAttempts(db, await failingDeliveries(db, f).execute());
  }

  async #withAttempts(db: ReturnType<typeof typedDb>, callbacks: CallbackRow[]): Promise<CallbackView[]> {
    if (callbacks.length === 0) return [];
    const sent = await this.#attempts(
      db,
      callbacks.map((c) => c.id),
    );
    return callbacks.map((c) => callbackViewOf(c, sent.get(c.id) ?? []));
  }

  /** Every callback a transaction owed, oldest first. */
  async forTransaction(traceId: number): Promise<CallbackView[]> {
    return (await this.list({ traceId, limit: 1000 })).rows.reverse();
  }

  /**
   * One callback with its attempts: both read at once. A redelivery reads it
   * back right after waking the workers, and should see it before they have
   * delivered it again.
   */
  async get(id: number): Promise<CallbackView | undefined> {
    return this.#view(this.#db(), id);
  }

  async #view(db: ReturnType<typeof typedDb>, id: number): Promise<CallbackView | undefined> {
    const [c, sent] = await Promise.all([db.selectFrom("callback").selectAll().where("id", "=", id).executeTakeFirst(), this.#attempts(db, [id])]);
    return c ? callbackViewOf(c, sent.get(id) ?? []) : undefined;
  }

  /** The attempts at these callbacks, by callback, each in the order made. */
  async #attempts(db: ReturnType<typeof typedDb>, ids: number[]): Promise<Map<number, CallbackAttemptRow[]>> {
    const rows = await db.selectFrom("callback_attempt").selectAll().where("callback_id", "in", ids).orderBy("id").execute();
    const byCallback = new Map<number, CallbackAttemptRow[]>();
    for (const a of rows) byCallback.set(a.callback_id, [...(byCallback.get(a.callback_id) ?? []), a]);
    return byCallback;
  }

  /**
   * Makes a queued callback due now again (same event id), with a fresh count
   * of attempts (the stored attempts stay). Not while an attempt is in flight
   * (claimed, lease running): that would send it twice at once. Validation
   * calls are not queued. Made due, it wakes the other engines' delivery
   * workers at commit, in the same statement (notify-work.ts).
   */
  /**
   * Makes a callback due again, with `alongside` (an operator's audit row, written last, given the callback as the
   * redelivery left it) in the same transaction: that callback (read before a worker, woken at the commit, can take
   * it), or why not.
   */
  async redeliver(id: number, alongside?: (tx: Tx, after: CallbackView) => Promise<void>): Promise<CallbackView | "not-found" | "not-queued" | "in-flight"> {
    const made = await this.#orm.em.fork().transactional(async (tx) => {
      const db = typedDb(tx);
      if (!(await this.#makeDue(db, id))) return undefined;
      // Made due in this transaction: the row is there to read.
      const after = (await this.#view(db, id))!;
      await alongside?.(txOf(tx), after);
      return after;
    });
    return made ?? this.#whyNot(id);
  }

  async #makeDue(db: ReturnType<typeof typedDb>, id: number): Promise<boolean> {
    const done = await db
      .with("r", (db) =>
        db
          .updateTable("callback")
          .set((eb) => ({ state: "pending", attempts: 0, claim: null, next_attempt_at: eb.fn<Date>("now"), updated_at: eb.fn<Date>("now") }))
          .where("id", "=", id)
          .where("kind", "<>", "validation")
          .where((eb) => eb.not(eb.and([eb("claim", "is not", null), eb("next_attempt_at", ">", eb.fn<Date>("now"))])))
          .returning("id"),
      )
      .with("wk", (db) => db.selectFrom("r").select((eb) => notifyWork(eb, "callback", this.#origin).as("sent")))
      // Selecting from wk is what runs it: a plain CTE nobody reads is never evaluated.
      .selectFrom("r")
      .select((eb) => [
        "r.id",
        eb
          .selectFrom("wk")
          .select((eb) => eb.fn.countAll().as("n"))
          .as("woken"),
      ])
      .executeTakeFirst();
    return done !== undefined;
  }

  async #whyNot(id: number): Promise<"not-found" | "not-queued" | "in-flight"> {
    const exists = await this.#db().selectFrom("callback").select("kind").where("id", "=", id).executeTakeFirst();
    if (!exists) return "not-found";
    return exists.kind === "validation" ? "not-queued" : "in-flight";
  }
}
