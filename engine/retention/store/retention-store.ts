/**
 * The retention purge's reads and deletes (docs/operations.md, Retention).
 * One step is one short database transaction: lock the table's watermark row
 * (SKIP LOCKED: one engine purges a table at a time, the others skip the
 * step), read the next `batch` rows after it by id, delete what
 * domain/retention.ts plans, move the watermark. Ages are on the database's
 * clock. Typed queries: a step runs every few seconds, never per request.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { RetentionStore, RetentionTable, SessionRetention } from "../ports/ports.ts";
import { planPurge, type RetentionRow } from "../domain/retention.ts";
import { TRANSITIONS } from "../../payments/index.ts";
import type { TransactionStatus } from "../../shared/transaction.ts";
import { clearEnrolmentTokens, purgeConsoleRows, purgeHostedSessions } from "./session-purge.ts";
import { sql } from "kysely";
import { secondsAgo, typedDb } from "../../store/typed-db.ts";

/** Statuses that have a way out: a transaction in one of them may still change, so its history is kept. */
const OPEN_STATUSES = [...new Set(Object.values(TRANSITIONS).flatMap((t) => Object.keys(t).map((k) => k.split(":")[0])))] as TransactionStatus[];

type Db = ReturnType<typeof typedDb>;

/** Kysely types a comparison as SqlBool (boolean, 0 or 1, by dialect); Postgres answers booleans. */
const asRows = (rows: { id: number; old: boolean | 0 | 1; settled: boolean | 0 | 1 }[]): RetentionRow[] =>
  rows.map((r) => ({ id: r.id, old: r.old === true || r.old === 1, settled: r.settled === true || r.settled === 1 }));

export class PgRetentionStore implements RetentionStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  async purge(table: RetentionTable, olderThanSeconds: number, batch: number): Promise<number> {
    return this.#orm.em.fork().transactional(async (em) => {
      const db = typedDb(em);
      const mark = await db.selectFrom("retention_watermark").select("after_id").where("name", "=", table).forUpdate().skipLocked().executeTakeFirst();
      if (!mark) return 0;
      const plan = planPurge(await ROWS[table](db, mark.after_id, olderThanSeconds, batch));
      if (plan.doomed.length > 0) {
        if (table === "callback") {
          await db.deleteFrom("callback_attempt").where("callback_id", "in", plan.doomed).execute();
          await db.deleteFrom("callback").where("id", "in", plan.doomed).execute();
        } else if (table === "transaction_event") {
          await db.deleteFrom("transaction_event").where("id", "in", plan.doomed).execute();
        } else {
          await db.deleteFrom("acquirer_webhook_event").where("id", "in", plan.doomed).execute();
        }
      }
      if (plan.watermark !== null) await db.updateTable("retention_watermark").set({ after_id: plan.watermark }).where("name", "=", table).execute();
      return plan.doomed.length;
    });
  }

  /** Ended sessions (session-purge.ts), one short transaction per step. */
  async purgeSessions(kind: SessionRetention, endedBefore: Date, batch: number): Promise<number> {
    return this.#orm.em.fork().transactional(async (em) => {
      const db = typedDb(em);
      switch (kind) {
        case "console_session":
          return purgeConsoleRows(db, "session", endedBefore, batch);
        case "console_sign_in":
          return purgeConsoleRows(db, "pending", endedBefore, batch);
        case "enrolment_token":
          return clearEnrolmentTokens(db, endedBefore, batch);
        case "hosted_session":
          return purgeHostedSessions(db, endedBefore, batch);
      }
    });
  }
}

/** Callbacks after the watermark: old once last touched before the cut, settled once no longer pending. */
async function callbackRows(db: Db, afterId: number, olderThanSeconds: number, batch: number): Promise<RetentionRow[]> {
  const rows = await db
    .selectFrom("callback")
    .select((eb) => ["id", eb("updated_at", "<", secondsAgo(eb, olderThanSeconds)).as("old"), eb("state", "<>", "pending").as("settled")])
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(batch)
    .execute();
  return asRows(rows);
}

/** Status changes after the watermark: old once recorded before the cut, settled once their transaction is final. */
async function eventRows(db: Db, afterId: number, olderThanSeconds: number, batch: number): Promise<RetentionRow[]> {
  const rows = await db
    .selectFrom("transaction_event as e")
    .innerJoin("transaction as t", "t.trace_id", "e.trace_id")
    .select((eb) => ["e.id", eb("e.at", "<", secondsAgo(eb, olderThanSeconds)).as("old"), eb("t.status", "not in", OPEN_STATUSES).as("settled")])
    .where("e.id", ">", afterId)
    .orderBy("e.id")
    .limit(batch)
    .execute();
  return asRows(rows);
}

/**
 * Acquirers' webhook events after the watermark: old once received before the cut; always settled, since a kept
 * event never changes (its applied_at is written with it). A replay of a purged event is kept again and applied
 * only if its attempt can still move, so a purge never makes an event change an attempt twice.
 */
async function webhookRows(db: Db, afterId: number, olderThanSeconds: number, batch: number): Promise<RetentionRow[]> {
  const rows = await db
    .selectFrom("acquirer_webhook_event")
    .select((eb) => ["id", eb("received_at", "<", secondsAgo(eb, olderThanSeconds)).as("old"), sql<boolean>`true`.as("settled")])
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(batch)
    .execute();
  return asRows(rows);
}

/** Each table's read of its next rows. */
const ROWS: Record<RetentionTable, (db: Db, afterId: number, olderThanSeconds: number, batch: number) => Promise<RetentionRow[]>> = {
  callback: callbackRows,
  transaction_event: eventRows,
  acquirer_webhook_event: webhookRows,
};
