/**
 * What the follow-up worker and the hosted page claim on attempts, each claim
 * a conditional update that exactly one caller wins: due attempts (SKIP LOCKED,
 * with a lease), the sweep for attempts whose engine died mid-way, a cascade
 * attempt's submission, a challenge's completion; and the flag a repeated
 * request sets when it has told the platform a non-final state. Leases and due
 * times are on the database's clock, the one every engine shares. Typed
 * queries: none of these runs per request at the rate of Process.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { FollowUpStore } from "../ports/follow-ups.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { attemptExtras, attemptRefs } from "./attempt-select.ts";
import { TransactionEntity } from "../../store/entities/transaction.entity.ts";
import { attemptFromRow } from "./mappers.ts";
import { msFromNow, secondsAgo, typedDb } from "../../store/typed-db.ts";

/** recovery_watermark rows: the recovery sweep's (004) and the lookup sweep's (007). */
const STUCK_WATERMARK = 1;
const LOOKUP_WATERMARK = 2;

export class PgFollowUpStore implements FollowUpStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  #db() {
    return typedDb(this.#orm.em.fork());
  }

  /** Attempts whose next check is due, claimed for `leaseMs` (SKIP LOCKED: one engine each). */
  async claimDue(limit: number, leaseMs: number): Promise<number[]> {
    const rows = await this.#db()
      .updateTable("transaction")
      .set((eb) => ({ next_check_at: msFromNow(eb, leaseMs) }))
      .where("trace_id", "in", (eb) =>
        eb
          .selectFrom("transaction")
          .select("trace_id")
          .where("next_check_at", "<=", eb.fn<Date>("now"))
          .orderBy("next_check_at")
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returning("trace_id")
      .execute();
    return rows.map((r) => r.trace_id);
  }

  /**
   * Marks due the attempts created since the last sweep, at least `graceSeconds`
   * ago, that are still pending with no check planned: their engine died
   * mid-way. One engine sweeps at a time (the watermark row is locked, others skip).
   */
  sweepStuck(graceSeconds: number): Promise<number> {
    return this.#sweep(STUCK_WATERMARK, graceSeconds, ["pending", "requested"]);
  }

  /**
   * The same sweep on a shorter horizon for attempts waiting in pending for a
   * processor's answer (a sale or refund mid-call, never a payout in
   * requested): their processor is asked by trace_id, which is safe even if
   * their engine lives, because a lookup fences the key (decision 0007).
   * Its own watermark, so each sweep looks at every new row once.
   */
  sweepForLookup(graceSeconds: number): Promise<number> {
    return this.#sweep(LOOKUP_WATERMARK, graceSeconds, ["pending"]);
  }

  async #sweep(watermark: number, graceSeconds: number, statuses: ("pending" | "requested")[]): Promise<number> {
    const row = await this.#db()
      .with("w", (db) => db.selectFrom("recovery_watermark").select("scanned_to").where("id", "=", watermark).forUpdate().skipLocked())
      .with("upto", (db) => db.selectNoFrom((eb) => secondsAgo(eb, graceSeconds).as("t")))
      .with("stuck", (db) =>
        db
          .updateTable("transaction")
          .set((eb) => ({ next_check_at: eb.fn<Date>("now") }))
          .from(["w", "upto"])
          .whereRef("transaction.created_at", ">", "w.scanned_to")
          .whereRef("transaction.created_at", "<=", "upto.t")
          .where("transaction.status", "in", statuses)
          .where("transaction.next_check_at", "is", null)
          .returning("transaction.trace_id"),
      )
      .with("moved", (db) =>
        db
          .updateTable("recovery_watermark")
          .set((eb) => ({ scanned_to: eb.selectFrom("upto").select("upto.t") }))
          .where("id", "=", watermark)
          .where((eb) => eb.exists(eb.selectFrom("w").select("w.scanned_to")))
          .where((eb) => eb(eb.selectFrom("upto").select("upto.t"), ">", eb.selectFrom("w").select("w.scanned_to"))),
      )
      .selectFrom("stuck")
      .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("n"))
      .executeTakeFirst();
    return row?.n ?? 0;
  }

  /**
   * A repeated request is about to tell the platform this attempt's state: the
   * flag is set under the row's lock and the attempt read back in the same
   * statement, so a change committing meanwhile is either seen here or, being
   * after the flag, notified.
   */
  async markReplied(traceId: number): Promise<Attempt | undefined> {
    const row = await this.#db()
      .updateTable("transaction")
      .set({ replied: true })
      .from("payment_order as o")
      .whereRef("o.id", "=", "transaction.order_ref")
      .where("transaction.trace_id", "=", traceId)
      .returning(attemptRefs("transaction"))
      .returning(attemptExtras)
      .executeTakeFirst();
    return row ? attemptFromRow(row) : undefined;
  }

  /**
   * Claims an open challenge for the customer's answer: true for exactly one
   * caller, and only while it has not expired.
   */
  async claimChallenge(traceId: number, ms: number): Promise<boolean> {
    const row = await this.#db()
      .updateTable("transaction")
      .set((eb) => ({ completing_until: msFromNow(eb, ms) }))
      .where("trace_id", "=", traceId)
      .where("status", "=", "pending_async")
      .where("challenge_expires_at", ">", (eb) => eb.fn<Date>("now"))
      .where((eb) => eb.or([eb("completing_until", "is", null), eb("completing_until", "<", eb.fn<Date>("now"))]))
      .returning("trace_id")
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Claims a cascade attempt's submission: true for exactly one caller. */
  async claimSubmit(traceId: number, leaseMs: number): Promise<boolean> {
    const row = await this.#db()
      .updateTable("transaction")
      .set((eb) => ({ submitted: true, next_check_at: msFromNow(eb, leaseMs) }))
      .where("trace_id", "=", traceId)
      .where("submitted", "=", false)
      .returning("trace_id")
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Nothing more to look at on this attempt. */
  async clearCheck(traceId: number): Promise<void> {
    await this.#orm.em.fork().nativeUpdate(TransactionEntity, { traceId }, { nextCheckAt: null });
  }
}
