/**
 * The retention purge's reads and deletes (docs/operations.md, Retention).
 * One step is one short database transaction. Callbacks: lock the table's
 * watermark row (SKIP LOCKED: one engine purges a table at a time, the others
 * skip the step), read the next `batch` rows after it by id, delete what
 * domain/retention.ts plans, move the watermark. Webhook keys: a batch of
 * those received before the oldest month of events kept. The monthly tables
 * go by month (partition-store.ts). Ages are on the database's clock. Typed
 * queries: a step runs every few seconds, never per request.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { DroppedMonth, MonthlyTable, RetentionStore, RetentionTable, SessionRetention } from "../ports/ports.ts";
import { planPurge, type RetentionRow } from "../domain/retention.ts";
import { clearEnrolmentTokens, purgeConsoleRows, purgeHostedSessions } from "./session-purge.ts";
import { dropMonths, makeMonths } from "./partition-store.ts";
import { purgeCardTokens } from "./card-token-purge.ts";
import { type ExpressionBuilder, sql } from "kysely";
import { type CashierDb, secondsAgo, typedDb } from "../../store/typed-db.ts";

type Db = ReturnType<typeof typedDb>;

/**
 * The start of the UTC month `seconds` ago: every month before it is dropped, or about to be, once its period is
 * `seconds` (cashier_partitions_detach's cut).
 */
function monthCut<TB extends keyof CashierDb>(eb: ExpressionBuilder<CashierDb, TB>, seconds: number) {
  return eb.fn<Date>("date_trunc", [sql.lit("month"), secondsAgo(eb, seconds), sql.lit("UTC")]);
}

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
      if (table === "acquirer_webhook_event_key") return purgeWebhookKeys(db, olderThanSeconds, batch);
      const mark = await db.selectFrom("retention_watermark").select("after_id").where("name", "=", table).forUpdate().skipLocked().executeTakeFirst();
      if (!mark) return 0;
      const plan = planPurge(await callbackRows(db, mark.after_id, olderThanSeconds, batch));
      if (plan.doomed.length > 0) {
        // Their attempts go with their month; those kept past it (in the default partition) go now. The cut lets
        // Postgres read only the months before it, so the attempts still in a month of their own are not read.
        await db
          .deleteFrom("callback_attempt")
          .where("callback_id", "in", plan.doomed)
          .where((eb) => eb("at", "<", monthCut(eb, olderThanSeconds)))
          .execute();
        await db.deleteFrom("callback").where("id", "in", plan.doomed).execute();
      }
      if (plan.watermark !== null) await db.updateTable("retention_watermark").set({ after_id: plan.watermark }).where("name", "=", table).execute();
      return plan.doomed.length;
    });
  }

  makeMonths(table: MonthlyTable, ahead: number): Promise<number> {
    return makeMonths(this.#orm, table, ahead);
  }

  dropMonths(table: MonthlyTable, olderThanSeconds: number): Promise<DroppedMonth[]> {
    return dropMonths(this.#orm, table, olderThanSeconds);
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
        case "card_token":
          return purgeCardTokens(db, endedBefore, batch);
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

/**
 * Webhook keys received before the oldest month of events kept (their events gone with their month, or about to
 * be), oldest first, at most `batch`: a replay of such an event is then kept again as new, and applied only if its
 * attempt can still move, so a purge never makes an event change an attempt twice.
 */
async function purgeWebhookKeys(db: Db, olderThanSeconds: number, batch: number): Promise<number> {
  const due = db
    .selectFrom("acquirer_webhook_event_key")
    .select(["merchant_id", "account", "event_id"])
    .where((eb) => eb("received_at", "<", monthCut(eb, olderThanSeconds)))
    .orderBy("received_at")
    .limit(batch)
    .forUpdate()
    .skipLocked();
  const r = await db.deleteFrom("acquirer_webhook_event_key").where(sql<boolean>`(merchant_id, account, event_id) in (${due})`).executeTakeFirst();
  return Number(r.numDeletedRows);
}
