/**
 * Typed SQL for the cold paths: a Kysely instance bound to an entity manager
 * (its transaction, if any), whose tables and columns are inferred from the
 * entities (entities/all-entities.ts), so a misspelt column or a wrong value
 * type does not compile. `convertValues` has MikroORM convert results by the
 * entities' types: bigint columns arrive as numbers and timestamptz as Dates
 * (the pool itself hands both over as strings).
 */
import type { EntityManager, InferKyselyDB, Kysely } from "@mikro-orm/postgresql";
import type { ExpressionBuilder } from "kysely";
import type { ENTITIES } from "./entities/all-entities.ts";

const OPTIONS = { convertValues: true } as const;

/** The database as Kysely sees it: table name -> column name -> value type. */
export type CashierDb = InferKyselyDB<(typeof ENTITIES)[number], typeof OPTIONS>;

/** Kysely on `em`: inside `em.transactional()` its queries join that transaction. */
export function typedDb(em: EntityManager): Kysely<CashierDb> {
  return em.getKysely<CashierDb>(OPTIONS);
}

/**
 * `now() + ms` on the database's clock, the one every engine shares (leases,
 * due times): `make_interval`'s seconds, so no SQL text is written by hand.
 */
export function msFromNow<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, ms: number) {
  return eb(eb.fn<Date>("now"), "+", intervalOf(eb, ms / 1000));
}

/** `now() - seconds` on the database's clock. */
export function secondsAgo<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, seconds: number) {
  return eb(eb.fn<Date>("now"), "-", intervalOf(eb, seconds));
}

/** An interval of `seconds` (typed as the Date it is added to). */
function intervalOf<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, seconds: number) {
  const zero = eb.lit(0);
  return eb.fn<Date>("make_interval", [zero, zero, zero, zero, zero, zero, eb.val(seconds)]);
}
