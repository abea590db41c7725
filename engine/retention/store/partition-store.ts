/**
 * The monthly tables' upkeep (migration 022; docs/operations.md, Data retention): the SQL functions the
 * migration made, which run as the schema's owner since the engine's own role may not change the schema.
 * Making months and detaching old ones each take a brief lock on the table (and on the table its foreign key
 * names), bounded by the functions' lock_timeout: a call that cannot have it in time fails, and the maintenance
 * tries again later. A detached month is dropped in a transaction of its own, after its kept rows are copied back,
 * so the copy never holds a lock the payment path waits on; one left detached by a crash goes at the next call.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { sql } from "kysely";
import type { DroppedMonth, MonthlyTable } from "../ports/ports.ts";
import { typedDb } from "../../store/typed-db.ts";

/** The missing months of `table` from the database's current month through `ahead` months on; the number made. */
export async function makeMonths(orm: MikroORM, table: MonthlyTable, ahead: number): Promise<number> {
  const r = await sql<{ made: number }>`select cashier_partitions_create(${table}, now(), now() + make_interval(months => ${ahead})) as made`.execute(
    typedDb(orm.em.fork()),
  );
  return Number(r.rows[0]?.made ?? 0);
}

/**
 * Detaches the months of `table` that ended before the start of the month `olderThanSeconds` ago (one short
 * transaction), then drops every detached one, copying back first the rows still kept: a callback's attempts
 * are kept while it is pending or changed within the same period.
 */
export async function dropMonths(orm: MikroORM, table: MonthlyTable, olderThanSeconds: number): Promise<DroppedMonth[]> {
  const db = typedDb(orm.em.fork());
  await sql`select cashier_partitions_detach(${table}, now() - make_interval(secs => ${olderThanSeconds}))`.execute(db);
  const r = await sql<{
    month: string;
    kept: string;
  }>`select month, kept from cashier_partitions_drop_retired(${table}, now() - make_interval(secs => ${olderThanSeconds}))`.execute(db);
  return r.rows.map((row) => ({ table, month: row.month, kept: Number(row.kept) }));
}
