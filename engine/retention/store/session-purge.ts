/**
 * The session purge's reads and deletes (docs/operations.md, Retention), one
 * bounded step each, on the times the sessions were written with (the
 * service's clock, passed in as `endedBefore`):
 *
 * - console sessions and unfinished sign-ins (console_session, by kind): a
 *   row ends at the earlier of its end and its expiry, found by the index on
 *   (kind, least(ended_at, expires_at)); nothing else names such a row (the
 *   audit log names operators, not sessions), so every row found goes;
 * - enrolment tokens: an expired one's hash is cleared, the operator kept
 *   (still enrolling, its expiry shown, for an admin to reset);
 * - hosted Cashier sessions: read by id after their watermark, like the
 *   callbacks (domain/retention.ts), since a session an order was made in is
 *   named by that order (payment_order.session_ref) and kept for good.
 *
 * SKIP LOCKED throughout: two engines stepping at once take different rows.
 */
import type { Kysely } from "@mikro-orm/postgresql";
import { type ExpressionBuilder, sql } from "kysely";
import { planPurge, type RetentionRow } from "../domain/retention.ts";
import type { CashierDb } from "../../store/typed-db.ts";

type Db = Kysely<CashierDb>;

/** When a console session or sign-in ended: its end, or its expiry if earlier or if it was never ended (least() skips a null). */
const endOf = (eb: ExpressionBuilder<CashierDb, "console_session">) => eb.fn<Date>("least", ["ended_at", "expires_at"]);

/** Deletes the console rows of `kind` that ended before `endedBefore`, oldest first, at most `batch` (the plan test explains it). */
export function consolePurge(db: Db, kind: "session" | "pending", endedBefore: Date, batch: number) {
  const due = db
    .selectFrom("console_session")
    .select("token_hash")
    .where("kind", "=", kind)
    .where((eb) => eb(endOf(eb), "<", endedBefore))
    .orderBy((eb) => endOf(eb))
    .limit(batch)
    .forUpdate()
    .skipLocked();
  // = any(array(...)): the batch's keys looked up one by one, never a hash join over the whole table.
  return db.deleteFrom("console_session").where(sql<boolean>`token_hash = any(array(${due}))`);
}

export async function purgeConsoleRows(db: Db, kind: "session" | "pending", endedBefore: Date, batch: number): Promise<number> {
  return Number((await consolePurge(db, kind, endedBefore, batch).executeTakeFirst()).numDeletedRows);
}

/** Clears the enrolment tokens that expired before `endedBefore`, at most `batch` (the plan test explains it). */
export function enrolmentClear(db: Db, endedBefore: Date, batch: number) {
  const due = db
    .selectFrom("operator")
    .select("login")
    .where("enrol_token_hash", "is not", null)
    .where("enrol_expires_at", "<", endedBefore)
    .orderBy("enrol_expires_at")
    .limit(batch)
    .forUpdate()
    .skipLocked();
  return db.updateTable("operator").set({ enrol_token_hash: null }).where(sql<boolean>`login = any(array(${due}))`);
}

export async function clearEnrolmentTokens(db: Db, endedBefore: Date, batch: number): Promise<number> {
  return Number((await enrolmentClear(db, endedBefore, batch).executeTakeFirst()).numUpdatedRows);
}

/** Hosted sessions after the watermark: old once expired before the cut, settled once no order names them. */
async function hostedRows(db: Db, afterId: number, endedBefore: Date, batch: number): Promise<RetentionRow[]> {
  const rows = await db
    .selectFrom("hosted_session as h")
    .select((eb) => [
      "h.id",
      eb("h.expires_at", "<", endedBefore).as("old"),
      eb.not(eb.exists(eb.selectFrom("payment_order as o").select("o.id").whereRef("o.session_ref", "=", "h.id"))).as("settled"),
    ])
    .where("h.id", ">", afterId)
    .orderBy("h.id")
    .limit(batch)
    .execute();
  return rows.map((r) => ({ id: r.id, old: r.old === true || r.old === 1, settled: r.settled === true || r.settled === 1 }));
}

/** One step over hosted sessions; run inside a transaction (the watermark row is locked until it ends). */
export async function purgeHostedSessions(db: Db, endedBefore: Date, batch: number): Promise<number> {
  const mark = await db.selectFrom("retention_watermark").select("after_id").where("name", "=", "hosted_session").forUpdate().skipLocked().executeTakeFirst();
  if (!mark) return 0;
  const plan = planPurge(await hostedRows(db, mark.after_id, endedBefore, batch));
  let gone = 0;
  if (plan.doomed.length > 0) {
    // The order check again: an order naming the session since the read keeps it.
    const r = await db
      .deleteFrom("hosted_session as h")
      .where("h.id", "in", plan.doomed)
      .where((eb) => eb.not(eb.exists(eb.selectFrom("payment_order as o").select("o.id").whereRef("o.session_ref", "=", "h.id"))))
      .executeTakeFirst();
    gone = Number(r.numDeletedRows);
  }
  if (plan.watermark !== null) await db.updateTable("retention_watermark").set({ after_id: plan.watermark }).where("name", "=", "hosted_session").execute();
  return gone;
}
