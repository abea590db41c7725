/**
 * What the console's stores share: queries in the caller's transaction (a
 * change and its audit row commit together) or on a fork of their own, and
 * the transaction a use case opens through its ports.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import { emOf, type Tx, txOf } from "../../store/tx.ts";
import { typedDb } from "../../store/typed-db.ts";

/** The typed query builder the console's stores write with. */
export type Db = ReturnType<typeof typedDb>;

/** Queries in `tx` when given, else on a fork of their own (no transaction). */
export function consoleDb(orm: MikroORM, tx?: Tx): Db {
  return typedDb(tx ? emOf(tx) : orm.em.fork());
}

/** Runs `fn` in one database transaction, which every console store joins through the `tx` it is given. */
export function inTransaction<T>(orm: MikroORM, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return orm.em.fork().transactional((em) => fn(txOf(em)));
}
