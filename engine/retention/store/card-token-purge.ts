/**
 * The retention sweep's step over card tokens (CONTRACT 12): a token past
 * its expiry is deleted with its row, its sealed card number and any CVV it
 * was never used with; at most `batch` per step, rows another engine's step
 * holds skipped.
 */
import type { Kysely } from "@mikro-orm/postgresql";
import type { CashierDb } from "../../store/typed-db.ts";

export async function purgeCardTokens(db: Kysely<CashierDb>, expiredBefore: Date, batch: number): Promise<number> {
  const due = db.selectFrom("card_token").select("id").where("expires_at", "<=", expiredBefore).orderBy("expires_at").limit(batch).forUpdate().skipLocked();
  const r = await db.deleteFrom("card_token").where("id", "in", due).executeTakeFirst();
  return Number(r.numDeletedRows);
}
